"""``tabletrack judge``: the calls of any event log, for any game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calibration.table import TableSpec
from common.errors import TabletrackError
from rules import CallWriter, call_to_dict, engine_for, format_calls_table, judge_events, load_game_input, parse_game
from tabletrack.tables import table_spots
from tracking.eventlog import read_events


def run_judge(
    events_path: Path,
    game: str,
    referee_path: str | None,
    output: str | None,
    sheet_path: str | None = None,
    table: TableSpec | None = None,
) -> str:
    """Judge ``events_path`` (an event log, or a live match's database: its events and, unless
    ``referee_path`` is given, its referee input) as ``game``; write calls to ``output`` (JSONL, line by line) or return
    them as JSONL, then the summary table and the score sheet; the score sheet's JSON goes to
    ``sheet_path`` if given (its ``resume`` continues the match in a later log). ``table``: the
    table played on, whose break spots tell whether the first shot is a break where the referee
    input does not say (:mod:`rules.core.opening`)."""
    g = parse_game(game)  # an unknown game fails before the log is read
    if referee_path:
        load_game_input(referee_path, g)  # a bad file fails before the log is read
    ref: str | dict[str, Any] | None = referee_path or None
    ot = table_spots(table) if table is not None else None
    if not events_path.exists():
        raise TabletrackError(f"{events_path}: no such file; expected an events.jsonl event log")
    from tabletrack.live.store import is_match_db

    if is_match_db(events_path):  # a live match's database: its events, and its referee input unless one is given
        from tabletrack.live.store import read_match

        events, match_ref, match_game = read_match(events_path)
        if match_game is not None and parse_game(match_game) is not g:
            raise TabletrackError(f"{events_path}: this match is {match_game}; give --game {match_game}")
        ref = ref or match_ref
    else:
        events = read_events(events_path)
    engine = engine_for(g)
    if output:
        with CallWriter(output) as w:
            calls, state = judge_events(events, g, ref, on_call=w.write, table=ot)
        lines = [format_calls_table(calls), f"{len(calls)} calls written to {output}"]
    else:
        calls, state = judge_events(events, g, ref, table=ot)
        lines = [json.dumps(call_to_dict(c), ensure_ascii=False) for c in calls] + ["", format_calls_table(calls)]
    lines += ["", engine.format_score_sheet(state)]
    if sheet_path:
        Path(sheet_path).write_text(
            json.dumps(engine.score_sheet(state), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        lines.append(f"score sheet written to {sheet_path}")
    return "\n".join(lines)
