"""The classical ball detector for the rectified table view (carom balls first).

How it works, and why:
1. A cloth model: the rectified frame, median-filtered at quarter resolution with a window three
   ball diameters wide, so that balls vanish from it but the lighting gradient and cushion shading
   stay. It is taken at start-up and refreshed while the table is still (:meth:`set_background`).
2. Foreground: pixels whose Lab chroma differs from the cloth model, or that are much brighter.
   Shadows (darker cloth of the same hue) are not foreground.
3. Each connected blob is split by colour class (white / yellow / red by nearest chroma
   prototype), since carom balls are told apart by colour and touching balls are of different
   colours. A class region of about one ball's area is a ball; its centre is the centroid of the
   filled region (the silhouette on the ball-centre plane is symmetric about the centre to 0.1 mm,
   see :mod:`vision.rectify`). Regions much larger than a ball (a hand, a cue) are not balls; a
   partly hidden ball is fitted with a circle of the known radius to its visible rim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import cv2
import numpy as np

from vision.detect import BallDetection
from vision.rectify import RectifiedGeometry

# Lab chroma prototypes (a - 128, b - 128) of the carom balls under white light.
CAROM_PROTOTYPES: Mapping[str, tuple[float, float]] = {
    "white": (0.0, 4.0),
    "yellow": (2.0, 62.0),
    "red": (55.0, 35.0),
}


@dataclass(frozen=True)
class ClassicalConfig:
    """Thresholds in 8-bit Lab units; areas as fractions of one ball's silhouette area."""

    chroma_threshold: float = 22.0
    lightness_threshold: float = 32.0
    min_area_frac: float = 0.25
    max_single_area_frac: float = 1.9
    occluder_area_frac: float = 3.0
    prototypes: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(CAROM_PROTOTYPES))
    white_min_lightness: float = 120.0


class ClassicalDetector:
    """``detect(rectified_bgr)`` → balls, after ``set_background`` has seen a frame of the table."""

    def __init__(self, geometry: RectifiedGeometry, ball_radius_mm: float, config: ClassicalConfig | None = None):
        self.geometry = geometry
        self.config = config or ClassicalConfig()
        self.r_px = ball_radius_mm * geometry.px_per_mm
        self.ball_area_px = float(np.pi * self.r_px ** 2)
        self._bg_lab: np.ndarray | None = None
        names = list(self.config.prototypes)
        self._labels = names
        self._proto = np.array([self.config.prototypes[n] for n in names], np.float32)
        k = max(3, int(round(self.r_px * 0.35)) | 1)
        self._open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        self._close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    # -- cloth model ---------------------------------------------------------------------------
    def set_background(self, rectified_bgr: np.ndarray) -> None:
        """Model the cloth from a frame (balls may be on it: the median removes them)."""
        h, w = rectified_bgr.shape[:2]
        small = cv2.resize(rectified_bgr, (max(8, w // 4), max(8, h // 4)), interpolation=cv2.INTER_AREA)
        k = int(round(6 * self.r_px / 4)) | 1
        k = max(5, min(k, 255))
        med = cv2.medianBlur(small, k)
        bg = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)
        self._bg_lab = cv2.cvtColor(bg, cv2.COLOR_BGR2LAB).astype(np.int16)

    @property
    def has_background(self) -> bool:
        return self._bg_lab is not None

    # -- detection -----------------------------------------------------------------------------
    def foreground(self, lab: np.ndarray) -> np.ndarray:
        bg = self._bg_lab
        d = lab.astype(np.int16) - bg
        dab2 = d[..., 1].astype(np.int32) ** 2 + d[..., 2].astype(np.int32) ** 2
        fg = (dab2 > int(self.config.chroma_threshold ** 2)) | (d[..., 0] > self.config.lightness_threshold)
        mask = fg.astype(np.uint8) * 255
        return cv2.morphologyEx(mask, cv2.MORPH_OPEN, self._open)

    def detect(self, rectified_bgr: np.ndarray) -> list[BallDetection]:
        if self._bg_lab is None:
            self.set_background(rectified_bgr)
        lab = cv2.cvtColor(rectified_bgr, cv2.COLOR_BGR2LAB)
        mask = self.foreground(lab)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        out: list[BallDetection] = []
        cfg = self.config
        min_area = cfg.min_area_frac * self.ball_area_px
        pad = int(np.ceil(self.r_px))
        H, W = mask.shape
        for i in range(1, n):
            x0, y0, bw, bh, area = stats[i]
            if area < min_area:
                continue
            xa, ya = max(0, x0 - pad), max(0, y0 - pad)
            xb, yb = min(W, x0 + bw + pad), min(H, y0 + bh + pad)
            comp = labels[ya:yb, xa:xb] == i
            out.extend(self._split_component(comp, lab[ya:yb, xa:xb], xa, ya))
        return out

    def _classify(self, lab_px: np.ndarray) -> np.ndarray:
        """Index of the nearest chroma prototype for each (N, 3) Lab pixel."""
        ab = lab_px[:, 1:3].astype(np.float32) - 128.0
        d = ((ab[:, None, :] - self._proto[None, :, :]) ** 2).sum(-1)
        return np.argmin(d, axis=1)

    def _split_component(self, comp: np.ndarray, lab: np.ndarray, ox: int, oy: int) -> list[BallDetection]:
        cfg = self.config
        ys, xs = np.nonzero(comp)
        cls = self._classify(lab[ys, xs])
        counts = np.bincount(cls, minlength=len(self._labels)).astype(np.float64)
        total = float(len(xs))
        dets: list[BallDetection] = []
        big = total > cfg.occluder_area_frac * self.ball_area_px
        for k, name in enumerate(self._labels):
            cnt = counts[k]
            if cnt < cfg.min_area_frac * self.ball_area_px:
                continue
            region = np.zeros(comp.shape, np.uint8)
            region[ys[cls == k], xs[cls == k]] = 255
            region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, self._close)
            det = self._ball_from_region(region, name, counts / total, ox, oy, lab, big)
            dets.extend(det)
        return dets

    def _ball_from_region(self, region: np.ndarray, name: str, fractions: np.ndarray, ox: int, oy: int,
                          lab: np.ndarray, in_occluder: bool) -> list[BallDetection]:
        cfg = self.config
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        out: list[BallDetection] = []
        for c in contours:
            filled = np.zeros_like(region)
            cv2.drawContours(filled, [c], -1, 255, thickness=cv2.FILLED)
            m = cv2.moments(filled, binaryImage=True)
            area = m["m00"]
            if area < cfg.min_area_frac * self.ball_area_px:
                continue
            frac = area / self.ball_area_px
            if frac > cfg.max_single_area_frac:
                # Much larger than a ball of this colour: a hand, a cue, a garment. Not a ball.
                continue
            if name == "white":
                # White must be bright: skin and cue wood land near the white prototype in chroma.
                sel = filled > 0
                if float(np.median(lab[..., 0][sel])) < cfg.white_min_lightness:
                    continue
            if frac >= 0.8:
                cu, cv_ = m["m10"] / area, m["m01"] / area
            else:
                cu, cv_ = self._fixed_radius_fit(c[:, 0, :].astype(np.float64), m)
            circ = 4 * np.pi * area / max(cv2.arcLength(c, True) ** 2, 1e-6)
            score = float(np.clip(min(frac, 1.0) * min(1.0, circ / 0.75), 0.0, 1.0))
            u, v = cu + ox, cv_ + oy
            x_mm, y_mm = self.geometry.uv_to_mm(np.array([u]), np.array([v]))
            scores = {n: float(f) for n, f in zip(self._labels, fractions)}
            out.append(BallDetection(
                x_mm=float(x_mm[0]), y_mm=float(y_mm[0]), u_px=float(u), v_px=float(v), r_px=self.r_px,
                label=name, score=score, label_scores=scores, visible_fraction=float(min(frac, 1.0)),
            ))
        return out

    def _fixed_radius_fit(self, pts: np.ndarray, m: Mapping[str, float]) -> tuple[float, float]:
        """Centre of a circle of the known radius best fitting the visible rim points (Gauss-Newton,
        started at the centroid pushed away from the rim's chord)."""
        r = self.r_px
        c = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        for _ in range(15):
            d = pts - c
            dist = np.hypot(d[:, 0], d[:, 1]) + 1e-9
            res = dist - r
            w = 1.0 / (1.0 + (res / 2.0) ** 2)  # Cauchy weights: the occluder's edge is an outlier
            J = -d / dist[:, None]
            A = J.T @ (J * w[:, None])
            g = J.T @ (w * res)
            try:
                step = -np.linalg.solve(A + 1e-6 * np.eye(2), g)
            except np.linalg.LinAlgError:
                break
            c = c + step
            if np.hypot(*step) < 1e-3:
                break
        return float(c[0]), float(c[1])
