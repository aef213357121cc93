"""The 14.1 continuous (straight pool) engine (004; overview in 002): ``make_engine(game, config)``.

``judge_shot(state, shot, shot_input) -> (Call, state)`` is pure: it settles what the previous
shot left open from this shot's start (a choice not given, a re-rack: :mod:`.match`), checks the
referee input against the table (a called ball that is not on it is a :class:`CalledBallError`
naming the shot), reads the shot with :func:`rules.core.pool_shot.read_pool_shot`, decides it
(:mod:`.decide`), reviews the decision's evidence (:func:`rules.core.evidence.review_shot`: the same
decision re-run with doubtful events dropped or swapped) and advances the match (:mod:`.match`).

How a call records points: ``Call.points`` is the shooter's points for the shot, balls scored
(> 0) or the penalty (< 0: -1 a foul, -2 a breaking violation, -16 an intentional or a third
successive foul, -31 both); ``Call.score`` is each player's running score, which may be negative
(004 art. 13). ``Call.game_over`` is the match's end (14.1 is one continuous game); a re-rack is
in ``details["rerack"]``. Other details: ``called`` ({ball, pocket} or null), ``call_assumed``,
``safety``, ``pocketed`` ([{ball, pocket}]), ``scored``, ``respot`` ({ball: "foot_spot"}: balls
spotted, 004 art. 8, 9, 13), ``run``, ``innings``, ``high_run``, ``consecutive_fouls`` (by player),
``ball_in_hand`` (for the next shot: "behind_head_string" or null), ``next_player``,
``next_is_break``, ``option`` / ``choice`` (the incoming player's), ``rack``, ``balls_on_table``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core.after_match import after_match_call
from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.errors import RefereeInputError, ShotError
from rules.core.evidence import review_shot
from rules.core.games import Game
from rules.core.pool_shot import (
    not_struck_call,
    placement_call,
    read_pool_shot,
    struck_object_ball,
    unseen_first_contact_doubt,
)
from rules.core.shot_check import check_pool_shot
from rules.core.table import TableSpots
from rules.straight_pool.decide import Decision, Kind, decide, describe_outcome
from rules.straight_pool.extras import StraightPoolExtras
from rules.straight_pool.fouls import StraightPoolFoul
from rules.straight_pool.inputs import (
    CalledBallError,
    ChoiceError,
    Setup,
    ShotInput,
    StraightPoolInput,
    parse_input,
)
from rules.straight_pool.match import advance, begin_inning, option_of, resolve_pending
from rules.straight_pool.sheet import format_score_sheet, score_sheet
from rules.straight_pool.state import (
    OBJECT_BALLS,
    PendingChoice,
    PlayerRecord,
    RackPending,
    StraightPoolState,
)
from tracking.events import Event, NearMiss, Shot, ShotEnd, ShotStart
from tracking.ids import BallId

__all__ = ["initial_state", "StraightPoolEngine", "make_engine"]


def initial_state(game: Game, setup: Setup | None = None) -> StraightPoolState:
    """The state before the first shot: a new match (player 1, or the start's breaker, breaks from
    behind the head string with 15 balls racked, 004 art. 4, 6) or the referee's start."""
    setup = setup or Setup()
    m = setup.match
    names = setup.players
    s = setup.start
    base = StraightPoolState(
        game=game,
        players=(PlayerRecord(names[0]), PlayerRecord(names[1])),
        target=m.target,
        geometry=m.geometry,
        calls=m.calls,
        calls_given=setup.calls_given,
    )
    if s is None:
        return replace(base, fresh=True)
    if m.target is not None and max(s.score) >= m.target:
        raise RefereeInputError(f"start.score must be below the target {m.target}, got {max(s.score)}")
    players = tuple(
        PlayerRecord(
            names[i],
            score=s.score[i],
            innings=s.innings[i],
            high_run=s.high_run[i],
            consecutive_fouls=s.consecutive_fouls[i],
        )
        for i in (0, 1)
    )
    in_inning = s.run > 0
    if in_inning and s.innings[s.at_table] == 0:
        raise RefereeInputError(
            "start.run > 0 means the player at the table is in an inning: his innings must be at least 1, got 0"
        )
    pending = None
    if s.choice_pending is not None:
        pending = PendingChoice(s.choice_pending, s.at_table, 1 - s.at_table, s.ball_in_hand)
    rack_pending = None
    if s.rack_pending is not None:
        rack_pending = RackPending(*s.rack_pending)
    balls = s.balls
    if rack_pending is not None or s.next_is_break and balls is None:
        balls = OBJECT_BALLS
    return replace(
        base,
        players=(players[0], players[1]),
        at_table=s.at_table,
        balls=balls,
        opening_break=s.next_is_break,
        ball_in_hand=s.ball_in_hand,
        in_inning=in_inning,
        run=s.run,
        inning_points=s.run,
        rack=s.rack,
        pending_choice=pending,
        rack_pending=rack_pending,
    )


@dataclass(frozen=True)
class StraightPoolEngine:
    """14.1 continuous; see the module docstring. ``config`` sets when a call needs review."""

    game: Game = Game.STRAIGHT_POOL
    config: JudgeConfig = field(default_factory=JudgeConfig)

    def initial_state(self, setup: Setup | None = None) -> StraightPoolState:
        return initial_state(self.game, setup)

    def parse_input(self, obj: Any, where: str = "referee input") -> StraightPoolInput:
        return parse_input(obj, where)

    def score_sheet(self, state: StraightPoolState) -> dict[str, Any]:
        return score_sheet(state)

    def balls_on_table(self, state: StraightPoolState) -> frozenset[BallId] | None:
        """None: the re-rack (004 art. 7.3) puts fourteen balls back on the table mid-game, so no
        ball off it now is gone for good."""
        return None

    def format_score_sheet(self, state: StraightPoolState) -> str:
        return format_score_sheet(state)

    def judge_shot(
        self, state: StraightPoolState, shot: Shot, shot_input: ShotInput | None = None
    ) -> tuple[Call, StraightPoolState]:
        if state.game is not self.game:
            raise ShotError(f"this engine judges {self.game.value}, got a {state.game.value} state")
        si = shot_input or ShotInput()
        n = shot.number
        if state.match_over:
            return self._after_match(state, shot, si), replace(state, shots=state.shots + 1)
        facts = read_pool_shot(shot)
        moved = struck_object_ball(shot)
        if moved is not None and not si.fouls:
            return (
                not_struck_call(
                    shot, self.game, state.names[state.at_table], state.score, moved, "004 general rules", si.note
                ),
                replace(state, shots=state.shots + 1),
            )
        if (
            (state.ball_in_hand or state.opening_break)
            and not si.fouls
            and not si.intentional
            and facts.cue_ball_placed
        ):
            # the cue ball in hand behind the head string (the opening break, art. 10, the General Rules)
            return (
                placement_call(
                    shot, self.game, state.names[state.at_table], state.score, "004 art. 10 and General Rules", si.note
                ),
                replace(state, shots=state.shots + 1),
            )
        start, end = shot.start, shot.end
        for e in shot.events:
            for b in _balls_of(e):
                if b is not BallId.CUE and b not in OBJECT_BALLS:
                    raise ShotError(f"shot {n}: 14.1 is played with the cue ball and balls 1..15, got the {b.value}")
        check_pool_shot(shot, OBJECT_BALLS | {BallId.CUE}, self.game.value, "004 equipment")
        st, pre = resolve_pending(state, start)
        doubts = list(pre.doubts)
        lead: list[str] = list(pre.sentences)
        seen = frozenset(b for b in (start.positions if start is not None else {}) if b in OBJECT_BALLS)
        if st.fresh and seen and len(seen) < len(OBJECT_BALLS):
            st = replace(st, balls=seen, opening_break=False, ball_in_hand=False)
            lead.append(
                f"The log begins mid-rack ({len(seen)} object balls at the first shot start, no referee start): "
                "no opening break (004 art. 6 applies to a full rack)"
            )
        st = replace(st, fresh=False)
        if st.balls is None:
            if seen:
                st = replace(st, balls=seen)
            else:
                st = replace(st, balls=OBJECT_BALLS)
                doubts.append(
                    "neither the referee input nor the shot start tells which balls are on the table: "
                    "all 15 are assumed"
                )
        elif seen and seen != st.balls:
            extra, missing = sorted(seen - st.balls, key=_num), sorted(st.balls - seen, key=_num)
            doubts.append(
                "the shot start shows "
                + "; ".join(
                    ([f"the {', '.join(b.value for b in extra)} not on the table by the rules"] if extra else [])
                    + ([f"no {', '.join(b.value for b in missing)}, on the table by the rules"] if missing else [])
                )
            )
        assert st.balls is not None
        if si.called is not None and si.called.ball not in st.balls:
            on = ", ".join(b.value for b in sorted(st.balls, key=_num))
            raise CalledBallError(f"shot {n}: the called {si.called.ball.value} is not on the table (on it: {on})")
        if StraightPoolFoul.BREAKING_VIOLATION in si.fouls and not st.opening_break:
            raise RefereeInputError(
                f"shot {n}: foul breaking_violation is for an opening break, and this shot is not one"
            )
        if start is None:
            doubts.append("the log has no shot_start for this shot: the cue ball is taken to be the cue")
        if end is None:
            doubts.append("the log ends before the balls came to rest")
        st = begin_inning(st)
        d = decide(st, facts, si)
        unseen = unseen_first_contact_doubt(facts)
        if unseen is not None:
            doubts.append(unseen)
        if d.call_assumed and st.calls_given:
            doubts.append(
                "the referee input calls other shots but not this one: the first ball pocketed is taken as called"
            )
        review = self._review(st, start, end, n, facts.events, si, d, shot.near_misses)
        option = option_of(d)
        if si.choice is not None and option is None:
            raise ChoiceError(
                f"shot {n}: choice {si.choice.value!r}, but this shot gives the incoming player no choice "
                "(only a breaking violation, an intentional or a third successive foul do: 004 art. 6, 7.5, 12)"
            )
        new, news = advance(st, d, si.choice, facts.positions_before, facts.positions_after, facts.cue_ball)

        names = st.names
        p = st.at_table
        reason = "".join(x + ". " for x in lead) + d.reason + "."
        if news.sentences:
            reason += " " + ". ".join(news.sentences) + "."
        review_parts = ([review.summary] if review.summary else []) + [f"Needs review: {x}." for x in doubts]
        details = self._details(st, new, d, facts, news)
        call = Call(
            shot=n,
            game=self.game,
            player=names[p],
            legal=d.kind not in (Kind.FOUL, Kind.BREAKING_VIOLATION),
            foul=d.primary_foul,
            points=d.points,
            turn_over=news.turn_over,
            game_over=new.match_over,
            reason=reason,
            score=new.score,
            needs_review=review.needs_review or bool(doubts),
            evidence=review.evidence,
            cue_ball=facts.cue_ball,
            break_shot=st.opening_break,
            fouls=tuple(f.foul for f in d.fouls)
            if d.kind is not Kind.BREAKING_VIOLATION
            else (StraightPoolFoul.BREAKING_VIOLATION,) + tuple(f.foul for f in d.fouls),
            match_over=new.match_over,
            winner=None if new.winner is None else names[new.winner],
            review_reason=" ".join(review_parts) or None,
            note=si.note,
            summary=_summary(d, news, new),
            details=details,
        )
        return call, new

    # -- helpers --------------------------------------------------------------------------------
    def _review(
        self,
        st: StraightPoolState,
        start: ShotStart | None,
        end: ShotEnd | None,
        n: int,
        mids: tuple[Event, ...],
        si: ShotInput,
        d: Decision,
        near_misses: Sequence[NearMiss] = (),
    ) -> Any:
        head: tuple[Event, ...] = (start,) if start is not None else ()
        tail: tuple[Event, ...] = (end,) if end is not None else ()

        def outcome(evs: Any) -> Any:
            return decide(st, read_pool_shot(Shot(n, head + tuple(evs) + tail)), si).outcome

        return review_shot(
            outcome, list(mids), d.basis, self.config, describe_outcome, start=start, near_misses=near_misses
        )

    @staticmethod
    def _details(
        st: StraightPoolState, new: StraightPoolState, d: Decision, facts: Any, news: Any
    ) -> StraightPoolExtras:
        names = st.names
        return StraightPoolExtras(
            called=None if d.call is None else {"ball": d.call.ball.value, "pocket": d.call.pocket.value},
            call_assumed=d.call_assumed,
            safety=d.kind is Kind.SAFETY,
            pocketed=[{"ball": p.ball.value, "pocket": p.pocket.value} for p in facts.pocketed],
            scored=[b.value for b in d.scored],
            respot={b.value: "foot_spot" for b in d.spotted},
            run=st.run + len(d.scored),
            innings={p.name: p.innings for p in new.players},
            high_run={p.name: p.high_run for p in new.players},
            consecutive_fouls={p.name: p.consecutive_fouls for p in new.players},
            next_player=None if new.match_over else names[new.at_table],
            next_is_break=new.opening_break,
            ball_in_hand="behind_head_string" if new.ball_in_hand and not new.match_over else None,
            option=None if news.option is None else news.option.value,
            choice=None if news.choice is None else news.choice.value,
            rerack=news.rerack,
            rack=new.rack,
            balls_on_table=None if new.balls is None else len(new.balls),
        )

    def _after_match(self, state: StraightPoolState, shot: Shot, si: ShotInput) -> Call:
        names = state.names
        w = names[state.winner] if state.winner is not None else None
        return after_match_call(
            self.game,
            shot,
            player=names[state.at_table],
            score=state.score,
            winner=w,
            note=si.note,
            reason=f"The match is over ({w} reached {state.target}, 004 art. 1): this shot is not scored.",
        )


def _num(b: BallId) -> int:
    return int(b.value)


def _balls_of(e: Event) -> tuple[BallId, ...]:
    if isinstance(e, (ShotStart, ShotEnd)):
        return tuple(e.positions) + ((e.cue_ball,) if isinstance(e, ShotStart) else ())
    if hasattr(e, "balls"):
        return tuple(e.balls)
    b = getattr(e, "ball", None)
    return (b,) if b is not None else ()


def _summary(d: Decision, news: Any, new: StraightPoolState) -> str:
    if d.kind is Kind.BREAKING_VIOLATION:
        s = f"BREAKING VIOLATION {d.points}"
    elif d.kind is Kind.FOUL:
        s = f"FOUL {d.fouls[0].foul.value} {d.points}"
    elif d.kind is Kind.POT:
        s = f"pots {', '.join(b.value for b in d.scored)} +{d.points}"
    elif d.kind is Kind.SAFETY:
        s = "safety"
    else:
        s = "miss"
    if news.rerack:
        s += f" - re-rack {news.rerack}"
    if new.match_over:
        s += " - wins the match"
    return s


def make_engine(game: Game, config: JudgeConfig, table: TableSpots | None = None) -> StraightPoolEngine:
    """The engine of ``game`` (only :attr:`Game.STRAIGHT_POOL`). ``table`` is not read: no rule of this game depends on the table's spots."""
    if game is not Game.STRAIGHT_POOL:
        raise ShotError(f"rules.straight_pool judges straight-pool, got {game.value}")
    return StraightPoolEngine(game, config)
