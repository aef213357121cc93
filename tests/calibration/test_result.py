"""Saving and loading a calibration, and refusing one made for another table or image size."""

from __future__ import annotations

import json

import numpy as np
import pytest
from calib_frames import overhead_camera, render_frame

from calibration.auto import calibrate_frame
from calibration.camera import CameraModel, CameraModelError
from calibration.manual import calibrate_manual
from calibration.result import CalibrationError, CalibrationHints, check_compatible
from calibration.table import load_table

TABLE = load_table("carom")


@pytest.fixture(scope="module")
def auto_result():
    cam = overhead_camera(TABLE, 1280, 720, 3500, tilt_deg=8, k1=-0.05)
    return calibrate_frame(render_frame(cam, TABLE, seed=3), TABLE)


def test_json_round_trip_keeps_camera_and_diagnostics(tmp_path, auto_result) -> None:
    p = tmp_path / "calib.json"
    auto_result.camera.save(p)
    text = p.read_text()
    assert "NaN" not in text and "Infinity" not in text  # strict JSON
    back = CameraModel.load(p)
    assert back == auto_result.camera
    assert back.extras == json.loads(json.dumps(auto_result.camera.extras))
    assert back.extras["table_size_mm"] == [TABLE.length_mm, TABLE.width_mm]
    px = np.array([[100.0, 200.0], [640.0, 360.0], [1200.0, 700.0]])
    np.testing.assert_allclose(back.pixel_to_plane(px, 30.75), auto_result.camera.pixel_to_plane(px, 30.75))
    check_compatible(back, TABLE, 1280, 720)


def test_manual_result_round_trips(tmp_path) -> None:
    cam = overhead_camera(TABLE, 1920, 1080, 3500)
    res = calibrate_manual(cam.project(np.array(TABLE.nose_corners_mm())), TABLE, 1920, 1080)
    p = tmp_path / "m.json"
    res.camera.save(p)
    back = CameraModel.load(p)
    assert back == res.camera and back.method == "manual"
    assert set(back.extras["corners_px"]) == {"head_right", "foot_right", "foot_left", "head_left"}


def test_other_image_size_is_refused(auto_result) -> None:
    with pytest.raises(CalibrationError, match=r"1280x720 px frames \(this run: 1920x1080 px\)") as e:
        check_compatible(auto_result.camera, TABLE, 1920, 1080)
    assert "\n" not in str(e.value)


def test_other_table_is_refused(auto_result) -> None:
    pool = TABLE.with_size(2540.0, 1270.0)
    with pytest.raises(CalibrationError, match="2840 x 1420 mm playing surface"):
        check_compatible(auto_result.camera, pool, 1280, 720)
    from dataclasses import replace

    renamed = replace(TABLE, name="snooker")
    with pytest.raises(CalibrationError, match="table 'carom_match'"):
        check_compatible(auto_result.camera, renamed, 1280, 720)


def test_loading_a_foreign_file_fails_with_one_line(tmp_path) -> None:
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"fx": 1}))
    with pytest.raises(CameraModelError, match="not a tabletrack calibration file"):
        CameraModel.load(p)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(camera_height_mm=10.0), "camera height"),
        (dict(camera_height_rel_sigma=0.0), "uncertainty"),
        (dict(fx_px=-5.0), "focal length"),
    ],
)
def test_bad_hints_are_refused(kwargs, match) -> None:
    with pytest.raises(CalibrationError, match=match):
        CalibrationHints(**kwargs)
