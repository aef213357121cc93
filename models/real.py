"""The real labelled photos: ``../shared/data/billiard-pool-coco`` (CC BY 4.0, "Billiard Pool" v5,
Roboflow Universe project billiard-ball-data-set/billiard-pool; see the model card).

Contract: :func:`real_images` yields, for one split (``train``, ``valid``, ``test``), each image
(BGR, as stored: 800x800, letterboxed by the exporter) with its balls as (label, box x0 y0 x1 y1
px), labels in pool's names (``ball 1`` .. ``ball 9`` -> ``1`` .. ``9``, ``white ball`` -> ``cue``;
the ``pool table`` and ``rack`` boxes are not balls). :func:`default_root` finds the folder
beside the repository; callers skip cleanly where it is absent. The photos are read where they
lie, never copied into the repository.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from vision.yolo import YoloDetector

REAL_LABELS = {**{f"ball {i}": str(i) for i in range(1, 10)}, "white ball": "cue"}


def default_root() -> Path:
    return Path(__file__).resolve().parents[2] / "shared" / "data" / "billiard-pool-coco"


def real_images(
    root: Path, split: str
) -> Iterator[tuple[str, np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]]:
    """(file name, image, [(label, box)]) of every readable image of the split."""
    import cv2

    ann = Path(root) / split / "_annotations.coco.json"
    if not ann.is_file():
        return
    d = json.loads(ann.read_text())
    cats = {c["id"]: c["name"] for c in d["categories"]}
    by_img: dict[int, list] = {}
    for a in d["annotations"]:
        name = cats.get(a["category_id"])
        if name in REAL_LABELS:
            x, y, w, h = a["bbox"]
            by_img.setdefault(a["image_id"], []).append(
                (REAL_LABELS[name], (float(x), float(y), float(x + w), float(y + h)))
            )
    for im in d["images"]:
        img = cv2.imread(str(Path(root) / split / im["file_name"]))
        if img is not None:
            yield im["file_name"], img, by_img.get(im["id"], [])


def photo_detector(detector_path: Path | None = None, classifier_path: Path | None = None, **kw: Any) -> YoloDetector:
    """The trained model as it runs on a photo (pool labels): a photo has no table geometry, so the
    rectified geometry is a placeholder and only pixels are used (the callers size each crop by its
    box: ``detect_with_boxes(radius_from_box=True)``, or ``classify`` with the box's radius);
    ``kw``: :class:`vision.yolo.YoloDetector`'s thresholds (``conf``, ``min_score`` ...)."""
    from vision.rectify import RectifiedGeometry
    from vision.yolo import YoloDetector

    geo = RectifiedGeometry(1600.0, 1600.0, 0.0, 0.5, 1.0)
    return YoloDetector(geo, 11.0, "pool", detector_path, classifier_path, **kw)
