"""vision.median: the sorting-network median equals numpy's, for odd and even counts."""

from __future__ import annotations

import numpy as np
import pytest

from vision.median import median_image


@pytest.mark.parametrize(
    "count, shape",
    [
        (1, (4, 5, 3)),
        (2, (4, 5, 3)),
        (3, (6, 7)),
        (4, (6, 7, 3)),
        (7, (31, 17, 3)),
        (8, (9, 3)),
        (9, (2, 2, 3)),
    ],
)
def test_median_image_equals_numpy(count: int, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(count)
    images = [rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(count)]
    expected = np.median(np.stack(images), axis=0).astype(np.uint8)
    got = median_image(images)
    assert got.dtype == np.uint8 and got.shape == shape
    np.testing.assert_array_equal(got, expected)


def test_median_image_leaves_inputs_alone() -> None:
    rng = np.random.default_rng(3)
    images = [rng.integers(0, 256, (5, 5, 3), dtype=np.uint8) for _ in range(5)]
    copies = [im.copy() for im in images]
    median_image(images)
    for im, c in zip(images, copies):
        np.testing.assert_array_equal(im, c)


@pytest.mark.parametrize(
    "images, message",
    [
        ([], "got none"),
        ([np.zeros((2, 2), np.uint8), np.zeros((2, 3), np.uint8)], "one shape"),
        ([np.zeros((2, 2), np.float32)], "uint8"),
    ],
)
def test_median_image_rejects_bad_input(images: list[np.ndarray], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        median_image(images)
