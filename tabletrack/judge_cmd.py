"""``tabletrack judge``: the calls of any event log, for any game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calibration.table import TableSpec
from common.atomic import streamed_path, write_text_atomic
from common.errors import TabletrackError
from rules import CallWriter, call_to_dict, engine_for, parse_game
from rules.core.call import Call
from rules.core.judge import judge_shots
from tabletrack.referee_file import load_referee_input
from tabletrack.tables import check_table_for_game, table_spots
from tabletrack.tally import CallTally
from tracking.eventlog import stream_events
from tracking.events import iter_shots


def _print_call(call: Call) -> None:
    """One call's JSON line on standard output, flushed: a reader of the pipe sees each shot as it ends."""
    print(json.dumps(call_to_dict(call), ensure_ascii=False), flush=True)


def run_judge(
    events_path: Path,
    game: str,
    referee_path: str | None,
    output: str | None,
    sheet_path: str | None = None,
    table: TableSpec | None = None,
    game_given: bool = True,
) -> str:
    """Judge ``events_path`` (an event log, or a live match's database: its events and, unless
    ``referee_path`` is given, its referee input) as ``game``; write calls to ``output`` (JSONL,
    line by line, as ``OUTPUT.partial`` until the last) or print them as each shot ends; return the
    summary table and the score sheet; the score sheet's JSON goes to
    ``sheet_path`` if given (its ``resume`` continues the match in a later log). ``table``: the
    table played on, whose break spots tell whether the first shot is a break where the referee
    input does not say (:mod:`rules.core.opening`). ``game_given`` False: ``game`` is the command's
    default, and a referee input that fails as that game names the games it is for."""
    g = parse_game(game)  # an unknown game fails before the log is read
    if referee_path:
        load_referee_input(referee_path, g, game_given)  # a bad file fails before the log is read
    ref: str | dict[str, Any] | None = referee_path or None
    if table is not None:
        check_table_for_game(table, g)
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
        shots = iter_shots(iter(events))
    else:
        # the log is read, judged and written shot by shot: memory holds one shot's events and the
        # summary's tally (the table shows the last TABLE_CALLS calls), never the whole log or its calls
        shots = iter_shots(stream_events(events_path))
    engine = engine_for(g)
    tally = CallTally()
    if output:
        # streamed: written as OUTPUT.partial, renamed to OUTPUT when every shot is judged
        with streamed_path(output) as partial, CallWriter(partial) as w:

            def write(call: Call) -> None:
                w.write(call)
                tally.add(call)

            _, state = judge_shots(shots, g, ref, on_call=write, table=ot, keep_calls=False)
        lines = [tally.table(), f"{tally.count} calls written to {output}"]
    else:

        def show(call: Call) -> None:
            _print_call(call)
            tally.add(call)

        _, state = judge_shots(shots, g, ref, on_call=show, table=ot, keep_calls=False)
        lines = ["", tally.table()]
    lines += ["", engine.format_score_sheet(state)]
    if sheet_path:
        write_text_atomic(sheet_path, json.dumps(engine.score_sheet(state), ensure_ascii=False, indent=1) + "\n")
        lines.append(f"score sheet written to {sheet_path}")
    return "\n".join(lines)
