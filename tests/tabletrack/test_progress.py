"""tabletrack/progress.py Progress: the bar's line is ended once, however often it is closed (the
pipeline closes it before it prints the calls, and again when the run ends)."""

from __future__ import annotations

import io

from tabletrack.progress import Progress


def test_closing_twice_ends_the_line_once() -> None:
    out = io.StringIO()
    bar = Progress(10, "analyzing", enabled=True, stream=out)
    bar.update(10)
    bar.close()
    bar.close()
    assert out.getvalue().count("\n") == 1


def test_a_disabled_bar_writes_nothing() -> None:
    out = io.StringIO()
    bar = Progress(10, "analyzing", enabled=False, stream=out)
    bar.update(5)
    bar.close()
    assert out.getvalue() == ""
