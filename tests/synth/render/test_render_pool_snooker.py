"""Pool and snooker in the renderer: every ball of each set in its colours (WPA numbering: 1-8
solids, 9-15 stripes on white; WPBSA snooker colours), balls turned by their orientation, the six
pockets cut into the table (dark holes, balls sinking out of sight), diamonds on pool rails only,
the snooker baulk line drawn, and the labels a detector trains on."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import load_table
from synth.physics.trajectory import SimShot
from synth.render.balls import BallsState, _sprite
from synth.render.ballset import POOL_BALLS, SNOOKER_BALLS, base_bgr
from synth.render.cameras import broadcast_camera
from synth.render.labels import ball_labels
from synth.render.pockets import sink_into_pockets
from synth.render.scene import build_scene, render_background
from synth.render.still import rack_positions, random_style, render_still
from synth.render.style import RenderStyle
from tracking.ids import BallId

FAST = RenderStyle(static_supersample=1, noise_sigma=0.0, vignette=0.0)


def _close_camera(table, x, y, size=64):
    """Straight down over (x, y) from 700 mm: a ball ~45 px across."""
    fx = 45.0 * (700.0 - table.ball_radius_mm) / table.ball_diameter_mm
    return CameraModel.look_at(size, size, fx, (x, y, 700.0), (x, y, 0.0))


@pytest.fixture(scope="module")
def close_scenes():
    out = {}
    for name in ("pool", "snooker"):
        t = load_table(name)
        x, y = t.length_mm / 2, t.width_mm / 2
        out[name] = build_scene(t, _close_camera(t, x, y), FAST, np.random.default_rng(0))
    return out


def _ball_pixels(scene, ball, orient):
    t = scene.table
    S = np.array([t.length_mm / 2, t.width_mm / 2, t.ball_radius_mm])
    sp = _sprite(scene, S, ball, orient, 0)
    inner = sp.alpha > 0.99
    col = sp.premul[inner] / sp.alpha[inner][:, None]
    return col


_SIDE_ON = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])  # body z along world x, body x down


@pytest.mark.parametrize("name,balls", [("pool", POOL_BALLS), ("snooker", SNOOKER_BALLS)])
def test_every_ball_shows_its_own_colour(close_scenes, name, balls):
    """Each ball's mean colour seen from above is nearer its own set colour than any other's
    (stripes turned so the band crosses the top, number circles facing down)."""
    sc = close_scenes[name]
    palette = {b: np.array(base_bgr(b)) for b in balls}
    colours = {tuple(v) for v in palette.values()}
    for b in balls:
        orient = _SIDE_ON if b.value.isdigit() and int(b.value) > 8 else np.eye(3)
        col = _ball_pixels(sc, b, orient)
        if b.value.isdigit() and int(b.value) > 8:
            band = col[np.argsort(-np.abs(col - col.mean(axis=1, keepdims=True)).sum(axis=1))[: len(col) // 3]]
            mean = np.median(band, axis=0)
        else:
            mean = np.median(col, axis=0)

        # compare chromaticity (the shading scales all channels)
        def chroma(c):
            c = np.asarray(c, float)
            return c / max(c.sum(), 1.0)

        nearest = min(colours, key=lambda c: np.abs(chroma(c) - chroma(mean)).sum())
        assert nearest == tuple(palette[b]), (b.value, mean)


def test_stripes_show_white_and_their_band(close_scenes):
    """A stripe seen from the top of its white cap is white; turned, its band shows across it."""
    sc = close_scenes["pool"]
    for n in range(9, 16):
        b = BallId(str(n))
        cap = np.median(_ball_pixels(sc, b, np.eye(3)), axis=0)
        assert cap.min() > 0.75 * cap.max(), (n, cap)  # neutral: white
        side = _ball_pixels(sc, b, _SIDE_ON)
        ratio = side.min(axis=1) / np.maximum(side.max(axis=1), 1.0)
        assert (ratio < 0.6).mean() > 0.3 and (ratio > 0.8).mean() > 0.15, n  # band and white both seen


def test_numbers_turn_with_the_ball(close_scenes):
    """The number circle faces body +x: rolled to the top it shows a white disc with black ink."""
    sc = close_scenes["pool"]
    up_x = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])  # body x -> world z
    top = _ball_pixels(sc, BallId.B8, up_x)
    away = _ball_pixels(sc, BallId.B8, np.eye(3))
    bright_top, bright_away = (top.mean(axis=1) > 150).mean(), (away.mean(axis=1) > 150).mean()
    assert bright_top > bright_away + 0.1  # the white circle (highlights are on both)
    assert (top.mean(axis=1) < 60).mean() > 0.2


@pytest.fixture(scope="module")
def pool_scene():
    t = load_table("pool")
    cam = broadcast_camera(t, 320, 180)
    return build_scene(t, cam, FAST, np.random.default_rng(1))


@pytest.fixture(scope="module")
def snooker_scene():
    t = load_table("snooker")
    cam = broadcast_camera(t, 320, 180)
    return build_scene(t, cam, FAST, np.random.default_rng(1))


def _px(scene, x, y, z=0.0):
    u, v = scene.camera.project(np.array([[x, y, z]]))[0]
    return scene.image_bgr[int(round(v)), int(round(u))]


@pytest.mark.parametrize("which", ["pool", "snooker"])
def test_pockets_darker_than_cloth_at_their_centres(pool_scene, snooker_scene, which):
    sc = pool_scene if which == "pool" else snooker_scene
    t = sc.table
    cloth = _px(sc, t.length_mm / 2, t.width_mm / 2).sum()
    for p in t.pockets:
        hole = _px(sc, *p.hole_centre_mm).sum()
        assert hole < 0.25 * cloth, p.name


def test_diamonds_on_pool_rails_none_on_snooker(pool_scene, snooker_scene):
    sc = pool_scene
    t = sc.table
    for x, y, z in t.diamonds_mm():
        lit = _px(sc, x, y, z).sum()
        off = _px(
            sc, x + 60.0 if x > 0 and x < t.length_mm else x, y + (60.0 if x <= 0 or x >= t.length_mm else 0), z
        ).sum()
        assert lit > 1.3 * off
    s = snooker_scene
    ts = s.table
    # where a pool-style grid would put sights: plain rail
    for k in (1, 2, 3):
        x = ts.length_mm * k / 8
        y = -ts.cushion_width_mm - ts.rail_width_mm / 2
        a, b = _px(s, x, y, ts.rail_height_mm).sum(), _px(s, x + 40.0, y, ts.rail_height_mm).sum()
        assert abs(a - b) < 0.15 * b


def test_snooker_baulk_line_and_spots_drawn(snooker_scene):
    sc = snooker_scene
    t = sc.table
    camera = broadcast_camera(t, 960, 540)
    big = render_background(t, camera, FAST, np.random.default_rng(0))

    def at(x, y):
        u, v = camera.project(np.array([[x, y, 0.0]]))[0]
        return big[int(round(v)), int(round(u))].astype(float).sum()

    line = max(at(737.0 + dx, 300.0) for dx in (-1.0, 0.0, 1.0))
    assert line > 1.3 * at(780.0, 300.0)
    assert max(
        at(x, t.width_mm / 2) for x in np.linspace(t.spots_mm["blue"][0] - 3, t.spots_mm["blue"][0] + 3, 5)
    ) > 1.3 * at(t.spots_mm["blue"][0] + 40.0, t.width_mm / 2)


def test_pool_silhouette_centre_is_projected_centre_near_a_pocket(pool_scene):
    t = pool_scene.table
    r = t.ball_radius_mm
    for x, y in ((120.0, 120.0), (t.length_mm / 2, 60.0), (t.length_mm - 200, t.width_mm - 90)):
        S = np.array([x, y, r])
        sp = _sprite(pool_scene, S, BallId.B5, np.eye(3), 0)
        x0, y0, x1, y1 = sp.box
        ys, xs = np.mgrid[y0:y1, x0:x1]
        a = sp.alpha.astype(float)
        c = np.array([(a * xs).sum() / a.sum(), (a * ys).sum() / a.sum()])
        assert np.abs(c - pool_scene.camera.project(S[None, :])[0]).max() < 0.1


def test_off_table_ball_not_drawn_and_sunk_ball_hidden(pool_scene):
    from synth.render.frame import render_frame

    t = pool_scene.table
    r = t.ball_radius_mm
    hx, hy = t.pocket("foot_left").hole_centre_mm
    empty = render_frame(pool_scene, BallsState((BallId.B1,), np.array([[1000.0, 600.0, r]]), np.zeros(1, bool)))
    base = np.clip(pool_scene.image_bgr + 0.5, 0, 255).astype(np.uint8)
    assert np.array_equal(empty, base)
    # fallen to the back of the pocket, under the rail: its walls and the rail hide it
    ox, oy = t.pocket("foot_left").outward
    R = t.pocket("foot_left").hole_radius_mm
    deep = BallsState(
        (BallId.B1,), np.array([[hx + ox * (R + r + 1), hy + oy * (R + r + 1), -2.5 * r]]), np.ones(1, bool)
    )
    assert np.abs(render_frame(pool_scene, deep).astype(int) - base).max() <= 1
    labs = ball_labels(pool_scene, deep)
    assert BallId.B1 not in labs or labs[BallId.B1].visible < 0.05
    # deep in the middle of the hole: seen from above, but in the dark
    dim = _sprite(pool_scene, np.array([hx, hy, -3.0 * r]), BallId.B1, np.eye(3), 0)
    # half sunk: still seen, darker than at rest on the shelf
    half = _sprite(pool_scene, np.array([hx, hy, -0.3 * r]), BallId.B1, np.eye(3), 0)
    rest = _sprite(pool_scene, np.array([1000.0, 600.0, r]), BallId.B1, np.eye(3), 0)
    assert half.alpha.sum() > 0.5 * rest.alpha.sum()
    assert half.premul.sum() / half.alpha.sum() < 0.8 * rest.premul.sum() / rest.alpha.sum()
    assert dim.premul.sum() / max(dim.alpha.sum(), 1e-6) < 0.3 * rest.premul.sum() / rest.alpha.sum()


def test_labels_boxes_and_visibility(pool_scene):
    from vision.rectify import RectifiedGeometry

    t = pool_scene.table
    r = t.ball_radius_mm
    rect = RectifiedGeometry(t.length_mm, t.width_mm, r, 0.2, r)
    pos = rack_positions(t, tuple(BallId(str(i)) for i in range(1, 16)))
    state = BallsState.at_rest(pos, r, np.random.default_rng(0))
    labs = ball_labels(pool_scene, state, rect=rect)
    assert set(labs) == set(pos)
    for b, lab in labs.items():
        x0, y0, x1, y1 = lab.box_px
        u, v = lab.centre_px
        assert x0 <= u <= x1 and y0 <= v <= y1
        assert abs((x1 - x0) - 2 * lab.r_px) <= 2.0 and lab.visible > 0.9
        rx0, ry0, rx1, ry1 = lab.rect_box_px
        ru, rv = rect.mm_to_uv(*pos[b])
        assert rx0 - 1 <= ru <= rx1 + 1 and rv - 3 <= ry1 and ry0 <= rv + 3
        assert abs((rx1 - rx0) - 2 * r * rect.px_per_mm) < 3.0


def test_render_still_any_table_and_random_style():
    t = load_table("pool_7ft")
    cam = broadcast_camera(t, 160, 90)
    rng = np.random.default_rng(5)
    style = random_style(t, rng, FAST)
    img = render_still(t, {BallId.CUE: (500.0, 400.0), BallId.B9: (1500.0, 500.0)}, cam, style, rng)
    assert img.shape == (90, 160, 3) and img.dtype == np.uint8
    img2 = render_still(
        t, {BallId.CUE: (500.0, 400.0), BallId.B9: (1500.0, 500.0)}, cam, style, np.random.default_rng(5)
    )
    assert img.std() > 5 and img2.shape == img.shape


def test_sink_into_pockets_drops_the_ball():
    t = load_table("pool")
    r = t.ball_radius_mm
    p = t.pocket("side_right")
    hx, hy = p.hole_centre_mm
    ts = np.arange(0.0, 1.0, 0.001)
    y = np.clip(300.0 - 800.0 * ts, hy, None)
    xy = np.stack([np.column_stack([np.full_like(ts, hx), y])], axis=1)
    shot = SimShot(t.name, (BallId.B2,), ts, xy, np.full((len(ts), 1), r), np.ones((len(ts), 1), bool), ())
    s = sink_into_pockets(shot, t)
    assert s.z_mm[0, 0] == r and s.z_mm[-1, 0] < -r and not s.on_table[-1, 0]
    k = int(np.argmax(s.z_mm[:, 0] < r - 1e-6))
    assert p.falls(*s.xy_mm[k, 0])
    assert np.all(np.diff(s.z_mm[:, 0]) <= 1e-9)
