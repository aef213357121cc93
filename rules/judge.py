"""Judging a whole event log: group it into shots and judge each in turn.

``judge_events`` is the one entry point the CLI, the pipeline and the live server share: any log
(video analysis, a simulator, hand-written) and optional referee input give one call per shot,
handed to ``on_call`` as each is made (so a caller can write it at once), and the final state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from rules.call import Call, CallWriter
from rules.config import JudgeConfig
from rules.engine import engine_for
from rules.errors import RefereeInputError
from rules.games import Game, parse_game
from rules.referee import RefereeInput, load_referee_input
from rules.state import GameState
from tracking.eventlog import read_events
from tracking.events import Event, group_shots


def judge_events(
    events: Sequence[Event],
    game: Game | str,
    referee: RefereeInput | str | Path | None = None,
    config: JudgeConfig | None = None,
    on_call: Callable[[Call], None] | None = None,
) -> tuple[list[Call], GameState]:
    """Judge every shot of ``events`` (time-ordered, as :func:`tracking.eventlog.read_events` gives
    them) as ``game``, starting from the referee's setup (or a new game) and applying his per-shot
    input. ``referee`` may be a path to the JSON file. :class:`RefereeInputError` if the input
    names a shot the log does not have (a numbering mistake would otherwise be silently ignored)."""
    g = parse_game(game)
    ref = load_referee_input(referee) if isinstance(referee, (str, Path)) else (referee or RefereeInput())
    shots = group_shots(list(events))
    numbers = {s.number for s in shots}
    missing = sorted(n for n in ref.shots if n not in numbers)
    if missing:
        have = f"shots {min(numbers)}..{max(numbers)}" if numbers else "no shots"
        raise RefereeInputError(
            f"referee input gives shot {missing[0]}, but the event log has {have}")
    engine = engine_for(g, config)
    state = engine.initial_state(ref.setup)
    calls: list[Call] = []
    for shot in shots:
        call, state = engine.judge_shot(state, shot, ref.for_shot(shot.number))
        calls.append(call)
        if on_call is not None:
            on_call(call)
    return calls, state


def judge_log(
    events_path: str | Path,
    game: Game | str,
    referee_path: str | Path | None = None,
    calls_path: str | Path | None = None,
    config: JudgeConfig | None = None,
) -> tuple[list[Call], GameState]:
    """Read ``events.jsonl``, judge it, and write ``calls.jsonl`` line by line if ``calls_path``."""
    events = read_events(events_path)
    ref = load_referee_input(referee_path) if referee_path is not None else None
    if calls_path is None:
        return judge_events(events, game, ref, config)
    with CallWriter(calls_path) as w:
        return judge_events(events, game, ref, config, on_call=w.write)
