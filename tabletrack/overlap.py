"""Work that runs beside the analysis, on the machine's other core: the pieces ``analyze`` uses to
decode ahead and to write the annotated video from the same decoded frames.

Contract:

- :class:`Prefetch` runs an iterator (the video decoder) in a daemon thread, at most ``maxsize``
  items ahead of its consumer (a bounded queue: decoded 1080p frames are 6 MB each, so the memory
  it holds is ``maxsize`` frames). The consumer iterates it like the iterator itself; an exception
  raised in the thread is raised again in the consumer's thread, as the same exception object (so
  a user's error stays a one-line error and a bug keeps its traceback); :meth:`Prefetch.backlog`
  says how many items wait for the consumer (0: it waits for the thread). :meth:`Prefetch.close`
  stops the thread wherever it is (also when the consumer stops early or is interrupted) and
  never blocks for more than its ``timeout_s``. ``busy_s`` is the time the thread spent inside
  the iterator (for a decoder: the decode-only time of this run).
- :class:`FrameSpool` is a first-in first-out store of equal-sized frames that keeps at most
  ``ram_frames`` in memory and the rest in an anonymous temporary file (slots reused as frames
  leave, so the file never holds more than the most frames pending at one time). Memory bound:
  ``ram_frames`` frames in RAM; disk: the longest run of pending frames. :meth:`FrameSpool.buffer`
  hands out an array to fill before :meth:`FrameSpool.push` and :meth:`FrameSpool.recycle` takes
  back a popped frame's, so frames in memory reuse the same pages (a fresh 2.7 MB array per frame
  cost its page faults: 3.6 ms a 720p frame here).
- :class:`Worker` runs one function over messages from a bounded queue in a daemon thread; a
  message put after the function failed raises that failure in the putting thread (never waits
  forever on a dead worker); :meth:`Worker.close` ends it and raises its failure if it had one.

Why threads: OpenCV's decoder, remap, resize and the video encoder release the GIL, so the decode
and the annotated video's resize, drawing and encoding run on the second core while the main
thread analyses. On two cores a process pool would copy every 6 MB frame between processes.
"""

from __future__ import annotations

import contextlib
import os
import queue
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

import numpy as np

__all__ = ["FrameSpool", "Prefetch", "Worker"]


def _drain(q: queue.Queue[object]) -> None:
    """Drop every item queued now."""
    with contextlib.suppress(queue.Empty):
        while True:
            q.get_nowait()


T = TypeVar("T")
M = TypeVar("M")
_END = object()
_POLL_S = 0.1


class Prefetch(Generic[T]):
    """See the module docstring. ``make`` is called in the thread to get the iterator."""

    def __init__(self, make: Callable[[], Iterable[T]], maxsize: int = 4, name: str = "prefetch") -> None:
        if maxsize < 1:
            raise ValueError(f"Prefetch: expected maxsize >= 1, got {maxsize}")
        self._q: queue.Queue[object] = queue.Queue(maxsize)
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._make = make
        self.busy_s = 0.0
        self.items = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _put(self, item: object) -> bool:
        while not self._stop.is_set():
            try:
                self._q.put(item, timeout=_POLL_S)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        try:
            it = iter(self._make())
            while not self._stop.is_set():
                t0 = time.perf_counter()
                try:
                    item = next(it)
                except StopIteration:
                    break
                finally:
                    self.busy_s += time.perf_counter() - t0
                self.items += 1
                if not self._put(item):
                    break
        except BaseException as e:
            self._error = e
        finally:
            self._put(_END)

    def backlog(self) -> int:
        """Items made and not yet taken (approximate: the queue's size as the thread sees it)."""
        return self._q.qsize()

    def __iter__(self) -> Iterator[T]:
        while True:
            item = self._q.get()
            if item is _END:
                if self._error is not None:
                    raise self._error
                return
            yield item  # type: ignore[misc]

    def close(self, timeout_s: float = 5.0) -> bool:
        """Stop the thread (items not consumed are dropped) and wait for it at most ``timeout_s``;
        True when it has ended (only then may what it iterated over be released)."""
        self._stop.set()
        _drain(self._q)
        self._thread.join(timeout_s)
        return not self._thread.is_alive()


class FrameSpool:
    """See the module docstring: frames of one ``shape`` (uint8), in order of :meth:`push`."""

    def __init__(self, shape: tuple[int, ...], ram_frames: int = 32) -> None:
        self.shape = tuple(int(v) for v in shape)
        self.nbytes = int(np.prod(self.shape))
        self.ram_frames = max(0, int(ram_frames))
        self._items: deque[tuple[int, np.ndarray | int]] = deque()
        self._in_ram = 0
        self._fd: int | None = None
        self._free: list[int] = []
        self._slots = 0
        self.peak_disk_frames = 0
        self._pool: list[np.ndarray] = []  # popped frames' arrays, to fill again
        self._scratch: np.ndarray | None = None  # the one array filled for a frame that goes to disk

    def __len__(self) -> int:
        return len(self._items)

    def head_index(self) -> int | None:
        """The index of the oldest frame held, None when empty."""
        return self._items[0][0] if self._items else None

    def buffer(self) -> np.ndarray:
        """An array of the spool's shape to fill and :meth:`push` next (its content is stale):
        a recycled one while the frame will be kept in memory, else a scratch array that the
        push writes to disk (then filled again by the next)."""
        if self._in_ram < self.ram_frames:
            return self._pool.pop() if self._pool else np.empty(self.shape, np.uint8)
        if self._scratch is None:
            self._scratch = np.empty(self.shape, np.uint8)
        return self._scratch

    def recycle(self, image: np.ndarray) -> None:
        """Give back a popped frame's array once it is no longer used (optional)."""
        if (
            image.shape == self.shape
            and image.dtype == np.uint8
            and len(self._pool) < self.ram_frames
            and image is not self._scratch
            and image.flags.c_contiguous
            and image.flags.owndata
        ):
            self._pool.append(image)

    def push(self, index: int, image: np.ndarray) -> None:
        if image.shape != self.shape or image.dtype != np.uint8:
            raise ValueError(
                f"FrameSpool: expected a uint8 frame of shape {self.shape}, got {image.dtype} {image.shape}"
            )
        if self._in_ram < self.ram_frames and image is not self._scratch:
            self._items.append((index, image))
            self._in_ram += 1
            return
        if self._fd is None:
            fd, path = tempfile.mkstemp(prefix="tabletrack-spool-")
            os.unlink(path)  # anonymous: gone when closed, however the process ends
            self._fd = fd
        slot = self._free.pop() if self._free else self._new_slot()
        data = np.ascontiguousarray(image).data.cast("B")
        off, done = slot * self.nbytes, 0
        while done < self.nbytes:
            done += os.pwrite(self._fd, data[done:], off + done)
        self._items.append((index, slot))
        self.peak_disk_frames = max(self.peak_disk_frames, self._slots - len(self._free))

    def _new_slot(self) -> int:
        self._slots += 1
        return self._slots - 1

    def pop(self) -> tuple[int, np.ndarray]:
        """The oldest frame (IndexError when empty)."""
        index, where = self._items.popleft()
        if isinstance(where, np.ndarray):
            self._in_ram -= 1
            return index, where
        assert self._fd is not None
        out = np.empty(self.shape, np.uint8)
        view = out.data.cast("B")
        off, done = where * self.nbytes, 0
        while done < self.nbytes:
            n = os.preadv(self._fd, [view[done:]], off + done)
            if n <= 0:
                raise OSError(f"frame spool: short read at slot {where}")
            done += n
        self._free.append(where)
        return index, out

    def close(self) -> None:
        self._items.clear()
        self._pool.clear()
        self._in_ram = 0
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Worker(Generic[M]):
    """See the module docstring: ``handle(message)`` for each message, in order, in a thread."""

    def __init__(self, handle: Callable[[M], None], maxsize: int = 8, name: str = "worker") -> None:
        self._q: queue.Queue[object] = queue.Queue(maxsize)
        self._handle = handle
        self.error: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while True:
                msg = self._q.get()
                if msg is _END:
                    return
                self._handle(msg)  # type: ignore[arg-type]
        except BaseException as e:
            self.error = e
        finally:
            self._done.set()
            _drain(self._q)  # unblock a producer waiting on a full queue

    def _raise_if_failed(self) -> None:
        if self.error is not None:
            raise self.error

    def put(self, msg: M) -> None:
        """Queue ``msg``; raises the worker's failure instead if it has failed (or ended)."""
        while True:
            self._raise_if_failed()
            if self._done.is_set():
                raise RuntimeError("worker: put after the worker ended")
            try:
                self._q.put(msg, timeout=_POLL_S)
                return
            except queue.Full:
                continue

    def close(self, timeout_s: float | None = None) -> None:
        """End after the messages queued so far (``timeout_s`` None: however long they take);
        raises the worker's failure if it had one."""
        while not self._done.is_set():
            try:
                self._q.put(_END, timeout=_POLL_S)
                break
            except queue.Full:
                continue
        self._thread.join(timeout_s)
        self._raise_if_failed()

    def abandon(self, timeout_s: float = 5.0) -> bool:
        """Stop after the message in hand, dropping those queued (interrupts, errors elsewhere);
        waits for the thread at most ``timeout_s`` and raises nothing. True when it has ended."""
        _drain(self._q)
        with contextlib.suppress(queue.Full):
            self._q.put_nowait(_END)
        self._thread.join(timeout_s)
        return not self._thread.is_alive()
