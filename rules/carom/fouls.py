"""The fouls of the carom games, each with the articles that define it.

Article references: ``003`` is the three-cushion tournament rules (``003 art. 6(a)``), ``002`` the
general carom rules, "Reglamento de juego" (``002 ART 15.1``). Every foul ends the inning with no
point, even if a carom was made (003 art. 6, 14; 002 ART 7.3, ART 15 "Es falta y pasa la mano").

Some fouls the engine finds in the event log (``camera=True``: a ball off the table, the break not
taking the red first, playing into a touching ball, playing the wrong ball); the others no camera
sees (a touched ball, a push, a double hit, a foot off the floor …) and enter as referee input
(:mod:`rules.carom.inputs`). A referee may also declare a camera foul the tracker missed.
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import RulesError
from rules.core.fouls import FoulInfo
from rules.core.games import Game
from rules.core.parsing import parse_member

__all__ = ["UnknownFoulError", "Foul", "parse_foul"]


class UnknownFoulError(RulesError):
    """A foul name that is not one of :class:`Foul`; the message lists the valid names."""


class Foul(Enum):
    BALL_OFF_TABLE = "ball_off_table"
    BREAK_NOT_RED_FIRST = "break_not_red_first"
    PLAYED_INTO_CONTACT = "played_into_contact"
    WRONG_BALL = "wrong_ball"
    BALLS_MOVING = "balls_moving"
    TOUCHED_BALL = "touched_ball"
    CUE_NOT_TIP = "cue_not_tip"
    CLEANED_BALL = "cleaned_ball"
    MOVED_BALL = "moved_ball"
    PUSH_SHOT = "push_shot"
    DOUBLE_HIT = "double_hit"
    NO_FOOT_ON_FLOOR = "no_foot_on_floor"
    TOUCHED_CUE_BALL_AIMING = "touched_cue_ball_aiming"
    AIMING_MARK = "aiming_mark"
    STOPPED_ON_RAIL = "stopped_on_rail"
    TOUCHED_FRAME = "touched_frame"
    INTERFERENCE = "interference"
    INTENTIONAL_SAFETY = "intentional_safety"
    RULE_VIOLATION = "rule_violation"
    BALK_ZONE = "balk_zone"

    @property
    def info(self) -> FoulInfo:
        return _INFO[self]

    def articles(self, game: Game) -> str:
        """The citation of this foul in ``game``: three-cushion cites 003 then 002, the other carom
        games the general rules 002 only."""
        art_003 = _ART_003[self]
        if game is Game.THREE_CUSHION and art_003:
            return f"003 art. {art_003}; 002 {self.info.articles}"
        return f"002 {self.info.articles}"


def _carom(description: str, art_003: str | None, art_002: str, camera: bool = False) -> tuple[FoulInfo, str | None]:
    """A foul's info (citing 002) and its three-cushion article in 003 (None: 003 does not name it)."""
    return FoulInfo(description, art_002, camera), art_003


_TABLE: dict[Foul, tuple[FoulInfo, str | None]] = {
    Foul.BALL_OFF_TABLE: _carom("a ball left the table", "6(a), 11", "ART 11, 15.1", camera=True),
    Foul.BREAK_NOT_RED_FIRST: _carom(
        "on the break the cue ball did not take the red first", "5", "ART 6.2", camera=True
    ),
    Foul.PLAYED_INTO_CONTACT: _carom(
        "the cue ball was played directly into the ball (or cushion) it was touching",
        "9(a)",
        "ART 10.1, 10.2, 15.8",
        camera=True,
    ),
    Foul.WRONG_BALL: _carom("the player played a ball that is not his", "6(g), 8(a)", "ART 15.11", camera=True),
    Foul.BALLS_MOVING: _carom("the stroke began while balls were still moving or spinning", "6(b), 13", "ART 15.2"),
    Foul.TOUCHED_BALL: _carom(
        "a ball was touched with the hand, clothing, cue, chalk or another object", "6(c)", "ART 15.4"
    ),
    Foul.CUE_NOT_TIP: _carom("the ball was struck with a part of the cue other than the tip", None, "ART 15.3"),
    Foul.CLEANED_BALL: _carom("the player moved a ball to clean it instead of asking the referee", None, "ART 15.5"),
    Foul.MOVED_BALL: _carom("a ball was moved other than by the stroke", "6(c)", "ART 15.6"),
    Foul.PUSH_SHOT: _carom("push shot (the tip stayed on the cue ball)", "6(d), 14", "ART 15.7.2, 15.7.3"),
    Foul.DOUBLE_HIT: _carom("double hit (the tip struck the cue ball twice)", "6(e), 14", "ART 15.7.1"),
    Foul.NO_FOOT_ON_FLOOR: _carom("the player had no foot on the floor at the stroke", "6(f)", "ART 15.9"),
    Foul.TOUCHED_CUE_BALL_AIMING: _carom(
        "the player touched the cue ball with the cue while aiming", "6(h), 17", "ART 15.12"
    ),
    Foul.AIMING_MARK: _carom("the player placed a visible aiming mark on the table or rail", None, "ART 15.10"),
    Foul.STOPPED_ON_RAIL: _carom("the cue ball jumped and stopped on top of the rail", "12", "ART 15.12"),
    Foul.TOUCHED_FRAME: _carom("a ball touched the wooden rail frame", "12", "ART 11.2, 15.1"),
    Foul.INTERFERENCE: _carom("the player caused an interference", "19", "ART 15.12"),
    Foul.INTENTIONAL_SAFETY: _carom("intentional defensive shot", "24", "ART 15.12"),
    Foul.RULE_VIOLATION: _carom("the player did not respect the rules of the game", None, "ART 15.12"),
    Foul.BALK_ZONE: _carom(
        "a carom was made from the position 'dentro' with neither object ball leaving its zone",
        None,
        "ART 19.2, 20.5",
        camera=True,
    ),
}

_INFO: dict[Foul, FoulInfo] = {f: info for f, (info, _) in _TABLE.items()}
#: The article of 003 (three-cushion) that names each foul, where it does.
_ART_003: dict[Foul, str | None] = {f: art for f, (_, art) in _TABLE.items()}


def parse_foul(name: object) -> Foul:
    """The foul called ``name`` (``"touched_ball"``), or :class:`UnknownFoulError` listing them."""
    return parse_member(Foul, name, "foul", UnknownFoulError)
