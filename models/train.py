"""Training the two networks of the ball detector, offline, on the CPU; each ends in an ONNX file.

``python -m models.train detector --data DIR/yolo/data.yaml --epochs 30`` trains the ball finder
(:file:`models/ball_detector.yaml`, built from the yaml with random weights, one class ``ball``)
on the square tiles of :mod:`models.dataset`, then exports it to ONNX at the fixed input
``--export-hw`` (default 320x640, the whole letterboxed view: the network is fully convolutional).

``python -m models.train classifier --data DIR/crops --epochs 30`` trains the identity classifier
(:class:`BallClassifierNet`, a small CNN on the 40x40 ball crops) and exports it to ONNX with its
class list in the model's metadata, so the runtime (:mod:`vision.yolo`) needs neither torch nor
this package.

Both run through :func:`models.offline.prepare_ultralytics` / torch with ``--threads`` threads
(default 2) and touch no network. Ultralytics' own training choices for this task: ``amp=False``,
``plots=False``, ``pretrained=False``; mosaic and flips on (a top-down view has no up), little
scale augmentation (a ball's size in the rectified view is fixed), colour augmentation on (cloth
and lighting vary).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from common.errors import TabletrackError
from models.classes import CLASSIFIER_CLASSES, GAMES, game_mask
from models.offline import default_cache_dir, prepare_ultralytics

if TYPE_CHECKING:
    import torch

MODELS_DIR = Path(__file__).resolve().parent
DETECTOR_YAML = MODELS_DIR / "ball_detector.yaml"
#: the float finder training exports; the shipped ``ball_detector.onnx`` is its int8 form
#: (``python -m models.quantize`` after training)
DETECTOR_ONNX = MODELS_DIR / "ball_detector_fp32.onnx"
CLASSIFIER_ONNX = MODELS_DIR / "ball_classifier.onnx"


class TrainError(TabletrackError):
    """A training request that cannot be run (missing data, bad sizes)."""


# -- detector ---------------------------------------------------------------------------------


def train_detector(
    data_yaml: Path,
    epochs: int,
    out: Path = DETECTOR_ONNX,
    imgsz: int = 160,
    export_hw: tuple[int, int] = (320, 640),
    batch: int = 16,
    workers: int = 1,
    model_yaml: Path = DETECTOR_YAML,
    name: str = "detector",
    threads: int = 2,
    cache_dir: Path | None = None,
    fraction: float = 1.0,
    val_every_epoch: bool = False,
    hours: float | None = None,
    init: Path | None = None,
    lr0: float | None = None,
    log: Callable[[str], object] = print,
) -> dict:
    """Train, export, copy the ONNX file to ``out``; returns {epochs, wall_s, metrics, onnx}.
    ``hours`` caps the training time: ultralytics then re-plans the number of epochs (and the
    learning-rate schedule) from the first epochs' duration, so a run on a busy machine still
    completes its schedule. ``init``: the weights (.pt) of an earlier run to fine-tune instead of
    random weights from the yaml; ``lr0`` its initial learning rate (with AdamW)."""
    data_yaml = Path(data_yaml)
    if not data_yaml.is_file():
        raise TrainError(f"detector data: expected a YOLO data.yaml, found nothing at {data_yaml}")
    if epochs < 1 or imgsz < 32 or imgsz % 32:
        raise TrainError(f"detector: expected epochs >= 1 and imgsz a multiple of 32, got {epochs} and {imgsz}")
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    prepare_ultralytics(root, threads)
    from ultralytics import YOLO

    if init is not None and not Path(init).is_file():
        raise TrainError(f"detector --init: expected YOLO weights (.pt) at {init}, found nothing")
    # from a .pt, ultralytics trains on from its weights (``pretrained`` only concerns a yaml model)
    model = YOLO(str(init) if init is not None else str(model_yaml), task="detect")
    extra = {"optimizer": "AdamW", "lr0": float(lr0), "warmup_epochs": 0.5} if lr0 else {}
    t0 = time.time()

    def _epoch_end(tr: Any) -> None:
        m = {k.split("/")[-1]: round(float(v), 4) for k, v in (tr.metrics or {}).items() if "mAP50" in k}
        log(f"detector epoch {tr.epoch + 1}/{tr.epochs}: {m} ({time.time() - t0:.0f} s)")

    model.add_callback("on_fit_epoch_end", _epoch_end)
    model.train(
        data=str(data_yaml),
        epochs=epochs,
        imgsz=imgsz,
        batch=batch,
        workers=workers,
        device="cpu",
        amp=False,
        plots=False,
        pretrained=False,
        project=str((root / "runs").resolve()),
        name=name,
        exist_ok=True,
        single_cls=True,
        cache="ram",
        seed=0,
        patience=max(epochs, 10),
        close_mosaic=max(1, epochs // 10),
        hsv_h=0.03,
        hsv_s=0.6,
        hsv_v=0.4,
        degrees=0.0,
        translate=0.1,
        scale=0.2,
        fliplr=0.5,
        flipud=0.5,
        mosaic=1.0,
        fraction=fraction,
        verbose=False,
        val=val_every_epoch,
        **({"time": float(hours)} if hours else {}),
        **extra,
    )
    wall = time.time() - t0
    trainer = model.trainer
    if trainer is None:
        raise TrainError("ultralytics trained no model: its trainer is None after train()")
    best = Path(trainer.best) if Path(trainer.best).is_file() else Path(trainer.last)
    metrics = {k: float(v) for k, v in (trainer.metrics or {}).items() if isinstance(v, (int, float))}
    exported = YOLO(str(best), task="detect").export(
        format="onnx", imgsz=list(export_hw), simplify=True, dynamic=False, device="cpu", verbose=False
    )
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(exported, out)
    return {
        "epochs": int(getattr(trainer, "epochs", epochs)),
        "imgsz": imgsz,
        "export_hw": list(export_hw),
        "wall_s": round(wall, 1),
        "val_metrics": metrics,
        "onnx": str(out),
        "weights": str(best),
    }


# -- classifier -------------------------------------------------------------------------------


def _net() -> torch.nn.Module:
    import torch.nn as nn

    def block(i: int, o: int) -> list:
        return [
            nn.Conv2d(i, o, 3, padding=1, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU(inplace=True),
            nn.Conv2d(o, o, 3, padding=1, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU(inplace=True),
        ]

    class BallClassifierNet(nn.Module):
        """40x40 BGR crop in [0, 1] -> one logit per class of CLASSIFIER_CLASSES, then the offset
        (du, dv) of the ball's centre from the crop's centre in ball radii."""

        def __init__(self, n_classes: int) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *block(3, 16), nn.MaxPool2d(2), *block(16, 32), nn.MaxPool2d(2), *block(32, 64), nn.MaxPool2d(2)
            )
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Dropout(0.2),
                nn.Linear(64 * 5 * 5, 128),
                nn.ReLU(inplace=True),
                nn.Linear(128, n_classes),
            )

        def forward(self, x: Any) -> Any:  # Any: torch may read these annotations at export
            return self.head(self.features(x))

    return BallClassifierNet(len(CLASSIFIER_CLASSES) + 2)


def _load_crops(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """x, y, game and the centre offsets in ball radii."""
    from vision.yolo_geometry import CROP_BALL_PX

    if not path.is_file():
        raise TrainError(f"classifier data: expected crops at {path}, found nothing")
    d = np.load(path)
    off = d["off"] / (CROP_BALL_PX / 2.0) if "off" in d else np.zeros((len(d["y"]), 2), np.float32)
    return d["x"], d["y"], d["game"], off.astype(np.float32)


def _augment(x: torch.Tensor, off: torch.Tensor, rng_t: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Random rotation (a ball turns freely), flip, small shift and scale, brightness/colour gain,
    noise; ``off`` (n, 2), the ball centre's offset from the crop centre in ball radii, follows the
    geometric part."""
    import math

    import torch
    import torch.nn.functional as F

    from vision.yolo_geometry import CROP_BALL_PX, CROP_PX

    n = x.shape[0]
    a = torch.rand(n, generator=rng_t) * 2 * math.pi
    s = 1.0 + (torch.rand(n, generator=rng_t) - 0.5) * 0.12
    t = (torch.rand(n, 2, generator=rng_t) - 0.5) * 0.12
    flip = torch.where(torch.rand(n, generator=rng_t) < 0.5, -1.0, 1.0)
    cos, sin = torch.cos(a) / s, torch.sin(a) / s
    theta = torch.stack([torch.stack([cos * flip, -sin, t[:, 0]], 1), torch.stack([sin * flip, cos, t[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    # the grid maps output to input: p_in = A p_out + t, so the centre moves to A^-1 (p_in - t)
    k = CROP_BALL_PX / CROP_PX  # ball radii -> normalised crop coordinates
    p_in = off * k
    p_out = torch.linalg.solve(theta[:, :, :2], (p_in - theta[:, :, 2]).unsqueeze(-1)).squeeze(-1)
    off = p_out / k
    gain = 1.0 + (torch.rand(n, 3, 1, 1, generator=rng_t) - 0.5) * 0.3
    bright = 1.0 + (torch.rand(n, 1, 1, 1, generator=rng_t) - 0.5) * 0.5
    x = x * gain * bright + torch.randn(x.shape, generator=rng_t) * 0.015
    return x.clamp(0.0, 1.0), off


def _masks(games: np.ndarray) -> torch.Tensor:
    import torch

    m = np.array([game_mask(g) for g in GAMES], bool)
    return torch.from_numpy(np.where(m[games], 0.0, -1e4).astype(np.float32))


def evaluate_classifier(net: torch.nn.Module, x: np.ndarray, y: np.ndarray, g: np.ndarray, off: np.ndarray) -> dict:
    """Accuracy (overall and per game) and the median centre error of the ball crops in radii."""
    import torch

    net.eval()
    preds, offs = [], []
    C = len(CLASSIFIER_CLASSES)
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = torch.from_numpy(x[i : i + 512]).permute(0, 3, 1, 2).float() / 255.0
            o = net(xb)
            preds.append((o[:, :C] + _masks(g[i : i + 512])).argmax(1).numpy())
            offs.append(o[:, C:].numpy())
    p = np.concatenate(preds) if preds else np.zeros(0, int)
    po = np.concatenate(offs) if offs else np.zeros((0, 2))
    ball = y != C - 1
    err = np.hypot(*(po[ball] - off[ball]).T) if ball.any() else np.zeros(0)
    out = {
        "accuracy": float((p == y).mean()) if len(y) else float("nan"),
        "n": int(len(y)),
        "centre_err_median_radii": float(np.median(err)) if len(err) else float("nan"),
    }
    for gi, game in enumerate(GAMES):
        sel = g == gi
        if sel.any():
            out[f"{game}_accuracy"] = float((p[sel] == y[sel]).mean())
    return out


def train_classifier(
    crops_dir: Path | list[Path],
    epochs: int,
    out: Path = CLASSIFIER_ONNX,
    batch: int = 128,
    lr: float = 3e-3,
    threads: int = 2,
    seed: int = 0,
    minutes: float | None = None,
    init: Path | None = None,
    none_share: float = 0.15,
    log: Callable[[str], object] = print,
) -> dict:
    """Train on ``crops_dir/train.npz`` (several dirs: their train sets together), report on the
    first dir's ``val.npz``, export ONNX to ``out`` (the torch weights go to the cache's runs dir).
    ``init``: torch weights of an earlier run to start from (fine-tuning on more data costs a
    fraction of training anew on this machine's CPU)."""
    import torch
    import torch.nn.functional as F

    if epochs < 1:
        raise TrainError(f"classifier: expected epochs >= 1, got {epochs}")
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    dirs = [Path(d) for d in (crops_dir if isinstance(crops_dir, (list, tuple)) else [crops_dir])]
    parts = [_load_crops(d / "train.npz") for d in dirs]
    xtr, ytr, gtr, otr = (np.concatenate([p[i] for p in parts]) for i in range(4))
    xva, yva, gva, ova = _load_crops(dirs[0] / "val.npz")
    if not len(ytr):
        raise TrainError(f"classifier data: {crops_dir}/train.npz holds no crops")
    net = _net()
    frozen_bn = False
    if init is not None and Path(init).suffix == ".onnx":
        init_from_onnx(net, Path(init))
        frozen_bn = True
        log(f"classifier: starting from {init} (batch norms folded into the convolutions: kept frozen)")
    elif init is not None:
        if not Path(init).is_file():
            raise TrainError(f"classifier --init: expected torch weights at {init}, found nothing")
        try:
            net.load_state_dict(torch.load(str(init), map_location="cpu", weights_only=True))
        except (RuntimeError, KeyError) as e:
            raise TrainError(
                f"classifier --init: expected weights of this network at {init}, got: {str(e).splitlines()[0]}"
            ) from e
        log(f"classifier: starting from {init}")
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(ytr) + batch - 1) // batch)
    sched = None if minutes else torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    budget_s = 60.0 * minutes if minutes else None
    gen = torch.Generator().manual_seed(seed)
    X = torch.from_numpy(xtr).permute(0, 3, 1, 2).contiguous()
    Y = torch.from_numpy(ytr)
    Ofs = torch.from_numpy(otr)
    B = torch.from_numpy(ytr != len(CLASSIFIER_CLASSES) - 1).float()
    M = _masks(gtr)
    C = len(CLASSIFIER_CLASSES)
    # balance the classes: rare balls (a pool 8, a snooker pink) weigh as much as the many reds/none
    counts = np.bincount(ytr, minlength=len(CLASSIFIER_CLASSES)).astype(np.float64)
    cw = 1.0 / np.maximum(counts, 1.0)
    # ... but ``none`` (cloth, shadows, hands, the proposals that are no ball) gets ``none_share``
    # of the draws: it is what the classifier must reject on every frame, in every game
    present = counts > 0
    if present[C - 1] and present[: C - 1].any():
        cw[C - 1] = none_share / (1.0 - none_share) * present[: C - 1].sum() / counts[C - 1]
    w = torch.from_numpy(cw[ytr])
    t0 = time.time()
    hist = []
    for ep in range(epochs):
        net.train()
        if frozen_bn:
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        order = torch.multinomial(w, len(ytr), replacement=True, generator=gen)
        tot = 0.0
        for i in range(0, len(order), batch):
            idx = order[i : i + batch]
            xb, ob = _augment(X[idx].float() / 255.0, Ofs[idx], gen)
            o = net(xb)
            reg = (F.smooth_l1_loss(o[:, C:], ob, beta=0.05, reduction="none").sum(1) * B[idx]).mean()
            # label smoothing over the game's own classes only (the masked ones stay at zero)
            allowed = (M[idx] == 0).float()
            target = 0.95 * F.one_hot(Y[idx], C).float() + 0.05 * allowed / allowed.sum(1, keepdim=True)
            ce = -(target * F.log_softmax(o[:, :C] + M[idx], dim=1)).sum(1).mean()
            loss = ce + 2.0 * reg
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched is not None:
                sched.step()
            else:
                assert budget_s is not None  # no scheduler: a time budget
                f = min((time.time() - t0) / budget_s, 1.0)
                for g in opt.param_groups:
                    g["lr"] = lr * (f / 0.05 if f < 0.05 else 0.5 * (1.0 + np.cos(np.pi * (f - 0.05) / 0.95))) + 1e-6
            tot += float(loss.detach()) * len(idx)
        ev = evaluate_classifier(net, xva, yva, gva, ova)
        hist.append({"epoch": ep + 1, "loss": tot / len(order), **ev})
        log(
            f"classifier epoch {ep + 1}/{epochs}: loss {tot / len(order):.4f} val acc {ev['accuracy']:.4f} "
            f"centre err {ev['centre_err_median_radii']:.3f} r ({time.time() - t0:.0f} s)"
        )
        if budget_s is not None and time.time() - t0 >= budget_s:
            break
    wall = time.time() - t0
    export_classifier(net, Path(out))
    pt = default_cache_dir() / "runs" / f"{Path(out).stem}.pt"
    pt.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), pt)
    return {
        "epochs": len(hist),
        "wall_s": round(wall, 1),
        "train_crops": int(len(ytr)),
        "val": hist[-1],
        "onnx": str(out),
    }


def init_from_onnx(net: torch.nn.Module, path: Path) -> None:
    """Load a shipped classifier (:func:`export_classifier`'s ONNX) into ``net``: the exporter folds
    each batch norm into the convolution before it, so the convolutions take the folded weights
    and each batch norm becomes the identity plus the folded bias (mean 0, variance 1, scale 1); the
    trainer then keeps those batch norms frozen. Why: the shipped model's torch weights are not
    kept with it, and fine-tuning it costs a fraction of training anew on this machine's CPU."""
    import onnx
    import torch
    from onnx import numpy_helper

    if not path.is_file():
        raise TrainError(f"classifier --init: expected an ONNX classifier at {path}, found nothing")
    g = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [n for n in g.node if n.op_type == "Conv"]
    gemms = [n for n in g.node if n.op_type == "Gemm"]
    tconv = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    tbn = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    tlin = [m for m in net.modules() if isinstance(m, torch.nn.Linear)]
    if (len(convs), len(gemms)) != (len(tconv), len(tlin)):
        raise TrainError(
            f"classifier --init: expected {len(tconv)} Conv and {len(tlin)} Gemm nodes in {path}, "
            f"got {len(convs)} and {len(gemms)}"
        )
    with torch.no_grad():
        for node, conv, bn in zip(convs, tconv, tbn):
            w, b = inits[node.input[1]], inits[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise TrainError(
                    f"classifier --init: expected a conv of {tuple(conv.weight.shape)} in {path}, got {w.shape}"
                )
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b.copy()))
            if bn.running_mean is None or bn.running_var is None:
                raise TrainError("classifier --init: expected batch norms that track running statistics")
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for node, lin in zip(gemms, tlin):
            lin.weight.copy_(torch.from_numpy(inits[node.input[1]].copy()))
            lin.bias.copy_(torch.from_numpy(inits[node.input[2]].copy()))


def export_classifier(net: torch.nn.Module, out: Path) -> None:
    """ONNX with a dynamic batch, output (n, classes + 2): logits, then the centre offset in ball
    radii; metadata: ``classes`` (JSON list), ``crop_px``, ``crop_ball_px``."""
    import onnx
    import torch

    from vision.yolo_geometry import CROP_BALL_PX, CROP_PX

    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, CROP_PX, CROP_PX)
    torch.onnx.export(
        net,
        (dummy,),
        str(out),
        input_names=["crops"],
        output_names=["out"],
        dynamic_axes={"crops": {0: "n"}, "out": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    m = onnx.load(str(out))
    for k, v in {
        "classes": json.dumps(list(CLASSIFIER_CLASSES)),
        "crop_px": str(CROP_PX),
        "crop_ball_px": str(CROP_BALL_PX),
        "input": "BGR crops scaled to [0, 1], NCHW",
    }.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(out))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    d = sub.add_parser("detector", help="the YOLO ball finder")
    d.add_argument("--data", type=Path, required=True, help="DIR/yolo/data.yaml of models.dataset")
    d.add_argument("--epochs", type=int, default=30)
    d.add_argument("--imgsz", type=int, default=160, help="the tiles' size (models.dataset TILE_PX)")
    d.add_argument("--batch", type=int, default=16)
    d.add_argument("--workers", type=int, default=1)
    d.add_argument("--export-hw", default="320,640")
    d.add_argument("--out", type=Path, default=DETECTOR_ONNX)
    d.add_argument("--name", default="detector")
    d.add_argument("--threads", type=int, default=2)
    d.add_argument("--fraction", type=float, default=1.0)
    d.add_argument("--hours", type=float, help="cap on the training time (epochs re-planned to fit)")
    d.add_argument("--init", type=Path, help="YOLO weights (.pt) of an earlier run to fine-tune")
    d.add_argument("--lr0", type=float, help="initial learning rate (AdamW); for fine-tuning")
    c = sub.add_parser("classifier", help="the identity classifier on ball crops")
    c.add_argument(
        "--data",
        type=Path,
        nargs="+",
        required=True,
        help="DIR/crops of models.dataset (several: trained on together, validated on the first)",
    )
    c.add_argument("--epochs", type=int, default=30)
    c.add_argument("--batch", type=int, default=128)
    c.add_argument("--lr", type=float, default=3e-3)
    c.add_argument("--out", type=Path, default=CLASSIFIER_ONNX)
    c.add_argument("--threads", type=int, default=2)
    c.add_argument("--minutes", type=float, help="cap on the training time (learning rate scheduled over it)")
    c.add_argument(
        "--init", type=Path, help="an earlier run to start from: its torch weights (.pt) or its ONNX (the shipped one)"
    )
    a = ap.parse_args(argv)
    try:
        if a.what == "detector":
            hw = tuple(int(v) for v in a.export_hw.split(","))
            if len(hw) != 2:
                raise TrainError(f"--export-hw: expected H,W, got {a.export_hw!r}")
            res = train_detector(
                a.data,
                a.epochs,
                a.out,
                a.imgsz,
                hw,
                a.batch,
                a.workers,
                name=a.name,
                threads=a.threads,
                fraction=a.fraction,
                hours=a.hours,
                init=a.init,
                lr0=a.lr0,
            )
        else:
            res = train_classifier(a.data, a.epochs, a.out, a.batch, a.lr, a.threads, minutes=a.minutes, init=a.init)
    except ValueError as e:
        print(f"error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
