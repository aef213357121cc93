"""Classifier crops from real video: a clip's tracks, named by a person, become training labels.

Why: the classifier learned pool identities from rendered balls and 523 real photos of one ball set;
under a broadcast's light it reads a maroon 7 as the orange 5 at 0.91 (issue 13, nine-ball
Clip17). Real examples of real sets fix that, and a clip already analysed gives them almost for
free: every tracked ball is hundreds of crops of one ball. Only the name must come from a person.

Contract, two steps:

- ``sheet``: for one analysed clip (``analyze --out DIR`` wrote ``calibration.json`` and
  ``tracks.csv``), a contact sheet PNG with, per tracked ball, a row of crops at evenly spaced
  observed frames and the tracker's name: what a person looks at to name each ball.
- ``build``: a names file (JSON, committed: :data:`LABELS_FILE`) ``{clip: {"video": path relative
  to the data root, "analysis": folder name, "game": "pool", "names": {tracked id: true id or null}}}``
  (null: not a ball, or a ball the person cannot name: left out; ``_held_out``: the clips kept out of
  training, for the record) -> ``DIR/crops/{train,val}.npz``
  in :mod:`models.dataset`'s format (``x`` uint8 Nx40x40x3 BGR, ``y`` class index, ``game``,
  ``off`` the true centre's offset from the crop centre in crop px). Crops are cut where the
  detector cuts them (:func:`track_crops`: the rectified view at 0.5 px/mm, or the camera's own
  image for an oblique camera) at the tracked centre moved by a random offset (the regression's
  target), at observed samples only, every ``--every``-th frame. Clips
  listed in ``--val-clips`` go to ``val`` only: a figure on them is then held out.
- ``accuracy``: crop accuracy of ONNX classifiers on such crops files, per game.

The footage is read where it lies (``../shared/data``) and never copied into the repository; the
names file holds only our own annotation.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from common.errors import TabletrackError

LABELS_FILE = Path(__file__).resolve().parent / "real_labels.json"
VIEW_PX_PER_MM = 0.5


class RealCropsError(TabletrackError):
    """A names file or an analysis folder that cannot give crops."""


def _tracks(analysis: Path) -> tuple[Any, dict[str, list[tuple[int, float, float, float]]]]:
    """The clip's camera and, per tracked ball, its observed samples (frame, x, y, confidence),
    read from ``tracks.csv`` (``tabletrack analyze``'s documented columns; parsed here, as
    DESIGN.md keeps models/ off the tracking package)."""
    import csv

    from calibration.camera import CameraModel

    cal, tr = analysis / "calibration.json", analysis / "tracks.csv"
    for f in (cal, tr):
        if not f.is_file():
            raise RealCropsError(f"{analysis}: expected {f.name} (tabletrack analyze --out), found nothing")
    out: dict[str, list[tuple[int, float, float, float]]] = {}
    with tr.open(newline="") as fh:
        rows = csv.DictReader(fh)
        want = {"frame", "ball", "x_mm", "y_mm", "observed", "confidence"}
        if not want <= set(rows.fieldnames or ()):
            raise RealCropsError(f"{tr}: expected the columns {sorted(want)}, got {rows.fieldnames}")
        for r in rows:
            if r["observed"].strip() in ("1", "true", "True"):
                out.setdefault(r["ball"], []).append(
                    (int(r["frame"]), float(r["x_mm"]), float(r["y_mm"]), float(r["confidence"]))
                )
    return CameraModel.load(cal), out


def track_crops(
    video: Path,
    analysis: Path,
    table_kind: str,
    every: int,
    rng: np.random.Generator,
    jitter: bool = True,
) -> Iterator[tuple[str, int, np.ndarray, tuple[float, float]]]:
    """(tracked id, frame, crop, offset crop px) of every observed sample on every ``every``-th
    frame of the clip (decode order, as ``tracks.csv`` counts), cut where the pipeline's detector
    cuts its crops: from the rectified view (0.5 px/mm) for a camera near overhead, from the
    camera's own image, sized by the ball's image radius there, for a camera that
    :func:`vision.frame_yolo.oblique` sends to the raw-frame detector. Why: the classifier must
    be trained on what it will be shown; a stretched rectified crop taught it how a ball looks
    from one camera's direction only."""
    import cv2

    from calibration.table import load_table
    from vision.frame_yolo import ball_image_radius_px, oblique
    from vision.rectify import Rectifier
    from vision.yolo_geometry import CROP_BALL_PX, ball_crop

    camera, tracks = _tracks(analysis)
    table = load_table(table_kind)
    rect = None if oblique(camera, table) else Rectifier(camera, table, VIEW_PX_PER_MM)
    R = table.ball_radius_mm
    at: dict[int, list[tuple[str, float, float]]] = {}
    for ball, samples in tracks.items():
        for f, x, y, conf in samples:
            if f % every == 0 and conf >= 0.5:
                at.setdefault(f, []).append((ball, x, y))
    cap = cv2.VideoCapture(str(video))
    if not cap.isOpened():
        raise RealCropsError(f"{video}: expected a video OpenCV can read, could not open it")
    frame = -1
    last = max(at, default=-1)
    try:
        while frame < last:
            ok, img = cap.read()
            if not ok:
                break
            frame += 1
            if frame not in at:
                continue
            xy = np.array([(x, y) for _, x, y in at[frame]], np.float64)
            if rect is None:
                uv = camera.project(np.column_stack([xy, np.full(len(xy), R)]))
                radii, source = ball_image_radius_px(camera, xy, R), img
            else:
                uv = np.column_stack(rect.geometry.mm_to_uv(xy[:, 0], xy[:, 1]))
                radii, source = np.full(len(xy), R * VIEW_PX_PER_MM), rect(img)
            for (name, _, _), (u, v), r_px in zip(at[frame], uv, radii):
                du, dv = np.clip(rng.normal(0.0, 0.15 * r_px, 2), -0.5 * r_px, 0.5 * r_px) if jitter else (0.0, 0.0)
                rj = r_px * (rng.uniform(0.93, 1.07) if jitter else 1.0)
                k = CROP_BALL_PX / (2.0 * rj)
                crop = ball_crop(source, float(u) + du, float(v) + dv, rj)
                yield name, frame, crop, (-du * k, -dv * k)
    finally:
        cap.release()


def contact_sheet(video: Path, analysis: Path, table_kind: str, out: Path, per_ball: int = 10) -> Path:
    """One row per tracked ball: ``per_ball`` crops (no jitter) at evenly spaced sampled frames,
    scaled 3x, the tracker's id on the left."""
    import cv2

    rows: dict[str, list[np.ndarray]] = {}
    for name, _, crop, _ in track_crops(video, analysis, table_kind, 1, np.random.default_rng(0), jitter=False):
        rows.setdefault(name, []).append(crop)
    if not rows:
        raise RealCropsError(f"{analysis}: no observed ball samples to show")
    lines = []
    for name in sorted(rows, key=lambda s: (len(s), s)):
        cs = rows[name]
        pick = [cs[int(i)] for i in np.linspace(0, len(cs) - 1, min(per_ball, len(cs)))]
        strip = np.hstack([cv2.resize(c, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST) for c in pick])
        label = np.zeros((strip.shape[0], 90, 3), np.uint8)
        cv2.putText(label, name, (5, strip.shape[0] // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
        line = np.hstack([label, strip])
        lines.append(line)
    w = max(line.shape[1] for line in lines)
    sheet = np.vstack([np.pad(line, ((0, 2), (0, w - line.shape[1]), (0, 0))) for line in lines])
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), sheet)
    return out


def build(
    names_file: Path,
    data_root: Path,
    analyses: Path,
    out: Path,
    every: int,
    val_clips: Sequence[str] = (),
    seed: int = 0,
    log: Any = print,
) -> dict[str, Any]:
    """Crops of every named ball of every clip of ``names_file`` (see the module docstring)."""
    from models.classes import GAMES, class_index

    spec = json.loads(Path(names_file).read_text())
    rng = np.random.default_rng(seed)
    split: dict[str, dict[str, list]] = {s: {"x": [], "y": [], "game": [], "off": []} for s in ("train", "val")}
    counts: dict[str, dict[str, int]] = {}
    for clip, c in spec.items():
        if clip.startswith("_"):
            continue
        video = Path(data_root) / c["video"]
        analysis = Path(analyses) / c["analysis"]
        if not video.is_file() or not analysis.is_dir():
            log(f"  {clip}: skipped (absent: {video if not video.is_file() else analysis})")
            continue
        names: dict[str, str | None] = c["names"]
        s = split["val" if clip in val_clips else "train"]
        n: dict[str, int] = {}
        for tracked, _, crop, off in track_crops(video, analysis, c.get("table", "pool"), every, rng):
            true = names.get(tracked)
            if true is None:
                continue
            s["x"].append(crop)
            s["y"].append(class_index(c["game"], str(true)))
            s["game"].append(GAMES.index(c["game"]))
            s["off"].append(off)
            n[str(true)] = n.get(str(true), 0) + 1
        counts[clip] = n
        log(f"  {clip} -> {'val' if clip in val_clips else 'train'}: {sum(n.values())} crops {n}")
    (Path(out) / "crops").mkdir(parents=True, exist_ok=True)
    for name, s in split.items():
        np.savez_compressed(
            Path(out) / "crops" / f"{name}.npz",
            x=np.array(s["x"], np.uint8).reshape(-1, 40, 40, 3),
            y=np.array(s["y"], np.int64),
            game=np.array(s["game"], np.int64),
            off=np.array(s["off"], np.float32).reshape(-1, 2),
        )
    return {"clips": counts, "train": len(split["train"]["y"]), "val": len(split["val"]["y"])}


def crop_accuracy(model: Path, npz: Path) -> dict[str, tuple[float, int]]:
    """Per game, the share of crops of ``npz`` (:mod:`models.dataset`'s format) whose argmax over
    the game's classes and ``none`` is the label, and how many crops: how the model card compares
    two classifiers on the same crops. For pool balls also ``pool_kind``: the share whose argmax
    is of the right kind (cue / solid / eight / stripe, :func:`models.classes.pool_kind`), what
    the eight-ball figures count."""
    import onnxruntime as ort

    from models.classes import CLASSIFIER_CLASSES, GAMES, pool_kind

    d = np.load(npz)
    x = d["x"].astype(np.float32).transpose(0, 3, 1, 2) / 255.0
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    name = sess.get_inputs()[0].name
    logits = np.concatenate(
        [sess.run(None, {name: x[i : i + 512]})[0] for i in range(0, len(x), 512)] or [np.zeros((0, 30))]
    )[:, : len(CLASSIFIER_CLASSES)]
    out: dict[str, tuple[float, int]] = {}
    for gi, game in enumerate(GAMES):
        m = d["game"] == gi
        if not m.any():
            continue
        allowed = np.array([c.startswith(game + ":") or c == "none" for c in CLASSIFIER_CLASSES])
        pred = np.where(allowed[None], logits[m], -np.inf).argmax(1)
        out[game] = (round(float((pred == d["y"][m]).mean()), 4), int(m.sum()))
        if game == "pool":
            kind = [pool_kind(c.split(":", 1)[-1]) for c in CLASSIFIER_CLASSES]
            balls = [(kind[t], kind[p]) for t, p in zip(d["y"][m], pred) if kind[t] is not None]
            if balls:
                out["pool_kind"] = (round(sum(t == p for t, p in balls) / len(balls), 4), len(balls))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.real_crops", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("sheet", help="a contact sheet of a clip's tracked balls, to name them by eye")
    s.add_argument("video", type=Path)
    s.add_argument("analysis", type=Path, help="the folder analyze --out wrote for the clip")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--table", default="pool")
    b = sub.add_parser("build", help="classifier crops of every named ball")
    b.add_argument("--names", type=Path, default=LABELS_FILE)
    b.add_argument("--data-root", type=Path, required=True, help="the folder the names file's videos are under")
    b.add_argument("--analyses", type=Path, required=True, help="the folder holding each clip's analysis")
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--every", type=int, default=3)
    b.add_argument("--val-clips", nargs="*", default=[])
    c = sub.add_parser("accuracy", help="crop accuracy of classifiers (ONNX) on crops files")
    c.add_argument("--models", type=Path, nargs="+", required=True)
    c.add_argument("crops", type=Path, nargs="+", help="DIR/crops/SPLIT.npz")
    a = ap.parse_args(argv)
    try:
        if a.what == "sheet":
            print(contact_sheet(a.video, a.analysis, a.table, a.out))
        elif a.what == "accuracy":
            for m in a.models:
                for f in a.crops:
                    print(json.dumps({"model": str(m), "crops": str(f), **crop_accuracy(m, f)}))
        else:
            print(json.dumps(build(a.names, a.data_root, a.analyses, a.out, a.every, a.val_clips)))
    except (TabletrackError, OSError, ValueError, KeyError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
