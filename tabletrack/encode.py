"""The annotated video's encoder: H.264 by FFmpeg in a process of its own, else OpenCV's MPEG-4.

Contract: :func:`open_encoder` opens ``out_path`` (MP4; the name must end in ``.mp4``) for frames
of ``size`` (width, height; even) at ``fps``, and returns an :class:`Encoder`: ``write(bgr)`` each
8-bit BGR frame of that size, ``release()`` once (finishes a playable file). Where the
``imageio-ffmpeg`` package is installed (a dependency of the project: it carries its own FFmpeg
binary) the frames are piped to FFmpeg's libx264 with the ``ultrafast`` preset at constant quality
``crf``, through a thread that writes FFmpeg's pipe up to two frames behind ``write``; otherwise,
and where that FFmpeg cannot start, OpenCV's ``mp4v`` writer is used. Failures are
:class:`OSError` with one line that names the file: cannot open it, or the encoder stopped (a full
disk), raised by the ``write`` or ``release`` after it.

Why: the frames of a shot wait until its events settle, so a one-shot clip's whole annotated
video is drawn and encoded after the analysis, on one thread: OpenCV's encoder ran there at
~5 ms a 720p frame, most of that tail. FFmpeg encodes in its own process, on the other core, while
the thread draws the next frame, and its H.264 plays in a browser (the live pages, a coach's
review), which MPEG-4 part 2 does not. FFmpeg runs at a lower scheduling priority
(:data:`ENCODER_NICENESS`, where the system has one): on two cores it competed with the decoder
and the analysis for the frames a user waits on (the calls), while the video, whose frames wait
for their shot's events anyway, can fall behind and catch up once the analysis is done.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from common.cores import usable_cores

__all__ = ["ENCODER_NICENESS", "Encoder", "encoder_threads", "open_encoder"]

#: how much lower than this process FFmpeg is scheduled (POSIX niceness; 0: the same)
ENCODER_NICENESS = 10


class Encoder(Protocol):
    """What the annotated video writes through."""

    #: the codec, for the record: ``"h264"`` or ``"mp4v"``
    codec: str

    def write(self, frame_bgr: np.ndarray) -> None: ...

    def release(self) -> None: ...


class _OpenCvEncoder:
    codec = "mp4v"

    def __init__(self, out_path: Path, fps: float, size: tuple[int, int]) -> None:
        self.out_path = out_path
        self._writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
        if not self._writer.isOpened():
            raise OSError(f"{out_path}: cannot write an MP4 here")

    def write(self, frame_bgr: np.ndarray) -> None:
        self._writer.write(frame_bgr)

    def release(self) -> None:
        self._writer.release()


class _FfmpegEncoder:
    codec = "h264"

    def __init__(self, out_path: Path, fps: float, size: tuple[int, int], crf: int) -> None:
        import imageio_ffmpeg

        self.out_path = out_path
        cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error", "-hide_banner"]
        # the frames go as YUV 4:2:0, converted here (OpenCV, ~0.5 ms at 720p): FFmpeg's own
        # conversion of BGR ran single-threaded and paced the encoder (720p: 4.1 -> 2.4 ms a frame)
        cmd += ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{size[0]}x{size[1]}", "-r", f"{float(fps):.6g}"]
        # x264's threads: the cores beyond the two the decoder and the analysis fill
        # (:func:`encoder_threads`; one on a 2-core machine, where x264's frame threads cost 2.7 ms
        # of CPU a 960x540 frame against 1.6 alone)
        cmd += ["-i", "-", "-an", "-c:v", "libx264", "-preset", "ultrafast", "-crf", str(int(crf))]
        cmd += ["-threads", str(encoder_threads())]
        cmd += ["-pix_fmt", "yuv420p", "-f", "mp4", str(out_path)]
        self._size = size
        # the pipe is written by a thread of its own, ``ahead`` frames at most behind: a frame
        # (1280x720: 1.4 MB) is far more than the pipe holds (64 KB), so a write waited for
        # FFmpeg to read the whole frame, which it does only after encoding the one before, and
        # the drawing of the next frame waited with it. Measured on the video's tail after the
        # analysis (the frames a one-shot clip draws once its events are known): snooker break
        # 1.52 -> 1.34-1.47 s, carom 1080p60 0.75-1.06 -> 0.80-0.89 s (the tail is bound by the two
        # cores' CPU: drawing, conversions and x264 together)
        ahead = 2
        self._yuv = [np.empty((size[1] * 3 // 2, size[0]), np.uint8) for _ in range(ahead + 2)]
        self._next = 0
        # FFmpeg's messages go to a file, read back for the one line of an error (never onto the
        # user's terminal, and never a pipe that could fill and stall it)
        self._log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in release, or just below)
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=self._log
            )
        except OSError as e:
            self._log.close()
            raise OSError(f"{out_path}: FFmpeg cannot start ({_first_line(e)})") from e
        _lower_priority(self._proc.pid, ENCODER_NICENESS)
        from tabletrack.overlap import Worker

        # ring of ahead + 2 buffers: at most ``ahead`` queued and one in the thread's hands, so
        # the one filled next is never one still being written
        self._pipe: Worker[np.ndarray] = Worker(self._send, maxsize=ahead, name="video-encoder-pipe")

    def write(self, frame_bgr: np.ndarray) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None, "write after release"
        if frame_bgr.shape != (self._size[1], self._size[0], 3) or frame_bgr.dtype != np.uint8:
            raise ValueError(
                f"{self.out_path}: expected uint8 frames of {self._size[0]}x{self._size[1]}x3, got "
                f"{frame_bgr.dtype} {'x'.join(map(str, frame_bgr.shape))}"
            )
        yuv = self._yuv[self._next]
        self._next = (self._next + 1) % len(self._yuv)
        cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2YUV_I420, dst=yuv)
        self._pipe.put(yuv)  # raises the pipe thread's OSError once it has failed

    def _send(self, yuv: np.ndarray) -> None:
        """The pipe thread's step: one frame into FFmpeg's input."""
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(yuv.data)
        except (BrokenPipeError, ValueError, OSError) as e:
            proc.wait()
            raise OSError(f"{self.out_path}: the video encoder stopped: {self._error() or _first_line(e)}") from e

    def release(self) -> None:
        proc = self._proc
        if proc is None:
            return
        try:
            self._pipe.close()  # the frames queued go in first; raises the thread's failure
        except BaseException:
            self._proc = None
            with contextlib.suppress(OSError):  # the thread's failure is the one to tell
                self._finish(proc)
            raise
        self._proc = None
        self._finish(proc)

    def _finish(self, proc: subprocess.Popen[bytes]) -> None:
        try:
            if proc.stdin is not None:
                with contextlib.suppress(BrokenPipeError):
                    proc.stdin.close()  # the end of the input: FFmpeg finishes the file
            code = proc.wait()
            if code != 0:
                raise OSError(f"{self.out_path}: the video encoder failed (exit {code}): {self._error()}")
        finally:
            self._log.close()

    def _error(self) -> str:
        """FFmpeg's last message line."""
        self._log.seek(0)
        lines = [ln.strip() for ln in self._log.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        return lines[-1][:200] if lines else ""


#: the cores the decoder and the analysis keep busy, which the encoder leaves them
ANALYSIS_CORES = 2


def encoder_threads() -> int:
    """x264's threads: the usable cores (:func:`common.cores.usable_cores`) beyond
    :data:`ANALYSIS_CORES`, at least one (one on this project's 2-core machine, as before; a
    larger machine encodes a one-shot clip's video, all drawn after the analysis, on its spare
    cores)."""
    return max(1, usable_cores() - ANALYSIS_CORES)


def _lower_priority(pid: int, niceness: int) -> None:
    """Schedule process ``pid`` ``niceness`` below this one, where the system can (POSIX); a
    system that cannot, or refuses, leaves it as it is: the video is only written later."""
    getp, setp = getattr(os, "getpriority", None), getattr(os, "setpriority", None)
    if getp is None or setp is None or niceness <= 0:
        return
    with contextlib.suppress(OSError):
        setp(os.PRIO_PROCESS, pid, min(getp(os.PRIO_PROCESS, 0) + niceness, 19))


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0][:200]


def open_encoder(out_path: Path, fps: float, size: tuple[int, int], crf: int = 26) -> Encoder:
    """The encoder for ``out_path`` (see the module docstring)."""
    if size[0] % 2 or size[1] % 2:
        raise ValueError(f"video size: expected even width and height, got {size[0]}x{size[1]}")
    try:
        import imageio_ffmpeg  # noqa: F401  (only whether it is there)
    except ImportError:
        return _OpenCvEncoder(out_path, fps, size)
    try:
        return _FfmpegEncoder(out_path, fps, size, crf)
    except OSError:
        if not out_path.parent.is_dir():
            raise
        return _OpenCvEncoder(out_path, fps, size)
