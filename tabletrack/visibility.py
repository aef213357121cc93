"""Is the table in view? The cloth's colour at fixed points of the playing surface, frame by frame.

Contract: :meth:`ClothModel.from_video` samples a video's frames from ``start_frame`` on (the frame
the camera was solved on, where the table is certainly seen), drops the dark ones (a black lead-in,
a lens cap), and keeps, at each of a grid of points on the cloth (table millimetres projected to
pixels once), the median colour over :attr:`VisibilityConfig.model_frames` frames; it also gives
their per-pixel median image, the background for detectors that model the cloth. A single frame
is never the model: one frame with a hand, a shadow or a black fade would be the cloth forever.
:meth:`ClothModel.visible` says whether a frame shows the table: at least
:attr:`VisibilityConfig.min_match_fraction` of the points match the model (chroma within
``max_chroma_diff``, lightness within ``max_lightness_diff``, CIE L*a*b* in OpenCV's 8-bit
scale), and the rails do not look like the cloth: points on the rail tops whose colour in the
model's frames was not the cloth's must not show the cloth on more than
:attr:`VisibilityConfig.rail_max_cloth_fraction` of them (a close-up or a zoom of the table still
shows cloth at every cloth point, but cloth where the rails were; an arm or a caption on a rail is
no cloth). :class:`GapLog` turns the frames that do not into gaps (first and last frame, times).

Why: a black stretch in mid-clip made the tracker see balls appear and vanish (17 phantom shots
from two seconds of black), and a black first frame made a black cloth model that hid the real
shot. A frame where the table is not seen carries no evidence about the balls; the pipeline skips
it and marks the gap, and a call whose shot touches a gap is flagged for review.

The figures: on the sample clips (carom, pool, snooker cloth; one with a hand over the table)
every frame matches at 0.97 or more of the points, a black frame at 0. The rails: on every frame
of the 20 sample clips and the 10 real dev clips (nine-ball, eight-ball) no rail point looks like
the cloth (0.00; 0.41 on real Clip12's fade, a gap by its cloth anyway), the synthetic snooker
table's rails are cloth-coloured (6-7 of 88 points kept: no rail test); a nine-ball dev clip with
a second of 2x close-up spliced in: the close-up's frames are a gap (before: "the 7 moved, no
stroke", a shot made of the close-up, and a miss made with the cue ball unseen there).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec
from common.errors import TabletrackError, shorten
from vision.median import median_image
from vision.source import Frame, VideoFile

__all__ = ["ClothModel", "Gap", "GapLog", "TableNotSeenError", "VisibilityConfig"]


class TableNotSeenError(TabletrackError):
    """The table is not seen in enough frames of the video to model its cloth."""


@dataclass(frozen=True)
class VisibilityConfig:
    """``grid_mm``: spacing of the sample points; ``inset_mm``: their distance from the cushion
    noses (clear of the cushions' shadow); ``model_frames``: frames in the median;
    ``model_span_s``: over how long they are spread; ``dark_lightness``: a frame whose points'
    median lightness is below this is dark, never part of the model (the cloth of the sample clips
    is 78-94); ``max_chroma_diff`` / ``max_lightness_diff``: a point matches the model within
    these (lighting moves lightness more than chroma); ``min_match_fraction``: a frame shows the
    table when at least this share of the points match (a hand or a cue covers under a fifth).
    ``rail_step_mm``: spacing of the rail points (on the rail tops, on the diamonds' line);
    ``rail_max_cloth_fraction``: a frame whose rail points look like the cloth on more than this
    share is not the calibrated view (a close-up, a zoom); ``rail_min_points``: with fewer rail
    points unlike the cloth in the model's frames (rails the cloth's colour, rails out of the
    picture) that test is not made."""

    grid_mm: float = 80.0
    inset_mm: float = 60.0
    model_frames: int = 7
    model_span_s: float = 2.0
    dark_lightness: float = 20.0
    max_chroma_diff: float = 20.0
    max_lightness_diff: float = 60.0
    min_match_fraction: float = 0.5
    rail_step_mm: float = 100.0
    rail_max_cloth_fraction: float = 0.5
    rail_min_points: int = 12


def _in_image(camera: CameraModel, xyz_mm: np.ndarray) -> np.ndarray:
    """Table points (N, 3) mm projected to whole pixels, those inside the image."""
    px = np.round(camera.project(xyz_mm)).astype(np.int64)
    inside = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < camera.image_w_px) & (px[:, 1] < camera.image_h_px)
    return px[inside]


def _lab(pixels_bgr: np.ndarray) -> np.ndarray:
    """(N, 3) BGR uint8 → (N, 3) Lab as int16."""
    return cv2.cvtColor(pixels_bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.int16)


@dataclass(frozen=True)
class ClothModel:
    """The cloth's colour at ``points_px`` ((N, 2) int: u, v), and the ``frames`` it was made from
    with their median, :attr:`background_bgr` (see the module docstring).

    The median is made when first asked for: the pipeline needs it only when the video's first
    frame does not show the table (a black lead-in), and of 1080p frames it costs ~45 ms; the
    frames are then dropped (:meth:`without_frames`) before the frame loop, which needs the
    colours only."""

    points_px: np.ndarray
    lab: np.ndarray
    frames: tuple[np.ndarray, ...] = ()
    config: VisibilityConfig = field(default_factory=VisibilityConfig)
    #: rail points ((M, 2) int: u, v) whose colour in the model's frames is not the cloth's: on a
    #: frame of the calibrated view they do not look like the cloth (see :meth:`visible`)
    rail_px: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))

    @cached_property
    def background_bgr(self) -> np.ndarray:
        """The per-pixel median of :attr:`frames`; ValueError once they were dropped."""
        if not self.frames:
            raise ValueError("ClothModel.background_bgr: expected the model's frames, but they were dropped")
        return median_image(list(self.frames))

    def without_frames(self) -> ClothModel:
        """The same model without its frames (the frame loop's: no background, no frames held)."""
        return replace(self, frames=())

    @staticmethod
    def sample_points(camera: CameraModel, table: TableSpec, config: VisibilityConfig) -> np.ndarray:
        """The grid of cloth points (table mm, inset from the noses) as pixels inside the image."""
        inset, step = config.inset_mm, config.grid_mm
        xs = np.arange(inset, table.length_mm - inset + 1e-9, step)
        ys = np.arange(inset, table.width_mm - inset + 1e-9, step)
        gx, gy = np.meshgrid(xs, ys)
        return _in_image(camera, np.column_stack([gx.ravel(), gy.ravel(), np.zeros(gx.size)]))

    @staticmethod
    def rail_points(camera: CameraModel, table: TableSpec, config: VisibilityConfig) -> np.ndarray:
        """Points on the four rail tops (on the diamonds' line, away from the corners) as pixels
        inside the image."""
        d, step = table.diamond_setback_mm, config.rail_step_mm
        L, W = table.length_mm, table.width_mm
        pts: list[tuple[float, float]] = []
        for length, fixed, along_x in ((L, -d, True), (L, W + d, True), (W, -d, False), (W, L + d, False)):
            for s in np.arange(0.1 * length, 0.9 * length + 1e-9, step):
                pts.append((float(s), fixed) if along_x else (fixed, float(s)))
        if not pts:
            return np.zeros((0, 2), np.int64)
        return _in_image(camera, np.column_stack([np.array(pts), np.full(len(pts), table.rail_height_mm)]))

    @cached_property
    def _cloth_lab(self) -> np.ndarray:
        """The cloth's median colour (Lab), once: the rail test asks it on every analysed frame."""
        return np.median(self.lab, axis=0)

    def _cloth_like(self, lab: np.ndarray) -> np.ndarray:
        """Which of the Lab colours (N, 3) match the cloth's median colour (the visibility test's
        tolerances)."""
        d = lab.astype(np.float64) - self._cloth_lab
        cfg = self.config
        return (np.hypot(d[:, 1], d[:, 2]) <= cfg.max_chroma_diff) & (np.abs(d[:, 0]) <= cfg.max_lightness_diff)

    def rail_cloth_fraction(self, frame_bgr: np.ndarray) -> float | None:
        """The share of the rail points that look like the cloth in this frame; None where the
        model has too few rail points to say."""
        if len(self.rail_px) < self.config.rail_min_points or len(self.lab) == 0:
            return None
        lab = _lab(frame_bgr[self.rail_px[:, 1], self.rail_px[:, 0]])
        return float(np.mean(self._cloth_like(lab)))

    def _sample(self, frame_bgr: np.ndarray) -> np.ndarray:
        return _lab(frame_bgr[self.points_px[:, 1], self.points_px[:, 0]])

    def match_fraction(self, frame_bgr: np.ndarray) -> float:
        """The share of the points whose colour matches the model in this frame."""
        if len(self.points_px) == 0:
            return 1.0
        s = self._sample(frame_bgr)
        d = s - self.lab
        chroma = np.hypot(d[:, 1], d[:, 2])
        ok = (chroma <= self.config.max_chroma_diff) & (np.abs(d[:, 0]) <= self.config.max_lightness_diff)
        return float(np.mean(ok))

    def visible(self, frame_bgr: np.ndarray) -> bool:
        """Whether this frame shows the table as calibrated (see the module docstring): its cloth
        points match the cloth, and its rails do not (a close-up or a zoom of the table shows
        cloth where the rails were)."""
        if self.match_fraction(frame_bgr) < self.config.min_match_fraction:
            return False
        rail = self.rail_cloth_fraction(frame_bgr)
        return rail is None or rail <= self.config.rail_max_cloth_fraction

    @staticmethod
    def stride(fps: float, config: VisibilityConfig | None = None) -> int:
        """Frames between two of the model's frames: ``model_frames`` spread over ``model_span_s``."""
        cfg = config or VisibilityConfig()
        return max(1, int(round(fps * cfg.model_span_s / cfg.model_frames)))

    @staticmethod
    def wants(index: int, start_frame: int, fps: float, config: VisibilityConfig | None = None) -> bool:
        """Whether frame ``index`` is one the model is made from (it still skips dark ones)."""
        return index >= start_frame and (index - start_frame) % ClothModel.stride(fps, config) == 0

    @staticmethod
    def from_video(
        video: Path,
        camera: CameraModel,
        table: TableSpec,
        start_frame: int = 0,
        config: VisibilityConfig | None = None,
    ) -> ClothModel:
        """The model of ``video``'s cloth from its frames at ``start_frame`` and after (see the
        module docstring); :class:`TableNotSeenError` when no frame of the video is light."""
        with VideoFile(video) as src:
            fps, size = src.info.fps, (src.info.width_px, src.info.height_px)
            frames = src.frames(decode=lambda i: ClothModel.wants(i, start_frame, fps, config))
            return ClothModel.from_frames(frames, camera, table, size, start_frame, fps, config, name=str(video))

    @staticmethod
    def from_frames(
        frames: Iterable[Frame],
        camera: CameraModel,
        table: TableSpec,
        size_px: tuple[int, int],
        start_frame: int,
        fps: float,
        config: VisibilityConfig | None = None,
        name: str = "video",
    ) -> ClothModel:
        """:meth:`from_video` from a pass over a video's frames of ``size_px`` (w, h) already open:
        it reads ``frames`` only as far as the model needs, and uses those of them that
        :meth:`wants` and that carry an image (so ``analyze`` hands it the rest of the pass that
        solved the camera, with the solved frame first, and decodes nothing twice)."""
        cfg = config or VisibilityConfig()
        if size_px != (camera.image_w_px, camera.image_h_px):
            camera = camera.scaled(*size_px)
        points = ClothModel.sample_points(camera, table, cfg)
        rails = ClothModel.rail_points(camera, table, cfg)
        kept: list[np.ndarray] = []
        samples: list[np.ndarray] = []
        rail_samples: list[np.ndarray] = []
        for fr in frames:
            if fr.image is None or not ClothModel.wants(fr.index, start_frame, fps, cfg):
                continue
            s = _lab(fr.image[points[:, 1], points[:, 0]]) if len(points) else np.zeros((0, 3), np.int16)
            if len(s) and float(np.median(s[:, 0])) < cfg.dark_lightness:
                continue  # a dark frame: a black lead-in or fade, never the cloth's model
            kept.append(fr.image)
            samples.append(s)
            rail_samples.append(_lab(fr.image[rails[:, 1], rails[:, 0]]) if len(rails) else np.zeros((0, 3), np.int16))
            if len(kept) >= cfg.model_frames:
                break
        if not kept:
            raise TableNotSeenError(f"{shorten(name, 120)}: the table is not seen in any frame (all dark)")
        lab = np.median(np.stack(samples), axis=0).astype(np.int16)
        model = ClothModel(points, lab, tuple(kept), cfg)
        if len(rails) and len(lab):
            # the rail points that do not look like the cloth on the model's frames (a player's arm
            # or a caption on one frame is outvoted by the median)
            rail_lab = np.median(np.stack(rail_samples), axis=0)
            model = replace(model, rail_px=rails[~model._cloth_like(rail_lab)])
        return model


@dataclass(frozen=True)
class Gap:
    """Frames ``first_frame`` .. ``last_frame`` (times ``t0_s`` .. ``t1_s``) where the table was not seen."""

    first_frame: int
    last_frame: int
    t0_s: float
    t1_s: float

    @property
    def frames(self) -> int:
        return self.last_frame - self.first_frame + 1

    def describe(self) -> str:
        return f"the table was not seen from {self.t0_s:.2f} to {self.t1_s:.2f} s ({self.frames} frames)"


class GapLog:
    """The gaps of a run, built frame by frame: :meth:`unseen` for a frame where the table is not
    seen, :meth:`seen` for one where it is (closing an open gap)."""

    def __init__(self) -> None:
        self.gaps: list[Gap] = []
        self._open: Gap | None = None

    def unseen(self, frame: int, t_s: float) -> None:
        if self._open is None:
            self._open = Gap(frame, frame, t_s, t_s)
        else:
            self._open = Gap(self._open.first_frame, frame, self._open.t0_s, t_s)

    def seen(self) -> None:
        if self._open is not None:
            self.gaps.append(self._open)
            self._open = None

    def all(self) -> list[Gap]:
        """Every gap so far, an open one included."""
        return [*self.gaps, *([self._open] if self._open is not None else [])]

    def touching(self, t0_s: float, t1_s: float, margin_s: float) -> list[Gap]:
        """The gaps that overlap ``t0_s - margin_s`` .. ``t1_s + margin_s``."""
        return [g for g in self.all() if g.t1_s >= t0_s - margin_s and g.t0_s <= t1_s + margin_s]
