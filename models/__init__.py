"""Detector models: weights, the dataset and training code that made them, the model card.

Empty in this release: the classical detector (:mod:`vision.classical`) serves the carom table.
The trained YOLO detector for pool and snooker balls comes with the next issue and lives here.
"""
