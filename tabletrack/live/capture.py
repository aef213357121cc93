"""Capture: frames from a camera, a stream or a file, on their own thread, into a bounded queue.

Contract: :class:`Capture` reads its source on a thread of its own and never waits for the
analysis: each frame goes into a :class:`FrameQueue` of at most ``max_frames`` frames; when the
queue is full a frame already queued is dropped, counted, and its index remembered. Which one
(:meth:`FrameQueue.put`): never two neighbours (the tracker bridges a single missing frame by
prediction), never a frame inside the window the analysis marks as protected (:meth:`Capture.protect`:
a contact it is resolving, predicted from the tracker's motion), and at rest the oldest first (the
still-frame gate skips most of those anyway). Only when every queued frame is protected or next to
a drop is the oldest dropped regardless.

A file is played at its own frame rate when ``realtime`` (live mode's default for files: this is
how the tests feed a camera); ``loop`` plays a file again and again, its frame times going on (a
long stream for the memory benchmark); without ``realtime``, the capture waits for room in the queue (every frame is
analysed, as ``analyze`` does). Frame times are ``index / fps`` for a file (the same times
``analyze`` gives, so the same events come out) and seconds since the first frame for a camera or
a stream. Every frame carries its capture time on the wall clock (``captured_wall_s``): the
latency of a call is measured from the capture of its rest frame.

Why a thread: OpenCV's decoder releases the GIL while it decodes, so on two cores the capture and
the analysis overlap.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.source import Frame, VideoSourceError

__all__ = ["CapturedFrame", "CaptureStats", "FrameQueue", "Capture", "SourceSpec", "parse_source"]


@dataclass(frozen=True)
class SourceSpec:
    """What ``--source`` named: a camera index, a stream URL, or a video file."""

    kind: str  # "camera" | "stream" | "file"
    target: str

    @property
    def label(self) -> str:
        return f"camera {self.target}" if self.kind == "camera" else self.target


def parse_source(text: str) -> SourceSpec:
    """``--source``: digits are a camera index, ``scheme://…`` a stream URL (RTSP, HTTP, as FFmpeg
    reads it), anything else a video file, which must exist."""
    t = text.strip()
    if t.isdigit():
        return SourceSpec("camera", t)
    if "://" in t:
        return SourceSpec("stream", t)
    p = Path(t)
    if not p.is_file():
        raise VideoSourceError(
            f"--source {text!r}: no such file; expected a camera index (0), a stream URL (rtsp://…) or a video file"
        )
    return SourceSpec("file", str(p))


@dataclass(frozen=True)
class CapturedFrame:
    """A frame and when it was captured (wall clock, s: comparable across processes)."""

    frame: Frame
    captured_wall_s: float


@dataclass(frozen=True)
class CaptureStats:
    """Counts since the start: frames read from the source, dropped from the queue, queued now;
    ``alive``: the source still gives frames; ``ended``: why it stopped (None while alive)."""

    frames_read: int
    frames_dropped: int
    queued: int
    source_fps: float
    alive: bool
    ended: str | None


class FrameQueue:
    """The bounded queue between capture and analysis, with the drop policy of the module docstring."""

    #: frames without an image (grabbed, not decoded: still frames at rest) are a few bytes; the
    #: queue holds up to this many times ``max_frames`` of them
    bare_factor = 20

    def __init__(self, max_frames: int) -> None:
        if max_frames < 2:
            raise ValueError(f"FrameQueue: expected room for at least 2 frames, got {max_frames}")
        self.max_frames = max_frames
        self._q: deque[CapturedFrame] = deque()
        self._images = 0  # queued frames that carry a decoded image
        self._cond = threading.Condition()
        self._dropped_idx: deque[int] = deque(maxlen=64)
        self.dropped = 0
        self.closed = False
        #: frames with a time in [lo, hi] are not dropped while others can be
        self.protected_s: tuple[float, float] = (0.0, -1.0)

    def __len__(self) -> int:
        return len(self._q)

    def _full(self, item: CapturedFrame) -> bool:
        """Whether ``item`` needs a queued frame dropped first. Room is counted in decoded images
        (``max_frames`` of them: 6 MB each at 1080p), so that a stall of the analysis while the
        balls rest (judging a shot: half a second on a 1080p60 clip), when most frames are grabbed
        without decoding, drops nothing."""
        if len(self._q) >= self.bare_factor * self.max_frames:
            return True
        return item.frame.image is not None and self._images >= self.max_frames

    def _victim(self) -> int:
        """The queued frame to drop: the oldest that is neither protected nor next to a frame
        already dropped; else the oldest not protected; else the oldest. Among frames with an
        image when the images are what fills the queue."""
        lo, hi = self.protected_s
        dropped = set(self._dropped_idx)
        q = self._q
        pool: list[int] = list(range(len(q)))
        if self._images >= self.max_frames:
            pool = [k for k in pool if q[k].frame.image is not None]
        free = [k for k in pool if not lo <= q[k].frame.t_s <= hi]
        for k in free:
            i = q[k].frame.index
            if i - 1 not in dropped and i + 1 not in dropped:
                return k
        return free[0] if free else next(iter(pool), 0)

    def put(self, item: CapturedFrame, wait: bool = False) -> CapturedFrame | None:
        """Queue ``item``; when full, drop one (returned) or, with ``wait``, wait for room."""
        with self._cond:
            if wait:
                while self._full(item) and not self.closed:
                    self._cond.wait(0.1)
            victim = None
            if self._full(item):
                k = self._victim()
                victim = self._q[k]
                del self._q[k]
                self._images -= victim.frame.image is not None
                self.dropped += 1
                self._dropped_idx.append(victim.frame.index)
            self._q.append(item)
            self._images += item.frame.image is not None
            self._cond.notify_all()
            return victim

    def get(self, timeout_s: float) -> CapturedFrame | None:
        """The oldest queued frame, or None after ``timeout_s`` with none (or when closed and empty)."""
        with self._cond:
            end = time.monotonic() + timeout_s
            while not self._q:
                left = end - time.monotonic()
                if left <= 0 or self.closed:
                    return None
                self._cond.wait(left)
            item = self._q.popleft()
            self._images -= item.frame.image is not None
            self._cond.notify_all()
            return item

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()


class Capture:
    """Reads ``spec`` on its own thread into ``queue`` (see the module docstring). ``wants(i)``:
    whether frame ``i`` needs decoding to colour (the analysis's still-frame stride); a frame not
    wanted is grabbed only and queued without its image, as ``analyze`` reads it."""

    def __init__(
        self,
        spec: SourceSpec,
        queue: FrameQueue,
        *,
        realtime: bool = True,
        wants: Callable[[int], bool] = lambda i: True,
        max_frames: int | None = None,
        loop: bool = False,
    ) -> None:
        self.spec = spec
        self.loop = loop and spec.kind == "file"
        self.loops = 0
        self.queue = queue
        self.realtime = realtime or spec.kind != "file"
        self.wants = wants
        self.max_frames = max_frames
        target: int | str = int(spec.target) if spec.kind == "camera" else spec.target
        cap = cv2.VideoCapture(target)
        if not cap.isOpened():
            raise VideoSourceError(
                f"--source {spec.target!r}: cannot be opened ({spec.kind}); expected a readable camera, stream or video"
            )
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 0 < fps < 1000 else 30.0
        self.claimed_frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0) if spec.kind == "file" else 0
        ok, first = cap.read()
        if not ok or first is None:
            cap.release()
            raise VideoSourceError(f"--source {spec.target!r}: no decodable frame; expected video")
        self._cap = cap
        self.first_image = first
        self.width_px, self.height_px = int(first.shape[1]), int(first.shape[0])
        self.frames_read = 0
        self.alive = True
        self.ended: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tabletrack-capture", daemon=True)
        self._recent: deque[tuple[int, float]] = deque(maxlen=int(self.fps * 60) + 1)
        self._lock = threading.Lock()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def protect(self, t0_s: float, t1_s: float) -> None:
        """Frames with a time in [t0_s, t1_s] are kept while another can be dropped."""
        self.queue.protected_s = (t0_s, t1_s)

    def captured_at(self, index: int) -> float | None:
        """When frame ``index`` was captured (wall clock s), if within the last minute."""
        with self._lock:
            for i, t in reversed(self._recent):
                if i == index:
                    return t
                if i < index:
                    return None
        return None

    def stats(self) -> CaptureStats:
        return CaptureStats(self.frames_read, self.queue.dropped, len(self.queue), self.fps, self.alive, self.ended)

    def _run(self) -> None:
        try:
            self._loop()
        except Exception as e:  # a source that fails in any way ends the capture; the match is kept
            self.ended = f"the source failed: {type(e).__name__}: {e}"
        finally:
            self.alive = False
            self._cap.release()
            self.queue.close()

    def _loop(self) -> None:
        file = self.spec.kind == "file"
        t0_wall = time.time()
        t0_mono = time.monotonic()
        i = 0
        img: np.ndarray | None = self.first_image
        while not self._stop.is_set():
            if i > 0:
                if self.realtime and file:  # play at the file's own rate
                    delay = t0_mono + i / self.fps - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                if self.wants(i):
                    ok, img = self._cap.read()
                    ok = ok and img is not None
                else:
                    ok, img = self._cap.grab(), None
                if not ok and self.loop and i > 1:  # play the file again, its times going on
                    self._cap.release()
                    self._cap = cv2.VideoCapture(self.spec.target)
                    self.loops += 1
                    ok, img = self._cap.read()
                    ok = ok and img is not None
                if not ok:
                    self.ended = self._why_ended(i)
                    return
            now_wall = time.time()
            t_s = i / self.fps if file else time.monotonic() - t0_mono
            if not file and i == 0:
                t0_wall = now_wall
            self.frames_read = i + 1
            with self._lock:
                self._recent.append((i, now_wall if file else t0_wall + t_s))
            self.queue.put(CapturedFrame(Frame(i, t_s, img), now_wall), wait=not self.realtime)
            i += 1
            if self.max_frames is not None and i >= self.max_frames:
                self.ended = f"stopped after {i} frames"
                return

    def _why_ended(self, i: int) -> str:
        if self.spec.kind != "file":
            return f"the {self.spec.kind} stopped sending frames after {i} frames"
        if self.claimed_frames and i < self.claimed_frames - 1:
            return f"the video ended after {i} of the {self.claimed_frames} frames its header announces (cut short?)"
        return f"the video ended ({i} frames)"
