"""Hand-built shots and cameras for the renderer's tests (no pooltool needed).

:func:`bounce_shot` rolls the white ball at constant speed in straight lines, reflected off the
cushions (the centre stays one radius inside the nose lines), the red slowly, the yellow at rest;
its truth events are the stroke, every cushion reflection and the end.
"""

from __future__ import annotations

import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec, load_table
from synth.physics.trajectory import SimShot
from tracking.events import CushionHit, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion


def table() -> TableSpec:
    return load_table("carom")


def _fold(u: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Unfolded coordinate → position reflected between lo and hi (a triangle wave)."""
    span = hi - lo
    m = np.mod(u - lo, 2 * span)
    return lo + np.where(m <= span, m, 2 * span - m)


def bounce_shot(
    duration_s: float = 1.2, stroke_t_s: float = 0.1, v_mm_s: tuple[float, float] = (2600.0, 1900.0), hz: float = 1000.0
) -> SimShot:
    t = table()
    r = t.ball_radius_mm
    ts = np.arange(0.0, duration_s + 0.5 / hz, 1.0 / hz)
    n = len(ts)
    moving = np.clip(ts - stroke_t_s, 0.0, None)
    white = np.column_stack(
        [
            _fold(600.0 + v_mm_s[0] * moving, r, t.length_mm - r),
            _fold(400.0 + v_mm_s[1] * moving, r, t.width_mm - r),
        ]
    )
    red = np.column_stack([2000.0 - 150.0 * moving, 1000.0 + 60.0 * moving])
    yellow = np.tile([1400.0, 700.0], (n, 1))
    xy = np.stack([white, yellow, red], axis=1)
    z = np.full((n, 3), r)
    on = np.ones((n, 3), bool)
    balls = (BallId.WHITE, BallId.YELLOW, BallId.RED)
    events: list = [
        ShotStart(
            t_s=stroke_t_s,
            frame=0,
            shot=1,
            confidence=1.0,
            cue_ball=BallId.WHITE,
            positions={b: tuple(xy[0, j]) for j, b in enumerate(balls)},
        )
    ]
    v = np.diff(white, axis=0)
    for axis, (lo_c, hi_c) in enumerate(((Cushion.HEAD, Cushion.FOOT), (Cushion.RIGHT, Cushion.LEFT))):
        flips = np.nonzero(np.sign(v[1:, axis]) != np.sign(v[:-1, axis]))[0] + 1
        for k in flips:
            if v[k - 1, axis] == 0.0:
                continue
            cushion = hi_c if v[k - 1, axis] > 0 else lo_c
            events.append(
                CushionHit(
                    t_s=float(ts[k]),
                    frame=0,
                    shot=1,
                    confidence=1.0,
                    ball=BallId.WHITE,
                    cushion=cushion,
                    pos_mm=tuple(white[k]),
                )
            )
    events.sort(key=lambda e: e.t_s)
    events.append(
        ShotEnd(
            t_s=float(ts[-1]),
            frame=0,
            shot=1,
            confidence=1.0,
            positions={b: tuple(xy[-1, j]) for j, b in enumerate(balls)},
        )
    )
    return SimShot(
        table=t.name,
        balls=balls,
        t_s=ts,
        xy_mm=xy,
        z_mm=z,
        on_table=on,
        events=tuple(events),
        meta={"name": "bounce", "description": "test: straight lines reflected off the cushions"},
    )


def overhead_camera(
    w: int = 320, h: int = 180, k1: float = -0.08, k2: float = 0.0, fill: float = 0.86, eye_dy_mm: float = 0.0
) -> CameraModel:
    """An overhead camera 3.5 m above the table centre whose rail-to-rail view fills ``fill`` of the width."""
    t = table()
    outer = t.length_mm + 2 * (t.cushion_width_mm + t.rail_width_mm)
    height = 3500.0
    fx = fill * w * (height - t.rail_height_mm) / outer
    return CameraModel.look_at(
        w,
        h,
        fx,
        (t.length_mm / 2, t.width_mm / 2 + eye_dy_mm, height),
        (t.length_mm / 2, t.width_mm / 2, 0.0),
        k1=k1,
        k2=k2,
    )
