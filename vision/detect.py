"""The detector interface: one rectified frame in, ball candidates out.

Every detector (the classical one here, the YOLO one of a later issue) fills the same contract so
the pipeline does not care which ran. Positions are table millimetres on the ball-centre plane
(the rectified view's geometry converts), plus the rectified pixel for drawing and debugging.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Protocol

import numpy as np

from vision.rectify import RectifiedGeometry


@dataclass(frozen=True)
class BallDetection:
    """One ball seen in one frame. ``label`` is the detector's best colour/identity guess (a
    ball-id string such as ``"white"``, or None), ``label_scores`` its belief over labels (0..1),
    ``score`` how sure it is that this is a ball at all, ``visible_fraction`` how much of the
    expected silhouette was seen (occlusion, merging). ``streak_px``: for a fast ball seen as a
    streak, the ends of its path over the exposure (u0, v0, u1, v1; the centre is its middle)."""

    x_mm: float
    y_mm: float
    u_px: float
    v_px: float
    r_px: float
    label: str | None
    score: float
    label_scores: Mapping[str, float] = field(default_factory=dict)
    visible_fraction: float = 1.0
    streak_px: tuple[float, float, float, float] | None = None


class Detector(Protocol):
    geometry: RectifiedGeometry

    def detect(self, rectified_bgr: np.ndarray) -> list[BallDetection]:
        ...
