"""The summary table of any game's calls (``tabletrack judge``'s readable output).

One line per call, whatever the game: each engine fills :class:`~rules.core.call.Call`'s
``summary`` with its own short verdict, so this table needs no game's knowledge beyond the carom
cushion count. Each family writes its own score sheet (``<family>/sheet.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.call import Call
from rules.core.games import Family

__all__ = ["format_calls_table"]


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
            flags.append(
                "match over" if c.match_over else ("set over" if c.game.family is Family.CAROM else "rack over")
            )
        if c.winner:
            flags.append(f"winner {c.winner}")
        elif c.draw and c.match_over:
            flags.append("draw")
        if c.needs_review:
            flags.append("REVIEW")
        cush = (
            "-"
            if c.cushions_before_second_ball is None or c.second_ball is None
            else str(c.cushions_before_second_ball)
        )
        score = ":".join(str(v) for v in c.score.values())  # ":" so that a negative score (14.1) reads "1:-1"
        rows.append(
            (str(c.shot), c.player, c.cue_ball.value if c.cue_ball else "?", _result(c), cush, score, " ".join(flags))
        )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    right = {0, 4}

    def line(r: tuple[str, ...]) -> str:
        return "  ".join(
            v.rjust(w) if i in right else v.ljust(w) for i, (v, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()

    out = [line(header), line(tuple("-" * w for w in widths))] + [line(r) for r in rows]
    n_points = sum(max(c.points, 0) for c in calls)
    n_fouls = sum(1 for c in calls if c.foul is not None)
    n_review = sum(1 for c in calls if c.needs_review)
    out.append(f"{len(calls)} shots: {n_points} points, {n_fouls} fouls, {n_review} to review")
    return "\n".join(out)
