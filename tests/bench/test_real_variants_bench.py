"""bench/real_variants.py's transforms: each variant keeps a frame's size and type (the nine-ball
comparisons need no pixel labels), is the same on every run, and changes the frame as it says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

_BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def variants():
    sys.path.insert(0, str(_BENCH))  # real_variants imports bench/real.py beside it
    try:
        spec = importlib.util.spec_from_file_location("bench_real_variants", _BENCH / "real_variants.py")
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.path.remove(str(_BENCH))


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
