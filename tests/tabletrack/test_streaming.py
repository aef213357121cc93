"""`judge` and `events` work shot by shot: each shot's output is on disk before the next shot is
read or inferred, and an endless line (``/dev/zero``, a gigantic single line) fails at once in one
line instead of growing without bound (common/bounded.py, tabletrack/judge_cmd.py, events_cmd.py)."""

from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from calibration.table import load_table
from tabletrack.events_cmd import run_events

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI with its address space capped at 1.5 GB: a reader that grew without bound fails."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    return subprocess.run(
        [sys.executable, "-m", "tabletrack", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=cap,
    )


@pytest.mark.parametrize("source", ["/dev/zero", "giant"])
def test_an_endless_line_fails_fast_in_one_line(tmp_path: Path, source: str) -> None:
    if source == "giant":
        p = tmp_path / "giant.jsonl"
        with p.open("w") as f:  # 40 MB on one line, no newline
            for _ in range(40):
                f.write('{"kind": "shot_start", "pad": "' + "x" * 1_000_000)
        source = str(p)
    r = run_cli("judge", source, "--game", "three-cushion", timeout=30)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2 and len(lines) == 1, r.stderr[-500:]
    assert ":1: line longer than 1048576 characters" in lines[0] or "NUL byte" in lines[0], lines[0]


def _fold(v: float, hi: float, r: float = 30.75) -> float:
    """``v`` reflected into ``r .. hi - r`` (a ball off the cushions)."""
    span = hi - 2 * r
    u = (v - r) % (2 * span)
    return r + (u if u <= span else 2 * span - u)


def _tracks(path: Path, shots: int) -> Path:
    """The white running 3 s from rest every 8 s on the carom table (30 Hz, reflected by the
    cushions), the yellow and the red resting."""
    rows = ["t,ball,x_mm,y_mm"]
    for i in range(int(shots * 8 * 30)):
        t = i / 30
        k, u = divmod(t, 8.0)
        run = min(u, 3.0)
        d = 1500.0 * (run - run * run / 6.0)
        ang = 0.5 + 0.7 * k
        x, y = _fold(400 + d * math.cos(ang), 2840.0), _fold(700 + d * math.sin(ang), 1420.0)
        rows += [f"{t:.4f},white,{x:.1f},{y:.1f}", f"{t:.4f},yellow,2500,300", f"{t:.4f},red,2500,1100"]
    path.write_text("\n".join(rows) + "\n")
    return path


def test_events_writes_each_shot_before_the_next_is_inferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure injected when the third shot is inferred: the first two shots are in the
    output's .partial file, whole, and the output's name holds what it held before."""
    from tracking.infer import shot as shot_module

    real = shot_module.shot_events

    def failing(acts, span, shot, *args, **kwargs):  # type: ignore[no-untyped-def]
        if shot == 3:
            raise RuntimeError("injected at shot 3")
        return real(acts, span, shot, *args, **kwargs)

    monkeypatch.setattr(shot_module, "shot_events", failing)
    out = tmp_path / "events.jsonl"
    out.write_text("old\n")
    with pytest.raises(RuntimeError, match="injected"):
        run_events(_tracks(tmp_path / "tracks.csv", 4), load_table("carom"), str(out), None)
    assert out.read_text() == "old\n"
    written = [json.loads(x) for x in (tmp_path / "events.jsonl.partial").read_text().splitlines()]
    assert {e["shot"] for e in written} == {1, 2}
    assert [e["kind"] for e in written if e["shot"] == 2][-1] == "shot_end"
