"""What the classifier said of a ball's crop, kept so that an unchanged crop is not classified again.

Contract: :class:`CropMemo` keeps, for recent classifications, the crop's centre and radius as
asked (view px), the refinement asked for, the crop itself (uint8, as read at that centre), the
classifier's logits and the centre it ended at. :meth:`CropMemo.lookup` takes a new request
(centre, radius, refinement) and a function that reads the view's crop at any centre; it answers
with the kept logits and centre when a kept entry was asked within ``near_px`` of the request, with
the same radius and refinement (or one that *ended* within ``near_px`` of it: a resting ball is
followed at its last centre), and the view's crop read *at that entry's centre* (the same
sampling) differs from the kept crop by at most ``max_grey`` grey levels in every pixel and
channel; otherwise None. :meth:`CropMemo.store` adds an entry;
at most ``capacity`` are kept, the oldest dropped first.

Why: while a shot runs, most balls on a pool or snooker table rest, and the guided detector
(:mod:`vision.guided`) classifies each at its last centre on every frame: on the snooker break
sample 87 % of its crops were of balls at rest, and the classifier is the detector's largest
cost. The same pixels give the same answer, so the answer is taken from here; a change in the
crop beyond sensor and compression noise misses and is classified afresh: a ball that starts to
move changes its edge pixels by ~150 grey levels a pixel of motion, so ``max_grey`` 8 holds a
centre still by at most ~0.05 px (0.1 mm at 0.5 px/mm); a cue tip or another ball entering the
crop changes it by far more. The answer kept is the crop's: the ball's identity and the centre
the regression ended at, as good as the frame it was read on; a resting ball's centre then holds
still instead of wandering by the regression's hundredths of a pixel. Measured (pipeline's
settings, ``near_px`` a tenth of a radius): snooker break sample 4784 of 9283 crops answered
here, classifier time 3.55 -> 2.77 s; real nine-ball broadcast Clip12 (25 fps, its break) 518 of
3155, the rest changed (balls moving, broadcast noise).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["CropMemo", "MemoHit"]


@dataclass(frozen=True)
class MemoHit:
    """A kept answer: the classifier's logits (n,) and the centre (view px) it ended at."""

    logits: np.ndarray
    u_px: float
    v_px: float


@dataclass(frozen=True)
class _Entry:
    u_px: float
    v_px: float
    r_px: float
    refine: int
    crop: np.ndarray
    logits: np.ndarray
    u_out_px: float
    v_out_px: float


class CropMemo:
    """See the module docstring. ``near_px``: how far (view px) a request may lie from an entry's
    centre; ``max_grey``: the largest per-pixel change of the crop that is still noise;
    ``capacity``: entries kept (a snooker table's 22 balls a frame, several frames)."""

    def __init__(self, near_px: float = 0.1, max_grey: int = 8, capacity: int = 128) -> None:
        if near_px <= 0 or max_grey < 0 or capacity < 1:
            raise ValueError(
                f"crop memo: expected near_px > 0, max_grey >= 0 and capacity >= 1, got {near_px}, {max_grey}, {capacity}"
            )
        self.near_px, self.max_grey, self.capacity = float(near_px), int(max_grey), int(capacity)
        self._entries: list[_Entry] = []  # oldest first
        self._arrays: np.ndarray | None = None  # (k, 6): asked u, v, ended u, v, radius, refine
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def _nearest(self, u_px: float, v_px: float, r_px: float, refine: int) -> int | None:
        """The newest entry asked, or ended, within ``near_px`` of (``u_px``, ``v_px``), with the
        same radius and refinement (a resting ball followed by its last centre is asked where the
        entry ended); a newer entry there supersedes the older ones."""
        if not self._entries:
            return None
        if self._arrays is None:
            self._arrays = np.array([(e.u_px, e.v_px, e.u_out_px, e.v_out_px, e.r_px, e.refine) for e in self._entries])
        a = self._arrays
        d = np.minimum(np.hypot(a[:, 0] - u_px, a[:, 1] - v_px), np.hypot(a[:, 2] - u_px, a[:, 3] - v_px))
        d[(np.abs(a[:, 4] - r_px) > 1e-9) | (a[:, 5] != refine)] = np.inf
        near = np.flatnonzero(d <= self.near_px)
        return int(near[-1]) if len(near) else None

    def lookup(
        self, u_px: float, v_px: float, r_px: float, refine: int, read_crop: Callable[[float, float], np.ndarray]
    ) -> MemoHit | None:
        """The kept answer for a crop asked at (``u_px``, ``v_px``) of radius ``r_px`` with
        ``refine`` re-crops, or None (see the module docstring); ``read_crop(u, v)`` reads the
        view's crop at a centre."""
        k = self._nearest(u_px, v_px, r_px, refine)
        if k is None:
            self.misses += 1
            return None
        e = self._entries[k]
        now = read_crop(e.u_px, e.v_px)
        if now.shape != e.crop.shape or int(np.abs(now.astype(np.int16) - e.crop).max()) > self.max_grey:
            self.misses += 1
            return None
        self.hits += 1
        return MemoHit(e.logits, e.u_out_px, e.v_out_px)

    def store(
        self,
        u_px: float,
        v_px: float,
        r_px: float,
        refine: int,
        crop: np.ndarray,
        logits: np.ndarray,
        u_out_px: float,
        v_out_px: float,
    ) -> None:
        """Keep the answer for the crop ``crop`` read at (``u_px``, ``v_px``): its ``logits`` and
        the centre it ended at (newest last: it supersedes older entries near it)."""
        self._entries.append(
            _Entry(
                float(u_px),
                float(v_px),
                float(r_px),
                int(refine),
                crop.astype(np.int16),
                np.array(logits, np.float64),
                float(u_out_px),
                float(v_out_px),
            )
        )
        if len(self._entries) > self.capacity:
            del self._entries[0]
        self._arrays = None
