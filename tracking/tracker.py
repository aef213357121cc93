"""Identities across frames: which detection is which ball, frame after frame.

The ball set is fixed and known (carom: white, yellow, red, :data:`tracking.ids.CAROM_BALLS`; any
set works), so each track *is* a ball and never needs to be born or to die. Per frame, detections
(already in table millimetres, on the ball-centre plane) are assigned to balls by
``scipy.optimize.linear_sum_assignment`` on a cost that adds

- position: the squared distance from the ball's predicted centre, in units of a prediction
  uncertainty that grows with the ball's speed, with the time it has been unseen, and, for a ball
  at rest, with the speed of any ball about to reach it (a resting ball may be struck this very
  frame, and a stun shot swaps the two positions, so then colour must decide); detections beyond
  the gate are not candidates;
- colour: ``colour_weight * (1 - score)`` from the detection's ``label_scores`` for that ball
  (or its ``label`` guess); a detection without colour evidence costs the same for every ball.

Prediction is constant velocity, reflected off the cushions (a ball's centre stays R inside the
nose lines) and slowed by a rolling deceleration. A ball not assigned a detection is *bridged*:
its predicted position (a ball at rest stays put) is emitted with ``observed=False`` and a
confidence that falls with the time unseen; after ``max_hidden_s`` it is *lost* (held where it
was last predicted, confidence 0) until a detection of its colour reappears, anywhere.
A ball seen for the first time, or found again after a gap, takes only a detection whose colour
evidence (when it has any) says it may be that ball.

Many balls (pool, snooker; :mod:`tracking.identity`): a detection's colour evidence is about the
detector's *class* of a ball (every snooker red is ``red``), so balls sharing a class are told
apart by motion alone; the first time they are seen they are named in order along the table
(``red_1`` nearest the head), so names do not depend on detection order. What cannot happen is
kept out of the assignment: a ball that vanished moving into a pocket's drop circle
(:mod:`tracking.pockets`) is *gone* and, like a lost ball of a shared class, is only considered
for the detections that no ball on the table takes (a second assignment after the first): a
pocketed ball comes back only where a ball of its class appears that is no other ball (respotted,
placed by hand, re-racked), never by taking over a neighbour's detection misread as its class.

Streaming: :meth:`Tracker.update` takes one frame (a :class:`tracking.detections.Detections`, or
any sequence of :class:`tracking.detections.BallDetection`) and returns every ball's state for it,
so the pipeline can write tracks and feed event inference as it goes; :meth:`Tracker.trajectories`
hands back everything so far as :class:`tracking.trajectory.Trajectory` values.

Motion: the tracker owns the one live model of whether the balls move and where they will be.
:meth:`Tracker.motion` hands it out as a frozen :class:`MotionState` (every ball's predicted
centre and velocity, and whether every ball on the table is at rest) to whoever must decide from
it between frames: the pipeline's still-frame skipping (:mod:`tabletrack.still`) and the detectors
(the ``motion`` argument of :class:`vision.detect.Detector`), so that none of them keeps velocities
of its own from the tracks. (Shot segmentation, :mod:`tracking.segment`, answers a different,
after-the-fact question on whole trajectories: where a shot started and ended, with hysteresis.)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.table import TableSpec
from tracking.detections import BallDetection, BallMotion, Detections, MotionState
from tracking.events import NameDoubt
from tracking.identity import detector_class, shared_class_balls
from tracking.ids import CAROM_BALLS, BallId, pool_kind
from tracking.pockets import PocketZone, near_pocket, pocket_holding, pocket_zones
from tracking.trajectory import Trajectory

__all__ = ["BallMotion", "BallState", "MotionState", "Tracker", "TrackerConfig", "TrackerError", "label_score"]


class TrackerError(ValueError):
    """Input the tracker cannot use (a time going backwards, a bad detection)."""


def _check(d: BallDetection) -> None:
    """A detection the tracker can use: a finite position, ``score`` and ``label_scores`` in 0..1,
    keyed by :class:`BallId`."""
    if not (math.isfinite(d.x_mm) and math.isfinite(d.y_mm)):
        raise TrackerError(f"detection position must be finite, got ({d.x_mm}, {d.y_mm})")
    if not 0.0 <= d.score <= 1.0:
        raise TrackerError(f"detection score must be in 0..1, got {d.score}")
    for b, v in d.label_scores.items():
        if not isinstance(b, BallId) or not 0.0 <= float(v) <= 1.0:
            raise TrackerError(f"label_scores must map BallId to 0..1, got {b!r}: {v!r}")
    if d.label is not None and not isinstance(d.label, BallId):
        raise TrackerError(f"detection label must be a BallId or None, got {d.label!r}")


def label_score(d: BallDetection, ball: BallId) -> float | None:
    """The detection's colour evidence for ``ball`` (0..1), or None when it has none. The
    evidence is for the ball itself or, failing that, for its detector class
    (:func:`tracking.identity.detector_class`: ``red`` for ``red_7``)."""
    cls = detector_class(ball)
    if d.label_scores:
        if ball in d.label_scores:
            return float(d.label_scores[ball])
        return float(d.label_scores.get(cls, 0.0))
    if d.label is not None:
        return 1.0 if d.label is ball or d.label is cls else 0.0
    return None


@dataclass(frozen=True)
class BallState:
    """One ball in one frame: where it is (measured when ``observed``, else bridged), its
    velocity estimate, the sample's confidence and how long it has been unseen."""

    ball: BallId
    frame: int
    t_s: float
    x_mm: float
    y_mm: float
    vx_mm_s: float
    vy_mm_s: float
    observed: bool
    confidence: float
    hidden_s: float


@dataclass(frozen=True)
class TrackerConfig:
    """Assignment and bridging parameters (millimetres, seconds).

    ``sigma_mm``: position uncertainty of a prediction at rest (detector noise, ball jitter).
    ``speed_sigma``: extra uncertainty per mm the ball moves in the frame interval.
    ``max_speed_mm_s``: fastest ball, bounds how far an unseen ball may have gone (the gate).
    ``struck_speed_mm_s``: the fastest a ball struck from rest leaves (a pool break, ~13 m/s):
    how far beyond a resting ball the nearer end of an unnamed streak along a line through it
    may lie for the ball to take it (:meth:`Tracker._struck_from_rest`).
    ``striker_overshoot``: how far, in its last step, a moving ball may come beyond its prediction
    in a frame (a broadcast's frame times jitter): a resting ball near that path is one it may
    reach and send off at its speed (real nine-ball break, blurred: the cue ball's step to the
    rack's apex was 1.5 times its step before; with the path cut at the prediction the apex 1 was
    held where it lay and its first sighting struck was taken by the 5 behind it).
    ``gate_mm``: the gate of a ball seen in the last frame, before the speed terms.
    ``rack_contact_mm``: a ball at rest whose centre is within a diameter and this of a ball
    about to be reached is taken to touch it, and may be sent off with it (a break's rack).
    ``colour_weight``: cost of a detection whose colour contradicts the ball fully.
    ``max_hidden_s``: how long a ball is bridged before it is lost.
    ``rest_speed_mm_s``: below this a ball is taken to be at rest (its prediction stays put).
    ``decel_mm_s2``: rolling deceleration used in prediction while unseen.
    ``min_confidence``: detections below this confidence are ignored; ``start_confidence``: a ball
    not yet seen is first taken only from a detection at least this sure it is a ball (a table mark
    such as a spot, faintly ball-like, must not start a track of a ball that is not on the table).
    ``start_min_score``: a ball not yet seen takes a detection whose colour evidence for it is
    below one half (real light splits a model's belief over balls of one look: a stripe read 0.3
    the 13, 0.25 the 15) when that ball is among the detection's ``start_top_k`` likeliest of the
    balls not yet seen and its score is at least this; the assignment then names the balls of a
    frame together (real eight-ball broadcast: an orange 5 read 0.51 the 3, 0.23 the 5 beside the
    red 3 read 0.95 the 3 and a maroon 7 read 0.43 the 5, 0.43 the 7: only together are all three
    named, where the likeliest alone left the 5 untracked).
    ``confirm_sightings``, ``confirm_span_s``, ``pending_gap_s``: a detection sure it is a ball
    that no ball takes (its likeliest balls are all named elsewhere), seen again at the same place
    at least ``confirm_sightings`` times over at least ``confirm_span_s`` with no gap over
    ``pending_gap_s``, is a ball whose look the model confused with another's: it is named the
    likeliest ball not yet seen, however low that score (real eight-ball broadcast: a stripe read
    0.65 the 13 beside a 13 read 0.67, and 0.13 the 15, was never tracked at all), and, on a pool
    table, of the kind (cue, solid, eight, stripe) that holds more than half of its evidence where
    one does and a ball of that kind is left (a stripe read 0.44 the 10 and 0.24 the 12, both
    named, is the stripe left, not the 5 it read at 0.07; a maroon 4 in the dark read 0.78 the 8,
    the 8 being named, is still named: a ball of another kind). A flicker, a hand
    passing, a ball rolling do not stay in one place for that long. Such a detection must be surer
    it is a ball than a start needs (``pending_confidence``: a hand resting on the cloth read 0.40).
    ``start_rail_r``: no ball not yet seen starts, directly or so, from a detection whose centre
    lies less than this many radii inside the nose lines (a ball's centre never lies nearer a
    cushion than its radius; real club footage: the white facings of the side pockets, read
    0.61-0.68 as balls, lay 20-26 mm from the nose line, the radius being 28.6).
    ``named_start_score``, ``named_sightings``, ``named_span_s``: a detection that reads a ball
    not yet seen (colour evidence at least one half) but scores under ``start_confidence`` as a
    ball (a ball by a pocket's jaws, half in the shade of the rail: real eight-ball broadcast, a
    maroon 7 read 0.91 the 7 at a ball score of 0.31-0.38 on every frame until it was potted, and
    the pot was never seen) starts that ball once it is seen at the same place at least
    ``named_sightings`` times over at least ``named_span_s`` with a score of at least
    ``named_start_score``: a flicker does not stay, a facing is near the rail
    (``start_rail_r``), and a detection within a radius of a spot marked on the cloth is the
    mark. A ball so read by any detection of the frame is not given by elimination to another
    detection that reads it at less than one half (the 7 above was given to a purple 4 misread
    0.86 the 3 and 0.05 the 7, the 3 being taken).
    ``unnamed_gap_s``: a detection with no colour evidence at all (a fast ball's streak,
    :mod:`vision.streaks`) is taken only by a ball seen within this long: it continues a ball in
    flight, it does not find one lost (real broadcast: a hand's edge by the rail, read as a
    streak 0.6 s after the 2 had dropped, was taken as the 2 with nothing else to say otherwise).
    ``backfill_s``: a ball named so is reported from its first sighting, not from the frame that
    confirmed it (a ball on the table at the clip's start is there in its first frame): the
    earlier sightings within ``backfill_s`` of the confirming frame come back from
    :meth:`Tracker.take_backfill`, and :meth:`Tracker.waiting_since` tells the pipeline how far
    back it must hold its output for them.
    ``bridged_confidence``: confidence of a bridged sample (falling to 0 at ``max_hidden_s`` for a
    moving ball). ``velocity_gap_s``: longest gap over which a velocity is still estimated from
    the last measurement. ``position_cap``: the most a detection's distance from a ball's
    prediction costs inside its gate; ``far_min_score``: a detection that far (at the cap) is that
    ball only when it reads it at least this much: the capped position plus a contradicting colour
    cost less than leaving the ball unseen, so colour alone could never refuse it (real broadcast,
    dev Clip12's break: the blue 2 at 2.8 m/s took a blob by a corner pocket 233 mm from its
    prediction that read 0.35 the 5 and 0.12 the 2, and was held there a frame while it rolled on
    along its path). ``refound_min_score``: a ball found again after a gap takes a detection that
    reads it at least one half, or reads it more than any other ball at this or more (real
    eight-ball, a high camera from a short end: a maroon 7 at the far end, hidden while the 2 rolled
    up to it and sent on 180 mm, read 0.46 the 7, 0.27 the 15 and 0.22 the 8, and was held where it
    had rested to the clip's end). ``opening_s``: after the clip's first this long, a ball not yet
    seen does not start, directly or by waiting, where a ball seen earlier and hidden now (not
    gone, not yet lost) could be, inside its gate: a ball the clip never showed is then more likely
    the hidden one misread than a new ball (real eight-ball game2: the blue 2, hidden after it
    struck the 7, was seen again read 0.77 the 12, a ball never seen, and a 12 was tracked for the
    rest of the clip: the stripes one more than the table had). There, a detection sure it is a
    ball (``start_confidence``) that reads a ball never seen most is taken by the hidden ball, not
    left unseen (the same clip mirrored: the 2, read as a never-seen 4, stayed hidden to the end).
    ``name_doubt_read``: a ball whose detections read it below this as itself, on average, has a
    doubtful name (:meth:`Tracker.name_doubts`): one half, where a detection reads a ball as itself."""

    sigma_mm: float = 4.0
    speed_sigma: float = 0.35
    max_speed_mm_s: float = 8000.0
    struck_speed_mm_s: float = 13000.0
    striker_overshoot: float = 1.5
    gate_mm: float = 60.0
    rack_contact_mm: float = 12.0
    colour_weight: float = 6.0
    max_hidden_s: float = 2.0
    rest_speed_mm_s: float = 20.0
    decel_mm_s2: float = 150.0
    min_confidence: float = 0.05
    start_confidence: float = 0.4
    start_min_score: float = 0.15
    start_top_k: int = 3
    confirm_sightings: int = 3
    confirm_span_s: float = 0.1
    pending_gap_s: float = 0.5
    pending_confidence: float = 0.5
    start_rail_r: float = 0.95
    named_start_score: float = 0.25
    named_sightings: int = 4
    named_span_s: float = 0.2
    unnamed_gap_s: float = 0.1
    backfill_s: float = 0.3
    bridged_confidence: float = 0.5
    velocity_gap_s: float = 0.25
    position_cap: float = 6.0
    far_min_score: float = 0.5
    refound_min_score: float = 0.3
    opening_s: float = 1.0
    name_doubt_read: float = 0.5


@dataclass
class _Track:
    ball: BallId
    x: float = math.nan  # current (measured or bridged) centre
    y: float = math.nan
    vx: float = 0.0
    vy: float = 0.0
    x_seen: float = math.nan  # centre when last measured
    y_seen: float = math.nan
    t_seen: float = -math.inf
    t_last: float = -math.inf
    seen_last_frame: bool = False
    velocity_known: bool = False
    started: bool = False
    gone: bool = False  # vanished into a pocket: back only by a detection no other ball takes
    # colour evidence of the detections it took (those with any): how many, the sum of their
    # evidence for this ball, and per other ball of the set the sum of theirs (name_doubts)
    reads: int = 0
    read_sum: float = 0.0
    rival_sums: dict[BallId, float] = field(default_factory=dict)


@dataclass
class _Pending:
    """A ball-like detection no ball took, waiting to be seen again at the same place: its
    sightings (frame, t_s, x_mm, y_mm, score), in time order; where it waits is the first.
    ``names``: per sighting, the index of the ball not yet seen it read as itself (None: none)."""

    seen: list[tuple[int, float, float, float, float]]
    names: list[int | None] = field(default_factory=list)

    def named(self) -> int | None:
        """The ball every sighting read as itself, where they all read one."""
        first = self.names[0] if self.names else None
        return first if first is not None and all(n == first for n in self.names) else None

    @property
    def x(self) -> float:
        return self.seen[0][2]

    @property
    def y(self) -> float:
        return self.seen[0][3]

    @property
    def t_first(self) -> float:
        return self.seen[0][1]

    @property
    def t_last(self) -> float:
        return self.seen[-1][1]


class Tracker:
    """Keeps the identities of ``balls`` through a clip (see the module docstring)."""

    def __init__(
        self,
        balls: Sequence[BallId] = CAROM_BALLS,
        table: TableSpec | None = None,
        config: TrackerConfig = TrackerConfig(),
    ) -> None:
        if len(set(balls)) != len(balls) or not balls:
            raise TrackerError(f"expected distinct balls to track, got {[b.value for b in balls]}")
        self.balls = tuple(balls)
        self.table = table
        self.config = config
        self._tracks = {b: _Track(b) for b in self.balls}
        self._shared = shared_class_balls(self.balls)
        #: every ball of the set has a pool kind (cue, solid, eight, stripe): naming by
        #: elimination keeps to the kind a detection reads (:meth:`_likeliest_kind`)
        self._pool_kinds = all(pool_kind(b) is not None for b in self.balls)
        self._zones: tuple[PocketZone, ...] = pocket_zones(table) if table is not None else ()
        seen: dict[BallId, int] = {}
        self._rank_in_class: dict[BallId, int] = {}
        self._class_of = {b: detector_class(b) for b in self.balls}
        for b in self.balls:  # a ball's place among the balls of its class (red_1 first)
            self._rank_in_class[b] = seen.get(self._class_of[b], 0)
            seen[self._class_of[b]] = self._rank_in_class[b] + 1
        self._rows: dict[BallId, list[tuple[float, int, float, float, bool, float]]] = {b: [] for b in self.balls}
        self._t_prev = -math.inf
        self._t0: float | None = None  # the first frame's time
        #: the last frame had a fast ball's streak that no ball took (see :meth:`_resting`)
        self._loose_streak = False
        self._pending: list[_Pending] = []
        #: states of confirmed balls' earlier sightings, not yet taken (:meth:`take_backfill`)
        self._backfill: list[BallState] = []

    # -- prediction ----------------------------------------------------------------------------

    def _predict(self, tr: _Track, t_s: float) -> tuple[float, float, float, float]:
        """(x, y, vx, vy) of the track at ``t_s``: constant velocity slowed by rolling, reflected
        off the cushions, except within a radius of a pocket's drop circle, where the mouth has no
        cushion to turn it (real broadcast, dev Clip17: the 7 rolling into a corner's mouth was
        predicted back on the cushion line, 28-50 mm behind where it was seen next)."""
        dt = max(t_s - tr.t_last, 0.0)
        speed = math.hypot(tr.vx, tr.vy)
        if dt == 0.0:
            return tr.x, tr.y, tr.vx, tr.vy
        if speed < self.config.rest_speed_mm_s:
            return tr.x, tr.y, 0.0, 0.0
        decel = self.config.decel_mm_s2
        t_move = min(dt, speed / decel) if decel > 0 else dt
        dist = speed * t_move - 0.5 * decel * t_move * t_move
        ux, uy = tr.vx / speed, tr.vy / speed
        x, y = tr.x + ux * dist, tr.y + uy * dist
        new_speed = max(speed - decel * dt, 0.0)
        vx, vy = ux * new_speed, uy * new_speed
        if self.table is not None:
            R = self.table.ball_radius_mm
            if not (self._zones and near_pocket(self._zones, (x, y), R) is not None):
                x, vx = _reflect(x, vx, R, self.table.length_mm - R)
                y, vy = _reflect(y, vy, R, self.table.width_mm - R)
        return x, y, vx, vy

    # -- one frame -----------------------------------------------------------------------------

    def update(self, frame: int, t_s: float, detections: Sequence[BallDetection] | Detections) -> list[BallState]:
        """Assign this frame's detections, advance every ball, and return each started ball's
        state (balls not yet seen once are left out)."""
        if not math.isfinite(t_s) or t_s <= self._t_prev:
            raise TrackerError(f"frame {frame}: t_s must increase, got {t_s} after {self._t_prev}")
        cfg = self.config
        for d in detections:
            _check(d)
        if self._t0 is None:
            self._t0 = float(t_s)
        dets = [d for d in detections if d.score >= cfg.min_confidence]
        preds = {b: self._predict(tr, t_s) if tr.started else None for b, tr in self._tracks.items()}
        # made once a frame: the tracks do not change until the assignment is over
        strikes = self._strikes(preds)
        reach = self._hidden_reach(dets, preds, t_s, strikes)
        assigned = self._assign_all(dets, preds, t_s, strikes, reach)
        assigned.update(self._acquire_rest(dets, preds, t_s, assigned, strikes, reach))
        # a ball started directly this frame where it already waited (seen the frames before
        # but not sure enough to start) is reported from those sightings too
        earlier = self._waited_at(
            {i: j for i, j in assigned.items() if not self._tracks[self.balls[i]].started}, dets, t_s
        )
        confirmed = self._confirm_pending(int(frame), dets, preds, t_s, assigned, reach)
        assigned.update({i: j for i, (j, _) in confirmed.items()})
        earlier.update({i: seen for i, (_, seen) in confirmed.items()})
        states: list[BallState] = []
        for i, ball in enumerate(self.balls):
            tr = self._tracks[ball]
            j = assigned.get(i)
            if i in earlier:
                self._report_earlier(ball, earlier[i], t_s)
            if j is not None:
                d = dets[j]
                self._observe(tr, d, t_s, preds[ball])
                conf = d.score
                observed = True
            else:
                if not tr.started:
                    continue
                p = preds[ball]
                assert p is not None
                hidden = t_s - tr.t_seen
                if not tr.gone and tr.seen_last_frame and self._into_pocket(tr):
                    tr.gone = True
                if tr.gone:
                    tr.x, tr.y = tr.x_seen, tr.y_seen  # held where it was last seen, off the table
                    tr.vx = tr.vy = 0.0
                    conf = 0.0
                elif hidden <= cfg.max_hidden_s:
                    tr.x, tr.y, tr.vx, tr.vy = p
                    at_rest = math.hypot(tr.vx, tr.vy) < cfg.rest_speed_mm_s
                    conf = cfg.bridged_confidence * (1.0 if at_rest else max(0.0, 1.0 - hidden / cfg.max_hidden_s))
                else:
                    tr.vx = tr.vy = 0.0  # lost: held where it was last predicted
                    conf = 0.0
                tr.t_last = t_s
                tr.seen_last_frame = False
                observed = False
            hidden_s = 0.0 if observed else t_s - tr.t_seen
            states.append(
                BallState(
                    ball, int(frame), float(t_s), tr.x, tr.y, tr.vx, tr.vy, observed, float(conf), float(hidden_s)
                )
            )
            self._rows[ball].append((float(t_s), int(frame), tr.x, tr.y, observed, float(conf)))
        taken = set(assigned.values())
        self._loose_streak = any(d.streak_px is not None for j, d in enumerate(dets) if j not in taken)
        self._t_prev = t_s
        return states

    def _observe(
        self, tr: _Track, d: BallDetection, t_s: float, pred: tuple[float, float, float, float] | None
    ) -> None:
        if d.label_scores and tr.ball not in self._shared:
            tr.reads += 1
            tr.read_sum += label_score(d, tr.ball) or 0.0
            for b, sc in d.label_scores.items():
                if b is not tr.ball and b in self._tracks and b not in self._shared:
                    tr.rival_sums[b] = tr.rival_sums.get(b, 0.0) + float(sc)
        gap = t_s - tr.t_seen
        if tr.started and 0.0 < gap <= self.config.velocity_gap_s:
            # velocity from the last measurement (over a short occlusion too: a straight-line
            # average, refined at the next frame)
            vx, vy = (d.x_mm - tr.x_seen) / gap, (d.y_mm - tr.y_seen) / gap
            if math.hypot(d.x_mm - tr.x_seen, d.y_mm - tr.y_seen) < self.config.sigma_mm:
                vx = vy = 0.0  # jitter of a ball at rest
            tr.vx, tr.vy = vx, vy
            tr.velocity_known = tr.seen_last_frame
        else:
            tr.vx = tr.vy = 0.0  # first sight, or back after a long gap: direction unknown
            tr.velocity_known = False
        tr.x = tr.x_seen = d.x_mm
        tr.y = tr.y_seen = d.y_mm
        tr.t_seen = tr.t_last = t_s
        tr.seen_last_frame = True
        tr.started = True
        tr.gone = False

    def _into_pocket(self, tr: _Track) -> bool:
        """Whether a ball just unseen was last seen dropping into a pocket: within the ball's
        diameter of a drop circle and moving toward it (or already inside it)."""
        if not self._zones or self.table is None:
            return False
        z = near_pocket(self._zones, (tr.x_seen, tr.y_seen), self.table.ball_diameter_mm)
        if z is None:
            return False
        dx, dy = z.centre_mm[0] - tr.x_seen, z.centre_mm[1] - tr.y_seen
        if math.hypot(dx, dy) <= z.drop_mm:
            return True
        speed = math.hypot(tr.vx, tr.vy)
        return speed >= self.config.rest_speed_mm_s and (dx * tr.vx + dy * tr.vy) > 0.0

    def _dropping(self, tr: _Track) -> PocketZone | None:
        """The pocket a ball is falling into: last seen (last frame) with its centre over the hole
        (the drop circle, where the bed no longer holds it) and moving toward the hole's centre.
        Such a ball cannot be back on the cloth a frame later, so it keeps only a detection in
        that pocket (:meth:`_assign_all`), else it is gone; a detection that seems to carry it
        out again, against its motion, is another ball (real broadcast: a ball racing into a
        corner was taken over by a neighbour's detection and its id carried away)."""
        if not self._zones or not tr.seen_last_frame or not tr.velocity_known:
            return None
        z = pocket_holding(self._zones, (tr.x_seen, tr.y_seen))
        if z is None or math.hypot(tr.vx, tr.vy) < self.config.rest_speed_mm_s:
            return None
        dx, dy = z.centre_mm[0] - tr.x_seen, z.centre_mm[1] - tr.y_seen
        return z if dx * tr.vx + dy * tr.vy > 0.0 else None

    def _second_stage(self, ball: BallId, t_s: float) -> bool:
        """Balls considered only for the detections left over by the others: gone into a pocket
        or falling into one (:meth:`_dropping`), or lost while sharing their class with other
        balls."""
        tr = self._tracks[ball]
        if tr.gone or self._dropping(tr) is not None:
            return True
        return ball in self._shared and tr.started and (t_s - tr.t_seen) > self.config.max_hidden_s

    def _assign_all(
        self,
        dets: Sequence[BallDetection],
        preds: Mapping[BallId, tuple[float, float, float, float] | None],
        t_s: float,
        strikes: Mapping[BallId, float],
        hidden: Sequence[bool],
    ) -> dict[int, int]:
        """Ball index -> detection index: the balls on the table first, then the second-stage
        balls on what they leave (``strikes``: this frame's :meth:`_strikes`; ``hidden``: its
        :meth:`_hidden_reach`, per detection)."""
        cost = self._cost_matrix(dets, preds, t_s, strikes, hidden)
        second = [i for i, b in enumerate(self.balls) if self._second_stage(b, t_s)]
        if not second:
            return self._assign(cost)
        first_rows = [i for i in range(len(self.balls)) if i not in set(second)]
        sub = cost[first_rows] if first_rows else np.zeros((0, len(dets)))
        a1 = {first_rows[r]: c for r, c in self._assign(sub).items()} if first_rows else {}
        left = [j for j in range(len(dets)) if j not in set(a1.values())]
        if not left:
            return a1
        cfg = self.config
        c2 = np.full((len(second), len(left)), 1e6)
        ranks = self._detection_ranks(dets)
        for r, i in enumerate(second):
            ball = self.balls[i]
            falling = self._dropping(self._tracks[ball])
            reach_mm = falling.drop_mm + self.table.ball_diameter_mm if falling is not None and self.table else 0.0
            pred = preds[ball]
            sigma, gate = self._sigma(ball, t_s, strikes) if falling is not None and pred is not None else (1.0, -1.0)
            for c, j in enumerate(left):
                score = label_score(dets[j], ball)
                if falling is not None and falling.distance_mm((dets[j].x_mm, dets[j].y_mm)) > reach_mm:
                    continue  # a falling ball is seen, if at all, in its pocket
                if score is None or score < 0.5:
                    # a ball on its way over the hole, seen where it was going, whatever the
                    # detector reads it as: a ball's look changes in the jaws' shadow (real
                    # broadcast, dev Clip17: the maroon 7, rolling slowly along a corner's jaw for
                    # ten frames, read 0.05 the 7 and 0.7 the 5; it was taken as dropped at once)
                    if falling is None or pred is None:
                        continue
                    dist = math.hypot(dets[j].x_mm - pred[0], dets[j].y_mm - pred[1])
                    if dist > gate:
                        continue
                    c2[r, c] = self._position_cost(dist, sigma) + cfg.colour_weight * (1.0 - (score or 0.0))
                    continue
                c2[r, c] = cfg.colour_weight * (1.0 - score) + 4.5 + 1e-4 * (self._rank_in_class[ball] - ranks[j]) ** 2
        a2 = self._assign(c2)
        for r, c in a2.items():
            a1[second[r]] = left[c]
        return a1

    def _acquire_rest(
        self,
        dets: Sequence[BallDetection],
        preds: Mapping[BallId, tuple[float, float, float, float] | None],
        t_s: float,
        assigned: Mapping[int, int],
        strikes: Mapping[BallId, float],
        hidden: Sequence[bool],
    ) -> dict[int, int]:
        """Balls not yet seen for the detections left over once the others are assigned: a
        detection whose likeliest unseen ball another detection took is offered the next likeliest
        of those still unseen, round after round, in the same frame (``strikes``, ``hidden``: as
        for :meth:`_assign_all`)."""
        out: dict[int, int] = {}
        taken = set(assigned.values())
        for _ in range(3):
            free_balls = [
                i
                for i, b in enumerate(self.balls)
                if not self._tracks[b].started and i not in assigned and i not in out
            ]
            free_dets = [j for j in range(len(dets)) if j not in taken]
            if not free_balls or not free_dets:
                break
            sub_dets = [dets[j] for j in free_dets]
            unseen = [self.balls[i] for i in free_balls]
            occupied = [(dets[j].x_mm, dets[j].y_mm) for j in taken]
            sub_hidden = [hidden[j] for j in free_dets]
            cost = self._cost_matrix(sub_dets, preds, t_s, strikes, sub_hidden, unseen=unseen, occupied=occupied)
            a = self._assign(cost[free_balls])
            if not a:
                break
            for r, c in a.items():
                out[free_balls[r]] = free_dets[c]
                taken.add(free_dets[c])
        return out

    def _confirm_pending(
        self,
        frame: int,
        dets: Sequence[BallDetection],
        preds: Mapping[BallId, tuple[float, float, float, float] | None],
        t_s: float,
        assigned: Mapping[int, int],
        hidden: Sequence[bool],
    ) -> dict[int, tuple[int, list[tuple[int, float, float, float, float]]]]:
        """Ball index -> (detection index, its earlier sightings) for the waiting detections
        confirmed this frame (see ``confirm_sightings`` in :class:`TrackerConfig`; ``hidden``: the
        frame's :meth:`_hidden_reach`, per detection): each is named the likeliest ball not yet
        seen. Detections left over this frame join or start a waiting entry; entries not seen for
        ``pending_gap_s`` are dropped."""
        cfg = self.config
        self._pending = [p for p in self._pending if t_s - p.t_last <= cfg.pending_gap_s]
        taken = set(assigned.values())
        unseen_now = [i for i, b in enumerate(self.balls) if not self._tracks[b].started and i not in assigned]
        reads = {j: self._named_unseen(dets[j], unseen_now) for j in range(len(dets)) if j not in taken}
        # a weak read on a spot may wait too but names no ball (the mark is faintly ball-like), so
        # that a ball that then starts there is reported from those sightings
        named = {j: None if self._on_spot(dets[j]) else r for j, r in reads.items()}
        free = [
            j
            for j in named
            if dets[j].score >= cfg.pending_confidence
            or (reads[j] is not None and dets[j].score >= cfg.named_start_score)
        ]
        if not free:
            return {}
        claims = self._claims(dets)
        held = self._held(preds)
        held += [(dets[j].x_mm, dets[j].y_mm) for j in taken]
        out: dict[int, tuple[int, list[tuple[int, float, float, float, float]]]] = {}
        for j in free:
            d = dets[j]
            if self._crowded([d], held)[0] or hidden[j]:
                continue  # a second box on a tracked ball, a pocketed ball seen in the throat, a facing
            near = self._pending_near(d)
            if not near:
                self._pending.append(_Pending([(frame, t_s, d.x_mm, d.y_mm, d.score)], [named[j]]))
                continue
            p = near[0]
            earlier = list(p.seen)
            p.seen.append((frame, t_s, d.x_mm, d.y_mm, d.score))
            p.names.append(named[j])
            i_named = named[j]
            if (
                i_named is not None
                and i_named not in out
                and len(p.seen) >= cfg.named_sightings
                and t_s - p.t_first >= cfg.named_span_s
            ):
                i = i_named  # read as that ball, steadily: named by its look
            else:
                sure = [x for x in p.seen if x[4] >= cfg.pending_confidence]
                if d.score < cfg.pending_confidence or len(sure) < cfg.confirm_sightings:
                    continue
                if t_s - sure[0][1] < cfg.confirm_span_s:
                    continue
                # named by elimination: the likeliest ball not yet seen that no other detection
                # of the frame reads as itself, of the kind the detection reads where one is left
                unseen = [
                    (label_score(d, b) or 0.0, -i, i)
                    for i, b in enumerate(self.balls)
                    if not self._tracks[b].started
                    and i not in assigned
                    and i not in out
                    and not claims.get(b, set()) - {j}
                ]
                kind = self._likeliest_kind(d)
                if kind is not None:
                    unseen = [u for u in unseen if pool_kind(self.balls[u[2]]) == kind] or unseen
                if not unseen:
                    continue
                _, _, i = max(unseen)
            out[i] = (j, earlier)
            self._pending.remove(p)
            held.append((d.x_mm, d.y_mm))
        return out

    def _likeliest_kind(self, d: BallDetection) -> str | None:
        """The pool kind (:func:`tracking.ids.pool_kind`) that holds more than half of the
        detection's colour evidence summed over the set's balls; None where no kind does, where
        the set has balls of no kind (carom, snooker) or the detection has no evidence. Why: a
        model that misreads a ball set it never saw confuses colours, seldom patterns (an eight-ball clip left out of
        the classifier's training: a stripe in a corner's jaws read 0.44 the 10, 0.24 the 12, both
        named, and 0.07 the 5, was named the 5 by elimination)."""
        if not self._pool_kinds:
            return None
        mass: dict[str, float] = {}
        for b in self.balls:
            sc = label_score(d, b)
            if sc:
                k = pool_kind(b)
                assert k is not None  # every ball of the set has a kind (self._pool_kinds)
                mass[k] = mass.get(k, 0.0) + sc
        if not mass:
            return None
        kind = max(mass, key=lambda k: mass[k])
        # only a kind that holds most of the evidence: a maroon 4 read 0.37 the 15, 0.26 the 8,
        # 0.23 the 7 is no stripe for sure, and the likeliest ball not yet seen (the 4) decides
        return kind if mass[kind] > 0.5 * sum(mass.values()) else None

    def _named_unseen(self, d: BallDetection, unseen: Sequence[int]) -> int | None:
        """The index of the ball among ``unseen`` (indices of balls not yet seen) that ``d``
        reads as itself (colour evidence at least one half) where that ball's look is its own (no
        other ball shares its detector class), or None. A read on a spot names no ball; the caller
        leaves it out (:meth:`_on_spot`)."""
        best = max(((label_score(d, self.balls[i]) or 0.0, i) for i in unseen), default=(0.0, -1))
        if best[0] < 0.5 or self.balls[best[1]] in self._shared:
            return None
        return best[1]

    def _on_spot(self, d: BallDetection) -> bool:
        """Whether a detection lies within a ball radius of a spot marked on the cloth (a spot is
        faintly ball-like: a weak reading there is the mark; a ball standing on it reads sure)."""
        if self.table is None:
            return False
        r = self.table.ball_radius_mm
        return any(math.hypot(d.x_mm - x, d.y_mm - y) <= r for x, y in self.table.spots_mm.values())

    def _claims(self, dets: Sequence[BallDetection]) -> dict[BallId, set[int]]:
        """Ball -> the detections that read it as itself (colour evidence at least one half), for
        the balls whose look is their own (no other ball shares their detector class)."""
        out: dict[BallId, set[int]] = {}
        for j, d in enumerate(dets):
            for b, sc in d.label_scores.items():
                if sc >= 0.5 and b in self._tracks and b not in self._shared:
                    out.setdefault(b, set()).add(j)
        return out

    def _waited_at(
        self, starts: Mapping[int, int], dets: Sequence[BallDetection], t_s: float
    ) -> dict[int, list[tuple[int, float, float, float, float]]]:
        """Ball index -> the earlier sightings of the waiting entry (``confirm_sightings`` in
        :class:`TrackerConfig`) at the detection that starts it this frame (``starts``: ball index
        -> detection index, balls not yet seen), which is then no longer waiting. Why: a ball on
        the table at the clip's start is there in its first frame, whichever way it was first
        taken (real eight-ball broadcast: a stripe in a far corner's jaws read 0.99 as the 12 at a
        ball score of 0.39 in frame 0, waited, and started directly at 0.46 in frame 1).

        Where no entry waits at the detection, an entry every sighting of which read the starting
        ball as itself, seen on the last frame analysed and within the ball's reach of the
        detection (``max_speed_mm_s`` over the time since, and a diameter), is the ball waiting
        before it was struck: a rack's balls, found by the proposals alone and waiting to be
        named, are struck by the break before they are (real nine-ball Clip12 softened: the 5,
        read 0.87 as itself in the rack on frames 0-3, struck on frame 4 and started there 16 mm
        from where it waited, was missing from the first frame's layout, which then held too few
        balls for a rack)."""
        if not starts or not self._pending:
            return {}
        out: dict[int, list[tuple[int, float, float, float, float]]] = {}
        for i, j in starts.items():
            d = dets[j]
            near = self._pending_near(d) or self._struck_while_waiting(i, d, t_s)
            if near:
                out[i] = list(near[0].seen)
                self._pending.remove(near[0])
        return out

    def _struck_while_waiting(self, i: int, d: BallDetection, t_s: float) -> list[_Pending]:
        """The waiting entries (at most one, the nearest) that read ball ``i`` on every sighting,
        were seen on the last frame analysed and lie within the ball's reach of ``d`` since
        (:meth:`_waited_at`)."""
        D = self._diameter_mm
        found = []
        for p in self._pending:
            if p.named() != i or p.t_last < self._t_prev:
                continue
            x, y = p.seen[-1][2], p.seen[-1][3]
            dist = math.hypot(d.x_mm - x, d.y_mm - y)
            if dist <= self.config.max_speed_mm_s * (t_s - p.t_last) + D:
                found.append((dist, p))
        return [min(found, key=lambda f: f[0])[1]] if found else []

    def _report_earlier(self, ball: BallId, seen: Sequence[tuple[int, float, float, float, float]], t_s: float) -> None:
        """A ball just confirmed from waiting sightings: those within ``backfill_s`` become its
        first samples (the ball has none yet) and states for :meth:`take_backfill`."""
        for frame, t, x, y, score in seen:
            if t_s - t > self.config.backfill_s or t >= t_s:
                continue
            self._rows[ball].append((float(t), int(frame), float(x), float(y), True, float(score)))
            self._backfill.append(
                BallState(ball, int(frame), float(t), float(x), float(y), 0.0, 0.0, True, float(score), 0.0)
            )

    def take_backfill(self) -> list[BallState]:
        """The states, at earlier frames, of balls confirmed since the last call (see
        ``backfill_s`` in :class:`TrackerConfig`), in time order; each is handed out once."""
        out = sorted(self._backfill, key=lambda s: (s.t_s, self.balls.index(s.ball)))
        self._backfill = []
        return out

    def waiting_since(self) -> float | None:
        """The time of the first sighting of a detection that may still be confirmed as a ball
        (whose earlier sightings :meth:`take_backfill` would then hand back): output from then on
        is not final; never more than ``backfill_s`` before the last frame. None when nothing
        waits, or no ball is left to name."""
        if not self._pending or all(tr.started for tr in self._tracks.values()):
            return None
        return max(min(p.t_first for p in self._pending), self._t_prev - self.config.backfill_s)

    def _crowded(self, dets: Sequence[BallDetection], held: Sequence[tuple[float, float]]) -> list[bool]:
        """Per detection, whether no ball not yet seen may start there: within 0.75 of a diameter
        of where a ball already is (``held``: a second box on one ball, a ball's reflection in a
        pocket's throat), in a pocket's drop circle (a ball seen there before any ball was is
        one pocketed earlier, still visible in the throat of a broadcast side pocket), or less than
        ``start_rail_r`` radii inside a nose line (a pocket's facing, a reflection in the rail)."""
        sep = 0.75 * self._diameter_mm
        out = [any(math.hypot(d.x_mm - x, d.y_mm - y) < sep for x, y in held) for d in dets]
        if self.table is not None:
            r = self.config.start_rail_r
            out = [c or not self._on_cloth(d.x_mm, d.y_mm, r) for c, d in zip(out, dets)]
        if self._zones:
            out = [c or pocket_holding(self._zones, (d.x_mm, d.y_mm)) is not None for c, d in zip(out, dets)]
        return out

    @property
    def _diameter_mm(self) -> float:
        """The ball's diameter: the table's, or a carom ball's (61.5 mm) without a table."""
        return self.table.ball_diameter_mm if self.table is not None else 61.5

    def _pending_near(self, d: BallDetection) -> list[_Pending]:
        """The waiting entries at detection ``d``: first seen within a quarter of a diameter of it."""
        D = self._diameter_mm
        return [p for p in self._pending if math.hypot(d.x_mm - p.x, d.y_mm - p.y) < 0.25 * D]

    def _hidden_reach(
        self,
        dets: Sequence[BallDetection],
        preds: Mapping[BallId, tuple[float, float, float, float] | None],
        t_s: float,
        strikes: Mapping[BallId, float],
    ) -> list[bool]:
        """Per detection, whether a ball seen earlier and hidden now (not seen last frame, not
        gone, not yet lost) could be there (inside its gate), once the clip's first ``opening_s``
        are over: no ball not yet seen starts there."""
        cfg = self.config
        if self._t0 is None or t_s - self._t0 <= cfg.opening_s or not dets:
            return [False] * len(dets)
        hidden = [
            b
            for b, tr in self._tracks.items()
            if tr.started
            and not tr.gone
            and not tr.seen_last_frame
            and t_s - tr.t_seen <= cfg.max_hidden_s
            and preds.get(b) is not None
        ]
        if not hidden:
            return [False] * len(dets)
        reach = []
        for b in hidden:
            q = preds[b]
            assert q is not None
            reach.append((q[0], q[1], self._sigma(b, t_s, strikes)[1]))
        return [any(math.hypot(d.x_mm - x, d.y_mm - y) <= g for x, y, g in reach) for d in dets]

    def _held(self, preds: Mapping[BallId, tuple[float, float, float, float] | None]) -> list[tuple[float, float]]:
        """Where the balls on the table are: each one's prediction for this frame and, for a ball
        seen last frame, where it was seen (a prediction is reflected off the cushion lines, which
        a ball rolling into a pocket's mouth never meets: real broadcast, a 7 rolling into a corner
        was predicted 50 mm back from where it was, and a misread of it started a 5 there)."""
        out = [(q[0], q[1]) for q in preds.values() if q is not None]
        out += [(t.x_seen, t.y_seen) for t in self._tracks.values() if t.started and t.seen_last_frame]
        return out

    def _on_cloth(self, x_mm: float, y_mm: float, frac_r: float) -> bool:
        """Whether a centre lies at least ``frac_r`` ball radii inside every cushion nose line."""
        assert self.table is not None
        m = frac_r * self.table.ball_radius_mm
        return m <= x_mm <= self.table.length_mm - m and m <= y_mm <= self.table.width_mm - m

    @staticmethod
    def _detection_ranks(dets: Sequence[BallDetection]) -> list[int]:
        order = sorted(range(len(dets)), key=lambda j: (dets[j].x_mm, dets[j].y_mm))
        ranks = [0] * len(dets)
        for r, j in enumerate(order):
            ranks[j] = r
        return ranks

    def _strikes(self, preds: Mapping[BallId, tuple[float, float, float, float] | None]) -> dict[BallId, float]:
        """The balls about to be reached this frame, each with the speed (mm/s) of the fastest
        moving ball that reaches it: a ball near another's path, run ``striker_overshoot`` of
        its step beyond its prediction; and a ball at rest touching a ball so reached (centres
        within a diameter and ``rack_contact_mm``), and so on, with that speed: the struck ball
        passes the blow on in the same instant (a break's rack). Why the rack: a nine-ball break
        under this machine's numerics (real Clip12, re-encoded at CRF 32 or turned 3 degrees)
        sent the 7 off from the back of the rack on the cue ball's first frame in it; the 7, out
        of the cue ball's path, kept the 4 mm sigma of a resting ball, and the 5 beside it, named
        a frame earlier (gate 381 mm), took the 7's sighting; the 5's jumps lost the break's
        first contact (the call: wrong ball first)."""
        cfg = self.config
        if self.table is None:
            return {}
        D = self.table.ball_diameter_mm
        k = cfg.striker_overshoot
        strikes: dict[BallId, float] = {}
        moving = []
        for other, q in preds.items():
            o = self._tracks[other]
            o_speed = math.hypot(o.vx, o.vy)
            if q is not None and o_speed >= cfg.rest_speed_mm_s:
                moving.append((other, (o.x, o.y), (o.x + k * (q[0] - o.x), o.y + k * (q[1] - o.y)), o_speed))
        if not moving:
            return strikes
        for ball, p in preds.items():
            if p is None:
                continue
            for other, start, end, o_speed in moving:
                if other is not ball and _segment_distance(start, end, (p[0], p[1])) <= D + cfg.gate_mm:
                    strikes[ball] = max(strikes.get(ball, 0.0), o_speed)
        # the blow passed on through the balls at rest that touch a reached one
        resting = {
            b: (p[0], p[1])
            for b, p in preds.items()
            if p is not None and math.hypot(self._tracks[b].vx, self._tracks[b].vy) < cfg.rest_speed_mm_s
        }
        todo = [b for b in strikes if b in resting]
        while todo:
            b = todo.pop()
            x, y = resting[b]
            for c, (cx, cy) in resting.items():
                if strikes.get(c, 0.0) < strikes[b] and math.hypot(cx - x, cy - y) <= D + cfg.rack_contact_mm:
                    strikes[c] = strikes[b]
                    todo.append(c)
        return strikes

    def _sigma(self, ball: BallId, t_s: float, strikes: Mapping[BallId, float]) -> tuple[float, float]:
        """(sigma, gate) of a ball's predicted position this frame (``strikes``: this frame's
        :meth:`_strikes`, made once for all the balls)."""
        cfg = self.config
        tr = self._tracks[ball]
        dt = max(t_s - tr.t_last, 1e-6)
        hidden = max(t_s - tr.t_seen, 0.0)
        speed = math.hypot(tr.vx, tr.vy)
        sigma = cfg.sigma_mm + cfg.speed_sigma * speed * dt
        reach = speed * dt
        # a ball about to be reached by another may be sent off at that ball's speed; the other's
        # path and reach run striker_overshoot of its step beyond its prediction
        o_speed = strikes.get(ball)  # only balls with a prediction are in it
        if o_speed is not None:
            sigma = max(sigma, cfg.sigma_mm + o_speed * dt)
            reach = max(reach, cfg.striker_overshoot * o_speed * dt)
        gate = cfg.gate_mm + 2.0 * reach
        if not tr.velocity_known:
            # just found again: it may be moving anywhere within the fastest speed
            sigma += cfg.speed_sigma * cfg.max_speed_mm_s * dt * 0.5
            gate += cfg.max_speed_mm_s * dt
        if not tr.seen_last_frame:
            if not (ball in self._shared and speed < cfg.rest_speed_mm_s):
                sigma += cfg.speed_sigma * cfg.max_speed_mm_s * min(hidden, cfg.max_hidden_s) * 0.25
            # (a hidden ball at rest stays where it is unless a ball reaches it, above: for balls
            # told apart by position alone, a wide sigma would make every one of them equally likely)
            gate += cfg.max_speed_mm_s * hidden
        return sigma, gate

    def _cost_matrix(
        self,
        dets: Sequence[BallDetection],
        preds: Mapping[BallId, tuple[float, float, float, float] | None],
        t_s: float,
        strikes: Mapping[BallId, float],
        hidden_reach: Sequence[bool],
        unseen: Sequence[BallId] | None = None,
        occupied: Sequence[tuple[float, float]] = (),
    ) -> np.ndarray:
        """Ball x detection costs (see the module docstring); ``strikes``: the frame's
        :meth:`_strikes`; ``hidden_reach``: :meth:`_hidden_reach` of ``dets``; ``unseen``: the
        balls not yet seen among which a detection's likeliest is sought (default: every ball not
        yet started); ``occupied``: places balls were given this frame, where no ball not yet seen
        starts."""
        cfg = self.config
        nb, nd = len(self.balls), len(dets)
        big = 1e6
        cost = np.full((nb, nd), big)
        ranks = self._detection_ranks(dets) if self._shared else []
        if unseen is None:
            unseen = [b for b in self.balls if not self._tracks[b].started]
        crowded = [c or h for c, h in zip(self._crowded(dets, self._held(preds) + list(occupied)), hidden_reach)]
        # each detection's likeliest few balls among those not yet seen (best first)
        likeliest: list[tuple[BallId, ...]] = []
        for d in dets:
            scored = sorted(
                ((sc, b) for sc, b in ((label_score(d, b), b) for b in unseen) if sc is not None),
                key=lambda x: -x[0],
            )
            likeliest.append(tuple(b for _, b in scored[: cfg.start_top_k]))
        claims = self._claims(dets)
        for i, ball in enumerate(self.balls):
            p = preds[ball]
            tr = self._tracks[ball]
            lost = tr.started and (t_s - tr.t_seen) > cfg.max_hidden_s
            sigma, gate = self._sigma(ball, t_s, strikes) if p is not None else (0.0, math.inf)
            for j, d in enumerate(dets):
                score = label_score(d, ball)
                col = cfg.colour_weight * (1.0 - score) if score is not None else 0.5 * cfg.colour_weight
                if p is None or lost:
                    # not yet seen, or lost: only colour says which detection it is; without
                    # colour evidence it takes what the other balls leave, but never a fast
                    # ball's streak (unnamed_gap_s: a streak continues a ball in flight)
                    if lost and score is None and d.streak_px is not None:
                        continue
                    weak = score is not None and score < 0.5
                    if (
                        weak
                        and score is not None
                        and p is None
                        and ball in likeliest[j]
                        and score >= cfg.start_min_score
                        and not claims.get(ball, set()) - {j}
                    ):
                        weak = False  # not yet seen, and among this detection's likeliest unseen balls
                    if weak or (p is None and (d.score < cfg.start_confidence or crowded[j])):
                        continue
                    cost[i, j] = col + 4.5 + (1.0 if score is None else 0.0) + 1e-3 * i
                    if ball in self._shared:  # first named in order along the table
                        cost[i, j] += 1e-4 * (self._rank_in_class[ball] - ranks[j]) ** 2
                    continue
                if (
                    not tr.seen_last_frame
                    and score is not None
                    and score < 0.5
                    and not self._reads_most(d, score)
                    and not (hidden_reach[j] and self._reads_unseen(d))
                ):
                    continue  # found again after a gap: only by a detection that looks like it
                if score is None and t_s - tr.t_seen > cfg.unnamed_gap_s + 1e-6:
                    continue  # nothing says which ball an unnamed detection is: not after a gap
                dist = math.hypot(d.x_mm - p[0], d.y_mm - p[1])
                if dist > gate:
                    if self._struck_from_rest(tr, d, t_s):
                        cost[i, j] = cfg.position_cap + col
                    continue
                pos = self._position_cost(dist, sigma)
                if pos >= cfg.position_cap and score is not None and score < cfg.far_min_score:
                    continue  # far from where it was going, and read as another ball: not this one
                cost[i, j] = pos + col
        return cost

    def _reads_unseen(self, d: BallDetection) -> bool:
        """Whether the ball a detection reads most is one not yet seen in the clip, the detection
        being sure it is a ball (``start_confidence``): where no ball may start
        (:meth:`_hidden_reach`), such a detection is the hidden ball misread."""
        if d.score < self.config.start_confidence or not d.label_scores:
            return False
        best = max(d.label_scores.items(), key=lambda kv: kv[1])[0]
        tr = self._tracks.get(best)
        return tr is not None and not tr.started

    def _reads_most(self, d: BallDetection, score: float) -> bool:
        """Whether ``score`` (a detection's colour evidence for a ball) is at least
        ``refound_min_score`` and the largest of its reads."""
        return score >= self.config.refound_min_score and score >= max(d.label_scores.values(), default=0.0)

    def _struck_from_rest(self, tr: _Track, d: BallDetection, t_s: float) -> bool:
        """Whether the streak ``d`` (unnamed, or read as ``tr``'s ball at least one half: the
        finder's reads of one ball along its smear, see
        :meth:`vision.yolo.YoloDetector.streak_detections`) is ``tr``'s ball struck from rest: the
        ball rested and was seen on the last frame, the streak's line passes within a diameter of
        it, and its nearer end lies beyond it by no more than ``struck_speed_mm_s`` over the time
        since (plus a diameter). A ball struck from rest was outside its gate (synthetic
        nine_break: the cue ball's break at 12 m/s, a streak from 220 mm away on the next frame,
        unseen four frames). Such a pairing costs what a far detection inside a gate does, so a
        moving ball whose prediction the streak continues takes it first."""
        cfg = self.config
        score = label_score(d, tr.ball)
        if self.table is None or d.streak_mm is None or (score is not None and score < 0.5) or not tr.seen_last_frame:
            return False
        if math.hypot(tr.vx, tr.vy) >= cfg.rest_speed_mm_s:
            return False
        x0, y0, x1, y1 = d.streak_mm
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-6:
            return False
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        along = (tr.x_seen - x0) * ux + (tr.y_seen - y0) * uy
        across = abs((tr.x_seen - x0) * uy - (tr.y_seen - y0) * ux)
        behind = -along if along < 0.0 else along - length
        D = self.table.ball_diameter_mm
        reach = cfg.struck_speed_mm_s * max(t_s - tr.t_seen, 0.0) + D
        return across <= D and 0.0 < behind <= reach

    def _position_cost(self, dist_mm: float, sigma_mm: float) -> float:
        """The position term of a ball's cost for a detection ``dist_mm`` from its prediction
        (uncertainty ``sigma_mm``): inside the gate a far detection costs no more than
        ``position_cap``, so that it is better taken (colour permitting: ``far_min_score``) than the ball unseen."""
        return min(0.5 * (dist_mm / sigma_mm) ** 2, self.config.position_cap)

    def _assign(self, cost: np.ndarray) -> dict[int, int]:
        from scipy.optimize import linear_sum_assignment

        nb, nd = cost.shape
        if nd == 0:
            return {}
        # each ball may also stay unassigned (hidden) at a fixed cost: pad with one dummy per ball
        miss = 0.5 * 3.5**2 + self.config.colour_weight
        pad = np.full((nb, nb), 1e6)
        np.fill_diagonal(pad, miss)
        full = np.concatenate([cost, pad], axis=1)
        rows, cols = linear_sum_assignment(full)
        out: dict[int, int] = {}
        for r, c in zip(rows, cols):
            if c < nd and full[r, c] < 1e5:
                out[int(r)] = int(c)
        return out

    # -- motion --------------------------------------------------------------------------------

    def motion(
        self,
        t_s: float | None = None,
        still_mm: float = 1.5,
        gone_frames: int = 10**9,
        window_s: float = 0.0,
        on_table: frozenset[BallId] | None = None,
    ) -> MotionState:
        """Where the balls are going (predicted at ``t_s``; default: the last frame's time) and
        whether the table is at rest: every ball on it moved less than ``still_mm`` between its
        last two samples, and between its last sample and its last one at least ``window_s``
        before (a ball creeping to a stop moves less than a millimetre a frame at 60 fps: a
        real 25 mm/s crawl passed the frame-to-frame test, the frames were skipped as still and
        the shot's end was dated, and its rest positions taken, 8 mm and 0.3 s early). A ball
        whose last sample is more than ``gone_frames`` frames older than the newest sample of any
        ball has left the table (pocketed, off) and does not count, nor does one never seen (not
        in this rack, or hidden from the start). Nothing seen yet: not at rest. Each asker passes
        its own thresholds (the pipeline's still-frame skipping: 1.5 mm over 0.1 s, and one
        second of frames). ``on_table``: the balls the game has on the table (the referee input,
        the rules' state: :meth:`tabletrack.shot_judge.ShotJudge.balls_on_table`), None: every
        ball of the set may be; :attr:`MotionState.unplaced` and :attr:`MotionState.unseen` count
        only those, by detector class (the game knows how many reds, the tracker names them)."""
        t = self._t_prev if t_s is None else float(t_s)
        balls = []
        for b in self.balls:
            tr = self._tracks[b]
            if not tr.started:
                continue
            x, y, vx, vy = (tr.x, tr.y, tr.vx, tr.vy) if (t_s is None or tr.gone) else self._predict(tr, t)
            balls.append(BallMotion(b, float(x), float(y), float(vx), float(vy), tr.seen_last_frame, tr.gone))
        cls = self._class_of
        want = Counter(cls[b] for b in self.balls if on_table is None or b in on_table)
        started = Counter(cls[b] for b in self.balls if self._tracks[b].started)
        placed = Counter(cls[b] for b in self.balls if self._tracks[b].started and not self._tracks[b].gone)
        unplaced = sum(max(0, n - placed[c]) for c, n in want.items())
        unseen = sum(max(0, n - started[c]) for c, n in want.items())
        resting = self._resting(still_mm, gone_frames, window_s)
        return MotionState(float(t), resting, tuple(balls), unplaced, unseen)

    def _rows_on_table(self, gone_frames: int) -> list[list[tuple[float, int, float, float, bool, float]]]:
        """The samples of each ball on the table: left out a ball never seen, and one whose last
        sample is more than ``gone_frames`` frames older than the newest of any ball (pocketed,
        off the table)."""
        latest = max((rows[-1][1] for rows in self._rows.values() if rows), default=0)
        return [rows for rows in self._rows.values() if rows and rows[-1][1] >= latest - gone_frames]

    def _resting(self, still_mm: float, gone_frames: int, window_s: float = 0.0) -> bool:
        """See :meth:`motion`: from the samples emitted so far; never while the last frame had
        a fast ball's streak that no ball took: a ball is in flight, though none is placed on
        it yet (synthetic nine_break: the cue ball struck from rest was a streak on three frames
        that no ball took, its samples held at its rest, and the table was read as resting)."""
        if self._loose_streak:
            return False
        seen = False
        for rows in self._rows_on_table(gone_frames):
            if len(rows) < 2:
                return False
            seen = True
            (_, _, x0, y0, _, _), (t1, _, x1, y1, _, _) = rows[-2], rows[-1]
            if np.hypot(x1 - x0, y1 - y0) > still_mm:
                return False
            if window_s > 0.0:
                k = _last_at_or_before(rows, t1 - window_s)  # (or the first sample)
                if np.hypot(x1 - rows[k][2], y1 - rows[k][3]) > still_mm:
                    return False
        return seen

    def name_doubts(self) -> dict[BallId, NameDoubt]:
        """The started balls whose own name the detector's colour evidence supports, averaged
        over the detections they took, less than ``TrackerConfig.name_doubt_read`` (the evidence
        at which a detection reads a ball as itself): named by elimination or by kind (:class:`TrackerConfig`'s
        waiting detections, ``start_min_score``), which a ball set the classifier never saw makes
        common (real eight-ball, one clip left out of training: an orange 5 named the 9 at 0.09,
        its detections reading the 13 at 0.67 — and the call said "pots 9, takes stripes").
        Each with the ball read most instead. Balls that share a look (snooker reds) and balls
        never given colour evidence are not judged."""
        out: dict[BallId, NameDoubt] = {}
        for b, tr in self._tracks.items():
            if not tr.started or tr.reads == 0:
                continue
            read = tr.read_sum / tr.reads
            if read >= self.config.name_doubt_read:
                continue
            rival = max(tr.rival_sums, key=lambda r: tr.rival_sums[r], default=None)
            out[b] = NameDoubt(read, rival, tr.rival_sums[rival] / tr.reads if rival is not None else 0.0)
        return out

    def top_speed_mm_s(self, gone_frames: int = 10**9) -> float:
        """The speed of the fastest ball on the table (as :meth:`motion` counts them) between its
        last two samples; infinite when a ball has fewer than two, or none is on the table. What
        tells balls rolling out or creeping to a stop, which a video samples densely enough at a
        fraction of its rate."""
        top = -math.inf
        for rows in self._rows_on_table(gone_frames):
            if len(rows) < 2:
                return math.inf
            (t0, _, x0, y0, _, _), (t1, _, x1, y1, _, _) = rows[-2], rows[-1]
            if t1 <= t0:
                return math.inf
            top = max(top, float(np.hypot(x1 - x0, y1 - y0)) / (t1 - t0))
        return top if top > -math.inf else math.inf

    def slower_than(self, speed_mm_s: float, gone_frames: int = 10**9) -> bool:
        """Whether every ball on the table moved no faster than ``speed_mm_s`` between its last
        two samples (:meth:`top_speed_mm_s`)."""
        return self.top_speed_mm_s(gone_frames) <= speed_mm_s

    def still_for(self, window_s: float, tol_mm: float, gone_frames: int = 10**9, now_s: float | None = None) -> bool:
        """Whether every ball on the table has lain within ``tol_mm`` of one place for the last
        ``window_s`` (its samples since the last one at or before the window's start; frames
        skipped as still have none): the rest the shot segmenter requires
        (:class:`tracking.segment.SegmentConfig` ``rest_min_s``, ``rest_tol_mm``), so that a shot's
        end can be read from the samples now. Balls left out as by :meth:`motion` (gone, not in
        the rack). Why not :meth:`motion`'s ``resting``: that compares the last two samples only,
        and a resting ball's detections jitter by a millimetre or two, so on a real clip it came
        20 frames (0.67 s at 30 fps) after the rest the segmenter dates the shot's end to.
        ``now_s``: the window ends there, not at each ball's last sample, when the frames since
        were seen unchanged (a still test skipped them): each ball lay at its last sample until
        then. Else the rest that began just before the frames were skipped would wait for the
        next analysed frame to be seen."""
        seen = False
        for rows in self._rows_on_table(gone_frames):
            t_from = max(rows[-1][0], now_s if now_s is not None else -math.inf) - window_s
            k = _last_at_or_before(rows, t_from + 1e-9)
            if rows[k][0] > t_from + 1e-9:
                return False  # not seen for that long
            xy = np.array([(r[2], r[3]) for r in rows[k:]])
            if float(np.max(np.hypot(*(xy - xy.mean(axis=0)).T))) > tol_mm:
                return False
            seen = True
        return seen

    def forget(self, keep: int = 64) -> None:
        """Keep only each ball's last ``keep`` samples (at least 2: rest is judged from the last
        two), so a tracker that runs for hours (live) holds bounded memory; :meth:`trajectories`
        then gives those only."""
        keep = max(2, keep)
        for ball, rows in self._rows.items():
            if len(rows) > keep:
                self._rows[ball] = rows[-keep:]

    # -- results -------------------------------------------------------------------------------

    def trajectories(self) -> dict[BallId, Trajectory]:
        """Every ball's samples so far (balls never seen have none and are left out)."""
        out: dict[BallId, Trajectory] = {}
        for ball, rows in self._rows.items():
            if not rows:
                continue
            a = np.array([(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows], dtype=float)
            out[ball] = Trajectory(
                ball, a[:, 0], a[:, 1].astype(np.int64), a[:, 2], a[:, 3], a[:, 4].astype(bool), a[:, 5]
            )
        return out


def _last_at_or_before(rows: Sequence[tuple[float, int, float, float, bool, float]], t_s: float) -> int:
    """Index of the last of ``rows`` (time first, in time order) at or before ``t_s``; 0 when
    none is."""
    k = len(rows) - 1
    while k > 0 and rows[k][0] > t_s:
        k -= 1
    return k


def _reflect(x: float, v: float, lo: float, hi: float) -> tuple[float, float]:
    """Fold a coordinate back inside [lo, hi] as a specular bounce."""
    if hi <= lo:
        return x, v
    for _ in range(4):
        if x < lo:
            x, v = 2 * lo - x, -v
        elif x > hi:
            x, v = 2 * hi - x, -v
        else:
            break
    return min(max(x, lo), hi), v


def _segment_distance(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    u = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
    return math.hypot(ax + u * dx - px, ay + u * dy - py)
