"""Frame sources: a video file (and, through OpenCV, a camera index or a stream URL).

A source yields ``Frame`` values (index, time in seconds, BGR image). Opening checks what a user
can get wrong — the path, whether OpenCV can decode it, a frame rate and a first frame — and raises
:class:`VideoSourceError` with one line saying what was expected and what came. A truncated file
simply ends early; ``frames_read`` tells how far it got.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from common.errors import TabletrackError, shorten


class VideoSourceError(TabletrackError):
    """The input cannot be read as video."""


@dataclass(frozen=True)
class Frame:
    """One frame: ``image`` None when it was grabbed but not decoded to BGR; ``prepared`` what
    the detector's optional ``prepare(image)`` made of it beside the decoder (None: nothing;
    :class:`vision.detect.Detector`)."""

    index: int
    t_s: float
    image: np.ndarray | None
    prepared: object | None = None


@dataclass(frozen=True)
class VideoInfo:
    path: str
    width_px: int
    height_px: int
    fps: float
    frame_count: int  # as the container claims; may exceed what can be decoded (truncated file)

    @property
    def duration_s(self) -> float:
        return self.frame_count / self.fps if self.fps > 0 else 0.0


#: the shortest clip ``analyze`` takes: a stroke, the balls running and coming to rest take
#: seconds; under this a video holds no shot (and a still image, one frame, is no video)
MIN_CLIP_S = 1.0
MIN_CLIP_FRAMES = 10
STILL_IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".gif"})


def check_clip(info: VideoInfo, min_s: float = MIN_CLIP_S) -> None:
    """:class:`VideoSourceError` in one line when ``info`` is a still image (by its name, or a
    single frame) or a clip shorter than ``min_s`` (by its header's frame count, which
    :class:`VideoFile` never lets fall below 1; the frames actually decoded are checked after the
    analysis, for a header that lies)."""
    p = Path(info.path)
    if p.suffix.lower() in STILL_IMAGE_SUFFIXES or info.frame_count <= 1:
        raise VideoSourceError(
            f"{shorten(p, 120)}: a still image, not a video; analyze needs a clip of a shot "
            "(calibrate takes a still image)"
        )
    if info.frame_count < max(MIN_CLIP_FRAMES, min_s * info.fps):
        raise VideoSourceError(
            f"{shorten(p, 120)}: {info.frame_count} frames ({info.duration_s:.2f} s) is too short to hold a shot; "
            f"expected at least {min_s:g} s of video"
        )


class VideoFile:
    """Sequential reader of a video file. ``frames(decode=pred)`` yields every frame in order,
    converting to BGR only where ``pred(index)`` is true (grab-only otherwise, which is cheaper)."""

    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        if not p.exists():
            raise VideoSourceError(f"{p}: no such file; expected a video file (e.g. .mp4)")
        if p.is_dir():
            raise VideoSourceError(f"{p}: is a folder; expected a video file (e.g. .mp4)")
        if p.stat().st_size == 0:
            raise VideoSourceError(f"{p}: the file is empty; expected a video file")
        cap = cv2.VideoCapture(str(p))
        if not cap.isOpened():
            raise VideoSourceError(
                f"{p}: cannot be opened as video (not a video file, or truncated); expected an MP4/AVI/MKV file"
            )
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        w = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        h = int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        ok, first = cap.read()
        if not ok or first is None:
            cap.release()
            raise VideoSourceError(
                f"{p}: no decodable frame; the file is not a video or is truncated before its first frame"
            )
        if not (0 < fps < 1000):
            cap.release()
            raise VideoSourceError(f"{p}: the video reports a frame rate of {fps}; expected a positive frame rate")
        self.info = VideoInfo(str(p), w or first.shape[1], h or first.shape[0], fps, max(n, 1))
        self._cap = cap
        self._first = first
        self.frames_read = 0

    def first_frame(self) -> np.ndarray:
        return self._first.copy()

    def frames(self, decode: Callable[[int], bool] = lambda i: True) -> Iterator[Frame]:
        """Every frame from the first, once. Stops at the end or at the first undecodable frame."""
        fps = self.info.fps
        yield Frame(0, 0.0, self._first if decode(0) else None)
        self.frames_read = 1
        i = 1
        while True:
            if decode(i):
                ok, img = self._cap.read()
                if not ok or img is None:
                    break
            else:
                if not self._cap.grab():
                    break
                img = None
            self.frames_read = i + 1
            yield Frame(i, i / fps, img)
            i += 1

    def close(self) -> None:
        self._cap.release()

    def __enter__(self) -> VideoFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_image_or_first_frame(path: str | Path) -> np.ndarray:
    """A still image, or the first frame of a video; VideoSourceError otherwise."""
    p = Path(path)
    if not p.exists():
        raise VideoSourceError(f"{p}: no such file; expected an image or a video")
    if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}:
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            raise VideoSourceError(f"{p}: cannot be decoded as an image")
        return img
    with VideoFile(p) as v:
        return v.first_frame()
