"""Connected components of a sparse binary mask, found band by band.

Contract: :func:`sparse_components` gives what ``cv2.connectedComponentsWithStats`` gives (8- or
4-connectivity) without the background: each component's stats (x, y, width, height, area in
pixels), in the same order (the raster order of each component's first pixel), and each
component's pixels within any window (:meth:`Components.pixels`).

Why: OpenCV's pass costs the same for an empty mask as for a full one (a 725x370 half-resolution
table view: 0.9-1.7 ms on this machine, against 0.04 ms for tracing the same mask's contours),
and a mask of balls on a cloth is nearly all empty rows. No component crosses a row without a set
pixel, so the mask is cut into bands of set rows (bands fewer than ``merge_gap_rows`` apart are
taken together, so that scattered specks do not make many small calls) and each band is labelled
on its own: the same components, and, bands running top to bottom, the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Components", "sparse_components"]


@dataclass(frozen=True)
class Components:
    """``stats`` (n, 5) int32: x, y, width, height, area (pixels) of each component in the mask's
    coordinates; ``bands`` the label images of the bands (0: background) with their first row;
    ``where`` (n, 2): each component's band and label in it."""

    stats: np.ndarray
    bands: tuple[tuple[int, np.ndarray], ...]
    where: np.ndarray

    def __len__(self) -> int:
        return len(self.stats)

    def pixels(self, k: int, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """Boolean (y1 - y0, x1 - x0): which pixels of the window [y0:y1, x0:x1] belong to
        component ``k`` (the window lies within the mask)."""
        band, label = (int(v) for v in self.where[k])
        r0, lab = self.bands[band]
        out = np.zeros((y1 - y0, x1 - x0), bool)
        a, b = max(y0, r0), min(y1, r0 + lab.shape[0])
        if a < b:
            out[a - y0 : b - y0] = lab[a - r0 : b - r0, x0:x1] == label
        return out


def _row_bands(mask: np.ndarray, merge_gap_rows: int) -> list[tuple[int, int]]:
    """[start, stop) of the runs of rows with a set pixel, runs fewer than ``merge_gap_rows`` empty
    rows apart merged."""
    rows = np.flatnonzero(mask.any(axis=1))
    if not len(rows):
        return []
    cut = np.flatnonzero(np.diff(rows) > merge_gap_rows + 1)
    starts = np.concatenate([[rows[0]], rows[cut + 1]])
    stops = np.concatenate([rows[cut] + 1, [rows[-1] + 1]])
    return [(int(a), int(b)) for a, b in zip(starts, stops)]


def sparse_components(mask: np.ndarray, connectivity: int = 8, merge_gap_rows: int = 16) -> Components:
    """The components of the uint8 ``mask`` (non-zero: set), as described in the module docstring."""
    m = np.asarray(mask)
    if m.ndim != 2 or m.dtype != np.uint8:
        raise ValueError(f"sparse_components: expected a 2-D uint8 mask, got {m.dtype} of shape {m.shape}")
    stats: list[np.ndarray] = []
    where: list[np.ndarray] = []
    bands: list[tuple[int, np.ndarray]] = []
    for r0, r1 in _row_bands(m, merge_gap_rows):
        n, lab, st, _ = cv2.connectedComponentsWithStats(m[r0:r1], connectivity=connectivity)
        if n <= 1:
            continue
        st = st[1:].copy()
        st[:, cv2.CC_STAT_TOP] += r0
        stats.append(st)
        where.append(np.column_stack([np.full(n - 1, len(bands)), np.arange(1, n)]))
        bands.append((r0, lab))
    if not stats:
        return Components(np.zeros((0, 5), np.int32), (), np.zeros((0, 2), np.int64))
    return Components(np.concatenate(stats).astype(np.int32), tuple(bands), np.concatenate(where))
