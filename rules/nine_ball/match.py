"""The match after a shot's verdict: who is at the table, ball in hand, push-out and option,
consecutive fouls (000 6.14), the end of a rack (the game ball, three fouls, rotation's points,
a stalemate 2.9), racks won, the race and who breaks next (000 2.1, 2.3(e); :class:`RaceConfig`).

:func:`advance` is pure: (state, decision, shooter, referee input) -> (state, news).

Readings (README.md): a foul-free shot of the player -- a legal push-out or safety included --
ends his run of fouls, since 6.14 counts "tres faltas consecutivas en tres tiros sucesivos" and
such a shot is one of his successive shots without a foul; a missed rack on the break (2.3(e))
is no foul with ball in hand and does not count. A stalemate (2.9) draws the rack: it is
re-racked and the same player breaks again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.nine_ball.decide import Decision
from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.inputs import NineBallShotInput
from rules.nine_ball.state import NineBallState, RackResult
from rules.nine_ball.variants import variant_of
from tracking.ids import BallId

__all__ = ["News", "advance"]


@dataclass(frozen=True)
class News:
    """What the shot did to the match: the sentences for the reason, whether the shooter's turn
    ended, the rack ended (won by ``rack_winner``, or ``drawn``), the match ended (``winner``),
    whether the referee must warn the shooter (two fouls, 000 6.14), and the finished rack."""

    sentences: tuple[str, ...]
    turn_over: bool
    rack_over: bool
    rack_winner: int | None
    drawn: bool
    lost_on_fouls: bool
    warning: bool
    match_over: bool
    winner: int | None
    finished: RackResult | None
    consecutive_fouls: tuple[int, int] = (0, 0)


def _rule_words(state: NineBallState) -> str:
    return {
        "alternate": "breaks alternate, 000 2.1",
        "winner": "the winner breaks, 000 2.1; 002 bola 9 ART 5.1",
        "loser": "the loser breaks, as the organiser chose, 000 2.1",
    }[state.race.break_rule.value]


def _count_foul(
    state: NineBallState, shooter: int, si: NineBallShotInput, fouls: list[int], out: list[str]
) -> tuple[int | None, str, bool, bool]:
    """000 6.14 (002 bola 9 ART 10.1.1): a foul counts toward three in a row (the third loses the
    rack; without the referee's warning after the second it counts as the second). Returns the
    rack's winner (or None), how, whether it was lost on fouls, and whether to warn."""
    names, opp = state.players, 1 - shooter
    n = fouls[shooter] + 1
    if n == 3 and not si.warned:
        n = 2
        out.append(
            f"The referee did not warn {names[shooter]} of his two fouls, so this third one counts as the "
            "second (000 6.14)"
        )
    fouls[shooter] = n
    if n >= 3:
        out.append(
            f"Third consecutive foul of {names[shooter]} in this rack: he loses it (000 6.14; 002 bola 9 ART 10.1.1)"
        )
        return opp, f"{names[shooter]} committed three consecutive fouls (000 6.14)", True, False
    if n == 2:
        out.append(
            f"{names[shooter]} has two consecutive fouls: the referee warns him when he next comes to "
            "the table (000 6.14)"
        )
        return None, "", False, True
    return None, "", False, False


def _legal_shot_wins(
    state: NineBallState, d: Decision, shooter: int, score: list[int], points: list[int], balls: frozenset[BallId]
) -> tuple[int | None, str]:
    """000 2.5: the game ball on a legal shot (or break) wins the rack; rotation: the rack's target
    points, the cleared table (the higher score), or the match's points. Returns the winner, how."""
    v, names, opp = variant_of(state.game), state.players, 1 - shooter
    winner: int | None = None
    how = ""
    if d.wins:
        gb = v.game_ball.value if v.game_ball else "?"
        return shooter, (
            f"{names[shooter]} pocketed the {gb} on the break (000 2.5)"
            if state.next_is_break
            else f"{names[shooter]} pocketed the {gb} on a legal shot (000 2.5)"
        )
    if not v.scored:
        return None, ""
    target = state.rack_target or 0
    if score[shooter] >= target:
        winner = shooter
        how = f"{names[shooter]} reached {target} points ({v.source})"
    elif not balls:
        winner = shooter if score[shooter] >= score[opp] else opp
        how = (
            f"the table was cleared and {names[winner]} has more points ({v.source})"
            if score[0] != score[1]
            else f"the table was cleared at {score[0]}-{score[1]}: {names[shooter]} pocketed the last ball"
        )
    if state.race_points is not None and points[shooter] >= state.race_points and winner is None:
        winner = shooter
        how = f"{names[shooter]} reached the match's {state.race_points} points"
    return winner, how


def _rack_over(
    state: NineBallState,
    d: Decision,
    winner: int | None,
    how: str,
    drawn: bool,
    lost: bool,
    warning: bool,
    score: list[int],
    points: list[int],
    fouls: list[int],
    out: list[str],
) -> tuple[NineBallState, News]:
    """The rack won or drawn (000 2.9): recorded; the race (the match won), else who breaks the
    next rack (000 2.1; the stalemated rack's breaker again, 2.9)."""
    v, names = variant_of(state.game), state.players
    rec = RackResult(
        number=state.rack,
        breaker=state.breaker,
        winner=winner,
        how=how if winner is not None else "stalemate, drawn (000 2.9)",
        points=(score[0], score[1]),
        shots=state.rack_shots + 1,
    )
    racks = list(state.racks_won)
    if winner is not None:
        racks[winner] += 1
    racks_won = (racks[0], racks[1])
    match_winner = state.race.match_winner(racks_won)
    if v.scored and state.race_points is not None:
        for i in (0, 1):
            if points[i] >= state.race_points:
                match_winner = i
    if winner is not None:
        won = "Racks" if d.wins else f"{names[winner]} wins rack {state.rack}: {how}. Racks"
        out.append(f"{won} after rack {state.rack}: {names[0]} {racks[0]}, {names[1]} {racks[1]}")
    if match_winner is not None:
        goal = (
            f"race to {state.race.race_to}" if state.race.race_to is not None else f"race to {state.race_points} points"
        )
        out.append(f"{names[match_winner]} wins the match ({goal})")
        nb = state.breaker
    else:
        nb = state.breaker if drawn else state.race.next_breaker(state.break_turn, winner)  # type: ignore[arg-type]
        out.append(
            f"{names[nb]} breaks rack {state.rack + 1} ("
            + ("the stalemated rack's breaker, 000 2.9" if drawn else _rule_words(state))
            + ")"
        )
    new = replace(
        state,
        balls=frozenset(v.balls),
        at_table=nb,
        breaker=nb,
        break_turn=nb,
        next_is_break=True,
        ball_in_hand=False,
        push_out_allowed=False,
        option=False,
        consecutive_fouls=(0, 0),
        racks_won=racks_won,
        score=(0, 0),
        points=(points[0], points[1]),
        rack=state.rack + 1,
        rack_shots=0,
        records=state.records + (rec,),
        shots=state.shots + 1,
        match_over=match_winner is not None,
        winner=match_winner,
        balls_known=True,
    )
    return new, News(
        tuple(out),
        True,
        True,
        winner,
        drawn,
        lost,
        warning,
        match_winner is not None,
        match_winner,
        rec,
        (fouls[0], fouls[1]),
    )


def _rebreak(
    state: NineBallState, shooter: int, balls: frozenset[BallId], fouls: list[int], out: list[str]
) -> tuple[NineBallState, News]:
    """000 2.3(e): the break missed the rack: the opponent breaks it instead, the order of the
    next break unchanged."""
    opp = 1 - shooter
    out.append(
        f"{state.players[opp]} breaks this rack instead; the order of the next break stays as it was (000 2.3(e))"
    )
    new = replace(
        state,
        balls=balls,
        at_table=opp,
        breaker=opp,
        next_is_break=True,
        ball_in_hand=False,
        push_out_allowed=False,
        option=False,
        consecutive_fouls=(fouls[0], fouls[1]),
        rack_shots=state.rack_shots + 1,
        shots=state.shots + 1,
    )
    return new, News(tuple(out), True, False, None, False, False, False, False, None, None, new.consecutive_fouls)


def _next_turn(
    state: NineBallState,
    d: Decision,
    shooter: int,
    balls: frozenset[BallId],
    warning: bool,
    score: list[int],
    points: list[int],
    fouls: list[int],
    out: list[str],
) -> tuple[NineBallState, News]:
    """The rack goes on: after a foul the opponent with ball in hand (000 2.7), after a push-out or
    a ten-ball ball pocketed off the call the opponent's option (2.4), after a ball pocketed the
    shooter again (2.5), else the opponent; a push-out is allowed only on the shot after the
    break (2.4)."""
    v, opp = variant_of(state.game), 1 - shooter
    if not d.legal:
        at, bih, option = opp, True, False
    elif d.option:
        at, bih, option = opp, False, True
    else:
        at, bih, option = (shooter if d.continues else opp), False, False
    new = replace(
        state,
        balls=balls,
        at_table=at,
        next_is_break=False,
        ball_in_hand=bih,
        push_out_allowed=state.next_is_break and d.legal and v.push_out,
        option=option,
        consecutive_fouls=(fouls[0], fouls[1]),
        score=(score[0], score[1]),
        points=(points[0], points[1]),
        rack_shots=state.rack_shots + 1,
        shots=state.shots + 1,
    )
    return new, News(
        tuple(out), at != shooter, False, None, False, False, warning, False, None, None, new.consecutive_fouls
    )


def advance(
    state: NineBallState, d: Decision, shooter: int, si: NineBallShotInput, shot: int
) -> tuple[NineBallState, News]:
    """The state after the shot decided by ``d``, played by ``shooter`` (the player at the table,
    or the one the shot was passed back to). ``state.balls`` are the balls at the shot's start."""
    out: list[str] = []
    balls = (state.balls - set(d.pocketed) - set(d.off_table)) | set(d.respot)
    fouls = list(state.consecutive_fouls)
    score, points = list(state.score), list(state.points)
    warning = lost = False
    winner: int | None = None
    how = ""
    if d.missed_rack:
        pass
    elif not d.legal:
        winner, how, lost, warning = _count_foul(state, shooter, si, fouls, out)
    else:
        fouls[shooter] = 0
        score[shooter] += d.points
        points[shooter] += d.points
        winner, how = _legal_shot_wins(state, d, shooter, score, points, balls)
    drawn = False
    if si.stalemate:
        if winner is not None:
            raise NineBallInputError(f"shot {shot}: stalemate (000 2.9) declared on the shot that ended the rack")
        drawn = True
        out.append(
            "The referee declares the rack stalemated: it is drawn, re-racked, and the same player breaks "
            "again (000 2.9)"
        )
    if winner is not None or drawn:
        return _rack_over(state, d, winner, how, drawn, lost, warning, score, points, fouls, out)
    if d.missed_rack:
        return _rebreak(state, shooter, balls, fouls, out)
    return _next_turn(state, d, shooter, balls, warning, score, points, fouls, out)
