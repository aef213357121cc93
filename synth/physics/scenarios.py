"""The committed synthetic three-cushion shots: what each must show and how it is searched for.

Each :class:`Scenario` has a fixed seed, a builder that draws one random candidate (layout and cue
parameters) and simulates it with pooltool, and a requirement on the resulting *truth* (the call
that :func:`synth.physics.carom_call.three_cushion_call` reads from pooltool's events). The search
(:func:`search`) draws candidates from the seeded generator until one meets the requirement; the
accepted candidate is deterministic for a given seed, pooltool version and platform.

Candidates are drawn by construction, so that a handful of simulations suffice: the cue ball is
simulated alone with random cue parameters; the first object ball is put on its path in the
wanted segment (before the first cushion, after the first, ...) with a random cut; the stroke is
simulated again and the second object ball is put on the new path in its wanted segment (for a
close call: at a chosen few milliseconds from the third cushion). Object balls at rest do not
change the cue ball's path until it touches them, but everything after the contacts (kisses,
object balls meeting, the cue ball's later path) is pooltool's, and the requirement is checked on
the full three-ball simulation, never on the construction.

Uses pooltool through :mod:`synth.physics.pooltool_shots`; a data-generation tool only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from calibration.table import TableSpec
from common.errors import TabletrackError
from synth.physics.carom_call import ThreeCushionCall
from synth.physics.pooltool_shots import (
    DEFAULT_GAP_S,
    DEFAULT_POST_S,
    DEFAULT_PRE_S,
    CueStrike,
    Stroke,
    StrokeSimulator,
)
from tracking.events import BallBall, CushionHit, ShotStart
from tracking.ids import BallId, Cushion

PointMm = tuple[float, float]


def _pair(v: Iterable[float]) -> PointMm:
    """``tuple(v)``, typed as a point (the length is not checked)."""
    return cast(PointMm, tuple(v))


def _start(stroke: Stroke) -> ShotStart:
    """The stroke's ``ShotStart``: its first event (:class:`Stroke`)."""
    ev = stroke.events[0]
    assert isinstance(ev, ShotStart)
    return ev


CAROM = (BallId.WHITE, BallId.YELLOW, BallId.RED)


class ScenarioSearchError(TabletrackError):
    """No candidate met a scenario's requirement within its tries."""


# ---------------------------------------------------------------------------------------------
# Building blocks


@dataclass(frozen=True)
class Builder:
    """Random draws and ball placement on a simulated path, for a given simulator."""

    sim: StrokeSimulator

    @property
    def table(self) -> TableSpec:
        return self.sim.table

    @property
    def r(self) -> float:
        return self.sim.r_mm

    def pick_balls(self, rng: np.random.Generator) -> tuple[BallId, BallId, BallId]:
        """(cue ball, first object ball, second object ball): white or yellow plays."""
        cue = BallId.WHITE if rng.random() < 0.7 else BallId.YELLOW
        others = [b for b in CAROM if b is not cue]
        if rng.random() < 0.5:
            others.reverse()
        return cue, others[0], others[1]

    def random_spot(self, rng: np.random.Generator, avoid: Sequence[PointMm] = (), margin_mm: float = 80.0) -> PointMm:
        L, W = self.table.length_mm, self.table.width_mm
        for _ in range(1000):
            p = (float(rng.uniform(margin_mm, L - margin_mm)), float(rng.uniform(margin_mm, W - margin_mm)))
            if all(math.dist(p, q) > 2 * self.r + 40.0 for q in avoid):
                return p
        raise ScenarioSearchError("no free spot found on the table for a ball")

    def random_strike(
        self, rng: np.random.Generator, cue: BallId, aim_deg: float | None = None, v0: tuple[float, float] = (1.8, 3.6)
    ) -> CueStrike:
        return CueStrike(
            cue_ball=cue,
            v0_m_s=round(float(rng.uniform(*v0)), 4),
            aim_deg=round(float(rng.uniform(0.0, 360.0)) if aim_deg is None else aim_deg, 4),
            theta_deg=round(float(rng.uniform(0.0, 6.0)), 3),
            a=round(float(rng.uniform(-0.5, 0.5)), 3),
            b=round(float(rng.uniform(-0.4, 0.5)), 3),
        )

    def inside(self, p: np.ndarray, margin_mm: float) -> bool:
        L, W = self.table.length_mm, self.table.width_mm
        return bool(margin_mm <= p[0] <= L - margin_mm and margin_mm <= p[1] <= W - margin_mm)

    def place_on_path(
        self,
        stroke: Stroke,
        mover: BallId,
        t_lo: float,
        t_hi: float,
        rng: np.random.Generator,
        cut_deg: float = 60.0,
        tries: int = 60,
    ) -> PointMm | None:
        """A resting ball centre that ``mover`` first touches at a time in [t_lo, t_hi] (stroke
        time) with a cut of at most ``cut_deg``, clear of every ball's path before that time and
        of the cushions; None when no such spot is found."""
        if t_hi < t_lo:
            return None
        t, xy = stroke.path_1khz
        j = stroke.balls.index(mover)
        two_r = 2.0 * self.r
        for _ in range(tries):
            tc = float(rng.uniform(t_lo, t_hi)) if t_hi > t_lo else float(t_lo)
            (pxy, _) = stroke.sample(np.array([tc]))
            p = pxy[0, j]
            v = stroke.velocity_mm_s(mover, tc)
            speed = float(np.hypot(*v))
            if speed < 300.0:
                continue
            alpha = math.radians(float(rng.uniform(-cut_deg, cut_deg)))
            vh = v / speed
            u = np.array(
                [vh[0] * math.cos(alpha) - vh[1] * math.sin(alpha), vh[0] * math.sin(alpha) + vh[1] * math.cos(alpha)]
            )
            q = p + two_r * u
            if not self.inside(q, self.r + 3.0):
                continue
            before = t < tc - 0.002
            d = np.linalg.norm(xy[before] - q[None, None, :], axis=2)  # (n, B)
            if d.size and float(d.min()) < two_r + 0.5:
                continue
            if not all(math.dist(q, stroke.final_positions[b]) > two_r + 5.0 for b in stroke.balls if b is not mover):
                continue
            return (float(q[0]), float(q[1]))
        return None


def cushion_times(stroke: Stroke, ball: BallId) -> list[float]:
    return [e.t_s for e in stroke.events if isinstance(e, CushionHit) and e.ball is ball]


def contact_times(stroke: Stroke, a: BallId, b: BallId) -> list[float]:
    return [e.t_s for e in stroke.events if isinstance(e, BallBall) and set(e.balls) == {a, b}]


def segment_window(times: list[float], k: int, end_s: float, guard_s: float = 0.04) -> tuple[float, float] | None:
    """Stroke times between the ``k``-th and ``k+1``-th of ``times`` (k = 0: from the stroke),
    ``guard_s`` clear of both; the last segment ends at ``end_s``."""
    if k > len(times):
        return None
    lo = 0.0 if k == 0 else times[k - 1]
    hi = times[k] if k < len(times) else end_s
    lo, hi = lo + guard_s, hi - guard_s
    return (lo, hi) if hi > lo else None


def construct(
    b: Builder,
    rng: np.random.Generator,
    first_after: int,
    second_after: int | None,
    cue_spot: PointMm | None = None,
    aim_deg: float | None = None,
    v0: tuple[float, float] = (1.8, 3.6),
    first_cut_deg: float = 60.0,
    first_window: Callable[[float, float], tuple[float, float]] | None = None,
    second_delta_s: float | None = None,
) -> list[Stroke] | None:
    """One candidate: the first object ball where the cue ball runs after its ``first_after``-th
    cushion, the second after its ``second_after``-th counted cushion (and after the first
    contact); ``second_after=None`` puts the second ball at a random free spot instead.
    ``second_delta_s`` puts the second-ball contact that long after the third cushion (negative:
    before it)."""
    cue, first, second = b.pick_balls(rng)
    spot = cue_spot if cue_spot is not None else b.random_spot(rng)
    strike = b.random_strike(rng, cue, aim_deg=aim_deg, v0=v0)
    lay: dict[BallId, PointMm] = {cue: spot}
    s0 = b.sim.simulate(lay, strike)
    w = segment_window(cushion_times(s0, cue), first_after, s0.last_motion_s - 0.3)
    if w is None:
        return None
    if first_window is not None:
        w = first_window(*w)
    qa = b.place_on_path(s0, cue, w[0], w[1], rng, cut_deg=first_cut_deg)
    if qa is None:
        return None
    lay[first] = qa
    s1 = b.sim.simulate(lay, strike)
    hits = contact_times(s1, cue, first)
    if not hits:
        return None
    if second_after is None:
        lay[second] = b.random_spot(rng, avoid=[lay[cue], lay[first]])
    else:
        ct = cushion_times(s1, cue)
        if second_delta_s is not None:
            if len(ct) < 3 or ct[2] + second_delta_s <= hits[0] + 0.01:
                return None
            lo = hi = ct[2] + second_delta_s
        else:
            w2 = segment_window(ct, second_after, s1.last_motion_s - 0.3)
            if w2 is None:
                return None
            lo, hi = max(w2[0], hits[0] + 0.04), w2[1]
        qb = b.place_on_path(s1, cue, lo, hi, rng)
        if qb is None:
            return None
        lay[second] = qb
    ordered = {k: lay[k] for k in CAROM}
    return [b.sim.simulate(ordered, strike)]


# ---------------------------------------------------------------------------------------------
# Scenarios


@dataclass(frozen=True)
class Scenario:
    """``build`` draws one candidate (None when the draw is unusable); ``accept`` is the
    requirement on the truth calls (one per stroke); ``prefer``, when given, is sought first for
    all ``max_tries`` and the first accepted candidate is kept if it is never met."""

    name: str
    brief_item: str
    description: str
    seed: int
    build: Callable[[Builder, np.random.Generator], list[Stroke] | None]
    accept: Callable[[list[ThreeCushionCall], list[Stroke]], bool]
    prefer: Callable[[list[ThreeCushionCall], list[Stroke]], bool] | None = None
    max_tries: int = 400
    max_total_s: float = 10.0


def clip_length_s(strokes: Sequence[Stroke]) -> float:
    """The clip length that :func:`assemble_clip` will give these strokes (before its 4 s floor)."""
    total = DEFAULT_PRE_S + sum(s.rest_s for s in strokes) + DEFAULT_GAP_S * (len(strokes) - 1)
    return total + DEFAULT_POST_S + 0.002 * len(strokes)


@dataclass(frozen=True)
class SearchResult:
    strokes: list[Stroke]
    tries: int
    preferred: bool | None


def search(sc: Scenario, builder: Builder) -> SearchResult:
    """The first candidate of ``sc``'s seeded draws that meets its requirement."""
    rng = np.random.default_rng(sc.seed)
    fallback: SearchResult | None = None
    for i in range(1, sc.max_tries + 1):
        strokes = sc.build(builder, rng)
        if not strokes or clip_length_s(strokes) > sc.max_total_s:
            continue
        calls = [s.call for s in strokes]
        if not sc.accept(calls, strokes):
            continue
        if sc.prefer is None:
            return SearchResult(strokes, i, None)
        if sc.prefer(calls, strokes):
            return SearchResult(strokes, i, True)
        if fallback is None:
            fallback = SearchResult(strokes, i, False)
    if fallback is not None:
        return fallback
    raise ScenarioSearchError(f"scenario {sc.name}: no candidate met the requirement in {sc.max_tries} tries")


def _point(pattern: str | None = None) -> Callable[[list[ThreeCushionCall], list[Stroke]], bool]:
    def ok(calls: list[ThreeCushionCall], _s: list[Stroke]) -> bool:
        c = calls[0]
        return c.point and (pattern is None or c.pattern == pattern)

    return ok


def _break_layout(b: Builder, rng: np.random.Generator) -> dict[BallId, PointMm]:
    spots = b.table.spots_mm
    side = "head_right" if rng.random() < 0.5 else "head_left"
    return {
        BallId.WHITE: _pair(spots[side]),
        BallId.YELLOW: _pair(spots["head_centre"]),
        BallId.RED: _pair(spots["foot"]),
    }


def _build_break(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    lay = _break_layout(b, rng)
    w, red = lay[BallId.WHITE], lay[BallId.RED]
    d = math.dist(w, red)
    base = math.degrees(math.atan2(red[1] - w[1], red[0] - w[0]))
    cut = float(rng.uniform(-65.0, 65.0))  # angle of the line of centres at contact
    offset = math.degrees(math.asin(2 * b.r * math.sin(math.radians(cut)) / d))
    strike = b.random_strike(rng, BallId.WHITE, aim_deg=round((base + offset) % 360.0, 4), v0=(2.2, 3.8))
    return [b.sim.simulate(lay, strike)]


FROZEN_GAP_MM = 0.001
"""How far beyond R from a nose line a frozen ball is put: pooltool's own contact spacer
(``MIN_DIST`` = 1 um, the gap it leaves after every contact). At exactly R, pooltool misses the
contact of a frozen ball driven into its cushion (the collision root at t = 0 is discarded) and
the ball runs through the cushion; at R + 1 um it resolves the contact at once."""


def _cushion_spot(b: Builder, rng: np.random.Generator) -> tuple[PointMm, float]:
    """A spot frozen to a random cushion, and the inward normal's direction (degrees)."""
    L, W = b.table.length_mm, b.table.width_mm
    r = b.r + FROZEN_GAP_MM
    side = int(rng.integers(4))
    if side == 0:  # right cushion, y = R
        return (float(rng.uniform(300, L - 300)), r), 90.0
    if side == 1:  # left
        return (float(rng.uniform(300, L - 300)), W - r), 270.0
    if side == 2:  # head
        return (r, float(rng.uniform(250, W - 250))), 0.0
    return (L - r, float(rng.uniform(250, W - 250))), 180.0


def _build_frozen_away(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    spot, inward = _cushion_spot(b, rng)
    aim = (inward + float(rng.uniform(-65.0, 65.0))) % 360.0
    return construct(b, rng, 0, 3, cue_spot=spot, aim_deg=round(aim, 4))


def _build_frozen_into(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    """Cue ball frozen and played into its own cushion; the first object ball after that first
    (uncounted, art. 10) contact, the second after the third raw contact: two counted impacts."""
    spot, inward = _cushion_spot(b, rng)
    aim = (inward + 180.0 + float(rng.uniform(-60.0, 60.0))) % 360.0
    return construct(b, rng, 1, 3, cue_spot=spot, aim_deg=round(aim, 4))


def _build_frozen_object(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    """The first object ball frozen to the cushion where the cue ball would first reach it."""
    cue, first, second = b.pick_balls(rng)
    strike = b.random_strike(rng, cue)
    lay: dict[BallId, PointMm] = {cue: b.random_spot(rng)}
    s0 = b.sim.simulate(lay, strike)
    hit = next((e for e in s0.events if isinstance(e, CushionHit) and e.ball is cue), None)
    if hit is None:
        return None
    L, W, r = b.table.length_mm, b.table.width_mm, b.r + FROZEN_GAP_MM
    s = float(rng.uniform(-1.6, 1.6)) * b.r
    x, y = hit.pos_mm
    if hit.cushion in (Cushion.HEAD, Cushion.FOOT):
        q = (r if hit.cushion is Cushion.HEAD else L - r, y + s)
    else:
        q = (x + s, r if hit.cushion is Cushion.RIGHT else W - r)
    if not (b.r <= q[0] <= L - b.r and b.r <= q[1] <= W - b.r) or math.dist(q, lay[cue]) < 2 * b.r + 5:
        return None
    lay[first] = q
    s1 = b.sim.simulate(lay, strike)
    hits = contact_times(s1, cue, first)
    ct = cushion_times(s1, cue)
    if not hits:
        return None
    w2 = segment_window(ct, 3, s1.last_motion_s - 0.3)
    if w2 is None:
        return None
    qb = b.place_on_path(s1, cue, max(w2[0], hits[0] + 0.04), w2[1], rng)
    if qb is None:
        return None
    lay[second] = qb
    return [b.sim.simulate({k: lay[k] for k in CAROM}, strike)]


def _build_in_contact(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    """The cue ball rests against an object ball (art. 9) and is played away from it."""
    cue, touching, other = b.pick_balls(rng)
    spot = b.random_spot(rng, margin_mm=200.0)
    ang = float(rng.uniform(0.0, 360.0))
    d = 2 * b.r + FROZEN_GAP_MM
    q = (spot[0] + d * math.cos(math.radians(ang)), spot[1] + d * math.sin(math.radians(ang)))
    aim = (ang + 180.0 + float(rng.uniform(-70.0, 70.0))) % 360.0
    strike = b.random_strike(rng, cue, aim_deg=round(aim, 4))
    lay: dict[BallId, PointMm] = {cue: spot, touching: q}
    s1 = b.sim.simulate(lay, strike)
    ct = cushion_times(s1, cue)
    w = segment_window(ct, int(rng.integers(1, 4)), s1.last_motion_s - 0.3)
    if w is None:
        return None
    qb = b.place_on_path(s1, cue, w[0], w[1], rng)
    if qb is None:
        return None
    lay[other] = qb
    return [b.sim.simulate({k: lay[k] for k in CAROM}, strike)]


def _in_contact_ok(calls: list[ThreeCushionCall], strokes: list[Stroke]) -> bool:
    start = _start(strokes[0])
    if not start.balls_in_contact:
        return False
    cue = start.cue_ball
    ((a, b_),) = start.balls_in_contact
    touching = b_ if a is cue else a
    early = [t for t in contact_times(strokes[0], cue, touching) if t < 0.05]
    return not early and bool(calls[0].object_balls_hit)


def _build_free(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    """A fully random layout and stroke aimed at a random object ball with a random cut."""
    cue, first, second = b.pick_balls(rng)
    p_cue = b.random_spot(rng)
    p_first = b.random_spot(rng, avoid=[p_cue])
    p_second = b.random_spot(rng, avoid=[p_cue, p_first])
    lay = {cue: p_cue, first: p_first, second: p_second}
    d = math.dist(p_cue, p_first)
    base = math.degrees(math.atan2(p_first[1] - p_cue[1], p_first[0] - p_cue[0]))
    cut = float(rng.uniform(-70.0, 70.0))
    aim = (base + math.degrees(math.asin(2 * b.r * math.sin(math.radians(cut)) / d))) % 360.0
    strike = b.random_strike(rng, cue, aim_deg=round(aim, 4))
    return [b.sim.simulate({k: lay[k] for k in CAROM}, strike)]


def _build_sequence(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
    first = construct(b, rng, 0, 3, v0=(1.6, 2.6))
    if not first or not first[0].call.point:
        return None
    s1 = first[0]
    from synth.physics.resting import balls_in_contact, frozen_to_cushion

    if balls_in_contact(s1.final_positions, b.r, tol_mm=1.0) or frozen_to_cushion(
        s1.final_positions, b.table.length_mm, b.table.width_mm, b.r, tol_mm=1.0
    ):
        return None
    cue = s1.strike.cue_ball
    target = [x for x in CAROM if x is not cue][int(rng.integers(2))]
    pc, pt_ = s1.final_positions[cue], s1.final_positions[target]
    d = math.dist(pc, pt_)
    base = math.degrees(math.atan2(pt_[1] - pc[1], pt_[0] - pc[0]))
    cut = float(rng.uniform(-65.0, 65.0))
    aim = (base + math.degrees(math.asin(2 * b.r * math.sin(math.radians(cut)) / d))) % 360.0
    strike = b.random_strike(rng, cue, aim_deg=round(aim, 4), v0=(1.6, 2.8))
    s2 = b.sim.simulate(dict(s1.final_positions), strike)
    return [s1, s2]


def _close(sign: float) -> Callable[[Builder, np.random.Generator], list[Stroke] | None]:
    def build(b: Builder, rng: np.random.Generator) -> list[Stroke] | None:
        delta = sign * float(rng.uniform(1.5, 8.0)) / 1000.0
        return construct(b, rng, 0, 3, second_delta_s=delta)

    return build


def _late_first(lo: float, hi: float) -> tuple[float, float]:
    return (lo + 0.6 * (hi - lo), hi)


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "point_2a",
        "1",
        "Point, art. 2(a): first object ball, then three or more cushions, then the second object ball.",
        101,
        lambda b, rng: construct(b, rng, 0, int(rng.integers(3, 5))),
        _point("2a"),
    ),
    Scenario(
        "point_2b_bricole",
        "2",
        "Point, art. 2(b): three or more cushions first (bricole), then both object balls.",
        202,
        lambda b, rng: construct(b, rng, 3, 3),
        _point("2b"),
    ),
    Scenario(
        "point_2c",
        "3",
        "Point, art. 2(c): one cushion, the first object ball, two or more cushions, then the second object ball.",
        303,
        lambda b, rng: construct(b, rng, 1, 3),
        _point("2c"),
    ),
    Scenario(
        "miss_two_cushions",
        "4",
        "Miss: first object ball, then only two cushions before the second object ball.",
        404,
        lambda b, rng: construct(b, rng, 0, 2),
        lambda c, s: c[0].cushions_before_second == 2 and not c[0].point,
    ),
    Scenario(
        "miss_one_ball",
        "5",
        "Miss: the cue ball touches only one object ball.",
        505,
        lambda b, rng: construct(b, rng, 0, None),
        lambda c, s: len(c[0].object_balls_hit) == 1,
    ),
    Scenario(
        "close_call_point",
        "6",
        "Close call, point: the third cushion comes less than 10 ms before the second-ball contact.",
        606,
        _close(+1.0),
        lambda c, s: c[0].point and c[0].margin_ms is not None and 0.0 < c[0].margin_ms < 10.0,
    ),
    Scenario(
        "close_call_miss",
        "6",
        "Close call, miss: the second-ball contact comes less than 10 ms before the third cushion.",
        616,
        _close(-1.0),
        lambda c, s: (
            (not c[0].point)
            and c[0].second_ball_t_s is not None
            and c[0].margin_ms is not None
            and -10.0 < c[0].margin_ms < 0.0
        ),
    ),
    Scenario(
        "kiss",
        "7",
        "Kiss: the first object ball comes back off a cushion and touches the cue ball again.",
        707,
        lambda b, rng: construct(b, rng, 0, 3, first_cut_deg=35.0, first_window=_late_first),
        lambda c, s: c[0].kiss_first_ball,
    ),
    Scenario(
        "frozen_cue_ball",
        "8",
        "The cue ball rests frozen to a cushion (centre R + 1 um from the nose) and is played away from it; a point.",
        808,
        _build_frozen_away,
        lambda c, s: s[0].strike.cue_ball in _start(s[0]).frozen_to_cushion and c[0].point,
    ),
    Scenario(
        "frozen_cue_into_cushion",
        "8",
        "Art. 10: the cue ball frozen to a cushion is played "
        "into it; that first contact does not count, so three raw impacts before the second "
        "ball are only two: a miss (a count that forgets art. 10 says point).",
        818,
        _build_frozen_into,
        lambda c, s: c[0].frozen_contact_discounted and c[0].cushions_before_second == 2,
    ),
    Scenario(
        "frozen_object_ball",
        "8",
        "The first object ball rests frozen to a cushion and the cue ball drives it into that cushion.",
        828,
        _build_frozen_object,
        lambda c, s: bool(c[0].object_balls_hit) and c[0].object_balls_hit[0] in _start(s[0]).frozen_to_cushion,
        prefer=lambda c, s: c[0].point,
    ),
    Scenario(
        "balls_in_contact",
        "extra",
        "Art. 9: the cue ball rests against an object ball and is played away from it.",
        1717,
        _build_in_contact,
        _in_contact_ok,
    ),
    Scenario(
        "long_six_cushions",
        "9",
        "Long shot: the cue ball makes six or more cushion impacts; a point after five or more.",
        909,
        lambda b, rng: construct(b, rng, 0, int(rng.integers(5, 7)), v0=(3.0, 4.5)),
        lambda c, s: c[0].cue_cushions_total >= 6 and c[0].point,
    ),
    Scenario(
        "break_shot",
        "10",
        "Break from the starting position (002 ART 6): red on the foot "
        "spot, yellow on the head spot, white 185 mm beside it, white plays the red first.",
        1010,
        _build_break,
        lambda c, s: bool(c[0].object_balls_hit) and c[0].object_balls_hit[0] is BallId.RED,
        prefer=lambda c, s: c[0].point,
        max_tries=300,
    ),
    Scenario(
        "point_2d",
        "extra",
        "Point, art. 2(d): two cushions, the first object ball, one or more cushions, then the second object ball.",
        1111,
        lambda b, rng: construct(b, rng, 2, 3),
        _point("2d"),
    ),
    Scenario(
        "point_any",
        "extra",
        "A point of any art. 2 case from a random construction.",
        1212,
        lambda b, rng: construct(b, rng, int(rng.integers(0, 3)), int(rng.integers(3, 5))),
        _point(),
    ),
    Scenario(
        "miss_any",
        "extra",
        "A miss from a random construction (second ball placed after 0-3 cushions).",
        1313,
        lambda b, rng: construct(b, rng, int(rng.integers(0, 2)), int(rng.integers(0, 4))),
        lambda c, s: not c[0].point and len(c[0].object_balls_hit) >= 1,
    ),
    Scenario(
        "free_1",
        "extra",
        "Fully random layout and stroke aimed at an object ball: whatever pooltool makes of it.",
        1414,
        _build_free,
        lambda c, s: True,
    ),
    Scenario(
        "free_2",
        "extra",
        "Fully random layout and stroke aimed at an object ball: whatever pooltool makes of it.",
        1515,
        _build_free,
        lambda c, s: True,
    ),
    Scenario(
        "sequence_point_then_next",
        "sequence",
        "Two strokes in one clip: a point, then the "
        "same player's next stroke from where the balls stopped (shots 1 and 2).",
        1616,
        _build_sequence,
        lambda c, s: len(c) == 2 and c[0].point,
        prefer=lambda c, s: bool(c[1].object_balls_hit),
        max_tries=200,
        max_total_s=16.0,
    ),
)


def scenario(name: str) -> Scenario:
    for sc in SCENARIOS:
        if sc.name == name:
            return sc
    raise ScenarioSearchError(f"unknown scenario {name!r}: expected one of {', '.join(s.name for s in SCENARIOS)}")
