"""Has the camera moved? The table's outline, where the calibration puts it, against the image.

Contract: :class:`CameraCheck` projects the playing surface's outline (the cushion noses) with the
camera model and samples the image's grey-level gradient across it: at each of a few hundred points
on the outline, along the line's normal over ±``search_px``, it finds where the gradient is
strongest. ``agreement`` is the share of points whose strongest edge lies within ``near_px`` of the
projected line, on the side (of the four) that agrees least: a sideways shift moves only the two
sides across it. The first check (right after calibration) is the reference; a later check whose
agreement falls below ``ratio`` × the reference says the camera moved, but only when
``confirm`` checks in a row say so (a player's arm over a cushion lasts a moment, a moved camera
stays moved).

Why the outline: it is what the calibration was solved from and the strongest long edge in the
frame, so a shift of a few pixels shows at once, while the balls (inside it) do not disturb it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec

__all__ = ["CameraCheck", "CheckResult"]


@dataclass(frozen=True)
class CheckResult:
    agreement: float
    reference: float
    moved: bool


class CameraCheck:
    """See the module docstring."""

    def __init__(
        self,
        camera: CameraModel,
        table: TableSpec,
        *,
        step_mm: float = 20.0,
        search_px: int = 12,
        near_px: float = 3.0,
        ratio: float = 0.6,
        confirm: int = 2,
    ) -> None:
        self.search_px = search_px
        self.near_px = near_px
        self.ratio = ratio
        self.confirm = confirm
        corners = np.array(table.nose_corners_mm(), dtype=np.float64)
        pts: list[np.ndarray] = []
        normals: list[np.ndarray] = []
        sides: list[np.ndarray] = []
        for k, (a, b) in enumerate(zip(corners, np.roll(corners, -1, axis=0))):
            n = max(2, int(np.linalg.norm(b[:2] - a[:2]) / step_mm))
            s = np.linspace(0.05, 0.95, n)[:, None]  # away from the corners (pockets, rail joints)
            seg = a[None, :] * (1 - s) + b[None, :] * s
            px = camera.project(seg)
            d = camera.project(b[None, :])[0] - camera.project(a[None, :])[0]
            nrm = np.array([-d[1], d[0]]) / (np.hypot(*d) or 1.0)
            pts.append(px)
            sides.append(np.full(len(px), k))
            normals.append(np.repeat(nrm[None, :], len(px), axis=0))
        self._pts = np.concatenate(pts)
        self._nrm = np.concatenate(normals)
        self._side = np.concatenate(sides)
        self.reference: float | None = None
        self._streak = 0

    def agreement(self, image_bgr: np.ndarray) -> float:
        """The share of outline points with their strongest edge on the projected line (the least
        of the four sides' shares)."""
        grey: np.ndarray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
        grey = cv2.GaussianBlur(grey, (5, 5), 0)
        h, w = grey.shape
        offs = np.arange(-self.search_px, self.search_px + 1, dtype=np.float64)
        xs = self._pts[:, None, 0] + offs[None, :] * self._nrm[:, None, 0]
        ys = self._pts[:, None, 1] + offs[None, :] * self._nrm[:, None, 1]
        inside = (xs >= 1) & (xs < w - 1) & (ys >= 1) & (ys < h - 1)
        ok_rows = inside.all(axis=1)
        if not ok_rows.any():
            return 0.0
        xs, ys = xs[ok_rows], ys[ok_rows]
        prof = cv2.remap(grey, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR)
        grad = np.abs(np.diff(prof, axis=1))
        best = np.argmax(grad, axis=1) + 0.5 - self.search_px
        hit = np.abs(best) <= self.near_px
        side = self._side[ok_rows]
        return float(min(hit[side == k].mean() for k in np.unique(side)))

    def check(self, image_bgr: np.ndarray) -> CheckResult:
        """One check; the first sets the reference."""
        a = self.agreement(image_bgr)
        if self.reference is None:
            self.reference = a
        low = a < self.ratio * self.reference
        self._streak = self._streak + 1 if low else 0
        return CheckResult(a, self.reference, self._streak >= self.confirm)
