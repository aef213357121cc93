"""A ball jumping off a pool table, from an analytic rigid-ball model (no pooltool).

pooltool 0.6 keeps every ball on the cloth, so a shot where a ball leaves the table cannot come
from it. This module simulates one itself, in three dimensions, event by event:

- **The stroke** (:func:`jump_off_shot`): the cue ball, at rest, takes ``speed_mm_s`` along the
  cue axis, aimed at ``target_xy`` in plan and pointing *down* into the table at ``elevation_deg``
  (a jump stroke through the ball's centre: no side or draw, no spin). The slate answers at once:
  the downward part rebounds with the cloth's restitution, the cloth's friction takes some of the
  forward speed into topspin. ``elevation_deg`` 0 is an ordinary centre-ball stroke.
- **On the cloth**: sliding with friction ``mu_slide`` g against the contact point's slip, the
  slip falling at 7/2 mu g until the ball rolls (a centre-ball stroke rolls at 5/7 of its speed);
  rolling with resistance ``mu_roll`` g until it stops. No spin about the vertical (no english);
  no swerve.
- **In the air**: a projectile under g = 9.81 m/s^2 (no drag, no Magnus force); its spin carries
  unchanged. Landing on the cloth: the vertical speed rebounds times ``e_cloth``, the cloth's
  friction impulse (at most ``mu_cloth`` times the normal impulse, at most enough to stop the
  slip) acts on the slip; a rebound slower than ``settle_vz_mm_s`` ends the hopping.
- **Ball-ball**: frictionless and elastic between equal masses, along the line of centres in 3D,
  so a ball in the air striking one on the cloth above its equator drives it into the cloth,
  which throws it up: how object balls are jumped off real tables. Spins are unchanged.
- **Cushions**: a ball on the cloth meets a cushion in the plane (its centre a radius from the
  nose line, pooltool's convention): the normal velocity reverses times ``e_cushion``, the
  tangential velocity and the spin stay (a simplification of the compliant cushion). A ball in
  the air meets the cushion's 3D profile across the rail: the nose edge at
  ``cushion_nose_height_mm``, the cushion top rising over ``cushion_width_mm`` to
  ``rail_height_mm``, the flat wooden rail ``rail_width_mm`` wide (as the renderer draws them);
  the contact is an impulse along the normal from the touched point to the centre, restitution
  ``e_nose`` on the rubber, ``e_rail`` on the wood, friction as on the cloth.
- **Leaving the table**: when a centre passes beyond a rail's outer edge (nose line +
  ``cushion_width_mm`` + ``rail_width_mm``) the ball is off the table: ``on_table`` False from
  then on, an ``OffTable`` truth event at that instant; it falls on (not drawn) to the floor.

Truth events take the pooltool shots' form (:mod:`synth.physics.trajectory`): ``ShotStart`` (the
resting positions), ``BallBall`` (balls [striking, struck], pos the midpoint of the centres at
contact, times exact to well below a microsecond by bisection), ``CushionHit`` (pos the centre at
contact; for a ball in the air any touch of the cushion rubber, nose or top: a touch of the
wooden rail top is recorded only in ``meta['rail_top_contacts']``), ``OffTable``, ``ShotEnd``
(the balls still on the table, at rest).

Limits, said plainly: no pockets (a contact at a pocket's mouth raises :class:`JumpModelError`);
a ball that would come to rest on a cushion or rail top, or bounce on it weaker than
``settle_vz_mm_s``, raises too; the cushion on the cloth is planar; no english, squirt, swerve or
throw; balls are rigid (contacts are instants). Events are found by stepping
``step_s`` at a time and bisecting a contact inside the step: a graze that overlaps less than
about the relative motion squared over a diameter within one step (< 0.1 mm at 4 m/s and the
default 0.25 ms) can be missed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from calibration.table import TableSpec
from common.errors import TabletrackError
from synth.physics.trajectory import SimShot
from tracking.events import BallBall, CushionHit, Event, OffTable, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion

G_MM_S2 = 9810.0
BALL_MASS_KG = 0.170097

_REST, _SLIDE, _ROLL, _AIR, _OFF = range(5)


class JumpModelError(TabletrackError):
    """The shot leaves what this model can simulate (pockets, a ball at rest on a rail, too long)."""


@dataclass(frozen=True)
class JumpPhysics:
    """Friction and restitution (dimensionless) and the stepping of the simulation."""

    mu_slide: float = 0.2
    mu_roll: float = 0.01
    e_cloth: float = 0.5
    mu_cloth: float = 0.2
    e_cushion: float = 0.85
    e_nose: float = 0.7
    mu_nose: float = 0.2
    e_rail: float = 0.5
    mu_rail: float = 0.2
    settle_vz_mm_s: float = 40.0
    floor_depth_mm: float = 700.0  # the floor below the cloth: where a ball off the table stops
    step_s: float = 2.5e-4
    sample_hz: float = 1000.0
    rest_before_s: float = 0.5
    rest_after_s: float = 0.5
    max_motion_s: float = 12.0


@dataclass(frozen=True)
class JumpResult:
    """The shot and, per sample, the balls' total mechanical energy (J: translation, spin, height
    above the cloth; ``BALL_MASS_KG`` each), which the model never lets grow."""

    shot: SimShot
    energy_j: np.ndarray


# -- one ball's free motion ------------------------------------------------------------------------


@dataclass
class _Ball:
    p: np.ndarray
    v: np.ndarray
    w: np.ndarray
    mode: int

    def copy(self) -> _Ball:
        return _Ball(self.p.copy(), self.v.copy(), self.w.copy(), self.mode)


def _slip(b: _Ball, R: float) -> np.ndarray:
    return np.array([b.v[0] - R * b.w[1], b.v[1] + R * b.w[0]])


def _advance(b: _Ball, tau: float, R: float, ph: JumpPhysics) -> tuple[_Ball, float | None]:
    """The ball ``tau`` seconds on, with no contact; the second value is when (from now) it came
    to rest, if it did."""
    b = b.copy()
    if tau <= 0.0 or b.mode == _REST:
        return b, None
    if b.mode in (_AIR, _OFF):
        if b.mode == _OFF and b.p[2] <= R - ph.floor_depth_mm:
            return b, None
        b.p = b.p + b.v * tau + np.array([0.0, 0.0, -0.5 * G_MM_S2 * tau * tau])
        b.v = b.v + np.array([0.0, 0.0, -G_MM_S2 * tau])
        if b.mode == _OFF and b.p[2] <= R - ph.floor_depth_mm:
            b.p[2], b.v[:], b.w[:] = R - ph.floor_depth_mm, 0.0, 0.0
        return b, None
    if b.mode == _SLIDE:
        u = _slip(b, R)
        su = float(np.hypot(*u))
        if su < 1e-9:
            b.mode = _ROLL
            return _advance(b, tau, R, ph)
        uh = u / su
        a = ph.mu_slide * G_MM_S2
        t_roll = 2.0 * su / (7.0 * a)
        t = min(tau, t_roll)
        b.p[:2] = b.p[:2] + b.v[:2] * t - 0.5 * a * uh * t * t
        b.v[:2] = b.v[:2] - a * uh * t
        b.w[:2] = b.w[:2] + (5.0 * a / (2.0 * R)) * np.array([-uh[1], uh[0]]) * t
        if t < tau:
            b.w[0], b.w[1] = -b.v[1] / R, b.v[0] / R  # exactly rolling
            b.mode = _ROLL
            b2, stop = _advance(b, tau - t, R, ph)
            return b2, None if stop is None else t + stop
        return b, None
    # rolling
    s = float(np.hypot(b.v[0], b.v[1]))
    if s < 1e-9:
        b.v[:], b.w[:], b.mode = 0.0, 0.0, _REST
        return b, 0.0
    vh = b.v[:2] / s
    a = ph.mu_roll * G_MM_S2
    t_stop = s / a
    t = min(tau, t_stop)
    b.p[:2] = b.p[:2] + b.v[:2] * t - 0.5 * a * vh * t * t
    b.v[:2] = b.v[:2] - a * vh * t
    if t < tau or t == t_stop:
        b.v[:], b.w[:], b.mode = 0.0, 0.0, _REST
        return b, t_stop
    b.w[0], b.w[1] = -b.v[1] / R, b.v[0] / R
    return b, None


def _impulse(b: _Ball, n: np.ndarray, e: float, mu: float, R: float) -> None:
    """A contact with a fixed surface whose unit normal ``n`` points from the touched point to
    the centre: the normal speed rebounds times ``e``; Coulomb friction on the contact point's
    slip, no more than stops it (so the contact never adds energy)."""
    vn = float(b.v @ n)
    if vn >= 0.0:
        return
    jn = -(1.0 + e) * vn
    r = -R * n
    u = b.v + np.cross(b.w, r)
    ut = u - (u @ n) * n
    sut = float(np.linalg.norm(ut))
    jt = np.zeros(3) if sut < 1e-12 else -min(mu * jn, 2.0 / 7.0 * sut) * ut / sut
    j = jn * n + jt
    b.v = b.v + j
    b.w = b.w + np.cross(r, j) / (0.4 * R * R)


# -- the table's cushions in profile --------------------------------------------------------------


def _outward(c: Cushion) -> np.ndarray:
    return {
        Cushion.HEAD: np.array([-1.0, 0.0]),
        Cushion.FOOT: np.array([1.0, 0.0]),
        Cushion.RIGHT: np.array([0.0, -1.0]),
        Cushion.LEFT: np.array([0.0, 1.0]),
    }[c]


def _beyond(c: Cushion, xy: np.ndarray, table: TableSpec) -> float:
    """How far ``xy`` lies outside cushion ``c``'s nose line (negative on the cloth)."""
    if c is Cushion.HEAD:
        return -float(xy[0])
    if c is Cushion.FOOT:
        return float(xy[0]) - table.length_mm
    if c is Cushion.RIGHT:
        return -float(xy[1])
    return float(xy[1]) - table.width_mm


def _closest_on_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    t = float(np.clip((p - a) @ d / float(d @ d), 0.0, 1.0))
    return a + t * d


def _profile_contact(c: Cushion, centre: np.ndarray, table: TableSpec) -> tuple[float, np.ndarray, str]:
    """(distance from the centre to cushion ``c``'s profile, unit 3D normal from the closest point
    to the centre, 'rubber' or 'rail')."""
    s, z = _beyond(c, centre[:2], table), float(centre[2])
    hn, hr = table.cushion_nose_height_mm, table.rail_height_mm
    cw, rw = table.cushion_width_mm, table.rail_width_mm
    p = np.array([s, z])
    nose, back, edge = np.array([0.0, hn]), np.array([cw, hr]), np.array([cw + rw, hr])
    q1, q2 = _closest_on_segment(p, nose, back), _closest_on_segment(p, back, edge)
    d1, d2 = float(np.hypot(*(p - q1))), float(np.hypot(*(p - q2)))
    q, d, what = (q1, d1, "rubber") if d1 <= d2 else (q2, d2, "rail")
    n2 = (p - q) / max(d, 1e-12)
    o = _outward(c)
    return d, np.array([n2[0] * o[0], n2[0] * o[1], n2[1]]), what


def _over_bed(xy: np.ndarray, table: TableSpec) -> bool:
    return all(_beyond(c, xy, table) < 0.0 for c in Cushion)


def _at_pocket(xy: np.ndarray, table: TableSpec) -> str | None:
    R = table.ball_radius_mm
    for p in table.pockets:
        reach = p.capture_radius_mm or 0.5 * p.mouth_mm + R
        if math.hypot(xy[0] - p.centre_mm[0], xy[1] - p.centre_mm[1]) <= reach:
            return p.name
    return None


# -- the simulation ------------------------------------------------------------------------------


def _bisect(f, lo: float, hi: float, iters: int = 48) -> float:
    """The first crossing of ``f`` from >= 0 to < 0 in [lo, hi] (f(lo) >= 0 > f(hi))."""
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if f(mid) < 0.0:
            hi = mid
        else:
            lo = mid
    return hi


class _Sim:
    def __init__(self, table: TableSpec, balls: Sequence[BallId], state: list[_Ball], ph: JumpPhysics):
        self.table, self.balls, self.b, self.ph = table, tuple(balls), state, ph
        self.R = table.ball_radius_mm
        self.events: list[Event] = []
        self.rail_top: list[dict] = []
        self.last_stop_s = 0.0

    def moving(self, i: int) -> bool:
        b = self.b[i]
        return b.mode in (_SLIDE, _ROLL, _AIR) or (b.mode == _OFF and b.p[2] > self.R - self.ph.floor_depth_mm)

    def energy_j(self) -> float:
        R, e = self.R, 0.0
        for b in self.b:
            e += 0.5 * float(b.v @ b.v) + 0.5 * 0.4 * R * R * float(b.w @ b.w) + G_MM_S2 * (float(b.p[2]) - R)
        return BALL_MASS_KG * e * 1e-6

    def at(self, i: int, tau: float) -> _Ball:
        return _advance(self.b[i], tau, self.R, self.ph)[0]

    # each finder: (tau, resolve callable) of its first contact in [0, h], or None
    def _contacts(self, h: float):
        R, table = self.R, self.table
        n = len(self.b)
        mov = [self.moving(i) for i in range(n)]
        end = [self.at(i, h) if mov[i] else self.b[i] for i in range(n)]
        # (tau, (kind, ball, the other ball | the cushion | None))
        found: list[tuple[float, tuple[str, int, int | Cushion | None]]] = []
        for i in range(n):
            for j in range(i + 1, n):
                if not (mov[i] or mov[j]) or _OFF in (self.b[i].mode, self.b[j].mode):
                    continue
                d1 = float(np.linalg.norm(end[i].p - end[j].p)) - 2 * R
                if d1 >= 0.0:
                    continue
                d0 = float(np.linalg.norm(self.b[i].p - self.b[j].p)) - 2 * R
                if d1 >= d0:
                    continue

                def ball_gap(t: float, i: int = i, j: int = j) -> float:
                    return float(np.linalg.norm(self.at(i, t).p - self.at(j, t).p)) - 2 * R

                tau = 0.0 if d0 < 0.0 else _bisect(ball_gap, 0.0, h)
                found.append((tau, ("ball", i, j)))
        for i in range(n):
            if not mov[i]:
                continue
            b, e = self.b[i], end[i]
            if b.mode == _OFF:
                continue
            for c in Cushion:
                lim = table.cushion_width_mm + table.rail_width_mm
                if _beyond(c, e.p[:2], table) > lim >= _beyond(c, b.p[:2], table):

                    def off_margin(t: float, i: int = i, c: Cushion = c, lim: float = lim) -> float:
                        return lim - _beyond(c, self.at(i, t).p[:2], table)

                    found.append((_bisect(off_margin, 0.0, h), ("off", i, c)))
            if b.mode in (_SLIDE, _ROLL):
                for c in Cushion:
                    s0, s1 = _beyond(c, b.p[:2], table), _beyond(c, e.p[:2], table)
                    if s1 > -R and s1 > s0:

                        def cushion_gap(t: float, i: int = i, c: Cushion = c) -> float:
                            return -R - _beyond(c, self.at(i, t).p[:2], table)

                        tau = 0.0 if s0 > -R else _bisect(cushion_gap, 0.0, h)
                        found.append((tau, ("cushion", i, c)))
            else:  # in the air
                if e.p[2] < R and e.v[2] < 0.0:
                    z0, vz = float(b.p[2]), float(b.v[2])
                    disc = vz * vz + 2.0 * G_MM_S2 * (z0 - R)
                    tau = (vz + math.sqrt(max(disc, 0.0))) / G_MM_S2 if z0 > R else 0.0
                    tau = min(max(tau, 0.0), h)
                    if _over_bed(self.at(i, tau).p[:2], table):
                        found.append((tau, ("cloth", i, None)))
                for c in Cushion:
                    if max(_beyond(c, b.p[:2], table), _beyond(c, e.p[:2], table)) < -2 * R:
                        continue
                    g0 = _profile_contact(c, b.p, table)[0] - R
                    g1 = _profile_contact(c, e.p, table)[0] - R
                    if g1 < 0.0 and g1 < g0:

                        def profile_gap(t: float, i: int = i, c: Cushion = c) -> float:
                            return _profile_contact(c, self.at(i, t).p, table)[0] - R

                        tau = 0.0 if g0 < 0.0 else _bisect(profile_gap, 0.0, h)
                        found.append((tau, ("profile", i, c)))
        return min(found, key=lambda x: x[0]) if found else None

    def step(self, t0: float, h: float) -> None:
        """Advance every ball by ``h`` seconds from time ``t0``, resolving contacts on the way."""
        done = 0.0
        for _ in range(1000):
            if h - done <= 1e-12:
                return
            hit = self._contacts(h - done)
            tau = (h - done) if hit is None else hit[0]
            for i in range(len(self.b)):
                if self.moving(i):
                    self.b[i], stop = _advance(self.b[i], tau, self.R, self.ph)
                    if stop is not None:
                        self.last_stop_s = t0 + done + stop
            done += tau
            if hit is not None:
                self._resolve(hit[1], t0 + done)
        raise JumpModelError(f"expected the contacts to separate within a step, got 1000 at t = {t0:.4f} s")

    def _settle_on_cloth(self, i: int) -> None:
        """A ball at the cloth's height: a downward velocity rebounds; a weak rebound stays down."""
        b, R, ph = self.b[i], self.R, self.ph
        if b.p[2] > R + 1e-6:
            b.mode = _AIR
            return
        b.p[2] = R
        if b.v[2] < 0.0:
            _impulse(b, np.array([0.0, 0.0, 1.0]), ph.e_cloth, ph.mu_cloth, R)
        if b.v[2] > ph.settle_vz_mm_s:
            b.mode = _AIR
            return
        b.v[2] = 0.0
        moving = float(np.hypot(b.v[0], b.v[1])) > 1e-9 or float(np.hypot(*_slip(b, R))) > 1e-9
        b.mode = _SLIDE if moving else _REST

    def _resolve(self, what, t: float) -> None:
        kind, i, x = what
        R, ph, table = self.R, self.ph, self.table
        b = self.b[i]
        if kind == "ball":
            j, o = x, self.b[x]
            n = (o.p - b.p) / float(np.linalg.norm(o.p - b.p))
            vi, vj = float(b.v @ n), float(o.v @ n)
            if vi - vj <= 0.0:
                return
            striking, struck = (i, j) if vi >= -vj else (j, i)
            # one contact of the two balls and the cloth under them: impulses in turn (each one
            # dissipates or conserves energy) until nothing approaches any more
            for _ in range(100):
                vi, vj = float(b.v @ n), float(o.v @ n)
                if vi - vj <= 1e-9:
                    break
                b.v, o.v = b.v + (vj - vi) * n, o.v + (vi - vj) * n
                for k in (i, j):
                    self._settle_on_cloth(k)
            mid = 0.5 * (b.p[:2] + o.p[:2])
            self.events.append(
                BallBall(
                    t_s=round(t, 6),
                    frame=0,
                    shot=1,
                    confidence=1.0,
                    balls=(self.balls[striking], self.balls[struck]),
                    pos_mm=(round(float(mid[0]), 2), round(float(mid[1]), 2)),
                )
            )
        elif kind == "cloth":
            self._settle_on_cloth(i)
        elif kind == "cushion":
            pocket = _at_pocket(b.p[:2] + R * _outward(x), table)
            if pocket is not None:
                raise JumpModelError(
                    f"{self.balls[i].value} reaches the {pocket} pocket at t = {t:.3f} s: "
                    "expected cushion contacts away from the pockets (this model has none)"
                )
            o = np.append(_outward(x), 0.0)
            vn = float(b.v @ o)
            if vn > 0.0:
                b.v = b.v - (1.0 + ph.e_cushion) * vn * o
                b.mode = _SLIDE
                self._cushion_event(i, x, t)
        elif kind == "profile":
            d, n, where = _profile_contact(x, b.p, table)
            pocket = _at_pocket(b.p[:2] + R * _outward(x), table)
            if pocket is not None:
                raise JumpModelError(
                    f"{self.balls[i].value} comes down at the {pocket} pocket at t = {t:.3f} s: "
                    "expected flight away from the pockets (this model has none)"
                )
            if float(b.v @ n) >= 0.0:
                return
            e, mu = (ph.e_nose, ph.mu_nose) if where == "rubber" else (ph.e_rail, ph.mu_rail)
            _impulse(b, n, e, mu, R)
            if float(b.v @ n) < ph.settle_vz_mm_s:
                raise JumpModelError(
                    f"{self.balls[i].value} stops bouncing on the {x.value} "
                    f"{'cushion' if where == 'rubber' else 'rail'} at t = {t:.3f} s: expected it to "
                    "fly clear (a ball at rest on a rail is outside this model)"
                )
            if where == "rubber":
                self._cushion_event(i, x, t)
            else:
                self.rail_top.append(
                    {
                        "ball": self.balls[i].value,
                        "cushion": x.value,
                        "t_s": round(t, 6),
                        "pos_mm": [round(float(v), 2) for v in b.p],
                    }
                )
        elif kind == "off":
            b.mode = _OFF
            self.events.append(OffTable(t_s=round(t, 6), frame=0, shot=1, confidence=1.0, ball=self.balls[i]))

    def _cushion_event(self, i: int, c: Cushion, t: float) -> None:
        p = self.b[i].p
        self.events.append(
            CushionHit(
                t_s=round(t, 6),
                frame=0,
                shot=1,
                confidence=1.0,
                ball=self.balls[i],
                cushion=c,
                pos_mm=(round(float(p[0]), 2), round(float(p[1]), 2)),
            )
        )


def simulate_jump(
    table: TableSpec,
    rest_positions: Mapping[BallId, tuple[float, float]],
    cue_ball: BallId,
    target_xy: tuple[float, float],
    speed_mm_s: float,
    elevation_deg: float,
    physics: JumpPhysics = JumpPhysics(),
    meta: Mapping | None = None,
) -> JumpResult:
    """:func:`jump_off_shot` with the energy trace (for checks). Raises :class:`JumpModelError`."""
    ph = physics
    R = table.ball_radius_mm
    balls = tuple(rest_positions)
    if cue_ball not in rest_positions:
        raise JumpModelError(f"expected the cue ball {cue_ball.value} among the balls, got {[b.value for b in balls]}")
    if not 0.0 <= elevation_deg < 90.0 or speed_mm_s <= 0.0:
        raise JumpModelError(
            f"expected speed > 0 and elevation in [0, 90) degrees, got {speed_mm_s} mm/s, {elevation_deg} degrees"
        )
    pts = np.array([rest_positions[b] for b in balls], dtype=np.float64)
    for k, b in enumerate(balls):
        if not _over_bed(pts[k], table) or min(-_beyond(c, pts[k], table) for c in Cushion) < R - 1e-6:
            raise JumpModelError(f"expected {b.value} on the cloth at least a radius from the cushions, got {pts[k]}")
    dd = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(len(balls)) * 1e9
    if dd.min() < 2 * R - 1e-6:
        raise JumpModelError(f"expected balls apart, got two centres {dd.min():.2f} mm apart (diameter {2 * R} mm)")
    aim = np.asarray(target_xy, np.float64) - pts[balls.index(cue_ball)]
    if float(np.hypot(*aim)) < 1e-6:
        raise JumpModelError("expected target_xy away from the cue ball")
    aim /= float(np.hypot(*aim))

    state = [_Ball(np.array([p[0], p[1], R]), np.zeros(3), np.zeros(3), _REST) for p in pts]
    sim = _Sim(table, balls, state, ph)
    dt = 1.0 / ph.sample_hz
    t_strike = ph.rest_before_s
    n_before = int(round(t_strike * ph.sample_hz))
    ts: list[float] = []
    xy: list[np.ndarray] = []
    zs: list[np.ndarray] = []
    on: list[np.ndarray] = []
    en: list[float] = []

    def record(t: float) -> None:
        ts.append(t)
        xy.append(np.array([b.p[:2] for b in sim.b]))
        zs.append(np.array([b.p[2] for b in sim.b]))
        on.append(np.array([b.mode != _OFF for b in sim.b]))
        en.append(sim.energy_j())

    for k in range(n_before):
        record(k * dt)
    sim.events.append(
        ShotStart(
            t_s=round(t_strike, 6),
            frame=0,
            shot=1,
            confidence=1.0,
            cue_ball=cue_ball,
            positions={b: (round(float(p[0]), 2), round(float(p[1]), 2)) for b, p in zip(balls, pts)},
        )
    )
    cb = sim.b[balls.index(cue_ball)]
    el = math.radians(elevation_deg)
    cb.v = np.array(
        [speed_mm_s * math.cos(el) * aim[0], speed_mm_s * math.cos(el) * aim[1], -speed_mm_s * math.sin(el)]
    )
    sim._settle_on_cloth(balls.index(cue_ball))
    k = n_before
    t_end = None
    while True:
        t = k * dt
        record(t)
        if t_end is None and not any(sim.moving(i) for i in range(len(balls)) if sim.b[i].mode != _OFF):
            t_end = max([sim.last_stop_s, t_strike] + [e.t_s for e in sim.events])
        if t_end is not None and t >= t_end + ph.rest_after_s:
            break
        if t - t_strike > ph.max_motion_s:
            raise JumpModelError(
                f"expected every ball at rest within {ph.max_motion_s} s of the stroke, still moving at t = {t:.2f} s"
            )
        steps = max(1, int(math.ceil(dt / ph.step_s - 1e-9)))
        for s in range(steps):
            sim.step(t + s * dt / steps, dt / steps)
        k += 1
    ends = {
        b: (round(float(sim.b[i].p[0]), 2), round(float(sim.b[i].p[1]), 2))
        for i, b in enumerate(balls)
        if sim.b[i].mode != _OFF
    }
    events = sorted(sim.events, key=lambda e: e.t_s)
    events.append(ShotEnd(t_s=round(t_end, 6), frame=0, shot=1, confidence=1.0, positions=ends))
    info = dict(meta or {})
    # "generator" and "physics" name the module as written in the committed data (its path before
    # issue 9): reruns stay byte-identical
    info.update(
        {
            "generator": "vision.synth.jump",
            "sample_hz": ph.sample_hz,
            "stroke_t_s": t_strike,
            "rest_t_s": round(t_end, 6),
            "strike": {
                "speed_mm_s": speed_mm_s,
                "elevation_deg": elevation_deg,
                "aim_xy": [round(float(v), 6) for v in aim],
                "target_xy_mm": [float(v) for v in target_xy],
            },
            "physics": {
                "model": "vision.synth.jump (rigid balls, analytic; module docstring)",
                "g_mm_s2": G_MM_S2,
                "ball_mass_kg": BALL_MASS_KG,
                **asdict(ph),
            },
            "rail_top_contacts": sim.rail_top,
            "truth_conventions": {
                "frame": "0 in every truth event: the renderer recomputes frames at its fps from t_s",
                "ball_ball": "balls = [striking, struck]; pos = contact point (midpoint of centres)",
                "cushion": "pos = ball centre at contact; on the cloth R from the nose line; in the air any touch of "
                "the cushion rubber (nose or top)",
                "off_table": "t = the centre passes beyond the rail's outer edge; on_table False from then on",
                "shot_end": "t = every ball on the table at rest; positions of balls on the table",
            },
        }
    )
    shot = SimShot(
        table=table.name,
        balls=balls,
        t_s=np.array(ts),
        xy_mm=np.array(xy),
        z_mm=np.array(zs),
        on_table=np.array(on),
        events=tuple(events),
        meta=info,
    )
    return JumpResult(shot=shot, energy_j=np.array(en))


def jump_off_shot(
    table: TableSpec,
    rest_positions: Mapping[BallId, tuple[float, float]],
    cue_ball: BallId,
    target_xy: tuple[float, float],
    speed_mm_s: float,
    elevation_deg: float,
    physics: JumpPhysics = JumpPhysics(),
    meta: Mapping | None = None,
) -> SimShot:
    """The shot (module docstring) from balls at rest at ``rest_positions`` (table mm, every ball
    on the cloth), ``cue_ball`` struck toward ``target_xy`` at ``speed_mm_s`` with the cue
    ``elevation_deg`` above the horizontal. Times: rest for ``physics.rest_before_s``, the stroke
    (``ShotStart``), motion, rest for ``physics.rest_after_s`` after ``ShotEnd``. Raises
    :class:`JumpModelError` where the shot leaves the model, and where no ball leaves the table
    (the point of the shot)."""
    shot = simulate_jump(table, rest_positions, cue_ball, target_xy, speed_mm_s, elevation_deg, physics, meta).shot
    if not any(isinstance(e, OffTable) for e in shot.events):
        raise JumpModelError(
            f"expected a ball to leave the table, got none at {speed_mm_s:.0f} mm/s, {elevation_deg:.1f} degrees"
        )
    return shot
