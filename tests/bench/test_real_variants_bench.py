"""bench/real_variants.py's transforms: each variant keeps a frame's size and type (the nine-ball
comparisons need no pixel labels), is the same on every run, and changes the frame as it says."""

from __future__ import annotations

import numpy as np
import pytest
from bench_script import bench_script


@pytest.fixture(scope="module")
def variants():
    yield from bench_script("real_variants")


@pytest.mark.parametrize(
    "name, changes",
    [
        ("crf32", "nothing (the encoding is the variant)"),
        ("bright", "lighter"),
        ("warm", "redder"),
        ("noise", "noisier"),
        ("blur", "softer"),
        ("tilt", "turned"),
    ],
)
def test_the_extra_nine_ball_variants(variants, name: str, changes: str) -> None:
    rng = np.random.default_rng(1)
    img = rng.integers(40, 200, (72, 128, 3), dtype=np.uint8)
    size, tf = variants.transform(name, 128, 72)
    out = tf(img, False)
    assert size == (128, 72) and out.shape == img.shape and out.dtype == np.uint8, name
    again = variants.transform(name, 128, 72)[1](img, False)
    assert np.array_equal(out, again), f"{name}: the same on every run"
    diff = out.astype(int) - img.astype(int)
    if changes.startswith("nothing"):
        assert not diff.any()
    elif changes == "lighter":
        assert diff.mean() > 5
    elif changes == "redder":
        assert diff[..., 2].mean() > 5 and diff[..., 0].mean() < -5
    elif changes == "noisier":
        assert 4 < diff.std() < 8
    elif changes == "softer":
        assert out.astype(float).std() < img.astype(float).std()
    else:
        assert np.abs(diff).mean() > 10


def test_the_cut_variant_starts_at_its_frame(variants, tmp_path) -> None:
    import cv2

    src = tmp_path / "src.mp4"
    writer = cv2.VideoWriter(str(src), cv2.VideoWriter_fourcc(*"mp4v"), 25.0, (128, 72))
    for i in range(12):
        writer.write(np.full((72, 128, 3), 20 * i, np.uint8))  # each frame its own grey: 0, 20, ...
    writer.release()
    out = {"cut": tmp_path / "cut.mp4", "mirror": tmp_path / "mirror.mp4"}
    variants.write_variants(src, out, cut_frame=5)

    def greys(path) -> list[float]:
        cap, vals = cv2.VideoCapture(str(path)), []
        while True:
            ok, f = cap.read()
            if not ok:
                return vals
            vals.append(float(f.mean()))

    cut, whole = greys(out["cut"]), greys(out["mirror"])
    assert len(whole) == 12 and len(cut) == 7
    assert cut == pytest.approx(whole[5:], abs=2.0)  # frame 5 first, the rest as they were
