"""Reading a command's referee input, with the games it is for when it was read as the default game.

Why: ``analyze`` and ``judge`` officiate three-cushion unless ``--game`` says otherwise, and
``analyze`` reads ``<clip>.referee.json`` beside the video by itself. A nine-ball clip analysed
without ``--game`` then failed on its own file with ``match: unknown key 'race_to': expected
distance, innings_limit, sets``: true, but it does not say that the game was only assumed, nor
which one the file is for.

Contract: :func:`load_referee_input` validates ``path`` for ``game`` as
:func:`rules.load_game_input` does; where that fails and the game was not given (``game_given``
False), the :class:`rules.RefereeInputError` it raises says the game was the default and names
the games the file reads as (:func:`rules.core.inputs.games_reading`), with the ``--game`` to give.
"""

from __future__ import annotations

from pathlib import Path

from rules.core.errors import RefereeInputError
from rules.core.games import Game
from rules.core.inputs import games_reading, load_game_input
from rules.core.parsing import read_input_json

__all__ = ["load_referee_input"]


def load_referee_input(path: str | Path, game: Game, game_given: bool) -> None:
    """Validate the referee input ``path`` for ``game`` (see the module docstring)."""
    try:
        load_game_input(path, game)
    except RefereeInputError as e:
        if game_given:
            raise
        try:
            fits = [g for g in games_reading(read_input_json(path)) if g is not game]
        except RefereeInputError:  # not JSON, unreadable: the first message says so already
            raise e from None
        where = f"read as {game.value} input, the default game (no --game was given)"
        if fits:
            names = ", ".join(g.value for g in fits)
            hint = (
                f"if the clip is not {game.value}: the file reads as input for {names}: give --game {fits[0].value}"
                + (" (or another of those)" if len(fits) > 1 else "")
            )
        else:
            hint = "it reads as no other game's input either: mend the file, or give --game with the clip's game"
        raise RefereeInputError(f"{e}; {where}; {hint}") from None
