"""The state of a carom match between two players: what a judge needs to carry from shot to shot.

Frozen values: every shot makes a new :class:`GameState` (``dataclasses.replace``), so a call can be
replayed from any state and nothing is shared by accident. Players are indexed 0 and 1 in
``players``; names are what calls and score sheets show.

Innings (002 ART 12-13) are counted when a player's inning begins, i.e. at his first shot after
coming to the table: so the player who started the game has one more inning than his opponent
while he is at the table, and the same number while the opponent is — which is exactly the test of
002 ART 12.3 for the equalizing inning. ``series`` is the run of the player at the table in the
current inning (0 before his first shot of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.carom.config import MatchConfig
from rules.core.games import Game
from tracking.ids import BallId

__all__ = ["Equalizing", "PlayerState", "SetRecord", "GameState"]


class Equalizing(Enum):
    """Why the second player is in his equalizing inning ("contrasalida"): the starter reached the
    distance (002 ART 12.3, 13.3: played from the break position; reaching the distance too makes
    the game a draw, ART 12.4) or exhausted the innings limit (002 ART 13.3: the second player plays
    his last inning as the balls lie)."""

    DISTANCE = "distance"
    INNINGS_LIMIT = "innings_limit"


@dataclass(frozen=True)
class PlayerState:
    """One player: his ball, and his points and innings in the current game (set), his best series
    in the match, and his totals over every set of the match (for the general average)."""

    name: str
    ball: BallId
    points: int = 0
    innings: int = 0
    high_run: int = 0
    sets_won: int = 0
    total_points: int = 0
    total_innings: int = 0

    @property
    def average(self) -> float:
        """Points per inning in the current game (set); 0.0 before the first inning."""
        return self.points / self.innings if self.innings else 0.0

    @property
    def match_average(self) -> float:
        """Points per inning over the match (every set)."""
        return self.total_points / self.total_innings if self.total_innings else 0.0


@dataclass(frozen=True)
class SetRecord:
    """A finished set (002 ART 14): its number, who started it, points and innings per player, and
    the winner's index."""

    number: int
    starter: int
    points: tuple[int, int]
    innings: tuple[int, int]
    winner: int


@dataclass(frozen=True)
class GameState:
    """Where the match stands before the next shot.

    ``at_table``: index of the player to shoot; ``starter``: who started the current game (set);
    ``first_starter``: who started the first set (002 ART 14.1.4). ``in_inning``: the player at the
    table has already shot in this inning (``series`` counts his points in it). ``next_is_break``:
    the next shot is from the break position (003 art. 5; 002 ART 6.2: the red must be taken first).
    ``balls_chosen``: each player's ball is settled; False when nobody gave the balls and the next
    shot settles them: at the break of a three-cushion game the starter plays the ball he breaks
    with (003 art. 4(c)); in a log that starts mid-game, the player at the table plays the ball he
    strikes (see :func:`rules.carom.match.choose_balls`).
    ``equalizing``: set while the second player plays his equalizing inning. ``match_over``,
    ``winner`` (index or None) and ``draw`` once the match has ended. ``shots`` counts shots judged.
    """

    game: Game
    match: MatchConfig
    players: tuple[PlayerState, PlayerState]
    at_table: int = 0
    starter: int = 0
    first_starter: int = 0
    series: int = 0
    in_inning: bool = False
    next_is_break: bool = True
    balls_chosen: bool = True
    equalizing: Equalizing | None = None
    set_number: int = 1
    sets: tuple[SetRecord, ...] = ()
    match_over: bool = False
    winner: int | None = None
    draw: bool = False
    shots: int = 0

    @property
    def player(self) -> PlayerState:
        """The player at the table."""
        return self.players[self.at_table]

    @property
    def opponent(self) -> PlayerState:
        return self.players[1 - self.at_table]

    @property
    def score(self) -> dict[str, int]:
        """Points of the current game (set), by player name."""
        return {p.name: p.points for p in self.players}

    def index_of(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)
