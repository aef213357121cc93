"""Skipping still frames: a cheap test of whether anything in the image changed.

While every ball rests, most frames carry no news; analysing each costs a rectification and a
detection. :class:`StillGate` compares a small grey thumbnail of the frame with the one of the last
analysed frame; when nothing moved beyond the sensor noise, the frame is skipped, except one every
``keep_every_s`` so the tracks keep a heartbeat. Any change (a ball starting, a hand over the
table) sends frames back to full analysis.

Two questions, two owners: *are the balls at rest?* is the tracker's to answer
(:meth:`tracking.tracker.Tracker.motion`, passed in here as ``table_at_rest``); *did the image
change?* is this gate's, from pixels, which the tracker never sees. Both must hold to skip a
frame: the tracker alone would miss a ball struck between two analysed frames (nothing tracked
moves until a frame is analysed), the image alone would skip the frames of a ball still rolling
too slowly to change the thumbnail.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["StillGate"]


class StillGate:
    """See the module docstring: ``threshold`` in grey levels of the blurred thumbnail,
    ``keep_every_s`` the heartbeat, ``scale`` the thumbnail's stride in pixels."""

    def __init__(self, threshold: float = 6.0, keep_every_s: float = 0.25, scale: int = 8) -> None:
        self.threshold = threshold
        self.keep_every_s = keep_every_s
        self.scale = scale
        self._ref: np.ndarray | None = None
        self._last_kept_s = -1e9

    def _thumb(self, frame_bgr: np.ndarray) -> np.ndarray:
        # every scale-th pixel (a strided view costs nothing), then a blur against the sensor noise
        g = cv2.cvtColor(np.ascontiguousarray(frame_bgr[:: self.scale, :: self.scale]), cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(g, (5, 5), 0).astype(np.int16)

    def analyse(self, frame_bgr: np.ndarray, t_s: float, table_at_rest: bool) -> bool:
        """True when the frame must be analysed: the image changed, the tracker says some ball
        moves (``table_at_rest`` False), or the heartbeat is due."""
        thumb = self._thumb(frame_bgr)
        changed = self._ref is None or int(np.abs(thumb - self._ref).max()) > self.threshold
        if changed or not table_at_rest or t_s - self._last_kept_s >= self.keep_every_s:
            self._ref = thumb
            self._last_kept_s = t_s
            return True
        return False
