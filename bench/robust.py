"""Benchmark: memory and time of ``judge`` per 10k shots and of ``events`` per hour of tracks.

Usage::

    python bench/robust.py                     # 10 000 shots, one hour of tracks; prints the section
    python bench/robust.py --shots 500 --hours 0.05    # a quick check
    python bench/robust.py --write             # also writes it into BENCHMARKS.md (between its markers)

Each command runs as ``python -m tabletrack`` in a child process on synthetic input written to a
temporary folder: a three-cushion event log of N shots (a stroke, three cushions, two ball-ball
contacts, the rest) for ``judge -o``, and a tracks CSV of three balls sampled at 30 Hz like video
frames, a stroke every 30 s (the cue ball runs 4 s, reflected by the cushions) for ``events -o``.
The child's peak resident memory comes from ``os.wait4`` (its own rusage, not the bench's), the time
is wall-clock. What it shows: ``judge`` streams the log shot by shot, so its memory should not grow
with the log; ``events`` reads the whole tracks file (inference fits paths over a whole shot), so
its memory grows with the input, and the figure says by how much. ``bench/run.py`` writes this
section with the others.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

BEGIN = "<!-- robust:begin -->"
END = "<!-- robust:end -->"

#: the carom match table's playing surface and ball radius (calibration/tables/carom_match.json)
LENGTH_MM, WIDTH_MM, R_MM = 2840.0, 1420.0, 30.75


@dataclass(frozen=True)
class Run:
    """One child run: wall time, peak RSS, exit status, input size."""

    wall_s: float
    peak_rss_mb: float
    returncode: int
    input_mb: float


def run_child(args: list[str], input_path: Path) -> Run:
    """``python -m tabletrack ARGS`` in a child; its own peak RSS from ``os.wait4``."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    t0 = time.perf_counter()
    p = subprocess.Popen(
        [sys.executable, "-m", "tabletrack", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        print(f"tabletrack {' '.join(args[:1])} failed: {err.strip()[-400:]}", file=sys.stderr)
    return Run(wall, usage.ru_maxrss / 1024.0, p.returncode, input_path.stat().st_size / 1e6)


def write_log(path: Path, shots: int) -> None:
    """A three-cushion log of ``shots`` shots, each 10 s: stroke, contacts, cushions, rest."""
    pos = {"white": [500.0, 700.0], "yellow": [1500.0, 700.0], "red": [2000.0, 400.0]}

    def ev(n: int, kind: str, dt: float, **kw: object) -> str:
        t, fr = 10.0 * (n - 1), 300 * (n - 1)
        return json.dumps(
            {"kind": kind, "t": round(t + dt, 4), "frame": fr + int(dt * 30), "shot": n, "confidence": 1.0, **kw}
        )

    with path.open("w", encoding="utf-8") as f:
        for n in range(1, shots + 1):
            lines = [
                ev(n, "shot_start", 0.0, cue_ball="white", positions=pos),
                ev(n, "ball_ball", 0.4, balls=["white", "yellow"], pos=[1470.0, 700.0]),
                ev(n, "cushion", 0.9, ball="white", cushion="left", pos=[1800.0, 1389.0]),
                ev(n, "cushion", 1.5, ball="white", cushion="foot", pos=[2809.0, 900.0]),
                ev(n, "cushion", 2.1, ball="white", cushion="right", pos=[2300.0, 31.0]),
                ev(n, "ball_ball", 2.6, balls=["white", "red"], pos=[2030.0, 420.0]),
                ev(n, "shot_end", 6.0, positions=pos),
            ]
            f.write("\n".join(lines) + "\n")


def _reflect(x: float, lo: float, hi: float) -> float:
    """``x`` folded into ``lo..hi`` by reflections at both ends (a ball off a cushion)."""
    span = hi - lo
    u = (x - lo) % (2 * span)
    return lo + (u if u <= span else 2 * span - u)


def write_tracks(path: Path, hours: float, rate_hz: float = 30.0, shot_every_s: float = 30.0) -> None:
    """Three balls at ``rate_hz`` for ``hours``; every ``shot_every_s`` the white runs for 4 s."""
    n = int(hours * 3600 * rate_hz)
    rest = {"yellow": (1500.0, 700.0), "red": (2000.0, 400.0)}
    white = (500.0, 700.0)
    with path.open("w", encoding="utf-8") as f:
        f.write("t,frame,ball,x_mm,y_mm\n")
        for i in range(n):
            t = i / rate_hz
            k, u = divmod(t, shot_every_s)
            run_s = 4.0
            if u < run_s:  # distance covered with a linearly decaying speed, from 2 m/s
                d = 2000.0 * (u - u * u / (2 * run_s))
                ang = 0.6 + 0.9 * (k % 5)
                x = _reflect(white[0] + d * math.cos(ang), R_MM, LENGTH_MM - R_MM)
                y = _reflect(white[1] + d * math.sin(ang), R_MM, WIDTH_MM - R_MM)
            else:
                d = 2000.0 * run_s / 2
                ang = 0.6 + 0.9 * (k % 5)
                x = _reflect(white[0] + d * math.cos(ang), R_MM, LENGTH_MM - R_MM)
                y = _reflect(white[1] + d * math.sin(ang), R_MM, WIDTH_MM - R_MM)
            f.write(f"{t:.4f},{i},white,{x:.2f},{y:.2f}\n")
            for b, (bx, by) in rest.items():
                f.write(f"{t:.4f},{i},{b},{bx:.2f},{by:.2f}\n")


def measure(shots: int, hours: float) -> tuple[Run, Run]:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        log, tracks = d / "events.jsonl", d / "tracks.csv"
        write_log(log, shots)
        judged = run_child(["judge", str(log), "--game", "three-cushion", "-o", str(d / "calls.jsonl")], log)
        write_tracks(tracks, hours)
        inferred = run_child(["events", str(tracks), "--table", "carom", "-o", str(d / "ev.jsonl")], tracks)
    return judged, inferred


def section(shots: int, hours: float, judged: Run, inferred: Run) -> str:
    """The BENCHMARKS.md section (between its markers)."""
    per10k = 10_000 / shots
    per_h = 1.0 / hours
    rows = [
        "| command | input | wall time | per unit | peak RSS | exit |",
        "|---|---|---|---|---|---|",
        f"| `judge -o` (three-cushion) | {shots} shots, {judged.input_mb:.1f} MB log | {judged.wall_s:.1f} s | "
        f"{judged.wall_s * per10k:.1f} s per 10k shots | {judged.peak_rss_mb:.0f} MB | {judged.returncode} |",
        f"| `events -o` (carom table) | {hours:g} h of tracks at 30 Hz, 3 balls, {inferred.input_mb:.1f} MB | "
        f"{inferred.wall_s:.1f} s | {inferred.wall_s * per_h:.1f} s per hour of input | "
        f"{inferred.peak_rss_mb:.0f} MB | {inferred.returncode} |",
    ]
    return "\n".join(
        [
            "## Robustness: memory and time on long inputs",
            "",
            f"Generated by `python bench/robust.py --shots {shots} --hours {hours:g}` on {time.strftime('%Y-%m-%d')} "
            f"({platform.machine()}, Python {platform.python_version()}): synthetic input, each command in its own "
            "process, peak resident memory of that process (`os.wait4`). `judge` reads, judges and writes shot by "
            "shot; `events` reads the whole tracks file.",
            "",
            *rows,
        ]
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=10_000, help="shots in the judge log (default 10000)")
    ap.add_argument("--hours", type=float, default=1.0, help="hours of tracks for events (default 1)")
    ap.add_argument("--write", action="store_true", help="write the section into BENCHMARKS.md")
    ap.add_argument("--out", default=str(REPO / "BENCHMARKS.md"))
    args = ap.parse_args()
    judged, inferred = measure(args.shots, args.hours)
    body = section(args.shots, args.hours, judged, inferred)
    print(body)
    if args.write:
        from sections import replace_section  # bench/sections.py (this script's folder is on sys.path)

        out = Path(args.out)
        text = out.read_text(encoding="utf-8") if out.is_file() else ""
        out.write_text(replace_section(text, body, BEGIN, END), encoding="utf-8")
        print(f"written {out}")
    return 0 if judged.returncode == 0 and inferred.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
