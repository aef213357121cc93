"""Random rendered table views with per-ball truth: the raw material of the detector's datasets.

Contract: :func:`sample_scene` draws a table look (cloth, lamps, noise, camera pose and lens) from
a generator and builds the renderer's static scene and the :class:`~vision.rectify.Rectifier` of
that camera; :func:`render_view` places balls (clusters of touching balls, balls against a
cushion or in a pocket's jaws, scattered balls), optionally blurs some along a direction of
travel and puts a hand and cue over one, renders the raw frame with
:class:`~synth.render.frame.FrameRenderer`, degrades it as a camera chain would (defocus, JPEG),
rectifies it at ``px_per_mm`` and returns the view with one :class:`BallTruth` per ball that is
visible in it.

Truth geometry: in the rectified view (the plane of the ball centres) a ball's silhouette is an
ellipse centred on the ball's centre, its axis along the direction away from the camera's nadir
stretched by ``1 / cos(theta)`` (theta the viewing ray's angle from the vertical); the box is that
ellipse's extent, widened along the path for a blurred ball. ``visible`` is the share of the
silhouette not covered by the hand or cue (the occluder's own coverage, rectified), or less where
the renderer's labels (:func:`synth.render.labels.ball_labels`) see it hidden by a rail or a
pocket's wall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from calibration.table import TableSpec, load_table
from common.errors import TabletrackError
from models.classes import label_of
from tracking.ids import BallId
from vision.rectify import RectifiedGeometry, Rectifier

if TYPE_CHECKING:
    from synth.render.style import RenderStyle

#: The balls of a full set, per game.
GAME_BALLS: dict[str, tuple[BallId, ...]] = {
    "carom": (BallId.WHITE, BallId.YELLOW, BallId.RED),
    "pool": (BallId.CUE,) + tuple(BallId(str(i)) for i in range(1, 16)),
    "snooker": (BallId.CUE,)
    + tuple(BallId(f"red_{i}") for i in range(1, 16))
    + (BallId.YELLOW, BallId.GREEN, BallId.BROWN, BallId.BLUE, BallId.PINK, BallId.BLACK),
}

#: Table specs used per game (all sizes of a game share its balls).
GAME_TABLES: dict[str, tuple[str, ...]] = {
    "carom": ("carom",),
    "pool": ("pool_9ft", "pool_8ft", "pool_7ft"),
    "snooker": ("snooker",),
}


class SceneError(TabletrackError):
    """A scene that cannot be rendered (a game the renderer has no balls or table for)."""


@dataclass(frozen=True)
class BallTruth:
    """One ball in a rectified view: its label in the game, centre (view px), radius (view px),
    box (u0, v0, u1, v1 view px) and the share of it left visible by occluders."""

    ball: BallId
    label: str
    u_px: float
    v_px: float
    r_px: float
    box: tuple[float, float, float, float]
    visible: float


@dataclass(frozen=True)
class View:
    """A rectified view (``geometry`` its pixel <-> mm map) of a ``game`` table named ``table``."""

    image_bgr: np.ndarray
    game: str
    balls: tuple[BallTruth, ...]
    table: str
    geometry: RectifiedGeometry


class Scene:
    """A table look, its camera, the renderer's static scene and the rectifier (built once; many
    views are rendered from it)."""

    def __init__(
        self, game: str, table: TableSpec, rng: np.random.Generator, px_per_mm: float, width_px: int, height_px: int
    ) -> None:
        from synth.render.cameras import broadcast_camera
        from synth.render.frame import FrameRenderer
        from synth.render.scene import build_scene

        self.game, self.table, self.rng = game, table, rng
        cam = broadcast_camera(
            table,
            width_px,
            height_px,
            height_mm=rng.uniform(2700.0, 4600.0),
            fill=rng.uniform(0.78, 0.95),
            k1=rng.uniform(-0.08, 0.02),
            off_axis_deg=abs(rng.normal(0.0, 6.0)),
            jitter_deg=1.5,
            roll_deg=1.5,
            rng=rng,
        )
        self.camera = cam
        self.style = _style(game, table, rng)
        self.scene = build_scene(table, cam, self.style, rng)
        self.frames = FrameRenderer(self.scene, rng)
        self.rect = Rectifier(cam, table, px_per_mm)
        self.r_mm = table.ball_radius_mm


def _style(game: str, table: TableSpec, rng: np.random.Generator) -> RenderStyle:
    """A random look. Options that only newer renderers know (cloth colour of the caller's, ball
    colours of another manufacturer, marked cue balls) are used where the style has them."""
    import dataclasses

    from synth.render.lighting import default_lamps
    from synth.render.style import ClothColour, Lamp, RenderStyle

    lamps = tuple(
        Lamp(
            lamp.x_mm + rng.normal(0, 120),
            lamp.y_mm + rng.normal(0, 80),
            rng.uniform(800.0, 1500.0),
            power=rng.uniform(0.6, 1.4),
            radius_mm=rng.uniform(60.0, 220.0),
        )
        for lamp in default_lamps(table)
        if rng.random() > 0.15
    )
    if not lamps:
        lamps = default_lamps(table)
    cloths = list(ClothColour)
    cloth = cloths[int(rng.integers(len(cloths)))]
    kw: dict[str, Any] = dict(
        cloth=cloth,
        cloth_texture=rng.uniform(0.01, 0.06),
        cloth_mottle=rng.uniform(0.0, 0.03),
        lamps=lamps,
        ambient=rng.uniform(0.1, 0.4),
        ball_specular=rng.uniform(0.2, 0.8),
        ball_shininess=rng.uniform(25.0, 110.0),
        shadow_strength=rng.uniform(0.55, 0.95),
        white_marked=bool(game == "carom" and rng.random() < 0.4),
        vignette=rng.uniform(0.0, 0.25),
        noise_sigma=rng.uniform(0.5, 4.0),
        static_supersample=1,
    )
    fields = {f.name for f in dataclasses.fields(RenderStyle)}
    if "cloth_bgr" in fields and rng.random() < 0.5:
        base = np.array(cloth.bgr) * rng.uniform(0.75, 1.25, 3)
        kw["cloth_bgr"] = tuple(float(c) for c in np.clip(base, 10.0, 235.0))
    if "ball_bgr" in fields and rng.random() < 0.7:
        try:
            from synth.render.ballset import jittered_ball_bgr

            kw["ball_bgr"] = jittered_ball_bgr(list(GAME_BALLS[game]), rng)
        except ImportError:
            pass
    if "cue_marking" in fields and game != "carom":
        kw["cue_marking"] = ("none", "none", "dots6", "measles")[int(rng.integers(4))]
    return RenderStyle(**kw)


def sample_scene(game: str, rng: np.random.Generator, px_per_mm: float = 0.5) -> Scene:
    """A random table of ``game`` (one of its sizes) seen by a random broadcast camera."""
    if game not in GAME_TABLES:
        raise SceneError(f"game: expected one of {', '.join(GAME_TABLES)}, got {game!r}")
    names = GAME_TABLES[game]
    name = names[int(rng.integers(len(names)))]
    try:
        table = load_table(name)
    except ValueError as e:
        raise SceneError(f"no table spec {name!r} for {game}: {e}") from None
    w, h = ((1280, 720), (960, 540))[int(rng.integers(2))]
    return Scene(game, table, rng, px_per_mm, w, h)


# -- ball layouts -------------------------------------------------------------------------------


def _free(p: np.ndarray, placed: list[np.ndarray], r: float, gap: float = 0.3) -> bool:
    return all(np.hypot(*(p - q)) >= 2 * r + gap for q in placed)


def _inside(p: np.ndarray, table: TableSpec, r: float) -> bool:
    return r <= p[0] <= table.length_mm - r and r <= p[1] <= table.width_mm - r


def _pockets(table: TableSpec) -> list:
    return list(getattr(table, "pockets", ()) or ())


def layout(table: TableSpec, n: int, rng: np.random.Generator) -> list[tuple[float, float]]:
    """``n`` non-overlapping ball centres (mm): a mix of touching clusters, balls against a
    cushion, balls in a pocket's mouth and scattered balls."""
    r = table.ball_radius_mm
    L, W = table.length_mm, table.width_mm
    placed: list[np.ndarray] = []
    tries = 0
    while len(placed) < n and tries < 4000:
        tries += 1
        mode = rng.random()
        if placed and mode < 0.4:
            # touch a placed ball (clusters, frozen balls)
            q = placed[int(rng.integers(len(placed)))]
            a = rng.uniform(0, 2 * np.pi)
            p = q + (2 * r + rng.uniform(0.3, 1.5)) * np.array([np.cos(a), np.sin(a)])
            ok = _inside(p, table, r)
        elif mode < 0.55:
            # against a cushion
            side = int(rng.integers(4))
            d = r + rng.uniform(0.0, 4.0)
            along_x, along_y = rng.uniform(r, L - r), rng.uniform(r, W - r)
            p = np.array([(d, along_y), (L - d, along_y), (along_x, d), (along_x, W - d)][side], np.float64)
            ok = _inside(p, table, r)
        elif mode < 0.65 and _pockets(table):
            # in a pocket's jaws: the centre in the mouth, up to half a ball beyond it
            pk = _pockets(table)[int(rng.integers(len(_pockets(table))))]
            c = np.array(pk.centre_mm, np.float64)
            o = np.array(pk.outward, np.float64)
            p = c + o * rng.uniform(-1.0 * r, 0.5 * r) + rng.normal(0.0, 0.15 * pk.mouth_mm, 2) * o[::-1]
            ok = True
        else:
            p = np.array([rng.uniform(r, L - r), rng.uniform(r, W - r)])
            ok = True
        if ok and _free(p, placed, r):
            placed.append(p)
    return [(float(p[0]), float(p[1])) for p in placed]


def choose_balls(game: str, rng: np.random.Generator) -> list[BallId]:
    """The balls of one view: carom its three, pool and snooker a random subset of the set."""
    full = GAME_BALLS[game]
    if game == "carom":
        return list(full)
    k = int(rng.integers(2, len(full) + 1))
    return [full[int(i)] for i in rng.choice(len(full), size=k, replace=False)]


# -- one view -------------------------------------------------------------------------------------


def _ellipse_box(scene: Scene, x: float, y: float, u: float, v: float, r_px: float) -> tuple[float, float]:
    C = scene.camera.centre_mm
    R = scene.r_mm
    dx, dy, dz = x - C[0], y - C[1], C[2] - R
    horiz = math.hypot(dx, dy)
    cos_t = dz / math.sqrt(dz * dz + horiz * horiz)
    a, b = r_px / max(cos_t, 0.2), r_px
    if horiz < 1e-6:
        return b, b
    ex, ey = dx / horiz, -dy / horiz  # view v runs against table y
    return math.sqrt(a * a * ex * ex + b * b * ey * ey), math.sqrt(a * a * ey * ey + b * b * ex * ex)


def _seen_by_renderer(scene: Scene, state: Any, covers: Any) -> dict[BallId, float] | None:
    """The renderer's own visible share of each ball (rails, pocket walls, other balls and
    occluders taken into account), where the renderer offers it (``synth.render.labels``)."""
    try:
        from synth.render.labels import ball_labels
    except ImportError:
        return None
    return {b: float(bl.visible) for b, bl in ball_labels(scene.scene, state, covers).items()}


def render_view(
    scene: Scene,
    rng: np.random.Generator,
    balls: list[BallId] | None = None,
    occlude_p: float = 0.35,
    blur_p: float = 0.25,
) -> View:
    """One rendered, degraded, rectified view of random balls with their truth (module docstring)."""
    import cv2

    from synth.render.balls import BallsState
    from synth.render.occluder import HandCuePose

    table, r = scene.table, scene.r_mm
    ids = balls if balls is not None else choose_balls(scene.game, rng)
    pos = layout(table, len(ids), rng)
    ids = ids[: len(pos)]
    xy = np.array(pos, np.float64).reshape(-1, 2)
    # motion blur: some balls travel up to ~1.3 diameters over the exposure
    travel = np.zeros_like(xy)
    if rng.random() < blur_p:
        for j in range(len(ids)):
            if rng.random() < 0.5:
                a = rng.uniform(0, 2 * np.pi)
                travel[j] = rng.uniform(5.0, 2.6 * r) * np.array([np.cos(a), np.sin(a)])
    px_per_mm_raw = scene.camera.fx / float(scene.camera.centre_mm[2])
    k = int(np.clip(np.ceil(np.abs(travel).max() * px_per_mm_raw / 1.5), 1, 16))
    orient = None
    try:
        from synth.render.balls import random_rotations

        orient = random_rotations(len(ids), rng)  # numbers and stripes at any angle
    except ImportError:
        pass
    states = []
    for i in range(k):
        f = (i + 0.5) / k - 0.5 if k > 1 else 0.0
        c = np.column_stack([xy + f * travel, np.full(len(ids), r)])
        states.append(BallsState(tuple(ids), c, np.ones(len(ids), bool), orient))
    occ = []
    if len(ids) and rng.random() < occlude_p:
        j = int(rng.integers(len(ids)))
        aim = rng.uniform(0, 2 * np.pi)
        back = rng.uniform(0.0, 260.0) if rng.random() < 0.7 else 0.0
        e = np.array([np.cos(aim), np.sin(aim)])
        tip = xy[j] - e * (r + rng.uniform(2.0, 60.0))
        hand = xy[j] - e * back
        occ.append(
            HandCuePose(
                hand_xy_mm=(float(hand[0]), float(hand[1])),
                aim_rad=float(aim),
                tip_xy_mm=(float(tip[0]), float(tip[1])),
                tip_z_mm=r,
                cue=bool(rng.random() < 0.8),
            )
        )
    frame, covers = scene.frames.render(states, occ)
    seen = _seen_by_renderer(scene, states[len(states) // 2], covers)
    # camera chain: slight defocus, then compression
    if rng.random() < 0.5:
        frame = cv2.GaussianBlur(frame, (0, 0), rng.uniform(0.3, 1.1))
    if rng.random() < 0.6:
        ok, enc = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 92))])
        frame = cast("np.ndarray", cv2.imdecode(enc, cv2.IMREAD_COLOR))  # decodes what imencode just wrote
    view = scene.rect(frame)
    # colour balance / exposure of the broadcast chain
    gain = rng.uniform(0.85, 1.15, 3) * rng.uniform(0.8, 1.2)
    gamma = rng.uniform(0.8, 1.25)
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma, 0, 255)
    view = np.clip(lut[view] * gain[None, None, :], 0, 255).astype(np.uint8)
    geo = scene.rect.geometry
    cover_view = None
    if covers:
        H, W = frame.shape[:2]
        cov = np.zeros((H, W), np.float32)
        for (x0, y0, x1, y1), c in covers:
            np.maximum(cov[y0:y1, x0:x1], c, out=cov[y0:y1, x0:x1])
        cover_view = scene.rect(cov)
    truths = []
    vh, vw = view.shape[:2]
    r_px = r * geo.px_per_mm
    for j, b in enumerate(ids):
        x, y = xy[j]
        u, v = (float(a) for a in geo.mm_to_uv(np.array(x), np.array(y)))
        hx, hy = _ellipse_box(scene, x, y, u, v, r_px)
        tu, tv = travel[j, 0] * geo.px_per_mm / 2.0, -travel[j, 1] * geo.px_per_mm / 2.0
        box = (u - hx - abs(tu), v - hy - abs(tv), u + hx + abs(tu), v + hy + abs(tv))
        box = (max(box[0], 0.0), max(box[1], 0.0), min(box[2], vw - 1.0), min(box[3], vh - 1.0))
        if box[2] - box[0] < r_px * 0.6 or box[3] - box[1] < r_px * 0.6:
            continue  # mostly outside the view
        visible = 1.0
        if cover_view is not None:
            yy, xx = np.mgrid[int(box[1]) : int(box[3]) + 1, int(box[0]) : int(box[2]) + 1]
            disc = (xx - u) ** 2 + (yy - v) ** 2 <= r_px**2
            if disc.any():
                visible = float(1.0 - cover_view[yy[disc], xx[disc]].mean())
        if seen is not None:
            visible = min(visible, seen.get(b, 0.0))
        truths.append(BallTruth(b, label_of(scene.game, b), u, v, r_px, box, visible))
    return View(view, scene.game, tuple(truths), table.name, geo)
