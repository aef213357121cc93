"""vision/components.py: the band-by-band components are OpenCV's, stats, order and pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.components import sparse_components


def _masks() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(5)
    out = []
    balls = np.zeros((370, 725), np.uint8)
    for x, y in [(100, 100), (300, 102), (600, 50), (30, 360), (700, 0)]:
        cv2.circle(balls, (x, y), 8, 255, -1)
    out.append(("balls, two on one band, two at the borders", balls))
    ring = np.zeros((200, 300), np.uint8)
    cv2.circle(ring, (150, 100), 60, 255, 6)
    cv2.circle(ring, (150, 100), 10, 255, -1)  # a component inside another's hole
    cv2.line(ring, (0, 199), (299, 0), 255, 1)  # a diagonal: 8- but not 4-connected runs
    out.append(("ring with a disc inside, a diagonal line", ring))
    out.append(("specks everywhere", (rng.random((150, 400)) > 0.97).astype(np.uint8) * 255))
    out.append(("empty", np.zeros((50, 60), np.uint8)))
    out.append(("full", np.full((40, 30), 255, np.uint8)))
    gaps = np.zeros((120, 80), np.uint8)
    gaps[10:12, 5:70] = 1
    gaps[30:31, 5:9] = 1  # 18 empty rows below the first: a band of its own
    gaps[40:42, 60:79] = 7  # 9 empty rows: merged with the one above
    out.append(("bands apart and merged, non-255 values", gaps))
    blocks = np.zeros((100, 300), np.uint8)
    cv2.rectangle(blocks, (200, 5), (280, 90), 255, -1)  # a hand's blob on the right, starting higher
    cv2.circle(blocks, (40, 30), 8, 255, -1)  # a ball on the left of the same band
    cv2.circle(blocks, (120, 20), 8, 255, -1)  # and one between them: three blocks of columns
    blocks[60, 10:30] = 255  # a line below the left ball, within its block
    out.append(("blocks side by side in one band, the right one first in raster order", blocks))
    islands = np.zeros((160, 400), np.uint8)
    for y0, x0 in [(3, 5), (3, 101), (61, 47), (61, 333), (117, 200)]:  # odd offsets, 17+ apart
        islands[y0 : y0 + 30, x0 : x0 + 40] = (rng.random((30, 40)) > 0.8).astype(np.uint8) * 255
    out.append(("islands of specks at odd rows and columns", islands))
    return out


@pytest.mark.parametrize("connectivity", [8, 4])
@pytest.mark.parametrize("name, mask", _masks(), ids=[n for n, _ in _masks()])
def test_components_band_by_band_are_opencvs(name: str, mask: np.ndarray, connectivity: int) -> None:
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
    got = sparse_components(mask, connectivity=connectivity)
    np.testing.assert_array_equal(got.stats, stats[1:])
    for k in range(len(got)):
        x, y, w, h, _ = stats[k + 1]
        x0, y0, x1, y1 = max(0, x - 3), max(0, y - 3), min(mask.shape[1], x + w + 3), min(mask.shape[0], y + h + 3)
        np.testing.assert_array_equal(got.pixels(k, x0, y0, x1, y1), lab[y0:y1, x0:x1] == k + 1)


def test_a_mask_that_is_not_2d_uint8_is_refused() -> None:
    with pytest.raises(ValueError, match="expected a 2-D uint8 mask"):
        sparse_components(np.zeros((4, 4), np.float32))
