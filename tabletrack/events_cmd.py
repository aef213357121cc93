"""``tabletrack events``: the event log from another tracking system's trajectories.

Each shot's events are written (and, with ``--game``, judged) as soon as that shot is inferred
(:func:`tracking.infer.iter_inferred_shots`), flushed line by line: a long tracks file gives its
output progressively, and only the counts of the summary are kept, never the whole log. With ``-o``
the log is written as ``OUTPUT.partial`` and renamed to ``OUTPUT`` at the end (:mod:`common.atomic`).
The tracks themselves are read whole: inference fits paths over a whole shot and needs every
ball's samples (``bench/robust.py`` measures the memory this takes per hour of input).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

from calibration.table import TableSpec
from common.atomic import streamed_path
from common.errors import TabletrackError
from rules import load_game_input, parse_game
from rules.core.judge import judge_shots
from tabletrack.tables import check_table_for_game, table_spots
from tabletrack.tally import CallTally
from tracking.eventlog import EventLogWriter, event_to_dict
from tracking.events import CushionHit, Event, Shot, ShotStart, group_shots
from tracking.infer import InferenceConfig, iter_inferred_shots
from tracking.sampling import detect_sampling
from tracking.tracks_csv import read_tracks_csv


def run_events(
    tracks_path: Path, table: TableSpec, output: str | None, game: str | None, referee_path: str | None = None
) -> str:
    """Infer events from ``tracks_path``; write them to ``output`` (JSONL) or print them, shot by
    shot; return the sampling assumed (video frames, or a sparse recorder whose silences are
    rests), a per-shot cushion count of each shot's cue ball, and the calls when ``game`` is given."""
    g = parse_game(game) if game else None
    if g is not None:
        check_table_for_game(table, g)
    if referee_path and g is not None:
        load_game_input(referee_path, g)  # a bad file fails before the tracks are read
    if not tracks_path.exists():
        raise TabletrackError(f"{tracks_path}: no such file; expected a CSV with columns t,ball,x_mm,y_mm")
    trajectories = read_tracks_csv(tracks_path)
    sampling = detect_sampling(trajectories)
    summary: list[str] = []
    count = 0

    def shots(write: Callable[[Event], None]) -> Iterator[Shot]:
        """Each inferred shot, its events written first and counted for the summary."""
        nonlocal count
        for evs in iter_inferred_shots(trajectories, table, InferenceConfig(sampling=sampling.kind)):
            for e in evs:
                write(e)
            count += len(evs)
            summary.append(_cushion_line(evs))
            yield from group_shots(evs)

    write: Callable[[Event], None] = _print_event
    with contextlib.ExitStack() as stack:
        if output:
            partial = stack.enter_context(streamed_path(output))
            writer = stack.enter_context(EventLogWriter(partial))
            write = writer.write
        tally = CallTally()
        if g is not None:
            judge_shots(
                shots(write), g, referee_path or None, table=table_spots(table), on_call=tally.add, keep_calls=False
            )
        else:
            for _ in shots(write):
                pass
    lines = [
        "",
        f"sampling: {sampling.why}",
        *(line for line in summary if line),
        f"{count} events from {sum(len(t) for t in trajectories.values())} samples"
        + (f", written to {output}" if output else ""),
    ]
    if g is not None:
        lines += ["", tally.table()]
    return "\n".join(lines)


def _print_event(e: Event) -> None:
    print(json.dumps(event_to_dict(e)), flush=True)


def _cushion_line(evs: list[Event]) -> str:
    """``shot N: cue ball B, K cushion contacts`` of one shot's events (empty without a start)."""
    start = next((e for e in evs if isinstance(e, ShotStart)), None)
    if start is None:
        return ""
    n = sum(1 for e in evs if isinstance(e, CushionHit) and e.ball == start.cue_ball)
    return f"shot {start.shot}: cue ball {start.cue_ball.value}, {n} cushion contacts"
