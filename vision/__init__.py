"""Ball detection: video frames in, each frame's ball candidates out (DESIGN.md, the vision stage).

The public API, importable from the package (``from vision import YoloDetector``) or from its
module (``from vision.yolo import YoloDetector``, the form the project uses):

- :mod:`vision.detect` -- the :class:`Detector` protocol the pipeline calls, :class:`ViewDetector`,
  :class:`RectifiedDetector`, and the detection types (:class:`BallDetection`, :class:`Detections`,
  defined in :mod:`tracking.detections`).
- :mod:`vision.source` -- :class:`VideoFile`, :class:`Frame`, :class:`VideoInfo`,
  :func:`read_image_or_first_frame`.
- :mod:`vision.rectify` -- :class:`Rectifier`, :class:`RectifiedGeometry`: the top-down view of
  the table.
- :mod:`vision.classical` -- :class:`ClassicalDetector` (carom: a colour model, no trained model).
- :mod:`vision.yolo` -- :class:`YoloDetector`, the trained model (ONNX) on rectified views.
- :mod:`vision.guided` -- :class:`GuidedDetector`: the model on key frames, its classifier between.
- :mod:`vision.frame_yolo` -- :class:`FrameYoloDetector`: the model on an oblique camera's image.
- :mod:`vision.proposals` -- :func:`ball_proposals`: candidate centres from the cloth difference.
- :mod:`vision.yolo_geometry` -- the letterbox and crop geometry the model was trained with.

Nothing is imported at package import: a name is loaded from its module on first use (OpenCV and
onnxruntime load only with the modules that use them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.lazy import lazy_exports

# public name -> the module that defines it
_SOURCE: dict[str, str] = {
    "Detector": "detect",
    "RectifiedDetector": "detect",
    "ViewDetector": "detect",
    "Frame": "source",
    "VideoFile": "source",
    "VideoInfo": "source",
    "VideoSourceError": "source",
    "read_image_or_first_frame": "source",
    "RectifiedGeometry": "rectify",
    "Rectifier": "rectify",
    "CAROM_HUES_DEG": "classical",
    "ClassicalConfig": "classical",
    "ClassicalDetector": "classical",
    "DEFAULT_CLASSIFIER": "yolo",
    "DEFAULT_DETECTOR": "yolo",
    "YoloDetector": "yolo",
    "YoloModelError": "yolo",
    "decode_yolo": "yolo",
    "GuidedConfig": "guided",
    "GuidedDetector": "guided",
    "GuidedStats": "guided",
    "OBLIQUE_DEG": "frame_yolo",
    "FrameYoloDetector": "frame_yolo",
    "oblique": "frame_yolo",
    "view_angle_deg": "frame_yolo",
    "ProposalConfig": "proposals",
    "ball_proposals": "proposals",
    "cloth_difference": "proposals",
    "playing_region": "proposals",
    "CROP_BALL_PX": "yolo_geometry",
    "CROP_PX": "yolo_geometry",
    "PAD_VALUE": "yolo_geometry",
    "Letterbox": "yolo_geometry",
    "ball_crop": "yolo_geometry",
    "letterbox": "yolo_geometry",
    "letterbox_of": "yolo_geometry",
}

__all__ = [
    "Detector",
    "RectifiedDetector",
    "ViewDetector",
    "Frame",
    "VideoFile",
    "VideoInfo",
    "VideoSourceError",
    "read_image_or_first_frame",
    "RectifiedGeometry",
    "Rectifier",
    "CAROM_HUES_DEG",
    "ClassicalConfig",
    "ClassicalDetector",
    "DEFAULT_CLASSIFIER",
    "DEFAULT_DETECTOR",
    "YoloDetector",
    "YoloModelError",
    "decode_yolo",
    "GuidedConfig",
    "GuidedDetector",
    "GuidedStats",
    "OBLIQUE_DEG",
    "FrameYoloDetector",
    "oblique",
    "view_angle_deg",
    "ProposalConfig",
    "ball_proposals",
    "cloth_difference",
    "playing_region",
    "CROP_BALL_PX",
    "CROP_PX",
    "PAD_VALUE",
    "Letterbox",
    "ball_crop",
    "letterbox",
    "letterbox_of",
]

if TYPE_CHECKING:
    from vision.classical import CAROM_HUES_DEG, ClassicalConfig, ClassicalDetector
    from vision.detect import Detector, RectifiedDetector, ViewDetector
    from vision.frame_yolo import OBLIQUE_DEG, FrameYoloDetector, oblique, view_angle_deg
    from vision.guided import GuidedConfig, GuidedDetector, GuidedStats
    from vision.proposals import ProposalConfig, ball_proposals, cloth_difference, playing_region
    from vision.rectify import RectifiedGeometry, Rectifier
    from vision.source import Frame, VideoFile, VideoInfo, VideoSourceError, read_image_or_first_frame
    from vision.yolo import DEFAULT_CLASSIFIER, DEFAULT_DETECTOR, YoloDetector, YoloModelError, decode_yolo
    from vision.yolo_geometry import (
        CROP_BALL_PX,
        CROP_PX,
        PAD_VALUE,
        Letterbox,
        ball_crop,
        letterbox,
        letterbox_of,
    )
else:
    __getattr__, __dir__ = lazy_exports(__name__, _SOURCE, globals())
