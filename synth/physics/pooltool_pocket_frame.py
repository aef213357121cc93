"""The exact map between pooltool's pocket tables (pool, snooker) and our table frame (DESIGN.md).

pooltool 0.6.0 lays every table out the same way (see :mod:`synth.physics.pooltool_frame` for the
carom table): width on x, length on y, metres, playing surface ``0 <= x <= w``, ``0 <= y <= l``.
Its racks put the break end at ``y = 0`` (nine- and eight-ball cue ball at ``0.23 l``, the rack
apex on the foot spot at ``0.75 l``; snooker baulk line at ``0.2 l``, black at ``10/11 l``), so the
carom map holds unchanged: ``x_mm = 1000 y_pt``, ``y_mm = W - 1000 x_pt`` (a proper rotation: our
head cushion is pooltool's ``y = 0``, our right cushion (y = 0) is pooltool's ``x = w``).

Pockets (``objects/table/layout.py: create_pocket_table_pockets``; centres pushed out of the
corner by the pocket depth):

=====  ========================  =================
id     pooltool centre           our pocket
=====  ========================  =================
lb     (-cD, -cD)                ``head_left``
rb     (w + cD, -cD)             ``head_right``
lc     (-sD, l / 2)              ``side_left``
rc     (w + sD, l / 2)           ``side_right``
lt     (-cD, l + cD)             ``foot_left``
rt     (w + cD, l + cD)          ``foot_right``
=====  ========================  =================

Cushion segments of a pocket table (``create_pocket_table_cushion_segments``): six straight
cushion noses (``"3"``/``"6"`` x = 0: our left rail, head and foot halves; ``"15"``/``"12"``
x = w: our right rail; ``"18"`` y = 0: head; ``"9"`` y = l: foot), twelve straight jaw faces and
twelve rounded jaw tips (``"<n>t"``). A jaw belongs to the rail whose nose it ends; a contact with
it is a rail contact for the rules (the jaw is cushion rubber), but only a nose contact has the ball
centre one radius from a nose line, so :data:`NOSE_SEGMENTS` names those.

Ball ids: pool balls are ``"cue"``, ``"1"``..``"15"`` on both sides; pooltool's snooker set is
``"white"``, ``"red_01"``..``"red_15"`` and the six colours, ours ``cue``, ``red_1``..``red_15``.

Pure arithmetic, no pooltool import, so tests and the renderer can use it.
"""

from __future__ import annotations

from synth.physics.pooltool_frame import PooltoolFrameError
from tracking.ids import BallId, Cushion, Pocket

PT_POCKET_TO_POCKET: dict[str, Pocket] = {
    "lb": Pocket.HEAD_LEFT,
    "rb": Pocket.HEAD_RIGHT,
    "lc": Pocket.SIDE_LEFT,
    "rc": Pocket.SIDE_RIGHT,
    "lt": Pocket.FOOT_LEFT,
    "rt": Pocket.FOOT_RIGHT,
}
POCKET_TO_PT_POCKET: dict[Pocket, str] = {v: k for k, v in PT_POCKET_TO_POCKET.items()}

# Which rail each pocket-table cushion segment belongs to (noses, jaw faces, jaw tips).
PT_POCKET_SEGMENT_TO_CUSHION: dict[str, Cushion] = {
    # straight noses
    "3": Cushion.LEFT,
    "6": Cushion.LEFT,
    "15": Cushion.RIGHT,
    "12": Cushion.RIGHT,
    "18": Cushion.HEAD,
    "9": Cushion.FOOT,
    # jaw faces: corner jaws at the ends of the short rails, corner and side jaws of the long rails
    "1": Cushion.HEAD,
    "17": Cushion.HEAD,
    "8": Cushion.FOOT,
    "10": Cushion.FOOT,
    "2": Cushion.LEFT,
    "4": Cushion.LEFT,
    "5": Cushion.LEFT,
    "7": Cushion.LEFT,
    "11": Cushion.RIGHT,
    "13": Cushion.RIGHT,
    "14": Cushion.RIGHT,
    "16": Cushion.RIGHT,
    # rounded jaw tips
    "1t": Cushion.HEAD,
    "17t": Cushion.HEAD,
    "8t": Cushion.FOOT,
    "10t": Cushion.FOOT,
    "2t": Cushion.LEFT,
    "4t": Cushion.LEFT,
    "5t": Cushion.LEFT,
    "7t": Cushion.LEFT,
    "11t": Cushion.RIGHT,
    "13t": Cushion.RIGHT,
    "14t": Cushion.RIGHT,
    "16t": Cushion.RIGHT,
}
NOSE_SEGMENTS: frozenset[str] = frozenset({"3", "6", "15", "12", "18", "9"})


def pocket_of_pt(pocket_id: str) -> Pocket:
    """Our pocket for a pooltool pocket id (``lb lc lt rb rc rt``)."""
    try:
        return PT_POCKET_TO_POCKET[str(pocket_id)]
    except KeyError:
        raise PooltoolFrameError(
            f"unknown pooltool pocket {pocket_id!r}: expected one of {', '.join(PT_POCKET_TO_POCKET)}"
        ) from None


def pt_pocket_of(pocket: Pocket) -> str:
    """pooltool's pocket id for our pocket."""
    return POCKET_TO_PT_POCKET[pocket]


def cushion_of_pocket_segment(segment_id: str) -> Cushion:
    """The rail a pocket-table cushion segment (nose, jaw face or jaw tip) belongs to."""
    try:
        return PT_POCKET_SEGMENT_TO_CUSHION[str(segment_id)]
    except KeyError:
        raise PooltoolFrameError(
            f"unknown pooltool pocket-table cushion segment {segment_id!r}: expected one of "
            f"{', '.join(PT_POCKET_SEGMENT_TO_CUSHION)}"
        ) from None


def ball_of_pt(ball_id: str) -> BallId:
    """Our ball id for a pooltool ball id of a pool or snooker set."""
    s = str(ball_id)
    if s == "white":
        return BallId.CUE
    if s.startswith("red_") and s[4:].isdigit():
        return BallId.parse(f"red_{int(s[4:])}")
    try:
        return BallId.parse(s)
    except ValueError:
        raise PooltoolFrameError(f"pooltool ball {ball_id!r} has no id in our pool or snooker sets") from None


def pt_ball_of(ball: BallId, snooker: bool) -> str:
    """pooltool's id of our ball: snooker ``cue`` is ``white`` and reds are zero-padded."""
    if not snooker:
        return ball.value
    if ball is BallId.CUE:
        return "white"
    if ball.value.startswith("red_"):
        return f"red_{int(ball.value[4:]):02d}"
    return ball.value
