"""Find the diamonds (sights) on the rails near where a camera predicts them.

Contract: :func:`find_diamonds` looks, around each diamond's predicted pixel, within a disc of
``search_mm`` on the rail (less than half the rail's width, so it cannot reach the cushion or the
floor), for a light dot: the peak of the background-subtracted, lightly smoothed brightness must
stand ``MIN_CONTRAST`` levels and 6 noise-sigmas above the rail's median, and its bright part must
be compact (a dot, not a shirt sleeve or a reflection along the rail). Its position is the
brightness-weighted centroid of that part (the projection of a small disc's centre to well under a
pixel). Each found dot is returned with the diamond it was looked for, so matching is by
prediction; :func:`ransac_inliers` then keeps the matches that one plane homography explains.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.features import diamond_positions, side_frame
from calibration.solve import CameraState, PointObs
from calibration.table import TableSpec

MIN_CONTRAST = 18.0


@dataclass(frozen=True)
class DiamondFinds:
    """Dots found: ``side`` names, ``k`` indices, world points ``P_mm`` at the spec's setback,
    ``shift_dir`` the outward unit vectors (how a change of setback moves them), pixels ``u_px``."""

    side: tuple[str, ...]
    k: tuple[int, ...]
    P_mm: np.ndarray
    shift_dir: np.ndarray
    u_px: np.ndarray

    def as_points(self) -> PointObs:
        return PointObs(self.P_mm, self.shift_dir, self.u_px)

    def subset(self, keep: np.ndarray) -> DiamondFinds:
        idx = np.flatnonzero(keep)
        return DiamondFinds(
            tuple(self.side[i] for i in idx),
            tuple(self.k[i] for i in idx),
            self.P_mm[idx],
            self.shift_dir[idx],
            self.u_px[idx],
        )

    def __len__(self) -> int:
        return len(self.k)


def diamond_world(table: TableSpec, setback_mm: float | None = None) -> list[tuple[str, int, np.ndarray, np.ndarray]]:
    """(side, k, world point (3,), outward (3,)) of every diamond."""
    out = []
    sb = table.diamond_setback_mm if setback_mm is None else setback_mm
    for side, k, s in diamond_positions(table):
        fr = side_frame(table, side)
        P = fr.points(np.array([s]), sb, table.rail_height_mm)[0]
        out.append((side, k, P, np.array([fr.outward[0], fr.outward[1], 0.0])))
    return out


def find_diamonds(gray: np.ndarray, table: TableSpec, state: CameraState, *, search_mm: float = 45.0) -> DiamondFinds:
    """Light dots near every predicted diamond of ``table`` (see the module docstring)."""
    import cv2

    H, W = gray.shape
    sides, ks, Ps, dirs, us = [], [], [], [], []
    for side, k, P0, out in diamond_world(table):
        P = P0 + (state.setback_mm - table.diamond_setback_mm) * out
        tan = np.array([out[1], -out[0], 0.0])
        pts = state.project(np.vstack([P, P + 10.0 * tan, P + 10.0 * out]))
        if not np.all(np.isfinite(pts)):
            continue
        p = pts[0]
        px_per_mm = 0.5 * (np.hypot(*(pts[1] - p)) + np.hypot(*(pts[2] - p))) / 10.0
        r = max(3.0, search_mm * px_per_mm)
        x0, x1 = int(np.floor(p[0] - r)), int(np.ceil(p[0] + r)) + 1
        y0, y1 = int(np.floor(p[1] - r)), int(np.ceil(p[1] + r)) + 1
        if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
            continue
        patch = gray[y0:y1, x0:x1].astype(np.float32)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = (xx - p[0]) ** 2 + (yy - p[1]) ** 2 <= r * r
        vals = patch[disc]
        bg = float(np.median(vals))
        noise = 1.4826 * float(np.median(np.abs(vals - bg))) + 1.0
        dot_r = max(0.8, 6.0 * px_per_mm)  # a diamond is ~10-15 mm across
        sm = cv2.GaussianBlur(patch - bg, (0, 0), max(0.6, 0.5 * dot_r))
        sm = np.where(disc, sm, -np.inf)
        j = int(np.argmax(sm))
        py, px = divmod(j, patch.shape[1])
        peak = float(patch[py, px] - bg)
        if sm.flat[j] < max(MIN_CONTRAST * 0.5, 3.0 * noise) or peak < MIN_CONTRAST:
            continue
        # the bright part connected to the peak, above half its height
        above = ((patch - bg) > 0.5 * float(np.max(np.where(disc, patch - bg, -np.inf)))).astype(np.uint8)
        n, lab = cv2.connectedComponents(above, connectivity=8)
        comp = lab == lab[py, px]
        if lab[py, px] == 0:
            continue
        area = int(comp.sum())
        if area > max(20.0, 9.0 * np.pi * dot_r**2):
            continue  # not a dot
        # weights: the component and its blurred rim the blurred rim: pixels next to the component, above a quarter of the peak
        rim = cv2.dilate(comp.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        wgt = np.where(rim & ((patch - bg) > 0.25 * peak), patch - bg - 0.25 * peak, 0.0)
        sw = float(wgt.sum())
        if sw <= 0:
            continue
        cx = float((wgt * xx).sum() / sw)
        cy = float((wgt * yy).sum() / sw)
        sides.append(side)
        ks.append(k)
        Ps.append(P0)
        dirs.append(out)
        us.append((cx, cy))
    if not us:
        return DiamondFinds((), (), np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 2)))
    return DiamondFinds(tuple(sides), tuple(ks), np.array(Ps), np.array(dirs), np.array(us, np.float64))


def ransac_inliers(finds: DiamondFinds, state: CameraState, table: TableSpec, tol_px: float = 3.0) -> np.ndarray:
    """Matches consistent with one homography of the rail-top plane (after undistortion by ``state``):
    a wrong dot (chalk, a sticker, a hand) cannot be explained with the others."""
    import cv2

    from calibration import lens

    n = len(finds)
    if n < 6:
        return np.ones(n, bool)

    und = lens.undistort(finds.u_px, state.f, state.cx, state.cy, state.k1, state.k2) * state.f
    src = (finds.P_mm + (state.setback_mm - table.diamond_setback_mm) * finds.shift_dir)[:, :2]
    _, mask = cv2.findHomography(
        src.astype(np.float64), und.astype(np.float64), cv2.RANSAC, tol_px, maxIters=2000, confidence=0.999
    )
    if mask is None:
        return np.ones(n, bool)
    return mask.ravel().astype(bool)
