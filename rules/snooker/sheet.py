"""The snooker score sheet: the frames played (who broke off, who won, the points, the highest
breaks), the frame in play (scores, the ball on, reds and colours left, points remaining,
snookers required, the current break, who is at the table), the match (frames won, the race,
highest breaks) and ``resume``: the referee input ``start`` object that continues the match from
here. :func:`format_score_sheet` prints it as a table."""

from __future__ import annotations

from typing import Any

from rules.snooker.state import SnookerState

__all__ = ["resume_start", "score_sheet", "format_score_sheet"]


def resume_start(state: SnookerState) -> dict[str, Any]:
    """The ``start`` object of the referee input that resumes judging from ``state``."""
    n = state.players
    d: dict[str, Any] = {
        "at_table": n[state.at_table],
        "breaker": n[state.breaker],
        "frame": state.frame,
        "frames_won": {n[i]: state.frames_won[i] for i in (0, 1)},
        "high_break": {n[i]: state.high_breaks[i] for i in (0, 1)},
        "next_is_break": state.next_is_break,
    }
    if not state.next_is_break:
        d.update(
            {
                "score": {n[i]: state.scores[i] for i in (0, 1)},
                "reds": state.reds,
                "ball_on": state.on.value,
                "break": state.current_break,
                "frame_high_break": {n[i]: state.frame_high_breaks[i] for i in (0, 1)},
                "ball_in_hand": state.cue_in_hand,
            }
        )
        if state.fouler is not None:
            d["fouled"] = n[state.fouler]
        if state.re_spotted_black:
            d["re_spotted_black"] = True
    return d


def score_sheet(state: SnookerState) -> dict[str, Any]:
    """The score sheet of ``state`` as a JSON-ready dict (see the module docstring)."""
    n = state.players
    race = state.race
    return {
        "game": "snooker",
        "match": {
            "race_to": race.race_to,
            "best_of": None if race.race_to is None else 2 * race.race_to - 1,
            "break": race.break_rule.value,
        },
        "players": [
            {
                "name": n[i],
                "frames_won": state.frames_won[i],
                "score": state.scores[i],
                "high_break": state.high_breaks[i],
                "frame_high_break": state.frame_high_breaks[i],
                "snookers_required": state.snookers_required(i),
            }
            for i in (0, 1)
        ],
        "frames": [
            {
                "frame": r.number,
                "breaker": n[r.breaker],
                "winner": n[r.winner],
                "points": {n[i]: r.points[i] for i in (0, 1)},
                "high_break": {n[i]: r.high_breaks[i] for i in (0, 1)},
                "re_spotted_black": r.re_spotted_black,
                "how": r.how,
            }
            for r in state.frames
        ],
        "frame": None
        if state.match_over
        else {
            "number": state.frame,
            "breaker": n[state.breaker],
            "next_is_break": state.next_is_break,
            "ball_on": state.on.value,
            "reds": state.reds,
            "colours": [c.value for c in state.colours],
            "points_remaining": state.remaining,
            "current_break": state.current_break,
            "ball_in_hand": state.cue_in_hand,
            "re_spotted_black": state.re_spotted_black,
            "fouled": None if state.fouler is None else n[state.fouler],
        },
        "at_table": None if state.match_over else n[state.at_table],
        "match_over": state.match_over,
        "winner": None if state.winner is None else n[state.winner],
        "shots_judged": state.shots,
        "resume": None if state.match_over else resume_start(state),
    }


def format_score_sheet(state: SnookerState) -> str:
    """The score sheet as a readable table: one row per frame played, the frame in play, then the
    frames won and highest breaks."""
    n = state.players
    sheet = score_sheet(state)
    header = ["frame", "breaker", n[0], n[1], "winner", f"high {n[0]}", f"high {n[1]}"]
    rows = [
        [
            str(f["frame"]),
            f["breaker"],
            str(f["points"][n[0]]),
            str(f["points"][n[1]]),
            f["winner"] + (" (re-spotted black)" if f["re_spotted_black"] else ""),
            str(f["high_break"][n[0]]),
            str(f["high_break"][n[1]]),
        ]
        for f in sheet["frames"]
    ]
    fr = sheet["frame"]
    if fr is not None and not fr["next_is_break"]:
        rows.append(
            [
                str(fr["number"]),
                fr["breaker"],
                str(state.scores[0]),
                str(state.scores[1]),
                "(in play)",
                str(state.frame_high_breaks[0]),
                str(state.frame_high_breaks[1]),
            ]
        )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["snooker score sheet"]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    best = sheet["match"]["best_of"]
    lines.append(
        f"frames: {n[0]} {state.frames_won[0]} - {state.frames_won[1]} {n[1]}" + (f" (best of {best})" if best else "")
    )
    lines.append(f"highest breaks: {n[0]} {state.high_breaks[0]}, {n[1]} {state.high_breaks[1]}")
    if state.match_over:
        lines.append(f"match over: {sheet['winner']} wins")
    elif fr is not None:
        if fr["next_is_break"]:
            lines.append(f"frame {fr['number']}: {fr['breaker']} to break off")
        else:
            need = [
                f"{p['name']} needs {p['snookers_required']} snooker{'s' if p['snookers_required'] > 1 else ''}"
                for p in sheet["players"]
                if p["snookers_required"]
            ]
            on = "re-spotted black" if fr["re_spotted_black"] else f"ball on {fr['ball_on']}"
            lines.append(
                f"frame {fr['number']}: {on}, {fr['reds']} reds, {fr['points_remaining']} points remaining"
                + (f"; {'; '.join(need)}" if need else "")
            )
        lines.append(
            f"at the table: {sheet['at_table']}" + (f" (break {fr['current_break']})" if fr["current_break"] else "")
        )
    return "\n".join(lines)
