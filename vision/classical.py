"""The classical ball detector for the rectified table view (carom balls first).

How it works, and why:
1. A cloth model: the rectified frame, median-filtered at low resolution with a window several
   ball diameters wide, so that balls vanish from it but the lighting gradient and cushion shading
   stay. It is taken at start-up (:meth:`ClassicalDetector.set_background`) and, while the table
   rests, made again where foreground held no ball (what covered the cloth on the first frame, a
   hand, an arm, has gone: :meth:`ClassicalDetector._refresh_cloth`).
2. Candidates, at half resolution (cheap): pixels whose Lab chroma differs from the cloth model, or
   that are much brighter. Shadows (darker cloth of the same hue) are not foreground.
3. Each candidate blob is measured at full resolution in its own small window. A blob of about one
   ball's area is one ball: its centre is the centroid of the filled silhouette (on the ball-centre
   plane the silhouette is symmetric about the centre to 0.1 mm, see :mod:`vision.rectify`), its
   label the colour class most of its saturated or bright pixels vote for. A larger blob is split
   by colour (carom balls that touch are of different colours): each colour's pixels seed a ball,
   and the ball's centre is a circle of the known radius fitted to the part of the blob's rim
   nearest that seed — which also places a ball half hidden under a hand. Blobs much larger than
   that with no compact colour seed are hands, cues or garments, not balls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import permutations

import cv2
import numpy as np

from tracking.detections import BallDetection, Detections, MotionState, ball_label, ball_scores
from vision.components import sparse_components
from vision.rectify import RectifiedGeometry, Rectifier
from vision.source import Frame

__all__ = ["CAROM_HUES_DEG", "ClassicalConfig", "ClassicalDetector", "CoarseLab"]

# Colour classes of the carom balls by Lab hue angle (degrees, atan2(b - 128, a - 128)) for the
# saturated ones, or by lightness for the white.
CAROM_HUES_DEG: Mapping[str, tuple[float, float]] = {
    "red": (-25.0, 55.0),
    "yellow": (60.0, 115.0),
}


@dataclass(frozen=True)
class ClassicalConfig:
    """Thresholds in 8-bit Lab units; areas as fractions of one ball's silhouette area.

    Streaks (a fast ball at 25-30 fps: a stadium one ball wide and several long): a blob of more
    than ``streak_min_area_frac`` balls whose length along its main axis is at least
    ``streak_min_length_r`` radii, whose width is within ``streak_width_r`` radii and whose area is
    a stadium's of that length and width within ``streak_area_tol``, and whose ball colour (the
    cloth's difference de-blended by the share of the exposure each pixel saw the ball) is one
    class with at least ``streak_min_share`` of the colour votes. A streak too faint for the
    foreground thresholds is sought again with them times ``streak_fg_scale``. A blob whose
    colour is a ball's at more than ``streak_max_share`` of full strength is balls, not a streak.
    The faint pass is skipped when the ordinary one found each class once with a score of at
    least ``clear_score`` and ``clear_visible`` of its silhouette (no ball left to find).

    Light drift: where the median of the whole view's lightness difference from the cloth model
    exceeds ``drift_lightness``, or the median chroma difference ``drift_chroma``, the light has
    changed (a broadcast camera's exposure, a lamp), not the balls (they cover a few percent of
    the view), and the model is made again from that frame.

    One of each: where as many whole balls (``set_score``, ``clear_visible``) as the set has
    classes are found and two share a class, their classes are given by their colours against
    each other (:meth:`ClassicalDetector._one_of_each`).

    Guided frames (:meth:`ClassicalDetector.detect_frame`): while a ball moves and the last frame
    found the whole set clearly, the candidates are sought only in windows around the tracker's
    predictions (``guided_margin_r`` radii, plus the ball's travel since the last analysed frame);
    the whole view is passed again at least every ``guided_every`` analysed frames (1: always)
    and on any frame where the windows do not give the whole set clearly or a blob comes within
    ``guided_border_px`` coarse pixels of a window's edge."""

    chroma_threshold: float = 20.0
    lightness_threshold: float = 30.0
    min_area_frac: float = 0.25
    single_area_frac: float = 1.55
    occluder_area_frac: float = 4.0
    saturated_chroma: float = 28.0
    white_lightness: float = 165.0
    white_above_cloth: float = 55.0
    white_max_chroma: float = 24.0
    hues_deg: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(CAROM_HUES_DEG))
    white_label: str = "white"
    min_seed_frac: float = 0.2
    streak_min_area_frac: float = 1.2
    streak_min_length_r: float = 2.6
    streak_width_r: tuple[float, float] = (1.4, 2.6)
    streak_area_tol: float = 0.35
    streak_min_share: float = 0.7
    streak_fg_scale: float = 0.5
    streak_max_residual: float = 0.45
    streak_max_share: float = 0.8
    colour_learn_rate: float = 0.05
    clear_score: float = 0.7
    clear_visible: float = 0.9
    drift_lightness: float = 8.0
    drift_chroma: float = 6.0
    set_score: float = 0.5
    guided_every: int = 6
    guided_margin_r: float = 3.0
    guided_border_px: int = 3


#: the light's drift is measured on every this-many-th pixel of the half-resolution view
DRIFT_STRIDE = 8


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """Intersection over union of two windows (u0, v0, u1, v1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / float((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _merged(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Windows (u0, v0, u1, v1) with every two that overlap or touch replaced by the box around
    both, until none do (a blob between two balls' windows is then in one window whole)."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, c = out[i], out[j]
                if a[0] <= c[2] and c[0] <= a[2] and a[1] <= c[3] and c[1] <= a[3]:
                    out[i] = (min(a[0], c[0]), min(a[1], c[1]), max(a[2], c[2]), max(a[3], c[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _coarse_lab(rectifier: Rectifier, frame_bgr: np.ndarray) -> np.ndarray:
    """``rectifier``'s half-resolution view of a camera frame, in 8-bit Lab."""
    return cv2.cvtColor(rectifier.coarse(frame_bgr), cv2.COLOR_BGR2LAB)


@dataclass(frozen=True)
class CoarseLab:
    """:meth:`ClassicalDetector.prepare`'s result: ``rectifier``'s half-resolution view of one
    frame, in 8-bit Lab (the rectifier it was made with, so that a frame prepared before a new
    calibration is not read through the new one)."""

    rectifier: Rectifier
    lab: np.ndarray


class ClassicalDetector:
    """``detect(rectified_bgr)`` → balls of a rectified view; with a ``rectifier``, also the
    :class:`vision.detect.Detector` of the pipeline (``detect_frame``). The first frame seen models
    the cloth unless ``set_background`` was called. Labels are the :class:`BallId` of the colour
    classes (``white``, ``yellow``, ``red``)."""

    def __init__(
        self,
        geometry: RectifiedGeometry,
        ball_radius_mm: float,
        config: ClassicalConfig | None = None,
        rectifier: Rectifier | None = None,
    ):
        self.geometry = geometry
        self.rectifier = rectifier
        self.config = config or ClassicalConfig()
        self.r_px = ball_radius_mm * geometry.px_per_mm
        self.ball_area_px = float(np.pi * self.r_px**2)
        self._bg_small: np.ndarray | None = None
        self._bg_full: np.ndarray | None = None
        # the last frame's foreground windows that held no ball, and the windows refreshed on the
        # frames before while they stayed (:meth:`_refresh_cloth`)
        self._empty: list[tuple[int, int, int, int]] = []
        self._tried: list[tuple[int, int, int, int]] = []
        # the last view's median lightness and chroma difference from the cloth model
        self._drift = (0.0, 0.0)
        # guided frames (detect_frame): analysed frames since the whole view was last passed, the
        # last analysed frame's time, whether the last frame found the whole set clearly, and
        # whether it was a guided one (then the decoder need not prepare the next: prepare_useful)
        self._since_whole = 0
        self._t_last: float | None = None
        self._last_all_found = False
        self._guided_last = False
        self.labels: tuple[str, ...] = tuple(self.config.hues_deg) + (self.config.white_label,)
        self._open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        # each class's ball colour in Lab, as seen (learnt from clear single balls; a start for
        # the carom balls under a neutral light)
        start = {"red": (40.0, 40.0, 190.0), "yellow": (40.0, 200.0, 230.0), "white": (235.0, 235.0, 235.0)}
        self._ref_bgr: dict[int, np.ndarray] = {
            i: np.array(start.get(n, (200.0, 200.0, 200.0)), np.float32) for i, n in enumerate(self.labels)
        }

    # -- cloth model ---------------------------------------------------------------------------
    def set_background(self, rectified_bgr: np.ndarray) -> None:
        """Model the cloth from a frame (balls may be on it: the median removes them)."""
        h, w = rectified_bgr.shape[:2]
        self._bg_full = self._cloth_lab(rectified_bgr)
        self._bg_small = cv2.resize(self._bg_full, (w // 2, h // 2), interpolation=cv2.INTER_AREA)

    @property
    def _median_k(self) -> int:
        """The cloth model's median window, in quarter-resolution pixels (three ball diameters)."""
        return max(5, min(int(round(6 * self.r_px / 4)) | 1, 255))

    def _cloth_lab(self, bgr: np.ndarray) -> np.ndarray:
        """The cloth model (int16 Lab, full resolution) of a rectified image: its quarter-size
        median over three ball diameters, so that balls vanish and the lighting stays."""
        h, w = bgr.shape[:2]
        q = cv2.resize(bgr, (max(8, w // 4), max(8, h // 4)), interpolation=cv2.INTER_AREA)
        med = cv2.medianBlur(q, self._median_k)
        full = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)
        return cv2.cvtColor(full, cv2.COLOR_BGR2LAB).astype(np.int16)

    def _relearn(self, box: tuple[int, int, int, int], window: Callable[[int, int, int, int], np.ndarray]) -> None:
        """The cloth model made again inside ``box`` from the current view (``window``), with a
        median window's margin around it."""
        assert self._bg_full is not None and self._bg_small is not None
        H, W = self._bg_full.shape[:2]
        m = 2 * self._median_k
        u0, v0, u1, v1 = (box[0] // 2) * 2, (box[1] // 2) * 2, -(-box[2] // 2) * 2, -(-box[3] // 2) * 2
        u1, v1 = min(u1, W - W % 2), min(v1, H - H % 2)
        if u1 <= u0 or v1 <= v0:
            return
        # from a multiple of 4: the quarter-size median's grid is then the whole view's
        U0, V0 = max(0, u0 - m) // 4 * 4, max(0, v0 - m) // 4 * 4
        U1, V1 = min(W, u1 + m), min(H, v1 + m)
        lab = self._cloth_lab(window(U0, V0, U1, V1))[v0 - V0 : v1 - V0, u0 - U0 : u1 - U0]
        self._bg_full[v0:v1, u0:u1] = lab
        self._bg_small[v0 // 2 : v1 // 2, u0 // 2 : u1 // 2] = cv2.resize(
            lab, ((u1 - u0) // 2, (v1 - v0) // 2), interpolation=cv2.INTER_AREA
        )

    @property
    def has_background(self) -> bool:
        return self._bg_full is not None

    def _fg(self, lab: np.ndarray, bg: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """Foreground: chroma or lightness off the cloth model by the thresholds (times ``scale``:
        a fast ball's streak, each pixel of which saw the ball for part of the exposure only, is
        sought with lower ones)."""
        return self._fg_of(*self._off_cloth(lab, bg), scale)

    @staticmethod
    def _off_cloth(lab: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(squared chroma difference, lightness difference) of ``lab`` from the cloth model."""
        d = lab.astype(np.int16) - bg
        return d[..., 1].astype(np.int32) ** 2 + d[..., 2].astype(np.int32) ** 2, d[..., 0]

    @staticmethod
    def _drift_of(dab2: np.ndarray, dl: np.ndarray) -> tuple[float, float]:
        """The view's median lightness and chroma difference from the cloth model (the light's
        drift, :class:`ClassicalConfig`) from :meth:`_off_cloth`'s differences on every
        :data:`DRIFT_STRIDE`-th pixel of the half-resolution view."""
        return abs(float(np.median(dl))), float(np.sqrt(np.median(dab2)))

    def _drifted(self) -> bool:
        return self._drift[0] > self.config.drift_lightness or self._drift[1] > self.config.drift_chroma

    def _mask(self, lab: np.ndarray, bg: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """:meth:`_fg` opened (a 3x3 ellipse): specks of noise gone, the blobs that are measured."""
        return self._mask_of(*self._off_cloth(lab, bg), scale)

    def _mask_of(self, dab2: np.ndarray, dl: np.ndarray, scale: float) -> np.ndarray:
        """:meth:`_mask` from the differences of :meth:`_off_cloth`."""
        return cv2.morphologyEx(self._fg_of(dab2, dl, scale), cv2.MORPH_OPEN, self._open)

    def _fg_of(self, dab2: np.ndarray, dl: np.ndarray, scale: float) -> np.ndarray:
        """:meth:`_fg` from the differences of :meth:`_off_cloth` (both passes share them)."""
        fg = (dab2 > int((scale * self.config.chroma_threshold) ** 2)) | (dl > scale * self.config.lightness_threshold)
        return fg.astype(np.uint8) * 255

    # -- detection -----------------------------------------------------------------------------
    def _candidates(
        self,
        lab_s: np.ndarray,
        full_w: int,
        full_h: int,
    ) -> tuple[list[tuple[int, int, int, int]], Callable[[], list[tuple[int, int, int, int]]]]:
        """Full-resolution windows (u0, v0, u1, v1) around the foreground blobs of the
        half-resolution view (``lab_s``: in Lab), and the function that finds the windows around the faint streaks
        (blobs a ball wide and several long under the lower thresholds that the ordinary ones see
        little of): called only when the ordinary pass left a ball to find (:meth:`_all_found`)."""
        bg = self._bg_small
        assert bg is not None  # set by set_background, which detect and detect_image run first
        if bg.shape[:2] != lab_s.shape[:2]:
            bg = cv2.resize(bg, (lab_s.shape[1], lab_s.shape[0]), interpolation=cv2.INTER_NEAREST)
        dab2, dl = self._off_cloth(lab_s, bg)
        self._drift = self._drift_of(dab2[::DRIFT_STRIDE, ::DRIFT_STRIDE], dl[::DRIFT_STRIDE, ::DRIFT_STRIDE])
        mask_s = self._mask_of(dab2, dl, 1.0)
        stats = sparse_components(mask_s).stats  # OpenCV's, without the background row
        boxes = self._boxes(stats, full_w, full_h)

        def faint() -> list[tuple[int, int, int, int]]:
            found: list[tuple[int, int, int, int]] = []
            weak = self._mask_of(dab2, dl, self.config.streak_fg_scale)
            r_s = self.r_px / 2.0
            wc = sparse_components(weak)
            for i, (x0, y0, bw, bh, area) in enumerate(wc.stats):
                if area < 2.0 * np.pi * r_s * r_s or max(bw, bh) < self.config.streak_min_length_r * r_s:
                    continue
                inside = wc.pixels(i, x0, y0, x0 + bw, y0 + bh)
                strong_share = float((mask_s[y0 : y0 + bh, x0 : x0 + bw][inside] > 0).mean())
                if strong_share > 0.6:
                    continue  # the strong pass sees it well enough
                found.append(self._full_box(x0, y0, bw, bh, full_w, full_h))
            return found

        return boxes, faint

    def _full_box(self, x0: int, y0: int, bw: int, bh: int, full_w: int, full_h: int) -> tuple[int, int, int, int]:
        """The full-resolution window (u0, v0, u1, v1) of a half-resolution blob's box, with half
        a radius and two pixels of margin."""
        pad = int(np.ceil(self.r_px * 0.5)) + 2
        return (
            max(0, 2 * x0 - pad),
            max(0, 2 * y0 - pad),
            min(full_w, 2 * (x0 + bw) + pad),
            min(full_h, 2 * (y0 + bh) + pad),
        )

    def _boxes(self, stats: np.ndarray, full_w: int, full_h: int) -> list[tuple[int, int, int, int]]:
        """The full-resolution windows of the half-resolution blobs (``stats``: x, y, width,
        height, area, in the mask's raster order) of at least ``min_area_frac`` of a ball."""
        min_small_area = self.config.min_area_frac * self.ball_area_px / 4.0
        return [
            self._full_box(x0, y0, bw, bh, full_w, full_h) for x0, y0, bw, bh, area in stats if area >= min_small_area
        ]

    def detect(self, rectified_bgr: np.ndarray, t_s: float | None = None) -> list[BallDetection]:
        """Balls in a whole full-resolution rectified view (``t_s`` unused)."""
        if self._bg_full is None:
            self.set_background(rectified_bgr)
        H, W = rectified_bgr.shape[:2]
        small = cv2.cvtColor(np.ascontiguousarray(rectified_bgr[::2, ::2]), cv2.COLOR_BGR2LAB)
        return self._detect_in(small, W, H, lambda u0, v0, u1, v1: rectified_bgr[v0:v1, u0:u1])

    def prepare(self, frame_bgr: np.ndarray) -> CoarseLab | None:
        """The part of :meth:`detect_frame`'s work that depends on the image alone: the
        rectifier's half-resolution view, in Lab (a remap and a colour conversion, ~1.6 ms of a
        1080p frame's ~4.5). The pipeline runs it on the decoder's thread, on the other core, and
        hands it back as ``Frame.prepared``; the result is the same wherever it is made. None
        without a rectifier."""
        if self.rectifier is None:
            return None
        return CoarseLab(self.rectifier, _coarse_lab(self.rectifier, frame_bgr))

    def prepare_useful(self) -> bool:
        """Whether the next frame will likely need :meth:`prepare`'s whole half-resolution view:
        not while the frames are guided (:meth:`detect_frame`), which read windows of it only."""
        return not self._guided_last

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        """The pipeline's call (:class:`vision.detect.Detector`): the balls of ``frame.image``
        through the detector's ``rectifier``, from the frame's :meth:`prepare` result where it
        carries one made with that rectifier. ``motion`` (the tracker's, predicted for this
        frame) says whether the table rests, when the cloth model may be refreshed
        (:meth:`_refresh_cloth`), and where the balls should be.

        Guided frames: while a ball moves, on a frame after one that found the whole set clearly,
        the candidates are sought in windows of the half-resolution view around the tracker's
        predictions only (:meth:`_guided`), not in the whole view; a blob found there is measured
        as the whole view's pass measures it, so each ball's detection is the one that pass gives
        (the same blob, in the same window, in the same order). The whole view is passed again
        where the windows do not give the whole set clearly, where a blob nears a window's edge,
        and at least every ``guided_every`` analysed frames (:class:`ClassicalConfig`): what the
        windows cannot see (a ball where the tracker did not predict it, a change of light, a
        faint streak) waits at most that long. Why: on a 1080p carom frame the half-resolution
        view (a remap and a colour conversion, ~3 ms) and the candidate search over it (~1.8 ms)
        were most of the detector's ~6.5 ms, for three balls that each cover a few hundredths of
        the view; a guided frame took ~3.2 ms, most of it measuring the three balls (sample
        point_2a: 271 of 354 analysed frames guided; the events, calls and tracks of every carom
        sample byte for byte the same as with the whole view on every frame)."""
        if self.rectifier is None:
            raise ValueError("classical detector: detect_frame needs the rectifier given at construction")
        assert frame.image is not None  # the pipeline passes decoded frames only
        rect, image = self.rectifier, frame.image
        dt = None if self._t_last is None else float(frame.t_s) - self._t_last
        self._t_last = float(frame.t_s)
        guided = self._guided(image, rect, motion, dt) if self._guidable(motion, dt) else None
        self._guided_last = guided is not None
        if guided is not None:
            self._since_whole += 1
            self._last_all_found = True
            self._tried = []  # a ball moves: nothing is refreshed (_refresh_cloth)
            return Detections(frame.index, frame.t_s, tuple(guided))
        self._since_whole = 0
        prepared = frame.prepared
        coarse = prepared.lab if isinstance(prepared, CoarseLab) and prepared.rectifier is self.rectifier else None
        found = self.detect_image(image, rect, coarse)
        if self._drifted():
            # the light changed over the whole view: the cloth model made again (ClassicalConfig),
            # and this frame's balls found against it (against the old one, the whole cloth was
            # foreground: a hand's or a garment's colour seeds could pass for balls there)
            self.set_background(rect(image))
            self._tried = []
            found = self.detect_image(image, rect, coarse)
        else:
            self._refresh_cloth(
                motion is not None and motion.resting, lambda u0, v0, u1, v1: rect.patch(image, u0, v0, u1, v1)
            )
        self._last_all_found = self._all_found(found)
        return Detections(frame.index, frame.t_s, tuple(found))

    def _guidable(self, motion: MotionState | None, dt_s: float | None) -> bool:
        """Whether this frame may be guided (:meth:`detect_frame`): a ball moves, the tracker
        predicts every ball of the set (one per colour class, each seen on the last frame), the
        last frame found the whole set clearly, and the whole view was passed within
        ``guided_every`` frames."""
        cfg = self.config
        if motion is None or motion.resting or dt_s is None or dt_s <= 0 or self._bg_small is None:
            return False
        if not self._last_all_found or self._since_whole + 1 >= cfg.guided_every:
            return False
        balls = [m for m in motion.balls if not m.gone]
        return sorted(m.ball.value for m in balls) == sorted(self.labels) and all(m.seen_last_frame for m in balls)

    def _guided(
        self, image: np.ndarray, rect: Rectifier, motion: MotionState | None, dt_s: float | None
    ) -> list[BallDetection] | None:
        """The balls of a guided frame (:meth:`detect_frame`), None where the whole view must be
        passed instead. The windows' foreground is made as the whole view's is (the same
        half-resolution pixels, cloth model and opening) and put into an empty mask of the whole
        view, so that its blobs come in the whole view's order; a blob within ``guided_border_px``
        of a window's edge (where the opening and the blob's extent beyond the window are not
        seen) sends the frame to the whole view. The colour learnt from clear balls
        (:meth:`_learn_colour`) is put back as it was when the frame goes there."""
        assert motion is not None and dt_s is not None and self._bg_small is not None and self._bg_full is not None
        cfg = self.config
        h2, w2 = self._bg_small.shape[:2]
        H, W = self._bg_full.shape[:2]
        # the light's drift, on the same pixels as the whole view's pass measures it: where the
        # light has changed, that pass makes the cloth model again (detect_frame)
        lab = cv2.cvtColor(rect.coarse_sparse(image, DRIFT_STRIDE), cv2.COLOR_BGR2LAB)
        self._drift = self._drift_of(*self._off_cloth(lab, self._bg_small[::DRIFT_STRIDE, ::DRIFT_STRIDE]))
        if self._drifted():
            return None
        b = max(1, int(cfg.guided_border_px))
        balls = [m for m in motion.balls if not m.gone]
        u, v = self.geometry.mm_to_uv(np.array([m.x_mm for m in balls]), np.array([m.y_mm for m in balls]))
        travel_px = np.hypot([m.vx_mm_s for m in balls], [m.vy_mm_s for m in balls]) * dt_s * self.geometry.px_per_mm
        half = (cfg.guided_margin_r * self.r_px + travel_px) / 2.0 + b  # coarse px
        cu, cv_ = u / 2.0, v / 2.0
        if not (np.isfinite(cu).all() and np.isfinite(cv_).all() and np.isfinite(half).all()):
            return None
        windows = [
            (
                max(0, math.floor(x - h)),
                max(0, math.floor(y - h)),
                min(w2, math.ceil(x + h) + 1),
                min(h2, math.ceil(y + h) + 1),
            )
            for x, y, h in zip(cu.tolist(), cv_.tolist(), half.tolist())
        ]
        mask = np.zeros((h2, w2), np.uint8)
        for u0, v0, u1, v1 in _merged(windows):
            if u1 - u0 <= 2 * b or v1 - v0 <= 2 * b:
                return None  # off the view, or too small to hold a ball
            lab = cv2.cvtColor(rect.coarse_window(image, u0, v0, u1, v1), cv2.COLOR_BGR2LAB)
            fg = self._mask(lab, self._bg_small[v0:v1, u0:u1])
            if (
                (v0 > 0 and fg[:b].any())
                or (v1 < h2 and fg[-b:].any())
                or (u0 > 0 and fg[:, :b].any())
                or (u1 < w2 and fg[:, -b:].any())
            ):
                return None
            mask[v0:v1, u0:u1] = fg
        learnt = dict(self._ref_bgr)  # _learn_colour replaces a class's array, never writes into it
        out: list[BallDetection] = []
        empty = []
        for u0, v0, u1, v1 in self._boxes(sparse_components(mask).stats, W, H):
            found = self._measure(rect.patch(image, u0, v0, u1, v1), self._bg_full[v0:v1, u0:u1], u0, v0)
            if not found:
                empty.append((u0, v0, u1, v1))
            out.extend(found)
        if not self._all_found(out):
            self._ref_bgr = learnt
            return None
        # the whole set, clearly, one of each class: the whole view's pass would neither rename
        # them (_one_of_each) nor seek faint streaks (_all_found)
        self._empty = empty
        return out

    def _refresh_cloth(self, resting: bool, window: Callable[[int, int, int, int], np.ndarray]) -> None:
        """The cloth model made again where the last frame's foreground held no ball, while the
        table rests. Why: the model is the first frame's, and what covered the cloth then (a
        player's hand and arm over the table, a shadow) stays in it; once it is gone, the bare
        cloth there is foreground on every frame to the end, measured each time (~2.5 ms of a
        720p frame) and a place for a false ball. A blob that is still there, and still empty, on
        the next frame after its refresh is no cloth the median can learn (a cue, fingers, a hand
        that moves): it is left until it goes. While a ball moves nothing is refreshed (a blob may
        then be a streak the detector did not take)."""
        if not resting:
            self._tried = []
            return
        tried = []
        for box in self._empty:
            if not any(_overlap(box, old) >= 0.5 for old in self._tried):
                self._relearn(box, window)
            tried.append(box)
        self._tried = tried

    def detect_image(
        self, frame_bgr: np.ndarray, rectifier: Rectifier, coarse_lab: np.ndarray | None = None
    ) -> list[BallDetection]:
        """Balls in a raw camera image: candidates in the rectifier's half-resolution view (in Lab:
        ``coarse_lab`` where it was made already, :meth:`prepare`), each measured in a
        full-resolution window remapped on its own (about four times cheaper than remapping the
        whole view at full resolution)."""
        if self._bg_full is None:
            self.set_background(rectifier(frame_bgr))
        assert self._bg_full is not None  # set just above, or before
        H, W = self._bg_full.shape[:2]
        if coarse_lab is None:
            coarse_lab = _coarse_lab(rectifier, frame_bgr)
        return self._detect_in(coarse_lab, W, H, lambda u0, v0, u1, v1: rectifier.patch(frame_bgr, u0, v0, u1, v1))

    def _detect_in(
        self, small_lab: np.ndarray, W: int, H: int, window: Callable[[int, int, int, int], np.ndarray]
    ) -> list[BallDetection]:
        """The balls of one view: candidates on its half-resolution ``small_lab`` (Lab), each
        measured in its full-resolution ``window(u0, v0, u1, v1)``, then the faint streaks."""
        out: list[BallDetection] = []
        boxes, faint = self._candidates(small_lab, W, H)
        assert self._bg_full is not None  # set by set_background, which detect and detect_image run first
        self._empty = []
        for u0, v0, u1, v1 in boxes:
            found = self._measure(window(u0, v0, u1, v1), self._bg_full[v0:v1, u0:u1], u0, v0)
            if not found:
                self._empty.append((u0, v0, u1, v1))
            out.extend(found)
        out = self._one_of_each(out, small_lab)
        if self._all_found(out):
            return out
        for u0, v0, u1, v1 in faint():
            out.extend(self._faint_streaks(window(u0, v0, u1, v1), self._bg_full[v0:v1, u0:u1], u0, v0, out))
        return out

    def _one_of_each(self, found: list[BallDetection], small_lab: np.ndarray) -> list[BallDetection]:
        """The whole balls' classes told apart by their colours against each other when the
        absolute thresholds give a class twice. The set has one ball of each class (the three
        carom balls, ivory, yellow and red: 002 carom ART 2.8), so where exactly that many whole
        balls are found (``set_score``, ``clear_visible``) and two share a class, the least
        chromatic is the white and the others take the hue classes nearest their hues. Why:
        under a darker or warmer light than the thresholds were set for, every ball's colour
        moves the same way (PBA broadcast frames darkened, bench/real_variants.py: the white's
        chroma 23 -> 34 at the yellow's hue, read as the yellow, and the yellow read as the red,
        on 29 of 37 frames), while their order holds. Each ball's colour is the median over its
        disc in the half-resolution view (``small_lab``); its beliefs are permuted with its
        class."""
        cfg = self.config
        clear = [i for i, d in enumerate(found) if d.score >= cfg.set_score and d.visible_fraction >= cfg.clear_visible]
        if len(clear) != len(self.labels) or len({found[i].label for i in clear}) == len(clear):
            return found
        if any(found[i].streak_px is not None for i in clear):
            return found
        h, w = small_lab.shape[:2]
        r = max(1.0, 0.6 * self.r_px / 2.0)
        colours = []
        for i in clear:
            u, v = found[i].u_px / 2.0, found[i].v_px / 2.0
            u0, u1 = max(0, int(u - r)), min(w, int(u + r) + 1)
            v0, v1 = max(0, int(v - r)), min(h, int(v + r) + 1)
            if u1 <= u0 or v1 <= v0:
                return found
            ab = small_lab[v0:v1, u0:u1, 1:].reshape(-1, 2).astype(np.float64) - 128.0
            a, b = np.median(ab, axis=0)
            colours.append((float(np.hypot(a, b)), float(np.degrees(np.arctan2(b, a)))))
        names: dict[int, str] = {}
        order = sorted(range(len(clear)), key=lambda j: colours[j][0])
        if cfg.white_label in self.labels:
            names[order[0]] = cfg.white_label
            order = order[1:]
        # the hue classes to the other balls: the pairing nearest their ranges' middles in all
        # (on the circle: a red at -10 degrees is near the red's 15, not far below the yellow)
        middle = {n: sum(lo_hi) / 2.0 for n, lo_hi in cfg.hues_deg.items()}

        def off(j: int, n: str) -> float:
            return abs((colours[j][1] - middle[n] + 180.0) % 360.0 - 180.0)

        best = min(permutations(middle, len(order)), key=lambda ns: sum(off(j, n) for j, n in zip(order, ns)))
        names.update(zip(order, best))
        out = list(found)
        for j, i in enumerate(clear):
            d = found[i]
            new = ball_label(names[j])
            if new is None or new is d.label:
                continue
            scores = dict(d.label_scores)
            if d.label is not None:  # the right side is read before either is written
                scores[new], scores[d.label] = scores.get(d.label, 0.0), scores.get(new, 0.0)
            out[i] = replace(d, label=new, label_scores=scores)
        return out

    def _all_found(self, found: list[BallDetection]) -> bool:
        """Whether the ordinary pass saw every ball of the set (one per colour class: the carom
        balls) once each, clearly (``clear_score``, all of its silhouette): then no ball is left
        for the faint-streak pass to find, and it is skipped (~0.7 ms of a 1080p frame's ~4.5).
        A faint streak is a ball the ordinary thresholds missed, so with a class missing, doubled
        or unsure the pass runs as before."""
        cfg = self.config
        if len(found) != len(self.labels):
            return False
        clear = {d.label for d in found if d.score >= cfg.clear_score and d.visible_fraction >= cfg.clear_visible}
        return len(clear) == len(self.labels)

    def _faint_streaks(
        self, bgr: np.ndarray, bg: np.ndarray, ox: int, oy: int, found: list[BallDetection]
    ) -> list[BallDetection]:
        """Streaks too faint for the ordinary thresholds (a ball faster than ~4 m/s at 30 fps),
        sought in a window with the lower ones; none where a ball was already found."""
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
        mask = self._mask(lab, bg, self.config.streak_fg_scale)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        out: list[BallDetection] = []
        for c in contours:
            filled = np.zeros(mask.shape, np.uint8)
            cv2.drawContours(filled, [c], -1, 255, thickness=cv2.FILLED)
            if filled.sum() / 255.0 < self.config.streak_min_area_frac * self.ball_area_px:
                continue
            det = self._streak(filled > 0, bgr, lab, bg, ox, oy)
            if det is None or any(
                np.hypot(f.u_px - det.u_px, f.v_px - det.v_px) < 2.0 * self.r_px for f in found + out
            ):
                continue
            out.append(det)
        return out

    def _pixel_classes(self, lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
        """Per-pixel class index into ``labels`` (−1: not confidently any ball colour). White is
        told by its lightness above the cloth model as well as by an absolute level, so that a white
        ball in a dim corner of the table is still white. The chroma test is a table over the
        65536 (a, b) pairs (:attr:`_chroma_table`), read by index: the same classes as the
        float hue and chroma of each pixel, at a fraction of the cost over a hand's window."""
        cfg = self.config
        ab = (lab[..., 1].astype(np.uint16) << 8) | lab[..., 2]
        hue_cls, grey = self._chroma_table
        cls = hue_cls[ab]
        L = lab[..., 0]
        # L is the Lab lightness array, not a constant (SIM300 reads it as one): compared as written
        bright = (L >= cfg.white_lightness) | (L.astype(np.int16) - bg[..., 0] >= cfg.white_above_cloth)  # noqa: SIM300
        cls[bright & grey[ab]] = len(cfg.hues_deg)
        return cls

    @cached_property
    def _chroma_table(self) -> tuple[np.ndarray, np.ndarray]:
        """(hue class or −1, chroma below the white's limit) for every 8-bit (a, b) pair, indexed
        by ``a << 8 | b``: each colour class by its Lab hue angle where the chroma is saturated."""
        cfg = self.config
        a_u8, b_u8 = np.meshgrid(np.arange(256, dtype=np.uint8), np.arange(256, dtype=np.uint8), indexing="ij")
        a = a_u8.astype(np.float32) - 128.0
        b = b_u8.astype(np.float32) - 128.0
        chroma = np.hypot(a, b)
        hue = np.degrees(np.arctan2(b, a))
        cls = np.full(a.shape, -1, np.int8)
        for k, (lo, hi) in enumerate(cfg.hues_deg.values()):
            cls[(chroma >= cfg.saturated_chroma) & (hue >= lo) & (hue < hi)] = k
        return cls.ravel(), (chroma < cfg.white_max_chroma).ravel()

    def _measure(self, bgr: np.ndarray, bg: np.ndarray, ox: int, oy: int) -> list[BallDetection]:
        cfg = self.config
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)
        mask = self._mask(lab, bg)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        out: list[BallDetection] = []
        for c in contours:
            filled = np.zeros(mask.shape, np.uint8)
            cv2.drawContours(filled, [c], -1, 255, thickness=cv2.FILLED)
            m = cv2.moments(filled, binaryImage=True)
            area = m["m00"]
            frac = area / self.ball_area_px
            if frac < cfg.min_area_frac:
                continue
            inside = filled > 0
            # the colour classes of the blob's pixels alone, in raster order (a hand's window is
            # mostly cloth: classifying all of it cost as much as the rest of the measure)
            cls = self._pixel_classes(lab[inside], bg[inside])
            streak = self._streak(inside, bgr, lab, bg, ox, oy, cls) if frac > cfg.streak_min_area_frac else None
            if streak is not None:
                out.append(streak)
                continue
            counts = np.bincount(cls.astype(np.int64) + 1, minlength=len(self.labels) + 1)[1:]
            total_votes = max(int(counts.sum()), 1)
            scores = {n: float(cnt) / total_votes for n, cnt in zip(self.labels, counts)}
            if frac <= cfg.single_area_frac:
                if counts.sum() < cfg.min_seed_frac * self.ball_area_px:
                    continue  # a foreground blob with no ball colour in it (a chalk mark, a glare)
                k = int(np.argmax(counts))
                cu, cv_ = m["m10"] / area, m["m01"] / area
                circ = 4 * np.pi * area / max(cv2.arcLength(c, True) ** 2, 1e-6)
                score = float(np.clip(min(frac, 1.0 / max(frac, 1e-6)) * min(1.0, circ / 0.8), 0.0, 1.0))
                if score > 0.7 and counts[k] > 0.5 * counts.sum():
                    self._learn_colour(k, bgr[inside][cls == k])
                out.append(self._det(cu + ox, cv_ + oy, self.labels[k], score, scores, min(frac, 1.0)))
                continue
            # Several balls touching, or a ball under a hand or cue: one seed per colour present.
            rim = c[:, 0, :].astype(np.float64)
            seeds = []
            ys_in, xs_in = np.nonzero(inside)
            for k, name in enumerate(self.labels):
                sel = cls == k
                n_k = int(sel.sum())
                if n_k < cfg.min_seed_frac * self.ball_area_px or n_k > 1.6 * self.ball_area_px:
                    continue
                ys, xs = ys_in[sel], xs_in[sel]
                spread = np.sqrt(xs.var() + ys.var())
                if spread > 1.1 * self.r_px:
                    continue  # not compact: the colour of a hand, a sleeve, a cue
                seeds.append((name, np.array([xs.mean(), ys.mean()]), n_k))
            if not seeds:
                continue
            centres = np.array([s[1] for s in seeds])
            owner = np.argmin(((rim[:, None, :] - centres[None, :, :]) ** 2).sum(-1), axis=1)
            for j, (name, seed, n_k) in enumerate(seeds):
                pts = rim[owner == j]
                near = np.hypot(*(pts - seed).T) < 2.0 * self.r_px if len(pts) else np.zeros(0, bool)
                pts = pts[near]
                if len(pts) < 8:
                    continue
                cu, cv_, inlier = self._fixed_radius_fit(pts, seed)
                visible = float(min(1.0, n_k / self.ball_area_px))
                score = float(np.clip(0.5 * inlier + 0.5 * visible, 0.0, 1.0)) * (
                    0.8 if frac > cfg.occluder_area_frac else 1.0
                )
                out.append(self._det(cu + ox, cv_ + oy, name, score, scores, visible))
        return out

    def _streak(
        self,
        inside: np.ndarray,
        bgr: np.ndarray,
        lab: np.ndarray,
        bg: np.ndarray,
        ox: int,
        oy: int,
        classes: np.ndarray | None = None,
    ) -> BallDetection | None:
        """A fast ball's streak (see :class:`ClassicalConfig`): the ball where it was at
        mid-exposure (the streak's middle), its colour de-blended from the cloth, and in
        ``streak_px`` the ends of its path over the exposure (each a radius inside the streak's
        tips); None when the blob is no streak. ``classes``: the colour classes of the blob's
        pixels in raster order, where the caller has them."""
        cfg = self.config
        r = self.r_px
        ys, xs = np.nonzero(inside)
        if len(xs) < 10:
            return None
        pts = np.column_stack([xs, ys]).astype(np.float64)
        mean = pts.mean(axis=0)
        d = pts - mean
        w, vec = np.linalg.eigh(d.T @ d / (len(d) - 1))  # the covariance (np.cov's, ~8x cheaper)
        axis = vec[:, 1]
        # the width first: a hand's or a cue's blob fails it, and the length is not needed
        c0, c1 = np.percentile(d @ vec[:, 0], [0.5, 99.5])
        width = float(c1 - c0) + 1.0
        lo, hi = cfg.streak_width_r
        if not lo * r <= width <= hi * r:
            return None
        a0, a1 = np.percentile(d @ axis, [0.5, 99.5])
        length = float(a1 - a0) + 1.0
        if length < cfg.streak_min_length_r * r:
            return None
        stadium = (length - width) * width + np.pi * (width / 2.0) ** 2
        if abs(len(xs) / stadium - 1.0) > cfg.streak_area_tol:
            return None
        # each pixel of the streak saw the ball for about (2r / length) of the exposure, the cloth
        # (or the ball's blurred shadow: darker in every channel, left out) for the rest. The
        # image blends in RGB: which ball's colour (as this detector has seen its balls,
        # :meth:`_learn_colour`), mixed with the cloth's, makes the streak's colour? The class
        # whose mix leaves the least of the difference unexplained, at a share near the nominal
        # one (a streak's faint tips are lost, so it looks shorter than its path: within three).
        share = float(np.clip(2.0 * r / length, 0.1, 1.0))
        cloth_px = cv2.cvtColor(np.clip(bg, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)[inside].astype(np.float32)
        d_all = bgr[inside].astype(np.float32) - cloth_px
        lit = ~np.all(d_all < 0.0, axis=1)
        if lit.sum() < 10:
            return None
        d_lit = d_all[lit]
        nrm = np.linalg.norm(d_lit, axis=1)
        diff = d_lit[nrm >= np.percentile(nrm, 75.0)].mean(axis=0)
        cloth = cloth_px[lit].mean(axis=0)
        k, best, k_share = -1, cfg.streak_max_residual, 0.0
        fit = np.zeros(len(self.labels))
        for i, ref in self._ref_bgr.items():
            toward = ref - cloth
            n2 = float(toward @ toward)
            if n2 <= 1e-6:
                continue
            sh = float(diff @ toward) / n2
            if not share / 3.0 <= sh <= min(1.0, 3.0 * share):
                continue
            res = float(np.linalg.norm(diff - sh * toward)) / max(float(np.linalg.norm(diff)), 1e-6)
            fit[i] = np.exp(-res / 0.1)
            if res < best:
                k, best, k_share = i, res, sh
        if classes is None:
            classes = self._pixel_classes(lab[inside], bg[inside])
        votes = np.bincount(classes.astype(np.int64) + 1, minlength=len(self.labels) + 1)[1:]
        if k < 0 or k_share > cfg.streak_max_share:
            return None  # no ball's blend explains it, or it is a ball's full colour: no streak
        total = max(int(votes.sum()), 1)
        if votes.sum() >= cfg.min_seed_frac * self.ball_area_px and votes[k] / total < cfg.streak_min_share:
            return None  # two colours along the blob: touching balls, not one streak
        # the tips are fainter than the middle: measure the ends on the weaker foreground along
        # the streak's axis (the centre is the middle of the ends either way)
        weak = self._fg(lab, bg, cfg.streak_fg_scale) > 0
        wy, wx = np.nonzero(weak)
        wp = np.column_stack([wx, wy]).astype(np.float64) - mean
        band = (np.abs(wp @ vec[:, 0]) <= r) & (np.abs(wp @ axis) <= 0.5 * length + 4.0 * r)
        if band.sum() > len(xs):
            w_along = wp[band] @ axis
            b0, b1 = np.percentile(w_along, [0.5, 99.5])
            if b1 - b0 > a1 - a0:
                a0, a1 = float(b0), float(b1)
                length = a1 - a0 + 1.0
        mid = mean + axis * 0.5 * (a0 + a1)
        half = max(0.5 * length - r, 0.0)
        e0, e1 = mid - axis * half, mid + axis * half
        # the belief over the classes from how well each one's blend explains the streak (a
        # blurred ball's colour is less sure than a still one's)
        fit = fit / fit.sum() if fit.sum() > 0 else np.eye(len(self.labels))[k]
        scores = {n: float(fit[i]) for i, n in enumerate(self.labels)}
        score = float(np.clip(0.4 + 0.4 * (1.0 - abs(len(xs) / stadium - 1.0) / cfg.streak_area_tol), 0.0, 0.8))
        det = self._det(mid[0] + ox, mid[1] + oy, self.labels[k], score, scores, 1.0)
        return replace(det, streak_px=(float(e0[0] + ox), float(e0[1] + oy), float(e1[0] + ox), float(e1[1] + oy)))

    def _learn_colour(self, k: int, pixels_bgr: np.ndarray) -> None:
        """Move class ``k``'s ball colour (BGR) toward the mean of a clear ball's pixels of that
        class, so that streaks are told by the balls' colours under this light."""
        if len(pixels_bgr):
            a = self.config.colour_learn_rate
            self._ref_bgr[k] = (1.0 - a) * self._ref_bgr[k] + a * pixels_bgr.astype(np.float32).mean(axis=0)

    def _det(
        self, u: float, v: float, label: str, score: float, scores: Mapping[str, float], visible: float
    ) -> BallDetection:
        x_mm, y_mm = self.geometry.uv_to_mm(np.array([u]), np.array([v]))
        return BallDetection(
            x_mm=float(x_mm[0]),
            y_mm=float(y_mm[0]),
            u_px=float(u),
            v_px=float(v),
            r_px=self.r_px,
            label=ball_label(label),
            score=score,
            label_scores=ball_scores(scores.items()),
            visible_fraction=visible,
        )

    def _fixed_radius_fit(self, pts: np.ndarray, start: np.ndarray) -> tuple[float, float, float]:
        """Centre of a circle of the known radius fitting rim points (Gauss–Newton with Cauchy
        weights, so the edge of an occluder or of the touching ball counts little); and the share
        of points within 1.5 px of the circle."""
        r = self.r_px
        c = start.astype(np.float64).copy()
        for _ in range(20):
            d = pts - c
            dist = np.hypot(d[:, 0], d[:, 1]) + 1e-9
            res = dist - r
            w = 1.0 / (1.0 + (res / 1.5) ** 2)
            J = -d / dist[:, None]
            A = J.T @ (J * w[:, None]) + 1e-6 * np.eye(2)
            step = -np.linalg.solve(A, J.T @ (w * res))
            c = c + step
            if np.hypot(*step) < 1e-3:
                break
        dist = np.hypot(*(pts - c).T)
        return float(c[0]), float(c[1]), float(np.mean(np.abs(dist - r) < 1.5))
