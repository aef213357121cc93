"""The fouls of the nine-ball family, each with the articles that define it.

Articles: ``000`` is the international nine-ball rules (``000 6.2``, ``000 2.3(b)``); ``002 bola
9`` the Spanish federation's nine-ball regulation (``002 bola 9 ART 9.2.2``). Every foul passes
the table to the opponent with the cue ball in hand (000 2.7; 002 bola 9 ART 9.1); several fouls
on one shot count as one (000 2.7; 002 bola 9 ART 9.2). The variants (six-, seven-, ten-ball,
rotation) have the same fouls (002 overview: "las mismas reglas").

``camera=True``: the engine finds the foul in the event log (and the referee may overrule it, a
false detection); the others no camera sees and enter as referee input. ``BREAK_MISSED_RACK`` is
not a foul with ball in hand but 000 2.3(e)'s own consequence (the opponent breaks); it is in the
enum so a call can name it.
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import RefereeInputError
from rules.core.fouls import FoulInfo
from rules.core.parsing import parse_member

__all__ = ["UnknownPoolFoulError", "PoolFoul", "CAMERA_FOULS", "parse_pool_foul"]


class UnknownPoolFoulError(RefereeInputError):
    """A foul name that is not one of :class:`PoolFoul`; the message lists the valid names."""


class PoolFoul(Enum):
    CUE_BALL_POCKETED = "cue_ball_pocketed"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    NO_CONTACT = "no_contact"
    WRONG_BALL_FIRST = "wrong_ball_first"
    NO_RAIL = "no_rail"
    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"
    ILLEGAL_BREAK = "illegal_break"
    BREAK_MISSED_RACK = "break_missed_rack"
    NO_FOOT_ON_FLOOR = "no_foot_on_floor"
    TOUCHED_BALL = "touched_ball"
    DOUBLE_HIT = "double_hit"
    PUSH_SHOT = "push_shot"
    BALLS_MOVING = "balls_moving"
    BREAK_OUTSIDE_KITCHEN = "break_outside_kitchen"
    CUE_ON_TABLE = "cue_on_table"
    OUT_OF_TURN = "out_of_turn"
    TIME_LIMIT = "time_limit"
    UNSPORTING = "unsporting"
    ILLEGAL_JUMP = "illegal_jump"
    BALL_IN_HAND_TOUCHED_OBJECT = "ball_in_hand_touched_object"

    @property
    def info(self) -> FoulInfo:
        return _INFO[self]

    @property
    def articles(self) -> str:
        return self.info.articles


_INFO: dict[PoolFoul, FoulInfo] = {
    PoolFoul.CUE_BALL_POCKETED: FoulInfo("the cue ball was pocketed", "000 6.1; 002 bola 9 ART 9.2.1", True),
    PoolFoul.CUE_BALL_OFF_TABLE: FoulInfo("the cue ball left the table", "000 6.1; 002 bola 9 ART 9.2.1", True),
    PoolFoul.NO_CONTACT: FoulInfo("the cue ball touched no object ball", "000 6.2; 002 bola 9 ART 9.2.2", True),
    PoolFoul.WRONG_BALL_FIRST: FoulInfo(
        "the cue ball did not touch the lowest-numbered ball on the table first", "000 6.2; 002 bola 9 ART 9.2.2", True
    ),
    PoolFoul.NO_RAIL: FoulInfo(
        "no ball was pocketed and no ball reached a rail after the cue ball's contact",
        "000 6.3; 002 bola 9 ART 9.2.3",
        True,
    ),
    PoolFoul.OBJECT_BALL_OFF_TABLE: FoulInfo("an object ball left the table", "000 6.5; 002 bola 9 ART 11.4", True),
    PoolFoul.ILLEGAL_BREAK: FoulInfo(
        "illegal break: the cue ball must hit the 1 first and a ball must be pocketed or four object balls "
        "driven to a rail",
        "000 2.3(b)",
        True,
    ),
    PoolFoul.BREAK_MISSED_RACK: FoulInfo("on the break the cue ball did not touch the rack", "000 2.3(e)", True),
    PoolFoul.NO_FOOT_ON_FLOOR: FoulInfo(
        "the player had no foot on the floor at the stroke", "000 6.4; 002 bola 9 ART 9.2.4"
    ),
    PoolFoul.TOUCHED_BALL: FoulInfo(
        "a ball was touched with the cue, bridge, chalk, body or clothing", "000 6.6; 002 bola 9 ART 9.2.6, 9.2.7"
    ),
    PoolFoul.DOUBLE_HIT: FoulInfo("double hit (the cue struck the cue ball twice)", "000 6.7"),
    PoolFoul.PUSH_SHOT: FoulInfo("push shot (the tip stayed on the cue ball)", "000 6.8"),
    PoolFoul.BALLS_MOVING: FoulInfo("the stroke began while a ball was moving", "000 6.9; 002 bola 9 ART 9.2.5"),
    PoolFoul.BREAK_OUTSIDE_KITCHEN: FoulInfo(
        "the break was played with the cue ball outside the kitchen (behind the head string)", "000 6.10, 2.3(a)"
    ),
    PoolFoul.CUE_ON_TABLE: FoulInfo("the cue was laid on the table to line up the shot", "000 6.12"),
    PoolFoul.OUT_OF_TURN: FoulInfo("the player shot out of turn", "000 6.13"),
    PoolFoul.TIME_LIMIT: FoulInfo("the player exceeded the time limit", "000 6.15"),
    PoolFoul.UNSPORTING: FoulInfo("unsporting conduct (the referee may add a further sanction)", "000 6.16"),
    PoolFoul.ILLEGAL_JUMP: FoulInfo(
        "the cue ball was made to jump by striking it below its centre", "002 bola 9 ART 9.2.8"
    ),
    PoolFoul.BALL_IN_HAND_TOUCHED_OBJECT: FoulInfo(
        "the cue ball in hand touched an object ball while being placed", "002 bola 9 ART 9.2.9"
    ),
}

CAMERA_FOULS: tuple[PoolFoul, ...] = tuple(f for f in PoolFoul if f.info.camera)


def parse_pool_foul(name: object) -> PoolFoul:
    """The foul called ``name`` (``"touched_ball"``), or :class:`UnknownPoolFoulError` listing them."""
    return parse_member(PoolFoul, name, "foul", UnknownPoolFoulError)
