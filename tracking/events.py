"""The event types of the event log (DESIGN.md, "Event log"): the contract between seeing and judging.

Every event carries ``t_s`` (seconds from the start of the source, estimated below one frame where
the paths allow), ``frame`` (the video frame it falls in), ``shot`` (1-based) and ``confidence``
(0..1). Positions are table millimetres ``(x_mm, y_mm)``. The JSON spelling (``kind``, ``t``,
``pos`` …) lives in :mod:`tracking.eventlog`; this module holds only the typed values.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

from tracking.ids import BallId, Cushion, Pocket

PointMm = tuple[float, float]


class EventKind(Enum):
    SHOT_START = "shot_start"
    BALL_BALL = "ball_ball"
    CUSHION = "cushion"
    POCKET = "pocket"
    OFF_TABLE = "off_table"
    SHOT_END = "shot_end"
    NEAR_MISS = "near_miss"


@dataclass(frozen=True)
class NameDoubt:
    """Why a ball's name is in doubt: the detector's colour evidence for it, averaged over the
    detections the tracker gave it (``read``, 0..1), below one half (the tracker's
    ``name_doubt_read``) — it was named by elimination
    or by its kind, not by its look (a ball set the classifier never saw) — and the ball those
    detections read most instead (``rival``, None where none of the set was read) with its
    average (``rival_read``)."""

    read: float
    rival: BallId | None
    rival_read: float


@dataclass(frozen=True)
class ShotStart:
    """The stroke begins: ``cue_ball`` is the ball the cue struck; ``positions`` every ball on the
    table before the stroke. ``frozen_to_cushion`` names, for a ball resting against a cushion,
    that cushion (three-cushion art. 10: its first contact does not count); ``balls_in_contact``
    the pairs resting against each other (art. 9). ``under_way`` names the balls already moving
    when the recording began (a clip cut in mid-shot): the stroke and whatever happened before the
    first frame were not seen, so every call of the shot is one to review; empty where the stroke
    is seen (a sparse recorder that opens with the struck ball's first report is one that sees
    it). ``name_doubts`` names the balls whose names the detector's colour barely supports
    (:class:`NameDoubt`): a call that names such a ball, or changes with it and its rival
    swapped, is one to review (:mod:`rules.core.evidence`). ``under_way_at`` gives where each
    ball under way was first seen (its first sample): with ``positions``, the layout of the first
    frame, which tells a rack struck on the clip's first frames (its balls still packed, jittering
    in a blurred picture) from a shot in play (:mod:`rules.core.opening`). All five are optional
    extensions of DESIGN.md."""

    t_s: float
    frame: int
    shot: int
    confidence: float
    cue_ball: BallId
    positions: Mapping[BallId, PointMm]
    frozen_to_cushion: Mapping[BallId, Cushion] = field(default_factory=dict)
    balls_in_contact: tuple[tuple[BallId, BallId], ...] = ()
    under_way: tuple[BallId, ...] = ()
    name_doubts: Mapping[BallId, NameDoubt] = field(default_factory=dict)
    under_way_at: Mapping[BallId, PointMm] = field(default_factory=dict)
    kind: EventKind = field(default=EventKind.SHOT_START, init=False)

    @property
    def on_table(self) -> frozenset[BallId]:
        """Every ball the start shows on the table: at rest (``positions``) or already moving
        when the recording began (``under_way``, ``under_way_at``: a log may give the first
        without the second)."""
        return frozenset(self.positions) | frozenset(self.under_way) | frozenset(self.under_way_at)


@dataclass(frozen=True)
class BallBall:
    """Two balls touch: ``balls`` is (striking, struck) where known, else in any order."""

    t_s: float
    frame: int
    shot: int
    confidence: float
    balls: tuple[BallId, BallId]
    pos_mm: PointMm
    kind: EventKind = field(default=EventKind.BALL_BALL, init=False)


@dataclass(frozen=True)
class CushionHit:
    """``ball`` touches ``cushion``; ``pos_mm`` is the ball centre at the contact."""

    t_s: float
    frame: int
    shot: int
    confidence: float
    ball: BallId
    cushion: Cushion
    pos_mm: PointMm
    kind: EventKind = field(default=EventKind.CUSHION, init=False)


@dataclass(frozen=True)
class Pocketed:
    t_s: float
    frame: int
    shot: int
    confidence: float
    ball: BallId
    pocket: Pocket
    kind: EventKind = field(default=EventKind.POCKET, init=False)


@dataclass(frozen=True)
class OffTable:
    t_s: float
    frame: int
    shot: int
    confidence: float
    ball: BallId
    kind: EventKind = field(default=EventKind.OFF_TABLE, init=False)


@dataclass(frozen=True)
class ShotEnd:
    """Every ball has come to rest; ``positions`` holds every ball still on the table."""

    t_s: float
    frame: int
    shot: int
    confidence: float
    positions: Mapping[BallId, PointMm]
    kind: EventKind = field(default=EventKind.SHOT_END, init=False)


@dataclass(frozen=True)
class NearMiss:
    """The cue ball and another ball passed within ``gap_mm`` of touching and no contact between
    them was found: the closest their sampled paths came (centre distance less a diameter; 0 or
    below where the samples overlap), at ``pos_mm`` (the midpoint of the two centres then).

    Not a contact, and no rule counts it: the rules' review asks what the call would be had the
    two touched there (:func:`rules.core.evidence.review_shot`), so that a call resting on the
    absence of a contact too thin for the samples to show carries ``needs_review`` instead of
    being confidently wrong (real three-cushion tracks with 1 mm more noise: the cue ball's thin
    contact with the second ball lost, a point called a miss). ``confidence``: how sure the
    tracker is that they did not touch (0 at a gap of 0, 1 at ``InferenceConfig.near_miss_mm``).
    An optional extension of DESIGN.md's event log."""

    t_s: float
    frame: int
    shot: int
    confidence: float
    balls: tuple[BallId, BallId]
    pos_mm: PointMm
    gap_mm: float
    kind: EventKind = field(default=EventKind.NEAR_MISS, init=False)


Event = ShotStart | BallBall | CushionHit | Pocketed | OffTable | ShotEnd | NearMiss


@dataclass(frozen=True)
class Shot:
    """One stroke's events, from its ``shot_start`` to its ``shot_end`` (which may be missing in a
    log cut short), in time order; its ``near_misses`` apart (:class:`NearMiss`: no event the
    rules count, only what their review asks about)."""

    number: int
    events: tuple[Event, ...]
    near_misses: tuple[NearMiss, ...] = ()

    @property
    def start(self) -> ShotStart | None:
        first = self.events[0] if self.events else None
        return first if isinstance(first, ShotStart) else None

    @property
    def end(self) -> ShotEnd | None:
        last = self.events[-1] if self.events else None
        return last if isinstance(last, ShotEnd) else None


def _shot(number: int, events: Iterable[Event]) -> Shot:
    """A shot of ``events`` (ordered here), its near misses apart."""
    ordered = sorted(events, key=_order_key)
    return Shot(
        number=number,
        events=tuple(e for e in ordered if not isinstance(e, NearMiss)),
        near_misses=tuple(e for e in ordered if isinstance(e, NearMiss)),
    )


def group_shots(events: list[Event] | tuple[Event, ...]) -> list[Shot]:
    """Split a time-ordered event list into shots by their ``shot`` number (1-based, ascending)."""
    shots: dict[int, list[Event]] = {}
    for ev in events:
        shots.setdefault(ev.shot, []).append(ev)
    return [_shot(n, evs) for n, evs in sorted(shots.items())]


def iter_shots(events: Iterable[Event]) -> Iterator[Shot]:
    """The shots of a log read in order (:func:`tracking.eventlog.iter_events` checks that each
    shot's events are one run of lines), one at a time as each shot's last event passes: a run of
    equal ``shot`` numbers is a shot, its events ordered as :func:`group_shots` orders them. Holds
    one shot's events at a time, so a log of any length is judged in bounded memory."""
    number: int | None = None
    run: list[Event] = []
    for ev in events:
        if ev.shot != number and run:
            yield _shot(run[0].shot, run)
            run = []
        number = ev.shot
        run.append(ev)
    if run:
        yield _shot(run[0].shot, run)


_KIND_ORDER = {
    EventKind.SHOT_START: 0,
    EventKind.BALL_BALL: 1,
    EventKind.CUSHION: 1,
    EventKind.POCKET: 1,
    EventKind.OFF_TABLE: 1,
    EventKind.NEAR_MISS: 1,
    EventKind.SHOT_END: 2,
}


def _order_key(ev: Event) -> tuple[int, float]:
    return (_KIND_ORDER[ev.kind], ev.t_s)
