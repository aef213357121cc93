"""Skipping still frames: a cheap test of whether anything in the image changed.

While every ball rests, most frames carry no news; analysing each costs a rectification and a
detection. :class:`StillGate` compares a small grey thumbnail of the frame with the one of the last
analysed frame; when nothing moved beyond the sensor noise, the frame is skipped, except one every
``keep_every_s`` so the tracks keep a heartbeat. Any change (a ball starting, a hand over the
table) sends frames back to full analysis. With a ``region`` (:func:`table_region`: the table out
to its rails' outer edge and a ball beyond), only changes there count: nothing outside it can move
a ball without first crossing it, and a broadcast shows players walking round the table, a
referee, spectators and score graphics changing while every ball rests.

While every ball rests, a change counts only where it touches a ball (:class:`BallWatch`: each
resting ball's disc and a radius around it, where a cue tip or a hand must be to move it): a
ball moves only when something reaches it, and its first motion changes the pixels where it lay.
A player chalking, a bridge hand taking position or a cue waving over open cloth then no longer
sends every frame to the detector (nine-ball break, 720p30: 24 of its 64 resting frames, 11 ms
each), while the heartbeat still looks at the whole table every ``keep_every_s``, which finds a
ball placed by hand where none was.

Two questions, two owners: *are the balls at rest?* is the tracker's to answer
(:meth:`tracking.tracker.Tracker.motion`, passed in here as ``table_at_rest``); *did the image
change?* is this gate's, from pixels, which the tracker never sees. Both must hold to skip a
frame: the tracker alone would miss a ball struck between two analysed frames (nothing tracked
moves until a frame is analysed), the image alone would skip the frames of a ball still rolling
too slowly to change the thumbnail.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.rectify import view_thumbnail

if TYPE_CHECKING:
    from calibration.camera import CameraModel
    from calibration.table import TableSpec
    from tabletrack.visibility import ClothModel

__all__ = ["BallWatch", "StillGate", "table_region"]


def table_region(camera: CameraModel, table: TableSpec, scale: int = 8) -> np.ndarray:
    """Boolean mask of the thumbnail (every ``scale``-th pixel of the camera's image) that is the
    table out to its rails' outer edge plus a ball's diameter, on the cloth plane and at rail height
    (the larger of the two outlines as the camera sees them)."""
    m = table.cushion_width_mm + table.rail_width_mm + table.ball_diameter_mm
    return _outline_mask(camera, table, -m, (0.0, table.rail_height_mm), scale)


def _outline_mask(
    camera: CameraModel, table: TableSpec, inset_mm: float, heights_mm: tuple[float, ...], scale: int
) -> np.ndarray:
    """Boolean thumbnail mask inside the playing surface's rectangle moved ``inset_mm`` inwards
    (negative: outwards), at each of ``heights_mm`` above the cloth (their union); the whole
    thumbnail where the camera cannot draw an outline."""
    m, L, W = inset_mm, table.length_mm, table.width_mm
    corners = np.array([[m, m], [L - m, m], [L - m, W - m], [m, W - m]], np.float64)
    # each side sampled densely, so that lens distortion bends the outline as it bends the rails
    t = np.linspace(0.0, 1.0, 33)[:-1, None]
    ring = np.concatenate([a + t * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0))])
    h = (camera.image_h_px + scale - 1) // scale
    w = (camera.image_w_px + scale - 1) // scale
    mask = np.zeros((h, w), np.uint8)
    for z in heights_mm:
        px = camera.project(np.column_stack([ring, np.full(len(ring), z)])) / scale
        if not np.all(np.isfinite(px)):
            return np.ones((h, w), bool)  # an outline the camera cannot draw: the whole image counts
        cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
    return mask.astype(bool)


class StillGate:
    """See the module docstring: ``threshold`` in grey levels of the blurred thumbnail,
    ``keep_every_s`` the heartbeat, ``scale`` the thumbnail's stride in pixels, ``region`` the
    thumbnail's pixels that count (None: all; a mask of another shape is ignored)."""

    def __init__(
        self, threshold: float = 6.0, keep_every_s: float = 0.25, scale: int = 8, region: np.ndarray | None = None
    ) -> None:
        self.threshold = threshold
        self.keep_every_s = keep_every_s
        self.scale = scale
        self.region = region
        self._ref: np.ndarray | None = None
        self._last_kept_s = -1e9

    @property
    def heartbeat_due_s(self) -> float:
        """The time from which a frame is analysed as the heartbeat, whatever it shows (the
        decoder's thread reads it to prepare that frame beside the analysis)."""
        return self._last_kept_s + self.keep_every_s

    def _thumb(self, frame_bgr: np.ndarray) -> np.ndarray:
        # every scale-th pixel (a strided view costs nothing), grey, blurred against the sensor noise
        return view_thumbnail(frame_bgr, self.scale)

    def analyse(
        self,
        frame_bgr: np.ndarray,
        t_s: float,
        table_at_rest: bool,
        watch: np.ndarray | None = None,
        hiding: np.ndarray | None = None,
        wide_px: int = 1,
    ) -> bool:
        """True when the frame must be analysed: the image changed (where ``watch``, a mask of the
        thumbnail from :class:`BallWatch`, is true, or in a blob at least ``wide_px`` thumbnail
        pixels across where ``hiding`` (:meth:`BallWatch.hiding_places`) is, when given while the
        table rests and not empty; else in the ``region``), the tracker says some ball moves
        (``table_at_rest`` False), or the heartbeat is due."""
        thumb = self._thumb(frame_bgr)
        changed = self._ref is None
        if not changed:
            diff = np.abs(thumb - self._ref)
            if hiding is not None and (hiding.shape != diff.shape or watch is None or watch.shape != diff.shape):
                hiding = None
            if (
                table_at_rest
                and watch is not None
                and watch.shape == diff.shape
                and (watch.any() or hiding is not None)
            ):
                changed = bool((diff[watch] > self.threshold).any())
                if not changed and hiding is not None:
                    hot = ((diff > self.threshold) & hiding).astype(np.uint8)
                    if wide_px > 1:
                        hot = cv2.erode(hot, np.ones((wide_px, wide_px), np.uint8))
                    changed = bool(hot.any())
            else:
                if self.region is not None and self.region.shape == diff.shape:
                    diff = diff[self.region]
                changed = diff.size == 0 or int(diff.max()) > self.threshold
        if changed or not table_at_rest or t_s - self._last_kept_s >= self.keep_every_s:
            self._ref = thumb
            self._last_kept_s = t_s
            return True
        return False


class BallWatch:
    """The thumbnail pixels (every ``scale``-th camera pixel, as :class:`StillGate` samples) near
    resting balls: each ball's disc on the camera's image, widened by ``margin_r`` ball radii and
    by the thumbnail's blur. :meth:`mask` of the balls' table positions (mm) is kept while they
    stay within ``move_mm`` (the positions of resting balls jitter by a fraction of a mm from
    sample to sample; the mask is drawn again only when one really moved)."""

    def __init__(
        self, camera: CameraModel, table: TableSpec, scale: int = 8, margin_r: float = 1.0, move_mm: float = 5.0
    ) -> None:
        self.camera = camera
        self.table = table
        self.scale = scale
        self.z_mm = table.ball_radius_mm
        self.reach_mm = table.ball_radius_mm * (1.0 + margin_r)
        self.move_mm = move_mm
        self.shape = ((camera.image_h_px + scale - 1) // scale, (camera.image_w_px + scale - 1) // scale)
        self._xy: np.ndarray | None = None
        self._mask: np.ndarray | None = None
        # hiding_places' cloth model and what it made of it: (model, reference Lab, playing surface)
        self._cloth: tuple[ClothModel, np.ndarray, np.ndarray] | None = None

    def mask(self, xy_mm: np.ndarray) -> np.ndarray:
        """Boolean thumbnail mask around the balls at ``xy_mm`` ((N, 2) table mm; N may be 0)."""
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        if (
            self._mask is not None
            and self._xy is not None
            and self._xy.shape == xy.shape
            and (len(xy) == 0 or float(np.max(np.abs(self._xy - xy))) <= self.move_mm)
        ):
            return self._mask
        mask = np.zeros(self.shape, np.uint8)
        if len(xy):
            centre, radius = self._discs_px(xy, self.reach_mm)
            for (u, v), r in zip(centre, radius):
                if np.isfinite(u) and np.isfinite(v) and np.isfinite(r):
                    # + 2 thumbnail pixels: the gate's 5x5 blur spreads a change that far
                    cv2.circle(mask, (int(round(u)), int(round(v))), int(np.ceil(r)) + 2, 1, thickness=-1)
        self._xy, self._mask = xy.copy(), mask.astype(bool)
        return self._mask

    @property
    def wide_px(self) -> int:
        """How many thumbnail pixels across a change where a ball hides must be to count (the
        opening of :meth:`hiding_places`): a ball coming out from under a hand is, the faint
        change of a cue sliding through the bridge is not. The gate's blur widens a change that
        contrasts strongly by a pixel each side, so a bright line across the hand still counts:
        frames spent, never a stroke missed (wider, the white of synthetic point_2c_hand coming
        out from under the hand was seen 2 frames later)."""
        return 2 * self._open_k + 1

    @cached_property
    def _open_k(self) -> int:
        return max(1, int(round(0.75 * self._radii_px[0])))

    def _discs_px(self, xy: np.ndarray, d_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """The thumbnail centres ((N, 2)) of balls at table ``xy`` ((N, 2) mm) and the radius
        ((N,)) of a disc ``d_mm`` round each: the reach along each table axis as the camera
        sees it, the larger."""
        z = np.full(len(xy), self.z_mm)
        centre = self.camera.project(np.column_stack([xy, z])) / self.scale
        radius = np.max(
            [
                np.hypot(*(self.camera.project(np.column_stack([xy + off, z])) / self.scale - centre).T)
                for off in ((d_mm, 0.0), (0.0, d_mm))
            ],
            axis=0,
        )
        return centre, radius

    @cached_property
    def _radii_px(self) -> tuple[float, float]:
        """(a ball's radius, :attr:`reach_mm`) in thumbnail pixels at the table's centre."""
        c = np.array([[self.table.length_mm / 2.0, self.table.width_mm / 2.0]])
        return float(self._discs_px(c, self.table.ball_radius_mm)[1][0]), float(self._discs_px(c, self.reach_mm)[1][0])

    def _cloth_reference(self, cloth: ClothModel) -> tuple[np.ndarray, np.ndarray]:
        """(the cloth's Lab at each thumbnail pixel: its model's nearest point's, the thumbnail's
        pixels on the playing surface), made once per cloth model."""
        if self._cloth is not None and self._cloth[0] is cloth:
            return self._cloth[1], self._cloth[2]
        h, w = self.shape
        surface = _outline_mask(self.camera, self.table, 0.0, (0.0,), self.scale)
        ref = np.zeros((h, w, 3), np.int16)
        if len(cloth.points_px):
            from scipy.spatial import cKDTree  # here: only a clip with a hidden ball needs it

            vs, us = np.mgrid[0:h, 0:w]
            pix = np.column_stack([us.ravel(), vs.ravel()]) * self.scale
            _, nearest = cKDTree(cloth.points_px).query(pix)
            ref = cloth.lab[nearest].reshape(h, w, 3).astype(np.int16)
        else:
            surface = np.zeros((h, w), bool)
        self._cloth = (cloth, ref, surface)
        return ref, surface

    def hiding_places(
        self, frame_bgr: np.ndarray, cloth: ClothModel, seen: np.ndarray | None = None
    ) -> np.ndarray | None:
        """Boolean thumbnail mask around what on the playing surface could hide a ball: its
        pixels whose colour is not ``cloth``'s (:class:`tabletrack.visibility.ClothModel`: its
        tolerances, against its nearest point) in blobs at least a ball wide (opened by a disc
        of three quarters of a ball's radius: a cue shaft is narrower, a hand is not), widened by
        :attr:`reach_mm` and the blur as a watched ball's disc; not where ``seen`` (the balls
        seen: :meth:`mask`) is, a ball being no place to hide another. None when there is no such
        blob (a ball unseen there is nowhere the watch can name: every change must count), or
        when ``frame_bgr`` is not the camera's image."""
        if frame_bgr.ndim != 3 or frame_bgr.shape[:2] != (self.camera.image_h_px, self.camera.image_w_px):
            return None
        ref, surface = self._cloth_reference(cloth)
        px = np.ascontiguousarray(frame_bgr[:: self.scale, :: self.scale])
        lab = cv2.cvtColor(px, cv2.COLOR_BGR2LAB).astype(np.int16)
        d = lab - ref
        chroma2 = d[..., 1].astype(np.int32) ** 2 + d[..., 2].astype(np.int32) ** 2
        cfg = cloth.config
        foreign = ((chroma2 > cfg.max_chroma_diff**2) | (np.abs(d[..., 0]) > cfg.max_lightness_diff)) & surface
        if seen is not None and seen.shape == foreign.shape:
            foreign &= ~seen
        _, reach_px = self._radii_px
        k = self._open_k
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        wide = cv2.morphologyEx(foreign.astype(np.uint8), cv2.MORPH_OPEN, disc)
        if not wide.any():
            return None
        g = int(np.ceil(reach_px)) + 2
        return cv2.dilate(wide, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * g + 1, 2 * g + 1))).astype(bool)
