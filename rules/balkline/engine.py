"""The engine of libre and the balk-line games (002 ART 19-24), and of pentathlon and triathlon
(002 ART 28-30, in :mod:`rules.balkline.multi`).

A carom is the cue ball touching both object balls (002 ART 7.2; no cushion needed): the carom
engine of :mod:`rules.carom.engine` judges it with ``min_cushions=0`` and keeps the match (break
position, fouls, balls off the table, innings, distance, sets: 002 ART 5-17). This engine adds the
limited zones (:mod:`rules.balkline.zones`) as an extra rule inside the carom engine's pure
decision, so the evidence review re-judges it too:

- The position is read at rest: the shot start (the position the stroke was played from) and the
  shot end (the one announced for the next stroke). Both object balls (the two balls that are not
  the struck one, ART 18) in one zone: "entran" (ART 20.1); after a carom with both staying in it:
  "dentro" (20.1; 47/1: "dentro" at once, 23.2). A carom played from "dentro" after which neither
  object ball has left the zone is a foul, the inning passes (20.5, 21.3, 22.4, 23.2, 24.3).
- The count belongs to the series (ART 19.2: "en el curso de una serie"): it restarts at each
  inning, and when the balls leave a zone and come back (20.4: "entran" again).
- "Left the zone" is seen where the event log places the object ball: at the shot end, and at
  each of its cushion contacts during the shot (a ball that leaves and returns between two such
  points is not seen to leave: the call then rests on the end positions).
- A ball on a line counts in both zones, against the player (20.3). A deciding ball within
  ``REVIEW_NEAR_LINE_MM`` of a line sets ``needs_review``: the camera's millimetre is not the
  referee's eye on a line.
- "A caballo" (20.2) is reported in the call's details when the object balls rest in different
  zones near their line; it allows what any position outside a zone allows.

The zone state (:class:`BalklineState`) wraps the carom match state; the table size comes from the
referee input (``match.table_mm``, default the match table 2840 x 1420, ART 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.balkline.zones import MATCH_TABLE_MM, Zone, astride, nearest_line_mm, zones_for, zones_holding
from rules.carom.engine import CushionCaromEngine
from rules.carom.fouls import Foul
from rules.carom.inputs import MatchSetup, ShotInput, parse_referee_input
from rules.carom.sheet import format_score_sheet, score_sheet
from rules.carom.state import GameState
from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.errors import RefereeInputError, ShotError
from rules.core.games import Game
from rules.core.table import PointMm, TableSpots
from tracking.events import CushionHit, Event, Shot, ShotStart
from tracking.ids import CAROM_BALLS, BallId

__all__ = [
    "PointMm",
    "REVIEW_NEAR_LINE_MM",
    "ASTRIDE_NEAR_MM",
    "ZONE_GAMES",
    "BalklineSetup",
    "BalklineInput",
    "BalklineState",
    "table_from_match",
    "split_match_keys",
    "BalklineEngine",
    "make_engine",
]


#: A deciding object ball this close to a zone line puts the call in doubt (ART 20.3).
REVIEW_NEAR_LINE_MM = 3.0
#: Two balls within this of their line, in different zones: "a caballo" (ART 20.2).
ASTRIDE_NEAR_MM = 61.5

ZONE_GAMES = (Game.LIBRE, Game.BALKLINE_47_2, Game.BALKLINE_47_1, Game.BALKLINE_71_2)

_ARTICLES = {
    Game.LIBRE: "002 ART 20.5, 21.3",
    Game.BALKLINE_47_2: "002 ART 20.5, 22.4",
    Game.BALKLINE_47_1: "002 ART 20.5, 23.2",
    Game.BALKLINE_71_2: "002 ART 20.5, 24.3",
}


@dataclass(frozen=True)
class BalklineSetup:
    """The carom match setup plus the table's playing surface (length, width) in mm."""

    carom: MatchSetup = field(default_factory=MatchSetup)
    table_mm: tuple[float, float] = MATCH_TABLE_MM


@dataclass(frozen=True)
class BalklineInput:
    """The parsed referee input of a balk-line game: the carom format (:mod:`rules.carom.inputs`) plus
    ``match.table_mm``."""

    setup: BalklineSetup
    shots: Mapping[int, ShotInput]

    def for_shot(self, number: int) -> ShotInput | None:
        return self.shots.get(number)


@dataclass(frozen=True)
class BalklineState:
    """The carom match state, the table's zones, and per zone the caroms the current series has
    made with both object balls in it since they entered it (absent: not "entran")."""

    carom: GameState
    zones: tuple[Zone, ...]
    made: Mapping[str, int] = field(default_factory=dict)

    @property
    def game(self) -> Game:
        return self.carom.game


def table_from_match(m: Any, where: str) -> tuple[float, float]:
    """``match.table_mm`` ([length, width], positive, length > width) or the match table."""
    if m is None:
        return MATCH_TABLE_MM
    ok = (
        isinstance(m, (list, tuple))
        and len(m) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in m)
    )
    if not ok or m[0] <= m[1]:
        raise RefereeInputError(f"{where}: match.table_mm must be [length, width] in mm with length > width, got {m!r}")
    return (float(m[0]), float(m[1]))


def split_match_keys(obj: Any, where: str, keys: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``obj`` without the ``match`` keys in ``keys`` (left for the carom parser), and those keys."""
    if not isinstance(obj, dict):
        raise RefereeInputError(f"{where} must be an object, got {type(obj).__name__}")
    rest = dict(obj)
    match = rest.get("match")
    taken: dict[str, Any] = {}
    if isinstance(match, dict):
        match = dict(match)
        for k in keys:
            if k in match:
                taken[k] = match.pop(k)
        rest["match"] = match
    return rest, taken


def _object_balls(start: ShotStart | None) -> tuple[BallId, BallId] | None:
    """The two object balls (ART 18): the carom balls other than the one struck."""
    if start is None:
        return None
    objs = tuple(b for b in CAROM_BALLS if b is not start.cue_ball)
    return (objs[0], objs[1]) if len(objs) == 2 else None


@dataclass(frozen=True)
class _ZoneReading:
    """What the zones say of one shot: the zones holding both object balls at the start, which of
    them both balls never left, the zones holding both at the end, and the doubt."""

    at_start: tuple[Zone, ...]
    stayed: tuple[Zone, ...]
    at_end: tuple[Zone, ...]
    near_line: tuple[str, ...]


def _read_zones(
    zones: tuple[Zone, ...],
    start: ShotStart | None,
    mids: Sequence[Event],
    end_positions: Mapping[BallId, PointMm] | None,
) -> _ZoneReading:
    if start is None:
        return _ZoneReading((), (), (), ())
    objs = _object_balls(start)
    if objs is None or not all(b in start.positions for b in objs):
        return _ZoneReading((), (), (), ())
    a, b = objs
    pa, pb = start.positions[a], start.positions[b]
    at_start = zones_holding(zones, pa, pb)
    near: list[str] = []
    end = end_positions or {}
    at_end: tuple[Zone, ...] = ()
    if a in end and b in end:
        at_end = zones_holding(zones, end[a], end[b])
    seen: dict[BallId, list[PointMm]] = {a: [], b: []}
    for e in mids:
        if isinstance(e, CushionHit) and e.ball in seen:
            seen[e.ball].append(e.pos_mm)
    stayed = []
    for z in at_start:
        if z not in at_end:
            continue
        if any(not z.holds(p) for ball in (a, b) for p in seen[ball]):
            continue
        stayed.append(z)
    for ball, p in ((a, pa), (b, pb)):
        d = nearest_line_mm(zones, p)
        if d <= REVIEW_NEAR_LINE_MM:
            near.append(f"the {ball.value} rested {d:.1f} mm from a zone line before the stroke")
    for ball in (a, b):
        if ball in end:
            d = nearest_line_mm(zones, end[ball])
            if d <= REVIEW_NEAR_LINE_MM:
                near.append(f"the {ball.value} rests {d:.1f} mm from a zone line")
    return _ZoneReading(at_start, tuple(stayed), at_end, tuple(near))


def _position_word(zone: Zone, made: int) -> str:
    return "dentro" if made >= 1 or zone.caroms_allowed == 1 else "entran"


@dataclass(frozen=True)
class BalklineEngine:
    """Libre, cuadro 47/2, 47/1 or 71/2 (see the module docstring)."""

    game: Game
    config: JudgeConfig = field(default_factory=JudgeConfig)

    def _carom_engine(self, rule: Any = None) -> CushionCaromEngine:
        return CushionCaromEngine(game=self.game, min_cushions=0, config=self.config, extra_rule=rule)

    # -- the protocol ---------------------------------------------------------------------------
    def parse_input(self, obj: Any, where: str = "referee input") -> BalklineInput:
        rest, taken = split_match_keys(obj, where, ("table_mm",))
        ref = parse_referee_input(rest, where)
        return BalklineInput(BalklineSetup(ref.setup, table_from_match(taken.get("table_mm"), where)), ref.shots)

    def initial_state(self, setup: BalklineSetup | MatchSetup | None = None) -> BalklineState:
        if isinstance(setup, MatchSetup) or setup is None:
            setup = BalklineSetup(setup or MatchSetup())
        carom = self._carom_engine().initial_state(setup.carom)
        return BalklineState(carom=carom, zones=zones_for(self.game, setup.table_mm))

    def score_sheet(self, state: BalklineState) -> dict[str, Any]:
        return score_sheet(state.carom)

    def balls_on_table(self, state: BalklineState) -> frozenset[BallId] | None:
        """None: the three balls are always in play."""
        return None

    def format_score_sheet(self, state: BalklineState) -> str:
        return format_score_sheet(state.carom)

    def judge_shot(
        self, state: BalklineState, shot: Shot, shot_input: ShotInput | None = None
    ) -> tuple[Call, BalklineState]:
        if state.game is not self.game:
            raise ShotError(f"this engine judges {self.game.value}, got a {state.game.value} game state")
        made = dict(state.made) if state.carom.in_inning else {}
        end_positions = shot.end.positions if shot.end is not None else None
        zones = state.zones
        articles = _ARTICLES[self.game]

        def rule(
            st: GameState, start: ShotStart | None, mids: Sequence[Event], carom: bool
        ) -> Sequence[tuple[Foul, str, str, tuple[tuple[Event, str], ...]]]:
            if not carom:
                return ()
            reading = _read_zones(zones, start, mids, end_positions)
            out: list[tuple[Foul, str, str, tuple[tuple[Event, str], ...]]] = []
            for z in reading.stayed:
                n = made.get(z.name, 0)
                if n + 1 >= z.caroms_allowed:
                    basis: tuple[tuple[Event, str], ...] = (
                        ((start, f"shot start: both object balls in {z.name} ({_position_word(z, n)})"),)
                        if start is not None
                        else ()
                    )
                    out.append(
                        (
                            Foul.BALK_ZONE,
                            f"a carom was made from the position 'dentro' in the {z.kind} zone {z.name} "
                            f"({n} carom{'s' if n != 1 else ''} already made in it, {z.caroms_allowed} allowed) "
                            "and neither object ball left it",
                            articles,
                            basis,
                        )
                    )
                    break
            return out

        call, carom_state = self._carom_engine(rule).judge_shot(state.carom, shot, shot_input)
        reading = _read_zones(zones, shot.start, list(shot.events), end_positions)
        # the next shot's count: only within the series that goes on
        new_made: dict[str, int] = {}
        if not call.turn_over and call.points > 0:
            stayed = {z.name for z in reading.stayed}
            for z in reading.at_end:
                new_made[z.name] = made.get(z.name, 0) + 1 if z.name in stayed else 0
        positions = [
            {
                "zone": z.name,
                "kind": z.kind,
                "position": _position_word(z, new_made.get(z.name, 0)),
                "caroms_made": new_made.get(z.name, 0),
                "caroms_allowed": z.caroms_allowed,
            }
            for z in reading.at_end
        ]
        objs = _object_balls(shot.start)
        caballo = False
        if objs is not None and end_positions and all(b in end_positions for b in objs):
            caballo = astride(zones, end_positions[objs[0]], end_positions[objs[1]], ASTRIDE_NEAR_MM)
        reason = call.reason
        if positions and not call.turn_over:
            words = "; ".join(f"'{p['position']}' in {p['zone']}" for p in positions)
            reason += (
                f" Both object balls rest in a limited zone: {words} (002 ART 19.2, 20.1"
                + (", 23.2" if self.game is Game.BALKLINE_47_1 else "")
                + ")."
            )
        elif caballo and not call.turn_over:
            reason += " The object balls rest 'a caballo', in different zones by a line (002 ART 20.2)."
        decisive = (call.points > 0 or call.foul is Foul.BALK_ZONE) and (reading.at_start or reading.at_end)
        needs = call.needs_review
        review = call.review_reason
        if decisive and reading.near_line:
            needs = True
            review = ((review + " ") if review else "") + (
                "Needs review: " + "; ".join(reading.near_line) + " (a ball on a line counts against the player, "
                "002 ART 20.3)."
            )
        details = {"zones": positions, "a_caballo": caballo}
        call = replace(call, reason=reason, needs_review=needs, review_reason=review, details=details)
        return call, BalklineState(carom=carom_state, zones=zones, made=new_made)


def make_engine(game: Game, config: JudgeConfig, table: TableSpots | None = None) -> Any:
    """The engine of a zone game (:class:`BalklineEngine`) or of pentathlon / triathlon
    (:class:`rules.balkline.multi.MultiCaromEngine`); :mod:`rules.core.engine`'s registry calls it. ``table`` is not read: no rule of this game depends on the table's spots."""
    if game in ZONE_GAMES:
        return BalklineEngine(game=game, config=config)
    from rules.balkline.multi import SEQUENCES, MultiCaromEngine

    if game in SEQUENCES:
        return MultiCaromEngine(game=game, config=config)
    raise ShotError(
        f"rules.balkline judges {', '.join(g.value for g in ZONE_GAMES)}, pentathlon and triathlon, got {game.value}"
    )
