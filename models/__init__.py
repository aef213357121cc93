"""Detector models: the trained weights, the dataset and training code that made them, the model card.

- :mod:`models.offline` -- an ultralytics that touches no network (config dir and font under the
  project's cache, settings sync off, threads raised); call it before training.
- :mod:`models.classes` -- the label sets per game and the classifier's class order.
- :mod:`models.scenes` -- random rendered, rectified table views with per-ball truth.
- :mod:`models.real` -- the real labelled photos of ``../shared/data/billiard-pool-coco``.
- :mod:`models.dataset` -- ``python -m models.dataset``: YOLO tiles, classifier crops, held-out views.
- :mod:`models.train` -- ``python -m models.train detector|classifier``: training and ONNX export.
- :mod:`models.evaluate` -- ``python -m models.evaluate``: mAP50, identity accuracy, ms/frame.
- :mod:`models.quantize` -- ``python -m models.quantize``: the int8 finder from the float one.

Shipped files: ``ball_detector.onnx`` (the ball finder, int8), ``ball_detector_fp32.onnx`` (the
float finder it was quantized from, for evaluation and re-quantization), ``ball_classifier.onnx`` (identity and
centre of each ball), ``ball_detector.yaml`` (the finder's network) and ``MODEL_CARD.md``. They
run without torch through :mod:`vision.yolo`. Nothing is imported at package import: the names of
``__all__`` load from their module on first use (``models.train_detector`` imports
:mod:`models.train`, which itself imports torch only inside its functions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.lazy import lazy_exports

# public name -> the module that defines it
_SOURCE: dict[str, str] = {
    "GAMES": "classes",
    "GAME_LABELS": "classes",
    "CLASSIFIER_CLASSES": "classes",
    "NONE_CLASS": "classes",
    "GameError": "classes",
    "check_game": "classes",
    "label_of": "classes",
    "class_index": "classes",
    "game_mask": "classes",
    "OfflineSetupError": "offline",
    "default_cache_dir": "offline",
    "prepare_environment": "offline",
    "prepare_ultralytics": "offline",
    "DatasetError": "dataset",
    "generate": "dataset",
    "add_real": "dataset",
    "TrainError": "train",
    "train_detector": "train",
    "train_classifier": "train",
    "evaluate_heldout": "evaluate",
    "evaluate_real": "evaluate",
}

__all__ = [
    "GAMES",
    "GAME_LABELS",
    "CLASSIFIER_CLASSES",
    "NONE_CLASS",
    "GameError",
    "check_game",
    "label_of",
    "class_index",
    "game_mask",
    "OfflineSetupError",
    "default_cache_dir",
    "prepare_environment",
    "prepare_ultralytics",
    "DatasetError",
    "generate",
    "add_real",
    "TrainError",
    "train_detector",
    "train_classifier",
    "evaluate_heldout",
    "evaluate_real",
]

if TYPE_CHECKING:
    from models.classes import (
        CLASSIFIER_CLASSES,
        GAME_LABELS,
        GAMES,
        NONE_CLASS,
        GameError,
        check_game,
        class_index,
        game_mask,
        label_of,
    )
    from models.dataset import DatasetError, add_real, generate
    from models.evaluate import evaluate_heldout, evaluate_real
    from models.offline import OfflineSetupError, default_cache_dir, prepare_environment, prepare_ultralytics
    from models.train import TrainError, train_classifier, train_detector
else:
    __getattr__, __dir__ = lazy_exports(__name__, _SOURCE, globals())
