"""``tabletrack events``: the event log from another tracking system's trajectories."""

from __future__ import annotations

import json
from pathlib import Path

from calibration.table import TableSpec
from common.atomic import streamed_path
from common.errors import TabletrackError
from rules import format_calls_table, judge_events, load_game_input, parse_game
from tabletrack.tables import check_table_for_game, table_spots
from tracking.eventlog import EventLogWriter, event_to_dict
from tracking.events import CushionHit, ShotStart
from tracking.infer import InferenceConfig, infer_events
from tracking.sampling import detect_sampling
from tracking.tracks_csv import read_tracks_csv


def run_events(
    tracks_path: Path, table: TableSpec, output: str | None, game: str | None, referee_path: str | None = None
) -> str:
    """Infer events from ``tracks_path``; write them to ``output`` (JSONL) or return them, with the
    sampling assumed (video frames, or a sparse recorder whose silences are rests), a per-shot
    cushion count of each shot's cue ball, and the calls when ``game`` is given."""
    g = parse_game(game) if game else None
    if g is not None:
        check_table_for_game(table, g)
    if referee_path and g is not None:
        load_game_input(referee_path, g)  # a bad file fails before the tracks are read
    if not tracks_path.exists():
        raise TabletrackError(f"{tracks_path}: no such file; expected a CSV with columns t,ball,x_mm,y_mm")
    trajectories = read_tracks_csv(tracks_path)
    sampling = detect_sampling(trajectories)
    events = infer_events(trajectories, table, InferenceConfig(sampling=sampling.kind))
    lines: list[str] = []
    if output:
        # streamed: written as OUTPUT.partial, renamed to OUTPUT when every event is written
        with streamed_path(output) as partial, EventLogWriter(partial) as w:
            for e in events:
                w.write(e)
    else:
        lines += [json.dumps(event_to_dict(e)) for e in events]
    cue = {e.shot: e.cue_ball for e in events if isinstance(e, ShotStart)}
    summary = []
    for shot, ball in cue.items():
        n = sum(1 for e in events if isinstance(e, CushionHit) and e.shot == shot and e.ball == ball)
        summary.append(f"shot {shot}: cue ball {ball.value}, {n} cushion contacts")
    lines += [
        "",
        f"sampling: {sampling.why}",
        *summary,
        f"{len(events)} events from {sum(len(t) for t in trajectories.values())} samples"
        + (f", written to {output}" if output else ""),
    ]
    if g is not None:
        calls, _ = judge_events(events, g, referee_path or None, table=table_spots(table))
        lines += ["", format_calls_table(calls)]
    return "\n".join(lines)
