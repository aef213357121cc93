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
