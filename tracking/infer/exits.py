"""Step 4 of a shot: the balls that leave the table (``OffTable``, ``Pocketed``) or are lost.

Contract: :func:`off_the_pockets` first takes out of a shot the motions of balls lying in a
pocket throughout (they are off the table, and start no shot); after the contacts,
:func:`find_exits` looks at each motion's end and returns the exit events with the balls gone
(pocketed or off the table), lost (vanished in motion, still on the table) and still moving when
the data stop, which :mod:`tracking.infer.end` needs to close the shot.

Why: a ball whose track ends in motion and is not seen again has left the table when its last
motion says so (:func:`tracking.offtable.ball_exit`: heading into a pocket, or over a rail);
otherwise the tracker lost it and it is still on the table. On a table with pockets
(:mod:`tracking.pockets`) a ball that comes to rest, seen, inside a pocket's drop circle (in the
throat) is pocketed too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from calibration.table import TableSpec
from tracking.events import Event, OffTable, Pocketed
from tracking.ids import BallId
from tracking.infer.config import InferenceConfig
from tracking.infer.timeline import FrameAt
from tracking.offtable import ball_exit, in_pocket_at_end
from tracking.pockets import PocketEntry, PocketZone, entry_before_sighting, pocket_entry, pocket_holding
from tracking.segment import BallActivity, Motion, ShotSpan

#: Confidence of a ball seen at rest in a pocket's throat whose way in no pocket entry fits:
#: it is in the pocket, but when it went in is a guess (its first sample inside).
DROPPED_IN_VIEW_CONF = 0.6


@dataclass(frozen=True)
class Exits:
    """How the motions of a shot end, where not at rest on the table: the exit ``events``, the
    balls ``gone`` (pocketed or off the table), ``lost`` (vanished in motion, no exit found) and
    the ``open_motions`` still under way when the data stop (lost only after ``lost_after_s``)."""

    events: tuple[Event, ...]
    gone: frozenset[BallId]
    lost: frozenset[BallId]
    open_motions: tuple[Motion, ...]


def off_the_pockets(acts: Mapping[BallId, BallActivity], span: ShotSpan, zones: tuple[PocketZone, ...]) -> ShotSpan:
    """The span without the motions of balls that lie in a pocket throughout (a pocketed ball
    in the throat, jostled by the next one dropping in): they are off the table."""
    keep = []
    for m in span.motions:
        xy = acts[m.ball].samples.xy_mm
        lo = m.i_first - 1 if m.rest_before is not None else m.i_first
        if all(pocket_holding(zones, xy[i]) is not None for i in range(max(lo, 0), m.i_last + 1)):
            continue
        keep.append(m)
    if len(keep) == len(span.motions):
        return span
    return ShotSpan(tuple(keep), span.t_begin_s, span.t_end_s, span.ended)


def find_exits(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    t_start: float,
    shot: int,
    table: TableSpec,
    zones: tuple[PocketZone, ...],
    cfg: InferenceConfig,
    frame_at: FrameAt,
    clip_end_s: float,
) -> Exits:
    """The exits of the shot's motions (none before the stroke at ``t_start``), in motion order.
    A motion whose last sample is followed by a gap of ``lost_after_s`` (or by the ball's next
    track piece) has ended: gone when :func:`ball_exit` finds the way out, else lost; one the
    data stop in sooner is still open."""
    events: list[Event] = []
    gone: set[BallId] = set()
    lost: set[BallId] = set()
    open_motions: list[Motion] = []
    for m in span.motions:
        if m.rest_after is not None:
            drop = _dropped_into_view(acts[m.ball], m, zones) if zones else None
            if drop is not None:  # came to rest in a pocket's throat, in view
                gone.add(m.ball)
                t = max(drop.t_s, t_start)
                events.append(Pocketed(t, frame_at(t), shot, drop.confidence, m.ball, drop.pocket))
            continue
        act = acts[m.ball]
        s = act.samples
        t_last = float(s.t_s[m.i_last])
        t_next = float(s.t_s[m.i_last + 1]) if m.i_last + 1 < len(s) else clip_end_s
        if t_next - t_last >= cfg.segment.lost_after_s or (m.i_last + 1 < len(s)):
            ex = ball_exit(act, m, table, cfg.contact, cfg.exit)
            if ex is None:
                lost.add(m.ball)
                continue
        elif zones and (ex := in_pocket_at_end(act, m, zones, cfg.exit)) is not None:
            pass  # still moving when the data stop, but inside a pocket for a while: in that pocket
        else:
            open_motions.append(m)
            continue
        gone.add(m.ball)
        t = max(ex.t_s, t_start)
        if ex.pocket is None:
            events.append(OffTable(t, frame_at(t), shot, ex.confidence, m.ball))
        else:
            events.append(Pocketed(t, frame_at(t), shot, ex.confidence, m.ball, ex.pocket))
    return Exits(tuple(events), frozenset(gone), frozenset(lost), tuple(open_motions))


def _dropped_into_view(act: BallActivity, m: Motion, zones: tuple[PocketZone, ...]) -> PocketEntry | None:
    """A motion that ends at rest inside a drop circle: the pocket entry (timed on the samples
    up to the first one inside), or None."""
    assert m.rest_after is not None
    s = act.samples
    if pocket_holding(zones, m.rest_after.pos_mm) is None:
        return None
    inside = [i for i in range(m.i_first, m.rest_after.i0 + 1) if pocket_holding(zones, s.xy_mm[i]) is not None]
    k = inside[0] if inside else m.rest_after.i0
    if inside:
        entry = entry_before_sighting(zones, s.t_s[m.i_first : k + 1], s.xy_mm[m.i_first : k + 1], k - m.i_first)
    else:
        idx = np.arange(m.i_first, k + 1)
        entry = pocket_entry(zones, s.t_s[idx], s.xy_mm[idx], float(s.t_s[k + 1]) if k + 1 < len(s) else math.inf)
    if entry is None:
        z = pocket_holding(zones, m.rest_after.pos_mm)
        return PocketEntry(z.pocket, float(s.t_s[k]), DROPPED_IN_VIEW_CONF)  # type: ignore[union-attr]
    return entry
