"""The carom score sheet (three-cushion, one-cushion and the balk-line games).

The score sheet (``score_sheet(state)``) is what the referee and scorer sign (003 art. 18): per
player the ball, points, innings, average (points / innings), high run and sets; the sets played;
who is at the table; and ``resume``, the state in the referee input's ``start`` format, so a later
clip of the same match can be judged from where this one ended.
"""

from __future__ import annotations

from typing import Any

from rules.carom.state import Equalizing, GameState

__all__ = ["resume_start", "score_sheet", "format_score_sheet"]


def resume_start(state: GameState) -> dict[str, Any]:
    """The referee input ``start`` object that resumes judging from ``state``."""
    names = [p.name for p in state.players]
    d: dict[str, Any] = {
        "at_table": names[state.at_table],
        "starter": names[state.starter],
        "score": {p.name: p.points for p in state.players},
        "innings": {p.name: p.innings for p in state.players},
        "series": state.series if state.in_inning else 0,
        "high_run": {p.name: p.high_run for p in state.players},
        "next_is_break": state.next_is_break,
    }
    if state.balls_chosen:
        d["balls"] = {p.name: p.ball.value for p in state.players}
    if state.equalizing is not None:
        d["equalizing"] = True
    if state.match.sets is not None:
        d["set"] = state.set_number
        d["sets_won"] = {p.name: p.sets_won for p in state.players}
        d["first_set_starter"] = names[state.first_starter]
    return d


def score_sheet(state: GameState) -> dict[str, Any]:
    """The score sheet of ``state`` as a JSON-ready dict (see the module docstring)."""
    names = [p.name for p in state.players]
    sheet: dict[str, Any] = {
        "game": state.game.value,
        "match": {
            "distance": state.match.distance,
            "innings_limit": state.match.innings_limit,
            "sets": state.match.sets,
        },
        "players": [
            {
                "name": p.name,
                "ball": p.ball.value,
                "points": p.points,
                "innings": p.innings,
                "average": round(p.average, 3),
                "high_run": p.high_run,
                "sets_won": p.sets_won if state.match.sets is not None else None,
                "total_points": p.total_points,
                "total_innings": p.total_innings,
                "general_average": round(p.match_average, 3),
            }
            for p in state.players
        ],
        "at_table": None if state.match_over else names[state.at_table],
        "series": state.series if state.in_inning else 0,
        "starter": names[state.starter],
        "next_is_break": state.next_is_break,
        "equalizing_inning": None
        if state.equalizing is None
        else ("after the distance" if state.equalizing is Equalizing.DISTANCE else "after the innings limit"),
        "set": state.set_number if state.match.sets is not None else None,
        "sets": [
            {
                "set": r.number,
                "starter": names[r.starter],
                "points": {names[i]: r.points[i] for i in (0, 1)},
                "innings": {names[i]: r.innings[i] for i in (0, 1)},
                "winner": names[r.winner],
            }
            for r in state.sets
        ],
        "match_over": state.match_over,
        "winner": None if state.winner is None else names[state.winner],
        "draw": state.draw,
        "shots_judged": state.shots,
        "resume": None if state.match_over else resume_start(state),
    }
    return sheet


def format_score_sheet(state: GameState) -> str:
    """The carom score sheet as a readable table: per player ball, points, innings, average, high
    run (and sets), then who is at the table or the result."""
    sheet = score_sheet(state)
    header = ["player", "ball", "points", "innings", "average", "high run"]
    with_sets = state.match.sets is not None
    if with_sets:
        header.append("sets")
    rows = [
        [p["name"], p["ball"], str(p["points"]), str(p["innings"]), f"{p['average']:.3f}", str(p["high_run"])]
        + ([str(p["sets_won"])] if with_sets else [])
        for p in sheet["players"]
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    if sheet["match_over"]:
        lines.append("match over: " + (f"{sheet['winner']} wins" if sheet["winner"] else "draw"))
    else:
        lines.append(f"at the table: {sheet['at_table']}")
    return "\n".join([f"{state.game.value} score sheet"] + lines)
