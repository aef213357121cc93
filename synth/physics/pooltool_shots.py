"""Simulating carom strokes with pooltool and writing them as :class:`SimShot` truth.

pooltool (0.6.0, a data-generation extra installed by ``tools/setup_sim_env.sh``, never a runtime
or CI dependency) is an event-based simulator: it solves the exact time of every ball-ball,
ball-cushion and motion-state transition event, and between events a ball's state follows closed
form equations. This module

- builds pooltool's three-cushion table and balls from our :class:`TableSpec` (``carom_match``:
  2.84 x 1.42 m, R = 30.75 mm, cushion nose 37 mm; ball mass and friction from pooltool's
  ``BILLIARD_GENERIC``), in pooltool's frame (see :mod:`synth.physics.pooltool_frame`);
- runs one stroke (:meth:`StrokeSimulator.simulate`) with pooltool's built-in default physics
  (``default_resolver()``, not the user's ``~/.config/pooltool`` YAML, so that regeneration does
  not depend on a local file);
- turns pooltool's events into the contract's truth events with pooltool's exact times
  (``ShotStart``, ``BallBall`` (striking, struck), ``CushionHit``, ``ShotEnd``), and samples the
  exact trajectories on a uniform 1 kHz grid (``pt.interpolate_ball_states``, which evolves each
  ball from its last event state with the simulator's own equations);
- assembles one or more consecutive strokes into a clip (:func:`assemble_clip`): ``pre_s`` of
  balls at rest, each stroke, rests between, and at least ``post_s`` at rest after the last.

Truth conventions (also written to each file's ``meta``):

- ``frame`` of every truth event is 0: a SimShot has no frame rate; the renderer recomputes frames
  at its own fps from ``t_s``.
- ``confidence`` is 1.0.
- ``BallBall.balls`` is (striking, struck): the moving ball that hit a resting one, or of two
  moving balls the faster one just before the contact; ``pos_mm`` is the contact point (the
  midpoint of the two centres, which are 2R apart).
- ``CushionHit.pos_mm`` is the ball centre at contact (R from that cushion's nose line).
- ``ShotEnd.t_s`` is when pooltool has every ball stationary, spin in place included (art. 13);
  the last *translation* may end earlier and is recorded in ``meta`` as ``last_motion_t_s``.
- pooltool has no airborne model (balls never leave the cloth), so ``z_mm`` is R throughout,
  ``on_table`` is always True, and no ``OffTable`` events arise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from calibration.table import TableSpec
from common.errors import TabletrackError
from synth.physics.carom_call import three_cushion_call
from synth.physics.pooltool_frame import (
    aim_deg_to_phi_deg,
    cushion_of_segment,
    frame_description,
    pt_to_table_mm,
    table_mm_to_pt,
)
from synth.physics.resting import balls_in_contact, frozen_to_cushion
from synth.physics.trajectory import SimShot
from tracking.events import BallBall, CushionHit, Event, ShotEnd, ShotStart
from tracking.ids import BallId

PointMm = tuple[float, float]

SAMPLE_HZ = 1000
DEFAULT_PRE_S = 0.7
DEFAULT_POST_S = 0.8
DEFAULT_GAP_S = 1.2
MIN_CLIP_S = 4.0


class SimulationError(TabletrackError):
    """A layout or stroke cannot be simulated or assembled as asked."""


@dataclass(frozen=True)
class CueStrike:
    """One cue stroke in our table frame. ``aim_deg`` is the cue direction (0 = +x toward the
    foot, 90 = +y toward the left cushion); ``v0_m_s`` the cue-stick speed at impact (pooltool
    ``V0``); ``theta_deg`` the cue elevation; ``a`` side offset (+1 = the ball's left edge as the
    player sees it, pooltool's sign), ``b`` top (+) / bottom (-) offset, both in ball radii."""

    cue_ball: BallId
    v0_m_s: float
    aim_deg: float
    theta_deg: float = 0.0
    a: float = 0.0
    b: float = 0.0

    @property
    def phi_deg(self) -> float:
        """pooltool's ``phi`` for ``aim_deg``."""
        return aim_deg_to_phi_deg(self.aim_deg)

    def to_meta(self) -> dict[str, Any]:
        return {
            "cue_ball": self.cue_ball.value,
            "V0_m_s": self.v0_m_s,
            "aim_deg": self.aim_deg,
            "phi_deg_pooltool": self.phi_deg,
            "theta_deg": self.theta_deg,
            "a": self.a,
            "b": self.b,
        }


@dataclass(frozen=True)
class Stroke:
    """One simulated stroke. Times are seconds from the cue's impact (``t = 0``); ``events`` are
    truth events of shot 1 in that time base, ``ShotStart`` first and ``ShotEnd`` (at ``rest_s``)
    last. ``system`` is the simulated pooltool ``System`` (for sampling; not compared)."""

    layout: Mapping[BallId, PointMm]
    strike: CueStrike
    events: tuple[Event, ...]
    rest_s: float
    last_motion_s: float
    final_positions: Mapping[BallId, PointMm]
    pooltool_is_point: bool | None
    width_mm: float
    system: Any = field(compare=False, repr=False)

    @property
    def balls(self) -> tuple[BallId, ...]:
        return tuple(self.layout)

    def sample(self, t_rel_s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact (xy_mm (N, B, 2), z_mm (N, B)) at stroke times ``t_rel_s`` (ascending); before 0
        the balls are at their layout, after ``rest_s`` at their final positions."""
        import pooltool as pt

        t = np.asarray(t_rel_s, dtype=np.float64)
        xy = np.empty((len(t), len(self.layout), 2))
        z = np.empty((len(t), len(self.layout)))
        for j, ball in enumerate(self.layout):
            pb = self.system.balls[ball.value]
            states = pt.interpolate_ball_states(pb, t, extrapolate=True)
            r = np.array([s.rvw[0] for s in states])
            xy[:, j, 0] = 1000.0 * r[:, 1]
            xy[:, j, 1] = self.width_mm - 1000.0 * r[:, 0]
            z[:, j] = 1000.0 * r[:, 2]
        return xy, z

    @cached_property
    def path_1khz(self) -> tuple[np.ndarray, np.ndarray]:
        """(t_rel_s (N,), xy_mm (N, B, 2)) from the stroke to rest at 1 kHz, for placing balls."""
        t = np.arange(0, int(math.ceil(self.rest_s * SAMPLE_HZ)) + 1) / SAMPLE_HZ
        xy, _ = self.sample(t)
        return t, xy

    def velocity_mm_s(self, ball: BallId, t_rel_s: float) -> np.ndarray:
        """Exact velocity (vx, vy) in mm/s of ``ball`` at stroke time ``t_rel_s``."""
        import pooltool as pt

        (s,) = pt.interpolate_ball_states(self.system.balls[ball.value], [t_rel_s], extrapolate=True)
        v = s.rvw[1]
        return np.array([1000.0 * v[1], -1000.0 * v[0]])

    @property
    def call(self):
        return three_cushion_call(self.events)


class StrokeSimulator:
    """pooltool's carom table and balls made to match ``table`` (importing pooltool here)."""

    def __init__(self, table: TableSpec) -> None:
        import pooltool as pt
        from pooltool.objects.table.specs import BilliardTableSpecs
        from pooltool.physics.engine import PhysicsEngine
        from pooltool.physics.resolve.resolver import default_resolver

        self._pt = pt
        self.table = table
        self.r_mm = table.ball_radius_mm
        specs = BilliardTableSpecs(
            l=table.length_mm / 1000.0,
            w=table.width_mm / 1000.0,
            cushion_height=table.cushion_nose_height_mm / 1000.0,
        )
        self._pt_table = pt.Table.from_table_specs(specs)
        base = pt.BallParams.default(game_type=pt.GameType.THREECUSHION)
        self._params = replace_attrs(base, R=table.ball_radius_mm / 1000.0)
        self._engine = PhysicsEngine(resolver=default_resolver())

    def physics_description(self) -> dict[str, Any]:
        """The physical parameters used, for ``meta``."""
        p = self._params
        res = self._engine.resolver
        return {
            "pooltool_version": self._pt.__version__,
            "ball": {
                "m_kg": p.m,
                "R_m": p.R,
                "u_s": p.u_s,
                "u_r": p.u_r,
                "u_sp": p.u_sp,
                "u_b": p.u_b,
                "e_b": p.e_b,
                "e_c": p.e_c,
                "f_c": p.f_c,
                "g": p.g,
            },
            "table": {
                "l_m": self._pt_table.l,
                "w_m": self._pt_table.w,
                "cushion_height_m": self.table.cushion_nose_height_mm / 1000.0,
            },
            "models": {
                "ball_ball": type(res.ball_ball).__name__,
                "ball_linear_cushion": type(res.ball_linear_cushion).__name__,
                "stick_ball": type(res.stick_ball).__name__,
                "transition": type(res.transition).__name__,
            },
        }

    def _check_layout(self, layout: Mapping[BallId, PointMm]) -> None:
        L, W, r = self.table.length_mm, self.table.width_mm, self.r_mm
        for ball, (x, y) in layout.items():
            if not (r - 1e-6 <= x <= L - r + 1e-6 and r - 1e-6 <= y <= W - r + 1e-6):
                raise SimulationError(
                    f"{ball.value} at ({x:.2f}, {y:.2f}) mm: expected a centre at least R = {r} mm "
                    f"inside the {L:g} x {W:g} mm playing surface"
                )
        items = list(layout.items())
        for i, (a, pa) in enumerate(items):
            for b, pb in items[i + 1 :]:
                if math.dist(pa, pb) < 2 * r - 1e-6:
                    raise SimulationError(
                        f"{a.value} and {b.value} overlap: centres {math.dist(pa, pb):.2f} mm apart, "
                        f"expected at least 2R = {2 * r} mm"
                    )

    def simulate(self, layout: Mapping[BallId, PointMm], strike: CueStrike) -> Stroke:
        """Simulate ``strike`` from ``layout`` (any subset of balls, the cue ball among them)."""
        pt = self._pt
        if strike.cue_ball not in layout:
            raise SimulationError(f"cue ball {strike.cue_ball.value} is not in the layout {list(layout)}")
        self._check_layout(layout)
        W = self.table.width_mm
        balls = {
            b.value: pt.Ball.create(b.value, xy=table_mm_to_pt(x, y, W), **_params_kwargs(self._params))
            for b, (x, y) in layout.items()
        }
        cue = pt.Cue(cue_ball_id=strike.cue_ball.value)
        system = pt.System(cue=cue, table=self._pt_table.copy(), balls=balls)
        system.cue.set_state(V0=strike.v0_m_s, phi=strike.phi_deg, theta=strike.theta_deg, a=strike.a, b=strike.b)
        pt.simulate(system, engine=self._engine, inplace=True)
        events, rest_s, last_motion_s, final = self._truth(system, layout, strike)
        verdict = None
        if len(layout) == 3:
            from pooltool.ruleset.three_cushion import is_point

            verdict = bool(is_point(system))
        return Stroke(
            layout=dict(layout),
            strike=strike,
            events=events,
            rest_s=rest_s,
            last_motion_s=last_motion_s,
            final_positions=final,
            pooltool_is_point=verdict,
            width_mm=W,
            system=system,
        )

    def _truth(self, system: Any, layout: Mapping[BallId, PointMm], strike: CueStrike):
        pt = self._pt
        W, r = self.table.width_mm, self.r_mm
        ET = pt.EventType

        def xy_of(ball_state: Any) -> PointMm:
            p = ball_state.rvw[0]
            return pt_to_table_mm(p[0], p[1], W)

        events: list[Event] = [
            ShotStart(
                t_s=0.0,
                frame=0,
                shot=1,
                confidence=1.0,
                cue_ball=strike.cue_ball,
                positions=dict(layout),
                frozen_to_cushion=frozen_to_cushion(layout, self.table.length_mm, W, r),
                balls_in_contact=balls_in_contact(layout, r),
            )
        ]
        last_motion = 0.0
        for ev in system.events:
            et = ev.event_type
            if et == ET.BALL_BALL:
                id1, id2 = ev.ids
                b1 = ev.get_ball(id1, initial=True).state
                b2 = ev.get_ball(id2, initial=True).state
                s1 = float(np.linalg.norm(b1.rvw[1][:2]))
                s2 = float(np.linalg.norm(b2.rvw[1][:2]))
                striking, struck = (id1, id2) if s1 >= s2 else (id2, id1)
                f1 = xy_of(ev.get_ball(id1, initial=False).state)
                f2 = xy_of(ev.get_ball(id2, initial=False).state)
                mid = ((f1[0] + f2[0]) / 2.0, (f1[1] + f2[1]) / 2.0)
                events.append(
                    BallBall(
                        t_s=float(ev.time),
                        frame=0,
                        shot=1,
                        confidence=1.0,
                        balls=(BallId.parse(striking), BallId.parse(struck)),
                        pos_mm=mid,
                    )
                )
            elif et == ET.BALL_LINEAR_CUSHION:
                bid, seg = ev.ids
                pos = xy_of(ev.get_ball(bid, initial=False).state)
                events.append(
                    CushionHit(
                        t_s=float(ev.time),
                        frame=0,
                        shot=1,
                        confidence=1.0,
                        ball=BallId.parse(bid),
                        cushion=cushion_of_segment(seg),
                        pos_mm=pos,
                    )
                )
            elif et in (ET.BALL_CIRCULAR_CUSHION, ET.BALL_POCKET):
                raise SimulationError(f"unexpected pooltool event {et} on a carom table")
            elif et in (ET.ROLLING_STATIONARY, ET.ROLLING_SPINNING):
                last_motion = max(last_motion, float(ev.time))
        rest_s = float(system.events[-1].time)
        final = {b: xy_of(system.balls[b.value].history[-1]) for b in layout}
        events.append(ShotEnd(t_s=rest_s, frame=0, shot=1, confidence=1.0, positions=final))
        return tuple(events), rest_s, last_motion, final


def replace_attrs(obj: Any, **changes: Any) -> Any:
    """``attrs.evolve`` without importing attrs at module level."""
    import attrs

    return attrs.evolve(obj, **changes)


def _params_kwargs(params: Any) -> dict[str, Any]:
    import attrs

    return {f.name: getattr(params, f.name) for f in attrs.fields(type(params))}


def _shift(ev: Event, dt_s: float, shot: int) -> Event:
    return replace(ev, t_s=ev.t_s + dt_s, shot=shot)


def assemble_clip(
    strokes: Sequence[Stroke],
    table: TableSpec,
    balls: Sequence[BallId],
    meta: Mapping[str, Any],
    physics: Mapping[str, Any] | None = None,
    pre_s: float = DEFAULT_PRE_S,
    gap_s: float = DEFAULT_GAP_S,
    post_s: float = DEFAULT_POST_S,
    min_total_s: float = MIN_CLIP_S,
) -> SimShot:
    """One SimShot of consecutive strokes (shot numbers 1, 2, ...): ``pre_s`` at rest, stroke 1,
    ``gap_s`` at rest, stroke 2, ..., then at least ``post_s`` at rest (more when needed to make
    the clip ``min_total_s`` long). Each stroke must start from where the previous one stopped.
    Stroke starts fall on the 1 kHz grid; event times are the pooltool times shifted by them."""
    if not strokes:
        raise SimulationError("assemble_clip needs at least one stroke, got none")
    balls = tuple(balls)
    for k, s in enumerate(strokes):
        if set(s.layout) != set(balls):
            raise SimulationError(
                f"stroke {k + 1} has balls {[b.value for b in s.layout]}, expected {[b.value for b in balls]}"
            )
        if k > 0:
            prev = strokes[k - 1].final_positions
            worst = max(math.dist(prev[b], s.layout[b]) for b in balls)
            if worst > 1e-6:
                raise SimulationError(f"stroke {k + 1} does not start where stroke {k} stopped (off by {worst:.6f} mm)")
    starts_ms: list[int] = []
    t_ms = int(round(pre_s * SAMPLE_HZ))
    for s in strokes:
        starts_ms.append(t_ms)
        t_ms = int(math.ceil((t_ms / SAMPLE_HZ + s.rest_s + gap_s) * SAMPLE_HZ))
    end_s = starts_ms[-1] / SAMPLE_HZ + strokes[-1].rest_s
    total_s = max(end_s + post_s, min_total_s)
    n = int(math.ceil(total_s * SAMPLE_HZ)) + 1
    ticks = np.arange(n)
    t_s = ticks / SAMPLE_HZ
    xy = np.empty((n, len(balls), 2))
    z = np.empty((n, len(balls)))
    owner = np.searchsorted(np.array(starts_ms), ticks, side="right") - 1
    owner = np.maximum(owner, 0)
    events: list[Event] = []
    shots_meta: list[dict[str, Any]] = []
    for i, s in enumerate(strokes):
        idx = np.nonzero(owner == i)[0]
        sxy, sz = s.sample((idx - starts_ms[i]) / SAMPLE_HZ)
        order = [s.balls.index(b) for b in balls]
        xy[idx] = sxy[:, order]
        z[idx] = sz[:, order]
        t0 = starts_ms[i] / SAMPLE_HZ
        shot_events = tuple(_shift(ev, t0, i + 1) for ev in s.events)
        events.extend(shot_events)
        call = three_cushion_call(shot_events)
        shots_meta.append(
            {
                "shot": i + 1,
                "strike": s.strike.to_meta(),
                "stroke_t_s": t0,
                "rest_t_s": t0 + s.rest_s,
                "last_motion_t_s": t0 + s.last_motion_s,
                "expected_call": call.to_meta(),
                "pooltool_is_point": s.pooltool_is_point,
            }
        )
    full_meta = dict(meta)
    full_meta.update(
        {
            "shots": shots_meta,
            "sample_hz": SAMPLE_HZ,
            "truth_conventions": {
                "frame": "0 in every truth event: the renderer recomputes frames at its fps from t_s",
                "ball_ball": "balls = [striking, struck]; pos = contact point (midpoint of centres)",
                "cushion": "pos = ball centre at contact, R from the cushion nose line",
                "shot_end": "t = all balls stationary incl. spin in place; see last_motion_t_s",
                "times": "pooltool event times (exact), shifted by stroke_t_s",
            },
            "frame_map": frame_description(table.width_mm, table.length_mm),
        }
    )
    if physics is not None:
        full_meta["physics"] = dict(physics)
    return SimShot(
        table=table.name,
        balls=balls,
        t_s=t_s,
        xy_mm=xy,
        z_mm=z,
        on_table=np.ones((n, len(balls)), dtype=bool),
        events=tuple(events),
        meta=full_meta,
    )
