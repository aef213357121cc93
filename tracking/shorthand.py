"""A shorthand for writing the middle of a shot's event log by hand (tests, examples, bug reports).

One token per event, each ``step_s`` after the previous one, about the cue ball unless it names
another ball::

    "red"            the cue ball touches the red          "red-yellow"   a ball_ball (striking, struck)
    "foot"           the cue ball hits the foot cushion    "9:left"       the 9 hits the left cushion
    "9>foot_left"    the 9 drops in the foot_left pocket   "off:red"      the red leaves the table
    "near:red"       the cue ball passes the red 1 mm apart, no contact seen (a ``near_miss``)

Suffixes: ``"@0.4"`` the event's confidence, ``"~0.01"`` its time is this many seconds after the
previous event instead of ``step_s``. Contact positions are not part of the shorthand ((0, 0)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from tracking.events import BallBall, CushionHit, Event, NearMiss, OffTable, Pocketed
from tracking.ids import BallId, Cushion, Pocket

_CUSHIONS = {c.value for c in Cushion}
#: mm. The gap of a ``near:`` token's pass
NEAR_GAP_MM = 1.0


class _Common(TypedDict):
    """The fields every event of a token shares."""

    t_s: float
    frame: int
    shot: int
    confidence: float


def shorthand_events(
    tokens: Sequence[str],
    cue: BallId,
    shot: int,
    t0_s: float,
    conf: float = 0.95,
    step_s: float = 0.2,
    fps: float = 30.0,
) -> tuple[list[Event], list[BallId]]:
    """The events of ``tokens`` (see the module docstring) and the balls they pocket or send off
    the table, in order. ValueError (from the id parsers) on a token naming no ball, cushion or
    pocket."""
    evs: list[Event] = []
    gone: list[BallId] = []
    t = t0_s
    for tok in tokens:
        step, k = step_s, conf
        if "~" in tok:
            tok, d = tok.split("~")
            step = float(d)
        if "@" in tok:
            tok, q = tok.split("@")
            k = float(q)
        t += step
        common = _Common(t_s=t, frame=int(t * fps), shot=shot, confidence=k)
        if tok.startswith("near:"):
            evs.append(NearMiss(**common, balls=(cue, BallId.parse(tok[5:])), pos_mm=(0.0, 0.0), gap_mm=NEAR_GAP_MM))
        elif tok.startswith("off:"):
            b = BallId.parse(tok[4:])
            gone.append(b)
            evs.append(OffTable(**common, ball=b))
        elif ">" in tok:
            name, p = tok.split(">")
            b = BallId.parse(name)
            gone.append(b)
            evs.append(Pocketed(**common, ball=b, pocket=Pocket.parse(p)))
        elif ":" in tok:
            name, c = tok.split(":")
            evs.append(CushionHit(**common, ball=BallId.parse(name), cushion=Cushion.parse(c), pos_mm=(0.0, 0.0)))
        elif "-" in tok:
            a, b2 = tok.split("-")
            evs.append(BallBall(**common, balls=(BallId.parse(a), BallId.parse(b2)), pos_mm=(0.0, 0.0)))
        elif tok in _CUSHIONS:
            evs.append(CushionHit(**common, ball=cue, cushion=Cushion.parse(tok), pos_mm=(0.0, 0.0)))
        else:
            evs.append(BallBall(**common, balls=(cue, BallId.parse(tok)), pos_mm=(0.0, 0.0)))
    return evs, gone
