"""``analyze``: a video in; tracks, events, calls and an annotated video out.

The order of work, and why:
1. Everything the user typed is checked first (game, table, referee input, calibration file,
   the video itself), so a mistake costs nothing and says so in one line.
2. The camera comes from the calibration file, from four corners, or is solved from the video's
   first frames (the first frame where the table is found: a player may stand over it at first).
3. Frames are rectified onto the ball-centre plane, balls detected, identities kept; still frames
   are skipped while every ball rests (the tracker says so, :meth:`tracking.tracker.Tracker.motion`)
   and the image does not change (:mod:`tabletrack.still`). The detector is called only through
   :class:`vision.detect.Detector`, with the tracker's motion state.
4. Each time the table has settled after a shot (:class:`tracking.infer.EventStream`), that
   shot's events are written to ``events.jsonl``, judged, and the call written to ``calls.jsonl``
   — so an interrupted run keeps every finished shot (``tracks.csv`` is written as frames go).
5. Last, the annotated MP4 is drawn in a second pass from the final tracks and events.

Every output is written as ``NAME.partial`` while the run goes (streamed files line by line, whole
files through a temporary name) and all are renamed to their names when it has ended well
(:class:`tabletrack.outputs.RunOutputs`): a run that fails or is interrupted leaves the previous
run's outputs untouched and its own findings in the ``*.partial`` files.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from calibration.result import CalibrationError, check_compatible
from calibration.table import TableSpec, load_table
from common.atomic import write_text_atomic
from common.errors import TabletrackError
from rules import CallWriter, Game, JudgeConfig, engine_for, format_calls_table, load_game_input, parse_game
from rules.core.call import Call
from rules.core.judge import check_referee_shots, with_opening
from rules.core.opening import OpeningSight, opening_input
from rules.core.parsing import read_input_json
from rules.nine_ball.variants import VARIANTS
from tabletrack.annotate import BallTrack, CallOverlay, write_annotated_video
from tabletrack.outputs import RunOutputs
from tabletrack.progress import Progress
from tabletrack.still import StillGate
from tabletrack.tables import check_table_for_game, table_spots
from tabletrack.visibility import ClothModel, GapLog
from tracking.detections import in_play
from tracking.eventlog import EventLogWriter
from tracking.events import Event, Shot, group_shots
from tracking.identity import balls_for, detector_class
from tracking.ids import BallId
from tracking.infer import EventStream
from tracking.tracker import BallState, Tracker
from tracking.tracks_csv import TracksCsvWriter
from vision.classical import ClassicalDetector
from vision.detect import Detector, RectifiedDetector
from vision.rectify import Rectifier
from vision.source import MIN_CLIP_FRAMES, MIN_CLIP_S, VideoFile, VideoSourceError, check_clip


@dataclass(frozen=True)
class AnalyzeOptions:
    game: str = "three-cushion"
    table: TableSpec | str = "carom"
    calibration: str | None = None
    corners: str | None = None
    referee_input: str | None = None
    out_dir: Path = Path("out")
    annotated_video: bool = True
    progress: bool = True
    px_per_mm: float = 0.5
    skip_still: bool = True
    calibration_tries: int = 5
    camera_height_mm: float | None = None
    flip: bool = False
    detector: str = "auto"
    yolo_key_every: int = 6


DETECTORS = ("auto", "yolo", "classical")


@dataclass(frozen=True)
class AnalyzeStats:
    frames: int
    frames_analysed: int
    analysis_s: float
    calibration_s: float
    annotate_s: float
    video_fps: float
    moving_frames: int = 0
    moving_s: float = 0.0
    resting_frames: int = 0
    resting_s: float = 0.0

    @property
    def moving_fps(self) -> float:
        """Frames per second (decode included) while some ball moves."""
        return self.moving_frames / self.moving_s if self.moving_s > 0 else float("nan")

    @property
    def resting_fps(self) -> float:
        """Frames per second (decode included) while every ball rests."""
        return self.resting_frames / self.resting_s if self.resting_s > 0 else float("nan")


@dataclass(frozen=True)
class AnalyzeResult:
    out_dir: Path
    events: tuple[Event, ...]
    calls: tuple[Call, ...]
    camera: CameraModel
    stats: AnalyzeStats
    summary: str
    tracks: tuple[BallTrack, ...] = field(default=())


#: The object balls of the rotation games with a short rack (the rest use all fifteen).
def _balls_for(table: TableSpec, game: Game) -> tuple[BallId, ...]:
    """The balls to track: the game's ball set (nine-ball: the cue ball and 1-9, ...); the game's
    family must be played on the table's kind."""
    check_table_for_game(table, game)
    variant = VARIANTS.get(game)  # the nine-ball family's racks (rules/nine_ball/variants.py)
    return (BallId.CUE, *variant.balls) if variant is not None else balls_for(table.kind)


def make_detector(
    table: TableSpec, rect: Rectifier, choice: str, first_frame: np.ndarray, key_every: int = 6
) -> Detector:
    """The detector ``choice`` (auto, yolo, classical) for ``table``: ``auto`` is the classical
    detector on carom tables (its colour model knows the three carom balls; measured 0.58 mm median
    on the sample clips) and the trained YOLO model (models/) on pool and snooker tables, whose
    numbered and coloured balls only the model tells apart. The model runs whole on every
    ``key_every``-th frame and wherever the last frames do not predict the balls; in between its
    classifier follows them (:mod:`vision.guided`); ``key_every=1``: whole on every frame. A camera
    more than :data:`vision.frame_yolo.OBLIQUE_DEG` off the vertical gets the model on its own
    image instead (:mod:`vision.frame_yolo`). Whichever it is, the pipeline calls only the
    :class:`vision.detect.Detector` protocol on it."""
    if choice not in DETECTORS:
        raise TabletrackError(f"--detector: expected one of {', '.join(DETECTORS)}, got {choice!r}")
    use_yolo = choice == "yolo" or (choice == "auto" and table.kind != "carom")
    if not use_yolo:
        if table.kind != "carom":
            raise TabletrackError(
                f"the classical detector knows the carom balls only, but the table is {table.kind}: "
                "use --detector yolo (or auto)"
            )
        det = ClassicalDetector(rect.geometry, table.ball_radius_mm, rectifier=rect)
        det.set_background(rect(first_frame))
        return det
    from vision.frame_yolo import FrameYoloDetector, oblique
    from vision.guided import GuidedConfig, GuidedDetector
    from vision.yolo import YoloDetector

    yolo = YoloDetector(rect.geometry, table.ball_radius_mm, game=table.kind)
    if oblique(rect.camera, table):
        # a camera low over the table smears each ball on the rectified plane: find the balls
        # in its own image (vision.frame_yolo), the whole model on every frame
        return FrameYoloDetector(yolo, rect.camera, table)
    return RectifiedDetector(GuidedDetector(yolo, GuidedConfig(key_every=key_every)), rect)


def obtain_camera(src: VideoFile, table: TableSpec, opts: AnalyzeOptions) -> tuple[CameraModel, int]:
    """The camera from a file, from corners, or solved from one of the first frames; and the
    index of the frame it was solved on (0 for a file or corners: no frame was looked at)."""
    w, h = src.info.width_px, src.info.height_px
    from calibration.result import CalibrationHints

    hints = CalibrationHints(flip=opts.flip, camera_height_mm=opts.camera_height_mm)
    if opts.calibration:
        cam = CameraModel.load(opts.calibration)
        check_compatible(cam, table, w, h)
        return cam, 0
    if opts.corners:
        from calibration.manual import calibrate_manual, parse_corners

        return calibrate_manual(parse_corners(opts.corners), table, w, h, hints=hints).camera, 0
    from calibration.auto import calibrate_frame

    first_error: CalibrationError | None = None
    tries = 0
    step = max(1, int(src.info.fps))  # one try a second over the first seconds
    for fr in src.frames(decode=lambda i: i % step == 0):
        if fr.image is None:
            continue
        try:
            return calibrate_frame(fr.image, table, hints=hints).camera, fr.index
        except CalibrationError as e:
            first_error = first_error or e
        tries += 1
        if tries >= opts.calibration_tries:
            break
    raise CalibrationError(
        f"{src.info.path}: {first_error}" if first_error else f"{src.info.path}: no frame to calibrate from"
    )


class _Judge:
    """Judges each finished shot as it comes and writes its call."""

    def __init__(
        self,
        game: str,
        referee_path: str | None,
        fps: float,
        calls_path: Path,
        table: TableSpec | None = None,
        sheet_path: Path | None = None,
        gaps: GapLog | None = None,
    ) -> None:
        g = parse_game(game)
        self.game = g
        self.raw_ref = read_input_json(referee_path) if referee_path else None
        self.ref_name = Path(referee_path).name if referee_path else "referee input"
        self.ref = load_game_input(referee_path, g) if referee_path else None
        self.opening = table_spots(table) if table is not None else None
        self.engine = engine_for(g, JudgeConfig(frame_period_s=1.0 / fps), self.opening)
        self.state: Any = None
        self.sight: OpeningSight | None = None
        self.writer = CallWriter(calls_path)
        self.sheet_path = sheet_path or calls_path.with_name("score_sheet.json")
        self.gaps = gaps or GapLog()
        self.calls: list[Call] = []
        self._call_frames: dict[int, int] = {}

    def _begin(self, shot: Shot) -> None:
        """The state the first shot starts from: the referee's, or a new game whose first shot is
        a break only where its start shows the break position (:mod:`rules.core.opening`)."""
        raw, self.sight = opening_input(self.raw_ref, self.game, shot.start, self.opening)
        if self.sight is not None:
            self.ref = self.engine.parse_input(raw, self.ref_name)
        self.state = self.engine.initial_state(self.ref.setup if self.ref else None)

    def judge(self, shot: Shot) -> Call:
        first = self.state is None
        if first:
            self._begin(shot)
        shot_input = self.ref.for_shot(shot.number) if self.ref else None
        call, self.state = self.engine.judge_shot(self.state, shot, shot_input)
        if first and self.sight is not None:
            call = with_opening(call, self.sight)
        call = _flag_gaps(call, shot, self.gaps)
        self.writer.write(call)
        self.calls.append(call)
        write_text_atomic(
            self.sheet_path, json.dumps(self.engine.score_sheet(self.state), ensure_ascii=False, indent=1) + "\n"
        )
        end = shot.end
        self._call_frames[shot.number] = end.frame if end else shot.events[-1].frame
        return call

    def check_shots(self) -> None:
        """Refuse, as ``judge`` does, referee input for a shot the video never had (a numbering
        mistake must not be silently dropped); the run's outputs then stay ``*.partial``."""
        if self.ref is not None:
            check_referee_shots(self.ref, [c.shot for c in self.calls], "the video (its outputs are left as *.partial)")

    def overlays(self) -> list[CallOverlay]:
        return [CallOverlay(c.shot, self._call_frames.get(c.shot, 0), _call_text(c), c.points > 0) for c in self.calls]

    def close(self) -> None:
        self.writer.close()


#: how far before a shot's start or after its end a gap still touches it: the stroke itself (cue
#: ball accelerating) is seen a few frames before the fitted start
GAP_MARGIN_S = 0.5


def _flag_gaps(call: Call, shot: Shot, gaps: GapLog) -> Call:
    """``call`` marked for review when the table was not seen during its shot (or within
    :data:`GAP_MARGIN_S` of it): what happened in the gap is unknown, so the call is not certain."""
    if not shot.events:
        return call
    touching = gaps.touching(shot.events[0].t_s, max(e.t_s for e in shot.events), GAP_MARGIN_S)
    if not touching:
        return call
    why = "; ".join(g.describe() for g in touching)
    reason = f"{call.review_reason}; {why}" if call.review_reason else why
    return replace(call, needs_review=True, review_reason=reason)


def _call_text(c: Call) -> str:
    if c.summary:
        text = c.summary
    elif c.foul:
        text = f"FOUL ({c.foul.value.replace('_', ' ')})"
    elif c.points > 0:
        text = f"POINT {c.carom_case}" if c.carom_case else "POINT"
    else:
        text = "MISS"
    return text + ("  - needs review" if c.needs_review else "")


def referee_input_for(video: Path, given: str | None) -> str | None:
    """The referee input to use: the one given, else ``<video>.referee.json`` beside the video
    (a clip that starts mid-game carries its starting state there), else none."""
    if given:
        return given
    beside = Path(video).with_name(Path(video).stem + ".referee.json")
    return str(beside) if beside.is_file() else None


def analyze_video(video: Path, opts: AnalyzeOptions) -> AnalyzeResult:
    table = opts.table if isinstance(opts.table, TableSpec) else load_table(opts.table)
    game = parse_game(opts.game)
    balls = _balls_for(table, game)
    referee_path = referee_input_for(video, opts.referee_input)
    if referee_path:
        load_game_input(referee_path, game)
    t0 = time.perf_counter()
    src = VideoFile(video)
    try:
        check_clip(src.info, MIN_CLIP_S)
        camera, calib_frame = obtain_camera(src, table, opts)
    finally:
        src.close()
    # the cloth's colour from several frames where the table is seen, never from the first alone
    cloth = ClothModel.from_video(video, camera, table, calib_frame)
    t_cal = time.perf_counter() - t0
    out = Path(opts.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    outputs = RunOutputs(out)
    camera.save(outputs.path("calibration.json"))

    src = VideoFile(video)
    fps = src.info.fps
    rect = Rectifier(camera, table, opts.px_per_mm)
    detector = make_detector(table, rect, opts.detector, cloth.background_bgr, opts.yolo_key_every)
    gaps = GapLog()
    tracker = Tracker(balls, table)
    classes = frozenset(detector_class(b) for b in balls)
    stream = EventStream(table)
    gate = StillGate()
    judge = _Judge(
        opts.game, referee_path, fps, outputs.path("calls.jsonl"), table, outputs.path("score_sheet.json"), gaps
    )
    all_events: list[Event] = []
    samples: dict[BallId, list[tuple[int, float, float, bool]]] = {b: [] for b in balls}
    progress = Progress(src.info.frame_count, "analyzing", enabled=opts.progress)
    analysed = 0
    # per kind of frame ("rest", "moving"): frames counted and seconds spent
    timing_frames: dict[str, int] = {"rest": 0, "moving": 0}
    timing_s: dict[str, float] = {"rest": 0.0, "moving": 0.0}
    t1 = time.perf_counter()
    with (
        EventLogWriter(outputs.path("events.jsonl")) as ev_writer,
        TracksCsvWriter(outputs.path("tracks.csv")) as tracks,
    ):

        def emit(evs: list[Event]) -> None:
            for e in evs:
                ev_writer.write(e)
            all_events.extend(evs)
            for shot in group_shots(evs):
                judge.judge(shot)

        try:
            frame_states: list[BallState] = []
            clock = time.perf_counter()
            kind_prev = None
            # While every ball rests, frames at high frame rates are decoded only every other one
            # (grab without the colour conversion is ~2.5x cheaper); a stroke is then seen at most
            # one frame late, and its start is fitted from the motion anyway.
            rest_stride = 2 if fps >= 50 else 1
            # whether every ball rests is the tracker's to say (Tracker.motion): still within
            # 1.5 mm between a ball's last two samples; a ball unseen for a second of frames has
            # left the table and does not count
            still_mm, gone_frames = 1.5, max(2, int(fps))
            motion = tracker.motion(still_mm=still_mm, gone_frames=gone_frames)

            def want(i: int) -> bool:  # read by the source before it decodes frame i
                return not (opts.skip_still and motion.resting and i % rest_stride)

            for fr in src.frames(decode=want):
                motion = tracker.motion(fr.t_s, still_mm=still_mm, gone_frames=gone_frames)
                at_rest = motion.resting
                now = time.perf_counter()
                if kind_prev is not None:  # this frame's decode is counted with the previous frame
                    timing_frames[kind_prev] += 1
                    timing_s[kind_prev] += now - clock
                clock, kind_prev = now, ("rest" if at_rest else "moving")
                if fr.image is None:
                    progress.update(fr.index + 1)
                    continue
                if not cloth.visible(fr.image):
                    # the table is not seen (black, covered): no evidence about the balls; the
                    # frame is skipped whole and the gap marked, so it starts and ends no shot
                    gaps.unseen(fr.index, fr.t_s)
                    progress.update(fr.index + 1)
                    continue
                gaps.seen()
                if opts.skip_still and not gate.analyse(fr.image, fr.t_s, at_rest):
                    progress.update(fr.index + 1)
                    continue
                analysed += 1
                dets = detector.detect_frame(fr, motion)
                frame_states = tracker.update(fr.index, fr.t_s, [in_play(d, classes) for d in dets])
                for st in frame_states:
                    samples[st.ball].append((st.frame, st.x_mm, st.y_mm, st.observed))
                tracks.write_states(frame_states)
                emit(stream.add_states(frame_states))
                progress.update(fr.index + 1, f"{len(judge.calls)} shots judged")
            emit(stream.finish())
            judge.check_shots()
        finally:
            progress.close()
            judge.close()
    t_an = time.perf_counter() - t1
    frames = src.frames_read
    src.close()
    if frames < max(MIN_CLIP_FRAMES, MIN_CLIP_S * fps):
        raise VideoSourceError(
            f"{video}: only {frames} frames could be decoded ({frames / fps:.2f} s); a shot needs at least "
            f"{MIN_CLIP_S:g} s of video (the outputs are left as *.partial)"
        )
    track_list = tuple(
        BallTrack(
            b,
            np.array([s[0] for s in v], np.int64),
            np.array([s[1] for s in v]),
            np.array([s[2] for s in v]),
            np.array([s[3] for s in v], bool),
        )
        for b, v in samples.items()
    )
    t_ann = 0.0
    if opts.annotated_video:
        t2 = time.perf_counter()
        write_annotated_video(
            Path(video), outputs.path("annotated.mp4"), camera, table, track_list, all_events, judge.overlays()
        )
        t_ann = time.perf_counter() - t2
    outputs.commit()
    stats = AnalyzeStats(
        frames,
        analysed,
        t_an,
        t_cal,
        t_ann,
        fps,
        timing_frames["moving"],
        timing_s["moving"],
        timing_frames["rest"],
        timing_s["rest"],
    )
    summary = _summary(judge.calls, out, stats, camera)
    for gap in gaps.all():
        summary += f"\nwarning: {gap.describe()}; calls of shots touching it are marked for review"
    claimed = src.info.frame_count
    if frames < claimed - 1:
        summary += (
            f"\nwarning: the video ended after {frames} of the {claimed} frames its header announces "
            "(truncated file?); everything up to there was analyzed"
        )
    if referee_path and not opts.referee_input:
        summary += f"\nreferee input: {referee_path} (found beside the video)"
    return AnalyzeResult(out, tuple(all_events), tuple(judge.calls), camera, stats, summary, track_list)


def _summary(calls: list[Call], out: Path, stats: AnalyzeStats, camera: CameraModel) -> str:
    lines = [format_calls_table(calls) if calls else "no shot found in the video", ""]
    err = camera.reprojection_error_mm
    lines.append(f"calibration: {camera.method}" + (f", reprojection error {err:.2f} mm" if err is not None else ""))
    rate = stats.frames / stats.analysis_s if stats.analysis_s > 0 else float("nan")
    lines.append(
        f"frames: {stats.frames} ({stats.frames_analysed} analysed, the rest still), "
        f"{rate:.1f} frames/s = {rate / stats.video_fps:.2f}x real time "
        f"({stats.moving_fps:.0f} frames/s while balls move, {stats.resting_fps:.0f} while they rest)"
    )
    lines.append(
        f"written: {out / 'events.jsonl'}, {out / 'calls.jsonl'}, {out / 'tracks.csv'}"
        + (f", {out / 'annotated.mp4'}" if stats.annotate_s > 0 else "")
    )
    return "\n".join(lines)
