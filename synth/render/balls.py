"""Balls: exact ray-cast spheres with lamp shading, rolling marks, soft shadows and motion blur.

Contract: :func:`draw_balls` adds the balls of one frame to a float BGR image of the static scene,
in place. A frame is given as one or more :class:`BallsState` spread over the exposure; the image
becomes the mean of the frames the shutter would have integrated (motion blur), computed only in
small boxes around the balls and their shadows, so the cost is independent of the frame size.

Per pixel of a box, the lens's own viewing ray (:class:`~synth.render.scene.StaticScene`.rays)
is intersected with each sphere of radius ``TableSpec.ball_radius_mm`` centred at the state's
``(x_mm, y_mm, z_mm)``: the silhouette is the exact perspective (and lens-distorted) outline, with
an analytic anti-aliased edge (coverage from the ray's distance to the centre, in pixel
footprints). A ball is hidden where the static scene is nearer (a rail seen at a grazing angle).
Shading is Lambert from every lamp of the scene's lighting, light from the room and bounced off
the cloth, and a Blinn-Phong highlight of each lamp. On the bed each ball takes away the part of
each lamp's disc it hides (a soft shadow with penumbra) and the sky it hides (contact darkening).
Balls not ``on_table`` are not drawn. Each ball's colours and markings (pool numbers and stripes,
snooker colours, marked cue balls, the RFEB ART 2.8 dots of the carom white) come from
:mod:`synth.render.ballset` as a function of the surface direction in the ball's own frame,
turned by the state's ``orientations`` (body-to-world). A ball whose centre is below the
cloth (dropping into a pocket) is lit less the deeper it is (the pocket walls take the lamps'
light) and casts no shadow on the cloth once it has sunk; the static scene's depth (the pocket's
walls and rim are nearer) hides what the hole does not show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from synth.render.ballset import CAROM_BGR, Pattern, look_of
from synth.render.ballset import albedo as look_albedo
from synth.render.scene import StaticScene
from synth.render.style import RenderError
from tracking.ids import BallId

#: Carom ball albedo, BGR 0..255 as seen under the table-centre light (every other ball's in
#: :mod:`synth.render.ballset`).
BALL_BGR: dict[BallId, tuple[float, float, float]] = dict(CAROM_BGR)
_POCKET_DARK_MM = 35.0  # light inside a pocket falls off by e over this depth below the cloth


@dataclass(frozen=True)
class BallsState:
    """Balls at one instant: ``centres_mm`` (B, 3) x, y, z of the centres (z = r at rest on the
    cloth), ``on_table`` (B,), ``orientations`` (B, 3, 3) body-to-world rotations or None."""

    balls: tuple[BallId, ...]
    centres_mm: np.ndarray
    on_table: np.ndarray
    orientations: np.ndarray | None = None

    def __post_init__(self) -> None:
        b = len(self.balls)
        if self.centres_mm.shape != (b, 3) or self.on_table.shape != (b,):
            raise RenderError(
                f"BallsState: expected centres_mm ({b}, 3) and on_table ({b},) for {b} balls, "
                f"got {self.centres_mm.shape} and {self.on_table.shape}"
            )
        if self.orientations is not None and self.orientations.shape != (b, 3, 3):
            raise RenderError(f"BallsState: expected orientations ({b}, 3, 3), got {self.orientations.shape}")
        if len(set(self.balls)) != b:
            raise RenderError(f"BallsState: expected distinct balls, got {', '.join(x.value for x in self.balls)}")

    @staticmethod
    def at_rest(
        positions_mm: Mapping[BallId, tuple[float, float]], radius_mm: float, rng: np.random.Generator | None = None
    ) -> BallsState:
        """Balls resting on the cloth at table positions {ball: (x_mm, y_mm)} (a test frame);
        with ``rng`` each ball is turned at random (uniform rotations), so numbers and stripes
        show at any angle."""
        balls = tuple(positions_mm)
        centres = np.array([[*positions_mm[b], radius_mm] for b in balls], dtype=np.float64).reshape(-1, 3)
        orient = None if rng is None else random_rotations(len(balls), rng)
        return BallsState(balls, centres, np.ones(len(balls), bool), orient)


def random_rotations(n: int, rng: np.random.Generator) -> np.ndarray:
    """(n, 3, 3) rotations uniform over SO(3) (from uniform unit quaternions)."""
    q = rng.standard_normal((n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    w, x, y, z = q.T
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=-1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=-1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=-1),
        ],
        axis=1,
    )


def rolling_orientations(xy_mm: np.ndarray, radius_mm: float) -> np.ndarray:
    """(N, B, 3, 3) orientations of balls rolling without slipping along paths ``xy_mm`` (N, B, 2).

    The true spin of a struck ball differs (draw, side, sliding); this is what the eye expects and
    is only used to turn the marking dots."""
    n, b = xy_mm.shape[:2]
    out = np.empty((n, b, 3, 3))
    R = np.tile(np.eye(3), (b, 1, 1))
    out[0] = R
    step = np.diff(xy_mm, axis=0)
    ang = np.hypot(step[..., 0], step[..., 1]) / radius_mm
    for i in range(1, n):
        for j in range(b):
            a = ang[i - 1, j]
            if a > 1e-9:
                sx, sy = step[i - 1, j]
                ax = np.array([-sy, sx, 0.0]) / np.hypot(sx, sy)  # z x step
                K = np.array([[0.0, -ax[2], ax[1]], [ax[2], 0.0, -ax[0]], [-ax[1], ax[0], 0.0]])
                Rs = np.eye(3) + np.sin(a) * K + (1.0 - np.cos(a)) * (K @ K)
                R[j] = Rs @ R[j]
        out[i] = R
    return out


# -- shading of one ball ----------------------------------------------------------------------


def _shade_ball(
    scene: StaticScene, d: np.ndarray, depth: np.ndarray, S: np.ndarray, ball: BallId, orient: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rays d (N, 3): the indices of the rays the ball centred at S covers, their coverage
    (0..1, zero where a nearer static surface hides it) and BGR colours (n, 3)."""
    style, light = scene.style, scene.lighting
    C = scene.centre_mm
    r = scene.table.ball_radius_mm
    oc = C - S
    a = np.einsum("nk,nk->n", d, d)
    b = d @ oc
    c = float(oc @ oc) - r * r
    disc = b * b - a * c
    dist = np.sqrt(np.maximum(r * r - disc / a, 0.0))
    foot = float(scene.camera.R[2] @ (S - C)) / scene.camera.fx  # mm per pixel at the ball
    cov = np.clip(0.5 + (r - dist) / foot, 0.0, 1.0)
    idx = np.nonzero(cov > 0.0)[0]
    if not len(idx):
        return idx, cov[idx], np.zeros((0, 3))
    d, depth, a, b, disc, cov = d[idx], depth[idx], a[idx], b[idx], disc[idx], cov[idx]
    t = (-b - np.sqrt(np.maximum(disc, 0.0))) / a
    cov = np.where(t < depth + 1.0, cov, 0.0)  # hidden by a nearer static surface
    X = C[None, :] + t[:, None] * d
    N = X - S[None, :]
    N /= np.maximum(np.linalg.norm(N, axis=1, keepdims=True), 1e-9)
    E = light.lamp_terms(X, N).sum(axis=1)
    amb = light.ambient * (0.55 + 0.45 * np.clip(N[:, 2], 0.0, 1.0))
    bounce = 0.35 * np.clip(-N[:, 2], 0.0, 1.0)
    if S[2] < r:  # sinking into a pocket: the walls take the light, more the deeper the point
        sink = np.exp(-np.maximum(-X[:, 2], 0.0) / _POCKET_DARK_MM)
        E, amb, bounce = E * sink, amb * sink, bounce * sink
    look = look_of(ball, style.ball_bgr, style.cue_marking, style.white_marked)
    if orient is None and look.pattern is Pattern.CAROM_MARKED:
        look = look_of(ball, style.ball_bgr, style.cue_marking, False)  # marks need an orientation
    n_body = N if orient is None else N @ orient  # R^T n for each row
    albedo = look_albedo(look, n_body, foot / r)
    diffuse = albedo * ((amb + E) / (light.ambient + 1.0))[:, None]
    diffuse += (np.array(scene.cloth_bgr)[None, :] / 255.0) * albedo * bounce[:, None]
    V = -d / np.sqrt(a)[:, None]
    Lv = light.pos_mm[None, :, :] - X[:, None, :]
    Ld = np.linalg.norm(Lv, axis=2)
    Hv = Lv / Ld[..., None] + V[:, None, :]
    Hv /= np.linalg.norm(Hv, axis=2, keepdims=True)
    nh = np.clip(np.einsum("nk,nlk->nl", N, Hv), 0.0, 1.0)
    weight = light.power[None, :] * (1000.0 / Ld) ** 2
    spec = style.ball_specular * (weight * nh**style.ball_shininess).sum(axis=1)
    if S[2] < r:
        spec = spec * sink
    return idx, cov, diffuse + 255.0 * spec[:, None]


def _clip_box(scene: StaticScene, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int, int] | None:
    H, W = scene.shape
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    return None if x0 >= x1 or y0 >= y1 else (x0, y0, x1, y1)


@dataclass(frozen=True)
class _Sprite:
    """A ball's contribution to a box: coverage ``alpha`` (h, w) and premultiplied colour (h, w, 3)."""

    box: tuple[int, int, int, int]
    alpha: np.ndarray
    premul: np.ndarray
    depth_mm: float


def _sprite(scene: StaticScene, S: np.ndarray, ball: BallId, orient: np.ndarray | None, pad_px: int) -> _Sprite | None:
    """The ball at S ray-cast exactly in a box round its image, padded by ``pad_px`` for the blur."""
    cam = scene.camera
    r = scene.table.ball_radius_mm
    depth_c = float(cam.R[2] @ (S - scene.centre_mm))
    if depth_c <= r:
        return None
    u, v = cam.project(S[None, :])[0]
    if not (np.isfinite(u) and np.isfinite(v)):
        return None
    rpx = cam.fx * r / depth_c * 1.12 + 2.0
    box = _clip_box(
        scene,
        int(np.floor(u - rpx)) - pad_px,
        int(np.floor(v - rpx)) - pad_px,
        int(np.ceil(u + rpx)) + 1 + pad_px,
        int(np.ceil(v + rpx)) + 1 + pad_px,
    )
    if box is None:
        return None
    x0, y0, x1, y1 = box
    d = scene.rays[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
    depth = scene.depth[y0:y1, x0:x1].reshape(-1)
    gain = scene.gain[y0:y1, x0:x1].reshape(-1)
    idx, cov, col = _shade_ball(scene, d, depth, S, ball, orient)
    alpha = np.zeros(len(d), np.float32)
    premul = np.zeros((len(d), 3), np.float32)
    alpha[idx] = cov
    premul[idx] = col * (cov * gain[idx])[:, None]
    h, w = y1 - y0, x1 - x0
    return _Sprite(box, alpha.reshape(h, w), premul.reshape(h, w, 3), depth_c)


def _smear(arr: np.ndarray, offsets_px: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, int, int]:
    """Sum of copies of ``arr`` (h, w[, c]) shifted by each offset (bilinear), with weights.

    Returns the result on a canvas large enough for every copy and the canvas origin relative to
    ``arr``'s (dx0, dy0 <= 0)."""
    fl = np.floor(offsets_px).astype(int)
    dx0, dy0 = int(fl[:, 0].min()), int(fl[:, 1].min())
    dx1, dy1 = int(fl[:, 0].max()) + 1, int(fl[:, 1].max()) + 1
    h, w = arr.shape[:2]
    out = np.zeros((h + dy1 - dy0, w + dx1 - dx0) + arr.shape[2:], np.float32)
    for (ox, oy), (ix, iy), wgt in zip(offsets_px, fl, weights):
        ax, ay = float(ox - ix), float(oy - iy)
        x, y = ix - dx0, iy - dy0
        for ddx, ddy, f in ((0, 0, (1 - ax) * (1 - ay)), (1, 0, ax * (1 - ay)), (0, 1, (1 - ax) * ay), (1, 1, ax * ay)):
            if f > 0.0:
                out[y + ddy : y + ddy + h, x + ddx : x + ddx + w] += (wgt * f) * arr
    return out, dx0, dy0


def _paste_box(
    scene: StaticScene, box: tuple[int, int, int, int], dx0: int, dy0: int, shape: tuple[int, int]
) -> tuple[tuple[int, int, int, int], tuple[slice, slice]] | None:
    """Frame box of a smeared canvas, clipped to the frame, and the matching slice of the canvas."""
    H, W = scene.shape
    cx0, cy0 = box[0] + dx0, box[1] + dy0
    cx1, cy1 = cx0 + shape[1], cy0 + shape[0]
    fx0, fy0, fx1, fy1 = max(cx0, 0), max(cy0, 0), min(cx1, W), min(cy1, H)
    if fx0 >= fx1 or fy0 >= fy1:
        return None
    return (fx0, fy0, fx1, fy1), (slice(fy0 - cy0, fy1 - cy0), slice(fx0 - cx0, fx1 - cx0))


def _exposure(scene: StaticScene, centres: np.ndarray, on: np.ndarray) -> tuple[int, np.ndarray, np.ndarray] | None:
    """The reference instant (the middle one on the table) and, for every instant on the table,
    its image offset from the reference and its weight (1/K of the exposure)."""
    ks = np.nonzero(on)[0]
    if not len(ks):
        return None
    ref = int(ks[len(ks) // 2])
    px = scene.camera.project(centres[ks])
    offs = px - scene.camera.project(centres[ref][None, :])
    return ref, offs, np.full(len(ks), 1.0 / len(on))


def _blurred_sprite(
    scene: StaticScene, centres: np.ndarray, on: np.ndarray, ball: BallId, orient: np.ndarray | None
) -> _Sprite | None:
    """The ball integrated over the exposure: sub-frame centres (K, 3) and on-table flags (K,).

    Over one exposure a ball moves a few centimetres 3.5 m from the lens, so its image moves
    without changing shape (to far below 0.01 px): the exact silhouette is ray-cast once at the
    middle instant and shifted to the projection of every sub-frame centre."""
    ex = _exposure(scene, centres, on)
    if ex is None:
        return None
    ref, offs, weights = ex
    sp = _sprite(scene, centres[ref], ball, orient, 0)
    if sp is None:
        return None
    if np.abs(offs).max() < 0.02 and len(offs) == len(on):
        return sp
    alpha, dx0, dy0 = _smear(sp.alpha, offs, weights)
    premul, _, _ = _smear(sp.premul, offs, weights)
    got = _paste_box(scene, sp.box, dx0, dy0, alpha.shape)
    if got is None:
        return None
    box, sl = got
    return _Sprite(box, np.ascontiguousarray(alpha[sl]), np.ascontiguousarray(premul[sl]), sp.depth_mm)


# -- shadows ----------------------------------------------------------------------------------


def _shadow_reach(S: np.ndarray, r: float) -> float:
    """Plan distance (mm) from a ball's centre beyond which its shadow and contact darkening vanish."""
    return 2.2 * r + 0.8 * max(float(S[2]) - r, 0.0)


@dataclass(frozen=True)
class _Shade:
    """A multiplicative darkening of the box's pixels (1 = untouched)."""

    box: tuple[int, int, int, int]
    factor: np.ndarray


def _darkening(scene: StaticScene, S: np.ndarray) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """1 - brightness factor (h, w) of the bed round a ball at S: its soft shadow (the part of each
    lamp's disc it hides, with penumbra) and its contact darkening (the sky it hides)."""
    cam = scene.camera
    r = scene.table.ball_radius_mm
    reach = _shadow_reach(S, r)
    x, y = S[:2]
    corners = np.array(
        [
            (x - reach, y - reach, 0.0),
            (x + reach, y - reach, 0.0),
            (x + reach, y + reach, 0.0),
            (x - reach, y + reach, 0.0),
        ]
    )
    px = cam.project(corners)
    box = _clip_box(
        scene,
        int(np.floor(px[:, 0].min())) - 1,
        int(np.floor(px[:, 1].min())) - 1,
        int(np.ceil(px[:, 0].max())) + 2,
        int(np.ceil(px[:, 1].max())) + 2,
    )
    if box is None:
        return None
    x0, y0, x1, y1 = box
    # soft shadows vary over several pixels: evaluate on every other pixel and interpolate
    step = 2 if (x1 - x0) * (y1 - y0) > 900 else 1
    ys, xs = np.arange(y0, y1, step), np.arange(x0, x1, step)
    ib = np.nonzero(scene.bed[np.ix_(ys, xs)].reshape(-1))[0]
    if not len(ib):
        return None
    C = scene.centre_mm
    d = scene.rays[np.ix_(ys, xs)].reshape(-1, 3)[ib].astype(np.float64)
    P = C[None, :] + (-C[2] / d[:, 2])[:, None] * d
    near = np.hypot(P[:, 0] - x, P[:, 1] - y) < reach
    ib, P = ib[near], P[near]
    if not len(ib):
        return None
    light = scene.lighting
    w = light.lamp_terms(P, np.array([0.0, 0.0, 1.0]))
    base = light.ambient + w.sum(axis=1)
    u = light.pos_mm[None, :, :] - P[:, None, :]
    du = np.linalg.norm(u, axis=2)
    alpha_l = np.arctan(light.radius_mm[None, :] / du)
    v = S[None, :] - P
    D = np.linalg.norm(v, axis=1)
    ao = 1.0 - np.clip(v[:, 2] / D, 0.0, 1.0) * np.minimum(r / D, 1.0) ** 2
    alpha_s = np.arcsin(np.minimum(r / D, 1.0))[:, None]
    beta = np.arccos(np.clip(np.einsum("nk,nlk->nl", v, u) / (D[:, None] * du), -1.0, 1.0))
    lo = np.minimum(alpha_s, alpha_l)
    hidden = np.clip((alpha_s + alpha_l - beta) / (2.0 * lo), 0.0, 1.0) * np.minimum(1.0, (alpha_s / alpha_l) ** 2)
    f = (light.ambient * ao + (w * (1.0 - hidden)).sum(axis=1)) / base
    dark: np.ndarray = np.zeros(len(ys) * len(xs), np.float32)
    sunk = float(np.clip(1.0 + (S[2] - r) / r, 0.0, 1.0))  # no shadow on the cloth from a sunk ball
    dark[ib] = scene.style.shadow_strength * sunk * (1.0 - f)
    dark = dark.reshape(len(ys), len(xs))
    if step > 1:
        import cv2

        # sample i sits at pixel x0 + step*i: map full-resolution pixels back onto the coarse grid
        gx = ((np.arange(x0, x1) - x0) / step).astype(np.float32)
        gy = ((np.arange(y0, y1) - y0) / step).astype(np.float32)
        mx, my = np.meshgrid(gx, gy)
        dark = cv2.remap(dark, mx, my, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return box, np.where(scene.bed[y0:y1, x0:x1], dark, 0.0).astype(np.float32)


def _shadow(scene: StaticScene, centres: np.ndarray, on: np.ndarray) -> _Shade | None:
    """The ball's shadow on the bed integrated over the exposure (cast at the middle instant and
    shifted along the path, as the sprite is; instants off the table cast nothing)."""
    ex = _exposure(scene, centres, on)
    if ex is None:
        return None
    ref, offs, weights = ex
    got = _darkening(scene, centres[ref])
    if got is None:
        return None
    box, dark = got
    if np.abs(offs).max() < 0.02 and len(offs) == len(on):
        return _Shade(box, 1.0 - dark)
    sm, dx0, dy0 = _smear(dark, offs, weights)
    pasted = _paste_box(scene, box, dx0, dy0, sm.shape)
    if pasted is None:
        return None
    pbox, sl = pasted
    x0, y0, x1, y1 = pbox
    fac = 1.0 - sm[sl]
    return _Shade(pbox, np.where(scene.bed[y0:y1, x0:x1], fac, 1.0).astype(np.float32))


class BallPainter:
    """Draws the balls of successive frames of one scene; remembers the last frame's work so that a
    ball at rest costs nothing on the next frame (a ball's layer depends only on its own state)."""

    def __init__(self, scene: StaticScene) -> None:
        self.scene = scene
        self._cache: dict[tuple, tuple[_Shade | None, _Sprite | None]] = {}

    def draw(
        self, img: np.ndarray, states: list[BallsState] | tuple[BallsState, ...]
    ) -> list[tuple[int, int, int, int]]:
        """Draw the balls of one frame into ``img`` (H, W, 3) float32 BGR, in place; ``states`` are
        sub-frame instants spread over the exposure (one for a frame without motion blur).
        Returns the pixel boxes (x0, y0, x1, y1) it changed."""
        if not states:
            raise RenderError("draw_balls: expected at least one ball state for the frame, got none")
        balls = states[0].balls
        if any(s.balls != balls for s in states):
            raise RenderError("draw_balls: every sub-frame state must list the same balls")
        centres = np.stack([s.centres_mm for s in states], axis=1)  # (B, K, 3)
        on = np.stack([s.on_table for s in states], axis=1)  # (B, K)
        mid = states[len(states) // 2]
        cache: dict[tuple, tuple[_Shade | None, _Sprite | None]] = {}
        layers = []
        for j, ball in enumerate(balls):
            if not on[j].any():
                continue
            orient = None if mid.orientations is None else mid.orientations[j]
            key = (ball, centres[j].tobytes(), on[j].tobytes(), None if orient is None else orient.tobytes())
            got = self._cache.get(key)
            if got is None:
                got = (
                    _shadow(self.scene, centres[j], on[j]),
                    _blurred_sprite(self.scene, centres[j], on[j], ball, orient),
                )
            cache[key] = got
            layers.append(got)
        self._cache = cache
        boxes = []
        for shade, _ in layers:
            if shade is not None:
                x0, y0, x1, y1 = shade.box
                img[y0:y1, x0:x1] *= shade.factor[..., None]
                boxes.append(shade.box)
        for _, sp in sorted(layers, key=lambda g: -(g[1].depth_mm if g[1] is not None else 0.0)):
            if sp is not None:
                x0, y0, x1, y1 = sp.box
                reg = img[y0:y1, x0:x1]
                reg *= 1.0 - sp.alpha[..., None]
                reg += sp.premul
                boxes.append(sp.box)
        return boxes


def draw_balls(
    img: np.ndarray, scene: StaticScene, states: list[BallsState] | tuple[BallsState, ...]
) -> list[tuple[int, int, int, int]]:
    """One-off form of :meth:`BallPainter.draw` (no reuse between frames)."""
    return BallPainter(scene).draw(img, states)
