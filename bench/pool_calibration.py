"""Calibration on real pool footage: the test split of ../shared/data/billiard-pool-coco.

For each image: does the automatic calibration (pool 9 ft spec) find the table, how many of its 18
diamonds does the solved camera explain (real marks on the rails: a camera that took the short
rails for the long ones explains few), and where do the annotated balls land on the table: a ball's box centre back-projected onto the ball-centre plane
must fall on the playing surface (within one ball radius of it). Prints a table; returns the rows.

    python bench/pool_calibration.py [--split test] [--table pool]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import cast

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "billiard-pool-coco"


def measure(split: str = "test", table_name: str = "pool") -> dict:
    import cv2

    sys.path.insert(0, str(ROOT))
    from calibration.auto import calibrate_frame
    from calibration.result import CalibrationError
    from calibration.table import load_table

    folder = DATA / split
    d = json.loads((folder / "_annotations.coco.json").read_text())
    cats = {c["id"]: c["name"] for c in d["categories"]}
    ann = defaultdict(list)
    for a in d["annotations"]:
        ann[a["image_id"]].append(a)
    table = load_table(table_name)
    r = table.ball_radius_mm
    rows = []
    t0 = time.perf_counter()
    for im in d["images"]:
        img = cast("np.ndarray", cv2.imread(str(folder / im["file_name"])))  # a file the annotations list
        row = {"image": im["file_name"], "calibrated": False}
        try:
            res = calibrate_frame(img, table)
        except CalibrationError as e:
            row["error"] = str(e)[:60]
            rows.append(row)
            continue
        cam = res.camera
        row.update(calibrated=True, rms_px=res.reprojection_error_px, diamonds=res.n_diamond_inliers)
        balls = [a for a in ann[im["id"]] if cats[a["category_id"]].startswith(("ball", "white"))]
        inside = 0
        for a in balls:
            x, y, w, h = a["bbox"]
            p = cam.pixel_to_plane(np.array([[x + w / 2, y + h / 2]]), r)[0]
            inside += (-r <= p[0] <= table.length_mm + r) and (-r <= p[1] <= table.width_mm + r)
        row["balls"] = len(balls)
        row["balls_on_table"] = inside
        rows.append(row)
    elapsed = time.perf_counter() - t0
    cal = [x for x in rows if x["calibrated"]]
    good = [x for x in cal if x["diamonds"] >= 12 and x["balls_on_table"] == x["balls"]]
    n_balls = sum(x["balls"] for x in cal)
    summary = {
        "images": len(rows),
        "calibrated": len(cal),
        "all_balls_on_table": sum(x["balls_on_table"] == x["balls"] for x in cal),
        "good": len(good),
        "ball_fraction_on_table": (sum(x["balls_on_table"] for x in cal) / n_balls) if n_balls else float("nan"),
        "diamonds_12_of_18": sum(x["diamonds"] >= 12 for x in cal),
        "median_rms_px": float(np.median([x["rms_px"] for x in cal])) if cal else float("nan"),
        "s_per_image": elapsed / max(len(rows), 1),
    }
    return {"rows": rows, "summary": summary}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="test")
    ap.add_argument("--table", default="pool")
    args = ap.parse_args()
    if not (DATA / args.split / "_annotations.coco.json").is_file():
        print(f"no data at {DATA / args.split}: nothing to measure")
        return 0
    out = measure(args.split, args.table)
    for k, v in out["summary"].items():
        print(f"{k:24s} {v:.3f}" if isinstance(v, float) else f"{k:24s} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
