"""Eight-ball referee input: what no camera sees (002, Reglamento bola 8), as JSON or Python values.

::

    {
      "players": ["Ana", "Bea"],                          # default ["player 1", "player 2"]
      "match": {"race_to": 5, "break": "winner"},         # or "best_of": 9 (ART 31.1); break: winner
                                                          # (default, ART 7.2), alternate or loser
      "start": {                                          # omit for a new match (the first shot breaks)
        "at_table": "Bea", "breaker": "Ana", "racks_won": {"Ana": 2, "Bea": 1}, "rack": 4,
        "next_is_break": false, "ball_in_hand": true, "behind_head_string": false,
        "group": {"Ana": "solids"},                       # the other player has the other group
        "balls": ["1", "3", "8", "9", "12"]               # object balls on the table
      },
      "shots": {
        "3": {"called": {"ball": "5", "pocket": "foot_left"}},
        "4": {"safety": true},
        "7": {"foul": "touched_ball", "note": "sleeve"}, "8": {"overrule": ["scratch"]},
        "1": {"choice": "rerack"}, "12": {"stalemate": true}
      }
    }

Per shot: ``called`` the called ball and pocket (ART 5.1, 24.1; both required); ``safety`` the
announced safety (ART 5.4; not with a call); ``foul`` fouls the referee saw (names of
:class:`rules.eight_ball.fouls.EightBallFoul`); ``overrule`` camera fouls the referee rejects;
``choice`` the option a rule gave at this shot (``respot``/``rerack`` after the 8 on the break,
ART 9.1; ``accept_table``/``rerack`` after an illegal break, ART 10.2); ``stalemate`` the referee
declares the rack drawn after this shot (ART 26); ``frozen`` the object ball declared frozen to a
cushion before the shot (ART 22.2; its cushion from the shot start's ``frozen_to_cushion``, else
its first cushion after the hit); ``note`` free text.

What needs the state is checked when the shot is judged (:class:`EightBallShotError`, naming the
shot): a called (or frozen) ball that is not on the table, a call or safety on the break, a choice at a shot
that gave no option or a choice that option does not allow, a stalemate on a shot that ended the
rack. A call of a ball that is not the shooter's is no input error: the rules judge it (it cannot
be legally pocketed, ART 15.1; hitting it first is a foul, ART 13.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.errors import RefereeInputError
from rules.core.parsing import (
    boolean,
    checked_object,
    located,
    one_or_many,
    per_player,
    player_names,
    player_pair,
    shot_entries,
)
from rules.core.racks import BreakRule, RaceConfig
from rules.eight_ball.fouls import EightBallFoul, parse_foul
from rules.eight_ball.state import (
    FULL_RACK,
    OBJECT_BALLS,
    Choice,
    EightBallState,
    Group,
    sorted_balls,
)
from tracking.ids import BallId, Pocket

__all__ = [
    "DEFAULT_PLAYERS",
    "SHOT_KEYS",
    "START_KEYS",
    "MATCH_KEYS",
    "TOP_KEYS",
    "EightBallShotError",
    "Called",
    "EightBallShotInput",
    "parse_shot_input",
    "EightBallStart",
    "EightBallSetup",
    "EightBallInput",
    "initial_state",
    "parse_input",
]

DEFAULT_PLAYERS: tuple[str, str] = ("player 1", "player 2")
SHOT_KEYS = ("called", "safety", "foul", "overrule", "choice", "stalemate", "frozen", "note")
START_KEYS = (
    "at_table",
    "breaker",
    "racks_won",
    "rack",
    "next_is_break",
    "ball_in_hand",
    "behind_head_string",
    "group",
    "balls",
)
MATCH_KEYS = ("race_to", "best_of", "break")
TOP_KEYS = ("players", "match", "start", "shots")


class EightBallShotError(RefereeInputError):
    """Referee input that does not fit the state at its shot (the message names the shot)."""


@dataclass(frozen=True)
class Called:
    """The called ball and pocket (002 bola 8 ART 5.1; for the 8, ART 24.1)."""

    ball: BallId
    pocket: Pocket

    def __post_init__(self) -> None:
        try:
            b = self.ball if isinstance(self.ball, BallId) else BallId.parse(self.ball)
            p = self.pocket if isinstance(self.pocket, Pocket) else Pocket.parse(self.pocket)
        except ValueError as e:
            raise RefereeInputError(f"called: {e}") from None
        if b not in OBJECT_BALLS:
            raise RefereeInputError(f"called.ball must be an object ball 1..15, got {b.value!r}")
        object.__setattr__(self, "ball", b)
        object.__setattr__(self, "pocket", p)


def _fouls(value: Any, where: str) -> tuple[EightBallFoul, ...]:
    return tuple(
        located(where, parse_foul, x) for x in one_or_many(value, where, "a foul name", single=(str, EightBallFoul))
    )


@dataclass(frozen=True)
class EightBallShotInput:
    """The referee's input for one shot (see the module docstring); strings are parsed."""

    called: Called | None = None
    safety: bool = False
    fouls: tuple[EightBallFoul, ...] = ()
    overrule: tuple[EightBallFoul, ...] = ()
    choice: Choice | None = None
    stalemate: bool = False
    frozen: BallId | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        fz = self.frozen
        if fz is not None and not isinstance(fz, BallId):
            try:
                fz = BallId.parse(fz)
            except ValueError as e:
                raise RefereeInputError(f"frozen: {e}") from None
        if fz is not None and fz not in OBJECT_BALLS:
            raise RefereeInputError(
                f"frozen must be an object ball 1..15 declared frozen to a cushion "
                f"(002 bola 8 ART 22.2), got {fz.value!r}"
            )
        object.__setattr__(self, "frozen", fz)
        c = self.called
        if c is not None and not isinstance(c, Called):
            c = checked_object(c, "called", ("ball", "pocket"))
            missing = [k for k in ("ball", "pocket") if k not in c]
            if missing:
                raise RefereeInputError(f"called needs a ball and a pocket (002 bola 8 ART 5.1), got no {missing[0]!r}")
            c = Called(c["ball"], c["pocket"])
        object.__setattr__(self, "called", c)
        boolean(self.safety, "safety")
        boolean(self.stalemate, "stalemate")
        if self.safety and c is not None:
            raise RefereeInputError(
                "a shot is either called or announced as a safety (002 bola 8 ART 5.1, 5.4), got both called and safety"
            )
        object.__setattr__(self, "fouls", _fouls(self.fouls, "foul"))
        object.__setattr__(self, "overrule", _fouls(self.overrule, "overrule"))
        bad = [f.value for f in self.overrule if not f.camera]
        if bad:
            cam = ", ".join(f.value for f in EightBallFoul if f.camera)
            raise RefereeInputError(f"overrule names fouls found in the event log ({cam}), got {bad[0]}")
        ch = self.choice
        if ch is not None and not isinstance(ch, Choice):
            try:
                ch = Choice(str(ch))
            except ValueError:
                valid = ", ".join(x.value for x in Choice)
                raise RefereeInputError(f"choice must be one of {valid}, got {ch!r}") from None
        object.__setattr__(self, "choice", ch)
        if self.note is not None and not isinstance(self.note, str):
            raise RefereeInputError(f"note must be a string, got {self.note!r}")


def parse_shot_input(obj: Any, where: str = "shot") -> EightBallShotInput:
    d = checked_object(obj, where, SHOT_KEYS)
    return located(
        where,
        EightBallShotInput,
        called=d.get("called"),
        safety=d.get("safety", False),
        fouls=d.get("foul"),
        overrule=d.get("overrule"),
        choice=d.get("choice"),
        stalemate=d.get("stalemate", False),
        frozen=d.get("frozen"),
        note=d.get("note"),
    )


@dataclass(frozen=True)
class EightBallStart:
    """Where a log starts mid-match (every field optional; see :func:`initial_state`). Per-player
    values are keyed by name or a list in player order; ``balls`` are ball ids (strings ok)."""

    at_table: str | None = None
    breaker: str | None = None
    racks_won: Mapping[str, int] | list[int] | None = None
    rack: int | None = None
    next_is_break: bool | None = None
    ball_in_hand: bool = False
    behind_head_string: bool = False
    group: Mapping[str, str] | list[str | None] | None = None
    balls: tuple[BallId, ...] | list[str] | None = None


@dataclass(frozen=True)
class EightBallSetup:
    """Players, the race (``RaceConfig``; break rule default ``winner``, ART 7.2) and the start
    (None: a new match). Validated at construction by building the initial state."""

    players: tuple[str, str] = DEFAULT_PLAYERS
    race: RaceConfig = field(default_factory=lambda: RaceConfig(None, BreakRule.WINNER))
    start: EightBallStart | None = None

    def __post_init__(self) -> None:
        n = self.players
        if (
            not isinstance(n, (list, tuple))
            or len(n) != 2
            or not all(isinstance(x, str) and x.strip() for x in n)
            or n[0] == n[1]
        ):
            raise RefereeInputError(f"players must be two different non-empty names, got {n!r}")
        object.__setattr__(self, "players", (n[0], n[1]))
        initial_state(self)


@dataclass(frozen=True)
class EightBallInput:
    """The whole referee input: the setup and the per-shot inputs keyed by shot number."""

    setup: EightBallSetup | None = None
    shots: Mapping[int, EightBallShotInput] = field(default_factory=dict)

    def for_shot(self, number: int) -> EightBallShotInput | None:
        return self.shots.get(number)


def _index(name: Any, names: tuple[str, str], where: str) -> int | None:
    if name is None:
        return None
    if name not in names:
        raise RefereeInputError(f"{where} must be one of the players {names[0]!r}, {names[1]!r}, got {name!r}")
    return names.index(name)


def _groups(v: Any, names: tuple[str, str], where: str) -> tuple[Group | None, Group | None]:
    d = per_player(v, names, where)
    if not d:
        return (None, None)
    unknown = [k for k in d if k not in names]
    if unknown:
        raise RefereeInputError(f"{where} is keyed by player name ({names[0]!r}, {names[1]!r}), got {unknown[0]!r}")
    got: list[Group | None] = []
    for n in names:
        x = d.get(n)
        if x is None:
            got.append(None)
            continue
        try:
            got.append(x if isinstance(x, Group) else Group(str(x)))
        except ValueError:
            raise RefereeInputError(f"{where}.{n} must be solids or stripes, got {x!r}") from None
    a, b = got
    if a is None and b is None:
        return (None, None)
    if a is not None and b is not None and a is b:
        raise RefereeInputError(f"{where}: the players have different groups (002 bola 8 ART 1.2), got {a.value} twice")
    a = a or b.other  # type: ignore[union-attr]
    return (a, a.other)


def _balls(v: Any, where: str) -> frozenset[BallId]:
    if not isinstance(v, (list, tuple)):
        raise RefereeInputError(f"{where} must be a list of object balls, got {v!r}")
    out: set[BallId] = set()
    for x in v:
        try:
            b = x if isinstance(x, BallId) else BallId.parse(x)
        except ValueError as e:
            raise RefereeInputError(f"{where}: {e}") from None
        if b not in OBJECT_BALLS:
            raise RefereeInputError(f"{where} lists object balls 1..15, got {b.value!r}")
        out.add(b)
    return frozenset(out)


def initial_state(setup: EightBallSetup | None = None) -> EightBallState:
    """The state before the first shot of the log. Without a start: a new match, the first player
    breaks (ART 7.1: the lag decided it). Derived where absent: ``breaker`` = ``at_table`` and back
    (player 1 without either); ``next_is_break`` = neither groups nor balls are given; ``balls`` =
    the full rack (a log that starts mid-rack is then corrected from its first shot start
    positions, with a note); ``rack`` = one more than the racks won. Checked: names, groups only
    after the break (ART 14.1), no ball in hand on a break, racks won below the race."""
    setup = setup or EightBallSetup()
    names, race, s = setup.players, setup.race, setup.start
    if not isinstance(race, RaceConfig):
        raise RefereeInputError(f"race must be a RaceConfig, got {type(race).__name__}")
    if s is None:
        return EightBallState(players=names, race=race)
    w = "start"
    at = _index(s.at_table, names, f"{w}.at_table")
    br = _index(s.breaker, names, f"{w}.breaker")
    won = player_pair(s.racks_won, names, f"{w}.racks_won") or (0, 0)
    if race.match_winner(won) is not None:
        raise RefereeInputError(f"{w}.racks_won {list(won)} already ends the race to {race.race_to}")
    groups = _groups(s.group, names, f"{w}.group")
    balls = None if s.balls is None else _balls(s.balls, f"{w}.balls")
    for key in ("ball_in_hand", "behind_head_string"):
        boolean(getattr(s, key), f"{w}.{key}")
    nib = s.next_is_break
    if nib is None:
        nib = groups[0] is None and balls is None
    boolean(nib, f"{w}.next_is_break")
    if nib and groups[0] is not None:
        raise RefereeInputError(
            f"{w}: groups are chosen only after the break (002 bola 8 ART 14.1), got a group with next_is_break true"
        )
    if nib and s.ball_in_hand:
        raise RefereeInputError(
            f"{w}: ball_in_hand is for a shot after a foul (002 bola 8 ART 17.1), got it with next_is_break true"
        )
    if s.behind_head_string and not s.ball_in_hand:
        raise RefereeInputError(f"{w}.behind_head_string needs ball_in_hand true (002 bola 8 ART 11.2)")
    if nib and balls is not None and balls != FULL_RACK:
        missing = ", ".join(b.value for b in sorted_balls(FULL_RACK - balls))
        raise RefereeInputError(f"{w}.balls: a break is from the full rack (002 bola 8 ART 6.1), missing {missing}")
    rack = s.rack if s.rack is not None else sum(won) + 1
    if isinstance(rack, bool) or not isinstance(rack, int) or rack < 1:
        raise RefereeInputError(f"{w}.rack must be a positive integer, got {rack!r}")
    if at is None:
        at = br if br is not None else 0
    if br is None:
        br = at
    if nib and at != br:
        raise RefereeInputError(
            f"{w}: on a break the player at the table is the breaker, got at_table "
            f"{names[at]!r} and breaker {names[br]!r}"
        )
    return EightBallState(
        players=names,
        race=race,
        balls=FULL_RACK if balls is None else balls,
        groups=groups,
        at_table=at,
        breaker=br,
        next_is_break=nib,
        ball_in_hand=s.ball_in_hand,
        behind_head_string=s.behind_head_string,
        rack=rack,
        racks_won=won,
    )


def _race(obj: Any) -> RaceConfig:
    d = checked_object(obj, "match", MATCH_KEYS)
    if "race_to" in d and "best_of" in d:
        raise RefereeInputError("match: give race_to or best_of, not both")
    race_to = d.get("race_to")
    if "best_of" in d and d["best_of"] is not None:
        b = d["best_of"]
        if isinstance(b, bool) or not isinstance(b, int) or b < 1 or b % 2 == 0:
            raise RefereeInputError(f"match.best_of must be an odd positive integer (002 bola 8 ART 31.1), got {b!r}")
        race_to = b // 2 + 1
    return RaceConfig(race_to, BreakRule.parse(d.get("break", BreakRule.WINNER.value), "match.break"))


def parse_input(obj: Any, where: str = "referee input") -> EightBallInput:
    """The eight-ball referee input of a decoded JSON value (module docstring), validated."""
    top = checked_object(obj, where, TOP_KEYS)
    players = player_names(top, where, DEFAULT_PLAYERS)
    race = located(where, _race, top.get("match") or {})
    start = None
    if top.get("start") is not None:
        s = checked_object(top["start"], f"{where}: start", START_KEYS)
        start = EightBallStart(**s)
    setup = located(where, EightBallSetup, players, race, start)
    shots: dict[int, EightBallShotInput] = {}
    for n, _, v in shot_entries(top.get("shots"), where):
        shots[n] = parse_shot_input(v, f"{where}: shot {n}")
    return EightBallInput(setup=setup, shots=shots)
