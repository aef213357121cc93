"""Detector labels of a rendered frame: each ball's pixel boxes and how much of it is visible.

Contract: :func:`ball_labels` takes the :class:`~synth.render.scene.StaticScene` and the
:class:`~synth.render.balls.BallsState` a frame was drawn from (the middle sub-frame for a
blurred frame) and the occluder coverages :meth:`FrameRenderer.render` returned, and gives a
:class:`BallLabel` per ball on the table whose image is in the frame:

- ``full_box_px``: (x0, y0, x1, y1) pixel bounds (x1, y1 exclusive) of the ball's whole
  silhouette (coverage >= 0.5), as if nothing hid it: the amodal box;
- ``box_px``: the same of the part that is seen (coverage >= 0.5 after the static scene (rails,
  pocket walls and rim), nearer balls and a hand or cue have taken theirs): the modal box, the
  one to train a detector on; None when less than one pixel shows;
- ``visible``: seen area / whole silhouette area (0..1), from the anti-aliased coverages;
- ``centre_px``: :meth:`CameraModel.project` of the centre; ``r_px`` the apparent radius;
- ``rect_box_px`` / ``rect_full_box_px``: the two boxes in the rectified view of
  ``rect`` (:class:`vision.rectify.RectifiedGeometry`) when given: the pixels' corners carried to
  the plane z = ``rect.z_mm`` through the camera (lens included) and into the view's pixels.

Balls off the table, entirely outside the frame, or sunk out of sight have no label (or
``visible`` 0 and ``box_px`` None when the silhouette is in the frame but hidden).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from synth.render.balls import BallsState, _sprite
from synth.render.scene import StaticScene
from tracking.ids import BallId

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class BallLabel:
    ball: BallId
    centre_px: tuple[float, float]
    r_px: float
    full_box_px: Box
    box_px: Box | None
    visible: float
    rect_box_px: Box | None = None
    rect_full_box_px: Box | None = None


def _silhouette(scene: StaticScene, S: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """Coverage (h, w) of the sphere at S in ``box`` ignoring everything in front of it."""
    x0, y0, x1, y1 = box
    d = scene.rays[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
    C = scene.centre_mm
    r = scene.table.ball_radius_mm
    oc = C - S
    a = np.einsum("nk,nk->n", d, d)
    b = d @ oc
    c = float(oc @ oc) - r * r
    dist = np.sqrt(np.maximum(r * r - (b * b - a * c) / a, 0.0))
    foot = float(scene.camera.R[2] @ (S - C)) / scene.camera.fx
    cov = np.clip(0.5 + (r - dist) / foot, 0.0, 1.0)
    cov[(-b) < 0] = 0.0  # behind the camera
    return cov.reshape(y1 - y0, x1 - x0)


def _bbox(mask: np.ndarray, x0: int, y0: int) -> Box | None:
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return None
    return (float(x0 + xs.min()), float(y0 + ys.min()), float(x0 + xs.max() + 1), float(y0 + ys.max() + 1))


def _rect_box(scene: StaticScene, box: Box | None, mask: np.ndarray, x0: int, y0: int, rect) -> Box | None:
    if box is None or rect is None:
        return None
    ys, xs = np.nonzero(mask)
    corners = np.concatenate([np.column_stack([xs + dx, ys + dy]) for dx in (0.0, 1.0) for dy in (0.0, 1.0)])
    corners = corners + np.array([x0 - 0.5, y0 - 0.5])  # pixel (i, j) covers [i - 0.5, i + 0.5)
    mm = scene.camera.pixel_to_plane(corners.astype(np.float64), rect.z_mm)
    u, v = rect.mm_to_uv(mm[:, 0], mm[:, 1])
    return (float(u.min() + 0.5), float(v.min() + 0.5), float(u.max() + 0.5), float(v.max() + 0.5))


def ball_labels(
    scene: StaticScene,
    state: BallsState,
    covers: Sequence[tuple[tuple[int, int, int, int], np.ndarray]] = (),
    rect=None,
) -> dict[BallId, BallLabel]:
    """The labels of every ball of ``state`` (see the module docstring)."""
    cam = scene.camera
    sprites = []
    for j, ball in enumerate(state.balls):
        if not state.on_table[j]:
            continue
        S = state.centres_mm[j].astype(np.float64)
        orient = None if state.orientations is None else state.orientations[j]
        sp = _sprite(scene, S, ball, orient, 0)
        if sp is not None:
            sprites.append((ball, S, sp))
    H, W = scene.shape
    out: dict[BallId, BallLabel] = {}
    for ball, S, sp in sprites:
        x0, y0, x1, y1 = sp.box
        full = _silhouette(scene, S, sp.box)
        vis = sp.alpha.astype(np.float64).copy()
        for other, _, so in sprites:
            if other is ball or so.depth_mm >= sp.depth_mm:
                continue
            ox0, oy0, ox1, oy1 = so.box
            ix0, iy0, ix1, iy1 = max(x0, ox0), max(y0, oy0), min(x1, ox1), min(y1, oy1)
            if ix0 < ix1 and iy0 < iy1:
                vis[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0] *= (
                    1.0 - so.alpha[iy0 - oy0 : iy1 - oy0, ix0 - ox0 : ix1 - ox0]
                )
        for (bx0, by0, bx1, by1), cov in covers:
            ix0, iy0, ix1, iy1 = max(x0, bx0), max(y0, by0), min(x1, bx1), min(y1, by1)
            if ix0 < ix1 and iy0 < iy1:
                vis[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0] *= 1.0 - cov[iy0 - by0 : iy1 - by0, ix0 - bx0 : ix1 - bx0]
        area = float(full.sum())
        if area <= 0.0:
            continue
        full_box = _bbox(full >= 0.5, x0, y0)
        if full_box is None:
            continue
        box = _bbox(vis >= 0.5, x0, y0)
        u, v = cam.project(S[None, :])[0]
        depth = float(cam.R[2] @ (S - scene.centre_mm))
        out[ball] = BallLabel(
            ball=ball,
            centre_px=(float(u), float(v)),
            r_px=cam.fx * scene.table.ball_radius_mm / depth,
            full_box_px=full_box,
            box_px=box,
            visible=float(np.clip(vis.sum() / area, 0.0, 1.0)),
            rect_box_px=_rect_box(scene, box, vis >= 0.5, x0, y0, rect),
            rect_full_box_px=_rect_box(scene, full_box, full >= 0.5, x0, y0, rect),
        )
    return out
