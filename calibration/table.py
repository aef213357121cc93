"""Table specifications as data (DESIGN.md "Table specs are data, not code").

A :class:`TableSpec` is read from JSON (the bundled ``calibration/tables/*.json`` or a user's own
file). Coordinates are the DESIGN.md table frame: millimetres on the cloth, x along the length from
the head cushion nose (x = 0) to the foot (x = L), y across from the right cushion (y = 0) to the
left (y = W), z up from the cloth.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

_TABLES_DIR = Path(__file__).with_name("tables")


class TableSpecError(ValueError):
    """A table name or table file is not usable."""


@dataclass(frozen=True)
class PocketSpec:
    name: str
    centre_mm: tuple[float, float]
    mouth_mm: float


@dataclass(frozen=True)
class TableSpec:
    """A table's geometry. ``cushion_width_mm`` is the plan width of the cushion from its nose to
    the wooden rail; ``diamond_setback_mm`` how far outside the nose line the diamond centres sit
    on the rail top at ``rail_height_mm``. ``diamonds_long`` / ``diamonds_short`` count the marks
    between the corners on each long / short rail (carom: 7 and 3, marks at 1/8 of the length)."""

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

    @property
    def ball_radius_mm(self) -> float:
        return self.ball_diameter_mm / 2.0

    def with_size(self, length_mm: float | None = None, width_mm: float | None = None,
                  ball_diameter_mm: float | None = None) -> "TableSpec":
        """The same table with another playing-surface size or ball diameter (a user's table)."""
        return replace(
            self,
            length_mm=self.length_mm if length_mm is None else float(length_mm),
            width_mm=self.width_mm if width_mm is None else float(width_mm),
            ball_diameter_mm=self.ball_diameter_mm if ball_diameter_mm is None else float(ball_diameter_mm),
        )

    def diamonds_mm(self) -> list[tuple[float, float, float]]:
        """3-D centres (x, y, z) of every diamond on the rail tops, head rail first, going round."""
        L, W, s, z = self.length_mm, self.width_mm, self.diamond_setback_mm, self.rail_height_mm
        out: list[tuple[float, float, float]] = []
        for k in range(1, self.diamonds_short + 1):  # head and foot rails, across the width
            y = W * k / (self.diamonds_short + 1)
            out.append((-s, y, z))
            out.append((L + s, y, z))
        for k in range(1, self.diamonds_long + 1):  # right and left rails, along the length
            x = L * k / (self.diamonds_long + 1)
            out.append((x, -s, z))
            out.append((x, W + s, z))
        return out

    def nose_corners_mm(self) -> list[tuple[float, float, float]]:
        """The playing surface's corners at cushion-nose height: (0,0), (L,0), (L,W), (0,W)."""
        L, W, z = self.length_mm, self.width_mm, self.cushion_nose_height_mm
        return [(0.0, 0.0, z), (L, 0.0, z), (L, W, z), (0.0, W, z)]

    def rail_inner_corners_mm(self) -> list[tuple[float, float, float]]:
        """Where the cushions meet the wooden rail (the cloth's outer edge seen from above)."""
        L, W, c, z = self.length_mm, self.width_mm, self.cushion_width_mm, self.rail_height_mm
        return [(-c, -c, z), (L + c, -c, z), (L + c, W + c, z), (-c, W + c, z)]


def _floats(v: Any, n: int, what: str) -> tuple[float, ...]:
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise TableSpecError(f"{what}: expected a list of {n} numbers, got {v!r}")
    return tuple(float(c) for c in v)


def table_from_dict(d: Mapping[str, Any], source: str = "table") -> TableSpec:
    required = ("name", "kind", "length_mm", "width_mm", "ball_diameter_mm")
    missing = [k for k in required if k not in d]
    if missing:
        raise TableSpecError(f"{source}: missing {', '.join(missing)} in the table spec")
    try:
        spec = TableSpec(
            name=str(d["name"]),
            kind=str(d["kind"]),
            length_mm=float(d["length_mm"]),
            width_mm=float(d["width_mm"]),
            ball_diameter_mm=float(d["ball_diameter_mm"]),
            cushion_nose_height_mm=float(d.get("cushion_nose_height_mm", 0.63 * float(d["ball_diameter_mm"]))),
            cushion_width_mm=float(d.get("cushion_width_mm", 50.0)),
            rail_width_mm=float(d.get("rail_width_mm", 125.0)),
            rail_height_mm=float(d.get("rail_height_mm", 45.0)),
            diamond_setback_mm=float(d.get("diamond_setback_mm", 100.0)),
            diamonds_long=int(d.get("diamonds_long", 7)),
            diamonds_short=int(d.get("diamonds_short", 3)),
            spots_mm={str(k): _floats(v, 2, f"{source}: spot {k}") for k, v in d.get("spots_mm", {}).items()},
            pockets=tuple(
                PocketSpec(str(p["name"]), _floats(p["centre_mm"], 2, f"{source}: pocket"), float(p["mouth_mm"]))
                for p in d.get("pockets", [])
            ),
            description=str(d.get("description", "")),
        )
    except (TypeError, ValueError, KeyError) as e:
        if isinstance(e, TableSpecError):
            raise
        raise TableSpecError(f"{source}: malformed table spec ({e})") from None
    if spec.length_mm <= 0 or spec.width_mm <= 0 or spec.ball_diameter_mm <= 0:
        raise TableSpecError(f"{source}: sizes must be positive, got {spec.length_mm} x {spec.width_mm}, "
                             f"ball {spec.ball_diameter_mm} mm")
    return spec


def known_tables() -> list[str]:
    return sorted(p.stem for p in _TABLES_DIR.glob("*.json"))


def load_table(name_or_path: str | Path) -> TableSpec:
    """A bundled table by name (``carom_match``; ``carom`` is an alias) or a user's JSON file."""
    text = str(name_or_path)
    aliases = {"carom": "carom_match"}
    text = aliases.get(text, text)
    bundled = _TABLES_DIR / f"{text}.json"
    path = bundled if bundled.is_file() else Path(text)
    if not path.is_file():
        raise TableSpecError(
            f"unknown table {str(name_or_path)!r}: expected one of {', '.join(known_tables() + ['carom'])} "
            "or the path of a table JSON file"
        )
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TableSpecError(f"{path}: not a readable table JSON file ({e})") from None
    if not isinstance(d, dict):
        raise TableSpecError(f"{path}: expected a JSON object describing a table")
    return table_from_dict(d, str(path))
