"""Measure automatic calibration on the real development footage (``/work/shared/data/real-dev``).

Not a test (pytest does not collect it); ``tests/calibration/test_real_dev.py`` holds the bars.

    python tests/calibration/measure_real_dev.py [carom|nine|eight ...] [--every N] [--out DIR]

- carom: the PBA three-cushion broadcast frames (blue cloth on a blue floor): which calibrate, the
  reprojection error, the diamonds explained.
- nine: one frame of each World Pool Championship clip (the frame of its labels): reprojection
  error, and the error of the solved camera against the labelled table corners (cushion-nose
  intersections) and pocket openings, in px and in mm on the cloth, as the best of the table's
  symmetric assignments of names.
- eight: the first frame of each eight-ball clip: found or the error line; where found, the IoU of
  the projected playing surface with the labelled playing-field mask (class 5).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

REAL = Path("/work/shared/data/real-dev")
CAROM = REAL / "carom-broadcast-frames"
NINE = REAL / "nine-ball-clips"
EIGHT = REAL / "eight-ball-clips"

# the labels' image convention: head = image left, left = image top (see labels.json _meta)
CORNER_WORLD = {"head_right": (0, 0), "foot_right": (1, 0), "foot_left": (1, 1), "head_left": (0, 1)}


def read_frame(video: Path, index: int) -> np.ndarray:
    import cv2

    cap = cv2.VideoCapture(str(video))
    img = None
    for _ in range(index + 1):
        ok, img = cap.read()
        if not ok:
            break
    cap.release()
    return img


def _symmetries(table):
    L, W = table.length_mm, table.width_mm
    return [
        lambda p: p,
        lambda p: np.column_stack([L - p[:, 0], W - p[:, 1], p[:, 2]]),
        lambda p: np.column_stack([L - p[:, 0], p[:, 1], p[:, 2]]),
        lambda p: np.column_stack([p[:, 0], W - p[:, 1], p[:, 2]]),
    ]


def label_errors(camera, table, labels: dict) -> dict:
    """Errors of ``camera`` against labelled corners and pockets (px, and mm on the cloth through the
    solved camera), the best over the table's symmetric naming."""
    L, W = table.length_mm, table.width_mm
    names = list(CORNER_WORLD)
    corner_w = np.array([[CORNER_WORLD[n][0] * L, CORNER_WORLD[n][1] * W, table.cushion_nose_height_mm] for n in names])
    corner_px = np.array([labels["corners_px"][n] for n in names])
    pk_names = [p.name for p in table.pockets if p.name in labels["pockets_px"]]
    mouth_w = np.array([[*table.pocket(n).centre_mm, 0.0] for n in pk_names])
    hole_w = np.array([[*table.pocket(n).hole_centre_mm, 0.0] for n in pk_names])
    pocket_px = np.array([labels["pockets_px"][n] for n in pk_names])
    best = None
    for sym in _symmetries(table):
        cw = sym(corner_w)
        e_c = np.hypot(*(camera.project(cw) - corner_px).T)
        if best is None or e_c.mean() < best[0].mean():
            best = (e_c, sym)
    e_c, sym = best
    cw = sym(corner_w)
    mm_c = np.hypot(*(camera.pixel_to_plane(corner_px, z_mm=table.cushion_nose_height_mm) - cw[:, :2]).T)
    e_m = np.hypot(*(camera.project(sym(mouth_w)) - pocket_px).T)
    e_h = np.hypot(*(camera.project(sym(hole_w)) - pocket_px).T)
    return {
        "corner_px_max": float(e_c.max()),
        "corner_px_mean": float(e_c.mean()),
        "corner_mm_max": float(mm_c.max()),
        "mouth_px_mean": float(e_m.mean()),
        "hole_px_mean": float(e_h.mean()),
        "hole_px_max": float(e_h.max()),
    }


def calibrate(img, table):
    from calibration.auto import calibrate_frame
    from calibration.result import CalibrationError

    t0 = time.perf_counter()
    try:
        res = calibrate_frame(img, table)
    except CalibrationError as e:
        return None, str(e), time.perf_counter() - t0
    return res, "", time.perf_counter() - t0


def carom(every: int, out: Path | None) -> list[dict]:
    import cv2

    from calibration.table import load_table

    table = load_table("carom")
    rows = []
    for p in sorted(CAROM.glob("*.jpg"))[::every]:
        res, err, dt = calibrate(cv2.imread(str(p)), table)
        row = {"frame": p.name, "ok": res is not None, "s": round(dt, 1)}
        if res is not None:
            row.update(
                px=round(res.reprojection_error_px, 3),
                mm=round(res.reprojection_error_mm, 3),
                diamonds=res.n_diamond_inliers,
                f=round(res.camera.fx),
                k1=round(res.camera.k1, 3),
            )
            if out:
                from calibration.draw import draw_calibration

                cv2.imwrite(str(out / f"carom_{p.stem}.jpg"), draw_calibration(cv2.imread(str(p)), res, table))
        else:
            row["error"] = err
        rows.append(row)
        print(json.dumps(row), flush=True)
    ok = [r for r in rows if r["ok"]]
    print(
        f"carom: {len(ok)}/{len(rows)} calibrated; reprojection px median "
        f"{np.median([r['px'] for r in ok]) if ok else float('nan'):.3f}; diamonds median "
        f"{np.median([r['diamonds'] for r in ok]) if ok else float('nan')}"
    )
    return rows


def nine(out: Path | None) -> list[dict]:
    from calibration.table import load_table

    table = load_table("pool")
    labels = json.loads((NINE / "labels.json").read_text())
    rows = []
    for clip, lab in labels.items():
        if clip.startswith("_"):
            continue
        cal = lab["calibration"]
        img = read_frame(NINE / clip, int(cal["frame"]))
        res, err, dt = calibrate(img, table)
        row = {"clip": clip, "frame": cal["frame"], "ok": res is not None, "s": round(dt, 1)}
        extra = {k: round(v, 2) for k, v in label_errors(res.camera, table, cal).items()} if res is not None else {}
        rows.append(_record(row, res, err, extra, img, table, out / f"nine_{Path(clip).stem}.jpg" if out else None))
    return rows


def _record(row: dict, res, err, extra: dict, img, table, image_path: Path | None) -> dict:
    """``row`` with the solve's figures (or its error), printed; the check image written."""
    import cv2

    if res is not None:
        row.update(
            px=round(res.reprojection_error_px, 3),
            mm=round(res.reprojection_error_mm, 3),
            diamonds=res.n_diamond_inliers,
            **extra,
        )
        if image_path is not None:
            from calibration.draw import draw_calibration

            cv2.imwrite(str(image_path), draw_calibration(img, res, table))
    else:
        row["error"] = err
    print(json.dumps(row), flush=True)
    return row


def eight(out: Path | None) -> list[dict]:
    import cv2

    from calibration.table import load_table

    table = load_table("pool")
    rows = []
    for d in sorted(EIGHT.glob("game*_clip1")):
        img = cv2.imread(str(d / "frames" / "frame_first.png"))
        mask = cv2.imread(str(d / "masks" / "frame_first.png"), cv2.IMREAD_GRAYSCALE)
        field = mask == 5
        for c in (1, 2, 3, 4):  # balls on the field are field too
            field |= mask == c
        res, err, dt = calibrate(img, table)
        row = {"clip": d.name, "ok": res is not None, "s": round(dt, 1)}
        extra = {}
        if res is not None:
            poly = res.camera.project(np.array(table.nose_corners_mm()))
            m = np.zeros(mask.shape, np.uint8)
            cv2.fillPoly(m, [np.round(poly).astype(np.int32)], 1)
            inter = float((field & (m > 0)).sum())
            union = float((field | (m > 0)).sum())
            extra = {"field_iou": round(inter / union, 3)}
        rows.append(_record(row, res, err, extra, img, table, out / f"eight_{d.name}.jpg" if out else None))
    return rows


def main(argv: list[str]) -> None:
    every, out, which = 1, None, []
    it = iter(argv)
    for a in it:
        if a == "--every":
            every = int(next(it))
        elif a == "--out":
            out = Path(next(it))
            out.mkdir(parents=True, exist_ok=True)
        else:
            which.append(a)
    which = which or ["carom", "nine", "eight"]
    if not REAL.is_dir():
        sys.exit(f"{REAL} not present")
    if "carom" in which:
        carom(every, out)
    if "nine" in which:
        nine(out)
    if "eight" in which:
        eight(out)


if __name__ == "__main__":
    main(sys.argv[1:])
