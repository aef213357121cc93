"""The classifier's quarter-turn reads (vision/yolo.py ``turns``, ``turn_below``; issue 13 item 2):
a crop read under ``turn_below`` is read again turned a quarter, a half and three quarters, and
its identity logits are the mean of the four reads; its centre stays the unturned crop's. A sure
read is not read again, and ``turns=1`` never reads again. The classifier is a stand-in whose
read depends on where in the crop a bright mark lies, so that turning the crop changes it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.rectify import RectifiedGeometry
from vision.yolo import YoloDetector

GEOMETRY = RectifiedGeometry(2540.0, 1270.0, 28.6, 0.5, 28.6)
MARKED = (100.0, 100.0)  # a crop with the mark in its top-left quarter
PLAIN = (300.0, 100.0)  # a crop without it


class MarkReader:
    """ONNX Runtime's session call, standing in for the classifier: the crop's top-left quarter
    bright -> ``first`` 2.0, ``second`` 1.5 (unsure: 0.62 against 0.38); else ``second`` 3.0
    (sure); every other class -10; centre offsets ``(0.1, 0)`` for the marked crop, ``(0.5, 0.5)``
    otherwise. Records each batch's size."""

    def __init__(self, n: int, first: int, second: int) -> None:
        self.n, self.first, self.second = n, first, second
        self.batches: list[int] = []

    def get_inputs(self) -> list:
        return [type("Input", (), {"name": "x"})()]

    def run(self, names: object, feeds: dict) -> list:
        x = feeds["x"]
        self.batches.append(len(x))
        h, w = x.shape[2] // 2, x.shape[3] // 2
        out = np.full((len(x), self.n + 2), -10.0, np.float32)
        for i, crop in enumerate(x):
            quarters = [crop[:, :h, :w].mean(), crop[:, :h, w:].mean(), crop[:, h:, :w].mean(), crop[:, h:, w:].mean()]
            if int(np.argmax(quarters)) == 0 and quarters[0] - float(np.median(quarters)) > 0.05:
                out[i, self.first], out[i, self.second] = 2.0, 1.5
                out[i, self.n :] = (0.1, 0.0)
            else:
                out[i, self.second] = 3.0
                out[i, self.n :] = (0.5, 0.5)
        return [out]


def _view() -> np.ndarray:
    view = np.full((400, 800, 3), 60, np.uint8)
    u, v = MARKED
    view[int(v) - 9 : int(v) - 2, int(u) - 9 : int(u) - 2] = 255  # up and left of the marked crop's centre
    return view


def _detector(turns: int = 4, turn_below: float = 0.9) -> tuple[YoloDetector, MarkReader, int, int]:
    det = YoloDetector(GEOMETRY, 28.6, "pool", turns=turns, turn_below=turn_below)
    first, second = det.classes.index("pool:9"), det.classes.index("pool:1")
    reader = MarkReader(len(det.classes), first, second)
    det._cls = reader  # type: ignore[assignment]
    return det, reader, det.labels.index("9"), det.labels.index("1")


def test_an_unsure_read_is_the_mean_of_the_four_quarter_turns() -> None:
    det, reader, nine, one = _detector()
    p, u, v = det.classify(_view(), np.array([MARKED[0]]), np.array([MARKED[1]]), refine=0)
    # unturned: the 9 (2.0 against 1.5); turned, the mark leaves the top-left quarter: the 1 (3.0)
    assert reader.batches == [1, 3]
    logit_9, logit_1 = (2.0 + 3 * -10.0) / 4.0, (1.5 + 3 * 3.0) / 4.0
    assert p[0, one] / p[0, nine] == pytest.approx(np.exp(logit_1 - logit_9), rel=1e-5)
    assert int(np.argmax(p[0])) == one
    # the centre is the unturned read's (0.1 of the ball's crop half-width to the right)
    assert v[0] == pytest.approx(MARKED[1])
    assert u[0] > MARKED[0]


@pytest.mark.parametrize(
    ("turns", "turn_below", "why"),
    [
        (1, 0.9, "no turned views asked for"),
        (4, 0.5, "the read (0.62) is sure enough for this bar"),
    ],
)
def test_no_second_read_where_none_is_due(turns: int, turn_below: float, why: str) -> None:
    det, reader, nine, _ = _detector(turns, turn_below)
    p, _, _ = det.classify(_view(), np.array([MARKED[0]]), np.array([MARKED[1]]), refine=0)
    assert reader.batches == [1], why
    assert int(np.argmax(p[0])) == nine, why


def test_only_the_unsure_crops_are_read_again() -> None:
    det, reader, nine, one = _detector()
    us, vs = np.array([PLAIN[0], MARKED[0]]), np.array([PLAIN[1], MARKED[1]])
    p, _, _ = det.classify(_view(), us, vs, refine=0)
    assert reader.batches == [2, 3]  # both read once, the marked one three times more
    assert int(np.argmax(p[0])) == one and p[0, one] > 0.99  # the plain crop's sure read, untouched
    assert int(np.argmax(p[1])) == one


@pytest.mark.parametrize("turns", [0, 5])
def test_turns_outside_one_to_four_are_refused(turns: int) -> None:
    with pytest.raises(ValueError, match="quarter-turn"):
        YoloDetector(GEOMETRY, 28.6, "pool", turns=turns)
