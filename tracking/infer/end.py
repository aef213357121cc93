"""Step 5 of a shot: its end (``ShotEnd``), when every ball is at rest, with their positions.

Contract: :func:`shot_end` returns the ``ShotEnd`` of a shot whose motions have all ended, or
None when the shot is not over: a ball still moving when the data stop, unless the data are
complete (``final``) and every such ball was slow enough to change nothing
(``InferenceConfig.end_speed_mm_s``).

Why: the rules judge each shot from its end layout (the next shot's positions, a ball frozen).
The end time is the last motion's end among the balls still on the table; the positions are
each ball's rest position from then on (a bounded window of its rest run, as at the start), else
its last sample; balls gone, resting in a pocket's throat, or vanished in an earlier shot and not
back are left out. Confidence: 1 with every ball accounted for, 0.4 with a ball lost (vanished
in motion, its end position a guess), at most 0.5 when closed on still-moving balls.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from tracking.events import ShotEnd
from tracking.ids import BallId
from tracking.infer.config import InferenceConfig
from tracking.infer.exits import Exits
from tracking.infer.timeline import FrameAt, rest_position_at
from tracking.pockets import PocketZone, pocket_holding
from tracking.segment import BallActivity, Motion, ShotSpan
from tracking.sides import make_side


def shot_end(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    exits: Exits,
    shot: int,
    zones: tuple[PocketZone, ...],
    cfg: InferenceConfig,
    frame_at: FrameAt,
    final: bool,
) -> ShotEnd | None:
    """The ``ShotEnd`` of the shot ``span`` (see the module docstring), or None while not over."""
    end_conf = 1.0 if not exits.lost else 0.4
    if exits.open_motions:
        if not final or any(_last_speed(acts[m.ball], m, cfg) > cfg.end_speed_mm_s for m in exits.open_motions):
            return None
        end_conf = min(end_conf, 0.5)
    ends = [m.t_end_s(acts[m.ball].samples) for m in span.motions if m.ball not in exits.gone]
    t_end = max(ends) if ends else span.t_end_s
    moved = {m.ball for m in span.motions}
    end_positions: dict[BallId, tuple[float, float]] = {}
    for ball in sorted(acts, key=lambda b: b.value):
        if ball in exits.gone:
            continue
        act = acts[ball]
        if zones and ball not in moved and _vanished_before(act, t_end):
            continue  # pocketed (or off the table) in an earlier shot, not yet back
        p = rest_position_at(act, t_end, cfg.contact.rest_fit_samples, after=True)
        if p is None:
            k = int(np.searchsorted(act.samples.t_s, t_end, side="right") - 1)
            if k < 0:
                continue
            p = (float(act.samples.xy_mm[k, 0]), float(act.samples.xy_mm[k, 1]))
        if zones and pocket_holding(zones, p) is not None:
            continue  # resting in a pocket's throat
        end_positions[ball] = p
    return ShotEnd(t_end, frame_at(t_end), shot, end_conf, end_positions)


def _last_speed(act: BallActivity, m: Motion, cfg: InferenceConfig) -> float:
    """The ball's speed (mm/s) at the last sample of motion ``m``, from a fit of its last
    samples (0 where they fit no motion)."""
    side = make_side(act, m.i_last, -1, -math.inf, math.inf, cfg.contact)
    if side.fit is None or side.at_rest:
        return 0.0
    return float(np.hypot(*side.fit.vel(float(act.samples.t_s[m.i_last]))))


def _vanished_before(act: BallActivity, t_s: float) -> bool:
    """Whether the ball's last sighting at or before ``t_s`` ended a motion in which it vanished,
    and it has not been seen again by ``t_s``."""
    s = act.samples
    k = int(np.searchsorted(s.t_s, t_s, side="right") - 1)
    if k < 0 or (k + 1 < len(s) and float(s.t_s[k + 1]) <= t_s):
        return False
    return any(m.i_last == k and m.rest_after is None for m in act.motions)
