"""The look of a rendered clip, as one frozen value: :class:`RenderStyle`.

Contract: a style holds only appearance (colours, lamps, texture strengths, noise, shutter, the
optional scoreboard); geometry comes from the :class:`~calibration.table.TableSpec` and the
:class:`~calibration.camera.CameraModel`. Colours are BGR 0..255 (OpenCV order, the order frames
leave :func:`synth.render.frame.render_frame` and :class:`cv2.VideoCapture` gives them back).
Everything random (textures, noise) draws from the ``numpy.random.Generator`` handed to the
renderer, never from global state, so a clip is a pure function of (shot, table, camera, style,
seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from calibration._vec import floats3
from common.errors import TabletrackError

BGR = tuple[float, float, float]


class RenderError(TabletrackError):
    """A render request that cannot be honoured (bad parameter, overlay with no room, ...)."""


class ClothColour(Enum):
    """Cloth presets: blue (the usual carom broadcast cloth), classic green (snooker, bar pool),
    grey-blue (steel), red (burgundy), and tournament blue (the lighter, greener blue of pool TV
    events)."""

    BLUE = "blue"
    GREEN = "green"
    GREY_BLUE = "grey_blue"
    RED = "red"
    TOURNAMENT_BLUE = "tournament_blue"

    @property
    def bgr(self) -> BGR:
        return {
            ClothColour.BLUE: (178.0, 98.0, 28.0),
            ClothColour.GREEN: (58.0, 124.0, 30.0),
            ClothColour.GREY_BLUE: (150.0, 118.0, 88.0),
            ClothColour.RED: (48.0, 40.0, 150.0),
            ClothColour.TOURNAMENT_BLUE: (196.0, 128.0, 36.0),
        }[self]

    @classmethod
    def parse(cls, text: object) -> ClothColour:
        try:
            return cls(str(text))
        except ValueError:
            raise RenderError(
                f"unknown cloth colour {text!r}: expected one of {', '.join(m.value for m in cls)}"
            ) from None


@dataclass(frozen=True)
class Lamp:
    """A lamp of the lamp box over the table: position in table mm, relative power, and the radius
    of its emitting disc (sets the penumbra of ball shadows and the size of ball highlights)."""

    x_mm: float
    y_mm: float
    z_mm: float
    power: float = 1.0
    radius_mm: float = 120.0


@dataclass(frozen=True)
class Scoreboard:
    """A burned-in broadcast score box (player names, scores, innings) in a frame ``corner``
    (``top_left``, ``top_right``, ``bottom_left``, ``bottom_right``); it must fit outside the table."""

    corner: str = "bottom_left"
    players: tuple[str, str] = ("PLAYER A", "PLAYER B")
    scores: tuple[int, int] = (0, 0)
    innings: int = 1
    event_title: str = "3-CUSHION"

    def __post_init__(self) -> None:
        if self.corner not in ("top_left", "top_right", "bottom_left", "bottom_right"):
            raise RenderError(
                f"scoreboard corner: expected top_left, top_right, bottom_left or bottom_right, got {self.corner!r}"
            )


@dataclass(frozen=True)
class RenderStyle:
    """Appearance of a clip. ``lamps`` empty means the default lamp box of
    :func:`synth.render.lighting.default_lamps` over the table. ``shutter_fraction`` is the
    exposure as a fraction of the frame period (0.5 = a 180-degree shutter); ``blur_step_px`` the
    largest ball displacement between two sub-frame renders of the motion blur."""

    cloth: ClothColour = ClothColour.BLUE
    cloth_texture: float = 0.035  # fine weave, relative amplitude
    cloth_mottle: float = 0.012  # low-frequency unevenness of the cloth
    cushion_shade: float = 0.78  # slanted cushion cloth relative to the bed
    nose_highlight: float = 0.30  # brightening of the rounded rubber nose (a few mm)
    nose_shadow: float = 0.16  # darkening of the bed in the strip next to the nose
    rail_bgr: BGR = (34.0, 62.0, 112.0)  # varnished wood
    apron_shade: float = 0.55  # the vertical outer face of the rails
    floor_bgr: BGR = (38.0, 40.0, 44.0)
    diamond_bgr: BGR = (225.0, 232.0, 236.0)  # mother-of-pearl sights
    diamond_diameter_mm: float = 12.0
    cloth_bgr: BGR | None = None  # a cloth colour of the caller's, instead of ``cloth``
    ball_bgr: dict = field(default_factory=dict)  # {BallId: BGR} overrides (ballset.jittered_ball_bgr)
    cue_marking: str = "none"  # pool/snooker cue ball: none, dots6, measles
    pocket_bgr: BGR = (14.0, 14.0, 16.0)  # the inside of a pocket
    liner_bgr: BGR = (24.0, 28.0, 34.0)  # leather/rubber rim of the pocket on the rail
    facing_bgr: BGR = (30.0, 32.0, 36.0)  # rubber facings of the jaws
    pocket_rim_mm: float = 12.0  # width of that rim around the hole
    line_bgr: BGR = (205.0, 212.0, 214.0)  # chalk lines and spots on the cloth
    line_width_mm: float = 2.5
    spot_diameter_mm: float = 9.0
    lamps: tuple[Lamp, ...] = ()
    ambient: float = 0.22  # light not from the lamps (room, bounce)
    ball_specular: float = 0.5
    ball_shininess: float = 60.0
    shadow_strength: float = 0.85  # how much of a lamp's light a ball can take away
    white_marked: bool = False  # RFEB ART 2.8: marking dots at both ends of a diameter
    vignette: float = 0.10  # lens fall-off at the frame corners
    noise_sigma: float = 2.0  # sensor noise, 8-bit levels (CRF <= 21 keeps some of it)
    shutter_fraction: float = 0.5
    blur_step_px: float = 1.5
    max_subframes: int = 16
    static_supersample: int = 2
    scoreboard: Scoreboard | None = None
    extras: dict[str, object] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.shutter_fraction <= 1.0:
            raise RenderError(f"shutter_fraction: expected 0..1 of the frame period, got {self.shutter_fraction}")
        if self.blur_step_px <= 0.0 or self.max_subframes < 1:
            raise RenderError(
                f"motion blur: expected blur_step_px > 0 and max_subframes >= 1, "
                f"got {self.blur_step_px} and {self.max_subframes}"
            )
        if self.static_supersample < 1 or self.static_supersample > 4:
            raise RenderError(f"static_supersample: expected 1..4, got {self.static_supersample}")
        if self.cue_marking not in ("none", "dots6", "measles"):
            raise RenderError(f"cue_marking: expected none, dots6 or measles, got {self.cue_marking!r}")
        if self.noise_sigma < 0.0:
            raise RenderError(f"noise_sigma: expected >= 0 (8-bit levels), got {self.noise_sigma}")

    @property
    def cloth_albedo(self) -> BGR:
        """The bed's colour: ``cloth_bgr`` where given, else the ``cloth`` preset's."""
        return self.cloth.bgr if self.cloth_bgr is None else floats3(self.cloth_bgr)
