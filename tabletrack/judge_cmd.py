"""``tabletrack judge``: the calls of any event log."""

from __future__ import annotations

import json
from pathlib import Path

from rules import CallWriter, call_to_dict, format_calls_table, judge_events, load_referee_input, parse_game
from tracking.eventlog import read_events


def run_judge(events_path: Path, game: str, referee_path: str | None, output: str | None) -> str:
    """Judge ``events_path``; write calls to ``output`` (JSONL, line by line) or return them as JSONL
    followed by the summary table."""
    g = parse_game(game)  # an unknown game fails before the log is read
    ref = load_referee_input(referee_path) if referee_path else None
    if not events_path.exists():
        raise ValueError(f"{events_path}: no such file; expected an events.jsonl event log")
    events = read_events(events_path)
    if output:
        with CallWriter(output) as w:
            calls, _ = judge_events(events, g, ref, on_call=w.write)
        return format_calls_table(calls) + f"\n{len(calls)} calls written to {output}"
    calls, _ = judge_events(events, g, ref)
    lines = [json.dumps(call_to_dict(c), ensure_ascii=False) for c in calls]
    return "\n".join(lines + ["", format_calls_table(calls)])
