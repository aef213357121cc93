"""The shipped int8 ball finder (models/quantize.py, issue 10): it finds what the float finder
finds, and its recipe keeps the head's mixed-range tensor in float."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.quantize import FP32_DETECTOR, HEAD, INT8_DETECTOR, finder_input
from vision.yolo import decode_yolo

REPO = Path(__file__).resolve().parents[2]


def _session(path: Path):  # type: ignore[no-untyped-def]
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


@pytest.mark.parametrize(("clip", "frame"), [("pool/combination_1080p60.mp4", 0), ("pool/snooker_pot_720p30.mp4", 60)])
def test_the_int8_finder_finds_the_balls_the_float_one_finds(clip: str, frame: int) -> None:
    cap = cv2.VideoCapture(str(REPO / "sample_videos" / clip))
    cap.set(cv2.CAP_PROP_POS_FRAMES, frame)
    ok, img = cap.read()
    cap.release()
    assert ok
    x = finder_input(img, (320, 640))
    found = {}
    for name, path in (("float", FP32_DETECTOR), ("int8", INT8_DETECTOR)):
        s = _session(path)
        boxes, scores = decode_yolo(s.run(None, {s.get_inputs()[0].name: x})[0], 0.25, 0.5)
        found[name] = (boxes[:, :2] + boxes[:, 2:]) / 2.0
    a, b = found["float"], found["int8"]
    assert len(a) > 0
    # every float box has an int8 box within 2 input px, and the counts are close
    d = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
    assert (d.min(axis=1) <= 2.0).mean() >= 0.9
    assert abs(len(a) - len(b)) <= max(1, len(a) // 10)


def test_the_head_keeps_its_non_convolutions_in_float() -> None:
    pytest.importorskip("onnx")
    from models.quantize import head_nodes

    names = head_nodes(FP32_DETECTOR)
    assert names and all(HEAD in n for n in names)
    import onnx

    ops = {n.name: n.op_type for n in onnx.load(str(FP32_DETECTOR)).graph.node}
    assert "Conv" not in {ops[n] for n in names}
    assert {"Concat", "Sigmoid"} <= {ops[n] for n in names}  # the mixed-range output stays float


def test_no_calibration_input_is_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from models.quantize import QuantizeError, quantize_detector

    with pytest.raises(QuantizeError, match="calibration images"):
        quantize_detector(FP32_DETECTOR, tmp_path / "out.onnx", [], tmp_path)


def test_the_int8_classifier_keeps_its_output_layer_in_float_and_reads_as_the_float_one(tmp_path: Path) -> None:
    # issue 10, "cheaper model": the classifier's last layer gives the identity logits and the
    # ball centre's regression together; int8 there moved centres 0.8 mm at the median
    onnx = pytest.importorskip("onnx")
    from models.quantize import FP32_CLASSIFIER, classifier_inputs, output_layer, quantize_classifier

    rng = np.random.default_rng(0)
    crops = np.zeros((48, 40, 40, 3), np.uint8) + rng.integers(60, 120, (48, 1, 1, 3), dtype=np.uint8)
    for c in crops:  # a ball of one colour on cloth, as the crops are cut
        cv2.circle(c, (20, 20), 14, tuple(int(v) for v in rng.integers(0, 256, 3)), -1, cv2.LINE_AA)
    f = tmp_path / "crops.npz"
    np.savez(f, x=crops)
    inputs = classifier_inputs([f], per_file=48)
    out = quantize_classifier(FP32_CLASSIFIER, tmp_path / "cls_int8.onnx", inputs, tmp_path)
    last = output_layer(FP32_CLASSIFIER)
    nodes = onnx.load(str(out)).graph.node
    assert any(n.op_type == "QuantizeLinear" for n in nodes), "nothing was quantized"
    assert [n.op_type for n in nodes if n.name in last] == ["Gemm"], "the output layer stays a float Gemm"
    x = inputs[0]
    a = _session(FP32_CLASSIFIER).run(None, {"crops": x})[0]
    b = _session(out).run(None, {"crops": x})[0]
    assert a.shape == b.shape
    assert (a.argmax(1) == b.argmax(1)).mean() >= 0.9


def test_no_calibration_crops_is_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from models.quantize import FP32_CLASSIFIER, QuantizeError, classifier_inputs, quantize_classifier

    with pytest.raises(QuantizeError, match="crops file"):
        classifier_inputs([tmp_path / "absent.npz"])
    with pytest.raises(QuantizeError, match="calibration crops"):
        quantize_classifier(FP32_CLASSIFIER, tmp_path / "out.onnx", [], tmp_path)
