"""The summary of a stream of calls in bounded memory: the last calls for the table, totals of all.

Contract: :class:`CallTally` takes each call as it is made (``add``) and gives the calls table of
the last :data:`TABLE_CALLS` calls with the totals of every call (``table``). Why: ``judge`` and
``events --game`` write every call to their output as it is made; the summary they print must not
make them hold the whole match in memory again.
"""

from __future__ import annotations

from collections import deque

from rules import format_calls_table
from rules.core.call import Call

__all__ = ["TABLE_CALLS", "CallTally"]

#: the calls the summary table shows (the last ones); every call is in the output
TABLE_CALLS = 200


class CallTally:
    """The summary of the calls judged so far: the last :data:`TABLE_CALLS` calls and the totals
    of all, in memory that does not grow with the log."""

    def __init__(self) -> None:
        self.last: deque[Call] = deque(maxlen=TABLE_CALLS)
        self.count = self.points = self.fouls = self.review = 0

    def add(self, call: Call) -> None:
        self.last.append(call)
        self.count += 1
        self.points += max(call.points, 0)
        self.fouls += call.foul is not None
        self.review += call.needs_review

    def table(self) -> str:
        if self.count <= TABLE_CALLS:
            return format_calls_table(list(self.last))
        head = format_calls_table(list(self.last)).rsplit("\n", 1)[0]
        return (
            f"{head}\n(the last {TABLE_CALLS} of {self.count} calls) {self.count} shots: {self.points} points, "
            f"{self.fouls} fouls, {self.review} to review"
        )
