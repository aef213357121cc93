"""tabletrack/encode.py: the annotated video's encoder writes every frame in a file OpenCV reads
back (H.264 through FFmpeg, or OpenCV's mp4v without imageio-ffmpeg), and a file it cannot write
is one OSError line naming it."""

from __future__ import annotations

import builtins
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletrack import encode


def _frames(n: int, w: int = 160, h: int = 96) -> list[np.ndarray]:
    out = []
    for k in range(n):
        im = np.full((h, w, 3), 40, np.uint8)
        cv2.circle(im, (10 + 4 * k, h // 2), 8, (255, 255, 255), -1)
        out.append(im)
    return out


def _read_back(path: Path) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    got = []
    while True:
        ok, im = cap.read()
        if not ok:
            break
        got.append(im)
    cap.release()
    return got


@pytest.fixture(params=["ffmpeg", "opencv"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "opencv":  # as on a machine without imageio-ffmpeg
        real_import = builtins.__import__

        def no_imageio(name: str, *a, **k):  # type: ignore[no-untyped-def]
            if name == "imageio_ffmpeg":
                raise ImportError("no imageio_ffmpeg")
            return real_import(name, *a, **k)

        monkeypatch.setattr(builtins, "__import__", no_imageio)
    else:
        pytest.importorskip("imageio_ffmpeg")
    return str(request.param)


def test_every_frame_is_written_and_reads_back(tmp_path: Path, backend: str) -> None:
    frames = _frames(25)
    enc = encode.open_encoder(tmp_path / "v.mp4", 25.0, (160, 96))
    assert enc.codec == ("h264" if backend == "ffmpeg" else "mp4v")
    for im in frames:
        enc.write(im)
    enc.release()
    back = _read_back(tmp_path / "v.mp4")
    assert len(back) == len(frames)
    # lossy, but the picture is the picture: the ball's bright disc is where it was drawn
    for src, got in zip(frames, back):
        assert got.shape == src.shape
        assert float(np.mean(np.abs(got.astype(np.int16) - src))) < 6.0


def test_frames_come_back_in_the_order_written(tmp_path: Path, backend: str) -> None:
    """The disc moves 4 px a frame: each frame read back has it where that frame drew it (FFmpeg's
    frames pass through a pipe thread and a ring of buffers: none may be overwritten or reordered)."""
    frames = _frames(25)
    enc = encode.open_encoder(tmp_path / "v.mp4", 25.0, (160, 96))
    for im in frames:
        enc.write(im)
    enc.release()
    back = _read_back(tmp_path / "v.mp4")
    assert len(back) == len(frames)
    for k, got in enumerate(back):
        bright = np.nonzero(got[:, :, 1].max(axis=0) > 150)[0]
        assert abs(float(bright.mean()) - (10 + 4 * k)) < 1.5, f"frame {k}"


def test_a_file_that_cannot_be_written_is_one_oserror_line(tmp_path: Path, backend: str) -> None:
    target = tmp_path / "no-such-dir" / "v.mp4"
    with pytest.raises(OSError) as err:
        enc = encode.open_encoder(target, 25.0, (160, 96))
        for im in _frames(5):
            enc.write(im)
        enc.release()
    text = str(err.value)
    assert "\n" not in text and str(target) in text


def test_an_odd_size_is_refused() -> None:
    with pytest.raises(ValueError, match="expected even width and height, got 161x96"):
        encode.open_encoder(Path("unused.mp4"), 25.0, (161, 96))


def test_ffmpeg_runs_below_the_analysis(tmp_path: Path) -> None:
    # the encoder must not take the cores from the decoder and the analysis (issue 10)
    import os

    pytest.importorskip("imageio_ffmpeg")
    if not hasattr(os, "getpriority"):
        pytest.skip("no process priorities on this system")
    enc = encode.open_encoder(tmp_path / "v.mp4", 25.0, (160, 96))
    try:
        if enc.codec != "h264":
            pytest.skip("FFmpeg did not start here")
        pid = enc._proc.pid  # type: ignore[attr-defined]
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(mine + encode.ENCODER_NICENESS, 19)
        for im in _frames(3):
            enc.write(im)
    finally:
        enc.release()
    assert len(_read_back(tmp_path / "v.mp4")) == 3


@pytest.mark.parametrize(
    ("cores", "threads"),
    [(1, 1), (2, 1), (4, 2), (16, 14)],
    ids=["one core", "this machine's two: one, as before", "four", "sixteen"],
)
def test_the_encoder_takes_the_cores_beyond_the_analysis(
    monkeypatch: pytest.MonkeyPatch, cores: int, threads: int
) -> None:
    monkeypatch.setattr(encode, "usable_cores", lambda: cores)
    assert encode.encoder_threads() == threads
