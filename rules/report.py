"""Readable outputs of the judge: a summary table of the calls, and the score sheet.

The score sheet (``score_sheet(state)``) is what the referee and scorer sign (003 art. 18): per
player the ball, points, innings, average (points / innings), high run and sets; the sets played;
who is at the table; and ``resume``, the state in the referee input's ``start`` format, so a later
clip of the same match can be judged from where this one ended.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.call import Call
from rules.games import Family
from rules.state import Equalizing, GameState


def _result(c: Call) -> str:
    if c.summary:
        return c.summary
    if c.foul is not None:
        return f"FOUL {c.foul.value}"
    if c.points:
        return "point" + (f" {c.carom_case}" if c.carom_case else "")
    return "miss"


def format_calls_table(calls: Sequence[Call]) -> str:
    """One line per call: shot, player, cue ball, result (the call's ``summary`` where the engine
    gives one), cushions before the second ball (carom), score after the shot, and flags (break,
    equalizing inning, end of game, review). Works for the calls of every game."""
    header = ("shot", "player", "ball", "call", "cush", "score", "flags")
    rows: list[tuple[str, ...]] = []
    for c in calls:
        flags = []
        if c.break_shot:
            flags.append("break")
        if c.equalizing_inning:
            flags.append("equalizing")
        if c.game_over:
            flags.append("match over" if c.match_over else ("set over" if c.game.family is Family.CAROM else "rack over"))
        if c.winner:
            flags.append(f"winner {c.winner}")
        elif c.draw and c.match_over:
            flags.append("draw")
        if c.needs_review:
            flags.append("REVIEW")
        cush = "-" if c.cushions_before_second_ball is None or c.second_ball is None else str(c.cushions_before_second_ball)
        score = ":".join(str(v) for v in c.score.values())  # ":" so that a negative score (14.1) reads "1:-1"
        rows.append((str(c.shot), c.player, c.cue_ball.value if c.cue_ball else "?", _result(c), cush, score,
                     " ".join(flags)))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    right = {0, 4}

    def line(r: tuple[str, ...]) -> str:
        return "  ".join(v.rjust(w) if i in right else v.ljust(w) for i, (v, w) in enumerate(zip(r, widths, strict=True))).rstrip()

    out = [line(header), line(tuple("-" * w for w in widths))] + [line(r) for r in rows]
    n_points = sum(max(c.points, 0) for c in calls)
    n_fouls = sum(1 for c in calls if c.foul is not None)
    n_review = sum(1 for c in calls if c.needs_review)
    out.append(f"{len(calls)} shots: {n_points} points, {n_fouls} fouls, {n_review} to review")
    return "\n".join(out)


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
        "match": {"distance": state.match.distance, "innings_limit": state.match.innings_limit,
                  "sets": state.match.sets},
        "players": [
            {
                "name": p.name, "ball": p.ball.value, "points": p.points, "innings": p.innings,
                "average": round(p.average, 3), "high_run": p.high_run,
                "sets_won": p.sets_won if state.match.sets is not None else None,
                "total_points": p.total_points, "total_innings": p.total_innings,
                "general_average": round(p.match_average, 3),
            }
            for p in state.players
        ],
        "at_table": None if state.match_over else names[state.at_table],
        "series": state.series if state.in_inning else 0,
        "starter": names[state.starter],
        "next_is_break": state.next_is_break,
        "equalizing_inning": None if state.equalizing is None else (
            "after the distance" if state.equalizing is Equalizing.DISTANCE else "after the innings limit"),
        "set": state.set_number if state.match.sets is not None else None,
        "sets": [
            {"set": r.number, "starter": names[r.starter], "points": {names[i]: r.points[i] for i in (0, 1)},
             "innings": {names[i]: r.innings[i] for i in (0, 1)}, "winner": names[r.winner]}
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
    rows = [[p["name"], p["ball"], str(p["points"]), str(p["innings"]), f"{p['average']:.3f}", str(p["high_run"])]
            + ([str(p["sets_won"])] if with_sets else []) for p in sheet["players"]]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    if sheet["match_over"]:
        lines.append("match over: " + (f"{sheet['winner']} wins" if sheet["winner"] else "draw"))
    else:
        lines.append(f"at the table: {sheet['at_table']}")
    return "\n".join([f"{state.game.value} score sheet"] + lines)
