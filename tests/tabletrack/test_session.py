"""FrameAnalysis (tabletrack/session.py): the frame loop analyze and live share. A ball the
tracker names only once it has stayed (issue 13: real eight-ball balls whose look the model gave
to another ball) is in tracks.csv from its first sighting, and tracks.csv stays in time order."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from calibration.table import load_table
from tabletrack.session import FrameAnalysis
from tracking.detections import BallDetection, Detections, MotionState
from tracking.ids import BallId
from vision.source import Frame

POOL = load_table("pool")
BALLS = (BallId.CUE,) + tuple(BallId(str(k)) for k in range(1, 16))


class Scripted:
    """A detector that sees the same balls in every frame: the 13, a stripe whose look the
    model gives to the 13 (0.65) and the 15 only faintly (0.13), and the cue ball."""

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        dets = (
            BallDetection(1048, 217, score=0.8, label_scores={BallId("13"): 0.9}),
            BallDetection(411, 983, score=0.81, label_scores={BallId("13"): 0.65, BallId("15"): 0.13}),
            BallDetection(400, 300, score=0.9, label_scores={BallId.CUE: 0.95}),
        )
        return Detections(frame.index, frame.t_s, dets)


def _session(tmp_path: Path) -> FrameAnalysis:
    return FrameAnalysis(
        table=POOL, game="eight-ball", balls=BALLS, detector=Scripted(), fps=25.0, out_dir=tmp_path, skip_still=False
    )


def _rows(tmp_path: Path) -> list[dict[str, str]]:
    with (tmp_path / "tracks.csv").open() as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("finish", [True, False], ids=["finished", "interrupted"])
def test_a_ball_named_after_a_few_sightings_is_in_tracks_from_the_first(tmp_path: Path, finish: bool) -> None:
    session = _session(tmp_path)
    image = np.zeros((4, 4, 3), np.uint8)
    for i in range(8):
        session.feed(Frame(i, i / 25.0, image))
    if finish:
        session.finish()
    session.close()
    rows = _rows(tmp_path)
    frames_15 = [int(r["frame"]) for r in rows if r["ball"] == "15"]
    assert frames_15 == list(range(8)), "the 15 was on the table from the first frame"
    times = [float(r["t"]) for r in rows]
    assert times == sorted(times), "tracks.csv in time order"
    assert len(rows) == 3 * 8, "every frame written once, interrupted or not"
    if finish:
        assert [int(f) for f in session.tracks()[BALLS.index(BallId("15"))].frames] == list(range(8))


def test_what_the_annotated_video_draws_holds_a_ball_named_late_from_its_first_sighting(tmp_path: Path) -> None:
    # real eight-ball broadcast (issue 13, game3): the 7, tracked from frame 1 once named at
    # frame 8, was drawn only from frame 8: the video drew each frame's states as it was fed
    session = _session(tmp_path)
    image = np.zeros((4, 4, 3), np.uint8)
    drawn: list[tuple[BallId, int, float, float, bool]] = []
    for i in range(8):
        session.feed(Frame(i, i / 25.0, image))
        drawn += session.take_released()
    session.finish()
    drawn += session.take_released()
    session.close()
    assert [f for b, f, *_ in drawn if b is BallId("15")] == list(range(8))
    frames = [f for _, f, *_ in drawn]
    assert frames == sorted(frames), "in frame order, each sample once"
    assert len(drawn) == 3 * 8


class Rolling:
    """The cue ball still, the 3 rolling: fast (1000 mm/s) for 0.6 s, then creeping (40 mm/s)."""

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        t = frame.t_s
        x = 600.0 + 1000.0 * min(t, 0.6) + 40.0 * max(t - 0.6, 0.0)
        dets = (
            BallDetection(400, 300, score=0.9, label_scores={BallId.CUE: 0.95}),
            BallDetection(x, 600, score=0.9, label_scores={BallId("3"): 0.95}),
        )
        return Detections(frame.index, frame.t_s, dets)


@pytest.mark.parametrize(
    "fps, t_from, t_to, share, why",
    [
        (60.0, 0.1, 0.6, 1.0, "in play: every frame"),
        (60.0, 1.3, 2.0, 0.25, "creeping to a stop at 40 mm/s: every fourth frame"),
        (30.0, 1.3, 2.0, 1.0, "30 fps: every frame, whatever the speed"),
    ],
)
def test_frames_of_a_creeping_end_are_analysed_at_a_stride(
    tmp_path: Path, fps: float, t_from: float, t_to: float, share: float, why: str
) -> None:
    # issue 12: analysing every frame of a creeping end fell behind a live 1080p60 camera
    session = FrameAnalysis(
        table=POOL, game="eight-ball", balls=BALLS, detector=Rolling(), fps=fps, out_dir=tmp_path, skip_still=True
    )
    image = np.zeros((4, 4, 3), np.uint8)
    analysed = []
    for i in range(int(2.0 * fps)):
        t = i / fps
        if session.feed(Frame(i, t, image if session.wants(i) else None)) and t_from <= t < t_to:
            analysed.append(i)
    session.close()
    assert len(analysed) == pytest.approx(share * (t_to - t_from) * fps, abs=1.5), why


class _Watch:
    """A BallWatch stand-in: the mask of the balls it was asked for (what the gate then uses)."""

    def __init__(self, hides: bool = False) -> None:
        self.asked: list[int] = []
        self.hides = hides

    def mask(self, xy_mm: np.ndarray) -> np.ndarray:
        self.asked.append(len(xy_mm))
        return np.ones((2, 2), bool)

    def hiding_places(self, image: np.ndarray, cloth: object, seen: np.ndarray | None = None) -> np.ndarray | None:
        """Where a ball could hide on the cloth: somewhere (a hand) or nowhere, as the case says."""
        return np.ones((2, 2), bool) if self.hides else None


def _resting(t_s: float, seen: tuple[str, ...], hidden: tuple[str, ...] = (), unseen: int = 0) -> MotionState:
    from tracking.detections import BallMotion

    balls = tuple(BallMotion(BallId(b), 100.0 * k, 500.0, 0.0, 0.0, b not in hidden, False) for k, b in enumerate(seen))
    return MotionState(t_s, True, balls, unseen, unseen)


@pytest.mark.parametrize(
    ("table", "seen", "hidden", "unseen", "t_s", "hides", "watched"),
    [
        ("pool", ("cue", "2", "5", "7"), (), 4, 0.5, False, False),  # balls never seen, early: maybe hidden
        ("pool", ("cue", "2", "5", "7"), (), 4, 0.5, True, True),  # ... and a hand where they may hide
        ("pool", ("cue", "2", "5", "7"), (), 4, 2.5, False, True),  # never seen after 2 s: pocketed before
        ("pool", ("cue", "2", "5", "7"), ("cue",), 4, 2.5, True, False),  # a seen ball unseen now: under a hand
        # the game has no other ball on the table (the referee input): watched from the start
        ("pool", ("cue", "2", "5", "7"), (), 0, 0.5, False, True),
        ("carom", ("white", "red"), (), 1, 9.0, False, False),  # a carom ball never seen is hidden, never gone
        ("carom", ("white", "red"), (), 1, 9.0, True, True),  # ... watched where it can hide
        ("carom", ("white", "red", "yellow"), (), 0, 0.5, False, True),
    ],
)
def test_the_still_gate_watches_only_the_balls_when_every_ball_on_the_table_is_placed(
    tmp_path: Path,
    table: str,
    seen: tuple[str, ...],
    hidden: tuple[str, ...],
    unseen: int,
    t_s: float,
    hides: bool,
    watched: bool,
) -> None:
    """Speed (issue 10): while the balls rest, only changes at a ball wake the detector, once it
    is known where every ball on the table is; a broadcast starts mid-rack (balls pocketed before
    it are never seen) and is watched after ABSENT_AFTER_S; a ball never seen is watched where
    something on the cloth could hide it, and where nothing could, every change counts."""
    spec = load_table(table)
    balls = tuple(BallId(b) for b in ("white", "yellow", "red")) if table == "carom" else BALLS
    session = FrameAnalysis(
        table=spec,
        game="three-cushion" if table == "carom" else "seven-ball",
        balls=balls,
        detector=Scripted(),
        fps=25.0,
        out_dir=tmp_path,
        ball_watch=_Watch(hides),  # type: ignore[arg-type]
        cloth=object(),  # type: ignore[arg-type]
    )
    session._t_start = 0.0
    session.motion = _resting(t_s, seen, hidden, unseen)
    assert (session._watch(np.zeros((8, 8, 3), np.uint8)) is not None) is watched
    session.close()


class Unnamed:
    """The cue ball and the 13, and a third ball whose look the model gives to the 13 only: no
    ball not yet seen is named by it, so the tracker names it by elimination once it has been
    seen at the same place on a few frames."""

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        dets = (
            BallDetection(1048, 217, score=0.8, label_scores={BallId("13"): 0.9}),
            BallDetection(411, 983, score=0.6, label_scores={BallId("13"): 0.9}),
            BallDetection(400, 300, score=0.9, label_scores={BallId.CUE: 0.95}),
        )
        return Detections(frame.index, frame.t_s, dets)


def test_while_a_detection_waits_to_be_named_every_frame_is_analysed(tmp_path: Path) -> None:
    # real eight-ball broadcast (issue 13, game2): a ball at rest from the first frame, the image
    # still, was seen on frames 0, 1 and 7 only (the rest skipped as still), named on frame 8,
    # 0.32 s after its first sighting, past the tracker's backfill_s: reported from frame 7
    session = FrameAnalysis(
        table=POOL, game="eight-ball", balls=BALLS, detector=Unnamed(), fps=25.0, out_dir=tmp_path, skip_still=True
    )
    image = np.zeros((72, 128, 3), np.uint8)
    analysed = [i for i in range(50) if session.feed(Frame(i, i / 25.0, image))]
    session.finish()
    session.close()
    named = {r["ball"] for r in _rows(tmp_path)} - {"cue", "13"}
    assert len(named) == 1, f"the third ball named once: {named}"
    frames = [int(r["frame"]) for r in _rows(tmp_path) if r["ball"] in named]
    assert frames[:4] == [0, 1, 2, 3], "consecutive frames while it waits, reported from its first sighting"
    assert len(analysed) < 15, f"once it is named, still frames are skipped again: analysed {analysed}"


class Struck:
    """The cue ball and the 3 at rest; the 3 struck between frames 9 and 10 (500 mm/s after)."""

    def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
        x = 1200.0 + 500.0 * max(0.0, frame.t_s - 0.38)
        dets = (
            BallDetection(400, 300, score=0.9, label_scores={BallId.CUE: 0.95}),
            BallDetection(x, 600, score=0.9, label_scores={BallId("3"): 0.95}),
        )
        return Detections(frame.index, frame.t_s, dets)


def test_a_frame_counts_as_resting_or_moving_by_what_its_analysis_showed(tmp_path: Path) -> None:
    # issue 10 (the resting rate in the summary and bench/speed.py): the stroke's frame, whose
    # detection finds a ball struck, is a moving frame, not a resting one
    session = FrameAnalysis(
        table=POOL, game="eight-ball", balls=BALLS, detector=Struck(), fps=25.0, out_dir=tmp_path, skip_still=False
    )
    image = np.zeros((4, 4, 3), np.uint8)
    for i in range(16):
        session.feed(Frame(i, i / 25.0, image))
    timing = session.timing()
    session.close()
    # frame 0: one sample is no rest; 1-9 at rest; 10 (the 3 struck: 10 mm from frame 9) to 14
    # move; the last frame's time is counted when a next one comes. By the motion before each
    # frame, frame 10 was a resting one: (10, 5)
    assert (timing.resting_frames, timing.moving_frames) == (9, 6)


@pytest.mark.parametrize(
    ("referee", "unseen", "why"),
    [
        (None, 4, "seven-ball's 1, 3, 4 and 6 never seen: they may be hidden"),
        ({"start": {"balls": ["2", "5", "7"]}}, 0, "the referee input has only the 2, 5 and 7 on the table"),
        ({}, 4, "a new game: the whole rack is on the table"),
    ],
)
def test_the_balls_the_referee_input_has_off_the_table_are_not_waited_for(
    tmp_path: Path, referee: dict[str, object] | None, unseen: int, why: str
) -> None:
    # issue 10: synthetic scratch_hand (seven-ball, the 2, 5 and 7 left) had its first second
    # analysed frame by frame and a full detection every sixth frame, for balls pocketed before it
    import json

    class Four:
        def detect_frame(self, frame: Frame, motion: MotionState | None = None) -> Detections:
            dets = tuple(
                BallDetection(300.0 + 400 * k, 600, score=0.9, label_scores={BallId(b): 0.95})
                for k, b in enumerate(("cue", "2", "5", "7"))
            )
            return Detections(frame.index, frame.t_s, dets)

    path = None
    if referee is not None:
        path = tmp_path / "clip.referee.json"
        path.write_text(json.dumps(referee))
    seven = (BallId.CUE,) + tuple(BallId(str(k)) for k in range(1, 8))
    session = FrameAnalysis(
        table=POOL,
        game="seven-ball",
        balls=seven,
        detector=Four(),
        fps=25.0,
        out_dir=tmp_path,
        referee_path=None if path is None else str(path),
    )
    image = np.zeros((4, 4, 3), np.uint8)
    for i in range(8):
        session.feed(Frame(i, i / 25.0, image))
    assert session.motion.unseen == unseen, why
    assert session.motion.settled is (unseen == 0), why
    session.close()
