"""bench/light.py: the gain each variant puts on a clip's frames, and a clip written again under it
keeps its frames, size and rate and carries its truth and referee input beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_script import bench_script


@pytest.fixture(scope="module")
def light():
    yield from bench_script("light")


@pytest.mark.parametrize(
    "variant, gains",
    [
        ("original", [1.0, 1.0, 1.0, 1.0, 1.0]),
        ("brighter", [1.0, 1.1125, 1.225, 1.3375, 1.45]),
        ("darker", [1.0, 0.9, 0.8, 0.7, 0.6]),
        ("step", [1.0, 1.0, 1.3, 1.3, 1.3]),
    ],
)
def test_the_gain_of_each_frame(light, variant: str, gains: list[float]) -> None:
    assert [light.gain(variant, i, 5) for i in range(5)] == pytest.approx(gains)


def test_an_unknown_variant_is_refused(light) -> None:
    with pytest.raises(ValueError, match="expected one of original, brighter"):
        light.gain("sepia", 0, 5)


def test_a_clip_written_again_under_a_light(light, tmp_path: Path) -> None:
    import cv2
    import numpy as np

    src = tmp_path / "clip.mp4"
    w = cv2.VideoWriter(str(src), cv2.VideoWriter.fourcc(*"mp4v"), 30.0, (64, 48))
    for _ in range(10):
        w.write(np.full((48, 64, 3), 100, np.uint8))
    w.release()
    (tmp_path / "clip.truth.json").write_text("{}")
    out = light.write_variant(src, "darker", tmp_path / "darker")
    assert (tmp_path / "darker" / "clip.truth.json").is_file()

    def means(path: Path) -> tuple[list[float], float]:
        cap = cv2.VideoCapture(str(path))
        got = []
        while True:
            ok, img = cap.read()
            if not ok:
                break
            got.append(float(img.mean()))
        return got, cap.get(cv2.CAP_PROP_FPS)

    before, _ = means(src)
    after, fps = means(out)
    assert len(after) == 10 and fps == pytest.approx(30.0)
    # the first frame as it was, the last at 0.6 of it (within the codec's rounding)
    assert after[0] == pytest.approx(before[0], abs=3.0) and after[-1] == pytest.approx(0.6 * before[-1], abs=3.0)
