"""Ball trajectories as CSV: another tracking system's input, and the pipeline's ``tracks.csv``.

Reading (the ``events`` command): a header row naming at least ``t,ball,x_mm,y_mm`` (any order;
other columns ignored), then one row per sample: ``t`` seconds, ``ball`` a ball id of DESIGN.md
(``white``, ``yellow``, ``red``, ``cue``, ``1`` …), ``x_mm``/``y_mm`` the centre in the table
frame. Any sampling: rows need not be evenly spaced, balls need not share times, a ball may have
a single row while it rests. Rows may interleave balls; per ball, time must increase.
Two optional columns are honoured when present: ``frame`` (an integer, the sample's video frame;
otherwise a sample's frame is its data-row index, 0-based) and ``observed`` (``1``/``0``,
``true``/``false``: a tracker's bridged guess rather than a measurement).

Any fault gives :class:`TracksCsvError` with one line naming the row and what was wrong. Lines
are read within :data:`common.bounded.MAX_LINE_CHARS` (a gigantic line or ``/dev/zero`` fails at
once, never loads whole), a field within :data:`MAX_FIELD_CHARS`; a byte-order mark before the
header (spreadsheets write one) is dropped, not read as part of the first column's name.

Writing: ``t,frame,ball,x_mm,y_mm,observed,confidence`` (the first five as the pipeline's
``tracks.csv`` contract, then whether the sample was measured and its confidence), rows in time
order; :class:`TracksCsvWriter` flushes every frame so an interrupted analysis keeps its tracks.
"""

from __future__ import annotations

import csv
import math
from array import array
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from common.bounded import bounded_lines
from common.errors import TabletrackError, shorten
from tracking.ids import BallId
from tracking.trajectory import Trajectory

REQUIRED = ("t", "ball", "x_mm", "y_mm")
#: a frame number no video reaches (a 1000 fps camera running for 30 years); beyond it a value is a
#: corrupt field, not a frame
MAX_FRAME = 10**12
#: the largest time (s) or coordinate (mm) of a sample: a thousand hours, a hundred metres
MAX_VALUE = 3.6e6
#: the longest field: a number, a ball id or a header name is a few characters
MAX_FIELD_CHARS = 100
WRITE_COLUMNS = ("t", "frame", "ball", "x_mm", "y_mm", "observed", "confidence")


class TracksCsvError(TabletrackError):
    """A tracks CSV that is not what the module docstring describes."""


def _number(text: str, column: str, where: str, bound: float = MAX_VALUE) -> float:
    try:
        v = float(text)
    except ValueError:
        raise TracksCsvError(f"{where}: column {column!r} must be a number, got {shorten(repr(text), 60)}") from None
    if not math.isfinite(v) or abs(v) > bound:
        raise TracksCsvError(
            f"{where}: column {column!r} must be finite, within ±{bound:g}, got {shorten(repr(text), 60)}"
        )
    return v


_TRUE = {"1", "true", "yes", "y", "t"}
_FALSE = {"0", "false", "no", "n", "f"}


def read_tracks_csv(path: str | Path) -> dict[BallId, Trajectory]:
    """Every ball's trajectory from a tracks CSV file; :class:`TracksCsvError` on any fault."""
    p = Path(path)
    try:
        f = p.open("r", encoding="utf-8", newline="")
    except OSError as e:
        raise TracksCsvError(f"{shorten(p, 120)}: cannot read the tracks file ({e.strerror or e})") from None
    with f:
        return parse_tracks_csv(f, shorten(p.name, 120))


def parse_tracks_csv(stream: IO[str] | Iterable[str], name: str = "tracks") -> dict[BallId, Trajectory]:
    """:func:`read_tracks_csv` on an open text stream or lines (``name`` for messages)."""
    reader = csv.reader(line for _, line in bounded_lines(stream, name, TracksCsvError))
    try:
        return _parse_rows(reader, name)
    except csv.Error as e:  # a field past the csv module's size limit, a NUL byte, an unclosed quote
        raise TracksCsvError(f"{name}:{reader.line_num}: not a CSV row the reader can parse ({e})") from None


def _parse_rows(reader: Any, name: str) -> dict[BallId, Trajectory]:
    """The rows of :func:`parse_tracks_csv` after its reader is made."""
    header: list[str] | None = None
    line = 0
    for row in reader:
        line = reader.line_num
        if row and any(c.strip() for c in row):
            header = [c.strip() for c in row]
            break
    if header is not None and any(len(c) > MAX_FIELD_CHARS for c in header):
        raise TracksCsvError(f"{name}:{line}: a header name longer than {MAX_FIELD_CHARS} characters")
    if header is None:
        raise TracksCsvError(f"{name}: empty file; expected a header row t,ball,x_mm,y_mm")
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise TracksCsvError(
            f"{name}:{line}: header lacks column {', '.join(repr(c) for c in missing)}; "
            f"expected at least t,ball,x_mm,y_mm, got {shorten(','.join(header), 120)}"
        )
    col = {c: header.index(c) for c in header}
    i_frame = col.get("frame")
    i_obs = col.get("observed")
    # per ball, one compact array per column (8 bytes a number, 1 a flag): a tuple per row cost
    # ten times that, and a 100 MB tracks file's rows are millions
    rows: dict[BallId, _Columns] = {}
    data_index = 0
    for row in reader:
        line = reader.line_num
        if not row or not any(c.strip() for c in row):
            continue
        where = f"{name}:{line}"
        if len(row) < len(header):
            raise TracksCsvError(f"{where}: expected {len(header)} columns like the header, got {len(row)}")
        long = next((c for c in row if len(c) > MAX_FIELD_CHARS), None)
        if long is not None:
            raise TracksCsvError(
                f"{where}: a field of {len(long)} characters ({shorten(repr(long), 40)}); expected at most {MAX_FIELD_CHARS}"
            )
        t = _number(row[col["t"]].strip(), "t", where)
        try:
            ball = BallId.parse(row[col["ball"]].strip())
        except ValueError as e:
            raise TracksCsvError(f"{where}: {e}") from None
        x = _number(row[col["x_mm"]].strip(), "x_mm", where)
        y = _number(row[col["y_mm"]].strip(), "y_mm", where)
        frame = data_index
        if i_frame is not None and row[i_frame].strip():
            fv = _number(row[i_frame].strip(), "frame", where, MAX_FRAME)
            if fv != int(fv) or abs(fv) > MAX_FRAME:
                raise TracksCsvError(
                    f"{where}: column 'frame' must be an integer 0..{MAX_FRAME}, got {shorten(row[i_frame].strip(), 40)!r}"
                )
            frame = int(fv)
        observed = True
        if i_obs is not None and row[i_obs].strip():
            o = row[i_obs].strip().lower()
            if o in _TRUE:
                observed = True
            elif o in _FALSE:
                observed = False
            else:
                raise TracksCsvError(
                    f"{where}: column 'observed' must be 1/0 or true/false, got {shorten(repr(row[i_obs].strip()), 40)}"
                )
        prev = rows.get(ball)
        if prev is not None and t <= prev.t[-1]:
            raise TracksCsvError(
                f"{where}: time goes backwards for ball {ball.value}: t={t!r} after t={prev.t[-1]!r}"
                if t < prev.t[-1]
                else f"{where}: ball {ball.value} has two samples at t={t!r}"
            )
        if prev is None:
            prev = rows[ball] = _Columns()
        prev.add(t, frame, x, y, observed)
        data_index += 1
    if not rows:
        raise TracksCsvError(f"{name}: no samples after the header")
    out: dict[BallId, Trajectory] = {}
    for ball, c in rows.items():
        out[ball] = Trajectory(
            ball=ball,
            t_s=np.frombuffer(c.t, dtype=np.float64).copy(),
            frame=np.frombuffer(c.frame, dtype=np.int64).copy(),
            x_mm=np.frombuffer(c.x, dtype=np.float64).copy(),
            y_mm=np.frombuffer(c.y, dtype=np.float64).copy(),
            observed=np.frombuffer(bytes(c.observed), dtype=np.uint8).astype(bool),
            confidence=np.ones(len(c.t)),
        )
    return out


class _Columns:
    """One ball's samples as they are read, a compact array per column."""

    def __init__(self) -> None:
        self.t = array("d")
        self.frame = array("q")
        self.x = array("d")
        self.y = array("d")
        self.observed = bytearray()

    def add(self, t: float, frame: int, x: float, y: float, observed: bool) -> None:
        self.t.append(t)
        self.frame.append(frame)
        self.x.append(x)
        self.y.append(y)
        self.observed.append(1 if observed else 0)


def _row(t: float, frame: int, ball: BallId, x: float, y: float, observed: bool, conf: float) -> list[str]:
    return [f"{t:.6f}", str(int(frame)), ball.value, f"{x:.2f}", f"{y:.2f}", "1" if observed else "0", f"{conf:.3f}"]


class TracksCsvWriter:
    """Writes samples as they come (``write`` one, ``write_states`` a frame's), flushing after
    each call, under the header ``t,frame,ball,x_mm,y_mm,observed,confidence``."""

    def __init__(self, path: str | Path) -> None:
        # the writer owns the handle (closed by close() or on leaving its with-block)
        self._f: IO[str] = Path(path).open("w", encoding="utf-8", newline="")  # noqa: SIM115
        self._w = csv.writer(self._f, lineterminator="\n")
        self._w.writerow(WRITE_COLUMNS)
        self._f.flush()

    def write(
        self,
        t_s: float,
        frame: int,
        ball: BallId,
        x_mm: float,
        y_mm: float,
        observed: bool = True,
        confidence: float = 1.0,
    ) -> None:
        self._w.writerow(_row(t_s, frame, ball, x_mm, y_mm, observed, confidence))
        self._f.flush()

    def write_states(self, states: Iterable) -> None:
        """One frame of :class:`tracking.tracker.BallState` values."""
        for s in states:
            self._w.writerow(_row(s.t_s, s.frame, s.ball, s.x_mm, s.y_mm, s.observed, s.confidence))
        self._f.flush()

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> TracksCsvWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_tracks_csv(path: str | Path, trajectories: Mapping[BallId, Trajectory] | Iterable[Trajectory]) -> None:
    """All samples of ``trajectories`` in time order (ties by ball id)."""
    from tracking.trajectory import as_trajectory_map

    trajs = as_trajectory_map(trajectories)
    rows = []
    for ball, tr in trajs.items():
        for k in range(len(tr)):
            rows.append((float(tr.t_s[k]), ball.value, k, ball))
    rows.sort(key=lambda r: (r[0], r[1]))
    with TracksCsvWriter(path) as w:
        for t, _, k, ball in rows:
            tr = trajs[ball]
            w._w.writerow(
                _row(
                    t,
                    int(tr.frame[k]),
                    ball,
                    float(tr.x_mm[k]),
                    float(tr.y_mm[k]),
                    bool(tr.observed[k]),
                    float(tr.confidence[k]),
                )
            )
