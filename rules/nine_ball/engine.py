"""The engine of nine-ball (000; 002 "Reglamento bola 9") and its variants six-, seven-, ten-ball
and rotation (002 overview): ``make_engine(game, config)`` for :mod:`rules.core.engine`.

``judge_shot`` is pure: the state before the shot, the shot's events and the referee's input for
it give the call and the next state. Per shot it (1) takes the balls on the table from the shot
start's positions where they differ from the state (a missed pocketing: the positions are trusted
and the call says so and needs review), (2) applies the option of the player at the table after
a push-out (``choice``: play, the default, or pass_back), (3) checks the referee input against
the state (a push-out only on the shot after the break, a called ball that is on the table ...;
:class:`NineBallInputError` naming the shot), (4) decides the shot (:mod:`.decide`), (5) reviews
the evidence (:func:`rules.core.evidence.review_shot`: a low-confidence pocket or first contact, or
two events under a frame apart whose order decides, sets ``needs_review``), (6) advances the
match (:mod:`.match`).

Call fields: ``points`` is 1 when the shot wins the rack for the shooter in the racks-only games,
and the ball points scored in rotation (0 on a foul: the balls are respotted); ``score`` is the
racks won by name (rotation: the points of the rack in play, or of the rack just finished).
``details``: see README.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.core.after_match import after_match_call
from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.errors import ShotError
from rules.core.evidence import Review, review_shot
from rules.core.games import Game
from rules.core.pool_shot import (
    balls_in_events,
    not_struck_call,
    placement_call,
    read_pool_shot,
    struck_object_ball,
    unseen_first_contact_doubt,
)
from rules.core.shot_check import check_pool_shot
from rules.core.table import TableSpots
from rules.nine_ball.decide import Decision, ShotContext, decide, describe_outcome
from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.extras import NineBallExtras
from rules.nine_ball.inputs import Choice, NineBallInput, NineBallShotInput, parse_nine_ball_input
from rules.nine_ball.match import News, advance
from rules.nine_ball.setup import NineBallSetup, initial_state
from rules.nine_ball.sheet import balls_list, format_score_sheet, score_sheet
from rules.nine_ball.state import NineBallState
from rules.nine_ball.variants import VARIANTS, Variant, number, variant_of
from tracking.events import Shot, ShotEnd, ShotStart
from tracking.ids import BallId

__all__ = ["NineBallEngine", "make_engine"]


def _listed(balls: frozenset[BallId] | set[BallId]) -> str:
    return ", ".join(b.value for b in sorted(balls, key=number)) or "none"


@dataclass(frozen=True)
class NineBallEngine:
    """One game of the nine-ball family (see the module docstring)."""

    game: Game
    config: JudgeConfig = field(default_factory=JudgeConfig)

    def __post_init__(self) -> None:
        if self.game not in VARIANTS:
            raise ShotError(
                f"the nine-ball engine judges {', '.join(g.value for g in VARIANTS)}, got {self.game.value}"
            )

    @property
    def variant(self) -> Variant:
        return variant_of(self.game)

    # -- the protocol ---------------------------------------------------------------------------
    def initial_state(self, setup: NineBallSetup | None = None) -> NineBallState:
        return initial_state(self.game, setup)

    def parse_input(self, obj: Any, where: str = "referee input") -> NineBallInput:
        return parse_nine_ball_input(obj, self.game, where)

    def score_sheet(self, state: NineBallState) -> dict[str, Any]:
        return score_sheet(state)

    def balls_on_table(self, state: NineBallState) -> frozenset[BallId] | None:
        """The cue ball and ``state``'s object balls; None while those are not known (a log that
        starts mid-rack without them). A new rack's state has the whole rack again."""
        return state.balls | {BallId.CUE} if state.balls_known else None

    def format_score_sheet(self, state: NineBallState) -> str:
        return format_score_sheet(state)

    def judge_shot(
        self, state: NineBallState, shot: Shot, shot_input: NineBallShotInput | None = None
    ) -> tuple[Call, NineBallState]:
        if state.game is not self.game:
            raise ShotError(f"this engine judges {self.game.value}, got a {state.game.value} state")
        v = self.variant
        check_pool_shot(shot, (BallId.CUE, *v.balls), self.game.value, f"{v.source} 2")
        si = shot_input or NineBallShotInput()
        n = shot.number
        try:
            si.check_game(v)
        except NineBallInputError as e:
            raise NineBallInputError(f"shot {n}: {e}") from None
        names = state.players
        start = shot.start
        if state.match_over:
            return self._after_match(state, shot, si), replace(state, shots=state.shots + 1)
        facts = read_pool_shot(shot)
        moved = struck_object_ball(shot)
        racks = {names[0]: state.racks_won[0], names[1]: state.racks_won[1]}
        if moved is not None and not si.fouls:
            return (
                not_struck_call(shot, self.game, names[state.at_table], racks, moved, "000 6.6", si.note),
                replace(state, shots=state.shots + 1),
            )
        if (state.ball_in_hand or state.next_is_break) and not si.fouls and facts.cue_ball_placed:
            # the breaker has the cue ball in hand behind the head string (000 2.3), the incoming
            # player after a foul anywhere (000 2.7)
            return placement_call(
                shot,
                self.game,
                names[state.at_table],
                racks,
                "000 2.3" if state.next_is_break else "000 2.7",
                si.note,
                {"ball_in_hand": True},
            ), replace(state, shots=state.shots + 1)
        doubts: list[str] = []
        lead: list[str] = []
        balls = self._balls_at_start(state, start, lead, doubts, shot)
        if start is None:
            doubts.append("the log has no shot_start for this shot: the balls on the table are the state's")
        if shot.end is None:
            doubts.append("the log ends before the balls came to rest")

        shooter, choice = state.at_table, None
        if si.choice is not None and not state.option:
            raise NineBallInputError(
                f"shot {n}: choice {si.choice.value!r}: no option is open (only after a push-out, 000 2.4"
                + (", or a ten-ball ball pocketed off the call" if v.called_shots else "")
                + ")"
            )
        if state.option:
            choice = si.choice or Choice.PLAY
            holder = names[state.at_table]
            if choice is Choice.PASS_BACK:
                shooter = 1 - state.at_table
                lead.append(f"{holder} passes the shot back: {names[shooter]} shoots (000 2.4)")
            else:
                lead.append(
                    f"{holder} plays from the position left (000 2.4"
                    + (")" if si.choice is not None else "; the referee input gives no choice: taken as play)")
                )
        if si.push_out and not state.push_out_allowed:
            why = (
                "a break comes first"
                if state.next_is_break
                else "the incoming player has ball in hand"
                if state.ball_in_hand
                else "it is no longer the shot after the break"
            )
            raise NineBallInputError(
                f"shot {n}: push_out: a push-out is allowed only on the shot after a legal "
                f"break, without ball in hand (000 2.4); here {why}"
            )
        if (si.called is not None or si.safety) and state.next_is_break:
            raise NineBallInputError(
                f"shot {n}: {'called' if si.called else 'safety'}: the break is not called ({v.name})"
            )
        if si.called is not None and si.called.ball not in balls:
            raise NineBallInputError(
                f"shot {n}: called ball {si.called.ball.value} is not on the table (on the table: {_listed(balls)})"
            )
        if not si.warned and state.consecutive_fouls[shooter] != 2:
            raise NineBallInputError(
                f"shot {n}: warned: false concerns a player with two consecutive fouls (000 6.14); "
                f"{names[shooter]} has {state.consecutive_fouls[shooter]}"
            )

        ctx = ShotContext(
            variant=v,
            balls=balls,
            is_break=state.next_is_break,
            push_out=si.push_out,
            called=si.called,
            safety=si.safety,
            shooter=names[shooter],
            opponent=names[1 - shooter],
        )
        d = decide(ctx, facts, si)
        review = self._review(ctx, shot, si)
        unseen = unseen_first_contact_doubt(facts)
        if unseen is not None and not si.push_out:
            doubts.append(unseen)
        if v.called_shots and d.call_assumed and (len(d.pocketed) > 1 or v.game_ball in d.pocketed):
            doubts.append("no call in the referee input, and the call decides which pocketed ball counts")
        st = replace(state, balls=balls, at_table=shooter, balls_known=True)
        new, news = advance(st, d, shooter, si, n)
        return self._call(state, st, new, shot, si, d, news, review, lead, doubts, choice), new

    # -- parts ------------------------------------------------------------------------------------
    def _balls_at_start(
        self, state: NineBallState, start: ShotStart | None, lead: list[str], doubts: list[str], shot: Shot
    ) -> frozenset[BallId]:
        """The object balls on the table at the shot start, where the positions and the game state
        differ (the call is then flagged for review): a ball the positions show but the state has
        off the table is a misread identity (the 9 read as the 1) or a mark on the cloth far more
        often than a ball come back, so it is not taken; a ball they lack is taken as gone (a
        pocketing the tracker missed) unless as many balls are extra, which is one ball misread
        as another: then the state is kept, or unless the shot's own events show it on the table
        (hit, at a cushion, pocketed), which a ball gone cannot be (real broadcast dev Clip12
        softened: the 2 and 5, struck in the rack before the tracker had named them, were taken
        as gone after the break). A ball already moving when the recording began (``under_way``)
        is on the table as much as one at rest. Where the state does not know the balls yet (a log
        that starts mid-rack without referee input, a new rack), the positions are all there is,
        with the balls the shot's own events show on the table (hit, pocketed, at a cushion: a
        ball the cue ball hits was there, whatever the start missed — real broadcast dev Clip12,
        brightened: the 1, not read at the start, was hit first, and the 3 was taken for the
        lowest ball: a foul)."""
        if start is None or not start.positions:
            return state.balls
        v = self.variant
        seen: set[BallId] = {b for b in start.on_table if b is not BallId.CUE}
        foreign = {b for b in seen if b not in v.balls}
        if foreign:
            doubts.append(f"the shot start shows {_listed(foreign)}, not a ball of {v.name}: ignored")
        seen -= foreign
        if not seen:
            doubts.append("the shot start shows no object ball: the balls on the table are the state's")
            return state.balls
        if not state.balls_known:
            played = (balls_in_events(shot) & frozenset(v.balls)) - {BallId.CUE} - seen
            if played:
                text = (
                    f"the shot start lacks {_listed(played)}, which the shot's events show on the table: taken as on it"
                )
                lead.append(text[0].upper() + text[1:])
                if min(seen | played, key=number) != min(seen, key=number):
                    doubts.append(text + " (the lowest ball is one of them)")
            return frozenset(seen | played)
        played = (balls_in_events(shot) & state.balls) - seen
        if played:
            text = f"the shot start lacks {_listed(played)}, which the shot's events show on the table: taken as on it"
            lead.append(text[0].upper() + text[1:])
        missing, extra = state.balls - seen - played, seen - state.balls
        swap = bool(extra) and len(missing) == len(extra)
        if missing:
            text = f"the shot start lacks {_listed(missing)}, which the game state has on the table: " + (
                "the state is kept (read as " + _listed(extra) + "?)"
                if swap
                else "taken as gone (a pocketing the tracker missed?)"
            )
            lead.append(text[0].upper() + text[1:])
            doubts.append(text)
        if extra:
            text = (
                f"the shot start shows {_listed(extra)}, off the table in the game state: not taken "
                "(a misread ball or a mark on the cloth?)"
            )
            lead.append(text[0].upper() + text[1:])
            doubts.append(text)
        return state.balls if swap else state.balls - missing

    def _review(self, ctx: ShotContext, shot: Shot, si: NineBallShotInput) -> Review:
        start, end = shot.start, shot.end
        mids = [e for e in shot.events if not isinstance(e, (ShotStart, ShotEnd))]
        head = (start,) if start is not None else ()
        tail = (end,) if end is not None else ()

        def outcome(evs: Any) -> Any:
            return decide(ctx, read_pool_shot(Shot(shot.number, head + tuple(evs) + tail)), si).outcome

        basis = decide(ctx, read_pool_shot(shot), si).basis
        return review_shot(
            outcome, mids, basis, self.config, describe_outcome, start=start, near_misses=shot.near_misses
        )

    def _call(
        self,
        before: NineBallState,
        st: NineBallState,
        new: NineBallState,
        shot: Shot,
        si: NineBallShotInput,
        d: Decision,
        news: News,
        review: Review,
        lead: list[str],
        doubts: list[str],
        choice: Choice | None,
    ) -> Call:
        v = self.variant
        names = st.players
        shooter = st.at_table
        reason = " ".join(s.rstrip(".") + "." for s in lead) + (" " if lead else "") + d.reason
        if news.sentences:
            reason += " " + ". ".join(news.sentences) + "."
        if v.scored:
            score_pair = news.finished.points if news.finished is not None else new.score
            points = d.points if d.legal else 0
        else:
            score_pair = new.racks_won
            points = 1 if news.rack_winner == shooter and news.rack_over else 0
        summary = d.summary
        if news.lost_on_fouls:
            summary += " - third foul, loses the rack"
        elif news.warning:
            summary += " - 2 fouls, warning"
        if news.drawn:
            summary += " - stalemate, re-rack"
        if news.match_over and news.winner is not None:
            summary += f" - {names[news.winner]} wins the match"
        review_parts = ([review.summary] if review.summary else []) + [f"Needs review: {x}." for x in doubts]
        details = NineBallExtras(
            rack=st.rack,
            racks={names[0]: new.racks_won[0], names[1]: new.racks_won[1]},
            first_ball=None if d.first_ball is None else d.first_ball.value,
            lowest_ball=None if not st.balls else min(st.balls, key=number).value,
            pocketed=[{"ball": p.ball.value, "pocket": p.pocket.value} for p in read_pool_shot(shot).pocketed],
            off_table=[b.value for b in d.off_table],
            respot=[b.value for b in d.respot],
            push_out=si.push_out,
            choice=None if choice is None else choice.value,
            called=None if d.called is None else d.called.to_json(),
            call_assumed=d.call_assumed,
            safety=si.safety,
            consecutive_fouls={names[0]: news.consecutive_fouls[0], names[1]: news.consecutive_fouls[1]},
            warning=news.warning,
            rack_winner=None if news.rack_winner is None else names[news.rack_winner],
            stalemate=news.drawn,
            next_at_table=names[new.at_table],
            next_is_break=new.next_is_break,
            ball_in_hand=new.ball_in_hand,
            push_out_allowed=new.push_out_allowed,
            option=new.option,
            balls_on_table=balls_list((st.balls - set(d.pocketed) - set(d.off_table)) | set(d.respot)),
            match_points={names[0]: new.points[0], names[1]: new.points[1]} if v.scored else None,
        )
        return Call(
            shot=shot.number,
            game=self.game,
            player=names[shooter],
            legal=d.legal,
            foul=d.foul,
            points=points,
            turn_over=news.turn_over,
            game_over=news.rack_over,
            reason=reason,
            score={names[0]: score_pair[0], names[1]: score_pair[1]},
            needs_review=review.needs_review or bool(doubts),
            evidence=review.evidence,
            cue_ball=shot.start.cue_ball if shot.start is not None else BallId.CUE,
            break_shot=before.next_is_break,
            fouls=tuple(f.foul for f in d.fouls) + ((d.foul,) if d.missed_rack and d.foul is not None else ()),
            match_over=news.match_over,
            winner=None if news.winner is None else names[news.winner],
            review_reason=" ".join(review_parts) or None,
            note=si.note,
            summary=summary,
            details=details,
        )

    def _after_match(self, state: NineBallState, shot: Shot, si: NineBallShotInput) -> Call:
        names = state.players
        winner = None if state.winner is None else names[state.winner]
        return after_match_call(
            self.game,
            shot,
            player=names[state.at_table],
            winner=winner,
            note=si.note,
            cue_ball=BallId.CUE,
            reason=f"Not judged: the match was over before this shot ({winner} won the race; 000 2.5)",
            score={names[0]: state.racks_won[0], names[1]: state.racks_won[1]},
            review_reason="Needs review: a shot after the end of the match.",
        )


def make_engine(game: Game, config: JudgeConfig | None = None, table: TableSpots | None = None) -> NineBallEngine:
    """The engine of ``game`` (nine-, ten-, seven-, six-ball or rotation) for :func:`rules.engine_for`. ``table`` is not read: no rule of this game depends on the table's spots."""
    return NineBallEngine(game, config or JudgeConfig())
