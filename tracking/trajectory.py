"""One ball's path through a clip: the value the tracker produces and event inference consumes.

A :class:`Trajectory` holds parallel numpy arrays, one entry per sample, in time order:

- ``t_s`` seconds from the start of the source, strictly increasing (any sampling: a video's
  frames, or another tracking system's irregular reports);
- ``frame`` the video frame of the sample (for data that has no frames, the index of the sample
  in its source, see :mod:`tracking.tracks_csv`);
- ``x_mm``, ``y_mm`` the ball centre in the table frame (DESIGN.md);
- ``observed`` False where the tracker did not see the ball and the position is its bridge over
  the gap (held or predicted), so that consumers can tell a measurement from a guess;
- ``confidence`` 0..1 of the sample (the detection's, lowered while bridged).

Arrays are made read-only so a trajectory can be shared between stages without copies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from common.errors import TabletrackError
from tracking.ids import BallId


class TrajectoryError(TabletrackError):
    """Arrays that cannot form a trajectory (lengths differ, time not increasing, not finite)."""


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Trajectory:
    """One ball's samples (see the module docstring for the meaning of each array)."""

    ball: BallId
    t_s: np.ndarray
    frame: np.ndarray
    x_mm: np.ndarray
    y_mm: np.ndarray
    observed: np.ndarray
    confidence: np.ndarray

    def __post_init__(self) -> None:
        arrays = {
            "t_s": np.asarray(self.t_s, dtype=np.float64).reshape(-1),
            "frame": np.asarray(self.frame, dtype=np.int64).reshape(-1),
            "x_mm": np.asarray(self.x_mm, dtype=np.float64).reshape(-1),
            "y_mm": np.asarray(self.y_mm, dtype=np.float64).reshape(-1),
            "observed": np.asarray(self.observed, dtype=bool).reshape(-1),
            "confidence": np.asarray(self.confidence, dtype=np.float64).reshape(-1),
        }
        n = len(arrays["t_s"])
        bad = [f"{k} {len(v)}" for k, v in arrays.items() if len(v) != n]
        if bad:
            raise TrajectoryError(
                f"trajectory of {self.ball.value}: every array must have {n} samples like t_s, got {', '.join(bad)}"
            )
        for k in ("t_s", "x_mm", "y_mm", "confidence"):
            if not np.all(np.isfinite(arrays[k])):
                raise TrajectoryError(f"trajectory of {self.ball.value}: {k} must be finite")
        if n > 1 and not np.all(np.diff(arrays["t_s"]) > 0):
            i = int(np.argmax(np.diff(arrays["t_s"]) <= 0))
            raise TrajectoryError(
                f"trajectory of {self.ball.value}: t_s must increase strictly, sample {i + 1} has "
                f"t={arrays['t_s'][i + 1]!r} after t={arrays['t_s'][i]!r}"
            )
        for k, v in arrays.items():
            object.__setattr__(self, k, _frozen(v))

    @staticmethod
    def from_samples(
        ball: BallId,
        t_s: Sequence[float] | np.ndarray,
        x_mm: Sequence[float] | np.ndarray,
        y_mm: Sequence[float] | np.ndarray,
        frame: Sequence[int] | np.ndarray | None = None,
        observed: Sequence[bool] | np.ndarray | None = None,
        confidence: Sequence[float] | np.ndarray | None = None,
    ) -> Trajectory:
        """A trajectory from plain sequences; ``frame`` defaults to the sample index, every sample
        observed with confidence 1."""
        n = len(t_s)
        return Trajectory(
            ball=ball,
            t_s=np.asarray(t_s, dtype=np.float64),
            frame=np.arange(n) if frame is None else np.asarray(frame),
            x_mm=np.asarray(x_mm, dtype=np.float64),
            y_mm=np.asarray(y_mm, dtype=np.float64),
            observed=np.ones(n, bool) if observed is None else np.asarray(observed, bool),
            confidence=np.ones(n) if confidence is None else np.asarray(confidence, np.float64),
        )

    def __len__(self) -> int:
        return int(self.t_s.shape[0])

    @property
    def xy_mm(self) -> np.ndarray:
        """(N, 2) centres."""
        return np.stack([self.x_mm, self.y_mm], axis=1)

    def select(self, mask: np.ndarray) -> Trajectory:
        """The samples where ``mask`` (bool, N) is True."""
        m = np.asarray(mask, dtype=bool)
        return Trajectory(
            self.ball, self.t_s[m], self.frame[m], self.x_mm[m], self.y_mm[m], self.observed[m], self.confidence[m]
        )

    def window(self, t0_s: float, t1_s: float) -> Trajectory:
        """The samples with ``t0_s <= t_s <= t1_s``."""
        return self.select((self.t_s >= t0_s) & (self.t_s <= t1_s))

    def observed_only(self) -> Trajectory:
        return self.select(self.observed)


def as_trajectory_map(trajectories: Mapping[BallId, Trajectory] | Iterable[Trajectory]) -> dict[BallId, Trajectory]:
    """``{ball: trajectory}`` from a mapping or a sequence of trajectories (one per ball)."""
    items = list(trajectories.values()) if isinstance(trajectories, Mapping) else list(trajectories)
    out: dict[BallId, Trajectory] = {}
    for tr in items:
        if not isinstance(tr, Trajectory):
            raise TrajectoryError(f"expected Trajectory values, got {type(tr).__name__}")
        if tr.ball in out:
            raise TrajectoryError(f"two trajectories for ball {tr.ball.value}")
        out[tr.ball] = tr
    return out
