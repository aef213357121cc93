"""A burned-in broadcast scoreboard, as on televised carom matches.

Contract: :class:`ScoreboardOverlay` lays the :class:`~synth.render.style.Scoreboard` box out
once per clip in the requested frame corner and checks that it covers no part of the table (the
outer edge of the rails, traced through the lens); if the corner has no room it tries the other
corners in a fixed order and raises :class:`~synth.render.style.RenderError` when none has.
:meth:`ScoreboardOverlay.apply` blends it into an 8-bit frame after sensor noise (graphics are
inserted after the camera, so they carry no sensor noise, only the video compression).
"""

from __future__ import annotations

import numpy as np

from synth.render.scene import StaticScene
from synth.render.style import RenderError, Scoreboard

_CORNERS = ("bottom_left", "bottom_right", "top_left", "top_right")


def table_outline_px(scene: StaticScene, per_edge: int = 64) -> np.ndarray:
    """(N, 2) pixel polygon of the table's outer rail edge (distortion included)."""
    t = scene.table
    e = t.cushion_width_mm + t.rail_width_mm
    L, W, z = t.length_mm, t.width_mm, t.rail_height_mm
    corners = np.array([(-e, -e), (L + e, -e), (L + e, W + e), (-e, W + e)])
    pts = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        for s in np.linspace(0.0, 1.0, per_edge, endpoint=False):
            pts.append((*(a + s * (b - a)), z))
    return scene.camera.project(np.array(pts))


class ScoreboardOverlay:
    """The score box, rendered once: ``box`` (x0, y0, x1, y1) px, colour patch and alpha."""

    def __init__(self, scene: StaticScene, spec: Scoreboard) -> None:
        import cv2

        H, W = scene.shape
        bw, bh = int(round(0.42 * W)), int(round(0.048 * H))
        margin = int(round(0.008 * W))
        outline = table_outline_px(scene)
        table_mask = np.zeros((H, W), np.uint8)
        cv2.fillPoly(table_mask, [np.round(outline).astype(np.int32)], 1)
        order = [spec.corner] + [c for c in _CORNERS if c != spec.corner]
        self.box: tuple[int, int, int, int] | None = None
        for corner in order:
            x0 = margin if corner.endswith("left") else W - margin - bw
            y0 = margin if corner.startswith("top") else H - margin - bh
            if not table_mask[y0 : y0 + bh, x0 : x0 + bw].any():
                self.box = (x0, y0, x0 + bw, y0 + bh)
                self.corner = corner
                break
        if self.box is None:
            raise RenderError(
                f"scoreboard: expected room for a {bw}x{bh} px box in a corner outside the "
                f"table, but the table covers every corner of the {W}x{H} frame"
            )
        self.patch, self.alpha = self._draw(spec, bw, bh)

    @staticmethod
    def _draw(spec: Scoreboard, bw: int, bh: int) -> tuple[np.ndarray, np.ndarray]:
        """One bar: [title | INN n] [chip NAME score] [score NAME chip], white on dark navy."""
        import cv2

        patch = np.zeros((bh, bw, 3), np.uint8)
        patch[:] = (58, 30, 18)
        font = cv2.FONT_HERSHEY_DUPLEX
        fs = bh / 36.0
        th = max(1, int(round(fs * 1.4)))
        base = int(bh * 0.70)
        title_w = int(bw * 0.22)
        patch[:, :title_w] = (20, 150, 215)  # amber title block
        cv2.putText(
            patch, f"INN {spec.innings}", (int(bw * 0.015), base), font, fs * 0.8, (20, 20, 20), th, cv2.LINE_AA
        )
        chips = ((236, 232, 222), (30, 185, 230))  # white and yellow cue balls
        half = (bw - title_w) // 2
        for i in range(2):
            x0 = title_w + i * half
            cv2.circle(patch, (x0 + int(bh * 0.45), bh // 2), max(int(bh * 0.22), 2), chips[i], -1, cv2.LINE_AA)
            cv2.putText(
                patch,
                spec.players[i][:12],
                (x0 + int(bh * 0.85), base),
                font,
                fs * 0.75,
                (245, 245, 245),
                th,
                cv2.LINE_AA,
            )
            score = str(spec.scores[i])
            (tw, _), _ = cv2.getTextSize(score, font, fs, th)
            patch[:, x0 + half - tw - int(bh * 0.5) : x0 + half] = (30, 20, 14)
            cv2.putText(
                patch, score, (x0 + half - tw - int(bh * 0.25), base), font, fs, (80, 230, 255), th, cv2.LINE_AA
            )
        alpha = np.full((bh, bw), 0.9, np.float32)
        return patch, alpha

    def apply(self, frame_u8: np.ndarray) -> None:
        """Blend the box into ``frame_u8`` (H, W, 3) uint8 in place."""
        assert self.box is not None
        x0, y0, x1, y1 = self.box
        reg = frame_u8[y0:y1, x0:x1].astype(np.float32)
        a = self.alpha[..., None]
        frame_u8[y0:y1, x0:x1] = np.clip(reg * (1 - a) + self.patch.astype(np.float32) * a + 0.5, 0, 255).astype(
            np.uint8
        )
