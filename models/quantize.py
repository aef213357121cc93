"""``python -m models.quantize``: the shipped ball finder in int8, made from the trained float one
(``--classifier CROPS...``: the identity classifier in int8, measured, not shipped yet).

Contract: reads the float ONNX finder (``models/ball_detector_fp32.onnx``, what ``models.train
detector`` exports) and writes ``models/ball_detector.onnx``, what :mod:`vision.yolo` runs: ONNX
Runtime static quantization, QDQ format, weights int8 per output channel, activations uint8 with
ranges (min/max) measured on calibration inputs. Deterministic for the same inputs.

Why: on pool and snooker tables the finder is most of the analysis (issue 10); on this 2-core
machine (AVX-512 VNNI) the int8 network runs in about half the time of the float one (29 -> 14 ms
a 320x640 input, one thread). Measured against the float finder in ``models/MODEL_CARD.md``
("Detector int8").

What is left in float: the non-convolution nodes of the detection head (``model.22``: the
distribution-focal decoding, the sigmoid, the concatenation). The head joins box coordinates
(0-640 px) and class scores (0-1) in one output tensor, which one int8 scale cannot hold: quantized
whole, every score came out 0.

Calibration inputs: the real photos of the COCO set's *train* split (its test split measures the
result, so it is never seen here), letterboxed as :meth:`vision.yolo.YoloDetector.find` does, and
frames of the bundled pool and snooker sample clips (the rendered look the finder was trained on).
Needs the ``train`` extra (``onnx``).

The classifier (``--classifier``): the same quantization of ``models/ball_classifier.onnx``, its
output layer left in float (:func:`output_layer`), ranges from crops of ``models.dataset``'s
files (synthetic views and the COCO train split's photos); written under ``runs/quantize`` and
measured in ``models/MODEL_CARD.md`` ("Classifier int8"): the pipeline still runs the float one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from common.errors import TabletrackError

MODELS_DIR = Path(__file__).resolve().parent
REPO = MODELS_DIR.parent
FP32_DETECTOR = MODELS_DIR / "ball_detector_fp32.onnx"
INT8_DETECTOR = MODELS_DIR / "ball_detector.onnx"
#: the identity classifier as training exports it (float; shipped as it is)
FP32_CLASSIFIER = MODELS_DIR / "ball_classifier.onnx"
DEFAULT_COCO = REPO.parent / "shared" / "data" / "billiard-pool-coco"
#: nodes whose name holds this stay in float unless they are convolutions (see the module docstring)
HEAD = "model.22"


class QuantizeError(TabletrackError):
    """A quantization request that cannot be run (no model, no calibration input)."""


def finder_input(image_bgr: np.ndarray, size_hw: tuple[int, int]) -> np.ndarray:
    """The finder's input tensor (1, 3, H, W) of one image, as :meth:`vision.yolo.YoloDetector.find`
    makes it (letterboxed, RGB, 0-1)."""
    from vision.yolo_geometry import letterbox

    img, _ = letterbox(image_bgr, size_hw)
    return np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1)[None], np.float32) / 255.0


def calibration_images(coco: Path | None, clips: list[Path], every: int = 8, limit: int = 48) -> Iterator[np.ndarray]:
    """Every ``every``-th photo of the COCO train split (``limit`` at most), then four frames of
    each clip (0, 50, 100, 150)."""
    import cv2

    if coco is not None and (coco / "train").is_dir():
        for p in sorted((coco / "train").glob("*.jpg"))[::every][:limit]:
            img = cv2.imread(str(p))
            if img is not None:
                yield img
    for clip in clips:
        cap = cv2.VideoCapture(str(clip))
        try:
            for k in range(0, 200, 50):
                cap.set(cv2.CAP_PROP_POS_FRAMES, k)
                ok, frame = cap.read()
                if ok:
                    yield frame
        finally:
            cap.release()


def head_nodes(model_path: Path) -> list[str]:
    """The names of the head's nodes that stay in float."""
    import onnx

    m = onnx.load(str(model_path))
    return [n.name for n in m.graph.node if HEAD in n.name and n.op_type != "Conv"]


def quantize_detector(fp32: Path, out: Path, inputs: list[np.ndarray], work_dir: Path) -> Path:
    """Write the int8 finder of ``fp32`` to ``out``, ranges from ``inputs`` (finder tensors)."""
    if not fp32.is_file():
        raise QuantizeError(
            f"quantize: expected the float finder at {fp32}, found nothing (python -m models.train detector)"
        )
    if not inputs:
        raise QuantizeError(
            "quantize: expected calibration images (the COCO train split or the sample clips), got none"
        )
    work_dir.mkdir(parents=True, exist_ok=True)
    pre = work_dir / "detector_pre.onnx"
    return _quantize(fp32, pre, out, inputs, lambda: head_nodes(pre))


def output_layer(model_path: Path) -> list[str]:
    """The classifier's last fully connected layer, which stays in float: it gives the identity
    logits and the regression of the ball's centre together, and the centre wants the precision
    (int8 there moved the centre 0.027 ball radii, 0.8 mm, at the median; float there, 0.002)."""
    import onnx

    gemms = [n.name for n in onnx.load(str(model_path)).graph.node if n.op_type == "Gemm"]
    return gemms[-1:]


def classifier_inputs(crop_files: list[Path], per_file: int = 64, batch: int = 32, seed: int = 0) -> list[np.ndarray]:
    """Calibration tensors for the classifier: ``per_file`` crops drawn from each crops file
    (``x``: N x 40 x 40 x 3 BGR, as ``models.dataset`` writes them), in the layout
    :meth:`vision.yolo.YoloDetector.classify` feeds (N x 3 x 40 x 40, 0..1), ``batch`` at a time."""
    rng = np.random.default_rng(seed)
    picked = []
    for f in crop_files:
        if not f.is_file():
            raise QuantizeError(f"quantize: expected a crops file (.npz with x) at {f}, found nothing")
        x = np.load(f)["x"]
        picked.append(x[rng.choice(len(x), min(per_file, len(x)), replace=False)])
    x = np.concatenate(picked) if picked else np.zeros((0, 40, 40, 3), np.uint8)
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255.0
    return [x[i : i + batch] for i in range(0, len(x), batch)]


def quantize_classifier(fp32: Path, out: Path, inputs: list[np.ndarray], work_dir: Path) -> Path:
    """Write the int8 classifier of ``fp32`` to ``out`` (its output layer in float:
    :func:`output_layer`), ranges from ``inputs`` (:func:`classifier_inputs`)."""
    if not fp32.is_file():
        raise QuantizeError(
            f"quantize: expected the float classifier at {fp32}, found nothing (python -m models.train classifier)"
        )
    if not inputs:
        raise QuantizeError("quantize: expected calibration crops (--classifier CROPS.npz ...), got none")
    work_dir.mkdir(parents=True, exist_ok=True)
    pre = work_dir / "classifier_pre.onnx"
    return _quantize(fp32, pre, out, inputs, lambda: output_layer(pre))


def _quantize(fp32: Path, pre: Path, out: Path, inputs: list[np.ndarray], keep_float: Callable[[], list[str]]) -> Path:
    """Static QDQ quantization of ``fp32`` to ``out`` (weights int8 per output channel,
    activations uint8, min/max ranges from ``inputs``), the nodes ``keep_float()`` names (read
    from the pre-processed model ``pre``) left in float."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name = onnx.load(str(fp32)).graph.input[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._it = iter(inputs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            x = next(self._it, None)
            return None if x is None else {name: x}

    quant_pre_process(str(fp32), str(pre))
    quantize_static(
        str(pre),
        str(out),
        Reader(),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        nodes_to_exclude=keep_float(),
        calibrate_method=CalibrationMethod.MinMax,
    )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--fp32", type=Path, default=FP32_DETECTOR)
    ap.add_argument("--out", type=Path, default=INT8_DETECTOR)
    ap.add_argument("--coco", type=Path, default=DEFAULT_COCO, help="billiard-pool-coco (its train split)")
    ap.add_argument("--work", type=Path, default=REPO / "runs" / "quantize")
    ap.add_argument(
        "--classifier",
        type=Path,
        nargs="+",
        metavar="CROPS",
        help="quantize the identity classifier instead (--fp32 default models/ball_classifier.onnx, --out default "
        "runs/quantize/ball_classifier_int8.onnx), calibrated on these crops files (models.dataset's crops/train.npz)",
    )
    args = ap.parse_args(argv)
    if args.classifier:
        fp32 = FP32_CLASSIFIER if args.fp32 == FP32_DETECTOR else args.fp32
        out = args.work / "ball_classifier_int8.onnx" if args.out == INT8_DETECTOR else args.out
        try:
            inputs = classifier_inputs(list(args.classifier))
            quantize_classifier(fp32, out, inputs, args.work)
        except TabletrackError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"written {out} from {fp32} ({sum(len(x) for x in inputs)} calibration crops)")
        return 0
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    size = ort.InferenceSession(str(args.fp32), so, providers=["CPUExecutionProvider"]).get_inputs()[0].shape[2:]
    clips = sorted((REPO / "sample_videos" / "pool").glob("*.mp4"))
    coco = args.coco if args.coco.is_dir() else None
    inputs = [finder_input(img, (int(size[0]), int(size[1]))) for img in calibration_images(coco, clips)]
    try:
        quantize_detector(args.fp32, args.out, inputs, args.work)
    except TabletrackError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"written {args.out} from {args.fp32} ({len(inputs)} calibration inputs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
