"""The live mode's parts without a server: the drop policy, the match store and its resume, the
camera-moved check, and ``judge`` reading a match database."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from calibration.table import load_table
from tabletrack.cli import main
from tabletrack.live.capture import CapturedFrame, FrameQueue, parse_source
from tabletrack.live.store import MatchStore, MatchStoreError, RefereeAction, merge_input
from vision.source import Frame, VideoSourceError

REPO = Path(__file__).resolve().parents[3]
EVENTS = REPO / "tests" / "fixtures"


_PIXEL = np.zeros((1, 1, 3), np.uint8)


def _cf(i: int, t: float | None = None, image: bool = True) -> CapturedFrame:
    # a decoded frame (an image) unless ``image`` is False: grabbed only, as still frames at rest
    return CapturedFrame(Frame(i, i / 30 if t is None else t, _PIXEL if image else None), 0.0)


def test_a_full_queue_drops_spread_out_frames_never_two_neighbours_and_counts_them() -> None:
    q = FrameQueue(6)
    dropped = [d.frame.index for i in range(30) if (d := q.put(_cf(i))) is not None]
    assert q.dropped == len(dropped) == 24
    kept = []
    while (item := q.get(0.01)) is not None:
        kept.append(item.frame.index)
    assert kept[-1] == 29  # the newest frame is never the one dropped
    assert sorted(kept + dropped) == list(range(30))


def test_an_analysis_at_half_the_source_rate_loses_every_other_frame_never_two_in_a_row() -> None:
    q = FrameQueue(8)
    dropped: list[int] = []
    for i in range(400):
        d = q.put(_cf(i))
        if d is not None:
            dropped.append(d.frame.index)
        if i % 2:
            q.get(0.01)
    assert len(dropped) > 150
    assert all(b - a > 1 for a, b in zip(sorted(dropped), sorted(dropped)[1:]))


def test_protected_frames_are_kept_while_others_can_go() -> None:
    q = FrameQueue(4)
    q.protected_s = (0.0, 2 / 30)  # frames 0-2: a contact the tracker is resolving
    dropped = [d.frame.index for i in range(8) if (d := q.put(_cf(i))) is not None]
    assert not {0, 1, 2} & set(dropped)


def test_frames_grabbed_without_an_image_do_not_fill_the_queue() -> None:
    # issue 12: judging a shot stalls the analysis for half a second on a 1080p60 clip while the
    # balls rest; the frames then are grabbed without decoding and must not push out decoded ones
    q = FrameQueue(4)
    for i in range(30):
        q.put(_cf(i, image=i % 8 == 0))  # 1 frame in 8 decoded, as at rest: 4 images
    assert q.dropped == 0 and len(q) == 30
    for i in range(30, 34):
        q.put(_cf(i))  # decoded frames again: now 8 images for room for 4
    assert q.dropped == 4
    kept = []
    while (item := q.get(0.01)) is not None:
        kept.append(item)
    assert sum(1 for c in kept if c.frame.image is not None) == 4  # only decoded frames went
    assert len(kept) == 30


def test_the_bare_frames_are_bounded_too() -> None:
    q = FrameQueue(2)
    for i in range(100):
        q.put(_cf(i, image=False))
    assert len(q) == FrameQueue.bare_factor * 2 and q.dropped == 100 - len(q)


def test_source_spec() -> None:
    assert parse_source("0").kind == "camera"
    assert parse_source("rtsp://cam.local/stream").kind == "stream"
    assert parse_source(str(REPO / "sample_videos" / "kiss_720p60.mp4")).kind == "file"
    with pytest.raises(VideoSourceError, match="camera index"):
        parse_source("no_such_video.mp4")


def _some_events() -> list:
    """Two carom shots, from the committed clips' truth."""
    from tabletrack.truth_eval import ClipTruth

    evs = ClipTruth.load(REPO / "sample_videos" / "miss_one_ball_720p30.truth.json").events
    evs2 = ClipTruth.load(REPO / "sample_videos" / "kiss_720p60.truth.json").events
    return [*evs, *(replace(e, shot=2, t_s=e.t_s + 100) for e in evs2)]


def test_the_store_keeps_everything_and_gives_it_back_after_a_restart(tmp_path: Path) -> None:
    events = _some_events()
    db = tmp_path / "m" / "match.sqlite"
    s = MatchStore(db)
    assert s.begin_session("three-cushion", "carom", {"players": ["Ana", "Bea"]}) == 1
    s.add_events(events)
    a = s.add_action(1, {"verdict": "point"})
    s.add_action(2, {"foul": "touched_ball"})
    s.undo_last()
    s.close()  # as if killed: everything was committed already

    s2 = MatchStore(db)
    assert s2.begin_session("three-cushion", "carom", None) == 2
    assert [e.shot for e in s2.events()] == [e.shot for e in events]
    assert [(x.id, x.shot, dict(x.fields), x.undone) for x in s2.actions()] == [
        (a.id, 1, {"verdict": "point"}, False),
        (a.id + 1, 2, {"foul": "touched_ball"}, True),
    ]
    ref = s2.referee_input()
    assert ref == {"players": ["Ana", "Bea"], "shots": {"1": {"verdict": "point"}}}
    assert json.loads((db.parent / "referee.json").read_text()) == ref
    with pytest.raises(MatchStoreError, match="three-cushion, not nine-ball"):
        s2.begin_session("nine-ball", "pool", None)
    s2.close()


def test_a_later_action_on_a_shot_replaces_its_fields() -> None:
    acts = [
        RefereeAction(1, 0, 3, {"foul": "touched_ball"}),
        RefereeAction(2, 0, 3, {"foul": "push_shot", "note": "x"}),
    ]
    assert merge_input({"shots": {"1": {"verdict": "miss"}}}, acts)["shots"] == {
        "1": {"verdict": "miss"},
        "3": {"foul": "push_shot", "note": "x"},
    }


def test_judge_reads_a_match_database_with_its_referee_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = _some_events()
    db = tmp_path / "match.sqlite"
    s = MatchStore(db)
    s.begin_session("three-cushion", "carom", None)
    s.add_events(events)
    s.add_action(1, {"foul": "touched_ball"})
    s.add_action(max(e.shot for e in events) + 1, {"note": "for the shot not played yet"})
    s.close()
    assert main(["judge", str(db), "-o", str(tmp_path / "calls.jsonl")]) == 0
    first = json.loads((tmp_path / "calls.jsonl").read_text().splitlines()[0])
    assert first["foul"] == "touched_ball"
    assert main(["judge", str(db), "--game", "nine-ball"]) == 2
    assert "this match is three-cushion" in capsys.readouterr().err


def test_a_file_that_is_not_a_match_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "x.sqlite"
    p.write_text("hello")
    with pytest.raises(MatchStoreError, match="not a match database"):
        MatchStore(p)


def test_the_camera_check_sees_the_table_move_and_not_a_still_camera() -> None:
    from calibration.auto import calibrate_frame
    from tabletrack.live.camera_check import CameraCheck
    from vision.source import VideoFile

    table = load_table("carom")
    with VideoFile(REPO / "sample_videos" / "point_2c_hand_720p30.mp4") as v:
        img = v.first_frame()
        later = [f.image for f in v.frames(lambda i: i % 30 == 0) if f.image is not None]
    check = CameraCheck(calibrate_frame(img, table).camera, table)
    assert not check.check(img).moved
    assert not any(check.check(f).moved for f in later)  # a hand over the table is no moved camera
    moved = np.roll(img, 8, axis=0)
    results = [check.check(moved) for _ in range(2)]
    assert not results[0].moved and results[1].moved  # confirmed by a second check
    assert results[1].agreement < 0.5 * results[1].reference


def test_the_shot_judge_holds_calls_while_the_camera_moved_and_rejudges_with_a_referee_action(tmp_path: Path) -> None:
    from tabletrack.shot_judge import ShotJudge
    from tracking.events import group_shots

    events = _some_events()
    shots = group_shots(events)
    judge = ShotJudge("three-cushion", None, 30.0, tmp_path / "calls.jsonl", load_table("carom"))
    judge.hold_reason = "the camera moved"
    held = judge.judge(shots[0])
    assert held.needs_review and "the camera moved" in (held.review_reason or "")
    judge.hold_reason = None
    assert not judge.judge(shots[1]).needs_review
    calls = judge.rejudge(events, {"shots": {"1": {"verdict": "point"}, "3": {"foul": "touched_ball"}}})
    assert [c.points for c in calls][0] == 1 and calls[0].needs_review  # still held: it was made while moved
    assert not calls[1].needs_review
    assert len((tmp_path / "calls.jsonl").read_text().splitlines()) == 2  # rewritten, not appended
    assert judge.ref is not None and judge.ref.for_shot(3) is not None  # the next shot's input waits for it
