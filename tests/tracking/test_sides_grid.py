"""The grid search of a contact's time evaluates the path terms at all grid times in one array
operation (tracking/sides.py ``_objective_grid``, issue 10: the refinement was most of the time a
shot's judgement takes): it must give what the per-time objective gives."""

from __future__ import annotations

import numpy as np
import pytest

from tracking.pathfit import fit_path
from tracking.sides import _objective_grid, distance_term, meet_term, objective, solve_time, value_term


def _fits(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0.0, 0.3, 12))
    y = np.column_stack([100 + 500 * t + rng.normal(0, 1, 12), 50 - 300 * t + rng.normal(0, 1, 12)])
    return fit_path(t, y, noise_mm=1.0), fit_path(t + 0.1, y[::-1], noise_mm=1.0)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind", ["meet", "value", "distance", "all three"])
def test_grid_objective_equals_the_objective_at_each_time(seed: int, kind: str) -> None:
    a, b = _fits(seed)
    terms = {
        "meet": [meet_term(a, b)],
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
