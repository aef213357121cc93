"""The fouls of 14.1 continuous (004), each with the article that defines it and its penalty class.

Article references are to 004 as the document is laid out: ``004 art. 6`` (the opening break),
``004 art. 7.2`` (rule of play 2 under "7 Reglas del Juego"), ``004 art. 12`` (successive fouls).
The document's own cross-references use the numbering of its source ("Regla de Juego 6.7.5",
"6.12"): those are 004 art. 7.5 and art. 12 here. Fouls of the General Rules of Pocket Billiards,
which 004 applies where it does not contradict them (its opening sentence), cite "004 preamble".

Penalties: every foul costs the shooter one point (004 art. 11) and counts toward the successive
fouls (004 art. 12). Two are not standard fouls: the breaking violation (004 art. 6: two points,
outside the successive-foul count) and the intentional foul (004 art. 7.5: one point plus fifteen).
Some fouls the engine finds in the event log (``camera``); the others no camera sees and come from
the referee input (``"foul": name`` or a list).
"""

from __future__ import annotations

from enum import Enum

from rules.core.errors import RefereeInputError
from rules.core.fouls import FoulInfo
from rules.core.parsing import parse_member

__all__ = ["UnknownStraightPoolFoulError", "StraightPoolFoul", "REFEREE_FOULS", "CAMERA_FOULS", "parse_foul"]


class UnknownStraightPoolFoulError(RefereeInputError):
    """A foul name that is not a 14.1 foul; the message lists the valid names."""


class StraightPoolFoul(Enum):
    # found in the event log
    CUE_BALL_POCKETED = "cue_ball_pocketed"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    BALL_OFF_TABLE = "ball_off_table"
    NO_CONTACT = "no_contact"
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"
    CUE_BALL_NOT_BEHIND_HEAD_STRING = "cue_ball_not_behind_head_string"
    BALL_BEHIND_HEAD_STRING = "ball_behind_head_string"
    BREAKING_VIOLATION = "breaking_violation"
    # declared by the referee
    TOUCHED_BALL = "touched_ball"
    DOUBLE_HIT = "double_hit"
    PUSH_SHOT = "push_shot"
    NO_FOOT_ON_FLOOR = "no_foot_on_floor"
    BALLS_MOVING = "balls_moving"
    FROZEN_BALL_RULE = "frozen_ball_rule"
    INTENTIONAL = "intentional"

    @property
    def info(self) -> FoulInfo:
        return _INFO[self]


_INFO: dict[StraightPoolFoul, FoulInfo] = {
    StraightPoolFoul.CUE_BALL_POCKETED: FoulInfo("the cue ball was pocketed", "004 art. 10, 11", camera=True),
    StraightPoolFoul.CUE_BALL_OFF_TABLE: FoulInfo("the cue ball left the table", "004 art. 10, 11", camera=True),
    StraightPoolFoul.BALL_OFF_TABLE: FoulInfo("an object ball left the table", "004 art. 9", camera=True),
    StraightPoolFoul.NO_CONTACT: FoulInfo("the cue ball touched no object ball", "004 art. 7.2", camera=True),
    StraightPoolFoul.NO_RAIL_AFTER_CONTACT: FoulInfo(
        "after the contact no ball was pocketed and no ball reached a cushion", "004 art. 7.2", camera=True
    ),
    StraightPoolFoul.CUE_BALL_NOT_BEHIND_HEAD_STRING: FoulInfo(
        "with ball in hand behind the head string the cue ball was played from in front of it",
        "004 art. 10; preamble (General Rules)",
        camera=True,
    ),
    StraightPoolFoul.BALL_BEHIND_HEAD_STRING: FoulInfo(
        "with ball in hand behind the head string the cue ball first struck a ball behind the string "
        "without first crossing it",
        "004 art. 10; preamble (General Rules)",
        camera=True,
    ),
    StraightPoolFoul.BREAKING_VIOLATION: FoulInfo(
        "breaking violation: the opening break neither pocketed a called ball nor drove the cue ball to a "
        "cushion after a contact and two object balls to a cushion",
        "004 art. 6",
        camera=True,
    ),
    StraightPoolFoul.TOUCHED_BALL: FoulInfo("a ball was touched", "004 preamble (General Rules)"),
    StraightPoolFoul.DOUBLE_HIT: FoulInfo("double hit", "004 preamble (General Rules)"),
    StraightPoolFoul.PUSH_SHOT: FoulInfo("push shot", "004 preamble (General Rules)"),
    StraightPoolFoul.NO_FOOT_ON_FLOOR: FoulInfo("the player had no foot on the floor", "004 preamble (General Rules)"),
    StraightPoolFoul.BALLS_MOVING: FoulInfo("the stroke began while balls were moving", "004 preamble (General Rules)"),
    StraightPoolFoul.FROZEN_BALL_RULE: FoulInfo(
        "the frozen-ball requirement on a ball near a cushion was not met (a third defensive shot on it)",
        "004 art. 7.2 (note)",
    ),
    StraightPoolFoul.INTENTIONAL: FoulInfo(
        "intentional foul: a ball on its way to a pocket or the rack area was touched or interfered with",
        "004 art. 7.5",
    ),
}

REFEREE_FOULS: tuple[StraightPoolFoul, ...] = tuple(f for f in StraightPoolFoul if not f.info.camera)
CAMERA_FOULS: tuple[StraightPoolFoul, ...] = tuple(f for f in StraightPoolFoul if f.info.camera)


def parse_foul(name: object, where: str = "foul") -> StraightPoolFoul:
    """The 14.1 foul called ``name`` (``"touched_ball"``), or an error listing the names."""
    return parse_member(StraightPoolFoul, name, "14.1 foul", UnknownStraightPoolFoulError, where)
