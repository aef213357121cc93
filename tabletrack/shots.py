"""Cutting the running trajectories into finished shots while the video plays.

The pipeline cannot wait for the end of a match to write its events: a referee needs each call
when the balls stop, and an interrupted analysis must keep what it found. :class:`ShotCutter`
keeps every ball's samples since the table was last at rest after a shot; once all balls have
been still for ``rest_confirm_s`` after some motion, it runs the event inference on that window,
hands back the finished shots' events (renumbered to continue the log) and starts a new window
at the last shot's end. ``finish()`` flushes what is left when the video ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.table import TableSpec
from tracking.events import Event, ShotEnd
from tracking.ids import BallId
from tracking.infer import infer_events
from tracking.trajectory import Trajectory


@dataclass
class _Samples:
    t_s: list[float] = field(default_factory=list)
    frame: list[int] = field(default_factory=list)
    x_mm: list[float] = field(default_factory=list)
    y_mm: list[float] = field(default_factory=list)
    observed: list[bool] = field(default_factory=list)
    confidence: list[float] = field(default_factory=list)

    def trajectory(self, ball: BallId, t0_s: float) -> Trajectory:
        t = np.asarray(self.t_s)
        keep = t >= t0_s
        return Trajectory(ball, t[keep], np.asarray(self.frame)[keep], np.asarray(self.x_mm)[keep],
                          np.asarray(self.y_mm)[keep], np.asarray(self.observed)[keep],
                          np.asarray(self.confidence)[keep])

    def drop_before(self, t0_s: float) -> None:
        k = int(np.searchsorted(np.asarray(self.t_s), t0_s, side="left"))
        for name in ("t_s", "frame", "x_mm", "y_mm", "observed", "confidence"):
            del getattr(self, name)[:k]


class ShotCutter:
    def __init__(self, table: TableSpec, balls: tuple[BallId, ...], rest_confirm_s: float = 0.8,
                 still_mm: float = 3.0) -> None:
        self.table = table
        self.balls = balls
        self.rest_confirm_s = rest_confirm_s
        self.still_mm = still_mm
        self._s = {b: _Samples() for b in balls}
        self._window_t0 = 0.0
        self._next_shot = 1
        self._moved_since_cut = False
        self._last_t = 0.0
        # per ball: where it was when it last moved, and when (incremental, O(1) per sample)
        self._anchor: dict[BallId, tuple[float, float]] = {}
        self._last_move_t: dict[BallId, float] = {}
        self._next_try_t = -np.inf

    @property
    def next_shot(self) -> int:
        return self._next_shot

    def add(self, frame: int, t_s: float, ball: BallId, x_mm: float, y_mm: float, observed: bool,
            confidence: float) -> None:
        s = self._s[ball]
        if s.t_s and t_s <= s.t_s[-1]:
            return
        s.t_s.append(t_s)
        s.frame.append(frame)
        s.x_mm.append(x_mm)
        s.y_mm.append(y_mm)
        s.observed.append(observed)
        s.confidence.append(confidence)
        self._last_t = max(self._last_t, t_s)
        if not observed:
            return
        a = self._anchor.get(ball)
        if a is None:
            self._anchor[ball] = (x_mm, y_mm)
            self._last_move_t[ball] = -np.inf
        elif np.hypot(x_mm - a[0], y_mm - a[1]) > self.still_mm:
            self._anchor[ball] = (x_mm, y_mm)
            self._last_move_t[ball] = t_s
            self._moved_since_cut = True

    def _table_still(self, now_s: float) -> bool:
        """No observed ball has moved more than ``still_mm`` from where it last stopped for the
        last ``rest_confirm_s``."""
        last = max(self._last_move_t.values(), default=-np.inf)
        return now_s - last >= self.rest_confirm_s

    def poll(self, now_s: float) -> list[Event]:
        """The events of shots finished by ``now_s`` (empty most of the time)."""
        if not self._table_still(now_s) or not self._moved_since_cut or now_s < self._next_try_t:
            return []
        self._next_try_t = now_s + 0.5  # the inference may still see a ball creeping: retry later
        return self._cut(final=False)

    def finish(self) -> list[Event]:
        return self._cut(final=True)

    def _cut(self, final: bool) -> list[Event]:
        trajs = {b: s.trajectory(b, self._window_t0) for b, s in self._s.items() if s.t_s}
        trajs = {b: t for b, t in trajs.items() if len(t)}
        if not trajs:
            return []
        events = infer_events(trajs, self.table, first_shot=self._next_shot)
        if not final:
            ends = [e for e in events if isinstance(e, ShotEnd)]
            if not ends:
                return []
            last_complete = max(e.shot for e in ends)
            events = [e for e in events if e.shot <= last_complete]
            cut_t = max(e.t_s for e in ends if e.shot == last_complete)
            self._window_t0 = cut_t
            for s in self._s.values():
                s.drop_before(cut_t)
            self._moved_since_cut = False
        if events:
            self._next_shot = max(e.shot for e in events) + 1
        return events
