"""Table specifications as data (DESIGN.md "Table specs are data, not code").

A :class:`TableSpec` is read from JSON (the bundled ``calibration/tables/*.json`` or a user's own
file). Coordinates are the DESIGN.md table frame: millimetres on the cloth, x along the length from
the head cushion nose (x = 0) to the foot (x = L), y across from the right cushion (y = 0) to the
left (y = W), z up from the cloth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, overload

from common.errors import TabletrackError, shorten
from common.jsonio import load_json_file

_TABLES_DIR = Path(__file__).with_name("tables")
_ALIASES = {"carom": "carom_match", "pool": "pool_9ft"}


class TableSpecError(TabletrackError):
    """A table name or table file is not usable."""


#: the physical range of a table's playing surface (length, width) and its balls, in mm: from a
#: 6-ft bar table (about 1.8 x 0.9 m) to a 12-ft snooker table (3.57 x 1.78 m) and a carom match
#: table (2.84 x 1.42 m), with room either side; balls from 47.6 mm (2 1/16 in, snooker's
#: smallest) to 61.5 mm (carom), with the same room. Outside it a size is a typo or a corrupt
#: field (a table of 1e-9 mm, 1e308 mm), and every mm of the analysis would follow it.
LENGTH_RANGE_MM = (900.0, 5000.0)
WIDTH_RANGE_MM = (450.0, 2500.0)
BALL_RANGE_MM = (20.0, 120.0)
#: any other size of the spec (cushion, rail, pocket mouth, setback), and how far a spot, line or
#: pocket may lie from the table's corner
MAX_PART_MM = 1000.0
MAX_COORD_MM = 10_000.0
#: diamonds per rail: carom 7, pool 6 and 3; a grid finer than this is no rail's
MAX_DIAMONDS = 50


def _echo(v: Any) -> str:
    return shorten(repr(v), 80)


def _num(v: Any, what: str, lo: float = -MAX_COORD_MM, hi: float = MAX_COORD_MM) -> float:
    """``v`` as a float if it is a JSON number in ``lo..hi`` (NaN and inf fail), else
    :class:`TableSpecError` naming ``what`` (``source: field``), the range and what came."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        raise TableSpecError(f"{what}: expected a number in {lo:g}..{hi:g}, got {_echo(v)}")
    return float(v)


def _count(v: Any, what: str, hi: int = MAX_DIAMONDS) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= hi or v != int(v):
        raise TableSpecError(f"{what}: expected a whole number in 0..{hi}, got {_echo(v)}")
    return int(v)


def check_sizes(length_mm: float, width_mm: float, ball_diameter_mm: float, source: str) -> None:
    """:class:`TableSpecError` unless the playing surface and the balls are in the physical ranges
    above (and the length is the longer side): one check for a spec file, ``--table-size`` and
    ``--ball-mm``."""
    _num(length_mm, f"{source}: length_mm", *LENGTH_RANGE_MM)
    _num(width_mm, f"{source}: width_mm", *WIDTH_RANGE_MM)
    _num(ball_diameter_mm, f"{source}: ball_diameter_mm", *BALL_RANGE_MM)
    if width_mm > length_mm:
        raise TableSpecError(
            f"{source}: expected the length to be the longer side, got {length_mm:g} x {width_mm:g} mm"
        )


POCKET_KINDS = ("corner", "side")
LINE_KINDS = ("segment", "arc")


@dataclass(frozen=True)
class PocketSpec:
    """One pocket, in the table frame (mm on the cloth plane).

    - ``centre_mm``: the centre of the pocket's *mouth*: the midpoint of the segment joining the two
      cushion-nose points where the nose turns into the pocket (WPA: the mouth is measured "between
      opposing cushion noses where the direction changes into the pocket, point to point"). For a
      square-cut corner pocket at the corner (0, 0) with a mouth ``m`` the nose points are
      (m/sqrt2, 0) and (0, m/sqrt2) and the centre (m/(2 sqrt2), m/(2 sqrt2)), inside the nose
      rectangle; for a side pocket it lies on the nose line at x = L/2.
    - ``mouth_mm``: that nose-point-to-nose-point width.
    - ``outward``: unit plan vector from the mouth into the pocket (corner: along the diagonal out
      of the table; side: straight out across the rail).
    - ``shelf_mm``: from ``centre_mm`` along ``outward`` to the edge of the hole cut in the slate
      (WPA "shelf": corner 1-2.25 in, side 0-0.375 in).
    - ``hole_radius_mm``: radius of that hole; :attr:`hole_centre_mm` is ``shelf_mm +
      hole_radius_mm`` beyond the mouth centre. A ball whose centre is over the hole
      (:meth:`falls`) has lost its support: it drops.
    - ``facing_angle_deg``: WPA horizontal cut angle between the cushion nose and the pocket facing
      (corner 142, side 104; 135 / 90 are facings parallel to ``outward``).
    - ``jaw_radius_mm``: rounding of the cushion nose into the facing at each nose point.
    - ``capture_radius_mm``: plan distance from ``centre_mm`` within which a ball centre is "at the
      pocket" (in the jaws or falling): half the mouth plus a ball radius by default.
    """

    name: str
    centre_mm: tuple[float, float]
    mouth_mm: float
    kind: str = "corner"
    outward: tuple[float, float] = (0.0, 0.0)
    shelf_mm: float = 0.0
    hole_radius_mm: float = 0.0
    facing_angle_deg: float = 135.0
    jaw_radius_mm: float = 0.0
    capture_radius_mm: float = 0.0

    @property
    def hole_centre_mm(self) -> tuple[float, float]:
        k = self.shelf_mm + self.hole_radius_mm
        return (self.centre_mm[0] + k * self.outward[0], self.centre_mm[1] + k * self.outward[1])

    def nose_points_mm(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two points where the cushion noses turn into the pocket (the ends of the mouth)."""
        ox, oy = self.outward
        px, py = -oy, ox  # across the mouth
        h = self.mouth_mm / 2.0
        cx, cy = self.centre_mm
        return ((cx + h * px, cy + h * py), (cx - h * px, cy - h * py))

    def facing_dirs(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Plan unit directions of the two facings, from each nose point (same order as
        :meth:`nose_points_mm`) outward into the pocket, from the WPA cut angle."""
        import math

        ox, oy = self.outward
        px, py = -oy, ox
        # a corner's nose lines meet its outward axis at 45 degrees, a side pocket's at 90: a cut
        # angle wider than 135 / 90 turns each facing towards the other nose point (the throat
        # narrows going in, as the WPA angles make it)
        base = 135.0 if self.kind == "corner" else 90.0
        a = math.radians(self.facing_angle_deg - base)
        out = []
        for sgn in (1.0, -1.0):
            out.append((math.cos(a) * ox - sgn * math.sin(a) * px, math.cos(a) * oy - sgn * math.sin(a) * py))
        return (out[0], out[1])

    def falls(self, x_mm: float, y_mm: float) -> bool:
        """True where a ball centred at (x, y) is over the hole (no support: it drops)."""
        hx, hy = self.hole_centre_mm
        return (x_mm - hx) ** 2 + (y_mm - hy) ** 2 <= self.hole_radius_mm**2

    def moved(self, dx_mm: float, dy_mm: float) -> PocketSpec:
        return replace(self, centre_mm=(self.centre_mm[0] + dx_mm, self.centre_mm[1] + dy_mm))


@dataclass(frozen=True)
class LineMark:
    """A line of the table's markings: a ``segment`` from ``p0_mm`` to ``p1_mm``, or an ``arc`` of
    ``radius_mm`` about ``centre_mm`` from ``start_deg`` to ``end_deg`` (degrees from +x towards
    +y, counter-clockwise). ``drawn`` says whether it is painted or chalked on the cloth (the
    snooker baulk line and D are; the pool head string is a rules line, not drawn)."""

    name: str
    kind: str
    p0_mm: tuple[float, float] = (0.0, 0.0)
    p1_mm: tuple[float, float] = (0.0, 0.0)
    centre_mm: tuple[float, float] = (0.0, 0.0)
    radius_mm: float = 0.0
    start_deg: float = 0.0
    end_deg: float = 360.0
    drawn: bool = True

    def points_mm(self, step_mm: float = 5.0) -> list[tuple[float, float]]:
        """Points along the mark every ``step_mm`` or closer (both ends included)."""
        import math

        if self.kind == "segment":
            n = max(1, int(math.ceil(math.dist(self.p0_mm, self.p1_mm) / step_mm)))
            return [
                (
                    self.p0_mm[0] + (self.p1_mm[0] - self.p0_mm[0]) * i / n,
                    self.p0_mm[1] + (self.p1_mm[1] - self.p0_mm[1]) * i / n,
                )
                for i in range(n + 1)
            ]
        a0, a1 = math.radians(self.start_deg), math.radians(self.end_deg)
        n = max(2, int(math.ceil(abs(a1 - a0) * self.radius_mm / step_mm)))
        return [
            (
                self.centre_mm[0] + self.radius_mm * math.cos(a0 + (a1 - a0) * i / n),
                self.centre_mm[1] + self.radius_mm * math.sin(a0 + (a1 - a0) * i / n),
            )
            for i in range(n + 1)
        ]

    def scaled(self, sx: float, sy: float) -> LineMark:
        s = (sx + sy) / 2.0
        return replace(
            self,
            p0_mm=(self.p0_mm[0] * sx, self.p0_mm[1] * sy),
            p1_mm=(self.p1_mm[0] * sx, self.p1_mm[1] * sy),
            centre_mm=(self.centre_mm[0] * sx, self.centre_mm[1] * sy),
            radius_mm=self.radius_mm * s,
        )


@dataclass(frozen=True)
class DiamondMark:
    """One diamond (sight): on ``side`` (head, foot, right, left), at grid position ``k`` of the
    rail's ``diamond_grid_*`` equal spaces, ``s_mm`` along the side from its start (head and foot
    sides run along +y, right and left along +x), centre ``xyz_mm`` on the rail top."""

    side: str
    k: int
    s_mm: float
    xyz_mm: tuple[float, float, float]


@dataclass(frozen=True)
class TableSpec:
    """A table's geometry. ``cushion_width_mm`` is the plan width of the cushion from its nose to
    the wooden rail; ``diamond_setback_mm`` how far outside the nose line the diamond centres sit
    on the rail top at ``rail_height_mm``. ``diamonds_long`` / ``diamonds_short`` count the marks
    on each long / short rail (carom: 7 and 3, marks at 1/8 of the length; pool: 6 and 3, the
    long-rail middle being the side pocket; snooker: none). The marks stand at the points of
    ``diamond_grid_long`` / ``diamond_grid_short`` equal spaces of the rail (0: one more than the
    marks), except where a pocket's mouth is (:meth:`diamond_marks`).

    ``spots_mm`` names points on the cloth (pool ``head_spot``, ``centre_spot``, ``foot_spot``,
    ``rack_apex``; snooker ``yellow`` ... ``black``, ``reds_apex``), ``drawn_spots`` those that
    are marked on the cloth; ``lines`` the lines of the game (:class:`LineMark`: pool
    ``head_string``; snooker ``baulk_line`` and the ``D``); ``pockets`` the pockets
    (:class:`PocketSpec`, names of DESIGN.md)."""

    name: str
    kind: str
    length_mm: float
    width_mm: float
    ball_diameter_mm: float
    cushion_nose_height_mm: float
    cushion_width_mm: float
    rail_width_mm: float
    rail_height_mm: float
    diamond_setback_mm: float
    diamonds_long: int
    diamonds_short: int
    spots_mm: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    pockets: tuple[PocketSpec, ...] = ()
    description: str = ""
    diamond_grid_long: int = 0
    diamond_grid_short: int = 0
    lines: tuple[LineMark, ...] = ()
    drawn_spots: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    @property
    def ball_radius_mm(self) -> float:
        return self.ball_diameter_mm / 2.0

    @property
    def lines_mm(self) -> dict[str, LineMark]:
        """The lines by name."""
        return {ln.name: ln for ln in self.lines}

    def pocket(self, name: str) -> PocketSpec:
        """The pocket called ``name`` (DESIGN.md names: head_left ... foot_right)."""
        for p in self.pockets:
            if p.name == name:
                return p
        raise TableSpecError(
            f"table {self.name!r}: no pocket {name!r}; it has {', '.join(p.name for p in self.pockets) or 'none'}"
        )

    def with_size(
        self, length_mm: float | None = None, width_mm: float | None = None, ball_diameter_mm: float | None = None
    ) -> TableSpec:
        """The same table with another playing-surface size or ball diameter (a user's table).

        Spots and lines scale with the surface (the markings of smaller tables are scaled down);
        pockets keep their offsets from the corner or the long-rail middle they belong to."""
        L = self.length_mm if length_mm is None else float(length_mm)
        W = self.width_mm if width_mm is None else float(width_mm)
        D = self.ball_diameter_mm if ball_diameter_mm is None else float(ball_diameter_mm)
        check_sizes(L, W, D, f"table {self.name!r} resized")
        sx, sy = L / self.length_mm, W / self.width_mm
        pockets = []
        for p in self.pockets:
            ax, ay = _anchor(p, self.length_mm, self.width_mm)
            bx, by = _anchor(p, L, W)
            pockets.append(p.moved(bx - ax, by - ay))
        return replace(
            self,
            length_mm=L,
            width_mm=W,
            ball_diameter_mm=D,
            spots_mm={k: (v[0] * sx, v[1] * sy) for k, v in self.spots_mm.items()},
            lines=tuple(ln.scaled(sx, sy) for ln in self.lines),
            pockets=tuple(pockets),
        )

    def diamond_marks(self) -> list[DiamondMark]:
        """Every diamond, head and foot rails first (alternating, across the width), then the right
        and left rails (alternating, along the length); grid points inside a pocket's mouth carry
        none. See :class:`DiamondMark`."""
        L, W, s, z = self.length_mm, self.width_mm, self.diamond_setback_mm, self.rail_height_mm
        out: list[DiamondMark] = []
        gs = self.diamond_grid_short or self.diamonds_short + 1
        gl = self.diamond_grid_long or self.diamonds_long + 1
        for k in range(1, gs):
            y = W * k / gs
            if not self._in_mouth(0.0, y):
                out.append(DiamondMark("head", k, y, (-s, y, z)))
            if not self._in_mouth(L, y):
                out.append(DiamondMark("foot", k, y, (L + s, y, z)))
        for k in range(1, gl):
            x = L * k / gl
            if not self._in_mouth(x, 0.0):
                out.append(DiamondMark("right", k, x, (x, -s, z)))
            if not self._in_mouth(x, W):
                out.append(DiamondMark("left", k, x, (x, W + s, z)))
        return out

    def _in_mouth(self, x: float, y: float) -> bool:
        return any(
            (x - p.centre_mm[0]) ** 2 + (y - p.centre_mm[1]) ** 2 <= (p.mouth_mm / 2.0) ** 2 for p in self.pockets
        )

    def diamonds_mm(self) -> list[tuple[float, float, float]]:
        """3-D centres (x, y, z) of every diamond on the rail tops, in :meth:`diamond_marks` order."""
        return [m.xyz_mm for m in self.diamond_marks()]

    def nose_corners_mm(self) -> list[tuple[float, float, float]]:
        """The playing surface's corners at cushion-nose height: (0,0), (L,0), (L,W), (0,W)."""
        L, W, z = self.length_mm, self.width_mm, self.cushion_nose_height_mm
        return [(0.0, 0.0, z), (L, 0.0, z), (L, W, z), (0.0, W, z)]

    def rail_inner_corners_mm(self) -> list[tuple[float, float, float]]:
        """Where the cushions meet the wooden rail (the cloth's outer edge seen from above)."""
        L, W, c, z = self.length_mm, self.width_mm, self.cushion_width_mm, self.rail_height_mm
        return [(-c, -c, z), (L + c, -c, z), (L + c, W + c, z), (-c, W + c, z)]


def _anchor(p: PocketSpec, L: float, W: float) -> tuple[float, float]:
    """The table point a pocket is cut at: its corner, or the middle of its long rail."""
    cx, cy = p.centre_mm
    ax = L / 2.0 if p.kind == "side" else (0.0 if cx < L / 2.0 else L)
    ay = 0.0 if cy < W / 2.0 else W
    return ax, ay


_OUTWARD_BY_NAME = {
    "head_right": (-1.0, -1.0),
    "head_left": (-1.0, 1.0),
    "foot_right": (1.0, -1.0),
    "foot_left": (1.0, 1.0),
    "side_right": (0.0, -1.0),
    "side_left": (0.0, 1.0),
}


@overload
def _floats(v: Any, n: Literal[2], what: str) -> tuple[float, float]: ...
@overload
def _floats(v: Any, n: int, what: str) -> tuple[float, ...]: ...
def _floats(v: Any, n: int, what: str) -> tuple[float, ...]:
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise TableSpecError(f"{what}: expected a list of {n} numbers, got {_echo(v)}")
    return tuple(_num(c, what) for c in v)


def _outward_of(name: str, kind: str, centre: tuple[float, float], L: float, W: float) -> tuple[float, float]:
    import math

    ox, oy = _OUTWARD_BY_NAME.get(name, (0.0, 0.0))
    if (ox, oy) == (0.0, 0.0):  # a user's pocket name: out through the nearest rail(s)
        cx, cy = centre
        oy = -1.0 if cy < W / 2.0 else 1.0
        ox = 0.0 if kind == "side" else (-1.0 if cx < L / 2.0 else 1.0)
    n = math.hypot(ox, oy)
    return (ox / n, oy / n)


def _pocket_from_dict(
    p: Mapping[str, Any], kinds: Mapping[str, Any], L: float, W: float, r_ball: float, source: str
) -> PocketSpec:
    kind = str(p.get("kind", "corner"))
    if kind not in POCKET_KINDS:
        raise TableSpecError(
            f"{source}: pocket {p.get('name')!r}: kind expected one of {', '.join(POCKET_KINDS)}, got {kind!r}"
        )
    d = {**dict(kinds.get(kind, {})), **dict(p)}
    name = shorten(d["name"], 40)
    centre = _floats(d["centre_mm"], 2, f"{source}: pocket {name} centre_mm")
    mouth = _num(d["mouth_mm"], f"{source}: pocket {name} mouth_mm", 1.0, MAX_PART_MM)
    outward = (
        _floats(d["outward"], 2, f"{source}: pocket {name} outward")
        if "outward" in d
        else _outward_of(name, kind, centre, L, W)
    )
    return PocketSpec(
        name=name,
        centre_mm=centre,
        mouth_mm=mouth,
        kind=kind,
        outward=outward,
        shelf_mm=_num(d.get("shelf_mm", 0.0), f"{source}: pocket {name} shelf_mm", 0.0, MAX_PART_MM),
        hole_radius_mm=_num(
            d.get("hole_radius_mm", 0.55 * mouth), f"{source}: pocket {name} hole_radius_mm", 0.0, MAX_PART_MM
        ),
        facing_angle_deg=_num(
            d.get("facing_angle_deg", 135.0 if kind == "corner" else 90.0),
            f"{source}: pocket {name} facing_angle_deg",
            0.0,
            180.0,
        ),
        jaw_radius_mm=_num(d.get("jaw_radius_mm", 0.0), f"{source}: pocket {name} jaw_radius_mm", 0.0, MAX_PART_MM),
        capture_radius_mm=_num(
            d.get("capture_radius_mm", 0.5 * mouth + r_ball),
            f"{source}: pocket {name} capture_radius_mm",
            0.0,
            MAX_PART_MM,
        ),
    )


def _line_from_dict(d: Mapping[str, Any], source: str) -> LineMark:
    kind = str(d.get("kind", "segment"))
    name = shorten(d["name"], 40)
    if kind not in LINE_KINDS:
        raise TableSpecError(f"{source}: line {name!r}: kind expected one of {', '.join(LINE_KINDS)}, got {kind!r}")
    if kind == "segment":
        return LineMark(
            name,
            kind,
            p0_mm=_floats(d["p0_mm"], 2, f"{source}: line {name} p0_mm"),
            p1_mm=_floats(d["p1_mm"], 2, f"{source}: line {name} p1_mm"),
            drawn=bool(d.get("drawn", True)),
        )
    return LineMark(
        name,
        kind,
        centre_mm=_floats(d["centre_mm"], 2, f"{source}: line {name} centre_mm"),
        radius_mm=_num(d["radius_mm"], f"{source}: line {name} radius_mm", 0.0, MAX_COORD_MM),
        start_deg=_num(d.get("start_deg", 0.0), f"{source}: line {name} start_deg", -720.0, 720.0),
        end_deg=_num(d.get("end_deg", 360.0), f"{source}: line {name} end_deg", -720.0, 720.0),
        drawn=bool(d.get("drawn", True)),
    )


def table_from_dict(d: Mapping[str, Any], source: str = "table") -> TableSpec:
    """A :class:`TableSpec` from its JSON form (see ``calibration/tables/*.json``). Pockets may
    take defaults per kind from ``pocket_kinds`` ({"corner": {...}, "side": {...}})."""
    required = ("name", "kind", "length_mm", "width_mm", "ball_diameter_mm")
    missing = [k for k in required if k not in d]
    if missing:
        raise TableSpecError(f"{source}: missing {', '.join(missing)} in the table spec")
    L, W, D = d["length_mm"], d["width_mm"], d["ball_diameter_mm"]
    check_sizes(L, W, D, source)
    L, W, D = float(L), float(W), float(D)

    def part(key: str, default: float) -> float:
        return _num(d.get(key, default), f"{source}: {key}", 0.0, MAX_PART_MM)

    try:
        kinds = d.get("pocket_kinds", {})
        spec = TableSpec(
            name=str(d["name"]),
            kind=str(d["kind"]),
            length_mm=L,
            width_mm=W,
            ball_diameter_mm=D,
            cushion_nose_height_mm=part("cushion_nose_height_mm", 0.63 * D),
            cushion_width_mm=part("cushion_width_mm", 50.0),
            rail_width_mm=part("rail_width_mm", 125.0),
            rail_height_mm=part("rail_height_mm", 45.0),
            diamond_setback_mm=part("diamond_setback_mm", 100.0),
            diamonds_long=_count(d.get("diamonds_long", 7), f"{source}: diamonds_long"),
            diamonds_short=_count(d.get("diamonds_short", 3), f"{source}: diamonds_short"),
            spots_mm={str(k): _floats(v, 2, f"{source}: spot {k}") for k, v in d.get("spots_mm", {}).items()},
            pockets=tuple(_pocket_from_dict(p, kinds, L, W, D / 2.0, source) for p in d.get("pockets", [])),
            description=str(d.get("description", "")),
            diamond_grid_long=_count(d.get("diamond_grid_long", 0), f"{source}: diamond_grid_long", 2 * MAX_DIAMONDS),
            diamond_grid_short=_count(
                d.get("diamond_grid_short", 0), f"{source}: diamond_grid_short", 2 * MAX_DIAMONDS
            ),
            lines=tuple(_line_from_dict(ln, source) for ln in d.get("lines", [])),
            drawn_spots=tuple(str(k) for k in d.get("drawn_spots", [])),
            sources=tuple(str(k) for k in d.get("sources", [])),
        )
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as e:
        if isinstance(e, TableSpecError):
            raise
        raise TableSpecError(f"{source}: malformed table spec ({type(e).__name__}: {shorten(e, 120)})") from None
    unknown = [k for k in spec.drawn_spots if k not in spec.spots_mm]
    if unknown:
        raise TableSpecError(
            f"{source}: drawn_spots names spots that are not in spots_mm: {shorten(', '.join(unknown), 120)}"
        )
    marks = spec.diamond_marks()
    for side, want in (
        ("right", spec.diamonds_long),
        ("left", spec.diamonds_long),
        ("head", spec.diamonds_short),
        ("foot", spec.diamonds_short),
    ):
        got = sum(1 for m in marks if m.side == side)
        if got != want:
            raise TableSpecError(
                f"{source}: expected {want} diamonds on the {side} rail, the grid "
                f"(diamond_grid_long/short) and the pocket mouths leave {got}"
            )
    return spec


def known_tables() -> list[str]:
    return sorted(p.stem for p in _TABLES_DIR.glob("*.json"))


def load_table(name_or_path: str | Path) -> TableSpec:
    """A bundled table by name (``carom_match``, ``pool_9ft``, ``pool_8ft``, ``pool_7ft``,
    ``snooker``; aliases ``carom`` and ``pool`` (9 ft)) or a user's JSON file."""
    text = str(name_or_path)
    aliases = dict(_ALIASES)
    text = aliases.get(text, text)
    bundled = _TABLES_DIR / f"{text}.json"
    path = bundled if bundled.is_file() else Path(text)
    if not path.is_file():
        raise TableSpecError(
            f"unknown table {_echo(str(name_or_path))}: expected one of {', '.join(known_tables() + sorted(_ALIASES))} "
            "or the path of a table JSON file"
        )
    d = load_json_file(path, "table spec", TableSpecError)
    if not isinstance(d, dict):
        raise TableSpecError(f"{shorten(path, 120)}: expected a JSON object describing a table")
    return table_from_dict(d, shorten(path, 120))
