"""Hand-built eight-ball shots for the tests, with the contract types (tracking.events).

A shot is tokens, one event each, 0.2 s apart, about the cue ball unless said:
``"3"`` the cue ball touches the 3; ``"foot"`` the cue ball hits the foot cushion; ``"3:left"`` the
3 hits the left cushion; ``"3-5"`` the 3 hits the 5; ``"3>foot_left"`` the 3 drops in the
foot-left pocket (``"cue>side_left"`` a scratch); ``"off:3"`` the 3 leaves the table.
Suffixes: ``"@0.4"`` the event's confidence; ``"~0.01"`` its time after the previous event.

Positions: ``balls`` (ids on the table at the shot start) lays them out spread over the table;
``racked=True`` puts all 15 in a triangle at the foot spot; neither gives a shot start with no
positions (the engine then keeps its own idea of the table).

(Named ``eight_ball_builders`` rather than ``builders``: pytest imports test helpers by their
basename, and every game's tests have builders.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.core.config import JudgeConfig
from rules.core.games import Game
from rules.core.racks import BreakRule, RaceConfig
from rules.eight_ball.engine import make_engine
from rules.eight_ball.inputs import EightBallShotInput, parse_shot_input
from rules.eight_ball.state import FULL_RACK, EightBallState, Group
from tracking.events import Event, Shot, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId, Cushion
from tracking.shorthand import shorthand_events

PLAYERS = ("Ana", "Bea")
ENGINE = make_engine(Game.EIGHT_BALL, JudgeConfig())


def ids(balls: Iterable[str | int | BallId]) -> frozenset[BallId]:
    return frozenset(b if isinstance(b, BallId) else BallId.parse(str(b)) for b in balls)


def spread(balls: Iterable[BallId]) -> dict[BallId, tuple[float, float]]:
    """Balls laid out 300 mm apart over a 9 ft table (not a rack)."""
    out = {BallId.CUE: (600.0, 635.0)}
    for k, b in enumerate(sorted(balls, key=lambda b: int(b.value))):
        out[b] = (900.0 + 300.0 * (k % 5), 200.0 + 300.0 * (k // 5))
    return out


def racked() -> dict[BallId, tuple[float, float]]:
    """The 15 balls in the triangle, apex on the foot spot (x = 1905 mm on a 9 ft table)."""
    out = {BallId.CUE: (500.0, 635.0)}
    order = sorted(FULL_RACK, key=lambda b: int(b.value))
    k = 0
    for row in range(5):
        for j in range(row + 1):
            out[order[k]] = (1905.0 + row * 49.5, 635.0 + (j - row / 2) * 57.2)
            k += 1
    return out


def shot_events(
    tokens: list[str] | tuple[str, ...],
    shot: int = 1,
    t0_s: float = 0.0,
    conf: float = 0.95,
    start_conf: float = 0.99,
    balls: Iterable[Any] | None = None,
    rack: bool = False,
    contact: tuple[tuple[str, str], ...] = (),
    frozen: dict[str, str] | None = None,
    end: bool = True,
    start: bool = True,
) -> list[Event]:
    cue = BallId.CUE
    pos = racked() if rack else (spread(ids(balls)) if balls is not None else {})
    evs: list[Event] = []
    if start:
        evs.append(
            ShotStart(
                t_s=t0_s,
                frame=int(t0_s * 30),
                shot=shot,
                confidence=start_conf,
                cue_ball=cue,
                positions=pos,
                frozen_to_cushion={BallId.parse(b): Cushion.parse(c) for b, c in (frozen or {}).items()},
                balls_in_contact=tuple((BallId.parse(a), BallId.parse(b)) for a, b in contact),
            )
        )
    t = t0_s
    gone: set[BallId] = set()
    mid, gone_now = shorthand_events(tokens, cue, shot, t, conf)
    evs.extend(mid)
    gone.update(gone_now)
    t = mid[-1].t_s if mid else t
    if end:
        after = {b: p for b, p in pos.items() if b not in gone}
        evs.append(ShotEnd(t_s=t + 1.0, frame=int((t + 1.0) * 30), shot=shot, confidence=0.99, positions=after))
    return evs


def a_shot(tokens, number: int = 1, **kw) -> Shot:
    (s,) = group_shots(shot_events(tokens, shot=number, **kw))
    return s


def state(
    balls: Iterable[Any] | None = None,
    group: str | None = None,
    at_table: int = 0,
    breaker: int = 0,
    race_to: int | None = None,
    break_rule: str = "winner",
    **kw,
) -> EightBallState:
    """A state past the break: ``group`` is Ana's ("solids"/"stripes"; None: open table)."""
    g = None if group is None else Group(group)
    groups = (None, None) if g is None else (g, g.other)
    return EightBallState(
        players=PLAYERS,
        race=RaceConfig(race_to, BreakRule(break_rule)),
        balls=FULL_RACK if balls is None else ids(balls),
        groups=groups,
        at_table=at_table,
        breaker=breaker,
        next_is_break=False,
        **kw,
    )


def new_match(race_to: int | None = None, break_rule: str = "winner") -> EightBallState:
    return EightBallState(players=PLAYERS, race=RaceConfig(race_to, BreakRule(break_rule)))


def judge(tokens, st: EightBallState | None = None, si: dict | EightBallShotInput | None = None, number: int = 1, **kw):
    """Judge one shot from ``st`` (default a new match: a break); returns (call, new state)."""
    st = st if st is not None else new_match()
    if isinstance(si, dict):
        si = parse_shot_input(si)
    return ENGINE.judge_shot(st, a_shot(tokens, number, **kw), si)
