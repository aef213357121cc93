"""Reading and writing ``events.jsonl`` exactly as DESIGN.md spells it.

One JSON object per line, time-ordered; keys ``kind``, ``t`` (s), ``frame``, ``shot``,
``confidence`` and the kind's own fields; positions ``[x_mm, y_mm]``. Reading validates every
line and raises :class:`EventLogError` with the line number and what was expected, so that a
malformed log gets one clear message, never a traceback. :class:`EventLogWriter` flushes each event
as it is written, so an interrupted analysis keeps what it found.

Lines are read and decoded within the bounds of :mod:`common.jsonio` (line length, nesting,
finite and short numbers); values within physical ones: a position within :data:`MAX_COORD_MM`
of the table's corner, a time within :data:`MAX_TIME_S`, a frame within :data:`MAX_FRAME`. The
order is checked as DESIGN.md states it (:class:`LogOrder`): shot numbers never go back (a shot's
events are one run of lines), one ``shot_start`` per shot and first, one ``shot_end`` per shot
and nothing of the shot after it, and times never run back by more than
:data:`TIME_ORDER_TOL_S` (contact times are fitted below one frame, so two events of one shot
may be written a few milliseconds out of order).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from common.errors import TabletrackError, shorten
from common.jsonio import iter_json_lines
from tracking.events import (
    BallBall,
    CushionHit,
    Event,
    EventKind,
    NameDoubt,
    NearMiss,
    OffTable,
    Pocketed,
    ShotEnd,
    ShotStart,
)
from tracking.ids import BallId, Cushion, Pocket


class EventLogError(TabletrackError):
    """A line of an event log is not what DESIGN.md specifies."""


#: the farthest a position may lie from the table's corner: ten times the longest table (a ball
#: off the table still lands in the room); beyond it a value is a corrupt field, not a place
MAX_COORD_MM = 40_000.0
#: the latest time of an event: a thousand hours of video
MAX_TIME_S = 3.6e6
#: a frame number no video reaches (a 1000 fps camera running for 30 years)
MAX_FRAME = 10**12
#: how far back from the latest time so far an event may be written (see the module docstring):
#: the golden clips' logs go back by at most 0.04 s (a cushion fitted after the shot's end)
TIME_ORDER_TOL_S = 0.5
#: the widest gap a ``near_miss`` may report: a diameter of the largest ball (a gap wider than
#: that is no near miss, and a bigger number a corrupt field)
MAX_GAP_MM = 100.0


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
        if ev.under_way:
            d["under_way"] = [b.value for b in ev.under_way]
        if ev.under_way_at:
            d["under_way_at"] = _positions(ev.under_way_at)
        if ev.name_doubts:
            d["name_doubts"] = {
                b.value: {
                    "read": round(float(n.read), 3),
                    "rival": None if n.rival is None else n.rival.value,
                    "rival_read": round(float(n.rival_read), 3),
                }
                for b, n in ev.name_doubts.items()
            }
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
    elif isinstance(ev, NearMiss):
        d["balls"] = [ev.balls[0].value, ev.balls[1].value]
        d["pos"] = _pos(ev.pos_mm)
        d["gap_mm"] = round(float(ev.gap_mm), 2)
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


def _echo(v: Any) -> str:
    """A value as a message shows it: its ``repr``, escaped and cut (a field may be megabytes)."""
    return shorten(repr(v), 80)


def _number(d: Mapping[str, Any], key: str, where: str, bound: float = MAX_TIME_S) -> float:
    v = _need(d, key, where)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not _finite(v) or abs(v) > bound:
        raise EventLogError(f"{where}: field {key!r} must be a finite number within ±{bound:g}, got {_echo(v)}")
    return float(v)


def _int(d: Mapping[str, Any], key: str, where: str, bound: int = MAX_FRAME) -> int:
    v = _need(d, key, where)
    if isinstance(v, bool) or not isinstance(v, int) or abs(v) > bound:
        raise EventLogError(f"{where}: field {key!r} must be an integer within ±{bound}, got {_echo(v)}")
    return v


def _coord(c: Any) -> bool:
    return isinstance(c, (int, float)) and not isinstance(c, bool) and _finite(c) and abs(c) <= MAX_COORD_MM


def _parse_pos(v: Any, where: str) -> tuple[float, float]:
    if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(_coord(c) for c in v):
        raise EventLogError(
            f"{where}: a position must be [x_mm, y_mm] of finite numbers within ±{MAX_COORD_MM:g} mm, got {_echo(v)}"
        )
    return (float(v[0]), float(v[1]))


def _parse_positions(v: Any, where: str, key: str = "positions") -> dict[BallId, tuple[float, float]]:
    if not isinstance(v, dict):
        raise EventLogError(f"{where}: {key!r} must be an object {{ball: [x_mm, y_mm]}}, got {_echo(v)}")
    return {_ball(b, where): _parse_pos(p, where) for b, p in v.items()}


def _ball(v: Any, where: str) -> BallId:
    try:
        return BallId.parse(v)
    except ValueError as e:
        raise EventLogError(f"{where}: {e}") from None


def _parse_name_doubts(v: Any, where: str) -> dict[BallId, NameDoubt]:
    """``name_doubts``: {ball: {"read": 0..1, "rival": ball or null, "rival_read": 0..1}}."""
    if not isinstance(v, dict):
        raise EventLogError(
            f"{where}: 'name_doubts' must be an object {{ball: {{read, rival, rival_read}}}}, got {_echo(v)}"
        )
    out: dict[BallId, NameDoubt] = {}
    for b, n in v.items():
        if not isinstance(n, dict):
            raise EventLogError(f"{where}: 'name_doubts' of {b}: expected {{read, rival, rival_read}}, got {_echo(n)}")
        read, rival_read = _number(n, "read", where, 1.0), _number(n, "rival_read", where, 1.0)
        if read < 0.0 or rival_read < 0.0:
            raise EventLogError(f"{where}: 'name_doubts' of {b}: reads must be in 0..1, got {read}, {rival_read}")
        rival = n.get("rival")
        out[_ball(b, where)] = NameDoubt(read, None if rival is None else _ball(rival, where), rival_read)
    return out


def event_from_dict(d: Any, where: str = "event") -> Event:
    """The typed event of one DESIGN.md JSON object; EventLogError naming the fault otherwise."""
    if not isinstance(d, dict):
        raise EventLogError(f"{where}: expected a JSON object, got {type(d).__name__}")
    kind_s = _need(d, "kind", where)
    try:
        kind = EventKind(kind_s)
    except ValueError:
        raise EventLogError(
            f"{where}: unknown kind {_echo(kind_s)}: expected one of {', '.join(k.value for k in EventKind)}"
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
        under_raw = d.get("under_way", []) or []
        if not isinstance(under_raw, list):
            raise EventLogError(f"{where}: 'under_way' must be a list of balls, got {_echo(under_raw)}")
        return ShotStart(
            **common,
            cue_ball=_ball(_need(d, "cue_ball", where), where),
            positions=_parse_positions(_need(d, "positions", where), where),
            frozen_to_cushion=frozen,
            balls_in_contact=contacts,
            under_way=tuple(_ball(b, where) for b in under_raw),
            name_doubts=_parse_name_doubts(d.get("name_doubts", {}) or {}, where),
            under_way_at=_parse_positions(d.get("under_way_at", {}) or {}, where, "under_way_at"),
        )
    if kind in (EventKind.BALL_BALL, EventKind.NEAR_MISS):
        balls = _need(d, "balls", where)
        if not isinstance(balls, list) or len(balls) != 2:
            raise EventLogError(f"{where}: 'balls' must be [striking, struck], got {_echo(balls)}")
        a, b = _ball(balls[0], where), _ball(balls[1], where)
        if a is b:
            raise EventLogError(f"{where}: a {kind.value} event names {a.value!r} twice")
        pos = _parse_pos(_need(d, "pos", where), where)
        if kind is EventKind.NEAR_MISS:
            return NearMiss(**common, balls=(a, b), pos_mm=pos, gap_mm=_number(d, "gap_mm", where, MAX_GAP_MM))
        return BallBall(**common, balls=(a, b), pos_mm=pos)
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


class LogOrder:
    """The order checks of the module docstring, fed one event at a time in the log's order;
    :meth:`check` raises :class:`EventLogError` naming the line."""

    def __init__(self) -> None:
        self._shot = 0
        self._started: bool = False
        self._ended: bool = False
        self._events_in_shot = 0
        self._latest_t_s = -math.inf

    def check(self, ev: Event, where: str) -> None:
        if ev.shot < self._shot:
            raise EventLogError(
                f"{where}: shot {ev.shot} after shot {self._shot}: a log gives each shot's events "
                "together, shots in ascending order"
            )
        if ev.shot > self._shot:
            self._shot, self._started, self._ended, self._events_in_shot = ev.shot, False, False, 0
        if ev.t_s < self._latest_t_s - TIME_ORDER_TOL_S:
            raise EventLogError(
                f"{where}: time runs backwards: t={ev.t_s:g} s after t={self._latest_t_s:g} s "
                f"(events are ordered by time, within {TIME_ORDER_TOL_S:g} s)"
            )
        if self._ended:
            raise EventLogError(f"{where}: a {ev.kind.value} event of shot {ev.shot} after that shot's shot_end")
        if ev.kind is EventKind.SHOT_START:
            if self._started:
                raise EventLogError(f"{where}: shot {ev.shot} has a second shot_start (shot numbers repeat?)")
            if self._events_in_shot:
                raise EventLogError(f"{where}: shot {ev.shot}'s shot_start comes after events of that shot")
            self._started = True
        elif ev.kind is EventKind.SHOT_END:
            self._ended = True
        self._events_in_shot += 1
        self._latest_t_s = max(self._latest_t_s, ev.t_s)


def iter_events(lines: IO[str] | Iterable[str], name: str = "events") -> Iterator[Event]:
    """Parse JSONL lines (blank lines skipped) within the bounds and order of the module
    docstring; EventLogError with ``name:line`` on the first fault. Lazy: a caller that handles
    each event as it comes holds one line at a time."""
    order = LogOrder()
    for where, obj in iter_json_lines(lines, shorten(name, 120), EventLogError):
        ev = event_from_dict(obj, where)
        order.check(ev, where)
        yield ev


def read_events(path: str | Path) -> list[Event]:
    """All events of an ``events.jsonl`` file, validated; EventLogError on any fault."""
    return list(stream_events(path))


def stream_events(path: str | Path) -> Iterator[Event]:
    """The events of an ``events.jsonl`` file one by one as :func:`iter_events` reads them (the
    file stays open while the iterator runs)."""
    p = Path(path)
    try:
        f = p.open("r", encoding="utf-8")
    except FileNotFoundError:
        raise EventLogError(f"{shorten(p, 120)}: no such file; expected an events.jsonl event log") from None
    with f:
        yield from iter_events(f, p.name)


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
