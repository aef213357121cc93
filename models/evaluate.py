"""Measuring the shipped detector: ``python -m models.evaluate --heldout DIR/heldout [--real DIR]``.

Prints (and with ``--json`` writes) for the held-out synthetic views of :mod:`models.dataset`:

- ``mAP50``: per game, the mean over its labels of the average precision (COCO 101-point
  interpolation) of the detector's labelled boxes at IoU >= 0.5, scores = finder score x the
  classifier's belief in the label; balls less than ``MIN_VISIBLE_DET`` visible are "ignore"
  regions (a detection on one counts neither way). The mean over every (game, label) is ``mAP50``.
- ``identity accuracy``: of the balls (>= ``MIN_VISIBLE_CLS`` visible) that a detection at the
  detector's operating thresholds lies on (centre within one radius), the share labelled right;
  with it recall, precision and the median centre error (mm).
- ``ms_per_frame``: wall time of ``detect`` on the full rectified view (0.5 px/mm), median.

and, where the real labelled photos are at hand (``--real``, the ``billiard-pool-coco`` folder, test
split), the same figures on raw frames: these are perspective photos, not rectified views, so
each image is letterboxed whole into the finder's input, and each crop takes its ball radius
from the finder's box (no table geometry is known). Its labels ``ball 1`` .. ``ball 9`` and
``white ball`` are pool ``1`` .. ``9`` and ``cue``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from models.dataset import MIN_VISIBLE_CLS, MIN_VISIBLE_DET
from models.real import REAL_LABELS

if TYPE_CHECKING:
    from tracking.detections import BallDetection


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of boxes a (n, 4) against b (m, 4), x0 y0 x1 y1."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy

    def area(c: np.ndarray) -> np.ndarray:
        return (c[:, 2] - c[:, 0]) * (c[:, 3] - c[:, 1])

    return inter / np.maximum(area(a)[:, None] + area(b)[None, :] - inter, 1e-12)


def average_precision(tp: np.ndarray, scores: np.ndarray, n_gt: int) -> float:
    """COCO 101-point interpolated AP of detections (tp flags, scores) against n_gt objects."""
    if n_gt == 0:
        return float("nan")
    if not len(tp):
        return 0.0
    o = np.argsort(-np.asarray(scores), kind="stable")
    t = np.asarray(tp, np.float64)[o]
    ctp = np.cumsum(t)
    cfp = np.cumsum(1.0 - t)
    rec = ctp / n_gt
    prec = ctp / np.maximum(ctp + cfp, 1e-12)
    prec = np.maximum.accumulate(prec[::-1])[::-1]
    pts = np.linspace(0, 1, 101)
    idx = np.searchsorted(rec, pts, side="left")
    return float(np.mean([prec[i] if i < len(prec) else 0.0 for i in idx]))


class APAccumulator:
    """Per-class detections and ground truth over many images, for mAP at one IoU threshold."""

    def __init__(self, iou: float = 0.5) -> None:
        self.iou = iou
        self.tp: dict[str, list[float]] = {}
        self.sc: dict[str, list[float]] = {}
        self.ngt: dict[str, int] = {}

    def add(
        self,
        gt_boxes: np.ndarray,
        gt_labels: list[str],
        gt_ignore: np.ndarray,
        det_boxes: np.ndarray,
        det_scores: dict[str, np.ndarray],
    ) -> None:
        """``det_scores`` {label: (k,) score of each detection box for that label} (one box may
        count for several labels, each with its own score, as per-class NMS-free YOLO heads do)."""
        gt_boxes = np.asarray(gt_boxes, np.float64).reshape(-1, 4)
        ign = np.asarray(gt_ignore, bool).reshape(-1)
        labels = set(gt_labels) | set(det_scores)
        iou = (
            iou_matrix(det_boxes, gt_boxes)
            if len(det_boxes) and len(gt_boxes)
            else np.zeros((len(det_boxes), len(gt_boxes)))
        )
        for lab in labels:
            g = np.array([gl == lab for gl in gt_labels], bool)
            self.ngt[lab] = self.ngt.get(lab, 0) + int((g & ~ign).sum())
            s = det_scores.get(lab)
            if s is None or not len(s):
                continue
            used = np.zeros(len(gt_boxes), bool)
            for i in np.argsort(-s):
                cand = np.nonzero(g & ~used & (iou[i] >= self.iou))[0] if len(gt_boxes) else np.zeros(0, int)
                if len(cand):
                    j = cand[np.argmax(iou[i, cand])]
                    used[j] = True
                    if ign[j]:
                        continue
                    self.tp.setdefault(lab, []).append(1.0)
                else:
                    # a detection on an ignored ball of any label is not a false positive
                    if len(gt_boxes) and (ign & (iou[i] >= self.iou)).any():
                        continue
                    self.tp.setdefault(lab, []).append(0.0)
                self.sc.setdefault(lab, []).append(float(s[i]))

    def per_class(self) -> dict[str, float]:
        return {
            lab: average_precision(np.array(self.tp.get(lab, [])), np.array(self.sc.get(lab, [])), n)
            for lab, n in sorted(self.ngt.items())
            if n > 0
        }

    def mean(self) -> float:
        v = [a for a in self.per_class().values() if np.isfinite(a)]
        return float(np.mean(v)) if v else float("nan")


class IdentityCounter:
    """Balls found / labelled right at the operating point, and centre errors."""

    def __init__(self) -> None:
        self.gt = self.found = self.right = self.dets = self.matched_dets = 0
        self.err_px: list[float] = []

    def add(
        self,
        gt_uv: np.ndarray,
        gt_r: np.ndarray,
        gt_labels: list[str],
        gt_ok: np.ndarray,
        det_uv: np.ndarray,
        det_labels: Sequence[str | None],
        det_scores: np.ndarray,
    ) -> None:
        gt_uv = np.asarray(gt_uv, np.float64).reshape(-1, 2)
        det_uv = np.asarray(det_uv, np.float64).reshape(-1, 2)
        self.gt += int(np.sum(gt_ok))
        self.dets += len(det_uv)
        used = np.zeros(len(gt_uv), bool)
        for i in np.argsort(-np.asarray(det_scores)):
            if not len(gt_uv):
                break
            d = np.hypot(*(gt_uv - det_uv[i]).T)
            d[used] = np.inf
            j = int(np.argmin(d))
            if d[j] > gt_r[j]:
                continue
            used[j] = True
            self.matched_dets += 1
            if gt_ok[j]:
                self.found += 1
                self.right += int(det_labels[i] == gt_labels[j])
                self.err_px.append(float(d[j]))

    def summary(self, px_per_mm: float | None = None) -> dict:
        out = {
            "balls": self.gt,
            "recall": self.found / max(self.gt, 1),
            "identity_accuracy": self.right / max(self.found, 1),
            "precision": self.matched_dets / max(self.dets, 1),
        }
        if self.err_px:
            e = float(np.median(self.err_px))
            out["centre_err_median_px"] = e
            if px_per_mm:
                out["centre_err_median_mm"] = e / px_per_mm
        return out


def _label_boxes(
    dets_boxes: Sequence[tuple[BallDetection, Sequence[float]]],
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    boxes = np.array([b for _, b in dets_boxes], np.float64).reshape(-1, 4)
    labs: dict[str, list] = {}
    for k, (d, _) in enumerate(dets_boxes):
        for lab, p in d.label_scores.items():  # BallId -> the dataset's label names
            labs.setdefault(lab.value, [np.zeros(len(dets_boxes))])[0][k] = d.score * p
    return boxes, {lab: v[0] for lab, v in labs.items()}


def evaluate_heldout(
    heldout: Path,
    detector_path: Path | None = None,
    classifier_path: Path | None = None,
    limit: int | None = None,
    log: Callable[[str], object] = print,
    **detector_kw: Any,
) -> dict:
    """The synthetic figures of the module docstring, per game and overall; ``detector_kw`` go to
    :class:`vision.yolo.YoloDetector` (e.g. ``proposals=False``). Streaks are off unless asked
    for: the views are stills, and an unnamed streak is no labelled detection to score."""
    import cv2

    detector_kw = {"streaks": False, **detector_kw}

    from calibration.table import load_table
    from vision.rectify import RectifiedGeometry
    from vision.yolo import YoloDetector

    rows = [json.loads(line) for line in (Path(heldout) / "truth.jsonl").read_text().splitlines() if line.strip()]
    if limit:
        rows = rows[:limit]
    per_game: dict[str, dict] = {}
    dets_cache: dict[tuple, tuple] = {}
    for row in rows:
        game = row["game"]
        table = load_table(row.get("table", game))
        r_mm = float(row.get("ball_radius_mm", table.ball_radius_mm))
        geo = RectifiedGeometry(
            table.length_mm, table.width_mm, float(row.get("margin_mm", r_mm)), float(row["px_per_mm"]), r_mm
        )
        key = (game, geo)
        if key not in dets_cache:
            dets_cache[key] = (
                YoloDetector(geo, r_mm, game, detector_path, classifier_path, **detector_kw),
                YoloDetector(
                    geo, r_mm, game, detector_path, classifier_path, **{**detector_kw, "conf": 0.01, "min_score": 0.01}
                ),
            )
        op, low = dets_cache[key]
        g = per_game.setdefault(game, {"ap": APAccumulator(), "id": IdentityCounter(), "ms": [], "ppm": geo.px_per_mm})
        img = cv2.imread(str(Path(heldout) / row["image"]))
        balls = row["balls"]
        gt_boxes = np.array([b["box"] for b in balls], np.float64).reshape(-1, 4)
        gt_labels = [b["label"] for b in balls]
        vis = np.array([b["visible"] for b in balls], np.float64)
        t0 = time.perf_counter()
        dets = op.detect_with_boxes(img)
        g["ms"].append((time.perf_counter() - t0) * 1000.0)
        lowd = low.detect_with_boxes(img)
        boxes, scores = _label_boxes(lowd)
        g["ap"].add(gt_boxes, gt_labels, vis < MIN_VISIBLE_DET, boxes, scores)
        g["id"].add(
            np.array([(b["u"], b["v"]) for b in balls]).reshape(-1, 2),
            np.array([b["r"] for b in balls]),
            gt_labels,
            vis >= MIN_VISIBLE_CLS,
            np.array([(d.u_px, d.v_px) for d, _ in dets]).reshape(-1, 2),
            [d.label.value if d.label is not None else None for d, _ in dets],
            np.array([d.score for d, _ in dets]),
        )
    out: dict = {"views": len(rows), "games": {}}
    all_ap = []
    for game, g in per_game.items():
        pc = g["ap"].per_class()
        all_ap += [v for v in pc.values() if np.isfinite(v)]
        out["games"][game] = {
            "mAP50": g["ap"].mean(),
            "AP50_per_label": pc,
            **g["id"].summary(g["ppm"]),
            "ms_per_frame_median": float(np.median(g["ms"])),
            "views": len(g["ms"]),
        }
        log(
            f"{game}: mAP50 {g['ap'].mean():.3f}, identity {out['games'][game]['identity_accuracy']:.4f}, "
            f"recall {out['games'][game]['recall']:.4f}, {np.median(g['ms']):.1f} ms/frame"
        )
    out["mAP50"] = float(np.mean(all_ap)) if all_ap else float("nan")
    tot = IdentityCounter()
    for g in per_game.values():
        for k in ("gt", "found", "right", "dets", "matched_dets"):
            setattr(tot, k, getattr(tot, k) + getattr(g["id"], k))
    out["identity_accuracy"] = tot.right / max(tot.found, 1)
    out["recall"] = tot.found / max(tot.gt, 1)
    return out


def evaluate_real(
    root: Path,
    split: str = "test",
    detector_path: Path | None = None,
    classifier_path: Path | None = None,
    log: Callable[[str], object] = print,
) -> dict | None:
    """The real-photo figures of the module docstring; None where the data is absent."""
    import cv2

    from models.real import photo_detector

    ann = Path(root) / split / "_annotations.coco.json"
    if not ann.is_file():
        return None
    d = json.loads(ann.read_text())
    cats = {c["id"]: c["name"] for c in d["categories"]}
    by_img: dict[int, list] = {}
    for a in d["annotations"]:
        if cats.get(a["category_id"]) in REAL_LABELS:
            by_img.setdefault(a["image_id"], []).append(a)
    op = photo_detector(detector_path, classifier_path)
    low = photo_detector(detector_path, classifier_path, conf=0.01, min_score=0.01)
    ap, idc, ms = APAccumulator(), IdentityCounter(), []
    for im in d["images"]:
        img = cv2.imread(str(Path(root) / split / im["file_name"]))
        if img is None:
            continue
        anns = by_img.get(im["id"], [])
        gt_boxes = np.array(
            [[a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]] for a in anns],
            np.float64,
        ).reshape(-1, 4)
        gt_labels = [REAL_LABELS[cats[a["category_id"]]] for a in anns]
        t0 = time.perf_counter()
        dets = op.detect_with_boxes(img, radius_from_box=True)
        ms.append((time.perf_counter() - t0) * 1000.0)
        boxes, scores = _label_boxes(low.detect_with_boxes(img, radius_from_box=True))
        ap.add(gt_boxes, gt_labels, np.zeros(len(anns), bool), boxes, scores)
        uv = (gt_boxes[:, :2] + gt_boxes[:, 2:]) / 2.0
        r = (gt_boxes[:, 2] - gt_boxes[:, 0] + gt_boxes[:, 3] - gt_boxes[:, 1]) / 4.0
        idc.add(
            uv,
            r,
            gt_labels,
            np.ones(len(anns), bool),
            np.array([(x.u_px, x.v_px) for x, _ in dets]).reshape(-1, 2),
            [x.label.value if x.label is not None else None for x, _ in dets],
            np.array([x.score for x, _ in dets]),
        )
    out = {
        "split": split,
        "images": len(ms),
        "mAP50": ap.mean(),
        "AP50_per_label": ap.per_class(),
        **idc.summary(),
        "ms_per_frame_median": float(np.median(ms)) if ms else float("nan"),
    }
    log(f"real {split}: mAP50 {out['mAP50']:.3f}, identity {out['identity_accuracy']:.4f}, recall {out['recall']:.4f}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--heldout", type=Path, help="DIR/heldout of models.dataset")
    ap.add_argument("--real", type=Path, help="the billiard-pool-coco folder (skipped where absent)")
    ap.add_argument("--real-split", default="test")
    ap.add_argument("--detector", type=Path)
    ap.add_argument("--classifier", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--json", type=Path, help="write the figures here")
    a = ap.parse_args(argv)
    res: dict = {}
    try:
        if a.heldout:
            res["synthetic"] = evaluate_heldout(a.heldout, a.detector, a.classifier, a.limit)
        if a.real:
            r = evaluate_real(a.real, a.real_split, a.detector, a.classifier)
            if r is None:
                print(f"real images not found under {a.real}: skipped", file=sys.stderr)
            else:
                res["real"] = r
    except (ValueError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    text = json.dumps(res, indent=1)
    if a.json:
        a.json.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
