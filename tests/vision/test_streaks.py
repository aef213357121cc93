"""Fast balls as streaks on the rectified view (vision/streaks.py, issue 13 section 3): a
ball-wide stadium a few diameters long, fainter than a ball, is a streak with its middle and the
ends of its path; a ball with its shadow, a table line or a cue, and a blob thinner than a ball
are not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.streaks import ball_streaks

R_PX = 14.3  # a pool ball at 0.5 px/mm
CLOTH = (180, 110, 20)  # BGR: blue cloth
BALL = (120, 40, 10)  # a dark blue ball


def _view() -> np.ndarray:
    rng = np.random.default_rng(0)
    v = np.empty((664, 1299, 3), np.uint8)
    v[:] = CLOTH
    noise = rng.normal(0.0, 2.0, v.shape)
    return np.clip(v + noise, 0, 255).astype(np.uint8)


def _stadium(
    v: np.ndarray, a: tuple[float, float], b: tuple[float, float], half_w: float, colour, share: float
) -> None:
    """Blend ``colour`` at ``share`` over a stadium from a to b (drawn at 8x, shrunk: anti-aliased)."""
    s = 8
    mask = np.zeros((v.shape[0] * s, v.shape[1] * s), np.uint8)
    pa = (int(round((a[0] + 0.5) * s)), int(round((a[1] + 0.5) * s)))
    pb = (int(round((b[0] + 0.5) * s)), int(round((b[1] + 0.5) * s)))
    cv2.line(mask, pa, pb, 255, int(round(2 * half_w * s)))
    cv2.circle(mask, pa, int(round(half_w * s)), 255, -1)
    cv2.circle(mask, pb, int(round(half_w * s)), 255, -1)
    m = cv2.resize(mask, (v.shape[1], v.shape[0]), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255.0
    v[:] = np.clip(v * (1 - share * m) + np.array(colour, np.float32) * share * m, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    "length_r, width_r, share, found",
    [
        (4.5, 2.0, 0.45, True),  # a fast ball: 2.25 diameters of path while the shutter was open
        (8.0, 2.0, 0.3, True),  # faster, fainter
        # real dev Clip12 after the break: the blue 2 on the blue cloth, 3.2-3.5 radii long and
        # 2.3-2.7 wide on four frames (a short exposure, blurred), was unseen five frames
        (3.5, 2.4, 0.4, True),
        (2.6, 2.0, 1.0, False),  # a ball with its shadow: not long enough
        (15.0, 2.0, 0.6, False),  # a line, a cue on the cloth: too long for any ball's exposure
        (6.0, 0.8, 0.6, False),  # thinner than a ball
    ],
)
def test_a_streak_is_found_where_and_only_where_it_is(
    length_r: float, width_r: float, share: float, found: bool
) -> None:
    v = _view()
    mid = np.array([650.0, 330.0])
    axis = np.array([np.cos(0.6), np.sin(0.6)])
    half = 0.5 * (length_r - width_r) * R_PX
    a, b = mid - axis * half, mid + axis * half
    _stadium(v, tuple(a), tuple(b), 0.5 * width_r * R_PX, BALL, share)
    got = ball_streaks(v, R_PX)
    assert len(got) == (1 if found else 0)
    if found:
        st = got[0]
        assert np.hypot(st.u_px - mid[0], st.v_px - mid[1]) < 0.25 * R_PX
        ends = np.array(st.ends_px).reshape(2, 2)
        if np.dot(ends[1] - ends[0], axis) < 0:
            ends = ends[::-1]
        assert np.hypot(*(ends[0] - a)) < 0.6 * R_PX and np.hypot(*(ends[1] - b)) < 0.6 * R_PX
        assert st.length_r == pytest.approx(length_r, abs=0.8)


def test_region_bounds_where_streaks_are_sought() -> None:
    v = _view()
    _stadium(v, (100.0, 330.0), (160.0, 330.0), R_PX, BALL, 0.5)
    assert len(ball_streaks(v, R_PX)) == 1
    assert ball_streaks(v, R_PX, region_px=(300.0, 0.0, 1299.0, 664.0)) == []


@pytest.mark.parametrize("streaks", [True, False])
def test_the_detector_reports_a_lone_streak_unnamed_below_the_start_bar(streaks: bool) -> None:
    """vision/yolo.py: a streak on open cloth is a detection with no name, score 0.3 (under the
    tracker's start bar of 0.4: it continues a ball, it starts none) and its path's ends."""
    from calibration.table import load_table
    from vision.rectify import RectifiedGeometry
    from vision.yolo import YoloDetector

    pool = load_table("pool")
    geo = RectifiedGeometry(pool.length_mm, pool.width_mm, pool.ball_radius_mm, 0.5, pool.ball_radius_mm)
    w, h = geo.size_px
    v = _view()[:h, :w].copy()
    r = pool.ball_radius_mm * 0.5
    _stadium(v, (600.0, 300.0), (650.0, 340.0), r, BALL, 0.45)
    det = YoloDetector(geo, pool.ball_radius_mm, "pool", streaks=streaks)
    got = [d for d, _ in det.detect_with_boxes(v) if d.streak_px is not None]
    if not streaks:
        assert got == []
        return
    assert len(got) == 1
    d = got[0]
    assert d.label is None and d.label_scores == {} and d.score == pytest.approx(0.3)
    x, y = geo.uv_to_mm(np.array([625.0]), np.array([320.0]))
    assert np.hypot(d.x_mm - x[0], d.y_mm - y[0]) < 0.5 * pool.ball_radius_mm
