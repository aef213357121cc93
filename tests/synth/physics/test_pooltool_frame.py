"""The pooltool <-> table-frame map (DESIGN.md frame; pooltool 0.6.0 billiard table layout)."""

from __future__ import annotations

import numpy as np
import pytest

from synth.physics.pooltool_frame import (
    PooltoolFrameError,
    aim_deg_to_phi_deg,
    cushion_of_segment,
    phi_deg_to_aim_deg,
    pt_to_table_mm,
    table_mm_to_pt,
)
from tracking.ids import Cushion

L_MM, W_MM = 2840.0, 1420.0
L_M, W_M = 2.84, 1.42


@pytest.mark.parametrize(
    "segment,pt_point,cushion",
    [
        # pooltool create_billiard_table_cushion_segments: "18" p1=(0,0) p2=(w,0); "9" y=l;
        # "3" x=0 from (0,0) to (0,l); "12" x=w.
        ("18", (0.7, 0.0), Cushion.HEAD),
        ("9", (0.7, L_M), Cushion.FOOT),
        ("12", (W_M, 1.0), Cushion.RIGHT),
        ("3", (0.0, 1.0), Cushion.LEFT),
    ],
)
def test_segment_lines_land_on_their_cushion(segment, pt_point, cushion):
    assert cushion_of_segment(segment) is cushion
    x, y = pt_to_table_mm(*pt_point, W_MM)
    on_line = {Cushion.HEAD: x, Cushion.FOOT: L_MM - x, Cushion.RIGHT: y, Cushion.LEFT: W_MM - y}[cushion]
    assert on_line == pytest.approx(0.0, abs=1e-9)


def test_unknown_segment_is_a_value_error():
    with pytest.raises(PooltoolFrameError, match="expected one of"):
        cushion_of_segment("7")


def test_round_trip_and_proper_rotation():
    rng = np.random.default_rng(0)
    for _ in range(50):
        x, y = rng.uniform(0, L_MM), rng.uniform(0, W_MM)
        assert table_mm_to_pt(*pt_to_table_mm(*table_mm_to_pt(x, y, W_MM), W_MM), W_MM) == pytest.approx(
            table_mm_to_pt(x, y, W_MM)
        )
        assert pt_to_table_mm(*table_mm_to_pt(x, y, W_MM), W_MM) == pytest.approx((x, y))
    # Jacobian of the map has determinant +1: spin senses are kept.
    o = np.array(pt_to_table_mm(0.0, 0.0, W_MM))
    ex = np.array(pt_to_table_mm(0.001, 0.0, W_MM)) - o
    ey = np.array(pt_to_table_mm(0.0, 0.001, W_MM)) - o
    assert np.linalg.det(np.stack([ex, ey], axis=1)) == pytest.approx(1.0)


@pytest.mark.parametrize("phi,aim", [(90.0, 0.0), (0.0, 270.0), (180.0, 90.0), (270.0, 180.0)])
def test_cue_direction(phi, aim):
    # pooltool phi = 90 strikes toward its +y (our foot, +x); phi = 0 toward its +x (our right, -y).
    assert phi_deg_to_aim_deg(phi) == pytest.approx(aim)
    assert aim_deg_to_phi_deg(aim) == pytest.approx(phi % 360.0)
    v_pt = np.array([np.cos(np.radians(phi)), np.sin(np.radians(phi))]) * 0.001
    v_tab = np.array(pt_to_table_mm(*v_pt, W_MM)) - np.array(pt_to_table_mm(0.0, 0.0, W_MM))
    assert v_tab == pytest.approx([np.cos(np.radians(aim)), np.sin(np.radians(aim))], abs=1e-9)
