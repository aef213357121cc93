"""The score sheet of a nine-ball-family match: JSON-ready (``score_sheet``) and as a readable
table (``format_score_sheet``). ``resume`` is the referee-input ``start`` object that continues
the match from this state (with the same ``players`` and ``match``)."""

from __future__ import annotations

from typing import Any

from rules.nine_ball.state import NineBallState
from rules.nine_ball.variants import number, variant_of

__all__ = ["balls_list", "resume", "score_sheet", "format_score_sheet"]


def _by_name(state: NineBallState, pair: tuple[int, int]) -> dict[str, int]:
    return {state.players[0]: pair[0], state.players[1]: pair[1]}


def balls_list(balls: frozenset) -> list[str]:
    return [b.value for b in sorted(balls, key=number)]


def resume(state: NineBallState) -> dict[str, Any]:
    """The ``start`` object that continues the match from ``state``."""
    names = state.players
    v = variant_of(state.game)
    r: dict[str, Any] = {
        "at_table": names[state.at_table],
        "breaker": names[state.breaker],
        "break_turn": names[state.break_turn],
        "racks_won": _by_name(state, state.racks_won),
        "rack": state.rack,
        "next_is_break": state.next_is_break,
    }
    if not state.next_is_break:
        r.update(
            {
                "balls": balls_list(state.balls),
                "ball_in_hand": state.ball_in_hand,
                "push_out_allowed": state.push_out_allowed,
                "option": state.option,
                "consecutive_fouls": _by_name(state, state.consecutive_fouls),
            }
        )
        if v.scored:
            r["score"] = _by_name(state, state.score)
    if v.scored:
        r["points"] = _by_name(state, state.points)
    return r


def score_sheet(state: NineBallState) -> dict[str, Any]:
    """The match so far: every finished rack, racks won, the rack in play, who is at the table."""
    names = state.players
    v = variant_of(state.game)
    racks = []
    for rec in state.records:
        row: dict[str, Any] = {
            "rack": rec.number,
            "breaker": names[rec.breaker],
            "winner": None if rec.winner is None else names[rec.winner],
            "how": rec.how,
            "shots": rec.shots,
        }
        if v.scored:
            row["points"] = _by_name(state, rec.points)
        racks.append(row)
    sheet: dict[str, Any] = {
        "game": state.game.value,
        "players": list(names),
        "race_to": state.race.race_to,
        "break_rule": state.race.break_rule.value,
        "racks": racks,
        "racks_won": _by_name(state, state.racks_won),
        "rack": state.rack,
        "at_table": names[state.at_table],
        "breaker": names[state.breaker],
        "next_is_break": state.next_is_break,
        "balls_on_table": balls_list(state.balls),
        "ball_in_hand": state.ball_in_hand,
        "consecutive_fouls": _by_name(state, state.consecutive_fouls),
        "shots": state.shots,
        "match_over": state.match_over,
        "winner": None if state.winner is None else names[state.winner],
    }
    if v.scored:
        sheet.update(
            {
                "rack_points": state.rack_target,
                "race_points": state.race_points,
                "score": _by_name(state, state.score),
                "points": _by_name(state, state.points),
            }
        )
    sheet["resume"] = resume(state)
    return sheet


def format_score_sheet(state: NineBallState) -> str:
    """The score sheet as a fixed-width table, one row per finished rack."""
    names = state.players
    v = variant_of(state.game)
    race = f"race to {state.race.race_to}" if state.race.race_to is not None else "no race limit"
    if v.scored and state.race_points is not None:
        race += f", race to {state.race_points} points"
    lines = [f"{state.game.value}: {names[0]} vs {names[1]} ({race}, breaks: {state.race.break_rule.value})"]
    w = max(len(n) for n in names + ("winner",))
    head = f"{'rack':>4}  {'breaker':<{w}}  {'winner':<{w}}  {'shots':>5}"
    if v.scored:
        head += f"  {names[0][:8]:>8}  {names[1][:8]:>8}"
    lines += [head + "  how", "-" * (len(head) + 5)]
    for rec in state.records:
        row = (
            f"{rec.number:>4}  {names[rec.breaker]:<{w}}  "
            f"{(names[rec.winner] if rec.winner is not None else 'drawn'):<{w}}  {rec.shots:>5}"
        )
        if v.scored:
            row += f"  {rec.points[0]:>8}  {rec.points[1]:>8}"
        lines.append(row + "  " + rec.how)
    lines.append(f"racks won: {names[0]} {state.racks_won[0]}, {names[1]} {state.racks_won[1]}")
    if v.scored:
        lines.append(f"points: {names[0]} {state.points[0]}, {names[1]} {state.points[1]}")
    if state.match_over:
        lines.append(f"match over: {names[state.winner]} wins" if state.winner is not None else "match over")
    else:
        lines.append(
            f"rack {state.rack}: {names[state.at_table]} at the table"
            + (
                " to break"
                if state.next_is_break
                else f", balls {' '.join(balls_list(state.balls))}" + (" (ball in hand)" if state.ball_in_hand else "")
            )
        )
    return "\n".join(lines)
