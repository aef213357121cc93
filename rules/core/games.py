"""The games the rules engines officiate, and parsing their names.

A game is a typed value (:class:`Game`), never a bare string, so that every engine, call and score
sheet names it the same way. The names are the ones users type (``--game three-cushion``) and the
ones written in ``calls.jsonl``; a few common other spellings are accepted (``14.1``,
``straight-pool``, ``cuadro-47-2`` …, see :data:`ALIASES`). Each game belongs to a
:class:`Family` (the table it is played on), which decides the ball set the vision must see.
Every member has an engine registered in :mod:`rules.core.engine` (a test checks it).
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import RulesError

__all__ = ["UnknownGameError", "Family", "Game", "ALIASES", "parse_game"]


class UnknownGameError(RulesError):
    """A game name that no engine officiates; the message lists the valid names."""


class Family(Enum):
    """The table a game is played on: carom (three balls, no pockets), pool (cue ball + numbered
    balls, six pockets) or snooker (22 balls, six pockets)."""

    CAROM = "carom"
    POOL = "pool"
    SNOOKER = "snooker"


class Game(Enum):
    """Every game with an engine. Carom: three-cushion (003), one-cushion (002 ART 26), libre
    (002 ART 19-21), the balk-line games cuadro 47/2, 47/1, 71/2 (002 ART 22-24), pentathlon and
    triathlon (002 ART 28-30). Pool: nine-ball (000; 002 Reglamento nueve), its variants six-,
    seven- and ten-ball and rotation (002 overview), eight-ball (002 Reglamento bola 8), 14.1
    continuous (004). Snooker (002 Reglamento snooker)."""

    THREE_CUSHION = "three-cushion"
    ONE_CUSHION = "one-cushion"
    LIBRE = "libre"
    BALKLINE_47_2 = "balkline-47-2"
    BALKLINE_47_1 = "balkline-47-1"
    BALKLINE_71_2 = "balkline-71-2"
    PENTATHLON = "pentathlon"
    TRIATHLON = "triathlon"
    NINE_BALL = "nine-ball"
    TEN_BALL = "ten-ball"
    SEVEN_BALL = "seven-ball"
    SIX_BALL = "six-ball"
    ROTATION = "rotation"
    EIGHT_BALL = "eight-ball"
    STRAIGHT_POOL = "straight-pool"
    SNOOKER = "snooker"

    @property
    def family(self) -> Family:
        """The table the game is played on."""
        if self is Game.SNOOKER:
            return Family.SNOOKER
        if self in _POOL:
            return Family.POOL
        return Family.CAROM


_POOL = frozenset(
    {Game.NINE_BALL, Game.TEN_BALL, Game.SEVEN_BALL, Game.SIX_BALL, Game.ROTATION, Game.EIGHT_BALL, Game.STRAIGHT_POOL}
)

#: Other spellings users type, normalized (lower case, ``-`` for ``_`` and spaces).
ALIASES: dict[str, Game] = {
    "3-cushion": Game.THREE_CUSHION,
    "tres-bandas": Game.THREE_CUSHION,
    "1-cushion": Game.ONE_CUSHION,
    "una-banda": Game.ONE_CUSHION,
    "straight-rail": Game.LIBRE,
    "cuadro-47-2": Game.BALKLINE_47_2,
    "cuadro-47/2": Game.BALKLINE_47_2,
    "47-2": Game.BALKLINE_47_2,
    "47/2": Game.BALKLINE_47_2,
    "cuadro-47/1": Game.BALKLINE_47_1,
    "cuadro-71/2": Game.BALKLINE_71_2,
    "cuadro-47-1": Game.BALKLINE_47_1,
    "47-1": Game.BALKLINE_47_1,
    "47/1": Game.BALKLINE_47_1,
    "cuadro-71-2": Game.BALKLINE_71_2,
    "71-2": Game.BALKLINE_71_2,
    "71/2": Game.BALKLINE_71_2,
    "pentatlon": Game.PENTATHLON,
    "triatlon": Game.TRIATHLON,
    "9-ball": Game.NINE_BALL,
    "bola-9": Game.NINE_BALL,
    "10-ball": Game.TEN_BALL,
    "7-ball": Game.SEVEN_BALL,
    "6-ball": Game.SIX_BALL,
    "8-ball": Game.EIGHT_BALL,
    "bola-8": Game.EIGHT_BALL,
    "14.1": Game.STRAIGHT_POOL,
    "14-1": Game.STRAIGHT_POOL,
    "14.1-continuous": Game.STRAIGHT_POOL,
}


def parse_game(name: object) -> Game:
    """The game called ``name`` (``"three-cushion"``; case and ``_`` for ``-`` are forgiven), or
    :class:`UnknownGameError` naming the valid games."""
    if isinstance(name, Game):
        return name
    text = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    if text in ALIASES:
        return ALIASES[text]
    try:
        return Game(text)
    except ValueError:
        valid = ", ".join(g.value for g in Game)
        raise UnknownGameError(f"unknown game {name!r}: expected one of {valid}") from None
