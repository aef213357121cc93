"""Property tests of the calibration stage's readers: calibration files (calibration/camera.py),
table specs (calibration/table.py) and corners (calibration/manual.py). A valid file reads; a
mutated file or random JSON gives the reader's TabletrackError, never another exception."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_inputs import FAST, json_values, mutated

from calibration.camera import CameraModel, CameraModelError
from calibration.manual import parse_corners
from calibration.table import known_tables, load_table, table_from_dict
from common.errors import TabletrackError

TABLES = Path(__file__).resolve().parents[2] / "calibration" / "tables"


@st.composite
def cameras(draw: st.DrawFn) -> CameraModel:
    """A camera 1.5-6 m over a point of the table, looking at it, any image size and lens."""
    eye = (
        draw(st.floats(min_value=-500, max_value=3500)),
        draw(st.floats(min_value=-500, max_value=2000)),
        draw(st.floats(min_value=1500, max_value=6000)),
    )
    target = (draw(st.floats(min_value=500, max_value=2500)), draw(st.floats(min_value=300, max_value=1200)), 0.0)
    return CameraModel.look_at(
        draw(st.integers(min_value=320, max_value=4096)),
        draw(st.integers(min_value=240, max_value=2160)),
        draw(st.floats(min_value=300, max_value=5000)),
        eye,
        target,
        k1=draw(st.floats(min_value=-0.5, max_value=0.5)),
    )


@FAST
@given(cameras())
def test_a_valid_calibration_reads_back(cam: CameraModel) -> None:
    assert CameraModel.from_dict(json.loads(json.dumps(cam.to_dict())), "c.json") == cam


@FAST
@given(data=st.data())
def test_a_mutated_calibration_file_is_refused_as_bad_input(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = data.draw(mutated(json.dumps(data.draw(cameras()).to_dict())))
    p = tmp_path_factory.mktemp("cal") / "calibration.json"
    p.write_text(text, encoding="utf-8")
    try:
        CameraModel.load(p)
    except CameraModelError as e:
        assert "\n" not in str(e)


@FAST
@given(
    st.dictionaries(st.sampled_from(["fx", "fy", "cx", "cy", "k1", "k2", "rvec", "tvec_mm", "image_w_px"]), json_values)
)
def test_random_calibration_fields_are_refused_as_bad_input(fields: dict[str, object]) -> None:
    d = {**CameraModel.look_at(1280, 720, 1000, (1420, 710, 3000), (1420, 710, 0)).to_dict(), **fields}
    with contextlib.suppress(CameraModelError):
        CameraModel.from_dict(d, "c.json")


@pytest.mark.parametrize("name", known_tables())
def test_every_bundled_table_reads(name: str) -> None:
    assert load_table(name).name == name


@FAST
@given(data=st.data())
def test_a_mutated_table_spec_is_refused_as_bad_input(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    name = data.draw(st.sampled_from(known_tables()))
    text = data.draw(mutated((TABLES / f"{name}.json").read_text(), max_edits=2))
    p = tmp_path_factory.mktemp("t") / "table.json"
    p.write_text(text, encoding="utf-8")
    try:
        load_table(str(p))
    except TabletrackError as e:
        assert "\n" not in str(e)


@FAST
@given(
    st.sampled_from(
        [
            "length_mm",
            "width_mm",
            "ball_diameter_mm",
            "diamonds_long",
            "diamond_grid_short",
            "pockets",
            "spots_mm",
            "lines",
        ]
    ),
    json_values,
)
def test_a_table_spec_field_of_any_value_is_read_or_refused(key: str, value: object) -> None:
    d = json.loads((TABLES / "pool_9ft.json").read_text())
    d[key] = value
    with contextlib.suppress(TabletrackError):
        table_from_dict(d, "t.json")


@FAST
@given(
    st.one_of(
        st.text(max_size=80),
        st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=10).map(lambda v: ",".join(map(str, v))),
    )
)
def test_corners_text_is_read_or_refused(text: str) -> None:
    try:
        pts = parse_corners(text)
        assert len(pts) == 4
    except TabletrackError:
        pass


@FAST
@given(value=json_values)
def test_a_corners_file_of_any_json_is_read_or_refused(value: object, tmp_path_factory: pytest.TempPathFactory) -> None:
    p = tmp_path_factory.mktemp("c") / "corners.json"
    p.write_text(json.dumps(value), encoding="utf-8")
    with contextlib.suppress(TabletrackError):
        parse_corners(str(p))
