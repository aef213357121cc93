"""A simulated shot to a broadcast-like H.264 clip and its truth file.

Contract: :func:`render_clip` draws ``shot`` (a :class:`~synth.physics.trajectory.SimShot`) on
``table`` through ``camera`` at ``fps``: the static scene once, then per frame the balls at the
instants spread over the exposure (``style.shutter_fraction`` of the frame period, centred on the
frame's instant ``i / fps``; as many sub-frame instants as keep the fastest ball's steps under
``style.blur_step_px``, at most ``style.max_subframes``), the occluders, sensor noise and the
scoreboard; writes ``out_mp4`` (libx264, yuv420p, ``crf``) and ``<clip>.truth.json`` beside it
(:mod:`synth.render.truth`). Clip time is shot time plus ``lead_in_s``: the clip opens on the
balls at rest. The clip lasts the shot plus ``tail_s`` unless ``duration_s`` is given. Everything
random derives from ``seed``: the same arguments give the same frames.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from calibration._vec import floats3
from calibration.camera import CameraModel
from calibration.table import TableSpec
from synth.physics.trajectory import SimShot
from synth.render.balls import BallsState, rolling_orientations
from synth.render.frame import FrameRenderer
from synth.render.occluder import HandCuePose, Occlusion, aim_of_ball, stroke_gap_mm
from synth.render.scene import build_scene
from synth.render.style import RenderError, RenderStyle
from synth.render.truth import BallTruth, ClipTruth, FrameTruth, event_frame, write_truth
from tracking.events import Event, ShotStart


@dataclass(frozen=True)
class ClipStats:
    """What rendering a clip cost: per-frame render times (s, excluding the encoder)."""

    frames: int
    scene_s: float
    frame_mean_s: float
    frame_p95_s: float
    frame_max_s: float
    total_s: float


def truth_path_for(out_mp4: str | Path) -> Path:
    p = Path(out_mp4)
    return p.with_name(p.stem + ".truth.json")


class _ShotSampler:
    """Ball states of a shot at clip times (the shot's linear interpolation, rolling orientation)."""

    def __init__(self, shot: SimShot, table: TableSpec, lead_in_s: float) -> None:
        self.shot = shot
        self.lead_in_s = lead_in_s
        self.orient = rolling_orientations(shot.xy_mm, table.ball_radius_mm)

    def at(self, t_clip_s: float) -> BallsState:
        sh = self.shot
        t = t_clip_s - self.lead_in_s
        xy, z, on = sh.state_at(t)
        i = int(np.clip(np.searchsorted(sh.t_s, t), 0, len(sh.t_s) - 1))
        centres = np.column_stack([xy, z])
        return BallsState(sh.balls, centres, on.astype(bool), self.orient[i])


def _subframe_times(
    sampler: _ShotSampler, camera: CameraModel, t_s: float, exposure_s: float, style: RenderStyle
) -> list[float]:
    if exposure_s <= 0.0:
        return [t_s]
    a, b = sampler.at(t_s - exposure_s / 2), sampler.at(t_s + exposure_s / 2)
    on = a.on_table & b.on_table
    if not on.any():
        return [t_s]
    pa = camera.project(a.centres_mm[on])
    pb = camera.project(b.centres_mm[on])
    disp = float(np.max(np.hypot(*(pb - pa).T)))
    if disp < 0.05:
        return [t_s]
    n = int(min(style.max_subframes, max(2, math.ceil(disp / style.blur_step_px) + 1)))
    return [t_s + exposure_s * ((k + 0.5) / n - 0.5) for k in range(n)]


def _clip_events(events: Sequence[Event], lead_in_s: float, fps: float) -> tuple[Event, ...]:
    out = []
    for e in events:
        t = e.t_s + lead_in_s
        out.append(replace(e, t_s=t, frame=event_frame(t, fps)))
    return tuple(out)


def _visible_fraction(px: np.ndarray, r_px: float, covers: list) -> float:
    """Fraction of the ball's image disc not covered by occluders."""
    if not covers:
        return 1.0
    u, v = px
    rr = max(r_px, 0.5)
    x0, y0 = int(np.floor(u - rr)), int(np.floor(v - rr))
    ys, xs = np.mgrid[y0 : int(np.ceil(v + rr)) + 1, x0 : int(np.ceil(u + rr)) + 1]
    inside = (xs - u) ** 2 + (ys - v) ** 2 <= rr * rr
    if not inside.any():
        return 1.0
    vis = np.ones(xs.shape, np.float64)
    for (bx0, by0, bx1, by1), cov in covers:
        sel = inside & (xs >= bx0) & (xs < bx1) & (ys >= by0) & (ys < by1)
        vis[sel] *= 1.0 - cov[ys[sel] - by0, xs[sel] - bx0]
    return float(vis[inside].mean())


def _occluder_pose(
    occ: Occlusion,
    sampler: _ShotSampler,
    t_clip_s: float,
    fps: float,
    table: TableSpec,
    cue_ball_strike_s: float | None,
) -> HandCuePose:
    """The hand stays over the place the ball had at the occlusion's first frame; the cue, aimed
    along the ball's first travel, makes practice strokes and strikes at the shot's start."""
    sh = sampler.shot
    try:
        j = sh.balls.index(occ.ball)
    except ValueError:
        raise RenderError(
            f"occlusion: ball {occ.ball.value!r} is not in the shot ({', '.join(b.value for b in sh.balls)})"
        ) from None
    aim = math.radians(occ.aim_deg) if occ.aim_deg is not None else aim_of_ball(sh.xy_mm[:, j])
    if aim is None:
        aim = 0.0
    bx, by = sampler.at(occ.start_frame / fps).centres_mm[j][:2]
    c, s = math.cos(aim), math.sin(aim)
    hand = (bx - c * occ.hand_offset_mm, by - s * occ.hand_offset_mm)
    gap = stroke_gap_mm(t_clip_s, cue_ball_strike_s)
    r = table.ball_radius_mm
    tip = (bx - c * (r + gap), by - s * (r + gap))
    return HandCuePose(hand_xy_mm=hand, aim_rad=aim, tip_xy_mm=tip, tip_z_mm=r, cue=occ.cue)


def render_clip(
    shot: SimShot,
    table: TableSpec,
    camera: CameraModel,
    fps: float,
    out_mp4: str | Path,
    style: RenderStyle | None = None,
    occlusions: Sequence[Occlusion] = (),
    seed: int = 0,
    crf: int = 23,
    lead_in_s: float = 0.0,
    tail_s: float = 0.3,
    duration_s: float | None = None,
    name: str | None = None,
    shot_name: str | None = None,
    start_orient: np.ndarray | None = None,
    made_by: str | None = None,
) -> tuple[Path, ClipStats]:
    """Render the clip; returns the truth file's path and what the rendering cost. ``start_orient``
    (B, 3, 3): each ball's orientation at the start (default: the sampler's own, so that a caller can
    turn numbered balls' numbers toward the camera); ``made_by``: the tool named in the truth's
    render note."""
    t_start = time.perf_counter()
    style = style or RenderStyle()
    if fps <= 0:
        raise RenderError(f"fps: expected a positive frame rate, got {fps}")
    if shot.table != table.name:
        raise RenderError(f"shot is for table {shot.table!r}, but the clip is drawn on {table.name!r}")
    out_mp4 = Path(out_mp4)
    clip_name = name or out_mp4.stem
    dur = duration_s if duration_s is not None else lead_in_s + shot.duration_s + tail_s
    n_frames = int(round(dur * fps))
    if n_frames < 1:
        raise RenderError(f"clip {clip_name}: expected at least one frame, got duration {dur} s at {fps} fps")
    ss = np.random.SeedSequence(seed)
    rng_scene, rng_frames = (np.random.default_rng(s) for s in ss.spawn(2))
    scene = build_scene(table, camera, style, rng_scene)
    t_scene = time.perf_counter() - t_start
    renderer = FrameRenderer(scene, rng_frames)
    sampler = _ShotSampler(shot, table, lead_in_s)
    if start_orient is not None:
        sampler.orient = np.einsum("nbij,bjk->nbik", sampler.orient, start_orient)
    exposure_s = style.shutter_fraction / fps
    starts = [e for e in shot.events if isinstance(e, ShotStart)]
    strike = {e.cue_ball: e.t_s + lead_in_s for e in starts}
    r = table.ball_radius_mm
    frames: list[FrameTruth] = []
    times: list[float] = []
    from synth.render.video import Mp4Writer

    with Mp4Writer(out_mp4, camera.image_w_px, camera.image_h_px, fps, crf) as writer:
        for i in range(n_frames):
            t0 = time.perf_counter()
            t = i / fps
            subs = [sampler.at(tk) for tk in _subframe_times(sampler, camera, t, exposure_s, style)]
            poses = [
                _occluder_pose(o, sampler, t, fps, table, strike.get(o.ball))
                for o in occlusions
                if o.start_frame <= i < o.end_frame
            ]
            img, covers = renderer.render(subs, poses)
            times.append(time.perf_counter() - t0)
            writer.write(img)
            st = sampler.at(t)
            on = st.on_table
            px = camera.project(st.centres_mm)
            balls = {}
            for j, b in enumerate(st.balls):
                if not on[j]:
                    continue
                depth = float(camera.R[2] @ (st.centres_mm[j] - scene.centre_mm))
                r_px = camera.fx * r / depth
                balls[b] = BallTruth(
                    *floats3(st.centres_mm[j]),
                    float(px[j, 0]),
                    float(px[j, 1]),
                    r_px,
                    _visible_fraction(px[j], r_px, covers),
                )
            frames.append(FrameTruth(frame=i, t_s=t, balls=balls))
    truth = ClipTruth(
        clip=clip_name,
        video=out_mp4.name,
        shot=shot_name or str(shot.meta.get("name", clip_name)),
        fps=float(fps),
        frame_count=n_frames,
        image_w_px=camera.image_w_px,
        image_h_px=camera.image_h_px,
        table=table.name,
        camera=camera,
        lead_in_s=float(lead_in_s),
        exposure_s=exposure_s,
        balls=shot.balls,
        frames=tuple(frames),
        events=_clip_events(shot.events, lead_in_s, fps),
        meta=dict(shot.meta),
        occlusions=tuple(o.to_dict() for o in occlusions),
        overlay_box_px=renderer.overlay_box_px,
        render={
            "seed": seed,
            "crf": crf,
            "cloth": style.cloth.value,
            "shutter_fraction": style.shutter_fraction,
            "noise_sigma": style.noise_sigma,
            "white_marked": style.white_marked,
            # provenance as written in the committed data (the path before issue 9): reruns stay byte-identical
            "renderer": "tabletrack vision.render (ray-cast, OpenCV)" + (f" via {made_by}" if made_by else ""),
        },
    )
    path = write_truth(truth_path_for(out_mp4), truth)
    tt = np.array(times)
    stats = ClipStats(
        frames=n_frames,
        scene_s=t_scene,
        frame_mean_s=float(tt.mean()),
        frame_p95_s=float(np.percentile(tt, 95)),
        frame_max_s=float(tt.max()),
        total_s=time.perf_counter() - t_start,
    )
    return path, stats
