"""Writing frames to an H.264 MP4 (libx264, yuv420p) through imageio-ffmpeg.

Contract: :class:`Mp4Writer` takes 8-bit BGR frames of one size and writes them at ``fps`` with
constant-quality ``crf`` (lower = better, 18-32 sensible), so that clips stay small; the result
decodes with :class:`cv2.VideoCapture` to the same frame count. Frame sizes must be even
(yuv420p); frames are never rescaled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from synth.render.style import RenderError


class Mp4Writer:
    """Context manager: ``with Mp4Writer(path, w, h, fps, crf) as w: w.write(frame_bgr)``."""

    def __init__(
        self, path: str | Path, width_px: int, height_px: int, fps: float, crf: int = 23, preset: str = "medium"
    ) -> None:
        if width_px % 2 or height_px % 2:
            raise RenderError(f"video size: expected even width and height for yuv420p, got {width_px}x{height_px}")
        if not 0 <= int(crf) <= 51:
            raise RenderError(f"crf: expected 0..51 (x264 constant quality), got {crf}")
        self.path = Path(path)
        self.size = (int(width_px), int(height_px))
        self.fps = float(fps)
        self.crf = int(crf)
        self.preset = preset
        self.frames = 0
        self._gen: Any = None

    def __enter__(self) -> Mp4Writer:
        import imageio_ffmpeg

        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._gen = imageio_ffmpeg.write_frames(
            str(self.path),
            self.size,
            pix_fmt_in="bgr24",
            pix_fmt_out="yuv420p",
            fps=self.fps,
            codec="libx264",
            quality=None,
            macro_block_size=1,
            ffmpeg_log_level="error",
            output_params=["-crf", str(self.crf), "-preset", self.preset, "-movflags", "+faststart"],
        )
        self._gen.send(None)
        return self

    def write(self, frame_bgr: np.ndarray) -> None:
        if frame_bgr.shape != (self.size[1], self.size[0], 3) or frame_bgr.dtype != np.uint8:
            raise RenderError(
                f"frame: expected uint8 {self.size[1]}x{self.size[0]}x3, got "
                f"{frame_bgr.dtype} {'x'.join(map(str, frame_bgr.shape))}"
            )
        self._gen.send(np.ascontiguousarray(frame_bgr))
        self.frames += 1

    def __exit__(self, *exc: object) -> None:
        if self._gen is not None:
            self._gen.close()
            self._gen = None
