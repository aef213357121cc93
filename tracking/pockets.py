"""Pockets: where the cushions are broken, where a ball drops, and when a vanished ball dropped.

Geometry from :class:`calibration.table.PocketSpec` (mouth centre and width, nose points, the
hole cut in the slate), in the DESIGN.md table frame:

- *opening*: the stretch of a nose line where there is no cushion: between the two nose points
  of a side pocket, from the nose point past the corner for each rail of a corner pocket. A ball
  centre in front of an opening is not touching a cushion there (:func:`in_opening`), unless
  within a radius of a nose point: that ball meets the jaw, the cushion's end.
- *drop circle*: the hole; a ball whose centre is over it has no support and falls (the spec's
  :meth:`falls`, pooltool's pocket model). A ball seen at rest inside it is in the pocket's
  throat (DESIGN.md: balls resting in a pocket's throat are still visible from above), not on
  the table (:func:`pocket_holding`).
- *entry*: a ball that stops being seen while moving, last seen within ``reach_mm`` (plus the
  way it covers in ``reach_s``) of a drop circle and heading into it, dropped when its fitted
  path (constant deceleration, from its last samples) enters the drop circle: the sub-frame time
  of the :class:`tracking.events.Pocketed` event (:func:`pocket_entry`). A ball rattling in the
  jaws and staying out is seen again, at rest, and never reaches this test.

Only ``calibration.table`` and tracking's own modules are imported (DESIGN.md boundaries).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.table import TableSpec
from common.errors import TabletrackError
from tracking.ids import Cushion, Pocket


@dataclass(frozen=True)
class PocketConfig:
    """``drop_ratio``: drop-circle radius over the hole's (or half the mouth's). ``reach_mm`` / ``reach_s``: how
    far outside the drop circle a vanishing ball may last be seen (a fixed margin for a ball
    lost in the jaws' shadow, plus the way it covers in ``reach_s`` at its speed: up to a couple
    of frames before it drops). ``min_speed_mm_s``: slowest last speed of a ball that drops out
    of view (a slower one outside the circle was hidden, not pocketed)."""

    drop_ratio: float = 1.0
    reach_mm: float = 30.0
    reach_s: float = 0.1
    min_speed_mm_s: float = 20.0


@dataclass(frozen=True)
class PocketZone:
    """One pocket's geometry: its id, drop-circle centre and radius, and the openings it makes, each
    ``(cushion, lo_mm, hi_mm)`` along that cushion's nose line (x for right/left, y for
    head/foot); ``noses``: per opening, whether its low and its high end is a nose point (where the
    cushion ends in the pocket's jaw) rather than past the table's corner."""

    pocket: Pocket
    centre_mm: tuple[float, float]
    mouth_mm: float
    drop_mm: float
    openings: tuple[tuple[Cushion, float, float], ...]
    noses: tuple[tuple[bool, bool], ...] = ()

    def distance_mm(self, p: Sequence[float] | npt.NDArray[np.float64]) -> float:
        return math.hypot(float(p[0]) - self.centre_mm[0], float(p[1]) - self.centre_mm[1])


class PocketSpecError(TabletrackError):
    """A table's pocket that the tracker cannot place."""


def pocket_zones(table: TableSpec, cfg: PocketConfig = PocketConfig()) -> tuple[PocketZone, ...]:
    """The zones of a table's pockets (none for a carom table). The drop circle is the spec's
    hole (:attr:`calibration.table.PocketSpec.hole_centre_mm`, ``hole_radius_mm``; a spec without
    a hole: a circle of half the mouth about ``centre_mm``, scaled by ``drop_ratio``). The
    openings run between the spec's nose points (:meth:`PocketSpec.nose_points_mm`) on each
    nose line they lie on: both on one line for a side pocket; one on each of the two lines
    of a corner, the opening running from the nose point past the corner."""
    L, W = table.length_mm, table.width_mm
    lines = {Cushion.HEAD: (0, 0.0), Cushion.FOOT: (0, L), Cushion.RIGHT: (1, 0.0), Cushion.LEFT: (1, W)}
    out: list[PocketZone] = []
    for ps in table.pockets:
        try:
            pocket = Pocket.parse(ps.name)
        except ValueError as e:
            raise PocketSpecError(f"table {table.name}: {e}") from None
        m = float(ps.mouth_mm)
        if m <= 0:
            raise PocketSpecError(f"table {table.name}: pocket {ps.name} mouth must be positive, got {m}")
        if ps.hole_radius_mm > 0:
            centre = (float(ps.hole_centre_mm[0]), float(ps.hole_centre_mm[1]))
            drop = cfg.drop_ratio * float(ps.hole_radius_mm)
        else:
            centre = (float(ps.centre_mm[0]), float(ps.centre_mm[1]))
            drop = cfg.drop_ratio * m / 2.0
        if ps.outward != (0.0, 0.0):
            noses = ps.nose_points_mm()
        else:  # no direction in the spec: the mouth straddles the nearest nose line
            cx, cy = ps.centre_mm
            c = min(lines, key=lambda k: abs((cx, cy)[lines[k][0]] - lines[k][1]))
            ax, off = lines[c]
            a = (cx, cy)[1 - ax]
            noses = tuple(((off, a + d) if ax == 0 else (a + d, off)) for d in (-m / 2, m / 2))  # type: ignore[assignment]
        on: dict[Cushion, list[float]] = {}
        for q in noses:
            c = min(lines, key=lambda k: abs(q[lines[k][0]] - lines[k][1]))
            if abs(q[lines[c][0]] - lines[c][1]) > 0.5 * m:
                raise PocketSpecError(f"table {table.name}: pocket {ps.name} nose point {q} is not on a nose line")
            on.setdefault(c, []).append(float(q[1 - lines[c][0]]))
        openings: list[tuple[Cushion, float, float]] = []
        nose_ends: list[tuple[bool, bool]] = []
        for c, along in on.items():
            if len(along) >= 2:
                openings.append((c, min(along), max(along)))
                nose_ends.append((True, True))
            else:  # a corner: from the nose point past the table's corner
                span = L if lines[c][0] == 1 else W
                a = along[0]
                openings.append((c, -m, a) if a < span / 2 else (c, a, span + m))
                nose_ends.append((False, True) if a < span / 2 else (True, False))
        out.append(PocketZone(pocket, centre, m, drop, tuple(openings), tuple(nose_ends)))
    return tuple(out)


def _along(cushion: Cushion, p: Sequence[float]) -> float:
    return float(p[1]) if cushion in (Cushion.HEAD, Cushion.FOOT) else float(p[0])


def in_opening(
    zones: Sequence[PocketZone], cushion: Cushion, pos_mm: Sequence[float], jaw_mm: float = 0.0
) -> PocketZone | None:
    """The pocket whose opening a ball centre at ``pos_mm`` faces on ``cushion`` (the nose line is
    broken there: no cushion contact), or None. ``jaw_mm``: a centre within that distance of a
    nose point, along the line, does not count (a ball that overlaps the cushion's end meets the
    jaw: pass the ball's radius to ask whether a contact there can be a cushion's)."""
    a = _along(cushion, pos_mm)
    for z in zones:
        noses = z.noses or ((False, False),) * len(z.openings)
        for (c, lo, hi), (lo_nose, hi_nose) in zip(z.openings, noses):
            lo_in = lo + jaw_mm if lo_nose else lo
            hi_in = hi - jaw_mm if hi_nose else hi
            if c is cushion and lo_in <= a <= hi_in:
                return z
    return None


def pocket_holding(zones: Sequence[PocketZone], pos_mm: Sequence[float]) -> PocketZone | None:
    """The pocket whose drop circle holds a ball centre (a ball seen there is in the pocket)."""
    best = min(zones, key=lambda z: z.distance_mm(pos_mm), default=None)
    if best is not None and best.distance_mm(pos_mm) <= best.drop_mm:
        return best
    return None


def near_pocket(zones: Sequence[PocketZone], pos_mm: Sequence[float], margin_mm: float) -> PocketZone | None:
    """The nearest pocket whose drop circle lies within ``margin_mm`` of a centre, or None."""
    best = min(zones, key=lambda z: z.distance_mm(pos_mm), default=None)
    if best is not None and best.distance_mm(pos_mm) <= best.drop_mm + margin_mm:
        return best
    return None


@dataclass(frozen=True)
class PocketEntry:
    """A ball dropping into ``pocket`` at ``t_s`` (when its centre entered the drop circle)."""

    pocket: Pocket
    t_s: float
    confidence: float


def _circle_entry(
    p: np.ndarray, v: np.ndarray, a: np.ndarray, centre: np.ndarray, r: float, t_max: float
) -> float | None:
    """First tau in [0, t_max] at which ``p + v tau + a tau^2 / 2`` is within ``r`` of ``centre``
    (sampled finely, then bisected: the path is a gentle curve over a few frames)."""

    def inside(tau: float) -> bool:
        q = p + v * tau + 0.5 * a * tau * tau
        return float(np.hypot(*(q - centre))) <= r

    if inside(0.0):
        return 0.0
    taus = np.linspace(0.0, t_max, 65)
    prev = 0.0
    for tau in taus[1:]:
        if inside(float(tau)):
            lo, hi = prev, float(tau)
            for _ in range(30):
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if inside(mid) else (mid, hi)
            return hi
        prev = float(tau)
    return None


def pocket_entry(
    zones: Sequence[PocketZone], t_s: np.ndarray, xy_mm: np.ndarray, t_next_s: float, cfg: PocketConfig = PocketConfig()
) -> PocketEntry | None:
    """Whether a ball whose last samples are ``t_s``/``xy_mm`` (its last moving samples, the last
    one the ball's final sighting; ``t_next_s`` the time of the next sample it was not seen in,
    or inf) dropped into a pocket, and when.

    The path is a quadratic through the last few samples (deceleration kept within what cloth
    can give); the drop time is where that path first enters a drop circle, searched from the
    second-to-last sample to the last plus ``reach_s`` (bounded by ``t_next_s``). A last sample
    already inside a drop circle is a drop even when the path cannot be fitted."""
    if not zones or len(t_s) == 0:
        return None
    p_last = np.asarray(xy_mm[-1], dtype=float)
    t_last = float(t_s[-1])
    n = min(len(t_s), 6)
    tt = np.asarray(t_s[-n:], dtype=float)
    pp = np.asarray(xy_mm[-n:], dtype=float)
    if n >= 2:
        tau = tt - t_last
        deg = 2 if n >= 4 else 1
        coef = np.polyfit(tau, pp, deg)  # highest power first, (deg + 1, 2)
        if deg == 2:
            acc = 2.0 * coef[0]
            if float(np.hypot(*acc)) > 5000.0:  # a kink in the window: the last chord decides
                deg = 1
                coef = np.polyfit(tau[-2:], pp[-2:], 1)
                acc = np.zeros(2)
        else:
            acc = np.zeros(2)
        vel = coef[-2]
        pos = coef[-1]
    else:
        vel = np.zeros(2)
        acc = np.zeros(2)
        pos = p_last
    speed = float(np.hypot(*vel))
    horizon = cfg.reach_s
    if math.isfinite(t_next_s):
        horizon = max(min(horizon, float(t_next_s) - t_last), 0.0)
    t_prev = float(tt[-2]) - t_last if n >= 2 else 0.0
    best: PocketEntry | None = None
    for z in zones:
        c = np.array(z.centre_mm)
        d_last = z.distance_mm(p_last)
        if d_last > z.drop_mm + cfg.reach_mm + speed * cfg.reach_s:
            continue
        if d_last <= z.drop_mm:
            # seen inside: the entry lies between the previous sample and this one
            dt = (
                _circle_entry(
                    pos + vel * t_prev + 0.5 * acc * t_prev**2, vel + acc * t_prev, acc, c, z.drop_mm, -t_prev
                )
                if n >= 2
                else 0.0
            )
            t_in = t_last + t_prev + dt if dt is not None else t_last
            conf = 0.9
        else:
            if speed < cfg.min_speed_mm_s:
                continue
            heading = float((c - p_last) @ vel) / (max(d_last, 1e-9) * max(speed, 1e-9))
            if heading <= 0.0:
                continue  # moving away from it
            dt = _circle_entry(pos, vel, acc, c, z.drop_mm, max(horizon, 1e-3))
            if dt is None:
                # not into the circle on its path: a ball vanishing at the hole's edge (off a
                # jaw, into the jaws' shadow) still counts, less surely
                if d_last > z.drop_mm + cfg.reach_mm:
                    continue
                dt, conf = min(horizon, (d_last - z.drop_mm) / speed), 0.4
            else:
                conf = 0.8 if dt <= horizon else 0.5
            t_in = t_last + dt
        cand = PocketEntry(z.pocket, float(t_in), conf)
        if best is None or cand.confidence > best.confidence:
            best = cand
    return best


#: A ball unseen for more than this many of its sampling intervals before its first sighting in a
#: pocket's throat was lost on its way in (:func:`entry_before_sighting`).
LOST_SPACINGS = 2.5


def entry_before_sighting(
    zones: Sequence[PocketZone], t_s: np.ndarray, xy_mm: np.ndarray, k: int, cfg: PocketConfig = PocketConfig()
) -> PocketEntry | None:
    """The pocket entry of a ball first seen inside a drop circle at sample ``k`` (of ``t_s`` /
    ``xy_mm``, its samples from the start of its motion): where it went unseen for more than
    :data:`LOST_SPACINGS` of its sampling intervals before that sighting, timed on its path up to
    its last sighting outside (``k - 1``) when that path heads into the same pocket before
    ``t_s[k]``; else (and where seen a frame or two before: then the sample inside times the drop
    better) by :func:`pocket_entry` through sample ``k``.

    Why: a fast ball's last frames before it drops are streaks, or the jaws hide it; it may be
    seen again in the throat much later. A fit through that late sample times the drop from a
    path that never was: on a real broadcast (dev Clip3) the 2, last seen outside at 6.4 m/s 0.3 m
    from the hole, was seen in the throat 18 frames later, and the drop was dated 16 frames late."""
    holding = pocket_holding(zones, xy_mm[k])
    lost = False
    if k >= 2:
        # unseen for a while before the sighting inside (else the sample inside, a frame after
        # the last outside, times the drop best: the way between them is short)
        lost = float(t_s[k] - t_s[k - 1]) > LOST_SPACINGS * float(np.median(np.diff(t_s[:k])))
    if lost and holding is not None:
        entry = pocket_entry([holding], t_s[:k], xy_mm[:k], float(t_s[k]), cfg)
        if entry is not None:
            return entry
    return pocket_entry(zones, t_s[: k + 1], xy_mm[: k + 1], float(t_s[k]) + 1e-9, cfg)
