"""Camera calibration: table specs as data, the camera model, and the solvers that fit one to a frame.

The public API, importable from the package (``from calibration import load_table``) or from its
module (``from calibration.table import load_table``, the form the project uses):

- :mod:`calibration.table` -- :class:`TableSpec` and its parts, :func:`load_table`, :func:`table_from_dict`.
- :mod:`calibration.camera` -- :class:`CameraModel` (pixels <-> table millimetres), saved as JSON.
- :mod:`calibration.result` -- :class:`CalibrationResult`, :class:`CalibrationHints`, :class:`CalibrationError`.
- :mod:`calibration.auto` -- :func:`calibrate_frame`: a camera from one frame, automatically.
- :mod:`calibration.manual` -- :func:`calibrate_manual`: a camera from four clicked corners.
- :mod:`calibration.find_table` -- :class:`TableOutline`: the cloth and its outline in a frame (its
  ``find_table`` is not re-exported: the name is the module's).
- :mod:`calibration.draw` -- :func:`draw_calibration`: the solved camera drawn over the frame.

The solver's parts (``solve``, ``lens``, ``features``, ``edges``, ``diamonds``) are internal.
Nothing is imported at package import: a name is loaded from its module on first use, so
``import calibration.table`` (which tracking/ does) stays free of OpenCV.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.lazy import lazy_exports

# public name -> the module that defines it
_SOURCE: dict[str, str] = {
    "TableSpec": "table",
    "TableSpecError": "table",
    "PocketSpec": "table",
    "LineMark": "table",
    "DiamondMark": "table",
    "load_table": "table",
    "table_from_dict": "table",
    "known_tables": "table",
    "CameraModel": "camera",
    "CameraModelError": "camera",
    "CalibrationError": "result",
    "CalibrationHints": "result",
    "CalibrationResult": "result",
    "CornerMatch": "result",
    "DiamondMatch": "result",
    "EdgeLine": "result",
    "check_compatible": "result",
    "calibrate_frame": "auto",
    "calibrate_manual": "manual",
    "parse_corners": "manual",
    "TableOutline": "find_table",
    "ClothColour": "find_table",
    "draw_calibration": "draw",
}

__all__ = [
    "TableSpec",
    "TableSpecError",
    "PocketSpec",
    "LineMark",
    "DiamondMark",
    "load_table",
    "table_from_dict",
    "known_tables",
    "CameraModel",
    "CameraModelError",
    "CalibrationError",
    "CalibrationHints",
    "CalibrationResult",
    "CornerMatch",
    "DiamondMatch",
    "EdgeLine",
    "check_compatible",
    "calibrate_frame",
    "calibrate_manual",
    "parse_corners",
    "TableOutline",
    "ClothColour",
    "draw_calibration",
]

if TYPE_CHECKING:
    from calibration.auto import calibrate_frame
    from calibration.camera import CameraModel, CameraModelError
    from calibration.draw import draw_calibration
    from calibration.find_table import ClothColour, TableOutline
    from calibration.manual import calibrate_manual, parse_corners
    from calibration.result import (
        CalibrationError,
        CalibrationHints,
        CalibrationResult,
        CornerMatch,
        DiamondMatch,
        EdgeLine,
        check_compatible,
    )
    from calibration.table import (
        DiamondMark,
        LineMark,
        PocketSpec,
        TableSpec,
        TableSpecError,
        known_tables,
        load_table,
        table_from_dict,
    )
else:
    __getattr__, __dir__ = lazy_exports(__name__, _SOURCE, globals())
