"""Referee input of the nine-ball family: the shared outer shape (``players``, ``match``,
``start``, ``shots``), this family's keys inside it (README.md, "Referee input").

Everything that can be checked without the game state is checked here, with one-line
:class:`NineBallInputError` messages (an unknown key, foul, ball, pocket or player name; a called
shot in a game whose shots are not called; a push-out in rotation ...). What needs the state -- a
called ball that is not on the table at that shot, a push-out that is not the shot after the
break, a choice with no option to choose -- is checked by the engine when it judges the shot, and
the message names the shot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, TypeVar

from rules.core.errors import RefereeInputError
from rules.core.games import Game
from rules.core.parsing import (
    boolean,
    checked_object,
    count,
    one_or_many,
    player_names,
    player_pair,
    shot_entries,
)
from rules.core.racks import BreakRule, RaceConfig
from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.fouls import PoolFoul, parse_pool_foul
from rules.nine_ball.setup import DEFAULT_PLAYERS, NineBallSetup, NineBallStart, initial_state
from rules.nine_ball.variants import Variant, is_object_ball, variant_of
from tracking.ids import BallId, Pocket

__all__ = [
    "Choice",
    "CalledShot",
    "located",
    "parse_ball",
    "NineBallShotInput",
    "NineBallInput",
    "parse_nine_ball_input",
]

T = TypeVar("T")


class Choice(Enum):
    """The option 000 2.4 gives after a push-out (and ten-ball after a ball pocketed off the
    call): shoot from the position left, or make the opponent shoot it."""

    PLAY = "play"
    PASS_BACK = "pass_back"


@dataclass(frozen=True)
class CalledShot:
    """A called ball and pocket (ten-ball)."""

    ball: BallId
    pocket: Pocket

    def to_json(self) -> dict[str, str]:
        return {"ball": self.ball.value, "pocket": self.pocket.value}


def located(where: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, a :class:`RefereeInputError` it raises re-raised as a
    :class:`NineBallInputError` prefixed with ``where``."""
    try:
        return fn(*args, **kwargs)
    except RefereeInputError as e:
        raise NineBallInputError(f"{where}: {e}") from None


def _fouls(value: Any, where: str) -> tuple[PoolFoul, ...]:
    items = one_or_many(value, where, "a foul name", single=(str, PoolFoul), error=NineBallInputError)
    try:
        return tuple(dict.fromkeys(parse_pool_foul(i) for i in items))
    except RefereeInputError as e:
        raise NineBallInputError(f"{where}: {e}") from None


def parse_ball(v: Any, where: str, variant: Variant | None = None) -> BallId:
    """An object ball id of ``variant``'s rack (any numbered ball without a variant)."""
    try:
        b = v if isinstance(v, BallId) else BallId.parse(v)
    except ValueError as e:
        raise NineBallInputError(f"{where}: {e}") from None
    if not is_object_ball(b):
        raise NineBallInputError(f'{where} must be an object ball ("1" ... "15"), got {b.value!r}')
    if variant is not None and b not in variant.balls:
        raise NineBallInputError(
            f"{where}: {variant.name} is played with the balls 1-{len(variant.balls)}, got {b.value!r}"
        )
    return b


def _called(v: Any, where: str) -> CalledShot | None:
    if v is None or isinstance(v, CalledShot):
        return v
    d = checked_object(v, where, ("ball", "pocket"))
    if "ball" not in d or "pocket" not in d:
        raise NineBallInputError(f"{where} must give the ball and the pocket, got {v!r}")
    try:
        pocket = d["pocket"] if isinstance(d["pocket"], Pocket) else Pocket.parse(d["pocket"])
    except ValueError as e:
        raise NineBallInputError(f"{where}.pocket: {e}") from None
    return CalledShot(parse_ball(d["ball"], f"{where}.ball"), pocket)


@dataclass(frozen=True)
class NineBallShotInput:
    """The referee's input for one shot. ``fouls``: fouls he saw (names or :class:`PoolFoul`);
    ``overrule``: fouls found in the log that he rejects; ``push_out``: the shooter announced a
    push-out (000 2.4); ``choice``: the option taken on this shot by the player who had it
    (``play`` / ``pass_back``); ``called`` / ``safety``: ten-ball's call; ``stalemate``: the referee
    declares the rack stalemated after this shot (000 2.9); ``warned``: False when the referee did
    not warn a player with two fouls before this shot (000 6.14: a third foul then counts as the
    second); ``note``: free text carried to the call."""

    fouls: tuple[PoolFoul, ...] = ()
    overrule: tuple[PoolFoul, ...] = ()
    push_out: bool = False
    choice: Choice | None = None
    called: CalledShot | None = None
    safety: bool = False
    stalemate: bool = False
    warned: bool = True
    note: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "fouls", _fouls(self.fouls, "foul"))
        object.__setattr__(self, "overrule", _fouls(self.overrule, "overrule"))
        bad = [f.value for f in self.overrule if not f.info.camera]
        if bad:
            cam = ", ".join(f.value for f in PoolFoul if f.info.camera)
            raise NineBallInputError(f"overrule names fouls found in the event log ({cam}), got {', '.join(bad)}")
        for key in ("push_out", "safety", "stalemate", "warned"):
            boolean(getattr(self, key), key, NineBallInputError)
        if self.choice is not None and not isinstance(self.choice, Choice):
            try:
                object.__setattr__(self, "choice", Choice(self.choice))
            except ValueError:
                raise NineBallInputError(f"choice must be 'play' or 'pass_back', got {self.choice!r}") from None
        object.__setattr__(self, "called", _called(self.called, "called"))
        if self.called is not None and self.safety:
            raise NineBallInputError("a shot is either called (called) or a safety (safety: true), got both")
        if self.push_out and (self.called is not None or self.safety):
            raise NineBallInputError(
                "a push-out (000 2.4) is neither called nor a safety, got push_out with "
                + ("called" if self.called is not None else "safety")
            )
        if self.note is not None and not isinstance(self.note, str):
            raise NineBallInputError(f"note must be a string, got {self.note!r}")

    def check_game(self, variant: Variant) -> None:
        """The keys that the game does not have (a call in nine-ball, a push-out in rotation)."""
        if (self.called is not None or self.safety) and not variant.called_shots:
            key = "called" if self.called is not None else "safety"
            raise NineBallInputError(
                f"{key}: {variant.name} shots are not called (000 2: no shot has to be called); only ten-ball's are"
            )
        if self.called is not None:
            parse_ball(self.called.ball, "called.ball", variant)
        if self.push_out and not variant.push_out:
            raise NineBallInputError(f"push_out: {variant.name} has no push-out (only the nine-ball games, 000 2.4)")


@dataclass(frozen=True)
class NineBallInput:
    """A parsed referee input: the setup and the per-shot inputs by shot number."""

    setup: NineBallSetup = field(default_factory=NineBallSetup)
    shots: Mapping[int, NineBallShotInput] = field(default_factory=dict)

    def for_shot(self, number: int) -> NineBallShotInput | None:
        return self.shots.get(number)


_TOP = ("players", "match", "start", "shots")
_MATCH = ("race_to", "break", "lag", "rack_points", "race_points")
_LAG = ("winner", "choice")
_START = (
    "at_table",
    "breaker",
    "break_turn",
    "racks_won",
    "rack",
    "next_is_break",
    "ball_in_hand",
    "balls",
    "consecutive_fouls",
    "push_out_allowed",
    "option",
    "score",
    "points",
)
_SHOT = ("foul", "overrule", "push_out", "choice", "called", "safety", "stalemate", "warned", "note")


def _name(v: Any, names: tuple[str, str], where: str) -> str | None:
    if v is None:
        return None
    if v not in names:
        raise NineBallInputError(f"{where} must be one of the players {', '.join(map(repr, names))}, got {v!r}")
    return v


def _opt_int(v: Any, where: str, minimum: int = 1) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise NineBallInputError(f"{where} must be an integer >= {minimum} or null, got {v!r}")
    return v


def _pair(v: Any, names: tuple[str, str], where: str) -> dict[str, int] | None:
    """A per-player count by name (nine-ball's start keeps them by name)."""
    pair = player_pair(v, names, where, item=partial(count, error=NineBallInputError), error=NineBallInputError)
    return None if pair is None else {names[0]: pair[0], names[1]: pair[1]}


def _match(
    m: dict[str, Any], names: tuple[str, str], variant: Variant, where: str
) -> tuple[RaceConfig, str | None, int | None, int | None]:
    race = located(
        where, RaceConfig, _opt_int(m.get("race_to"), "race_to"), BreakRule.parse(m.get("break", "alternate"), "break")
    )
    first = None
    if m.get("lag") is not None:
        lag = checked_object(m["lag"], f"{where}.lag", _LAG)
        winner = _name(lag.get("winner"), names, f"{where}.lag.winner")
        if winner is None:
            raise NineBallInputError(f"{where}.lag must name its winner, got {m['lag']!r}")
        choice = lag.get("choice", "break")
        if choice not in ("break", "opponent_breaks"):
            raise NineBallInputError(
                f"{where}.lag.choice must be 'break' or 'opponent_breaks' (000 2.1), got {choice!r}"
            )
        first = winner if choice == "break" else names[1 - names.index(winner)]
    rack_target = _opt_int(m.get("rack_points"), "rack_points")
    race_points = _opt_int(m.get("race_points"), "race_points")
    if not variant.scored and (rack_target is not None or race_points is not None):
        key = "rack_points" if rack_target is not None else "race_points"
        raise NineBallInputError(f"{where}.{key}: only rotation is scored in points; {variant.name} counts racks")
    return race, first, rack_target, race_points


def _start(sj: dict[str, Any], names: tuple[str, str], variant: Variant, where: str) -> NineBallStart:
    balls = None
    if sj.get("balls") is not None:
        if not isinstance(sj["balls"], list):
            raise NineBallInputError(
                f"{where}.balls must be a list of the object balls on the table, got {sj['balls']!r}"
            )
        balls = tuple(parse_ball(b, f"{where}.balls", variant) for b in sj["balls"])
        if len(set(balls)) != len(balls):
            raise NineBallInputError(f"{where}.balls names a ball twice: {sj['balls']!r}")
    nib = sj.get("next_is_break")
    if nib is not None:
        boolean(nib, f"{where}.next_is_break", NineBallInputError)
    for k in ("score", "points"):
        if sj.get(k) is not None and not variant.scored:
            raise NineBallInputError(f"{where}.{k}: only rotation is scored in points; {variant.name} counts racks")
    return NineBallStart(
        at_table=_name(sj.get("at_table"), names, f"{where}.at_table"),
        breaker=_name(sj.get("breaker"), names, f"{where}.breaker"),
        break_turn=_name(sj.get("break_turn"), names, f"{where}.break_turn"),
        racks_won=_pair(sj.get("racks_won"), names, f"{where}.racks_won"),
        rack=_opt_int(sj.get("rack"), f"{where}.rack"),
        next_is_break=nib,
        ball_in_hand=boolean(sj.get("ball_in_hand", False), f"{where}.ball_in_hand", NineBallInputError),
        balls=balls,
        consecutive_fouls=_pair(sj.get("consecutive_fouls"), names, f"{where}.consecutive_fouls"),
        push_out_allowed=boolean(sj.get("push_out_allowed", False), f"{where}.push_out_allowed", NineBallInputError),
        option=boolean(sj.get("option", False), f"{where}.option", NineBallInputError),
        score=_pair(sj.get("score"), names, f"{where}.score"),
        points=_pair(sj.get("points"), names, f"{where}.points"),
    )


def parse_nine_ball_input(obj: Any, game: Game, where: str = "referee input") -> NineBallInput:
    """The :class:`NineBallInput` of a decoded JSON value for ``game`` (README.md). The start is
    also checked against the game's rules (by building the state it describes). Every fault is a
    :class:`NineBallInputError` (the shared helpers' errors included)."""
    try:
        return _parse(obj, game, where)
    except NineBallInputError:
        raise
    except RefereeInputError as e:
        raise NineBallInputError(str(e)) from None


def _parse(obj: Any, game: Game, where: str) -> NineBallInput:
    variant = variant_of(game)
    top = checked_object(obj if obj is not None else {}, where, _TOP)
    names = player_names(top, where, DEFAULT_PLAYERS)
    m = checked_object(top.get("match") or {}, f"{where}: match", _MATCH)
    race, first, rack_target, race_points = _match(m, names, variant, f"{where}: match")
    start = None
    if top.get("start") is not None:
        start = _start(checked_object(top["start"], f"{where}: start", _START), names, variant, f"{where}: start")
    setup = NineBallSetup(
        players=names, race=race, first_breaker=first, rack_target=rack_target, race_points=race_points, start=start
    )
    located(where, initial_state, game, setup)  # the start's consistency with the rules
    shots: dict[int, NineBallShotInput] = {}
    for n, key, v in shot_entries(top.get("shots"), where, NineBallInputError):
        sv = checked_object(v, f"{where}: shots.{key}", _SHOT)
        si = located(
            f"{where}: shots.{key}",
            NineBallShotInput,
            fouls=sv.get("foul"),
            overrule=sv.get("overrule"),
            push_out=sv.get("push_out", False),
            choice=sv.get("choice"),
            called=sv.get("called"),
            safety=sv.get("safety", False),
            stalemate=sv.get("stalemate", False),
            warned=sv.get("warned", True),
            note=sv.get("note"),
        )
        located(f"{where}: shots.{key}", si.check_game, variant)
        shots[n] = si
    return NineBallInput(setup=setup, shots=shots)
