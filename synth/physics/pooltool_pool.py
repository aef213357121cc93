"""Simulating pool and snooker strokes with pooltool and writing them as :class:`SimShot` truth.

pooltool (0.6.0, the data-generation venv of ``tools/setup_sim_env.sh``; never a runtime or CI
dependency: it is imported only inside the functions that need it) simulates pocket tables event
by event: ball-ball, ball-cushion (straight noses, straight jaw faces, rounded jaw tips), ball-pocket
and motion transitions, at exact times. This module

- builds pooltool's pocket table for one of our tables (:class:`PocketTable`): the playing-surface
  size and ball radius are ours (DESIGN.md: pool 9 ft 2540 x 1270 mm, 57.15 mm balls; snooker
  3569 x 1778 mm, 52.5 mm balls), the pocket and jaw geometry is pooltool's (``7 Ft Showood`` for
  pool, ``Generic Snooker``); pooltool itself ships no 9 ft table (its pool default is 7 ft,
  1981.2 x 990.6 mm) and its snooker default is 3544.5 x 1746.5 mm with 52.39 mm balls, both
  smaller than the specs, so its sizes are replaced and the difference recorded in ``meta``;
- turns a simulated pooltool ``System`` into truth events of the event log
  (:func:`system_truth`): ``ShotStart``, ``BallBall`` (striking, struck), ``CushionHit`` for every
  ball (object balls too; a jaw contact is a contact with the rail the jaw ends), ``Pocketed``
  (our :class:`~tracking.ids.Pocket`, via :mod:`synth.physics.pooltool_pocket_frame`) and
  ``ShotEnd`` with every ball still on the table;
- samples a stroke's exact paths at 1 kHz into a one-stroke clip (:func:`stroke_clip`); a pocketed
  ball is ``on_table`` False from its pocket event on and sits at pooltool's pocket centre below
  the cloth (``z_mm`` = -pocket depth).

pooltool has no airborne model: balls never leave the cloth (``z_mm`` = R on the table), so no
``OffTable`` event or jump can be simulated, and none is faked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from common.errors import TabletrackError
from synth.physics.pooltool_frame import aim_deg_to_phi_deg, pt_to_table_mm, table_mm_to_pt
from synth.physics.pooltool_pocket_frame import (
    NOSE_SEGMENTS,
    ball_of_pt,
    cushion_of_pocket_segment,
    pocket_of_pt,
    pt_ball_of,
)
from synth.physics.trajectory import SimShot
from tracking.events import BallBall, CushionHit, Event, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId

PointMm = tuple[float, float]
SAMPLE_HZ = 1000


class PocketSimulationError(TabletrackError):
    """A pocket-table layout or stroke cannot be simulated as asked."""


@dataclass(frozen=True)
class PocketTable:
    """One of our pocket tables as the simulator builds it. ``spots_mm`` in our frame: pool
    ``foot_spot``, ``head_spot``, ``head_string_x`` (x of the head string, as (x, W/2));
    snooker the six colour spots and ``baulk_line_x``/``d_radius`` as (value, 0)."""

    name: str
    family: str  # "pool" or "snooker"
    length_mm: float
    width_mm: float
    ball_radius_mm: float
    pt_specs_name: str
    spots_mm: Mapping[str, PointMm] = field(default_factory=dict)

    @property
    def snooker(self) -> bool:
        return self.family == "snooker"

    @property
    def cue_ball(self) -> BallId:
        return BallId.CUE


def _pool_9ft() -> PocketTable:
    L, W = 2540.0, 1270.0
    return PocketTable(
        name="pool_9ft",
        family="pool",
        length_mm=L,
        width_mm=W,
        ball_radius_mm=57.15 / 2,
        pt_specs_name="7 Ft Showood",
        spots_mm={"foot_spot": (0.75 * L, W / 2), "head_spot": (0.25 * L, W / 2), "head_string": (0.25 * L, W / 2)},
    )


def _snooker() -> PocketTable:
    # WPBSA: baulk line 737 mm (29 in) from the baulk cushion face, D radius 292 mm (11.5 in),
    # blue on the centre spot, pink midway between it and the top cushion, black 324 mm (12.75 in)
    # from the top cushion; yellow on the right-hand corner of the D (our y < W/2), green the left.
    L, W = 3569.0, 1778.0
    baulk, d = 737.0, 292.0
    return PocketTable(
        name="snooker",
        family="snooker",
        length_mm=L,
        width_mm=W,
        ball_radius_mm=52.5 / 2,
        pt_specs_name="Generic Snooker",
        spots_mm={
            "yellow": (baulk, W / 2 - d),
            "brown": (baulk, W / 2),
            "green": (baulk, W / 2 + d),
            "blue": (L / 2, W / 2),
            "pink": (0.75 * L, W / 2),
            "black": (L - 324.0, W / 2),
            "baulk_line": (baulk, 0.0),
            "d_radius": (d, 0.0),
        },
    )


POCKET_TABLES: dict[str, PocketTable] = {t.name: t for t in (_pool_9ft(), _snooker())}


def pocket_table(name: str) -> PocketTable:
    try:
        return POCKET_TABLES[name]
    except KeyError:
        raise PocketSimulationError(
            f"unknown pocket table {name!r}: expected one of {', '.join(POCKET_TABLES)}"
        ) from None


@dataclass(frozen=True)
class Strike:
    """One cue stroke in our frame: ``aim_deg`` 0 = +x (toward the foot), 90 = +y (toward the left
    cushion); ``v0_m_s`` the cue speed (pooltool ``V0``); ``a`` side (+ = left of centre, pooltool's
    sign) and ``b`` top (+) / bottom (-) in ball radii; ``theta_deg`` cue elevation."""

    v0_m_s: float
    aim_deg: float
    theta_deg: float = 0.0
    a: float = 0.0
    b: float = 0.0

    def to_meta(self) -> dict[str, float]:
        return {
            "V0_m_s": self.v0_m_s,
            "aim_deg": self.aim_deg,
            "phi_deg_pooltool": aim_deg_to_phi_deg(self.aim_deg),
            "theta_deg": self.theta_deg,
            "a": self.a,
            "b": self.b,
        }


@dataclass(frozen=True)
class ShotTruth:
    """Truth of one simulated stroke in stroke time (0 = the cue's impact) plus ``t0_s``.
    ``segments`` holds, per ``CushionHit`` in ``events`` (by index), pooltool's segment id and
    whether it is a straight nose (centre one radius from the nose line)."""

    events: tuple[Event, ...]
    rest_s: float
    final_positions: Mapping[BallId, PointMm]
    pocketed: tuple[tuple[BallId, str, float], ...]  # (ball, pooltool pocket id, t_s)
    segments: tuple[tuple[int, str, bool], ...]


def balls_on_table(system: Any, at_start: bool) -> list[str]:
    """pooltool ids of the balls on the cloth at the start (or end) of the system's history."""
    import pooltool.constants as const

    idx = 0 if at_start else -1
    out = []
    for bid, b in system.balls.items():
        st = b.history[idx] if len(b.history) else b.state
        if st.s in const.on_table:
            out.append(bid)
    return out


def system_truth(
    system: Any,
    width_mm: float,
    shot: int = 1,
    t0_s: float = 0.0,
    frame_hz: float | None = None,
    round_mm: float | None = None,
) -> ShotTruth:
    """Truth events of one simulated pooltool ``System`` (any pocket table, pool or snooker ids).

    Times are pooltool's exact event times plus ``t0_s``; ``frame`` is ``floor(t * frame_hz)``
    (0 when ``frame_hz`` is None: a SimShot has no frame rate). Positions in our frame; the
    ``ShotStart``/``ShotEnd`` positions rounded to ``round_mm`` when given. ``BallBall.balls`` is
    (faster before contact, slower): the moving ball that hit a resting one; ``pos`` the contact
    point. ``CushionHit.pos`` the ball centre at the contact."""
    import pooltool as pt

    ET = pt.EventType

    def frame(t: float) -> int:
        return 0 if frame_hz is None else int(math.floor(t * frame_hz + 1e-9))

    def xy(state: Any) -> PointMm:
        p = state.rvw[0]
        return pt_to_table_mm(p[0], p[1], width_mm)

    def rnd(p: PointMm) -> PointMm:
        if round_mm is None:
            return p
        return (round(p[0] / round_mm) * round_mm, round(p[1] / round_mm) * round_mm)

    start_ids = balls_on_table(system, at_start=True)
    start_pos = {ball_of_pt(b): rnd(xy(system.balls[b].history[0])) for b in start_ids}
    t_start = t0_s
    events: list[Event] = [
        ShotStart(
            t_s=t_start,
            frame=frame(t_start),
            shot=shot,
            confidence=1.0,
            cue_ball=ball_of_pt(system.cue.cue_ball_id),
            positions=start_pos,
        )
    ]
    segments: list[tuple[int, str, bool]] = []
    pocketed: list[tuple[BallId, str, float]] = []
    for ev in system.events:
        et = ev.event_type
        t = float(ev.time) + t0_s
        if et == ET.BALL_BALL:
            id1, id2 = ev.ids
            s1 = float(np.linalg.norm(ev.get_ball(id1, initial=True).state.rvw[1][:2]))
            s2 = float(np.linalg.norm(ev.get_ball(id2, initial=True).state.rvw[1][:2]))
            striking, struck = (id1, id2) if s1 >= s2 else (id2, id1)
            f1 = xy(ev.get_ball(id1, initial=False).state)
            f2 = xy(ev.get_ball(id2, initial=False).state)
            events.append(
                BallBall(
                    t_s=t,
                    frame=frame(t),
                    shot=shot,
                    confidence=1.0,
                    balls=(ball_of_pt(striking), ball_of_pt(struck)),
                    pos_mm=((f1[0] + f2[0]) / 2.0, (f1[1] + f2[1]) / 2.0),
                )
            )
        elif et in (ET.BALL_LINEAR_CUSHION, ET.BALL_CIRCULAR_CUSHION):
            bid, seg = ev.ids
            segments.append((len(events), str(seg), str(seg) in NOSE_SEGMENTS))
            events.append(
                CushionHit(
                    t_s=t,
                    frame=frame(t),
                    shot=shot,
                    confidence=1.0,
                    ball=ball_of_pt(bid),
                    cushion=cushion_of_pocket_segment(seg),
                    pos_mm=xy(ev.get_ball(bid, initial=False).state),
                )
            )
        elif et == ET.BALL_POCKET:
            bid, pid = ev.ids
            pocketed.append((ball_of_pt(bid), str(pid), t))
            events.append(
                Pocketed(
                    t_s=t, frame=frame(t), shot=shot, confidence=1.0, ball=ball_of_pt(bid), pocket=pocket_of_pt(pid)
                )
            )
    rest = float(system.events[-1].time) if system.events else 0.0
    end_ids = balls_on_table(system, at_start=False)
    final = {ball_of_pt(b): rnd(xy(system.balls[b].history[-1])) for b in end_ids}
    t_end = rest + t0_s
    events.append(ShotEnd(t_s=t_end, frame=frame(t_end), shot=shot, confidence=1.0, positions=final))
    return ShotTruth(
        events=tuple(events), rest_s=rest, final_positions=final, pocketed=tuple(pocketed), segments=tuple(segments)
    )


class PocketSimulator:
    """pooltool's pocket table and balls made to match ``table`` (imports pooltool)."""

    def __init__(self, table: PocketTable) -> None:
        import attrs
        import pooltool as pt
        from pooltool.objects.table.collection import TableName, prebuilt_specs
        from pooltool.physics.engine import PhysicsEngine
        from pooltool.physics.resolve.resolver import default_resolver

        self._pt = pt
        self.table = table
        base_specs = prebuilt_specs(TableName(table.pt_specs_name))
        self.pt_default_size_mm = (1000.0 * base_specs.l, 1000.0 * base_specs.w)
        self._specs = attrs.evolve(base_specs, l=table.length_mm / 1000.0, w=table.width_mm / 1000.0)
        self.pt_table = pt.Table.from_table_specs(self._specs)
        game = pt.GameType.SNOOKER if table.snooker else pt.GameType.NINEBALL
        base = pt.BallParams.default(game_type=game)
        self.pt_default_radius_mm = 1000.0 * base.R
        self.params = attrs.evolve(base, R=table.ball_radius_mm / 1000.0)
        self.engine = PhysicsEngine(resolver=default_resolver())

    def pocket_centres_mm(self) -> dict[str, PointMm]:
        """pooltool's pocket centres (keyed by our pocket name) in our frame."""
        W = self.table.width_mm
        return {
            pocket_of_pt(pid).value: pt_to_table_mm(p.center[0], p.center[1], W)
            for pid, p in self.pt_table.pockets.items()
        }

    def physics_description(self) -> dict[str, Any]:
        import attrs

        p = self.params
        res = self.engine.resolver
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
            "table_specs": {
                k: v
                for k, v in attrs.asdict(self._specs).items()
                if isinstance(v, (int, float)) and not isinstance(v, bool)
            },
            "pooltool_pocket_geometry": self.table.pt_specs_name,
            "pooltool_default_size_mm": list(self.pt_default_size_mm),
            "pooltool_default_ball_radius_mm": self.pt_default_radius_mm,
            "models": {
                "ball_ball": type(res.ball_ball).__name__,
                "ball_linear_cushion": type(res.ball_linear_cushion).__name__,
                "ball_circular_cushion": type(res.ball_circular_cushion).__name__,
                "ball_pocket": type(res.ball_pocket).__name__,
            },
        }

    def check_layout(self, layout: Mapping[BallId, PointMm]) -> None:
        L, W, r = self.table.length_mm, self.table.width_mm, self.table.ball_radius_mm
        for ball, (x, y) in layout.items():
            if not (r - 1e-6 <= x <= L - r + 1e-6 and r - 1e-6 <= y <= W - r + 1e-6):
                raise PocketSimulationError(
                    f"{ball.value} at ({x:.1f}, {y:.1f}) mm: expected a centre at least R = {r} mm "
                    f"inside the {L:g} x {W:g} mm playing surface"
                )
        items = list(layout.items())
        for i, (a, pa) in enumerate(items):
            for b, pb in items[i + 1 :]:
                if math.dist(pa, pb) < 2 * r - 1e-6:
                    raise PocketSimulationError(
                        f"{a.value} and {b.value} overlap: centres {math.dist(pa, pb):.2f} mm apart, "
                        f"expected at least 2R = {2 * r} mm"
                    )

    def make_system(self, layout: Mapping[BallId, PointMm]) -> Any:
        """A pooltool System of ``layout`` (our ids and frame) on this table, cue ball ``cue``."""
        import attrs

        pt = self._pt
        self.check_layout(layout)
        W = self.table.width_mm
        kw = {f.name: getattr(self.params, f.name) for f in attrs.fields(type(self.params))}
        balls = {}
        for b, (x, y) in layout.items():
            pid = pt_ball_of(b, self.table.snooker)
            balls[pid] = pt.Ball.create(pid, xy=table_mm_to_pt(x, y, W), **kw)
        cue_id = pt_ball_of(BallId.CUE, self.table.snooker)
        return pt.System(cue=pt.Cue(cue_ball_id=cue_id), table=self.pt_table.copy(), balls=balls)

    def run(self, system: Any, strike: Strike, max_events: int = 3000) -> Any:
        """Strike and simulate ``system`` in place; returns it."""
        system.cue.set_state(
            V0=strike.v0_m_s, phi=aim_deg_to_phi_deg(strike.aim_deg), theta=strike.theta_deg, a=strike.a, b=strike.b
        )
        self._pt.simulate(system, engine=self.engine, inplace=True, max_events=max_events)
        return system

    def simulate(self, layout: Mapping[BallId, PointMm], strike: Strike) -> tuple[Any, ShotTruth]:
        system = self.run(self.make_system(layout), strike)
        return system, system_truth(system, self.table.width_mm)


def sample_system(
    system: Any, width_mm: float, balls: Sequence[BallId], snooker: bool, t_rel_s: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact (xy_mm (N, B, 2), z_mm (N, B), on_table (N, B)) of ``balls`` at stroke times
    ``t_rel_s``: before 0 the start positions, after rest the final ones; a pocketed ball is off
    the table from its pocket event on."""
    import pooltool as pt

    t = np.asarray(t_rel_s, dtype=np.float64)
    n, nb = len(t), len(balls)
    xy, z = np.empty((n, nb, 2)), np.empty((n, nb))
    on = np.ones((n, nb), dtype=bool)
    pocket_t = {ev.ids[0]: float(ev.time) for ev in system.events if ev.event_type == pt.EventType.BALL_POCKET}
    for j, ball in enumerate(balls):
        pid = pt_ball_of(ball, snooker)
        pb = system.balls[pid]
        states = pt.interpolate_ball_states(pb, np.clip(t, 0.0, None), extrapolate=True)
        r = np.array([s.rvw[0] for s in states])
        xy[:, j, 0] = 1000.0 * r[:, 1]
        xy[:, j, 1] = width_mm - 1000.0 * r[:, 0]
        z[:, j] = 1000.0 * r[:, 2]
        if pid in pocket_t:
            on[:, j] = t < pocket_t[pid]
    return xy, z, on


def stroke_clip(
    sim: PocketSimulator,
    system: Any,
    truth: ShotTruth,
    meta: Mapping[str, Any],
    pre_s: float = 0.5,
    post_s: float = 0.8,
) -> SimShot:
    """A one-stroke :class:`SimShot`: ``pre_s`` at rest, the stroke (at a 1 kHz grid point),
    ``post_s`` at rest after it. Event times are shifted by the stroke start."""
    from dataclasses import replace

    balls = tuple(truth.events[0].positions)  # type: ignore[union-attr]
    t0 = round(pre_s * SAMPLE_HZ) / SAMPLE_HZ
    n = int(math.ceil((t0 + truth.rest_s + post_s) * SAMPLE_HZ)) + 1
    t_s = np.arange(n) / SAMPLE_HZ
    xy, z, on = sample_system(system, sim.table.width_mm, balls, sim.table.snooker, t_s - t0)
    events = tuple(replace(e, t_s=e.t_s + t0) for e in truth.events)
    full = dict(meta)
    full.update(
        {
            "sample_hz": SAMPLE_HZ,
            "stroke_t_s": t0,
            "rest_t_s": t0 + truth.rest_s,
            "cushion_segments": [{"event": i, "segment": s, "nose": nose} for i, s, nose in truth.segments],
            "truth_conventions": {
                "frame": "0 in every truth event: the renderer recomputes frames at its fps from t_s",
                "ball_ball": "balls = [striking, struck]; pos = contact point (midpoint of centres)",
                "cushion": "pos = ball centre at contact; R from the nose line for nose segments (meta "
                "cushion_segments), a jaw face or tip contact is a contact of the rail it ends",
                "pocket": "t = pooltool's ball_pocket event (centre within the pocket circle); the ball is "
                "on_table False from then on, at the pocket centre below the cloth",
                "shot_end": "t = every ball stationary (pooltool's last event); positions of balls on the table",
                "airborne": "pooltool 0.6 has no airborne model: z = R on the cloth, no off-table events",
            },
            "frame_map": {
                "x_mm": "1000 * y_pt",
                "y_mm": f"{sim.table.width_mm:g} - 1000 * x_pt",
                "pockets": "lb head_left, rb head_right, lc side_left, rc side_right, lt foot_left, rt foot_right",
            },
            "physics": sim.physics_description(),
        }
    )
    return SimShot(table=sim.table.name, balls=balls, t_s=t_s, xy_mm=xy, z_mm=z, on_table=on, events=events, meta=full)
