"""Decoding a user's JSON within bounds: the one JSON loader of every reader in the project.

Contract: :func:`loads_bounded` decodes a JSON text and returns plain Python values (``dict``,
``list``, ``str``, ``int``, ``float``, ``bool``, ``None``) in which every number is finite and
short, every string at most :attr:`JsonLimits.max_string_chars` long and nothing nested deeper
than :attr:`JsonLimits.max_depth`; otherwise it raises the caller's
:class:`common.errors.TabletrackError` subclass with one line: where (``file`` or ``file:line``),
the field as a path (``shots/3/called``), what was expected and what came, shortened and with
control characters escaped (:func:`common.errors.shorten`). :func:`load_json_file` reads a whole
file within :data:`common.bounded.MAX_FILE_BYTES` first; :func:`iter_json_lines` decodes a JSON
Lines stream line by line within :data:`common.bounded.MAX_LINE_CHARS`.

Why: Python's decoder takes ``NaN`` and ``Infinity`` (not JSON), turns ``1e400`` into ``inf``,
raises ``RecursionError`` on ten thousand nested brackets and "Exceeds the limit (4300 digits)"
on a long integer, naming neither the file nor the field. Each reader had its own try/except
around ``json.loads``, each catching a different subset. The readers (``tracking/eventlog.py``,
``rules/core/parsing.py``, ``calibration/camera.py``, ``calibration/table.py``,
``calibration/manual.py``) call these functions and keep only their own checks of meaning.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from common.bounded import MAX_FILE_BYTES, MAX_LINE_CHARS, bounded_lines, read_text_capped
from common.errors import TabletrackError, shorten

__all__ = ["JsonLimits", "DEFAULT_LIMITS", "iter_json_lines", "load_json_file", "loads_bounded"]


@dataclass(frozen=True)
class JsonLimits:
    """The bounds of a JSON input. ``max_depth``: nesting of objects and arrays (the deepest
    input of the project, a referee input's ``shots/N/field/[list]``, is 5);
    ``max_number_chars``: the spelling of one number (a float's ``repr`` is at most 24; an
    integer of more digits is no count or frame of a billiards match); ``max_string_chars``: one
    string (a table spec's longest source note is under 1 kB)."""

    max_depth: int = 32
    max_number_chars: int = 40
    max_string_chars: int = 64 * 1024


DEFAULT_LIMITS = JsonLimits()


@dataclass(frozen=True)
class _Bad:
    """A number the decoder met that no reader may receive: why, and its (shortened) spelling."""

    why: str
    text: str


def _parse_int(limits: JsonLimits) -> Any:
    def parse(s: str) -> int | _Bad:
        if len(s) > limits.max_number_chars:
            return _Bad(f"a finite number of at most {limits.max_number_chars} digits", f"{len(s)} digits")
        return int(s)

    return parse


def _parse_float(limits: JsonLimits) -> Any:
    def parse(s: str) -> float | _Bad:
        if len(s) > limits.max_number_chars:
            return _Bad(f"a finite number of at most {limits.max_number_chars} characters", f"{len(s)} characters")
        v = float(s)
        return v if math.isfinite(v) else _Bad("a finite number", shorten(s, 40))

    return parse


def _parse_constant(s: str) -> _Bad:
    return _Bad("a finite number (JSON has no NaN or Infinity)", s)


_SPECIAL = re.compile(r'[\[\]{}"\\]')


def _depth_over(text: str, max_depth: int) -> bool:
    """Whether ``text`` nests objects and arrays deeper than ``max_depth`` (brackets inside strings
    are not counted). Cheap when it cannot: fewer opening brackets than the bound."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    depth = 0
    in_string = False
    skip_at = -1  # the position of a character escaped by a backslash inside a string
    for m in _SPECIAL.finditer(text):
        i, ch = m.start(), m.group()
        if i == skip_at:
            continue
        if in_string:
            if ch == "\\":
                skip_at = i + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _field(path: tuple[str, ...]) -> str:
    return "field " + repr(shorten("/".join(path), 80)) if path else "the top-level value"


def _check(value: Any, path: tuple[str, ...], where: str, error: type[TabletrackError], limits: JsonLimits) -> None:
    """Raise ``error`` at the first value past a bound (depth is bounded before decoding)."""
    if isinstance(value, _Bad):
        raise error(f"{where}: {_field(path)}: expected {value.why}, got {value.text}")
    if isinstance(value, str):
        if len(value) > limits.max_string_chars:
            raise error(
                f"{where}: {_field(path)}: expected a string of at most {limits.max_string_chars} "
                f"characters, got {len(value)}"
            )
    elif isinstance(value, dict):
        for k, v in value.items():
            if len(k) > limits.max_string_chars:
                raise error(f"{where}: {_field(path)}: a key of {len(k)} characters")
            _check(v, (*path, k), where, error, limits)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check(v, (*path, str(i)), where, error, limits)


def loads_bounded(text: str, where: str, error: type[TabletrackError], limits: JsonLimits = DEFAULT_LIMITS) -> Any:
    """The decoded value of the JSON ``text`` (see the module docstring); ``where`` prefixes every
    message (a file name, ``file:line``), ``error`` is the reader's error class."""
    if _depth_over(text, limits.max_depth):
        raise error(f"{where}: nested deeper than {limits.max_depth} levels of objects and arrays")
    try:
        value = json.loads(
            text,
            parse_int=_parse_int(limits),
            parse_float=_parse_float(limits),
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as e:
        msg = e.msg.removesuffix(" at")  # "Invalid control character at"
        raise error(f"{where}: not valid JSON ({msg} at line {e.lineno} column {e.colno})") from None
    except (ValueError, RecursionError) as e:  # what the bounds above should already have caught
        raise error(f"{where}: not valid JSON ({shorten(e, 120)})") from None
    _check(value, (), where, error, limits)
    return value


def load_json_file(
    path: str | Path,
    what: str,
    error: type[TabletrackError],
    limits: JsonLimits = DEFAULT_LIMITS,
    max_bytes: int = MAX_FILE_BYTES,
) -> Any:
    """The decoded JSON of the file ``path`` (``what`` names it: "referee input" …), read within
    ``max_bytes`` and decoded within ``limits``; ``error`` naming the file otherwise."""
    text = read_text_capped(path, what, error, max_bytes)
    return loads_bounded(text, shorten(Path(path).name, 120), error, limits)


def iter_json_lines(
    stream: IO[str] | Iterable[str],
    name: str,
    error: type[TabletrackError],
    limits: JsonLimits = DEFAULT_LIMITS,
    max_line_chars: int = MAX_LINE_CHARS,
) -> Iterator[tuple[str, Any]]:
    """``(where, value)`` for each non-blank line of a JSON Lines stream, ``where`` being
    ``name:line``; ``error`` naming the line at the first fault."""
    for number, line in bounded_lines(stream, name, error, max_line_chars):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        yield where, loads_bounded(line, where, error, limits)
