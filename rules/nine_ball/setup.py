"""Where a match starts: who plays, the race, the first breaker, and -- for a log that begins
mid-match -- the state the referee gives; :func:`initial_state` turns it into a
:class:`NineBallState`, checking it against the rules.

Derived when the start leaves it out (README.md): ``next_is_break`` is true unless the start
describes a rack in play (``balls``, ``ball_in_hand``, ``push_out_allowed``, ``option``, fouls
pending or rotation points); the breaker is the lag's (000 2.1) or player 1; at a break the
breaker is at the table; ``break_turn`` is the breaker; ``rack`` follows the racks won; the balls
of a rack in play come from the first shot start's positions when the start does not list them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.core.games import Game
from rules.core.racks import RaceConfig
from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.state import NineBallState
from rules.nine_ball.variants import variant_of
from tracking.ids import BallId

__all__ = ["DEFAULT_PLAYERS", "NineBallStart", "NineBallSetup", "initial_state"]

DEFAULT_PLAYERS: tuple[str, str] = ("player 1", "player 2")


@dataclass(frozen=True)
class NineBallStart:
    """Where a log that begins mid-match starts (every field optional; names are player names,
    per-player values keyed by name). See the module docstring for what is derived."""

    at_table: str | None = None
    breaker: str | None = None
    break_turn: str | None = None
    racks_won: Mapping[str, int] | None = None
    rack: int | None = None
    next_is_break: bool | None = None
    ball_in_hand: bool = False
    balls: tuple[BallId, ...] | None = None
    consecutive_fouls: Mapping[str, int] | None = None
    push_out_allowed: bool = False
    option: bool = False
    score: Mapping[str, int] | None = None
    points: Mapping[str, int] | None = None


@dataclass(frozen=True)
class NineBallSetup:
    """Who plays, how the match is raced, who breaks first (000 2.1: the lag winner chooses; None:
    player 1), rotation's points (``rack_target``: None = 61; ``race_points``: a race in points
    over the racks, None: racks only) and where the log starts (``start`` None: a new match, its
    first shot is the break)."""

    players: tuple[str, str] = DEFAULT_PLAYERS
    race: RaceConfig = field(default_factory=RaceConfig)
    first_breaker: str | None = None
    rack_target: int | None = None
    race_points: int | None = None
    start: NineBallStart | None = None


def _index(name: str | None, names: tuple[str, str], where: str) -> int | None:
    if name is None:
        return None
    if name not in names:
        raise NineBallInputError(f"{where} must be one of the players {', '.join(map(repr, names))}, got {name!r}")
    return names.index(name)


def _in_order(d: Mapping[str, int] | None, names: tuple[str, str]) -> tuple[int, int]:
    """A per-player count already parsed by name (:func:`rules.core.parsing.player_pair`) in
    player order, 0 where absent."""
    if d is None:
        return (0, 0)
    return (int(d.get(names[0], 0)), int(d.get(names[1], 0)))


def initial_state(game: Game, setup: NineBallSetup | None = None) -> NineBallState:
    """The state before the first shot of the log (:class:`NineBallInputError` when the start
    contradicts the rules or itself)."""
    v = variant_of(game)
    setup = setup or NineBallSetup()
    names = setup.players
    if len(names) != 2 or names[0] == names[1]:
        raise NineBallInputError(f"players must be two different names, got {names!r}")
    if not v.scored and (setup.rack_target is not None or setup.race_points is not None):
        raise NineBallInputError(f"rack_points and race_points are rotation's; {v.name} counts racks")
    first = _index(setup.first_breaker, names, "match.lag") or 0
    rack_target = setup.rack_target or v.rack_target
    base = NineBallState(
        game=game,
        players=names,
        race=setup.race,
        balls=frozenset(v.balls),
        at_table=first,
        breaker=first,
        break_turn=first,
        rack_target=rack_target,
        race_points=setup.race_points,
    )
    s = setup.start
    if s is None:
        return base
    w = "start"
    racks_won = _in_order(s.racks_won, names)
    if setup.race.race_to is not None:
        for i in (0, 1):
            if racks_won[i] >= setup.race.race_to:
                raise NineBallInputError(
                    f"{w}.racks_won.{names[i]}: a match in play has fewer than race_to "
                    f"({setup.race.race_to}) racks won, got {racks_won[i]}"
                )
    rack = s.rack if s.rack is not None else sum(racks_won) + 1
    if rack < sum(racks_won) + 1:
        raise NineBallInputError(
            f"{w}.rack must be at least one more than the racks won ({sum(racks_won) + 1}), got {rack}"
        )
    fouls = _in_order(s.consecutive_fouls, names)
    score = _in_order(s.score, names)
    points = _in_order(s.points, names) if s.points is not None else score  # the match's points hold the rack's
    for i in (0, 1):
        if points[i] < score[i]:
            raise NineBallInputError(
                f"{w}.points.{names[i]}: the match's points include this rack's score ({score[i]}), got {points[i]}"
            )
    if (s.score is not None or s.points is not None) and not v.scored:
        raise NineBallInputError(f"{w}.score and {w}.points are rotation's; {v.name} counts racks")
    mid_keys = [
        k
        for k, on in (
            ("balls", s.balls is not None),
            ("ball_in_hand", s.ball_in_hand),
            ("push_out_allowed", s.push_out_allowed),
            ("option", s.option),
            ("consecutive_fouls", any(fouls)),
            ("score", any(score)),
        )
        if on
    ]
    next_is_break = s.next_is_break if s.next_is_break is not None else not mid_keys
    if next_is_break and mid_keys:
        raise NineBallInputError(
            f"{w}.next_is_break: a new rack is broken from a full rack with nothing pending, "
            f"but the start gives {mid_keys[0]}"
        )
    breaker = _index(s.breaker, names, f"{w}.breaker")
    at_table = _index(s.at_table, names, f"{w}.at_table")
    if breaker is None:
        breaker = at_table if (next_is_break and at_table is not None) else first
    if at_table is None:
        at_table = breaker if next_is_break else 0
    if next_is_break and at_table != breaker:
        raise NineBallInputError(
            f"{w}.at_table: the breaker ({names[breaker]!r}) is at the table for the break, got {names[at_table]!r}"
        )
    break_turn = _index(s.break_turn, names, f"{w}.break_turn")
    break_turn = breaker if break_turn is None else break_turn
    for i in (0, 1):
        if fouls[i] > 2:
            raise NineBallInputError(
                f"{w}.consecutive_fouls.{names[i]}: a third foul loses the rack (000 6.14), "
                f"so a rack in play has at most 2, got {fouls[i]}"
            )
    if s.ball_in_hand and s.option:
        raise NineBallInputError(f"{w}: ball_in_hand follows a foul, option a legal push-out (000 2.4); got both")
    if s.push_out_allowed and (s.ball_in_hand or s.option):
        raise NineBallInputError(
            f"{w}.push_out_allowed: no push-out with ball in hand (000 2.4) or right after a push-out"
        )
    if s.push_out_allowed and not v.push_out:
        raise NineBallInputError(f"{w}.push_out_allowed: {v.name} has no push-out")
    balls = frozenset(s.balls) if s.balls is not None else frozenset(v.balls)
    if not next_is_break and not balls:
        raise NineBallInputError(f"{w}.balls: a rack in play has balls on the table, got none")
    if not next_is_break and v.game_ball is not None and s.balls is not None and v.game_ball not in balls:
        raise NineBallInputError(
            f"{w}.balls: the {v.game_ball.value} stays on the table until the rack is won "
            f"(000 2.6), got {sorted(int(b.value) for b in balls)}"
        )
    if v.scored:
        assert rack_target is not None
        for i in (0, 1):
            if score[i] >= rack_target:
                raise NineBallInputError(
                    f"{w}.score.{names[i]}: a rack in play has fewer than {rack_target} points, got {score[i]}"
                )
            if setup.race_points is not None and points[i] >= setup.race_points:
                raise NineBallInputError(
                    f"{w}.points.{names[i]}: a match in play has fewer than race_points "
                    f"({setup.race_points}), got {points[i]}"
                )
    return NineBallState(
        game=game,
        players=names,
        race=setup.race,
        balls=balls,
        at_table=at_table,
        breaker=breaker,
        break_turn=break_turn,
        next_is_break=next_is_break,
        ball_in_hand=s.ball_in_hand,
        push_out_allowed=s.push_out_allowed,
        option=s.option,
        consecutive_fouls=fouls,
        racks_won=racks_won,
        score=score,
        points=points,
        rack=rack,
        rack_target=rack_target,
        race_points=setup.race_points,
        balls_known=next_is_break or s.balls is not None,
    )
