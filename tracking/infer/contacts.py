"""Step 2 of a shot: the contacts seen in the balls' paths (ball-ball and cushion).

Contract: :func:`find_contacts` returns every ball-ball contact (:mod:`tracking.collisions`) and
cushion contact (:mod:`tracking.cushions`) that the samples of one shot show, each timed below
the sample gap where the paths allow, with a confidence. :func:`without_pocket_openings` then
applies what a table with pockets rules out.

Why in passes: a contact is timed by fitting each ball's path on both sides of it, and a fit that
runs across another contact of the same ball (a cushion just before a ball, two within one
sample gap) is bent by it. So each contact is first found on its own, then re-timed with its
fits kept inside the ball's neighbouring contacts, so that two contacts of one ball within one
sample gap are timed and ordered from their clean sides:

1. ``collisions_from_rest``: each close approach of two balls (:func:`pair_episodes`), timed by
   the struck ball where it was at rest (its rest run is the cleanest side there is).
2. ``cushions_alone``: each cushion candidate timed with no bounds on its fits.
3. ``cushions_between_first``: each cushion re-timed inside the ball's contacts of passes 1-2
   (the ball-ball contacts and the same or opposite cushion's).
4. ``collisions_between``: each ball-ball contact re-timed with its fits inside each ball's
   other contacts (passes 1 and 3). A close approach may hold more than one contact (a kiss
   after a cushion): a further one is kept where another contact of either ball lies between,
   or they are seen drawing apart and together again (:func:`_met_again`). The contact of two
   balls that rested touching (a rack, a cluster: :func:`_resting_chain`) happens within a
   millisecond of the contact that struck the chain: where its pass-1 time (from the far ball's
   rest run, as likely a few ms before as after) leaves the struck ball's fits no room, the
   striking contact is timed again without it (real nine-ball break, darkened: the cue ball's
   contact with the apex lost behind the apex's with the ball behind it, 5 ms apart). Not
   before: elsewhere that bound keeps the fit on the clean side (real nine-ball break, Clip1:
   the cue ball's first contact at 0.875 confidence with it, 0.25 without).
5. ``cushions_between``: each cushion re-timed again inside the ball's contacts of passes 3-4.

Then duplicates are merged (``InferenceConfig.dedupe_s``, ``same_cushion_s``), and the contacts
that show in no turn of a path are added: a struck ball's small nudge
(:func:`tracking.collisions.nudges`), a grazing cushion contact and a dying one (a ball that rolls
to rest against a cushion) (:mod:`tracking.cushions`).

Where the first reading leaves a ball set moving with no contact found, and a contact is inferred
from that effect (:mod:`tracking.infer.unseen`), the shot's paths are read again with those
contacts' times as bounds too (``find_contacts(inferred=...)``, from :mod:`tracking.infer.shot`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from calibration.table import TableSpec
from tracking.collisions import (
    Collision,
    Episode,
    nudges,
    pair_episodes,
    positions_at,
    refine_pair,
)
from tracking.cushions import (
    OPPOSITE,
    CushionContact,
    cushion_candidates,
    dying_contact,
    graze_contacts,
    refine_cushion,
)
from tracking.ids import BallId, Cushion
from tracking.infer.config import InferenceConfig
from tracking.pockets import PocketZone, in_opening
from tracking.segment import BallActivity, Motion, ShotSpan

#: mm. How far apart two balls that touched must be seen to draw, and then closer again, for a
#: second contact of the pair within one close approach (a kiss): 3 mm is three times the
#: centre noise (``ContactConfig.noise_mm``), so that noise alone never makes a second contact.
APART_MM = 3.0
#: s. How far before a sample a contact timed exactly at it bounds the fits (:func:`_bounds`): far
#: less than any recorder's sample spacing, so the sample itself stays inside.
AT_SAMPLE_S = 1e-6


@dataclass(frozen=True)
class Contacts:
    """The contacts of one shot: ball-ball ``collisions`` and ``cushions``, in the order found
    (which decides only the order of events at the same time)."""

    collisions: tuple[Collision, ...]
    cushions: tuple[CushionContact, ...]


def find_contacts(
    acts: Mapping[BallId, BallActivity],
    span: ShotSpan,
    t_start: float,
    cue_motion: Motion,
    table: TableSpec,
    cfg: InferenceConfig,
    inferred: Sequence[Collision] = (),
    memo: dict[tuple, Collision | None] | None = None,
) -> Contacts:
    """Every ball-ball and cushion contact the paths of the shot ``span`` show after the stroke
    (at ``t_start``, of ``cue_motion``), in the passes of the module docstring. ``inferred``:
    ball-ball contacts a first reading inferred from their effects alone
    (:func:`tracking.infer.unseen.unseen_contacts`): their times bound each ball's fits as a
    found contact's do, so that a cushion met within the same sample gap as such a contact is
    timed from its clean side (a sparse recorder: the cue ball meets a ball by a cushion and
    the cushion 34 ms later, inside one 40 ms report). ``memo``: a dict kept between the calls
    of one shot (same ``acts``, span, stroke, table and config): a close approach timed with the
    same bounds again is taken from it (the second reading, with ``inferred``, repeats most of
    the first: snooker break sample, 1.5 s of its 1.9 s end of clip)."""
    p = _Passes(acts, span, t_start, cue_motion, table, cfg, memo)
    from_rest = p.collisions_from_rest()
    known = [*from_rest, *inferred]
    alone = p.cushions(_times_by_ball(known), None)
    between_first = p.cushions(_times_by_ball(known), alone)
    between = p.collisions_between(from_rest, between_first, inferred)
    cushions = p.cushions(_times_by_ball([*between, *inferred]), between_first)
    collisions = _dedupe_collisions([x for x in between if x is not None], cfg.dedupe_s)
    collisions += p.nudges(collisions)
    found = _dedupe_cushions([x for x in cushions if x is not None], cfg.same_cushion_s)
    found += p.grazes(collisions, found)
    found += p.dying(found)
    return Contacts(tuple(collisions), tuple(found))


def without_pocket_openings(
    contacts: Contacts, zones: tuple[PocketZone, ...], cue: BallId, ball_radius_mm: float = 0.0
) -> Contacts:
    """On a table with pockets: no cushion contact in front of a pocket's opening (the nose line
    is broken there) but where the ball overlaps a nose point (within ``ball_radius_mm`` of it:
    it meets the jaw, a cushion contact: pooltool, scratch at 30 fps: the 2 into the foot
    cushion by the corner pocket, its centre 2 mm inside the opening), and no contact of two other
    balls before the cue ball's first (every ball rests until the cue ball sets it moving).
    Unchanged without pockets."""
    if not zones:
        return contacts
    cushions = [y for y in contacts.cushions if in_opening(zones, y.cushion, y.pos_mm, ball_radius_mm) is None]
    return Contacts(tuple(_after_the_cue_ball(list(contacts.collisions), cue)), tuple(cushions))


class _Passes:
    """The passes of one shot over its close approaches and cushion candidates."""

    def __init__(
        self,
        acts: Mapping[BallId, BallActivity],
        span: ShotSpan,
        t_start: float,
        cue_motion: Motion,
        table: TableSpec,
        cfg: InferenceConfig,
        memo: dict[tuple, Collision | None] | None = None,
    ) -> None:
        self.acts, self.span, self.t_start, self.cue_motion = acts, span, t_start, cue_motion
        self.memo: dict[tuple, Collision | None] = {} if memo is None else memo
        self.table, self.cfg, self.c = table, cfg, cfg.contact
        self.D = table.ball_diameter_mm
        self.moving = {m.ball for m in span.motions}
        self.balls = sorted(acts, key=lambda b: b.value)
        self.t0 = t_start - 1e-6
        self.t1 = span.t_end_s + 1e-6
        self.cue_onset = (cue_motion.ball, t_start, t_start)
        #: close approaches of two balls, one of them moving in the shot
        self.episodes: list[Episode] = []
        for a, b in combinations(self.balls, 2):
            if a in self.moving or b in self.moving:
                self.episodes.extend(pair_episodes(acts[a], acts[b], self.t0, self.t1, self.D, self.c))
        #: the episodes of two balls resting touching when they met (:func:`_resting_chain`)
        self.chain = {
            k
            for k, ep in enumerate(self.episodes)
            if _resting_chain(acts[ep.a], acts[ep.b], ep.t_lo_s, self.D + cfg.chain_gap_mm)
        }
        #: (ball, cushion, sample indices) where a moving ball may have met a cushion
        self.candidates: list[tuple[BallId, Cushion, list[int]]] = []
        for m in span.motions:
            for cu in Cushion:
                for g in cushion_candidates(acts[m.ball], m, cu, table, self.c):
                    self.candidates.append((m.ball, cu, g))

    def _collide(
        self,
        ep: Episode,
        struck_only: bool,
        others: Mapping[BallId, list[float]],
        exclude: Iterable[float] = (),
        hint: float | None = None,
    ) -> Collision | None:
        ex = list(exclude)
        others_a = list(others.get(ep.a, [])) + ex
        others_b = list(others.get(ep.b, [])) + ex
        # refine_pair is a pure function of these (the paths, table and config fixed per shot)
        key = (ep, struck_only, self.cue_onset, tuple(others_a), tuple(others_b), tuple(ex), hint)
        if key not in self.memo:
            self.memo[key] = refine_pair(
                self.acts[ep.a],
                self.acts[ep.b],
                ep,
                self.D,
                self.c,
                struck_terms_only=struck_only,
                cue_onset=self.cue_onset,
                others_a=others_a,
                others_b=others_b,
                exclude_s=ex,
                exclude_window_s=self.cfg.dedupe_s,
                t_hint_s=hint,
            )
        return self.memo[key]

    def collisions_from_rest(self) -> list[Collision | None]:
        """Pass 1: each close approach timed by its struck ball where it was at rest (None where
        that finds no contact), one per episode, in episode order."""
        return [self._collide(ep, True, {}) for ep in self.episodes]

    def cushions(
        self, bb_times: dict[BallId, list[float]], prev: Sequence[CushionContact | None] | None
    ) -> list[CushionContact | None]:
        """Passes 2, 3 and 5: each cushion candidate timed (None where it is no contact), with its
        fits inside the ball's ball-ball contacts (``bb_times``) and its contacts with the same
        or the opposite cushion in ``prev`` (None: unbounded, the first pass)."""
        res: list[CushionContact | None] = []
        for i, (ball, cu, g) in enumerate(self.candidates):
            act = self.acts[ball]
            s = act.samples
            lo_ref = float(s.t_s[min(g)])
            hi_ref = float(s.t_s[min(max(g) + 1, len(s) - 1)])
            bounds = (-math.inf, math.inf)
            if prev is not None:
                rel = list(bb_times.get(ball, []))
                # the ball's other contacts with this cushion or the opposite one (not this
                # candidate's own last timing: a contact does not bound itself)
                rel += [
                    p.t_s
                    for j, p in enumerate(prev)
                    if j != i and p is not None and p.ball is ball and p.cushion in (cu, OPPOSITE[cu])
                ]
                bounds = _bounds(rel, lo_ref, hi_ref)
            res.append(
                refine_cushion(
                    act,
                    cu,
                    g,
                    self.table,
                    self.c,
                    bounds[0],
                    bounds[1],
                    gap_events_s=bb_times.get(ball, []),
                    start_s=self.t_start if ball is self.cue_motion.ball else -math.inf,
                )
            )
        return res

    def collisions_between(
        self,
        from_rest: list[Collision | None],
        cushions: list[CushionContact | None],
        inferred: Sequence[Collision] = (),
    ) -> list[Collision | None]:
        """Pass 4: every close approach's contacts with their fits inside each ball's other
        contacts (``cushions``, the other episodes' ``from_rest`` contacts and the ``inferred``
        ones of other pairs); up to three per episode where the balls met again."""
        out: list[Collision | None] = []
        for k, ep in enumerate(self.episodes):
            others = self._others(k, from_rest, cushions, inferred, chain=True)
            hint0 = from_rest[k]
            found = self._episode_contacts(ep, others, hint0)
            passed = (
                [] if found else [y.t_s for j, y in enumerate(from_rest) if y is not None and self._passed_on(k, j, y)]
            )
            if passed:
                # the chain's contacts left the fits no room: the blow it passed on is timed
                # without them, and is one only within dedupe_s of them (they follow it within a
                # millisecond; synthetic nine-ball break at 30 fps: a contact of the cue ball
                # with a second-row ball 34 ms before the apex's, where there is none)
                again = self._episode_contacts(ep, self._others(k, from_rest, cushions, inferred, chain=False), hint0)
                found = [x for x in again if min(abs(x.t_s - t) for t in passed) <= self.cfg.dedupe_s]
            out.extend(found)
        return out

    def _others(
        self,
        k: int,
        from_rest: list[Collision | None],
        cushions: list[CushionContact | None],
        inferred: Sequence[Collision],
        chain: bool,
    ) -> dict[BallId, list[float]]:
        """Each ball's other contact times that bound episode ``k``'s fits: the cushions, the
        ``inferred`` contacts of other pairs and the other episodes' ``from_rest`` ones (without
        those a resting chain passed on from ``k`` unless ``chain``)."""
        ep = self.episodes[k]
        others: dict[BallId, list[float]] = {}
        for hit in cushions:
            if hit is not None:
                others.setdefault(hit.ball, []).append(hit.t_s)
        for z in inferred:
            if set(z.balls) != {ep.a, ep.b}:
                for ball in z.balls:
                    others.setdefault(ball, []).append(z.t_s)
        for j, y in enumerate(from_rest):
            if y is not None and j != k and (chain or not self._passed_on(k, j, y)):
                for ball in y.balls:
                    others.setdefault(ball, []).append(y.t_s)
        return others

    def _episode_contacts(
        self, ep: Episode, others: dict[BallId, list[float]], hint0: Collision | None
    ) -> list[Collision]:
        """The contacts of one close approach, up to three where the balls met again."""
        # an episode may hold more than one contact of the pair (a kiss: struck, then met again)
        out: list[Collision] = []
        found: list[float] = []
        for _ in range(3):
            x = self._collide(ep, False, others, found, None if found or hint0 is None else hint0.t_s)
            if x is None or (
                found
                and not _met_again(
                    self.acts[ep.a], self.acts[ep.b], found, x.t_s, others.get(ep.a, []) + others.get(ep.b, [])
                )
            ):
                break
            out.append(x)
            found.append(x.t_s)
        return out

    def _passed_on(self, k: int, j: int, y: Collision) -> bool:
        """Whether contact ``y`` (of episode ``j``) is the blow of episode ``k`` passed on through
        a resting chain: ``j`` is a chain's contact, shares a ball with ``k`` (not itself a
        chain's), and is timed within ``k``'s close approach."""
        if j not in self.chain or k in self.chain:
            return False
        ep = self.episodes[k]
        return bool({ep.a, ep.b} & set(y.balls)) and ep.t_lo_s <= y.t_s <= ep.t_hi_s

    def nudges(self, collisions: list[Collision]) -> list[Collision]:
        """Contacts that show only as a resting ball's small shift (a thin touch), where the pair
        has no contact found within ``ContactConfig.nudge_window_s``."""
        out: list[Collision] = []
        for a, b in combinations(self.balls, 2):
            for struck, striker in ((a, b), (b, a)):
                if striker not in self.moving:
                    continue
                for x in nudges(self.acts[struck], self.acts[striker], self.t0, self.t1, self.D, self.c):
                    if not any(
                        set(y.balls) == {a, b} and abs(y.t_s - x.t_s) < self.c.nudge_window_s for y in collisions + out
                    ):
                        out.append(x)
        return out

    def grazes(self, collisions: list[Collision], cushions: list[CushionContact]) -> list[CushionContact]:
        """Cushion contacts that show as a graze (a ball running along a cushion, barely turned),
        each cushion of each motion in turn, seeing those found before it."""
        out: list[CushionContact] = []
        for m in self.span.motions:
            for cu in Cushion:
                found = cushions + out
                others = [x.t_s for x in collisions if m.ball in x.balls]
                others += [x.t_s for x in found if x.ball is m.ball and x.cushion is not cu]
                same = [x.t_s for x in found if x.ball is m.ball and x.cushion is cu]
                out.extend(graze_contacts(self.acts[m.ball], m, cu, self.table, self.c, others, same))
        return out

    def dying(self, cushions: list[CushionContact]) -> list[CushionContact]:
        """A ball that rolls to rest against a cushion touched it, unless a contact with that
        cushion was already found within ``ContactConfig.max_fit_span_s`` of its last motion."""
        out: list[CushionContact] = []
        for m in self.span.motions:
            dying = dying_contact(self.acts[m.ball], m, self.table, self.c)
            if dying is None:
                continue
            t_last = float(self.acts[m.ball].samples.t_s[m.i_last])
            if not any(
                x.ball is m.ball and x.cushion is dying.cushion and x.t_s >= t_last - self.c.max_fit_span_s
                for x in cushions + out
            ):
                out.append(dying)
        return out


def _times_by_ball(found: Iterable[Collision | None]) -> dict[BallId, list[float]]:
    """Each ball's ball-ball contact times."""
    out: dict[BallId, list[float]] = {}
    for x in found:
        if x is not None:
            for ball in x.balls:
                out.setdefault(ball, []).append(x.t_s)
    return out


def _bounds(times: Iterable[float], lo_ref: float, hi_ref: float) -> tuple[float, float]:
    """The latest of ``times`` before ``lo_ref`` and the earliest after ``hi_ref`` (unbounded
    where none). One timed at ``lo_ref`` itself, the sample that opens the gap, counts too and
    bounds the fits just before that sample (:data:`AT_SAMPLE_S`): that report is the junction
    of the paths before and after the contact, so the fits keep it and leave out what lies
    before it (25 Hz: a contact timed at the report before a cushion contact 37 ms later let the
    cushion's fit run back across it). One at ``hi_ref`` does not: the cushion's fit then keeps
    the path through that report (pooltool kiss at 30 fps: the kiss timed at the red's report
    after its cushion; bounding there lost both)."""
    ts = list(times)
    lo = max((t for t in ts if t <= lo_ref), default=-math.inf)
    hi = min((t for t in ts if t > hi_ref), default=math.inf)
    return (lo - AT_SAMPLE_S if lo == lo_ref else lo), hi


def _dedupe_cushions(found: list[CushionContact], dt: float) -> list[CushionContact]:
    """Contacts of one ball with one cushion within ``dt`` of each other merged: the most
    confident kept, in time order."""
    out: list[CushionContact] = []
    for c in sorted(found, key=lambda c: c.t_s):
        dup = next((o for o in out if o.ball is c.ball and o.cushion is c.cushion and abs(o.t_s - c.t_s) <= dt), None)
        if dup is None:
            out.append(c)
        elif c.confidence > dup.confidence:
            out[out.index(dup)] = c
    return out


def _dedupe_collisions(found: list[Collision], dt: float) -> list[Collision]:
    """Contacts of one pair within ``dt`` of each other merged: the most confident kept, in time
    order."""
    out: list[Collision] = []
    for c in sorted(found, key=lambda c: c.t_s):
        dup = next((o for o in out if set(o.balls) == set(c.balls) and abs(o.t_s - c.t_s) <= dt), None)
        if dup is None:
            out.append(c)
        elif c.confidence > dup.confidence:
            out[out.index(dup)] = c
    return out


def _met_again(
    act_a: BallActivity, act_b: BallActivity, found: list[float], t_s: float, others: Iterable[float]
) -> bool:
    """Whether two balls that touched at the times ``found`` can have met again at ``t_s``.
    After a contact they draw apart; to meet once more something must turn one of them back:
    another contact of either ball in between (a cushion, a third ball), or else their sampled
    centres must be seen drawing apart and then closer (by more than :data:`APART_MM`)."""
    near = min(found, key=lambda t: abs(t - t_s))
    lo, hi = min(near, t_s), max(near, t_s)
    if any(lo < o < hi for o in others):
        return True
    ts = np.union1d(act_a.samples.t_s, act_b.samples.t_s)
    ts = ts[(ts > lo) & (ts < hi)]
    if len(ts) < 3:
        return False
    pa, _ = positions_at(act_a, ts)
    pb, _ = positions_at(act_b, ts)
    d = np.linalg.norm(pa - pb, axis=1)
    k = int(np.argmax(d))
    return bool(d[k] - d[0] > APART_MM and d[k] - d[-1] > APART_MM)


def _resting_chain(act_a: BallActivity, act_b: BallActivity, t_s: float, within_mm: float) -> bool:
    """Whether both balls rest at ``t_s`` (inside a rest run) with centres within ``within_mm``."""
    pos = []
    for act in (act_a, act_b):
        run = next((r for r in act.runs if r.t_first_s <= t_s <= r.t_last_s), None)
        if run is None:
            return False
        pos.append(run.pos_mm)
    return math.dist(pos[0], pos[1]) <= within_mm


def _after_the_cue_ball(collisions: list[Collision], cue: BallId) -> list[Collision]:
    """Every ball rests until the cue ball sets it moving, so no contact of two other balls
    precedes the cue ball's first contact: a contact timed before it (balls of a rack touching,
    each contact within a millisecond of the next) is moved to just after it."""
    first = min((x.t_s for x in collisions if cue in x.balls), default=None)
    if first is None:
        return collisions
    out = []
    for x in collisions:
        if cue not in x.balls and x.t_s <= first:
            x = Collision(x.balls, first + 1e-6, x.pos_mm, x.confidence)
        out.append(x)
    return out
