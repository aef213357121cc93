"""Which sampling a trajectory source uses, read from the data itself.

Two kinds reach event inference (DESIGN.md, "What real inputs look like"):

- ``FRAMES``: every ball has a sample at (nearly) every frame of a video, as this program's
  tracker writes them (hidden balls bridged, marked not observed). A silence in such data is a
  detection gap, to be read carefully: a moving ball can cross the table during one.
- ``SPARSE``: another tracking system that reports a ball only when it has moved (about a
  centimetre), at its own rate while the ball moves (~50 Hz) — a ball at rest has one sample
  where it came to rest and then none until it is struck again. A silence in such data *is* the
  ball at rest, however the ball left its place when the silence ends.

The kind is told by coverage: over the span of the data, a ball at rest in ``SPARSE`` data has a
few samples where the source's reporting pace would give hundreds. The pace is the spacing of a
fast ball's consecutive reports: the 20th percentile of the gaps over all balls (a slowing ball is
reported less often, each centimetre, so the median would be too long).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Mapping

import numpy as np

from tracking.ids import BallId
from tracking.trajectory import Trajectory


class Sampling(Enum):
    """How the source samples the balls (see the module docstring); ``AUTO``: read it from the data."""

    AUTO = "auto"
    FRAMES = "frames"
    SPARSE = "sparse"


@dataclass(frozen=True)
class SamplingReport:
    """The sampling found: ``kind``, the source's reporting pace ``spacing_s`` (median gap between
    consecutive samples of a fast ball), and ``why`` — a sentence a user can read (the ``events``
    command prints it)."""

    kind: Sampling
    spacing_s: float
    why: str


#: A ball with fewer samples than this share of the pace's count over the data's span is a ball
#: reported only when it moves: a video tracker, even one that drops hidden balls, keeps most.
SPARSE_COVERAGE = 0.2
#: The percentile of all sample gaps taken as the source's reporting pace.
PACE_PERCENTILE = 20.0
#: At least this many of the pace's ticks in the data before coverage means anything.
MIN_TICKS = 20


def detect_sampling(trajectories: Mapping[BallId, Trajectory]) -> SamplingReport:
    """The sampling of ``trajectories`` (only observed samples count)."""
    gaps: list[np.ndarray] = []
    spans: list[tuple[float, float]] = []
    counts: dict[BallId, int] = {}
    for ball, tr in trajectories.items():
        t = np.asarray(tr.t_s)[np.asarray(tr.observed, dtype=bool)]
        counts[ball] = len(t)
        if len(t):
            spans.append((float(t[0]), float(t[-1])))
        if len(t) > 1:
            gaps.append(np.diff(t))
    if not gaps or not spans:
        return SamplingReport(Sampling.FRAMES, 0.0, "too few samples to tell the sampling; read as video frames")
    spacing = float(np.percentile(np.concatenate(gaps), PACE_PERCENTILE))
    t0 = min(a for a, _ in spans)
    t1 = max(b for _, b in spans)
    ticks = (t1 - t0) / spacing if spacing > 0 else 0.0
    if ticks < MIN_TICKS:
        return SamplingReport(Sampling.FRAMES, spacing, f"{ticks:.0f} sample spacings of data: read as video frames")
    sparse = {b: n for b, n in counts.items() if n < SPARSE_COVERAGE * ticks}
    if sparse:
        ball, n = min(sparse.items(), key=lambda kv: kv[1])
        return SamplingReport(
            Sampling.SPARSE, spacing,
            f"sparse reports (a ball is sampled only while it moves, every {spacing * 1000:.0f} ms; "
            f"the {ball.value} has {n} samples over {t1 - t0:.1f} s): a silence is a ball at rest")
    return SamplingReport(Sampling.FRAMES, spacing,
                          f"every ball sampled about every {spacing * 1000:.0f} ms: read as video frames")
