"""The state of a nine-ball-family match between two shots: frozen, so a transition is a pure
function and any situation can be built by hand.

Players are indices 0 and 1 into ``players``. ``balls``: the object balls on the table.
``breaker``: who broke (or is to break) the rack in play; ``break_turn``: whose turn in the break
order the rack is (they differ only after 000 2.3(e): the breaker missed the rack and the
opponent breaks it, "sin perder su turno de romper la piña en la siguiente MESA", so the order of
the next rack follows ``break_turn``). ``push_out_allowed``: the next shot may be announced as a
push-out (000 2.4); ``option``: the player at the table may pass the next shot back to his
opponent (after a push-out, 000 2.4; after a ten-ball ball pocketed off the call).
``consecutive_fouls``: fouls in a row of each player in this rack (000 6.14). ``score``: the
rack's points (rotation; 0 otherwise); ``points``: the match's points (rotation, for a race in
points). ``balls_known``: the balls are known (a new rack, or tracked since); False when a log
starts mid-rack without the referee giving them, so the first shot start's positions set them
without a note.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core.games import Game
from rules.core.racks import RaceConfig
from tracking.ids import BallId

__all__ = ["RackResult", "NineBallState"]


@dataclass(frozen=True)
class RackResult:
    """A finished rack: its number, who broke it, who won it (None: drawn, 000 2.9 stalemate), how
    (a sentence citing the rule), each player's points in it (rotation) and its shots.
    (:class:`rules.core.racks.RackRecord` cannot hold a drawn rack, hence this type.)"""

    number: int
    breaker: int
    winner: int | None
    how: str
    points: tuple[int, int] = (0, 0)
    shots: int = 0


@dataclass(frozen=True)
class NineBallState:
    game: Game
    players: tuple[str, str]
    race: RaceConfig
    balls: frozenset[BallId]
    at_table: int
    breaker: int
    break_turn: int
    next_is_break: bool = True
    ball_in_hand: bool = False
    push_out_allowed: bool = False
    option: bool = False
    consecutive_fouls: tuple[int, int] = (0, 0)
    racks_won: tuple[int, int] = (0, 0)
    score: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)
    rack: int = 1
    rack_shots: int = 0
    records: tuple[RackResult, ...] = field(default_factory=tuple)
    rack_target: int | None = None
    race_points: int | None = None
    shots: int = 0
    match_over: bool = False
    winner: int | None = None
    balls_known: bool = True

    @property
    def player(self) -> str:
        """The name of the player at the table."""
        return self.players[self.at_table]

    def lowest_ball(self) -> BallId | None:
        """The lowest-numbered object ball on the table (000 6.2), None with none left."""
        return min(self.balls, key=lambda b: int(b.value), default=None)
