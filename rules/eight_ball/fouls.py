"""The fouls of eight-ball (002, Reglamento bola 8), each with the article that defines it.

Citations follow ``rules/eight_ball/README.md``: ``002 bola 8 ART 16.1b`` is article 16, its
paragraph 1, sub-item b) (the document's text prints its list numbers flattened; the README maps
each citation to the text). Every foul ends the inning and gives the opponent the cue ball in hand
(ART 17.1); the balls pocketed on it stay down (ART 19.2); a foul while pocketing the 8 loses the
game (ART 25.1a).

``camera=True``: the engine finds the foul in the event log (a scratch, the wrong ball first, no
rail after contact, a ball off the table); the others no camera sees and enter as referee input
(``"foul": name or list``). A referee may also declare a camera foul the tracker missed, and
``"overrule"`` rejects a camera foul found in the log (a false detection).

Fouls the bola 8 regulation does not list come from the federation's general rules, which apply
where the regulation says nothing (ART 33: "Serán de plena aplicación ... todas las reglas y normas
vigentes de la R.F.E.B."): the double hit and the push (Reglamento de juego ART 15.7), shooting
while balls move (15.2), and any other breach of the rules (15.12, e.g. playing out of turn).
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import RefereeInputError
from rules.core.fouls import FoulInfo
from rules.core.parsing import parse_member

__all__ = ["ART", "EightBallFoul", "UnknownEightBallFoulError", "parse_foul"]

ART = "002 bola 8 ART"


class EightBallFoul(Enum):
    NO_CONTACT = "no_contact"
    WRONG_BALL_FIRST = "wrong_ball_first"
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"
    SCRATCH = "scratch"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    BALL_OFF_TABLE = "ball_off_table"
    NO_FOOT_ON_FLOOR = "no_foot_on_floor"
    TOUCHED_BALL = "touched_ball"
    ILLEGAL_JUMP = "illegal_jump"
    COACHING = "coaching"
    BEHIND_HEAD_STRING = "behind_head_string"
    SLOW_PLAY = "slow_play"
    DOUBLE_HIT = "double_hit"
    PUSH_SHOT = "push_shot"
    BALLS_MOVING = "balls_moving"
    RULE_VIOLATION = "rule_violation"

    @property
    def info(self) -> FoulInfo:
        return _INFO[self]

    @property
    def camera(self) -> bool:
        return self.info.camera

    @property
    def articles(self) -> str:
        return self.info.articles


_INFO: dict[EightBallFoul, FoulInfo] = {
    EightBallFoul.NO_CONTACT: FoulInfo("the cue ball touched no object ball", f"{ART} 13.1, 16.1a", camera=True),
    EightBallFoul.WRONG_BALL_FIRST: FoulInfo(
        "the cue ball first touched a ball that is not the shooter's", f"{ART} 13.1, 16.1a", camera=True
    ),
    EightBallFoul.NO_RAIL_AFTER_CONTACT: FoulInfo(
        "no ball was pocketed and no ball reached a cushion after the first contact", f"{ART} 13.1b, 16.1a", camera=True
    ),
    EightBallFoul.SCRATCH: FoulInfo("the cue ball was pocketed", f"{ART} 16.1b", camera=True),
    EightBallFoul.CUE_BALL_OFF_TABLE: FoulInfo("the cue ball left the table", f"{ART} 16.1b", camera=True),
    EightBallFoul.BALL_OFF_TABLE: FoulInfo("an object ball left the table", f"{ART} 20.1", camera=True),
    EightBallFoul.NO_FOOT_ON_FLOOR: FoulInfo("the player shot without a foot on the floor", f"{ART} 16.1d"),
    EightBallFoul.TOUCHED_BALL: FoulInfo("a ball was moved or touched other than by the stroke", f"{ART} 16.1e"),
    EightBallFoul.ILLEGAL_JUMP: FoulInfo(
        "the cue ball was made to jump by striking it below its centre", f"{ART} 16.1f"
    ),
    EightBallFoul.COACHING: FoulInfo("a team member advised the player on the shot", f"{ART} 16.1g"),
    EightBallFoul.BEHIND_HEAD_STRING: FoulInfo(
        "with the cue ball in hand behind the head string after a break scratch, the player shot at a ball "
        "behind the line without first crossing it",
        f"{ART} 11.2",
    ),
    EightBallFoul.SLOW_PLAY: FoulInfo("slow play after the referee's warning and time limit", f"{ART} 29.1"),
    EightBallFoul.DOUBLE_HIT: FoulInfo(
        "double hit (the tip struck the cue ball more than once)", f"{ART} 33; Reglamento de juego ART 15.7.1"
    ),
    EightBallFoul.PUSH_SHOT: FoulInfo(
        "push shot (the tip stayed on the cue ball)", f"{ART} 33; Reglamento de juego ART 15.7.2, 15.7.3"
    ),
    EightBallFoul.BALLS_MOVING: FoulInfo(
        "the stroke began while balls were still moving", f"{ART} 33; Reglamento de juego ART 15.2"
    ),
    EightBallFoul.RULE_VIOLATION: FoulInfo(
        "the player did not respect the rules of the game (e.g. played out of turn)",
        f"{ART} 33; Reglamento de juego ART 15.12",
    ),
}


class UnknownEightBallFoulError(RefereeInputError):
    """A foul name that is not one of :class:`EightBallFoul`; the message lists the valid names."""


def parse_foul(name: object) -> EightBallFoul:
    """The foul called ``name`` (``"touched_ball"``), or :class:`UnknownEightBallFoulError`."""
    return parse_member(EightBallFoul, name, "eight-ball foul", UnknownEightBallFoulError)
