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
   Steps 3-4 are :class:`tabletrack.session.FrameAnalysis`, which ``live`` runs on a camera.
5. The annotated MP4 is drawn from the same decoded frames, in a thread beside the analysis
   (:class:`tabletrack.annotate.AnnotatedVideo`): each frame waits, shrunk, until the event
   stream's watermark says nothing found later can change its overlay (about a shot at most).

Threads (two cores): the decoder runs ahead in its own thread through a bounded queue
(:class:`tabletrack.overlap.Prefetch`, ``DECODE_AHEAD`` frames), the main thread analyses, and the
annotated video is resized, drawn and encoded in a third; OpenCV and ONNX Runtime release the GIL,
so they share both cores. Every frame is decoded to colour once (the annotated video needs each);
which frames are analysed is decided exactly as before (:meth:`FrameAnalysis.wants`), so the
outputs do not depend on the threads.

Speed as the user sees it (:class:`AnalyzeStats`, the summary's ``speed`` line): the whole command's
wall time (from the process's start when the CLI gives it, ``AnalyzeOptions.started_at``) against
the clip's length, the analysis stage alone, and the decoder's own rate in this run (the time the
decoder thread spent inside OpenCV's read: decode-only, measured in the same run at no extra
cost).

Every output is written as ``NAME.partial`` while the run goes (streamed files line by line, whole
files through a temporary name) and all are renamed to their names when it has ended well
(:class:`tabletrack.outputs.RunOutputs`): a run that fails or is interrupted leaves the previous
run's outputs untouched and its own findings in the ``*.partial`` files. Before any of it, the clip
itself is checked (:func:`vision.source.check_clip`: no still image, nothing shorter than a shot),
and the cloth's colour is modelled from several frames (:mod:`tabletrack.visibility`): frames
where the table is not seen are gaps that start and end no shot.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from calibration.camera import CameraModel
from calibration.result import CalibrationError, check_compatible
from calibration.table import TableSpec, load_table
from common.errors import TabletrackError
from rules import Game, format_calls_table, parse_game
from rules.core.call import Call
from rules.nine_ball.variants import VARIANTS
from tabletrack.annotate import AnnotatedVideo, BallTrack
from tabletrack.outputs import RunOutputs
from tabletrack.overlap import Prefetch
from tabletrack.progress import Progress
from tabletrack.referee_file import load_referee_input
from tabletrack.session import FrameAnalysis
from tabletrack.still import BallWatch, table_region
from tabletrack.tables import check_table_for_game
from tabletrack.visibility import ClothModel
from tracking.events import Event
from tracking.identity import balls_for
from tracking.ids import BallId
from vision.classical import ClassicalConfig, ClassicalDetector
from vision.detect import Detector, RectifiedDetector
from vision.rectify import Rectifier
from vision.source import MIN_CLIP_FRAMES, MIN_CLIP_S, Frame, VideoFile, VideoInfo, VideoSourceError, check_clip


@dataclass(frozen=True)
class AnalyzeOptions:
    game: str = "three-cushion"
    #: whether ``game`` was chosen (``--game``) rather than left at the default: a referee input
    #: that fails as the default game's then names the games it is for (tabletrack.referee_file)
    game_given: bool = True
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
    #: the YOLO model's identity classifier (ONNX) in place of models/ball_classifier.onnx (None:
    #: the shipped one); for measuring a retrained classifier (bench/real.py --classifier)
    classifier: Path | None = None
    #: time.perf_counter() when the command started (the CLI: the process's start), for the whole
    #: command's wall time; None: when analyze_video was called
    started_at: float | None = None
    #: told the calls' table (:func:`calls_text`) as soon as the calls are final, before the
    #: annotated video's last frames are drawn (the CLI prints it then: a one-shot clip's whole
    #: video is drawn after the analysis, ~1 s the user need not wait for the call); the summary
    #: then leaves the table out. None: the table is in the summary
    on_calls: Callable[[str], None] | None = None


DETECTORS = ("auto", "yolo", "classical")
#: frames the decoder runs ahead of the analysis (1080p: 6 MB each)
DECODE_AHEAD = 4


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
    #: the whole command's wall time (start-up, calibration, analysis, the annotated video's end)
    wall_s: float = 0.0
    #: seconds the decoder spent decoding (inside OpenCV's read) in this run
    decode_s: float = 0.0

    @property
    def clip_s(self) -> float:
        return self.frames / self.video_fps if self.video_fps > 0 else float("nan")

    @property
    def decode_fps(self) -> float:
        """Decode-only rate of this run (frames to colour per second of the decoder's time)."""
        return self.frames / self.decode_s if self.decode_s > 0 else float("nan")

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


def balls_for_game(table: TableSpec, game: Game) -> tuple[BallId, ...]:
    """The balls to track: the game's ball set (nine-ball: the cue ball and 1-9, ...); the game's
    family must be played on the table's kind."""
    check_table_for_game(table, game)
    variant = VARIANTS.get(game)  # the nine-ball family's racks (rules/nine_ball/variants.py)
    return (BallId.CUE, *variant.balls) if variant is not None else balls_for(table.kind)


def make_detector(
    table: TableSpec,
    rect: Rectifier,
    choice: str,
    first_frame: np.ndarray,
    key_every: int = 6,
    classifier: Path | None = None,
) -> Detector:
    """The detector ``choice`` (auto, yolo, classical) for ``table``: ``auto`` is the classical
    detector on carom tables (its colour model knows the three carom balls; measured 0.58 mm median
    on the sample clips) and the trained YOLO model (models/) on pool and snooker tables, whose
    numbered and coloured balls only the model tells apart. The model runs whole on every
    ``key_every``-th frame and wherever the last frames do not predict the balls; in between its
    classifier follows them (:mod:`vision.guided`); the classical detector likewise passes the
    whole view at least every ``key_every``-th analysed frame and measures windows around the
    tracker's predictions in between (:meth:`ClassicalDetector.detect_frame`); ``key_every=1``:
    whole on every frame. A camera more than :data:`vision.frame_yolo.OBLIQUE_DEG` off the
    vertical gets the model on its own image instead (:mod:`vision.frame_yolo`). Whichever it is, the pipeline calls only the
    :class:`vision.detect.Detector` protocol on it. ``classifier``: the model's identity
    classifier (ONNX) in place of the shipped one, to measure a retrained one as users run it."""
    if choice not in DETECTORS:
        raise TabletrackError(f"--detector: expected one of {', '.join(DETECTORS)}, got {choice!r}")
    use_yolo = choice == "yolo" or (choice == "auto" and table.kind != "carom")
    if not use_yolo:
        if table.kind != "carom":
            raise TabletrackError(
                f"the classical detector knows the carom balls only, but the table is {table.kind}: "
                "use --detector yolo (or auto)"
            )
        # the whole view passed at least every key_every-th analysed frame, guided between
        # (ClassicalDetector.detect_frame); key_every=1: the whole view on every frame
        det = ClassicalDetector(
            rect.geometry, table.ball_radius_mm, config=ClassicalConfig(guided_every=key_every), rectifier=rect
        )
        det.set_background(rect(first_frame))
        return det
    from vision.frame_yolo import FrameYoloDetector, oblique
    from vision.guided import GuidedConfig, GuidedDetector
    from vision.yolo import YoloDetector

    # a crop unchanged since it was classified (a ball at rest) is answered from memory
    yolo = YoloDetector(
        rect.geometry, table.ball_radius_mm, game=table.kind, classifier_path=classifier, crop_memo=True
    )
    if oblique(rect.camera, table):
        # a camera low over the table smears each ball on the rectified plane: find the balls
        # in its own image (vision.frame_yolo), the whole model on every frame
        return FrameYoloDetector(yolo, rect.camera, table)
    return RectifiedDetector(GuidedDetector(yolo, GuidedConfig(key_every=key_every)), rect)


def import_in_background(module: str) -> None:
    """Start importing ``module`` on a daemon thread. Why: SciPy's optimizer takes ~0.5 s to
    import, a twentieth of a sample clip's whole run, and the calibration needs it only after it
    has found the table and measured its edges (OpenCV work that leaves Python free); an import
    that the main thread reaches first simply waits for this one (Python's module lock)."""

    def load() -> None:
        with contextlib.suppress(ImportError):  # the main thread's own import says what is missing
            importlib.import_module(module)

    threading.Thread(target=load, name=f"import {module}", daemon=True).start()


class OnePass:
    """One pass over a video's frames whose choice of frames to decode can change as it goes:
    ``analyze`` solves the camera on the first frames (one a second) and then takes the cloth
    model's frames (:meth:`ClothModel.wants`) from the same pass, so nothing is opened, sought or
    decoded twice. ``want(i)`` is asked for frame ``i`` just before it is read."""

    def __init__(self, src: VideoFile, want: Callable[[int], bool]) -> None:
        self.want = want
        self._frames = src.frames(decode=lambda i: self.want(i))

    def __iter__(self) -> Iterator[Frame]:
        return self._frames


class DecodedFrames:
    """The analysis pass's frames as the decoder thread makes them: every frame decoded (the
    annotated video draws each), and, on a frame decoded while the session last analysed every
    frame that changes (a ball moves; or the balls rest with one not seen and no place on the cloth
    that could hide it, so that there is no ball watch:
    :attr:`tabletrack.session.FrameAnalysis.analyses_changes`), or due as the still gate's heartbeat
    (:attr:`tabletrack.still.StillGate.heartbeat_due_s`), the detector's ``prepare`` of it
    (:class:`vision.detect.Detector`): that part of the detector's work then runs on the decoder's
    core rather than the analysing one (carom 1080p60: the remap and colour conversion of the
    coarse view, ~1.6 ms of ~4.5 a frame) — while the analysis has decoded frames waiting
    (``backlog``, the decoder's queue, above 0). When none waits, the analysis is waiting for the
    decoder, and a frame handed over unprepared is prepared by the detector on the analysing core
    instead: the work goes to whichever core is free (carom 1080p60 without the video: the
    decoder's decode and prepare ~2.9 s against the analysis's ~1.6 s; the analysis waited 0.7 s
    for frames; analysis 3.4-3.7 -> 2.9-3.2 s, four alternating runs). ``prepare`` is pure, so
    which frames carry its result changes the time, never the outputs; the session's flag is read,
    never written, from here. ``prepare_s``: the time spent in it (taken out of the decoder's
    decode-only time)."""

    def __init__(self, src: VideoFile, detector: Detector, session: FrameAnalysis) -> None:
        self.src = src
        self.prepare: Callable[[np.ndarray], object] | None = getattr(detector, "prepare", None)
        #: whether the detector will likely read the next frame's ``prepare`` result (the classical
        #: detector's guided frames read windows of the view only); None: always
        self.useful: Callable[[], bool] | None = getattr(detector, "prepare_useful", None)
        self.session = session
        self.prepare_s = 0.0
        #: frames decoded and not yet taken by the analysis (the decoder's queue); None: unknown
        self.backlog: Callable[[], int] | None = None

    def _analysed_likely(self, t_s: float) -> bool:
        """Whether a frame decoded now will likely be analysed: the session analyses every frame
        that changes, or the frame is the still gate's heartbeat (the whole table looked at
        every quarter second while the balls rest: a ball placed by hand)."""
        return self.session.analyses_changes or t_s >= self.session.gate.heartbeat_due_s

    def __call__(self) -> Iterator[Frame]:
        for fr in self.src.frames():
            if (
                self.prepare is not None
                and fr.image is not None
                and self._analysed_likely(fr.t_s)
                and (self.backlog is None or self.backlog() > 0)
                and (self.useful is None or self.useful())
            ):
                t0 = time.perf_counter()
                fr = replace(fr, prepared=self.prepare(fr.image))
                self.prepare_s += time.perf_counter() - t0
            yield fr


def obtain_camera(
    frames: OnePass, info: VideoInfo, table: TableSpec, opts: AnalyzeOptions
) -> tuple[CameraModel, Frame | None]:
    """The camera from a file, from corners, or solved from one of the first frames of ``frames``
    (one a second); and the frame it was solved on (None for a file or corners: no frame was
    looked at, and ``frames`` was not read)."""
    step = max(1, int(info.fps))  # one try a second over the first seconds
    frames.want = lambda i: i % step == 0
    last: list[Frame | None] = [None]  # the last frame handed over: the one solved on, when one is

    def images() -> Iterator[np.ndarray]:
        for fr in frames:
            if fr.image is not None:
                last[0] = fr
                yield fr.image

    cam = camera_from_images(images(), info.width_px, info.height_px, info.path, table, opts)
    return cam, last[0]


def camera_from_images(
    images: Iterable[np.ndarray], w: int, h: int, name: str, table: TableSpec, opts: AnalyzeOptions
) -> CameraModel:
    """The camera from ``opts.calibration`` (checked against the table and the ``w`` × ``h``
    image size), from ``opts.corners``, or solved from the first of ``images`` (at most
    ``opts.calibration_tries``) where the table is found; ``name`` names the source in errors.
    ``analyze`` hands it a video's frames, ``live`` its source's first frames."""
    from calibration.result import CalibrationHints

    hints = CalibrationHints(flip=opts.flip, camera_height_mm=opts.camera_height_mm)
    if opts.calibration:
        cam = CameraModel.load(opts.calibration)
        check_compatible(cam, table, w, h)
        return cam
    if opts.corners:
        from calibration.manual import calibrate_manual, parse_corners

        return calibrate_manual(parse_corners(opts.corners), table, w, h, hints=hints).camera
    from calibration.auto import calibrate_frame

    first_error: CalibrationError | None = None
    for tries, image in enumerate(images, start=1):
        try:
            return calibrate_frame(image, table, hints=hints).camera
        except CalibrationError as e:
            first_error = first_error or e
        if tries >= opts.calibration_tries:
            break
    raise CalibrationError(f"{name}: {first_error}" if first_error else f"{name}: no frame to calibrate from")


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
    balls = balls_for_game(table, game)
    referee_path = referee_input_for(video, opts.referee_input)
    if referee_path:
        load_referee_input(referee_path, game, opts.game_given)
    t0 = time.perf_counter()
    if not (opts.calibration or opts.corners):
        import_in_background("scipy.optimize")  # the solver's; loads while the table is sought
    src = VideoFile(video)
    try:
        check_clip(src.info, MIN_CLIP_S)
        info = src.info
        first_pass = OnePass(src, lambda i: False)
        camera, solved = obtain_camera(first_pass, info, table, opts)
        # the rectifier's maps (~80 ms of NumPy at 1080p) are made on a helper thread while the
        # cloth's frames are decoded here (OpenCV): both let go of the GIL for most of it
        rect_job = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rectifier")
        rect_future = rect_job.submit(Rectifier, camera, table, opts.px_per_mm)
        rect_job.shutdown(wait=False)
        # the cloth's colour from several frames where the table is seen, never from the first
        # alone: the frame solved on and the next ones of the same pass
        start = solved.index if solved is not None else 0
        first_pass.want = lambda i: ClothModel.wants(i, start, info.fps)
        cloth = ClothModel.from_frames(
            itertools.chain([solved] if solved is not None else [], first_pass),
            camera,
            table,
            (info.width_px, info.height_px),
            start,
            info.fps,
            name=str(video),
        )
        rect = rect_future.result()
    finally:
        src.close()
    t_cal = time.perf_counter() - t0
    out = Path(opts.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    outputs = RunOutputs(out)
    camera.save(outputs.path("calibration.json"))

    src = VideoFile(video)
    fps = src.info.fps
    # the detector's picture of the empty cloth: the first frame where it shows the table (as
    # live starts from its first frame, so both see the same), else the cloth model's median of
    # light frames (a black lead-in must not become the background)
    first = src.first_frame()
    background = first if cloth.visible(first) else cloth.background_bgr
    cloth = cloth.without_frames()
    detector = make_detector(table, rect, opts.detector, background, opts.yolo_key_every, opts.classifier)
    session = FrameAnalysis(
        table=table,
        game=opts.game,
        balls=balls,
        detector=detector,
        fps=fps,
        out_dir=out,
        referee_path=referee_path,
        skip_still=opts.skip_still,
        cloth=cloth,
        output_path=outputs.path,
        still_region=table_region(camera, table),
        ball_watch=BallWatch(camera, table),
    )
    progress = Progress(src.info.frame_count, "analyzing", enabled=opts.progress)
    annotated: AnnotatedVideo | None = None
    decoder: Prefetch[Frame] | None = None
    t1 = time.perf_counter()
    t_an = t_ann = 0.0
    try:
        if opts.annotated_video:
            annotated = AnnotatedVideo(
                outputs.path("annotated.mp4"), camera, table, fps, (src.info.width_px, src.info.height_px), balls
            )
        feed = DecodedFrames(src, detector, session)
        decoder = Prefetch(feed, maxsize=DECODE_AHEAD, name="decoder")
        feed.backlog = decoder.backlog
        fed = _Fed()
        for fr in decoder:
            session.feed(fr if session.wants(fr.index) else Frame(fr.index, fr.t_s, None))
            if annotated is not None:
                annotated.frame(fr.index, fr.image)  # type: ignore[arg-type]
                _tell(annotated, session, fed)
            progress.update(fr.index + 1, f"{len(session.calls)} shots judged")
        session.finish()
        session.judge.check_shots()
        t_an = time.perf_counter() - t1
        if opts.on_calls is not None:
            progress.close()  # the bar's line ended before the table is printed under it
            opts.on_calls(calls_text(session.calls))
        if annotated is not None:
            t2 = time.perf_counter()
            _tell(annotated, session, fed)
            annotated.close()
            t_ann = time.perf_counter() - t2
    except BaseException:
        if annotated is not None:
            annotated.abandon()
        raise
    finally:
        stopped = decoder.close() if decoder is not None else True
        progress.close()
        session.close()
        if stopped:  # never release the capture under a decoder still inside it
            src.close()
    frames = src.frames_read
    if frames < max(MIN_CLIP_FRAMES, MIN_CLIP_S * fps):
        raise VideoSourceError(
            f"{video}: only {frames} frames could be decoded ({frames / fps:.2f} s); a shot needs at least "
            f"{MIN_CLIP_S:g} s of video (the outputs are left as *.partial)"
        )
    outputs.commit()
    track_list = session.tracks()
    all_events = session.events
    calls = session.calls
    timing = session.timing()
    stats = AnalyzeStats(
        frames,
        session.analysed,
        t_an,
        t_cal,
        t_ann,
        fps,
        timing.moving_frames,
        timing.moving_s,
        timing.resting_frames,
        timing.resting_s,
        wall_s=time.perf_counter() - (opts.started_at if opts.started_at is not None else t0),
        decode_s=decoder.busy_s - feed.prepare_s if decoder is not None else 0.0,
    )
    summary = _summary(calls, out, stats, camera, table=opts.on_calls is None)
    for gap in session.gaps.all():
        summary += f"\nwarning: {gap.describe()}; calls of shots touching it are marked for review"
    claimed = src.info.frame_count
    if frames < claimed - 1:
        summary += (
            f"\nwarning: the video ended after {frames} of the {claimed} frames its header announces "
            "(truncated file?); everything up to there was analyzed"
        )
    if referee_path and not opts.referee_input:
        summary += f"\nreferee input: {referee_path} (found beside the video)"
    return AnalyzeResult(out, tuple(all_events), tuple(calls), camera, stats, summary, track_list)


@dataclass
class _Fed:
    """How much of the session the annotated video has been told of."""

    events: int = 0
    calls: int = 0
    final: int = -1


def _tell(annotated: AnnotatedVideo, session: FrameAnalysis, fed: _Fed) -> None:
    """Hand the annotated video what the last frame added: samples, events, calls, watermark."""
    annotated.samples(session.take_released())
    if len(session.events) > fed.events:
        annotated.events(session.events[fed.events :])
        fed.events = len(session.events)
    if len(session.calls) > fed.calls:
        annotated.calls(session.judge.overlays())
        fed.calls = len(session.calls)
    final = session.final_frame
    if final > fed.final:
        annotated.final(final)
        fed.final = final


def calls_text(calls: Sequence[Call]) -> str:
    """The calls' table as the summary opens with it (a line when no shot was found)."""
    return format_calls_table(list(calls)) if calls else "no shot found in the video"


def _summary(calls: list[Call], out: Path, stats: AnalyzeStats, camera: CameraModel, table: bool = True) -> str:
    """The run's summary: the calls' table (unless ``table`` is False: told already, see
    :attr:`AnalyzeOptions.on_calls`), the calibration, the frame rates, the speed, the outputs."""
    lines = [calls_text(calls), ""] if table else []
    err = camera.reprojection_error_mm
    lines.append(f"calibration: {camera.method}" + (f", reprojection error {err:.2f} mm" if err is not None else ""))
    rate = stats.frames / stats.analysis_s if stats.analysis_s > 0 else float("nan")
    lines.append(
        f"frames: {stats.frames} ({stats.frames_analysed} analysed, the rest still), "
        f"{rate:.1f} frames/s = {rate / stats.video_fps:.2f}x real time "
        f"({stats.moving_fps:.0f} frames/s while balls move, {stats.resting_fps:.0f} while they rest)"
    )
    whole = stats.clip_s / stats.wall_s if stats.wall_s > 0 else float("nan")
    an = stats.clip_s / stats.analysis_s if stats.analysis_s > 0 else float("nan")
    lines.append(
        f"speed: the whole command took {stats.wall_s:.1f} s for a {stats.clip_s:.1f} s clip = {whole:.2f}x real time "
        f"(analysis alone {stats.analysis_s:.1f} s = {an:.2f}x"
        + (f", the annotated video's last frames {stats.annotate_s:.1f} s after it" if stats.annotate_s > 0 else "")
        + f"); decoding alone ran at {stats.decode_fps:.0f} frames/s in this run, the analysis at "
        f"{rate / stats.decode_fps:.2f} of that ({stats.resting_fps / stats.decode_fps:.2f} while the balls rest)"
    )
    lines.append(
        f"written: {out / 'events.jsonl'}, {out / 'calls.jsonl'}, {out / 'tracks.csv'}"
        + (f", {out / 'annotated.mp4'}" if stats.annotate_s > 0 else "")
    )
    return "\n".join(lines)
