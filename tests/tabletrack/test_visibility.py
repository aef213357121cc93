"""The table-in-view check (tabletrack/visibility.py) frame by frame, and the gaps it makes: a
black or mostly covered frame is not the table, a frame with a hand over a corner still is; the
cloth model comes from several light frames, never a dark lead-in; a call whose shot touches a gap
is marked for review with the gap as its reason (tabletrack/pipeline.py _flag_gaps)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from small_clips import half_size_calibration, half_size_clip

from calibration.camera import CameraModel
from calibration.table import load_table
from rules import judge_events
from synth.physics.shots import load_shot
from tabletrack.shot_judge import _flag_gaps
from tabletrack.visibility import ClothModel, GapLog, TableNotSeenError, VisibilityConfig
from tracking.events import group_shots
from vision.source import Frame, VideoFile


@pytest.fixture(scope="module")
def model_and_frame(tmp_path_factory: pytest.TempPathFactory) -> tuple[ClothModel, np.ndarray]:
    d = tmp_path_factory.mktemp("vis")
    video = half_size_clip(d / "clip.mp4", (0.0, 1.0), frames=150)  # a black first second
    cam = CameraModel.load(half_size_calibration(d / "cal.json"))
    model = ClothModel.from_video(video, cam, load_table("carom"))
    cap = cv2.VideoCapture(str(video))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 100)
    ok, frame = cap.read()
    cap.release()
    assert ok
    return model, frame


def _covered(frame: np.ndarray, share: float) -> np.ndarray:
    """``frame`` with its left ``share`` of the width under a skin-coloured sheet."""
    out = frame.copy()
    out[:, : int(share * frame.shape[1])] = (120, 150, 200)
    return out


def _zoomed(frame: np.ndarray, factor: float) -> np.ndarray:
    """``frame``'s centre enlarged ``factor`` times to the frame's size (a broadcast close-up)."""
    h, w = frame.shape[:2]
    ch, cw = int(h / factor), int(w / factor)
    y0, x0 = (h - ch) // 2, (w - cw) // 2
    return cv2.resize(frame[y0 : y0 + ch, x0 : x0 + cw], (w, h), interpolation=cv2.INTER_LINEAR)


def _rails_covered(frame: np.ndarray, model: ClothModel, share: float) -> np.ndarray:
    """``frame`` with the first ``share`` of its rail points under a dark sleeve (an arm on a rail)."""
    out = frame.copy()
    for u, v in model.rail_px[: int(share * len(model.rail_px))]:
        cv2.circle(out, (int(u), int(v)), 6, (40, 40, 60), -1)
    return out


@pytest.mark.parametrize(
    "edit,visible",
    [
        (lambda f, m: f, True),
        (lambda f, m: np.zeros_like(f), False),
        (lambda f, m: _covered(f, 0.8), False),
        (lambda f, m: _covered(f, 0.2), True),
        (lambda f, m: cv2.convertScaleAbs(f, alpha=0.8), True),  # the lights dimmed a little
        (lambda f, m: _zoomed(f, 2.0), False),  # cloth where the rails were: not the calibrated view
        (lambda f, m: _zoomed(f, 1.25), False),
        (lambda f, m: _rails_covered(f, m, 0.6), True),  # not cloth on the rails: still the table
    ],
    ids=[
        "as filmed",
        "black",
        "80% covered",
        "a hand over 20%",
        "dimmer",
        "a 2x close-up",
        "a 1.25x zoom",
        "arms on the rails",
    ],
)
def test_the_table_is_seen_or_not(model_and_frame: tuple[ClothModel, np.ndarray], edit, visible: bool) -> None:  # type: ignore[no-untyped-def]
    model, frame = model_and_frame
    seen = edit(frame, model)
    assert model.visible(seen) is visible, (model.match_fraction(seen), model.rail_cloth_fraction(seen))


def test_rails_of_the_cloth_s_colour_are_not_tested(tmp_path: Path) -> None:
    """A table whose rails look like its cloth (or are out of the picture) has no rail test: the
    cloth alone decides, as before."""
    video = half_size_clip(tmp_path / "clip.mp4", (0.0, 1.0), frames=150)
    cam = CameraModel.load(half_size_calibration(tmp_path / "cal.json"))
    table = load_table("carom")
    rails = ClothModel.rail_points(cam, table, VisibilityConfig())
    own = ClothModel.from_video(video, cam, table)
    assert len(own.rail_px) >= own.config.rail_min_points  # the sample table's wooden rails

    def painted(fr: Frame) -> Frame:
        if fr.image is None:
            return fr
        img = fr.image.copy()
        u, v = own.points_px[len(own.points_px) // 2]
        colour = tuple(int(c) for c in img[v, u])  # the cloth's colour mid-table
        for x, y in rails:
            cv2.circle(img, (int(x), int(y)), 8, colour, -1)
        return Frame(fr.index, fr.t_s, img)

    with VideoFile(video) as src:
        size = (src.info.width_px, src.info.height_px)
        model = ClothModel.from_frames((painted(f) for f in src.frames()), cam, table, size, 0, src.info.fps)
    assert len(model.rail_px) < model.config.rail_min_points
    with VideoFile(video) as src:
        frame = painted(next(f for f in src.frames() if f.index == 100)).image
    assert model.rail_cloth_fraction(frame) is None and model.visible(frame)


def test_the_cloth_model_skips_a_dark_lead_in(model_and_frame: tuple[ClothModel, np.ndarray]) -> None:
    model, frame = model_and_frame
    assert float(np.median(model.lab[:, 0])) > 40  # lightness of a cloth, not of black
    assert model.background_bgr.shape == frame.shape and model.background_bgr.mean() > 30


def test_the_frame_loop_s_model_holds_no_frames_and_sees_the_same(
    model_and_frame: tuple[ClothModel, np.ndarray],
) -> None:
    # the median background is made only when asked for (a black first frame), and the frames it
    # is made from are dropped before the frame loop (1080p: 7 frames, 42 MB)
    model, frame = model_and_frame
    light = model.without_frames()
    assert light.frames == () and len(model.frames) > 0
    assert light.visible(frame) == model.visible(frame) and light.match_fraction(frame) == model.match_fraction(frame)
    with pytest.raises(ValueError, match="dropped"):
        _ = light.background_bgr


@pytest.mark.parametrize("start_frame", [0, 37])
def test_the_model_from_a_shared_pass_is_the_model_of_its_own_pass(tmp_path: Path, start_frame: int) -> None:
    """``analyze`` takes the model's frames from the pass that solved the camera (from_frames,
    every frame decoded here): the same model as from_video's own pass."""
    video = half_size_clip(tmp_path / "clip.mp4", (0.0, 1.0), frames=150)
    cam = CameraModel.load(half_size_calibration(tmp_path / "cal.json"))
    table = load_table("carom")
    own = ClothModel.from_video(video, cam, table, start_frame)
    with VideoFile(video) as src:
        size = (src.info.width_px, src.info.height_px)
        shared = ClothModel.from_frames(src.frames(), cam, table, size, start_frame, src.info.fps)
    np.testing.assert_array_equal(shared.points_px, own.points_px)
    np.testing.assert_array_equal(shared.lab, own.lab)
    np.testing.assert_array_equal(shared.background_bgr, own.background_bgr)


def test_a_video_with_no_light_frame_is_refused(tmp_path: Path) -> None:
    video = half_size_clip(tmp_path / "black.mp4", (0.0, 99.0), frames=40)
    cam = CameraModel.load(half_size_calibration(tmp_path / "cal.json"))
    with pytest.raises(TableNotSeenError, match="the table is not seen in any frame"):
        ClothModel.from_video(video, cam, load_table("carom"))


def test_003_2_a_call_touching_a_gap_is_marked_for_review() -> None:
    """The point of point_2a (003 art. 2) stands, but the table was not seen during its shot."""
    events = load_shot("point_2a").events
    (shot,) = group_shots(events)
    (call,), _ = judge_events(events, "three-cushion", {"start": {"next_is_break": False}})
    gaps = GapLog()
    t_mid = (shot.events[0].t_s + shot.events[-1].t_s) / 2
    gaps.unseen(100, t_mid)
    gaps.unseen(110, t_mid + 0.3)
    gaps.seen()
    flagged = _flag_gaps(call, shot, gaps)
    assert flagged.needs_review and flagged.points == call.points
    assert f"the table was not seen from {t_mid:.2f} to {t_mid + 0.3:.2f} s (11 frames)" in (
        flagged.review_reason or ""
    )
    far = GapLog()
    far.unseen(9000, shot.events[-1].t_s + 5.0)
    assert _flag_gaps(call, shot, far) == call
