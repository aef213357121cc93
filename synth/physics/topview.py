"""A top-view picture of a SimShot: the table, every ball's path and its truth events.

For looking at a shot (does the mapping of axes and cushions hold, where did the cue ball go),
not for measurement. The image is drawn as a player at the head cushion sees the table turned a
quarter: x (head -> foot) runs to the image right and y = 0 (right cushion) is at the image bottom,
as :func:`calibration.camera.look_at` frames it by default. Cushions are labelled.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from calibration.table import TableSpec
from synth.physics.trajectory import SimShot
from tracking.events import BallBall, CushionHit, ShotEnd, ShotStart
from tracking.ids import BallId

_BGR = {
    BallId.WHITE: (235, 235, 235),
    BallId.YELLOW: (0, 215, 255),
    BallId.RED: (40, 40, 220),
}


def draw_top_view(shot: SimShot, table: TableSpec, px_per_mm: float = 0.35, border_px: int = 40) -> np.ndarray:
    """A BGR image of ``shot`` on ``table``: paths as lines, start positions as rings, rest
    positions as discs, cushion hits as crosses labelled with the cushion's initial, ball-ball
    contacts as magenta diamonds."""
    import cv2

    length_mm, width_mm = table.length_mm, table.width_mm
    w = int(round(length_mm * px_per_mm)) + 2 * border_px
    h = int(round(width_mm * px_per_mm)) + 2 * border_px
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (60, 40, 20)

    def px(x_mm: float, y_mm: float) -> tuple[int, int]:
        return (int(round(border_px + x_mm * px_per_mm)), int(round(h - border_px - y_mm * px_per_mm)))

    cv2.rectangle(img, px(0, width_mm), px(length_mm, 0), (40, 110, 30), -1)
    cv2.rectangle(img, px(0, width_mm), px(length_mm, 0), (200, 200, 200), 1)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, "head x=0", (2, h // 2), font, 0.4, (255, 255, 255), 1)
    cv2.putText(img, "foot", (w - border_px + 2, h // 2), font, 0.4, (255, 255, 255), 1)
    cv2.putText(img, "right y=0", (w // 2 - 30, h - 10), font, 0.4, (255, 255, 255), 1)
    cv2.putText(img, "left y=W", (w // 2 - 30, 20), font, 0.4, (255, 255, 255), 1)
    r_px = max(2, int(round(table.ball_radius_mm * px_per_mm)))
    for j, ball in enumerate(shot.balls):
        colour = _BGR.get(ball, (255, 0, 255))
        pts = np.array([px(x, y) for x, y in shot.xy_mm[::5, j]], np.int32)
        cv2.polylines(img, [pts], False, colour, 1, cv2.LINE_AA)
    for ev in shot.events:
        if isinstance(ev, ShotStart):
            for ball, (x, y) in ev.positions.items():
                cv2.circle(img, px(x, y), r_px, _BGR.get(ball, (255, 0, 255)), 1, cv2.LINE_AA)
        elif isinstance(ev, ShotEnd):
            for ball, (x, y) in ev.positions.items():
                cv2.circle(img, px(x, y), r_px, _BGR.get(ball, (255, 0, 255)), -1, cv2.LINE_AA)
        elif isinstance(ev, CushionHit):
            cv2.drawMarker(img, px(*ev.pos_mm), _BGR.get(ev.ball, (255, 0, 255)), cv2.MARKER_TILTED_CROSS, 8, 1)
            cv2.putText(
                img, ev.cushion.value[0], px(ev.pos_mm[0] + 25, ev.pos_mm[1] + 25), font, 0.35, (255, 255, 255), 1
            )
        elif isinstance(ev, BallBall):
            cv2.drawMarker(img, px(*ev.pos_mm), (255, 0, 255), cv2.MARKER_DIAMOND, 10, 1)
    return img


def save_top_view(shot: SimShot, path: str | Path, table: TableSpec) -> None:
    import cv2

    if not cv2.imwrite(str(path), draw_top_view(shot, table)):
        raise OSError(f"could not write {path}")
