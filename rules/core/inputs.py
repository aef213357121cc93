"""Reading any game's referee input: the JSON file beside an event log, or decoded JSON values.

Every game shares the file's outer shape (``players``, ``match``, ``start``, ``shots`` keyed by the
event log's shot numbers; DESIGN.md "Inputs that no camera sees"); what goes inside ``match``,
``start`` and each shot is the game's own (called ball and pocket, push-out, the 14.1 opening
penalty choice …), so the engine of the game parses it (``Engine.parse_input``) and validates it
against its rules. This module only reads the file and dispatches, so a file with a JSON fault
and a file with a rules fault both give one line naming the file and the problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.core.engine import GameInput, engine_for
from rules.core.errors import RulesError
from rules.core.games import Game, parse_game
from rules.core.parsing import read_input_json

__all__ = ["parse_game_input", "load_game_input", "games_reading"]


def parse_game_input(obj: Any, game: Game | str, where: str = "referee input") -> GameInput[Any, Any]:
    """``game``'s referee input of a decoded JSON value, validated by its engine."""
    return engine_for(parse_game(game)).parse_input(obj, where)


def load_game_input(path: str | Path, game: Game | str = Game.THREE_CUSHION) -> GameInput[Any, Any]:
    """Read and validate the referee input file ``path`` for ``game`` (default three-cushion)."""
    return parse_game_input(read_input_json(path), game, Path(path).name)


def games_reading(obj: Any) -> tuple[Game, ...]:
    """The games (in :class:`Game` order) whose engine accepts the decoded referee input ``obj``.
    Why: a file written for one game, read as another (three-cushion, a command's default, when a
    nine-ball clip's file lies beside it), fails on a key of the other game; the message can then
    name the games the file is for instead of only the key."""
    out = []
    for g in Game:
        try:
            parse_game_input(obj, g)
        except RulesError:
            continue
        out.append(g)
    return tuple(out)
