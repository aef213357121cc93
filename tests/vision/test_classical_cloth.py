"""The classical detector's cloth model and colour classes (vision/classical.py).

The cloth model is the first frame's; what covered the cloth then (a bridge hand, a cue) is in it,
and once gone the bare cloth there is foreground on every frame. While the table rests, a
foreground window that held no ball is modelled again from the frame; one that stays after that
(a cue, fingers) is left. The colour classes are read from a table over the (a, b) pairs: the
same classes as the hue and chroma computed per pixel."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import load_table
from synth.render.balls import BallsState
from synth.render.cameras import broadcast_camera
from synth.render.frame import render_frame
from synth.render.occluder import HandCuePose
from synth.render.scene import build_scene
from synth.render.style import RenderStyle
from tracking.detections import MotionState
from tracking.ids import BallId
from vision.classical import ClassicalConfig, ClassicalDetector
from vision.rectify import Rectifier
from vision.source import Frame

TABLE = load_table("carom")
R = TABLE.ball_radius_mm
BALLS = {BallId.WHITE: (500.0, 300.0), BallId.YELLOW: (2200.0, 1000.0), BallId.RED: (2300.0, 300.0)}
# a bridge hand and cue over open cloth, well away from every ball
HAND = HandCuePose(hand_xy_mm=(1300.0, 800.0), aim_rad=0.3, tip_xy_mm=(1450.0, 845.0), tip_z_mm=R)
RESTING = MotionState(t_s=0.0, resting=True)
MOVING = MotionState(t_s=0.0, resting=False)


@pytest.fixture(scope="module")
def world():
    cam = broadcast_camera(TABLE, 1280, 720)
    scene = build_scene(TABLE, cam, RenderStyle(static_supersample=1), np.random.default_rng(3))
    rect = Rectifier(cam, TABLE, 0.5)
    still = BallsState.at_rest(BALLS, R)
    with_hand = render_frame(scene, still, np.random.default_rng(1), occluders=[HAND])
    bare = [render_frame(scene, still, np.random.default_rng(seed)) for seed in (2, 4, 6)]
    return rect, scene, with_hand, bare


def _detector(rect: Rectifier, first: np.ndarray) -> ClassicalDetector:
    det = ClassicalDetector(rect.geometry, R, rectifier=rect)
    det.set_background(rect(first))
    return det


def _run(det: ClassicalDetector, frames: list[np.ndarray], motion: MotionState) -> list[tuple[set[BallId], int]]:
    """Per frame: the ball labels found, and how many foreground windows held no ball."""
    out = []
    for i, image in enumerate(frames):
        found = det.detect_frame(Frame(i, i / 30.0, image), motion).balls
        out.append(({d.label for d in found if d.label is not None}, len(det._empty)))
    return out


def test_cloth_under_the_first_frames_hand_is_modelled_again_at_rest(world) -> None:
    rect, _scene, with_hand, bare = world
    runs = _run(_detector(rect, with_hand), bare, RESTING)
    assert all(labels == set(BALLS) for labels, _ in runs), runs
    assert runs[0][1] >= 1, "the hand's place should be foreground on the first bare frame"
    assert [empty for _, empty in runs[1:]] == [0, 0], f"the cloth under the hand was not refreshed: {runs}"


def test_cloth_is_not_refreshed_while_a_ball_moves(world) -> None:
    rect, _scene, with_hand, bare = world
    runs = _run(_detector(rect, with_hand), bare, MOVING)
    assert all(labels == set(BALLS) for labels, _ in runs), runs
    assert all(empty >= 1 for _, empty in runs), runs


def test_a_blob_the_median_cannot_learn_is_refreshed_once(world, monkeypatch) -> None:
    rect, scene, _with_hand, bare = world
    det = _detector(rect, bare[0])
    refreshed: list[int] = []
    learn = det._relearn
    frame = {"i": -1}
    monkeypatch.setattr(det, "_relearn", lambda box, window: (refreshed.append(frame["i"]), learn(box, window)))
    # the same hand and cue on each frame (a hand resting while the player aims), its own noise
    runs = []
    for i, seed in enumerate((7, 8, 9, 10)):
        frame["i"] = i
        image = render_frame(scene, BallsState.at_rest(BALLS, R), np.random.default_rng(seed), occluders=[HAND])
        runs += _run(det, [image], RESTING)
    # the cue stays foreground (thinner than the median's window): refreshed when first seen (and
    # a part split from it, once), then left while it stays
    assert all(labels == set(BALLS) and empty >= 1 for labels, empty in runs), runs
    assert refreshed and max(refreshed) <= 1, f"refreshed on frames {refreshed}: {runs}"


def _float_classes(lab: np.ndarray, bg: np.ndarray, cfg: ClassicalConfig) -> np.ndarray:
    """The colour classes as computed per pixel before the table: hue angle and chroma in float."""
    a = lab[..., 1].astype(np.float32) - 128.0
    b = lab[..., 2].astype(np.float32) - 128.0
    L = lab[..., 0].astype(np.float32)
    chroma = np.hypot(a, b)
    hue = np.degrees(np.arctan2(b, a))
    cls = np.full(L.shape, -1, np.int8)
    for k, (lo, hi) in enumerate(cfg.hues_deg.values()):
        cls[(chroma >= cfg.saturated_chroma) & (hue >= lo) & (hue < hi)] = k
    bright = (L >= cfg.white_lightness) | (L - bg[..., 0] >= cfg.white_above_cloth)  # noqa: SIM300 (L is an array)
    cls[bright & (chroma < cfg.white_max_chroma)] = len(cfg.hues_deg)
    return cls


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_colour_classes_from_the_table_match_the_per_pixel_hue(world, seed: int) -> None:
    rect = world[0]
    det = ClassicalDetector(rect.geometry, R)
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, 256, size=(128, 512, 3), dtype=np.uint8)
    lab[0, :256, 1] = np.arange(256)  # every a and b value at least once
    lab[1, :256, 2] = np.arange(256)
    bg = rng.integers(0, 256, size=(128, 512, 3)).astype(np.int16)
    got = det._pixel_classes(lab, bg)
    want = _float_classes(lab, bg, det.config)
    assert got.dtype == np.int8
    assert np.array_equal(got, want), f"{int((got != want).sum())} pixels differ"
    assert {-1, 0, 1, 2} <= set(np.unique(got).tolist())


@pytest.mark.parametrize("gain", [1.3, 0.75], ids=["brighter", "darker"])
def test_a_change_of_light_over_the_whole_view_remakes_the_cloth_model(world, gain: float) -> None:
    # a broadcast camera's exposure moving over a long clip: measured on a sample clip brightened
    # by up to 45 %, the analysis fell from 13x to 0.8x real time (the whole cloth foreground)
    import cv2

    rect, _scene, _with_hand, bare = world
    det = _detector(rect, bare[0])
    lit = [cv2.convertScaleAbs(img, alpha=gain, beta=0) for img in bare[1:]]
    runs = _run(det, lit, MOVING)
    assert all(labels == set(BALLS) for labels, _ in runs), runs
    assert runs[-1][1] == 0, f"the new light is still foreground after the model was remade: {runs}"
    assert det._drift[0] <= det.config.drift_lightness and det._drift[1] <= det.config.drift_chroma
