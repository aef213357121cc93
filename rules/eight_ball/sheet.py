"""The eight-ball score sheet: racks won, the racks played, who is at the table with which group,
and ``resume``, the state in the referee input's ``start`` format (so a later clip of the same
match is judged from where this one ended, with ``players`` and ``match`` as they were)."""

from __future__ import annotations

from typing import Any

from rules.eight_ball.state import EightBallState, sorted_balls

__all__ = ["resume", "score_sheet", "format_score_sheet"]


def resume(st: EightBallState) -> dict[str, Any]:
    """The ``start`` object that continues the match from ``st``."""
    n = st.players
    out: dict[str, Any] = {
        "at_table": n[st.at_table],
        "breaker": n[st.breaker],
        "racks_won": {n[k]: st.racks_won[k] for k in (0, 1)},
        "rack": st.rack,
        "next_is_break": st.next_is_break,
    }
    if not st.next_is_break:
        out["ball_in_hand"] = st.ball_in_hand
        out["behind_head_string"] = st.behind_head_string
        out["balls"] = [b.value for b in sorted_balls(st.balls)]
        if st.groups[0] is not None:
            out["group"] = {n[k]: st.groups[k].value for k in (0, 1)}  # type: ignore[union-attr]
    return out


def score_sheet(st: EightBallState) -> dict[str, Any]:
    """JSON-ready: players with racks won and group, the race, every rack finished (number,
    breaker, winner, how), the racks drawn (ART 26), the table now, the match result, ``resume``."""
    n = st.players
    return {
        "game": "eight-ball",
        "players": [
            {"name": n[k], "racks_won": st.racks_won[k], "group": None if (g := st.groups[k]) is None else g.value}
            for k in (0, 1)
        ],
        "race_to": st.race.race_to,
        "break_rule": st.race.break_rule.value,
        "racks": [{"rack": r.number, "breaker": n[r.breaker], "winner": n[r.winner], "how": r.how} for r in st.racks],
        "drawn_racks": list(st.drawn_racks),
        "rack": st.rack,
        "at_table": n[st.at_table],
        "balls_on_table": [b.value for b in sorted_balls(st.balls)],
        "shots": st.shots,
        "match_over": st.match_over,
        "winner": None if st.winner is None else n[st.winner],
        "resume": resume(st),
    }


def format_score_sheet(st: EightBallState) -> str:
    """The readable sheet: one line per player, one per rack, then the state of the table."""
    n = st.players
    w = max(len(x) for x in n)
    race = f"race to {st.race.race_to}" if st.race.race_to else "no race limit"
    lines = [f"Eight-ball (002 Reglamento bola 8), {race}, {st.race.break_rule.value} breaks"]
    for k in (0, 1):
        g = st.groups[k]
        lines.append(f"  {n[k].ljust(w)}  racks {st.racks_won[k]:>2}" + (f"  {g.value}" if g else ""))
    for r in st.racks:
        lines.append(f"  rack {r.number:>2}: broken by {n[r.breaker]}, won by {n[r.winner]}")
    for d in st.drawn_racks:
        lines.append(f"  rack {d:>2}: drawn (ART 26)")
    if st.match_over:
        lines.append(f"  match over: {n[st.winner]} wins" if st.winner is not None else "  match over")
    else:
        table = "open table" if st.groups[0] is None else "groups chosen"
        state = (
            f"{n[st.at_table]} to break rack {st.rack}"
            if st.next_is_break
            else f"rack {st.rack}, {n[st.at_table]} at the table, {table}, "
            f"{len(st.balls)} object balls on the table" + (", ball in hand" if st.ball_in_hand else "")
        )
        lines.append(f"  {state}")
    return "\n".join(lines)
