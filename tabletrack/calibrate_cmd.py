"""``tabletrack calibrate``: solve the camera model from one frame and show what was fitted."""

from __future__ import annotations

from pathlib import Path

import cv2

from calibration.auto import calibrate_frame
from calibration.draw import draw_calibration
from calibration.manual import calibrate_manual, parse_corners
from calibration.result import CalibrationHints
from calibration.table import TableSpec
from common.atomic import atomic_path
from vision.source import read_image_or_first_frame


def run_calibrate(
    source: Path, output: Path, table: TableSpec, corners: str | None, flip: bool, camera_height_mm: float | None = None
) -> str:
    """Calibrate from ``source`` (an image, or a video's first frame), write ``output`` (JSON) and
    ``<output>.png`` (the check image); return the report."""
    image = read_image_or_first_frame(source)
    h, w = image.shape[:2]
    hints = CalibrationHints(flip=flip, camera_height_mm=camera_height_mm)
    if corners:
        result = calibrate_manual(parse_corners(corners), table, w, h, hints=hints)
    else:
        result = calibrate_frame(image, table, hints=hints)
    output.parent.mkdir(parents=True, exist_ok=True)
    check = output.with_suffix(".png")
    # both outputs whole or not at all: each through a temporary file renamed into place
    with atomic_path(check) as tmp:
        if not cv2.imwrite(str(tmp), draw_calibration(image, result, table)):
            raise OSError(f"{check}: cannot write the check image here")
    result.camera.save(output)
    cam = result.camera
    c = cam.centre_mm
    lines = [
        f"calibration ({result.method}) of {source} for table {table.name}: written to {output}",
        f"reprojection error {result.reprojection_error_px:.2f} px = {result.reprojection_error_mm:.2f} mm on the table",
        f"edge points used {result.n_edge_inliers}, diamonds matched {result.n_diamond_inliers}",
        f"focal {cam.fx:.0f} px, k1 {cam.k1:+.3f}, camera at x {c[0]:.0f} y {c[1]:.0f} mm, {c[2] / 1000:.2f} m above the cloth",
        f"check image: {check}",
    ]
    lines += [f"warning: {w_}" for w_ in result.warnings]
    return "\n".join(lines)
