"""Calibrate a camera from one frame of the table, automatically.

Contract: :func:`calibrate_frame` finds the cloth and its outline (:mod:`calibration.find_table`),
takes a first camera from the outline's four corners, then alternates measuring and solving, each
pass with a narrower search: the cloth/wood edges alone (±2% of the frame: the first camera knows
no lens distortion yet), then the nose lines and cloth/wood edges (±5 px), then the diamonds as
well (±3 px), each solve robust and followed by the rejection of outliers (4 robust sigmas). The
result holds the camera (``CameraModel``, diagnostics in ``extras``) and the evidence.

Orientation convention. The table's length is whichever pair of outline sides the solve explains
better as the long sides (the diamonds, 7 per long rail and 3 per short one on a carom table, and
perspective decide it, not the sides' lengths in pixels). Of the two orientations that remain, 180
degrees apart and indistinguishable from the table alone, the default puts the head (x = 0) at the
image left: world +x points to the image right, and y = 0 (the right cushion) lies at the image
bottom, as in :meth:`CameraModel.look_at`'s default; when the length runs up and down the image, +x
points up. Formally: +x's image direction has a positive component along (1, -1) (right and up).
``CalibrationHints(flip=True)`` takes the other orientation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from calibration._vec import floats3
from calibration.camera import CameraModel
from calibration.diamonds import DiamondFinds, find_diamonds, ransac_inliers
from calibration.edges import EdgeImages, edge_images, measure_edges
from calibration.features import EDGE_KINDS, SIDES
from calibration.find_table import GREY_HUE, TableOutline, find_table
from calibration.result import CalibrationError, CalibrationHints, CalibrationResult, DiamondMatch, EdgeLine
from calibration.solve import (
    CameraState,
    EdgeObs,
    Fit,
    FocalPrior,
    PointObs,
    flipped,
    init_from_corners,
    refine,
    sample_states,
)
from calibration.table import TableSpec

MIN_EDGE_POINTS_PER_SIDE = 12
#: A second start (the other reading of which outline sides are the long ones) is solved through
#: only if its first, wide edge measurement finds at least this share of the cloth/wood edge points
#: a start already solved found. Why: the wrong reading puts its sides off the table's edges, finds
#: 0.37-0.60 of the right one's points (pool and snooker samples, the real eight-ball frames) and
#: then lost every comparison, yet its solve was 0.8-1.9 s, most of a pocket table's calibration;
#: where the two readings are truly alike (a table seen from behind its head rail) both find about
#: as many, and both are solved as before. The first start solved is the one whose corners fit
#: better, so a right reading tried second finds more than the first, never less.
OTHER_START_EDGE_SHARE = 0.5
#: the steepest view of the table's centre (degrees from the vertical) the automatic solve takes on:
#: beyond it the far rail and its diamonds are foreshortened to a few pixels and the near rail's
#: cushion hides its own nose line. Beyond OBLIQUE_VIEW_DEG it warns: on clean rendered frames the
#: ball plane's worst error grows from 0.7 mm at 45 degrees to 1.0 at 65, 1.7 at 72 and 2.2 at 78
#: (tests/calibration/test_cloth_coloured_floor.py), and real oblique footage hides more.
MAX_VIEW_DEG = 75.0
OBLIQUE_VIEW_DEG = 60.0
#: a free focal length whose camera height lies beyond this many prior sigmas is not believed
HEIGHT_PRIOR_SIGMAS = 3.0
#: a grey cloth's calibration must explain this share of the table's diamonds (see calibrate_frame)
GREY_MIN_DIAMOND_FRACTION = 1.0 / 3.0


def _robust_sigma(r: np.ndarray) -> float:
    if len(r) == 0:
        return 0.0
    return 1.4826 * float(np.median(np.abs(r - np.median(r))))


def _x_direction(state: CameraState, table: TableSpec) -> np.ndarray:
    c = np.array([table.length_mm / 2, table.width_mm / 2, 0.0])
    d = np.array([table.length_mm / 4, 0.0, 0.0])
    p = state.project(np.vstack([c - d, c + d]))
    return p[1] - p[0]


def orient(state: CameraState, table: TableSpec, flip: bool) -> CameraState:
    """The orientation of the module docstring's convention (or the other one with ``flip``)."""
    d = _x_direction(state, table)
    conventional = d[0] - d[1] > 0
    return state if conventional != flip else flipped(state, table)


#: The playing-surface length the default camera-height prior was set for (the carom match table).
_PRIOR_TABLE_LENGTH_MM = 2840.0


def _prior(hints: CalibrationHints, table: TableSpec | None = None) -> FocalPrior:
    """The camera-height prior: the user's measured height, else the default (3.6 m, hall and
    broadcast cameras over carom and pool tables), raised in proportion for a table longer than the
    carom match table (a camera is hung to see the whole table: over a 12 ft snooker table at about
    4.5 m). Never lowered for a smaller table: the cameras over 7-9 ft pool tables hang as high."""
    if hints.camera_height_mm is not None:
        return FocalPrior(hints.camera_height_mm, hints.camera_height_rel_sigma)
    if table is None:
        return FocalPrior()
    return FocalPrior(FocalPrior().height_mm * max(1.0, table.length_mm / _PRIOR_TABLE_LENGTH_MM))


class _Solver:
    """One hypothesis of which outline sides are the long ones, carried through every pass."""

    def __init__(
        self, table: TableSpec, images: EdgeImages, gray: np.ndarray, hints: CalibrationHints, w: int, h: int
    ) -> None:
        self.table, self.images, self.gray, self.hints, self.w, self.h = table, images, gray, hints, w, h
        self.prior = _prior(hints, table)
        self.flags: dict[str, bool] = {}

    def _fit(
        self, state: CameraState, edges: EdgeObs, points: PointObs, *, fit_offsets: bool, fit_setback: bool
    ) -> Fit:
        self.flags = dict(
            fit_f=self.hints.fx_px is None,
            fit_k1=True,
            fit_k2=self.hints.fit_k2,
            fit_offsets=fit_offsets,
            fit_setback=fit_setback,
        )
        self.start = state
        return refine(self.table, state, edges, points, prior=self.prior, **self.flags)

    def _fit_rejecting(
        self,
        state: CameraState,
        edges: EdgeObs,
        points: PointObs,
        *,
        fit_offsets: bool = False,
        fit_setback: bool = False,
        rounds: int = 2,
    ) -> tuple[Fit, EdgeObs, PointObs, np.ndarray]:
        """Fit, drop outliers (beyond 4 robust sigmas, at least 1 px for edges and 1.5 px for points), refit."""
        keep_p = np.ones(len(points), bool)
        fit = self._fit(state, edges, points, fit_offsets=fit_offsets, fit_setback=fit_setback)
        for _ in range(rounds):
            r_e = fit.edge_residual_px
            te = max(1.0, 4.0 * _robust_sigma(r_e))
            ke = np.abs(r_e) <= te
            rp = np.hypot(fit.point_residual_px[:, 0], fit.point_residual_px[:, 1]) if len(points) else np.zeros(0)
            tp = max(1.5, 4.0 * _robust_sigma(rp)) if len(points) else 0.0
            kp = rp <= tp
            if ke.all() and kp.all():
                break
            edges = edges.subset(ke)
            points = points.subset(kp)
            idx = np.flatnonzero(keep_p)
            keep_p[idx[~kp]] = False
            fit = self._fit(fit.state, edges, points, fit_offsets=fit_offsets, fit_setback=fit_setback)
        return fit, edges, points, keep_p

    def _scan_setback(self, state: CameraState) -> CameraState:
        """The state with the diamonds' setback where most of them are seen. Real rails put their
        sights anywhere across the rail (a carom table's 112.5 mm of the spec is 85 mm on some), and
        the lines alone say nothing of it: the setbacks across the rail top are tried, each dot
        looked for in a small disc and the dots kept that one plane homography explains; the
        spec's setback wins ties."""
        table = self.table
        if not table.diamond_marks():
            return state
        c = table.cushion_width_mm
        lo, hi = c + 0.1 * table.rail_width_mm, c + 0.9 * table.rail_width_mm
        spec = table.diamond_setback_mm
        best = (-1, 0.0, spec)
        for sb in np.unique(np.concatenate([[spec], np.linspace(lo, hi, 17)])):
            trial = replace(state, setback_mm=float(sb))
            finds = find_diamonds(self.gray, table, trial, search_mm=min(45.0, 0.2 * table.rail_width_mm))
            n = int(ransac_inliers(finds, trial, table).sum()) if len(finds) >= 6 else len(finds)
            key = (n, -abs(sb - spec), float(sb))
            if key[:2] > best[:2]:
                best = key
        return replace(state, setback_mm=best[2])

    def run(self, state: CameraState, min_outline_edges: int = 0) -> _Run:
        """Carry one start through every pass. ``min_outline_edges``: fewer cloth/wood edge points
        than this along the start's sides stop it after the first measurement (another start
        already solved found more than twice as many: see :data:`OTHER_START_EDGE_SHARE`)."""
        table = self.table
        wide = max(12.0, 0.02 * max(self.w, self.h))
        e0 = measure_edges(self.images, table, state, window_px=wide, kinds=("cloth_wood",))
        if len(e0) < 4 * MIN_EDGE_POINTS_PER_SIDE:
            raise CalibrationError(
                f"table edges not found: expected the cloth/wood edge along all four sides, got {len(e0)} edge points"
            )
        if len(e0) < min_outline_edges:
            raise CalibrationError(
                f"this reading of which sides are long finds {len(e0)} cloth/wood edge points, expected at least "
                f"{min_outline_edges} ({OTHER_START_EDGE_SHARE:.0%} of what the other reading found): not solved further"
            )
        fit, _, _, _ = self._fit_rejecting(state, e0, PointObs.empty())
        e1 = measure_edges(self.images, table, fit.state, window_px=5.0)
        fit, e1, _, _ = self._fit_rejecting(fit.state, e1, PointObs.empty())
        diamonds = DiamondFinds((), (), np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 2)))
        fit = replace(fit, state=self._scan_setback(fit.state))
        for window in (3.0, 2.0):
            edges = measure_edges(self.images, table, fit.state, window_px=window)
            diamonds = find_diamonds(self.gray, table, fit.state)
            diamonds = diamonds.subset(ransac_inliers(diamonds, fit.state, table))
            fit_setback = len(diamonds) >= 6
            fit, edges_in, _, keep_p = self._fit_rejecting(
                fit.state, edges, diamonds.as_points(), fit_offsets=True, fit_setback=fit_setback
            )
        return _Run(
            outline_edges=len(e0),
            fit=fit,
            edges_all=edges,
            edges=edges_in,
            diamonds=diamonds,
            diamond_inliers=keep_p,
            flags=dict(self.flags),
            start=self.start,
        )


@dataclass(frozen=True)
class _Run:
    """One hypothesis carried through: the last fit, the edge points measured (``edges_all``) and kept
    (``edges``), the diamonds found and which the fit kept, and the start and flags the fit's
    parameters refer to (for sampling its covariance)."""

    fit: Fit
    edges_all: EdgeObs
    edges: EdgeObs
    diamonds: DiamondFinds
    diamond_inliers: np.ndarray
    flags: dict
    start: CameraState
    #: cloth/wood edge points the first, wide measurement found along the start's sides
    outline_edges: int = 0

    def score(self) -> float:
        """Higher is better: inlier observations (a diamond worth 15 edge points), discounted by the
        edge points' spread; used to choose which outline sides are the long ones."""
        r = np.abs(self.fit.edge_residual_px)
        spread = float(np.sqrt(np.mean(r**2))) if len(r) else 10.0
        return (len(self.edges) + 15.0 * int(self.diamond_inliers.sum())) / (0.3 + spread)


def view_angle_deg(state: CameraState, table: TableSpec) -> float:
    """Angle (degrees) between the vertical and the camera's line of sight to the table's centre."""
    d = state.centre_mm - np.array([table.length_mm / 2, table.width_mm / 2, 0.0])
    return float(np.degrees(np.arccos(np.clip(d[2] / max(float(np.linalg.norm(d)), 1e-9), -1.0, 1.0))))


def _check_view(view: float) -> None:
    if view > MAX_VIEW_DEG:
        raise CalibrationError(
            f"the camera is not overhead enough: it sees the table's centre {view:.0f} degrees from the vertical "
            f"(expected at most {MAX_VIEW_DEG:.0f}, where the rails and their diamonds can be measured); "
            "hang it higher over the table, or give the playing surface's corners instead (--corners)"
        )


def _errors_mm(table: TableSpec, st: CameraState, edges: EdgeObs, points: PointObs) -> np.ndarray:
    from calibration.solve import edge_world_points, side_arrays

    out = []
    if len(edges):
        P = edge_world_points(table, edges, st)
        q = st.backproject(edges.u_px, P[:, 2])
        _, _, outward = side_arrays(table)
        out.append(np.abs(np.sum((q - P[:, :2]) * outward[edges.side], axis=1)))
    if len(points):
        P = points.P_mm + (st.setback_mm - table.diamond_setback_mm) * points.shift_dir
        q = st.backproject(points.u_px, P[:, 2])
        out.append(np.hypot(*(q - P[:, :2]).T))
    return np.concatenate(out) if out else np.zeros(0)


def ball_plane_sigma_mm(table: TableSpec, run: _Run, n: int = 40) -> tuple[float, float]:
    """(median, max) over a grid on the ball-centre plane of the spread of table mm that the fit's
    parameter uncertainty gives one pixel."""
    fit = run.fit
    st = fit.state
    gx, gy = np.meshgrid(np.linspace(0, table.length_mm, 9), np.linspace(0, table.width_mm, 5))
    P = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, table.ball_radius_mm)])
    u = st.project(P)
    samples = sample_states(table, fit, run.start, n, np.random.default_rng(1), **run.flags)
    if not samples:
        return float("inf"), float("inf")
    q = np.stack([s.backproject(u, table.ball_radius_mm) for s in samples])
    spread = np.sqrt(np.mean(np.sum((q - P[None, :, :2]) ** 2, axis=2), axis=0))
    return float(np.median(spread)), float(np.max(spread))


def _json_safe(v: Any) -> Any:
    """``v`` with non-finite floats as None (JSON has no NaN) and numpy scalars as Python numbers."""
    if isinstance(v, dict):
        return {str(k): _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    if isinstance(v, (np.floating, float)):
        return float(v) if np.isfinite(v) else None
    if isinstance(v, (np.integer,)):
        return int(v)
    return v


def _camera_model(
    st: CameraState, table: TableSpec, w: int, h: int, err_px: float, err_mm: float, method: str, extras: dict
) -> CameraModel:
    from calibration.lens import rotation_vector

    rvec = rotation_vector(st.R)
    return CameraModel(
        image_w_px=int(w),
        image_h_px=int(h),
        fx=float(st.f),
        fy=float(st.f),
        cx=float(st.cx),
        cy=float(st.cy),
        k1=float(st.k1),
        k2=float(st.k2),
        rvec=floats3(rvec),
        tvec_mm=floats3(st.t),
        table=table.name,
        reprojection_error_px=float(err_px),
        reprojection_error_mm=float(err_mm),
        method=method,
        extras=extras,
    )


def calibrate_frame(
    image_bgr: np.ndarray, table: TableSpec, *, hints: CalibrationHints | None = None
) -> CalibrationResult:
    """Solve the camera from one frame (see the module docstring); :class:`CalibrationError` if the
    frame shows no table, or not all of it."""
    import cv2

    hints = hints or CalibrationHints()
    img = np.asarray(image_bgr)
    outline = find_table(img)
    h, w = img.shape[:2]
    if outline.cut_sides:
        raise CalibrationError(
            f"the table runs out of the frame: expected the whole table with its rails in view, "
            f"got {len(outline.cut_sides)} of its four sides along the frame's border (where that is a "
            "floor or a carpet of the cloth's colour, give the playing surface's corners instead: "
            "--corners)"
        )
    images = edge_images(img, outline.cloth.hue, outline.cloth.sat, outline.cloth.val)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    c = table.cushion_width_mm
    L, W = table.length_mm, table.width_mm
    world = np.array([[-c, -c], [L + c, -c], [L + c, W + c], [-c, W + c]])
    world = np.column_stack([world, np.full(4, table.rail_height_mm)])
    prior = _prior(hints, table)
    starts = []
    for shift in (0, 1):
        try:
            st, err = init_from_corners(
                np.array(outline.corners_px),
                np.roll(world, shift, axis=0),
                w,
                h,
                table=table,
                prior=prior,
                fixed_f=hints.fx_px,
            )
        except ValueError:
            continue
        starts.append((err, orient(st, table, hints.flip)))
    if not starts:
        raise CalibrationError(
            "no camera explains the table's outline: expected a rectangle seen from above, "
            "got an outline no camera above the table could see"
        )
    starts.sort(key=lambda e: e[0])
    view = view_angle_deg(starts[0][1], table)
    _check_view(view)
    solver = _Solver(table, images, gray, hints, w, h)
    runs: list[_Run] = []
    errors: list[str] = []
    for i, (err, st) in enumerate(starts):
        if i > 0 and err > 2.5 * starts[0][0] + 2.0 and runs and not table.pockets:
            # the other hypothesis explains the outline much worse: not worth a full solve. A pocket
            # table seen from behind its head rail looks about as wide as long, so both are solved
            # there and its diamonds (none in a pocket's mouth) decide which sides are long
            break
        try:
            floor = int(np.ceil(OTHER_START_EDGE_SHARE * max((r.outline_edges for r in runs), default=0)))
            runs.append(solver.run(st, min_outline_edges=floor))
        except CalibrationError as e:
            errors.append(str(e))
    if not runs:
        if view > OBLIQUE_VIEW_DEG:
            raise CalibrationError(
                f"{errors[0]} (the camera sees the table's centre {view:.0f} degrees from the "
                "vertical, not overhead enough to measure the rails: hang it higher, or give the "
                "playing surface's corners instead: --corners)"
            )
        raise CalibrationError(errors[0])
    run = max(runs, key=_Run.score)
    _check_view(view_angle_deg(run.fit.state, table))
    prior = _prior(hints, table)
    height = float(run.fit.state.centre_mm[2])
    held = None
    if (
        hints.camera_height_mm is None
        and hints.fx_px is None
        and abs(np.log(max(height, 1.0) / prior.height_mm)) > HEIGHT_PRIOR_SIGMAS * prior.rel_sigma
    ):
        # the free focal length ran far outside the prior: the frame has something the model has
        # not (a broadcast's principal point off the image centre, a rail not where the spec puts
        # it), which a nearly vertical view lets focal length and tilt absorb (PBA carom frames:
        # 27.7 m above the cloth). Solved again with the height held at the prior's.
        tight = _Solver(
            table, images, gray, replace(hints, camera_height_mm=prior.height_mm, camera_height_rel_sigma=0.05), w, h
        )
        try:
            run = tight.run(run.start)
            held = height
        except CalibrationError:
            pass
    res = _result(table, run, w, h, hints, outline)
    if held is not None:
        note = (
            f"the free solve put the camera {held / 1000:.1f} m above the cloth, far outside the prior of "
            f"{prior.height_mm / 1000:.1f} m ± {100 * prior.rel_sigma:.0f}% (something in the frame the model lacks, "
            "e.g. a cropped broadcast's off-centre principal point): solved again with the height held there; "
            "give the measured camera height to remove that"
        )
        res = replace(
            res,
            warnings=res.warnings + (note,),
            camera=replace(
                res.camera,
                extras={**res.camera.extras, "warnings": list(res.warnings) + [note], "free_solve_height_mm": held},
            ),
        )
    marks = len(table.diamond_marks()) if table.pockets else 0
    if outline.cloth.hue == GREY_HUE and marks and res.n_diamond_inliers < GREY_MIN_DIAMOND_FRACTION * marks:
        # a grey cloth is found by its lightness alone, which a floor, a shirt or a wall share; only
        # the rails' diamonds where the camera puts them show it is the table, seen the right way
        raise CalibrationError(
            f"a grey or white surface was found, but the camera it implies explains {res.n_diamond_inliers} of the "
            f"table's {marks} diamonds (expected at least {int(np.ceil(GREY_MIN_DIAMOND_FRACTION * marks))}): "
            "give the playing surface's corners instead"
        )
    return res


def _result(
    table: TableSpec, run: _Run, w: int, h: int, hints: CalibrationHints, outline: TableOutline
) -> CalibrationResult:
    fit = run.fit
    st = fit.state
    edges, edges_all, diamonds, keep_p = run.edges, run.edges_all, run.diamonds, run.diamond_inliers
    pts_in = diamonds.as_points().subset(keep_p)
    r_e = fit.edge_residual_px
    r_p = np.hypot(*fit.point_residual_px.T) if len(pts_in) else np.zeros(0)
    err_px = float(np.sqrt(np.mean(np.concatenate([r_e, r_p]) ** 2))) if len(r_e) + len(r_p) else float("nan")
    mm = _errors_mm(table, st, edges, pts_in)
    err_mm = float(np.sqrt(np.mean(mm**2))) if len(mm) else float("nan")

    warnings: list[str] = []
    lines = []
    for si, side in enumerate(SIDES):
        for ki, kind in enumerate(EDGE_KINDS):
            sel = (edges.side == si) & (edges.kind == ki)
            n_all = int(((edges_all.side == si) & (edges_all.kind == ki)).sum())
            pts = edges.u_px[sel]
            rms = float(np.sqrt(np.mean(r_e[sel] ** 2))) if sel.any() else float("nan")
            z = table.cushion_nose_height_mm if ki == 0 else table.rail_height_mm
            off = st.nose_mm[si] + (0.0 if ki == 0 else st.cushion_mm[si])
            lines.append(
                EdgeLine(
                    side=side,
                    kind=kind,
                    z_mm=z,
                    offset_mm=float(off),
                    points_px=tuple((float(x), float(y)) for x, y in pts),
                    n_samples=n_all,
                    n_inliers=int(sel.sum()),
                    rms_px=rms,
                )
            )
            if sel.sum() < MIN_EDGE_POINTS_PER_SIDE:
                warnings.append(f"the {side} {kind.replace('_', '/')} edge was hardly seen ({int(sel.sum())} points)")
    projected = (
        st.project(diamonds.P_mm + (st.setback_mm - table.diamond_setback_mm) * diamonds.shift_dir)
        if len(diamonds)
        else np.zeros((0, 2))
    )
    matches = tuple(
        DiamondMatch(
            side=diamonds.side[i],
            k=diamonds.k[i],
            world_mm=floats3(diamonds.P_mm[i] + (st.setback_mm - table.diamond_setback_mm) * diamonds.shift_dir[i]),
            pixel_px=(float(diamonds.u_px[i, 0]), float(diamonds.u_px[i, 1])),
            projected_px=(float(projected[i, 0]), float(projected[i, 1])),
            inlier=bool(keep_p[i]),
        )
        for i in range(len(diamonds))
    )
    n_expected = 2 * (table.diamonds_long + table.diamonds_short)
    if int(keep_p.sum()) < n_expected // 2:
        warnings.append(f"only {int(keep_p.sum())} of {n_expected} diamonds were found; the fit rests on the edges")
    # how much does the focal length rest on the prior?
    names = fit.param_names
    prior = _prior(hints, table)
    f_note = "fixed by the user" if hints.fx_px is not None else None
    f_rel_sigma = float("nan")
    sig_med, sig_max = ball_plane_sigma_mm(table, run)
    if "log_f" in names:
        f_rel_sigma = float(np.sqrt(max(fit.param_cov[names.index("log_f"), names.index("log_f")], 0.0)))
        if f_rel_sigma > 0.5 * prior.rel_sigma:
            warnings.append(
                f"the view is nearly vertical, so the camera height ({st.centre_mm[2] / 1000:.2f} m) rests "
                f"on the prior of {prior.height_mm / 1000:.2f} m ± {100 * prior.rel_sigma:.0f}% "
                f"(ball positions uncertain by up to {sig_max:.1f} mm at the corners); give the measured "
                "camera height to remove that"
            )
    view = view_angle_deg(st, table)
    if view > OBLIQUE_VIEW_DEG:
        warnings.append(
            f"the camera is far from overhead ({view:.0f} degrees from the vertical at the table's centre): "
            "the far rail is foreshortened, so positions near it are less certain"
        )
    if err_px > 1.0:
        warnings.append(f"the fit leaves {err_px:.2f} px RMS: check the overlay of the calibration image")
    extras = {
        "table_size_mm": [table.length_mm, table.width_mm],
        "ball_diameter_mm": table.ball_diameter_mm,
        "nose_offset_mm_solved": dict(zip(SIDES, (round(v, 3) for v in st.nose_mm))),
        "cushion_width_mm_solved": dict(zip(SIDES, (round(v, 3) for v in st.cushion_mm))),
        "diamond_setback_mm_solved": float(st.setback_mm),
        "camera_centre_mm": [float(v) for v in st.centre_mm],
        "view_angle_deg": view,
        "focal_rel_sigma": f_rel_sigma,
        "focal": f_note or f"prior: camera height {prior.height_mm:.0f} mm ± {100 * prior.rel_sigma:.0f}%",
        "ball_plane_sigma_mm_median": sig_med,
        "ball_plane_sigma_mm_max": sig_max,
        "edge_points": {f"{ln.side}_{ln.kind}": [ln.n_inliers, ln.n_samples] for ln in lines},
        "diamonds_found": [int(keep_p.sum()), n_expected],
        "orientation": "flipped by request (head at the image right)"
        if hints.flip
        else "conventional (head at the image left; the table alone cannot tell head from foot)",
        "outline_corners_px": [list(p) for p in outline.corners_px],
        "warnings": list(warnings),
    }
    camera = _camera_model(st, table, w, h, err_px, err_mm, "auto", _json_safe(extras))
    return CalibrationResult(
        camera=camera,
        lines=tuple(lines),
        diamonds=matches,
        n_edge_inliers=len(edges),
        n_diamond_inliers=int(keep_p.sum()),
        reprojection_error_px=err_px,
        reprojection_error_mm=err_mm,
        warnings=tuple(warnings),
        method="auto",
    )
