"""What is no ball, from real photos: the finder's boxes away from every labelled ball become the
classifier's ``none`` crops.

Why: the classifier learnt ``none`` (a crop that holds no ball) from rendered tables only: their
cloth, pockets and diamonds. Real footage adds what no render had: a cue's shaft across the
cloth, a player's hand, glove or face, a rail's inlaid diamonds, the printed spots, a chalk cube,
a broadcast's caption. On the real photos' training split (``billiard-pool-coco``) the shipped
model, run as on photos with the finder's bar at 0.05, scored 322 detections over the pipeline's
0.2 more than 1.5 radii from every labelled ball, on such things; on eight-ball footage it never
saw, a glove read 0.34 the 12 started a track (MODEL_CARD, leave one clip out). The photos label
every ball on them, so a box the finder draws far from every labelled ball is a real example of
what the classifier must reject. Measured, not shipped: MODEL_CARD "Real none crops".

Contract: :func:`mine` runs the finder (``conf``, its boxes sized by themselves, as
:func:`models.evaluate.evaluate_real` runs it on photos) over one split of the photos and yields
a crop (:func:`vision.yolo_geometry.ball_crop`, the ball's size taken from the box) of every box
whose centre lies farther than ``clear_r`` radii (the larger of the box's and the ball's) from
every labelled ball, and that the classifier does not take for a ball surer than ``max_ball``
(a box that sure is likely a ball the labels left out: one off the table, one of another set).
``python -m models.real_negatives --out DIR`` writes ``DIR/crops/train.npz`` (the photos'
``train`` split) and ``DIR/crops/val.npz`` (``valid``) in :mod:`models.dataset`'s crops format,
every crop labelled ``none``, to train on beside the other crops
(``python -m models.train classifier --data ... DIR/crops``). The ``test`` split is never mined:
the real-photo figures are measured on it. The photos are read where they lie (``../shared/data``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from common.errors import TabletrackError
from models.classes import CLASSIFIER_CLASSES, GAMES, NONE_CLASS
from models.real import default_root, photo_detector, real_images

__all__ = ["mine", "write_negatives"]

#: the splits mined and the crops file each becomes
SPLITS = (("train", "train"), ("valid", "val"))


class NegativesError(TabletrackError):
    """Photos that cannot give negatives (absent, or no box found)."""


def _far_from_balls(
    u: np.ndarray,
    v: np.ndarray,
    r: np.ndarray,
    balls: list[tuple[str, tuple[float, float, float, float]]],
    clear_r: float,
) -> np.ndarray:
    """(k,) whether each box centre lies farther than ``clear_r`` radii from every labelled ball."""
    if not balls:
        return np.ones(len(u), bool)
    gt = np.array([b for _, b in balls], np.float64).reshape(-1, 4)
    cu, cv = (gt[:, 0] + gt[:, 2]) / 2.0, (gt[:, 1] + gt[:, 3]) / 2.0
    cr = (gt[:, 2] - gt[:, 0] + gt[:, 3] - gt[:, 1]) / 4.0
    d = np.hypot(u[:, None] - cu[None, :], v[:, None] - cv[None, :])
    reach = clear_r * np.maximum(r[:, None], cr[None, :])
    return (d > reach).all(axis=1)


def mine(
    root: Path,
    split: str,
    detector_path: Path | None = None,
    classifier_path: Path | None = None,
    conf: float = 0.05,
    clear_r: float = 1.5,
    max_ball: float = 0.9,
) -> Iterator[np.ndarray]:
    """The ``none`` crops of one split (see the module docstring), photo by photo."""
    from vision.yolo_geometry import ball_crop

    det = photo_detector(detector_path, classifier_path, conf=conf, min_score=0.0)
    n = len(det.labels)
    for _name, img, balls in real_images(root, split):
        boxes, _ = det.find(img)
        if not len(boxes):
            continue
        u = (boxes[:, 0] + boxes[:, 2]) / 2.0
        v = (boxes[:, 1] + boxes[:, 3]) / 2.0
        r = np.maximum(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) / 2.0, 2.0)
        far = _far_from_balls(u, v, r, balls, clear_r)
        if not far.any():
            continue
        p, _, _ = det.classify(img, u[far], v[far], r[far], refine=0)
        for uu, vv, rr, ball in zip(u[far], v[far], r[far], p[:, :n].sum(axis=1)):
            if ball < max_ball:
                yield ball_crop(img, float(uu), float(vv), float(rr))


def write_negatives(
    out: Path,
    root: Path | None = None,
    log: Callable[[str], object] = print,
    conf: float = 0.05,
    clear_r: float = 1.5,
    max_ball: float = 0.9,
) -> dict:
    """``out/crops/{train,val}.npz`` of :func:`mine` (its thresholds ``conf``, ``clear_r``,
    ``max_ball``) over the photos' ``train`` and ``valid`` splits. Returns the crops per file."""
    from vision.yolo_geometry import CROP_PX

    for name, value, ok in (
        ("conf", conf, 0.0 < conf <= 1.0),
        ("clear_r", clear_r, clear_r > 0.0),
        ("max_ball", max_ball, 0.0 < max_ball <= 1.0),
    ):
        if not ok:
            raise NegativesError(f"{name}: expected {'> 0' if name == 'clear_r' else 'in (0, 1]'}, got {value}")
    root = Path(root) if root is not None else default_root()
    if not (root / "train" / "_annotations.coco.json").is_file():
        raise NegativesError(f"real photos: expected {root}/train/_annotations.coco.json, found nothing")
    summary = {}
    for src, part in SPLITS:
        xs = list(mine(root, src, conf=conf, clear_r=clear_r, max_ball=max_ball))
        if not xs:
            raise NegativesError(f"real photos {src}: the finder drew no box away from the labelled balls")
        x = np.array(xs, np.uint8).reshape(-1, CROP_PX, CROP_PX, 3)
        f = Path(out) / "crops" / f"{part}.npz"
        f.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            f,
            x=x,
            y=np.full(len(x), CLASSIFIER_CLASSES.index(NONE_CLASS), np.int64),
            off=np.zeros((len(x), 2), np.float32),
            game=np.full(len(x), GAMES.index("pool"), np.int64),
        )
        summary[part] = len(x)
        log(f"real {src} -> {f}: {len(x)} none crops")
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.real_negatives", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="DIR: writes DIR/crops/train.npz and val.npz")
    ap.add_argument("--root", type=Path, help="the real photos (default ../shared/data/billiard-pool-coco)")
    ap.add_argument("--conf", type=float, default=0.05, help="the finder's score threshold")
    ap.add_argument("--clear-r", type=float, default=1.5, help="radii a box must lie from every labelled ball")
    ap.add_argument(
        "--max-ball", type=float, default=0.9, help="a box the classifier takes for a ball surer than this is left out"
    )
    a = ap.parse_args(argv)
    try:
        res = write_negatives(a.out, a.root, conf=a.conf, clear_r=a.clear_r, max_ball=a.max_ball)
    except (TabletrackError, OSError) as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
