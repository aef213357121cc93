"""The manual fallback: four playing-surface corners in px (head-right, foot-right, foot-left,
head-left), from the command line or a JSON file."""

from __future__ import annotations

import json

import numpy as np
import pytest
from calib_frames import ball_plane_errors_mm, overhead_camera

from calibration.manual import calibrate_manual, parse_corners
from calibration.result import CalibrationError, CalibrationHints
from calibration.table import load_table

TABLE = load_table("carom")


def true_corners(cam) -> np.ndarray:
    return cam.project(np.array(TABLE.nose_corners_mm()))


@pytest.mark.parametrize(
    "text",
    [
        "100,600,1800,610,1790,80,110,90",
        "100 600 1800 610 1790 80 110 90",
        "100,600; 1800,610; 1790,80; 110,90",
    ],
)
def test_parse_corners_from_the_command_line(text: str) -> None:
    assert parse_corners(text) == ((100.0, 600.0), (1800.0, 610.0), (1790.0, 80.0), (110.0, 90.0))


@pytest.mark.parametrize(
    "content",
    [
        [[100, 600], [1800, 610], [1790, 80], [110, 90]],
        [100, 600, 1800, 610, 1790, 80, 110, 90],
        {"corners_px": [[100, 600], [1800, 610], [1790, 80], [110, 90]]},
        {"head_left": [110, 90], "foot_left": [1790, 80], "foot_right": [1800, 610], "head_right": [100, 600]},
    ],
)
def test_parse_corners_from_a_json_file(tmp_path, content) -> None:
    p = tmp_path / "corners.json"
    p.write_text(json.dumps(content))
    assert parse_corners(str(p)) == ((100.0, 600.0), (1800.0, 610.0), (1790.0, 80.0), (110.0, 90.0))


@pytest.mark.parametrize(
    "text, match",
    [
        ("1,2,3", "got 3 numbers"),
        ("a,b,c,d,e,f,g,h", "expected four playing-surface corners"),
        ("/no/such/corners.json", "not found"),
    ],
)
def test_parse_corners_errors_say_what_was_expected(text: str, match: str) -> None:
    with pytest.raises(CalibrationError, match=match):
        parse_corners(text)


@pytest.mark.parametrize("height_mm, tilt_deg", [(3500.0, 0.0), (3500.0, 12.0), (4200.0, 5.0)])
def test_manual_calibration_maps_the_ball_plane(height_mm: float, tilt_deg: float) -> None:
    """Exact corners (no distortion): the camera maps the ball plane to within a millimetre; with the
    corners clicked 1 px off at random, within a few (the warning says how much a pixel costs)."""
    true = overhead_camera(TABLE, 1920, 1080, height_mm, tilt_deg=tilt_deg)
    c = true_corners(true)
    res = calibrate_manual(c, TABLE, 1920, 1080)
    e = ball_plane_errors_mm(true, res.camera)
    rng = np.random.default_rng(int(height_mm + tilt_deg))
    noise = rng.normal(0, 1.0, c.shape)
    noisy = calibrate_manual(c + noise, TABLE, 1920, 1080)
    en = ball_plane_errors_mm(true, noisy.camera)
    mm_per_px = max(noisy.camera.extras["mm_per_px_at_corners"])
    worst_click_px = float(np.max(np.hypot(noise[:, 0], noise[:, 1])))
    print(
        f"\nmanual H={height_mm:.0f} tilt={tilt_deg:.0f}: exact corners max {e.max():.2f} mm; corners off by up "
        f"to {worst_click_px:.1f} px ({mm_per_px:.1f} mm/px): max {en.max():.2f} mm"
    )
    assert e.max() < 1.0
    assert en.max() < 2.5 * mm_per_px * worst_click_px  # the error follows the clicks, nothing adds to it
    assert res.method == "manual" and res.camera.method == "manual"
    assert [c.name for c in res.corners] == ["head_right", "foot_right", "foot_left", "head_left"]
    assert any("1 px of corner error" in w for w in res.warnings)


def test_manual_from_text_and_hint() -> None:
    true = overhead_camera(TABLE, 1280, 720, 3000)
    text = ",".join(f"{v:.3f}" for v in true_corners(true).ravel())
    res = calibrate_manual(text, TABLE, 1280, 720, hints=CalibrationHints(camera_height_mm=3000))
    assert ball_plane_errors_mm(true, res.camera).max() < 0.3


def test_reversed_order_is_refused_with_the_expected_order() -> None:
    true = overhead_camera(TABLE, 1920, 1080, 3500)
    with pytest.raises(CalibrationError, match="head-right, foot-right, foot-left, head-left.*clockwise"):
        calibrate_manual(true_corners(true)[::-1], TABLE, 1920, 1080)


def test_crossed_or_degenerate_corners_are_refused() -> None:
    c = true_corners(overhead_camera(TABLE, 1920, 1080, 3500))
    with pytest.raises(CalibrationError, match="cross over"):
        calibrate_manual(c[[0, 2, 1, 3]], TABLE, 1920, 1080)
    with pytest.raises(CalibrationError, match="on one line"):
        calibrate_manual(np.array([[0, 0], [100, 0], [200, 0], [0, 100.0]]), TABLE, 1920, 1080)
    with pytest.raises(CalibrationError, match="in or near the 1920x1080"):
        calibrate_manual(c * 10, TABLE, 1920, 1080)


def test_flip_hint_turns_the_manual_frame() -> None:
    true = overhead_camera(TABLE, 1920, 1080, 3500, tilt_deg=8)
    cam = calibrate_manual(true_corners(true), TABLE, 1920, 1080, hints=CalibrationHints(flip=True)).camera
    P = np.array([[300.0, 200.0, TABLE.ball_radius_mm], [2500.0, 1300.0, TABLE.ball_radius_mm]])
    q = cam.pixel_to_plane(true.project(P), z_mm=TABLE.ball_radius_mm)
    np.testing.assert_allclose(q, np.column_stack([TABLE.length_mm - P[:, 0], TABLE.width_mm - P[:, 1]]), atol=1.0)
    assert set(cam.extras["corners_px"]) == {"head_right", "foot_right", "foot_left", "head_left"}
