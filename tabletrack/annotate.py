"""The annotated video: each frame with ball ids, trails, the cue ball's cushion count in the
current shot, and the call once the shot is over.

Written in a second pass over the video, from the finished tracks and events, so that every overlay
is the final answer (a live overlay would have to show guesses and retract them). Output is MP4
(OpenCV's ``mp4v``), scaled to at most ``max_width_px`` wide to keep it quick and small.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec
from common.atomic import atomic_path
from common.errors import TabletrackError
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId

_POOL_BGR = {
    1: (40, 210, 250),
    2: (200, 80, 30),
    3: (40, 40, 230),
    4: (160, 50, 120),
    5: (30, 130, 250),
    6: (60, 160, 40),
    7: (40, 30, 140),
    8: (90, 90, 90),
}
#: Trail and label colours by ball id (pool: the ball's colour, stripes like their solid; black
#: drawn grey so it shows on the cloth).
BALL_BGR: Mapping[str, tuple[int, int, int]] = {
    "white": (240, 240, 240),
    "yellow": (40, 220, 250),
    "red": (40, 40, 230),
    "cue": (240, 240, 240),
    **{str(k): _POOL_BGR[k if k <= 8 else k - 8] for k in range(1, 16)},
    **{f"red_{k}": (40, 40, 230) for k in range(1, 16)},
    "green": (60, 160, 40),
    "brown": (40, 80, 140),
    "blue": (200, 80, 30),
    "pink": (180, 140, 250),
    "black": (90, 90, 90),
}


@dataclass(frozen=True)
class BallTrack:
    """A ball's path by frame index: ``frames`` (N,), ``x_mm``/``y_mm`` (N,), ``observed`` (N,)."""

    ball: BallId
    frames: np.ndarray
    x_mm: np.ndarray
    y_mm: np.ndarray
    observed: np.ndarray


@dataclass(frozen=True)
class CallOverlay:
    shot: int
    frame: int  # the frame from which the call is shown
    text: str
    point: bool


def _shot_timeline(
    events: Sequence[Event],
) -> tuple[list[tuple[int, int, BallId]], list[tuple[int, int, BallId]]]:
    """(shot spans (start_frame, shot, cue_ball), cushion hits (frame, shot, ball))."""
    spans = [(e.frame, e.shot, e.cue_ball) for e in events if isinstance(e, ShotStart)]
    hits = [(e.frame, e.shot, e.ball) for e in events if isinstance(e, CushionHit)]
    return spans, hits


def write_annotated_video(
    video_path: Path,
    out_path: Path,
    camera: CameraModel,
    table: TableSpec,
    tracks: Sequence[BallTrack],
    events: Sequence[Event],
    calls: Sequence[CallOverlay],
    max_width_px: int = 1280,
    trail_frames: int = 90,
) -> Path:
    """Draw the video with its tracks, events and calls into ``out_path`` (MP4), through a
    temporary file renamed into place at the end (:func:`common.atomic.atomic_path`): a run that
    fails while drawing leaves no half video."""
    with atomic_path(out_path, suffix=".mp4") as tmp:
        _write_annotated(video_path, tmp, camera, table, tracks, events, calls, max_width_px, trail_frames)
    return out_path


def _write_annotated(
    video_path: Path,
    out_path: Path,
    camera: CameraModel,
    table: TableSpec,
    tracks: Sequence[BallTrack],
    events: Sequence[Event],
    calls: Sequence[CallOverlay],
    max_width_px: int,
    trail_frames: int,
) -> None:
    cap = cv2.VideoCapture(str(video_path))
    fps = float(cap.get(cv2.CAP_PROP_FPS) or 30.0)
    ok, frame = cap.read()
    if not ok:
        cap.release()
        raise TabletrackError(f"{video_path}: cannot be read again for the annotated video")
    h0, w0 = frame.shape[:2]
    scale = min(1.0, max_width_px / w0)
    size = (int(round(w0 * scale)) // 2 * 2, int(round(h0 * scale)) // 2 * 2)
    writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        cap.release()
        raise OSError(f"{out_path}: cannot write an MP4 here")
    # pre-project every track sample once
    proj: dict[BallId, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for tr in tracks:
        pts = np.column_stack([tr.x_mm, tr.y_mm, np.full(len(tr.x_mm), table.ball_radius_mm)])
        px = camera.project(pts) * scale if len(pts) else np.zeros((0, 2))
        proj[tr.ball] = (tr.frames, px, tr.observed)
    spans, hits = _shot_timeline(events)
    contacts = [(e.frame, e.shot, e.balls) for e in events if isinstance(e, BallBall)]
    ends = {e.shot: e.frame for e in events if isinstance(e, ShotEnd)}
    gone: dict[BallId, list[int]] = {}
    for e in events:  # a pocketed (or jumped) ball is not drawn from its event until it is seen again
        if isinstance(e, (Pocketed, OffTable)):
            gone.setdefault(e.ball, []).append(e.frame)
    r_px = max(4, int(round(table.ball_radius_mm * camera.fx / max(camera.centre_mm[2], 1.0) * scale)) + 3)
    idx = 0
    while ok:
        img = cv2.resize(frame, size, interpolation=cv2.INTER_AREA) if scale < 1.0 else frame
        _draw_frame(img, idx, proj, spans, hits, contacts, ends, calls, r_px, trail_frames, gone)
        writer.write(img)
        ok, frame = cap.read()
        idx += 1
    cap.release()
    writer.release()


def _draw_frame(
    img: np.ndarray,
    idx: int,
    proj: Mapping[BallId, tuple[np.ndarray, np.ndarray, np.ndarray]],
    spans: Sequence[tuple[int, int, BallId]],
    hits: Sequence[tuple[int, int, BallId]],
    contacts: Sequence[tuple[int, int, tuple[BallId, BallId]]],
    ends: Mapping[int, int],
    calls: Sequence[CallOverlay],
    r_px: int,
    trail_frames: int,
    gone: Mapping[BallId, list[int]] | None = None,
) -> None:
    current = None
    for f, shot, cue in spans:
        if f <= idx:
            current = (shot, cue)
    for ball, (frames, px, observed) in proj.items():
        if len(frames) == 0:
            continue
        colour = BALL_BGR.get(ball.value, (200, 200, 200))
        j = int(np.searchsorted(frames, idx, side="right"))
        lo = int(np.searchsorted(frames, idx - trail_frames, side="left"))
        if j - lo >= 2:
            cv2.polylines(img, [np.round(px[lo:j]).astype(np.int32).reshape(-1, 1, 2)], False, colour, 2, cv2.LINE_AA)
        left = [f for f in (gone or {}).get(ball, ()) if f <= idx]
        if j > 0 and left and frames[j - 1] <= max(left):
            continue  # pocketed or off the table, not seen since
        if j > 0:  # the last sample: while a ball rests, still frames are skipped
            u, v = px[j - 1]
            thick = 2 if observed[j - 1] else 1
            cv2.circle(img, (int(round(u)), int(round(v))), r_px, colour, thick, cv2.LINE_AA)
            cv2.putText(
                img,
                ball.value,
                (int(u) + r_px + 2, int(v) - r_px),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.5,
                colour,
                1,
                cv2.LINE_AA,
            )
    lines = []
    if current is not None:
        shot, cue = current
        n = sum(1 for f, s, b in hits if s == shot and b == cue and f <= idx)
        touched = []
        for f, s, balls in contacts:
            if s == shot and f <= idx and cue in balls:
                other = balls[1] if balls[0] == cue else balls[0]
                if other not in touched:
                    touched.append(other)
        lines.append(f"shot {shot}  cue ball {cue.value if cue else '?'}  cushions {n}")
        lines.append("balls hit: " + (", ".join(b.value for b in touched) if touched else "-"))
        for c in calls:
            if c.shot == shot and idx >= c.frame:
                lines.append(c.text)
    y = 28
    for i, text in enumerate(lines):
        colour = (255, 255, 255)
        if i == 2:  # the third line is a call: lines beyond two exist only for a current shot
            assert current is not None
            colour = (80, 255, 80) if any(c.point for c in calls if c.shot == current[0]) else (80, 80, 255)
        cv2.putText(img, text, (14, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(img, text, (14, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2, cv2.LINE_AA)
        y += 28
