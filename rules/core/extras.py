"""Each game's own fields of a call, typed: the base of every ``<family>/extras.py``.

:class:`rules.core.call.Call` holds what every game's verdict has (the DESIGN.md contract) and the
carom fields; what only one game has (the balls pocketed and ball in hand of pool, snooker's ball
on and penalty …) is that game's frozen dataclass, a subclass of :class:`CallExtras`, in
``Call.details``. It reads as a mapping of its fields in declaration order, which is how
``calls.jsonl`` writes them (after the shared keys): so the field order *is* the file's key
order, and a field whose ``metadata`` says ``omit_none`` is left out while None (a key written
only for some games of a family, such as rotation's ``match_points``); a field whose key is a
Python keyword names it with :func:`json_key` (snooker's ``break``). Values are JSON-ready
(names, lists, objects keyed by player name), as the file has them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any

__all__ = ["CallExtras", "OMIT_NONE", "PocketedJson", "json_key"]

#: ``field(metadata=OMIT_NONE)``: the key is not written while the value is None.
#: A pocketed ball as written in a pocket game's extras: {"ball": "9", "pocket": "foot_left"}.
PocketedJson = Mapping[str, str]

OMIT_NONE: Mapping[str, bool] = MappingProxyType({"omit_none": True})


def json_key(name: str) -> Mapping[str, str]:
    """``field(metadata=json_key("break"))``: the key written for a field named otherwise."""
    return MappingProxyType({"json": name})


class CallExtras(Mapping[str, Any]):
    """A game's extras of one call: subclass it as a frozen dataclass (see the module docstring)."""

    __slots__ = ()

    def _items(self) -> Iterator[tuple[str, Any]]:
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if value is None and f.metadata.get("omit_none"):
                continue
            yield f.metadata.get("json", f.name), value

    def __getitem__(self, key: str) -> Any:
        for k, v in self._items():
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items())

    def __len__(self) -> int:
        return sum(1 for _ in self._items())
