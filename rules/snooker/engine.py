"""The snooker engine (002 "Reglamento snooker" ART 1-2): shots of the event log in, calls and the
next :class:`SnookerState` out, purely.

Per stroke: who plays it (the player at the table; after a foul the non-offender's choice, referee
input ``choice``, default ``play``; the draw at a re-spotted black, ``plays_first``; a stroke out
of turn, ART 2.2.15, was the other player's), the verdict (:func:`rules.snooker.decide.decide`),
then the state moves: points to the striker or the penalty to the opponent (ART 2.1), reds that
went down stay down, colours go back while reds remain or when potted on a foul
(:mod:`rules.snooker.spots`, ART 1.6, 1.8, 2.2.6), the ball on (ART 1.6), the break, and the end
of the frame: the black potted in the end sequence (ART 1.6), the higher score winning (ART 1.4).
The document does not say what a tie does: the world rules' re-spotted black decides it (the black
on its spot, the cue ball in hand in the D, the first score or foul ends the frame). A match is
best of N frames (a race, :class:`rules.core.racks.RaceConfig`), break-offs alternating by default.

Call conventions: ``points`` is the striker's points for the stroke (0 on a foul); a foul's
penalty goes to the opponent and is in ``details`` as ``penalty`` and ``penalty_to``; ``score`` is
the running score of the frame (at the frame's end, its final score). A whole match is judged from
a new match with no referee input: the first stroke of each frame is its break-off, and the reds
of a frame are read from the break-off's shot start positions where it names them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from rules.core.after_match import after_match_call
from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.errors import ShotError
from rules.core.evidence import review_shot
from rules.core.games import Game
from rules.core.pool_shot import not_struck_call, struck_object_ball, unseen_first_contact_doubt
from rules.core.shot_check import check_pool_shot
from rules.core.table import TableSpots
from rules.snooker.balls import FULL_REDS, NAMED_REDS, SNOOKER_BALLS, BallOn, is_colour, is_red, next_in_sequence
from rules.snooker.decide import Decision, ShotContext, check_shot_balls, decide, decide_events, describe_outcome, read
from rules.snooker.extras import SnookerExtras
from rules.snooker.fouls import SnookerFoul
from rules.snooker.inputs import (
    Choice,
    SnookerInput,
    SnookerInputError,
    SnookerSetup,
    SnookerShotInput,
    initial_state,
    parse_snooker_input,
)
from rules.snooker.sheet import format_score_sheet, score_sheet
from rules.snooker.spots import STANDARD, Respot, SnookerSpots, respot_colours
from rules.snooker.state import FrameRecord, SnookerState
from tracking.events import BallBall, OffTable, Pocketed, Shot
from tracking.ids import BallId

__all__ = ["cite", "SnookerEngine", "make_engine"]


@dataclass(frozen=True)
class _Who:
    shooter: int
    sentences: tuple[str, ...]
    choice: Choice | None


_ART = re.compile(r"(?<![\w.])ART (?=\d)")


def cite(text: str) -> str:
    """The reason with every article named in full: "ART 2.2.1" is article 2.2.1 of the
    federation's snooker rules in 002 ("002 snooker ART 2.2.1"), since 002 also holds the
    eight-ball, nine-ball and carom regulations, each with its own ART numbers."""
    return _ART.sub("002 snooker ART ", text)


@dataclass(frozen=True)
class SnookerEngine:
    """Snooker (see the module docstring); ``config`` decides when a call needs review."""

    game: Game = Game.SNOOKER
    config: JudgeConfig = field(default_factory=JudgeConfig)
    #: the colours' spots of the table played on (the standard 12 ft table's by default)
    spots: SnookerSpots = STANDARD
    #: below this shot-start confidence an object ball moving first is not called ART 2.2.8
    MIN_STRUCK_CONFIDENCE: ClassVar[float] = 0.5

    # -- the protocol ---------------------------------------------------------------------------
    def initial_state(self, setup: SnookerSetup | None = None) -> SnookerState:
        return initial_state(setup)

    def parse_input(self, obj: Any, where: str = "referee input") -> SnookerInput:
        return parse_snooker_input(obj, where)

    def score_sheet(self, state: SnookerState) -> dict[str, Any]:
        return score_sheet(state)

    def balls_on_table(self, state: SnookerState) -> frozenset[BallId] | None:
        """The cue ball, ``state``'s reds (as many of the named reds; the tracker counts reds, it
        cannot tell one from another) and its colours (ART 1.6: respotted while reds remain)."""
        return frozenset(NAMED_REDS[: state.reds]) | frozenset(state.colours) | {BallId.CUE}

    def format_score_sheet(self, state: SnookerState) -> str:
        return format_score_sheet(state)

    def judge_shot(
        self, state: SnookerState, shot: Shot, shot_input: SnookerShotInput | None = None
    ) -> tuple[Call, SnookerState]:
        if not isinstance(state, SnookerState):
            raise ShotError(f"the snooker engine needs a SnookerState, got {type(state).__name__}")
        check_shot_balls(shot)
        check_pool_shot(shot, SNOOKER_BALLS, self.game.value, "002 snooker ART 1.3")
        si = shot_input or SnookerShotInput()
        n = shot.number
        if state.match_over:
            return self._after_match(state, shot, si), replace(state, shots=state.shots + 1)
        moved = struck_object_ball(shot)
        if (
            moved is not None
            and not si.fouls
            and shot.start is not None
            and shot.start.confidence < self.MIN_STRUCK_CONFIDENCE
        ):
            # ART 2.2.8 (a ball other than the cue ball played) costs 7 points: not called from a
            # shot start the tracker itself doubts (a packed rack's reds trading places read as one
            # moving), but left to the referee
            return (
                not_struck_call(
                    shot, self.game, state.players[state.at_table], state.score, moved, "002 snooker ART 2.2.8", si.note
                ),
                replace(state, shots=state.shots + 1),
            )
        st = state
        notes: list[str] = []
        doubts: list[str] = []
        start, end = shot.start, shot.end
        positions = dict(start.positions) if start is not None else {}
        if st.next_is_break:
            notes.append(
                f"Break-off of frame {st.frame}: {st.players[st.at_table]} plays from the D at a red (ART 1.5)"
            )
            reds = [b for b in positions if is_red(b)]
            if reds and BallId.RED not in positions and len(reds) != st.reds:
                st = replace(st, reds=len(reds))
                notes.append(f"The break-off's positions show {len(reds)} reds (ART 1.3 sets out {FULL_REDS})")
        elif positions:
            doubts.extend(_table_mismatch(st, positions))
        who = self._who(st, si, n)
        ctx = self._context(st, si, n)
        reading = read(shot)
        d = decide(ctx, reading)
        doubts.extend(reading.doubts)
        unseen = unseen_first_contact_doubt(reading.facts)
        if unseen is not None:
            doubts.append(unseen)  # ART 2.2.3 (no ball hit) rests on a contact not seen
        for b in reading.potted + reading.off:
            if is_colour(b) and b not in st.colours:
                doubts.append(f"the log has the {b.value} going down, but it is not on the table")
        if d.reds_down > st.reds:
            doubts.append(f"the log has {d.reds_down} reds going down, but {st.reds} were on the table")
        if start is None:
            doubts.append("the log has no shot_start for this shot")
        if end is None:
            doubts.append("the log ends before the balls came to rest")
        # the verdict reads only the cue ball's contacts, pockets and balls off the table (no rail
        # rule in snooker): the review perturbs those alone, which is exact and keeps it fast
        cue = start.cue_ball if start is not None else BallId.CUE
        mids = [
            e
            for e in shot.events
            if isinstance(e, (Pocketed, OffTable)) or (isinstance(e, BallBall) and cue in e.balls)
        ]
        review = review_shot(
            lambda evs: decide_events(ctx, shot, evs).outcome,
            mids,
            d.basis,
            self.config,
            describe_outcome,
            start=start,
            near_misses=shot.near_misses,
        )
        return self._apply(st, shot, si, who, d, notes, doubts, review)

    # -- who plays, and what the referee said ----------------------------------------------------
    def _who(self, st: SnookerState, si: SnookerShotInput, n: int) -> _Who:
        names = st.players
        shooter = st.at_table
        out: list[str] = []
        choice = None
        if st.lot_pending:
            if si.plays_first is not None:
                shooter = names.index(si.plays_first)
                out.append(f"Re-spotted black: {names[shooter]} plays first, having won the draw")
            else:
                out.append(
                    f"Re-spotted black: no referee input named who won the draw (plays_first), so "
                    f"{names[shooter]} plays first"
                )
        elif si.plays_first is not None:
            raise SnookerInputError(
                f"shot {n}: plays_first is for the first stroke of a re-spotted black, but "
                f"frame {st.frame} is not on one"
            )
        if st.fouler is not None:
            offender, chooser = st.fouler, 1 - st.fouler
            choice = si.choice or Choice.PLAY
            if choice is Choice.OPPONENT_SHOOTS:
                if si.free_ball:
                    raise SnookerInputError(
                        f"shot {n}: a free ball is the non-offender's (ART 1.10); with choice opponent_shoots "
                        f"{names[offender]} plays on as he left it, got free_ball true"
                    )
                shooter = offender
                out.append(f"After {names[offender]}'s foul, {names[chooser]} has him play again (ART 1.10)")
            elif si.choice is None:
                out.append(
                    f"After {names[offender]}'s foul, {names[chooser]} plays (no choice given: 'play' "
                    f"taken; he could have had {names[offender]} play again, ART 1.10)"
                )
            else:
                out.append(f"After {names[offender]}'s foul, {names[chooser]} chose to play (ART 1.10)")
        elif si.choice is not None:
            raise SnookerInputError(
                f"shot {n}: choice follows a foul, but the stroke before was no foul, got {si.choice.value!r}"
            )
        if SnookerFoul.OUT_OF_TURN in si.fouls:
            out.append(f"{names[1 - shooter]} played out of turn (ART 2.2.15): the stroke is his")
            shooter = 1 - shooter
        return _Who(shooter, tuple(out), choice)

    def _context(self, st: SnookerState, si: SnookerShotInput, n: int) -> ShotContext:
        on = st.on
        if si.free_ball:
            if st.fouler is None:
                raise SnookerInputError(
                    f"shot {n}: a free ball follows a foul (ART 1.10), but the stroke before was no foul"
                )
            if si.called is not None:
                if si.called not in st.colours:
                    raise SnookerInputError(
                        f"shot {n}: the free ball must be on the table "
                        f"({', '.join(c.value for c in st.colours)}), got {si.called.value!r}"
                    )
                if si.called is on.ball:
                    raise SnookerInputError(
                        f"shot {n}: the free ball is a ball other than the ball on "
                        f"({on.value}), got {si.called.value!r}"
                    )
            elif len(st.colours) < 2 and not st.reds:
                raise SnookerInputError(
                    f"shot {n}: a free ball needs a ball besides the ball on, but only the {on.value} is left"
                )
        elif si.called is not None:
            if on is BallOn.RED:
                raise SnookerInputError(
                    f"shot {n}: the ball on is a red; a colour is nominated only after a red "
                    f"or as a free ball (ART 1.6, 1.10), got called {si.called.value!r}"
                )
            if on.in_sequence and si.called is not on.ball:
                raise SnookerInputError(
                    f"shot {n}: the colours are taken in order and the {on.value} is on "
                    f"(ART 1.6), got called {si.called.value!r}"
                )
        if SnookerFoul.SNOOKER_BEHIND_FREE_BALL in si.fouls:
            if not si.free_ball:
                raise SnookerInputError(
                    f"shot {n}: snooker_behind_free_ball needs a free ball on the stroke "
                    "(ART 2.2.4), got free_ball false"
                )
            if on is BallOn.PINK:
                raise SnookerInputError(
                    f"shot {n}: snooker_behind_free_ball is no foul when only the pink and black are left (ART 2.2.4)"
                )
        return ShotContext(
            on=on,
            called=si.called,
            free_ball=si.free_ball,
            fouls=si.fouls,
            foul_ball=si.foul_ball,
            overrule=si.overrule,
        )

    # -- moving the state ------------------------------------------------------------------------
    def _apply(
        self,
        st: SnookerState,
        shot: Shot,
        si: SnookerShotInput,
        who: _Who,
        d: Decision,
        notes: list[str],
        doubts: list[str],
        review: Any,
    ) -> tuple[Call, SnookerState]:
        names = st.players
        shooter = who.shooter
        opp = 1 - shooter
        on = st.on
        seq = on.ball
        foul = not d.legal
        scores = list(st.scores)
        base_break = st.current_break if shooter == st.at_table and st.fouler is None and not st.lot_pending else 0
        if foul:
            scores[opp] += d.penalty
        else:
            scores[shooter] += d.points
        brk = base_break + (0 if foul else d.points)
        continues = not foul and d.points > 0
        reds = max(0, st.reds - d.reds_down)
        sentences: list[str] = list(who.sentences) + notes + [d.reason]
        if foul:
            sentences[-1] += f"; {d.penalty} points to {names[opp]}"

        frame_winner, how, rsb_now = _frame_decided(st, d, shooter, scores)
        next_on = _next_ball_on(on, d, reds)
        respots: tuple[Respot, ...] = ()
        frame_ends = frame_winner is not None
        if not frame_ends and not rsb_now:
            respots = _respot(self.spots, shot, d, seq, doubts, sentences)
        if d.reds_down and not frame_ends:
            gone = "reds stay off the table" if d.reds_down > 1 else "the red stays off the table"
            if foul:
                sentences.append(f"{gone} (ART 2.2.6){'; ' + str(reds) + ' left' if reds else '; no red is left'}")
        scratch = d.reading.facts.scratch
        if how:
            sentences.append(how)

        high_frame = list(st.frame_high_breaks)
        high = list(st.high_breaks)
        high_frame[shooter] = max(high_frame[shooter], brk)
        high[shooter] = max(high[shooter], brk)
        turn_over = not continues

        new = replace(
            st,
            scores=(scores[0], scores[1]),
            reds=reds,
            on=next_on,
            next_is_break=False,
            cue_in_hand=scratch,
            fouler=shooter if foul else None,
            at_table=shooter if continues else opp,
            current_break=brk if continues else 0,
            frame_high_breaks=(high_frame[0], high_frame[1]),
            high_breaks=(high[0], high[1]),
            lot_pending=False,
            shots=st.shots + 1,
        )
        if rsb_now:
            new = replace(
                new,
                on=BallOn.BLACK,
                re_spotted_black=True,
                lot_pending=True,
                at_table=opp,
                cue_in_hand=True,
                current_break=0,
                fouler=None,
            )
            turn_over = True
        match_over = False
        match_winner: int | None = None
        if frame_winner is not None:
            new, match_winner, sentence = _end_frame(st, new, frame_winner, how, scores, high_frame)
            match_over = match_winner is not None
            turn_over = True
            sentences.append(sentence)
        elif foul:
            sentences.append(
                f"{names[opp]} may play or have {names[shooter]} play again (ART 1.10; the world rules give this choice after any foul)"
                + ("; the cue ball is in hand in the D (ART 1.7)" if scratch else "")
            )
        elif not continues:
            sentences.append(f"{names[opp]} plays from where the cue ball lies (ART 1.7)")
        reason = ". ".join(s[0].upper() + s[1:] for s in sentences if s) + "."

        score = {names[i]: scores[i] for i in (0, 1)}
        f = d.reading.facts
        details = _extras(st, new, d, who, brk, continues, high, respots, reds, frame_winner, match_over, rsb_now)
        summary = _summary(st, d, names[opp], brk, frame_winner, scores, rsb_now)
        review_parts = ([review.summary] if review.summary else []) + [f"Needs review: {x}." for x in doubts]
        call = Call(
            shot=shot.number,
            game=self.game,
            player=names[shooter],
            legal=d.legal,
            foul=None if d.primary is None else d.primary.foul,
            points=0 if foul else d.points,
            turn_over=turn_over,
            game_over=frame_winner is not None,
            reason=cite(reason),
            score=score,
            needs_review=review.needs_review or bool(doubts),
            evidence=review.evidence,
            cue_ball=f.cue_ball,
            break_shot=st.next_is_break,
            fouls=tuple(x.foul for x in d.fouls),
            series=brk,
            match_over=match_over,
            winner=None if frame_winner is None else names[frame_winner],
            review_reason=" ".join(review_parts) or None,
            note=si.note,
            summary=summary,
            details=details,
        )
        return call, new

    def _after_match(self, state: SnookerState, shot: Shot, si: SnookerShotInput) -> Call:
        names = state.players
        winner = None if state.winner is None else names[state.winner]
        return after_match_call(
            self.game,
            shot,
            player=names[state.at_table],
            score=state.score,
            winner=winner,
            note=si.note,
            reason=f"Not scored: the match was over before this stroke ({winner} won the race to "
            f"{state.race.race_to} frames)",
            details={"frames_won": {names[i]: state.frames_won[i] for i in (0, 1)}},
        )


def _frame_decided(st: SnookerState, d: Decision, shooter: int, scores: list[int]) -> tuple[int | None, str, bool]:
    """Who wins the frame with this stroke, and how: on the re-spotted black the first score or
    foul decides (the world rules; the document has no tie); the black potted last ends the frame
    (ART 1.6), the higher score wins (ART 1.4), level scores re-spot the black. Returns the winner
    (None: the frame goes on), the sentence, and whether the black is re-spotted now."""
    names, foul, opp = st.players, not d.legal, 1 - shooter
    if st.re_spotted_black and (foul or d.points):
        winner = opp if foul else shooter
        return (
            winner,
            (
                f"{names[winner]} wins the frame on the re-spotted black "
                f"({'the foul decides it' if foul else 'the black potted'}; a tie is not in the document, "
                "the world rules' re-spotted black decides it)"
            ),
            False,
        )
    if st.on.ball is BallId.BLACK and d.ball_on_potted:
        if scores[0] == scores[1]:
            return (
                None,
                (
                    f"The scores are level at {scores[0]}: the black is re-spotted and the cue ball is in hand "
                    "in the D; the first score or foul decides the frame (ART 1.4 says the higher score wins; "
                    "the tie is decided by the world rules' re-spotted black)"
                ),
                True,
            )
        winner = 0 if scores[0] > scores[1] else 1
        return (
            winner,
            (
                f"The black is potted: frame over (ART 1.6); {names[winner]} wins it "
                f"{max(scores)}-{min(scores)}, the higher score (ART 1.4)"
            ),
            False,
        )
    return None, "", False


def _next_ball_on(on: BallOn, d: Decision, reds: int) -> BallOn:
    """ART 1.7: after a red potted a colour is on, after a colour a red while reds remain, then the
    colours in order (ART 1.6); after a foul or no score, a red while any remain, else the
    colour in sequence (the yellow after the last red's colour)."""
    seq = on.ball
    if d.legal and d.points:
        if on is BallOn.RED:
            return BallOn.COLOUR
        if on is BallOn.COLOUR:
            return BallOn.RED if reds else BallOn.YELLOW
        if d.ball_on_potted:
            assert seq is not None
            return next_in_sequence(seq) or BallOn.BLACK
        return on
    return BallOn.RED if reds else (on if seq is not None else BallOn.YELLOW)


def _respot(
    spots: SnookerSpots, shot: Shot, d: Decision, seq: BallId | None, doubts: list[str], sentences: list[str]
) -> tuple[Respot, ...]:
    """ART 1.6, 1.8: put the colours down back on ``spots`` (not the end sequence's colour potted
    legally: ``seq``, the end sequence's ball on), the shot end's positions deciding which spots
    are free; says so in ``sentences``."""
    down = [b for b in d.colours_down if not (d.ball_on_potted and b is seq)]
    if not down:
        return ()
    after = dict(shot.end.positions) if shot.end is not None else {}
    if shot.end is None:
        doubts.append("without the shot end's positions the colours are put on their own spots")
    respots = respot_colours(down, after, spots)
    sentences.append(
        "; ".join(r.describe() for r in respots) + " (" + ", ".join(dict.fromkeys(r.article for r in respots)) + ")"
    )
    return respots


def _end_frame(
    st: SnookerState, new: SnookerState, winner: int, how: str, scores: list[int], high_frame: list[int]
) -> tuple[SnookerState, int | None, str]:
    """The frame won (ART 1.4): recorded, the frames won counted against the race (the match won
    or the next frame's break-off per the break rule, 002 snooker; RaceConfig). Returns the state
    for the next frame, the match winner (None: it goes on) and the sentence."""
    names = st.players
    rec = FrameRecord(
        number=st.frame,
        breaker=st.breaker,
        winner=winner,
        how=how,
        points=(scores[0], scores[1]),
        high_breaks=(high_frame[0], high_frame[1]),
        re_spotted_black=st.re_spotted_black,
    )
    won = list(st.frames_won)
    won[winner] += 1
    frames_won = (won[0], won[1])
    match_winner = st.race.match_winner(frames_won)
    nb = st.race.next_breaker(st.breaker, winner)
    new = replace(
        new,
        frame=st.frame + 1,
        frames_won=frames_won,
        frames=st.frames + (rec,),
        breaker=nb,
        at_table=nb,
        scores=(0, 0),
        reds=FULL_REDS,
        on=BallOn.RED,
        next_is_break=True,
        cue_in_hand=True,
        fouler=None,
        current_break=0,
        frame_high_breaks=(0, 0),
        re_spotted_black=False,
        lot_pending=False,
        match_over=match_winner is not None,
        winner=match_winner,
    )
    if match_winner is not None:
        return (
            new,
            match_winner,
            (
                f"{names[match_winner]} wins the match {max(frames_won)}-{min(frames_won)} "
                f"(a race to {st.race.race_to} frames)"
            ),
        )
    return (
        new,
        None,
        (
            f"Frames {frames_won[0]}-{frames_won[1]}; {names[nb]} breaks off frame "
            f"{st.frame + 1} ({st.race.break_rule.value} break-offs)"
        ),
    )


def _extras(
    st: SnookerState,
    new: SnookerState,
    d: Decision,
    who: _Who,
    brk: int,
    continues: bool,
    high: list[int],
    respots: tuple[Respot, ...],
    reds: int,
    frame_winner: int | None,
    match_over: bool,
    rsb_now: bool,
) -> SnookerExtras:
    """The call's snooker fields (README.md)."""
    names, on, foul, opp = st.players, st.on, not d.legal, 1 - who.shooter
    f = d.reading.facts
    return SnookerExtras(
        frame=st.frame,
        ball_on=on.value,
        nominated=None if d.nominated is None else d.nominated.value,
        nominated_by=d.nominated_by,
        free_ball=None if d.free_ball is None else d.free_ball.value,
        first_ball=None if f.first_contact is None else f.first_contact.value,
        pocketed=[{"ball": p.ball.value, "pocket": p.pocket.value} for p in f.pocketed],
        off_table=[b.value for b in f.off_table],
        scored=[b.value for b in d.scored],
        penalty=d.penalty,
        penalty_to=names[opp] if foul else None,
        choice=None if who.choice is None else who.choice.value,
        respot={r.ball.value: r.spot for r in respots},
        respot_mm={r.ball.value: [round(r.pos_mm[0], 1), round(r.pos_mm[1], 1)] for r in respots},
        break_=brk,
        break_over=not continues,
        high_break={names[i]: high[i] for i in (0, 1)},
        reds_remaining=new.reds if frame_winner is None else reds,
        next_ball_on=None if frame_winner is not None else new.on.value,
        next_player=None if match_over else names[new.at_table],
        ball_in_hand=new.cue_in_hand,
        points_remaining=new.remaining if frame_winner is None else 0,
        snookers_required=(
            {names[i]: new.snookers_required(i) for i in (0, 1)}
            if frame_winner is None
            else {names[i]: 0 for i in (0, 1)}
        ),
        frames_won={names[i]: new.frames_won[i] for i in (0, 1)},
        frame_winner=None if frame_winner is None else names[frame_winner],
        re_spotted_black=st.re_spotted_black or rsb_now,
    )


def _summary(
    st: SnookerState, d: Decision, opponent: str, brk: int, frame_winner: int | None, scores: list[int], rsb_now: bool
) -> str:
    """The few words of the call: the foul and its penalty, the balls potted and the break, or
    "no score"; the frame won or the black re-spotted."""
    if not d.legal:
        assert d.primary is not None
        summary = f"FOUL {d.primary.foul.value}, {d.penalty} to {opponent}"
    elif d.points:
        summary = f"pots {' '.join(b.value for b in d.scored)} ({d.points}), break {brk}"
    else:
        summary = "no score"
    if frame_winner is not None:
        summary += f" - {st.players[frame_winner]} wins frame {st.frame} ({scores[0]}-{scores[1]})"
    elif rsb_now:
        summary += " - re-spotted black"
    return summary


def _table_mismatch(st: SnookerState, positions: dict[BallId, Any]) -> list[str]:
    """Doubts where the shot start's balls differ from the state's: a pocket event the tracker
    missed, or a ball it mislabelled."""
    out: list[str] = []
    if BallId.RED not in positions:
        seen = sum(1 for b in positions if is_red(b))
        if seen != st.reds:
            out.append(f"the shot start shows {seen} reds, but {st.reds} should be on the table")
    cols = {b for b in positions if is_colour(b)}
    missing = [c.value for c in st.colours if c not in cols]
    extra = [c.value for c in cols if c not in st.colours]
    if missing:
        out.append(f"the shot start lacks the {', '.join(missing)}, on the table by the score")
    if extra:
        out.append(f"the shot start shows the {', '.join(extra)}, already potted")
    return out


def make_engine(game: Game, config: JudgeConfig, table: TableSpots | None = None) -> SnookerEngine:
    """The snooker engine; :mod:`rules.core.engine`'s registry calls it. ``table``: the table
    played on, whose colour spots the respotting uses (the standard table's without one)."""
    if game is not Game.SNOOKER:
        raise ShotError(f"rules.snooker.engine judges snooker, got {game.value}")
    return SnookerEngine(game=game, config=config, spots=SnookerSpots.of_table(table))
