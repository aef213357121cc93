"""The static scene of a clip, drawn once: floor, wooden rails, cushions, cloth bed, diamonds.

Contract: :func:`build_scene` casts the exact (distorted-lens) viewing ray of every sample of the
frame (``style.static_supersample``² per pixel on a rotated grid, box-filtered) against a model of the table made of
planar facets, in the DESIGN.md table frame (mm, z up from the cloth):

- the bed, z = 0 over 0 <= x <= L, 0 <= y <= W (the cloth, seen up to the cushion nose line);
- four cushion tops, from the nose line at ``cushion_nose_height_mm`` rising outward over
  ``cushion_width_mm`` to the rail, mitred at the corners: cloth of the bed's hue, darker
  (``cushion_shade``), with a bright rubber nose a few mm wide so that the nose line is a sharp edge;
- the wooden rail tops, ``rail_width_mm`` wide at ``rail_height_mm``, carrying the diamonds of
  :meth:`TableSpec.diamonds_mm` as light dots ``diamond_diameter_mm`` across;
- the vertical outer faces of the rails and a dark floor 760 mm below the cloth, shadowed by the table.

Each surface is lit by the same :class:`~synth.render.lighting.Lighting` the balls use, so the
bed is brightest under the lamps and darker in the corners; textures (cloth weave and mottling,
wood grain, carpet) are drawn in table millimetres from the caller's generator. Because every
sample's ray is the lens's own ray, a world point lands exactly on the pixel that
:meth:`CameraModel.project` gives, distortion included (see :mod:`synth.render.lens`).

:func:`render_background` is the one-call form (an 8-bit BGR image of the empty table), for
calibration test frames; :class:`StaticScene` keeps what the per-frame ball renderer needs (pixel
rays, static depth, where the bed is, the vignette gain).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration._vec import floats3
from calibration.camera import CameraModel
from calibration.table import TableSpec
from synth.render.lens import frame_rays
from synth.render.lighting import Lighting, lamps_of
from synth.render.pockets import PocketCuts, in_hole, in_rim, in_throat, near_pocket, pocket_cuts
from synth.render.style import RenderStyle

FLOOR_Z_MM = -760.0
APRON_BOTTOM_Z_MM = -160.0

# facet ids
FLOOR, BED, CUSHION, FACE, RAIL, APRON, POCKET, LINER, FACING = 0, 1, 2, 3, 4, 5, 6, 7, 8


@dataclass(frozen=True)
class StaticScene:
    """What the per-frame renderer needs of the static scene. ``image_bgr`` (H, W, 3) float32 0..255
    before sensor noise; ``rays`` (H, W, 3) float32 world directions of the pixel centres (camera-z
    = 1, so ``t`` is depth); ``depth`` (H, W) float32, depth of the static surface at each pixel
    centre; ``bed`` (H, W) bool, the pixel centre sees the bed; ``gain`` (H, W) float32 vignette
    factor already applied to ``image_bgr``; ``cloth_bgr`` the bed albedo (for ball bounce light)."""

    table: TableSpec
    camera: CameraModel
    style: RenderStyle
    lighting: Lighting
    image_bgr: np.ndarray
    rays: np.ndarray
    depth: np.ndarray
    bed: np.ndarray
    gain: np.ndarray
    centre_mm: np.ndarray
    cloth_bgr: tuple[float, float, float]

    @property
    def shape(self) -> tuple[int, int]:
        return self.image_bgr.shape[:2]


def render_background(
    table: TableSpec, camera: CameraModel, style: RenderStyle | None = None, rng: np.random.Generator | None = None
) -> np.ndarray:
    """The empty table as an 8-bit BGR image (no balls, no noise, no overlay)."""
    scene = build_scene(table, camera, style or RenderStyle(), rng if rng is not None else np.random.default_rng(0))
    return np.clip(scene.image_bgr + 0.5, 0, 255).astype(np.uint8)


# -- geometry ---------------------------------------------------------------------------------


def _outward(table: TableSpec, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(4, ...) signed distances outward from the nose lines: head, foot, right, left."""
    return np.stack([-x, x - table.length_mm, -y, y - table.width_mm])


# Each side k (head, foot, right, left): outward distance o_k = a_k . (x, y) + b_k
_SIDE_A = np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, -1.0], [0.0, 1.0]])


def _side_b(table: TableSpec) -> np.ndarray:
    return np.array([0.0, -table.length_mm, 0.0, -table.width_mm])


def trace(
    table: TableSpec,
    C: np.ndarray,
    d: np.ndarray,
    cuts: PocketCuts | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """First static surface along rays ``C + t d`` (d (..., 3)): (t, facet id, hit points (..., 3),
    side index 0..3 (head, foot, right, left) of the cushion/rail/apron/facing hit, -1 elsewhere).
    ``cuts`` are the table's pockets (:func:`synth.render.pockets.pocket_cuts`; computed from the
    table with a 12 mm rim when None).

    Rays that meet the bed farther inside than any cushion, rail or pocket could hide are settled
    at once; only the rest are tested against every facet."""
    if cuts is None:
        cuts = pocket_cuts(table, 12.0)
    shape = d.shape[:-1]
    d = d.reshape(-1, 3).astype(np.float64)
    C = np.asarray(C, np.float64)
    n = len(d)
    t_out = np.full(n, np.inf)
    fid_out = np.full(n, FLOOR, dtype=np.int8)
    side_out = np.full(n, -1, dtype=np.int8)
    with np.errstate(divide="ignore", invalid="ignore"):
        dz = d[:, 2]
        t_bed = -C[2] / dz
        x = C[0] + t_bed * d[:, 0]
        y = C[1] + t_bed * d[:, 1]
        d_in = np.minimum(np.minimum(x, table.length_mm - x), np.minimum(y, table.width_mm - y))
        reach = table.rail_height_mm * np.hypot(d[:, 0], d[:, 1]) / np.maximum(-dz, 1e-9) + 1.0
        easy = (dz < 0) & (d_in > reach)
        if not cuts.empty:
            ie = np.nonzero(easy)[0]
            easy[ie[near_pocket(cuts, x[ie], y[ie], reach[ie])]] = False
    t_out[easy] = t_bed[easy]
    fid_out[easy] = BED
    ext = table.cushion_width_mm + table.rail_width_mm
    if float(_omax(table, C[0:1], C[1:2])[0]) < ext:
        # seen from above the table, a ray outside the rails at rail height can only reach the floor
        with np.errstate(divide="ignore", invalid="ignore"):
            t_hr = (table.rail_height_mm - C[2]) / dz
            far = ~easy & (dz < 0) & (_omax(table, C[0] + t_hr * d[:, 0], C[1] + t_hr * d[:, 1]) > ext)
            t_out[far] = (FLOOR_Z_MM - C[2]) / dz[far]
        easy |= far
    hard = np.nonzero(~easy)[0]
    if len(hard):
        t, f, k = _trace_all(table, C, d[hard], cuts)
        t_out[hard], fid_out[hard], side_out[hard] = t, f, k
    tt = np.where(np.isfinite(t_out), t_out, 0.0)
    P = np.empty((n, 3))
    for i in range(3):
        P[:, i] = C[i] + tt * d[:, i]
    return (t_out.reshape(shape), fid_out.reshape(shape), P.reshape(shape + (3,)), side_out.reshape(shape))


def _omax(table: TableSpec, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """max over the four sides of the outward distance from the nose lines (<= 0 on the bed)."""
    hl, hw = table.length_mm / 2.0, table.width_mm / 2.0
    return np.maximum(np.abs(x - hl) - hl, np.abs(y - hw) - hw)


def _trace_all(
    table: TableSpec,
    C: np.ndarray,
    d: np.ndarray,
    cuts: PocketCuts,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c_w, r_w = table.cushion_width_mm, table.rail_width_mm
    hn, hr = table.cushion_nose_height_mm, table.rail_height_mm
    dx, dy, dz = d[:, 0], d[:, 1], d[:, 2]
    n = len(d)
    best = np.full(n, np.inf)
    fid = np.full(n, FLOOR, dtype=np.int8)
    side = np.full(n, -1, dtype=np.int8)
    eps = 1e-9
    B = _side_b(table)

    def take(t: np.ndarray, ok: np.ndarray, f: int, k: int | np.ndarray = -1) -> None:
        sel = ok & (t > 0) & (t < best)
        best[sel] = t[sel]
        fid[sel] = f
        side[sel] = k[sel] if isinstance(k, np.ndarray) else k

    def xy(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return C[0] + t * dx, C[1] + t * dy

    cut = not cuts.empty

    def throat(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return in_throat(cuts, x, y) if cut else np.zeros(np.shape(x), bool)

    def hole(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return in_hole(cuts, x, y) if cut else np.zeros(np.shape(x), bool)

    with np.errstate(divide="ignore", invalid="ignore"):
        down = dz < -eps
        t = (FLOOR_Z_MM - C[2]) / dz
        take(t, down, FLOOR)
        t = -C[2] / dz
        x, y = xy(t)
        if cut:
            th, ho = throat(x, y), hole(x, y)
            take(t, down & ((_omax(table, x, y) <= 0.0) | th) & ~ho, BED)
            _take_pocket(table, cuts, C, d, take)
        else:
            take(t, down & (_omax(table, x, y) <= 0.0), BED)
        t = (hr - C[2]) / dz
        x, y = xy(t)
        om = _omax(table, x, y)
        k = np.argmax(np.stack([-x, x - table.length_mm, -y, y - table.width_mm]), axis=0).astype(np.int8)
        if cut:
            rim, th = in_rim(cuts, x, y), throat(x, y)
            take(t, down & (om > c_w) & (om <= c_w + r_w) & ~rim & ~th, RAIL, k)
            take(t, down & rim & ~hole(x, y) & ~th, LINER, k)
        else:
            take(t, down & (om > c_w) & (om <= c_w + r_w), RAIL, k)
        s = (hr - hn) / c_w
        oc = _SIDE_A @ C[:2] + B  # outward distances of the camera centre
        for kk in range(4):
            a = _SIDE_A[kk]
            den = a[0] * dx + a[1] * dy
            # cushion top: z = hn + s * o_k
            t = (hn + s * oc[kk] - C[2]) / (dz - s * den)
            x, y = xy(t)
            ok_ = oc[kk] + t * den
            ok = (ok_ >= 0.0) & (ok_ <= c_w) & (ok_ >= _omax(table, x, y) - 1e-9) & np.isfinite(t)
            if cut:
                ok &= ~throat(x, y) & ~in_rim(cuts, x, y)
            take(t, ok, CUSHION, kk)
            # cushion face under the nose: o_k = 0, 0 <= z <= hn, seen from inside the table
            t = -oc[kk] / den
            x, y = xy(t)
            z = C[2] + t * dz
            ok = (den > eps) & (z >= 0.0) & (z <= hn) & (_omax(table, x, y) <= 1e-6)
            if cut:
                ok &= ~throat(x, y)
            take(t, ok, FACE, kk)
            # outer vertical face of the rail: o_k = c + r, seen from outside the table
            t = (c_w + r_w - oc[kk]) / den
            x, y = xy(t)
            z = C[2] + t * dz
            ok = (den < -eps) & (z <= hr) & (z >= APRON_BOTTOM_Z_MM) & (_omax(table, x, y) <= c_w + r_w + 1e-6)
            take(t, ok, APRON, kk)
        if cut:
            _take_facings(table, cuts, C, d, take)
    return best, fid, side


def _take_pocket(table: TableSpec, cuts: PocketCuts, C: np.ndarray, d: np.ndarray, take) -> None:
    """Rays going down into a hole (over its disc at the rail top or at the cloth): where they
    meet its cylindrical wall or its floor ``cuts.depth_mm`` below the cloth (a POCKET hit). The
    wall stands all round below the cloth; above it, only outside the cloth and the throat (where
    the cushions and the rail were cut), so a ray leaving the cylinder over the shelf meets the
    cloth instead."""
    dx, dy, dz = d[:, 0], d[:, 1], d[:, 2]
    hr = table.rail_height_mm
    with np.errstate(divide="ignore", invalid="ignore"):
        down = dz < -1e-9
        t_top = (hr - C[2]) / dz
        t_bed = -C[2] / dz
        t_floor = (-cuts.depth_mm - C[2]) / dz
    best = np.full(len(d), np.inf)
    for i in range(len(cuts.hole_r)):
        hx, hy, R = cuts.hole[i, 0], cuts.hole[i, 1], cuts.hole_r[i]
        px, py = C[0] - hx, C[1] - hy

        # called only within this iteration, so the loop's px, py, R are the ones meant
        def inside(t: np.ndarray) -> np.ndarray:
            return (px + t * dx) ** 2 + (py + t * dy) ** 2 <= R * R  # noqa: B023

        sel = down & (inside(t_top) | inside(t_bed))
        if not sel.any():
            continue
        a = dx * dx + dy * dy
        b = px * dx + py * dy
        c = px * px + py * py - R * R
        disc = np.maximum(b * b - a * c, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            t_out = np.where(a > 1e-12, (-b + np.sqrt(disc)) / np.maximum(a, 1e-12), np.inf)
        t_hit = np.minimum(t_floor, t_out)
        xo, yo, zo = C[0] + t_hit * dx, C[1] + t_hit * dy, C[2] + t_hit * dz
        open_side = (zo >= 0.0) & ((_omax(table, xo, yo) <= 0.0) | in_throat(cuts, xo, yo))
        sel &= ~open_side
        best = np.where(sel & (t_hit < best), t_hit, best)
    take(best, np.isfinite(best), POCKET)


def _take_facings(table: TableSpec, cuts: PocketCuts, C: np.ndarray, d: np.ndarray, take) -> None:
    """The vertical rubber facings of the jaws, from the cloth to the cushion (then rail) top."""
    hn, hr, c_w = table.cushion_nose_height_mm, table.rail_height_mm, table.cushion_width_mm
    slope = (hr - hn) / c_w
    B = _side_b(table)
    for i in range(len(cuts.facing_len)):
        P0, f = cuts.facing_p0[i], cuts.facing_dir[i]
        n = np.array([-f[1], f[0]])
        den = d[:, 0] * n[0] + d[:, 1] * n[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = ((P0[0] - C[0]) * n[0] + (P0[1] - C[1]) * n[1]) / den
        X = C[None, :] + np.where(np.isfinite(t), t, 0.0)[:, None] * d
        s_ = (X[:, 0] - P0[0]) * f[0] + (X[:, 1] - P0[1]) * f[1]
        k = int(cuts.facing_side[i])
        o = _SIDE_A[k] @ X[:, :2].T + B[k]
        z_top = np.minimum(hn + slope * np.maximum(o, 0.0), hr)
        ok = np.isfinite(t) & (s_ >= 0.0) & (s_ <= cuts.facing_len[i]) & (X[:, 2] >= 0.0) & (X[:, 2] <= z_top)
        ok &= ~in_hole(cuts, X[:, 0], X[:, 1])
        take(t, ok, FACING, np.full(len(d), k, np.int8))


# -- textures and light maps ------------------------------------------------------------------


class _Grid:
    """A 2-D field sampled over the table plan: origin (x0, y0) mm, ``step_mm`` per cell."""

    def __init__(self, values: np.ndarray, x0: float, y0: float, step_mm: float, mirror: bool) -> None:
        self.values = np.ascontiguousarray(values, dtype=np.float32)
        self.x0, self.y0, self.step = float(x0), float(y0), float(step_mm)
        self.mirror = mirror

    def sample(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Bilinear lookup at table points (x, y mm); outside the grid mirrored or clamped."""
        v = self.values
        h, w = v.shape
        u = (np.asarray(x, np.float64) - self.x0) / self.step
        q = (np.asarray(y, np.float64) - self.y0) / self.step
        if self.mirror:
            u = (w - 1) - np.abs(np.mod(u, 2 * (w - 1)) - (w - 1))
            q = (h - 1) - np.abs(np.mod(q, 2 * (h - 1)) - (h - 1))
        else:
            u = np.clip(u, 0.0, w - 1.0)
            q = np.clip(q, 0.0, h - 1.0)
        i0 = np.minimum(u.astype(np.intp), w - 2)
        j0 = np.minimum(q.astype(np.intp), h - 2)
        fu = (u - i0).astype(np.float32)
        fv = (q - j0).astype(np.float32)
        return (v[j0, i0] * (1 - fu) + v[j0, i0 + 1] * fu) * (1 - fv) + (
            v[j0 + 1, i0] * (1 - fu) + v[j0 + 1, i0 + 1] * fu
        ) * fv


def _textures(table: TableSpec, style: RenderStyle, rng: np.random.Generator, mm_per_px: float) -> dict[str, _Grid]:
    """Cloth weave and mottling, wood grain along each rail, carpet: unit-free relative modulations,
    on texels of half a pixel's footprint (1.5 mm at the finest)."""
    import cv2

    m = table.cushion_width_mm + table.rail_width_mm + 40.0
    x0 = y0 = -m
    step = float(np.clip(mm_per_px / 2.0, 1.5, 8.0))
    w = int(np.ceil((table.length_mm + 2 * m) / step)) + 1
    h = int(np.ceil((table.width_mm + 2 * m) / step)) + 1

    def unit(a: np.ndarray) -> np.ndarray:
        a = a - float(a.mean())
        return a / max(float(a.std()), 1e-6)

    def fine(sigma: float) -> np.ndarray:
        n = rng.standard_normal((h, w), dtype=np.float32)
        return unit(cv2.GaussianBlur(n, (0, 0), sigma, borderType=cv2.BORDER_REFLECT_101))

    def smooth(cells_x: int, cells_y: int, sigma: float = 0.8) -> np.ndarray:
        small: np.ndarray = rng.standard_normal((cells_y, cells_x), dtype=np.float32)
        small = cv2.GaussianBlur(small, (0, 0), sigma, borderType=cv2.BORDER_REFLECT_101)
        return unit(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC))

    k = 1.5 / step  # the cell counts below were set for 1.5 mm texels
    cloth = style.cloth_texture * fine(0.5) + style.cloth_mottle * smooth(
        max(int(w * k / 50), 4), max(int(h * k / 50), 4)
    )
    wood_x = unit(
        0.7 * smooth(max(int(w * k / 120), 4), h, 0.6) + 0.3 * smooth(max(int(w * k / 12), 4), max(h // 2, 4), 0.6)
    )
    wood_y = unit(
        0.7 * smooth(w, max(int(h * k / 120), 4), 0.6) + 0.3 * smooth(max(w // 2, 4), max(int(h * k / 12), 4), 0.6)
    )
    carpet = 0.08 * fine(1.0) + 0.05 * smooth(max(int(w * k / 100), 4), max(int(h * k / 100), 4))
    marks = _marks(table, style, x0, y0, step, w, h)
    extra = {} if marks is None else {"marks": _Grid(marks, x0, y0, step, False)}
    return {
        **extra,
        "cloth": _Grid(cloth, x0, y0, step, False),
        "wood_x": _Grid(0.10 * wood_x, x0, y0, step, False),
        "wood_y": _Grid(0.10 * wood_y, x0, y0, step, False),
        "carpet": _Grid(carpet, x0, y0, step, True),
    }


def _marks(
    table: TableSpec,
    style: RenderStyle,
    x0: float,
    y0: float,
    step: float,
    w: int,
    h: int,
) -> np.ndarray | None:
    """Coverage (h, w) of the drawn lines (snooker baulk line and D) and spots on the cloth, drawn
    anti-aliased on the texture grid at 1/16-texel precision; None when the table draws none."""
    import cv2

    lines = [ln for ln in table.lines if ln.drawn]
    spots = [table.spots_mm[k] for k in table.drawn_spots]
    if not lines and not spots:
        return None
    img = np.zeros((h, w), np.uint8)
    sh = 4
    f = float(1 << sh)

    def px(p: tuple[float, float]) -> tuple[int, int]:
        return (int(round((p[0] - x0) / step * f)), int(round((p[1] - y0) / step * f)))

    th = max(1, int(round(style.line_width_mm / step)))
    for ln in lines:
        pts = np.array([px(p) for p in ln.points_mm(step_mm=4.0)], np.int32)
        cv2.polylines(img, [pts], False, 255, th, cv2.LINE_AA, sh)
    rad = int(round(style.spot_diameter_mm / 2.0 / step * f))
    for p in spots:
        cv2.circle(img, px(p), max(rad, int(f)), 255, -1, cv2.LINE_AA, sh)
    return img.astype(np.float32) / 255.0


def _light_maps(table: TableSpec, light: Lighting) -> dict[str, _Grid]:
    """Lamp irradiance of the horizontal surfaces (bed, rail tops, floor) on coarse plan grids:
    the light varies over decimetres, so a 10 mm grid with bilinear lookup is exact to < 0.1 %."""
    m = table.cushion_width_mm + table.rail_width_mm + 20.0
    out: dict[str, _Grid] = {}
    up = np.array([0.0, 0.0, 1.0])
    for name, z, margin, step in (
        ("bed", 0.0, m, 10.0),
        ("rail", table.rail_height_mm, m, 10.0),
        ("floor", FLOOR_Z_MM, 4000.0, 40.0),
    ):
        xs = np.arange(-margin, table.length_mm + margin + step, step)
        ys = np.arange(-margin, table.width_mm + margin + step, step)
        X, Y = np.meshgrid(xs, ys)
        P = np.column_stack([X.ravel(), Y.ravel(), np.full(X.size, z)])
        terms = light.lamp_terms(P, up)
        if name == "floor":
            terms = terms * _floor_visibility(table, light, P)
        out[name] = _Grid(terms.sum(axis=1).reshape(X.shape), xs[0], ys[0], step, False)
    return out


# -- shading ----------------------------------------------------------------------------------


def _floor_visibility(table: TableSpec, light: Lighting, P: np.ndarray) -> np.ndarray:
    """(N, n_lamps) 1 where the lamp is seen from floor points P, 0 where the table hides it."""
    ext = table.cushion_width_mm + table.rail_width_mm
    L = light.pos_mm
    s = (table.rail_height_mm - P[:, None, 2]) / (L[None, :, 2] - P[:, None, 2])
    qx = P[:, None, 0] + s * (L[None, :, 0] - P[:, None, 0])
    qy = P[:, None, 1] + s * (L[None, :, 1] - P[:, None, 1])
    inside = (qx >= -ext) & (qx <= table.length_mm + ext) & (qy >= -ext) & (qy <= table.width_mm + ext)
    return (~inside).astype(np.float64)


def _grain(tex: dict[str, _Grid], k: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Wood grain: along y on the head and foot rails (k < 2), along x on the long rails."""
    g = np.empty(len(k), np.float32)
    short = k < 2
    g[short] = tex["wood_y"].sample(x[short], y[short])
    g[~short] = tex["wood_x"].sample(x[~short], y[~short])
    return g


_OUT3 = np.array([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 1.0, 0.0]])


def _shade_samples(
    table: TableSpec,
    style: RenderStyle,
    light: Lighting,
    tex: dict[str, _Grid],
    lmap: dict[str, _Grid],
    fid: np.ndarray,
    P: np.ndarray,
    side: np.ndarray,
    footprint_mm: np.ndarray,
) -> np.ndarray:
    """BGR float32 colours (N, 3) of traced samples (flat arrays)."""
    out = np.zeros((len(fid), 3), np.float32)
    c_w = table.cushion_width_mm
    cloth = np.array(style.cloth_albedo, np.float32)
    hn, hr = table.cushion_nose_height_mm, table.rail_height_mm

    m = np.nonzero(fid == BED)[0]
    if len(m):
        x, y = P[m, 0], P[m, 1]
        d_in = np.minimum(np.minimum(x, table.length_mm - x), np.minimum(y, table.width_mm - y))
        f = light.shade(lmap["bed"].sample(x, y))
        f *= 1.0 - style.nose_shadow * np.exp(-np.maximum(d_in, 0.0) / 14.0).astype(np.float32)
        f *= 1.0 + tex["cloth"].sample(x, y)
        if "marks" in tex:
            a = np.clip(tex["marks"].sample(x, y), 0.0, 1.0)[:, None]
            out[m] = (cloth[None, :] * (1 - a) + np.array(style.line_bgr, np.float32)[None, :] * a) * f[:, None]
        else:
            out[m] = cloth[None, :] * f[:, None]
    m = np.nonzero(fid == CUSHION)[0]
    if len(m):
        Pm, k = P[m], side[m]
        o = _outward(table, Pm[:, 0], Pm[:, 1])[k, np.arange(len(k))]
        s = (hr - hn) / c_w
        normals = np.column_stack([-s * _SIDE_A[k], np.ones(len(k))])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        f = light.shade(light.lamp_terms(Pm, normals).sum(axis=1)) * style.cushion_shade
        f *= 1.0 + style.nose_highlight * np.exp(-np.maximum(o, 0.0) / 6.0)
        f *= 1.0 - 0.45 * np.exp(-np.maximum(c_w - o, 0.0) / 2.5)  # groove where cloth meets wood
        f *= 1.0 + 0.8 * tex["cloth"].sample(Pm[:, 0], Pm[:, 1])
        out[m] = cloth[None, :] * f[:, None].astype(np.float32)
    m = np.nonzero(fid == FACE)[0]
    if len(m):
        Pm, k = P[m], side[m]
        f = light.shade(light.lamp_terms(Pm, -_OUT3[k]).sum(axis=1)) * style.cushion_shade * 0.8
        f *= 1.0 + style.nose_highlight * np.exp(-np.maximum(hn - Pm[:, 2], 0.0) / 3.0)
        f *= 1.0 - 0.5 * np.exp(-np.maximum(Pm[:, 2], 0.0) / 6.0)  # dark where the face meets the bed
        out[m] = cloth[None, :] * f[:, None].astype(np.float32)
    m = np.nonzero(fid == RAIL)[0]
    if len(m):
        Pm, k = P[m], side[m]
        x, y = Pm[:, 0], Pm[:, 1]
        E = light.shade(lmap["rail"].sample(x, y))
        grain = _grain(tex, k, x, y)
        o = _omax(table, x, y)
        edge = 1.0 - 0.35 * np.exp(-np.maximum(table.rail_width_mm + c_w - o, 0.0) / 4.0)  # rounded outer edge
        col = np.array(style.rail_bgr, np.float32)[None, :] * (E * (1.0 + grain) * edge)[:, None]
        dist = np.full(len(m), np.inf)
        for dx_, dy_, _ in table.diamonds_mm():
            dist = np.minimum(dist, np.hypot(x - dx_, y - dy_))
        a = np.clip((style.diamond_diameter_mm / 2.0 - dist) / np.maximum(footprint_mm[m], 1e-3) + 0.5, 0.0, 1.0)
        dcol = np.array(style.diamond_bgr, np.float32)[None, :] * E[:, None]
        out[m] = col * (1 - a[:, None]) + dcol * a[:, None]
    m = np.nonzero(fid == APRON)[0]
    if len(m):
        Pm, k = P[m], side[m]
        E = light.shade(light.lamp_terms(Pm, _OUT3[k]).sum(axis=1))
        grain = _grain(tex, k, Pm[:, 0], Pm[:, 1])
        out[m] = np.array(style.rail_bgr, np.float32)[None, :] * (E * style.apron_shade * (1.0 + grain))[:, None]
    m = np.nonzero(fid == POCKET)[0]
    if len(m):
        Pm = P[m]
        # lamp light reaches into the hole only near its top; below, the walls take it
        E = light.shade(lmap["bed"].sample(Pm[:, 0], Pm[:, 1]))
        f = E * (0.35 + 0.65 * np.exp(-np.maximum(-Pm[:, 2], 0.0) / 30.0))
        out[m] = np.array(style.pocket_bgr, np.float32)[None, :] * f[:, None].astype(np.float32)
    m = np.nonzero(fid == LINER)[0]
    if len(m):
        Pm = P[m]
        E = light.shade(lmap["rail"].sample(Pm[:, 0], Pm[:, 1]))
        out[m] = np.array(style.liner_bgr, np.float32)[None, :] * E[:, None]
    m = np.nonzero(fid == FACING)[0]
    if len(m):
        Pm = P[m]
        f = light.shade(light.lamp_terms(Pm, np.array([0.0, 0.0, 1.0])).sum(axis=1)) * 0.8
        f *= 1.0 - 0.5 * np.exp(-np.maximum(Pm[:, 2], 0.0) / 6.0)
        out[m] = np.array(style.facing_bgr, np.float32)[None, :] * f[:, None].astype(np.float32)
    m = np.nonzero(fid == FLOOR)[0]
    if len(m):
        x, y = P[m, 0], P[m, 1]
        f = (light.ambient * 0.6 + 0.8 * lmap["floor"].sample(x, y)) / (light.ambient + 1.0)
        f *= 1.0 + tex["carpet"].sample(x, y)
        out[m] = np.array(style.floor_bgr, np.float32)[None, :] * (2.2 * f)[:, None]
    return out


def _vignette(camera: CameraModel, strength: float) -> np.ndarray:
    h, w = camera.image_h_px, camera.image_w_px
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - camera.cx) ** 2 + (yy - camera.cy) ** 2) / (camera.cx**2 + camera.cy**2)
    return (1.0 - strength * r2).astype(np.float32)


def build_scene(
    table: TableSpec, camera: CameraModel, style: RenderStyle, rng: np.random.Generator, chunk_rows: int = 96
) -> StaticScene:
    """Trace and shade the static scene once (see the module docstring)."""
    s = style.static_supersample
    H, W = camera.image_h_px, camera.image_w_px
    C = camera.centre_mm
    light = Lighting(lamps_of(style, table), table, style.ambient)
    mm_per_px = float(C[2]) / camera.fx
    tex = _textures(table, style, rng, mm_per_px)
    lmap = _light_maps(table, light)
    cuts = pocket_cuts(table, style.pocket_rim_mm)
    img = np.zeros((H, W, 3), np.float32)
    fx = camera.fx
    for r0 in range(0, H, chunk_rows):
        r1 = min(H, r0 + chunk_rows)
        d = frame_rays(camera, slice(r0, r1), s) if s > 1 else frame_rays(camera, slice(r0, r1))[:, :, None, :]
        t, fid, P, side = trace(table, C, d, cuts)
        foot = np.where(np.isfinite(t), t, 0.0).reshape(-1) / (fx * s)
        col = _shade_samples(table, style, light, tex, lmap, fid.reshape(-1), P.reshape(-1, 3), side.reshape(-1), foot)
        img[r0:r1] = col.reshape(r1 - r0, W, s * s, 3).mean(axis=2)
    rays = frame_rays(camera)
    t, fid, _, _ = trace(table, C, rays, cuts)
    gain = _vignette(camera, style.vignette)
    img *= gain[..., None]
    return StaticScene(
        table=table,
        camera=camera,
        style=style,
        lighting=light,
        image_bgr=img,
        rays=rays,
        depth=np.where(np.isfinite(t), t, 1e9).astype(np.float32),
        bed=fid == BED,
        gain=gain,
        centre_mm=C,
        cloth_bgr=floats3(style.cloth_albedo),
    )
