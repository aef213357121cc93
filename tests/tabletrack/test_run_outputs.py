"""A run that fails halfway never leaves a mix of new and old outputs under the outputs' names
(tabletrack/outputs.py RunOutputs, common/atomic.py): the previous run's files stay whole and the
failed run's findings are in ``*.partial``; a run that ends well replaces them all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from small_clips import half_size_calibration, half_size_clip

from tabletrack.outputs import ANALYZE_OUTPUTS, RunOutputs
from tracking.eventlog import event_to_dict
from tracking.events import ShotEnd, ShotStart
from tracking.ids import BallId

REPO = Path(__file__).resolve().parents[2]


def _old_run(out: Path) -> dict[str, str]:
    out.mkdir(parents=True, exist_ok=True)
    old = {name: f"old {name}\n" for name in ANALYZE_OUTPUTS}
    for name, text in old.items():
        (out / name).write_text(text)
    return old


def test_commit_renames_what_was_written_and_removes_the_rest(tmp_path: Path) -> None:
    _old_run(tmp_path)
    (tmp_path / "annotated.mp4.partial").write_text("an older failed run's video")
    run = RunOutputs(tmp_path)
    run.path("events.jsonl").write_text("new events\n")
    run.path("calls.jsonl").write_text("new calls\n")
    run.commit()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["calls.jsonl", "events.jsonl"]
    assert (tmp_path / "events.jsonl").read_text() == "new events\n"


def test_analyze_failing_mid_run_keeps_the_previous_outputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure injected at the 40th analysed frame (the tracker raises) of a half-size sample
    clip: the old outputs are byte for byte as they were, the new findings are in *.partial."""
    from tabletrack import pipeline
    from tracking.tracker import Tracker

    out = tmp_path / "out"
    old = _old_run(out)
    real_update = Tracker.update
    calls = {"n": 0}

    def failing_update(self: Tracker, *args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == 40:
            raise RuntimeError("injected failure")
        return real_update(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Tracker, "update", failing_update)
    video = half_size_clip(tmp_path / "clip.mp4", None)
    cal = half_size_calibration(tmp_path / "cal.json")
    opts = pipeline.AnalyzeOptions(calibration=str(cal), out_dir=out, annotated_video=False, progress=False)
    with pytest.raises(RuntimeError, match="injected"):
        pipeline.analyze_video(video, opts)
    for name, text in old.items():
        assert (out / name).read_text() == text, name
    partial = sorted(p.name for p in out.iterdir() if p.name.endswith(".partial"))
    assert partial == ["calibration.json.partial", "calls.jsonl.partial", "events.jsonl.partial", "tracks.csv.partial"]
    rows = (out / "tracks.csv.partial").read_text().splitlines()
    assert rows[0].startswith("t,frame,ball") and len(rows) > 39 * 3


def _log(path: Path, bad_line_at_shot: int | None = None) -> Path:
    lines = []
    for n in (1, 2, 3):
        pos = {BallId.WHITE: (500.0, 700.0), BallId.YELLOW: (1500.0, 700.0), BallId.RED: (2000.0, 400.0)}
        lines.append(json.dumps(event_to_dict(ShotStart(n * 10.0, n * 300, n, 1.0, BallId.WHITE, pos))))
        if bad_line_at_shot == n:
            lines.append('{"kind": "cushion", "t": NaN}')
        lines.append(json.dumps(event_to_dict(ShotEnd(n * 10.0 + 5, n * 300 + 150, n, 1.0, pos))))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_judge_failing_at_shot_3_keeps_the_old_calls(tmp_path: Path) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text("old calls\n")
    log = _log(tmp_path / "events.jsonl", bad_line_at_shot=3)
    r = subprocess.run(
        [sys.executable, "-m", "tabletrack", "judge", str(log), "-o", str(calls)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "events.jsonl:6: field 't'" in r.stderr, r.stderr
    assert calls.read_text() == "old calls\n"
    partial = (tmp_path / "calls.jsonl.partial").read_text().splitlines()
    assert [json.loads(x)["shot"] for x in partial] == [1, 2], "each shot's call was written as it ended"
    _log(log)
    r = subprocess.run(
        [sys.executable, "-m", "tabletrack", "judge", str(log), "-o", str(calls)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert [json.loads(x)["shot"] for x in calls.read_text().splitlines()] == [1, 2, 3]
    assert not (tmp_path / "calls.jsonl.partial").exists()
