"""What the samples say at a time, shared by the steps of :mod:`tracking.infer`.

- :class:`Clock`: the ``frame`` of an event's time, the highest ``frame`` among the samples (of
  any ball) at or before it, so that times come from the samples and never from a frame rate.
- :func:`activities`: each ball's rest runs and motions (:mod:`tracking.segment`) over the data.
- :func:`rest_position_at`: where a ball rests at a time, from a bounded window of its rest run,
  so that the answer is the same whether the run is seen whole (a file) or in part (a stream).

Nothing here keeps state between calls beyond the :class:`Clock` built for one data set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np

from tracking.ids import BallId
from tracking.infer.config import InferenceConfig
from tracking.segment import BallActivity, BallSamples, ball_activity
from tracking.trajectory import Trajectory

#: The frame of a time (seconds): what each event's ``frame`` is read from.
FrameAt = Callable[[float], int]


class Clock:
    """Frame of a time: the highest frame among the samples at or before it."""

    def __init__(self, trajectories: Iterable[Trajectory]) -> None:
        ts, fs = [], []
        for tr in trajectories:
            ts.append(tr.t_s)
            fs.append(tr.frame)
        t = np.concatenate(ts) if ts else np.zeros(0)
        f = np.concatenate(fs) if fs else np.zeros(0, dtype=np.int64)
        order = np.lexsort((f, t))
        self._t, self._f = t[order], np.maximum.accumulate(f[order]) if len(f) else f

    def frame_at(self, t_s: float) -> int:
        if len(self._t) == 0:
            return 0
        k = int(np.searchsorted(self._t, t_s, side="right") - 1)
        return int(self._f[max(k, 0)])


def activities(
    trajs: Mapping[BallId, Trajectory], cfg: InferenceConfig, clip_end_s: float | None = None
) -> tuple[dict[BallId, BallActivity], float]:
    """Each ball's rest runs and motions (balls with no samples left out), and the time the data
    end: ``clip_end_s`` when given (a stream's present, which may lie after its latest sample),
    else the latest sample of any ball (0 without samples)."""
    clip_end = (
        max((float(tr.t_s[-1]) for tr in trajs.values() if len(tr)), default=0.0)
        if clip_end_s is None
        else float(clip_end_s)
    )
    acts: dict[BallId, BallActivity] = {}
    for ball, tr in trajs.items():
        s = BallSamples.from_trajectory(tr)
        if len(s):
            acts[ball] = ball_activity(s, clip_end, cfg.segment)
    return acts, clip_end


def rest_position_at(act: BallActivity, t_s: float, n: int, after: bool = False) -> tuple[float, float] | None:
    """Where the ball rests at ``t_s``: the median of the (at most ``n``) samples of its rest run
    just before ``t_s`` (``after``: from ``t_s`` on), or None when it is not at rest then. The
    bounded window makes the answer the same whether the run is seen whole or in part."""
    s = act.samples
    k = int(np.searchsorted(s.t_s, t_s, side="right") - 1)
    if after:
        k = max(k, int(np.searchsorted(s.t_s, t_s, side="left")))
        k = min(k, len(s) - 1)
    if k < 0:
        return None
    for r in act.runs:
        if r.i0 <= k <= r.i1:
            idx = np.arange(k, min(k + n, r.i1 + 1)) if after else np.arange(max(k - n + 1, r.i0), k + 1)
            med = np.median(s.xy_mm[idx], axis=0)
            return (float(med[0]), float(med[1]))
    return None
