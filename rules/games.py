"""The games the rules engines officiate, and parsing their names.

A game is a typed value (:class:`Game`), never a bare string, so that every engine, call and score
sheet names it the same way. The names are the ones users type (``--game three-cushion``) and the
ones written in ``calls.jsonl``. Later engines (nine-ball, eight-ball, 14.1, snooker, the balk-line
carom games) add their member here and register an engine in :mod:`rules.engine`.
"""

from __future__ import annotations

from enum import Enum

from rules.errors import RulesError


class UnknownGameError(RulesError):
    """A game name that no engine officiates; the message lists the valid names."""


class Game(Enum):
    THREE_CUSHION = "three-cushion"
    ONE_CUSHION = "one-cushion"


def parse_game(name: object) -> Game:
    """The game called ``name`` (``"three-cushion"``; case and ``_`` for ``-`` are forgiven), or
    :class:`UnknownGameError` naming the valid games."""
    if isinstance(name, Game):
        return name
    text = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    try:
        return Game(text)
    except ValueError:
        valid = ", ".join(g.value for g in Game)
        raise UnknownGameError(f"unknown game {name!r}: expected one of {valid}") from None
