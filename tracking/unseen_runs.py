"""Runs of frames in which a moving ball went unseen on open cloth: the tracking's own measure of
issue 13's "never lose a moving ball on open cloth for more than a frame".

Contract: :func:`moving_unseen_runs` (a video's trajectories, as ``tracks.csv`` holds them, and the
table) -> one :class:`UnseenRun` per run of analysed frames between two observed samples of a ball
that moved across it (seen again at least half a diameter from where it was last seen), away from
the pockets (neither end within a diameter of a drop circle: a ball going in or rattling out is
hidden by the jaws). Bridged and lost samples (not observed) count as unseen; a frame with no
sample of any ball was not analysed (skipped as still: nothing changed near a ball), and does not
count (a 60 fps sample struck at frame 42 after resting from frame 32 was counted as 11 frames
lost when every frame between counted).

:func:`lost_in_tracks_csv`: the runs of more than ``min_frames`` frames in a ``tracks.csv``, what
the benches report (issue 13's target: never more than one frame).

Why here: the real-footage bench (dev broadcast clips), the sample-clip benches and the renders at
25 and 30 fps (``bench/fast_balls.py``) report the same figure, from the same definition. (Not
:mod:`tracking.infer.unseen`, which infers the contacts no path shows.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.table import TableSpec
from tracking.ids import BallId
from tracking.pockets import pocket_zones
from tracking.tracks_csv import read_tracks_csv
from tracking.trajectory import Trajectory

__all__ = ["UnseenRun", "lost_in_tracks_csv", "moving_unseen_runs"]


@dataclass(frozen=True)
class UnseenRun:
    """``ball`` unseen for ``frames`` frames after its observed sample at ``last_seen_frame``."""

    ball: BallId
    last_seen_frame: int
    frames: int

    def __str__(self) -> str:
        """As the benches' tables write it: ``cue@30: 4``."""
        return f"{self.ball.value}@{self.last_seen_frame}: {self.frames}"


def moving_unseen_runs(trajectories: Mapping[BallId, Trajectory], table: TableSpec) -> list[UnseenRun]:
    """See the module docstring."""
    zones = pocket_zones(table)
    D = table.ball_diameter_mm
    analysed = np.unique(np.concatenate([np.asarray(tr.frame) for tr in trajectories.values()] or [np.zeros(0, int)]))
    out = []
    for ball, tr in trajectories.items():
        seen = np.flatnonzero(tr.observed)
        for i, k in zip(seen, seen[1:]):
            lo, hi = int(tr.frame[i]), int(tr.frame[k])
            n = int(np.searchsorted(analysed, hi) - np.searchsorted(analysed, lo, side="right"))
            a, b = (float(tr.x_mm[i]), float(tr.y_mm[i])), (float(tr.x_mm[k]), float(tr.y_mm[k]))
            if n < 1 or math.dist(a, b) < 0.5 * D:
                continue
            if any(z.distance_mm(p) < z.drop_mm + D for p in (a, b) for z in zones):
                continue
            out.append(UnseenRun(ball, int(tr.frame[i]), n))
    return out


def lost_in_tracks_csv(tracks_csv: Path, table: TableSpec, min_frames: int = 2) -> list[UnseenRun]:
    """The runs of :func:`moving_unseen_runs` of at least ``min_frames`` frames in ``tracks_csv``
    (default: more than one frame, the figure the benches report)."""
    return [r for r in moving_unseen_runs(read_tracks_csv(tracks_csv), table) if r.frames >= min_frames]
