"""Short polynomial fits of a ball's path, with the uncertainty needed to weigh them.

Between two contacts a ball's centre moves smoothly: straight and decelerating while rolling, on
a gentle curve while it still slides with spin (swerve after a cushion or a collision). Over a
few samples either is a polynomial of degree <= 2 in time, so event times are found where such
fits from both sides of a contact meet. A :class:`PathFit` carries its coefficients, their
covariance and a noise estimate, so a caller can say how far to trust the fitted position or
velocity at any time (the extrapolation to a contact included).

Works on any sampling: the fit is over the given times, never assumes a frame rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class PathFit:
    """``y(t) = sum_k coef[k] * (t - t0_s)**k`` for each of the ``d`` columns of ``coef``.

    ``cov`` is the unscaled covariance of the coefficients, ``sigma_mm`` the per-coordinate
    noise estimate (a prior pooled with the residuals, so few samples do not claim precision),
    ``n`` the samples used (after outlier rejection), ``rms_mm`` their residual RMS,
    ``t_first_s``/``t_last_s`` the span of the data."""

    t0_s: float
    coef: np.ndarray
    cov: np.ndarray
    sigma_mm: float
    n: int
    rms_mm: float
    t_first_s: float
    t_last_s: float
    accel_sd_mm_s2: float = 0.0
    # pos_and_var_at's answers by the times asked (their bytes): a contact's terms share fits and
    # its time search asks each on the same grids (the snooker break's 29153 calls were 7069
    # distinct); read-only arrays, so that no caller changes what another is handed
    _grids: dict[bytes, tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def outside_s(self, t_s: float) -> float:
        """How far ``t_s`` lies outside the span of the data (0 inside)."""
        return max(self.t_first_s - float(t_s), float(t_s) - self.t_last_s, 0.0)

    def extrapolation_mm(self, t_s: float) -> float:
        """Position error one standard deviation of unmodelled acceleration (``accel_sd_mm_s2``:
        deceleration the fit could not see, swerve) builds up by ``t_s`` outside the data."""
        tau = self.outside_s(t_s)
        return 0.5 * self.accel_sd_mm_s2 * tau * tau

    @property
    def deg(self) -> int:
        return int(self.coef.shape[0]) - 1

    def _basis(self, t_s: float, deriv: int = 0) -> np.ndarray:
        tau = float(t_s) - self.t0_s
        p = self.deg + 1
        if deriv == 0:
            return np.array([tau**k for k in range(p)])
        return np.array([k * tau ** (k - 1) if k >= 1 else 0.0 for k in range(p)])

    def pos(self, t_s: float) -> np.ndarray:
        return self._basis(t_s) @ self.coef

    def pos_and_var_at(self, t_s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`pos` (n, dims) and :meth:`pos_var` (n,) at many times at once (a grid search
        evaluates a contact's terms at 33 times: one array operation instead of 33 small ones).
        The same times asked again get the same (read-only) arrays back."""
        ts = np.asarray(t_s, dtype=float).reshape(-1)
        key = ts.tobytes()
        hit = self._grids.get(key)
        if hit is not None:
            return hit
        tau = ts - self.t0_s
        b = np.vander(tau, self.deg + 1, increasing=True)
        pos = b @ self.coef
        var = self.sigma_mm**2 * np.sum((b @ self.cov) * b, axis=1)
        out = np.maximum(np.maximum(self.t_first_s - ts, ts - self.t_last_s), 0.0)
        extrap = 0.5 * self.accel_sd_mm_s2 * out * out
        var = var + extrap**2
        pos.flags.writeable = False
        var.flags.writeable = False
        self._grids[key] = (pos, var)
        return pos, var

    def vel(self, t_s: float) -> np.ndarray:
        return self._basis(t_s, 1) @ self.coef

    def pos_var(self, t_s: float) -> float:
        """Variance (mm^2) of each fitted coordinate at ``t_s``."""
        b = self._basis(t_s)
        return float(self.sigma_mm**2 * (b @ self.cov @ b)) + self.extrapolation_mm(t_s) ** 2

    def vel_var(self, t_s: float) -> float:
        """Variance ((mm/s)^2) of each fitted velocity component at ``t_s``."""
        b = self._basis(t_s, 1)
        return float(self.sigma_mm**2 * (b @ self.cov @ b)) + (self.accel_sd_mm_s2 * self.outside_s(t_s)) ** 2


def _lsq(
    tau: np.ndarray, y: np.ndarray, w: np.ndarray, deg: int, ridge: float = 0.0
) -> tuple[np.ndarray, np.ndarray, float]:
    a = np.vander(tau, deg + 1, increasing=True)
    aw = a * w[:, None]
    m = a.T @ aw
    if deg >= 2 and ridge > 0.0:
        m[2, 2] += ridge
    try:
        cov = np.linalg.inv(m)  # (deg+1)^2, at most 3x3: an SVD (pinv) costs several times more
    except np.linalg.LinAlgError:
        cov = np.linalg.pinv(m)
    coef = cov @ (aw.T @ y)
    r = y - a @ coef
    ssr = float(np.sum(w[:, None] * r * r))
    return coef, cov, ssr


def fit_path(
    t_s: np.ndarray,
    y: np.ndarray,
    *,
    noise_mm: float,
    t0_s: float | None = None,
    weights: np.ndarray | None = None,
    max_deg: int = 2,
    stationary: bool = False,
    outlier_sigmas: float = 4.0,
    curvature_test: float = 6.0,
    accel_sd_mm_s2: float = 0.0,
    accel_prior_mm_s2: float = 0.0,
) -> PathFit:
    """Fit ``y`` ((N,) or (N, d) millimetres) over ``t_s`` (N,) with a polynomial of degree
    <= ``max_deg`` (a constant when ``stationary`` or with one sample; else a line, raised one
    degree while that lowers the squared residuals by more than ``curvature_test`` noise
    variances per coordinate, the noise being the prior ``noise_mm`` pooled with the residuals). Samples whose residual exceeds ``outlier_sigmas`` noise
    are dropped while enough remain. ``t0_s`` is the expansion point (default: last sample);
    ``accel_sd_mm_s2`` the unmodelled acceleration that widens the variance outside the data.
    ``accel_prior_mm_s2`` > 0: no degree choice; with 3 samples or more a quadratic whose
    acceleration has that prior standard deviation (a ridge on the quadratic term, in units of
    the prior noise), so a deceleration too faint to pass the curvature test still bends the
    fit, and its variance says how much that costs."""
    t = np.asarray(t_s, dtype=np.float64).reshape(-1)
    yy = np.asarray(y, dtype=np.float64)
    if yy.ndim == 1:
        yy = yy[:, None]
    n, d = yy.shape
    if n == 0 or len(t) != n:
        raise ValueError(f"fit_path: expected matching non-empty samples, got {len(t)} times and {n} values")
    w = np.ones(n) if weights is None else np.clip(np.asarray(weights, np.float64).reshape(-1), 0.05, 1.0)
    t0 = float(t[-1]) if t0_s is None else float(t0_s)
    keep = np.ones(n, dtype=bool)
    sigma0 = max(float(noise_mm), 1e-3)

    def choose(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, float]:
        # a moving ball's path is never a constant; a higher degree is taken only when it
        # explains the data significantly better (its extrapolation is much noisier)
        tau, ym, wm = t[mask] - t0, yy[mask], w[mask]
        m = int(mask.sum())
        top = 0 if (stationary or m == 1) else min(max_deg, m - 1)
        if accel_prior_mm_s2 > 0.0 and top >= 2 and m >= 3:
            ridge = (sigma0 / (0.5 * accel_prior_mm_s2)) ** 2
            coef, cov, ssr = _lsq(tau, ym, wm, 2, ridge)
            return 2, coef, cov, ssr
        deg = min(top, 1)
        coef, cov, ssr = _lsq(tau, ym, wm, deg)
        while deg < top and m >= deg + 3:
            coef2, cov2, ssr2 = _lsq(tau, ym, wm, deg + 1)
            dof = (m - deg - 1) * d
            s2 = (2.0 * d * sigma0**2 + ssr) / (2.0 * d + dof)
            if (ssr - ssr2) / s2 <= curvature_test * d:
                break
            deg, coef, cov, ssr = deg + 1, coef2, cov2, ssr2
        return deg, coef, cov, ssr

    deg, coef, cov, ssr = choose(keep)
    for _ in range(2):
        m = int(keep.sum())
        if m - (deg + 1) < 2:
            break
        a = np.vander(t - t0, deg + 1, increasing=True)
        r = np.linalg.norm(yy - a @ coef, axis=1)
        r[~keep] = -1.0
        s = math.sqrt(max(ssr / max((m - deg - 1) * d, 1), sigma0**2))
        worst = int(np.argmax(r))
        if r[worst] <= outlier_sigmas * s * math.sqrt(d):
            break
        keep[worst] = False
        deg, coef, cov, ssr = choose(keep)
    m = int(keep.sum())
    dof = max((m - deg - 1) * d, 0)
    nu0 = 2.0 * d
    sigma = math.sqrt((nu0 * sigma0**2 + ssr) / (nu0 + dof))
    rms = math.sqrt(ssr / (m * d)) if m else 0.0
    return PathFit(
        t0_s=t0,
        coef=coef,
        cov=cov,
        sigma_mm=sigma,
        n=m,
        rms_mm=rms,
        t_first_s=float(t[keep][0]),
        t_last_s=float(t[keep][-1]),
        accel_sd_mm_s2=0.0 if stationary else float(accel_sd_mm_s2),
    )
