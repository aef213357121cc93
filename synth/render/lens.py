"""Viewing rays of the pixels of the *distorted* frame, by exact inversion of the radial lens model.

Contract: :func:`pixel_rays` gives, for pixel coordinates ``(u, v)`` of the final (distorted) image,
the world-frame direction ``d`` of the ray through them, scaled so that its camera-z component is 1
(so a ray parameter ``t`` is the depth along the optical axis). A world point ``X`` that
:meth:`calibration.camera.CameraModel.project` sends to ``(u, v)`` lies on ``C + t d`` to within
1e-9 in normalised coordinates (a millionth of a pixel).

Why rays rather than "render the ideal pinhole image and ``cv2.remap`` it": the remap approach
resamples the whole frame once more (a half-pixel blur of every edge) and needs a canvas larger
than the frame for barrel distortion; casting the exact distorted ray of each pixel draws every
surface and every ball silhouette directly where the lens puts it, with no resampling, and costs
the same precomputed per-pixel table (this *is* the remap map, in world directions). Pixel centres
are at integer coordinates, as in OpenCV's ``projectPoints``.
"""

from __future__ import annotations

import numpy as np

from calibration.camera import CameraModel
from common.errors import TabletrackError


class LensModelError(TabletrackError):
    """The radial model folds back (not invertible) inside the frame."""


def undistort_normalised(xd: np.ndarray, yd: np.ndarray, k1: float, k2: float) -> tuple[np.ndarray, np.ndarray]:
    """Distorted normalised coordinates → ideal ones, inverting ``r_d = r (1 + k1 r² + k2 r⁴)``.

    The radius map is one-dimensional, so it is tabulated densely once, inverted by interpolation
    and polished by two Newton steps (residual checked below 1e-9, a millionth of a pixel).
    Raises :class:`LensModelError` where the model is not monotonic up to the largest radius asked
    for (a lens that folds the image back has no inverse there)."""
    xd = np.asarray(xd, dtype=np.float64)
    yd = np.asarray(yd, dtype=np.float64)
    if k1 == 0.0 and k2 == 0.0:
        return xd.copy(), yd.copy()
    rd = np.hypot(xd, yd)
    rd_max = float(rd.max()) if rd.size else 0.0
    # tabulate the forward map far enough to cover rd_max
    r_hi = max(rd_max, 1e-6) * 1.5 + 0.1
    r_tab = np.linspace(0.0, r_hi, 20001)
    r2 = r_tab * r_tab
    rd_tab = r_tab * (1.0 + k1 * r2 + k2 * r2 * r2)
    slope = 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2
    bad = np.nonzero(slope <= 0.0)[0]
    reach = rd_tab[bad[0]] if len(bad) else rd_tab[-1]
    if rd_max >= reach:
        raise LensModelError(
            f"lens k1={k1}, k2={k2}: expected a radial model that is monotonic over the frame, "
            f"but it folds back at distorted radius {float(reach):.3f} < {rd_max:.3f} (normalised)"
        )
    n_ok = bad[0] if len(bad) else len(r_tab)
    r = np.interp(rd, rd_tab[:n_ok], r_tab[:n_ok])
    for _ in range(2):
        r2 = r * r
        f = r * (1.0 + k1 * r2 + k2 * r2 * r2) - rd
        r = r - f / (1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2)
    r2 = r * r
    resid = np.abs(r * (1.0 + k1 * r2 + k2 * r2 * r2) - rd)
    if resid.size and float(resid.max()) > 1e-9:
        raise LensModelError(
            f"lens k1={k1}, k2={k2}: undistortion did not converge "
            f"(residual {float(resid.max()):.2e} in normalised units)"
        )
    scale = np.divide(r, rd, out=np.ones_like(rd), where=rd > 0)
    return xd * scale, yd * scale


def pixel_rays(camera: CameraModel, u_px: np.ndarray, v_px: np.ndarray) -> np.ndarray:
    """World directions (..., 3) of the rays through distorted pixels ``(u_px, v_px)``, camera-z = 1."""
    xd = (np.asarray(u_px, np.float64) - camera.cx) / camera.fx
    yd = (np.asarray(v_px, np.float64) - camera.cy) / camera.fy
    xu, yu = undistort_normalised(xd, yd, camera.k1, camera.k2)
    cam = np.stack([xu, yu, np.ones_like(xu)], axis=-1)
    return cam @ camera.R  # row-wise R.T @ ray


def sample_offsets(n: int) -> np.ndarray:
    """(n², 2) sub-pixel sample offsets of an n x n grid rotated by atan(1/n) about the pixel
    centre: every sample has its own row and column, so near-horizontal and near-vertical edges
    get n² grey levels (a plain n x n grid gives them only n + 1)."""
    if int(n) < 1:
        raise ValueError(f"supersample: expected an integer >= 1, got {n!r}")
    n = int(n)
    g = (np.arange(n) + 0.5) / n - 0.5
    gx, gy = np.meshgrid(g, g)
    th = np.arctan2(1.0, n) if n > 1 else 0.0
    c, s_ = np.cos(th), np.sin(th)
    return np.column_stack([c * gx.ravel() - s_ * gy.ravel(), s_ * gx.ravel() + c * gy.ravel()])


def frame_rays(camera: CameraModel, rows: slice | None = None, supersample: int = 1) -> np.ndarray:
    """Rays of the frame's pixels (rows ``rows``, all columns): shape (h, W, S, 3) float32 with
    S = supersample² samples per pixel at :func:`sample_offsets`, or (h, W, 3) when supersample is 1
    (the ray of each pixel centre)."""
    r0, r1, _ = (rows or slice(0, camera.image_h_px)).indices(camera.image_h_px)
    offs = sample_offsets(supersample)
    v, u = np.mgrid[r0:r1, 0 : camera.image_w_px].astype(np.float64)
    uu = u[..., None] + offs[None, None, :, 0]
    vv = v[..., None] + offs[None, None, :, 1]
    d = pixel_rays(camera, uu, vv).astype(np.float32)
    return d[:, :, 0, :] if supersample == 1 else d
