"""The grid search of a contact's time evaluates the path terms at all grid times in one array
operation (tracking/sides.py ``_objective_grid``, issue 10: the refinement was most of the time a
shot's judgement takes): it must give what the per-time objective gives."""

from __future__ import annotations

import numpy as np
import pytest

from tracking.collisions import _launch_term
from tracking.cushions import window_mean
from tracking.pathfit import fit_path
from tracking.sides import ContactConfig, _objective_grid, distance_term, meet_term, objective, solve_time, value_term


def _fits(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0.0, 0.3, 12))
    y = np.column_stack([100 + 500 * t + rng.normal(0, 1, 12), 50 - 300 * t + rng.normal(0, 1, 12)])
    return fit_path(t, y, noise_mm=1.0), fit_path(t + 0.1, y[::-1], noise_mm=1.0)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind", ["meet", "launch", "value", "distance", "all three"])
def test_grid_objective_equals_the_objective_at_each_time(seed: int, kind: str) -> None:
    a, b = _fits(seed)
    terms = {
        "meet": [meet_term(a, b)],
        "launch": [_launch_term(a, np.array([300.0, 0.0]), np.array([340.0, -20.0]), 61.5, ContactConfig())],
        "value": [value_term(a, 120.0, 2.0)],
        "distance": [distance_term(a, b, 61.5, 1.0)],
        "all three": [meet_term(a, b), value_term(a, 120.0, 2.0), distance_term(a, b, 61.5, 1.0)],
    }[kind]
    ts = np.linspace(-0.05, 0.5, 33)  # outside the data too: the extrapolation variance
    want = np.array([objective(terms, float(t)) for t in ts])
    assert np.allclose(_objective_grid(terms, ts), want, rtol=1e-12, atol=1e-12)


def test_a_term_without_a_grid_form_is_evaluated_time_by_time() -> None:
    a, _ = _fits(0)

    def plain(t: float) -> tuple[float, float]:
        return float(a.pos(t)[0] - 150.0), 4.0

    t, _ = solve_time([plain], 0.0, 0.3)
    assert abs(float(a.pos(t)[0]) - 150.0) < 1e-3


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(("lo_s", "hi_s"), [(0.0, 0.3), (0.1, 0.12), (-0.2, 0.6)])
def test_solve_time_finds_the_least_objective_of_a_fine_scan(seed: int, lo_s: float, hi_s: float) -> None:
    """The zooming grids reach the minimum a brute-force scan of 20001 times finds (to the scan's
    step), and never return a time whose objective is above it."""
    a, b = _fits(seed)
    terms = [meet_term(a, b), value_term(a, 120.0, 2.0)]
    scan = np.linspace(lo_s, hi_s, 20001)
    vals = _objective_grid(terms, scan)
    t, v = solve_time(terms, lo_s, hi_s)
    assert lo_s <= t <= hi_s
    assert v == pytest.approx(objective(terms, t), rel=1e-12)
    assert v <= float(vals.min()) + 1e-9
    assert abs(t - float(scan[int(np.argmin(vals))])) <= 2 * (hi_s - lo_s) / 20000


@pytest.mark.parametrize(
    ("t_s", "half_s"),
    [
        (np.arange(20) / 60.0, 0.02),  # even frames
        (np.array([0.0, 0.01, 0.05, 0.051, 0.2, 0.21, 0.22]), 0.03),  # gaps: the window is in time
        (np.array([0.0]), 0.1),  # one sample
        (np.arange(10) / 25.0, 0.0),  # a zero half-width: each sample alone
    ],
)
def test_window_mean_is_the_mean_over_samples_within_half_s(t_s: np.ndarray, half_s: float) -> None:
    values = np.sin(7.0 * t_s) * 100.0 + t_s * 3.0
    want = np.array([values[np.abs(t_s - t) <= half_s].mean() for t in t_s])
    assert np.allclose(window_mean(t_s, values, half_s), want, rtol=1e-12, atol=1e-9)
