"""Detection guided by the last frames: the full detector only where it is needed.

Contract: :class:`GuidedDetector` wraps a :class:`vision.yolo.YoloDetector` and fills the same
:class:`vision.detect.ViewDetector` contract (``detect(rectified_bgr, t_s)``; for the pipeline,
behind :class:`vision.detect.RectifiedDetector`) for a *sequence* of frames of one video, in
order. It keeps the balls it saw on the last frames (their centres and velocities in view px) and,
on a frame
that is not a key frame, only classifies crops at their predicted centres (the classifier's
centre regression pulls each crop onto its ball, as for the finder's boxes). It runs the full
detector (finder + proposals + classifier) instead:

- on every ``key_every``-th frame, so that a ball that appears (placed, respotted, out from under
  a hand) is found within that many frames — unless the view has not changed since the last full
  detection (a grey thumbnail of every ``still_stride_px``-th view pixel, within ``still_grey``
  grey levels everywhere): no ball can have appeared on an unchanged table, and the crops say
  the same as the finder would. Such a key frame waits for the first frame whose view changed.
  (While every ball rests, the pipeline analyses a frame a quarter-second as a heartbeat and
  where something nears a ball: the full detector on every sixth of those was most of the
  analysis's cost at rest, 35-50 ms a frame on the 720p pool and snooker samples). Nor is one
  due while every ball of the set rests on the table and was seen on the last frame (the
  tracker's :attr:`tracking.detections.MotionState.settled`, when the pipeline passes it): no
  ball is missing that could appear, and each is confirmed by its crop on every frame (a hand
  or a cue by a ball changes the view without adding one: nine-ball break, snooker break);
- whenever a predicted ball is not confirmed: its crop holds no ball, its centre had to move more
  than ``max_shift_r`` radii from the prediction (a collision, a cushion, a cue stroke), or two
  predictions ended on one ball;
- after a gap of more than ``max_gap_s`` between frames, and on the first frame.

A ball that vanishes (one followed on the last frame with no detection near where it was going:
struck from rest, now a faint streak; or pocketed) is searched for: for ``search_frames`` frames
after, and while a streak is seen, the frames the crops follow are also searched for streaks
(:meth:`vision.yolo.YoloDetector.streak_detections`, ~14 ms on the whole view against ~80 ms for
the full detector). A streak is never followed by a crop: the classifier's centre regression on a
streak lands anywhere along it (a weak read at its end lay 75 mm from the ball's mid-exposure
position on dev Clip12's break), so it is found again as a streak. Real broadcast, dev Clip1: the
cue ball of the break was a clear streak on four frames and was followed on none, the frames
after its stroke being guided by the balls that stayed.

A ball the tracker predicts moving (``motion``: :class:`tracking.detections.MotionState`, for
this frame; at least ``predicted_min_speed_mm_s``) with no detection of the frame within two
radii of its prediction is looked for there: a crop at the prediction, taken when it holds a
ball near the prediction that reads the predicted one among its three likeliest. The tracker
predicts in millimetres with the cushions, where the crops follow by pixel velocity from the
last frame: a ball lost for a frame has no velocity here (real broadcast, dev Clip12's break:
the blue 2 on blue cloth, blurred, missed by the crops and the full detector two frames running,
read 0.78 a ball and 0.37 the 2 at the tracker's prediction).

The full detector also reports fast balls' streaks (:mod:`vision.streaks`). A streak with both
ends where a streak of an earlier frame within ``static_streak_s`` had its ends is no ball in
flight but something that stays
(a facing's edge, a sleeve on the rail: real broadcast dev Clip17 had one by a corner on 24
frames): it is dropped, so that the tracker never takes it for a ball that is briefly unseen.

Its follow model is its own still, on purpose for now: it follows *every* detection of the last
frame (a ball of another rack, a second box on one ball) by nearest match in view pixels with a
deadband of ``rest_r`` radii, where the tracker (:meth:`tracking.tracker.Tracker.motion`) predicts
only the balls in play, matched by assignment, in millimetres. Crops at the tracker's predictions
would be other crops, so other centres and other detections: a change of behaviour, to be made
and measured on its own (the ``motion`` argument of :class:`vision.detect.Detector` carries the
tracker's predictions to the detector for that).

Why: the finder costs most of the detector's time (~60-100 ms a frame on this machine's two
cores, against ~1 ms a crop for the classifier), yet between events the balls roll smoothly or
rest; the classifier, which names and places every ball in any case, tracks them from one frame
to the next at a small part of that cost. Every frame where something happens that the
prediction did not foresee still gets the full detector, so a contact or a ball entering a
pocket is never seen later than with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tracking.detections import BallDetection, MotionState
from vision.rectify import LazyView, as_view_array, view_thumbnail

if TYPE_CHECKING:
    from vision.yolo import YoloDetector

__all__ = ["GuidedConfig", "GuidedDetector", "GuidedStats"]


@dataclass(frozen=True)
class GuidedConfig:
    """``key_every`` in frames; ``max_shift_r`` and ``rest_r`` (the shift between two frames taken
    for no motion) in ball radii; ``min_ball`` the classifier's
    belief that a crop holds a ball below which a prediction counts as lost; ``static_streak_s``
    how far back a streak with both ends at an earlier streak's (within a radius) makes it static;
    ``search_frames`` how many frames after a ball vanished, or a streak was seen, are searched for
    streaks; ``still_stride_px`` and ``still_grey`` the unchanged-view test that lets a key frame
    wait (the thumbnail's stride in view pixels, 16 mm at the view's 0.5 px/mm, and the largest
    change of its blurred grey levels that is still sensor noise, as :class:`tabletrack.still.StillGate`'s);
    ``predicted_min_speed_mm_s`` and ``predicted_min_share``: a ball the tracker predicts moving at
    least that fast with no detection near its prediction is looked for there, and taken when the
    crop holds a ball (``min_ball``) that reads it with at least that share of its belief among its
    three likeliest (see the module docstring)."""

    key_every: int = 6
    max_shift_r: float = 0.6
    min_ball: float = 0.6
    max_gap_s: float = 0.5
    score_weight: float = 0.9
    rest_r: float = 0.25
    static_streak_s: float = 1.0
    search_frames: int = 5
    still_stride_px: int = 8
    still_grey: float = 6.0
    predicted_min_speed_mm_s: float = 300.0
    predicted_min_share: float = 0.2


@dataclass(frozen=True)
class GuidedStats:
    """How many frames took the full detector and how many the crops only."""

    full: int
    guided: int


class GuidedDetector:
    """See the module docstring. ``detect`` must see the frames of one video in order."""

    def __init__(self, detector: YoloDetector, config: GuidedConfig | None = None) -> None:
        self.detector = detector
        self.geometry = detector.geometry
        self.config = config or GuidedConfig()
        if self.config.key_every < 1:
            raise ValueError(f"guided detector: expected key_every >= 1 frame, got {self.config.key_every}")
        self._last: list[BallDetection] = []
        self._vel = np.zeros((0, 2))
        self._t: float | None = None
        self._since_key = 0
        self._full = 0
        self._guided = 0
        self._streaks: list[tuple[float, tuple[float, float, float, float]]] = []  # (t, ends px) of recent streaks
        self._search = 0  # frames still to search for streaks (a ball vanished, or a streak was seen)
        self._key_thumb: np.ndarray | None = None  # the view's thumbnail at the last full detection

    @property
    def stats(self) -> GuidedStats:
        return GuidedStats(self._full, self._guided)

    #: :class:`vision.detect.RectifiedDetector` hands this detector a :class:`vision.rectify.LazyView`:
    #: a frame followed by crops is remapped only around the balls
    takes_lazy_view = True

    #: :class:`vision.detect.RectifiedDetector` passes the tracker's motion state
    takes_motion = True

    def detect(
        self, rectified_bgr: np.ndarray | LazyView, t_s: float | None = None, motion: MotionState | None = None
    ) -> list[BallDetection]:
        cfg = self.config
        dt = None if (t_s is None or self._t is None) else float(t_s) - self._t
        step = 1.0 if dt is None else dt
        forced = not self._last or (dt is not None and (dt <= 0 or dt > cfg.max_gap_s))
        due = self._since_key + 1 >= cfg.key_every and not (motion is not None and motion.settled)
        thumb = view_thumbnail(rectified_bgr, cfg.still_stride_px) if due and not forced else None
        key = forced or (thumb is not None and self._view_changed(thumb))
        dets = None if key else self._follow(rectified_bgr, step)
        if dets is None:
            view = as_view_array(rectified_bgr)
            dets = self.detector.detect(view)
            # the same pixels whether taken from the lazy view or the whole one
            self._key_thumb = thumb if thumb is not None else view_thumbnail(view, cfg.still_stride_px)
            self._since_key = 0
            self._full += 1
            vanished = self._vanished(dets, step)
        else:
            self._since_key += 1
            self._guided += 1
            vanished = False
        dets = self._without_static_streaks(dets, t_s)
        if motion is not None:
            dets = dets + self._at_predictions(rectified_bgr, dets, motion)
        if vanished or any(_is_streak(d) for d in dets):
            self._search = cfg.search_frames
        elif self._search > 0:
            self._search -= 1
        self._remember(dets, step)
        self._t = None if t_s is None else float(t_s)
        return dets

    # -- internals ---------------------------------------------------------------------------
    def _view_changed(self, thumb: np.ndarray) -> bool:
        """Whether the view's ``thumb`` (:func:`vision.rectify.view_thumbnail`) differs from the one
        of the last full detection by more than the sensor's noise anywhere (see the module
        docstring)."""
        ref = self._key_thumb
        if ref is None or ref.shape != thumb.shape:
            return True
        return int(np.abs(thumb - ref).max()) > self.config.still_grey

    def _without_static_streaks(self, dets: list[BallDetection], t_s: float | None) -> list[BallDetection]:
        """``dets`` less the streaks whose two ends both lie within a radius of the two ends of a
        streak of an earlier frame within ``static_streak_s`` (the ends, not the middle: a cue
        ball following an object ball's path a frame later crosses its streak, it does not
        repeat it). Every streak is remembered, a dropped one too."""
        streaks = [(d, d.streak_px) for d in dets if d.streak_px is not None and d.label is None]
        if t_s is None or not (streaks or self._streaks):
            return dets
        t = float(t_s)
        self._streaks = [s for s in self._streaks if t - self.config.static_streak_s <= s[0] < t]
        r = self.detector.r_px
        static = {id(d) for d, ends in streaks if any(_same_ends(ends, e, r) for _, e in self._streaks)}
        self._streaks += [(t, ends) for _, ends in streaks]
        return [d for d in dets if id(d) not in static] if static else dets

    def _follow(self, view: np.ndarray | LazyView, step: float) -> list[BallDetection] | None:
        """Crops at the predicted centres of the last frame's balls (not its streaks), and the
        streaks of the view while searching; None where any prediction is not confirmed."""
        cfg = self.config
        det = self.detector
        keep = [k for k, d in enumerate(self._last) if not _is_streak(d)]
        if not keep:
            return None
        last = [self._last[k] for k in keep]
        u0 = np.array([d.u_px for d in last]) + self._vel[keep, 0] * step
        v0 = np.array([d.v_px for d in last]) + self._vel[keep, 1] * step
        h, w = view.shape[:2]
        if ((u0 < 0) | (v0 < 0) | (u0 > w - 1) | (v0 > h - 1)).any():
            return None
        p, u, v = det.classify(view, u0, v0)
        n = len(det.labels)
        p_ball = p[:, :n].sum(axis=1)
        r = det.r_px
        if (p_ball < cfg.min_ball).any() or (np.hypot(u - u0, v - v0) > cfg.max_shift_r * r).any():
            return None
        if len(u) > 1:
            d = np.hypot(u[:, None] - u[None, :], v[:, None] - v[None, :])
            np.fill_diagonal(d, np.inf)
            if d.min() < r:
                return None
        out = det.detections(p, u, v, np.array([d.r_px for d in last]), cfg.score_weight * p_ball)
        if self._search > 0 and det.streaks:
            out += [sd for sd, *_ in det.streak_detections(as_view_array(view), u, v)]
        return out

    def _at_predictions(
        self, view: np.ndarray | LazyView, dets: list[BallDetection], motion: MotionState
    ) -> list[BallDetection]:
        """Detections at the tracker's predictions (``motion``, for this frame) of moving balls that
        no detection of the frame lies within two radii of: a crop there, taken when it holds a
        ball not farther than ``max_shift_r`` radii from the prediction that reads the predicted
        ball among its three likeliest with at least ``predicted_min_share`` of its belief."""
        cfg = self.config
        det = self.detector
        r = det.r_px
        h, w = view.shape[:2]
        du = [d.u_px for d in dets]
        dv = [d.v_px for d in dets]
        for d in dets:  # a streak covers its path: both ends count
            if d.streak_px is not None:
                du += [d.streak_px[0], d.streak_px[2]]
                dv += [d.streak_px[1], d.streak_px[3]]
        au, av = np.array(du), np.array(dv)
        wanted: list[tuple[str, float, float]] = []
        for m in motion.balls:
            if m.gone or float(np.hypot(m.vx_mm_s, m.vy_mm_s)) < cfg.predicted_min_speed_mm_s:
                continue
            pu, pv = self.geometry.mm_to_uv(np.array([m.x_mm]), np.array([m.y_mm]))
            u0, v0 = float(pu[0]), float(pv[0])
            if not (0.0 <= u0 <= w - 1 and 0.0 <= v0 <= h - 1):
                continue
            if len(au) and float(np.hypot(au - u0, av - v0).min()) < 2.0 * r:
                continue
            # every snooker red is the detector class red (tracking.identity.detector_class, which a
            # vision stage may not import: tests/test_boundaries.py)
            label = "red" if m.ball.value.startswith("red_") else m.ball.value
            if label in det.labels:
                wanted.append((label, u0, v0))
        if not wanted:
            return []
        u0s = np.array([x[1] for x in wanted])
        v0s = np.array([x[2] for x in wanted])
        p, u, v = det.classify(view, u0s, v0s)
        n = len(det.labels)
        keep = []
        for i, (label, _, _) in enumerate(wanted):
            p_ball = float(p[i, :n].sum())
            if p_ball < cfg.min_ball or np.hypot(u[i] - u0s[i], v[i] - v0s[i]) > cfg.max_shift_r * r:
                continue
            k = det.labels.index(label)
            if k in np.argsort(-p[i, :n])[:3] and p[i, k] >= cfg.predicted_min_share * p_ball:
                keep.append(i)
        if not keep:
            return []
        score = cfg.score_weight * p[keep, :n].sum(axis=1)
        return det.detections(p[keep], u[keep], v[keep], np.full(len(keep), r), score)

    def _vanished(self, dets: list[BallDetection], step: float) -> bool:
        """Whether a ball of the last frame (not a streak) has no detection of this frame within
        two radii of where it was going (one radius of slack per frame of its motion)."""
        balls = [(d, k) for k, d in enumerate(self._last) if not _is_streak(d)]
        if not balls or not dets:
            return bool(balls)
        u = np.array([d.u_px for d in dets])
        v = np.array([d.v_px for d in dets])
        r = self.detector.r_px
        for d, k in balls:
            pu, pv = d.u_px + self._vel[k, 0] * step, d.v_px + self._vel[k, 1] * step
            reach = 2.0 * r + float(np.hypot(*self._vel[k])) * step
            if np.hypot(u - pu, v - pv).min() > reach:
                return True
        return False

    def _remember(self, dets: list[BallDetection], step: float) -> None:
        """Velocities from the nearest ball of the last frame (within two radii; else at rest)."""
        cfg = self.config
        vel = np.zeros((len(dets), 2))
        if self._last and dets:
            pu = np.array([d.u_px for d in self._last])
            pv = np.array([d.v_px for d in self._last])
            lim = 2.0 * self.detector.r_px + np.hypot(self._vel[:, 0], self._vel[:, 1]) * step
            for i, d in enumerate(dets):
                e = np.hypot(pu + self._vel[:, 0] * step - d.u_px, pv + self._vel[:, 1] * step - d.v_px)
                j = int(np.argmin(e))
                du, dv = d.u_px - pu[j], d.v_px - pv[j]
                # a shift below the deadband is the centre's noise, not motion: fed back as a
                # velocity it would make a resting ball creep
                if e[j] <= lim[j] and np.hypot(du, dv) > cfg.rest_r * self.detector.r_px:
                    vel[i] = (du / step, dv / step)
        self._last, self._vel = list(dets), vel


def _is_streak(d: BallDetection) -> bool:
    """Whether a detection is a fast ball's streak (unnamed, with its path's ends)."""
    return d.streak_px is not None and d.label is None


def _same_ends(a: tuple[float, float, float, float], b: tuple[float, float, float, float], r_px: float) -> bool:
    """Whether streaks ``a`` and ``b`` (u0, v0, u1, v1) have their ends within ``r_px`` of each
    other's, in either order."""
    (a0, a1), (b0, b1) = ((a[0], a[1]), (a[2], a[3])), ((b[0], b[1]), (b[2], b[3]))

    def near(p: tuple[float, float], q: tuple[float, float]) -> bool:
        return math.hypot(p[0] - q[0], p[1] - q[1]) <= r_px

    return (near(a0, b0) and near(a1, b1)) or (near(a0, b1) and near(a1, b0))
