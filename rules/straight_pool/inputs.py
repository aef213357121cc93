"""The 14.1 referee input: the match, where the log starts, and what no camera sees per shot.

The outer shape is the one every game shares (``players``, ``match``, ``start``, ``shots``)::

    {
      "players": ["Mosconi", "Crane"],                      # default ["player 1", "player 2"]
      "match": {"target": 150, "head_string_mm": 635, "calls": "assume"},
      "start": {                                             # omit for a new match (player 1 breaks)
        "at_table": "Crane",                                 # or "breaker" when next_is_break
        "score": {"Mosconi": 87, "Crane": -3},               # or [87, -3]; negative allowed (004 art. 13)
        "innings": {"Mosconi": 6, "Crane": 6}, "high_run": {"Mosconi": 52, "Crane": 9},
        "run": 0, "consecutive_fouls": {"Mosconi": 0, "Crane": 2},
        "next_is_break": false, "ball_in_hand": true,        # in hand behind the head string (004 art. 10)
        "balls": ["1", "4", "9", "15"], "rack": 7,           # object balls on the table; else the log's
        "choice_pending": "third_foul",                      # at_table chooses (see Option); rare
        "rack_pending": {"fifteenth": "9", "fifteenth_at": [1500, 300], "cue_at": [1900, 640]}
      },
      "shots": {                                             # keyed by the event log's shot numbers
        "1": {"called": {"ball": "5", "pocket": "foot_left"}},
        "2": {"safety": true},
        "3": {"foul": "touched_ball", "note": "sleeve"},
        "4": {"foul": "intentional", "choice": "rerack"},
        "5": {"overrule": ["no_rail_after_contact"], "called": {"ball": "3", "pocket": "side_right"}}
      }
    }

``match``: ``target`` the points that win (004 art. 1; 150 by default, null: play on);
``head_string_mm`` the head string's x in the event log's frame (:mod:`rules.straight_pool.head_string`);
``calls``: "assume" (default: a shot with no call takes the first ball pocketed as called in its
pocket, and the reason says so) or "required" (a shot with no call scores nothing).

Per shot: ``called`` (ball and pocket, 004 art. 1, 7.1) or ``safety`` (004 art. 7.4), not both;
``foul`` a name of :class:`StraightPoolFoul` or a list (fouls the referee saw; "intentional" is
the serious foul of 004 art. 7.5); ``intentional`` true: the foul of this shot is ruled intentional;
``overrule``: fouls found in the log that the referee rejects; ``choice`` ("accept_table",
"rerack"): the incoming player's choice after this shot, where the shot gives one (a breaking
violation, an intentional or a third successive foul); without it the next shot's start tells;
``note``. A called ball must be on the table at that shot: the engine checks it
(:class:`CalledBallError`, with the shot number).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rules.core.errors import RefereeInputError
from rules.core.parsing import (
    boolean,
    checked_object,
    integer,
    located,
    one_or_many,
    player_names,
    player_pair,
    shot_entries,
)
from rules.core.table import PointMm
from rules.straight_pool.fouls import StraightPoolFoul, parse_foul
from rules.straight_pool.head_string import HEAD_STRING_X_MM, StringGeometry
from rules.straight_pool.state import OBJECT_BALLS, CallsMode, Choice, Option
from tracking.ids import BallId, Pocket

__all__ = [
    "DEFAULT_PLAYERS",
    "DEFAULT_TARGET",
    "CalledBallError",
    "ChoiceError",
    "CalledShot",
    "ShotInput",
    "MatchOptions",
    "StartInput",
    "Setup",
    "StraightPoolInput",
    "parse_match",
    "parse_start",
    "parse_shot",
    "parse_input",
]

DEFAULT_PLAYERS: tuple[str, str] = ("player 1", "player 2")
DEFAULT_TARGET = 150


class CalledBallError(RefereeInputError):
    """A call that the table at that shot contradicts (the ball is not on the table)."""


class ChoiceError(RefereeInputError):
    """A ``choice`` on a shot that gives the incoming player none."""


@dataclass(frozen=True)
class CalledShot:
    """The ball and pocket called before the shot (004 art. 1, 7.1)."""

    ball: BallId
    pocket: Pocket


@dataclass(frozen=True)
class ShotInput:
    """The referee's input for one shot (see the module docstring)."""

    called: CalledShot | None = None
    safety: bool = False
    fouls: tuple[StraightPoolFoul, ...] = ()
    intentional: bool = False
    overrule: tuple[StraightPoolFoul, ...] = ()
    choice: Choice | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        if self.called is not None and self.safety:
            raise RefereeInputError('a shot is either called ("called") or a safety ("safety": true), got both')
        bad = [f.value for f in self.overrule if not f.info.camera]
        if bad:
            raise RefereeInputError(f"overrule names fouls found in the event log, got {', '.join(bad)}")


@dataclass(frozen=True)
class MatchOptions:
    """``target``: points that win (None: play on); the head string's x; how a missing call is read."""

    target: int | None = DEFAULT_TARGET
    geometry: StringGeometry = field(default_factory=StringGeometry)
    calls: CallsMode = CallsMode.ASSUME

    def __post_init__(self) -> None:
        t = self.target
        if t is not None and (isinstance(t, bool) or not isinstance(t, int) or t < 1):
            raise RefereeInputError(f"match.target must be a positive integer or null, got {t!r}")


@dataclass(frozen=True)
class StartInput:
    """Where a log that begins mid-match starts; players as indices, everything checked."""

    at_table: int = 0
    score: tuple[int, int] = (0, 0)
    innings: tuple[int, int] = (0, 0)
    high_run: tuple[int, int] = (0, 0)
    run: int = 0
    consecutive_fouls: tuple[int, int] = (0, 0)
    next_is_break: bool = False
    ball_in_hand: bool = False
    balls: frozenset[BallId] | None = None
    rack: int = 1
    choice_pending: Option | None = None
    rack_pending: tuple[BallId | None, PointMm | None, PointMm | None] | None = None


@dataclass(frozen=True)
class Setup:
    """Players, match options, the start (None: a new match) and whether the input calls any shot."""

    players: tuple[str, str] = DEFAULT_PLAYERS
    match: MatchOptions = field(default_factory=MatchOptions)
    start: StartInput | None = None
    calls_given: bool = False


@dataclass(frozen=True)
class StraightPoolInput:
    setup: Setup = field(default_factory=Setup)
    shots: Mapping[int, ShotInput] = field(default_factory=dict)

    def for_shot(self, number: int) -> ShotInput | None:
        return self.shots.get(number)


# -- parsing --------------------------------------------------------------------------------------


def _object_ball(v: Any, where: str) -> BallId:
    try:
        b = BallId.parse(v)
    except ValueError:
        b = None
    if b not in OBJECT_BALLS:
        raise RefereeInputError(f'{where} must be an object ball "1".."15", got {v!r}')
    assert b is not None
    return b


def _point(v: Any, where: str) -> PointMm | None:
    if v is None:
        return None
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 2
        or not all(isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) for c in v)
    ):
        raise RefereeInputError(f"{where} must be [x_mm, y_mm] or null, got {v!r}")
    return (float(v[0]), float(v[1]))


def _name(v: Any, names: tuple[str, str], where: str) -> int:
    if v not in names:
        raise RefereeInputError(f"{where} must be one of the players {', '.join(map(repr, names))}, got {v!r}")
    return names.index(v)


def _fouls(v: Any, where: str) -> tuple[StraightPoolFoul, ...]:
    items = one_or_many(v, where, "a foul name", single=(str,), many=(list,))
    return tuple(dict.fromkeys(parse_foul(i, where) for i in items))


def parse_match(v: Any, where: str = "match") -> MatchOptions:
    m = checked_object({} if v is None else v, where, ("target", "head_string_mm", "calls"))
    try:
        calls = CallsMode(m.get("calls", "assume"))
    except ValueError:
        raise RefereeInputError(f'{where}.calls must be "assume" or "required", got {m.get("calls")!r}') from None
    return MatchOptions(
        target=m.get("target", DEFAULT_TARGET),
        geometry=StringGeometry(m.get("head_string_mm", HEAD_STRING_X_MM)),
        calls=calls,
    )


def parse_start(v: Any, names: tuple[str, str], where: str = "start") -> StartInput | None:
    if v is None:
        return None
    keys = (
        "at_table",
        "breaker",
        "score",
        "innings",
        "high_run",
        "run",
        "consecutive_fouls",
        "next_is_break",
        "ball_in_hand",
        "balls",
        "rack",
        "choice_pending",
        "rack_pending",
    )
    s = checked_object(v, where, keys)
    next_is_break = boolean(s.get("next_is_break", False), f"{where}.next_is_break")
    at = s.get("at_table")
    brk = s.get("breaker")
    if brk is not None and not next_is_break:
        raise RefereeInputError(f'{where}.breaker needs "next_is_break": true, got next_is_break false')
    if at is not None and brk is not None and at != brk:
        raise RefereeInputError(f"{where}: the breaker is at the table, got at_table {at!r} and breaker {brk!r}")
    who = at if at is not None else brk
    at_table = 0 if who is None else _name(who, names, f"{where}.at_table")
    fouls = player_pair(
        s.get("consecutive_fouls"), names, f"{where}.consecutive_fouls", item=partial(integer, minimum=0)
    ) or (0, 0)
    if max(fouls) > 2:
        raise RefereeInputError(
            f"{where}.consecutive_fouls are 0, 1 or 2 (a third resets them, 004 art. 12), got {max(fouls)}"
        )
    balls = None
    if s.get("balls") is not None:
        if not isinstance(s["balls"], list):
            raise RefereeInputError(f"{where}.balls must be a list of object balls, got {s['balls']!r}")
        balls = frozenset(_object_ball(b, f"{where}.balls") for b in s["balls"])
        if len(balls) < 2 and s.get("rack_pending") is None:
            raise RefereeInputError(
                f"{where}.balls: with fewer than 2 balls the 14 are re-racked (004 art. 7.3), got {len(balls)}"
            )
    choice_pending = None
    if s.get("choice_pending") is not None:
        try:
            choice_pending = Option(s["choice_pending"])
        except ValueError:
            valid = ", ".join(o.value for o in Option)
            raise RefereeInputError(
                f"{where}.choice_pending must be one of {valid}, got {s['choice_pending']!r}"
            ) from None
    rack_pending = None
    if s.get("rack_pending") is not None:
        r = checked_object(s["rack_pending"], f"{where}.rack_pending", ("fifteenth", "fifteenth_at", "cue_at"))
        fif = None if r.get("fifteenth") is None else _object_ball(r["fifteenth"], f"{where}.rack_pending.fifteenth")
        rack_pending = (
            fif,
            _point(r.get("fifteenth_at"), f"{where}.rack_pending.fifteenth_at"),
            _point(r.get("cue_at"), f"{where}.rack_pending.cue_at"),
        )
    return StartInput(
        at_table=at_table,
        score=player_pair(s.get("score"), names, f"{where}.score", item=partial(integer, minimum=None)) or (0, 0),
        innings=player_pair(s.get("innings"), names, f"{where}.innings", item=partial(integer, minimum=0)) or (0, 0),
        high_run=player_pair(s.get("high_run"), names, f"{where}.high_run", item=partial(integer, minimum=0)) or (0, 0),
        run=integer(s.get("run", 0), f"{where}.run", 0),
        consecutive_fouls=fouls,
        next_is_break=next_is_break,
        ball_in_hand=boolean(s.get("ball_in_hand", next_is_break), f"{where}.ball_in_hand"),
        balls=balls,
        rack=integer(s.get("rack", 1), f"{where}.rack", 1),
        choice_pending=choice_pending,
        rack_pending=rack_pending,
    )


def parse_shot(v: Any, where: str) -> ShotInput:
    s = checked_object(v, where, ("called", "safety", "foul", "intentional", "overrule", "choice", "note"))
    called = None
    if s.get("called") is not None:
        c = checked_object(s["called"], f"{where}.called", ("ball", "pocket"))
        if "ball" not in c or "pocket" not in c:
            raise RefereeInputError(f'{where}.called needs both "ball" and "pocket", got {sorted(c)}')
        try:
            pocket = Pocket.parse(c["pocket"])
        except ValueError as e:
            raise RefereeInputError(f"{where}.called.pocket: {e}") from None
        called = CalledShot(_object_ball(c["ball"], f"{where}.called.ball"), pocket)
    choice = None
    if s.get("choice") is not None:
        try:
            choice = Choice(s["choice"])
        except ValueError:
            raise RefereeInputError(f'{where}.choice must be "accept_table" or "rerack", got {s["choice"]!r}') from None
    note = s.get("note")
    if note is not None and not isinstance(note, str):
        raise RefereeInputError(f"{where}.note must be a string, got {note!r}")
    return located(
        where,
        ShotInput,
        called=called,
        safety=boolean(s.get("safety", False), f"{where}.safety"),
        fouls=_fouls(s.get("foul"), f"{where}.foul"),
        intentional=boolean(s.get("intentional", False), f"{where}.intentional"),
        overrule=_fouls(s.get("overrule"), f"{where}.overrule"),
        choice=choice,
        note=note,
    )


def parse_input(obj: Any, where: str = "referee input") -> StraightPoolInput:
    """The 14.1 referee input of a decoded JSON value (see the module docstring), validated."""
    top = checked_object({} if obj is None else obj, where, ("players", "match", "start", "shots"))
    names = player_names(top, where, DEFAULT_PLAYERS)
    match = located(where, parse_match, top.get("match"))
    start = located(where, parse_start, top.get("start"), names)
    shots: dict[int, ShotInput] = {}
    for n, _, v in shot_entries(top.get("shots"), where):
        shots[n] = parse_shot(v, f"{where}: shot {n}")
    calls_given = any(s.called is not None or s.safety for s in shots.values())
    return StraightPoolInput(Setup(names, match, start, calls_given), shots)
