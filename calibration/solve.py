"""Solve the camera model from the table's edges and points: a start from four corners, then a robust
least-squares refinement of everything together.

Unknowns: the focal length ``f`` (px, square pixels), the pose (rotation, translation), radial ``k1``
(and ``k2`` on request), and, on request, where each side's lines really lie: a small outward
offset of each side's nose line (prior ± :data:`NOSE_SIGMA_MM`), each side's cloth/wood edge
offset (prior: the spec's cushion width ± :data:`CUSHION_SIGMA_MM`) and the diamonds' setback
(± :data:`SETBACK_SIGMA_MM`). These absorb what shifts a whole line without bending it: a real
table's cushion width, the look of a rubber nose under the lamps (a highlight or a shadow line
moves the visible edge by a millimetre), JPEG/H.264 chroma subsampling (a quarter pixel on a colour
edge). What they leave to the lines is their shape (straightness for ``k1``, convergence for the
pose); the frame itself is then held by the diamonds, which sit at exact fractions of the playing
length (RFEB ART 2) and whose centroids no edge appearance biases, and, without diamonds, by the
nose lines within their prior. The principal point is held at the image centre: from a single view
of one plane it cannot be told apart from a small rotation, and the mapping of the table is what
matters here.

Observations: *edge points* (a pixel found on the image of a straight world line: residual = its
distance to the projected, distorted line, so the lines' straightness is what fixes ``k1``) and
*points* (a pixel and the world point it shows: diamonds, or hand-given corners).

The focal prior, and why: from a near-overhead view of a plane, focal length and camera distance
trade against each other (the fronto-parallel degeneracy): the table's image fixes ``f / distance``
well but ``f`` itself only through the perspective, which vanishes as the view becomes vertical.
Yet the ball-height parallax depends on the camera's height. The solver therefore adds one more
residual, ``log(height / prior_height) / rel_sigma``, a log-normal prior on the camera's height
above the cloth (default :data:`DEFAULT_HEIGHT_MM` ± :data:`DEFAULT_HEIGHT_REL_SIGMA`: hall cameras
hang 3-4.5 m above the cloth, and 3.6 m is where ``1/H`` is midway between the two ends, so that
the parallax error at either end is the same). Where the view has perspective, the data outweigh it; where it has none,
it picks the height. Because every feature the camera is fitted to stands 37-45 mm above the cloth
and the ball centres stand 30.75 mm above it, a wrong height moves a ball by only about
``Δz · d · |1/H - 1/H'|`` (Δz ≈ 10 mm, d its distance from the camera's nadir): below 1 mm at the
table's corners for any true height within 3-4.5 m (measured in ``tests/calibration``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from calibration import lens
from calibration._vec import floats4
from calibration.features import OPPOSITE_SIDE, SIDES, side_frame
from calibration.table import TableSpec
from common.errors import TabletrackError

DEFAULT_HEIGHT_MM = 3600.0
DEFAULT_HEIGHT_REL_SIGMA = 0.20
NOSE_SIGMA_MM = 3.0
CUSHION_SIGMA_MM = 6.0
SETBACK_SIGMA_MM = 6.0
K_SIGMA = 0.5
# Observation weights. A dot's centroid is good to ~0.05 px (measured on rendered and generated
# frames); an edge point's scatter is ~0.3 px, but the points of one line share its appearance
# biases (lamps, the nose's highlight or shadow, compression), so together they carry far less than
# independent points would: weighted at 1.5 px, a line of ~150 points counts as ~6 independent ones.
# (Weighted as independent, those shared biases pulled the focal length 20% off on the rendered
# sample clips; see the report in tests/calibration.)
SIGMA_POINT_PX = 0.15
SIGMA_EDGE_PX = 1.5


@dataclass(frozen=True)
class CameraState:
    """A camera being solved: intrinsics, distortion, pose (``R`` world→camera, ``t`` mm) and the
    table's line offsets the solver may adjust, per side in :data:`SIDES` order: ``nose_mm``
    (outward shift of the nose line), ``cushion_mm`` (offset of the cloth/wood edge from the nose
    line), and ``setback_mm`` (the diamonds', all sides)."""

    f: float
    cx: float
    cy: float
    k1: float
    k2: float
    R: np.ndarray
    t: np.ndarray
    nose_mm: tuple[float, float, float, float]
    cushion_mm: tuple[float, float, float, float]
    setback_mm: float

    @property
    def centre_mm(self) -> np.ndarray:
        return -self.R.T @ self.t

    def project(self, P_w: np.ndarray) -> np.ndarray:
        return lens.project(P_w, self.R, self.t, self.f, self.cx, self.cy, self.k1, self.k2)

    def backproject(self, u_px: np.ndarray, z_mm: np.ndarray | float) -> np.ndarray:
        return lens.backproject_to_plane(u_px, z_mm, self.R, self.t, self.f, self.cx, self.cy, self.k1, self.k2)


@dataclass(frozen=True)
class FocalPrior:
    """Log-normal prior on the camera's height above the cloth (see the module docstring)."""

    height_mm: float = DEFAULT_HEIGHT_MM
    rel_sigma: float = DEFAULT_HEIGHT_REL_SIGMA


@dataclass(frozen=True)
class EdgeObs:
    """Edge points: ``side`` (N,) index into :data:`SIDES`, ``kind`` (N,) 0 nose / 1 cloth-wood,
    ``s_mm`` (N,) along the side, ``u_px`` (N, 2) the pixel found."""

    side: np.ndarray
    kind: np.ndarray
    s_mm: np.ndarray
    u_px: np.ndarray

    @staticmethod
    def empty() -> EdgeObs:
        return EdgeObs(np.zeros(0, int), np.zeros(0, int), np.zeros(0), np.zeros((0, 2)))

    def __len__(self) -> int:
        return len(self.s_mm)

    def subset(self, keep: np.ndarray) -> EdgeObs:
        return EdgeObs(self.side[keep], self.kind[keep], self.s_mm[keep], self.u_px[keep])


@dataclass(frozen=True)
class PointObs:
    """Point correspondences: world ``P_mm`` (N, 3) as given (diamonds at the spec's setback),
    ``shift_dir`` (N, 3) the direction a change of the setback moves each point (zero for points
    that do not depend on it), ``u_px`` (N, 2)."""

    P_mm: np.ndarray
    shift_dir: np.ndarray
    u_px: np.ndarray

    @staticmethod
    def empty() -> PointObs:
        return PointObs(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 2)))

    def __len__(self) -> int:
        return len(self.u_px)

    def subset(self, keep: np.ndarray) -> PointObs:
        return PointObs(self.P_mm[keep], self.shift_dir[keep], self.u_px[keep])


@dataclass(frozen=True)
class Fit:
    """A refinement's outcome: the camera, the residuals of every observation (edges (N,) signed px,
    points (M, 2) px), ``param_cov`` the covariance of the free parameters (in the solver's
    parametrisation, with ``param_names``), and whether the optimiser converged."""

    state: CameraState
    edge_residual_px: np.ndarray
    point_residual_px: np.ndarray
    cost: float
    param_names: tuple[str, ...]
    param_cov: np.ndarray
    theta: np.ndarray
    success: bool


def side_arrays(table: TableSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(origin, tangent, outward) (4, 2) of the sides in :data:`SIDES` order (see :mod:`calibration.features`)."""
    fr = [side_frame(table, s) for s in SIDES]
    origin = np.array([f.origin for f in fr])
    tangent = np.array([f.tangent for f in fr])
    outward = np.array([f.outward for f in fr])
    return origin, tangent, outward


def edge_offsets(obs: EdgeObs, nose_mm: npt.ArrayLike, cushion_mm: npt.ArrayLike) -> np.ndarray:
    """Each observation's line offset outside the spec's nose line (mm)."""
    nose = np.asarray(nose_mm, np.float64)[obs.side]
    return nose + np.where(obs.kind == 1, np.asarray(cushion_mm, np.float64)[obs.side], 0.0)


def edge_world_points(table: TableSpec, obs: EdgeObs, state: CameraState) -> np.ndarray:
    """World points of the edge observations' lines at their ``s``."""
    origin, tangent, outward = side_arrays(table)
    off = edge_offsets(obs, state.nose_mm, state.cushion_mm)
    z = np.where(obs.kind == 1, table.rail_height_mm, table.cushion_nose_height_mm)
    s = obs.s_mm
    xy = origin[obs.side] + s[:, None] * tangent[obs.side] + off[:, None] * outward[obs.side]
    return np.column_stack([xy, z])


class _Problem:
    """The residual function of one refinement (parameter vector ↔ :class:`CameraState`)."""

    def __init__(
        self,
        table: TableSpec,
        start: CameraState,
        edges: EdgeObs,
        points: PointObs,
        prior: FocalPrior | None,
        fit_f: bool,
        fit_k1: bool,
        fit_k2: bool,
        fit_offsets: bool,
        fit_setback: bool,
        sigma_edge_px: float,
        sigma_point_px: float,
    ) -> None:
        self.table, self.start, self.edges, self.points, self.prior = table, start, edges, points, prior
        self.flags = dict(f=fit_f, k1=fit_k1, k2=fit_k2, offsets=fit_offsets, setback=fit_setback)
        self.names = tuple(
            ["log_f"] * fit_f
            + ["w0", "w1", "w2", "centre_x_per_z", "centre_y_per_z", "log_z_per_f"]
            + ["k1_corner"] * fit_k1
            + ["k2_corner"] * fit_k2
            + [f"nose_{s}_mm" for s in SIDES] * fit_offsets
            + [f"cushion_{s}_mm" for s in SIDES] * fit_offsets
            + ["setback_mm"] * fit_setback
        )
        self.se, self.sp = sigma_edge_px, sigma_point_px
        self.centre = np.array([table.length_mm / 2, table.width_mm / 2, 0.0])
        self.D = float(np.hypot(start.cx, start.cy))  # half-diagonal of the frame, px
        origin, tangent, outward = side_arrays(table)
        if len(edges):
            self.e_origin = origin[edges.side]
            self.e_tan = np.column_stack([tangent[edges.side], np.zeros(len(edges))])
            self.e_out = outward[edges.side]
            self.e_z = np.where(edges.kind == 1, table.rail_height_mm, table.cushion_nose_height_mm)
        self.setback0 = table.diamond_setback_mm
        #: the last (x, residuals) of ``__call__``, which :meth:`jacobian` at the same x reuses
        self._last: tuple[np.ndarray, np.ndarray] | None = None

    def x0(self) -> np.ndarray:
        s = self.start
        # The translation enters as the table centre's camera coordinates (X, Y, Z), through X/Z, Y/Z
        # and log(Z/f): at fixed values of these the table's image barely changes with f (exactly not
        # at all for a vertical view), so along the fronto-parallel valley the parameters are
        # independent and the valley is straight: the covariance then means what it says.
        Xc = s.R @ self.centre + s.t
        v = ([np.log(s.f)] if self.flags["f"] else []) + [0.0, 0.0, 0.0]
        v += [Xc[0] / Xc[2], Xc[1] / Xc[2], np.log(Xc[2] / s.f)]
        # distortion as the relative shift at the frame's corner (k1 (D/f)², k2 (D/f)⁴): also
        # independent of f along the valley, where k1 itself scales with f²
        v += [s.k1 * (self.D / s.f) ** 2] * self.flags["k1"] + [s.k2 * (self.D / s.f) ** 4] * self.flags["k2"]
        if self.flags["offsets"]:
            v += list(s.nose_mm) + list(s.cushion_mm)
        v += [s.setback_mm] * self.flags["setback"]
        return np.array(v, np.float64)

    def state(self, x: np.ndarray) -> CameraState:
        i = 0
        s = self.start
        f = s.f
        if self.flags["f"]:
            f = float(np.exp(x[0]))
            i = 1
        R = lens.rodrigues(x[i : i + 3]) @ s.R
        Z = f * np.exp(x[i + 5])
        t = np.array([x[i + 3] * Z, x[i + 4] * Z, Z]) - R @ self.centre
        i += 6
        k1, k2, nose, cush, setb = s.k1, s.k2, s.nose_mm, s.cushion_mm, s.setback_mm
        if self.flags["k1"]:
            k1 = float(x[i]) * (f / self.D) ** 2
            i += 1
        if self.flags["k2"]:
            k2 = float(x[i]) * (f / self.D) ** 4
            i += 1
        if self.flags["offsets"]:
            nose = floats4(x[i : i + 4])
            cush = floats4(x[i + 4 : i + 8])
            i += 8
        if self.flags["setback"]:
            setb = float(x[i])
        return CameraState(f, s.cx, s.cy, k1, k2, R, t, nose, cush, setb)

    def residual_parts(self, st: CameraState) -> tuple[np.ndarray, np.ndarray]:
        e = self.edges
        if len(e):
            off = edge_offsets(e, st.nose_mm, st.cushion_mm)
            xy = self.e_origin + e.s_mm[:, None] * self.e_tan[:, :2] + off[:, None] * self.e_out
            P = np.column_stack([xy, self.e_z])
            delta = 40.0
            a = st.project(P - delta * self.e_tan)
            b = st.project(P + delta * self.e_tan)
            d = b - a
            n = np.hypot(d[:, 0], d[:, 1])
            r_e = (d[:, 0] * (e.u_px[:, 1] - a[:, 1]) - d[:, 1] * (e.u_px[:, 0] - a[:, 0])) / np.where(n > 0, n, 1.0)
        else:
            r_e = np.zeros(0)
        p = self.points
        if len(p):
            P = p.P_mm + (st.setback_mm - self.setback0) * p.shift_dir
            r_p = st.project(P) - p.u_px
        else:
            r_p = np.zeros((0, 2))
        return np.nan_to_num(r_e, nan=1e4), np.nan_to_num(r_p, nan=1e4)

    def prior_residuals(self, st: CameraState) -> list[float]:
        out = []
        if self.flags["f"] and self.prior is not None:
            h = max(float(st.centre_mm[2]), 1.0)
            out.append(np.log(h / self.prior.height_mm) / self.prior.rel_sigma)
        if self.flags["k1"]:
            out.append(st.k1 / K_SIGMA)
        if self.flags["k2"]:
            out.append(st.k2 / K_SIGMA)
        if self.flags["offsets"]:
            out.extend(np.asarray(st.nose_mm) / NOSE_SIGMA_MM)
            out.extend((np.asarray(st.cushion_mm) - self.table.cushion_width_mm) / CUSHION_SIGMA_MM)
        if self.flags["setback"]:
            out.append((st.setback_mm - self.setback0) / SETBACK_SIGMA_MM)
        return out

    def __call__(self, x: np.ndarray) -> np.ndarray:
        st = self.state(x)
        r_e, r_p = self.residual_parts(st)
        out = np.concatenate([r_e / self.se, r_p.ravel() / self.sp, np.array(self.prior_residuals(st))])
        self._last = (np.array(x, np.float64), out)
        return out

    # -- the Jacobian, all columns in one vectorised evaluation ------------------------------------
    def batch(self, X: np.ndarray) -> np.ndarray:
        """The residuals (B, m) of B parameter vectors (B, n): ``self(X[b])`` for each row, in one
        vectorised evaluation. Why: a residual evaluation is ~0.2 ms, nearly all of it NumPy's
        per-call overhead on a few hundred points, and the finite-difference Jacobian needs one per
        parameter (up to 17) at every iteration: most of a calibration's time."""
        X = np.atleast_2d(np.asarray(X, np.float64))
        B = len(X)
        s = self.start
        i = 0
        f = np.full(B, s.f)
        if self.flags["f"]:
            f = np.exp(X[:, 0])
            i = 1
        R = lens.rodrigues_batch(X[:, i : i + 3]) @ s.R
        Z = f * np.exp(X[:, i + 5])
        t = np.column_stack([X[:, i + 3] * Z, X[:, i + 4] * Z, Z]) - R @ self.centre
        i += 6
        k1, k2 = np.full(B, s.k1), np.full(B, s.k2)
        if self.flags["k1"]:
            k1 = X[:, i] * (f / self.D) ** 2
            i += 1
        if self.flags["k2"]:
            k2 = X[:, i] * (f / self.D) ** 4
            i += 1
        nose = np.tile(np.asarray(s.nose_mm, np.float64), (B, 1))
        cush = np.tile(np.asarray(s.cushion_mm, np.float64), (B, 1))
        if self.flags["offsets"]:
            nose, cush = X[:, i : i + 4], X[:, i + 4 : i + 8]
            i += 8
        setb = X[:, i] if self.flags["setback"] else np.full(B, s.setback_mm)

        def project(P: np.ndarray) -> np.ndarray:
            return lens.project_batch(P, R, t, f, s.cx, s.cy, k1, k2)

        parts = []
        e = self.edges
        if len(e):
            off = nose[:, e.side] + np.where(e.kind == 1, cush[:, e.side], 0.0)
            xy = (
                self.e_origin[None]
                + e.s_mm[None, :, None] * self.e_tan[None, :, :2]
                + off[:, :, None] * self.e_out[None]
            )
            P = np.concatenate([xy, np.broadcast_to(self.e_z[None, :, None], (B, len(e), 1))], axis=2)
            delta = 40.0
            a = project(P - delta * self.e_tan)
            b = project(P + delta * self.e_tan)
            d = b - a
            n = np.hypot(d[..., 0], d[..., 1])
            cross = d[..., 0] * (e.u_px[None, :, 1] - a[..., 1]) - d[..., 1] * (e.u_px[None, :, 0] - a[..., 0])
            parts.append(np.nan_to_num(cross / np.where(n > 0, n, 1.0), nan=1e4) / self.se)
        p = self.points
        if len(p):
            P = p.P_mm[None] + (setb - self.setback0)[:, None, None] * p.shift_dir[None]
            r_p = np.nan_to_num(project(P) - p.u_px[None], nan=1e4)
            parts.append(r_p.reshape(B, -1) / self.sp)
        prior = []
        if self.flags["f"] and self.prior is not None:
            height = -np.einsum("bk,bk->b", R[:, :, 2], t)  # the camera centre's z: -(R^T t)_z
            prior.append(np.log(np.maximum(height, 1.0) / self.prior.height_mm) / self.prior.rel_sigma)
        if self.flags["k1"]:
            prior.append(k1 / K_SIGMA)
        if self.flags["k2"]:
            prior.append(k2 / K_SIGMA)
        if self.flags["offsets"]:
            prior.extend((nose / NOSE_SIGMA_MM).T)
            prior.extend(((cush - self.table.cushion_width_mm) / CUSHION_SIGMA_MM).T)
        if self.flags["setback"]:
            prior.append((setb - self.setback0) / SETBACK_SIGMA_MM)
        parts.append(np.column_stack(prior) if prior else np.zeros((B, 0)))
        return np.concatenate(parts, axis=1)

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """The forward-difference Jacobian (m, n) at ``x``, with SciPy's own steps for
        ``jac="2-point"`` (``sqrt(eps) * max(1, |x|)``, signed as ``x``, the step as represented),
        so the solve takes the same path as with SciPy's differences, only one evaluation per
        iteration instead of n; the residuals at ``x`` are those just computed by ``__call__``
        there (as SciPy passes them), else computed."""
        x = np.asarray(x, np.float64)
        last = self._last
        f0 = last[1] if last is not None and np.array_equal(last[0], x) else self(x)
        sign = (x >= 0).astype(float) * 2 - 1
        h = np.sqrt(np.finfo(np.float64).eps) * sign * np.maximum(1.0, np.abs(x))
        X = np.repeat(x[None], len(x), axis=0)
        X[np.arange(len(x)), np.arange(len(x))] += h
        dx = (x + h) - x
        return ((self.batch(X) - f0[None]) / dx[:, None]).T


def refine(
    table: TableSpec,
    start: CameraState,
    edges: EdgeObs,
    points: PointObs,
    *,
    prior: FocalPrior | None = FocalPrior(),
    fit_f: bool = True,
    fit_k1: bool = True,
    fit_k2: bool = False,
    fit_offsets: bool = False,
    fit_setback: bool = False,
    sigma_edge_px: float = SIGMA_EDGE_PX,
    sigma_point_px: float = SIGMA_POINT_PX,
    robust_scale: float = 3.0,
) -> Fit:
    """Robust (soft-L1) least squares of all observations and priors from ``start``; residuals are
    divided by their sigmas, the robust scale is in sigmas."""
    from scipy.optimize import least_squares

    prob = _Problem(
        table,
        start,
        edges,
        points,
        prior,
        fit_f,
        fit_k1,
        fit_k2,
        fit_offsets,
        fit_setback,
        sigma_edge_px,
        sigma_point_px,
    )
    # tr_solver="lsmr": the exact solver's dense SVD runs through a multithreaded BLAS, which on a
    # busy machine with few cores costs 100x its single-threaded time (52 ms against 0.4 ms measured).
    # Tolerances 1e-6 (scipy's default 1e-8): a relative change of 1e-6 in the cost or the
    # parameters is 0.002 px at a 2000 px focal length, far under the 0.1 px the edges are good
    # to; the last iterations to 1e-8 were a third of a calibration's evaluations (pool sample:
    # 1089 -> 697, the projected table corners the same to 0.01 px).
    res = least_squares(
        prob,
        prob.x0(),
        jac=prob.jacobian,
        method="trf",
        loss="soft_l1",
        f_scale=robust_scale,
        x_scale="jac",
        tr_solver="lsmr",
        ftol=1e-6,
        xtol=1e-6,
        gtol=1e-6,
        max_nfev=200,
    )
    st = prob.state(res.x)
    r_e, r_p = prob.residual_parts(st)
    J = res.jac
    try:
        cov = np.linalg.inv(J.T @ J)
    except np.linalg.LinAlgError:
        cov = np.full((len(res.x), len(res.x)), np.inf)
    return Fit(
        state=st,
        edge_residual_px=r_e,
        point_residual_px=r_p,
        cost=float(res.cost),
        param_names=prob.names,
        param_cov=cov,
        theta=res.x,
        success=bool(res.success),
    )


def sample_states(
    table: TableSpec, fit: Fit, start: CameraState, n: int, rng: np.random.Generator, **flags: bool
) -> list[CameraState]:
    """``n`` cameras drawn from the fit's parameter covariance (for uncertainty propagation).
    ``start`` and ``flags`` must be those the fit was run with."""
    prob = _Problem(
        table,
        start,
        EdgeObs.empty(),
        PointObs.empty(),
        None,
        flags.get("fit_f", True),
        flags.get("fit_k1", True),
        flags.get("fit_k2", False),
        flags.get("fit_offsets", False),
        flags.get("fit_setback", False),
        1.0,
        1.0,
    )
    if not np.all(np.isfinite(fit.param_cov)):
        return []
    try:
        Lc = np.linalg.cholesky(fit.param_cov + 1e-18 * np.eye(len(fit.theta)))
    except np.linalg.LinAlgError:
        return []
    try:
        # numpy's overflow raised, not warned: a warning would reach the user's terminal
        with np.errstate(over="raise", invalid="raise"):
            return [prob.state(fit.theta + Lc @ rng.standard_normal(len(fit.theta))) for _ in range(n)]
    except (OverflowError, FloatingPointError):
        # a covariance so wide that a draw has no camera (a log focal length of hundreds): the
        # fit does not bound its parameters, as with a non-finite covariance
        return []


def _pose_from_homography(M: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(R, t) with ``M ∝ [r1 r2 t]`` (a plane at z = 0 seen in normalised coordinates), the plane in
    front of the camera; ``None`` when M is degenerate."""
    n1, n2 = np.linalg.norm(M[:, 0]), np.linalg.norm(M[:, 1])
    if n1 < 1e-12 or n2 < 1e-12:
        return None
    lam = 2.0 / (n1 + n2)
    if M[2, 2] * lam < 0:
        lam = -lam  # the plane's origin must be in front (positive depth)
    r1, r2, t = lam * M[:, 0], lam * M[:, 1], lam * M[:, 2]
    U, _, Vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    R = U @ Vt
    if np.linalg.det(R) < 0:
        return None
    return R, t


def init_from_corners(
    corners_px: np.ndarray,
    world_mm: np.ndarray,
    image_w_px: int,
    image_h_px: int,
    *,
    table: TableSpec,
    prior: FocalPrior = FocalPrior(),
    fixed_f: float | None = None,
) -> tuple[CameraState, float]:
    """A first camera from four image corners of a world rectangle on one plane (no distortion):
    the focal length scanned over a wide range (or ``fixed_f``), the pose at each from the plane's
    homography, the best by reprojection error plus the focal prior. Returns the camera and its
    RMS corner error in px."""
    import cv2

    img = np.asarray(corners_px, np.float64).reshape(-1, 2)
    obj = np.asarray(world_mm, np.float64).reshape(-1, 3)
    cx, cy = image_w_px / 2.0, image_h_px / 2.0
    z0 = float(obj[:, 2].mean())
    if np.ptp(obj[:, 2]) > 1e-9:
        raise TabletrackError("the four corners must lie on one horizontal plane")
    # the plane's homography once (world x, y → pixels), then the pose for each focal length from it
    Hp = cv2.getPerspectiveTransform(obj[:, :2].astype(np.float32), img.astype(np.float32)).astype(np.float64)

    def evaluate(f: float) -> tuple[float, float, np.ndarray, np.ndarray, float] | None:
        Kinv = np.array([[1.0 / f, 0, -cx / f], [0, 1.0 / f, -cy / f], [0, 0, 1.0]])
        pose = _pose_from_homography(Kinv @ Hp)
        if pose is None:
            return None
        R, t0 = pose
        t = t0 - R @ np.array([0.0, 0.0, z0])
        C = -R.T @ t
        if C[2] <= obj[:, 2].max():
            return None  # the camera must be above the table
        proj = lens.project(obj, R, t, f, cx, cy)
        err = float(np.sqrt(np.mean(np.sum((proj - img) ** 2, axis=1))))
        if not np.isfinite(err):
            return None
        score = (err / 0.5) ** 2 + (0.0 if fixed_f else (np.log(C[2] / prior.height_mm) / prior.rel_sigma) ** 2)
        return score, f, R, t, err

    side = max(image_w_px, image_h_px)
    coarse = [fixed_f] if fixed_f else list(np.geomspace(0.25, 12.0, 60) * side)
    best = None
    for f in coarse:
        r = evaluate(f)
        if r is not None and (best is None or r[0] < best[0]):
            best = r
    if best is not None and not fixed_f:  # then finely around the best
        step = (12.0 / 0.25) ** (1.0 / 59.0)
        for f in np.geomspace(best[1] / step, best[1] * step, 41):
            r = evaluate(float(f))
            if r is not None and r[0] < best[0]:
                best = r
    if best is None:
        raise TabletrackError("no camera above the table can see these four corners")
    _, f, R, t, err = best
    state = CameraState(
        f=float(f),
        cx=cx,
        cy=cy,
        k1=0.0,
        k2=0.0,
        R=R,
        t=t,
        nose_mm=(0.0,) * 4,
        cushion_mm=(table.cushion_width_mm,) * 4,
        setback_mm=table.diamond_setback_mm,
    )
    return state, err


def flipped(state: CameraState, table: TableSpec) -> CameraState:
    """The same physical camera in the table frame turned 180 degrees (head ↔ foot, right ↔ left):
    a world point P of the new frame is ``A P + b`` of the old one, A = diag(-1, -1, 1), b = (L, W, 0)."""
    A = np.diag([-1.0, -1.0, 1.0])
    b = np.array([table.length_mm, table.width_mm, 0.0])
    swap = [SIDES.index(OPPOSITE_SIDE[s]) for s in SIDES]
    return replace(
        state,
        R=state.R @ A,
        t=state.R @ b + state.t,
        nose_mm=cast("tuple[float, float, float, float]", tuple(state.nose_mm[i] for i in swap)),
        cushion_mm=cast("tuple[float, float, float, float]", tuple(state.cushion_mm[i] for i in swap)),
    )
