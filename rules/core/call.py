"""The verdict of one shot, and ``calls.jsonl`` (DESIGN.md): one JSON object per shot.

Keys, in this order: the DESIGN.md contract ``shot``, ``game``, ``player``, ``legal``, ``foul``
(name or null), ``points``, ``turn_over``, ``game_over``, ``reason``, ``score`` (points of the
current game or set, by player), ``needs_review``, ``evidence``; then extras: ``cue_ball``,
``player_ball``, ``break_shot``, ``equalizing_inning``, ``first_ball``, ``second_ball``,
``cushions_before_first_ball``, ``cushions_before_second_ball``, ``cushions_total``,
``carom_case`` (three-cushion 2(a)-(d)), ``kisses``, ``fouls`` (every foul found),
``respot`` ({ball: spot}), ``series`` (the shooter's run after this shot), ``innings``,
``high_run`` (by player), ``set`` and ``sets`` (with sets), ``match_over``, ``winner``, ``draw``,
``review_reason``, ``note`` (the referee's). The carom extras are written for the carom games
only; every game then adds its own ``details`` (JSON-ready values, e.g. the balls pocketed, ball in
hand, the rack), merged after them, and ``summary`` (the short call a table or overlay shows;
written in calls.jsonl for the pocket games, after ``break_shot``).

``foul`` and ``fouls`` hold members of the game's own foul enum (carom :class:`rules.carom.fouls.Foul`,
nine-ball's, snooker's …): anything with a string ``value``.

:class:`CallWriter` flushes each line, so an interrupted run keeps every call it made.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import IO, Any

from rules.core.evidence import Evidence
from rules.core.games import Family, Game
from tracking.ids import BallId

__all__ = ["Call", "evidence_to_dict", "call_to_dict", "CallWriter"]


@dataclass(frozen=True)
class Call:
    """One shot's verdict. ``legal``: no foul; ``turn_over``: the shooter's inning is over;
    ``game_over``: the game (set, rack, frame) ended with this shot. Mappings are by player name.
    ``foul``: the foul that decides the call (a member of the game's foul enum); ``fouls`` every
    foul found. ``summary``: a few words for tables and overlays ("pots 3 and 9", "FOUL scratch");
    ``details``: the game's own JSON-ready extras (see the module docstring)."""

    shot: int
    game: Game
    player: str
    legal: bool
    foul: Enum | None
    points: int
    turn_over: bool
    game_over: bool
    reason: str
    score: Mapping[str, int]
    needs_review: bool
    evidence: tuple[Evidence, ...] = ()
    cue_ball: BallId | None = None
    player_ball: BallId | None = None
    break_shot: bool = False
    equalizing_inning: bool = False
    first_ball: BallId | None = None
    second_ball: BallId | None = None
    cushions_before_first_ball: int | None = None
    cushions_before_second_ball: int | None = None
    cushions_total: int | None = None
    carom_case: str | None = None
    kisses: int = 0
    fouls: tuple[Enum, ...] = ()
    respot: Mapping[BallId, str] = field(default_factory=dict)
    series: int = 0
    innings: Mapping[str, int] = field(default_factory=dict)
    high_run: Mapping[str, int] = field(default_factory=dict)
    set_number: int | None = None
    sets: Mapping[str, int] | None = None
    match_over: bool = False
    winner: str | None = None
    draw: bool = False
    review_reason: str | None = None
    note: str | None = None
    summary: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


def _ball(b: BallId | None) -> str | None:
    return None if b is None else b.value


def evidence_to_dict(e: Evidence) -> dict[str, Any]:
    return {
        "kind": e.kind,
        "t": round(e.t_s, 5),
        "frame": e.frame,
        "confidence": round(e.confidence, 3),
        "role": e.role,
        "doubt": e.doubt,
    }


def call_to_dict(c: Call) -> dict[str, Any]:
    """The ``calls.jsonl`` object of a call (key order as in the module docstring)."""
    d = {
        "shot": c.shot,
        "game": c.game.value,
        "player": c.player,
        "legal": c.legal,
        "foul": None if c.foul is None else c.foul.value,
        "points": c.points,
        "turn_over": c.turn_over,
        "game_over": c.game_over,
        "reason": c.reason,
        "score": dict(c.score),
        "needs_review": c.needs_review,
        "evidence": [evidence_to_dict(e) for e in c.evidence],
    }
    if c.game.family is not Family.CAROM:
        d.update(
            {
                "cue_ball": _ball(c.cue_ball),
                "break_shot": c.break_shot,
                "summary": c.summary,
                "fouls": [f.value for f in c.fouls],
            }
        )
        d.update(c.details)
        d.update({"match_over": c.match_over, "winner": c.winner, "review_reason": c.review_reason, "note": c.note})
        return d
    d.update(
        {
            "cue_ball": _ball(c.cue_ball),
            "player_ball": _ball(c.player_ball),
            "break_shot": c.break_shot,
            "equalizing_inning": c.equalizing_inning,
            "first_ball": _ball(c.first_ball),
            "second_ball": _ball(c.second_ball),
            "cushions_before_first_ball": c.cushions_before_first_ball,
            "cushions_before_second_ball": c.cushions_before_second_ball,
            "cushions_total": c.cushions_total,
            "carom_case": c.carom_case,
            "kisses": c.kisses,
            "fouls": [f.value for f in c.fouls],
            "respot": {b.value: s for b, s in c.respot.items()},
            "series": c.series,
            "innings": dict(c.innings),
            "high_run": dict(c.high_run),
            "set": c.set_number,
            "sets": None if c.sets is None else dict(c.sets),
            "match_over": c.match_over,
            "winner": c.winner,
            "draw": c.draw,
            "review_reason": c.review_reason,
            "note": c.note,
        }
    )
    d.update(c.details)
    return d


class CallWriter:
    """Writes calls to a JSONL file, one per line, flushed as each is written."""

    def __init__(self, path: str | Path) -> None:
        # the writer stays open across write() calls; close() or the with-block closes it
        self._f: IO[str] = Path(path).open("w", encoding="utf-8")  # noqa: SIM115

    def write(self, call: Call) -> None:
        self._f.write(json.dumps(call_to_dict(call), ensure_ascii=False) + "\n")
        self._f.flush()

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> CallWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
