"""What every game knows about one of its fouls: one type for every family.

Each family keeps its own foul enum (the names written in referee input and ``calls.jsonl``
differ per rule book) and maps each member to a :class:`FoulInfo`: the clause the call's reason
quotes, the articles it cites and whether the engine can see the foul in the event log (the
others only the referee declares). A family's extra per-foul data (snooker's penalty basis, the
003 article of a carom foul in three-cushion) sits in its own table beside this one, so this
type stays the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FoulInfo"]


@dataclass(frozen=True)
class FoulInfo:
    """``description``: a clause that follows "Foul: "; ``articles``: the citation (rule book and
    article numbers, as the call's reason writes them); ``camera``: the engine finds the foul in
    the event log (otherwise only the referee's input declares it)."""

    description: str
    articles: str
    camera: bool = False
