"""What differs between the games of the nine-ball family, as data.

002's overview: "Bola 9 ... Existen variantes que siguen las mismas reglas con diferente número de
bolas y bola objetivo: Bola 6, Bola 7 y Bola 10" -- six-, seven- and ten-ball are nine-ball (000)
with another rack and another game ball. Where 002 is silent the standard WPA rules are used and
the README says so: ten-ball's shots are called and its 10 on the break is respotted (the breaker
keeps the table if the break was otherwise legal). Rotation (002: "the balls must be hit in
ascending order; each ball is worth its number; who has more points wins"): 15 balls, lowest ball
first as in 000 6.2, a rack to 61 points (the majority of the 120 on the table), no game ball and
no push-out; the balls pocketed on a foul (or driven off the table) are respotted and do not score
(the standard rotation rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.games import Game
from tracking.ids import BallId

__all__ = ["NUMBERED", "number", "is_object_ball", "Variant", "VARIANTS", "variant_of"]

#: Object balls by number.
NUMBERED: tuple[BallId, ...] = tuple(BallId(str(n)) for n in range(1, 16))


def number(ball: BallId) -> int:
    """The number of an object ball (``BallId.B7`` -> 7)."""
    return int(ball.value)


def is_object_ball(ball: BallId) -> bool:
    return ball in NUMBERED


@dataclass(frozen=True)
class Variant:
    """One game of the family. ``balls``: the rack's object balls, by number. ``game_ball``: the
    ball whose legal pocketing wins the rack (None: rotation, scored by ball numbers).
    ``called_shots``: every shot but the break names a ball and pocket or a safety (ten-ball).
    ``game_ball_wins_on_break``: the game ball pocketed on a legal break wins (000 2.5; not in
    ten-ball). ``push_out``: the shot after the break may be a push-out (000 2.4). ``scored``:
    balls score their number (rotation); ``respot_fouled``: balls pocketed on a foul go back
    (rotation). ``rack_target``: rotation's points to win a rack. ``source``: the citation of the
    variant's own rules in reasons."""

    game: Game
    balls: tuple[BallId, ...]
    game_ball: BallId | None
    called_shots: bool = False
    game_ball_wins_on_break: bool = True
    push_out: bool = True
    scored: bool = False
    respot_fouled: bool = False
    rack_target: int | None = None
    source: str = "000"

    @property
    def name(self) -> str:
        return self.game.value


def _rack(n: int) -> tuple[BallId, ...]:
    return NUMBERED[:n]


VARIANTS: dict[Game, Variant] = {
    Game.NINE_BALL: Variant(Game.NINE_BALL, _rack(9), BallId.B9),
    Game.TEN_BALL: Variant(
        Game.TEN_BALL,
        _rack(10),
        BallId.B10,
        called_shots=True,
        game_ball_wins_on_break=False,
        source="002 overview; WPA ten-ball",
    ),
    Game.SEVEN_BALL: Variant(Game.SEVEN_BALL, _rack(7), BallId.B7, source="002 overview; 000"),
    Game.SIX_BALL: Variant(Game.SIX_BALL, _rack(6), BallId.B6, source="002 overview; 000"),
    Game.ROTATION: Variant(
        Game.ROTATION,
        _rack(15),
        None,
        push_out=False,
        scored=True,
        respot_fouled=True,
        rack_target=61,
        source="002 overview (rotación)",
    ),
}


def variant_of(game: Game) -> Variant:
    """The variant of ``game`` (KeyError for a game outside the family)."""
    return VARIANTS[game]
