"""The calibration check image: what the solved camera says the table looks like, over the frame.

Contract: :func:`draw_calibration` returns a copy of the frame with, drawn through the solved
camera (distortion included, so a wrong ``k1`` shows as lines that leave the rails):
the nose line (yellow) and the cloth/wood edge (cyan) of every side; a faint grid on the ball-centre
plane at eighths of the length and quarters of the width (the diamond lines); every diamond where
the camera puts it (red cross) and the dot found for it (green ring, orange if rejected); hand-given
corners (magenta ring) for a manual calibration; the edge points used (small dots); the table axes
from the head-right corner (x along the length, y across) with the cushions named; and a caption
with the errors, focal length, camera height and warnings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from calibration.diamonds import diamond_world
from calibration.features import SIDES, side_frame
from calibration.result import CalibrationResult
from calibration.table import TableSpec

if TYPE_CHECKING:
    from calibration.camera import CameraModel

BGR = tuple[int, int, int]

YELLOW, CYAN, RED, GREEN, ORANGE, MAGENTA, WHITE = (
    (0, 230, 255),
    (255, 230, 0),
    (40, 40, 255),
    (60, 220, 60),
    (0, 140, 255),
    (255, 0, 255),
    (255, 255, 255),
)


def _polyline(img: np.ndarray, camera: CameraModel, pts_mm: np.ndarray, colour: BGR, thickness: int) -> None:
    import cv2

    px = camera.project(pts_mm)
    ok = np.all(np.isfinite(px), axis=1)
    if ok.sum() >= 2:
        cv2.polylines(img, [np.round(px[ok] * 16).astype(np.int32)], False, colour, thickness, cv2.LINE_AA, shift=4)


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: BGR = WHITE) -> None:
    import cv2

    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), max(2, int(4 * scale)), cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, max(1, int(1.6 * scale)), cv2.LINE_AA)


def draw_calibration(image_bgr: np.ndarray, result: CalibrationResult, table: TableSpec) -> np.ndarray:
    """The check image of the module docstring (a new BGR uint8 array)."""
    import cv2

    img = np.array(image_bgr, dtype=np.uint8, copy=True)
    cam = result.camera
    h, w = img.shape[:2]
    scale = max(0.4, min(w, h) / 1400.0)
    th = max(1, int(round(2 * scale)))
    L, W = table.length_mm, table.width_mm
    z_ball = table.ball_radius_mm
    # ball-plane grid: the diamond lines
    for k in range(1, 8):
        x = L * k / 8
        _polyline(
            img, cam, np.column_stack([np.full(40, x), np.linspace(0, W, 40), np.full(40, z_ball)]), (90, 90, 90), 1
        )
    for k in range(1, 4):
        y = W * k / 4
        _polyline(
            img, cam, np.column_stack([np.linspace(0, L, 80), np.full(80, y), np.full(80, z_ball)]), (90, 90, 90), 1
        )
    # nose and cloth/wood lines, as solved (per-side offsets where the fit found them)
    offsets = {ln.side + ln.kind: ln.offset_mm for ln in result.lines}
    for side in SIDES:
        fr = side_frame(table, side)
        s = np.linspace(-table.cushion_width_mm, fr.length_mm + table.cushion_width_mm, 120)
        nose_off = offsets.get(side + "nose", 0.0)
        cw_off = offsets.get(side + "cloth_wood", table.cushion_width_mm)
        _polyline(img, cam, fr.points(s, nose_off, table.cushion_nose_height_mm), YELLOW, th)
        _polyline(img, cam, fr.points(s, cw_off, table.rail_height_mm), CYAN, th)
        # the side's name beyond the rail, or on the rail's inner part if that is out of the frame
        for off in (
            table.cushion_width_mm + table.rail_width_mm + 60.0,
            table.cushion_width_mm + 0.25 * table.rail_width_mm,
        ):
            mid = cam.project(fr.points(np.array([0.4 * fr.length_mm]), off, table.rail_height_mm))[0]
            if np.all(np.isfinite(mid)) and 20 <= mid[0] < w - 60 and 20 <= mid[1] < h - 10:
                _text(img, side.upper(), (int(mid[0]) - int(25 * scale), int(mid[1]) + int(8 * scale)), 0.7 * scale)
                break
    for ln in result.lines:
        for x, y in ln.points_px[::3]:
            cv2.circle(img, (int(round(x)), int(round(y))), 1, YELLOW if ln.kind == "nose" else CYAN, -1)
    # diamonds: projected (cross) and found (ring)
    r = max(4, int(round(7 * scale)))
    setback = float(cam.extras.get("diamond_setback_mm_solved", table.diamond_setback_mm))
    for _, _, P, _ in diamond_world(table, setback):
        p = cam.project(P[None, :])[0]
        if np.all(np.isfinite(p)):
            cv2.drawMarker(img, (int(round(p[0])), int(round(p[1]))), RED, cv2.MARKER_CROSS, 2 * r, th)
    for d in result.diamonds:
        cv2.circle(
            img,
            (int(round(d.pixel_px[0])), int(round(d.pixel_px[1]))),
            r,
            GREEN if d.inlier else ORANGE,
            th,
            cv2.LINE_AA,
        )
    for c in result.corners:
        cv2.circle(img, (int(round(c.pixel_px[0])), int(round(c.pixel_px[1]))), 2 * r, MAGENTA, th, cv2.LINE_AA)
        cv2.drawMarker(
            img, (int(round(c.projected_px[0])), int(round(c.projected_px[1]))), RED, cv2.MARKER_CROSS, 2 * r, th
        )
    # axes from the head-right corner on the ball plane
    o = cam.project(np.array([[0.0, 0.0, z_ball], [L / 4, 0.0, z_ball], [0.0, W / 3, z_ball]]))
    if np.all(np.isfinite(o)):
        p0, px, py = (tuple(int(round(v)) for v in q) for q in o)
        cv2.arrowedLine(img, p0, px, RED, th + 1, cv2.LINE_AA, tipLength=0.06)
        cv2.arrowedLine(img, p0, py, GREEN, th + 1, cv2.LINE_AA, tipLength=0.1)
        _text(img, "x (head -> foot)", (px[0] + 6, px[1] + 6), 0.6 * scale, RED)
        _text(img, "y (right -> left)", (py[0] + 6, py[1]), 0.6 * scale, GREEN)
    # caption
    C = cam.centre_mm
    lines = [
        f"{result.method} calibration: {result.reprojection_error_px:.2f} px / {result.reprojection_error_mm:.2f} mm RMS,"
        f" {result.n_edge_inliers} edge points, {result.n_diamond_inliers} diamonds",
        f"f = {cam.fx:.0f} px, k1 = {cam.k1:+.4f}, camera at ({C[0]:.0f}, {C[1]:.0f}, {C[2]:.0f}) mm",
        "yellow: nose line, cyan: cloth/wood edge, red +: diamonds as solved, green o: dots found, grey: ball plane",
    ] + [f"! {wn}" for wn in result.warnings]
    width = max(40, int(w / (11.0 * scale)))  # characters that fit across the frame
    y = int(28 * scale)
    for line in lines:
        colour = ORANGE if line.startswith("!") else WHITE
        while line:
            cut = line if len(line) <= width else line[: line.rfind(" ", 0, width) if " " in line[:width] else width]
            _text(img, cut, (int(10 * scale), y), 0.55 * scale, colour)
            line = line[len(cut) :].lstrip()
            y += int(24 * scale)
    return img
