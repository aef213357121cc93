"""Comparing an analysis with a rendered clip's truth (``<clip>.truth.json``).

Used by the golden tests and by ``bench/run.py``. The truth's events come from the physics
(pooltool), its calls from judging those true events with the same referee input, and its ball
positions from the renderer — each independent of the video analysis being measured.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from rules import judge_events, parse_referee_input
from rules.call import Call
from tracking.eventlog import event_from_dict
from tracking.events import BallBall, CushionHit, Event, ShotStart
from tracking.ids import BallId


@dataclass(frozen=True)
class ClipTruth:
    name: str
    fps: float
    events: tuple[Event, ...]
    frames: list[dict[str, Any]]
    referee: dict[str, Any] | None

    @staticmethod
    def load(truth_path: Path) -> "ClipTruth":
        d = json.loads(Path(truth_path).read_text(encoding="utf-8"))
        events = tuple(event_from_dict(e, f"{truth_path.name}: event") for e in d["events"])
        ref_path = referee_path_for(truth_path.with_name(d["video"]))
        referee = json.loads(ref_path.read_text(encoding="utf-8")) if ref_path.exists() else None
        return ClipTruth(d["clip"], float(d["fps"]), events, d["frames"], referee)

    def calls(self) -> list[Call]:
        ref = parse_referee_input(self.referee) if self.referee else None
        calls, _ = judge_events(self.events, "three-cushion", ref)
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


def call_key(c: Call) -> tuple[int, int, str | None]:
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


def contact_time_errors_ms(found: Sequence[Event], truth: Sequence[Event], window_s: float = 0.1) -> tuple[list[float], int, int]:
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
            errs.append(1000.0 * best)
    extra = sum(1 for i, f in enumerate(found) if _contact_key(f) is not None and i not in used)
    return errs, missed, extra


def position_errors_mm(tracks: Sequence[Any], truth: ClipTruth) -> list[float]:
    """Distance between each observed track sample and the true centre in that frame."""
    errs: list[float] = []
    for tr in tracks:
        name = tr.ball.value
        for f, x, y, obs in zip(tr.frames, tr.x_mm, tr.y_mm, tr.observed):
            if not obs or f >= len(truth.frames):
                continue
            b = truth.frames[int(f)]["balls"].get(name)
            if b is None or not b.get("on_table", True):
                continue
            errs.append(float(np.hypot(x - b["mm"][0], y - b["mm"][1])))
    return errs


def cue_ball_of(events: Sequence[Event]) -> dict[int, BallId]:
    return {e.shot: e.cue_ball for e in events if isinstance(e, ShotStart)}
