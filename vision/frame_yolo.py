"""The trained model on the camera's own image, for a camera that sees the table obliquely.

Why: the rectified view (:mod:`vision.rectify`) maps the image onto the plane of the ball
centres. Seen from overhead a ball stays a disc there; seen from a club camera low over one end
(60-70 degrees from the vertical), the ball's silhouette and its shadow reach far beyond its
centre on that plane, so the rectified view shows each ball as a streak two or three diameters
long, and the model finds two or three "balls" on it with different names (measured on real
eight-ball footage: 2 of 9 balls tracked). In the camera's image a ball is a disc whatever the
view, so there the model sees what it was trained on (real photos are in its training data).

Contract: :class:`FrameYoloDetector` fills the pipeline's detector call
(:class:`vision.detect.Detector`: ``detect_frame(frame, motion)``) with
:class:`vision.detect.BallDetection` values (labels :class:`~tracking.ids.BallId`)
whose ``x_mm, y_mm`` are where the viewing ray through the ball's image centre meets the plane of
ball centres (z = R; the centre of a sphere's image lies within a fraction of a pixel of the
projection of its centre at these sizes), and ``u_px, v_px`` are image pixels. The finder runs on
the image cropped to the table; each ball's crop for the classifier is scaled by the ball's size
where the camera sees it there. Detections outside the playing surface (beyond a ball's radius
past the cushion noses: a ball in a pocket's throat is still seen) are dropped.

:func:`oblique` says when to use it: the camera's line of sight to the table's centre more than
``OBLIQUE_DEG`` from the vertical.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec
from tracking.detections import BallDetection, Detections, MotionState, ball_label, ball_scores
from vision.source import Frame

if TYPE_CHECKING:
    from vision.yolo import YoloDetector

__all__ = ["OBLIQUE_DEG", "FrameYoloDetector", "ball_image_radius_px", "oblique", "view_angle_deg"]

#: From this angle off the vertical the ball-centre plane smears a ball over more than its own
#: width (the silhouette's reach ~ R tan(angle) each side), and the camera's image is the better
#: place to find it.
OBLIQUE_DEG = 30.0


def view_angle_deg(camera: CameraModel, table: TableSpec) -> float:
    """Degrees between the vertical and the camera's line of sight to the table's centre."""
    d = camera.centre_mm - np.array([table.length_mm / 2.0, table.width_mm / 2.0, 0.0])
    return float(np.degrees(np.arccos(np.clip(d[2] / max(float(np.linalg.norm(d)), 1e-9), -1.0, 1.0))))


def oblique(camera: CameraModel, table: TableSpec) -> bool:
    """Whether ``camera`` sees ``table`` too obliquely for the rectified view (see the module docstring)."""
    return view_angle_deg(camera, table) > OBLIQUE_DEG


def ball_image_radius_px(camera: CameraModel, xy_mm: np.ndarray, ball_radius_mm: float) -> np.ndarray:
    """(k,) image radii, px, of balls centred at table points ``xy_mm`` (k, 2): R over the distance
    scaled by the focal length, measured across the line of sight (a point R off the centre,
    perpendicular to the ray). Shared by the detector and by the code that cuts its training crops
    from real video (:mod:`models.real_crops`), so both size a ball alike."""
    xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    if not len(xy):
        return np.zeros(0)
    R = float(ball_radius_mm)
    centres = np.column_stack([xy, np.full(len(xy), R)])
    ray = centres - camera.centre_mm[None, :]
    side = np.cross(ray, np.array([0.0, 0.0, 1.0]))
    norm = np.linalg.norm(side, axis=1, keepdims=True)
    # a ball straight under the lens: its ray is vertical and every horizontal is across it
    side = np.where(norm > 1e-9, side / np.maximum(norm, 1e-9), np.array([1.0, 0.0, 0.0]))
    a = camera.project(centres)
    b = camera.project(centres + R * side)
    return np.maximum(np.hypot(*(b - a).T), 1.0)


class FrameYoloDetector:
    """See the module docstring. ``yolo`` is a :class:`vision.yolo.YoloDetector` (its finder and
    classifier); ``margin_px`` widens the table's crop."""

    def __init__(self, yolo: YoloDetector, camera: CameraModel, table: TableSpec, margin_px: float = 24.0) -> None:
        self.yolo = yolo
        self.camera = camera
        self.table = table
        self.R = table.ball_radius_mm
        L, W, rail = table.length_mm, table.width_mm, table.rail_width_mm
        outline = np.array(
            [[-rail, -rail, 0.0], [L + rail, -rail, 0.0], [L + rail, W + rail, 0.0], [-rail, W + rail, 0.0]]
        )
        # the box of the outline both with and without the lens's distortion (OpenCV folds points
        # far outside the frame back in for k1 < 0; with k1 > 0 the distorted corners lie outside
        # the pinhole ones): the crop holds the table either way
        px = np.vstack([camera.project_undistorted(outline), camera.project(outline)])
        w, h = camera.image_w_px, camera.image_h_px
        self.x0 = int(max(0, math.floor(px[:, 0].min() - margin_px)))
        self.y0 = int(max(0, math.floor(px[:, 1].min() - margin_px)))
        self.x1 = int(min(w, math.ceil(px[:, 0].max() + margin_px)))
        self.y1 = int(min(h, math.ceil(px[:, 1].max() + margin_px)))
        if self.x1 - self.x0 < 16 or self.y1 - self.y0 < 16:
            self.x0, self.y0, self.x1, self.y1 = 0, 0, w, h

    def ball_radius_px(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The image radius of a ball whose image centre is at (u, v)."""
        if not len(u):
            return np.zeros(0)
        xy = self.camera.pixel_to_plane(np.column_stack([u, v]), z_mm=self.R)
        return ball_image_radius_px(self.camera, xy, self.R)

    def detect(self, frame_bgr: np.ndarray) -> list[BallDetection]:
        y = self.yolo
        crop = frame_bgr[self.y0 : self.y1, self.x0 : self.x1]
        boxes, scores = y.find(crop)
        n = len(y.labels)
        if not len(boxes):
            return []
        u = (boxes[:, 0] + boxes[:, 2]) / 2.0 + self.x0
        v = (boxes[:, 1] + boxes[:, 3]) / 2.0 + self.y0
        r = self.ball_radius_px(u, v)
        p, u, v = y.classify(frame_bgr, u, v, r)
        r = self.ball_radius_px(u, v)
        score = scores * p[:, :n].sum(axis=1)
        xy = self.camera.pixel_to_plane(np.column_stack([u, v]), z_mm=self.R) if len(u) else np.zeros((0, 2))
        L, W = self.table.length_mm, self.table.width_mm
        inside = (xy[:, 0] > -self.R) & (xy[:, 0] < L + self.R) & (xy[:, 1] > -self.R) & (xy[:, 1] < W + self.R)
        order = [int(i) for i in np.argsort(-score, kind="stable") if inside[i] and score[i] >= y.min_score]
        kept: list[int] = []
        for i in order:  # one detection per ball: the best within a radius
            if kept and np.min(np.hypot(u[kept] - u[i], v[kept] - v[i]) / np.maximum(r[kept], 1e-6)) < 1.0:
                continue
            kept.append(i)
        out = []
        for i in kept:
            q = p[i, :n] / max(float(p[i, :n].sum()), 1e-9)
            out.append(
                BallDetection(
                    x_mm=float(xy[i, 0]),
                    y_mm=float(xy[i, 1]),
                    u_px=float(u[i]),
                    v_px=float(v[i]),
                    r_px=float(r[i]),
                    label=ball_label(y.labels[int(np.argmax(q))]),
                    score=float(score[i]),
                    label_scores=ball_scores((lab, float(q[t])) for t, lab in enumerate(y.labels)),
                )
            )
        return out

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        """The pipeline's call (:class:`vision.detect.Detector`; ``motion`` unused: the whole
        model runs on every frame, on the camera's image: no rectifier)."""
        assert frame.image is not None  # the pipeline passes decoded frames only
        return Detections(frame.index, frame.t_s, tuple(self.detect(frame.image)))
