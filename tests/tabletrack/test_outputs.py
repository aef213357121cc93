"""Outputs never replace inputs, and one run at a time writes an output (issue 11, part 2; the
design's promise that bad input loses nothing already there)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabletrack import cli
from tabletrack.outputs import OutputPathError, check_outputs, output_lock

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_videos" / "kiss_720p60.mp4"
LOG = (
    '{"kind": "shot_start", "t": 0.0, "frame": 0, "shot": 1, "confidence": 1.0, "cue_ball": "white", "positions": {}}\n'
)


def _files(tmp: Path) -> dict[str, Path]:
    clip_dir = tmp / "clip"
    clip_dir.mkdir()
    video = clip_dir / "annotated.mp4"
    shutil.copy(SAMPLE, video)
    log = tmp / "events.jsonl"
    log.write_text(LOG)
    tracks = tmp / "t.csv"
    tracks.write_text("t,ball,x_mm,y_mm\n0,white,100,100\n")
    image = tmp / "shot.png"
    image.write_bytes(b"not really a png")
    link = tmp / "link.jsonl"
    link.symlink_to(log)
    return {"video": video, "clip_dir": clip_dir, "log": log, "tracks": tracks, "image": image, "link": link}


CASES = [
    # (argv with {names} of _files, the input that must survive, words in the message)
    (["calibrate", "{image}", "-o", "{tmp}/shot.json"], "image", "check image would overwrite the image"),
    (["analyze", "{video}", "--out", "{clip_dir}", "--no-video"], "video", "would overwrite the video"),
    (["judge", "{log}", "-o", "{log}"], "log", "-o would overwrite the event log"),
    (["judge", "{log}", "-o", "{link}"], "log", "-o would overwrite the event log"),
    (["judge", "{log}", "-o", "{tmp}/c.jsonl", "--sheet", "{tmp}/c.jsonl"], "log", "are the same file"),
    (["judge", "{log}", "--sheet", "{log}"], "log", "--sheet would overwrite the event log"),
    (["events", "{tracks}", "-o", "{tracks}"], "tracks", "-o would overwrite the tracks file"),
]


@pytest.mark.parametrize("argv, keep, words", CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_an_output_never_replaces_an_input(tmp_path, capsys, argv, keep, words) -> None:
    files = _files(tmp_path)
    before = files[keep].read_bytes()
    args = [a.format(tmp=tmp_path, **files) for a in argv]
    assert cli.main(args) == cli.EXIT_USER_ERROR
    err = capsys.readouterr().err
    assert err.startswith("tabletrack: error: ") and err.count("\n") == 1 and words in err, err
    assert files[keep].read_bytes() == before


def test_a_second_run_on_the_same_output_folder_is_refused(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    with output_lock(out, folder=True):
        code = cli.main(["analyze", str(SAMPLE), "--out", str(out), "--no-video", "--quiet"])
    assert code == cli.EXIT_USER_ERROR
    assert "another tabletrack run is writing there now" in capsys.readouterr().err
    assert not (out / "events.jsonl").exists()


def test_a_second_run_on_the_same_output_file_is_refused(tmp_path, capsys) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text(LOG)
    calls = tmp_path / "calls.jsonl"
    with output_lock(calls, folder=False):
        assert cli.main(["judge", str(log), "-o", str(calls)]) == cli.EXIT_USER_ERROR
    assert "another tabletrack run" in capsys.readouterr().err
    assert cli.main(["judge", str(log), "-o", str(calls)]) == 0  # the lock went with the first run


def test_check_outputs_skips_options_not_given(tmp_path) -> None:
    check_outputs({"the video": tmp_path / "a.mp4", "--input": None}, {"-o": tmp_path / "b.json", "--sheet": None})
    with pytest.raises(OutputPathError):
        check_outputs({"the video": tmp_path / "a.mp4"}, {"-o": tmp_path / "x" / ".." / "a.mp4"})
