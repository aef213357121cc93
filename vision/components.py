"""Connected components of a sparse binary mask, found band by band.

Contract: :func:`sparse_components` gives what ``cv2.connectedComponentsWithStats`` gives (8- or
4-connectivity) without the background: each component's stats (x, y, width, height, area in
pixels), in the same order (the raster order of each component's first pixel), and each
component's pixels within any window (:meth:`Components.pixels`).

Why: OpenCV's pass costs the same for an empty mask as for a full one (a 725x370 half-resolution
table view: 0.9-1.7 ms on this machine, against 0.04 ms for tracing the same mask's contours),
and a mask of balls on a cloth is nearly all empty rows and columns. No component crosses a row
without a set pixel, so the mask is cut into bands of set rows, and no component crosses a
column of a band without one, so each band is cut into blocks of set columns (runs fewer than
``merge_gap_rows`` apart are taken together, so that scattered specks do not make many small
calls); each block is labelled on its own (a hand's blob and a ball beside it in a 725-pixel
band: 0.49 ms whole, 0.13 ms cut): the same components, put back in OpenCV's order.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Components", "sparse_components"]


@dataclass(frozen=True)
class Components:
    """``stats`` (n, 5) int32: x, y, width, height, area (pixels) of each component in the mask's
    coordinates; ``bands`` the label images of the blocks (0: background) with their first row
    and column; ``where`` (n, 2): each component's block and label in it."""

    stats: np.ndarray
    bands: tuple[tuple[int, int, np.ndarray], ...]
    where: np.ndarray

    def __len__(self) -> int:
        return len(self.stats)

    def pixels(self, k: int, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """Boolean (y1 - y0, x1 - x0): which pixels of the window [y0:y1, x0:x1] belong to
        component ``k`` (the window lies within the mask)."""
        band, label = (int(v) for v in self.where[k])
        r0, c0, lab = self.bands[band]
        out = np.zeros((y1 - y0, x1 - x0), bool)
        a, b = max(y0, r0), min(y1, r0 + lab.shape[0])
        c, d = max(x0, c0), min(x1, c0 + lab.shape[1])
        if a < b and c < d:
            out[a - y0 : b - y0, c - x0 : d - x0] = lab[a - r0 : b - r0, c - c0 : d - c0] == label
        return out


def _runs(set_at: np.ndarray, merge_gap: int) -> list[tuple[int, int]]:
    """[start, stop) of the runs of True in ``set_at``, runs fewer than ``merge_gap`` False
    entries apart merged."""
    idx = np.flatnonzero(set_at)
    if not len(idx):
        return []
    cut = np.flatnonzero(np.diff(idx) > merge_gap + 1)
    starts = np.concatenate([[idx[0]], idx[cut + 1]])
    stops = np.concatenate([idx[cut] + 1, [idx[-1] + 1]])
    return [(int(a), int(b)) for a, b in zip(starts, stops)]


def _first(lab: np.ndarray, label: int, st: np.ndarray, r0: int, c0: int, connectivity: int) -> tuple[int, int]:
    """Where OpenCV's labelling of the whole mask meets component ``label`` of a block (first row
    ``r0``, column ``c0``) first, the key its labels are ordered by: with 4-connectivity its
    first pixel in raster order (row, column); with 8-connectivity OpenCV scans 2x2 blocks of
    the whole mask, rows paired from row 0, so the first such block (block row, block column)."""
    x, y = int(st[cv2.CC_STAT_LEFT]), int(st[cv2.CC_STAT_TOP])
    if connectivity == 4:
        return y + r0, c0 + x + int(np.argmax(lab[y, x:] == label))
    top = y + r0
    rows = lab[y : y + 2 if top % 2 == 0 else y + 1, x:] == label  # the component's part of its top block row
    return top // 2, (c0 + x + int(np.argmax(rows.any(axis=0)))) // 2


def sparse_components(mask: np.ndarray, connectivity: int = 8, merge_gap_rows: int = 16) -> Components:
    """The components of the uint8 ``mask`` (non-zero: set), as described in the module docstring."""
    m = np.asarray(mask)
    if m.ndim != 2 or m.dtype != np.uint8:
        raise ValueError(f"sparse_components: expected a 2-D uint8 mask, got {m.dtype} of shape {m.shape}")
    found: list[tuple[int, int, int, int, np.ndarray]] = []  # OpenCV's order key (2), block, label, stats
    blocks: list[tuple[int, int, np.ndarray]] = []
    for r0, r1 in _runs(np.asarray(m.any(axis=1)), merge_gap_rows):
        band = m[r0:r1]
        for c0, c1 in _runs(np.asarray(band.any(axis=0)), merge_gap_rows):
            n, lab, st, _ = cv2.connectedComponentsWithStats(band[:, c0:c1], connectivity=connectivity)
            if n <= 1:
                continue
            for label in range(1, n):
                row = st[label].copy()
                row[cv2.CC_STAT_LEFT] += c0
                row[cv2.CC_STAT_TOP] += r0
                found.append((*_first(lab, label, st[label], r0, c0, connectivity), len(blocks), label, row))
            blocks.append((r0, c0, lab))
    if not found:
        return Components(np.zeros((0, 5), np.int32), (), np.zeros((0, 2), np.int64))
    found.sort(key=lambda f: (f[0], f[1]))  # OpenCV's order (see _first)
    return Components(
        np.array([f[4] for f in found], np.int32),
        tuple(blocks),
        np.array([(f[2], f[3]) for f in found], np.int64),
    )
