"""Tracks CSV: another tracking system's trajectories in, the pipeline's tracks.csv out."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tracking.ids import BallId
from tracking.tracks_csv import TracksCsvError, TracksCsvWriter, parse_tracks_csv, read_tracks_csv, write_tracks_csv
from tracking.trajectory import Trajectory

W, Y, R = BallId.WHITE, BallId.YELLOW, BallId.RED


def test_irregular_interleaved_rows_with_extra_columns() -> None:
    text = (
        "ball,t,x_mm,y_mm,quality\n"
        "white,0.0,700,500,0.9\n"
        "red,0.0,2300,300,0.8\n"
        "white,0.507,710,502,0.9\n"
        "\n"
        "white,0.514,720.5,504,0.9\n"
        "red,3.2,2310,305,0.7\n"
    )
    tr = parse_tracks_csv(text.splitlines(), "t.csv")
    assert set(tr) == {W, R}
    assert list(tr[W].t_s) == [0.0, 0.507, 0.514] and list(tr[W].x_mm) == [700.0, 710.0, 720.5]
    assert list(tr[R].t_s) == [0.0, 3.2]
    # frame: the data-row index when the file has no frame column
    assert list(tr[W].frame) == [0, 2, 3] and list(tr[R].frame) == [1, 4]
    assert tr[W].observed.all()


def test_frame_and_observed_columns_are_honoured(tmp_path: Path) -> None:
    p = tmp_path / "tracks.csv"
    p.write_text("t,frame,ball,x_mm,y_mm,observed,confidence\n0.0,10,yellow,1,2,1,0.9\n0.1,16,yellow,1,2,false,0.4\n")
    tr = read_tracks_csv(p)[Y]
    assert list(tr.frame) == [10, 16] and list(tr.observed) == [True, False]


# one bad file per row: (content, what the message must name)
BAD = [
    ("", "empty file"),
    ("t,ball,x_mm\n0,white,1\n", "lacks column 'y_mm'"),
    ("time,ball,x_mm,y_mm\n0,white,1,2\n", "lacks column 't'"),
    ("t,ball,x_mm,y_mm\n", "no samples"),
    ("t,ball,x_mm,y_mm\n0,white,abc,2\n", ":2: column 'x_mm' must be a number, got 'abc'"),
    ("t,ball,x_mm,y_mm\nnan,white,1,2\n", ":2: column 't' must be finite"),
    ("t,ball,x_mm,y_mm\n0,purple,1,2\n", ":2: unknown ball id 'purple'"),
    (
        "t,ball,x_mm,y_mm\n0,white,1,2\n0.5,white,1,2\n0.4,red,1,2\n0.3,white,1,2\n",
        ":5: time goes backwards for ball white",
    ),
    ("t,ball,x_mm,y_mm\n0,white,1,2\n0,white,1,2\n", ":3: ball white has two samples at t=0.0"),
    ("t,ball,x_mm,y_mm\n0,white,1\n", ":2: expected 4 columns"),
    ("t,frame,ball,x_mm,y_mm\n0,1.5,white,1,2\n", "column 'frame' must be an integer"),
    ("t,ball,x_mm,y_mm,observed\n0,white,1,2,maybe\n", "column 'observed' must be 1/0"),
]


@pytest.mark.parametrize("content, message", BAD, ids=[m for _, m in BAD])
def test_bad_tracks_give_one_line_naming_row_and_fault(tmp_path: Path, content: str, message: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(TracksCsvError) as e:
        read_tracks_csv(p)
    text = str(e.value)
    assert message in text and "\n" not in text
    assert isinstance(e.value, ValueError)


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(TracksCsvError, match="cannot read"):
        read_tracks_csv(tmp_path / "nope.csv")
    p = tmp_path / "bin.csv"
    p.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(TracksCsvError, match="not a text file"):
        read_tracks_csv(p)


def test_write_then_read_round_trip(tmp_path: Path) -> None:
    w = Trajectory.from_samples(
        W,
        [0.0, 0.02, 0.04],
        [1.0, 2.0, 3.0],
        [4.0, 5.0, 6.0],
        frame=[0, 1, 2],
        observed=[True, False, True],
        confidence=[1.0, 0.5, 0.9],
    )
    r = Trajectory.from_samples(R, [0.0, 0.04], [100.0, 100.0], [50.0, 50.0], frame=[0, 2])
    p = tmp_path / "tracks.csv"
    write_tracks_csv(p, {W: w, R: r})
    lines = p.read_text().splitlines()
    assert lines[0] == "t,frame,ball,x_mm,y_mm,observed,confidence"
    assert [ln.split(",")[2] for ln in lines[1:]] == ["red", "white", "white", "red", "white"]  # time order
    back = read_tracks_csv(p)
    assert np.allclose(back[W].x_mm, w.x_mm) and list(back[W].observed) == [True, False, True]
    assert list(back[W].frame) == [0, 1, 2] and list(back[R].frame) == [0, 2]


def test_writer_flushes_each_frame(tmp_path: Path) -> None:
    from tracking.detections import BallDetection
    from tracking.tracker import Tracker

    p = tmp_path / "live.csv"
    tracker = Tracker((W, Y))
    with TracksCsvWriter(p) as out:
        out.write_states(tracker.update(0, 0.0, [BallDetection(1.0, 2.0, label=W), BallDetection(5.0, 6.0, label=Y)]))
        # readable while the writer is still open
        assert len(read_tracks_csv(p)[W]) == 1 and len(p.read_text().splitlines()) == 3
