"""A ball that leaves the table (jumps over a cushion) or drops into a pocket during a shot.

Hidden is not gone: a ball under a player's hand or cue is bridged by the tracker and comes back.
A ball counts as gone only when its track ends in motion and it is not seen again for
``lost_after_s`` (:mod:`tracking.segment`), and then only if where it was going says so:

- seen with its centre closer to a nose line than a ball on the cloth can be (up on the cushion
  or the rail), having come at that cushion fast enough to leave the cloth
  (``over_rail_speed_mm_s`` over the last ``over_rail_window_s``: a slow ball meets the cushion
  and rolls back; what crosses a rail slowly is no ball but a player's hand or arm read as one —
  real eight-ball broadcast, game1 mirrored: a gloved bridge hand by the foot rail, read as the 2
  for a second, withdrawn over the rail at ~0.4 m/s, was called "the 2 left the table", a foul,
  unreviewed), and not seen back on the cloth after (one detection misplaced at a cushion is not
  a ball over the rail), or
- last seen moving fast (``over_rail_speed_mm_s``) toward a cushion it would reach within
  ``reach_mm`` (it jumped as it met that cushion; not seen going over, so only at
  ``unseen_exit_confidence``: a call that rests on it is reviewed), or
- (tables with pockets) last seen within or heading into a pocket's drop circle
  (:func:`tracking.pockets.pocket_entry`, which times the drop below one frame). Near a pocket a
  centre beyond the nose line is a ball in the mouth, not on the cushion, and a ball whose first
  nose line on its way is broken by a pocket's opening where it crosses it went into that
  pocket (unseen, so at ``unseen_exit_confidence``), it did not jump a cushion; so too, farther
  than ``reach_mm``, a ball never seen again that its rolling range takes into that mouth.

Otherwise the ball is *lost* (still on the table somewhere, position unknown), never off-table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from calibration.table import TableSpec
from tracking.cushions import normal_coordinate
from tracking.ids import Cushion, Pocket
from tracking.pockets import (
    PocketConfig,
    PocketZone,
    entry_before_sighting,
    in_opening,
    near_pocket,
    pocket_entry,
    pocket_holding,
    pocket_zones,
)
from tracking.segment import BallActivity, Motion
from tracking.sides import ContactConfig, make_side


@dataclass(frozen=True)
class ExitConfig:
    """Thresholds of leaving the table (see the module docstring). ``beyond_nose_mm``: a centre
    this much closer to a nose line than a ball on the cloth can be (its radius) is up on the
    cushion — well beyond what real footage's calibration and detection errors (8-17 mm measured
    on broadcast nine-ball) put a ball rolling along the cushion. ``roll_decel_mm_s2``: the
    cloth's rolling deceleration (on the high side: a shorter roll) that bounds how far a ball
    never seen again may have rolled into a pocket's mouth. ``over_rail_speed_mm_s``: the least
    speed toward a cushion, fitted over the samples of the last ``over_rail_window_s`` up to the
    first one seen beyond its nose, at which a ball seen there went over (a ball leaves the cloth
    only airborne, off a hard hit into the cushion or a jump; at this speed one rebounds).
    ``in_pocket_s``: how long a ball still moving when the data stop must have been seen inside
    a drop circle to be in that pocket (:func:`in_pocket_at_end`); ``seen_inside_confidence``:
    of a drop whose time no entry fits (the first sighting inside dates it)."""

    min_speed_mm_s: float = 400.0
    over_rail_speed_mm_s: float = 800.0
    over_rail_window_s: float = 0.2
    in_pocket_s: float = 0.2
    seen_inside_confidence: float = 0.6
    reach_mm: float = 150.0
    beyond_nose_mm: float = 25.0
    pockets: PocketConfig = PocketConfig()
    unseen_exit_confidence: float = 0.45
    roll_decel_mm_s2: float = 150.0


@dataclass(frozen=True)
class Exit:
    """How a gone ball left: ``pocket`` None means over a cushion (off the table)."""

    t_s: float
    pocket: Pocket | None
    confidence: float


def ball_exit(
    act: BallActivity, motion: Motion, table: TableSpec, contact: ContactConfig, cfg: ExitConfig
) -> Exit | None:
    """How the ball of a motion that ended unseen left the table, or None when it is lost."""
    s = act.samples
    R = table.ball_radius_mm
    zones = pocket_zones(table, cfg.pockets)
    idx = np.arange(motion.i_first, motion.i_last + 1)
    if zones:
        t_next = float(s.t_s[motion.i_last + 1]) if motion.i_last + 1 < len(s) else math.inf
        k = _first_in_pocket(zones, s.xy_mm[idx])
        if k is not None and k > 0:
            # seen in the pocket from sample k on (rolling about inside it, in and out of view):
            # it dropped on the way to its first sighting there
            return _dropped_before(zones, s.t_s[idx], s.xy_mm[idx], k, cfg)
        entry = pocket_entry(zones, s.t_s[idx], s.xy_mm[idx], t_next, cfg.pockets)
        if entry is not None:
            return Exit(entry.t_s, entry.pocket, entry.confidence)
    beyond = _beyond_nose(s.xy_mm[idx], table, R - cfg.beyond_nose_mm)
    for k, i in enumerate(idx):  # seen where no ball on the cloth can be
        if not beyond[k]:
            continue
        if zones and near_pocket(zones, s.xy_mm[i], table.ball_diameter_mm) is not None:
            continue  # in a pocket's mouth, below the nose lines
        if not beyond[k + 1 :].all():
            # seen on the cloth again after: a misplaced detection (real eight-ball footage,
            # mirrored: one sample 6 mm past the foot nose, the next back on the cloth), not a
            # ball that went over the rail
            continue
        window = idx[(idx <= i) & (s.t_s[idx] >= s.t_s[i] - cfg.over_rail_window_s)]
        if (
            _approach_speed_mm_s(s.t_s[window], s.xy_mm[window], table, R - cfg.beyond_nose_mm)
            < cfg.over_rail_speed_mm_s
        ):
            return None  # came at the rail too slowly to leave the cloth: no ball went over it
        return Exit(float(s.t_s[i]), None, 0.8)
    k = motion.i_last
    side = make_side(act, k, -1, -math.inf, math.inf, contact)
    p = s.xy_mm[k]
    t_last = float(s.t_s[k])
    if side.fit is None or side.at_rest:
        return None
    v = side.fit.vel(t_last)
    pocket = None if zones else _pocket_near(p, table)
    if pocket is not None:
        return Exit(t_last, pocket, 0.6)
    speed = float(np.hypot(*v))
    if speed < cfg.min_speed_mm_s:
        return None
    # the first nose line on its way decides: a ball that crosses it where a pocket breaks it is
    # heading into that pocket's mouth, whatever cushion line lies beyond (real eight-ball
    # broadcast: a 7 rolling along the side cushion into a corner vanished 70 mm short of the
    # drop circle; the head line, crossed first, is open there, and the side cushion's line,
    # "reached" only past the corner, made it a jump over the rail)
    best: tuple[float, Cushion, float] | None = None
    for c in Cushion:
        n = float(normal_coordinate(c, table)(p[None, :])[0])
        vn = _normal_velocity(c, v)
        if vn >= 0:
            continue
        t_hit = max(n - R, 0.0) / -vn
        if best is None or t_hit < best[0]:
            best = (t_hit, c, n - R)
    if best is None:
        return None
    t_hit, c, dist = best
    # not seen going over or in: inferred from where it was heading when it vanished (on
    # broadcast footage a ball also vanishes under a player, or from the detector, at a cushion),
    # so below the confidence a call may rest on without review
    mouth = in_opening(zones, c, p + v * t_hit) if zones else None
    if mouth is None and speed < cfg.over_rail_speed_mm_s:
        return None  # too slow to jump the cushion it was heading for (see over_rail_speed_mm_s)
    if dist > cfg.reach_mm:
        # too far for a jump seen coming; but a ball never seen again whose path runs into a
        # pocket's mouth within its rolling range went in (real eight-ball broadcast, scaled 5/4:
        # the 7, rolling along the side cushion at 1 m/s, was lost 210 mm from the corner's mouth)
        never_again = motion.i_last + 1 >= len(s)
        if mouth is None or not never_again or dist > speed * speed / (2.0 * cfg.roll_decel_mm_s2):
            return None
    return Exit(t_last + t_hit, mouth.pocket if mouth is not None else None, cfg.unseen_exit_confidence)


def in_pocket_at_end(act: BallActivity, motion: Motion, zones: Sequence[PocketZone], cfg: ExitConfig) -> Exit | None:
    """How the ball of a motion still under way when the data stop went into a pocket: when it
    has been seen inside one pocket's drop circle for the last ``in_pocket_s`` or more (moving
    about in the throat or the pocket, where the bed no longer holds a ball), else None. Real
    broadcast (dev Clip17, re-encoded at CRF 32): the 7, after a slow roll along the jaw, was
    seen again and again moving inside the corner's drop circle to the clip's end; its motion
    never ended, so the shot was called a miss. ``zones``: the table's
    (:func:`tracking.pockets.pocket_zones`)."""
    s = act.samples
    idx = np.arange(motion.i_first, motion.i_last + 1)
    k = _first_in_pocket(zones, s.xy_mm[idx])
    if k is None or k == 0 or float(s.t_s[idx[-1]] - s.t_s[idx[k]]) < cfg.in_pocket_s:
        return None
    return _dropped_before(zones, s.t_s[idx], s.xy_mm[idx], k, cfg)


def _dropped_before(zones: Sequence[PocketZone], t_s: np.ndarray, xy_mm: np.ndarray, k: int, cfg: ExitConfig) -> Exit:
    """The drop of a ball seen inside a drop circle from sample ``k`` on: timed by
    :func:`tracking.pockets.entry_before_sighting`, else (no entry fits a slow roll over the
    jaw) at that first sighting inside, at ``seen_inside_confidence`` (in the pocket for sure,
    when it fell a guess)."""
    entry = entry_before_sighting(zones, t_s, xy_mm, k, cfg.pockets)
    if entry is not None:
        return Exit(entry.t_s, entry.pocket, entry.confidence)
    z = pocket_holding(zones, xy_mm[k])
    assert z is not None  # _first_in_pocket: sample k lies inside
    return Exit(float(t_s[k]), z.pocket, cfg.seen_inside_confidence)


def _approach_speed_mm_s(t_s: np.ndarray, xy_mm: np.ndarray, table: TableSpec, limit_mm: float) -> float:
    """How fast a ball came at the cushion whose nose its last sample lies beyond (within
    ``limit_mm`` of it or beyond): the least-squares rate at which its distance from that nose fell over
    the samples (positive: approaching; 0 with fewer than two)."""
    if len(t_s) < 2:
        return 0.0
    last = xy_mm[-1:]
    c = min(Cushion, key=lambda c: float(normal_coordinate(c, table)(last)[0]))
    n = normal_coordinate(c, table)(xy_mm)
    t = t_s - t_s.mean()
    return float(-np.sum(t * (n - n.mean())) / max(float(np.sum(t * t)), 1e-12))


def _beyond_nose(xy_mm: np.ndarray, table: TableSpec, limit_mm: float) -> np.ndarray:
    """Per centre, whether it lies closer than ``limit_mm`` to some nose line (or beyond it)."""
    out = np.zeros(len(xy_mm), bool)
    for c in Cushion:
        out |= normal_coordinate(c, table)(xy_mm) < limit_mm
    return out


def _first_in_pocket(zones: Sequence[PocketZone], xy_mm: np.ndarray) -> int | None:
    """The first of the samples from which every later one lies in one pocket's drop circle
    (a pocketed ball seen again inside the pocket is no ball on the table), or None."""
    z = pocket_holding(zones, xy_mm[-1])
    if z is None:
        return None
    k = len(xy_mm) - 1
    while k > 0 and pocket_holding(zones, xy_mm[k - 1]) is z:
        k -= 1
    return k


def _normal_velocity(c: Cushion, v: np.ndarray) -> float:
    """Rate of change of the distance from cushion ``c``'s nose (negative: approaching)."""
    if c is Cushion.HEAD:
        return float(v[0])
    if c is Cushion.FOOT:
        return float(-v[0])
    if c is Cushion.RIGHT:
        return float(v[1])
    return float(-v[1])


def _pocket_near(p: np.ndarray, table: TableSpec) -> Pocket | None:
    for ps in table.pockets:
        try:
            pocket = Pocket.parse(ps.name)
        except ValueError:
            continue
        if float(np.hypot(p[0] - ps.centre_mm[0], p[1] - ps.centre_mm[1])) <= 0.5 * ps.mouth_mm + table.ball_radius_mm:
            return pocket
    return None
