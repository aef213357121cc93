"""The snooker balls: which ids are reds and colours, their values (002 snooker ART 1.3), the order
of the colours at the end of the frame (ART 1.6), and the ball "on" (what the striker must hit).

A tracker that cannot tell the reds apart may write the plain id ``red`` for any red: it is
accepted as a red wherever a red id is (:func:`is_red`). Every other id of a snooker event log
must be ``cue``, ``red_1``..``red_15`` or one of the six colours (:func:`check_ball`).
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import ShotError
from tracking.ids import BallId

__all__ = [
    "COLOURS",
    "NAMED_REDS",
    "REDS",
    "SNOOKER_BALLS",
    "COLOUR_VALUES",
    "FULL_REDS",
    "is_red",
    "is_colour",
    "value",
    "check_ball",
    "name",
    "BallOn",
    "next_in_sequence",
    "colours_on_table",
    "points_remaining",
]

#: The six colours in the order they are potted once the reds are gone (ART 1.6: yellow .. black).
COLOURS: tuple[BallId, ...] = (BallId.YELLOW, BallId.GREEN, BallId.BROWN, BallId.BLUE, BallId.PINK, BallId.BLACK)
NAMED_REDS: tuple[BallId, ...] = tuple(BallId(f"red_{i}") for i in range(1, 16))
REDS: frozenset[BallId] = frozenset(NAMED_REDS) | {BallId.RED}
SNOOKER_BALLS: frozenset[BallId] = REDS | frozenset(COLOURS) | {BallId.CUE}
#: ART 1.3 (and the overview): red 1, yellow 2, green 3, brown 4, blue 5, pink 6, black 7.
COLOUR_VALUES: dict[BallId, int] = {b: i + 2 for i, b in enumerate(COLOURS)}
FULL_REDS = 15


def is_red(ball: BallId) -> bool:
    return ball in REDS


def is_colour(ball: BallId) -> bool:
    return ball in COLOUR_VALUES


def value(ball: BallId) -> int:
    """The ball's points (ART 1.3); the cue ball has none (0)."""
    if is_red(ball):
        return 1
    return COLOUR_VALUES.get(ball, 0)


def check_ball(ball: BallId, where: str) -> None:
    """:class:`ShotError` if ``ball`` is not a snooker ball."""
    if ball not in SNOOKER_BALLS:
        raise ShotError(
            f"{where}: {ball.value!r} is not a snooker ball: expected cue, red_1..red_15 (or red), "
            "yellow, green, brown, blue, pink, black"
        )


def name(ball: BallId) -> str:
    """How a reason names a ball: "the blue", "a red (red_3)"."""
    if ball is BallId.RED:
        return "a red"
    if is_red(ball):
        return f"a red ({ball.value})"
    return f"the {ball.value}"


class BallOn(Enum):
    """The ball on: a red; a colour of the striker's choice (after potting a red, and once after the
    last red, ART 1.6); or, once the reds and that colour are gone, one colour in the order yellow ..
    black (ART 1.6)."""

    RED = "red"
    COLOUR = "colour"
    YELLOW = "yellow"
    GREEN = "green"
    BROWN = "brown"
    BLUE = "blue"
    PINK = "pink"
    BLACK = "black"

    @property
    def ball(self) -> BallId | None:
        """The one colour on in the end sequence, else None."""
        return None if self in (BallOn.RED, BallOn.COLOUR) else BallId(self.value)

    @property
    def in_sequence(self) -> bool:
        """The colours are being taken in order (no red is left, ART 1.6)."""
        return self.ball is not None

    @classmethod
    def of_colour(cls, ball: BallId) -> BallOn:
        return cls(ball.value)

    def describe(self) -> str:
        return {"red": "a red", "colour": "a colour"}.get(self.value, f"the {self.value}")


def next_in_sequence(colour: BallId) -> BallOn | None:
    """The colour on after ``colour`` is potted in the end sequence (None after the black)."""
    i = COLOURS.index(colour)
    return None if i == len(COLOURS) - 1 else BallOn.of_colour(COLOURS[i + 1])


def colours_on_table(on: BallOn) -> tuple[BallId, ...]:
    """The colours on the table: all six while reds remain or a colour follows the last red (every
    potted colour is respotted then, ART 1.6); in the end sequence, the ball on and those after it."""
    c = on.ball
    return COLOURS if c is None else COLOURS[COLOURS.index(c) :]


def points_remaining(reds: int, on: BallOn) -> int:
    """The most points the balls on the table can still give in breaks: each red with a black
    (8), the colour due after a red just potted (the black's 7), then the colours in order (27)."""
    if on.in_sequence:
        return sum(COLOUR_VALUES[c] for c in colours_on_table(on))
    extra = 7 if on is BallOn.COLOUR else 0
    return 8 * reds + extra + 27
