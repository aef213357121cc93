"""Rest and motion of each ball, and the shots they make (DESIGN.md: a shot starts when a ball
starts moving after all were at rest, and ends when all are at rest again).

Works on the *observed* samples of each trajectory, with any sampling:

- a ball is at rest over a run of samples that stay within ``rest_tol_mm`` of their mean for at
  least ``rest_min_s`` (or for three samples at the very start or end of the data: a clip cut a
  few frames before a stroke, real broadcast dev Clip12, still shows the rack at rest); or, for
  sources that report only when a ball moves (another tracking system, DESIGN.md "What real
  inputs look like"), over a *silence*: no sample at all for ``silent_rest_s``, or for
  ``silence_ratio`` times longer than the spacing of the reports that follow, after which the
  ball reappears within ``silent_jump_mm`` (a ball moving through a data gap reappears far
  away). A gap the tracker bridged (samples marked not observed: a ball hidden by a hand or a
  cue) is never a silence: a ball that disappears while moving stays moving until it is seen
  again.
- motion is what lies between rest runs; a motion that ends where it began (within
  ``rest_tol_mm``) after one or two samples, or within ``glitch_s``, is a detection glitch and is
  dropped: a ball cannot leave its place and come back to it in a few hundredths of a second
  (real broadcast dev Clip1 turned 180 degrees, 25 fps: the racked 3 read 26 mm off on four
  frames, 0.12 s, then where it lay; made a shot "the 3 moved, no stroke"; mirrored, with
  classifier v8, the 5 read 24 mm off on frames 12-13 and 15-16, 0.16 s). ``glitch_s`` is
  ``rest_min_s``: a motion shorter than the shortest rest, back where it began.
- shots are the connected groups of motions of all balls, motions less than ``shot_gap_s`` apart
  joining one shot (a player needs longer than that to strike again). A lone motion of a single
  sample (a ball that reappears somewhere else, put back by hand) starts no shot; from a sparse
  recorder, neither do several (its closing report of every ball, re-measured).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from tracking.ids import BallId
from tracking.trajectory import Trajectory


@dataclass(frozen=True)
class SegmentConfig:
    """Thresholds of rest detection and shot grouping (see the module docstring).

    ``silent_jump_steps``: a ball that reappears after a silence within this many of the steps of
    the motion that follows (or within ``silent_jump_mm``) rested through it. ``sparse_spacing_s``:
    the reporting pace of a source that samples a ball only while it moves
    (:class:`tracking.sampling.Sampling` ``SPARSE``; None for video frames); there a ball's first
    sample followed by a silence of ``sparse_first_ratio`` times that pace is a ball at rest, if it
    is next reported near there; followed by ``sparse_silent_first_s`` of silence, wherever it is
    next reported (reports lost after the stroke leave the struck ball far from its rest: read as
    a path, its slow creep through the whole silence made it the first mover, the cue ball)."""

    rest_tol_mm: float = 3.5
    rest_min_s: float = 0.25
    silent_rest_s: float = 1.0
    shot_gap_s: float = 0.5
    glitch_samples: int = 2
    glitch_s: float = 0.25
    lost_after_s: float = 2.0
    onset_mm: float = 2.0
    silent_jump_mm: float = 30.0
    silent_jump_steps: float = 2.0
    silent_min_s: float = 0.05
    silence_ratio: float = 5.0
    sparse_spacing_s: float | None = None
    sparse_first_ratio: float = 1.5
    sparse_silent_first_s: float = 1.0


@dataclass(frozen=True)
class BallSamples:
    """The observed samples of one ball as arrays (index ``i`` everywhere below refers to these),
    plus ``bridged_after[i]``: the tracker holds unobserved samples between sample ``i`` and the
    next observed one (so that interval is an occlusion, not a silence)."""

    ball: BallId
    t_s: np.ndarray
    xy_mm: np.ndarray
    frame: np.ndarray
    weight: np.ndarray
    bridged_after: np.ndarray

    def __len__(self) -> int:
        return int(self.t_s.shape[0])

    @staticmethod
    def from_trajectory(tr: Trajectory) -> BallSamples:
        obs = np.flatnonzero(tr.observed)
        bridged = np.zeros(len(obs), dtype=bool)
        if len(obs):
            # unobserved samples strictly after observed sample k and before the next observed one
            nxt = np.append(obs[1:], len(tr))
            bridged = (nxt - obs) > 1
        return BallSamples(
            ball=tr.ball,
            t_s=tr.t_s[obs],
            xy_mm=np.stack([tr.x_mm[obs], tr.y_mm[obs]], axis=1),
            frame=tr.frame[obs],
            weight=tr.confidence[obs],
            bridged_after=bridged,
        )


@dataclass(frozen=True)
class RestRun:
    """Samples ``i0..i1`` (inclusive) at rest at ``pos_mm`` (their median)."""

    i0: int
    i1: int
    t_first_s: float
    t_last_s: float
    pos_mm: tuple[float, float]


@dataclass(frozen=True)
class Motion:
    """One ball moving over samples ``i_first..i_last``, between ``rest_before`` (None when the
    data start in motion) and ``rest_after`` (None when the data end, or the ball vanishes,
    in motion). ``t_begin_s`` is the first moving sample's time, ``t_end_s`` the first time the
    ball is seen at rest again (the last moving sample's time when ``rest_after`` is None)."""

    ball: BallId
    i_first: int
    i_last: int
    rest_before: RestRun | None
    rest_after: RestRun | None

    def t_begin_s(self, s: BallSamples) -> float:
        return float(s.t_s[self.i_first])

    def t_end_s(self, s: BallSamples) -> float:
        if self.rest_after is not None:
            return float(s.t_s[self.rest_after.i0])
        return float(s.t_s[self.i_last])

    @property
    def n_samples(self) -> int:
        return self.i_last - self.i_first + 1


def rest_runs(s: BallSamples, clip_end_s: float, cfg: SegmentConfig) -> list[RestRun]:
    """The ball's rest runs in time order (greedy scan, see the module docstring)."""
    n = len(s)
    t, p = s.t_s, s.xy_mm
    # the scan in Python floats: NumPy's per-call cost on 2-vectors was most of it (a snooker
    # break: 100 000 distance tests, 0.9 s)
    xs, ys = p[:, 0].tolist(), p[:, 1].tolist()
    runs: list[RestRun] = []
    i = 0
    tol = cfg.rest_tol_mm

    def near(k: int, ax: float, ay: float, first: int) -> bool:
        return (
            math.hypot(xs[k] - ax, ys[k] - ay) <= tol and math.hypot(xs[k] - xs[first], ys[k] - ys[first]) <= tol * 1.5
        )

    while i < n:
        j = i
        sx, sy = xs[i], ys[i]
        count = 1
        while j + 1 < n:
            ax, ay = sx / count, sy / count
            if near(j + 1, ax, ay, i):
                j += 1
                sx, sy = sx + xs[j], sy + ys[j]
                count += 1
            elif (
                j + 2 < n
                and near(j + 2, ax, ay, i)
                and not s.bridged_after[j + 1]
                and t[j + 2] - t[j + 1] < cfg.silent_rest_s
            ):
                j += 2  # one stray sample (a detection glitch) between two at rest
                sx, sy = sx + xs[j], sy + ys[j]
                count += 1
            else:
                break
        duration = t[j] - t[i]
        trailing = j == n - 1 and count >= 3  # still at the end of the data
        leading = i == 0 and count >= 3  # still from the start of the data (a clip cut just before a stroke)
        if duration >= cfg.rest_min_s or _silent_rest(s, j, clip_end_s, cfg) or trailing or leading:
            med = np.median(p[i : j + 1], axis=0)
            runs.append(RestRun(i, j, float(t[i]), float(t[j]), (float(med[0]), float(med[1]))))
            i = j + 1
        else:
            i += 1
    runs = _merge_glitches(runs, s, cfg)
    return _trim_onsets(runs, s, cfg)


def _silent_rest(s: BallSamples, j: int, clip_end_s: float, cfg: SegmentConfig) -> bool:
    """Whether the source's silence after sample ``j`` means the ball rested there: no sample
    (and no bridged occlusion) for ``silent_rest_s``, or for much longer than the spacing of the
    reports that follow (a resting ball struck), and the ball reappears near where it was (a
    ball moving through a data gap reappears far away)."""
    if s.bridged_after[j]:
        return False
    n = len(s)
    t = s.t_s
    if j + 1 >= n:
        return float(clip_end_s - t[j]) >= cfg.silent_rest_s
    silence = float(t[j + 1] - t[j])
    jump = float(np.hypot(*(s.xy_mm[j + 1] - s.xy_mm[j])))
    after = float(t[j + 2] - t[j + 1]) if j + 2 < n else 0.0
    # The ball may have gone, after a stroke that came late in the silence, as far as it goes in
    # one report spacing of the motion that follows (a fast struck ball: 50-100 mm at 50 Hz); a
    # ball that moved through the whole silence at that pace would be silence / spacing such
    # steps away (at least ``silence_ratio``), so a jump of a couple of steps is a rest, however
    # fast the ball left it.
    step_after = float(np.hypot(*(s.xy_mm[j + 2] - s.xy_mm[j + 1]))) if j + 2 < n else 0.0
    if cfg.sparse_spacing_s is not None and after > 0:
        step_after *= min(1.0, 2.0 * cfg.sparse_spacing_s / after)  # one report spacing's worth
    if cfg.sparse_spacing_s is not None and j == 0 and silence >= cfg.sparse_silent_first_s:
        # a source that reports a ball only when it moves, silent for seconds after its first
        # report of this ball: the ball rested there, however far it had gone when next reported
        # (reports lost: real three-cushion tracks with a tenth of the reports dropped, the red
        # next seen 77 mm on, 0.15 s after it was struck, 3 s after its first report)
        return not _rolls_to_the_end(s, j)
    limit = cfg.silent_jump_mm
    if cfg.sparse_spacing_s is not None:
        limit = max(limit, cfg.silent_jump_steps * step_after)
    if jump > limit:
        return False
    if cfg.sparse_spacing_s is not None and _rolls_to_the_end(s, j):
        return False  # the data's last reports: a roll's end, not a rest and a new stroke
    if silence >= cfg.silent_rest_s:
        return jump <= cfg.silent_jump_mm or silence >= cfg.silence_ratio * after
    if cfg.sparse_spacing_s is not None and j == 0 and silence >= cfg.sparse_first_ratio * cfg.sparse_spacing_s:
        # a source that reports a ball only when it moves: its first sample followed by a
        # silence longer than the source's pace is the ball at rest there (a moving ball would
        # have been reported at every tick), however soon after it the ball is struck
        return True
    if silence < cfg.silent_min_s:
        return False
    return silence >= cfg.silence_ratio * after


def _rolls_to_the_end(s: BallSamples, j: int) -> bool:
    """Whether every silence from sample ``j`` to the end of the data is more of one roll
    (:func:`_still_rolling`, asked of each in turn): the reports of a ball rolling to a stop."""
    n = len(s)
    for i in range(j, n - 1):
        gap = float(s.t_s[i + 1] - s.t_s[i])
        step = float(np.hypot(*(s.xy_mm[i + 1] - s.xy_mm[i])))
        after = float(s.t_s[i + 2] - s.t_s[i + 1]) if i + 2 < n else 0.0
        if step > ROLL_CLOSING_MM and not _still_rolling(s, i, step, gap, after):
            return False
    return True


#: The last report of a recording may re-measure a ball at rest by a few millimetres.
ROLL_CLOSING_MM = 5.0


def _still_rolling(s: BallSamples, j: int, jump: float, silence: float, after: float) -> bool:
    """A sparse recorder reports a slowing ball only each time it has gone a centimetre or so, so
    the reports of a ball rolling to a stop come ever further apart: a silence after sample ``j``
    is more of that roll, not a rest and a new stroke, when the ball was moving into ``j``, goes on
    the same way no faster than it came, and is no faster after (a struck ball leaves fast). Asked
    only of a roll that goes on so to the end of the data (where a stroke would be a shot of its
    own): mid-shot, a ball that slows to a stop and moves on the same way may have been nudged by
    the ball behind it, and the split into rest and motion lets the contact be inferred."""
    if j < 1:
        return False
    into = s.xy_mm[j] - s.xy_mm[j - 1]
    dt_in = float(s.t_s[j] - s.t_s[j - 1])
    step_in = float(np.hypot(*into))
    if step_in <= 0 or dt_in <= 0 or jump <= 0:
        return False
    across = s.xy_mm[j + 1] - s.xy_mm[j]
    if float(into @ across) < ROLL_COS * step_in * jump:
        return False
    v_in, v_across = step_in / dt_in, jump / silence
    v_after = float(np.hypot(*(s.xy_mm[j + 2] - s.xy_mm[j + 1]))) / after if j + 2 < len(s) and after > 0 else 0.0
    return v_across <= ROLL_SPEEDUP * v_in and v_after <= ROLL_SPEEDUP * v_across


#: A roll goes on within this cosine of its direction, and at most this factor faster (noise).
ROLL_COS = 0.8
ROLL_SPEEDUP = 1.5


def _merge_glitches(runs: list[RestRun], s: BallSamples, cfg: SegmentConfig) -> list[RestRun]:
    out: list[RestRun] = []
    for r in runs:
        if out:
            prev = out[-1]
            gap = r.i0 - prev.i1 - 1
            d = float(np.hypot(r.pos_mm[0] - prev.pos_mm[0], r.pos_mm[1] - prev.pos_mm[1]))
            brief = gap <= cfg.glitch_samples or float(s.t_s[r.i0 - 1] - s.t_s[prev.i1 + 1]) <= cfg.glitch_s
            if brief and d <= cfg.rest_tol_mm:
                med = np.median(s.xy_mm[prev.i0 : r.i1 + 1], axis=0)
                out[-1] = RestRun(prev.i0, r.i1, prev.t_first_s, r.t_last_s, (float(med[0]), float(med[1])))
                continue
        out.append(r)
    return out


def _trim_onsets(runs: list[RestRun], s: BallSamples, cfg: SegmentConfig) -> list[RestRun]:
    """A slowly starting ball stays within the rest tolerance for a few samples: hand back to the
    motion the run's last samples that already creep, steadily, toward where the ball goes."""
    out: list[RestRun] = []
    n = len(s)
    for k, r in enumerate(runs):
        nxt = r.i1 + 1
        followed_by_motion = nxt < n and (k + 1 >= len(runs) or runs[k + 1].i0 > nxt)
        if not followed_by_motion or r.i1 == r.i0:
            out.append(r)
            continue
        anchor = np.array(r.pos_mm)
        d = s.xy_mm[nxt] - anchor
        norm = float(np.hypot(*d))
        if norm <= 0:
            out.append(r)
            continue
        u = d / norm
        i1 = r.i1
        last = float(d @ u)
        while i1 > r.i0:
            proj = float((s.xy_mm[i1] - anchor) @ u)
            if proj <= cfg.onset_mm or proj >= last:
                break
            last = proj
            i1 -= 1
        if i1 != r.i1:
            med = np.median(s.xy_mm[r.i0 : i1 + 1], axis=0)
            r = RestRun(r.i0, i1, r.t_first_s, float(s.t_s[i1]), (float(med[0]), float(med[1])))
        out.append(r)
    return out


def motions(s: BallSamples, runs: list[RestRun], cfg: SegmentConfig) -> list[Motion]:
    """The motions between (and around) the rest runs. A moving ball unseen (bridged) for longer
    than ``lost_after_s`` was lost: its motion ends there without a rest, and what is seen after
    is a new start (the ball put back, or found again)."""
    raw: list[Motion] = []
    n = len(s)
    prev: RestRun | None = None
    start = 0
    for r in runs:
        if r.i0 > start:
            raw.append(Motion(s.ball, start, r.i0 - 1, prev, r))
        prev = r
        start = r.i1 + 1
    if start < n:
        raw.append(Motion(s.ball, start, n - 1, prev, None))

    def lost_gap(i: int) -> bool:  # between observed samples i and i + 1
        return bool(s.bridged_after[i]) and i + 1 < n and float(s.t_s[i + 1] - s.t_s[i]) > cfg.lost_after_s

    out: list[Motion] = []
    for m in raw:
        if (
            m.rest_before is None
            and m.rest_after is not None
            and m.n_samples <= cfg.glitch_samples
            and bool(
                np.all(
                    np.hypot(*(s.xy_mm[m.i_first : m.i_last + 1] - np.array(m.rest_after.pos_mm)).T)
                    <= 2.0 * cfg.rest_tol_mm
                )
            )
        ):
            continue  # the data open with a stray sample or two of a ball at rest: a glitch
        first, before = m.i_first, m.rest_before
        for i in range(m.i_first, m.i_last):
            if lost_gap(i):
                out.append(Motion(s.ball, first, i, before, None))
                first, before = i + 1, None
        after = m.rest_after
        if after is not None and lost_gap(m.i_last):
            after = None
        out.append(Motion(s.ball, first, m.i_last, before, after))
    return out


@dataclass(frozen=True)
class BallActivity:
    """One ball's samples with their rest runs and motions, in time order. ``fits``: a memo of
    the path fits over its samples that contact finding makes (:func:`tracking.sides.make_side`,
    keyed by what the fit depends on): the same side of a ball is fitted for every pair and
    every split tried (a snooker break: 15,220 fits, 1,911 of them different), and the samples
    never change."""

    samples: BallSamples
    runs: tuple[RestRun, ...]
    motions: tuple[Motion, ...]
    fits: dict[tuple[object, ...], object] = field(default_factory=dict, compare=False, repr=False)


def ball_activity(s: BallSamples, clip_end_s: float, cfg: SegmentConfig) -> BallActivity:
    runs = rest_runs(s, clip_end_s, cfg)
    return BallActivity(s, tuple(runs), tuple(motions(s, runs, cfg)))


@dataclass(frozen=True)
class ShotSpan:
    """One shot's motions (all balls), from ``t_begin_s`` (first moving sample) to ``t_end_s``
    (every ball seen at rest again; ``ended`` False when the data stop before that)."""

    motions: tuple[Motion, ...]
    t_begin_s: float
    t_end_s: float
    ended: bool


def group_shots(activity: dict[BallId, BallActivity], cfg: SegmentConfig) -> list[ShotSpan]:
    """Group every ball's motions into shots (see the module docstring)."""
    items: list[tuple[float, float, Motion, bool]] = []
    for act in activity.values():
        for m in act.motions:
            items.append((m.t_begin_s(act.samples), m.t_end_s(act.samples), m, m.rest_after is not None))
    items.sort(key=lambda it: it[0])
    groups: list[list[tuple[float, float, Motion, bool]]] = []
    end = -np.inf
    for it in items:
        if groups and it[0] <= end + cfg.shot_gap_s:
            groups[-1].append(it)
            end = max(end, it[1])
        else:
            groups.append([it])
            end = it[1]
    out: list[ShotSpan] = []
    for g in groups:
        ms = [it[2] for it in g]
        if (len(ms) == 1 or cfg.sparse_spacing_s is not None) and all(
            m.n_samples == 1 and m.rest_before is not None for m in ms
        ):
            continue  # a ball reappearing elsewhere in one sample (a recorder's closing report of
            # every ball, re-measured): relocation, not a stroke
        out.append(
            ShotSpan(
                motions=tuple(ms),
                t_begin_s=min(it[0] for it in g),
                t_end_s=max(it[1] for it in g),
                ended=all(it[3] for it in g),
            )
        )
    return out
