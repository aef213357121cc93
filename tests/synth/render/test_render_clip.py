"""A whole clip: the MP4 decodes to the truth's frame count and fps, the truth agrees with the
camera model and the shot, events carry frame = floor(t * fps), a hand over a ball is reported,
and frames are a pure function of the seed."""

import math

import cv2
import numpy as np
import pytest
from render_helpers import bounce_shot, overhead_camera, table

from synth.render.clip import _ShotSampler, render_clip, truth_path_for
from synth.render.frame import FrameRenderer
from synth.render.occluder import Occlusion
from synth.render.scene import build_scene
from synth.render.style import RenderError, RenderStyle
from synth.render.truth import TruthFormatError, load_truth
from tracking.events import CushionHit, ShotStart
from tracking.ids import BallId

FPS = 30.0


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    out = tmp_path_factory.mktemp("clip") / "bounce.mp4"
    shot = bounce_shot(duration_s=1.2, stroke_t_s=0.4)
    cam = overhead_camera(320, 180, k1=-0.08)
    occ = [Occlusion(BallId.WHITE, 0, 9, hand_offset_mm=0.0)]
    truth_path, stats = render_clip(shot, table(), cam, FPS, out, RenderStyle(), occ, seed=5, crf=26)
    return out, truth_path, shot, cam, stats


def test_mp4_decodes_to_the_truth_frame_count_and_fps(clip):
    out, truth_path, shot, _, _ = clip
    tr = load_truth(truth_path)
    cap = cv2.VideoCapture(str(out))
    assert cap.isOpened()
    assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(FPS)
    n = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        assert frame.shape == (180, 320, 3)
        n += 1
    assert n == tr.frame_count == round((shot.duration_s + 0.3) * FPS)
    assert truth_path == truth_path_for(out) and truth_path.name == "bounce.truth.json"


def test_truth_positions_are_the_camera_projection_of_the_shot(clip):
    _, truth_path, shot, cam, _ = clip
    tr = load_truth(truth_path)
    assert tr.camera == cam and tr.fps == FPS and tr.balls == shot.balls
    for f in tr.frames[::5]:
        assert f.t_s == pytest.approx(f.frame / FPS)
        xy, z, on = shot.state_at(f.t_s - tr.lead_in_s)
        for j, b in enumerate(shot.balls):
            bt = f.balls[b]
            assert (bt.x_mm, bt.y_mm, bt.z_mm) == pytest.approx((xy[j, 0], xy[j, 1], z[j]), abs=1e-3)
            px = cam.project(np.array([[bt.x_mm, bt.y_mm, bt.z_mm]]))[0]
            assert (bt.u_px, bt.v_px) == pytest.approx(tuple(px), abs=2e-3)


def test_events_keep_their_times_and_get_the_frame_they_fall_in(clip):
    _, truth_path, shot, _, _ = clip
    tr = load_truth(truth_path)
    assert len(tr.events) == len(shot.events)
    for mine, theirs in zip(tr.events, shot.events):
        assert type(mine) is type(theirs)
        assert mine.t_s == pytest.approx(theirs.t_s + tr.lead_in_s)
        assert mine.frame == math.floor(mine.t_s * FPS + 1e-9)
    assert any(isinstance(e, CushionHit) for e in tr.events)
    assert isinstance(tr.events[0], ShotStart)


def test_decoded_ball_is_where_the_truth_says(clip):
    out, truth_path, _, _, _ = clip
    tr = load_truth(truth_path)
    cap = cv2.VideoCapture(str(out))
    frames = []
    while True:
        ok, f = cap.read()
        if not ok:
            break
        frames.append(f)
    for f in tr.frames[12::6]:  # after the hand has gone
        b = f.balls[BallId.YELLOW]
        u, v = int(round(b.u_px)), int(round(b.v_px))
        patch = frames[f.frame][v - 1 : v + 2, u - 1 : u + 2].astype(int)
        # yellow: red and green high, blue low, unlike the blue cloth
        assert patch[..., 2].max() > 120 and patch[..., 1].max() > 100 and patch[..., 0].min() < 110


def test_hand_over_the_ball_is_reported(clip):
    _, truth_path, _, _, _ = clip
    tr = load_truth(truth_path)
    assert tr.occlusions[0]["ball"] == "white" and tr.occlusions[0]["end_frame"] == 9
    hidden = [f.balls[BallId.WHITE].visible for f in tr.frames[:9]]
    assert max(hidden) < 0.5
    assert all(f.balls[b].visible == 1.0 for f in tr.frames[9:] for b in f.balls)


def test_frames_are_a_function_of_the_seed():
    shot = bounce_shot(duration_s=0.6, stroke_t_s=0.1)
    cam = overhead_camera(160, 90)
    t = table()
    style = RenderStyle()
    sampler = _ShotSampler(shot, t, 0.0)

    def frames(seed):
        ss = np.random.SeedSequence(seed)
        a, b = (np.random.default_rng(s) for s in ss.spawn(2))
        fr = FrameRenderer(build_scene(t, cam, style, a), b)
        return [fr.render(sampler.at(k / FPS))[0] for k in range(0, 12, 3)]

    one, two, other = frames(11), frames(11), frames(12)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    assert not all(np.array_equal(a, b) for a, b in zip(one, other))


def test_clip_for_another_table_is_refused(tmp_path):
    shot = bounce_shot(duration_s=0.2)
    other = table().with_size(2540.0, 1270.0)
    from dataclasses import replace

    with pytest.raises(RenderError, match="table"):
        render_clip(shot, replace(other, name="pool_9ft"), overhead_camera(160, 90), FPS, tmp_path / "x.mp4")


def test_truth_of_another_format_is_refused(tmp_path):
    p = tmp_path / "x.truth.json"
    p.write_text('{"format": "something-else"}')
    with pytest.raises(TruthFormatError, match="tabletrack-clip-truth/1"):
        load_truth(p)
    p.write_text('{"format": "tabletrack-clip-truth/1", "balls": ["white"]}')
    with pytest.raises(TruthFormatError, match="malformed"):
        load_truth(p)
