"""The state of an eight-ball match between shots (002, Reglamento bola 8): frozen values only.

A rack is the 15 numbered balls (ART 1.1, 6.1); one player plays the solids 1-7, the other the
stripes 9-15 (ART 1.2), chosen only after the break (ART 8, 14): until then ``groups`` is
``(None, None)`` (the open table). A player whose group has left the table plays the 8 (ART 15.2).
The match is a race to N racks (:class:`rules.core.racks.RaceConfig`; ART 31.1 "al mejor de N
partidas"), the winner of a rack breaking the next by default (ART 7.2).

``pending`` holds an option a rule gave a player at the last shot whose choice the referee input
did not give (ART 9.1: re-rack or re-spot the 8 after the 8 on the break; ART 10.2: accept the
table or re-rack after an illegal break): it is resolved at the next shot from where the balls
stand at its start (a full rack: re-racked).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from rules.core.racks import RaceConfig, RackRecord
from tracking.ids import BallId

__all__ = [
    "SOLIDS",
    "STRIPES",
    "EIGHT",
    "OBJECT_BALLS",
    "FULL_RACK",
    "ball_order",
    "sorted_balls",
    "Group",
    "Option",
    "Choice",
    "CHOICES",
    "EightBallState",
]

SOLIDS: frozenset[BallId] = frozenset(BallId(str(n)) for n in range(1, 8))
STRIPES: frozenset[BallId] = frozenset(BallId(str(n)) for n in range(9, 16))
EIGHT = BallId.B8
OBJECT_BALLS: frozenset[BallId] = SOLIDS | STRIPES | {EIGHT}
FULL_RACK = OBJECT_BALLS


def ball_order(b: BallId) -> tuple[int, int, str]:
    """Numbered balls by number, any other id (a foreign ball in a log) after them."""
    v = b.value
    return (0, int(v), "") if v.isdigit() else (1, 0, v)


def sorted_balls(balls: Iterable[BallId]) -> list[BallId]:
    return sorted(balls, key=ball_order)


class Group(Enum):
    """A player's balls: the solids 1-7 or the stripes 9-15 (002 bola 8 ART 1.2)."""

    SOLIDS = "solids"
    STRIPES = "stripes"

    @property
    def balls(self) -> frozenset[BallId]:
        return SOLIDS if self is Group.SOLIDS else STRIPES

    @property
    def other(self) -> Group:
        return Group.STRIPES if self is Group.SOLIDS else Group.SOLIDS

    @classmethod
    def of(cls, ball: BallId) -> Group | None:
        """The group of ``ball`` (None for the 8 and the cue ball)."""
        if ball in SOLIDS:
            return cls.SOLIDS
        if ball in STRIPES:
            return cls.STRIPES
        return None


class Option(Enum):
    """An option a rule gives a player after a shot: ``eight_on_break`` (ART 9.1: the breaker
    re-racks or has the 8 re-spotted, and shoots either way) and ``illegal_break`` (ART 10.2: the
    opponent accepts the table or re-racks and breaks)."""

    EIGHT_ON_BREAK = "eight_on_break"
    ILLEGAL_BREAK = "illegal_break"


class Choice(Enum):
    """The referee input ``"choice"``: what the player chose when a rule gave an option."""

    ACCEPT_TABLE = "accept_table"
    RERACK = "rerack"
    RESPOT = "respot"


#: The choices each option allows (ART 9.1; ART 10.2a, 10.2b).
CHOICES: dict[Option, tuple[Choice, ...]] = {
    Option.EIGHT_ON_BREAK: (Choice.RESPOT, Choice.RERACK),
    Option.ILLEGAL_BREAK: (Choice.ACCEPT_TABLE, Choice.RERACK),
}


@dataclass(frozen=True)
class EightBallState:
    """The match between two shots.

    ``balls``: object balls on the table (the cue ball is always in play). ``groups``: per player,
    or None while the table is open. ``at_table``: index of the player to shoot; ``breaker``: who
    broke the current rack (or breaks it, when ``next_is_break``). ``ball_in_hand``: the player at
    the table places the cue ball (ART 17), ``behind_head_string`` only behind the head string (a
    foul on the break, ART 11.2, 17.1). ``rack``: the current rack's number (1-based);
    ``racks_won``, ``racks`` (the finished racks won) and ``drawn_racks`` (racks ended as a draw,
    ART 26). ``pending``: see the module docstring. ``shots``: shots judged so far."""

    players: tuple[str, str]
    race: RaceConfig
    balls: frozenset[BallId] = FULL_RACK
    groups: tuple[Group | None, Group | None] = (None, None)
    at_table: int = 0
    breaker: int = 0
    next_is_break: bool = True
    ball_in_hand: bool = False
    behind_head_string: bool = False
    rack: int = 1
    racks_won: tuple[int, int] = (0, 0)
    racks: tuple[RackRecord, ...] = ()
    drawn_racks: tuple[int, ...] = ()
    pending: Option | None = None
    match_over: bool = False
    winner: int | None = None
    shots: int = 0

    @property
    def open_table(self) -> bool:
        return self.groups[0] is None

    @property
    def player(self) -> str:
        return self.players[self.at_table]

    def group_of(self, i: int) -> Group | None:
        return self.groups[i]

    def on_eight(self, i: int) -> bool:
        """Player ``i`` has a group and none of its balls is on the table: he plays the 8 (ART 15.2)."""
        g = self.groups[i]
        return g is not None and not (g.balls & self.balls)

    def targets(self, i: int) -> frozenset[BallId]:
        """The balls player ``i`` may legally hit first: any object ball on an open table (the 8
        too, ART 8.2), his group's balls on the table, or the 8 when they are gone (ART 13.1, 15.2)."""
        g = self.groups[i]
        if g is None:
            return self.balls
        if self.on_eight(i):
            return frozenset({EIGHT}) & self.balls
        return g.balls & self.balls

    @property
    def score(self) -> dict[str, int]:
        return {self.players[i]: self.racks_won[i] for i in (0, 1)}
