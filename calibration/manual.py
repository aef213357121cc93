"""The manual fallback: a camera from the four corners of the playing surface, given in pixels.

Contract: :func:`parse_corners` reads the corners from the command line's text
(``x1,y1,x2,y2,x3,y3,x4,y4``, commas, semicolons or spaces) or from a JSON file (a list of four
``[x, y]``, a flat list of eight numbers, or an object with ``corners_px`` or with the keys
``head_right``, ``foot_right``, ``foot_left``, ``head_left``). The order is **head-right,
foot-right, foot-left, head-left**: the corners (0, 0), (L, 0), (L, W), (0, W) of the table frame,
at the cushion nose (where the cushions meet the cloth, seen from above); going round that way is
counterclockwise on the screen for every camera above the table, which :func:`calibrate_manual`
checks. Which short end is the head is the user's choice here (the table alone cannot tell);
``CalibrationHints(flip=True)`` swaps it (the corners are then read as foot-left, head-left,
head-right, foot-right).

:func:`calibrate_manual` solves the focal length (with the same height prior as the automatic
solve, :mod:`calibration.solve`) and the pose from those four points; it knows no lens distortion
(k1 = 0) and has one redundant measurement, so its reprojection error says little: its accuracy is
the accuracy of the clicks, which the result's warnings quantify (mm per px at the corners).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from calibration._vec import floats3
from calibration.result import CalibrationError, CalibrationHints, CalibrationResult, CornerMatch
from calibration.solve import EdgeObs, FocalPrior, PointObs, init_from_corners, refine
from calibration.table import TableSpec
from common.errors import shorten
from common.jsonio import load_json_file

CORNER_ORDER = ("head_right", "foot_right", "foot_left", "head_left")
_EXPECTED = (
    "four playing-surface corners in px, head-right, foot-right, foot-left, head-left, "
    "as x1,y1,x2,y2,x3,y3,x4,y4 or a JSON file"
)


def _as_points(v: object, source: str) -> tuple[tuple[float, float], ...]:
    if isinstance(v, dict):
        if "corners_px" in v:
            return _as_points(v["corners_px"], source)
        if all(k in v for k in CORNER_ORDER):
            return _as_points([v[k] for k in CORNER_ORDER], source)
        raise CalibrationError(f"{source}: expected {_EXPECTED}; got an object with keys {shorten(sorted(v), 80)}")
    if isinstance(v, (list, tuple)):
        flat: list = []
        for item in v:
            if isinstance(item, (list, tuple)):
                flat.extend(item)
            else:
                flat.append(item)
        try:
            nums = [float(x) for x in flat]
        except (TypeError, ValueError):
            raise CalibrationError(
                f"{source}: expected {_EXPECTED}; got non-numbers in {shorten(repr(v), 80)}"
            ) from None
        if len(nums) != 8 or not all(np.isfinite(nums)):
            raise CalibrationError(f"{source}: expected {_EXPECTED}; got {len(nums)} numbers")
        return tuple((nums[i], nums[i + 1]) for i in range(0, 8, 2))
    raise CalibrationError(f"{source}: expected {_EXPECTED}; got {type(v).__name__}")


def parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    """Four (x, y) px from ``text`` (numbers or the path of a JSON file); see the module docstring."""
    s = str(text).strip()
    p = Path(s)
    if s.lower().endswith(".json") or (len(s) < 4096 and p.is_file()):
        data = load_json_file(p, "corners", CalibrationError)
        return _as_points(data, shorten(s, 120))
    parts = [x for x in re.split(r"[,;\s]+", s) if x]
    try:
        nums = [float(x) for x in parts]
    except ValueError:
        raise CalibrationError(f"corners: expected {_EXPECTED}; got {shorten(repr(s), 80)}") from None
    return _as_points(nums, "corners")


def _check_corners(pts: np.ndarray, w: int, h: int) -> None:
    margin = 0.25 * max(w, h)
    if np.any(pts < -margin) or np.any(pts[:, 0] > w + margin) or np.any(pts[:, 1] > h + margin):
        raise CalibrationError(f"corners: expected points in or near the {w}x{h} px frame; got {pts.round(1).tolist()}")
    turns = []
    for i in range(4):
        a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        turns.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
    cross = np.array(turns)
    span = max(float(np.ptp(pts[:, 0])), float(np.ptp(pts[:, 1])), 1.0)
    if np.any(np.abs(cross) < 1e-3 * span * span):
        raise CalibrationError("corners: expected four corners of a quadrilateral; got three or more on one line")
    if np.all(cross > 0):
        raise CalibrationError(
            "corners: expected the order head-right, foot-right, foot-left, head-left, which runs "
            "counterclockwise on the screen; these run clockwise (is the list reversed?)"
        )
    if not np.all(cross < 0):
        raise CalibrationError(
            "corners: expected the corners of a convex quadrilateral in the order head-right, "
            "foot-right, foot-left, head-left; these cross over"
        )


def calibrate_manual(
    corners_px: str | Sequence[Any] | np.ndarray,
    table: TableSpec,
    image_w_px: int,
    image_h_px: int,
    *,
    hints: CalibrationHints | None = None,
) -> CalibrationResult:
    """A camera from the four playing-surface corners (see the module docstring)."""
    from calibration.auto import _camera_model, _json_safe

    hints = hints or CalibrationHints()
    if isinstance(corners_px, str):
        corners_px = parse_corners(corners_px)
    pts = np.asarray(corners_px, np.float64).reshape(-1, 2) if np.size(corners_px) == 8 else None
    if pts is None or not np.all(np.isfinite(pts)):
        raise CalibrationError(f"corners: expected {_EXPECTED}; got {corners_px!r}")
    w, h = int(image_w_px), int(image_h_px)
    if w <= 0 or h <= 0:
        raise CalibrationError(f"image size: expected positive width and height in px, got {w}x{h}")
    _check_corners(pts, w, h)
    world = np.array(table.nose_corners_mm(), np.float64)
    if hints.flip:
        world = np.roll(world, 2, axis=0)  # the same rectangle turned 180 degrees: head <-> foot
    prior = (
        FocalPrior(hints.camera_height_mm, hints.camera_height_rel_sigma) if hints.camera_height_mm else FocalPrior()
    )
    try:
        start, _ = init_from_corners(pts, world, w, h, table=table, prior=prior, fixed_f=hints.fx_px)
    except ValueError:
        raise CalibrationError(
            "corners: expected the playing surface seen from above; no camera above the table "
            "sees these four corners in this order"
        ) from None
    obs = PointObs(world, np.zeros_like(world), pts)
    fit = refine(
        table,
        start,
        EdgeObs.empty(),
        obs,
        prior=prior,
        fit_f=hints.fx_px is None,
        fit_k1=False,
        fit_k2=False,
        sigma_point_px=1.0,
        robust_scale=1e6,
    )
    st = fit.state
    r = np.hypot(*fit.point_residual_px.T)
    err_px = float(np.sqrt(np.mean(r**2)))
    q = st.backproject(pts, world[:, 2])
    err_mm = float(np.sqrt(np.mean(np.sum((q - world[:, :2]) ** 2, axis=1))))
    # what one pixel of clicking error costs at each corner
    mm_per_px = [
        float(np.hypot(*(st.backproject(p[None, :] + np.array([[1.0, 0.0]]), z)[0] - st.backproject(p[None, :], z)[0])))
        for p, z in zip(pts, world[:, 2])
    ]
    warnings = [
        "manual calibration: no lens distortion solved (k1 = 0), and the result is only as good as the corners: "
        f"1 px of corner error moves the table by about {max(mm_per_px):.1f} mm there",
    ]
    if err_px > 3.0:
        warnings.append(
            f"the four corners do not fit one rectangle seen by one camera ({err_px:.1f} px RMS): "
            "check their order and placement"
        )
    extras = {
        "table_size_mm": [table.length_mm, table.width_mm],
        "ball_diameter_mm": table.ball_diameter_mm,
        "corners_px": {
            k: [float(x), float(y)]
            for k, (x, y) in zip(CORNER_ORDER[2:] + CORNER_ORDER[:2] if hints.flip else CORNER_ORDER, pts)
        },
        "camera_centre_mm": [float(v) for v in st.centre_mm],
        "focal": "fixed by the user"
        if hints.fx_px
        else f"prior: camera height {prior.height_mm:.0f} mm ± {100 * prior.rel_sigma:.0f}%",
        "mm_per_px_at_corners": [round(v, 3) for v in mm_per_px],
        "warnings": list(warnings),
    }
    camera = _camera_model(st, table, w, h, err_px, err_mm, "manual", _json_safe(extras))
    proj = st.project(world)
    names = CORNER_ORDER[2:] + CORNER_ORDER[:2] if hints.flip else CORNER_ORDER
    corners = tuple(
        CornerMatch(
            name=k,
            world_mm=floats3(world[i]),
            pixel_px=(float(pts[i, 0]), float(pts[i, 1])),
            projected_px=(float(proj[i, 0]), float(proj[i, 1])),
        )
        for i, k in enumerate(names)
    )
    return CalibrationResult(
        camera=camera,
        lines=(),
        diamonds=(),
        n_edge_inliers=0,
        n_diamond_inliers=0,
        reprojection_error_px=err_px,
        reprojection_error_mm=err_mm,
        warnings=tuple(warnings),
        method="manual",
        corners=corners,
    )
