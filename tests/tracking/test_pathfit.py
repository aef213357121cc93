"""Short path fits (tracking.pathfit): the line chosen where curvature is not significant, and
the acceleration prior that keeps a decelerating ball's extrapolation to a contact unbiased."""

from __future__ import annotations

import numpy as np
import pytest

from tracking.pathfit import fit_path


def _decelerating(t: np.ndarray, v_mm_s: float, a_mm_s2: float) -> np.ndarray:
    return v_mm_s * t - 0.5 * a_mm_s2 * t * t


@pytest.mark.parametrize("a_mm_s2", [300.0, 1000.0, 2000.0])
def test_acceleration_prior_removes_the_bias_of_a_line_ahead_of_a_decelerating_ball(a_mm_s2: float) -> None:
    """Six frames at 30 fps of a ball slowing at a (rolling ~100 mm/s^2, sliding up to ~2000),
    1 mm noise; its position half a frame after the last frame (where a contact would be). Over
    many noise draws the line is off by about a/2 (tau^2 - var(t)), the prior fit by much less."""
    fps = 30.0
    t = -np.arange(5, -1, -1) / fps  # last sample at 0
    t_c = 0.5 / fps
    truth = _decelerating(np.array([t_c]), 2000.0, a_mm_s2)[0]
    rng = np.random.default_rng(0)
    line, prior = [], []
    for _ in range(400):
        y = _decelerating(t, 2000.0, a_mm_s2) + rng.normal(0, 1.0, len(t))
        line.append(fit_path(t, y, noise_mm=1.0).pos(t_c)[0] - truth)
        prior.append(fit_path(t, y, noise_mm=1.0, accel_prior_mm_s2=2000.0).pos(t_c)[0] - truth)
    bias_line, bias_prior = abs(np.mean(line)), abs(np.mean(prior))
    expected = 0.5 * a_mm_s2 * ((t_c - t.mean()) ** 2 - t.var())
    assert bias_line > 0.6 * expected
    assert bias_prior < 0.35 * bias_line + 0.1
    # the price: a wider spread, which the fit's own variance reports
    f = fit_path(t, _decelerating(t, 2000.0, a_mm_s2), noise_mm=1.0, accel_prior_mm_s2=2000.0)
    assert f.deg == 2 and np.std(prior) <= 2.0 * np.sqrt(f.pos_var(t_c)) + 0.1


def test_without_the_prior_a_faint_curve_is_fitted_by_a_line() -> None:
    t = np.arange(6) / 30.0
    y = _decelerating(t, 1500.0, 300.0) + np.random.default_rng(1).normal(0, 1.0, 6)
    assert fit_path(t, y, noise_mm=1.0).deg == 1


def test_the_prior_needs_three_samples() -> None:
    t = np.array([0.0, 1 / 30])
    assert fit_path(t, np.array([0.0, 50.0]), noise_mm=1.0, accel_prior_mm_s2=2000.0).deg == 1


def test_many_times_at_once_agree_with_one_at_a_time_and_are_kept() -> None:
    """pos_and_var_at is pos and pos_var over an array of times; asked again with the same times it
    hands back the same arrays (a contact's terms share fits and ask them on the same grids),
    read-only so that no caller changes another's."""
    t = np.linspace(0.0, 0.2, 9)
    xy = np.column_stack([100.0 + 900.0 * t - 300.0 * t**2, 50.0 + 200.0 * t])
    fit = fit_path(t, xy, noise_mm=1.0, accel_sd_mm_s2=500.0)
    ts = np.linspace(-0.05, 0.3, 5)  # before, inside and after the data
    pos, var = fit.pos_and_var_at(ts)
    for k, tk in enumerate(ts):
        assert pos[k] == pytest.approx(fit.pos(tk))
        assert var[k] == pytest.approx(fit.pos_var(tk))
    again = fit.pos_and_var_at(ts.copy())
    assert again[0] is pos and again[1] is var
    assert not pos.flags.writeable and not var.flags.writeable
    other, _ = fit.pos_and_var_at(ts + 0.01)
    assert other is not pos and other[0] == pytest.approx(fit.pos(ts[0] + 0.01))
