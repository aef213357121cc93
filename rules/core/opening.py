"""Whether a log's first shot is a break: only where the balls stand as a break places them.

A log that begins with no referee input was, until now, taken to begin a new game, so its first
shot was judged as a break — and a clip cut from the middle of a match got a break foul for an
ordinary shot. The break places the balls on known spots, so the first shot's start positions
tell a break from a shot in play:

- carom (003 art. 5; 002 ART 4): the red on the foot spot, the opponent's ball on the head spot,
  the cue ball on the head string beside it (18.5 cm by 002 ART 4, 15.2 cm by 003 art. 5);
- pool (000 2.2 and the rack of every other pocket game; 002 bola 8 ART 10; 004 art. 4): the
  object balls racked, touching, in one tight cluster with a ball on the foot spot;
- snooker (002 snooker ART 1.3): the reds racked in one tight cluster behind the pink's spot.

The camera cannot tell the head from the foot (nor left from right), so the layout is matched
under the table's four symmetries. Positions come from the tracker: a ball may be missed, so a
rack needs most of its balls (``RACK_SHARE``), not all; a ball already moving when the recording
began counts where it was first seen (a rack struck on the clip's first frames is the break's).

The table is data handed in by the caller (:class:`TableSpots`, from the table spec), so the
rules package still sees no more geometry than zones and spots.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.core.errors import RefereeInputError
from rules.core.games import Family, Game
from rules.core.table import PointMm, TableSpots
from tracking.events import ShotStart
from tracking.ids import BallId

__all__ = [
    "OpeningSight",
    "RACK_SHARE",
    "RACK_TOUCH_D",
    "SPOT_TOL_D",
    "sight_opening",
    "break_left_to_default",
    "opening_input",
]


@dataclass(frozen=True)
class OpeningSight:
    """The verdict on the first shot's start: ``is_break`` and a sentence saying why, citing the
    article of the game's break position (it goes into the first call's reason)."""

    is_break: bool
    reason: str


#: A rack counts when this share of the game's object balls (or reds) stands in it.
RACK_SHARE = 0.8
#: Two racked balls' centres lie at most this many diameters apart (touching, with the tracker's
#: error of a few millimetres).
RACK_TOUCH_D = 1.15
#: A carom ball on its spot lies within this many diameters of it (placed by hand, measured by
#: the tracker).
SPOT_TOL_D = 1.0


def _symmetries(t: TableSpots, p: PointMm) -> list[PointMm]:
    x, y = p
    return [(x, y), (t.length_mm - x, y), (x, t.width_mm - y), (t.length_mm - x, t.width_mm - y)]


def _near(a: PointMm, b: PointMm, tol: float) -> bool:
    return math.dist(a, b) <= tol


def _carom(start: ShotStart, t: TableSpots) -> OpeningSight:
    art = "003 art. 5; 002 ART 4"
    need = ("foot", "head_centre", "head_left", "head_right")
    if any(k not in t.spots_mm for k in need):
        return OpeningSight(True, f"the table gives no break spots; the first shot is taken as the break ({art})")
    pos = start.positions
    tol = SPOT_TOL_D * t.ball_diameter_mm
    foot, head = t.spots_mm["foot"], t.spots_mm["head_centre"]
    sides = (t.spots_mm["head_left"], t.spots_mm["head_right"])
    if all(b in pos for b in (BallId.RED, BallId.WHITE, BallId.YELLOW)):
        # either white or yellow on the head spot, the other beside it (which one the tracker
        # named struck is not needed, and may be the doubtful part of the shot start)
        for on_spot, beside in ((BallId.WHITE, BallId.YELLOW), (BallId.YELLOW, BallId.WHITE)):
            for k in range(4):
                r, c, o = (_symmetries(t, pos[b])[k] for b in (BallId.RED, beside, on_spot))
                if _near(r, foot, tol) and _near(o, head, tol) and any(_near(c, s, tol) for s in sides):
                    return OpeningSight(True, f"the balls stand in the break position ({art})")
    return OpeningSight(
        False,
        f"the balls do not stand in the break position ({art}: red on the foot spot, "
        f"the opponent's ball on the head spot, the cue ball beside it), so the first "
        f"shot is taken as a shot in play, not a break",
    )


def _clusters(points: Sequence[PointMm], touch: float) -> list[list[int]]:
    n = len(points)
    seen = [False] * n
    out: list[list[int]] = []
    for i in range(n):
        if seen[i]:
            continue
        stack, comp = [i], []
        seen[i] = True
        while stack:
            a = stack.pop()
            comp.append(a)
            for b in range(n):
                if not seen[b] and _near(points[a], points[b], touch):
                    seen[b] = True
                    stack.append(b)
        out.append(comp)
    return out


def _first_frame(start: ShotStart) -> Mapping[BallId, PointMm]:
    """Where the balls stood on the first frame: the rest layout, and each ball already under way
    when the recording began where it was first seen (``ShotStart.under_way_at``). A rack struck
    on the clip's first frames is still packed there, and a blurred picture's jitter can make a
    packed ball read as moving (real nine-ball broadcast, softened: two of the rack's balls,
    their centres 4-8 mm apart from frame to frame before the cue ball arrived, read as under
    way, and the rack was short of them); balls in flight after a shot in play stand in no rack."""
    return {**start.under_way_at, **start.positions}


def _rack(
    start: ShotStart, t: TableSpots, balls: Sequence[BallId], spot_name: str, what: str, art: str
) -> OpeningSight:
    seen = _first_frame(start)
    pts = [seen[b] for b in balls if b in seen]
    need = max(1, math.ceil(RACK_SHARE * len(balls)))
    spot = t.spots_mm.get(spot_name)
    D = t.ball_diameter_mm
    if len(pts) >= need:
        best = max(_clusters(pts, RACK_TOUCH_D * D), key=len)
        if len(best) >= need:
            if spot is None:
                return OpeningSight(True, f"the {what} stand racked ({art})")
            # a rack of n balls spans about sqrt(2 n) rows: its balls lie within that of the spot
            reach = (math.sqrt(2.0 * len(balls)) + 1.0) * D
            near = [i for i in best if any(_near(q, spot, reach) for q in _symmetries(t, pts[i]))]
            if len(near) >= need:
                return OpeningSight(True, f"the {what} stand racked ({art})")
    return OpeningSight(
        False, f"the {what} are not racked ({art}), so the first shot is taken as a shot in play, not a break"
    )


_POOL_RACK: dict[Game, tuple[str, ...]] = {
    Game.NINE_BALL: tuple(str(i) for i in range(1, 10)),
    Game.TEN_BALL: tuple(str(i) for i in range(1, 11)),
    Game.SEVEN_BALL: tuple(str(i) for i in range(1, 8)),
    Game.SIX_BALL: tuple(str(i) for i in range(1, 7)),
    Game.ROTATION: tuple(str(i) for i in range(1, 16)),
    Game.EIGHT_BALL: tuple(str(i) for i in range(1, 16)),
    Game.STRAIGHT_POOL: tuple(str(i) for i in range(1, 16)),
}
_POOL_ART: dict[Game, str] = {
    Game.EIGHT_BALL: "002 bola 8 ART 10",
    Game.STRAIGHT_POOL: "004 art. 4",
}


def sight_opening(game: Game, start: ShotStart, table: TableSpots) -> OpeningSight:
    """Whether ``start`` (a log's first shot start) shows the balls where ``game``'s break puts them."""
    if game.family is Family.CAROM:
        return _carom(start, table)
    if game is Game.SNOOKER:
        reds = [BallId.parse(f"red_{i}") for i in range(1, 16)]
        return _rack(start, table, reds, "pink", "reds", "002 snooker ART 1.3")
    balls = [BallId.parse(b) for b in _POOL_RACK.get(game, ())]
    return _rack(start, table, balls, "foot_spot", "object balls", _POOL_ART.get(game, "000 2.2"))


def break_left_to_default(raw: Mapping | None) -> bool:
    """Whether referee input ``raw`` (decoded JSON, or None) leaves the opening to the default:
    it gives no ``start`` at all (a ``start`` that gives the state of a game in play, or says
    ``next_is_break``, has decided it)."""
    if raw is None:
        return True
    start = raw.get("start") if isinstance(raw, Mapping) else None
    return not isinstance(start, Mapping) or not start


def opening_input(
    raw: Mapping | None, game: Game, first: ShotStart | None, table: TableSpots | None
) -> tuple[dict | None, OpeningSight | None]:
    """The referee input to judge with, and the opening sight when it changed the default: ``raw``
    with ``start.next_is_break`` false where it left the opening to the default and ``first``
    does not show the break layout; ``raw`` unchanged (and no sight) otherwise."""
    if raw is not None and not isinstance(raw, Mapping):
        raise RefereeInputError(
            f"referee input: expected a JSON object with players, match, start, shots; got {type(raw).__name__}"
        )
    if table is None or first is None or not break_left_to_default(raw):
        return (dict(raw) if raw is not None else None), None
    sight = sight_opening(game, first, table)
    if sight.is_break:
        return (dict(raw) if raw is not None else None), None
    out = dict(raw or {})
    out["start"] = {"next_is_break": False}
    return out, sight
