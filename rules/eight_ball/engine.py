"""The eight-ball engine (002, Reglamento bola 8): one shot's events and the referee's input give
the call and the next match state, purely (:class:`rules.core.engine.Engine`).

:func:`rules.eight_ball.decide.decide` says what the rules make of a shot; this module keeps the
match around it:

- Before judging, an option left open by the last shot (no ``choice`` given: ART 9.1, 10.2) is
  resolved from where the balls stand at this shot's start: all 15 object balls gathered within a
  rack's span mean the balls were re-racked, anything else that the table was accepted (or the 8
  re-spotted). With no positions the default (no re-rack) is taken and the call flagged.
- The balls on the table are the state's, unless the shot start's positions say otherwise: the
  positions are trusted (a pocket the tracker missed, a clip) and the reason says so.
- The racks: a rack won or lost (ART 25) or drawn (ART 26, referee input ``stalemate``) ends at
  that shot; the next shot breaks a new full rack (ART 6.1), broken by the rack's winner unless the
  match says alternate or loser (ART 7.2; a drawn rack is broken again by the same breaker,
  ART 26.2); the match ends when a player has won ``race_to`` racks (ART 31.1).

Calls: ``points`` is 1 when the shot wins the rack for the shooter (a rack lost gives it to the
opponent, shown in ``score``: racks won by player); ``winner`` names the rack's winner on the shot
that ends it (``match_over`` says whether the match ended too); ``game_over`` the rack ended.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
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
from rules.core.racks import RackRecord
from rules.core.shot_check import check_pool_shot
from rules.core.table import TableSpots
from rules.eight_ball.decide import Decision, decide, describe_outcome
from rules.eight_ball.extras import EightBallExtras
from rules.eight_ball.fouls import ART
from rules.eight_ball.inputs import (
    EightBallInput,
    EightBallSetup,
    EightBallShotError,
    EightBallShotInput,
    initial_state,
    parse_input,
)
from rules.eight_ball.sheet import format_score_sheet, score_sheet
from rules.eight_ball.state import (
    CHOICES,
    EIGHT,
    FULL_RACK,
    OBJECT_BALLS,
    Choice,
    EightBallState,
    Option,
    sorted_balls,
)
from tracking.events import Event, Shot, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion

__all__ = ["RACK_SPAN_MM", "looks_racked", "EightBallEngine", "make_engine"]

#: Balls of 57 mm (ART 2.1.9) in the triangle (ART 6.1) span 254 mm along the rack and 285 mm
#: across; gathered within this span in both axes, the 15 object balls are read as racked
#: (loose racks and centre noise allowed; a broken rack spreads far wider).
RACK_SPAN_MM = 360.0


def looks_racked(positions: Mapping[BallId, tuple[float, float]]) -> bool:
    """All 15 object balls on the table, gathered within :data:`RACK_SPAN_MM` in x and in y."""
    pts = [positions[b] for b in OBJECT_BALLS if b in positions]
    if len(pts) != len(OBJECT_BALLS):
        return False
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return max(xs) - min(xs) <= RACK_SPAN_MM and max(ys) - min(ys) <= RACK_SPAN_MM


def _sentence(parts: list[str]) -> str:
    return " ".join(p if p.endswith(".") else p + "." for p in parts if p)


@dataclass(frozen=True)
class EightBallEngine:
    """Eight-ball per 002 Reglamento bola 8 (module docstring); ``config`` sets when a call needs
    review (:mod:`rules.core.evidence`)."""

    game: Game = Game.EIGHT_BALL
    config: JudgeConfig = field(default_factory=JudgeConfig)

    # -- the protocol ---------------------------------------------------------------------------
    def initial_state(self, setup: EightBallSetup | None = None) -> EightBallState:
        return initial_state(setup)

    def parse_input(self, obj: Any, where: str = "referee input") -> EightBallInput:
        return parse_input(obj, where)

    def score_sheet(self, state: EightBallState) -> dict[str, Any]:
        return score_sheet(state)

    def balls_on_table(self, state: EightBallState) -> frozenset[BallId] | None:
        """The cue ball and ``state``'s object balls (the whole rack when the start does not list
        them; a new rack's state has the whole rack again)."""
        return state.balls | {BallId.CUE}

    def format_score_sheet(self, state: EightBallState) -> str:
        return format_score_sheet(state)

    def judge_shot(
        self, state: EightBallState, shot: Shot, shot_input: EightBallShotInput | None = None
    ) -> tuple[Call, EightBallState]:
        if not isinstance(state, EightBallState):
            raise ShotError(f"the eight-ball engine needs an EightBallState, got {type(state).__name__}")
        check_pool_shot(shot, OBJECT_BALLS | {BallId.CUE}, self.game.value, "002 bola 8 ART 1")
        si = shot_input or EightBallShotInput()
        if state.match_over:
            return self._after_match(state, shot, si), replace(state, shots=state.shots + 1)
        moved = struck_object_ball(shot)
        if moved is not None and not si.fouls:
            return (
                not_struck_call(
                    shot,
                    self.game,
                    state.player,
                    state.score,
                    moved,
                    f"{ART} 16.1e",
                    si.note,
                    {"racks": dict(state.score)},
                ),
                replace(state, shots=state.shots + 1),
            )
        facts = read_pool_shot(shot)
        if (state.ball_in_hand or state.next_is_break) and not si.fouls and facts.cue_ball_placed:
            # the breaker's cue ball is in hand behind the head string, the incoming player's after
            # a foul anywhere (ART 17.1)
            return (
                placement_call(
                    shot,
                    self.game,
                    state.player,
                    state.score,
                    f"{ART} 17.1",
                    si.note,
                    {"racks": dict(state.score), "ball_in_hand": True},
                ),
                replace(state, shots=state.shots + 1),
            )
        notes: list[str] = []
        doubts: list[str] = []
        st = self._resolve_pending(state, facts.positions_before, shot.number, notes, doubts)
        st = self._trust_positions(st, facts.positions_before, notes, doubts, balls_in_events(shot) & OBJECT_BALLS)
        if shot.start is None:
            doubts.append("the log has no shot_start for this shot; the cue ball is taken to be the cue")
        if shot.end is None:
            doubts.append("the log ends before the balls came to rest")
        if st.next_is_break and facts.positions_before and not looks_racked(facts.positions_before):
            doubts.append("this shot is a break, but the shot start positions do not show a rack")
        self._check_input(st, si, shot.number)
        contacts = shot.start.balls_in_contact if shot.start is not None else ()
        frozen_to = dict(shot.start.frozen_to_cushion) if shot.start is not None else {}
        d = decide(st, facts, si, contacts, frozen_to)
        self._check_choice(st, d, si, shot.number)
        review = self._review(st, shot, si, d, contacts, frozen_to)
        new, news = self._apply(st, d, si, shot.number)
        doubts.extend(d.doubts)
        unseen = unseen_first_contact_doubt(facts)
        if unseen is not None:
            doubts.append(unseen)
        names = st.players
        reason = _sentence(notes + [d.reason] + news)
        review_parts = ([review.summary] if review.summary else []) + [f"Needs review: {x}." for x in doubts]
        details = self._details(st, new, d, si)
        rack_over = d.rack_winner is not None or si.stalemate
        call = Call(
            shot=shot.number,
            game=self.game,
            player=names[st.at_table],
            legal=not d.fouls,
            foul=d.fouls[0].foul if d.fouls else None,
            points=1 if d.rack_winner == st.at_table else 0,
            turn_over=not (d.continues and not rack_over),
            game_over=rack_over,
            reason=reason,
            score=new.score,
            needs_review=review.needs_review or bool(doubts),
            evidence=review.evidence,
            cue_ball=facts.cue_ball,
            break_shot=st.next_is_break,
            fouls=tuple(x.foul for x in d.fouls),
            match_over=new.match_over,
            winner=None if d.rack_winner is None else names[d.rack_winner],
            review_reason=" ".join(review_parts) or None,
            note=si.note,
            summary=d.summary + (" - wins the match" if new.match_over else ""),
            details=details,
        )
        return call, new

    # -- before the verdict ---------------------------------------------------------------------
    def _resolve_pending(
        self, st: EightBallState, pos: Mapping[BallId, tuple[float, float]], n: int, notes: list[str], doubts: list[str]
    ) -> EightBallState:
        if st.pending is None:
            return st
        opt = st.pending
        st = replace(st, pending=None)
        art = "9.1" if opt is Option.EIGHT_ON_BREAK else "10.2b"
        if pos and looks_racked(pos):
            notes.append(
                f"No choice was given after the last shot; the shot start shows the balls racked: re-racked "
                f"({ART} {art})"
            )
            return replace(
                st,
                balls=FULL_RACK,
                groups=(None, None),
                next_is_break=True,
                breaker=st.at_table,
                ball_in_hand=False,
                behind_head_string=False,
            )
        if opt is Option.EIGHT_ON_BREAK:
            what = f"the 8 re-spotted ({ART} 9.1, 21.1)"
        else:
            what = f"the table accepted ({ART} 10.2a)"
        if pos:
            notes.append(f"No choice was given after the last shot; the balls were not re-racked: {what}")
        else:
            doubts.append(f"no choice was given after the last shot and no positions show the table: {what} assumed")
        return st

    def _trust_positions(
        self,
        st: EightBallState,
        pos: Mapping[BallId, tuple[float, float]],
        notes: list[str],
        doubts: list[str],
        played: frozenset[BallId] = frozenset(),
    ) -> EightBallState:
        """The balls on the table: at a break, the rack the shot start shows; mid-rack, where the
        positions differ from the game state (with a doubt): a ball they show but the state has
        pocketed is a misread identity or a mark on the cloth far more often than a ball come back,
        so it is not taken; a ball they lack is taken as gone (a missed pocketing) unless as many
        are extra (one ball misread as another: the state is kept), or unless the shot's own
        events show it on the table (``played``: hit, at a cushion, pocketed), which a ball gone
        cannot be."""
        if not pos:
            return st
        seen = frozenset(b for b in pos if b in OBJECT_BALLS) | (played & st.balls)
        if seen == st.balls:
            return st
        gone, new = sorted_balls(st.balls - seen), sorted_balls(seen - st.balls)
        bits = []
        if gone:
            bits.append(f"without the {', '.join(b.value for b in gone)}")
        if new:
            bits.append(f"with the {', '.join(b.value for b in new)}")
        if st.next_is_break:
            notes.append(f"The shot start shows the table {' and '.join(bits)}; its positions are trusted (a new rack)")
            return replace(st, balls=seen)
        swap = bool(new) and len(gone) == len(new)
        kept = st.balls if swap else st.balls - frozenset(gone)
        text = f"the shot start shows the table {' and '.join(bits)}; " + (
            "the game state is kept (one ball misread as another?)"
            if swap
            else ("the missing balls are taken as gone" if gone else "")
            + ("; " if gone and new else "")
            + ("the balls the state has pocketed are not taken back (misread, or a mark on the cloth?)" if new else "")
        )
        notes.append(text[0].upper() + text[1:])
        doubts.append(text)
        return replace(st, balls=kept)

    def _check_input(self, st: EightBallState, si: EightBallShotInput, n: int) -> None:
        if st.next_is_break and (si.called is not None or si.safety):
            what = "a call" if si.called is not None else "a safety"
            raise EightBallShotError(f"shot {n}: {what} on the break; the break needs none ({ART} 10.1)")
        if si.frozen is not None and si.frozen not in st.balls:
            raise EightBallShotError(f"shot {n}: the ball declared frozen, {si.frozen.value}, is not on the table")
        c = si.called
        if c is not None and c.ball not in st.balls:
            have = ", ".join(b.value for b in sorted_balls(st.balls)) or "none"
            raise EightBallShotError(
                f"shot {n}: the called ball {c.ball.value} is not on the table (on the table: {have})"
            )

    def _check_choice(self, st: EightBallState, d: Decision, si: EightBallShotInput, n: int) -> None:
        if si.choice is not None:
            if d.option is None:
                raise EightBallShotError(
                    f"shot {n}: choice {si.choice.value!r} given, but this shot gives no option "
                    f"(only the 8 on the break, {ART} 9.1, and an illegal break, {ART} 10.2, do)"
                )
            allowed = CHOICES[d.option]
            if si.choice not in allowed:
                raise EightBallShotError(
                    f"shot {n}: after {'the 8 on the break' if d.option is Option.EIGHT_ON_BREAK else 'an illegal break'} "
                    f"the choice is {' or '.join(c.value for c in allowed)}, got {si.choice.value!r}"
                )
        if si.stalemate and d.rack_winner is not None:
            raise EightBallShotError(f"shot {n}: stalemate declared on a shot that ended the rack")

    def _review(
        self,
        st: EightBallState,
        shot: Shot,
        si: EightBallShotInput,
        d: Decision,
        contacts: tuple[tuple[BallId, BallId], ...],
        frozen_to: Mapping[BallId, Cushion],
    ) -> Review:
        start, end = shot.start, shot.end
        mids = [e for e in shot.events if not isinstance(e, (ShotStart, ShotEnd))]

        def again(evs: Sequence[Event]) -> Hashable:
            evs_all = ((start,) if start else ()) + tuple(evs) + ((end,) if end else ())
            return decide(st, read_pool_shot(Shot(shot.number, evs_all)), si, contacts, frozen_to).outcome

        return review_shot(
            again, mids, d.basis, self.config, describe_outcome, start=start, near_misses=shot.near_misses
        )

    # -- after the verdict ----------------------------------------------------------------------
    def _apply(
        self, st: EightBallState, d: Decision, si: EightBallShotInput, n: int
    ) -> tuple[EightBallState, list[str]]:
        i, opp = st.at_table, 1 - st.at_table
        news: list[str] = []
        groups = st.groups
        if d.group is not None:
            groups = (d.group, d.group.other) if i == 0 else (d.group.other, d.group)
        new = replace(
            st,
            balls=d.balls_after,
            groups=groups,
            next_is_break=False,
            shots=st.shots + 1,
            at_table=i if d.continues else opp,
            ball_in_hand=d.ball_in_hand,
            behind_head_string=d.behind_head_string,
            pending=None,
        )
        if d.rack_winner is not None:
            return self._end_rack(new, st, d.rack_winner, d.reason, news)
        if d.option is not None:
            ch = si.choice
            if d.option is Option.EIGHT_ON_BREAK:
                if ch is Choice.RERACK:
                    news.append(f"The breaker chose to re-rack and breaks again ({ART} 9.1)")
                    new = replace(new, balls=FULL_RACK, next_is_break=True, at_table=i, breaker=i)
                else:
                    new = replace(new, balls=new.balls | {EIGHT}, at_table=i)
                    if ch is Choice.RESPOT:
                        news.append(
                            f"The breaker chose to have the 8 re-spotted on the foot spot line and shoots "
                            f"({ART} 9.1, 21.1)"
                        )
                    else:
                        new = replace(new, pending=Option.EIGHT_ON_BREAK)
            else:
                if ch is Choice.RERACK:
                    news.append(f"{st.players[opp]} chose to re-rack and breaks ({ART} 10.2b)")
                    new = replace(
                        new,
                        balls=FULL_RACK,
                        next_is_break=True,
                        at_table=opp,
                        breaker=opp,
                        ball_in_hand=False,
                        behind_head_string=False,
                    )
                elif ch is Choice.ACCEPT_TABLE:
                    news.append(f"{st.players[opp]} accepted the table and shoots ({ART} 10.2a)")
                else:
                    new = replace(new, pending=Option.ILLEGAL_BREAK)
        if si.stalemate:
            news.append(
                f"The referee declared the rack drawn: no player tried to pocket a ball legally for three "
                f"turns each ({ART} 26.1); it is re-racked and broken again by {st.players[st.breaker]} "
                f"({ART} 26.2)"
            )
            new = replace(
                new,
                balls=FULL_RACK,
                groups=(None, None),
                next_is_break=True,
                at_table=st.breaker,
                breaker=st.breaker,
                ball_in_hand=False,
                behind_head_string=False,
                pending=None,
                rack=st.rack + 1,
                drawn_racks=st.drawn_racks + (st.rack,),
            )
        return new, news

    def _end_rack(
        self, new: EightBallState, st: EightBallState, w: int, how: str, news: list[str]
    ) -> tuple[EightBallState, list[str]]:
        won = tuple(st.racks_won[k] + (1 if k == w else 0) for k in (0, 1))
        won2 = (won[0], won[1])
        rec = RackRecord(number=st.rack, breaker=st.breaker, winner=w, how=how)
        mw = st.race.match_winner(won2)
        names = st.players
        news.append(f"{names[w]} wins rack {st.rack}; racks {won2[0]}-{won2[1]}")
        nb = st.race.next_breaker(st.breaker, w)
        new = replace(
            new,
            balls=FULL_RACK,
            groups=(None, None),
            next_is_break=True,
            at_table=nb,
            breaker=nb,
            ball_in_hand=False,
            behind_head_string=False,
            pending=None,
            rack=st.rack + 1,
            racks_won=won2,
            racks=st.racks + (rec,),
        )
        if mw is not None:
            news.append(f"{names[mw]} wins the match, {won2[mw]} racks of the race to {st.race.race_to} ({ART} 31.1)")
            return replace(new, match_over=True, winner=mw), news
        rule = {
            "winner": f"the winner breaks ({ART} 7.2)",
            "alternate": f"alternate breaks ({ART} 7.2)",
            "loser": f"the loser breaks ({ART} 7.2)",
        }[st.race.break_rule.value]
        news.append(f"{names[nb]} breaks rack {st.rack + 1}: {rule}")
        return new, news

    def _details(self, st: EightBallState, new: EightBallState, d: Decision, si: EightBallShotInput) -> EightBallExtras:
        names = st.players

        def groups_of(s: EightBallState) -> dict[str, str | None]:
            return {names[k]: (None if (g := s.groups[k]) is None else g.value) for k in (0, 1)}

        return EightBallExtras(
            rack=st.rack,
            first_ball=None if d.first_ball is None else d.first_ball.value,
            pocketed=[{"ball": p.ball.value, "pocket": p.pocket.value} for p in d.pocketed],
            off_table=[b.value for b in d.off_table],
            called=None
            if d.called is None
            else {"ball": d.called.ball.value, "pocket": d.called.pocket.value, "given": d.call_given},
            safety=si.safety,
            legal_break=d.legal_break,
            group=groups_of(new if d.rack_winner is None else st),
            group_chosen=None if d.group is None else d.group.value,
            respot={b.value: "foot_spot" for b in d.respot},
            ball_in_hand=new.ball_in_hand and not new.next_is_break,
            behind_head_string=new.behind_head_string and not new.next_is_break,
            option=None if d.option is None else d.option.value,
            choice=None if si.choice is None else si.choice.value,
            loss=[f"25.1{x}" for x in d.loss],
            stalemate=si.stalemate,
            balls_on_table=[b.value for b in sorted_balls(new.balls)],
            racks=dict(new.score),
            next_is_break=new.next_is_break,
            at_table=names[new.at_table],
        )

    def _after_match(self, st: EightBallState, shot: Shot, si: EightBallShotInput) -> Call:
        w = None if st.winner is None else st.players[st.winner]
        return after_match_call(
            self.game,
            shot,
            player=st.player,
            score=st.score,
            winner=w,
            note=si.note,
            reason=f"Not judged: the match was over before this shot ({ART} 31.1)",
            details={"racks": dict(st.score)},
        )


def make_engine(game: Game, config: JudgeConfig, table: TableSpots | None = None) -> EightBallEngine:
    """The eight-ball engine; :mod:`rules.core.engine`'s registry calls it. ``table`` is not read: no rule of this game depends on the table's spots."""
    if game is not Game.EIGHT_BALL:
        raise ShotError(f"rules.eight_ball judges eight-ball, got {game.value}")
    return EightBallEngine(game=game, config=config)
