"""Pixel geometry shared by the YOLO detector and the code that trains it.

Contract: the detector network sees the rectified table view letterboxed into a fixed
``(height, width)`` input (:func:`letterbox`: scaled by one factor to fit, placed at the top-left
corner, the rest filled with grey 114, as ultralytics pads); the classifier sees each ball as a
square crop of the full-resolution rectified view resampled so that the ball's diameter spans
:data:`CROP_BALL_PX` of :data:`CROP_PX` pixels (:func:`ball_crop`), whatever the view's px/mm and
the table's ball size. Training data goes through these very functions, so the networks see at
run time exactly what they were trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

PAD_VALUE = 114
CROP_PX = 40
CROP_BALL_PX = 30.0


@dataclass(frozen=True)
class Letterbox:
    """View pixel (u, v) -> input pixel (u * scale, v * scale); ``size`` the (h, w) of the input."""

    scale: float
    size: tuple[int, int]

    def to_view(self, u_in: np.ndarray, v_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(u_in) / self.scale, np.asarray(v_in) / self.scale


def letterbox_of(view_hw: tuple[int, int], size_hw: tuple[int, int]) -> Letterbox:
    h, w = view_hw
    H, W = size_hw
    if h <= 0 or w <= 0:
        raise ValueError(f"letterbox: expected a non-empty view, got {h}x{w}")
    return Letterbox(min(W / w, H / h), (int(H), int(W)))


def letterbox(view_bgr: np.ndarray, size_hw: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """The view scaled to fit ``size_hw`` (area interpolation), top-left, padded with grey."""
    lb = letterbox_of(view_bgr.shape[:2], size_hw)
    h, w = view_bgr.shape[:2]
    nw, nh = min(lb.size[1], int(round(w * lb.scale))), min(lb.size[0], int(round(h * lb.scale)))
    out = np.full((lb.size[0], lb.size[1], 3), PAD_VALUE, np.uint8)
    out[:nh, :nw] = cv2.resize(view_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
    return out, lb


def ball_crop(view_bgr: np.ndarray, u_px: float, v_px: float, r_px: float) -> np.ndarray:
    """(CROP_PX, CROP_PX, 3) uint8 crop centred on (u, v), scaled so a ball of radius ``r_px``
    spans CROP_BALL_PX; outside the view is black (as the rectifier's border)."""
    if r_px <= 0:
        raise ValueError(f"ball_crop: expected a ball radius > 0 px, got {r_px}")
    s = CROP_BALL_PX / (2.0 * r_px)  # crop pixels per view pixel
    c = (CROP_PX - 1) / 2.0
    M = np.array([[s, 0.0, c - s * u_px], [0.0, s, c - s * v_px]], np.float64)
    if s < 0.75:
        # downsampling by much: blur first so the warp does not alias (INTER_AREA is not used by warpAffine)
        k = 1.0 / s
        x0, y0 = int(max(u_px - CROP_PX * k, 0)), int(max(v_px - CROP_PX * k, 0))
        x1 = int(min(u_px + CROP_PX * k, view_bgr.shape[1]))
        y1 = int(min(v_px + CROP_PX * k, view_bgr.shape[0]))
        if x1 > x0 and y1 > y0:
            sub = cv2.GaussianBlur(view_bgr[y0:y1, x0:x1], (0, 0), 0.45 * k)
            M[:, 2] += M[:, :2] @ np.array([x0, y0], np.float64)
            return cv2.warpAffine(
                sub,
                M,
                (CROP_PX, CROP_PX),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=(0, 0, 0),
            )
    return cv2.warpAffine(
        view_bgr, M, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)
    )


def crop_window(view_hw: tuple[int, int], u_px: float, v_px: float, r_px: float) -> tuple[int, int, int, int] | None:
    """The view pixels (u0, v0, u1, v1) :func:`ball_crop` reads for a crop at (u, v), clipped to
    the view; None where it blurs a wider window first (a ball so large the crop downsamples by
    more than 4/3), or the crop lies outside the view."""
    s = CROP_BALL_PX / (2.0 * r_px)
    if s < 0.75:
        return None
    c = (CROP_PX - 1) / 2.0
    reach = (c + 1.0) / s + 2.0  # bilinear reads the next pixel; a margin for the fixed-point map
    h, w = view_hw
    u0, v0 = max(int(np.floor(u_px - reach)), 0), max(int(np.floor(v_px - reach)), 0)
    u1, v1 = min(int(np.ceil(u_px + reach)) + 1, w), min(int(np.ceil(v_px + reach)) + 1, h)
    if u1 <= u0 or v1 <= v0:
        return None
    return u0, v0, u1, v1


def view_crop(view: Any, u_px: float, v_px: float, r_px: float) -> np.ndarray:
    """:func:`ball_crop` of a view given as an array or as a :class:`vision.rectify.LazyView`
    (then only the window the crop reads is remapped: the same crop)."""
    if isinstance(view, np.ndarray):
        return ball_crop(view, u_px, v_px, r_px)
    if r_px <= 0:
        raise ValueError(f"ball_crop: expected a ball radius > 0 px, got {r_px}")
    win = crop_window(view.shape[:2], u_px, v_px, r_px)
    if win is None:
        return ball_crop(view.whole(), u_px, v_px, r_px)
    u0, v0, u1, v1 = win
    return ball_crop(view.window(u0, v0, u1, v1), u_px - u0, v_px - v0, r_px)
