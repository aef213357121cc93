"""Which sampling a trajectory source uses, read from the data itself.

Two kinds reach event inference (DESIGN.md, "What real inputs look like"):

- ``FRAMES``: every ball has a sample at (nearly) every frame of a video, as this program's
  tracker writes them (hidden balls bridged, marked not observed). A silence in such data is a
  detection gap, to be read carefully: a moving ball can cross the table during one.
- ``SPARSE``: another tracking system that reports a ball only when it has moved (about a
  centimetre), at its own rate while the ball moves (~50 Hz) — a ball at rest has one sample
  where it came to rest and then none until it is struck again. A silence in such data *is* the
  ball at rest, however the ball left its place when the silence ends.

The kind is told by coverage: over the span of its own samples, a ball at rest in ``SPARSE``
data has a few where the source's reporting pace would give hundreds (a ball pocketed early, or
seen late, is no sign; a tracker that marks bridged samples writes every frame); or by a resting silence: a
ball unreported for a while (not bridged by a tracker) and then found where it was; or by reports that thin
out as a ball slows (each a few millimetres to a few centimetres from the last, after silences of several
of the pace's ticks, several in a row: :data:`DISTANCE_RUN`), where a video samples a creeping ball every
frame. The pace is the spacing of a
fast ball's consecutive reports: the 20th percentile of the gaps over all balls (a slowing ball is
reported less often, each centimetre, so the median would be too long).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

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


#: A silence of a ball this long (and this many of the pace's ticks), not bridged by the tracker,
#: after which the ball is found within ``REST_JUMP_MM`` of where it was, is a ball at rest that
#: the source did not report: a video tracker reports a resting ball every frame.
REST_SILENCE_S = 0.25
REST_SILENCE_TICKS = 20.0
REST_JUMP_MM = 5.0


#: A ball reported this many times in a row, each after at least ``DISTANCE_TICKS`` of the pace
#: and each having moved more than ``REST_JUMP_MM`` but at most ``DISTANCE_MAX_MM``, is a ball
#: reported each time it has moved a set distance: a slowing ball, whose reports thin out as it
#: creeps, as a source reporting moves gives them; a video samples a creeping ball every frame.
DISTANCE_RUN = 3
DISTANCE_TICKS = 4.0
DISTANCE_MAX_MM = 60.0


def _reported_by_distance(trajectories: Mapping[BallId, Trajectory], spacing: float) -> tuple[BallId, int] | None:
    """A ball and the length of a run of its reports that only a source reporting moves explains
    (see :data:`DISTANCE_RUN`). Why: a sparse source sampling fast balls at 25 Hz (every 40 ms)
    needs a 0.8 s resting silence (``REST_SILENCE_TICKS``) to be told, and a shot whose balls all
    move to its end has none: the real three-cushion recorder's shot 9 thinned to 25 Hz was read as
    video frames, and the red's last report, 0.5 s after the one before as it crept to a stop, as
    a new shot."""
    for ball, tr in trajectories.items():
        obs = np.flatnonzero(np.asarray(tr.observed, dtype=bool))
        if len(obs) < DISTANCE_RUN + 1:
            continue
        t = np.asarray(tr.t_s)[obs]
        jump = np.hypot(np.diff(np.asarray(tr.x_mm)[obs]), np.diff(np.asarray(tr.y_mm)[obs]))
        hit = (np.diff(t) >= DISTANCE_TICKS * spacing) & (jump > REST_JUMP_MM) & (jump <= DISTANCE_MAX_MM)
        run = best = 0
        for h in hit:
            run = run + 1 if h else 0
            best = max(best, run)
        if best >= DISTANCE_RUN:
            return ball, best
    return None


def _resting_silence(trajectories: Mapping[BallId, Trajectory], spacing: float) -> tuple[BallId, float] | None:
    """A ball and the length of a silence of it that only a source reporting moves explains."""
    need = max(REST_SILENCE_S, REST_SILENCE_TICKS * spacing)
    for ball, tr in trajectories.items():
        obs = np.flatnonzero(np.asarray(tr.observed, dtype=bool))
        if len(obs) < 2:
            continue
        t = np.asarray(tr.t_s)[obs]
        gaps = np.diff(t)
        bridged = np.diff(obs) > 1  # the tracker held the ball through it: hidden, not silent
        jump = np.hypot(np.diff(np.asarray(tr.x_mm)[obs]), np.diff(np.asarray(tr.y_mm)[obs]))
        hit = np.flatnonzero((gaps >= need) & ~bridged & (jump <= REST_JUMP_MM))
        if len(hit):
            return ball, float(gaps[hit[0]])
    return None


def detect_sampling(trajectories: Mapping[BallId, Trajectory]) -> SamplingReport:
    """The sampling of ``trajectories`` (only observed samples count)."""
    gaps: list[np.ndarray] = []
    spans: dict[BallId, tuple[float, float]] = {}
    counts: dict[BallId, int] = {}
    for ball, tr in trajectories.items():
        observed = np.asarray(tr.observed, dtype=bool)
        if len(observed) and not observed.all():
            # a tracker that writes the balls it holds unseen (bridged) writes every frame
            return SamplingReport(Sampling.FRAMES, 0.0, "the tracker marks bridged samples: video frames")
        t = np.asarray(tr.t_s)[observed]
        counts[ball] = len(t)
        if len(t):
            spans[ball] = (float(t[0]), float(t[-1]))
        if len(t) > 1:
            gaps.append(np.diff(t))
    if not gaps or not spans:
        return SamplingReport(Sampling.FRAMES, 0.0, "too few samples to tell the sampling; read as video frames")
    spacing = float(np.percentile(np.concatenate(gaps), PACE_PERCENTILE))
    t0 = min(a for a, _ in spans.values())
    t1 = max(b for _, b in spans.values())
    ticks = (t1 - t0) / spacing if spacing > 0 else 0.0
    if ticks < MIN_TICKS:
        return SamplingReport(Sampling.FRAMES, spacing, f"{ticks:.0f} sample spacings of data: read as video frames")
    # coverage over each ball's own span (a ball pocketed early, or first seen late, is no sign)
    sparse = {
        b: n
        for b, n in counts.items()
        if b in spans
        and (spans[b][1] - spans[b][0]) >= MIN_TICKS * spacing
        and n < SPARSE_COVERAGE * (spans[b][1] - spans[b][0]) / spacing
    }
    rested = _resting_silence(trajectories, spacing)
    if not sparse and rested is not None:
        ball, gap = rested
        return SamplingReport(
            Sampling.SPARSE,
            spacing,
            f"sparse reports (a ball is sampled only while it moves: the {ball.value} went unreported "
            f"{gap:.1f} s and was found where it had been): a silence is a ball at rest",
        )
    by_distance = None if (sparse or rested) else _reported_by_distance(trajectories, spacing)
    if by_distance is not None:
        ball, run = by_distance
        return SamplingReport(
            Sampling.SPARSE,
            spacing,
            f"sparse reports (a ball is sampled only while it moves: the {ball.value} was reported {run + 1} "
            f"times in a row a few mm to a few cm apart, with silences of {DISTANCE_TICKS:.0f} or more of the "
            f"{spacing * 1000:.0f} ms spacing between): a silence is a ball at rest",
        )
    if sparse:
        ball, n = min(sparse.items(), key=lambda kv: kv[1])
        a, b = spans[ball]
        return SamplingReport(
            Sampling.SPARSE,
            spacing,
            f"sparse reports (a ball is sampled only while it moves, every {spacing * 1000:.0f} ms; "
            f"the {ball.value} has {n} samples over {b - a:.1f} s): a silence is a ball at rest",
        )
    return SamplingReport(
        Sampling.FRAMES, spacing, f"every ball sampled about every {spacing * 1000:.0f} ms: read as video frames"
    )
