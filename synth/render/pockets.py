"""Plan geometry of the pockets as the renderer cuts them into the table, and balls dropping in.

Contract: :class:`PocketCuts` turns a table's :class:`~calibration.table.PocketSpec` list into
vectorised plan tests (table mm) used by :mod:`synth.render.scene`:

- the *throat* of a pocket: the region between its two facings, from the mouth line (the segment
  between the cushion-nose points) outward to the hole's centre; the facings run from the nose
  points at the spec's cut angle, so the throat narrows going in. Cushions and rails are cut away
  over it; the cloth-covered slate (the shelf) continues under it up to the hole;
- the *hole*: the disc of ``hole_radius_mm`` about ``hole_centre_mm`` cut in the slate (and in
  the cushions and rails above it): rays that pass into it meet the pocket's dark cylindrical
  wall or its floor ``depth_mm`` below the cloth;
- the *rim*: the ring of ``rim_mm`` round the hole on the rail top (the leather or rubber liner);
- the two *facings* of each pocket: vertical rubber faces from each nose point along the cut, from
  the cloth up to the cushion top (and the rail top beyond the cushion).

:func:`sink_into_pockets` makes a simulated shot's balls drop: once a ball's centre is over a hole
(:meth:`PocketSpec.falls`) its centre falls freely (g) and it leaves the table (``on_table``
False) when it has sunk one diameter below the cloth; a simulator without an airborne model
(pooltool) leaves balls at z = R in the pocket, which this turns into a visible drop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from calibration.table import TableSpec

G_MM_S2 = 9806.65


@dataclass(frozen=True)
class PocketCuts:
    """Arrays over the P pockets (see the module docstring). ``depth_mm`` is how far below the
    cloth the pocket's floor (net or ball return) is seen."""

    centre: np.ndarray  # (P, 2) mouth centres
    outward: np.ndarray  # (P, 2)
    across: np.ndarray  # (P, 2) unit, perpendicular to outward
    half_mouth: np.ndarray  # (P,)
    narrowing: np.ndarray  # (P,) tan of the facing's angle towards the axis
    throat_len: np.ndarray  # (P,) from the mouth centre to the hole centre
    hole: np.ndarray  # (P, 2)
    hole_r: np.ndarray  # (P,)
    rim_r: np.ndarray  # (P,)
    facing_p0: np.ndarray  # (F, 2) nose points, F = 2P
    facing_dir: np.ndarray  # (F, 2)
    facing_len: np.ndarray  # (F,)
    facing_side: np.ndarray  # (F,) 0..3 head, foot, right, left: the cushion the facing ends
    depth_mm: float
    reach_mm: float  # plan distance from a mouth centre beyond which nothing is cut

    @property
    def empty(self) -> bool:
        return len(self.hole_r) == 0


def pocket_cuts(table: TableSpec, rim_mm: float, depth_mm: float = 250.0) -> PocketCuts:
    P = table.pockets
    L, W = table.length_mm, table.width_mm
    c = np.array([p.centre_mm for p in P], np.float64).reshape(-1, 2)
    o = np.array([p.outward for p in P], np.float64).reshape(-1, 2)
    e = np.column_stack([-o[:, 1], o[:, 0]]) if len(P) else np.zeros((0, 2))
    half = np.array([p.mouth_mm / 2.0 for p in P])
    base = np.array([135.0 if p.kind == "corner" else 90.0 for p in P])
    ang = np.radians(np.array([p.facing_angle_deg for p in P]) - base)
    tl = np.array([p.shelf_mm + p.hole_radius_mm for p in P])
    hole = np.array([p.hole_centre_mm for p in P], np.float64).reshape(-1, 2)
    hr = np.array([p.hole_radius_mm for p in P])
    p0, fd, fl, fs = [], [], [], []
    for i, p in enumerate(P):
        for q, f in zip(p.nose_points_mm(), p.facing_dirs()):
            p0.append(q)
            fd.append(f)
            fl.append(tl[i] / max(f[0] * o[i, 0] + f[1] * o[i, 1], 1e-6))
            dists = (abs(q[0]), abs(q[0] - L), abs(q[1]), abs(q[1] - W))
            fs.append(int(np.argmin(dists)))
    reach = float(np.max(tl + 2 * hr + rim_mm + half)) if len(P) else 0.0
    return PocketCuts(
        centre=c,
        outward=o,
        across=e,
        half_mouth=half,
        narrowing=np.tan(ang),
        throat_len=tl,
        hole=hole,
        hole_r=hr,
        rim_r=hr + rim_mm,
        facing_p0=np.array(p0, np.float64).reshape(-1, 2),
        facing_dir=np.array(fd, np.float64).reshape(-1, 2),
        facing_len=np.array(fl, np.float64),
        facing_side=np.array(fs, np.int8),
        depth_mm=float(depth_mm),
        reach_mm=reach,
    )


def in_throat(cuts: PocketCuts, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Plan points between a pocket's facings, from its mouth line to its hole centre."""
    out = np.zeros(np.shape(x), bool)
    for i in range(len(cuts.hole_r)):
        dx, dy = x - cuts.centre[i, 0], y - cuts.centre[i, 1]
        a = dx * cuts.outward[i, 0] + dy * cuts.outward[i, 1]
        p = dx * cuts.across[i, 0] + dy * cuts.across[i, 1]
        out |= (
            (a >= -1e-6) & (a <= cuts.throat_len[i]) & (np.abs(p) <= cuts.half_mouth[i] - a * cuts.narrowing[i] + 1e-6)
        )
    return out


def _in_disc(cuts: PocketCuts, radius: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.zeros(np.shape(x), bool)
    for i in range(len(radius)):
        out |= (x - cuts.hole[i, 0]) ** 2 + (y - cuts.hole[i, 1]) ** 2 <= radius[i] ** 2
    return out


def in_hole(cuts: PocketCuts, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return _in_disc(cuts, cuts.hole_r, x, y)


def in_rim(cuts: PocketCuts, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Plan points within the rim's outer circle (the hole included)."""
    return _in_disc(cuts, cuts.rim_r, x, y)


def near_pocket(cuts: PocketCuts, x: np.ndarray, y: np.ndarray, margin_mm: np.ndarray | float = 0.0) -> np.ndarray:
    """Plan points close enough to a pocket that the cuts may matter there."""
    out = np.zeros(np.shape(x), bool)
    for i in range(len(cuts.hole_r)):
        out |= np.hypot(x - cuts.centre[i, 0], y - cuts.centre[i, 1]) < cuts.reach_mm + margin_mm
    return out


def sink_into_pockets(shot, table: TableSpec):
    """The shot with its balls dropping into the pockets they reach (see the module docstring).
    A ball that never comes over a hole is left as it was."""
    from synth.physics.trajectory import SimShot

    if not table.pockets:
        return shot
    r = table.ball_radius_mm
    xy, z, on = shot.xy_mm.copy(), shot.z_mm.copy(), shot.on_table.copy()
    t = shot.t_s
    for j in range(len(shot.balls)):
        over = np.zeros(len(t), bool)
        for p in table.pockets:
            hx, hy = p.hole_centre_mm
            over |= (xy[:, j, 0] - hx) ** 2 + (xy[:, j, 1] - hy) ** 2 <= p.hole_radius_mm**2
        over &= on[:, j] & (z[:, j] >= r - 1e-6)
        idx = np.nonzero(over)[0]
        if not len(idx):
            continue
        k = int(idx[0])
        # the ball keeps its plan motion of the last instants before the drop, slowed by the
        # pocket's back wall: hold it where it was once it has fallen a radius
        v = (xy[k, j] - xy[max(k - 5, 0), j]) / max(t[k] - t[max(k - 5, 0)], 1e-9)
        dt = t[k:] - t[k]
        fall = 0.5 * G_MM_S2 * dt**2
        t_stop = math.sqrt(2.0 * r / G_MM_S2)
        glide = np.minimum(dt, t_stop)[:, None] * v[None, :]
        xy[k:, j] = xy[k, j] + glide
        z[k:, j] = r - fall
        on[k:, j] &= z[k:, j] > -r
    return replace(shot, xy_mm=xy, z_mm=z, on_table=on) if isinstance(shot, SimShot) else shot
