"""Typed ball, cushion and pocket identities shared by every stage.

Ids cross every boundary (event log, rules, outputs), so they are enums, never bare strings:
``BallId.parse("red_1")`` validates, and code compares members, never substrings.
"""

from __future__ import annotations

from enum import Enum

from common.errors import TabletrackError, shorten


class UnknownIdError(TabletrackError):
    """A ball, cushion or pocket name that is not one of the ids (DESIGN.md "Units and frames of reference")."""


class BallId(Enum):
    """Every ball id of DESIGN.md: pool ``cue``, ``1``..``15``; carom ``white``, ``yellow``, ``red``;
    snooker ``cue``, ``red_1``..``red_15`` and the six colours."""

    CUE = "cue"
    B1 = "1"
    B2 = "2"
    B3 = "3"
    B4 = "4"
    B5 = "5"
    B6 = "6"
    B7 = "7"
    B8 = "8"
    B9 = "9"
    B10 = "10"
    B11 = "11"
    B12 = "12"
    B13 = "13"
    B14 = "14"
    B15 = "15"
    WHITE = "white"
    YELLOW = "yellow"
    RED = "red"
    RED_1 = "red_1"
    RED_2 = "red_2"
    RED_3 = "red_3"
    RED_4 = "red_4"
    RED_5 = "red_5"
    RED_6 = "red_6"
    RED_7 = "red_7"
    RED_8 = "red_8"
    RED_9 = "red_9"
    RED_10 = "red_10"
    RED_11 = "red_11"
    RED_12 = "red_12"
    RED_13 = "red_13"
    RED_14 = "red_14"
    RED_15 = "red_15"
    GREEN = "green"
    BROWN = "brown"
    BLUE = "blue"
    PINK = "pink"
    BLACK = "black"

    @classmethod
    def parse(cls, text: object) -> BallId:
        """The id spelled ``text``; ValueError naming the valid ids otherwise."""
        try:
            return cls(str(text))
        except ValueError:
            raise UnknownIdError(
                f"unknown ball id {shorten(repr(text), 60)}: expected one of {', '.join(m.value for m in cls)}"
            ) from None


CAROM_BALLS: tuple[BallId, ...] = (BallId.WHITE, BallId.YELLOW, BallId.RED)

#: A pool ball's kind: the cue ball, the eight, a solid 1-7 or a stripe 9-15 (eight-ball's groups,
#: 002 bola 8 ART 1.2). A kind is a pattern (a white band or none), which no manufacturer's
#: colours change: a model that misreads a ball set's colours still tends to read its kind.
POOL_KINDS: tuple[str, ...] = ("cue", "solid", "eight", "stripe")


def pool_kind(ball: BallId) -> str | None:
    """The kind (:data:`POOL_KINDS`) of a pool ball; None for a ball of another game's set."""
    if ball is BallId.CUE:
        return "cue"
    n = int(ball.value) if ball.value.isdigit() else 0
    if n == 8:
        return "eight"
    if 1 <= n <= 7:
        return "solid"
    if 9 <= n <= 15:
        return "stripe"
    return None


class Cushion(Enum):
    """The four cushions of DESIGN.md: head (x = 0), foot (x = L), right (y = 0), left (y = W)."""

    HEAD = "head"
    FOOT = "foot"
    LEFT = "left"
    RIGHT = "right"

    @classmethod
    def parse(cls, text: object) -> Cushion:
        try:
            return cls(str(text))
        except ValueError:
            raise UnknownIdError(
                f"unknown cushion {shorten(repr(text), 60)}: expected one of {', '.join(m.value for m in cls)}"
            ) from None


class Pocket(Enum):
    """The six pockets of DESIGN.md."""

    HEAD_LEFT = "head_left"
    HEAD_RIGHT = "head_right"
    SIDE_LEFT = "side_left"
    SIDE_RIGHT = "side_right"
    FOOT_LEFT = "foot_left"
    FOOT_RIGHT = "foot_right"

    @classmethod
    def parse(cls, text: object) -> Pocket:
        try:
            return cls(str(text))
        except ValueError:
            raise UnknownIdError(
                f"unknown pocket {shorten(repr(text), 60)}: expected one of {', '.join(m.value for m in cls)}"
            ) from None
