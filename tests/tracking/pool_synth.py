"""Pool and snooker test data: pooltool shots (``sample_data/pool_shots``) seen as a camera sees
them, fed through the tracker, and scored against their truth.

- :func:`camera_frames`: every frame at ``fps`` (random phase), the centre of every ball still on
  the table (``SimShot.on_table``) with Gaussian noise; a ball gone into a pocket is simply not
  detected any more (what a detector reports).
- :func:`detections`: one frame's :class:`tracking.detections.BallDetection` values with the
  detector's *class* (a snooker red is ``red``; :func:`tracking.identity.detector_class`), noisy
  class scores, an optional rate of misread classes.
- :func:`track`: the tracker over those frames, returning its trajectories and the number of
  identity swaps (an observed state placed on another ball's detection).
- :func:`score_events`: inferred events against the truth: pocketings (ball, pocket, time),
  the first contact of each shot, object-ball cushion contacts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.table import TableSpec
from tracking.detections import BallDetection
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed
from tracking.identity import detector_class
from tracking.ids import BallId
from tracking.tracker import Tracker
from tracking.trajectory import Trajectory


@dataclass(frozen=True)
class Frame:
    index: int
    t_s: float
    balls: tuple[BallId, ...]
    xy_mm: np.ndarray  # (n, 2) noisy centres of the balls on the table


def camera_frames(shot, fps: float, noise_mm: float, seed: int, tail_s: float = 1.0) -> list[Frame]:
    """The shot as a camera at ``fps`` sees it (see the module docstring)."""
    rng = np.random.default_rng(seed)
    t0 = float(shot.t_s[0]) + rng.uniform(0.0, 1.0 / fps)
    n = int((float(shot.t_s[-1]) - t0) * fps)
    out = []
    for k in range(n):
        t = t0 + k / fps
        xy, _, on = shot.state_at(t)
        idx = np.flatnonzero(on)
        pts = xy[idx] + rng.normal(0.0, noise_mm, (len(idx), 2))
        out.append(Frame(k, t, tuple(shot.balls[i] for i in idx), pts))
    return out


def trajectories_from_frames(frames: list[Frame], balls) -> dict[BallId, Trajectory]:
    """Exact identities (no tracker): each ball's samples, held unobserved once it is gone."""
    rows: dict[BallId, list[tuple[float, int, float, float, bool]]] = {b: [] for b in balls}
    last: dict[BallId, tuple[float, float]] = {}
    for f in frames:
        seen = dict(zip(f.balls, f.xy_mm))
        for b in balls:
            if b in seen:
                p = seen[b]
                last[b] = (float(p[0]), float(p[1]))
                rows[b].append((f.t_s, f.index, last[b][0], last[b][1], True))
            elif b in last:
                rows[b].append((f.t_s, f.index, last[b][0], last[b][1], False))
    out = {}
    for b, r in rows.items():
        if r:
            a = np.array(r, dtype=float)
            out[b] = Trajectory(
                b,
                a[:, 0],
                a[:, 1].astype(np.int64),
                a[:, 2],
                a[:, 3],
                a[:, 4].astype(bool),
                np.where(a[:, 4] > 0, 1.0, 0.0),
            )
    return out


def detections(
    frame: Frame,
    classes: tuple[BallId, ...],
    rng: np.random.Generator,
    misread: float = 0.0,
    hidden: tuple[BallId, ...] = (),
) -> list[BallDetection]:
    """One frame's detections: the detector's class with scores (0.8-0.95 for it, the rest
    spread over the other classes); with probability ``misread`` the top class is another one."""
    out = []
    for b, p in zip(frame.balls, frame.xy_mm):
        if b in hidden:
            continue
        true = detector_class(b)
        top = true
        if misread and rng.random() < misread:
            top = classes[int(rng.integers(len(classes)))]
        s_top = float(rng.uniform(0.8, 0.95))
        scores = {c: float((1.0 - s_top) / max(len(classes) - 1, 1)) for c in classes}
        scores[top] = s_top
        out.append(BallDetection(float(p[0]), float(p[1]), label=top, label_scores=scores, score=0.9))
    order = rng.permutation(len(out))
    return [out[i] for i in order]


@dataclass
class TrackResult:
    trajectories: dict[BallId, Trajectory]
    swaps: int  # observed states on another ball's detection
    observed: int


def _swap_equivalent(a: BallId, b: BallId) -> bool:
    """Balls the tracker may rename between shots without an error (snooker reds)."""
    return detector_class(a) is BallId.RED and detector_class(b) is BallId.RED


def track(
    frames: list[Frame],
    balls: tuple[BallId, ...],
    table: TableSpec,
    seed: int,
    misread: float = 0.0,
    hide: dict[BallId, tuple[float, float]] | None = None,
    reds_by_motion: bool = True,
) -> TrackResult:
    """The tracker over the frames. Swaps are counted per observed state: the state's position is
    another ball's detection. Reds are named by the tracker, so red states are matched to the
    red they follow: the first observed detection each red track takes fixes its truth ball."""
    rng = np.random.default_rng(seed)
    classes = tuple(dict.fromkeys(detector_class(b) for b in balls))
    tracker = Tracker(balls, table)
    hide = hide or {}
    truth_of: dict[BallId, BallId] = {}
    swaps = observed = 0
    for f in frames:
        hidden = tuple(b for b, (a, z) in hide.items() if a <= f.t_s < z)
        dets = detections(f, classes, rng, misread, hidden)
        states = tracker.update(f.index, f.t_s, dets)
        lookup = {(round(float(p[0]), 6), round(float(p[1]), 6)): b for b, p in zip(f.balls, f.xy_mm)}
        for s in states:
            if not s.observed:
                continue
            true = lookup.get((round(s.x_mm, 6), round(s.y_mm, 6)))
            if true is None:
                continue
            observed += 1
            if reds_by_motion and _swap_equivalent(s.ball, true):
                want = truth_of.setdefault(s.ball, true)
                swaps += want is not true
                truth_of[s.ball] = true
            else:
                swaps += true is not s.ball
    return TrackResult(tracker.trajectories(), swaps, observed)


@dataclass
class EventScore:
    pockets_truth: int = 0
    pockets_found: int = 0  # right ball (or a red for a red) and pocket
    pockets_false: int = 0
    pocket_time_errors_s: list[float] = field(default_factory=list)
    first_contact_truth: int = 0
    first_contact_right: int = 0
    ob_cushions_truth: int = 0
    ob_cushions_found: int = 0
    ob_cushions_false: int = 0

    def add(self, other: EventScore) -> None:
        for k, v in vars(other).items():
            if isinstance(v, list):
                getattr(self, k).extend(v)
            else:
                setattr(self, k, getattr(self, k) + v)


def _same(a: BallId, b: BallId) -> bool:
    return a is b or _swap_equivalent(a, b)


def _left_from(hit: CushionHit, truth: list[Event], drop_s: float = 0.05) -> bool:
    """Whether the ball's next event after this cushion contact is its leaving the table with no
    contact between: over a rail (a cushion it climbed and went over: pooltool, jump_off), or into
    a pocket within ``drop_s`` (a jaw touched on the way in: combination, 12 ms before the drop).
    The ball never comes back off that cushion onto the cloth, so its path shows no turn: no
    camera sees such a contact, and the scoring leaves it out."""
    later = sorted(
        (
            e
            for e in truth
            if e.t_s > hit.t_s
            and (
                (isinstance(e, (CushionHit, Pocketed, OffTable)) and e.ball is hit.ball)
                or (isinstance(e, BallBall) and hit.ball in e.balls)
            )
        ),
        key=lambda e: e.t_s,
    )
    if not later:
        return False
    nxt = later[0]
    return isinstance(nxt, OffTable) or (isinstance(nxt, Pocketed) and nxt.t_s - hit.t_s <= drop_s)


def score_events(
    truth: list[Event], found: list[Event], cue: BallId = BallId.CUE, cushion_window_s: float = 0.1
) -> EventScore:
    """Inferred events against the truth (one shot or several, matched by time)."""
    sc = EventScore()
    tp = [e for e in truth if isinstance(e, Pocketed)]
    fp = [e for e in found if isinstance(e, Pocketed)]
    used: set[int] = set()
    sc.pockets_truth = len(tp)
    for e in tp:
        k = next(
            (i for i, f in enumerate(fp) if i not in used and _same(f.ball, e.ball) and f.pocket is e.pocket), None
        )
        if k is not None:
            used.add(k)
            sc.pockets_found += 1
            sc.pocket_time_errors_s.append(fp[k].t_s - e.t_s)
    sc.pockets_false = len(fp) - len(used)
    tb = sorted((e for e in truth if isinstance(e, BallBall)), key=lambda e: e.t_s)
    fb = sorted((e for e in found if isinstance(e, BallBall)), key=lambda e: e.t_s)
    if tb:
        sc.first_contact_truth = 1
        if (
            fb
            and set(fb[0].balls) == set(tb[0].balls)
            or (fb and all(any(_same(x, y) for y in tb[0].balls) for x in fb[0].balls))
        ):
            sc.first_contact_right = 1
    tc = [e for e in truth if isinstance(e, CushionHit) and e.ball is not cue and not _left_from(e, truth)]
    fc = [e for e in found if isinstance(e, CushionHit) and e.ball is not cue]
    used = set()
    sc.ob_cushions_truth = len(tc)
    for e in tc:
        k = next(
            (
                i
                for i, f in enumerate(fc)
                if i not in used
                and _same(f.ball, e.ball)
                and f.cushion is e.cushion
                and abs(f.t_s - e.t_s) <= cushion_window_s
            ),
            None,
        )
        if k is not None:
            used.add(k)
            sc.ob_cushions_found += 1
    sc.ob_cushions_false = len(fc) - len(used)
    return sc
