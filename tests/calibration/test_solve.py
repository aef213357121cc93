"""The solver on exact geometric observations (no images): it recovers the camera; and the focal
prior's effect on the ball-centre plane for a vertical view, where the focal length cannot be
measured, for cameras 3-4.5 m above the cloth (solve.py's docstring): about
``dz · d · |1/H - 1/H_prior|`` with dz = 45 - 30.75 mm (the diamonds hold the frame at rail height)
and d = 1588 mm at the corners: 1.2 mm at the corners for 3.0 or 4.5 m, 0.2-0.6 mm for 3.5-4 m;
a measured camera height (``CalibrationHints.camera_height_mm``) takes it to ~0.1 mm."""

from __future__ import annotations

import numpy as np
import pytest
from calib_frames import ball_plane_errors_mm, overhead_camera

from calibration.camera import CameraModel
from calibration.diamonds import diamond_world
from calibration.features import SIDES, side_frame
from calibration.lens import rotation_vector
from calibration.solve import CameraState, EdgeObs, FocalPrior, PointObs, flipped, init_from_corners, refine
from calibration.table import load_table

TABLE = load_table("carom")


def state_of(cam: CameraModel) -> CameraState:
    return CameraState(
        cam.fx,
        cam.cx,
        cam.cy,
        cam.k1,
        cam.k2,
        cam.R,
        np.array(cam.tvec_mm),
        (0.0,) * 4,
        (TABLE.cushion_width_mm,) * 4,
        TABLE.diamond_setback_mm,
    )


def camera_of(st: CameraState, like: CameraModel) -> CameraModel:
    return CameraModel(
        like.image_w_px,
        like.image_h_px,
        st.f,
        st.f,
        st.cx,
        st.cy,
        st.k1,
        st.k2,
        tuple(rotation_vector(st.R)),
        tuple(st.t),
        like.table,
    )


def observations(
    cam: CameraModel, noise_px: float, rng: np.random.Generator, diamond_noise_px: float = 0.05
) -> tuple[EdgeObs, PointObs]:
    """Edge points every ~35 mm on all eight lines and the 20 diamonds, with gaussian noise (defaults:
    what the detectors show on the test frames: ~0.2 px for edge points, ~0.03 px for dot centroids)."""
    sides, kinds, ss, us = [], [], [], []
    for si, side in enumerate(SIDES):
        fr = side_frame(TABLE, side)
        s = np.linspace(120, fr.length_mm - 120, 80)
        for ki, (o, z) in enumerate(
            ((0.0, TABLE.cushion_nose_height_mm), (TABLE.cushion_width_mm, TABLE.rail_height_mm))
        ):
            u = cam.project(fr.points(s, o, z))
            sides.append(np.full(len(s), si))
            kinds.append(np.full(len(s), ki))
            ss.append(s)
            us.append(u + rng.normal(0, noise_px, u.shape))
    edges = EdgeObs(np.concatenate(sides), np.concatenate(kinds), np.concatenate(ss), np.vstack(us))
    dw = diamond_world(TABLE)
    P = np.array([d[2] for d in dw])
    pts = PointObs(P, np.array([d[3] for d in dw]), cam.project(P) + rng.normal(0, diamond_noise_px, (len(P), 2)))
    return edges, pts


def perturbed(st: CameraState, rng: np.random.Generator) -> CameraState:
    from dataclasses import replace

    from calibration.lens import rodrigues

    return replace(st, f=st.f * 1.1, k1=0.0, R=rodrigues(rng.normal(0, 0.01, 3)) @ st.R, t=st.t + rng.normal(0, 30, 3))


@pytest.mark.parametrize("tilt, k1", [(12.0, -0.12), (15.0, 0.05), (8.0, -0.05)])
def test_recovers_an_off_axis_camera_from_exact_observations(tilt: float, k1: float) -> None:
    true = overhead_camera(TABLE, 1920, 1080, 3600, tilt_deg=tilt, roll_deg=2.0, k1=k1)
    rng = np.random.default_rng(1)
    edges, pts = observations(true, 0.2, rng)
    fit = refine(TABLE, perturbed(state_of(true), rng), edges, pts, fit_offsets=True, fit_setback=True)
    assert fit.success
    assert abs(fit.state.f / true.fx - 1) < 0.01
    assert abs(fit.state.k1 - k1) < 0.005
    assert ball_plane_errors_mm(true, camera_of(fit.state, true)).max() < 0.25


@pytest.mark.parametrize("height_mm", [3000.0, 3500.0, 4000.0, 4500.0])
def test_focal_prior_cost_at_the_table_corners(height_mm: float) -> None:
    """A camera straight above the table centre: f is unmeasurable, the prior (3.6 m ± 20%) picks the
    height. Measured effect on the ball plane (exact features, detector-level noise), printed per
    height: at most the parallax formula of the module docstring (+0.15 mm of noise)."""
    true = overhead_camera(TABLE, 1920, 1080, height_mm, k1=-0.05)
    rng = np.random.default_rng(int(height_mm))
    edges, pts = observations(true, 0.2, rng)
    fit = refine(
        TABLE, perturbed(state_of(true), rng), edges, pts, prior=FocalPrior(), fit_offsets=True, fit_setback=True
    )
    e_edge = ball_plane_errors_mm(true, camera_of(fit.state, true))
    known = refine(
        TABLE,
        perturbed(state_of(true), rng),
        edges,
        pts,
        prior=FocalPrior(height_mm, 0.02),
        fit_offsets=True,
        fit_setback=True,
    )
    e_known = ball_plane_errors_mm(true, camera_of(known.state, true))
    print(
        f"\ncamera {height_mm / 1000:.1f} m: solved height {fit.state.centre_mm[2]:.0f} mm, ball-plane max "
        f"{e_edge.max():.2f} mm (median {np.median(e_edge):.2f}); with the height known: max {e_known.max():.2f} mm"
    )
    parallax_mm = (
        (TABLE.rail_height_mm - TABLE.ball_radius_mm)
        * np.hypot(TABLE.length_mm / 2, TABLE.width_mm / 2)
        * abs(1 / height_mm - 1 / FocalPrior().height_mm)
    )
    assert e_edge.max() < parallax_mm + 0.15
    assert e_edge.max() < 1.3
    assert e_known.max() < 0.2


def test_flipped_state_is_the_same_camera_in_the_turned_frame() -> None:
    true = overhead_camera(TABLE, 1280, 720, 3500, tilt_deg=10, k1=-0.1)
    st = state_of(true)
    fl = flipped(st, TABLE)
    P = np.array([[100.0, 200.0, 30.0], [2000.0, 1300.0, 45.0]])
    P2 = np.column_stack([TABLE.length_mm - P[:, 0], TABLE.width_mm - P[:, 1], P[:, 2]])
    np.testing.assert_allclose(fl.project(P2), st.project(P), atol=1e-6)
    np.testing.assert_allclose(flipped(fl, TABLE).project(P), st.project(P), atol=1e-6)


def test_init_from_four_corners_finds_a_tilted_pose() -> None:
    true = overhead_camera(TABLE, 1920, 1080, 3500, tilt_deg=15)
    world = np.array(TABLE.nose_corners_mm())
    st, err = init_from_corners(true.project(world), world, 1920, 1080, table=TABLE)
    assert err < 0.5
    assert abs(st.f / true.fx - 1) < 0.05
    np.testing.assert_allclose(st.centre_mm, true.centre_mm, atol=0.05 * true.centre_mm[2])


@pytest.mark.parametrize(
    "flags",
    [
        dict(fit_f=True, fit_k1=True, fit_k2=False, fit_offsets=False, fit_setback=False),
        dict(fit_f=True, fit_k1=True, fit_k2=True, fit_offsets=True, fit_setback=True),
        dict(fit_f=False, fit_k1=False, fit_k2=False, fit_offsets=True, fit_setback=False),
    ],
)
def test_the_vectorised_jacobian_is_scipys_forward_difference(flags: dict[str, bool]) -> None:
    """The solver's one-call Jacobian (``_Problem.batch``) gives each row's residuals as the
    residual function does, and the Jacobian SciPy's ``2-point`` differences would (same steps)."""
    from scipy.optimize._numdiff import approx_derivative

    from calibration.solve import SIGMA_EDGE_PX, SIGMA_POINT_PX, _Problem

    true = overhead_camera(TABLE, 1920, 1080, 3600, tilt_deg=12.0, roll_deg=2.0, k1=-0.08)
    rng = np.random.default_rng(3)
    edges, pts = observations(true, 0.2, rng)
    edges.u_px[5] = np.nan  # a lost point: its residual is the solver's large constant in both
    prob = _Problem(
        TABLE, perturbed(state_of(true), rng), edges, pts, FocalPrior(), *flags.values(), SIGMA_EDGE_PX, SIGMA_POINT_PX
    )
    x0 = prob.x0()
    X = x0[None] + rng.normal(0, 1e-3, (4, len(x0)))
    got = prob.batch(X)
    for b in range(len(X)):
        np.testing.assert_allclose(got[b], prob(X[b]), rtol=1e-12, atol=1e-9)
    x = X[1]
    want = approx_derivative(prob, x, f0=prob(x), method="2-point")
    np.testing.assert_allclose(prob.jacobian(x), want, rtol=1e-6, atol=1e-6 * np.abs(want).max())


def test_sampling_a_fit_that_bounds_nothing_gives_no_cameras() -> None:
    """A covariance so wide that a draw overflows (a log focal length of hundreds) means the fit
    does not bound its parameters: no samples (the caller reports an unbounded spread), no
    OverflowError (a real pool photo's degenerate fit raised one)."""
    from calibration.solve import Fit, sample_states

    true = overhead_camera(TABLE, 1920, 1080, 3600, tilt_deg=12.0)
    st = state_of(true)
    n = 8  # log_f, rotation (3), centre x/z, y/z, log z/f, k1
    x = np.zeros(n)
    x[0] = np.log(st.f)
    fit = Fit(st, np.zeros(0), np.zeros((0, 2)), 0.0, ("p",) * n, np.eye(n) * 1e6, x, True)
    assert sample_states(TABLE, fit, st, 10, np.random.default_rng(0)) == []
