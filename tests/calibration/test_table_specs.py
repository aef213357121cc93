"""The bundled table specs (DESIGN.md "Table specs are data"): pool 9/8/7 ft (WPA Equipment
Specifications), snooker (WPBSA Rules section 2), carom (RFEB ART 2), and the pocket, diamond,
spot and line geometry every stage reads from them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import calibration.table as table_module
from calibration.table import TableSpecError, load_table, table_from_dict

IN = 25.4

# name, L, W, ball, long-rail diamonds, short-rail diamonds, pockets
TABLES = [
    ("carom", 2840.0, 1420.0, 61.5, 7, 3, 0),
    ("pool", 100 * IN, 50 * IN, 57.15, 6, 3, 6),
    ("pool_9ft", 100 * IN, 50 * IN, 57.15, 6, 3, 6),
    ("pool_8ft", 88 * IN, 44 * IN, 57.15, 6, 3, 6),
    ("pool_7ft", 78 * IN, 39 * IN, 57.15, 6, 3, 6),
    ("snooker", 3569.0, 1778.0, 52.5, 0, 0, 6),
]
POCKETED = [t for t in TABLES if t[6]]
POOL = [t[0] for t in TABLES if t[0].startswith("pool")]


@pytest.mark.parametrize("name,L,W,ball,n_long,n_short,n_pockets", TABLES)
def test_spec_loads_with_its_sizes(name, L, W, ball, n_long, n_short, n_pockets):
    t = load_table(name)
    assert t.length_mm == pytest.approx(L, abs=0.01) and t.width_mm == pytest.approx(W, abs=0.01)
    assert t.ball_diameter_mm == ball
    assert len(t.pockets) == n_pockets
    marks = t.diamond_marks()
    for side, n in (("right", n_long), ("left", n_long), ("head", n_short), ("foot", n_short)):
        assert sum(m.side == side for m in marks) == n, side
    assert len(t.diamonds_mm()) == 2 * (n_long + n_short)


@pytest.mark.parametrize("name", POOL)
def test_pool_wpa_cushion_and_sights(name):
    """WPA: nose height 62.5-64.5 % of the ball; sight centres 3 11/16 in from the nose; 18 sights."""
    t = load_table(name)
    assert 0.625 <= t.cushion_nose_height_mm / t.ball_diameter_mm <= 0.645
    assert t.diamond_setback_mm == pytest.approx(3.6875 * IN, abs=0.05)
    assert 4 * IN <= t.cushion_width_mm + t.rail_width_mm <= 7.5 * IN


@pytest.mark.parametrize("name", POOL)
def test_pool_diamonds_at_eighths_skip_the_side_pocket(name):
    t = load_table(name)
    L, W = t.length_mm, t.width_mm
    long_x = sorted(m.xyz_mm[0] for m in t.diamond_marks() if m.side == "right")
    assert long_x == pytest.approx([L * k / 8 for k in (1, 2, 3, 5, 6, 7)])
    short_y = sorted(m.xyz_mm[1] for m in t.diamond_marks() if m.side == "head")
    assert short_y == pytest.approx([W * k / 4 for k in (1, 2, 3)])
    for m in t.diamond_marks():
        assert all(math.dist(m.xyz_mm[:2], p.centre_mm) > p.mouth_mm for p in t.pockets)


@pytest.mark.parametrize("name", POOL)
def test_pool_pocket_mouths_wpa(name):
    """WPA 9: corner mouth 4.5-4.625 in, side 5-5.125 in, nose point to nose point; cut angles 142/104."""
    t = load_table(name)
    for p in t.pockets:
        lo, hi, angle = (4.5, 4.625, 142.0) if p.kind == "corner" else (5.0, 5.125, 104.0)
        assert lo * IN <= p.mouth_mm <= hi * IN, p.name
        assert p.facing_angle_deg == angle
        a, b = p.nose_points_mm()
        assert math.dist(a, b) == pytest.approx(p.mouth_mm)
        shelf_lo, shelf_hi = (1.0, 2.25) if p.kind == "corner" else (0.0, 0.375)
        assert shelf_lo * IN <= p.shelf_mm <= shelf_hi * IN


@pytest.mark.parametrize("name,L,W,ball,n_long,n_short,n_pockets", POCKETED)
def test_pockets_sit_at_the_corners_and_middles(name, L, W, ball, n_long, n_short, n_pockets):
    """Nose points lie on the nose lines; the mouth centre is inside the cloth rectangle, the hole
    centre outside it; a ball falls over the hole and not on the cloth."""
    t = load_table(name)
    L, W = t.length_mm, t.width_mm
    names = {p.name for p in t.pockets}
    assert names == {"head_left", "head_right", "side_left", "side_right", "foot_left", "foot_right"}
    for p in t.pockets:
        cx, cy = p.centre_mm
        assert -1e-6 <= cx <= L + 1e-6 and -1e-6 <= cy <= W + 1e-6
        for q in p.nose_points_mm():
            on_x = min(abs(q[0]), abs(q[0] - L)) < 0.01
            on_y = min(abs(q[1]), abs(q[1] - W)) < 0.01
            assert on_x or on_y, (p.name, q)
        hx, hy = p.hole_centre_mm
        assert hx < 0 or hx > L or hy < 0 or hy > W
        assert p.falls(hx, hy) and not p.falls(L / 2, W / 2)
        ox, oy = p.outward
        assert math.hypot(ox, oy) == pytest.approx(1.0)
        # the facings run outward and the throat narrows (WPA cut angles > 135 / 90)
        (a, b), (da, db) = p.nose_points_mm(), p.facing_dirs()
        assert da[0] * ox + da[1] * oy > 0.9 and db[0] * ox + db[1] * oy > 0.9
        far_a = (a[0] + 50 * da[0], a[1] + 50 * da[1])
        far_b = (b[0] + 50 * db[0], b[1] + 50 * db[1])
        assert math.dist(far_a, far_b) <= p.mouth_mm + 1e-6
        assert p.capture_radius_mm == pytest.approx(p.mouth_mm / 2 + t.ball_radius_mm)
    assert t.pocket("side_right").centre_mm == pytest.approx((L / 2, 0.0))
    assert t.pocket("side_left").centre_mm == pytest.approx((L / 2, W))
    hr = t.pocket("head_right")
    assert hr.centre_mm[0] == pytest.approx(hr.centre_mm[1]) and hr.centre_mm[0] < 60


@pytest.mark.parametrize("name", POOL)
def test_pool_spots_and_strings(name):
    t = load_table(name)
    L, W = t.length_mm, t.width_mm
    assert t.spots_mm["foot_spot"] == pytest.approx((0.75 * L, W / 2))
    assert t.spots_mm["head_spot"] == pytest.approx((0.25 * L, W / 2))
    assert t.spots_mm["centre_spot"] == pytest.approx((L / 2, W / 2))
    assert t.spots_mm["rack_apex"] == t.spots_mm["foot_spot"]
    hs = t.lines_mm["head_string"]
    assert hs.p0_mm[0] == hs.p1_mm[0] == pytest.approx(L / 4) and not hs.drawn


def test_snooker_spots_wpbsa():
    """WPBSA section 2: baulk line 737 mm, D radius 292 mm, black 324 mm from the top cushion,
    pink midway centre-top, blue centre, yellow on the right of the D seen from baulk (y < W/2)."""
    t = load_table("snooker")
    L, W = t.length_mm, t.width_mm
    s = t.spots_mm
    assert s["brown"] == pytest.approx((737.0, W / 2))
    assert s["yellow"] == pytest.approx((737.0, W / 2 - 292.0))
    assert s["green"] == pytest.approx((737.0, W / 2 + 292.0))
    assert s["blue"] == pytest.approx((L / 2, W / 2))
    assert s["pink"] == pytest.approx((0.75 * L, W / 2))
    assert s["black"] == pytest.approx((L - 324.0, W / 2))
    assert s["pink"][0] + t.ball_diameter_mm < s["reds_apex"][0] < s["pink"][0] + t.ball_diameter_mm + 2
    assert set(t.drawn_spots) == {"yellow", "green", "brown", "blue", "pink", "black"}
    baulk, d = t.lines_mm["baulk_line"], t.lines_mm["D"]
    assert baulk.drawn and d.drawn and baulk.p0_mm[0] == baulk.p1_mm[0] == 737.0
    pts = d.points_mm(10.0)
    assert all(x <= 737.0 + 1e-6 for x, _ in pts)  # the D lies in baulk
    assert all(math.dist(p, (737.0, W / 2)) == pytest.approx(292.0) for p in pts)
    assert pts[0] == pytest.approx((737.0, W / 2 + 292.0)) and pts[-1] == pytest.approx((737.0, W / 2 - 292.0))
    assert t.diamonds_mm() == []
    for p in t.pockets:
        assert p.mouth_mm == (86.0 if p.kind == "corner" else 105.0)


@pytest.mark.parametrize("name", ["pool", "snooker"])
def test_with_size_keeps_pockets_at_their_corners(name):
    t = load_table(name)
    u = t.with_size(length_mm=t.length_mm * 0.9, width_mm=t.width_mm * 0.9)
    for p, q in zip(t.pockets, u.pockets):
        if p.kind == "side":
            assert q.centre_mm[0] == pytest.approx(u.length_mm / 2)
        if p.name.startswith("head"):
            assert q.centre_mm[0] == pytest.approx(p.centre_mm[0])
        if p.name.startswith("foot"):
            assert u.length_mm - q.centre_mm[0] == pytest.approx(t.length_mm - p.centre_mm[0])
        assert q.mouth_mm == p.mouth_mm
    for k, (x, y) in t.spots_mm.items():
        assert u.spots_mm[k] == pytest.approx((0.9 * x, 0.9 * y))
    assert len(u.diamonds_mm()) == len(t.diamonds_mm())


def test_carom_diamonds_unchanged():
    """RFEB ART 2: marks at 1/8 of the length, 3 per short rail; the order of diamonds_mm is kept."""
    t = load_table("carom")
    d = t.diamonds_mm()
    L, W, s, z = t.length_mm, t.width_mm, t.diamond_setback_mm, t.rail_height_mm
    want = []
    for k in range(1, 4):
        want += [(-s, W * k / 4, z), (L + s, W * k / 4, z)]
    for k in range(1, 8):
        want += [(L * k / 8, -s, z), (L * k / 8, W + s, z)]
    assert np.allclose(np.asarray(d, float), np.asarray(want, float))


def _user_pool(**over):
    d = json.loads((Path(table_module.__file__).with_name("tables") / "pool_9ft.json").read_text())
    d.update(over)
    return d


@pytest.mark.parametrize(
    "over,msg",
    [
        ({"diamonds_long": 7}, "diamonds on the right rail"),
        ({"pockets": [{"name": "x", "kind": "middle", "centre_mm": [0, 0]}]}, "kind expected"),
        ({"drawn_spots": ["nowhere"]}, "drawn_spots"),
        ({"lines": [{"name": "l", "kind": "spiral"}]}, "kind expected"),
    ],
)
def test_bad_specs_are_one_line_errors(over, msg):
    with pytest.raises(TableSpecError, match=msg) as e:
        table_from_dict(_user_pool(**over), "user.json")
    assert "\n" not in str(e.value)


def test_unknown_name_lists_the_tables():
    with pytest.raises(TableSpecError, match="pool_9ft.*snooker|snooker.*pool"):
        load_table("bagatelle")
