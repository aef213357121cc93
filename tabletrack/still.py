"""Skipping still frames: a cheap test of whether anything on the table changed.

While every ball rests, most frames carry no news; analysing each costs a rectification and a
detection. :class:`StillGate` compares a small grey thumbnail of the frame with the one of the last
analysed frame; when nothing moved beyond the sensor noise, the frame is skipped, except one every
``keep_every_s`` so the tracks keep a heartbeat. Any change (a ball starting, a hand over the
table) sends frames back to full analysis.
"""

from __future__ import annotations

import cv2
import numpy as np


class StillGate:
    def __init__(self, threshold: float = 6.0, keep_every_s: float = 0.25, scale: int = 8) -> None:
        self.threshold = threshold
        self.keep_every_s = keep_every_s
        self.scale = scale
        self._ref: np.ndarray | None = None
        self._last_kept_s = -1e9

    def _thumb(self, frame_bgr: np.ndarray) -> np.ndarray:
        # every scale-th pixel (a strided view costs nothing), then a blur against the sensor noise
        g = cv2.cvtColor(np.ascontiguousarray(frame_bgr[::self.scale, ::self.scale]), cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(g, (5, 5), 0).astype(np.int16)

    def analyse(self, frame_bgr: np.ndarray, t_s: float, table_at_rest: bool) -> bool:
        """True when the frame must be analysed."""
        thumb = self._thumb(frame_bgr)
        changed = self._ref is None or int(np.abs(thumb - self._ref).max()) > self.threshold
        if changed or not table_at_rest or t_s - self._last_kept_s >= self.keep_every_s:
            self._ref = thumb
            self._last_kept_s = t_s
            return True
        return False
