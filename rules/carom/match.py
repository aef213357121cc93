"""Match management of the carom games: points, innings, series, the end of the game and of sets.

Shared by every carom engine (three-cushion, one-cushion, later libre and the balk-line games):
it knows nothing of how a point is made, only that a shot scored or did not, per the general
carom rules (002):

- ART 7.4-7.5: a carom is one point and the player keeps the table; a miss (or a foul, ART 15)
  passes it to the opponent.
- ART 12 (distance, no innings limit): when the player who started reaches the distance (so he
  has one more inning than his opponent) the opponent has the equalizing inning ("contrasalida")
  from the break position; reaching the distance in it makes the game a draw (12.3-12.4).
- ART 13 (innings limit): the same equalizing inning when the starter reaches the distance or
  exhausts the limit; when both have played the limit, the one with more points wins (13.3-13.4).
- ART 14 (sets): each set is a game to the distance with no equalizing inning; sets are started
  alternately, the deciding set by whoever started the first; the match ends as soon as a player
  has the sets he needs (14.1.1-14.1.5).

``turn_over`` means the shooter's inning is over (a miss, a foul, or the game, set or his part of
it ended); ``game_over`` that the game (or set) ended with this shot.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.carom.inputs import MatchSetup, _starter_of_set, resolve_start
from rules.carom.state import Equalizing, GameState, PlayerState, SetRecord
from rules.core.games import Game
from tracking.ids import BallId

__all__ = ["MatchNews", "initial_state", "choose_balls", "advance"]


@dataclass(frozen=True)
class MatchNews:
    """What a shot did to the match, for the call: the shooter's ``series`` after it, whether his
    inning ended, whether the game (set) and the match ended, the winner's index or a draw, and
    sentences (citing the articles) for the reason."""

    series: int
    turn_over: bool
    game_over: bool
    match_over: bool
    winner: int | None
    draw: bool
    sentences: tuple[str, ...]
    finished_set: SetRecord | None = None


def _balls_for(starter: int) -> tuple[BallId, BallId]:
    """002 ART 5.8: the player who starts plays the white."""
    return (BallId.WHITE, BallId.YELLOW) if starter == 0 else (BallId.YELLOW, BallId.WHITE)


def _balls_free(game: Game) -> bool:
    """003 art. 4(c): in three-cushion the starter chooses his ball (white or yellow)."""
    return game is Game.THREE_CUSHION


def initial_state(game: Game, setup: MatchSetup | None = None) -> GameState:
    """The state before the first shot of the log: a new game, or the referee's start."""
    setup = setup or MatchSetup()
    r = resolve_start(setup)
    players = tuple(
        PlayerState(
            name=setup.players[i],
            ball=r.balls[i],
            points=r.score[i],
            innings=r.innings[i],
            high_run=r.high_run[i],
            sets_won=r.sets_won[i],
            total_points=r.score[i],
            total_innings=r.innings[i],
        )
        for i in (0, 1)
    )
    # a new game of one-cushion: the starter plays the white (002 ART 5.8); a new three-cushion game:
    # the starter plays the ball he breaks with (003 art. 4(c)); a log that starts mid-game with no
    # balls given: each player plays the ball he is first seen playing (nothing else can tell)
    balls_chosen = r.balls_given or (not _balls_free(game) and r.fresh and r.next_is_break)
    return GameState(
        game=game,
        match=setup.match,
        players=(players[0], players[1]),
        at_table=r.at_table,
        starter=r.starter,
        first_starter=r.first_starter,
        series=r.series,
        in_inning=r.in_inning,
        next_is_break=r.next_is_break,
        balls_chosen=balls_chosen,
        equalizing=r.equalizing,
        set_number=r.set_number,
    )


def choose_balls(state: GameState, cue_ball: BallId) -> GameState:
    """Settle the balls from the first shot when nobody gave them: the player at the table plays
    ``cue_ball`` (white or yellow) and his opponent the other — at a three-cushion break because the
    starter chooses (003 art. 4(c)), mid-game because nothing else tells. Otherwise unchanged."""
    if state.balls_chosen or cue_ball not in (BallId.WHITE, BallId.YELLOW):
        return state
    other = BallId.YELLOW if cue_ball is BallId.WHITE else BallId.WHITE
    p = state.at_table
    balls = [other, other]
    balls[p] = cue_ball
    players = tuple(replace(pl, ball=balls[i]) for i, pl in enumerate(state.players))
    return replace(state, players=(players[0], players[1]), balls_chosen=True)


def _set_player(state: GameState, i: int, **changes: Any) -> tuple[PlayerState, PlayerState]:
    ps = list(state.players)
    ps[i] = replace(ps[i], **changes)
    return (ps[0], ps[1])


def _score_text(state: GameState) -> str:
    a, b = state.players
    return f"{a.points}-{b.points}"


def advance(state: GameState, scored: bool, restart_from_break: bool = False) -> tuple[GameState, MatchNews]:
    """Apply one judged shot (``scored``: it made a point, no foul) to ``state``.

    ``restart_from_break``: the balls go to the break position after this shot (002 ART 11.1.1:
    a ball off the table in the games other than three-cushion), so the next shot is a break."""
    p = state.at_table
    me = state.players[p]
    if not state.in_inning:  # the inning begins with its first shot
        state = replace(
            state,
            players=_set_player(state, p, innings=me.innings + 1, total_innings=me.total_innings + 1),
            series=0,
            in_inning=True,
        )
        me = state.players[p]
    if scored:
        series = state.series + 1
        state = replace(
            state,
            series=series,
            next_is_break=False,
            players=_set_player(
                state, p, points=me.points + 1, total_points=me.total_points + 1, high_run=max(me.high_run, series)
            ),
        )
        distance = state.match.distance
        if distance is not None and state.players[p].points >= distance:
            return _distance_reached(state, series)
        return replace(state, shots=state.shots + 1), MatchNews(series, False, False, False, None, False, ())
    return _inning_over(state, state.series, restart_from_break)


def _finish(state: GameState, series: int, winner: int | None, sentences: list[str]) -> tuple[GameState, MatchNews]:
    draw = winner is None
    end = replace(
        state,
        match_over=True,
        winner=winner,
        draw=draw,
        in_inning=False,
        series=0,
        equalizing=None,
        shots=state.shots + 1,
    )
    return end, MatchNews(series, True, True, True, winner, draw, tuple(sentences))


def _distance_reached(state: GameState, series: int) -> tuple[GameState, MatchNews]:
    p, o = state.at_table, 1 - state.at_table
    me, opp = state.players[p], state.players[o]
    d = state.match.distance
    if state.match.sets is not None:
        return _set_won(state, series, p)
    if state.equalizing is Equalizing.DISTANCE:
        return _finish(
            state,
            series,
            None,
            [
                f"{me.name} also reaches the distance ({d}) in the equalizing inning: the game is a draw "
                f"{_score_text(state)} (002 ART 12.4)"
            ],
        )
    if me.innings > opp.innings:  # the starter: his opponent equalizes the innings
        art = "002 ART 12.3, 13.3" if state.match.innings_limit is not None else "002 ART 12.3"
        nxt = replace(
            state,
            at_table=o,
            in_inning=False,
            series=0,
            next_is_break=True,
            equalizing=Equalizing.DISTANCE,
            shots=state.shots + 1,
        )
        return nxt, MatchNews(
            series,
            True,
            False,
            False,
            None,
            False,
            (
                f"{me.name} reaches the distance ({d}) in {me.innings} innings; {opp.name} plays the equalizing "
                f"inning from the break position ({art})",
            ),
        )
    return _finish(
        state,
        series,
        p,
        [f"{me.name} reaches the distance ({d}) and wins {_score_text(state)} in {me.innings} innings (002 ART 12.4)"],
    )


def _by_points(state: GameState, series: int, lead: str) -> tuple[GameState, MatchNews]:
    a, b = state.players
    winner = None if a.points == b.points else (0 if a.points > b.points else 1)
    tail = (
        f"the game is a draw {_score_text(state)}"
        if winner is None
        else f"{state.players[winner].name} wins on points {_score_text(state)}"
    )
    return _finish(state, series, winner, [f"{lead}: {tail} (002 ART 13.4)"])


def _inning_over(state: GameState, series: int, restart_from_break: bool) -> tuple[GameState, MatchNews]:
    p, o = state.at_table, 1 - state.at_table
    me, opp = state.players[p], state.players[o]
    limit = state.match.innings_limit
    if state.equalizing is Equalizing.DISTANCE:
        starter = state.players[state.starter]
        return _finish(
            state,
            series,
            state.starter,
            [
                f"{me.name}'s equalizing inning ends short of the distance: {starter.name} wins {_score_text(state)} "
                "(002 ART 12.4)"
            ],
        )
    if state.equalizing is Equalizing.INNINGS_LIMIT or (
        limit is not None and me.innings >= limit and opp.innings >= limit
    ):
        return _by_points(state, series, f"both players have played the innings limit ({limit})")
    if limit is not None and me.innings >= limit:  # the starter's last inning: the opponent plays his
        nxt = replace(
            state,
            at_table=o,
            in_inning=False,
            series=0,
            next_is_break=restart_from_break,
            equalizing=Equalizing.INNINGS_LIMIT,
            shots=state.shots + 1,
        )
        return nxt, MatchNews(
            series,
            True,
            False,
            False,
            None,
            False,
            (f"{me.name} has played the innings limit ({limit}); {opp.name} plays his last inning (002 ART 13.3)",),
        )
    nxt = replace(state, at_table=o, in_inning=False, series=0, next_is_break=restart_from_break, shots=state.shots + 1)
    return nxt, MatchNews(series, True, False, False, None, False, ())


def _set_won(state: GameState, series: int, p: int) -> tuple[GameState, MatchNews]:
    me = state.players[p]
    rec = SetRecord(
        number=state.set_number,
        starter=state.starter,
        points=(state.players[0].points, state.players[1].points),
        innings=(state.players[0].innings, state.players[1].innings),
        winner=p,
    )
    won = me.sets_won + 1
    state = replace(state, players=_set_player(state, p, sets_won=won), sets=state.sets + (rec,))
    sets_text = f"{state.players[0].sets_won}-{state.players[1].sets_won}"
    first = (
        f"{me.name} reaches the distance ({state.match.distance}) and wins set {rec.number} "
        f"{rec.points[0]}-{rec.points[1]}, sets {sets_text} (002 ART 14.1.1)"
    )
    assert state.match.sets_to_win is not None and state.match.sets is not None
    if won >= state.match.sets_to_win:
        end = replace(state, match_over=True, winner=p, draw=False, in_inning=False, series=0, shots=state.shots + 1)
        return end, MatchNews(
            series,
            True,
            True,
            True,
            p,
            False,
            (first, f"{me.name} wins the match {sets_text} in sets (002 ART 14.1.5)"),
            rec,
        )
    n = state.set_number + 1
    starter = _starter_of_set(state.first_starter, n, state.match.sets)
    balls = _balls_for(starter)
    players = tuple(replace(pl, points=0, innings=0, ball=balls[i]) for i, pl in enumerate(state.players))
    why = (
        "the deciding set, by who started the first, 002 ART 14.1.4"
        if n == state.match.sets
        else "sets are started alternately, 002 ART 14.1.3"
    )
    nxt = replace(
        state,
        players=(players[0], players[1]),
        set_number=n,
        starter=starter,
        at_table=starter,
        in_inning=False,
        series=0,
        next_is_break=True,
        balls_chosen=not _balls_free(state.game),
        equalizing=None,
        shots=state.shots + 1,
    )
    return nxt, MatchNews(
        series,
        True,
        True,
        False,
        None,
        False,
        (first, f"set {n} is started by {state.players[starter].name} ({why})"),
        rec,
    )
