"""Event inference as samples arrive (a live pipeline): :class:`EventStream`.

Contract: the events a stream hands back are those :func:`tracking.infer.infer_events` finds on
the whole data, each shot's as soon as that shot is over and settled, numbered from
``first_shot``. Memory stays bounded by one shot: samples of finished shots are dropped.

Why "settled": a shot's events are final only once no later sample can change them. Every ball
must have been at rest for ``settle_s`` (the longest rest the segmenter needs to call a rest,
plus the gap that separates two shots), so that no later sample can change its rest runs or join
it to the next stroke; a ball that vanished in motion must have been gone ``lost_after_s``. When
dropping samples, a ball resting at the cut keeps its last ``rest_fit_samples`` of that rest run,
so the buffer never starts inside a motion and the next shot's start positions are the same
medians the whole data give.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from calibration.table import TableSpec
from tracking.events import Event
from tracking.ids import BallId
from tracking.infer.config import InferenceConfig
from tracking.infer.shot import shot_events
from tracking.infer.timeline import Clock, activities
from tracking.sampling import Sampling
from tracking.segment import BallActivity, ShotSpan, group_shots
from tracking.trajectory import Trajectory


class EventStream:
    """Event inference as samples arrive: each shot's events are handed back as soon as the shot
    is over and settled (every ball at rest for ``settle_s``, so that no later sample can change
    its rest runs or join it to the next stroke), numbered from ``first_shot``.

    Feed samples with :meth:`add` (any order across balls, increasing time per ball) or a
    tracker's frame with :meth:`add_states`; :meth:`poll` re-examines the buffer (at most every
    ``poll_interval_s`` of data time; while a ball moved within ``settle_s``, when no shot can
    settle, at most every ``max_skip_s``) and returns newly completed shots' events; :meth:`finish`
    closes the data and returns the rest. Samples of finished shots are dropped (each ball keeps
    its last rest run), so memory stays bounded by one shot. The events are those
    :func:`infer_events` finds on the whole data.

    :attr:`final_until_s` is the stream's watermark: no event handed back later has a time before
    it (so whatever is drawn or shown for times before it is final: the annotated video). It
    trails the start of the first shot not yet handed back, or the latest sample when no shot is
    open, by ``watermark_margin_s`` (a stroke is timed at most a frame or two before its first
    moving sample; the margin also covers a motion not yet long enough to be seen as one)."""

    #: see the class docstring
    watermark_margin_s = 1.0
    #: a ball whose consecutive samples lie further apart than this moves (a resting ball's
    #: detections jitter by a millimetre or two): while one moved within ``settle_s``, :meth:`poll`
    #: does not re-examine the buffer (profile, carom 1080p60 sample: the polls were 1.2 s of a
    #: 9 s analysis), but at least every ``max_skip_s`` of data (a ball jittering more than this
    #: delays a settled shot by no more than that)
    motion_mm = 3.0
    max_skip_s = 1.0

    def __init__(
        self,
        table: TableSpec,
        config: InferenceConfig = InferenceConfig(),  # noqa: B008 (frozen: one shared default is safe)
        first_shot: int = 1,
        poll_interval_s: float = 0.25,
    ) -> None:
        self.table = table
        # a stream is a video tracker's frames: no whole-data view to read a sparse source from
        self.config = replace(config, sampling=Sampling.FRAMES) if config.sampling is Sampling.AUTO else config
        self._next_shot = first_shot
        self._rows: dict[BallId, list[tuple[float, int, float, float, bool, float]]] = {}
        self._t_now = -math.inf
        self._last_poll = -math.inf
        self._poll_interval = poll_interval_s
        seg = config.segment
        self.settle_s = max(seg.rest_min_s, seg.silent_rest_s) + seg.shot_gap_s
        self._finished = False
        self._final_until_s = -math.inf
        # when a ball last moved (by more than ``motion_mm`` between two samples) and when the
        # buffer was last examined: no shot can settle within ``settle_s`` of a motion
        self._t_motion = -math.inf
        self._last_xy: dict[BallId, tuple[float, float]] = {}
        self._last_process = -math.inf
        # the earliest time the open shot can be settled, as the last examination found it
        self._settles_from = -math.inf

    @property
    def final_until_s(self) -> float:
        """See the class docstring: +inf once the stream is finished."""
        return self._final_until_s

    def add(
        self,
        ball: BallId,
        t_s: float,
        frame: int,
        x_mm: float,
        y_mm: float,
        observed: bool = True,
        confidence: float = 1.0,
    ) -> None:
        if self._finished:
            raise ValueError("EventStream: add after finish; expected no more samples")
        rows = self._rows.setdefault(ball, [])
        if rows and t_s <= rows[-1][0]:
            raise ValueError(f"EventStream: ball {ball.value} sample at t={t_s} does not follow t={rows[-1][0]}")
        rows.append((float(t_s), int(frame), float(x_mm), float(y_mm), bool(observed), float(confidence)))
        self._t_now = max(self._t_now, float(t_s))
        last = self._last_xy.get(ball)
        if last is not None and math.hypot(x_mm - last[0], y_mm - last[1]) > self.motion_mm:
            self._t_motion = max(self._t_motion, float(t_s))
        self._last_xy[ball] = (float(x_mm), float(y_mm))

    def add_states(self, states: Iterable) -> list[Event]:
        """One frame of :class:`tracking.tracker.BallState` values; returns completed events."""
        for s in states:
            self.add(s.ball, s.t_s, s.frame, s.x_mm, s.y_mm, s.observed, s.confidence)
        return self.poll()

    def poll(self, t_now_s: float | None = None) -> list[Event]:
        """Events of the shots completed by ``t_now_s`` (default: the latest sample's time)."""
        t_now = self._t_now if t_now_s is None else max(self._t_now, float(t_now_s))
        if t_now - self._last_poll < self._poll_interval:
            return []
        self._last_poll = t_now
        if t_now - self._last_process < self.max_skip_s and (
            t_now - self._t_motion < self.settle_s
            or (t_now < self._settles_from and self._t_motion <= self._last_process)
        ):
            # a ball moved within settle_s: no shot can be settled now (a shot settled before it
            # would have been handed back by an earlier poll, or waits at most max_skip_s); nor
            # before the time the last examination found the open shot could settle, while no
            # ball has moved since (a pocketed ball's motion is open until lost_after_s after its
            # last sample: the polls after nine_break's break, 7 ms each, were made every
            # poll_interval_s for two seconds of resting table)
            return []
        return self._process(t_now, final=False)

    def finish(self) -> list[Event]:
        """The data are complete: the events of every shot not yet handed back."""
        out = self._process(self._t_now, final=True)
        self._finished = True
        self._final_until_s = math.inf
        return out

    def peek(self, ahead: Iterable = ()) -> list[Event]:
        """The events of the shots not yet handed back, as :meth:`finish` would give them were the
        data to end now, without changing the stream (nothing is trimmed, numbered or marked
        final). What a live page shows the moment the balls stop: the same as the settled events
        unless a ball moves again before ``settle_s`` has passed. ``ahead``: later
        :class:`tracking.tracker.BallState` values not yet added (frames a pipeline holds back),
        taken as if added, and gone again afterwards."""
        if self._finished:
            return []
        lens = {b: len(r) for b, r in self._rows.items()}
        saved = (self._next_shot, self._t_now, self._t_motion, dict(self._last_xy), self._final_until_s)
        try:
            for st in ahead:
                self.add(st.ball, st.t_s, st.frame, st.x_mm, st.y_mm, st.observed, st.confidence)
            return self._process(self._t_now, final=True)
        finally:
            for ball in list(self._rows):
                if ball in lens:
                    del self._rows[ball][lens[ball] :]
                else:
                    del self._rows[ball]
            self._next_shot, self._t_now, self._t_motion, self._last_xy, self._final_until_s = saved

    def _trajectories(self) -> dict[BallId, Trajectory]:
        out = {}
        for ball, rows in self._rows.items():
            if rows:
                a = np.array(rows, dtype=float)
                out[ball] = Trajectory(
                    ball, a[:, 0], a[:, 1].astype(np.int64), a[:, 2], a[:, 3], a[:, 4].astype(bool), a[:, 5]
                )
        return out

    def _process(self, t_now: float, final: bool) -> list[Event]:
        if not final:
            self._last_process = t_now
        trajs = self._trajectories()
        if not trajs:
            self._advance_watermark(t_now)
            return []
        cfg = self.config
        # while the stream runs, the data end now (a silence since a ball's last sample counts)
        acts, clip_end = activities(trajs, cfg, None if final else t_now)
        clock = Clock(trajs.values())
        out: list[Event] = []
        done_until: float | None = None
        open_from = t_now
        if not final:
            self._settles_from = -math.inf
        for span in group_shots(acts, cfg.segment):
            if not final and not self._settled(acts, span, t_now):
                open_from = span.t_begin_s
                self._settles_from = self._settles_at(acts, span)
                break
            evs = shot_events(acts, span, self._next_shot, self.table, cfg, clock.frame_at, clip_end, final=final)
            if evs:
                out.extend(evs)
                self._next_shot += 1
            done_until = span.t_end_s
        if done_until is not None and not final:
            self._trim(acts, done_until)
        if not final:
            self._advance_watermark(open_from)
        return out

    def _advance_watermark(self, open_from_s: float) -> None:
        self._final_until_s = max(self._final_until_s, min(open_from_s, self._t_now) - self.watermark_margin_s)

    def _settled(self, acts: dict[BallId, BallActivity], span: ShotSpan, t_now: float) -> bool:
        return t_now >= self._settles_at(acts, span)

    def _settles_at(self, acts: dict[BallId, BallActivity], span: ShotSpan) -> float:
        """The time from which ``span`` is settled on the data so far: ``settle_s`` after its last
        ball came to rest or was last seen, and each motion not ending at rest (still moving, or
        a ball gone) given up ``lost_after_s`` after its last sample."""
        seg = self.config.segment
        last_seen = span.t_end_s
        lost = -math.inf
        for m in span.motions:
            if m.rest_after is None:
                t_last = float(acts[m.ball].samples.t_s[m.i_last])
                lost = max(lost, t_last + seg.lost_after_s)
                last_seen = max(last_seen, t_last)
        return max(lost, last_seen + self.settle_s)

    def _trim(self, acts: dict[BallId, BallActivity], t_cut: float) -> None:
        """Drop samples before ``t_cut`` (the end of the last handed-back shot); a ball resting
        at the cut keeps that rest run (its last ``rest_fit_samples`` before the cut at most), so
        the buffer never starts inside a motion."""
        keep_n = self.config.contact.rest_fit_samples
        for ball, rows in self._rows.items():
            act = acts.get(ball)
            ts = np.array([r[0] for r in rows])
            k = int(np.searchsorted(ts, t_cut, side="left"))
            start = k
            if act is not None and len(act.samples):
                obs_t = act.samples.t_s
                j = int(np.searchsorted(obs_t, t_cut, side="right") - 1)  # last observed at the cut
                run = next((r for r in act.runs if r.i0 <= j <= r.i1), None)
                if run is not None:
                    t_keep = float(obs_t[max(run.i0, j - keep_n + 1)])
                    start = min(k, int(np.searchsorted(ts, t_keep, side="left")))
            if start > 0:
                del rows[:start]
