"""The pure helpers of bench/real.py, on hand-made inputs (no shared data needed)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "real.py"
_spec = importlib.util.spec_from_file_location("bench_real", _PATH)
real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(real)


def test_rename_under_each_symmetry():
    assert real.rename("head_left", "identity") == "head_left"
    assert real.rename("head_left", "ends") == "foot_left"
    assert real.rename("head_left", "sides") == "head_right"
    assert real.rename("head_left", "both") == "foot_right"
    assert real.rename("side_left", "ends") == "side_left"
    assert real.rename("side_left", "both") == "side_right"


def test_best_symmetry_finds_the_half_turn():
    label = {"head_left": (0, 0), "foot_left": (100, 0), "foot_right": (100, 50), "head_right": (0, 50)}
    # the tracker's frame turned by half a turn: its head_left is where the labels' foot_right is
    spec = {"head_left": (101, 50), "foot_left": (0, 51), "foot_right": (0, 0), "head_right": (100, 0)}
    sym, d = real.best_symmetry(spec, label)
    assert sym == "both"
    assert sorted(d) == sorted(label)
    assert max(d.values()) == pytest.approx(1.0)


def test_best_symmetry_identity_when_names_agree():
    label = {"head_left": (0, 0), "foot_left": (100, 0), "foot_right": (100, 50), "head_right": (0, 50)}
    sym, d = real.best_symmetry(label, label)
    assert sym == "identity" and max(d.values()) == 0.0


def test_compare_sets_pockets():
    found = [("5", "head_right"), ("2", "foot_left"), ("9", "side_left")]
    labelled = [("5", "head_right"), ("2", "foot_right"), ("3", "head_left")]
    c = real.compare_sets(found, labelled)
    assert c["right"] == [("5", "head_right")]
    assert c["missed"] == [("2", "foot_right"), ("3", "head_left")]
    assert c["extra"] == [("2", "foot_left"), ("9", "side_left")]


def test_ball_kind():
    assert real.ball_kind("cue") == "cue"
    assert real.ball_kind("8") == "eight"
    assert real.ball_kind("1") == "solid" and real.ball_kind("7") == "solid"
    assert real.ball_kind("9") == "stripe" and real.ball_kind("15") == "stripe"
    assert real.ball_kind("white") is None and real.ball_kind("16") is None


def test_parse_bbox_text_gives_centres():
    boxes = real.parse_bbox_text("268 317 17 17 1\n469 154 15 15 2\n\n")
    assert boxes == [(276.5, 325.5, 17.0, 17.0, 1), (476.5, 161.5, 15.0, 15.0, 2)]


def test_match_boxes_one_to_one_within_a_radius():
    boxes = [(100.0, 100.0, 20.0, 20.0, 1), (200.0, 100.0, 20.0, 20.0, 3), (300.0, 100.0, 20.0, 20.0, 4)]
    tracked = [
        (103.0, 101.0, "cue"),  # on box 0, right kind
        (201.0, 100.0, "11"),  # on box 1, stripe on a solid: wrong kind
        (197.0, 100.0, "2"),  # also near box 1, farther: unmatched (one-to-one)
        (330.0, 100.0, "12"),  # 30 px from box 2: more than a radius (10 px)
    ]
    m = real.match_boxes(boxes, tracked)
    assert (m["labelled"], m["tracked"], m["matched"], m["kind_right"]) == (3, 4, 2, 1)
    assert {(i, j) for i, j, _ in m["pairs"]} == {(0, 0), (1, 1)}


def test_match_boxes_empty():
    assert real.match_boxes([], [(1.0, 1.0, "cue")])["matched"] == 0
    assert real.match_boxes([(1.0, 1.0, 10.0, 10.0, 1)], [])["matched"] == 0


def test_mask_iou():
    a = np.zeros((4, 4), bool)
    b = np.zeros((4, 4), bool)
    a[:2] = True
    b[1:3] = True
    assert real.mask_iou(a, b) == pytest.approx(4 / 12)
    assert np.isnan(real.mask_iou(np.zeros((2, 2)), np.zeros((2, 2))))


def test_in_time_order():
    assert real.in_time_order([0.0, 0.5, 0.5, 1.0])
    assert not real.in_time_order([0.0, 1.0, 0.9])
    assert real.in_time_order([])


def test_replace_section_replaces_only_between_markers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(_PATH.parent))  # as when the script runs: bench/sections.py
    text = "# Benchmarks\n\nsynthetic part\n"
    once = real.replace_section(text, "first run")
    assert once.startswith(text) and real.BEGIN in once and "first run" in once
    twice = real.replace_section(once + "\ntrailer\n", "second run")
    assert "first run" not in twice and "second run" in twice
    assert twice.startswith("# Benchmarks\n\nsynthetic part\n") and twice.endswith("trailer\n")
    assert twice.count(real.BEGIN) == 1 and twice.count(real.END) == 1


def test_lost_samples_are_the_confidence_zero_rows(tmp_path):
    # a pocketed ball is held where it was last predicted with confidence 0: not "tracked" there
    p = tmp_path / "tracks.csv"
    p.write_text(
        "t,frame,ball,x_mm,y_mm,observed,confidence\n"
        "0.0,0,cue,100,100,1,0.9\n0.0,0,3,200,200,1,0.8\n"
        "0.04,1,cue,101,100,1,0.9\n0.04,1,3,200,200,0,0.5\n"
        "0.08,2,cue,102,100,1,0.9\n0.08,2,3,200,200,0,0.0\n"
    )
    assert real.lost_samples(p) == {("3", 2)}
    assert real.lost_samples(tmp_path / "absent.csv") == set()


def test_frames_as_a_clip_find_the_cushions_the_truth_has(tmp_path: Path) -> None:
    """bench/real.py section 4 runs a folder of consecutive frames through ``analyze`` as one
    clip; here frames 15-50 of a rendered sample clip (its physics truth: the yellow meets the left
    cushion at frame 31, the white at 40), written as JPEG files as the real folder holds them."""
    import cv2

    cap = cv2.VideoCapture(str(Path(__file__).resolve().parents[2] / "sample_videos" / "close_call_miss_720p30.mp4"))
    frames = []
    i = 0
    while True:
        ok, img = cap.read()
        if not ok or i > 50:
            break
        if i >= 15:
            frames.append(tmp_path / f"{i:05d}.jpg")
            cv2.imwrite(str(frames[-1]), img)
        i += 1
    cap.release()
    text, fig = real.carom_frames_as_clip(frames, tmp_path / "work")
    assert "error" not in fig, fig
    assert fig["in_order"] and fig["shots"] == 1
    assert all(n >= 0.8 * len(frames) for n in fig["observed"].values()), fig["observed"]  # still frames skipped
    got = {c.split(" @ ")[0]: int(c.split(" @ ")[1]) for c in fig["cushions"]}
    assert abs(got["yellow left"] - 31) <= 1 and abs(got["white left"] - 40) <= 1, fig["cushions"]
    assert "| 36 |" in text  # the table's frames column


def test_a_classifier_that_is_not_there_is_one_line_and_exit_2(tmp_path, capsys):
    assert real.main(["--classifier", str(tmp_path / "loco.onnx"), "--sections", "1", "--out", "-"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "loco.onnx" in err and "no such file" in err
