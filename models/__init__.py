"""Detector models: the trained weights, the dataset and training code that made them, the model card.

- :mod:`models.offline` -- an ultralytics that touches no network (config dir and font under the
  project's cache, settings sync off, threads raised); call it before training.
- :mod:`models.classes` -- the label sets per game and the classifier's class order.
- :mod:`models.scenes` -- random rendered, rectified table views with per-ball truth.
- :mod:`models.real` -- the real labelled photos of ``../shared/data/billiard-pool-coco``.
- :mod:`models.dataset` -- ``python -m models.dataset``: YOLO tiles, classifier crops, held-out views.
- :mod:`models.train` -- ``python -m models.train detector|classifier``: training and ONNX export.
- :mod:`models.evaluate` -- ``python -m models.evaluate``: mAP50, identity accuracy, ms/frame.

Shipped files: ``ball_detector.onnx`` (the ball finder), ``ball_classifier.onnx`` (identity and
centre of each ball), ``ball_detector.yaml`` (the finder's network) and ``MODEL_CARD.md``. They
run without torch through :mod:`vision.yolo`. Nothing is imported at package import.
"""
