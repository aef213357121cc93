"""Hand-built pool event logs for the nine-ball tests (tracking.events types).

A shot is a list of tokens, one event each, 0.2 s apart: ``"1"`` the cue ball hits the 1;
``"3-9"`` the 3 hits the 9; ``"foot"`` the cue ball hits the foot cushion; ``"3:left"`` the 3
hits the left cushion; ``"9>foot_left"`` the 9 drops in the foot-left pocket (``"cue>side_left"``
a scratch); ``"off:3"`` the 3 leaves the table. Suffixes: ``"@0.4"`` the event's confidence,
``"~0.01"`` its time after the previous event. ``balls``: the object balls in the shot start's
positions (default: the whole rack of the game); shot_end positions are those minus what dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules import engine_for
from rules.core.games import parse_game
from rules.nine_ball.variants import variant_of
from tracking.events import Event, Shot, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId
from tracking.shorthand import shorthand_events

BREAK_4_RAILS = ["1", "2:foot", "3:left", "4:right", "5:head"]  # a legal break with nothing pocketed


def rack(game: str = "nine-ball") -> list[str]:
    return [b.value for b in variant_of(parse_game(game)).balls]


def _pos(i: int) -> tuple[float, float]:
    return (1800.0 + 60.0 * (i % 5), 400.0 + 60.0 * (i // 5))


def shot_events(
    tokens: Sequence[str],
    balls: Iterable[str],
    shot: int = 1,
    t0_s: float = 0.0,
    conf: float = 0.95,
    end: bool = True,
    start: bool = True,
) -> list[Event]:
    on = [BallId.parse(b) for b in balls]
    positions = {BallId.CUE: (600.0, 635.0)} | {b: _pos(i) for i, b in enumerate(on)}
    evs: list[Event] = []
    if start:
        evs.append(
            ShotStart(
                t_s=t0_s, frame=int(t0_s * 30), shot=shot, confidence=0.99, cue_ball=BallId.CUE, positions=positions
            )
        )
    t = t0_s
    gone: set[BallId] = set()
    mid, gone_now = shorthand_events(tokens, BallId.CUE, shot, t, conf)
    evs.extend(mid)
    gone.update(gone_now)
    t = mid[-1].t_s if mid else t
    if end:
        evs.append(
            ShotEnd(
                t_s=t + 1.0,
                frame=int((t + 1.0) * 30),
                shot=shot,
                confidence=0.99,
                positions={b: p for b, p in positions.items() if b not in gone},
            )
        )
    return evs


def a_shot(tokens: Sequence[str], balls: Iterable[str], number: int = 1, **kw: Any) -> Shot:
    (s,) = group_shots(shot_events(tokens, balls, shot=number, **kw))
    return s


class Table:
    """Plays shots one after another through an engine, keeping the state and the balls on the
    table (from the calls), as a log judged shot by shot would: ``t.play(tokens, **input)``."""

    def __init__(self, game: str = "nine-ball", referee: dict | None = None) -> None:
        self.engine = engine_for(game)
        self.input = self.engine.parse_input(referee or {})
        self.state = self.engine.initial_state(self.input.setup)
        self.balls = sorted(self.state.balls, key=lambda b: int(b.value))
        self.balls = [b.value for b in self.balls]
        self.n = 0
        self.calls: list = []

    def play(self, tokens: Sequence[str], balls: Iterable[str] | None = None, **shot_input: Any):
        self.n += 1
        si = (
            self.engine.parse_input({"players": list(self.state.players), "shots": {str(self.n): shot_input}}).for_shot(
                self.n
            )
            if shot_input
            else None
        )
        on = (
            list(balls)
            if balls is not None
            else ([b.value for b in sorted(self.state.balls, key=lambda b: int(b.value))])
        )
        shot = a_shot(tokens, on, number=self.n, t0_s=10.0 * self.n)
        call, self.state = self.engine.judge_shot(self.state, shot, si)
        self.calls.append(call)
        return call


def match_log(game: str, shots: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[Event]:
    """A whole log: each shot as (tokens, balls in its shot start)."""
    out: list[Event] = []
    for i, (tokens, balls) in enumerate(shots, start=1):
        out += shot_events(tokens, balls, shot=i, t0_s=10.0 * i)
    return out
