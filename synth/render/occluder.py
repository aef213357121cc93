"""A player's hand and cue over the table, as on real footage where the cue ball is struck from
under a hand.

Contract: :class:`Occlusion` is the clip-level request (which ball, which frames, where the hand
sits relative to the ball, whether a cue is drawn); :class:`HandCuePose` is one frame's placement
in table millimetres; :func:`draw_hand_cue` draws a pose into a float BGR frame and returns the
occluder's coverage, so the clip can report how much of each ball stayed visible. The shapes are
3-D (the bridge hand ~75 mm above the cloth with the forearm rising back and to the left, the
cue lying on the bridge, from the ball's centre height at the tip to 250 mm at the butt) and go through :meth:`CameraModel.project`, so they sit where the lens puts
them; each casts a soft shadow on the table below.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from synth.render.scene import StaticScene
from synth.render.style import RenderError
from tracking.ids import BallId

_SKIN_BGR = (120.0, 150.0, 205.0)
_SLEEVE_BGR = (52.0, 46.0, 44.0)
_FERRULE_BGR = (225.0, 232.0, 236.0)
_TIP_BGR = (150.0, 110.0, 60.0)
_SHAFT_BGR = (140.0, 190.0, 222.0)
_BUTT_BGR = (25.0, 35.0, 60.0)
_HAND_Z_MM = 75.0
_HAND_LEN_MM = 190.0
_HAND_W_MM = 100.0
_CUE_LEN_MM = 1450.0


@dataclass(frozen=True)
class Occlusion:
    """A hand (and cue) over ``ball`` for frames ``start_frame`` <= i < ``end_frame``.

    ``hand_offset_mm`` is how far behind the ball (against the aim) the hand's centre sits: 0
    puts the hand right over the ball. ``aim_deg`` is the cue's direction in the table frame
    (degrees from +x towards +y); None takes the ball's first direction of travel in the shot."""

    ball: BallId
    start_frame: int
    end_frame: int
    hand_offset_mm: float = 0.0
    cue: bool = True
    aim_deg: float | None = None

    def __post_init__(self) -> None:
        if self.start_frame < 0 or self.end_frame <= self.start_frame:
            raise RenderError(
                f"occlusion of {self.ball.value}: expected 0 <= start_frame < end_frame, "
                f"got {self.start_frame}..{self.end_frame}"
            )

    def to_dict(self) -> dict:
        return {
            "ball": self.ball.value,
            "start_frame": self.start_frame,
            "end_frame": self.end_frame,
            "kind": "hand_and_cue" if self.cue else "hand",
            "hand_offset_mm": self.hand_offset_mm,
        }


@dataclass(frozen=True)
class HandCuePose:
    """One frame's hand centre and cue tip (table mm), the aim (rad) and whether a cue is drawn."""

    hand_xy_mm: tuple[float, float]
    aim_rad: float
    tip_xy_mm: tuple[float, float]
    tip_z_mm: float
    cue: bool = True


def _aa_mask(shape: tuple[int, int], polys: list[np.ndarray]) -> np.ndarray:
    """Anti-aliased coverage (float32 0..1) of filled polygons given in pixel coordinates."""
    import cv2

    m = np.zeros(shape, np.uint8)
    shift = 4
    for p in polys:
        cv2.fillPoly(m, [np.round(p * (1 << shift)).astype(np.int32)], 255, cv2.LINE_AA, shift)
    return m.astype(np.float32) / 255.0


def _hand_outline(pose: HandCuePose, z_mm: float) -> np.ndarray:
    """(N, 3) outline of an open bridge hand with four fingertips towards the aim."""
    th = np.linspace(0.0, 2.0 * np.pi, 90, endpoint=False)
    a, b = _HAND_LEN_MM / 2.0, _HAND_W_MM / 2.0
    u = a * np.sign(np.cos(th)) * np.abs(np.cos(th)) ** 0.8
    v = b * np.sign(np.sin(th)) * np.abs(np.sin(th)) ** 0.8
    front = np.cos(th) > 0.55
    u = u + front * 9.0 * np.abs(np.sin(4.0 * np.arctan2(v, b)))  # finger bumps
    c, s = np.cos(pose.aim_rad), np.sin(pose.aim_rad)
    hx, hy = pose.hand_xy_mm
    return np.column_stack([hx + c * u - s * v, hy + s * u + c * v, np.full(len(th), z_mm)])


def _tube(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float, n: int = 24) -> np.ndarray:
    """(2n, 3) outline (in plan, widths across the aim) of a tapered stick from p0 to p1."""
    axis = p1[:2] - p0[:2]
    axis = axis / max(np.linalg.norm(axis), 1e-9)
    perp = np.array([-axis[1], axis[0], 0.0])
    s = np.linspace(0.0, 1.0, n)[:, None]
    centre = p0[None, :] * (1 - s) + p1[None, :] * s
    rad = r0 * (1 - s) + r1 * s
    return np.vstack([centre + rad * perp, (centre - rad * perp)[::-1]])


@dataclass(frozen=True)
class _Layer:
    """Part of an occluder in a pixel box: shadow factor on what is below, coverage, premultiplied colour."""

    box: tuple[int, int, int, int]
    shadow: np.ndarray
    alpha: np.ndarray
    premul: np.ndarray


def _box_of(scene: StaticScene, pts_px: np.ndarray, pad: int) -> tuple[int, int, int, int] | None:
    ok = np.isfinite(pts_px).all(axis=1)
    if not ok.any():
        return None
    H, W = scene.shape
    x0 = max(int(np.floor(pts_px[ok, 0].min())) - pad, 0)
    y0 = max(int(np.floor(pts_px[ok, 1].min())) - pad, 0)
    x1 = min(int(np.ceil(pts_px[ok, 0].max())) + pad, W)
    y1 = min(int(np.ceil(pts_px[ok, 1].max())) + pad, H)
    return None if x0 >= x1 or y0 >= y1 else (x0, y0, x1, y1)


def _layer(
    scene: StaticScene,
    parts: list[tuple[np.ndarray, np.ndarray | tuple[float, float, float], str]],
    casters: list[np.ndarray] | None = None,
) -> _Layer | None:
    """Rasterise 3-D outlines (drawn in order, later on top) with their soft shadows straight below
    (the lamp box is all over the table; the blur grows with the height). Shadows are computed at
    a quarter of the resolution: they are blurred by several pixels anyway. ``casters`` are the
    outlines that cast shadows (default: the parts themselves)."""
    import cv2

    cam = scene.camera
    mm_per_px = float(cam.centre_mm[2]) / cam.fx
    casters = [p for p, _, _ in parts] if casters is None else casters
    grounds = [np.column_stack([p[:, :2], np.zeros(len(p))]) for p in casters]
    px_parts = [cam.project(p) for p, _, _ in parts]
    px_ground = [cam.project(g) for g in grounds]
    max_sigma = max(0.18 * float(p[:, 2].mean()) / mm_per_px for p in casters)
    box = _box_of(scene, np.vstack(px_parts + px_ground), int(3 * max_sigma) + 4)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    h, w = y1 - y0, x1 - x0
    off = np.array([x0, y0], np.float64)
    q = 4
    hq, wq = (h + q - 1) // q, (w + q - 1) // q
    shadow_q = np.ones((hq, wq), np.float32)
    for pts, g in zip(casters, px_ground):
        m = _aa_mask((hq, wq), [(g - off) / q])
        sigma = max(0.5, 0.18 * float(pts[:, 2].mean()) / mm_per_px / q)
        shadow_q *= 1.0 - 0.45 * cv2.GaussianBlur(m, (0, 0), sigma)
    shadow = cv2.resize(shadow_q, (wq * q, hq * q), interpolation=cv2.INTER_LINEAR)[:h, :w]
    alpha = np.zeros((h, w), np.float32)
    premul = np.zeros((h, w, 3), np.float32)
    for (_pts, col, kind), p in zip(parts, px_parts):
        m = _aa_mask((h, w), [p - off])
        if kind == "skin":
            # knuckle relief: brighter in the middle of the hand, darker at its edges
            relief = cv2.GaussianBlur(m, (0, 0), max(1.0, 12.0 / mm_per_px))
            colour = np.array(col, np.float32)[None, None, :] * (0.55 + 0.55 * relief)[..., None]
        elif kind == "cloth":
            relief = cv2.GaussianBlur(m, (0, 0), max(1.0, 20.0 / mm_per_px))
            colour = np.array(col, np.float32)[None, None, :] * (0.5 + 0.8 * relief)[..., None]
        else:  # a round stick: a lengthwise highlight
            core = cv2.erode(m, np.ones((3, 3), np.uint8))
            colour = np.array(col, np.float32)[None, None, :] * (0.68 + 0.32 * core)[..., None]
        premul = premul * (1.0 - m[..., None]) + colour * m[..., None]
        alpha = alpha + m * (1.0 - alpha)
    return _Layer(box, shadow, alpha, premul)


def _hand_parts(pose: HandCuePose) -> list:
    c, s = np.cos(pose.aim_rad), np.sin(pose.aim_rad)
    aim = np.array([c, s, 0.0])
    left = np.array([-s, c, 0.0])
    hx, hy = pose.hand_xy_mm
    hand = _hand_outline(pose, _HAND_Z_MM)
    wrist = np.array([hx, hy, _HAND_Z_MM]) - aim * (_HAND_LEN_MM * 0.45)
    back = -aim * np.cos(np.radians(35.0)) + left * np.sin(np.radians(35.0))  # a right-hander's bridge arm
    elbow = wrist + back * 420.0 + np.array([0.0, 0.0, 260.0])
    shoulder = elbow + back * 300.0 + np.array([0.0, 0.0, 380.0])
    return [
        (_tube(elbow, shoulder, 50.0, 62.0, 8), _SLEEVE_BGR, "cloth"),
        (_tube(wrist, elbow, 36.0, 50.0, 8), _SLEEVE_BGR, "cloth"),
        (hand, _SKIN_BGR, "skin"),
    ]


def _cue_caster(pose: HandCuePose) -> np.ndarray:
    c, s = np.cos(pose.aim_rad), np.sin(pose.aim_rad)
    aim = np.array([c, s, 0.0])
    tip = np.array([pose.tip_xy_mm[0], pose.tip_xy_mm[1], pose.tip_z_mm])
    butt = tip - aim * _CUE_LEN_MM + np.array([0.0, 0.0, 250.0 - pose.tip_z_mm])
    return _tube(tip, butt, 6.0, 15.0, 2)


def _cue_parts(pose: HandCuePose) -> list:
    c, s = np.cos(pose.aim_rad), np.sin(pose.aim_rad)
    aim = np.array([c, s, 0.0])
    tip = np.array([pose.tip_xy_mm[0], pose.tip_xy_mm[1], pose.tip_z_mm])
    butt = tip - aim * _CUE_LEN_MM + np.array([0.0, 0.0, 250.0 - pose.tip_z_mm])
    segs = [
        (0.0, 0.008, _TIP_BGR),
        (0.008, 0.025, _FERRULE_BGR),
        (0.025, 0.50, _SHAFT_BGR),
        (0.50, 0.515, _FERRULE_BGR),
        (0.515, 1.0, _BUTT_BGR),
    ]
    out = []
    for f0, f1, col in segs:
        p0, p1 = tip * (1 - f0) + butt * f0, tip * (1 - f1) + butt * f1
        out.append((_tube(p0, p1, 6.0 + 9.0 * f0, 6.0 + 9.0 * f1, 6), col, "stick"))
    return out


class OccluderPainter:
    """Draws hand-and-cue poses frame after frame; the hand and arm, which stay put while the cue
    strokes, are rasterised once and reused."""

    def __init__(self, scene: StaticScene) -> None:
        self.scene = scene
        self._cache: dict[tuple, _Layer | None] = {}

    def draw(self, img: np.ndarray, pose: HandCuePose) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
        """Draw ``pose`` into ``img`` (H, W, 3) float32 in place; returns (box, coverage (h, w)) of
        the occluder, or None when it falls outside the frame."""
        key = (pose.hand_xy_mm, pose.aim_rad)
        if key not in self._cache:
            self._cache = {key: _layer(self.scene, _hand_parts(pose))}
        candidates = [self._cache[key]]
        if pose.cue:
            candidates.append(_layer(self.scene, _cue_parts(pose), [_cue_caster(pose)]))
        layers = [layer for layer in candidates if layer is not None]
        if not layers:
            return None
        for layer in layers:
            x0, y0, x1, y1 = layer.box
            img[y0:y1, x0:x1] *= layer.shadow[..., None]
        for layer in layers:
            x0, y0, x1, y1 = layer.box
            reg = img[y0:y1, x0:x1]
            reg *= 1.0 - layer.alpha[..., None]
            reg += layer.premul
        bx0 = min(layer.box[0] for layer in layers)
        by0 = min(layer.box[1] for layer in layers)
        bx1 = max(layer.box[2] for layer in layers)
        by1 = max(layer.box[3] for layer in layers)
        cover = np.zeros((by1 - by0, bx1 - bx0), np.float32)
        for layer in layers:
            x0, y0, x1, y1 = layer.box
            sub = cover[y0 - by0 : y1 - by0, x0 - bx0 : x1 - bx0]
            sub += layer.alpha * (1.0 - sub)
        return (bx0, by0, bx1, by1), cover


def draw_hand_cue(
    img: np.ndarray, scene: StaticScene, pose: HandCuePose
) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """One-off form of :meth:`OccluderPainter.draw`."""
    return OccluderPainter(scene).draw(img, pose)


def aim_of_ball(xy_mm: np.ndarray, min_travel_mm: float = 5.0) -> float | None:
    """Direction (rad) of a ball's first travel along its path (N, 2); None if it never moves."""
    d = xy_mm - xy_mm[0][None, :]
    dist = np.hypot(d[:, 0], d[:, 1])
    k = np.nonzero(dist > min_travel_mm)[0]
    if not len(k):
        return None
    v = d[k[0]]
    return float(np.arctan2(v[1], v[0]))


def stroke_gap_mm(t_s: float, t_strike_s: float | None) -> float:
    """Distance of the cue tip behind the ball's surface: practice strokes (period 1 s, 70 mm
    back-swing) reaching the ball at the strike, then a 90 mm follow-through."""
    if t_strike_s is None:
        return 40.0
    dt = t_s - t_strike_s
    if dt < 0.0:
        return 70.0 * (0.5 - 0.5 * np.cos(2.0 * np.pi * dt / 1.0))
    return -min(90.0, 900.0 * dt)
