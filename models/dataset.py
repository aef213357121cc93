"""The detector's datasets, generated from the renderer: ``python -m models.dataset --out DIR``.

Contract: for each split (``train``, ``val``, ``heldout``) and each game asked for, random scenes
(:func:`models.scenes.sample_scene`) each give ``--views-per-scene`` rendered rectified views
(:func:`models.scenes.render_view`). From every view of ``train``/``val``:

- detector tiles: the view letterboxed into the detector's input (:func:`vision.yolo_geometry.letterbox`)
  and cut into ``TILE_PX`` square tiles, most of them around balls (the network is fully
  convolutional and runs on the whole input; on 2 shared CPU cores an epoch over whole inputs,
  mostly empty cloth, costs several times more for the same balls) with YOLO labels of one class,
  ``ball`` (balls less than ``MIN_VISIBLE_DET`` visible under a hand are not labelled), under
  ``DIR/yolo/{images,labels}/{split}``, and ``DIR/yolo/data.yaml``;
- classifier crops (:func:`vision.yolo_geometry.ball_crop`) of every ball at least
  ``MIN_VISIBLE_CLS`` visible, centred with the detector's typical error, plus ``none`` crops of
  cloth, cushions, rails and occluders away from the balls, in ``DIR/crops/{split}.npz``
  (``x`` uint8 (N, 40, 40, 3), ``y`` class index of :data:`models.classes.CLASSIFIER_CLASSES`,
  ``game`` index of :data:`models.classes.GAMES`, ``off`` (N, 2) the true ball centre's offset
  from the crop centre in crop pixels, so the classifier also learns to place the centre finely).

``heldout`` views are stored whole (``DIR/heldout/NNNNN.png``) with their truth
(``DIR/heldout/truth.jsonl``: game, px/mm, ball radius mm, every ball's label, centre, box and
visible share) for :mod:`models.evaluate`. Every split draws from its own seed, so no scene is shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import cast

import numpy as np

from common.errors import TabletrackError
from models.classes import GAMES, class_index
from models.scenes import SceneError, View, render_view, sample_scene

DET_INPUT_HW = (320, 640)
TILE_PX = 160
MIN_VISIBLE_DET = 0.3
MIN_VISIBLE_CLS = 0.5
HARD_NONE_R = 1.4
SPLIT_SEEDS = {"train": 1000, "val": 2000, "heldout": 3000}


class DatasetError(TabletrackError):
    """A dataset request that cannot be met."""


def _scaled_box(box: Sequence[float], scale: float) -> tuple[float, float, float, float]:
    """``tuple(c * scale for c in box)`` of an (x0, y0, x1, y1) box, typed as four values."""
    return cast("tuple[float, float, float, float]", tuple(c * scale for c in box))


def tile_labels(
    boxes_in: list[tuple[float, float, float, float]],
    x0: int,
    y0: int,
    t: int,
) -> list[tuple[float, float, float, float]]:
    """Normalised (cx, cy, w, h) of input-pixel boxes inside the tile at (x0, y0) of side ``t``;
    a box cut by the tile's edge is kept clipped if at least 40 % of it is inside."""
    out = []
    for u0, v0, u1, v1 in boxes_in:
        cu0, cu1 = max(u0 - x0, 0.0), min(u1 - x0, float(t))
        cv0, cv1 = max(v0 - y0, 0.0), min(v1 - y0, float(t))
        if cu1 <= cu0 or cv1 <= cv0 or (cu1 - cu0) * (cv1 - cv0) < 0.4 * (u1 - u0) * (v1 - v0):
            continue
        out.append(((cu0 + cu1) / 2 / t, (cv0 + cv1) / 2 / t, (cu1 - cu0) / t, (cv1 - cv0) / t))
    return out


def tiles_of(
    img: np.ndarray,
    boxes_in: list[tuple[float, float, float, float]],
    rng: np.random.Generator,
    tile: int = TILE_PX,
    n_ball: int = 3,
    n_any: int = 1,
) -> list[tuple[np.ndarray, list[tuple[float, float, float, float]]]]:
    """Square tiles of a letterboxed input: ``n_ball`` around random balls (where the pixels that
    teach the finder are) and ``n_any`` anywhere (cloth, cushions, pockets, hands, padding)."""
    H, W = img.shape[:2]
    t = min(tile, H, W)
    starts = []
    for _ in range(n_ball if boxes_in else 0):
        u0, v0, u1, v1 = boxes_in[int(rng.integers(len(boxes_in)))]
        cx, cy = (u0 + u1) / 2 + rng.uniform(-0.4, 0.4) * t, (v0 + v1) / 2 + rng.uniform(-0.4, 0.4) * t
        starts.append((int(np.clip(cx - t / 2, 0, W - t)), int(np.clip(cy - t / 2, 0, H - t))))
    for _ in range(n_any):
        starts.append((int(rng.integers(0, W - t + 1)), int(rng.integers(0, H - t + 1))))
    return [
        (np.ascontiguousarray(img[y0 : y0 + t, x0 : x0 + t]), tile_labels(boxes_in, x0, y0, t)) for x0, y0 in starts
    ]


def yolo_tiles(
    view: View,
    rng: np.random.Generator,
    input_hw: tuple[int, int] = DET_INPUT_HW,
) -> list[tuple[np.ndarray, list[tuple[float, float, float, float]]]]:
    """Tiles (:func:`tiles_of`) of the view letterboxed into the finder's input, with the boxes
    of the balls at least ``MIN_VISIBLE_DET`` visible."""
    from vision.yolo_geometry import letterbox

    img, lb = letterbox(view.image_bgr, input_hw)
    boxes = [_scaled_box(b.box, lb.scale) for b in view.balls if b.visible >= MIN_VISIBLE_DET]
    return tiles_of(img, boxes, rng)


def crops_of(
    view: View,
    rng: np.random.Generator,
    n_none: int = 3,
    n_hard: int = 6,
) -> tuple[list[np.ndarray], list[int], list[tuple[float, float]]]:
    """Classifier crops of the view's balls and ``n_none`` crops of no ball, with the offset
    (crop px) of the true ball centre from the crop's centre (zero for no ball); and up to
    ``n_hard`` ``none`` crops where :func:`vision.proposals.ball_proposals` proposes a ball that is
    not there (shadows, hands, cues, lines, pocket mouths, the shoulder of a ball more than
    ``HARD_NONE_R`` radii away), so the classifier learns to reject what it is shown at run time."""
    from vision.proposals import ball_proposals, playing_region
    from vision.yolo_geometry import CROP_BALL_PX, ball_crop

    xs, ys, offs = [], [], []
    img = view.image_bgr
    for b in view.balls:
        if b.visible < MIN_VISIBLE_CLS:
            continue
        du, dv = np.clip(rng.normal(0.0, 0.15 * b.r_px, 2), -0.5 * b.r_px, 0.5 * b.r_px)
        rj = b.r_px * rng.uniform(0.93, 1.07)
        xs.append(ball_crop(img, b.u_px + du, b.v_px + dv, rj))
        ys.append(class_index(view.game, b.label))
        k = CROP_BALL_PX / (2.0 * rj)
        offs.append((-du * k, -dv * k))
    h, w = img.shape[:2]
    r = view.balls[0].r_px if view.balls else 15.0
    centres = np.array([(b.u_px, b.v_px) for b in view.balls]).reshape(-1, 2)
    got, tries = 0, 0
    while got < n_none and tries < 50:
        tries += 1
        if rng.random() < 0.5:  # along the cushions and rails
            side = int(rng.integers(4))
            e = rng.uniform(0, 3.0 * r)
            u, v = [
                (e, rng.uniform(0, h)),
                (w - 1 - e, rng.uniform(0, h)),
                (rng.uniform(0, w), e),
                (rng.uniform(0, w), h - 1 - e),
            ][side]
        else:
            u, v = rng.uniform(0, w), rng.uniform(0, h)
        if len(centres) and np.hypot(centres[:, 0] - u, centres[:, 1] - v).min() < 2.6 * r:
            continue
        xs.append(ball_crop(img, u, v, r * rng.uniform(0.93, 1.07)))
        ys.append(class_index(view.game, "none"))
        offs.append((0.0, 0.0))
        got += 1
    if n_hard > 0 and view.balls:
        pu, pv, _ = ball_proposals(img, r, region_px=playing_region(view.geometry, r))
        if len(pu):
            far = (
                np.hypot(pu[:, None] - centres[None, :, 0], pv[:, None] - centres[None, :, 1]).min(axis=1)
                > HARD_NONE_R * r
            )
            idx = np.nonzero(far)[0]
            for i in rng.permutation(idx)[:n_hard]:
                xs.append(ball_crop(img, float(pu[i]), float(pv[i]), r * rng.uniform(0.93, 1.07)))
                ys.append(class_index(view.game, "none"))
                offs.append((0.0, 0.0))
    return xs, ys, offs


def _views(game: str, n: int, per_scene: int, seed: int, px_per_mm: float) -> Iterator[View]:
    rng = np.random.default_rng(seed)
    made = 0
    while made < n:
        scene = sample_scene(game, rng, px_per_mm)
        for _ in range(min(per_scene, n - made)):
            yield render_view(scene, rng)
            made += 1


def probe_game(game: str) -> str | None:
    """None when the renderer can draw ``game`` (its tables and balls); else why not."""
    try:
        scene = sample_scene(game, np.random.default_rng(0))
        render_view(scene, np.random.default_rng(0))
    except (SceneError, ValueError) as e:
        return str(e).splitlines()[0]
    return None


def generate(
    out: Path,
    games: list[str],
    counts: dict[str, int],
    per_scene: int = 12,
    px_per_mm: float = 0.5,
    seed: int = 0,
    tiles: bool = True,
    log: Callable[[str], object] = print,
) -> dict:
    """Write the splits (module docstring); returns a summary {split: {game: views, ...}}.
    ``tiles=False`` writes the classifier's crops only (no detector tiles)."""
    import cv2

    out = Path(out)
    summary: dict = {"games": games, "px_per_mm": px_per_mm, "det_input_hw": list(DET_INPUT_HW)}
    for split, n in counts.items():
        if n <= 0:
            continue
        if split not in SPLIT_SEEDS:
            raise DatasetError(f"split: expected one of {', '.join(SPLIT_SEEDS)}, got {split!r}")
        t0 = time.time()
        xs, ys, gs, os_ = [], [], [], []
        img_dir, lab_dir = out / "yolo" / "images" / split, out / "yolo" / "labels" / split
        held = out / "heldout"
        truth_f = None
        if split == "heldout":
            held.mkdir(parents=True, exist_ok=True)
            truth_f = open(held / "truth.jsonl", "w")  # noqa: SIM115 -- written through the loop below, closed after it
        else:
            img_dir.mkdir(parents=True, exist_ok=True)
            lab_dir.mkdir(parents=True, exist_ok=True)
        k = 0
        for gi, game in enumerate(games):
            rng = np.random.default_rng(SPLIT_SEEDS[split] + 97 * gi + seed * 7919)
            for view in _views(game, n, per_scene, SPLIT_SEEDS[split] + 13 * gi + seed * 7919, px_per_mm):
                if split == "heldout":
                    name = f"{k:05d}.png"
                    cv2.imwrite(str(held / name), view.image_bgr)
                    assert truth_f is not None  # opened above for the held-out split
                    truth_f.write(
                        json.dumps(
                            {
                                "image": name,
                                "game": game,
                                "table": view.table,
                                "px_per_mm": px_per_mm,
                                "margin_mm": view.geometry.margin_mm,
                                "ball_radius_mm": view.geometry.z_mm,
                                "balls": [
                                    {
                                        "ball": b.ball.value,
                                        "label": b.label,
                                        "u": b.u_px,
                                        "v": b.v_px,
                                        "r": b.r_px,
                                        "box": list(b.box),
                                        "visible": b.visible,
                                    }
                                    for b in view.balls
                                ],
                            }
                        )
                        + "\n"
                    )
                else:
                    for ti, (tile, labels) in enumerate(yolo_tiles(view, rng) if tiles else ()):
                        stem = f"{game}_{k:05d}_{ti}"
                        cv2.imwrite(str(img_dir / f"{stem}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, 95])
                        (lab_dir / f"{stem}.txt").write_text(
                            "".join(f"0 {a:.6f} {b:.6f} {c:.6f} {d:.6f}\n" for a, b, c, d in labels)
                        )
                    cx, cy, co = crops_of(view, rng)
                    xs += cx
                    ys += cy
                    os_ += co
                    gs += [gi] * len(cy)
                k += 1
            log(f"{split}: {game} {n} views ({time.time() - t0:.0f} s)")
        if truth_f is not None:
            truth_f.close()
        else:
            (out / "crops").mkdir(parents=True, exist_ok=True)
            np.savez_compressed(
                out / "crops" / f"{split}.npz",
                x=np.array(xs, np.uint8).reshape(-1, 40, 40, 3),
                y=np.array(ys, np.int64),
                off=np.array(os_, np.float32).reshape(-1, 2),
                game=np.array([GAMES.index(games[g]) for g in gs], np.int64),
            )
        summary[split] = {"views": k, "crops": len(ys), "s": round(time.time() - t0, 1)}
    (out / "yolo").mkdir(parents=True, exist_ok=True)
    (out / "yolo" / "data.yaml").write_text(
        f"path: {(out / 'yolo').resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: ball\n"
    )
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def add_real(out: Path, root: Path, rng_seed: int = 0, log: Callable[[str], object] = print) -> dict:
    """Tiles and crops of the real photos' ``train`` (-> train) and ``valid`` (-> val) splits,
    added to a generated dataset: each photo letterboxed whole into the finder's input as the
    evaluation does (their balls are then 5-14 px, as in the rectified views), and each ball's
    crop sized by its box (pool labels). Appends to ``crops/{split}.npz``."""
    import cv2

    from models.real import real_images
    from vision.yolo_geometry import CROP_BALL_PX, CROP_PX, ball_crop, letterbox

    rng = np.random.default_rng(5000 + rng_seed)
    summary = {}
    for src, split in (("train", "train"), ("valid", "val")):
        img_dir, lab_dir = Path(out) / "yolo" / "images" / split, Path(out) / "yolo" / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lab_dir.mkdir(parents=True, exist_ok=True)
        xs, ys, os_ = [], [], []
        n = 0
        for _name, img, balls in real_images(root, src):
            inp, lb = letterbox(img, DET_INPUT_HW)
            boxes = [_scaled_box(b, lb.scale) for _, b in balls]
            for ti, (tile, labels) in enumerate(tiles_of(inp, boxes, rng, n_ball=2, n_any=0)):
                stem = f"real_{n:05d}_{ti}"
                cv2.imwrite(str(img_dir / f"{stem}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, 95])
                (lab_dir / f"{stem}.txt").write_text(
                    "".join(f"0 {a:.6f} {b:.6f} {c:.6f} {d:.6f}\n" for a, b, c, d in labels)
                )
            for label, (x0, y0, x1, y1) in balls:
                r = max(min(x1 - x0, y1 - y0) / 2.0, 2.0)
                u, v = (x0 + x1) / 2.0, (y0 + y1) / 2.0
                du, dv = np.clip(rng.normal(0.0, 0.15 * r, 2), -0.5 * r, 0.5 * r)
                rj = r * rng.uniform(0.93, 1.07)
                xs.append(ball_crop(img, u + du, v + dv, rj))
                ys.append(class_index("pool", label))
                k = CROP_BALL_PX / (2.0 * rj)
                os_.append((-du * k, -dv * k))
            n += 1
        f = Path(out) / "crops" / f"{split}.npz"
        if xs:
            # appended to the synthetic crops where there are any (a set of real photos alone,
            # ``--train-views 0``, gets a file of its own: it was silently dropped before)
            new: dict[str, np.ndarray] = {
                "x": np.array(xs, np.uint8).reshape(-1, CROP_PX, CROP_PX, 3),
                "y": np.array(ys, np.int64),
                "off": np.array(os_, np.float32).reshape(-1, 2),
                "game": np.full(len(ys), GAMES.index("pool"), np.int64),
            }
            if f.is_file():
                d = np.load(f)
                new = {k: np.concatenate([d[k], v]) for k, v in new.items()}
            f.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(f, x=new["x"], y=new["y"], off=new["off"], game=new["game"])
        summary[split] = {"real_images": n, "real_crops": len(ys)}
        log(f"real {src} -> {split}: {n} images, {len(ys)} crops")
    return summary


def write_subset(
    yolo_dir: Path, n_synthetic: int, n_val_synthetic: int = 150, n_val_real: int = 100, seed: int = 0
) -> tuple[int, int]:
    """``data_sub.yaml``: a random ``n_synthetic`` of the synthetic training tiles plus the first
    tile of every real photo (and a smaller validation set), to fit an epoch to a busy CPU.
    Returns the (train, val) tile counts."""
    import random

    yolo_dir = Path(yolo_dir).resolve()
    rnd = random.Random(seed)
    tr = sorted(str(p.relative_to(yolo_dir)) for p in (yolo_dir / "images" / "train").glob("*.jpg"))
    syn = [f for f in tr if not Path(f).name.startswith("real")]
    real = [f for f in tr if Path(f).name.startswith("real") and f.endswith("_0.jpg")]
    sel = rnd.sample(syn, min(n_synthetic, len(syn))) + real
    va = sorted(str(p.relative_to(yolo_dir)) for p in (yolo_dir / "images" / "val").glob("*.jpg"))
    vsyn = [f for f in va if "real" not in f]
    vsel = (
        rnd.sample(vsyn, min(n_val_synthetic, len(vsyn)))
        + [f for f in va if "real" in f and f.endswith("_0.jpg")][:n_val_real]
    )
    (yolo_dir / "train_sub.txt").write_text("".join(f"{yolo_dir / f}\n" for f in sel))
    (yolo_dir / "val_sub.txt").write_text("".join(f"{yolo_dir / f}\n" for f in vsel))
    (yolo_dir / "data_sub.yaml").write_text(
        f"path: {yolo_dir}\ntrain: {yolo_dir}/train_sub.txt\nval: {yolo_dir}/val_sub.txt\nnames:\n  0: ball\n"
    )
    return len(sel), len(vsel)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.dataset", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--games",
        default="carom,pool,snooker",
        help="comma-separated; games the renderer cannot draw yet are skipped with a note",
    )
    ap.add_argument("--train-views", type=int, default=600, help="per game")
    ap.add_argument("--val-views", type=int, default=60, help="per game")
    ap.add_argument("--heldout-views", type=int, default=100, help="per game")
    ap.add_argument("--views-per-scene", type=int, default=12)
    ap.add_argument("--px-per-mm", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-tiles", action="store_true", help="the classifier's crops only, no detector tiles")
    ap.add_argument("--real", type=Path, help="also the real photos' train/valid splits (billiard-pool-coco)")
    ap.add_argument(
        "--subset",
        type=int,
        metavar="N",
        help="only write DIR/yolo/data_sub.yaml: N random synthetic tiles + one per real photo",
    )
    a = ap.parse_args(argv)
    if a.subset is not None:
        print(json.dumps(dict(zip(("train_tiles", "val_tiles"), write_subset(a.out / "yolo", a.subset)))))
        return 0
    games = []
    for g in [s.strip() for s in a.games.split(",") if s.strip()]:
        if g not in GAMES:
            print(f"error: game: expected one of {', '.join(GAMES)}, got {g!r}", file=sys.stderr)
            return 2
        why = probe_game(g)
        if why:
            print(f"skipping {g}: {why}", file=sys.stderr)
        else:
            games.append(g)
    if not games:
        print("error: the renderer can draw none of the games asked for", file=sys.stderr)
        return 2
    s = generate(
        a.out,
        games,
        {"train": a.train_views, "val": a.val_views, "heldout": a.heldout_views},
        a.views_per_scene,
        a.px_per_mm,
        a.seed,
        tiles=not a.no_tiles,
    )
    if a.real is not None:
        if (a.real / "train" / "_annotations.coco.json").is_file():
            s["real"] = add_real(a.out, a.real, a.seed)
        else:
            print(f"real photos not found under {a.real}: skipped", file=sys.stderr)
    print(json.dumps(s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
