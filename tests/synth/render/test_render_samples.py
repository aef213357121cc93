"""The sample clip set (tools/make_samples.py, sample_videos/): what the brief asks of it, and that
the committed clips still agree with their truth files and with the committed shots."""

import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.table import load_table
from synth.render.cameras import broadcast_camera
from synth.render.truth import load_truth

REPO = Path(__file__).resolve().parents[3]
SAMPLES = REPO / "sample_videos"
SHOTS = REPO / "sample_data" / "shots"


def _tool():
    spec = importlib.util.spec_from_file_location("make_samples", REPO / "tools" / "make_samples.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_samples", mod)  # dataclasses look their module up there
    spec.loader.exec_module(sys.modules["make_samples"])
    return sys.modules["make_samples"]


def test_clip_table_covers_the_brief():
    clips = _tool().CLIPS
    assert len(clips) >= 8
    assert {c.size for c in clips} >= {(1280, 720), (1920, 1080)}
    assert {c.fps for c in clips} >= {30, 60}
    assert any(abs(c.off_axis_deg) >= 10 for c in clips)
    assert any(c.hand_over for c in clips)
    assert all(-0.12 <= c.k1 <= 0.02 for c in clips)
    assert all(3000 <= c.height_mm <= 4000 for c in clips)
    assert len({c.name for c in clips}) == len(clips) and len({c.seed for c in clips}) == len(clips)
    for c in clips:
        assert (SHOTS / f"{c.shot}.npz").is_file(), f"clip {c.name} draws a shot that is not committed: {c.shot}"


def test_broadcast_camera_fills_the_frame_as_asked():
    t = load_table("carom")
    e = t.cushion_width_mm + t.rail_width_mm
    for fill in (0.8, 0.86, 0.9):
        cam = broadcast_camera(t, 1920, 1080, fill=fill)
        u = cam.project(
            np.array([[-e, t.width_mm / 2, t.rail_height_mm], [t.length_mm + e, t.width_mm / 2, t.rail_height_mm]])
        )[:, 0]
        assert (u[1] - u[0]) / 1920 == pytest.approx(fill, rel=0.01)
    off = broadcast_camera(t, 1280, 720, height_mm=3500, off_axis_deg=13.0)
    c = off.centre_mm - np.array([t.length_mm / 2, t.width_mm / 2, 0.0])
    assert np.degrees(np.arctan2(c[1], c[2])) == pytest.approx(13.0, abs=1e-6)


def _truths():
    return sorted(SAMPLES.glob("*.truth.json"))


def test_committed_samples_fit_the_budget_and_their_truth():
    assert _truths(), "the sample clips are committed (sample_videos/): none found"
    total = sum(p.stat().st_size for p in SAMPLES.iterdir() if p.is_file())
    assert total <= 20 * 1024 * 1024
    names = {c.name for c in _tool().CLIPS}
    for p in _truths():
        tr = load_truth(p)
        assert tr.clip in names, f"{p.name}: not a clip of tools/make_samples.py any more"
        cap = cv2.VideoCapture(str(SAMPLES / tr.video))
        assert cap.isOpened(), tr.video
        assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(tr.fps)
        assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == tr.frame_count
        assert (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))) == (
            tr.image_w_px,
            tr.image_h_px,
        )
        assert 4.0 <= tr.frame_count / tr.fps <= 10.0


def test_committed_samples_are_of_the_committed_shots():
    from synth.physics.shots import load_shot
    from tracking.eventlog import event_to_dict

    for p in _truths():
        tr = load_truth(p)
        shot = load_shot(tr.shot)
        stale = f"{p.name} was rendered from another version of shot {tr.shot}: run python tools/make_samples.py"
        assert len(tr.events) == len(shot.events), stale
        for mine, theirs in zip(tr.events, shot.events):
            a, b = event_to_dict(mine), event_to_dict(theirs)
            assert a["t"] == pytest.approx(b["t"] + tr.lead_in_s, abs=1e-5), stale
            a.pop("t"), b.pop("t"), a.pop("frame"), b.pop("frame")
            assert a == b, stale
