"""Comparing an analysis with a rendered clip's truth (``<clip>.truth.json``).

Used by the golden tests and by ``bench/run.py``. The truth's events come from the physics
(pooltool), its calls from judging those true events with the same referee input, and its ball
positions from the renderer — each independent of the video analysis being measured.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from rules import judge_events
from rules.core.call import Call
from tracking.eventlog import event_from_dict
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, ShotStart
from tracking.ids import BallId


@dataclass(frozen=True)
class ClipTruth:
    name: str
    fps: float
    events: tuple[Event, ...]
    frames: list[dict[str, Any]]
    referee: dict[str, Any] | None
    game: str = "three-cushion"
    table: str = "carom"

    @staticmethod
    def load(truth_path: Path) -> ClipTruth:
        d = json.loads(Path(truth_path).read_text(encoding="utf-8"))
        events = tuple(event_from_dict(e, f"{truth_path.name}: event") for e in d["events"])
        ref_path = referee_path_for(truth_path.with_name(d["video"]))
        referee = json.loads(ref_path.read_text(encoding="utf-8")) if ref_path.exists() else None
        return ClipTruth(
            d["clip"],
            float(d["fps"]),
            events,
            d["frames"],
            referee,
            d.get("game", "three-cushion"),
            d.get("table", "carom"),
        )

    def calls(self) -> list[Call]:
        """The calls of the true events, judged as the clip's game with its referee input."""
        from calibration.table import load_table
        from tabletrack.tables import table_spots

        calls, _ = judge_events(self.events, self.game, self.referee or {}, table=table_spots(load_table(self.table)))
        return calls


def referee_path_for(video: Path) -> Path:
    """The referee input that goes with a clip: ``<clip>.referee.json`` beside it."""
    return video.with_name(video.stem + ".referee.json")


def cushion_counts(events: Sequence[Event]) -> dict[tuple[int, str], int]:
    """(shot, ball) → number of cushion contacts."""
    out: dict[tuple[int, str], int] = {}
    for e in events:
        if isinstance(e, CushionHit):
            out[(e.shot, e.ball.value)] = out.get((e.shot, e.ball.value), 0) + 1
    return out


def call_key(c: Call) -> tuple[int, int, Enum | None]:
    return (c.shot, c.points, c.foul)


def cue_cushion_key(c: Call) -> tuple:
    """What the three-cushion count of a shot is: the cue ball, its cushion impacts before the
    second object ball and in all, as the rules count them (003 art. 3, 10)."""
    return (c.shot, c.cue_ball, c.cushions_before_second_ball, c.cushions_total)


def _contact_key(e: Event) -> tuple | None:
    if isinstance(e, CushionHit):
        return ("cushion", e.shot, e.ball, e.cushion)
    if isinstance(e, BallBall):
        return ("ball_ball", e.shot, frozenset(e.balls))
    return None


def contact_time_errors_ms(
    found: Sequence[Event], truth: Sequence[Event], window_s: float = 0.1
) -> tuple[list[float], int, int]:
    """For each true contact, the time error of the nearest found contact of the same kind and
    balls within ``window_s``; and the counts of true contacts missed and found contacts extra."""
    errs: list[float] = []
    used: set[int] = set()
    missed = 0
    for t in truth:
        k = _contact_key(t)
        if k is None:
            continue
        best, best_i = None, None
        for i, f in enumerate(found):
            if i in used or _contact_key(f) != k:
                continue
            dt = abs(f.t_s - t.t_s)
            if dt <= window_s and (best is None or dt < best):
                best, best_i = dt, i
        if best_i is None:
            missed += 1
        else:
            used.add(best_i)
            assert best is not None  # set together with best_i
            errs.append(1000.0 * best)
    extra = sum(1 for i, f in enumerate(found) if _contact_key(f) is not None and i not in used)
    return errs, missed, extra


def position_errors_mm(tracks: Sequence[Any], truth: ClipTruth) -> list[float]:
    """Distance between each observed track sample and the true centre in that frame (a snooker
    red: the nearest true red, since which red is which is only the tracker's naming)."""
    errs: list[float] = []
    for tr in tracks:
        name = tr.ball.value
        red = name.startswith("red_")
        for f, x, y, obs in zip(tr.frames, tr.x_mm, tr.y_mm, tr.observed):
            if not obs or f >= len(truth.frames):
                continue
            balls = truth.frames[int(f)]["balls"]
            cands = (
                [b for k, b in balls.items() if k.startswith("red_")] if red else [balls[name]] if name in balls else []
            )
            cands = [b for b in cands if b.get("on_table", True)]
            if not cands:
                continue
            errs.append(min(float(np.hypot(x - b["mm"][0], y - b["mm"][1])) for b in cands))
    return errs


def cue_ball_of(events: Sequence[Event]) -> dict[int, BallId]:
    return {e.shot: e.cue_ball for e in events if isinstance(e, ShotStart)}


def _class(ball: BallId) -> str:
    """A ball as the rules and the detector tell it: snooker's reds are all "red" (which red is
    which is the tracker's naming, in order along the table, not the truth's)."""
    return "red" if ball.value.startswith("red_") else ball.value


def pocketings(events: Sequence[Event]) -> list[tuple[int, str, str]]:
    """(shot, ball, pocket) of every pocketing, in time order (snooker reds as "red")."""
    return [(e.shot, _class(e.ball), e.pocket.value) for e in events if isinstance(e, Pocketed)]


def pocket_time_errors_ms(found: Sequence[Event], truth: Sequence[Event]) -> list[float]:
    """Per true pocketing found (same shot, ball and pocket), its time error."""
    out = []
    for t in truth:
        if not isinstance(t, Pocketed):
            continue
        m = [
            f
            for f in found
            if isinstance(f, Pocketed) and (f.shot, _class(f.ball), f.pocket) == (t.shot, _class(t.ball), t.pocket)
        ]
        if m:
            out.append(1000.0 * min(abs(f.t_s - t.t_s) for f in m))
    return out


def off_table(events: Sequence[Event]) -> list[tuple[int, str]]:
    """(shot, ball) of every ball that left the table."""
    return [(e.shot, _class(e.ball)) for e in events if isinstance(e, OffTable)]


def first_contacts(events: Sequence[Event]) -> dict[int, tuple[str, str] | None]:
    """Per shot, (cue ball, the first ball it touched), or None if it touched none."""
    cue = cue_ball_of(events)
    out: dict[int, tuple[str, str] | None] = dict.fromkeys(cue)
    for e in sorted((e for e in events if isinstance(e, BallBall)), key=lambda e: e.t_s):
        c = cue.get(e.shot)
        if c is None or out.get(e.shot) is not None or c not in e.balls:
            continue
        other = e.balls[1] if e.balls[0] is c else e.balls[0]
        out[e.shot] = (c.value, _class(other))
    return out


def pool_call_key(c: Call) -> tuple:
    """What a pocket-game call is: legal, the foul, points, whether the turn passes."""
    return (c.shot, c.legal, None if c.foul is None else c.foul.value, c.points, c.turn_over)
