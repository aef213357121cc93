"""Snooker referee input: what no camera sees (DESIGN.md "Inputs that no camera sees").

Shape (all keys optional)::

    {"players": ["Higgins", "Selby"],
     "match": {"frames": 7, "break": "alternate"},   # best of 7 (race to 4); or "race_to": 4
     "start": {"at_table": "Selby", "breaker": "Higgins", "frame": 3, "frames_won": [1, 1],
               "score": [34, 12], "reds": 6, "ball_on": "red", "break": 0,
               "high_break": [45, 12], "frame_high_break": [34, 12], "next_is_break": false,
               "fouled": "Higgins", "ball_in_hand": false, "re_spotted_black": false},
     "shots": {"4": {"called": {"ball": "blue"}},
               "9": {"free_ball": true, "called": {"ball": "green"}, "choice": "play"},
               "12": {"foul": ["push_shot"], "foul_ball": "pink", "note": "..."},
               "15": {"overrule": ["ball_off_table"]}, "30": {"plays_first": "Selby"}}}

Per shot: ``called`` the colour the striker nominates (when a colour is on, ART 1.6; or the free
ball, ART 1.10); ``free_ball`` the referee declares the striker snookered after a foul (ART 1.10);
``choice`` after a foul, the non-offender's: ``play`` (he plays) or ``opponent_shoots`` (the
offender plays again); ``foul`` fouls the referee saw (:class:`rules.snooker.fouls.SnookerFoul`
names); ``foul_ball`` the ball such a foul concerns (touched, wrongly spotted: ART 2.2.10-12);
``overrule`` fouls found in the log that the referee rejects; ``plays_first`` who won the draw for
the re-spotted black; ``note``. Checks that need the state (a nominated ball that is not on the
table, a free ball without a foul before it, ...) are made when the shot is judged
(:class:`SnookerInputError` with the shot number).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rules.core.errors import RefereeInputError, ShotError
from rules.core.parsing import (
    boolean,
    checked_object,
    count,
    located,
    one_or_many,
    player_names,
    player_pair,
    shot_entries,
)
from rules.core.racks import BreakRule, RaceConfig
from rules.snooker.balls import COLOURS, FULL_REDS, BallOn, check_ball, is_colour
from rules.snooker.fouls import SnookerFoul, parse_foul
from rules.snooker.state import SnookerState
from tracking.ids import BallId

__all__ = [
    "DEFAULT_PLAYERS",
    "TOP_KEYS",
    "MATCH_KEYS",
    "START_KEYS",
    "SHOT_KEYS",
    "SnookerInputError",
    "Choice",
    "SnookerShotInput",
    "SnookerStart",
    "SnookerSetup",
    "SnookerInput",
    "initial_state",
    "parse_snooker_input",
]

DEFAULT_PLAYERS: tuple[str, str] = ("player 1", "player 2")
TOP_KEYS = ("players", "match", "start", "shots")
MATCH_KEYS = ("frames", "race_to", "break")
START_KEYS = (
    "at_table",
    "breaker",
    "frame",
    "frames_won",
    "score",
    "reds",
    "ball_on",
    "break",
    "high_break",
    "frame_high_break",
    "next_is_break",
    "fouled",
    "ball_in_hand",
    "re_spotted_black",
)
SHOT_KEYS = ("called", "free_ball", "choice", "foul", "foul_ball", "overrule", "plays_first", "note")


class SnookerInputError(RefereeInputError):
    """Referee input that does not fit the state of the frame at a shot (names the shot)."""


class Choice(Enum):
    """After a foul, the non-offender plays (``play``) or has the offender play again
    (``opponent_shoots``)."""

    PLAY = "play"
    OPPONENT_SHOOTS = "opponent_shoots"


def _colour(v: Any, where: str) -> BallId:
    try:
        b = v if isinstance(v, BallId) else BallId.parse(v)
    except ValueError:
        b = None
    if b is None or not is_colour(b):
        raise RefereeInputError(f"{where} must be a colour ({', '.join(c.value for c in COLOURS)}), got {v!r}")
    return b


def _ball(v: Any, where: str) -> BallId:
    try:
        b = v if isinstance(v, BallId) else BallId.parse(v)
        check_ball(b, where)
    except (ValueError, ShotError):
        raise RefereeInputError(
            f"{where} must be a snooker ball (red_1..red_15, red, or a colour), got {v!r}"
        ) from None
    if b is BallId.CUE:
        raise RefereeInputError(f"{where} must be an object ball, got 'cue'")
    return b


def _fouls(v: Any, where: str) -> tuple[SnookerFoul, ...]:
    items = one_or_many(v, where, "a foul name", single=(str, SnookerFoul))
    return tuple(dict.fromkeys(parse_foul(x, where) for x in items))


@dataclass(frozen=True)
class SnookerShotInput:
    """The referee's input for one stroke (see the module docstring); strings are accepted and
    validated."""

    called: BallId | None = None
    free_ball: bool = False
    choice: Choice | None = None
    fouls: tuple[SnookerFoul, ...] = ()
    foul_ball: BallId | None = None
    overrule: tuple[SnookerFoul, ...] = ()
    plays_first: str | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        if self.called is not None:
            object.__setattr__(self, "called", _colour(self.called, "called.ball"))
        boolean(self.free_ball, "free_ball")
        if self.choice is not None and not isinstance(self.choice, Choice):
            try:
                object.__setattr__(self, "choice", Choice(self.choice))
            except ValueError:
                raise RefereeInputError(f"choice must be 'play' or 'opponent_shoots', got {self.choice!r}") from None
        object.__setattr__(self, "fouls", _fouls(self.fouls, "foul"))
        object.__setattr__(self, "overrule", _fouls(self.overrule, "overrule"))
        bad = [f.value for f in self.overrule if not f.info.camera]
        if bad:
            cam = ", ".join(f.value for f in SnookerFoul if f.info.camera)
            raise RefereeInputError(f"overrule names fouls found in the event log ({cam}), got {', '.join(bad)}")
        both = [f.value for f in self.overrule if f in self.fouls]
        if both:
            raise RefereeInputError(f"foul and overrule both name {both[0]!r}")
        if self.foul_ball is not None:
            object.__setattr__(self, "foul_ball", _ball(self.foul_ball, "foul_ball"))
        for key in ("plays_first", "note"):
            v = getattr(self, key)
            if v is not None and not isinstance(v, str):
                raise RefereeInputError(f"{key} must be a string, got {v!r}")


@dataclass(frozen=True)
class SnookerStart:
    """Where a log that begins mid-match starts (see the module docstring); per-player values are
    keyed by name or a list in player order. :func:`initial_state` derives what is missing."""

    at_table: str | None = None
    breaker: str | None = None
    frame: int | None = None
    frames_won: Any = None
    score: Any = None
    reds: int | None = None
    ball_on: str | None = None
    break_points: int | None = None
    high_break: Any = None
    frame_high_break: Any = None
    next_is_break: bool | None = None
    fouled: str | None = None
    ball_in_hand: bool | None = None
    re_spotted_black: bool | None = None


@dataclass(frozen=True)
class SnookerSetup:
    """Players, the race (best of N frames), and the start (None: a new match, the first player
    breaks off)."""

    players: tuple[str, str] = DEFAULT_PLAYERS
    race: RaceConfig = RaceConfig()
    start: SnookerStart | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", player_names({"players": list(self.players)}, "players", DEFAULT_PLAYERS))
        if not isinstance(self.race, RaceConfig):
            raise RefereeInputError(f"race must be a RaceConfig, got {type(self.race).__name__}")
        initial_state(self)  # validates the start


@dataclass(frozen=True)
class SnookerInput:
    """The whole referee input of a snooker log."""

    setup: SnookerSetup = field(default_factory=SnookerSetup)
    shots: Mapping[int, SnookerShotInput] = field(default_factory=dict)

    def for_shot(self, number: int) -> SnookerShotInput | None:
        return self.shots.get(number)


# -- resolving the start ---------------------------------------------------------------------------
def _index(name: Any, names: tuple[str, str], where: str) -> int | None:
    if name is None:
        return None
    if name not in names:
        raise RefereeInputError(f"{where} must be one of the players {', '.join(map(repr, names))}, got {name!r}")
    return names.index(name)


def initial_state(setup: SnookerSetup | None = None) -> SnookerState:
    """The state before the first stroke of the log: a new match (the first player, or
    ``start.breaker``, breaks off), or the given start with what is missing derived and everything
    checked: ``next_is_break`` is true when nothing of a frame in play is given; ``at_table`` is
    the breaker at a break-off; the ball on a red while reds remain, else the yellow; ``frame`` one
    more than the frames won; the current break at most the score of the player at the table."""
    setup = setup or SnookerSetup()
    names, race = setup.players, setup.race
    s = setup.start or SnookerStart()
    w = "start"
    at = _index(s.at_table, names, f"{w}.at_table")
    breaker = _index(s.breaker, names, f"{w}.breaker")
    fouler = _index(s.fouled, names, f"{w}.fouled")
    frames_won = player_pair(s.frames_won, names, f"{w}.frames_won") or (0, 0)
    if race.match_winner(frames_won) is not None:
        raise RefereeInputError(
            f"{w}.frames_won: a match in play has fewer than {race.race_to} frames for each "
            f"player, got {frames_won[0]}-{frames_won[1]}"
        )
    frame = sum(frames_won) + 1
    if s.frame is not None and s.frame != frame:
        raise RefereeInputError(f"{w}.frame must be one more than the frames won ({frame}), got {s.frame!r}")
    scores = player_pair(s.score, names, f"{w}.score")
    reds = None if s.reds is None else count(s.reds, f"{w}.reds", FULL_REDS)
    cur = None if s.break_points is None else count(s.break_points, f"{w}.break")
    for key in ("next_is_break", "ball_in_hand", "re_spotted_black"):
        v = getattr(s, key)
        if v is not None:
            boolean(v, f"{w}.{key}")
    on_given = None
    if s.ball_on is not None:
        try:
            on_given = BallOn(str(s.ball_on))
        except ValueError:
            valid = ", ".join(b.value for b in BallOn)
            raise RefereeInputError(f"{w}.ball_on must be one of {valid}, got {s.ball_on!r}") from None
    in_play = any(v is not None for v in (scores, s.reds, on_given, cur, fouler, s.re_spotted_black))
    next_break = s.next_is_break if s.next_is_break is not None else not in_play
    scores = scores or (0, 0)
    if next_break:
        if scores != (0, 0) or cur or fouler is not None or s.re_spotted_black:
            raise RefereeInputError(
                f"{w}.next_is_break: a frame about to be broken off has no score, break, foul or re-spotted black yet"
            )
        if on_given not in (None, BallOn.RED):
            raise RefereeInputError(f"{w}.ball_on: a frame is broken off on a red (ART 1.5), got {on_given.value!r}")
        if reds == 0:
            raise RefereeInputError(f"{w}.reds: a frame is broken off with reds on the table (ART 1.3, 1.5), got 0")
        if at is not None and breaker is not None and at != breaker:
            raise RefereeInputError(
                f"{w}: at a break-off the player at the table is the breaker "
                f"({names[breaker]!r}), got at_table {names[at]!r}"
            )
        breaker = breaker if breaker is not None else (at if at is not None else 0)
        at = breaker
    else:
        at = at if at is not None else (1 - fouler if fouler is not None else 0)
        breaker = breaker if breaker is not None else 0
    reds = FULL_REDS if reds is None else reds
    on = on_given if on_given is not None else (BallOn.RED if reds else BallOn.YELLOW)
    if reds and on.in_sequence:
        raise RefereeInputError(
            f"{w}.ball_on: with {reds} reds on the table the ball on is red or colour (ART 1.6), got {on.value!r}"
        )
    if not reds and on is BallOn.RED:
        raise RefereeInputError(f"{w}.ball_on: no red is left, so the ball on is a colour (ART 1.6), got 'red'")
    rsb = bool(s.re_spotted_black)
    if rsb and (on is not BallOn.BLACK or scores[0] != scores[1]):
        raise RefereeInputError(
            f"{w}.re_spotted_black needs ball_on black and level scores, got ball_on "
            f"{on.value!r} and {scores[0]}-{scores[1]}"
        )
    if fouler is not None and at == fouler:
        raise RefereeInputError(
            f"{w}: after {names[fouler]!r}'s foul the opponent is at the table (his choice "
            "to have the offender play again is the next shot's 'choice'), got at_table "
            f"{names[at]!r}"
        )
    if fouler is not None and on is BallOn.COLOUR:
        raise RefereeInputError(f"{w}: after a foul the ball on is a red or the lowest colour (ART 1.6), got 'colour'")
    cur = cur or 0
    if cur > scores[at]:
        raise RefereeInputError(f"{w}.break ({cur}) cannot exceed the score of {names[at]!r} ({scores[at]})")
    if cur and fouler is not None:
        raise RefereeInputError(f"{w}.break: a foul ended the last visit, so no break is in progress, got {cur}")
    frame_high: tuple[int, ...] = player_pair(s.frame_high_break, names, f"{w}.frame_high_break") or (0, 0)
    frame_high = tuple(max(frame_high[i], cur if i == at else 0) for i in (0, 1))
    high: tuple[int, ...] = player_pair(s.high_break, names, f"{w}.high_break") or (0, 0)
    high = tuple(max(high[i], frame_high[i]) for i in (0, 1))
    in_hand = s.ball_in_hand if s.ball_in_hand is not None else next_break
    return SnookerState(
        players=names,
        race=race,
        frame=frame,
        breaker=breaker,
        at_table=at,
        scores=scores,
        reds=reds,
        on=on,
        next_is_break=next_break,
        cue_in_hand=in_hand,
        fouler=fouler,
        current_break=cur,
        frame_high_breaks=(frame_high[0], frame_high[1]),
        high_breaks=(high[0], high[1]),
        frames_won=frames_won,
        re_spotted_black=rsb,
    )


# -- parsing JSON ----------------------------------------------------------------------------------
def _race(v: Any) -> RaceConfig:
    m = checked_object(v, "match", MATCH_KEYS)
    frames, race_to = m.get("frames"), m.get("race_to")
    if frames is not None and race_to is not None:
        raise RefereeInputError(f"match: give frames (best of N) or race_to, not both, got {frames!r} and {race_to!r}")
    if frames is not None:
        if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1 or frames % 2 == 0:
            raise RefereeInputError(f"match.frames must be an odd positive integer (best of N frames), got {frames!r}")
        race_to = frames // 2 + 1
    return RaceConfig(race_to=race_to, break_rule=BreakRule.parse(m.get("break", "alternate"), "match.break"))


def _start(v: Any) -> SnookerStart:
    d = checked_object(v, "start", START_KEYS)
    kw = {k: d[k] for k in d if k != "break"}
    if "break" in d:
        kw["break_points"] = d["break"]
    return SnookerStart(**kw)


def _shot(v: Any) -> SnookerShotInput:
    if not isinstance(v, dict):
        raise RefereeInputError(f"must be an object, got {type(v).__name__}")
    unknown = [k for k in v if k not in SHOT_KEYS]
    if unknown:
        raise RefereeInputError(f"unknown key {unknown[0]!r}: expected {', '.join(SHOT_KEYS)}")
    d = v
    called = d.get("called")
    if called is not None:
        c = checked_object(called, "called", ("ball",))
        if "ball" not in c:
            raise RefereeInputError(
                'called must name a ball: {"ball": "blue"} (snooker nominates a ball, not a pocket)'
            )
        called = c["ball"]
    return SnookerShotInput(
        called=called,
        free_ball=d.get("free_ball", False),
        choice=d.get("choice"),
        fouls=d.get("foul", ()),
        foul_ball=d.get("foul_ball"),
        overrule=d.get("overrule", ()),
        plays_first=d.get("plays_first"),
        note=d.get("note"),
    )


def parse_snooker_input(obj: Any, where: str = "referee input") -> SnookerInput:
    """The snooker referee input of a decoded JSON value (see the module docstring); every fault
    is a :class:`RefereeInputError` prefixed with ``where``."""
    top = located(where, checked_object, obj, "the referee input", TOP_KEYS)
    names = located(where, player_names, top, "players", DEFAULT_PLAYERS)
    race = located(where, _race, top.get("match") or {})
    start = None if top.get("start") is None else located(where, _start, top["start"])
    setup = located(where, SnookerSetup, names, race, start)
    shots: dict[int, SnookerShotInput] = {}
    for n, _, val in shot_entries(top.get("shots"), where):
        si = located(f"{where}: shot {n}", _shot, val)
        if si.plays_first is not None:
            located(f"{where}: shot {n}", _index, si.plays_first, names, "plays_first")
        shots[n] = si
    return SnookerInput(setup=setup, shots=shots)
