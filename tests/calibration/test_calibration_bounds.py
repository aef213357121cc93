"""Calibration files and table specs refuse values that describe no camera and no billiards table,
in one line naming the field (calibration/camera.py, calibration/table.py; DESIGN.md sizes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from calibration.camera import CameraModel, CameraModelError
from calibration.table import TableSpecError, load_table, table_from_dict

TABLES = Path(__file__).resolve().parents[2] / "calibration" / "tables"
GOOD = CameraModel.look_at(1280, 720, 1000.0, (1420.0, 710.0, 3000.0), (1420.0, 710.0, 0.0)).to_dict()


@pytest.mark.parametrize(
    "field,value,expect",
    [
        ("rvec", [0.1, 0.2], "field 'rvec': expected a list of 3 finite numbers"),
        ("tvec_mm", [1, 2, 3, 4], "field 'tvec_mm': expected a list of 3"),
        ("tvec_mm", "far", "field 'tvec_mm'"),
        ("fx", 0, "field 'fx': expected a number in 1..1e+06, got 0"),
        ("fx", -900.0, "field 'fx'"),
        ("fy", 1e308, "field 'fy'"),
        ("cx", "640", "field 'cx'"),
        ("k1", 1e9, "field 'k1'"),
        ("image_w_px", 0, "field 'image_w_px': expected a whole number of pixels"),
        ("image_h_px", 720.5, "field 'image_h_px'"),
        ("extras", [1], "field 'extras': expected an object"),
        ("reprojection_error_px", -1, "field 'reprojection_error_px'"),
    ],
)
def test_a_calibration_field_out_of_its_meaning_is_refused(field: str, value: Any, expect: str) -> None:
    with pytest.raises(CameraModelError) as e:
        CameraModel.from_dict({**GOOD, field: value}, "calib.json")
    assert str(e.value).startswith("calib.json: ") and expect in str(e.value), str(e.value)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_non_finite_focal_length_in_the_file_names_the_file_and_field(tmp_path: Path, literal: str) -> None:
    p = tmp_path / "calib.json"
    p.write_text(json.dumps(GOOD).replace('"fx": 1000.0', f'"fx": {literal}'))
    with pytest.raises(CameraModelError, match=r"calib.json: field 'fx': expected a finite number"):
        CameraModel.load(p)


def test_a_camera_below_the_cloth_is_refused() -> None:
    below = CameraModel.look_at(1280, 720, 1000.0, (1420.0, 710.0, -3000.0), (1420.0, 710.0, 0.0)).to_dict()
    with pytest.raises(CameraModelError, match="expected a camera above the cloth"):
        CameraModel.from_dict(below, "calib.json")


def _pool(**over: Any) -> dict[str, Any]:
    d = json.loads((TABLES / "pool_9ft.json").read_text())
    d.update(over)
    return d


@pytest.mark.parametrize(
    "over,expect",
    [
        ({"length_mm": float("nan")}, "length_mm: expected a number in 900..5000, got nan"),
        ({"width_mm": float("inf")}, "width_mm: expected a number in 450..2500"),
        ({"length_mm": 1e-9}, "length_mm"),
        ({"length_mm": 1e308}, "length_mm"),
        ({"ball_diameter_mm": 0.5}, "ball_diameter_mm: expected a number in 20..120"),
        ({"ball_diameter_mm": "57"}, "ball_diameter_mm"),
        ({"length_mm": 1200.0, "width_mm": 2400.0}, "the length to be the longer side"),
        ({"diamonds_long": 100_000_000}, "diamonds_long: expected a whole number in 0..50"),
        ({"diamonds_short": 2.5}, "diamonds_short"),
        ({"rail_height_mm": -5}, "rail_height_mm"),
        ({"spots_mm": {"foot_spot": [1905.0, float("nan")]}}, "spot foot_spot"),
    ],
)
def test_a_table_outside_a_billiards_tables_range_is_refused(over: dict[str, Any], expect: str) -> None:
    with pytest.raises(TableSpecError) as e:
        table_from_dict(_pool(**over), "mine.json")
    assert str(e.value).startswith("mine.json: ") and expect in str(e.value), str(e.value)


@pytest.mark.parametrize(
    "size",
    [(float("nan"), 1270.0, None), (2540.0, 1e-9, None), (1e308, 1270.0, None), (2540.0, 1270.0, 1000.0)],
)
def test_a_resized_table_is_checked_like_a_file(size: tuple[float, float, float | None]) -> None:
    with pytest.raises(TableSpecError, match="resized"):
        load_table("pool").with_size(*size)
