"""The threads beside the analysis (tabletrack/overlap.py, tabletrack/annotate.py AnnotatedVideo):
a bounded queue ahead of the consumer, a failing thread never hangs the run and its error is
raised in the caller as the same exception, the frame spool keeps order and its memory bound, and
the annotated video drawn from the analysis's own frames shows what the second pass showed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from tabletrack.overlap import FrameSpool, Prefetch, Worker


def test_prefetch_yields_every_item_in_order_and_stays_a_bounded_queue_ahead() -> None:
    made: list[int] = []

    def items() -> Iterator[int]:
        for i in range(50):
            made.append(i)
            yield i

    p = Prefetch(items, maxsize=3)
    it = iter(p)
    assert next(it) == 0
    time.sleep(0.3)
    # one consumed, at most 3 queued and one in the producer's hand
    assert len(made) <= 1 + 3 + 1
    assert [0, *it] == list(range(50))
    assert p.items == 50 and p.busy_s >= 0.0
    assert p.close()


def test_prefetch_raises_the_producers_exception_in_the_consumer() -> None:
    class Boom(ValueError):
        pass

    def items() -> Iterator[int]:
        yield 1
        raise Boom("decoder failed")

    p = Prefetch(items, maxsize=2)
    got = []
    with pytest.raises(Boom, match="decoder failed"):
        for x in p:
            got.append(x)
    assert got == [1]
    assert p.close()


def test_prefetch_close_stops_a_producer_blocked_on_a_full_queue() -> None:
    def forever() -> Iterator[int]:
        i = 0
        while True:
            yield i
            i += 1

    p = Prefetch(forever, maxsize=2)
    it = iter(p)
    next(it)
    t0 = time.monotonic()
    assert p.close(timeout_s=5.0)
    assert time.monotonic() - t0 < 2.0


def test_worker_handles_messages_in_order() -> None:
    seen: list[int] = []
    w: Worker[int] = Worker(seen.append, maxsize=2)
    for i in range(20):
        w.put(i)
    w.close()
    assert seen == list(range(20))


def test_a_failing_worker_does_not_hang_the_producer_and_its_error_is_raised_there() -> None:
    def handle(msg: int) -> None:
        if msg == 3:
            raise OSError(28, "No space left on device")
        time.sleep(0.01)

    w: Worker[int] = Worker(handle, maxsize=2)
    t0 = time.monotonic()
    with pytest.raises(OSError, match="No space left"):
        for i in range(10_000):  # far more than the queue holds: put must not block forever
            w.put(i)
    assert time.monotonic() - t0 < 5.0
    with pytest.raises(OSError):
        w.close(timeout_s=5.0)


def test_a_bug_in_the_worker_keeps_its_traceback() -> None:
    def handle(msg: int) -> None:
        {}["missing"]  # the bug

    w: Worker[int] = Worker(handle, maxsize=1)
    w.put(1)
    with pytest.raises(KeyError) as info:
        w.close(timeout_s=5.0)
    assert any(fr.name == "handle" for fr in info.traceback)


def test_worker_abandon_finishes_the_message_in_hand_and_drops_the_queued_ones() -> None:
    started, release = threading.Event(), threading.Event()
    seen: list[int] = []

    def handle(msg: int) -> None:
        started.set()
        release.wait(5.0)
        seen.append(msg)

    w: Worker[int] = Worker(handle, maxsize=4)
    for i in range(4):
        w.put(i)
    assert started.wait(5.0)
    threading.Timer(0.2, release.set).start()
    w.abandon(timeout_s=5.0)
    assert seen == [0]


def test_frame_spool_keeps_order_across_memory_and_disk_and_reuses_disk_slots() -> None:
    rng = np.random.default_rng(0)
    spool = FrameSpool((6, 8, 3), ram_frames=2)
    frames = {i: rng.integers(0, 256, (6, 8, 3), dtype=np.uint8) for i in range(40)}
    out = []
    for i in range(40):
        spool.push(i, frames[i])
        if i % 3 == 2:  # drain slower than filling: some frames wait on disk
            out.append(spool.pop())
    while len(spool):
        out.append(spool.pop())
    spool.close()
    assert [i for i, _ in out] == list(range(40))
    assert all(np.array_equal(img, frames[i]) for i, img in out)
    # never more frames on disk than were pending at once beyond the two in memory
    assert 0 < spool.peak_disk_frames <= 40 - 40 // 3 - 2 + 1


def test_frame_spool_buffers_filled_and_recycled_keep_every_frame_intact() -> None:
    # issue 10: frames are resized into the spool's own arrays and their arrays reused once
    # encoded (fresh arrays cost their page faults); a recycled or scratch array must never
    # overwrite a frame still waiting, in memory or on disk
    rng = np.random.default_rng(1)
    spool = FrameSpool((6, 8, 3), ram_frames=3)
    frames = {i: rng.integers(0, 256, (6, 8, 3), dtype=np.uint8) for i in range(30)}
    out = []
    ids = set()
    for i in range(30):
        buf = spool.buffer()
        ids.add(id(buf))
        np.copyto(buf, frames[i])
        spool.push(i, buf)
        if i % 2 == 1:
            j, img = spool.pop()
            out.append((j, img.copy()))
            spool.recycle(img)
    while len(spool):
        j, img = spool.pop()
        out.append((j, img.copy()))
        spool.recycle(img)
    assert [i for i, _ in out] == list(range(30))
    assert all(np.array_equal(img, frames[i]) for i, img in out)
    assert spool.peak_disk_frames > 0  # the scratch array went to disk, and came back intact
    assert len(ids) <= 3 + 1 + 1  # the memory frames' arrays and the scratch, reused


def test_frame_spool_refuses_a_frame_of_another_shape() -> None:
    spool = FrameSpool((4, 4, 3), ram_frames=1)
    with pytest.raises(ValueError, match="shape"):
        spool.push(0, np.zeros((4, 5, 3), np.uint8))


# -- the annotated video from the analysis's own frames -----------------------------------------
def _camera_and_table(w: int = 640, h: int = 360):
    """A camera 4 m straight over the carom table's centre (x right, y up the image)."""
    from calibration.camera import CameraModel
    from calibration.table import load_table

    table = load_table("carom")
    f = 0.9 * w * 4000.0 / table.length_mm
    cx_mm, cy_mm = table.length_mm / 2, table.width_mm / 2
    cam = CameraModel(w, h, f, f, w / 2, h / 2, 0.0, 0.0, (np.pi, 0.0, 0.0), (-cx_mm, cy_mm, 4000.0), table.name)
    return cam, table


def test_annotated_video_waits_for_the_watermark_and_writes_every_frame(tmp_path: Path) -> None:
    from tabletrack.annotate import AnnotatedVideo
    from tracking.ids import BallId

    camera, table = _camera_and_table()
    w, h = camera.image_w_px, camera.image_h_px
    out = tmp_path / "a.mp4"
    av = AnnotatedVideo(out, camera, table, 30.0, (w, h), (BallId.WHITE,), ram_frames=2)
    img = np.full((h, w, 3), 90, np.uint8)
    for i in range(12):
        av.frame(i, img)
        av.samples([(BallId.WHITE, i, 1000.0 + 5 * i, 700.0, True)])
        if i == 5:
            av.final(2)
    time.sleep(0.5)
    assert av.written == 3  # frames 0-2: the rest wait for the watermark
    av.close()
    assert av.written == 12
    cap = cv2.VideoCapture(str(out))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == 12


def test_a_failing_annotated_video_writer_raises_in_the_analysis_and_does_not_hang(tmp_path: Path) -> None:
    from tabletrack.annotate import AnnotatedVideo
    from tracking.ids import BallId

    camera, table = _camera_and_table()
    w, h = camera.image_w_px, camera.image_h_px
    av = AnnotatedVideo(tmp_path / "a.mp4", camera, table, 30.0, (w, h), (BallId.WHITE,), ram_frames=1)

    def broken(img: np.ndarray, idx: int) -> None:
        raise OSError(28, "No space left on device")

    av.overlay.draw = broken  # type: ignore[method-assign]
    img = np.zeros((h, w, 3), np.uint8)
    t0 = time.monotonic()
    with pytest.raises(OSError, match="No space left"):
        for i in range(10_000):
            av.frame(i, img)
            av.final(i)
    assert time.monotonic() - t0 < 10.0
    av.abandon()  # after a failure: returns at once, raises nothing


def test_analyze_with_a_video_that_cannot_be_written_is_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    """A failing writer gives the user one line (exit 2), not a hang or a traceback."""
    from tabletrack import annotate
    from tabletrack.cli import main

    def cannot(out_path: Path, fps: float, size: tuple[int, int]) -> cv2.VideoWriter:
        raise OSError(f"{out_path}: cannot write an MP4 here")

    monkeypatch.setattr(annotate, "open_writer", cannot)
    video = Path(__file__).resolve().parents[2] / "sample_videos" / "point_2c_hand_720p30.mp4"
    camera, _ = _camera_and_table(1280, 720)
    calib = tmp_path / "calib.json"
    camera.save(calib)
    code = main(["analyze", str(video), "--calibration", str(calib), "--out", str(tmp_path / "o"), "--quiet"])
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    # one line naming the video being written (under its temporary name: the run is not complete)
    assert len(lines) == 1 and lines[0].startswith(f"tabletrack: error: {tmp_path / 'o'}"), lines
    assert "annotated.mp4" in lines[0] and lines[0].endswith(": cannot write an MP4 here"), lines


@pytest.mark.parametrize(
    ("frame_bytes", "budget", "lo", "hi"),
    [
        (1280 * 720 * 3, 1 << 30, 32, 388),  # 720p: up to 1 GiB of frames (less on a small machine)
        (1280 * 720 * 3, 1 << 20, 32, 32),  # a budget under 32 frames: still 32
        (64, 1 << 30, 32, (1 << 30) // 64),
    ],
)
def test_spool_ram_frames_is_the_budget_in_frames(frame_bytes: int, budget: int, lo: int, hi: int) -> None:
    from tabletrack.annotate import spool_ram_frames

    assert lo <= spool_ram_frames(frame_bytes, budget) <= hi
