"""What each ball looks like: its colours and markings as a function of the surface direction in
the ball's own frame, so that stripes, numbers and dots turn with the ball.

Contract: :func:`look_of` gives a ball's :class:`BallLook` (pool solids 1-8, stripes 9-15 on a
white ball, the cue ball; snooker reds and colours; carom white/yellow/red), with the colours of
``style.ball_bgr`` where the style overrides them (real sets differ; :func:`jittered_ball_bgr`
draws such a set). :func:`albedo` maps body-frame unit normals (N, 3) to BGR albedo (N, 3),
anti-aliased over ``edge_rad`` (the angle one pixel spans on the ball).

Body frame of a pool ball: the stripe's band is the equator about body z (|n_z| < sin 38 deg,
about the band of a real set); the two number circles (white, ~24 mm across on a 57 mm ball,
black Hershey-font number, 6 and 9 underlined as on real balls) face body +x and -x, so a ball
seen from above shows a number only when rolled that way, as real ones do. Marked cue balls carry
red dots at the six axis poles (``dots6``, like a TV/Pro cue ball) or at 32 poles of an
icosahedron and its dual (``measles``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from calibration._vec import floats3
from tracking.ids import BallId

BGR = tuple[float, float, float]

WHITE_BGR: BGR = (222.0, 232.0, 236.0)
INK_BGR: BGR = (22.0, 22.0, 24.0)
_DOT_BGR: BGR = (40.0, 40.0, 185.0)
_CAROM_MARK_BGR: BGR = (40.0, 40.0, 150.0)
_CAROM_MARK_RAD = 0.11
_NUMBER_RAD = 0.43  # number circle: ~24 mm across on a 57.15 mm ball
_BAND_SIN = math.sin(math.radians(38.0))
_DOT_RAD = 0.12

#: Pool colours by number 1..8 (9..15 carry the colour of n - 8 on a band).
POOL_BGR: dict[int, BGR] = {
    1: (24.0, 188.0, 238.0),  # yellow
    2: (150.0, 62.0, 18.0),  # blue
    3: (36.0, 34.0, 200.0),  # red
    4: (105.0, 36.0, 82.0),  # purple
    5: (22.0, 108.0, 236.0),  # orange
    6: (62.0, 112.0, 22.0),  # green
    7: (34.0, 30.0, 118.0),  # maroon
    8: (26.0, 26.0, 28.0),  # black
}

SNOOKER_BGR: dict[BallId, BGR] = {
    BallId.YELLOW: (26.0, 192.0, 236.0),
    BallId.GREEN: (58.0, 118.0, 24.0),
    BallId.BROWN: (26.0, 58.0, 108.0),
    BallId.BLUE: (168.0, 70.0, 16.0),
    BallId.PINK: (150.0, 118.0, 236.0),
    BallId.BLACK: (24.0, 24.0, 26.0),
}
_SNOOKER_RED: BGR = (36.0, 30.0, 192.0)

CAROM_BGR: dict[BallId, BGR] = {
    BallId.WHITE: WHITE_BGR,
    BallId.YELLOW: (28.0, 178.0, 226.0),
    BallId.RED: (38.0, 36.0, 188.0),
}

SNOOKER_REDS: tuple[BallId, ...] = tuple(BallId(f"red_{i}") for i in range(1, 16))
POOL_BALLS: tuple[BallId, ...] = (BallId.CUE,) + tuple(BallId(str(i)) for i in range(1, 16))
SNOOKER_BALLS: tuple[BallId, ...] = (
    (BallId.CUE,) + SNOOKER_REDS + (BallId.YELLOW, BallId.GREEN, BallId.BROWN, BallId.BLUE, BallId.PINK, BallId.BLACK)
)


class Pattern(Enum):
    PLAIN = "plain"
    SOLID = "solid"  # coloured ball with two white number circles
    STRIPE = "stripe"  # white ball, coloured band, number circles on the band
    DOTS6 = "dots6"  # cue ball with six red dots
    MEASLES = "measles"  # cue ball with 32 red dots
    CAROM_MARKED = "carom_marked"  # RFEB ART 2.8: a dot at both ends of one diameter


CUE_MARKINGS = ("none", "dots6", "measles")


@dataclass(frozen=True)
class BallLook:
    """The look of one ball: ``bgr`` the main colour (the band's on a stripe), ``pattern``, and the
    ``number`` printed on it (pool 1..15, else None)."""

    ball: BallId
    bgr: BGR
    pattern: Pattern
    number: int | None = None


def base_bgr(ball: BallId) -> BGR:
    """The default colour of a ball (before a style's overrides)."""
    v = ball.value
    if v.isdigit():
        n = int(v)
        return POOL_BGR[n if n <= 8 else n - 8]
    if ball in (BallId.CUE, BallId.WHITE):
        return WHITE_BGR
    if ball in SNOOKER_REDS:
        return _SNOOKER_RED
    if ball in CAROM_BGR:
        return CAROM_BGR[ball]
    return SNOOKER_BGR[ball]


def look_of(
    ball: BallId, overrides: Mapping[BallId, BGR] | None = None, cue_marking: str = "none", white_marked: bool = False
) -> BallLook:
    """The look of ``ball``; ``overrides`` replace default colours, ``cue_marking`` marks the pool
    or snooker cue ball (``none``, ``dots6``, ``measles``), ``white_marked`` the carom white."""
    bgr = floats3((overrides or {}).get(ball, base_bgr(ball)))
    v = ball.value
    if v.isdigit():
        n = int(v)
        return BallLook(ball, bgr, Pattern.SOLID if n <= 8 else Pattern.STRIPE, n)
    if ball is BallId.CUE and cue_marking != "none":
        return BallLook(ball, bgr, Pattern.DOTS6 if cue_marking == "dots6" else Pattern.MEASLES)
    if ball is BallId.WHITE and white_marked:
        return BallLook(ball, bgr, Pattern.CAROM_MARKED)
    return BallLook(ball, bgr, Pattern.PLAIN)


def jittered_ball_bgr(
    balls: tuple[BallId, ...] | list[BallId],
    rng: np.random.Generator,
    hue_deg: float = 6.0,
    sat: float = 0.12,
    val: float = 0.12,
) -> dict[BallId, BGR]:
    """A ball set's colours as another manufacturer's might be: each ball's default colour moved
    in hue (+-``hue_deg``), saturation and value (relative +-``sat``, +-``val``), uniformly."""
    import cv2

    out: dict[BallId, BGR] = {}
    for b in balls:
        c = np.array([[base_bgr(b)]], np.float32) / 255.0
        h, s, v = cv2.cvtColor(c, cv2.COLOR_BGR2HSV)[0, 0]
        h = (h + rng.uniform(-hue_deg, hue_deg)) % 360.0
        s = float(np.clip(s * (1.0 + rng.uniform(-sat, sat)), 0.0, 1.0))
        v = float(np.clip(v * (1.0 + rng.uniform(-val, val)), 0.0, 1.0))
        bgr = cv2.cvtColor(np.array([[[h, s, v]]], np.float32), cv2.COLOR_HSV2BGR)[0, 0] * 255.0
        out[b] = floats3(bgr)
    return out


@lru_cache(maxsize=32)
def _number_ink(n: int, size: int = 64) -> np.ndarray:
    """(size, size) float32 ink coverage of the number ``n`` on its circle (1 = black ink), upright
    in image coordinates (u right, v down), centred; drawn with a built-in Hershey font."""
    import cv2

    big = size * 4
    img = np.zeros((big, big), np.uint8)
    text = str(n)
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = 4.4 if len(text) == 1 else 3.5
    thick = 22 if len(text) == 1 else 18
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = ((big - tw) // 2, (big + th) // 2)
    cv2.putText(img, text, org, font, scale, 255, thick, cv2.LINE_AA)
    if n in (6, 9):
        y = org[1] + 22
        cv2.line(img, ((big - tw) // 2 + 10, y), ((big + tw) // 2 - 10, y), 255, 16, cv2.LINE_AA)
    return cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _bilinear(tex: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    h, w = tex.shape
    x = np.clip(u, 0.0, w - 1.001)
    y = np.clip(v, 0.0, h - 1.001)
    i, j = x.astype(np.intp), y.astype(np.intp)
    fx, fy = x - i, y - j
    return (tex[j, i] * (1 - fx) + tex[j, i + 1] * fx) * (1 - fy) + (
        tex[j + 1, i] * (1 - fx) + tex[j + 1, i + 1] * fx
    ) * fy


def _cap(cos_angle: np.ndarray, radius_rad: float, edge_rad: float) -> np.ndarray:
    """Anti-aliased coverage of a spherical cap of ``radius_rad`` given cos(angle to its pole)."""
    ang = np.arccos(np.clip(cos_angle, -1.0, 1.0))
    return np.clip((radius_rad - ang) / max(edge_rad, 1e-3) + 0.5, 0.0, 1.0)


@lru_cache(maxsize=4)
def _poles(kind: str) -> np.ndarray:
    if kind == "dots6":
        return np.vstack([np.eye(3), -np.eye(3)])
    p = (1.0 + math.sqrt(5.0)) / 2.0
    ico: list[tuple[float, float, float]] = [(0, s1, s2 * p) for s1 in (-1, 1) for s2 in (-1, 1)]
    ico = (
        ico
        + [(s1, s2 * p, 0) for s1 in (-1, 1) for s2 in (-1, 1)]
        + [(s2 * p, 0, s1) for s1 in (-1, 1) for s2 in (-1, 1)]
    )
    dod: list[tuple[float, float, float]] = [(a, b, c) for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]
    q = 1.0 / p
    dod += [(0, s1 * q, s2 * p) for s1 in (-1, 1) for s2 in (-1, 1)]
    dod += [(s1 * q, s2 * p, 0) for s1 in (-1, 1) for s2 in (-1, 1)]
    dod += [(s2 * p, 0, s1 * q) for s1 in (-1, 1) for s2 in (-1, 1)]
    P = np.array(ico + dod, np.float64)
    return P / np.linalg.norm(P, axis=1, keepdims=True)


def albedo(look: BallLook, n_body: np.ndarray, edge_rad: float) -> np.ndarray:
    """BGR albedo (N, 3) of the ball's surface at body-frame unit normals ``n_body`` (N, 3)."""
    n = len(n_body)
    main = np.array(look.bgr, np.float64)
    white = np.array(WHITE_BGR, np.float64)
    pat = look.pattern
    if pat is Pattern.PLAIN:
        return np.broadcast_to(main, (n, 3)).copy()
    if pat in (Pattern.DOTS6, Pattern.MEASLES, Pattern.CAROM_MARKED):
        if pat is Pattern.CAROM_MARKED:
            cov = _cap(np.abs(n_body[:, 2]), _CAROM_MARK_RAD, edge_rad)
            ink = np.array(_CAROM_MARK_BGR)
        else:
            cov = _cap(
                (n_body @ _poles(pat.value).T).max(axis=1), _DOT_RAD if pat is Pattern.DOTS6 else 0.085, edge_rad
            )
            ink = np.array(_DOT_BGR)
        return main[None, :] * (1 - cov[:, None]) + ink[None, :] * cov[:, None]
    if pat is Pattern.STRIPE:
        band = np.clip((_BAND_SIN - np.abs(n_body[:, 2])) / max(edge_rad, 1e-3) + 0.5, 0.0, 1.0)
        out = white[None, :] * (1 - band[:, None]) + main[None, :] * band[:, None]
    else:
        out = np.broadcast_to(main, (n, 3)).copy()
    # number circles facing body +x and -x
    tex = _number_ink(int(look.number or 0))
    s = math.sin(_NUMBER_RAD)
    size = tex.shape[0]
    for sgn in (1.0, -1.0):
        c = sgn * n_body[:, 0]
        sel = np.nonzero(c > math.cos(_NUMBER_RAD + 2 * edge_rad))[0]
        if not len(sel):
            continue
        cov = _cap(c[sel], _NUMBER_RAD, edge_rad)
        u = (sgn * n_body[sel, 1] / s * 0.5 + 0.5) * (size - 1)
        v = (-n_body[sel, 2] / s * 0.5 + 0.5) * (size - 1)
        ink = _bilinear(tex, u, v)
        circ = white[None, :] * (1 - ink[:, None]) + np.array(INK_BGR)[None, :] * ink[:, None]
        out[sel] = out[sel] * (1 - cov[:, None]) + circ * cov[:, None]
    return out
