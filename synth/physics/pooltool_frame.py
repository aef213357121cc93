"""The exact map between pooltool's billiard-table frame and our table frame (DESIGN.md).

pooltool (0.6.0, ``Table.from_game_type(GameType.THREECUSHION)``, built from
``BilliardTableSpecs(l, w, cushion_height)``) lays the table out with its *width* on x and its
*length* on y, in metres: the playing surface is ``0 <= x <= w``, ``0 <= y <= l``, and the four
linear cushion segments are the cushion-nose lines at ``cushion_height`` above the cloth:

==========  ===================  ===============================  ==================
segment id  pooltool line        our table frame                  our cushion
==========  ===================  ===============================  ==================
``"18"``    y = 0                x = 0                            ``head``
``"9"``     y = l                x = L                            ``foot``
``"12"``    x = w                y = 0                            ``right``
``"3"``     x = 0                y = W                            ``left``
==========  ===================  ===============================  ==================

pooltool detects a ball-cushion contact when the ball centre is exactly R from that line, so its
lines are our nose lines: a ball touching the head cushion has centre x = R (30.75 mm).

The map ``x_mm = 1000 * y_pt``, ``y_mm = W_mm - 1000 * x_pt`` is a proper rotation (determinant
+1) plus a shift, so spin senses are unchanged. Standing at our head cushion looking to the foot
(pooltool +y), pooltool +x is to the right, toward our right cushion (y = 0).

pooltool's cue direction ``phi`` is measured in its frame (0 = +x_pt, 90 = +y_pt = toward our
foot); in our frame the same direction is ``aim_deg = phi - 90`` (0 = +x, 90 = +y, toward the
left cushion). Side spin ``a`` and top/bottom ``b`` are relative to the cue, so they need no map.

Pure arithmetic, no pooltool import, so the renderer and the tracker can use it.
"""

from __future__ import annotations

from common.errors import TabletrackError
from tracking.ids import Cushion

PT_SEGMENT_TO_CUSHION: dict[str, Cushion] = {
    "18": Cushion.HEAD,
    "9": Cushion.FOOT,
    "12": Cushion.RIGHT,
    "3": Cushion.LEFT,
}


class PooltoolFrameError(TabletrackError):
    """A pooltool id or value has no meaning in our table frame."""


def cushion_of_segment(segment_id: str) -> Cushion:
    """Our cushion for a pooltool billiard-table linear segment id ("18", "9", "12", "3")."""
    try:
        return PT_SEGMENT_TO_CUSHION[str(segment_id)]
    except KeyError:
        raise PooltoolFrameError(
            f"unknown pooltool billiard cushion segment {segment_id!r}: expected one of "
            f"{', '.join(PT_SEGMENT_TO_CUSHION)}"
        ) from None


def pt_to_table_mm(x_pt_m: float, y_pt_m: float, width_mm: float) -> tuple[float, float]:
    """Our table (x_mm, y_mm) of the pooltool point (x_pt_m, y_pt_m)."""
    return (1000.0 * float(y_pt_m), float(width_mm) - 1000.0 * float(x_pt_m))


def table_mm_to_pt(x_mm: float, y_mm: float, width_mm: float) -> tuple[float, float]:
    """The pooltool point (x_pt_m, y_pt_m) of our table (x_mm, y_mm)."""
    return ((float(width_mm) - float(y_mm)) / 1000.0, float(x_mm) / 1000.0)


def aim_deg_to_phi_deg(aim_deg: float) -> float:
    """pooltool ``phi`` (degrees, [0, 360)) of a direction ``aim_deg`` in our table frame."""
    return (float(aim_deg) + 90.0) % 360.0


def phi_deg_to_aim_deg(phi_deg: float) -> float:
    """Our table-frame direction (degrees, [0, 360)) of pooltool's ``phi``."""
    return (float(phi_deg) - 90.0) % 360.0


def frame_description(width_mm: float, length_mm: float) -> dict[str, object]:
    """The mapping facts as plain data, stored in each shot's ``meta`` for the record."""
    return {
        "pooltool_table": {"w_m": width_mm / 1000.0, "l_m": length_mm / 1000.0},
        "x_mm": "1000 * y_pt",
        "y_mm": f"{width_mm:g} - 1000 * x_pt",
        "segments": {k: v.value for k, v in PT_SEGMENT_TO_CUSHION.items()},
        "aim_deg": "phi_deg - 90",
    }
