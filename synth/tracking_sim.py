"""Analytic carom shots with exact event times, and the samplers that turn them into test data.

A small event-driven simulator, independent of the code under test: between events each ball
moves with constant acceleration (a rolling deceleration along its velocity, plus, for a while
after a contact, a sideways or along-path acceleration standing for spin: swerve, follow, draw),
so positions are quadratics in time and every contact time is an exact polynomial root:

- cushion: the centre reaches R from a nose line; the normal velocity reverses with restitution
  ``e_cushion`` (optionally the tangential one changes by ``side_mm_s``: running side);
- ball-ball (equal masses): centres 2R apart; the normal components are exchanged with
  restitution ``e_ball``; the striker (the faster ball) then follows or draws (``spin_mm_s2``)
  for ``spin_s``.

Samplers: a camera at ``fps`` (Gaussian noise on each centre), and another tracking system's
irregular reports (a sample when a ball has moved ``step_mm`` from its last report, gaps where
nothing is reported, centres clamped R inside the cushions; DESIGN.md "What real inputs look
like"). :func:`simshot_result` views a pooltool :class:`~synth.physics.trajectory.SimShot` the same
way, so the same samplers apply.

Scoring the code under test against this truth (``Comparison``, ``compare``, the tracker's
detections) is test code: ``tests/tracking/sim_scoring.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from calibration.table import TableSpec
from tracking.ids import BallId, Cushion
from tracking.trajectory import Trajectory

ROLL_DECEL_MM_S2 = 150.0


@dataclass
class _Phase:
    t0: float
    t1: float
    p0: np.ndarray
    v0: np.ndarray
    acc: np.ndarray

    def pos(self, t: float) -> np.ndarray:
        tau = t - self.t0
        return self.p0 + self.v0 * tau + 0.5 * self.acc * tau * tau

    def vel(self, t: float) -> np.ndarray:
        return self.v0 + self.acc * (t - self.t0)


@dataclass(frozen=True)
class TruthEvent:
    kind: str  # "cushion" | "ball"
    t_s: float
    balls: tuple[BallId, ...]  # (ball,) or (striking, struck)
    cushion: Cushion | None = None


@dataclass
class SimResult:
    balls: tuple[BallId, ...]
    phases: dict[BallId, list[_Phase]]
    events: list[TruthEvent]
    t_end_s: float
    start_s: float
    cue_ball: BallId

    def pos(self, ball: BallId, t: float) -> np.ndarray:
        ph = self.phases[ball]
        for p in ph:
            if p.t0 <= t <= p.t1:
                return p.pos(t)
        if t < ph[0].t0:
            return ph[0].p0.copy()
        return ph[-1].pos(ph[-1].t1)

    def rest_time(self, ball: BallId) -> float:
        """When the ball last stopped (its last phase's start when that phase is at rest)."""
        return self.phases[ball][-1].t0


def _roll_phase(t: float, p: np.ndarray, v: np.ndarray, t_max: float) -> _Phase:
    speed = float(np.hypot(*v))
    if speed < 1e-9:
        return _Phase(t, t_max, p.copy(), np.zeros(2), np.zeros(2))
    acc = -ROLL_DECEL_MM_S2 * v / speed
    return _Phase(t, min(t + speed / ROLL_DECEL_MM_S2, t_max), p.copy(), v.copy(), acc)


def _first_root(coeffs: np.ndarray, lo: float, hi: float) -> float | None:
    """Smallest real root of a polynomial (highest power first) in (lo, hi]."""
    c = np.trim_zeros(np.asarray(coeffs, dtype=float), "f")
    if len(c) <= 1:
        return None
    roots = np.roots(c)
    dc = np.polyder(c)
    real = []
    for r in roots:
        if abs(r.imag) > 1e-6 * max(1.0, abs(r.real)):
            continue
        x = float(r.real)
        for _ in range(3):  # Newton polish: np.roots loses digits on quartics
            d = np.polyval(dc, x)
            if d == 0:
                break
            x -= np.polyval(c, x) / d
        if lo < x <= hi:
            real.append(x)
    return min(real) if real else None


def simulate(
    table: TableSpec,
    layout: dict[BallId, tuple[float, float]],
    cue_ball: BallId,
    cue_velocity_mm_s: tuple[float, float],
    start_s: float = 0.5,
    t_max_s: float = 12.0,
    e_cushion: float = 0.8,
    e_ball: float = 0.95,
    spin_mm_s2: float = 0.0,
    spin_s: float = 0.15,
    swerve_mm_s2: float = 0.0,
    side_mm_s: float = 0.0,
) -> SimResult:
    R, D = table.ball_radius_mm, table.ball_diameter_mm
    L, W = table.length_mm, table.width_mm
    balls = tuple(layout)
    phases: dict[BallId, list[_Phase]] = {}
    for b in balls:
        p = np.array(layout[b], dtype=float)
        phases[b] = [_Phase(0.0, start_s if b is cue_ball else t_max_s, p, np.zeros(2), np.zeros(2))]
    cur: dict[BallId, _Phase] = {b: phases[b][-1] for b in balls}
    events: list[TruthEvent] = []
    t = start_s
    v0 = np.array(cue_velocity_mm_s, dtype=float)
    ph = _roll_phase(t, np.array(layout[cue_ball], float), v0, t_max_s)
    cur[cue_ball] = ph
    phases[cue_ball].append(ph)

    def set_phase(b: BallId, new: _Phase) -> None:
        old = cur[b]
        old.t1 = new.t0
        cur[b] = new
        phases[b].append(new)

    normals = {
        Cushion.HEAD: (np.array([1.0, 0.0]), 0.0),
        Cushion.FOOT: (np.array([-1.0, 0.0]), L),
        Cushion.RIGHT: (np.array([0.0, 1.0]), 0.0),
        Cushion.LEFT: (np.array([0.0, -1.0]), W),
    }
    for _ in range(400):
        moving = [b for b in balls if np.any(cur[b].v0 != 0) or np.any(cur[b].acc != 0)]
        if not moving:
            break
        best: tuple[float, str, tuple] | None = None
        for b in moving:
            phb = cur[b]
            if best is None or phb.t1 < best[0]:
                best = (phb.t1, "phase", (b,))
            for cu, (nrm, off) in normals.items():
                n0 = float(nrm @ phb.pos(t)) + off  # distance of the centre from the nose line
                vn = float(nrm @ phb.vel(t))
                an = float(nrm @ phb.acc)
                root = _first_root(np.array([0.5 * an, vn, n0 - R]), 1e-9, phb.t1 - t)
                if root is not None and float(nrm @ phb.vel(t + root)) < 0:
                    tc = t + root
                    if best is None or tc < best[0]:
                        best = (tc, "cushion", (b, cu))
        for i, a in enumerate(balls):
            for b in balls[i + 1 :]:
                if a not in moving and b not in moving:
                    continue
                pa, pb = cur[a], cur[b]
                dp = pa.pos(t) - pb.pos(t)
                dv = pa.vel(t) - pb.vel(t)
                da = pa.acc - pb.acc
                hi = min(pa.t1, pb.t1) - t
                # |dp + dv tau + 0.5 da tau^2|^2 - D^2
                c2 = 0.5 * da
                poly = np.zeros(5)
                for k in range(2):
                    q = np.array([c2[k], dv[k], dp[k]])
                    poly += np.convolve(q, q)
                poly[-1] -= D * D
                root = _first_root(poly, 1e-9, hi)
                if root is None:
                    continue
                tc = t + root
                rel = (pa.pos(tc) - pb.pos(tc)) @ (pa.vel(tc) - pb.vel(tc))
                if rel < 0 and (best is None or tc < best[0]):
                    best = (tc, "ball", (a, b))
        assert best is not None
        tc, kind, who = best
        if tc >= t_max_s:
            break
        t = tc
        if kind == "phase":
            (b,) = who
            phb = cur[b]
            p, v = phb.pos(t), phb.vel(t)
            if phb.acc is not None and np.allclose(phb.acc, -ROLL_DECEL_MM_S2 * phb.v0 / max(np.hypot(*phb.v0), 1e-12)):
                set_phase(b, _Phase(t, t_max_s, p, np.zeros(2), np.zeros(2)))  # stopped
            else:
                set_phase(b, _roll_phase(t, p, v, t_max_s))
        elif kind == "cushion":
            b, cu = who
            nrm = normals[cu][0]
            phb = cur[b]
            p, v = phb.pos(t), phb.vel(t)
            vn = float(v @ nrm)
            tang = np.array([-nrm[1], nrm[0]])
            vt = float(v @ tang) + side_mm_s
            v_new = -e_cushion * vn * nrm + vt * tang
            events.append(TruthEvent("cushion", t, (b,), cu))
            if swerve_mm_s2:
                speed = float(np.hypot(*v_new))
                side = np.array([-v_new[1], v_new[0]]) / max(speed, 1e-9)
                acc = -ROLL_DECEL_MM_S2 * v_new / max(speed, 1e-9) + swerve_mm_s2 * side
                set_phase(b, _Phase(t, min(t + spin_s, t_max_s), p, v_new, acc))
            else:
                set_phase(b, _roll_phase(t, p, v_new, t_max_s))
        else:
            a, b = who
            pa, pb = cur[a], cur[b]
            xa, xb = pa.pos(t), pb.pos(t)
            va, vb = pa.vel(t), pb.vel(t)
            n = (xb - xa) / np.linalg.norm(xb - xa)
            ua, ub = float(va @ n), float(vb @ n)
            # the striker: the faster ball just before (the convention of synth.physics's truth)
            striking, struck = (a, b) if np.hypot(*va) >= np.hypot(*vb) else (b, a)
            j = 0.5 * (1 + e_ball) * (ua - ub)
            va2 = va - j * n
            vb2 = vb + j * n
            events.append(TruthEvent("ball", t, (striking, struck)))
            for ball, x, vnew, vold in ((a, xa, va2, va), (b, xb, vb2, vb)):
                speed = float(np.hypot(*vnew))
                if ball == striking and spin_mm_s2 and float(np.hypot(*vold)) > 0:
                    dirn = vold / np.hypot(*vold)
                    acc = spin_mm_s2 * dirn - ROLL_DECEL_MM_S2 * vnew / max(speed, 1e-9)
                    set_phase(ball, _Phase(t, min(t + spin_s, t_max_s), x, vnew, acc))
                else:
                    set_phase(ball, _roll_phase(t, x, vnew, t_max_s))
    end = max(cur[b].t0 for b in balls)
    for b in balls:
        cur[b].t1 = max(cur[b].t1, t_max_s)
    return SimResult(balls, phases, events, end, start_s, cue_ball)


def sample_video(
    sim: SimResult,
    fps: float,
    noise_mm: float,
    seed: int,
    duration_s: float | None = None,
    phase_s: float | None = None,
) -> dict[BallId, Trajectory]:
    """The camera: every ball's centre at each frame, with Gaussian noise."""
    rng = np.random.default_rng(seed)
    dur = (sim.t_end_s + 1.5) if duration_s is None else duration_s
    off = rng.uniform(0, 1.0 / fps) if phase_s is None else phase_s
    n = int(dur * fps)
    ts = off + np.arange(n) / fps
    out = {}
    for b in sim.balls:
        xy = np.array([sim.pos(b, float(t)) for t in ts]) + rng.normal(0, noise_mm, (n, 2))
        out[b] = Trajectory.from_samples(b, ts, xy[:, 0], xy[:, 1], frame=np.arange(n))
    return out


def sample_irregular(
    sim: SimResult,
    table: TableSpec,
    seed: int,
    step_mm: float = 10.0,
    noise_mm: float = 0.5,
    gap_prob: float = 0.3,
    max_gap_s: float = 1.0,
    rate_hz: float = 500.0,
) -> dict[BallId, Trajectory]:
    """Another tracking system: a report when the ball has moved ``step_mm`` since the last one
    (the first at t = 0), nothing during random gaps (up to ``max_gap_s``, one per ball with
    probability ``gap_prob``), centres clamped R inside the cushions."""
    rng = np.random.default_rng(seed)
    R = table.ball_radius_mm
    ts = np.arange(0.0, sim.t_end_s + 1.0, 1.0 / rate_hz)
    out = {}
    for b in sim.balls:
        gap = None
        moving_t = [ph.t0 for ph in sim.phases[b] if np.any(ph.v0 != 0)]
        if moving_t and rng.random() < gap_prob:
            g0 = rng.uniform(moving_t[0] + 0.2, max(sim.rest_time(b), moving_t[0] + 0.3))
            gap = (g0, g0 + rng.uniform(0.3, max_gap_s))
        rows = []
        last = None
        for t in ts:
            p = sim.pos(b, float(t))
            if gap and gap[0] <= t <= gap[1]:
                continue
            if last is None or np.hypot(*(p - last)) >= step_mm:
                q = p + rng.normal(0, noise_mm, 2)
                q[0] = min(max(q[0], R), table.length_mm - R)
                q[1] = min(max(q[1], R), table.width_mm - R)
                rows.append((t, q[0], q[1]))
                last = p
        arr = np.array(rows)
        out[b] = Trajectory.from_samples(b, arr[:, 0], arr[:, 1], arr[:, 2])
    return out


@dataclass(frozen=True)
class Scenario:
    name: str
    layout: dict[BallId, tuple[float, float]]
    cue_ball: BallId
    velocity_mm_s: tuple[float, float]
    kwargs: dict = field(default_factory=dict)

    def run(self, table: TableSpec) -> SimResult:
        return simulate(table, self.layout, self.cue_ball, self.velocity_mm_s, **self.kwargs)


W_, Y_, R_ = BallId.WHITE, BallId.YELLOW, BallId.RED


def place_for_contact(
    table: TableSpec, sim: SimResult, ball: BallId, t_s: float, angle_deg: float
) -> tuple[float, float]:
    """Where to put a resting ball so that ``ball`` (moving in ``sim``) reaches it at ``t_s``: 2R
    from its centre then, at ``angle_deg`` from its direction of motion."""
    p = sim.pos(ball, t_s)
    eps = 1e-4
    v = (sim.pos(ball, t_s + eps) - sim.pos(ball, t_s - eps)) / (2 * eps)
    a = math.atan2(v[1], v[0]) + math.radians(angle_deg)
    q = p + table.ball_diameter_mm * np.array([math.cos(a), math.sin(a)])
    return (float(q[0]), float(q[1]))


def scenarios(table: TableSpec) -> list[Scenario]:
    """The table of test shots: straight cushions, corners, collisions (stun, cut, kiss of two
    moving balls), spin, and two contacts of the cue ball under one frame apart either way."""
    out = [
        Scenario("one_cushion", {W_: (700.0, 500.0), Y_: (2000.0, 1100.0), R_: (2300.0, 300.0)}, W_, (-1400.0, 350.0)),
        Scenario("around_table", {W_: (500.0, 400.0), Y_: (1420.0, 710.0), R_: (2500.0, 1200.0)}, W_, (2600.0, 1500.0)),
        Scenario("corner", {W_: (2400.0, 1000.0), Y_: (700.0, 300.0), R_: (1200.0, 1200.0)}, W_, (1200.0, 1013.0)),
        Scenario("stun_collision", {W_: (600.0, 700.0), Y_: (1200.0, 700.0), R_: (2400.0, 300.0)}, W_, (1800.0, 0.0)),
        Scenario(
            "cut_then_cushions",
            {W_: (600.0, 500.0), Y_: (1300.0, 620.0), R_: (2300.0, 1150.0)},
            W_,
            (2500.0, 300.0),
            {"spin_mm_s2": 1500.0},
        ),
        Scenario(
            "swerve_after_cushions",
            {W_: (400.0, 300.0), Y_: (1900.0, 1250.0), R_: (2600.0, 200.0)},
            W_,
            (1700.0, 1400.0),
            {"swerve_mm_s2": 600.0, "spin_s": 0.25, "side_mm_s": 150.0},
        ),
        Scenario(
            "two_moving_kiss",
            {W_: (500.0, 300.0), Y_: (1500.0, 400.0), R_: (1000.0, 1100.0)},
            W_,
            (2200.0, 200.0),
            {"e_ball": 0.93},
        ),
    ]
    out += same_frame_scenarios(table)
    return out


def same_frame_scenarios(table: TableSpec, gap_s: float = 0.005) -> list[Scenario]:
    """The cue ball meets a cushion and a ball ``gap_s`` apart, in both orders."""
    layout0 = {W_: (900.0, 600.0), Y_: (300.0, 200.0), R_: (2400.0, 300.0)}
    v = (1100.0, 1300.0)
    base = simulate(table, layout0, W_, v)
    cush = next(e for e in base.events if e.kind == "cushion" and e.balls == (W_,))
    out = []
    # cushion first, then the ball gap_s later (struck 35 deg off the path after the bounce, on
    # the side away from the path in)
    q = place_for_contact(table, base, W_, cush.t_s + gap_s, 35.0)
    out.append(Scenario("cushion_then_ball_same_frame", {**layout0, Y_: q}, W_, v))
    # the ball first (struck along the cushion, just off it: the cue ball keeps heading in), then
    # the cushion
    q2 = place_for_contact(table, base, W_, cush.t_s - gap_s, -55.0)
    out.append(Scenario("ball_then_cushion_same_frame", {**layout0, Y_: q2}, W_, v))
    return out


def observable(sim: SimResult, truth: list[TruthEvent]) -> list[TruthEvent]:
    """The truth events a path can show. Left out: a ball frozen to a cushion (ShotStart truth
    ``frozen_to_cushion``) pressed into it as it is set moving - its first contact with that
    cushion within 50 ms of its first event: the simulator resolves the press as separate
    contacts, a camera sees one start (three-cushion art. 10 does not count it either) - and a
    repeat of the same ball pair within 5 ms (the same press)."""
    frozen = {}
    for st in getattr(sim, "starts", [])[:1]:
        frozen = dict(st.frozen_to_cushion)
    out: list[TruthEvent] = []
    first_event: dict[BallId, float] = {}
    for e in truth:
        for b in e.balls:
            first_event.setdefault(b, e.t_s)
    dropped_frozen: set[BallId] = set()
    for e in truth:
        if (
            e.kind == "cushion"
            and frozen.get(e.balls[0]) is e.cushion
            and e.balls[0] not in dropped_frozen
            and e.t_s - first_event[e.balls[0]] <= 0.05
        ):
            dropped_frozen.add(e.balls[0])
            continue
        if e.kind == "ball" and any(
            o.kind == "ball" and set(o.balls) == set(e.balls) and 0 <= e.t_s - o.t_s <= 0.005 for o in out
        ):
            continue
        out.append(e)
    return out


# ----------------------------------------------------------------------------------------------
# pooltool shots (sample_data/shots/*.npz, synth.physics.trajectory.SimShot)


def simshot_result(shot) -> SimResult:
    """A :class:`SimResult`-like view of a pooltool :class:`SimShot` (its exact 1 kHz paths and
    truth events), so the same samplers and comparison apply."""
    from tracking.events import BallBall, CushionHit, ShotStart

    events: list[TruthEvent] = []
    for e in shot.events:
        if isinstance(e, CushionHit):
            events.append(TruthEvent("cushion", e.t_s, (e.ball,), e.cushion))
        elif isinstance(e, BallBall):
            events.append(TruthEvent("ball", e.t_s, tuple(e.balls)))
    starts = [e for e in shot.events if isinstance(e, ShotStart)]
    return _SimShotView(shot, events, starts)


class _SimShotView(SimResult):
    def __init__(self, shot, events, starts) -> None:
        self.shot = shot
        self.balls = tuple(shot.balls)
        self.events = events
        self.t_end_s = float(shot.t_s[-1]) - 1.5
        self.start_s = starts[0].t_s if starts else 0.0
        self.cue_ball = starts[0].cue_ball if starts else shot.balls[0]
        self.starts = starts
        self.phases = {}

    def pos(self, ball: BallId, t: float) -> np.ndarray:
        xy, _, _ = self.shot.state_at(t)
        return xy[self.balls.index(ball)]

    def positions(self, ts: np.ndarray) -> np.ndarray:
        """(len(ts), B, 2) linearly interpolated exact centres."""
        out = np.empty((len(ts), len(self.balls), 2))
        for b in range(len(self.balls)):
            for c in range(2):
                out[:, b, c] = np.interp(ts, self.shot.t_s, self.shot.xy_mm[:, b, c])
        return out

    def rest_time(self, ball: BallId) -> float:
        b = self.balls.index(ball)
        v = np.linalg.norm(np.diff(self.shot.xy_mm[:, b], axis=0), axis=1)
        moving = np.flatnonzero(v > 1e-3)
        return float(self.shot.t_s[moving[-1] + 1]) if len(moving) else 0.0


def sample_video_fast(sim: SimResult, fps: float, noise_mm: float, seed: int) -> dict[BallId, Trajectory]:
    """:func:`sample_video` for a pooltool shot (vectorised over its 1 kHz arrays), whole clip."""
    rng = np.random.default_rng(seed)
    shot = sim.shot  # type: ignore[attr-defined]
    off = rng.uniform(0, 1.0 / fps)
    ts = np.arange(off, float(shot.t_s[-1]), 1.0 / fps)
    xy = sim.positions(ts) + rng.normal(0, noise_mm, (len(ts), len(sim.balls), 2))  # type: ignore[attr-defined]
    return {
        b: Trajectory.from_samples(b, ts, xy[:, i, 0], xy[:, i, 1], frame=np.arange(len(ts)))
        for i, b in enumerate(sim.balls)
    }


def sample_irregular_fast(
    sim: SimResult,
    table: TableSpec,
    seed: int,
    step_mm: float = 10.0,
    noise_mm: float = 0.5,
    gap_prob: float = 0.3,
    max_gap_s: float = 1.0,
) -> dict[BallId, Trajectory]:
    """:func:`sample_irregular` for a pooltool shot (its own 1 kHz samples)."""
    rng = np.random.default_rng(seed)
    shot = sim.shot  # type: ignore[attr-defined]
    R = table.ball_radius_mm
    out = {}
    for i, b in enumerate(sim.balls):
        xy = shot.xy_mm[:, i]
        v = np.linalg.norm(np.diff(xy, axis=0), axis=1)
        moving = np.flatnonzero(v > 1e-3)
        gap = None
        if len(moving) and rng.random() < gap_prob:
            t0, t1 = float(shot.t_s[moving[0]]) + 0.2, float(shot.t_s[moving[-1]])
            if t1 > t0:
                g0 = rng.uniform(t0, t1)
                gap = (g0, g0 + rng.uniform(0.3, max_gap_s))
        rows = []
        last = None
        for k in range(len(shot.t_s)):
            t = float(shot.t_s[k])
            if gap and gap[0] <= t <= gap[1]:
                continue
            p = xy[k]
            if last is None or np.hypot(*(p - last)) >= step_mm:
                q = p + rng.normal(0, noise_mm, 2)
                q[0] = min(max(q[0], R), table.length_mm - R)
                q[1] = min(max(q[1], R), table.width_mm - R)
                rows.append((t, q[0], q[1]))
                last = p
        arr = np.array(rows)
        out[b] = Trajectory.from_samples(b, arr[:, 0], arr[:, 1], arr[:, 2])
    return out


def final_positions(sim: SimResult) -> dict[BallId, tuple[float, float]]:
    p = {b: sim.pos(b, sim.t_end_s + 100.0) for b in sim.balls}
    return {b: (float(v[0]), float(v[1])) for b, v in p.items()}


def concatenate(parts: list[dict[BallId, Trajectory]], offsets_s: list[float]) -> dict[BallId, Trajectory]:
    """Clips sampled separately, played one after the other (each shifted by its offset, frames
    renumbered to continue), as one set of trajectories."""
    out: dict[BallId, Trajectory] = {}
    for b in parts[0]:
        ts, xs, ys, fs = [], [], [], []
        frame0 = 0
        for part, off in zip(parts, offsets_s):
            tr = part[b]
            ts.append(tr.t_s + off)
            xs.append(tr.x_mm)
            ys.append(tr.y_mm)
            fs.append(tr.frame + frame0)
            frame0 += int(tr.frame[-1]) + 1
        out[b] = Trajectory.from_samples(
            b, np.concatenate(ts), np.concatenate(xs), np.concatenate(ys), frame=np.concatenate(fs)
        )
    return out


def with_row_frames(trajs: dict[BallId, Trajectory]) -> dict[BallId, Trajectory]:
    """Irregular reports numbered as a CSV file would be: frame = row index in time order."""
    rows = sorted((float(t), b.value, b, k) for b, tr in trajs.items() for k, t in enumerate(tr.t_s))
    frames: dict[BallId, list[int]] = {b: [0] * len(tr) for b, tr in trajs.items()}
    for i, (_, _, b, k) in enumerate(rows):
        frames[b][k] = i
    return {b: Trajectory.from_samples(b, tr.t_s, tr.x_mm, tr.y_mm, frame=frames[b]) for b, tr in trajs.items()}
