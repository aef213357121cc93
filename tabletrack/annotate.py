"""The annotated video: each frame with ball ids, trails, the cue ball's cushion count in the
current shot, and the call once the shot is over.

Every overlay is the final answer (a live overlay would have to show guesses and retract them):
``analyze`` draws each frame from the frames it decoded once the analysis can no longer change
what that frame shows (:class:`AnnotatedVideo`, in a thread beside the analysis, each frame
waiting at most about a shot); :func:`write_annotated_video` draws a second pass over a video
from finished tracks and events. Both draw through :class:`Overlay`. Output is MP4 (H.264 by
FFmpeg in its own process, :mod:`tabletrack.encode`), shrunk by a whole factor to at most
``max_width_px`` wide to keep it quick and small (:func:`output_size`).
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec
from common.atomic import atomic_path
from common.errors import TabletrackError
from tabletrack.encode import Encoder, open_encoder
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId
from vision.frame_yolo import ball_image_radius_px

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


class _Path:
    """One ball's projected samples (frame, output px, observed, circle radius px), grown in
    place (capacity doubling)."""

    def __init__(self) -> None:
        self.n = 0
        self.frames = np.zeros(64, np.int64)
        self.px = np.zeros((64, 2))
        self.observed = np.zeros(64, bool)
        self.r_px = np.zeros(64, np.int32)

    def add(self, frames: np.ndarray, px: np.ndarray, observed: np.ndarray, r_px: np.ndarray) -> None:
        k = len(frames)
        if self.n + k > len(self.frames):
            cap = max(2 * len(self.frames), self.n + k)
            self.frames = np.resize(self.frames, cap)
            self.px = np.resize(self.px, (cap, 2))
            self.observed = np.resize(self.observed, cap)
            self.r_px = np.resize(self.r_px, cap)
        self.frames[self.n : self.n + k] = frames
        self.px[self.n : self.n + k] = px
        self.observed[self.n : self.n + k] = observed
        self.r_px[self.n : self.n + k] = r_px
        self.n += k

    def view(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.frames[: self.n], self.px[: self.n], self.observed[: self.n], self.r_px[: self.n]


#: the panel under the text: each level dimmed to two fifths (x * 2 // 5)
_DIM_LUT = (np.arange(256, dtype=np.uint16) * 2 // 5).astype(np.uint8)


class Overlay:
    """What the annotated video draws on each frame, known so far: the balls' samples (projected
    into the output image once, as they come), the events and the calls. :meth:`draw` on frame
    ``idx`` shows the same as the second pass from the final tracks and events did, provided
    every sample, event and call of frames up to ``idx`` has been added (the caller's watermark,
    :class:`AnnotatedVideo`)."""

    def __init__(
        self, camera: CameraModel, table: TableSpec, scale: float, balls: Sequence[BallId], trail_frames: int = 90
    ) -> None:
        self.camera = camera
        self.z_mm = table.ball_radius_mm
        self.scale = scale
        self.trail_frames = trail_frames
        self.paths: dict[BallId, _Path] = {b: _Path() for b in balls}
        self.spans: list[tuple[int, int, BallId]] = []
        self.hits: list[tuple[int, int, BallId]] = []
        self.contacts: list[tuple[int, int, tuple[BallId, BallId]]] = []
        self.ends: dict[int, int] = {}
        self.gone: dict[BallId, list[int]] = {}
        #: per shot, the balls whose names its shot start doubts (``ShotStart.name_doubts``)
        self.doubted: dict[int, frozenset[BallId]] = {}
        self.calls: list[CallOverlay] = []

    def circle_r_px(self, pts_mm: np.ndarray) -> np.ndarray:
        """(k,) radii (output px) of the circles drawn round balls centred at ``pts_mm`` (k, 3):
        the ball's image radius where the camera sees it (:func:`vision.frame_yolo.ball_image_radius_px`,
        as the detector sizes its crops) and 3 px more, so the circle rings the ball. Why per ball: a
        camera low over one end sees a ball at the far end at a third of a near one's size (real
        eight-ball game2: one radius for the whole table, taken from the lens's height, drew the
        far balls' circles three times their size, overlapping their neighbours')."""
        xy = np.asarray(pts_mm, np.float64).reshape(-1, 3)[:, :2]
        r = ball_image_radius_px(self.camera, xy, self.z_mm) * self.scale
        return np.maximum(np.round(r).astype(np.int32), 4) + 3

    def add_samples(
        self, ball: BallId, frames: np.ndarray, x_mm: np.ndarray, y_mm: np.ndarray, observed: np.ndarray
    ) -> None:
        """Samples of one ball, in frame order after those already added."""
        pts = np.column_stack([x_mm, y_mm, np.full(len(x_mm), self.z_mm)])
        px = self.camera.project(pts) * self.scale if len(pts) else np.zeros((0, 2))
        self.paths.setdefault(ball, _Path()).add(
            np.asarray(frames, np.int64), px, np.asarray(observed, bool), self.circle_r_px(pts)
        )

    def add_frame_states(self, states: Sequence[tuple[BallId, int, float, float, bool]]) -> None:
        """The samples of one analysed frame (ball, frame, x_mm, y_mm, observed), one projection."""
        if not states:
            return
        pts = np.array([[s[2], s[3], self.z_mm] for s in states], np.float64)
        px = self.camera.project(pts) * self.scale
        radii = self.circle_r_px(pts)
        for (ball, frame, _, _, obs), p, r in zip(states, px, radii):
            self.paths.setdefault(ball, _Path()).add(
                np.array([frame], np.int64), p.reshape(1, 2), np.array([obs]), np.array([r])
            )

    def add_events(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, ShotStart):
                self.spans.append((e.frame, e.shot, e.cue_ball))
                if e.name_doubts:
                    self.doubted[e.shot] = frozenset(e.name_doubts)
            elif isinstance(e, CushionHit):
                self.hits.append((e.frame, e.shot, e.ball))
            elif isinstance(e, BallBall):
                self.contacts.append((e.frame, e.shot, e.balls))
            elif isinstance(e, ShotEnd):
                self.ends[e.shot] = e.frame
            if isinstance(e, (Pocketed, OffTable)):
                # a pocketed (or jumped) ball is not drawn from its event until it is seen again
                self.gone.setdefault(e.ball, []).append(e.frame)

    def set_calls(self, calls: Sequence[CallOverlay]) -> None:
        self.calls = list(calls)

    def draw(self, img: np.ndarray, idx: int) -> None:
        proj = {b: p.view() for b, p in self.paths.items()}
        _draw_frame(
            img,
            idx,
            proj,
            self.spans,
            self.hits,
            self.contacts,
            self.ends,
            self.calls,
            self.trail_frames,
            self.gone,
            self.doubted,
        )


def output_size(width_px: int, height_px: int, max_width_px: int = 1280) -> tuple[float, tuple[int, int]]:
    """The annotated video's scale and (width, height): the frame shrunk by the smallest whole
    factor that makes it at most ``max_width_px`` wide (1080p: half, 960x540; 720p: as it is;
    2160p: a third), even sizes.

    Why a whole factor: each output pixel is then the plain mean of a block of frame pixels
    (:func:`shrink`), the cheapest downscale there is and one that does not alias; 1080p to 720p
    (2/3) cost 2.4 ms a frame bilinear, ~6x more by area, on the core the analysis shares
    (carom 1080p60 sample: 2.4-2.7 s of a 7 s command, against 1.0-1.2 s now), and it scales
    every later step (drawing, conversion, encoding) by the pixels it leaves."""
    factor = max(1, math.ceil(width_px / max_width_px))
    scale = 1.0 / factor
    return scale, (int(round(width_px * scale)) // 2 * 2, int(round(height_px * scale)) // 2 * 2)


def open_writer(out_path: Path, fps: float, size: tuple[int, int]) -> Encoder:
    """The encoder of the annotated video (:func:`tabletrack.encode.open_encoder`: H.264 by FFmpeg
    in its own process, else OpenCV's ``mp4v``)."""
    return open_encoder(out_path, fps, size)


def shrink(frame: np.ndarray, size: tuple[int, int], dst: np.ndarray | None = None) -> np.ndarray:
    """The frame at the output size (:func:`output_size`: a whole factor smaller, so area
    averaging is OpenCV's block-mean fast path, 0.5 ms a 1080p frame); a copy when the size is the
    frame's own, since the overlay is drawn into it. ``dst``: an array of the output's shape to
    write it into."""
    if (frame.shape[1], frame.shape[0]) == size:
        if dst is None:
            return frame.copy()
        np.copyto(dst, frame)
        return dst
    if dst is None:
        return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    cv2.resize(frame, size, dst=dst, interpolation=cv2.INTER_AREA)
    return dst


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
    """The annotated video in a second pass over ``video_path`` from finished tracks, events and
    calls (``analyze`` draws it from its own decoded frames instead: :class:`AnnotatedVideo`), into
    ``out_path`` (MP4) through a temporary file renamed into place at the end
    (:func:`common.atomic.atomic_path`): a run that fails while drawing leaves no half video."""
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
    scale, size = output_size(w0, h0, max_width_px)
    try:
        writer = open_writer(out_path, fps, size)
    except OSError:
        cap.release()
        raise
    overlay = Overlay(camera, table, scale, [tr.ball for tr in tracks], trail_frames)
    for tr in tracks:
        overlay.add_samples(tr.ball, tr.frames, tr.x_mm, tr.y_mm, tr.observed)
    overlay.add_events(events)
    overlay.set_calls(calls)
    idx = 0
    while ok:
        img = shrink(frame, size)
        overlay.draw(img, idx)
        writer.write(img)
        ok, frame = cap.read()
        idx += 1
    cap.release()
    writer.release()


#: the most memory the annotated video's waiting frames take before they go to disk
SPOOL_RAM_BYTES = 1 << 30


def spool_ram_frames(frame_bytes: int, budget_bytes: int = SPOOL_RAM_BYTES) -> int:
    """How many output frames wait in memory: ``budget_bytes`` (an eighth of the machine's
    physical memory at most), at least 32. Why that much: a shot's frames all wait until its
    events settle (a single-shot clip: every frame), and writing them to a temporary file cost
    9 ms a frame on this machine's disk (1080p60 carom sample: 4.5 s of the video thread's 8.7,
    the whole command's bottleneck); in memory it is a copy."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        physical = 8 * budget_bytes
    return max(32, int(min(budget_bytes, physical // 8) // max(1, frame_bytes)))


class AnnotatedVideo:
    """The annotated video written beside the analysis, from the frames it decoded (no second
    decode), in a thread (:class:`tabletrack.overlap.Worker`): resize, overlay and encode run on
    the second core while the main thread analyses.

    The overlay of a frame may depend on what is found later (a shot's events come when the shot
    has settled, its call after that), so a frame is drawn only once the caller says, with
    :meth:`final`, that nothing found later can change the frames up to it (the event stream's
    watermark, :attr:`tracking.infer.EventStream.final_until_s`): until then it waits, already
    shrunk to the output size and in YUV 4:2:0, in a :class:`tabletrack.overlap.FrameSpool`.
    Memory bound: the message queue (``queue_frames`` full-size frames in flight) plus
    ``ram_frames`` output-size frames (1280x720: 1.4 MB each; default :func:`spool_ram_frames`: up
    to 1 GiB, an eighth of the machine's memory at most: 777 frames, 13 s at 60 fps); frames
    pending beyond that go to an anonymous temporary file, at most the frames of the longest wait
    (about a shot plus two seconds: 60 fps x 20 s is 1.6 GB of disk at 720p, freed as they are
    drawn).

    Calls in order: :meth:`frame` (every frame, in order), :meth:`samples`, :meth:`events`,
    :meth:`calls` as they are known, :meth:`final`; then :meth:`close` (draws what is left) or
    :meth:`abandon` (interrupted: keeps the frames written so far, a playable file). A failure in
    the thread (a full disk) is raised in the caller's thread at its next call."""

    def __init__(
        self,
        out_path: Path,
        camera: CameraModel,
        table: TableSpec,
        fps: float,
        frame_wh: tuple[int, int],
        balls: Sequence[BallId],
        max_width_px: int = 1280,
        trail_frames: int = 90,
        ram_frames: int | None = None,
        queue_frames: int = 6,
    ) -> None:
        from tabletrack.overlap import FrameSpool, Worker

        scale, self.size = output_size(frame_wh[0], frame_wh[1], max_width_px)
        # encoded under a hidden name ending .mp4 (the encoder picks the container by it) and
        # renamed to ``out_path`` once released: never a half-written file under that name
        self.out_path = out_path
        self._tmp_path = out_path.with_name("." + out_path.name + ".mp4")
        self._writer = open_writer(self._tmp_path, fps, self.size)
        self.overlay = Overlay(camera, table, scale, balls, trail_frames)
        # frames wait as YUV 4:2:0 (I420, the encoder's input anyway): half the bytes of BGR, so
        # twice the frames in the same memory before any goes to disk (1080p60 carom sample: 132
        # of its 520 frames went to the temporary file at ~9 ms each); the conversions both ways
        # cost ~0.2 ms a frame at 720p, and the overlay is drawn on BGR as before
        shape = (self.size[1] * 3 // 2, self.size[0])
        if ram_frames is None:
            ram_frames = spool_ram_frames(int(np.prod(shape)))
        self.spool = FrameSpool(shape, ram_frames)
        self._bgr = np.empty((self.size[1], self.size[0], 3), np.uint8)  # the thread's scratch
        self.written = 0
        #: the thread's seconds per step: shrink (resize into the spool), draw, encode
        self.seconds = {"shrink": 0.0, "draw": 0.0, "encode": 0.0}
        self._stop = threading.Event()
        self._worker: Worker[tuple] = Worker(self._handle, maxsize=queue_frames, name="annotated-video")
        self._closed = False

    # -- the caller's side ---------------------------------------------------------------------
    def frame(self, index: int, image: np.ndarray) -> None:
        self._worker.put(("frame", index, image))

    def samples(self, states: Sequence[tuple[BallId, int, float, float, bool]]) -> None:
        if states:
            self._worker.put(("samples", list(states)))

    def events(self, events: Sequence[Event]) -> None:
        if events:
            self._worker.put(("events", list(events)))

    def calls(self, calls: Sequence[CallOverlay]) -> None:
        self._worker.put(("calls", list(calls)))

    def final(self, frame: int) -> None:
        """Every frame up to ``frame`` shows its final overlay now: draw and encode them."""
        self._worker.put(("final", frame))

    def close(self) -> None:
        """Draw every frame still waiting, finish the file; raises the thread's failure."""
        if self._closed:
            return
        self._closed = True
        try:
            self._worker.put(("final", None))
            self._worker.close()
        finally:
            self._release()

    def abandon(self) -> None:
        """Stop now (interrupted, or the analysis failed): the frames already drawn stay in a
        playable file, those waiting are dropped; raises nothing."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()  # the thread leaves a long run of frames between two of them
        if self._worker.abandon():  # never release the encoder under a thread still inside it
            # an encoder that had failed loses its frames, never the analysis's outputs
            with contextlib.suppress(OSError):
                self._release()

    def _release(self) -> None:
        try:
            self._writer.release()
        finally:
            self.spool.close()
        if self._tmp_path.exists():
            os.replace(self._tmp_path, self.out_path)

    # -- the thread's side -------------------------------------------------------------------
    def _handle(self, msg: tuple) -> None:
        kind = msg[0]
        t0 = time.perf_counter()
        if kind == "frame":
            image = msg[2]
            # a frame of the output's size goes to YUV as it is (the copy shrink makes of it, for
            # drawing into, is not needed here: 2.7 MB a 720p frame, on every frame)
            small = image if (image.shape[1], image.shape[0]) == self.size else shrink(image, self.size, self._bgr)
            self.spool.push(msg[1], cv2.cvtColor(small, cv2.COLOR_BGR2YUV_I420, dst=self.spool.buffer()))
            self.seconds["shrink"] += time.perf_counter() - t0
        elif kind == "samples":
            self.overlay.add_frame_states(msg[1])
        elif kind == "events":
            self.overlay.add_events(msg[1])
        elif kind == "calls":
            self.overlay.set_calls(msg[1])
        elif kind == "final":
            upto = msg[1]
            while len(self.spool) and (upto is None or (self.spool.head_index() or 0) <= upto):
                if self._stop.is_set():
                    return
                idx, yuv = self.spool.pop()
                t1 = time.perf_counter()
                img = cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420, dst=self._bgr)
                self.spool.recycle(yuv)
                self.overlay.draw(img, idx)
                t2 = time.perf_counter()
                self._writer.write(img)
                self.seconds["draw"] += t2 - t1
                self.seconds["encode"] += time.perf_counter() - t2
                self.written += 1


def ball_label(ball: BallId, doubted: frozenset[BallId] | set[BallId]) -> str:
    """The name drawn beside a ball: its id, with a question mark where the shot's start doubts
    it (``ShotStart.name_doubts``: the detector's colour barely gave it; the call that names it
    is marked for review), so that a reviewer sees which name to check."""
    return f"{ball.value}?" if ball in doubted else ball.value


def _draw_frame(
    img: np.ndarray,
    idx: int,
    proj: Mapping[BallId, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    spans: Sequence[tuple[int, int, BallId]],
    hits: Sequence[tuple[int, int, BallId]],
    contacts: Sequence[tuple[int, int, tuple[BallId, BallId]]],
    ends: Mapping[int, int],
    calls: Sequence[CallOverlay],
    trail_frames: int,
    gone: Mapping[BallId, list[int]] | None = None,
    doubted: Mapping[int, frozenset[BallId]] | None = None,
) -> None:
    current = None
    for f, shot, cue in spans:
        if f <= idx:
            current = (shot, cue)
    unsure = (doubted or {}).get(current[0], frozenset()) if current is not None else frozenset()
    for ball, (frames, px, observed, radii) in proj.items():
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
            r_px = int(radii[j - 1])
            thick = 2 if observed[j - 1] else 1
            cv2.circle(img, (int(round(u)), int(round(v))), r_px, colour, thick, cv2.LINE_AA)
            cv2.putText(
                img,
                ball_label(ball, unsure),
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
    if lines:
        # a dark panel under the text: a broadcast's own logo or score bug often sits in this corner
        # (real eight-ball game3), and white on white would not read
        w = max(cv2.getTextSize(t, cv2.FONT_HERSHEY_SIMPLEX, 0.7, 2)[0][0] for t in lines) + 20
        h = 28 * len(lines) + 10
        roi = img[: min(h, img.shape[0]), : min(w + 4, img.shape[1])]
        cv2.LUT(roi, _DIM_LUT, dst=roi)  # each level x to x * 2 // 5, in place (~15x the NumPy's speed)
    y = 28
    for i, text in enumerate(lines):
        colour = (255, 255, 255)
        if i == 2:  # the third line is a call: lines beyond two exist only for a current shot
            assert current is not None
            colour = (80, 255, 80) if any(c.point for c in calls if c.shot == current[0]) else (80, 80, 255)
        cv2.putText(img, text, (14, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(img, text, (14, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2, cv2.LINE_AA)
        y += 28
