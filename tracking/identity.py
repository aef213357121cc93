"""Ball sets of each game and the detector classes their balls are seen as.

A detector tells balls apart by what they look like. For pool and carom every ball looks different,
so a ball's class is the ball itself. Snooker's fifteen reds look the same: the detector gives the
class ``red`` (:data:`BallId.RED`) for each, and the tracker names them ``red_1`` .. ``red_15`` by
motion (DESIGN.md: reds are told apart by tracking, not by the model). This module holds only that
mapping and the sets; the assignment lives in :mod:`tracking.tracker`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from common.errors import TabletrackError
from tracking.ids import CAROM_BALLS, BallId

POOL_BALLS: tuple[BallId, ...] = (BallId.CUE,) + tuple(BallId(str(k)) for k in range(1, 16))
SNOOKER_REDS: tuple[BallId, ...] = tuple(BallId(f"red_{k}") for k in range(1, 16))
SNOOKER_COLOURS: tuple[BallId, ...] = (
    BallId.YELLOW,
    BallId.GREEN,
    BallId.BROWN,
    BallId.BLUE,
    BallId.PINK,
    BallId.BLACK,
)
SNOOKER_BALLS: tuple[BallId, ...] = (BallId.CUE,) + SNOOKER_REDS + SNOOKER_COLOURS

_SNOOKER_REDS = frozenset(SNOOKER_REDS)


class BallSetError(TabletrackError):
    """A table kind with no known ball set."""


def detector_class(ball: BallId) -> BallId:
    """The class a detector reports for ``ball``: ``red`` for every snooker red, else the ball."""
    return BallId.RED if ball in _SNOOKER_REDS else ball


def shared_class_balls(balls: Iterable[BallId]) -> frozenset[BallId]:
    """The balls of a set whose detector class is shared with another ball of the set (told
    apart by motion only)."""
    count: dict[BallId, int] = {}
    bs = list(balls)
    for b in bs:
        count[detector_class(b)] = count.get(detector_class(b), 0) + 1
    return frozenset(b for b in bs if count[detector_class(b)] > 1)


def balls_for(kind: str) -> tuple[BallId, ...]:
    """The full ball set of a table kind (``TableSpec.kind``: ``carom``, ``pool``, ``snooker``)."""
    sets: dict[str, Sequence[BallId]] = {"carom": CAROM_BALLS, "pool": POOL_BALLS, "snooker": SNOOKER_BALLS}
    try:
        return tuple(sets[str(kind)])
    except KeyError:
        raise BallSetError(f"no ball set for table kind {kind!r}: expected one of {', '.join(sets)}") from None
