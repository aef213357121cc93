"""Scoring inferred events against the analytic simulator's truth (:mod:`synth.tracking_sim`),
and the detections a detector would report: test helpers for the tracking tests, which run the
code under test (the tracker's :class:`~tracking.tracker.Detection`, the event inference).

Split from the old ``tests/tracking/tracking_synth.py`` when its simulator went to
``synth/tracking_sim.py``; code unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.table import TableSpec
from synth.tracking_sim import SimResult, observable
from tracking.ids import BallId, Cushion
from tracking.trajectory import Trajectory


@dataclass(frozen=True)
class Comparison:
    """Inferred events against a simulation's truth, for one sampling."""

    cushions_truth: dict[BallId, list[Cushion]]
    cushions_found: dict[BallId, list[Cushion]]
    pairs_truth: list[tuple[BallId, BallId]]
    pairs_found: list[tuple[BallId, BallId]]
    time_errors_s: list[float]
    cue_ball_ok: bool
    start_error_s: float

    @property
    def cushions_ok(self) -> bool:
        return all(
            self.cushions_truth.get(b, []) == self.cushions_found.get(b, [])
            for b in set(self.cushions_truth) | set(self.cushions_found)
        )

    @property
    def pairs_ok(self) -> bool:
        return [frozenset(p) for p in self.pairs_truth] == [frozenset(p) for p in self.pairs_found]

    @property
    def order_ok(self) -> bool:
        """(striking, struck) right for every collision."""
        return self.pairs_ok and all(a == b for a, b in zip(self.pairs_truth, self.pairs_found))


def compare(sim: SimResult, events: list, trajectories: dict[BallId, Trajectory] | None = None) -> Comparison:
    """Truth against found events. With ``trajectories`` (irregular reports), a truth cushion
    contact after a ball's last report is left out: nothing in the data shows it."""
    from tracking.events import BallBall, CushionHit, ShotStart

    ct: dict[BallId, list[Cushion]] = {}
    cf: dict[BallId, list[Cushion]] = {}
    last = {b: float(tr.t_s[-1]) for b, tr in trajectories.items()} if trajectories else {}
    truth = [e for e in sim.events if not (e.kind == "cushion" and e.t_s > last.get(e.balls[0], math.inf))]
    truth = observable(sim, truth)
    sim_events = truth
    for e in truth:
        if e.kind == "cushion":
            ct.setdefault(e.balls[0], []).append(e.cushion)
    found = sorted((e for e in events if isinstance(e, (BallBall, CushionHit))), key=lambda e: e.t_s)
    for e in found:
        if isinstance(e, CushionHit):
            cf.setdefault(e.ball, []).append(e.cushion)
    pt = [e.balls for e in sim_events if e.kind == "ball"]
    pf = [e.balls for e in found if isinstance(e, BallBall)]
    errs: list[float] = []
    # per-ball cushion times, matched in order where the sequences agree
    for b, seq in ct.items():
        tt = [e.t_s for e in sim_events if e.kind == "cushion" and e.balls[0] == b]
        tf = [e.t_s for e in found if isinstance(e, CushionHit) and e.ball == b]
        if cf.get(b, []) == seq:
            errs += [f - t for f, t in zip(tf, tt)]
    if [frozenset(p) for p in pt] == [frozenset(p) for p in pf]:
        tt = [e.t_s for e in sim_events if e.kind == "ball"]
        tf = [e.t_s for e in found if isinstance(e, BallBall)]
        errs += [f - t for f, t in zip(tf, tt)]
    starts = [e for e in events if isinstance(e, ShotStart)]
    cue_ok = bool(starts) and starts[0].cue_ball == sim.cue_ball
    start_err = (starts[0].t_s - sim.start_s) if starts else math.inf
    return Comparison(ct, cf, pt, pf, errs, cue_ok, start_err)


def detections_for(
    trajs: dict[BallId, Trajectory],
    k: int,
    rng: np.random.Generator,
    colours: bool = True,
    hidden: tuple[BallId, ...] = (),
    clutter: int = 0,
    table: TableSpec | None = None,
) -> list:
    """What a detector would report at frame ``k``: one detection per visible ball (shuffled),
    with noisy colour scores (true ball 0.6-0.95, others 0-0.35) when ``colours``, plus
    ``clutter`` spurious detections anywhere on the table that look like no ball in particular
    (colour scores all below 0.3: a hand, a chalk cube)."""
    from tracking.detections import BallDetection

    balls = list(trajs)
    out = []
    for b in balls:
        if b in hidden:
            continue
        scores = (
            {o: float(rng.uniform(0.6, 0.95) if o == b else rng.uniform(0.0, 0.35)) for o in balls} if colours else {}
        )
        out.append(BallDetection(float(trajs[b].x_mm[k]), float(trajs[b].y_mm[k]), label_scores=scores))
    for _ in range(clutter):
        L = table.length_mm if table else 2840.0
        W = table.width_mm if table else 1420.0
        out.append(
            BallDetection(
                float(rng.uniform(0, L)),
                float(rng.uniform(0, W)),
                label_scores={o: float(rng.uniform(0.0, 0.3)) for o in balls},
                score=0.4,
            )
        )
    order = rng.permutation(len(out))
    return [out[i] for i in order]


def cue_cushions_before_second(events: list, shot: int = 1) -> tuple[int | None, list[BallId]]:
    """(cushion contacts of the cue ball before it touches its second object ball - all of them
    when it never does -, object balls it touched in order): the counts three-cushion art. 2-3
    judge. A frozen cue ball's first contact with its own cushion is not counted (art. 10)."""
    from tracking.events import BallBall, CushionHit, ShotStart

    evs = sorted((e for e in events if e.shot == shot), key=lambda e: e.t_s)
    start = next((e for e in evs if isinstance(e, ShotStart)), None)
    if start is None:
        return None, []
    cue = start.cue_ball
    frozen = start.frozen_to_cushion.get(cue)
    hit: list[BallId] = []
    count = 0
    first_contact = True
    for e in evs:
        if isinstance(e, CushionHit) and e.ball is cue:
            if first_contact and frozen is e.cushion:
                first_contact = False
                continue
            first_contact = False
            count += 1
        elif isinstance(e, BallBall) and cue in e.balls:
            first_contact = False
            other = e.balls[1] if e.balls[0] is cue else e.balls[0]
            if other not in hit:
                hit.append(other)
                if len(hit) == 2:
                    return count, hit
    return count, hit
