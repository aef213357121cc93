"""Checks shared by every game's referee-input parser: objects with known keys, per-player values,
shot numbers, booleans and counts, and prefixing an error with where it was found. Each raises
:class:`RefereeInputError` (or the ``error`` the caller names, a subclass such as nine-ball's)
with one line naming what was expected and what came. One copy for every game: a family's
``inputs.py`` calls these rather than keeping its own ``_bool`` or ``_pair``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar, cast

from common.errors import shorten
from common.jsonio import load_json_file
from rules.core.errors import RefereeInputError

__all__ = [
    "checked_object",
    "per_player",
    "shot_number",
    "located",
    "player_names",
    "parse_member",
    "read_input_json",
    "one_or_many",
    "shot_entries",
    "boolean",
    "count",
    "integer",
    "player_pair",
]

T = TypeVar("T")


def checked_object(v: Any, where: str, keys: Sequence[str]) -> dict[str, Any]:
    """``v`` as a dict whose keys are all in ``keys``."""
    if not isinstance(v, dict):
        raise RefereeInputError(f"{where} must be an object, got {type(v).__name__}")
    unknown = [k for k in v if k not in keys]
    if unknown:
        raise RefereeInputError(f"{where}: unknown key {shorten(repr(unknown[0]), 80)}: expected {', '.join(keys)}")
    return v


def per_player(
    v: Any,
    names: tuple[str, str],
    where: str,
    keyed: str = "an object keyed by player name",
    lists: tuple[type, ...] = (list,),
    objects: tuple[type, ...] = (dict,),
) -> dict[str, Any] | None:
    """A per-player field: an object keyed by name, or a list in player order (None stays None).
    ``keyed`` words the error for anything else; ``lists`` and ``objects`` are the types taken as
    each (the carom parser, which also reads values built in Python, takes tuples and mappings)."""
    if v is None:
        return None
    if isinstance(v, lists):
        seq = cast(Sequence[Any], v)
        if len(seq) != 2:
            raise RefereeInputError(f"{where} as a list must have one value per player (2), got {len(seq)}")
        return {names[0]: seq[0], names[1]: seq[1]}
    if isinstance(v, objects):
        return dict(cast(Mapping[str, Any], v))
    raise RefereeInputError(f"{where} must be {keyed} or a list of 2, got {shorten(repr(v), 80)}")


def shot_number(key: Any, where: str) -> int:
    """A ``shots`` key ("1", "2", ...) as an int."""
    text = str(key).strip()
    if not text.isdigit() or int(text) < 1:
        raise RefereeInputError(
            f'{where}: shot numbers are positive integers ("1", "2", ...), got {shorten(repr(key), 80)}'
        )
    return int(text)


def located(where: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, its :class:`RefereeInputError` prefixed with ``where``."""
    try:
        return fn(*args, **kwargs)
    except RefereeInputError as e:
        raise RefereeInputError(f"{where}: {e}") from None


def player_names(top: dict[str, Any], where: str, default: tuple[str, str]) -> tuple[str, str]:
    """The two distinct, non-empty player names of ``top["players"]`` (``default`` if absent)."""
    names = top.get("players", list(default))
    if (
        not isinstance(names, (list, tuple))
        or len(names) != 2
        or not all(isinstance(n, str) and n.strip() for n in names)
    ):
        raise RefereeInputError(f"{where}: players must be two non-empty names, got {shorten(repr(names), 80)}")
    if names[0] == names[1]:
        raise RefereeInputError(f"{where}: players must have different names, got {shorten(repr(names[0]), 80)} twice")
    return (names[0], names[1])


E = TypeVar("E", bound=Enum)


def parse_member(
    enum_cls: type[E], value: object, what: str, error: type[ValueError] = RefereeInputError, where: str | None = None
) -> E:
    """The member of ``enum_cls`` spelled ``value`` (a member passes through), or ``error`` with
    one line naming ``what`` was expected and listing the valid spellings."""
    if isinstance(value, enum_cls):
        return value
    try:
        return enum_cls(str(value))
    except ValueError:
        valid = ", ".join(str(m.value) for m in enum_cls)
        prefix = f"{where}: " if where else ""
        raise error(f"{prefix}unknown {what} {shorten(repr(value), 80)}: expected one of {valid}") from None


def read_input_json(path: str | Path) -> Any:
    """The decoded JSON of a referee input file, read and decoded within the bounds of
    :mod:`common.jsonio`; :class:`RefereeInputError` naming the file (and field) when it cannot be
    read, is too large, is not JSON or holds a value past a bound."""
    return load_json_file(path, "referee input", RefereeInputError)


def one_or_many(
    value: Any,
    where: str,
    what: str,
    single: tuple[type, ...] = (str,),
    many: tuple[type, ...] = (list, tuple),
    error: type[ValueError] = RefereeInputError,
) -> list[Any]:
    """A field that takes one value or a list of them (``"foul": "touched_ball"`` or a list):
    [] for None, [value] for one of ``single``, the items of one of ``many``; else ``error``
    saying ``where`` must be ``what`` or a list of them."""
    if value is None:
        return []
    if isinstance(value, single):
        return [value]
    if not isinstance(value, many):
        raise error(f"{where} must be {what} or a list of them, got {shorten(repr(value), 80)}")
    # ``many`` holds iterable types (list, tuple by default); isinstance against a runtime tuple
    # of types does not narrow ``value`` for the type checker
    return list(cast("Iterable[Any]", value))


def shot_entries(shots: Any, where: str, error: type[ValueError] = RefereeInputError) -> list[tuple[int, str, Any]]:
    """The ``shots`` object of a referee input as (shot number, key as written, value), checked: an
    object keyed by positive shot numbers, none given twice ("3" and "03")."""
    shots = shots or {}
    if not isinstance(shots, dict):
        raise error(f"{where}: shots must be an object keyed by shot number, got {type(shots).__name__}")
    out: list[tuple[int, str, Any]] = []
    seen: set[int] = set()
    for key, value in shots.items():
        n = shot_number(key, f"{where}: shots")
        if n in seen:
            raise error(f"{where}: shots: shot {n} is given twice")
        seen.add(n)
        out.append((n, key, value))
    return out


def boolean(v: Any, where: str, error: type[ValueError] = RefereeInputError) -> bool:
    """``v`` if it is a JSON boolean, else ``error`` (a 0 or "yes" is not taken as one)."""
    if not isinstance(v, bool):
        raise error(f"{where} must be true or false, got {shorten(repr(v), 80)}")
    return v


def count(v: Any, where: str, top: int | None = None, error: type[ValueError] = RefereeInputError) -> int:
    """``v`` if it is an integer in 0..``top`` (no upper bound when ``top`` is None; a boolean is
    not an integer), else ``error``."""
    if isinstance(v, bool) or not isinstance(v, int) or v < 0 or (top is not None and v > top):
        span = f"0..{top}" if top is not None else "a non-negative integer"
        raise error(f"{where} must be {span}, got {shorten(repr(v), 80)}")
    return v


def integer(v: Any, where: str, minimum: int | None = None, error: type[ValueError] = RefereeInputError) -> int:
    """``v`` if it is an integer of at least ``minimum`` (any integer when None), else ``error``
    ("must be an integer >= 1")."""
    if isinstance(v, bool) or not isinstance(v, int) or (minimum is not None and v < minimum):
        what = "an integer" if minimum is None else f"an integer >= {minimum}"
        raise error(f"{where} must be {what}, got {shorten(repr(v), 80)}")
    return v


def player_pair(
    v: Any,
    names: tuple[str, str],
    where: str,
    item: Callable[[Any, str], int] = count,
    error: type[ValueError] = RefereeInputError,
    **per_player_kw: Any,
) -> tuple[int, int] | None:
    """A per-player number (scores, innings, racks won …) as (first player's, second's), each 0
    where not given and checked by ``item`` (default :func:`count`: non-negative) under
    ``where.<name>``; None stays None; a key that is not a player's name is ``error``.
    ``per_player_kw``: how the value may be written (:func:`per_player`)."""
    d: Mapping[str, Any] | None = per_player(v, names, where, **per_player_kw)
    if d is None:
        return None
    unknown = [k for k in d if k not in names]
    if unknown:
        raise error(
            f"{where} is keyed by player name ({shorten(', '.join(map(repr, names)), 120)}), got {shorten(repr(unknown[0]), 80)}"
        )
    return (item(d.get(names[0], 0), f"{where}.{names[0]}"), item(d.get(names[1], 0), f"{where}.{names[1]}"))
