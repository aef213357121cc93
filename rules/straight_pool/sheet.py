"""The 14.1 score sheet: per player the score (negative allowed, 004 art. 13), innings, average
(points per inning), high run, balls pocketed, fouls and the successive-foul record (004 art. 12);
the innings one by one (balls run, net points, score after); who is at the table, what is pending;
and ``resume``, the referee input ``start`` object that continues the match from here.
"""

from __future__ import annotations

from typing import Any

from rules.straight_pool.state import StraightPoolState

__all__ = ["resume_start", "score_sheet", "format_score_sheet"]


def resume_start(st: StraightPoolState) -> dict[str, Any]:
    """The ``start`` object that resumes judging from ``st`` (see :mod:`rules.straight_pool.inputs`)."""
    names = st.names
    d: dict[str, Any] = {
        "at_table": names[st.at_table],
        "score": {p.name: p.score for p in st.players},
        "innings": {p.name: p.innings for p in st.players},
        "high_run": {p.name: p.high_run for p in st.players},
        "run": st.run if st.in_inning else 0,
        "consecutive_fouls": {p.name: p.consecutive_fouls for p in st.players},
        "next_is_break": st.opening_break,
        "ball_in_hand": st.ball_in_hand,
        "rack": st.rack,
    }
    if st.balls is not None:
        d["balls"] = sorted((b.value for b in st.balls), key=int)
    if st.pending_choice is not None:
        d["choice_pending"] = st.pending_choice.option.value
    if st.rack_pending is not None:
        rp = st.rack_pending
        d["rack_pending"] = {
            "fifteenth": None if rp.fifteenth is None else rp.fifteenth.value,
            "fifteenth_at": None if rp.fifteenth_at is None else list(rp.fifteenth_at),
            "cue_at": None if rp.cue_at is None else list(rp.cue_at),
        }
    return d


def score_sheet(st: StraightPoolState) -> dict[str, Any]:
    names = st.names
    rows = [
        {
            "player": names[r.player],
            "inning": r.number,
            "balls": r.balls,
            "points": r.points,
            "score": r.score,
            "ended": r.ended,
        }
        for r in st.innings_log
    ]
    if st.in_inning and not st.match_over:
        p = st.player
        rows.append(
            {
                "player": p.name,
                "inning": p.innings,
                "balls": st.run,
                "points": st.inning_points,
                "score": p.score,
                "ended": None,
            }
        )
    return {
        "game": st.game.value,
        "match": {"target": st.target, "head_string_mm": st.geometry.head_string_mm, "calls": st.calls.value},
        "players": [
            {
                "name": p.name,
                "score": p.score,
                "innings": p.innings,
                "average": round(p.average, 3),
                "high_run": p.high_run,
                "balls": p.balls,
                "fouls": p.fouls,
                "breaking_violations": p.breaking_violations,
                "consecutive_fouls": p.consecutive_fouls,
            }
            for p in st.players
        ],
        "innings": rows,
        "at_table": None if st.match_over else names[st.at_table],
        "run": st.run if st.in_inning else 0,
        "rack": st.rack,
        "balls_on_table": None if st.balls is None else sorted((b.value for b in st.balls), key=int),
        "next_is_break": st.opening_break,
        "ball_in_hand": st.ball_in_hand,
        "choice_pending": None
        if st.pending_choice is None
        else {"option": st.pending_choice.option.value, "chooser": names[st.pending_choice.chooser]},
        "match_over": st.match_over,
        "winner": None if st.winner is None else names[st.winner],
        "shots_judged": st.shots,
        "resume": None if st.match_over else resume_start(st),
    }


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(r, widths))).rstrip()
        for r in [header, *rows]
    ]


def format_score_sheet(st: StraightPoolState) -> str:
    """The score sheet as readable tables: players, then innings."""
    sheet = score_sheet(st)
    head = f"{st.game.value} score sheet" + (f" (to {st.target})" if st.target is not None else "")
    lines = [head]
    lines += _table(
        ["player", "score", "innings", "average", "high run", "fouls", "on fouls"],
        [
            [
                p["name"],
                str(p["score"]),
                str(p["innings"]),
                f"{p['average']:.2f}",
                str(p["high_run"]),
                str(p["fouls"]),
                str(p["consecutive_fouls"]),
            ]
            for p in sheet["players"]
        ],
    )
    if sheet["innings"]:
        lines.append("")
        lines += _table(
            ["player", "inning", "balls", "points", "score", "ended"],
            [
                [
                    r["player"],
                    str(r["inning"]),
                    str(r["balls"]),
                    str(r["points"]),
                    str(r["score"]),
                    r["ended"] or "(at the table)",
                ]
                for r in sheet["innings"]
            ],
        )
    lines.append("")
    if st.match_over:
        lines.append(f"match over: {sheet['winner']} wins")
    else:
        extra = []
        if st.opening_break:
            extra.append("opening break")
        if st.ball_in_hand:
            extra.append("ball in hand behind the head string")
        if st.pending_choice is not None:
            extra.append(f"to choose: accept the table or re-rack ({st.pending_choice.option.article})")
        lines.append(f"at the table: {sheet['at_table']}" + (f" ({'; '.join(extra)})" if extra else ""))
    return "\n".join(lines)
