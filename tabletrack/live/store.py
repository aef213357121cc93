"""The match database: one embedded SQLite file holding everything a live match is.

Contract: :class:`MatchStore` keeps the match's settings (game, table, players, the referee input
it started from), every event in the event-log format (DESIGN.md), the current call of every shot
(replaced when a referee action re-judges it), every referee action (an undo marks the action,
never deletes it) and the score sheet. Each change is committed before the call that made it
returns, so a killed process loses nothing it had published; opening the same file again gives it
all back (:meth:`events`, :meth:`actions`, :meth:`calls`) and the match resumes. Beside the file
it keeps ``events.jsonl``, ``referee.json``, ``calls.jsonl`` and ``score_sheet.json`` current, so
``tabletrack judge events.jsonl --input referee.json`` replays the match; ``tabletrack judge``
also reads the database itself (:func:`read_match`).

Why SQLite: one file, transactions, in the standard library; WAL mode so the server can read while
the analysis thread writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common.errors import TabletrackError
from rules.core.call import Call, call_to_dict
from tracking.eventlog import event_from_dict, event_to_dict
from tracking.events import Event

__all__ = ["MatchStore", "RefereeAction", "MatchStoreError", "merge_input", "read_match", "is_match_db"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, shot INTEGER NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS calls (shot INTEGER PRIMARY KEY, json TEXT NOT NULL, latency_ms REAL);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, t_wall_s REAL NOT NULL, shot INTEGER NOT NULL,
    fields TEXT NOT NULL, undone INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS sheet (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
"""

_MAGIC = b"SQLite format 3\x00"


class MatchStoreError(TabletrackError):
    """The match file is not a tabletrack match, or is another game's."""


@dataclass(frozen=True)
class RefereeAction:
    """One referee action: the per-shot fields of the referee input (DESIGN.md "Inputs that no
    camera sees"; the game's ``parse_input`` checks them) for shot ``shot``."""

    id: int
    t_wall_s: float
    shot: int
    fields: Mapping[str, Any]
    undone: bool = False


def is_match_db(path: str | Path) -> bool:
    """Whether ``path`` is an SQLite file (a live match database)."""
    try:
        with Path(path).open("rb") as f:
            return f.read(16) == _MAGIC
    except OSError:
        return False


def merge_input(base: Mapping[str, Any] | None, actions: Sequence[RefereeAction]) -> dict[str, Any]:
    """The referee input: ``base`` (the file the match started from) with every action not undone
    applied in order, each updating its shot's fields (a later value of a key replaces an earlier)."""
    out: dict[str, Any] = json.loads(json.dumps(dict(base or {})))
    shots: dict[str, Any] = dict(out.get("shots") or {})
    for a in actions:
        if a.undone:
            continue
        cur = dict(shots.get(str(a.shot)) or {})
        cur.update(a.fields)
        shots[str(a.shot)] = cur
    if shots:
        out["shots"] = shots
    return out


class MatchStore:
    """See the module docstring. Thread-safe (one connection behind a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.folder = self.path.parent
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size and not is_match_db(self.path):
            raise MatchStoreError(f"{self.path}: not a match database (SQLite); give a new file or a live match's")
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    # -- settings -------------------------------------------------------------------------------
    def meta(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def set_meta(self, key: str, value: Any) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def begin_session(self, game: str, table: str, base_input: Mapping[str, Any] | None) -> int:
        """Record the match's settings on its first session, check them on a later one; returns
        the session number (1 for a new match)."""
        have = self.meta("game")
        if have is None:
            self.set_meta("game", game)
            self.set_meta("table", table)
            self.set_meta("base_input", dict(base_input) if base_input is not None else None)
            self.set_meta("created_wall_s", time.time())
        elif have != game:
            raise MatchStoreError(f"{self.path}: this match is {have}, not {game}; give --game {have} or a new file")
        n = int(self.meta("sessions") or 0) + 1
        self.set_meta("sessions", n)
        return n

    # -- events, calls, actions -----------------------------------------------------------------
    def add_events(self, events: Sequence[Event]) -> None:
        rows = [(e.shot, json.dumps(event_to_dict(e), ensure_ascii=False)) for e in events]
        with self._lock:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT INTO events (shot, json) VALUES (?, ?)", rows)
            self._db.execute("COMMIT")
        with (self.folder / "events.jsonl").open("a", encoding="utf-8") as f:
            f.writelines(r[1] + "\n" for r in rows)

    def events(self) -> list[Event]:
        with self._lock:
            rows = self._db.execute("SELECT json FROM events ORDER BY id").fetchall()
        return [event_from_dict(json.loads(r[0]), f"{self.path.name} event {i + 1}") for i, r in enumerate(rows)]

    def put_calls(self, calls: Sequence[Call], sheet: Mapping[str, Any], latency_ms: float | None = None) -> None:
        """Store ``calls`` (new, or re-judged: each replaces its shot's) and the score sheet."""
        with self._lock:
            self._db.execute("BEGIN")
            for c in calls:
                self._db.execute(
                    "INSERT INTO calls (shot, json, latency_ms) VALUES (?, ?, ?) ON CONFLICT(shot) DO UPDATE "
                    "SET json = excluded.json, latency_ms = COALESCE(excluded.latency_ms, calls.latency_ms)",
                    (c.shot, json.dumps(call_to_dict(c), ensure_ascii=False), latency_ms),
                )
            self._db.execute("INSERT OR REPLACE INTO sheet VALUES (1, ?)", (json.dumps(sheet, ensure_ascii=False),))
            self._db.execute("COMMIT")
        self._export_calls()

    def calls(self) -> list[dict[str, Any]]:
        """Every shot's current call (the ``calls.jsonl`` objects), with ``latency_ms`` where measured."""
        with self._lock:
            rows = self._db.execute("SELECT json, latency_ms FROM calls ORDER BY shot").fetchall()
        out = []
        for j, lat in rows:
            d = json.loads(j)
            d["latency_ms"] = lat
            out.append(d)
        return out

    def sheet(self) -> dict[str, Any]:
        with self._lock:
            row = self._db.execute("SELECT json FROM sheet WHERE id = 1").fetchone()
        return json.loads(row[0]) if row else {}

    def add_action(self, shot: int, fields: Mapping[str, Any]) -> RefereeAction:
        t = time.time()
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO actions (t_wall_s, shot, fields) VALUES (?, ?, ?)", (t, shot, json.dumps(dict(fields)))
            )
            rid = int(cur.lastrowid or 0)
        self._export_input()
        return RefereeAction(rid, t, shot, dict(fields))

    def undo_last(self) -> RefereeAction | None:
        """Mark the last action not undone as undone; None when there is none."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, t_wall_s, shot, fields FROM actions WHERE undone = 0 ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE actions SET undone = 1 WHERE id = ?", (row[0],))
        self._export_input()
        return RefereeAction(row[0], row[1], row[2], json.loads(row[3]), True)

    def set_undone(self, action_id: int, undone: bool) -> None:
        with self._lock:
            self._db.execute("UPDATE actions SET undone = ? WHERE id = ?", (int(undone), action_id))
        self._export_input()

    def actions(self) -> list[RefereeAction]:
        with self._lock:
            rows = self._db.execute("SELECT id, t_wall_s, shot, fields, undone FROM actions ORDER BY id").fetchall()
        return [RefereeAction(r[0], r[1], r[2], json.loads(r[3]), bool(r[4])) for r in rows]

    def referee_input(self, extra: Sequence[RefereeAction] = ()) -> dict[str, Any]:
        """The match's referee input now (the base input with every action applied), plus ``extra``."""
        return merge_input(self.meta("base_input"), [*self.actions(), *extra])

    # -- files beside the database --------------------------------------------------------------
    def _export_input(self) -> None:
        (self.folder / "referee.json").write_text(
            json.dumps(self.referee_input(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )

    def _export_calls(self) -> None:
        calls = self.calls()
        for c in calls:
            c.pop("latency_ms", None)
        (self.folder / "calls.jsonl").write_text(
            "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in calls), encoding="utf-8"
        )
        (self.folder / "score_sheet.json").write_text(
            json.dumps(self.sheet(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )

    def export(self) -> None:
        """Rewrite every file beside the database from it."""
        with (self.folder / "events.jsonl").open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(event_to_dict(e), ensure_ascii=False) + "\n" for e in self.events())
        self._export_input()
        self._export_calls()

    def close(self) -> None:
        with self._lock:
            self._db.close()


def read_match(path: str | Path) -> tuple[list[Event], dict[str, Any], str | None]:
    """A match database's events, referee input (restricted to the shots the log has, as ``judge``
    wants) and game, for ``tabletrack judge MATCH.sqlite``."""
    store = MatchStore(path)
    try:
        events = store.events()
        ref = store.referee_input()
        game = store.meta("game")
    finally:
        store.close()
    have = {str(e.shot) for e in events}
    if isinstance(ref.get("shots"), dict):
        ref["shots"] = {k: v for k, v in ref["shots"].items() if k in have}
    return events, ref, game
