"""A ball's path fits are remembered while its contacts are sought (tracking/sides.py ``_side_fit``,
``BallActivity.fits``; issue 10: a snooker break's contacts fitted the same sides 15,220 times,
1,911 of them different, a quarter of the whole command): a remembered fit is the fit made anew,
and a fit through a caller's projection is never remembered."""

from __future__ import annotations

import math

import numpy as np

from tracking.ids import BallId
from tracking.segment import BallSamples, SegmentConfig, ball_activity
from tracking.sides import ContactConfig, make_side


def _activity():  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(3)
    t = np.arange(40) / 50.0
    moving = t >= 0.2
    x = np.where(moving, 500.0 + 900.0 * (t - 0.2), 500.0) + rng.normal(0.0, 0.5, t.size)
    y = np.where(moving, 300.0 + 200.0 * (t - 0.2), 300.0) + rng.normal(0.0, 0.5, t.size)
    s = BallSamples(BallId.B3, t, np.column_stack([x, y]), np.arange(t.size), np.ones(t.size), np.zeros(t.size, bool))
    return ball_activity(s, float(t[-1]), SegmentConfig())


def test_a_remembered_fit_is_the_fit_made_anew() -> None:
    cfg = ContactConfig()
    act = _activity()
    t_ref = float(act.samples.t_s[25])
    first = make_side(act, 25, +1, -math.inf, math.inf, cfg, t_ref_s=t_ref)
    n = len(act.fits)
    again = make_side(act, 25, +1, -math.inf, math.inf, cfg, t_ref_s=t_ref)
    assert n > 0 and len(act.fits) == n, "the second call fits nothing anew"
    assert again.fit is first.fit
    fresh = make_side(_activity(), 25, +1, -math.inf, math.inf, cfg, t_ref_s=t_ref)
    assert first.fit is not None and fresh.fit is not None
    assert np.array_equal(first.fit.coef, fresh.fit.coef) and np.array_equal(first.idx, fresh.idx)


def test_a_fit_through_a_projection_is_not_remembered() -> None:
    act = _activity()
    side = make_side(act, 25, +1, -math.inf, math.inf, ContactConfig(), project=lambda xy: xy[:, :1])
    assert side.fit is not None and side.fit.coef.shape[1] == 1
    assert not act.fits
