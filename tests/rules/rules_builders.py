"""Hand-built event logs for the rules tests, with the contract types (tracking.events).

A shot is written as tokens, one event each, 0.2 s apart, all about the cue ball unless said:
``"red"`` the cue ball touches the red; ``"foot"`` the cue ball hits the foot cushion;
``"red-yellow"`` a ball_ball event (striking, struck) between any two balls (a kiss);
``"yellow:left"`` another ball hits a cushion; ``"off:red"`` the red leaves the table.
Suffixes: ``"@0.4"`` the event's confidence; ``"~0.01"`` its time is this many seconds after the
previous event instead of 0.2 s.
"""

from __future__ import annotations

from rules import GameState, engine_for
from rules.carom.inputs import MatchSetup, ShotInput
from tracking.events import Event, Shot, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId, Cushion
from tracking.shorthand import shorthand_events

POS = {BallId.WHITE: (700.0, 500.0), BallId.YELLOW: (710.0, 900.0), BallId.RED: (2130.0, 710.0)}


def shot_events(
    tokens: list[str] | tuple[str, ...],
    cue: str = "white",
    shot: int = 1,
    t0_s: float = 0.0,
    conf: float = 0.95,
    start_conf: float = 0.99,
    frozen: dict[str, str] | None = None,
    contact: tuple[tuple[str, str], ...] = (),
    end: bool = True,
    start: bool = True,
) -> list[Event]:
    c = BallId.parse(cue)
    evs: list[Event] = []
    if start:
        evs.append(
            ShotStart(
                t_s=t0_s,
                frame=int(t0_s * 30),
                shot=shot,
                confidence=start_conf,
                cue_ball=c,
                positions=dict(POS),
                frozen_to_cushion={BallId.parse(b): Cushion.parse(k) for b, k in (frozen or {}).items()},
                balls_in_contact=tuple((BallId.parse(a), BallId.parse(b)) for a, b in contact),
            )
        )
    t = t0_s
    mid, gone_now = shorthand_events(tokens, c, shot, t, conf)
    evs.extend(mid)
    t = mid[-1].t_s if mid else t
    if end:
        evs.append(ShotEnd(t_s=t + 1.0, frame=int((t + 1.0) * 30), shot=shot, confidence=0.99, positions=dict(POS)))
    return evs


def a_shot(tokens, number: int = 1, **kw) -> Shot:
    (s,) = group_shots(shot_events(tokens, shot=number, **kw))
    return s


def log(*shots: tuple[list[str], str] | list[str]) -> list[Event]:
    """A log of several shots: each a token list (white) or (tokens, cue ball)."""
    out: list[Event] = []
    for i, s in enumerate(shots, start=1):
        tokens, cue = (s, "white") if isinstance(s, list) else s
        out += shot_events(tokens, cue=cue, shot=i, t0_s=10.0 * (i - 1))
    return out


def judge(
    tokens,
    game: str = "three-cushion",
    state: GameState | None = None,
    shot_input: ShotInput | None = None,
    setup: MatchSetup | None = None,
    number: int = 1,
    **kw,
):
    """Judge one shot; returns (call, new state)."""
    engine = engine_for(state.game if state is not None else game)
    st = state if state is not None else engine.initial_state(setup)
    return engine.judge_shot(st, a_shot(tokens, number, **kw), shot_input)


def play(state: GameState, outcomes: str):
    """Play ``outcomes`` ("p" a point, "m" a miss) each with the ball of the player at the table;
    returns (calls, state)."""
    engine = engine_for(state.game)
    calls = []
    point = (
        ["red", "foot", "left", "head", "yellow"] if state.game.value == "three-cushion" else ["red", "foot", "yellow"]
    )
    for n, o in enumerate(outcomes, start=state.shots + 1):
        cue = state.player.ball
        other = "yellow" if cue is BallId.WHITE else "white"
        tokens = [t.replace("yellow", other) for t in point] if o == "p" else ["red"]
        call, state = engine.judge_shot(state, a_shot(tokens, n, cue=cue.value), None)
        calls.append(call)
    return calls, state
