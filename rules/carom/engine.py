"""The engine of the cushion carom games: three-cushion (003; 002 ART 27) and one-cushion
(002 ART 26). One engine, two counts: a point is the cue ball touching both object balls with at
least ``min_cushions`` cushion impacts before its first contact with the second (3 or 1).

Three-cushion, 003 art. 2: the four valid caroms (a) first ball then three or more cushions, (b)
three or more cushions then both balls, (c) one cushion, the first ball, two or more cushions,
(d) two cushions, the first ball, one or more — all "three impacts before the second ball"
(002 ART 27), which is what is tested; the case is reported. Art. 3: impacts count, the same
cushion again too. Art. 10: a cue ball frozen to a cushion — its first contact with it does not
count. Art. 5: the break must take the red first. Art. 6(a), 11: a ball off the table is a foul.
Art. 9 / 002 ART 15.8: playing into the ball the cue ball touches is a foul. Art. 15: kisses
change nothing. Art. 6(g), 8 / 002 ART 15.11: playing a ball that is not the player's is a foul.
A foul ends the inning with no point even if a carom was made (003 art. 14; 002 ART 7.3).
Fouls no camera sees come from the referee input. Match management is :mod:`rules.carom.match`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.carom.fouls import Foul
from rules.carom.inputs import MatchSetup, RefereeInput, ShotInput, Verdict, parse_referee_input
from rules.carom.match import advance, choose_balls, initial_state
from rules.carom.path import CuePath, middle_events, read_cue_path
from rules.carom.sheet import format_score_sheet, score_sheet
from rules.carom.state import GameState
from rules.core.after_match import after_match_call
from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.errors import ShotError
from rules.core.evidence import Review, review_shot
from rules.core.games import Game
from rules.core.table import TableSpots
from tracking.events import BallBall, CushionHit, Event, NearMiss, OffTable, Shot, ShotStart
from tracking.ids import BallId

__all__ = [
    "Outcome",
    "SPOT_NAMES",
    "Decision",
    "describe_outcome",
    "ExtraRule",
    "CushionCaromEngine",
    "make_engine",
]

Outcome = tuple[int, Foul | None]

SPOT_NAMES = {
    "foot_spot": "foot spot",
    "head_spot": "head spot",
    "centre_spot": "centre spot",
    "break_position": "break position",
}


@dataclass(frozen=True)
class _FoulFound:
    foul: Foul
    text: str  # "Foul: " + text
    articles: str
    basis: tuple[tuple[Event, str], ...] = ()


@dataclass(frozen=True)
class Decision:
    """The verdict of one shot before match bookkeeping: ``points`` (1 or 0), ``carom`` (the carom
    was made, before fouls), the fouls found (primary first), the cue ball's path, the events the
    verdict rests on (``basis``), the reason, where balls are respotted, and whether the next
    shot is from the break position."""

    points: int
    carom: bool
    fouls: tuple[_FoulFound, ...]
    path: CuePath
    player_ball: BallId
    carom_case: str | None
    basis: tuple[tuple[Event, str], ...]
    reason: str
    respot: dict[BallId, str] = field(default_factory=dict)
    restart_from_break: bool = False

    @property
    def outcome(self) -> Outcome:
        return (self.points, self.fouls[0].foul if self.fouls else None)


def describe_outcome(o: Hashable) -> str:
    """Words for an :data:`Outcome` (points, primary foul)."""
    assert isinstance(o, tuple)
    points, foul = o
    if foul is not None:
        return f"a foul ({foul.value})"
    return "a point" if points else "no point"


def _impacts(n: int) -> str:
    if n == 0:
        return "no cushion impact"
    return f"{n} cushion impact" + ("" if n == 1 else "s")


def _swap_white_yellow(b: BallId) -> BallId:
    return {BallId.WHITE: BallId.YELLOW, BallId.YELLOW: BallId.WHITE}.get(b, b)


def _relabel_start(ev: ShotStart) -> ShotStart:
    """The shot start with white and yellow swapped (the other reading of an uncertain identity)."""
    return replace(
        ev,
        cue_ball=_swap_white_yellow(ev.cue_ball),
        positions={_swap_white_yellow(b): p for b, p in ev.positions.items()},
        frozen_to_cushion={_swap_white_yellow(b): c for b, c in ev.frozen_to_cushion.items()},
        balls_in_contact=tuple((_swap_white_yellow(a), _swap_white_yellow(b)) for a, b in ev.balls_in_contact),
    )


def _relabel(ev: Event) -> Event:
    """The same event with white and yellow swapped."""
    if isinstance(ev, ShotStart):
        return _relabel_start(ev)
    if isinstance(ev, BallBall):
        return replace(ev, balls=(_swap_white_yellow(ev.balls[0]), _swap_white_yellow(ev.balls[1])))
    if isinstance(ev, (CushionHit, OffTable)):
        return replace(ev, ball=_swap_white_yellow(ev.ball))
    return ev


#: A rule of the game beyond the carom itself (the balk-line zones, 002 ART 19-24): given the
#: state, the shot start, the shot's middle events and whether a carom was made, the fouls it
#: finds as (foul, text, articles, basis) tuples. Called inside the pure decision, so the evidence
#: review re-evaluates it with the events perturbed.
ExtraRule = Callable[
    [GameState, "ShotStart | None", Sequence[Event], bool],
    Sequence[tuple[Foul, str, str, tuple[tuple[Event, str], ...]]],
]


@dataclass(frozen=True)
class CushionCaromEngine:
    """Three-cushion (``min_cushions=3``), one-cushion (``min_cushions=1``) or a carom with no
    cushion (``min_cushions=0``: libre and the balk-line games, 002 ART 7.2, whose zone rules come
    in as ``extra_rule`` from :mod:`rules.balkline`); see the module docstring. ``config`` sets
    when a call needs review (:mod:`rules.core.evidence`)."""

    game: Game
    min_cushions: int
    config: JudgeConfig = field(default_factory=JudgeConfig)
    extra_rule: ExtraRule | None = None

    # -- the protocol ---------------------------------------------------------------------------
    def initial_state(self, setup: MatchSetup | None = None) -> GameState:
        return initial_state(self.game, setup)

    def parse_input(self, obj: Any, where: str = "referee input") -> RefereeInput:
        """The carom referee input (:mod:`rules.carom.inputs`) of a decoded JSON value."""
        return parse_referee_input(obj, where)

    def score_sheet(self, state: GameState) -> dict[str, Any]:
        return score_sheet(state)

    def balls_on_table(self, state: GameState) -> frozenset[BallId] | None:
        """None: the three balls are always in play."""
        return None

    def format_score_sheet(self, state: GameState) -> str:
        return format_score_sheet(state)

    def judge_shot(self, state: GameState, shot: Shot, shot_input: ShotInput | None = None) -> tuple[Call, GameState]:
        if state.game is not self.game:
            raise ShotError(f"this engine judges {self.game.value}, got a {state.game.value} game state")
        si = shot_input or ShotInput()
        if state.match_over:
            return self._after_match(state, shot, si), replace(state, shots=state.shots + 1)
        start = shot.start
        mids = middle_events(shot.events)
        doubts: list[str] = []
        if start is None:
            cue = state.player.ball
            doubts.append(
                f"the log has no shot_start for this shot; the cue ball is taken to be "
                f"{state.player.name}'s ({cue.value})"
            )
        else:
            cue = start.cue_ball
        if shot.end is None:
            doubts.append("the log ends before the balls came to rest")
        st = choose_balls(state, cue) if start is not None else state
        decision = self._decide(st, start, mids, si, cue)

        review = self._review(state, st, start, mids, si, cue, decision, shot.near_misses)
        new_state, news = advance(st, decision.points == 1, decision.restart_from_break)
        rec = news.finished_set
        names = [p.name for p in st.players]
        if rec is not None:
            score = {names[i]: rec.points[i] for i in (0, 1)}
            innings = {names[i]: rec.innings[i] for i in (0, 1)}
        else:
            score = new_state.score
            innings = {p.name: p.innings for p in new_state.players}
        reason = decision.reason + "."
        if not state.balls_chosen and st.balls_chosen:
            why = (
                "the starter chooses, 003 art. 4(c)"
                if state.next_is_break and self.game is Game.THREE_CUSHION
                else "no referee input gave the balls"
            )
            reason += f" {st.player.name} plays the {st.player.ball.value} ({why})."
        if news.sentences:
            reason += " " + ". ".join(s[0].upper() + s[1:] for s in news.sentences) + "."
        review_parts = ([review.summary] if review.summary else []) + ([f"Needs review: {d}." for d in doubts])
        call = Call(
            shot=shot.number,
            game=self.game,
            player=st.player.name,
            legal=not decision.fouls,
            foul=decision.outcome[1],
            points=decision.points,
            turn_over=news.turn_over,
            game_over=news.game_over,
            reason=reason,
            score=score,
            needs_review=review.needs_review or bool(doubts),
            evidence=review.evidence,
            cue_ball=cue,
            player_ball=decision.player_ball,
            break_shot=st.next_is_break,
            equalizing_inning=st.equalizing is not None,
            first_ball=decision.path.first_ball,
            second_ball=decision.path.second_ball,
            cushions_before_first_ball=decision.path.cushions_before_first,
            cushions_before_second_ball=decision.path.cushions_before_second,
            cushions_total=len(decision.path.cushions),
            carom_case=decision.carom_case,
            kisses=decision.path.kisses,
            fouls=tuple(f.foul for f in decision.fouls),
            respot=decision.respot,
            series=news.series,
            innings=innings,
            high_run={p.name: p.high_run for p in new_state.players},
            set_number=st.set_number if st.match.sets is not None else None,
            sets=({p.name: p.sets_won for p in new_state.players} if st.match.sets is not None else None),
            match_over=news.match_over,
            winner=None if news.winner is None else names[news.winner],
            draw=news.draw,
            review_reason=" ".join(review_parts) or None,
            note=si.note,
        )
        return call, new_state

    def _review(
        self,
        state: GameState,
        st: GameState,
        start: ShotStart | None,
        mids: list[Event],
        si: ShotInput,
        cue: BallId,
        decision: Decision,
        near_misses: Sequence[NearMiss] = (),
    ) -> Review:
        """Whether the call rests on a doubtful event, order or shot start (:mod:`rules.core.evidence`).
        ``state`` is the state before the shot, ``st`` the same with the balls settled."""
        alternatives: list[tuple[str, Callable[[], Hashable]]] = []
        if start is not None:

            def other_ball() -> Outcome:
                alt_start = _relabel_start(start)
                alt_state = choose_balls(state, alt_start.cue_ball)
                return self._decide(alt_state, alt_start, [_relabel(e) for e in mids], si, alt_start.cue_ball).outcome

            def no_resting_contacts() -> Outcome:
                bare = replace(start, frozen_to_cushion={}, balls_in_contact=())
                return self._decide(st, bare, mids, si, cue).outcome

            def struck(ball: BallId) -> Callable[[], Outcome]:
                def alt() -> Outcome:
                    alt_start = replace(start, cue_ball=ball)
                    return self._decide(choose_balls(state, ball), alt_start, mids, si, ball).outcome

                return alt

            alternatives = [("if the struck ball was the other one", other_ball)]
            if start.cue_ball not in (BallId.WHITE, BallId.YELLOW):
                # the tracker doubts which ball moved first and named the red: either player's
                # ball read as the one struck
                alternatives += [
                    (f"if the struck ball was the {b.value}", struck(b)) for b in (BallId.WHITE, BallId.YELLOW)
                ]
            if start.frozen_to_cushion or start.balls_in_contact:
                alternatives.append(("if no ball was frozen or touching", no_resting_contacts))
        return review_shot(
            lambda evs: self._decide(st, start, evs, si, cue).outcome,
            mids,
            decision.basis,
            self.config,
            describe_outcome,
            start=start,
            start_alternatives=alternatives,
            near_misses=near_misses,
        )

    # -- the verdict ----------------------------------------------------------------------------
    def _decide(
        self, state: GameState, start: ShotStart | None, mids: Sequence[Event], si: ShotInput, cue: BallId
    ) -> Decision:
        """The pure verdict of one shot from its events; the evidence review calls it again with
        perturbed events."""
        three = self.game is Game.THREE_CUSHION
        player, opponent = state.player, state.opponent
        player_ball = player.ball
        path = read_cue_path(cue, start, mids, si.detached_masse)
        camera = self._camera_fouls(state, start, path, cue)
        camera = [f for f in camera if f.foul not in si.overrule]
        referee = [
            _FoulFound(f, f"{f.info.description}, declared by the referee", f.articles(self.game)) for f in si.fouls
        ]
        fouls: list[_FoulFound] = []
        for f in referee + camera:
            if all(g.foul is not f.foul for g in fouls):
                fouls.append(f)

        by_path = path.both_balls and path.cushions_before_second >= self.min_cushions
        carom = by_path if si.verdict is None else si.verdict is Verdict.POINT
        if self.extra_rule is not None:
            for foul, text, arts, basis in self.extra_rule(state, start, mids, carom):
                if foul not in si.overrule and all(g.foul is not foul for g in fouls):
                    fouls.append(_FoulFound(foul, text, arts, basis))
        case = None
        if three and by_path:
            k1 = path.cushions_before_first
            case = "2(a)" if k1 == 0 else "2(b)" if k1 >= 3 else "2(c)" if k1 == 1 else "2(d)"
        carom_text = self._carom_text(path, by_path, case)
        if si.verdict is not None:
            word = "Point" if carom else "No point"
            if carom == by_path:
                carom_text += " (so ruled by the referee)"
            else:
                carom_text = (
                    f"{word} by the referee's decision (002 ART 7.3, 12.2); from the log: "
                    f"{carom_text[0].lower()}{carom_text[1:]}"
                )

        respot: dict[BallId, str] = {}
        restart = False
        if fouls:
            primary, others = fouls[0], fouls[1:]
            text = f"Foul: {primary.text} ({primary.articles})"
            for f in others:
                text += f"; also {f.text} ({f.articles})"
            text += "; inning over, no point"
            if carom:
                text += (
                    ", the carom made does not count (" + ("003 art. 14; 002 ART 7.3" if three else "002 ART 7.3") + ")"
                )
            if any(f.foul is Foul.BALL_OFF_TABLE for f in camera):
                respot, restart, where = self._respot(path, opponent.ball)
                text += where
            reason = text
            basis = tuple(b for f in fouls for b in f.basis)
            points = 0
        else:
            reason = carom_text
            basis = self._carom_basis(path, by_path)
            points = 1 if carom else 0
        if path.frozen_contact is not None and three:
            basis = basis + (
                (
                    path.frozen_contact,
                    f"first contact with the {path.frozen_contact.cushion.value} cushion it was frozen to, "
                    "not counted (003 art. 10)",
                ),
            )
        return Decision(
            points=points,
            carom=carom,
            fouls=tuple(fouls),
            path=path,
            player_ball=player_ball,
            carom_case=case,
            basis=basis,
            reason=reason,
            respot=respot,
            restart_from_break=restart,
        )

    def _camera_fouls(self, state: GameState, start: ShotStart | None, path: CuePath, cue: BallId) -> list[_FoulFound]:
        """The fouls the event log shows, in order of precedence: the wrong ball (003 art. 6(g), 8),
        playing into a touching ball or, in one-cushion, the frozen cushion (002 ART 10, 15.8), the
        break not taking the red first (003 art. 5), a ball off the table (003 art. 6(a), 11)."""
        three = self.game is Game.THREE_CUSHION
        player, opponent = state.player, state.opponent
        player_ball = player.ball
        o1 = path.first_ball
        camera: list[_FoulFound] = []
        if cue is not player_ball:
            whose = f"the ball of {opponent.name}" if cue is opponent.ball else "which is no player's ball"
            basis = ((start, f"shot start: the struck ball ({cue.value})"),) if start is not None else ()
            camera.append(
                _FoulFound(
                    Foul.WRONG_BALL,
                    f"{player.name} played the {cue.value}, {whose}; his ball is the {player_ball.value}",
                    Foul.WRONG_BALL.articles(self.game),
                    basis,
                )
            )
        if path.into_contact is not None and path.into_contact_event is not None:
            camera.append(
                _FoulFound(
                    Foul.PLAYED_INTO_CONTACT,
                    f"the cue ball ({cue.value}) was played directly into the {path.into_contact.value} it was touching",
                    "003 art. 9(a); 002 ART 10.1, 15.8" if three else "002 ART 10.1, 15.8",
                    ((path.into_contact_event, f"contact with the touching {path.into_contact.value}"),),
                )
            )
        elif not three and path.frozen_contact is not None:
            camera.append(
                _FoulFound(
                    Foul.PLAYED_INTO_CONTACT,
                    f"the cue ball ({cue.value}) was played directly into the {path.frozen_contact.cushion.value} "
                    "cushion it was frozen to",
                    "002 ART 10.2, 15.8",
                    (
                        (
                            path.frozen_contact,
                            f"contact with the {path.frozen_contact.cushion.value} cushion it was frozen to",
                        ),
                    ),
                )
            )
        if state.next_is_break and o1 is not None and o1 is not BallId.RED and path.first_contact is not None:
            camera.append(
                _FoulFound(
                    Foul.BREAK_NOT_RED_FIRST,
                    f"on the break the cue ball ({cue.value}) hit the {o1.value} before the red",
                    Foul.BREAK_NOT_RED_FIRST.articles(self.game),
                    ((path.first_contact, f"first object ball ({o1.value}), on the break"),),
                )
            )
        if path.off_table:
            left = list(dict.fromkeys(e.ball for e in path.off_table))
            names = " and the ".join(b.value for b in left)
            camera.append(
                _FoulFound(
                    Foul.BALL_OFF_TABLE,
                    f"the {names} left the table",
                    Foul.BALL_OFF_TABLE.articles(self.game),
                    tuple((e, f"{e.ball.value} off the table") for e in path.off_table),
                )
            )
        return camera

    def _respot(self, path: CuePath, incoming_ball: BallId) -> tuple[dict[BallId, str], bool, str]:
        """Where balls off the table go: (spots by ball, next shot from the break?, reason clause)."""
        left = list(dict.fromkeys(e.ball for e in path.off_table))
        if self.game is not Game.THREE_CUSHION:
            return (
                dict.fromkeys((BallId.WHITE, BallId.YELLOW, BallId.RED), "break_position"),
                True,
                "; the three balls go to the break position (002 ART 11.1.1)",
            )
        # 002 ART 11.1.2 -> ART 10.3.2: the red on the foot spot, the ball of the player who now has
        # the table (the opponent, after the foul) on the head spot, the other on the centre spot
        respot = {
            b: ("foot_spot" if b is BallId.RED else "head_spot" if b is incoming_ball else "centre_spot") for b in left
        }
        where = ", ".join(f"the {b.value} on the {SPOT_NAMES[s]}" for b, s in respot.items())
        many = len(left) > 1
        return (
            respot,
            False,
            (
                f"; only the ball{'s' if many else ''} that left the table {'are' if many else 'is'} "
                f"respotted: {where} (002 ART 11.1.2, 10.3.2)"
            ),
        )

    def _carom_text(self, path: CuePath, made: bool, case: str | None) -> str:
        c = path.cue_ball.value
        o1 = path.first_ball.value if path.first_ball else None
        o2 = path.second_ball.value if path.second_ball else None
        k1, k2 = path.cushions_before_first, path.cushions_before_second - path.cushions_before_first
        ks = path.cushions_before_second
        three = self.game is Game.THREE_CUSHION
        arts = "002 ART 27" if three else "002 ART 26" if self.min_cushions == 1 else "002 ART 7.2"
        if made and self.min_cushions == 0:
            text = f"Point: the cue ball ({c}) touched both object balls, the {o1} then the {o2} ({arts})"
        elif made and three:
            if case == "2(a)":
                text = (
                    f"Point: the cue ball ({c}) hit the {o1} first, then made {_impacts(k2)} before reaching the {o2}"
                )
            elif case == "2(b)":
                text = f"Point: the cue ball ({c}) made {_impacts(k1)} before hitting the {o1}, then reached the {o2}"
            else:
                text = (
                    f"Point: the cue ball ({c}) made {_impacts(k1)}, hit the {o1}, then made {k2} more before "
                    f"reaching the {o2}"
                )
            text += f" (003 art. {case}, 3; {arts})"
        elif made:
            text = (
                f"Point: the cue ball ({c}) made {_impacts(ks)} before reaching the second object ball ({o2}) ({arts})"
            )
        elif path.first_ball is None:
            text = f"No point: the cue ball ({c}) touched neither object ball (002 ART 7.2)"
        elif path.second_ball is None:
            text = f"No point: the cue ball ({c}) touched only the {o1} (002 ART 7.2)"
        elif three:
            text = (
                f"No point: the cue ball ({c}) made only {_impacts(ks)} before reaching the second object ball "
                f"({o2}); three are required (003 art. 2, 3; {arts})"
            )
        else:
            text = (
                f"No point: the cue ball ({c}) reached the second object ball ({o2}) before any cushion; one is "
                f"required ({arts})"
            )
        extras = []
        again = path.repeated_cushions if made else ()
        if again and three:
            extras.append(f"the {' and '.join(x.value for x in again)} cushion counted again (003 art. 3)")
        if path.frozen_contact is not None and three:
            extras.append(
                f"its first contact with the {path.frozen_contact.cushion.value} cushion it was frozen to "
                "did not count (003 art. 10)"
            )
        if path.kisses:
            extras.append(
                f"{path.kisses} kiss{'es' if path.kisses > 1 else ''} ("
                + (
                    "valid either way, 003 art. 15)"
                    if three
                    else "a contact counts whichever ball was moving, 002 ART 7.2)"
                )
            )
        return "; ".join([text] + extras)

    def _carom_basis(self, path: CuePath, made: bool) -> tuple[tuple[Event, str], ...]:
        out: list[tuple[Event, str]] = []
        if path.first_contact is not None and path.first_ball is not None:
            out.append((path.first_contact, f"first object ball ({path.first_ball.value})"))
        if path.second_contact is not None and path.second_ball is not None:
            for i, c in enumerate(path.cushions[: path.cushions_before_second], start=1):
                out.append((c, f"cushion impact {i} ({c.cushion.value})"))
            out.append((path.second_contact, f"second object ball ({path.second_ball.value})"))
            if not made and path.late_cushion is not None:
                n = path.cushions_before_second + 1
                out.append(
                    (
                        path.late_cushion,
                        f"cushion impact {n} ({path.late_cushion.cushion.value}, just after the second object ball)",
                    )
                )
        return tuple(out)

    def _after_match(self, state: GameState, shot: Shot, si: ShotInput) -> Call:
        winner = None if state.winner is None else state.players[state.winner].name
        return after_match_call(
            self.game,
            shot,
            player=state.player.name,
            score=state.score,
            winner=winner,
            note=si.note,
            reason="Not scored: the match was over before this shot (002 ART 12.2, 14.1.5)",
            summary=None,
            player_ball=state.player.ball,
            innings={p.name: p.innings for p in state.players},
            high_run={p.name: p.high_run for p in state.players},
            set_number=state.set_number if state.match.sets is not None else None,
            sets=({p.name: p.sets_won for p in state.players} if state.match.sets is not None else None),
            draw=state.draw,
        )


def make_engine(game: Game, config: JudgeConfig, table: TableSpots | None = None) -> CushionCaromEngine:
    """The engine of three-cushion (003) or one-cushion (002 ART 26); :mod:`rules.core.engine`'s
    registry calls it. ``table`` is not read: no rule of this game depends on the table's spots."""
    if game is Game.THREE_CUSHION:
        return CushionCaromEngine(game=game, min_cushions=3, config=config)
    if game is Game.ONE_CUSHION:
        return CushionCaromEngine(game=game, min_cushions=1, config=config)
    raise ShotError(f"rules.carom.engine judges three-cushion and one-cushion, got {game.value}")
