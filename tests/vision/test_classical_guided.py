"""The classical detector's guided frames (vision/classical.py, ``ClassicalDetector.detect_frame``).

While a ball moves and the last frame found the whole carom set (three balls, one of each colour:
002 carom ART 2.8) clearly, the candidates are sought only in windows of the half-resolution view
around the tracker's predictions. Each ball's detection must then be the one the whole view's pass
gives (the same blob, window and order): every case here runs a guided detector beside one that
passes the whole view on every frame (``guided_every=1``) over the same frames and compares the
detections. Where the windows cannot stand for the whole view — a ball away from its prediction, a
blob across a window's edge, a change of light — the frame goes to the whole view."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.table import load_table
from synth.render.balls import BallsState
from synth.render.cameras import broadcast_camera
from synth.render.frame import render_frame
from synth.render.occluder import HandCuePose
from synth.render.scene import build_scene
from synth.render.style import RenderStyle
from tracking.detections import BallMotion, MotionState
from tracking.ids import BallId
from vision.classical import ClassicalConfig, ClassicalDetector, _merged
from vision.rectify import Rectifier
from vision.source import Frame

TABLE = load_table("carom")
R = TABLE.ball_radius_mm
FPS = 30.0
START = {BallId.WHITE: (500.0, 300.0), BallId.YELLOW: (2200.0, 1000.0), BallId.RED: (2300.0, 300.0)}
#: mm a frame: the white rolls along the table, the yellow across it, the red rests
STEP = {BallId.WHITE: (40.0, 10.0), BallId.YELLOW: (0.0, -25.0), BallId.RED: (0.0, 0.0)}
N_FRAMES = 8


def _at(i: int) -> dict[BallId, tuple[float, float]]:
    return {b: (x + i * STEP[b][0], y + i * STEP[b][1]) for b, (x, y) in START.items()}


@pytest.fixture(scope="module")
def world():
    cam = broadcast_camera(TABLE, 1280, 720)
    scene = build_scene(TABLE, cam, RenderStyle(static_supersample=1), np.random.default_rng(3))
    rect = Rectifier(cam, TABLE, 0.5)
    frames = [
        render_frame(scene, BallsState.at_rest(_at(i), R), np.random.default_rng(10 + i)) for i in range(N_FRAMES)
    ]
    return rect, scene, frames


def _motion(i: int, off_mm: dict[BallId, tuple[float, float]] | None = None) -> MotionState:
    """The tracker's prediction for frame ``i``: where each ball is, moved by ``off_mm``."""
    off = off_mm or {}
    balls = []
    for b, (x, y) in _at(i).items():
        dx, dy = off.get(b, (0.0, 0.0))
        vx, vy = STEP[b][0] * FPS, STEP[b][1] * FPS
        balls.append(BallMotion(b, x + dx, y + dy, vx, vy, seen_last_frame=True, gone=False))
    return MotionState(t_s=i / FPS, resting=False, balls=tuple(balls))


def _pair(rect: Rectifier, first: np.ndarray, every: int = 6) -> tuple[ClassicalDetector, ClassicalDetector]:
    """A guided detector and one that passes the whole view on every frame."""
    out = []
    for n in (every, 1):
        det = ClassicalDetector(rect.geometry, R, config=ClassicalConfig(guided_every=n), rectifier=rect)
        det.set_background(rect(first))
        out.append(det)
    return out[0], out[1]


def _step(guided: ClassicalDetector, whole: ClassicalDetector, i: int, image: np.ndarray, motion: MotionState) -> bool:
    """Frame ``i`` through both; asserts the same detections; whether it was a guided frame."""
    a = guided.detect_frame(Frame(i, i / FPS, image), motion).balls
    b = whole.detect_frame(Frame(i, i / FPS, image), motion).balls
    assert a == b, f"frame {i}: guided {a} != whole view {b}"
    assert {d.label for d in a} == set(START), f"frame {i}: {a}"
    return guided.prepare_useful() is False


def test_guided_frames_give_the_whole_views_detections(world) -> None:
    """002 carom ART 2.8 (one ball of each colour): frames 1-5 guided, frame 6 the whole view
    (``guided_every`` 6), frame 7 guided again; every frame's detections as the whole view's."""
    rect, _scene, frames = world
    guided, whole = _pair(rect, frames[0])
    kinds = [_step(guided, whole, i, frames[i], _motion(i)) for i in range(N_FRAMES)]
    assert kinds == [False, True, True, True, True, True, False, True], kinds
    # the colours learnt from clear balls, as the whole view's pass learnt them
    for k, ref in whole._ref_bgr.items():
        assert np.array_equal(guided._ref_bgr[k], ref), k


def test_guided_every_one_passes_the_whole_view_on_every_frame(world) -> None:
    rect, _scene, frames = world
    det = ClassicalDetector(rect.geometry, R, config=ClassicalConfig(guided_every=1), rectifier=rect)
    det.set_background(rect(frames[0]))
    for i in range(4):
        det.detect_frame(Frame(i, i / FPS, frames[i]), _motion(i))
        assert det.prepare_useful(), f"frame {i} was guided"


@pytest.mark.parametrize(
    ("case", "motion"),
    [
        ("resting: the cloth model may be refreshed", MotionState(t_s=2 / FPS, resting=True, balls=_motion(2).balls)),
        ("no predictions", MotionState(t_s=2 / FPS, resting=False)),
        (
            "a ball not seen on the last frame",
            MotionState(
                2 / FPS, False, tuple(replace(m, seen_last_frame=m.ball is not BallId.RED) for m in _motion(2).balls)
            ),
        ),
        ("one ball predicted twice, another not at all", MotionState(2 / FPS, False, (_motion(2).balls[0],) * 3)),
        ("the white predicted 300 mm from where it is", _motion(2, {BallId.WHITE: (300.0, 0.0)})),
    ],
)
def test_frames_the_windows_cannot_stand_for_go_to_the_whole_view(world, case: str, motion: MotionState) -> None:
    rect, _scene, frames = world
    guided, whole = _pair(rect, frames[0])
    for i in range(2):
        _step(guided, whole, i, frames[i], _motion(i))
    assert not _step(guided, whole, 2, frames[2], motion), case


def test_a_blob_across_a_windows_edge_sends_the_frame_to_the_whole_view(world) -> None:
    """A bridge hand 160 mm from the white, clear of it: its blob reaches into the white's window
    from beyond it, where the windows cannot tell how far it goes (it might hold a ball). The
    whole view finds the three balls clearly all the same."""
    rect, scene, frames = world
    wx, wy = _at(2)[BallId.WHITE]
    hand = HandCuePose(hand_xy_mm=(wx, wy + 160.0), aim_rad=0.0, tip_xy_mm=(wx + 80.0, wy + 160.0), tip_z_mm=R)
    with_hand = render_frame(scene, BallsState.at_rest(_at(2), R), np.random.default_rng(12), occluders=[hand])
    guided, whole = _pair(rect, frames[0])
    for i in range(2):
        _step(guided, whole, i, frames[i], _motion(i))
    a = guided.detect_frame(Frame(2, 2 / FPS, with_hand), _motion(2)).balls
    b = whole.detect_frame(Frame(2, 2 / FPS, with_hand), _motion(2)).balls
    assert whole._all_found(list(b)), b
    assert guided.prepare_useful(), "the frame with the hand was guided"
    assert a == b


def test_a_change_of_light_sends_the_frame_to_the_whole_view(world) -> None:
    """The exposure rises by 12 % on a frame that could be guided: too little for the balls'
    windows to turn foreground, enough for the whole view's median to drift past
    ClassicalConfig.drift_lightness: that pass makes the cloth model again, as without guided
    frames."""
    rect, _scene, frames = world
    guided, whole = _pair(rect, frames[0])
    for i in range(2):
        _step(guided, whole, i, frames[i], _motion(i))
    bright = [np.clip(f.astype(np.float32) * 1.12, 0, 255).astype(np.uint8) for f in frames[2:4]]
    assert not _step(guided, whole, 2, bright[0], _motion(2))
    assert np.array_equal(guided._bg_full, whole._bg_full), "the cloth model was not made again alike"
    assert _step(guided, whole, 3, bright[1], _motion(3)), "after the new cloth model, guided again"


@pytest.mark.parametrize(
    ("boxes", "expected"),
    [
        ([(0, 0, 10, 10)], [(0, 0, 10, 10)]),
        ([(0, 0, 10, 10), (20, 20, 30, 30)], [(0, 0, 10, 10), (20, 20, 30, 30)]),
        ([(0, 0, 10, 10), (5, 5, 15, 15)], [(0, 0, 15, 15)]),
        ([(0, 0, 10, 10), (10, 0, 20, 10)], [(0, 0, 20, 10)]),  # touching: one window
        # a chain: the first two merged then reach the third
        ([(0, 0, 10, 10), (8, 0, 18, 10), (17, 5, 30, 12)], [(0, 0, 30, 12)]),
        ([], []),
    ],
)
def test_windows_that_overlap_or_touch_are_merged(boxes, expected) -> None:
    assert _merged(boxes) == expected
