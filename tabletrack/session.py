"""One analysis of a stream of frames: frames in, in order; tracks, events and calls out as they
are found.

:class:`FrameAnalysis` is what ``analyze`` runs over a video file and what ``live`` runs over a
camera: the same detector, tracker, event stream and judge, fed one :class:`vision.source.Frame`
at a time, so both make the same events and calls from the same frames. It owns what the frame
loop needs to remember (the tracker's motion state, the still-frame gate, the per-ball samples
for the annotated video, the time spent per kind of frame) and writes ``tracks.csv``,
``events.jsonl`` and ``calls.jsonl`` as it goes: every finished shot is on disk before the next
frame is read.

A ball the tracker names only after it has been seen a few times in one place (a detection the
model confused with another ball's, :class:`tracking.tracker.TrackerConfig` ``confirm_sightings``)
is reported from its first sighting: while such a detection waits, the frames since its first
sighting (at most ``backfill_s``, 0.3 s) are held back from ``tracks.csv`` and the event stream,
and written with the ball's earlier samples once it is named, so both stay in time order.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.table import TableSpec
from rules.core.call import Call
from tabletrack.annotate import BallTrack
from tabletrack.blind import BlindLog
from tabletrack.shot_judge import ShotJudge
from tabletrack.still import BallWatch, StillGate
from tabletrack.visibility import ClothModel, GapLog
from tracking.detections import in_play
from tracking.eventlog import EventLogWriter
from tracking.events import Event, ShotStart, group_shots
from tracking.identity import detector_class
from tracking.ids import BallId
from tracking.infer import EventStream
from tracking.pockets import pocket_zones
from tracking.tracker import BallState, Tracker
from tracking.tracks_csv import TracksCsvWriter
from vision.detect import Detector
from vision.source import Frame

__all__ = ["FrameAnalysis", "FrameTiming"]

#: a ball still within this many mm between its last two samples, and over STILL_WINDOW_S, rests
#: (0.1 s: 0.2 s found the same rests on the samples, and a looped live stream fell further behind)
#: (Tracker.motion)
STILL_MM = 1.5
STILL_WINDOW_S = 0.1
#: while every ball moves slower than SLOW_MM_S (rolling out), frames at high frame rates are
#: analysed every other one, as at rest (5 mm between samples at 60 fps); slower than CRAWL_MM_S
#: (creeping to a stop), every fourth (4 mm between samples); only once the table has not rested
#: for SLOW_AFTER_S (a stroke's first frames are slow too, and its start is fitted from them)
SLOW_MM_S = 150.0
CRAWL_MM_S = 60.0
SLOW_AFTER_S = 0.5
#: a pool or snooker ball of the set not seen once over this long of the clip is taken to be off the
#: table for the still gate's watch (:meth:`FrameAnalysis._watch`): a broadcast starts mid-rack,
#: with the balls pocketed before it never to be seen; a ball hidden under a hand from the first
#: frame keeps the whole table watched this long (synthetic point_2c_hand: struck at 0.7 s)
ABSENT_AFTER_S = 2.0


@dataclass(frozen=True)
class FrameTiming:
    """Frames counted and seconds spent (decode included) per kind of frame."""

    moving_frames: int
    moving_s: float
    resting_frames: int
    resting_s: float


class FrameAnalysis:
    """See the module docstring. ``skip_still``: frames are skipped while every ball rests and the
    image does not change (:mod:`tabletrack.still`); ``first_shot``: the number of the first shot
    (live: a resumed match continues its numbering); ``bounded`` (live, for hours): memory stays
    bounded, no per-ball samples are kept for the annotated video (:meth:`tracks` is empty) and the
    tracker forgets all but its last samples; ``on_events`` / ``on_call`` are told of each
    event batch and each call as soon as they are written (the live server's hook)."""

    def __init__(
        self,
        *,
        table: TableSpec,
        game: str,
        balls: tuple[BallId, ...],
        detector: Detector,
        fps: float,
        out_dir: Path,
        referee_path: str | None = None,
        skip_still: bool = True,
        first_shot: int = 1,
        bounded: bool = False,
        on_events: Callable[[list[Event]], None] | None = None,
        on_call: Callable[[Call], None] | None = None,
        cloth: ClothModel | None = None,
        output_path: Callable[[str], Path] | None = None,
        still_region: np.ndarray | None = None,
        ball_watch: BallWatch | None = None,
    ) -> None:
        self.fps = fps
        self.skip_still = skip_still
        self.detector = detector
        self.table = table
        self.tracker = Tracker(balls, table)
        self.classes = frozenset(detector_class(b) for b in balls)
        self.stream = EventStream(table, first_shot=first_shot)
        self.gate = StillGate(region=still_region)
        #: while every ball rests, only image changes near a ball count (:class:`BallWatch`)
        self.ball_watch = ball_watch
        path = output_path or (lambda name: out_dir / name)
        #: frames where the table is not seen (:mod:`tabletrack.visibility`): skipped whole, so
        #: they start and end no shot; calls of shots touching them are marked for review
        self.cloth = cloth
        self.gaps = GapLog()
        #: balls that moved while unseen, the table in view (:mod:`tabletrack.blind`): calls of shots
        #: touching them are marked for review too
        self.blind = BlindLog(pocket_zones(table), min_mm=table.ball_diameter_mm)
        self.judge = ShotJudge(
            game, referee_path, fps, path("calls.jsonl"), table, path("score_sheet.json"), self.gaps, self.blind
        )
        self.events: list[Event] = []
        self.samples: dict[BallId, list[tuple[int, float, float, bool]]] = {b: [] for b in balls}
        self.analysed = 0
        #: samples written since the last :meth:`take_released`, (ball, frame, x_mm, y_mm, observed),
        #: in frame order: what the annotated video draws (not kept when ``bounded``)
        self._released: list[tuple[BallId, int, float, float, bool]] = []
        self.bounded = bounded
        self._on_events = on_events
        self._on_call = on_call
        # While every ball rests, or creeps to a stop (slower than SLOW_MM_S), frames at high
        # frame rates are decoded only every other one (grab without the colour conversion is
        # ~2.5x cheaper); a stroke is then seen at most one frame late, and its start is fitted
        # from the motion anyway. (Live: analysing every frame of a creeping end fell behind a
        # 1080p60 camera, and frames were dropped.)
        self.rest_stride = 2 if fps >= 50 else 1
        #: the stride while every ball moves slowly (1: every frame)
        self.slow_stride = 1
        self._t_rested = -float("inf")  # the last analysed frame at which the table rested
        # the last frame skipped because its image had not changed since the last analysed one
        self._t_unchanged = -float("inf")
        # a ball unseen for a second of frames has left the table and does not count for rest
        self.gone_frames = max(2, int(fps))
        self.motion = self.tracker.motion(still_mm=STILL_MM, gone_frames=self.gone_frames, window_s=STILL_WINDOW_S)
        self._frames = {"rest": 0, "moving": 0}
        self._secs = {"rest": 0.0, "moving": 0.0}
        self._clock = time.perf_counter()
        self._t_start: float | None = None  # the first frame's time
        self._fed = False  # a frame was fed: the time since then is its own
        #: whether every frame that changes is analysed now (a ball moves; or they rest, but with no
        #: ball watch: a ball hidden, not yet seen), not only those that change at a ball: read by
        #: the decoder's thread (tabletrack.pipeline.DecodedFrames) to prepare the frames it decodes
        self.analyses_changes = True
        self._events_writer = EventLogWriter(path("events.jsonl"))
        self._tracks_writer = TracksCsvWriter(path("tracks.csv"))
        #: analysed frames held back while a detection waits to be named: [frame, t_s, states]
        self._held: deque[tuple[int, float, list[BallState]]] = deque()
        self._closed = False

    def wants(self, index: int) -> bool:
        """Whether frame ``index`` needs decoding to colour (asked by the source before it decodes)."""
        if not self.skip_still:
            return True
        if self.motion.resting:
            return index % self.rest_stride == 0
        return index % self.slow_stride == 0

    def feed(self, fr: Frame) -> bool:
        """Analyse one frame (in order); True when it was analysed, False when skipped as still."""
        self.motion = self.tracker.motion(
            fr.t_s,
            still_mm=STILL_MM,
            gone_frames=self.gone_frames,
            window_s=STILL_WINDOW_S,
            on_table=self.judge.balls_on_table(),
        )
        # The time since the last frame was fed (its analysis, this frame's decode) is that frame's,
        # counted as resting or moving by what its analysis showed: the motion now, after it (a
        # skipped frame changes nothing). By the motion before it, the stroke's frame, whose full
        # detection finds the cue ball struck, was a resting frame (nine_break: 47 of the resting
        # frames' 160 ms), and the first frame found at rest a moving one.
        now = time.perf_counter()
        if self._fed:
            kind = "rest" if self.motion.resting else "moving"
            self._frames[kind] += 1
            self._secs[kind] += now - self._clock
        self._clock, self._fed = now, True
        if self._t_start is None:
            self._t_start = fr.t_s
        if fr.image is None:
            return False
        if self.cloth is not None:
            if not self.cloth.visible(fr.image):
                # the table is not seen (black, covered): no evidence about the balls
                self.gaps.unseen(fr.index, fr.t_s)
                return False
            self.gaps.seen()
        watch = self._watch(fr.image) if self.skip_still else None
        self.analyses_changes = watch is None
        near, hiding = watch if watch is not None else (None, None)
        wide_px = self.ball_watch.wide_px if self.ball_watch is not None else 1
        if self.skip_still and not (
            self.gate.analyse(fr.image, fr.t_s, self.motion.resting, near, hiding, wide_px) or self._naming(fr.t_s)
        ):
            self._t_unchanged = fr.t_s
            return False
        self.analysed += 1
        dets = self.detector.detect_frame(fr, self.motion)
        states = self.tracker.update(fr.index, fr.t_s, [in_play(d, self.classes) for d in dets])
        self.slow_stride = 1
        if self.motion.resting:
            self._t_rested = fr.t_s
        elif self.rest_stride > 1 and fr.t_s - self._t_rested > SLOW_AFTER_S:
            speed = self.tracker.top_speed_mm_s(self.gone_frames)
            self.slow_stride = 4 if speed <= CRAWL_MM_S else 2 if speed <= SLOW_MM_S else 1
        if self.bounded and self.analysed % 256 == 0:
            self.tracker.forget()
        self._hold(fr.index, fr.t_s, states)
        self._release(self.tracker.waiting_since())
        return True

    def _naming(self, t_s: float) -> bool:
        """Whether a detection waits to be named as a ball not yet seen and was first seen less
        than the tracker's ``backfill_s`` ago: then every frame is analysed, so that its
        sightings come on consecutive frames and it is named (and reported from its first
        sighting) within ``backfill_s``. With frames skipped as still it was named too late for
        that (real eight-ball broadcast, game2: a ball at rest from the first frame, seen on
        frames 0, 1 and 7 only, named on frame 8, 0.32 s after its first sighting, and reported
        from frame 7: missing on the labelled first frame). At most ``backfill_s`` per waiting
        detection, so a detection never named costs a few frames, not the clip."""
        since = self.tracker.waiting_since()
        return since is not None and t_s - since < self.tracker.config.backfill_s

    def _watch(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray | None] | None:
        """The still gate's masks: around the resting balls, and where a ball may hide (None when
        no ball of the set is unseen); None (every change on the table
        counts) without a :class:`BallWatch`, while a ball moves, and while a ball on the table
        was not seen on the last analysed frame. A ball of the set never seen — on a carom table
        ever (its three balls are always on it), on a pool or snooker table for the clip's first
        :data:`ABSENT_AFTER_S` (after that a ball never seen is one pocketed before the clip),
        but never a ball the game says is off the table (the referee input's start, the rules'
        state: :meth:`tabletrack.shot_judge.ShotJudge.balls_on_table`; synthetic scratch_hand,
        seven-ball with the 2, 5 and 7 left: its first second was analysed frame by frame) — may
        be hidden under a hand, struck there and come out where no resting ball's pixel is
        (synthetic point_2c_hand: the white under the bridge hand from the first frame; watched
        without it, the stroke was found 2 frames later): the places something on the cloth
        could hide it are watched too (:meth:`BallWatch.hiding_places`, from the cloth model; a
        change there counts when it is a ball wide: the cue sliding through the bridge hand is
        not), and without a cloth model or such a place every change counts."""
        if self.ball_watch is None or not self.motion.resting:
            return None
        on_table = [m for m in self.motion.balls if not m.gone]
        if not all(m.seen_last_frame for m in on_table):
            return None
        near = self.ball_watch.mask(np.array([(m.x_mm, m.y_mm) for m in on_table]))
        if self.motion.unseen > 0:
            early = self._t_start is None or self.motion.t_s - self._t_start < ABSENT_AFTER_S
            if self.table.kind == "carom" or early:
                # the balls seen are no hiding place: a ball unseen beside them only is one the
                # detector misses in the open, and then every change counts, as it did
                hiding = self.ball_watch.hiding_places(image, self.cloth, near) if self.cloth is not None else None
                return None if hiding is None else (near, hiding)
        return near, None

    def _hold(self, frame: int, t_s: float, states: list[BallState]) -> None:
        """Queue this frame's states, and put the earlier samples of balls named this frame into
        the held frames they were seen in."""
        late = self.tracker.take_backfill()
        if late:
            order = {b: k for k, b in enumerate(self.tracker.balls)}
            at = {f: st for f, _, st in self._held}
            for s in late:
                if s.frame in at:  # always, while backfill_s is within what is held
                    at[s.frame].append(s)
            for _, _, st in self._held:
                st.sort(key=lambda s: order[s.ball])
        self._held.append((frame, t_s, list(states)))

    def _release(self, hold_from_s: float | None, emit: bool = True) -> None:
        """Write and stream the held frames before ``hold_from_s`` (all when None)."""
        while self._held and (hold_from_s is None or self._held[0][1] < hold_from_s):
            _, _, states = self._held.popleft()
            if not self.bounded:
                for st in states:
                    self.samples[st.ball].append((st.frame, st.x_mm, st.y_mm, st.observed))
                self._released.extend((st.ball, st.frame, st.x_mm, st.y_mm, st.observed) for st in states)
            self._tracks_writer.write_states(states)
            self.blind.add(states)
            if emit:
                self._emit(self.stream.add_states(states))

    def take_released(self) -> list[tuple[BallId, int, float, float, bool]]:
        """The samples written since the last call, in frame order, and forget them. They are the
        tracks as written, so they include a ball's earlier sightings that were held back until it
        was named (``TrackerConfig.backfill_s``): drawn from the frame's own states, a ball named
        late appeared on the annotated video only from the frame that named it (real eight-ball
        broadcast: a 7 by a pocket, tracked from frame 1, drawn from frame 8)."""
        out, self._released = self._released, []
        return out

    def at_rest(self) -> bool:
        """Whether every ball has lain still as long as the shot segmenter needs to call a rest
        (:meth:`tracking.tracker.Tracker.still_for` with its ``rest_min_s`` and ``rest_tol_mm``;
        frames skipped because their image did not change count as still): the cheap test before
        :meth:`provisional`, worth asking on every frame."""
        seg = self.stream.config.segment
        now = self._t_unchanged if self._t_unchanged > -math.inf else None
        return self.tracker.still_for(seg.rest_min_s, seg.rest_tol_mm, self.gone_frames, now_s=now)

    def provisional(self) -> tuple[Call, dict[str, Any], int] | None:
        """The open shot's call as if the balls stay where they are: (call, score sheet after it,
        the shot's rest frame), or None when a ball still moves or no shot is open. Nothing is
        written or changed (:meth:`tracking.infer.EventStream.peek`, :meth:`ShotJudge.preview`);
        the shot's final call still comes through ``on_call`` once it is settled."""
        if not self.at_rest():
            return None
        # with the frames held back while a detection waits to be named, and the doubtful names
        # the settled call will carry (so that the two agree on what is in doubt)
        peeked = self.stream.peek(st for _, _, states in self._held for st in states)
        shots = group_shots([self._with_name_doubts(e) for e in peeked])
        if not shots:
            return None
        shot = shots[0]
        start, end = shot.start, shot.end
        if start is None or end is None or end.t_s - start.t_s < self.stream.config.segment.rest_min_s:
            return None  # no stroke seen yet: balls that merely settled after the first frames
        call, sheet = self.judge.preview(shot)
        end = shot.end
        return call, sheet, (end.frame if end else shot.events[-1].frame)

    def finish(self) -> None:
        """The end of the frames: the shot in progress is closed and judged."""
        self._release(None)
        self._emit(self.stream.finish())

    def close(self) -> None:
        """Close the output files (idempotent); what was written stays."""
        if self._closed:
            return
        self._closed = True
        try:
            self._release(None, emit=False)  # an interrupted analysis keeps every sample it made
            self.judge.close()
        finally:
            self._events_writer.close()
            self._tracks_writer.close()

    def _emit(self, evs: list[Event]) -> None:
        evs = [self._with_name_doubts(e) for e in evs]
        for e in evs:
            self._events_writer.write(e)
        self.events.extend(evs)
        if evs and self._on_events is not None:
            self._on_events(evs)
        for shot in group_shots(evs):
            call = self.judge.judge(shot)
            if self._on_call is not None:
                self._on_call(call)

    def _with_name_doubts(self, ev: Event) -> Event:
        """A shot start with the tracker's doubtful names (:meth:`tracking.tracker.Tracker.name_doubts`)
        of the balls it shows on the table, at rest (``positions``) or already under way when the
        recording began (``under_way``, ``under_way_at``: a clip cut in mid-shot, whose call rests
        on those balls as much): a call that names such a ball, or changes with it swapped for the
        ball it was read as, is one to review (:func:`rules.core.evidence.review_shot`). The
        tracker is asked when the shot's events are handed over, so its whole shot counts."""
        if not isinstance(ev, ShotStart):
            return ev
        shown = ev.on_table | {ev.cue_ball}
        doubts = {b: n for b, n in self.tracker.name_doubts().items() if b in shown}
        return replace(ev, name_doubts=doubts) if doubts else ev

    @property
    def calls(self) -> list[Call]:
        return self.judge.calls

    @property
    def final_frame(self) -> int:
        """Frames up to this one have every event, call and sample they will ever have (the event
        stream's watermark, :attr:`tracking.infer.EventStream.final_until_s`, in frames); -1 when
        none yet, a very large number once :meth:`finish` ran."""
        t = self.stream.final_until_s
        if not np.isfinite(t):
            return 2**62 if t > 0 else -1
        return max(-1, int(np.floor(t * self.fps)) - 1)

    def timing(self) -> FrameTiming:
        return FrameTiming(self._frames["moving"], self._secs["moving"], self._frames["rest"], self._secs["rest"])

    def tracks(self) -> tuple[BallTrack, ...]:
        """Every ball's samples so far, for the annotated video."""
        return tuple(
            BallTrack(
                b,
                np.array([s[0] for s in v], np.int64),
                np.array([s[1] for s in v]),
                np.array([s[2] for s in v]),
                np.array([s[3] for s in v], bool),
            )
            for b, v in self.samples.items()
        )
