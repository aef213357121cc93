"""Reading and writing ``events.jsonl`` exactly as DESIGN.md spells it.

One JSON object per line, time-ordered; keys ``kind``, ``t`` (s), ``frame``, ``shot``,
``confidence`` and the kind's own fields; positions ``[x_mm, y_mm]``. Reading validates every
line and raises :class:`EventLogError` with the line number and what was expected, so that a
malformed log gets one clear message, never a traceback. :class:`EventLogWriter` flushes each event
as it is written, so an interrupted analysis keeps what it found.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from common.errors import TabletrackError, shorten
from tracking.events import (
    BallBall,
    CushionHit,
    Event,
    EventKind,
    OffTable,
    Pocketed,
    ShotEnd,
    ShotStart,
)
from tracking.ids import BallId, Cushion, Pocket


class EventLogError(TabletrackError):
    """A line of an event log is not what DESIGN.md specifies."""


def _pos(p: tuple[float, float]) -> list[float]:
    return [round(float(p[0]), 2), round(float(p[1]), 2)]


def _positions(ps: Mapping[BallId, tuple[float, float]]) -> dict[str, list[float]]:
    return {b.value: _pos(p) for b, p in ps.items()}


def event_to_dict(ev: Event) -> dict[str, Any]:
    """The DESIGN.md JSON object of one event."""
    d: dict[str, Any] = {
        "kind": ev.kind.value,
        "t": round(float(ev.t_s), 5),
        "frame": int(ev.frame),
        "shot": int(ev.shot),
        "confidence": round(float(ev.confidence), 3),
    }
    if isinstance(ev, ShotStart):
        d["cue_ball"] = ev.cue_ball.value
        d["positions"] = _positions(ev.positions)
        if ev.frozen_to_cushion:
            d["frozen_to_cushion"] = {b.value: c.value for b, c in ev.frozen_to_cushion.items()}
        if ev.balls_in_contact:
            d["balls_in_contact"] = [[a.value, b.value] for a, b in ev.balls_in_contact]
    elif isinstance(ev, BallBall):
        d["balls"] = [ev.balls[0].value, ev.balls[1].value]
        d["pos"] = _pos(ev.pos_mm)
    elif isinstance(ev, CushionHit):
        d["ball"] = ev.ball.value
        d["cushion"] = ev.cushion.value
        d["pos"] = _pos(ev.pos_mm)
    elif isinstance(ev, Pocketed):
        d["ball"] = ev.ball.value
        d["pocket"] = ev.pocket.value
    elif isinstance(ev, OffTable):
        d["ball"] = ev.ball.value
    elif isinstance(ev, ShotEnd):
        d["positions"] = _positions(ev.positions)
    return d


def _need(d: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise EventLogError(f"{where}: missing field {key!r}")
    return d[key]


def _finite(v: float) -> bool:
    """``math.isfinite`` that says no, instead of raising, for an integer too large for a float."""
    try:
        return math.isfinite(v)
    except OverflowError:
        return False


def _number(d: Mapping[str, Any], key: str, where: str) -> float:
    v = _need(d, key, where)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not _finite(v):
        raise EventLogError(f"{where}: field {key!r} must be a finite number, got {v!r}")
    return float(v)


def _int(d: Mapping[str, Any], key: str, where: str) -> int:
    v = _need(d, key, where)
    if isinstance(v, bool) or not isinstance(v, int):
        raise EventLogError(f"{where}: field {key!r} must be an integer, got {v!r}")
    return v


def _parse_pos(v: Any, where: str) -> tuple[float, float]:
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 2
        or not all(isinstance(c, (int, float)) and not isinstance(c, bool) and _finite(c) for c in v)
    ):
        raise EventLogError(f"{where}: a position must be [x_mm, y_mm], got {v!r}")
    return (float(v[0]), float(v[1]))


def _parse_positions(v: Any, where: str) -> dict[BallId, tuple[float, float]]:
    if not isinstance(v, dict):
        raise EventLogError(f"{where}: 'positions' must be an object {{ball: [x_mm, y_mm]}}, got {v!r}")
    return {_ball(b, where): _parse_pos(p, where) for b, p in v.items()}


def _ball(v: Any, where: str) -> BallId:
    try:
        return BallId.parse(v)
    except ValueError as e:
        raise EventLogError(f"{where}: {e}") from None


def event_from_dict(d: Any, where: str = "event") -> Event:
    """The typed event of one DESIGN.md JSON object; EventLogError naming the fault otherwise."""
    if not isinstance(d, dict):
        raise EventLogError(f"{where}: expected a JSON object, got {type(d).__name__}")
    kind_s = _need(d, "kind", where)
    try:
        kind = EventKind(kind_s)
    except ValueError:
        raise EventLogError(
            f"{where}: unknown kind {kind_s!r}: expected one of {', '.join(k.value for k in EventKind)}"
        ) from None
    t_s = _number(d, "t", where)
    frame = _int(d, "frame", where)
    shot = _int(d, "shot", where)
    if shot < 1:
        raise EventLogError(f"{where}: 'shot' is 1-based, got {shot}")
    conf = _number(d, "confidence", where)
    if not 0.0 <= conf <= 1.0:
        raise EventLogError(f"{where}: 'confidence' must be in 0..1, got {conf}")
    common: dict[str, Any] = dict(t_s=t_s, frame=frame, shot=shot, confidence=conf)
    if kind is EventKind.SHOT_START:
        frozen_raw = d.get("frozen_to_cushion", {}) or {}
        if not isinstance(frozen_raw, dict):
            raise EventLogError(f"{where}: 'frozen_to_cushion' must be an object {{ball: cushion}}")
        try:
            frozen = {_ball(b, where): Cushion.parse(c) for b, c in frozen_raw.items()}
        except ValueError as e:
            raise EventLogError(f"{where}: {e}") from None
        contact_raw = d.get("balls_in_contact", []) or []
        if not isinstance(contact_raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in contact_raw):
            raise EventLogError(f"{where}: 'balls_in_contact' must be a list of [ball, ball] pairs")
        contacts = tuple((_ball(a, where), _ball(b, where)) for a, b in contact_raw)
        return ShotStart(
            **common,
            cue_ball=_ball(_need(d, "cue_ball", where), where),
            positions=_parse_positions(_need(d, "positions", where), where),
            frozen_to_cushion=frozen,
            balls_in_contact=contacts,
        )
    if kind is EventKind.BALL_BALL:
        balls = _need(d, "balls", where)
        if not isinstance(balls, list) or len(balls) != 2:
            raise EventLogError(f"{where}: 'balls' must be [striking, struck], got {balls!r}")
        a, b = _ball(balls[0], where), _ball(balls[1], where)
        if a is b:
            raise EventLogError(f"{where}: a ball_ball event names {a.value!r} twice")
        return BallBall(**common, balls=(a, b), pos_mm=_parse_pos(_need(d, "pos", where), where))
    if kind is EventKind.CUSHION:
        try:
            cushion = Cushion.parse(_need(d, "cushion", where))
        except ValueError as e:
            raise EventLogError(f"{where}: {e}") from None
        return CushionHit(
            **common,
            ball=_ball(_need(d, "ball", where), where),
            cushion=cushion,
            pos_mm=_parse_pos(_need(d, "pos", where), where),
        )
    if kind is EventKind.POCKET:
        try:
            pocket = Pocket.parse(_need(d, "pocket", where))
        except ValueError as e:
            raise EventLogError(f"{where}: {e}") from None
        return Pocketed(**common, ball=_ball(_need(d, "ball", where), where), pocket=pocket)
    if kind is EventKind.OFF_TABLE:
        return OffTable(**common, ball=_ball(_need(d, "ball", where), where))
    return ShotEnd(**common, positions=_parse_positions(_need(d, "positions", where), where))


def iter_events(lines: Iterable[str], name: str = "events") -> Iterator[Event]:
    """Parse JSONL lines (blank lines skipped); EventLogError with ``name:line`` on the first fault."""
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name}:{i}"
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as e:  # JSONDecodeError, an integer past Python's digit limit, nesting
            why = e.msg if isinstance(e, json.JSONDecodeError) else shorten(e, 120)
            raise EventLogError(f"{where}: not valid JSON ({why})") from None
        yield event_from_dict(obj, where)


def read_events(path: str | Path) -> list[Event]:
    """All events of an ``events.jsonl`` file, validated; EventLogError on any fault."""
    p = Path(path)
    try:
        with p.open("r", encoding="utf-8") as f:
            return list(iter_events(f, p.name))
    except UnicodeDecodeError:
        raise EventLogError(f"{p.name}: not a text file; expected JSON lines") from None


class EventLogWriter:
    """Appends events to a JSONL file, flushing each line, so nothing found is lost on interrupt."""

    def __init__(self, path: str | Path) -> None:
        # the writer owns the handle (closed by close() or on leaving its with-block)
        self._f: IO[str] = Path(path).open("w", encoding="utf-8")  # noqa: SIM115

    def write(self, ev: Event) -> None:
        self._f.write(json.dumps(event_to_dict(ev)) + "\n")
        self._f.flush()

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> EventLogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_events(path: str | Path, events: Iterable[Event]) -> None:
    with EventLogWriter(path) as w:
        for ev in events:
            w.write(ev)
