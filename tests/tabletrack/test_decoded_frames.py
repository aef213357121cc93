"""tabletrack/pipeline.py DecodedFrames: the decoder thread's frames carry the detector's
``prepare`` of the image while the session analyses every frame that changes (a ball moves, or
the balls rest with one hidden: that work then runs on the other core: speed, issue 10) and on the
still gate's heartbeat frames, never on other frames while it analyses only the frames that
change at a ball, and only while the analysis has decoded frames waiting (else the analysing
core, which waits for the decoder, prepares it), and never change a frame's content."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np
import pytest

from tabletrack.pipeline import DecodedFrames
from vision.source import Frame


class _Source:
    def __init__(self, n: int) -> None:
        self.n = n

    def frames(self) -> Iterator[Frame]:
        for i in range(self.n):
            yield Frame(i, i / 30.0, np.full((4, 4, 3), i, np.uint8))


@pytest.mark.parametrize(
    ("analyses_changes", "has_prepare", "prepared"),
    [(True, True, True), (False, True, False), (True, False, False)],
    ids=[
        "every changed frame analysed (a ball moves, or one is hidden at rest): prepared",
        "table at rest, balls watched: not",
        "detector without prepare: not",
    ],
)
def test_frames_are_prepared_only_while_every_changed_frame_is_analysed(
    analyses_changes: bool, has_prepare: bool, prepared: bool
) -> None:
    session = SimpleNamespace(analyses_changes=analyses_changes, gate=SimpleNamespace(heartbeat_due_s=float("inf")))
    detector = SimpleNamespace(prepare=lambda img: ("prep", int(img[0, 0, 0]))) if has_prepare else SimpleNamespace()
    feed = DecodedFrames(_Source(5), detector, session)  # type: ignore[arg-type]
    frames = list(feed())
    assert [f.index for f in frames] == list(range(5))
    assert all(int(f.image[0, 0, 0]) == f.index for f in frames)  # type: ignore[index]
    if prepared:
        assert [f.prepared for f in frames] == [("prep", i) for i in range(5)]
        assert feed.prepare_s > 0.0
    else:
        assert all(f.prepared is None for f in frames)
        assert feed.prepare_s == 0.0


def test_the_heartbeat_frames_are_prepared_while_the_balls_are_watched() -> None:
    """Frames at 0, 1/30, ... s; the gate's heartbeat due from 0.1 s: frames 3 and 4 are prepared
    (the whole table is looked at then, whatever the image shows), 0-2 not."""
    session = SimpleNamespace(analyses_changes=False, gate=SimpleNamespace(heartbeat_due_s=0.1))
    detector = SimpleNamespace(prepare=lambda img: ("prep", int(img[0, 0, 0])))
    frames = list(DecodedFrames(_Source(5), detector, session)())  # type: ignore[arg-type]
    assert [f.prepared for f in frames] == [None, None, None, ("prep", 3), ("prep", 4)]


@pytest.mark.parametrize(
    ("backlog", "prepared"),
    [
        ([1, 0, 2, 0, 4], [True, False, True, False, True]),
        ([0, 0, 0, 0, 0], [False] * 5),
        (None, [True] * 5),
    ],
    ids=["frames waiting: prepared here, none waiting: left to the analysis", "the analysis always waits", "no queue"],
)
def test_a_frame_is_prepared_here_only_while_the_analysis_has_frames_waiting(
    backlog: list[int] | None, prepared: list[bool]
) -> None:
    session = SimpleNamespace(analyses_changes=True, gate=SimpleNamespace(heartbeat_due_s=float("inf")))
    detector = SimpleNamespace(prepare=lambda img: ("prep", int(img[0, 0, 0])))
    feed = DecodedFrames(_Source(5), detector, session)  # type: ignore[arg-type]
    if backlog is not None:
        sizes = iter(backlog)
        feed.backlog = lambda: next(sizes)
    frames = list(feed())
    assert [f.prepared is not None for f in frames] == prepared
    assert all(f.prepared == ("prep", f.index) for f in frames if f.prepared is not None)


def test_a_frame_is_not_prepared_while_the_detector_says_it_will_not_read_it() -> None:
    """The classical detector's guided frames read windows of the view only
    (``ClassicalDetector.prepare_useful``): while it says so, the decoder leaves the frames
    unprepared (frames 1 and 2 here), and prepares them again once it wants them."""
    session = SimpleNamespace(analyses_changes=True, gate=SimpleNamespace(heartbeat_due_s=float("inf")))
    useful = iter([True, False, False, True, True])
    detector = SimpleNamespace(prepare=lambda img: ("prep", int(img[0, 0, 0])), prepare_useful=lambda: next(useful))
    frames = list(DecodedFrames(_Source(5), detector, session)())  # type: ignore[arg-type]
    assert [f.prepared is not None for f in frames] == [True, False, False, True, True]
