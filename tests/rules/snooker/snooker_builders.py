"""Hand-built snooker event logs for the tests, with the contract types (tracking.events).

A stroke is a list of tokens, one event each, 0.2 s apart:
``"red_3"`` the cue ball touches red_3 (any ball id); ``"red_3-blue"`` a contact of two other
balls; ``"head"`` the cue ball hits the head cushion, ``"blue:left"`` another ball does;
``"blue>foot_left"`` the blue drops into the foot-left pocket (``"cue>side_left"``: in-off);
``"off:pink"`` the pink leaves the table. Suffixes: ``"@0.4"`` the event's confidence,
``"~0"`` its time step from the previous event (``~0``: the same instant, a split hit).
Positions are empty unless given (so the state's table is not checked against them).
"""

from __future__ import annotations

from tracking.events import Event, Shot, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId
from tracking.shorthand import shorthand_events

Pos = dict[str, tuple[float, float]]


def _pos(p: Pos | None) -> dict[BallId, tuple[float, float]]:
    return {BallId.parse(b): xy for b, xy in (p or {}).items()}


def shot_events(
    tokens,
    shot: int = 1,
    t0_s: float | None = None,
    cue: str = "cue",
    conf: float = 0.95,
    start_pos: Pos | None = None,
    end_pos: Pos | None = None,
    end: bool = True,
    start: bool = True,
) -> list[Event]:
    t = float(10 * shot) if t0_s is None else t0_s
    c = BallId.parse(cue)
    evs: list[Event] = []
    if start:
        evs.append(
            ShotStart(t_s=t, frame=int(t * 30), shot=shot, confidence=0.99, cue_ball=c, positions=_pos(start_pos))
        )
    mid, gone_now = shorthand_events(tokens, c, shot, t, conf)
    evs.extend(mid)
    t = mid[-1].t_s if mid else t
    if end:
        evs.append(ShotEnd(t_s=t + 1.0, frame=int((t + 1.0) * 30), shot=shot, confidence=0.99, positions=_pos(end_pos)))
    return evs


def a_shot(tokens, number: int = 1, **kw) -> Shot:
    (s,) = group_shots(shot_events(tokens, shot=number, **kw))
    return s


def log(*strokes) -> list[Event]:
    """A log of several strokes, each a token list."""
    out: list[Event] = []
    for i, toks in enumerate(strokes, start=1):
        out.extend(shot_events(toks, shot=i))
    return out


def pot(ball: str, pocket: str = "foot_left") -> list[str]:
    """Hit ``ball`` and pot it."""
    return [ball, f"{ball}>{pocket}"]


#: A frame's clearance: 15 reds each with a black, then the colours: 147.
def max_break() -> list[list[str]]:
    out: list[list[str]] = []
    for i in range(1, 16):
        out.append(pot(f"red_{i}"))
        out.append(pot("black"))
    for c in ("yellow", "green", "brown", "blue", "pink", "black"):
        out.append(pot(c))
    return out
