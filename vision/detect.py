"""The detector interface: one video frame in, that frame's ball candidates out.

Contract: every ball detector the pipeline runs fills :class:`Detector`: ``detect_frame(frame,
motion)`` takes one :class:`vision.source.Frame` (index, time, camera image) and the tracker's
:class:`tracking.detections.MotionState` (:meth:`tracking.tracker.Tracker.motion`; None when
there is no tracker), and returns a :class:`Detections`: the frame's index and time and one
:class:`BallDetection` per ball candidate, its centre in table millimetres on the ball-centre
plane, its label and beliefs as :class:`tracking.ids.BallId` values (detector class names are
mapped to ids where each detector reports them, :func:`tracking.detections.ball_label`), plus
the pixel where it was seen for drawing and debugging. The pipeline calls nothing else on a detector, so it does not care
which one runs. The detectors:

- :class:`vision.classical.ClassicalDetector` (carom: colour model on the rectified view);
- :class:`RectifiedDetector` around a detector of rectified views (:class:`ViewDetector`):
  :class:`vision.yolo.YoloDetector` (the trained model, whole on every frame) or
  :class:`vision.guided.GuidedDetector` (the model between key frames, its classifier following
  the balls in between);
- :class:`vision.frame_yolo.FrameYoloDetector` (the model on an oblique camera's own image).

A detector may also offer ``prepare(image) -> object``: the part of its work that depends on the
image alone (pure: the same result on any thread). The pipeline calls it on the decoder's thread
for the frames it expects to analyse and hands the result back as ``Frame.prepared``, so that
work runs on the second core (:meth:`vision.classical.ClassicalDetector.prepare`); a detector
must work the same on frames without it.

Frames must come in order (the classical detector learns the background and ball colours as it
goes; the guided one follows balls from frame to frame). ``motion`` is where a detector may ask
whether the balls move and where they will be, instead of keeping velocities of its own; the
guided detector reads only whether every ball of the set rests in view
(:attr:`tracking.detections.MotionState.settled`: then no periodic key frame), and keeps its own
follow model (see :mod:`vision.guided`).

Why the types live in :mod:`tracking.detections`: the tracker takes them and must not import
``vision``; they are re-exported here for the detectors' users.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from tracking.detections import BallDetection, Detections, MotionState
from vision.rectify import LazyView, RectifiedGeometry, Rectifier

if TYPE_CHECKING:
    from vision.source import Frame

__all__ = ["Detector", "RectifiedDetector", "ViewDetector"]


class Detector(Protocol):
    """What the pipeline calls on any ball detector (see the module docstring)."""

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections: ...


class ViewDetector(Protocol):
    """A detector of rectified views of the ball-centre plane (``geometry``'s pixels), one view
    at a time, in the video's order; ``t_s`` is the view's time (unused by a detector that sees
    each view afresh)."""

    geometry: RectifiedGeometry

    def detect(self, rectified_bgr: np.ndarray, t_s: float | None = None) -> Sequence[BallDetection]: ...


class RectifiedDetector:
    """:class:`Detector` for a :class:`ViewDetector`: each frame rectified whole by ``rectifier``,
    then detected."""

    def __init__(self, detector: ViewDetector, rectifier: Rectifier) -> None:
        self.detector = detector
        self.rectifier = rectifier
        self.geometry = detector.geometry

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        assert frame.image is not None  # the pipeline passes decoded frames only
        if getattr(self.detector, "takes_lazy_view", False):
            # remapped where the detector reads it (a guided frame: around the balls only)
            view: Any = LazyView(self.rectifier, frame.image)
        else:
            view = self.rectifier(frame.image)
        if getattr(self.detector, "takes_motion", False):
            dets = self.detector.detect(view, frame.t_s, motion)  # type: ignore[call-arg]
        else:
            dets = self.detector.detect(view, frame.t_s)
        return Detections(frame.index, frame.t_s, tuple(dets))
