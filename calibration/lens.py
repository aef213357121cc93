"""The camera model's projection in plain numpy, for solvers that evaluate it thousands of times.

Contract: :func:`project` is the model of :class:`calibration.camera.CameraModel` (and of OpenCV's
``projectPoints`` with distortion ``(k1, k2, 0, 0, 0)``): world → camera ``X_c = R X_w + t``,
normalised ``(x, y) = (X_c/Z_c, Y_c/Z_c)``, radial factor ``1 + k1 r² + k2 r⁴``, pixels
``u = f x d + cx``, ``v = f y d + cy`` (square pixels, ``fx = fy = f``). :func:`undistort` inverts the
radial factor by Newton's method to 1e-12 (OpenCV's ``undistortPoints`` stops after a few fixed-point
steps, which leaves ~0.1 px at the corners of a k1 = -0.15 frame). Kept separate from
``camera.py`` so that the solver's inner loop needs no OpenCV call and no dataclass.
"""

from __future__ import annotations

import numpy as np


def rodrigues(w: np.ndarray) -> np.ndarray:
    """Rotation matrix of the rotation vector ``w`` (axis times angle, radians)."""
    w = np.asarray(w, np.float64).reshape(3)
    th = float(np.linalg.norm(w))
    if th < 1e-12:
        K = np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])
        return np.eye(3) + K
    k = w / th
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * (K @ K)


def rotation_vector(R: np.ndarray) -> np.ndarray:
    """Rotation vector of the rotation matrix ``R`` (inverse of :func:`rodrigues`)."""
    import cv2

    return cv2.Rodrigues(np.asarray(R, np.float64))[0].reshape(3)


def project(
    P_w: np.ndarray, R: np.ndarray, t: np.ndarray, f: float, cx: float, cy: float, k1: float = 0.0, k2: float = 0.0
) -> np.ndarray:
    """(N, 3) world points (mm) → (N, 2) distorted pixels. Points behind the camera get NaN."""
    P = np.asarray(P_w, np.float64).reshape(-1, 3)
    Xc = P @ R.T + np.asarray(t, np.float64).reshape(1, 3)
    z = Xc[:, 2]
    z = np.where(z > 1e-9, z, np.nan)
    x, y = Xc[:, 0] / z, Xc[:, 1] / z
    r2 = x * x + y * y
    d = 1.0 + k1 * r2 + k2 * r2 * r2
    return np.column_stack([f * x * d + cx, f * y * d + cy])


def undistort(u_px: np.ndarray, f: float, cx: float, cy: float, k1: float = 0.0, k2: float = 0.0) -> np.ndarray:
    """(N, 2) distorted pixels → (N, 2) undistorted normalised coordinates (x/z, y/z)."""
    u = np.asarray(u_px, np.float64).reshape(-1, 2)
    xd = (u[:, 0] - cx) / f
    yd = (u[:, 1] - cy) / f
    if k1 == 0.0 and k2 == 0.0:
        return np.column_stack([xd, yd])
    rd = np.hypot(xd, yd)
    ru = rd.copy()
    for _ in range(30):
        r2 = ru * ru
        g = ru * (1 + k1 * r2 + k2 * r2 * r2) - rd
        dg = 1 + 3 * k1 * r2 + 5 * k2 * r2 * r2
        step = g / np.where(np.abs(dg) > 1e-9, dg, 1e-9)
        ru = ru - step
        if np.all(np.abs(step) < 1e-13):
            break
    scale = np.where(rd > 1e-15, ru / np.where(rd > 1e-15, rd, 1.0), 1.0)
    return np.column_stack([xd * scale, yd * scale])


def backproject_to_plane(
    u_px: np.ndarray,
    z_mm: np.ndarray | float,
    R: np.ndarray,
    t: np.ndarray,
    f: float,
    cx: float,
    cy: float,
    k1: float = 0.0,
    k2: float = 0.0,
) -> np.ndarray:
    """(N, 2) distorted pixels → (N, 2) world (x, y) mm where each viewing ray meets z = ``z_mm``."""
    n = undistort(u_px, f, cx, cy, k1, k2)
    rays = np.column_stack([n, np.ones(len(n))]) @ R  # R.T @ ray, row-wise
    C = -R.T @ np.asarray(t, np.float64).reshape(3)
    z = np.broadcast_to(np.asarray(z_mm, np.float64), (len(n),))
    s = (z - C[2]) / rays[:, 2]
    return C[None, :2] + s[:, None] * rays[:, :2]


def project_batch(
    P_w: np.ndarray,
    R: np.ndarray,
    t: np.ndarray,
    f: np.ndarray,
    cx: float,
    cy: float,
    k1: np.ndarray,
    k2: np.ndarray,
) -> np.ndarray:
    """:func:`project` for B cameras at once: points (B, N, 3), ``R`` (B, 3, 3), ``t`` (B, 3),
    ``f``, ``k1``, ``k2`` (B,) → (B, N, 2) distorted pixels (NaN behind the camera)."""
    Xc = np.asarray(P_w, np.float64) @ R.transpose(0, 2, 1) + t[:, None, :]
    z = Xc[..., 2]
    z = np.where(z > 1e-9, z, np.nan)
    x, y = Xc[..., 0] / z, Xc[..., 1] / z
    r2 = x * x + y * y
    d = 1.0 + k1[:, None] * r2 + k2[:, None] * r2 * r2
    return np.stack([f[:, None] * x * d + cx, f[:, None] * y * d + cy], axis=-1)


def rodrigues_batch(w: np.ndarray) -> np.ndarray:
    """:func:`rodrigues` of B rotation vectors (B, 3) → (B, 3, 3)."""
    w = np.asarray(w, np.float64).reshape(-1, 3)
    th = np.linalg.norm(w, axis=1)
    small = th < 1e-12
    k = np.where(small[:, None], w, w / np.where(small, 1.0, th)[:, None])
    K = np.zeros((len(w), 3, 3))
    K[:, 0, 1], K[:, 0, 2] = -k[:, 2], k[:, 1]
    K[:, 1, 0], K[:, 1, 2] = k[:, 2], -k[:, 0]
    K[:, 2, 0], K[:, 2, 1] = -k[:, 1], k[:, 0]
    s = np.where(small, 1.0, np.sin(th))[:, None, None]
    c = np.where(small, 0.0, 1.0 - np.cos(th))[:, None, None]
    return np.eye(3)[None] + s * K + c * (K @ K)
