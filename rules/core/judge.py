"""Judging a whole event log: group it into shots and judge each in turn.

``judge_events`` is the one entry point the CLI, the pipeline and the live server share: any log
(video analysis, a simulator, hand-written) and optional referee input give one call per shot,
handed to ``on_call`` as each is made (so a caller can write it at once), and the final state.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rules.core.call import Call, CallWriter
from rules.core.config import JudgeConfig
from rules.core.engine import GameInput, engine_for
from rules.core.errors import RefereeInputError
from rules.core.games import Game, parse_game
from rules.core.inputs import read_input_json
from rules.core.opening import OpeningSight, opening_input
from rules.core.table import TableSpots
from tracking.eventlog import read_events
from tracking.events import Event, Shot, ShotStart, group_shots

__all__ = ["judge_events", "judge_shots", "check_referee_shots", "with_opening", "judge_log"]


def judge_events(
    events: Sequence[Event],
    game: Game | str,
    referee: GameInput[Any, Any] | Mapping[str, Any] | str | Path | None = None,
    config: JudgeConfig | None = None,
    on_call: Callable[[Call], None] | None = None,
    table: TableSpots | None = None,
) -> tuple[list[Call], Any]:
    """Judge every shot of ``events`` (time-ordered, as :func:`tracking.eventlog.read_events` gives
    them) as ``game``, starting from the referee's setup (or a new game) and applying his per-shot
    input. ``referee`` is the game's parsed input, its decoded JSON (a dict) or a path to the JSON
    file. Returns the calls and the final state (the game's own state type).
    :class:`RefereeInputError` if the input names a shot the log does not have (a numbering
    mistake would otherwise be silently ignored).

    ``table`` (the table played on, :class:`rules.core.table.TableSpots`; snooker respots its
    colours on its spots): where the referee input leaves the opening
    to the default (no ``start``), the first shot is a break only if its start shows the balls in
    the break position (:mod:`rules.core.opening`); the first call's reason says which was assumed."""
    return judge_shots(group_shots(list(events)), game, referee, config, on_call, table)


def judge_shots(
    shots: Sequence[Shot] | Iterable[Shot],
    game: Game | str,
    referee: GameInput[Any, Any] | Mapping[str, Any] | str | Path | None = None,
    config: JudgeConfig | None = None,
    on_call: Callable[[Call], None] | None = None,
    table: TableSpots | None = None,
    keep_calls: bool = True,
) -> tuple[list[Call], Any]:
    """:func:`judge_events` on shots already grouped: a list (the referee input's shot numbers are
    checked against it before any is judged) or a stream (:func:`tracking.events.iter_shots`,
    judged one by one as they come, each call handed to ``on_call`` at once; the shot numbers are
    checked when the stream ends, and a shot the log never had raises there). ``keep_calls=False``:
    the calls go to ``on_call`` only and the returned list is empty, so a log of any length is
    judged in bounded memory."""
    g = parse_game(game)
    engine = engine_for(g, config, table)
    # the opening is read from the first shot that shows its start (almost always the first)
    head: list[Shot] = list(shots) if isinstance(shots, Sequence) else []
    stream: Iterator[Shot] = iter(()) if isinstance(shots, Sequence) else iter(shots)
    for shot in stream:
        head.append(shot)
        if shot.start is not None:
            break
    sight: OpeningSight | None = None
    if isinstance(referee, (str, Path)):
        raw, sight = opening_input(read_input_json(referee), g, _first_start(head), table)
        ref = engine.parse_input(raw, Path(referee).name)
    elif referee is None or isinstance(referee, Mapping):
        raw, sight = opening_input(referee, g, _first_start(head), table)
        ref = engine.parse_input(dict(raw or {}))
    else:
        ref = referee
    if isinstance(shots, Sequence):
        check_referee_shots(ref, [s.number for s in head])
    state = engine.initial_state(ref.setup)
    calls: list[Call] = []
    numbers: set[int] = set()
    for shot in itertools.chain(head, stream):
        call, state = engine.judge_shot(state, shot, ref.for_shot(shot.number))
        if sight is not None and not numbers:
            call = with_opening(call, sight)
        if keep_calls:
            calls.append(call)
        numbers.add(shot.number)
        if on_call is not None:
            on_call(call)
    check_referee_shots(ref, sorted(numbers))
    return calls, state


def check_referee_shots(ref: GameInput[Any, Any], numbers: Sequence[int], source: str = "the event log") -> None:
    """:class:`RefereeInputError` when the referee input gives a shot that is not among
    ``numbers`` (the shots ``source`` had): a numbering mistake is never silently ignored."""
    have = set(numbers)
    missing = sorted(n for n in ref.shots if n not in have)
    if missing:
        span = f"shots {min(have)}..{max(have)}" if have else "no shots"
        raise RefereeInputError(f"referee input gives shot {missing[0]}, but {source} has {span}")


def _first_start(shots: Sequence[Shot]) -> ShotStart | None:
    return next((s.start for s in shots if s.start is not None), None)


def with_opening(call: Call, sight: OpeningSight) -> Call:
    """``call`` with the opening assumption stated in its reason."""
    return replace(call, reason=f"{call.reason} {sight.reason[0].upper()}{sight.reason[1:]}.")


def judge_log(
    events_path: str | Path,
    game: Game | str,
    referee_path: str | Path | None = None,
    calls_path: str | Path | None = None,
    config: JudgeConfig | None = None,
    table: TableSpots | None = None,
) -> tuple[list[Call], Any]:
    """Read ``events.jsonl``, judge it, and write ``calls.jsonl`` line by line if ``calls_path``."""
    events = read_events(events_path)
    ref = referee_path
    if calls_path is None:
        return judge_events(events, game, ref, config, table=table)
    with CallWriter(calls_path) as w:
        return judge_events(events, game, ref, config, on_call=w.write, table=table)
