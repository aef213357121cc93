"""Keeping ball identities across frames.

Each frame's detections (table millimetres on the ball-centre plane, with the detector's colour
belief) are assigned to the balls of the game with ``scipy.optimize.linear_sum_assignment`` on a
cost that adds the distance to each ball's predicted position (constant velocity since its last
sighting) and the detector's disbelief that the detection has that ball's colour. A gate keeps a
ball from jumping across the table to a stray detection. A ball with no detection this frame is
*bridged*: it stays where it was last seen (at rest) or coasts briefly on its last velocity, and
its sample is marked not observed with a confidence that decays with the time it has been hidden,
so that the event inference knows to trust it less (DESIGN.md: players and cues over the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from tracking.ids import BallId


@dataclass(frozen=True)
class Detection:
    """A ball candidate in table mm. ``colour_scores`` maps ball ids to the detector's belief that
    this is that ball (0..1); ``confidence`` how sure it is that this is a ball at all."""

    x_mm: float
    y_mm: float
    colour_scores: Mapping[BallId, float]
    confidence: float = 1.0


@dataclass(frozen=True)
class BallState:
    """One ball in one frame: where it is, whether a detection supports it, and how much to trust it."""

    ball: BallId
    frame: int
    t_s: float
    x_mm: float
    y_mm: float
    observed: bool
    confidence: float


@dataclass(frozen=True)
class TrackerConfig:
    """Costs: ``dist_scale_mm`` of distance cost as much as a whole colour mismatch costs
    ``colour_weight``. The gate is ``gate_mm`` plus the distance the ball could cover at its speed."""

    dist_scale_mm: float = 25.0
    colour_weight: float = 4.0
    gate_mm: float = 120.0
    gate_speed_factor: float = 2.5
    max_speed_mm_s: float = 12000.0
    coast_s: float = 0.15
    hidden_halflife_s: float = 0.5
    unseen_cost: float = 12.0


@dataclass
class _Ball:
    ball: BallId
    x_mm: float = float("nan")
    y_mm: float = float("nan")
    vx_mm_s: float = 0.0
    vy_mm_s: float = 0.0
    t_seen_s: float = float("nan")

    @property
    def seen(self) -> bool:
        return not np.isnan(self.t_seen_s)

    def predict(self, t_s: float, coast_s: float) -> tuple[float, float]:
        dt = min(max(t_s - self.t_seen_s, 0.0), coast_s)
        return self.x_mm + self.vx_mm_s * dt, self.y_mm + self.vy_mm_s * dt


class Tracker:
    """Streaming tracker: ``update(frame, t_s, detections)`` → one :class:`BallState` per ball that
    has been seen at least once."""

    def __init__(self, balls: Sequence[BallId], config: TrackerConfig | None = None) -> None:
        if len(set(balls)) != len(balls) or not balls:
            raise ValueError(f"tracker: expected distinct ball ids, got {[b.value for b in balls]}")
        self.config = config or TrackerConfig()
        self._balls = [_Ball(b) for b in balls]

    def _cost(self, t_s: float, dets: Sequence[Detection]) -> np.ndarray:
        cfg = self.config
        C = np.full((len(self._balls), len(dets)), np.inf)
        for i, b in enumerate(self._balls):
            if b.seen:
                px, py = b.predict(t_s, cfg.coast_s)
                dt = max(t_s - b.t_seen_s, 1e-3)
                speed = min(np.hypot(b.vx_mm_s, b.vy_mm_s), cfg.max_speed_mm_s)
                gate = cfg.gate_mm + cfg.gate_speed_factor * speed * min(dt, 0.1) + 3000.0 * max(dt - 0.1, 0.0)
            for j, d in enumerate(dets):
                colour = cfg.colour_weight * (1.0 - float(d.colour_scores.get(b.ball, 0.0)))
                if b.seen:
                    dist = float(np.hypot(d.x_mm - px, d.y_mm - py))
                    if dist > gate:
                        continue
                    C[i, j] = dist / cfg.dist_scale_mm + colour
                else:
                    C[i, j] = cfg.unseen_cost * 0.5 + colour
        return C

    def update(self, frame: int, t_s: float, detections: Sequence[Detection]) -> list[BallState]:
        cfg = self.config
        dets = list(detections)
        assigned: dict[int, int] = {}
        if dets:
            C = self._cost(t_s, dets)
            big = 1e6
            Cf = np.where(np.isfinite(C), C, big)
            rows, cols = linear_sum_assignment(Cf)
            for r, c in zip(rows, cols):
                if Cf[r, c] < min(big, cfg.unseen_cost * 2):
                    assigned[r] = c
        out: list[BallState] = []
        for i, b in enumerate(self._balls):
            if i in assigned:
                d = dets[assigned[i]]
                if b.seen:
                    dt = t_s - b.t_seen_s
                    if 0 < dt <= 0.25:
                        vx, vy = (d.x_mm - b.x_mm) / dt, (d.y_mm - b.y_mm) / dt
                        b.vx_mm_s, b.vy_mm_s = 0.5 * b.vx_mm_s + 0.5 * vx, 0.5 * b.vy_mm_s + 0.5 * vy
                    else:
                        b.vx_mm_s = b.vy_mm_s = 0.0
                b.x_mm, b.y_mm, b.t_seen_s = d.x_mm, d.y_mm, t_s
                out.append(BallState(b.ball, frame, t_s, d.x_mm, d.y_mm, True, float(np.clip(d.confidence, 0, 1))))
            elif b.seen:
                hidden = t_s - b.t_seen_s
                px, py = b.predict(t_s, cfg.coast_s)
                conf = float(0.5 ** (hidden / cfg.hidden_halflife_s)) * 0.5
                out.append(BallState(b.ball, frame, t_s, px, py, False, conf))
        return out
