"""Hand-built 14.1 event logs for the tests, with the contract types (tracking.events).

A :class:`Table` keeps where the balls stand (table mm, 9-ft frame: head string x = 635 mm) and
writes one shot at a time from tokens, one event each, 0.2 s apart, about the cue ball unless said:
``"5"`` the cue ball touches the 5; ``"foot"`` the cue ball hits the foot cushion; ``"5:left"`` the
5 hits the left cushion; ``"5-7"`` a ball_ball between two object balls; ``"5>foot_left"`` the 5
is pocketed in the foot_left pocket (``"cue>side_right"`` a scratch); ``"off:5"`` the 5 leaves the
table. Suffixes: ``"@0.4"`` confidence; ``"#400"`` the cushion contact's x (mm), to say which side of
the head string it happened on. At the shot's end pocketed and off-table balls are gone from the
table; what the referee or the rules do between shots (spotting, racking, ball in hand) the test
says by ``place`` on the next shot, as the real next shot start would show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import engine_for
from rules.straight_pool.state import OBJECT_BALLS
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, Shot, ShotEnd, ShotStart, group_shots
from tracking.ids import BallId, Cushion, Pocket

ENGINE = engine_for("14.1")
H = 635.0
FOOT_SPOT = (3 * H, H)
HEAD_SPOT = (H, H)
CENTRE_SPOT = (2 * H, H)
CUSHION_AT = {"head": (28.6, H), "foot": (2511.4, H), "left": (1905.0, 1241.4), "right": (1905.0, 28.6)}
ALL = [str(n) for n in range(1, 16)]


def rack_slots() -> list[tuple[float, float]]:
    """The 15 places of the triangle, the apex (on the foot spot) first (57.15 mm balls, touching)."""
    d = 57.15
    return [
        (FOOT_SPOT[0] + row * d * 0.866, FOOT_SPOT[1] + (k - row / 2) * d) for row in range(5) for k in range(row + 1)
    ]


def rack_positions(balls: list[str] | None = None) -> dict[BallId, tuple[float, float]]:
    """Balls in a triangle with the apex on the foot spot, in slot order."""
    return {BallId(name): p for name, p in zip(balls or ALL, rack_slots())}


class Table:
    """The balls on the table between shots, and the log written so far."""

    def __init__(
        self,
        balls: list[str] | None = None,
        cue_at: tuple[float, float] = (300.0, 600.0),
        positions: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        self.pos: dict[BallId, tuple[float, float]] = {BallId.CUE: cue_at}
        if positions is not None:
            self.pos.update({BallId(k): v for k, v in positions.items()})
        else:
            self.pos.update(rack_positions(balls))
        self.events: list[Event] = []
        self.n = 0
        self.t = 0.0

    def shot(
        self,
        tokens: list[str],
        place: Mapping[str, tuple[float, float] | None] | None = None,
        moves: Mapping[str, tuple[float, float]] | None = None,
        conf: float = 0.95,
        end: bool = True,
        start: bool = True,
    ) -> Table:
        """Write one shot. ``place``: balls put somewhere (or removed: None) before the stroke;
        ``moves``: where balls come to rest after it."""
        self.n += 1
        n = self.n
        for k, v in (place or {}).items():
            b = BallId(k)
            if v is None:
                self.pos.pop(b, None)
            else:
                self.pos[b] = v
        t = self.t + 1.0
        if start:
            self.events.append(
                ShotStart(
                    t_s=t, frame=int(t * 30), shot=n, confidence=0.99, cue_ball=BallId.CUE, positions=dict(self.pos)
                )
            )
        gone: list[BallId] = []
        for tok in tokens:
            t += 0.2
            k = conf
            x = None
            if "#" in tok:
                tok, xs = tok.split("#")
                x = float(xs)
            if "@" in tok:
                tok, q = tok.split("@")
                k = float(q)
            common: dict[str, Any] = dict(t_s=t, frame=int(t * 30), shot=n, confidence=k)
            if tok.startswith("off:"):
                b = BallId(tok[4:])
                self.events.append(OffTable(**common, ball=b))
                gone.append(b)
            elif ">" in tok:
                b, p = tok.split(">")
                self.events.append(Pocketed(**common, ball=BallId(b), pocket=Pocket(p)))
                gone.append(BallId(b))
            elif ":" in tok:
                b, c = tok.split(":")
                at = CUSHION_AT[c] if x is None else (x, CUSHION_AT[c][1])
                self.events.append(CushionHit(**common, ball=BallId(b), cushion=Cushion(c), pos_mm=at))
            elif tok in CUSHION_AT:
                at = CUSHION_AT[tok] if x is None else (x, CUSHION_AT[tok][1])
                self.events.append(CushionHit(**common, ball=BallId.CUE, cushion=Cushion(tok), pos_mm=at))
            elif "-" in tok:
                a, b = tok.split("-")
                self.events.append(BallBall(**common, balls=(BallId(a), BallId(b)), pos_mm=(0.0, 0.0)))
            else:
                self.events.append(BallBall(**common, balls=(BallId.CUE, BallId(tok)), pos_mm=(0.0, 0.0)))
        for b in gone:
            self.pos.pop(b, None)
        self.pos.update({BallId(k): v for k, v in (moves or {}).items()})
        if end:
            t += 1.0
            self.events.append(ShotEnd(t_s=t, frame=int(t * 30), shot=n, confidence=0.99, positions=dict(self.pos)))
        self.t = t
        return self

    def shots(self) -> list[Shot]:
        return group_shots(self.events)

    def objects(self) -> list[str]:
        return sorted((b.value for b in self.pos if b in OBJECT_BALLS), key=int)


def spread(balls: list[str], cue_at: tuple[float, float] = (1000.0, 400.0)) -> Table:
    """A table mid-rack: ``balls`` spread in front of the head string, the cue ball at ``cue_at``."""
    pos = {b: (900.0 + 100.0 * i, 300.0 + 60.0 * (i % 5)) for i, b in enumerate(balls)}
    return Table(positions=pos, cue_at=cue_at)


def start_input(balls: list[str], **start: Any) -> dict[str, Any]:
    """A referee-input ``start`` for a table mid-rack (no opening break pending)."""
    s: dict[str, Any] = {"balls": balls, "next_is_break": False}
    s.update(start)
    return s


def judge(table: Table, referee: Mapping[str, Any] | None = None):
    """Judge the table's log shot by shot: (calls, final state)."""
    ref = ENGINE.parse_input(dict(referee or {}))
    state = ENGINE.initial_state(ref.setup)
    calls = []
    for shot in table.shots():
        call, state = ENGINE.judge_shot(state, shot, ref.for_shot(shot.number))
        calls.append(call)
    return calls, state


def called(ball: str, pocket: str) -> dict[str, Any]:
    return {"called": {"ball": ball, "pocket": pocket}}


def rack_of_14(balls: list[str]) -> dict[str, tuple[float, float]]:
    """The 14 balls racked with the apex spot (the foot spot) empty (004 art. 7.3)."""
    return dict(zip(balls, rack_slots()[1:]))
