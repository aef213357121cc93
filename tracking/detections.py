"""What a ball detector hands the tracker: one type for every detector and for the tracker.

Contract: the types that pass between the detectors and the tracker. A detector
(:mod:`vision.detect` ``Detector``: classical, the trained model on the rectified view or guided
between key frames, or on an oblique camera's own image) turns one video frame into one
:class:`Detections` value: the frame's index and time and a tuple of :class:`BallDetection`, each
a ball candidate at ``x_mm, y_mm`` on the plane of the ball centres (z = R, table millimetres).
``label`` and the keys of ``label_scores`` are :class:`BallId` values (a detector's *class* of a
ball: ``red`` for every snooker red, ``cue``, ``3``, ``white`` ...): names are mapped to ids once,
where the detector reports them (:func:`ball_label`), and are never compared as strings
downstream. The tracker (:class:`tracking.tracker.Tracker`) takes the same values. Back from the
tracker to the detectors and the still-frame skipping goes its motion model,
:class:`MotionState` (:meth:`tracking.tracker.Tracker.motion`): every ball's predicted centre and
velocity, and whether the table is at rest.

Why here, in ``tracking/``: the tracker consumes this type and must not import ``vision`` (nor
OpenCV); the detectors, in ``vision/``, import it from here (DESIGN.md allows ``vision`` to import
``tracking.ids`` and this module, the vocabulary shared by the two stages, and nothing else of
``tracking``). Before, there were two types, ``vision.detect.BallDetection`` with string labels
and ``tracking.tracker.Detection`` with ids, and a conversion between them in the pipeline.

:func:`in_play` is that conversion's remaining part, a reading of the detector's belief for one
game: renormalized over the detector classes of the balls in play.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from tracking.ids import BallId

__all__ = ["BallDetection", "BallMotion", "Detections", "MotionState", "ball_label", "ball_scores", "in_play"]

_BALL_VALUES = frozenset(b.value for b in BallId)


@dataclass(frozen=True)
class BallDetection:
    """One ball candidate in one frame.

    ``x_mm, y_mm``: its centre on the ball-centre plane. ``u_px, v_px, r_px``: where the detector
    saw it (rectified-view or camera pixels; NaN when the value did not come from an image) for
    drawing and debugging. ``label``: the detector's best identity guess (a :class:`BallId`, or
    None), ``label_scores`` its belief per ball id (0..1), ``score`` how sure it is that this is a
    ball at all. ``visible_fraction``: how much of the expected silhouette was seen (occlusion,
    merging). ``streak_px``: for a fast ball seen as a streak, the ends of its path over the
    exposure (u0, v0, u1, v1; the centre is its middle); ``streak_mm`` the same ends on the
    ball-centre plane (x0, y0, x1, y1), where the detector knows them.

    The tracker checks what it is given (finite position, scores in 0..1, :class:`BallId` keys);
    a detector's raw ``score`` may exceed that range and is clamped by :func:`in_play`."""

    x_mm: float
    y_mm: float
    u_px: float = math.nan
    v_px: float = math.nan
    r_px: float = math.nan
    label: BallId | None = None
    score: float = 1.0
    label_scores: Mapping[BallId, float] = field(default_factory=dict)
    visible_fraction: float = 1.0
    streak_px: tuple[float, float, float, float] | None = None
    streak_mm: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class Detections:
    """Every ball candidate of one frame (``frame``: its index in the video, ``t_s``: its time).
    Iterable and sized like the tuple ``balls``."""

    frame: int
    t_s: float
    balls: tuple[BallDetection, ...] = ()

    def __iter__(self) -> Iterator[BallDetection]:
        return iter(self.balls)

    def __len__(self) -> int:
        return len(self.balls)

    def __getitem__(self, i: int) -> BallDetection:
        return self.balls[i]


@dataclass(frozen=True)
class BallMotion:
    """One ball as the tracker (:meth:`tracking.tracker.Tracker.motion`) predicts it at
    :attr:`MotionState.t_s`: centre and velocity (mm, mm/s; a ball taken to be at rest has
    velocity 0), whether it was measured in the last frame, and whether it is gone (dropped into a
    pocket: held where it was last seen)."""

    ball: BallId
    x_mm: float
    y_mm: float
    vx_mm_s: float
    vy_mm_s: float
    seen_last_frame: bool
    gone: bool


@dataclass(frozen=True)
class MotionState:
    """The tracker's motion model after its last frame (see the module docstring).

    ``t_s``: the time the predictions are for. ``balls``: every ball seen at least once, in the
    tracker's ball order. ``resting``: every ball on the table moved less than the asker's
    ``still_mm`` between its last two samples (:meth:`Tracker.motion` says which balls count).
    ``unplaced``: how many balls of the tracker's set (of those the game has on the table, where
    the asker knows them) are not on the table as far as the tracker knows (never seen, or gone
    into a pocket): balls that may yet appear (placed, respotted, found). ``unseen``: how many of
    those were never seen (hidden from the start, or not on the table at all)."""

    t_s: float
    resting: bool
    balls: tuple[BallMotion, ...] = ()
    unplaced: int = 0
    unseen: int = 0

    @property
    def settled(self) -> bool:
        """Every ball of the set on the table, at rest and seen on the last frame: nothing is
        missing that could appear, and nothing moves."""
        return self.resting and self.unplaced == 0 and all(m.seen_last_frame for m in self.balls)

    def get(self, ball: BallId) -> BallMotion | None:
        """The motion of ``ball``, None when it has not been seen."""
        for m in self.balls:
            if m.ball is ball:
                return m
        return None


def ball_label(name: str | None) -> BallId | None:
    """The ball id a detector's class name stands for (the names of :mod:`models.classes` and of
    the classical detector's colours are :class:`BallId` values), None for None or any other
    name."""
    return BallId(name) if name in _BALL_VALUES else None


def ball_scores(scores: Iterable[tuple[str, float]]) -> dict[BallId, float]:
    """A detector's belief per class name as a belief per ball id, in the same order; names that
    are no ball id are left out."""
    out: dict[BallId, float] = {}
    for name, s in scores:
        b = ball_label(name)
        if b is not None:
            out[b] = float(s)
    return out


def in_play(d: BallDetection, classes: frozenset[BallId] | None = None) -> BallDetection:
    """``d`` as the tracker takes it. ``classes``: the detector classes of the balls in play
    (nine-ball: cue and 1-9); the detector's belief is renormalized over them, so that a 3 that the
    model found a little more like the 11 (same colour, and the 11 is not in a nine-ball rack) is
    taken as the 3, and the label is the likeliest of them (without any belief: the detector's
    label where it is in play). ``score`` is clamped to 0..1."""
    scores = {b: float(s) for b, s in d.label_scores.items() if classes is None or b in classes}
    if classes is not None:
        total = sum(scores.values())
        scores = {} if total <= 0.0 else {b: s / total for b, s in scores.items()}
    if scores:
        label: BallId | None = max(scores, key=scores.get)  # type: ignore[arg-type]
    else:
        label = d.label
        if classes is not None and label not in classes:
            label = None
    return BallDetection(
        d.x_mm,
        d.y_mm,
        d.u_px,
        d.v_px,
        d.r_px,
        label=label,
        score=float(min(max(d.score, 0.0), 1.0)),
        label_scores=scores,
        visible_fraction=d.visible_fraction,
        streak_px=d.streak_px,
        streak_mm=d.streak_mm,
    )
