"""The verdict of one 14.1 shot from its events, before the match bookkeeping: pure, so the evidence
review (:mod:`rules.core.evidence`) can re-judge it with doubtful events dropped or swapped.

Order of the questions (004):

1. The call (004 art. 1, 7.1): the referee's ``called`` ball and pocket, or a ``safety``
   (art. 7.4); with neither and ``calls`` "assume", the first object ball pocketed is taken as
   called in the pocket it entered (the reason says so).
2. Fouls the log shows: the cue ball pocketed or off the table (art. 10), an object ball off the
   table (art. 9), no object ball touched, or after the contact no ball pocketed and none to a
   cushion (art. 7.2); with ball in hand behind the head string (art. 10 and the General Rules of
   the preamble) the cue ball played from in front of the string, or first striking a ball behind
   the string without having crossed it (a cue-ball cushion contact beyond the string before the
   first contact); plus the fouls the referee declares, less those he overrules.
3. The opening break (art. 6): legal if the called ball goes into the called pocket, or if the cue
   ball touches a ball and then a cushion and two object balls touch a cushion. Otherwise a
   breaking violation: -2, not a foul for the successive-foul rule; any foul on the same shot is
   absorbed by it. A legal break with a foul (e.g. the cue ball pocketed) is a foul: -1, counted.
4. A foul: -1 (art. 11); an intentional foul -1 and 15 more (art. 7.5); the third successive foul
   -1 and 15 more (art. 12); both when both; the frozen-ball rule not met (art. 7.2 note): treated as
   a third successive foul plus a point for each previous foul. Balls pocketed on a foul are
   spotted and do not score (art. 13).
5. No foul: a safety ends the inning, balls pocketed on it are spotted (art. 7.4); the called ball
   in the called pocket scores a point and each other ball pocketed one more (art. 5, 7.1); else
   the inning ends and any ball pocketed is spotted with no penalty (art. 8).

``Decision.points`` is the shooter's points for the shot: balls scored (> 0) or a penalty (< 0).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from enum import Enum
from typing import cast

from rules.core.pool_shot import PocketedBall, PoolShotFacts
from rules.core.words import and_list
from rules.straight_pool.fouls import StraightPoolFoul as F
from rules.straight_pool.inputs import CalledShot, ShotInput
from rules.straight_pool.state import CallsMode, StraightPoolState
from tracking.events import CushionHit, Event, OffTable
from tracking.ids import BallId

__all__ = [
    "INTENTIONAL_PENALTY",
    "THIRD_FOUL_PENALTY",
    "BREAKING_PENALTY",
    "Kind",
    "FoulFound",
    "Decision",
    "describe_outcome",
    "camera_fouls",
    "decide",
]

INTENTIONAL_PENALTY = 15  # 004 art. 7.5: one point for the foul and fifteen more
THIRD_FOUL_PENALTY = 15  # 004 art. 12: one point and fifteen more on the third successive foul
BREAKING_PENALTY = 2  # 004 art. 6


class Kind(Enum):
    POT = "pot"  # legal, the call made: points, the inning goes on
    MISS = "miss"  # legal, the call not made: the inning ends
    SAFETY = "safety"  # legal announced safety: the inning ends
    FOUL = "foul"
    BREAKING_VIOLATION = "breaking_violation"


@dataclass(frozen=True)
class FoulFound:
    foul: F
    text: str  # a clause after "Foul: ", with its article
    basis: tuple[tuple[Event, str], ...] = ()


@dataclass(frozen=True)
class Decision:
    """See the module docstring. ``scored``: balls that count; ``spotted``: object balls pocketed
    or off the table that go back on the table; ``counted_foul``: the foul enters the successive
    foul record (004 art. 12)."""

    kind: Kind
    points: int
    fouls: tuple[FoulFound, ...]
    scored: tuple[BallId, ...]
    spotted: tuple[BallId, ...]
    call: CalledShot | None
    call_assumed: bool
    scratch: bool
    intentional: bool
    third_foul: bool
    frozen_rule: bool
    reason: str
    basis: tuple[tuple[Event, str], ...]

    @property
    def outcome(self) -> Hashable:
        return (self.kind.value, self.points, self.fouls[0].foul.value if self.fouls else None)

    @property
    def counted_foul(self) -> bool:
        return self.kind is Kind.FOUL

    @property
    def primary_foul(self) -> F | None:
        if self.kind is Kind.BREAKING_VIOLATION:
            return F.BREAKING_VIOLATION
        return self.fouls[0].foul if self.fouls else None


def describe_outcome(o: Hashable) -> str:
    assert isinstance(o, tuple)
    kind, points, foul = o
    if foul is not None:
        return f"{'a breaking violation' if kind == Kind.BREAKING_VIOLATION.value else 'a foul'} ({foul}, {points})"
    if kind == Kind.POT.value:
        return f"{points} point" + ("" if points == 1 else "s")
    return "a safety" if kind == Kind.SAFETY.value else "a miss"


def _balls(bs: tuple[BallId, ...] | list[BallId]) -> str:
    return and_list([b.value for b in bs])


def camera_fouls(state: StraightPoolState, facts: PoolShotFacts) -> list[FoulFound]:
    """The fouls the event log shows, in order of precedence (see the module docstring)."""
    out: list[FoulFound] = []
    geo = state.geometry
    for p in facts.pocketed:
        if p.ball is facts.cue_ball:
            out.append(
                FoulFound(
                    F.CUE_BALL_POCKETED,
                    f"the cue ball was pocketed ({p.pocket.value}) (004 art. 10, 11)",
                    ((p.event, "cue ball pocketed"),),
                )
            )
    if facts.cue_ball_off_table:
        ev = next(e for e in facts.events if getattr(e, "ball", None) is facts.cue_ball and e.kind.value == "off_table")
        out.append(
            FoulFound(
                F.CUE_BALL_OFF_TABLE, "the cue ball left the table (004 art. 10, 11)", ((ev, "cue ball off the table"),)
            )
        )
    off = facts.object_balls_off_table
    if off:
        evs = tuple(
            (e, f"{cast(OffTable, e).ball.value} off the table")
            for e in facts.events
            if e.kind.value == "off_table" and getattr(e, "ball", None) in off
        )
        out.append(FoulFound(F.BALL_OFF_TABLE, f"the {_balls(off)} left the table (004 art. 9)", evs))
    if state.ball_in_hand:
        cue_at = facts.positions_before.get(facts.cue_ball)
        if cue_at is not None and not geo.behind(cue_at):
            out.append(
                FoulFound(
                    F.CUE_BALL_NOT_BEHIND_HEAD_STRING,
                    f"with ball in hand behind the head string the cue ball was played from x = {cue_at[0]:.0f} mm, "
                    f"not behind the string (x < {geo.head_string_mm:.0f} mm) (004 art. 10; General Rules, preamble)",
                )
            )
    if facts.first_contact is None:
        out.append(FoulFound(F.NO_CONTACT, "the cue ball touched no object ball (004 art. 7.2)"))
        return out
    first_ev = facts.first_contact_event
    assert first_ev is not None
    if state.ball_in_hand and facts.cue_ball in facts.positions_before:
        ob_at = facts.positions_before.get(facts.first_contact)
        crossed = any(
            isinstance(e, CushionHit) and e.ball is facts.cue_ball and e.t_s < first_ev.t_s and not geo.behind(e.pos_mm)
            for e in facts.events
        )
        if ob_at is not None and geo.behind(ob_at) and not crossed:
            out.append(
                FoulFound(
                    F.BALL_BEHIND_HEAD_STRING,
                    f"with ball in hand behind the head string the cue ball first struck the {facts.first_contact.value}, "
                    f"behind the string (x = {ob_at[0]:.0f} mm < {geo.head_string_mm:.0f} mm), without first crossing it "
                    "(004 art. 10; General Rules, preamble)",
                    ((first_ev, f"first contact: {facts.first_contact.value}, behind the head string"),),
                )
            )
    if not facts.object_balls_pocketed and not facts.rail_after_contact:
        out.append(
            FoulFound(
                F.NO_RAIL_AFTER_CONTACT,
                f"after the contact with the {facts.first_contact.value} no ball was pocketed and no ball reached a "
                "cushion (004 art. 7.2)",
                ((first_ev, f"first contact: {facts.first_contact.value}"),),
            )
        )
    return out


@dataclass(frozen=True)
class _Shot:
    """What every case of :func:`decide` reads: the call (given or assumed) and whether it was
    made, the balls to spot, the fouls found, the evidence, and the words opening the reason."""

    state: StraightPoolState
    facts: PoolShotFacts
    si: ShotInput
    pocketed_obj: tuple[PocketedBall, ...]
    call: CalledShot | None
    assumed: bool
    made: bool
    spotted_all: tuple[BallId, ...]
    fouls: tuple[FoulFound, ...]
    basis: tuple[tuple[Event, str], ...]
    call_text: str

    @property
    def intentional(self) -> bool:
        return any(f.foul is F.INTENTIONAL for f in self.fouls)

    def make(
        self,
        kind: Kind,
        points: int,
        fs: list[FoulFound] | tuple[FoulFound, ...],
        scored: tuple[BallId, ...],
        spotted: tuple[BallId, ...],
        reason: str,
        third: bool = False,
        frozen: bool = False,
    ) -> Decision:
        return Decision(
            kind=kind,
            points=points,
            fouls=tuple(fs),
            scored=scored,
            spotted=spotted,
            call=self.call,
            call_assumed=self.assumed,
            scratch=self.facts.scratch,
            intentional=self.intentional,
            third_foul=third,
            frozen_rule=frozen,
            reason=self.call_text + reason,
            basis=self.basis + tuple(b for f in fs for b in f.basis),
        )


def _the_call(
    state: StraightPoolState, facts: PoolShotFacts, si: ShotInput, pocketed_obj: list[PocketedBall]
) -> tuple[CalledShot | None, bool, str]:
    """004 art. 1: the called ball and pocket; with calls "assume", the first ball pocketed is taken
    as called where none is given; a safety (art. 7.4) calls nothing. Also the reason's opening."""
    call, assumed = si.called, False
    if call is None and not si.safety and state.calls is CallsMode.ASSUME and pocketed_obj:
        call, assumed = CalledShot(pocketed_obj[0].ball, pocketed_obj[0].pocket), True
    call_text = ""
    if call is not None:
        call_text = (
            f"No call was given: the {call.ball.value}, the first ball pocketed, is taken as called in the "
            f"{call.pocket.value} pocket it entered (004 art. 1). "
            if assumed
            else f"Called: the {call.ball.value} in the {call.pocket.value} pocket. "
        )
    elif si.safety:
        call_text = "Safety announced (004 art. 7.4). "
    return call, assumed, call_text


def _judged_fouls(state: StraightPoolState, facts: PoolShotFacts, si: ShotInput) -> tuple[FoulFound, ...]:
    """The referee's fouls (an intentional foul ruled, 004 art. 7.5) first, then the camera's not
    overruled; one of each."""
    camera = [f for f in camera_fouls(state, facts) if f.foul not in si.overrule]
    declared = [FoulFound(f, f"{f.info.description}, declared by the referee ({f.info.articles})") for f in si.fouls]
    if si.intentional and F.INTENTIONAL not in si.fouls:
        declared.append(
            FoulFound(F.INTENTIONAL, f"{F.INTENTIONAL.info.description}, ruled by the referee (004 art. 7.5)")
        )
    fouls: list[FoulFound] = []
    for f in declared + camera:
        if all(g.foul is not f.foul for g in fouls):
            fouls.append(f)
    return tuple(fouls)


def _opening_break(s: _Shot) -> Decision | str:
    """004 art. 6: the opening break must pocket the called ball, or send the cue ball and two
    object balls to a cushion; otherwise a breaking violation (art. 6, 8: the balls pocketed are
    spotted). Returns the violation, or the words that open a legal break's reason."""
    facts, si, call = s.facts, s.si, s.call
    req_call = s.made
    cue_rail = facts.first_contact is not None and facts.cue_ball in facts.cushions_after_contact
    n_rail = len(facts.object_balls_to_cushion)
    req_rails = cue_rail and n_rail >= 2
    forced = F.BREAKING_VIOLATION in si.fouls
    if forced or not (req_call or req_rails):
        if forced:
            why = "declared by the referee"
        elif facts.first_contact is None:
            why = "the cue ball touched no ball"
        else:
            parts = []
            if call is not None:
                parts.append(f"the called {call.ball.value} did not go into the {call.pocket.value}")
            elif not si.safety:
                parts.append("no ball was called and pocketed")
            if not cue_rail:
                parts.append("the cue ball reached no cushion after the contact")
            if n_rail < 2:
                parts.append(f"{n_rail} object ball{'' if n_rail == 1 else 's'} reached a cushion, not 2")
            why = "; ".join(parts)
        others = [f for f in s.fouls if f.foul is not F.BREAKING_VIOLATION]
        text = (
            f"Breaking violation (004 art. 6): {why}; {BREAKING_PENALTY} points off, not a foul for the "
            "successive-foul rule (004 art. 6)"
        )
        if others:
            text += "; the " + ", ".join(f.foul.value for f in others) + " on the same shot is absorbed by it"
        spotted_all = s.spotted_all
        if spotted_all:
            text += f"; the {_balls(spotted_all)} pocketed on it {'is' if len(spotted_all) == 1 else 'are'} spotted (004 art. 8)"
        return s.make(Kind.BREAKING_VIOLATION, -BREAKING_PENALTY, others, (), spotted_all, text)
    how = (
        f"the called {call.ball.value} went into the {call.pocket.value}"
        if req_call and call is not None
        else f"the cue ball reached a cushion after the contact and {n_rail} object balls reached a cushion"
    )
    return f"Legal opening break (004 art. 6): {how}. "


def _foul(s: _Shot) -> Decision:
    """004 art. 11 (one point off), 7.5 (15 more for an intentional foul), 12 (15 more for a third
    successive foul), 7.2 note (the frozen-ball rule: a third foul, and one per previous foul),
    9 and 13 (the balls pocketed are spotted)."""
    fouls, intentional, spotted_all = s.fouls, s.intentional, s.spotted_all
    prior = s.state.player.consecutive_fouls
    frozen = any(f.foul is F.FROZEN_BALL_RULE for f in fouls)
    third = frozen or prior >= 2
    points = (
        -1
        - (INTENTIONAL_PENALTY if intentional else 0)
        - (THIRD_FOUL_PENALTY if third else 0)
        - (prior if frozen else 0)
    )
    primary, rest = fouls[0], fouls[1:]
    text = f"Foul: {primary.text}"
    for f in rest:
        text += f"; also {f.text}"
    text += "; one point off (004 art. 11)"
    if intentional:
        text += f", and {INTENTIONAL_PENALTY} more for the intentional foul (004 art. 7.5)"
    if frozen:
        text += (
            f", treated as a third successive foul: {THIRD_FOUL_PENALTY} more and one for each of the "
            f"{prior} previous foul{'' if prior == 1 else 's'} (004 art. 7.2 note)"
        )
    elif third:
        text += f", and {THIRD_FOUL_PENALTY} more for the third successive foul (004 art. 12)"
    if spotted_all:
        text += (
            f"; the {_balls(spotted_all)} {'is' if len(spotted_all) == 1 else 'are'} spotted, "
            "not scored (004 art. 9, 13)"
        )
    return s.make(Kind.FOUL, points, list(fouls), (), spotted_all, text, third=third, frozen=frozen)


def _safety(s: _Shot) -> Decision:
    """004 art. 7.4: a legal safety ends the inning; the balls pocketed on it are spotted."""
    text = "Legal safety: the inning ends (004 art. 7.4)"
    if s.spotted_all:
        text += (
            f"; the {_balls(s.spotted_all)} pocketed on it {'is' if len(s.spotted_all) == 1 else 'are'} "
            "spotted (004 art. 7.4)"
        )
    return s.make(Kind.SAFETY, 0, [], (), s.spotted_all, text)


def _pot(s: _Shot) -> Decision:
    """004 art. 1, 5, 7.1: the called ball in the called pocket scores 1, and every other ball
    pocketed on the same legal shot one more."""
    call = s.call
    assert call is not None
    scored = tuple(p.ball for p in s.pocketed_obj)
    extra = [b for b in scored if b is not call.ball]
    text = (
        f"The {call.ball.value} went into the {call.pocket.value}{'' if s.assumed else ' as called'}: "
        "1 point (004 art. 1, 5, 7.1)"
    )
    if extra:
        text += f", and {len(extra)} more for the {_balls(extra)} pocketed on the same legal shot (004 art. 7.1)"
    return s.make(Kind.POT, len(scored), [], scored, (), text)


def _miss(s: _Shot) -> Decision:
    """004 art. 1 (no call made: the inning ends), 8 (the balls pocketed are spotted, no penalty)."""
    call, spotted_all = s.call, s.spotted_all
    if call is None:
        text = (
            'No ball was called (match calls "required"): nothing scores, the inning ends (004 art. 1)'
            if s.pocketed_obj
            else "No ball pocketed: the inning ends (004 art. 1)"
        )
    else:
        where = s.facts.pocket_of(call.ball)
        text = (
            f"The called {call.ball.value} went into the {where.value}, not the {call.pocket.value}"
            if where
            else f"The called {call.ball.value} was not pocketed"
        ) + ": the inning ends (004 art. 1)"
    if spotted_all:
        text += (
            f"; the {_balls(spotted_all)} pocketed {'is' if len(spotted_all) == 1 else 'are'} spotted, "
            "no penalty (004 art. 8)"
        )
    return s.make(Kind.MISS, 0, [], (), spotted_all, text)


def decide(state: StraightPoolState, facts: PoolShotFacts, si: ShotInput) -> Decision:
    """The verdict of the shot ``facts`` for the player at the table of ``state`` (pending choices
    and racks already resolved), with the referee's input ``si``: the opening break (004 art. 6),
    else a foul (11, 12, 7.5), a safety (7.4), a pot (1, 7.1) or a miss (1, 8)."""
    pocketed_obj = [p for p in facts.pocketed if p.ball is not facts.cue_ball]
    call, assumed, call_text = _the_call(state, facts, si, pocketed_obj)
    made = call is not None and not si.safety and facts.pocket_of(call.ball) is call.pocket
    spotted_all = tuple(dict.fromkeys([p.ball for p in pocketed_obj] + list(facts.object_balls_off_table)))
    basis: list[tuple[Event, str]] = []
    if facts.first_contact_event is not None:
        basis.append((facts.first_contact_event, f"first contact: {facts.first_contact.value}"))  # type: ignore[union-attr]
    for p in pocketed_obj:
        basis.append((p.event, f"{p.ball.value} pocketed ({p.pocket.value})"))
    s = _Shot(
        state,
        facts,
        si,
        tuple(pocketed_obj),
        call,
        assumed,
        made,
        spotted_all,
        _judged_fouls(state, facts, si),
        tuple(basis),
        call_text,
    )
    if state.opening_break and not s.intentional:
        opened = _opening_break(s)
        if isinstance(opened, Decision):
            return opened
        s = replace(s, call_text=opened + s.call_text)
    if s.fouls:
        return _foul(s)
    if si.safety:
        return _safety(s)
    if made:
        return _pot(s)
    return _miss(s)
