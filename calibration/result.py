"""What a calibration returns, what it accepts as hints, and how it fails.

Contract: :class:`CalibrationResult` (frozen) carries the solved :class:`CameraModel` and the evidence
it rests on: the edge points found on each cushion line, the diamonds found and the world points they
were matched to, inlier counts, the reprojection error in px and in mm, and warnings (sentences a
user can act on). :class:`CalibrationError` (a ``ValueError``) is raised with one line saying what was
expected and what was found. :func:`check_compatible` refuses a calibration made for another table or
another image size before it silently maps balls to the wrong millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass

from calibration.camera import CameraModel
from calibration.table import TableSpec
from common.errors import TabletrackError


class CalibrationError(TabletrackError):
    """The frame, the corners or the calibration file cannot give a usable camera model."""


@dataclass(frozen=True)
class CalibrationHints:
    """What the user may know that a single frame does not tell.

    ``flip``: take the other of the two 180-degree-symmetric orientations (the table alone cannot
    tell head from foot; by default the head is at the image left, see :mod:`calibration.auto`).
    ``camera_height_mm``: the measured height of the lens above the cloth; it replaces the default
    prior on the focal length (see :mod:`calibration.solve`), with relative uncertainty
    ``camera_height_rel_sigma``. ``fx_px``: a known focal length in px (fixes it). ``fit_k2``: also
    solve the second radial coefficient (default: k2 = 0, since the rails alone hardly separate k1
    from k2)."""

    flip: bool = False
    camera_height_mm: float | None = None
    camera_height_rel_sigma: float = 0.05
    fx_px: float | None = None
    fit_k2: bool = False

    def __post_init__(self) -> None:
        if self.camera_height_mm is not None and not 300.0 <= self.camera_height_mm <= 50000.0:
            raise CalibrationError(
                f"camera height: expected 300..50000 mm above the cloth, got {self.camera_height_mm}"
            )
        if not 0.0 < self.camera_height_rel_sigma <= 2.0:
            raise CalibrationError(
                f"camera height uncertainty: expected 0..2 (relative), got {self.camera_height_rel_sigma}"
            )
        if self.fx_px is not None and not self.fx_px > 0:
            raise CalibrationError(f"focal length: expected a positive number of px, got {self.fx_px}")


@dataclass(frozen=True)
class EdgeLine:
    """The edge points found along one straight world line of the table (``side``, ``kind`` =
    ``nose`` | ``cloth_wood``), at height ``z_mm`` and ``offset_mm`` outside the nose line (as
    solved). ``points_px`` are the inliers used in the fit; ``rms_px`` their distance to the
    projected line."""

    side: str
    kind: str
    z_mm: float
    offset_mm: float
    points_px: tuple[tuple[float, float], ...]
    n_samples: int
    n_inliers: int
    rms_px: float


@dataclass(frozen=True)
class DiamondMatch:
    """A light dot found on a rail (``pixel_px``) and the diamond it was matched to (``world_mm``,
    on ``side``, k-th from the side's start); ``projected_px`` where the solved camera puts that
    diamond; ``inlier`` whether the fit used it."""

    side: str
    k: int
    world_mm: tuple[float, float, float]
    pixel_px: tuple[float, float]
    projected_px: tuple[float, float]
    inlier: bool


@dataclass(frozen=True)
class CornerMatch:
    """A playing-surface corner given by hand (``name``: head_right, foot_right, foot_left,
    head_left), its world point, the pixel given and where the solved camera puts it."""

    name: str
    world_mm: tuple[float, float, float]
    pixel_px: tuple[float, float]
    projected_px: tuple[float, float]


@dataclass(frozen=True)
class CalibrationResult:
    """A solved camera and its evidence. ``reprojection_error_px`` / ``_mm`` are the RMS distances of
    the inlier observations (edge points to their lines, diamonds to their points, or the hand-given
    ``corners`` of a manual calibration) in the image and, back-projected onto each feature's own
    height, on the table. ``method`` is ``auto`` or ``manual``."""

    camera: CameraModel
    lines: tuple[EdgeLine, ...]
    diamonds: tuple[DiamondMatch, ...]
    n_edge_inliers: int
    n_diamond_inliers: int
    reprojection_error_px: float
    reprojection_error_mm: float
    warnings: tuple[str, ...] = ()
    method: str = "auto"
    corners: tuple[CornerMatch, ...] = ()


def check_compatible(camera: CameraModel, table: TableSpec, image_w_px: int, image_h_px: int) -> None:
    """Raise :class:`CalibrationError` unless ``camera`` was solved for ``table`` and this image size.

    The table is matched by name and, where the file records them, by playing-surface size; the
    image size must be equal (a calibration for another resolution of the same camera can be turned
    into this one with :meth:`CameraModel.scaled`, but only the caller knows the frames were resized
    rather than cropped)."""
    problems = []
    if camera.table != table.name:
        problems.append(f"table {camera.table!r} (this run: {table.name!r})")
    size = camera.extras.get("table_size_mm") if isinstance(camera.extras, dict) else None
    if (
        isinstance(size, (list, tuple))
        and len(size) == 2
        and (abs(float(size[0]) - table.length_mm) > 0.5 or abs(float(size[1]) - table.width_mm) > 0.5)
    ):
        problems.append(
            f"a {float(size[0]):.0f} x {float(size[1]):.0f} mm playing surface "
            f"(this run: {table.length_mm:.0f} x {table.width_mm:.0f} mm)"
        )
    if (camera.image_w_px, camera.image_h_px) != (int(image_w_px), int(image_h_px)):
        problems.append(
            f"{camera.image_w_px}x{camera.image_h_px} px frames (this run: {int(image_w_px)}x{int(image_h_px)} px)"
        )
    if problems:
        raise CalibrationError(
            "calibration does not match this run: it was made for "
            + " and ".join(problems)
            + "; calibrate again for this table and video"
        )
