"""The live match: capture in, the analysis of ``analyze`` on its own thread, calls out.

Contract: :class:`LiveRunner` opens the source (:mod:`tabletrack.live.capture`), calibrates (the
file given, or automatically from the first frames, :func:`tabletrack.pipeline.camera_from_images`),
and drives :class:`tabletrack.session.FrameAnalysis`, the frame loop of ``analyze``, with the
detector and ball set ``analyze`` makes, so a live session and the analysis of its recording give
the same events and calls. Every event batch and call goes to the match database
(:mod:`tabletrack.live.store`) before it is published (``publish``: a JSON-ready dict; the server
sends it to the pages). A call carries its latency: from the capture of its shot's rest frame
(the ``shot_end`` frame) to its publication.

Referee actions (:meth:`referee_action`, :meth:`undo`) are the per-shot fields of the referee
input that ``judge`` reads: the game's engine checks them, they are stored, and a shot already
judged is re-judged from the whole log through :meth:`tabletrack.shot_judge.ShotJudge.rejudge`
(``judge``'s path); an action for the next shot applies when it is played.

Every ``check_every_s`` of source time the table's outline is checked against the calibration
(:mod:`tabletrack.live.camera_check`); once it has moved, calls are held with ``needs_review``
until :meth:`recalibrate` solves the camera again.

A resumed match (the same database) continues its shot numbers and its state: its events are
re-judged with its referee input before the first new frame.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec
from common.errors import TabletrackError
from rules import call_to_dict, parse_game
from rules.core.call import Call
from tabletrack.live.camera_check import CameraCheck
from tabletrack.live.capture import Capture, FrameQueue, SourceSpec
from tabletrack.live.store import MatchStore, RefereeAction
from tabletrack.pipeline import AnalyzeOptions, balls_for_game, camera_from_images, make_detector
from tabletrack.session import FrameAnalysis
from tabletrack.shot_judge import call_text
from tabletrack.still import BallWatch, table_region
from tabletrack.visibility import ClothModel, TableNotSeenError
from tracking.eventlog import event_to_dict
from tracking.events import Event, ShotEnd
from tracking.ids import BallId
from vision.rectify import Rectifier
from vision.source import Frame

__all__ = ["LiveOptions", "LiveRunner", "LiveStats", "RefereeActionError"]

Publish = Callable[[dict[str, Any]], None]

#: how often (source seconds) the open shot's call is computed while the balls rest and it is not shown
PEEK_EVERY_S = 0.1
#: once the open shot's provisional call is shown, only a ball faster than this (a new stroke, not
#: the last ball creeping to its stop at a few tens of mm/s) has the call computed again before the
#: settled one: each computation is 0.2-0.3 s of the analysis thread, and the two such repeats a
#: shot made were what overflowed the capture queue of a looped stream (drops in bursts of ~13)
REARM_MM_S = 150.0


class RefereeActionError(TabletrackError):
    """A referee action the game's rules or the match do not accept (one line)."""


@dataclass(frozen=True)
class LiveOptions:
    game: str
    table: TableSpec
    referee_input: str | None = None
    calibration: str | None = None
    corners: str | None = None
    flip: bool = False
    camera_height_mm: float | None = None
    detector: str = "auto"
    key_every: int = 6
    realtime: bool = True
    queue_frames: int = 24
    check_every_s: float = 5.0
    px_per_mm: float = 0.5
    stats_every_s: float = 0.5
    balls_every_s: float = 0.1
    loop: bool = False


@dataclass(frozen=True)
class LiveStats:
    """What the pages show of the machinery: frames read, dropped and analysed, the analysis rate
    against the source's, the latency of the last call and the median, memory, the source's and
    the camera's state."""

    frames_read: int
    frames_dropped: int
    frames_analysed: int
    queued: int
    source_fps: float
    analysis_fps: float
    latency_last_ms: float | None
    latency_median_ms: float | None
    #: from the rest to the settled (final) call, which follows the first shown by ``settle_s``
    latency_final_median_ms: float | None
    rss_mb: float
    source: str
    source_alive: bool
    source_ended: str | None
    camera_moved: bool
    camera_agreement: float | None
    calibration: str


def rss_mb() -> float:
    """This process's resident memory (MB), from /proc (Linux); NaN elsewhere."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return float("nan")


class LiveRunner:
    """See the module docstring."""

    def __init__(self, spec: SourceSpec, opts: LiveOptions, store: MatchStore, publish: Publish) -> None:
        self.spec = spec
        self.opts = opts
        self.store = store
        self.publish = publish
        self.game = parse_game(opts.game)
        self.balls: tuple[BallId, ...] = balls_for_game(opts.table, self.game)
        self.lock = threading.RLock()
        self.queue = FrameQueue(opts.queue_frames)
        self.session: FrameAnalysis | None = None
        self.capture = Capture(spec, self.queue, realtime=opts.realtime, wants=self._wants, loop=opts.loop)
        self.fps = self.capture.fps
        w, h = self.capture.width_px, self.capture.height_px
        aopts = AnalyzeOptions(
            game=opts.game,
            table=opts.table,
            calibration=opts.calibration,
            corners=opts.corners,
            flip=opts.flip,
            camera_height_mm=opts.camera_height_mm,
        )
        self.camera: CameraModel = camera_from_images([self.capture.first_image], w, h, spec.label, opts.table, aopts)
        self.camera_check = CameraCheck(self.camera, opts.table)
        self.camera_check.check(self.capture.first_image)
        self.camera_moved = False
        self.camera_agreement: float | None = None
        self._recalibrate = threading.Event()
        base = _read_base_input(opts.referee_input)
        self.session_number = store.begin_session(self.game.value, opts.table.name, base)
        self.out_dir = store.folder / f"session-{self.session_number}"
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.camera.save(self.out_dir / "calibration.json")
        previous = store.events()
        first_shot = max((e.shot for e in previous), default=0) + 1
        rect = Rectifier(self.camera, opts.table, opts.px_per_mm)
        detector = make_detector(opts.table, rect, opts.detector, self.capture.first_image, opts.key_every)
        self.session = FrameAnalysis(
            table=opts.table,
            game=opts.game,
            balls=self.balls,
            detector=detector,
            fps=self.fps,
            out_dir=self.out_dir,
            first_shot=first_shot,
            bounded=True,
            on_events=self._on_events,
            on_call=self._on_call,
            cloth=live_cloth(self.camera, opts.table, self.capture.first_image, self.fps),
            still_region=table_region(self.camera, opts.table),
            ball_watch=BallWatch(self.camera, opts.table),
        )
        raw = store.referee_input()
        if previous:
            calls = self.session.judge.rejudge(previous, raw)
            store.put_calls(calls, self.session.judge.score_sheet())
        elif raw:
            self.session.judge.set_input(raw)
        store.export()
        self._rest_frames: dict[int, int] = {}
        #: rest -> the first call shown for each shot (the provisional one, else the final)
        self._latencies: deque[float] = deque(maxlen=1000)
        self._final_latencies: deque[float] = deque(maxlen=1000)
        self._shown: set[int] = set()  # shots whose call is on the page (provisional or final)
        self._moved = False  # a ball moved since the last call shown: a provisional call may come
        #: the shot whose provisional call is on the page and whose settled call has not come yet
        self._shown_provisional: int | None = None
        self._next_peek_s = -math.inf
        self._analysed_times: deque[float] = deque(maxlen=240)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tabletrack-analysis", daemon=True)
        self._last_stats = 0.0
        self._last_balls = 0.0
        self._next_check_s = opts.check_every_s
        self.finished = threading.Event()

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        self.capture.start()
        self._thread.start()

    def stop(self) -> None:
        """Stop capture and analysis; the shot in progress is left unjudged (a restart resumes)."""
        self._stop.set()
        self.capture.stop()
        self._thread.join(timeout=10)
        with self.lock:
            if self.session is not None:
                self.session.close()

    def _wants(self, index: int) -> bool:
        s = self.session
        return True if s is None else s.wants(index)

    # -- the analysis thread --------------------------------------------------------------------
    def _run(self) -> None:
        assert self.session is not None
        session = self.session
        try:
            while not self._stop.is_set():
                item = self.queue.get(0.2)
                if item is None:
                    if not self.capture.alive and len(self.queue) == 0:
                        break
                    self._maybe_stats()
                    continue
                fr = item.frame
                with self.lock:
                    if self._recalibrate.is_set() and fr.image is not None:
                        self._do_recalibrate(fr.image)
                    analysed = session.feed(fr)
                    self._maybe_provisional(fr.index, fr.t_s, analysed)
                    if analysed:
                        self._analysed_times.append(time.monotonic())
                        self._protect_contacts()
                        self._maybe_balls()
                    if fr.image is not None and fr.t_s >= self._next_check_s:
                        self._next_check_s = fr.t_s + self.opts.check_every_s
                        self._check_camera(fr.image)
                self._maybe_stats()
            if not self._stop.is_set():  # the source ended: the shot in progress is closed, as analyze does
                with self.lock:
                    session.finish()
        except Exception as e:  # reported to the page; the match stays in the database
            self.capture.ended = f"analysis stopped: {type(e).__name__}: {e}"
            raise
        finally:
            with self.lock:
                session.close()
            self.finished.set()
            self.publish({"type": "stats", "stats": asdict(self.stats())})

    def _protect_contacts(self) -> None:
        """Keep the frames around a contact the tracker predicts (two balls closing within a few
        frames, or a ball reaching a cushion) out of the drop policy."""
        s = self.session
        assert s is not None
        m = s.motion
        if m.resting:
            return
        horizon_s = 4.0 / self.fps
        table = self.opts.table
        r = table.ball_radius_mm
        pos = np.array([[b.x_mm, b.y_mm] for b in m.balls if not b.gone]).reshape(-1, 2)
        vel = np.array([[b.vx_mm_s, b.vy_mm_s] for b in m.balls if not b.gone]).reshape(-1, 2)
        if not len(pos):
            return
        ahead = pos + vel * horizon_s
        reach = np.hypot(vel[:, 0], vel[:, 1]) * horizon_s
        near_cushion = (
            (np.minimum(ahead[:, 0], table.length_mm - ahead[:, 0]) < r + reach)
            | (np.minimum(ahead[:, 1], table.width_mm - ahead[:, 1]) < r + reach)
        ) & (reach > 1.0)
        d = np.hypot(*(ahead[:, None, :] - ahead[None, :, :]).transpose(2, 0, 1))
        moving = reach > 1.0
        close = (d < 2 * r + reach[:, None] + reach[None, :]) & (moving[:, None] | moving[None, :])
        np.fill_diagonal(close, False)
        if near_cushion.any() or close.any():
            self.capture.protect(m.t_s - 2.0 / self.fps, m.t_s + horizon_s + 2.0 / self.fps)

    def _check_camera(self, image: np.ndarray) -> None:
        res = self.camera_check.check(image)
        self.camera_agreement = res.agreement
        if res.moved and not self.camera_moved:
            self.camera_moved = True
            assert self.session is not None
            self.session.judge.hold_reason = (
                f"the camera moved (table outline agreement {res.agreement:.2f}, was {res.reference:.2f}): "
                "held until it is re-calibrated"
            )
            self.publish(
                {"type": "status", "message": "The camera moved: calls are held for review until it is re-calibrated."}
            )
            self.publish({"type": "stats", "stats": asdict(self.stats())})

    def _do_recalibrate(self, image: np.ndarray) -> None:
        """Solve the camera again from ``image`` (automatic calibration) and hand the detector the
        new view; calls are no longer held."""
        self._recalibrate.clear()
        from calibration.auto import calibrate_frame
        from calibration.result import CalibrationError, CalibrationHints

        assert self.session is not None
        hints = CalibrationHints(flip=self.opts.flip, camera_height_mm=self.opts.camera_height_mm)
        try:
            cam = calibrate_frame(image, self.opts.table, hints=hints).camera
        except CalibrationError as e:
            self.publish({"type": "status", "message": f"Re-calibration failed: {e}"})
            return
        self.camera = cam
        rect = Rectifier(cam, self.opts.table, self.opts.px_per_mm)
        self.session.detector = make_detector(self.opts.table, rect, self.opts.detector, image, self.opts.key_every)
        self.camera_check = CameraCheck(cam, self.opts.table)
        self.session.cloth = live_cloth(cam, self.opts.table, image, self.fps)
        self.session.gate.region = table_region(cam, self.opts.table)
        self.session.ball_watch = BallWatch(cam, self.opts.table)
        self.camera_agreement = self.camera_check.check(image).agreement
        self.camera_moved = False
        self.session.judge.hold_reason = None
        cam.save(self.out_dir / "calibration.json")
        self.publish({"type": "status", "message": "Re-calibrated: calls are no longer held."})
        self.publish({"type": "stats", "stats": asdict(self.stats())})

    def recalibrate(self) -> None:
        """Ask for a new calibration on the next frame (the analysis thread does it)."""
        self._recalibrate.set()

    # -- hooks of FrameAnalysis (the analysis thread) ---------------------------------------------
    def _on_events(self, evs: list[Event]) -> None:
        self.store.add_events(evs)
        for e in evs:
            if isinstance(e, ShotEnd):
                self._rest_frames[e.shot] = e.frame
        self.publish({"type": "events", "events": [event_to_dict(e) for e in evs]})

    def _maybe_provisional(self, frame: int, t_s: float, analysed: bool) -> None:
        """Show the open shot's call the moment every ball rests (:meth:`FrameAnalysis.provisional`),
        marked ``provisional``; the settled call follows ``settle_s`` later through ``on_call``
        and replaces it on the page (the same call unless a ball moved again). Only after a ball
        has moved; the rest test (:meth:`FrameAnalysis.at_rest`, cheap) on every frame, those
        skipped as still included (they come as the balls stop, and the next analysed frame may
        be a while later); the call (a fraction of a second of computation) at most
        every :data:`PEEK_EVERY_S` of source time."""
        assert self.session is not None
        # (not resting: the last two samples differ: a ball moves, or a resting one jitters)
        if (
            analysed
            and not self.session.motion.resting
            and (
                self._shown_provisional is None
                or self.session.tracker.top_speed_mm_s(self.session.gone_frames) > REARM_MM_S
            )
        ):
            self._moved = True
        if not self._moved or t_s < self._next_peek_s or not self.session.at_rest():
            return
        self._next_peek_s = t_s + PEEK_EVERY_S
        t_start = time.time()
        got = self.session.provisional()
        if got is None:
            return
        call, sheet, rest_frame = got
        self._moved = False
        if call.shot in self._shown:
            return
        self._shown.add(call.shot)
        self._shown_provisional = call.shot
        t_rest = self.capture.captured_at(rest_frame)
        latency = (time.time() - t_rest) * 1000.0 if t_rest is not None else None
        if latency is not None:
            self._latencies.append(latency)
        d = self._call_dict(call, latency)
        d["provisional"] = True
        t_at = self.capture.captured_at(frame)
        self.publish(
            {
                "type": "call",
                "call": d,
                "rest_wall_s": t_rest,
                "published_wall_s": time.time(),
                "sheet": sheet,
                # where the latency went: the frames until every ball had rested long enough
                # (rest_frame -> decided_frame), how far analysis trailed the capture of that frame,
                # the computation of the call
                "rest_frame": rest_frame,
                "decided_frame": frame,
                "analysis_behind_ms": (t_start - t_at) * 1000.0 if t_at is not None else None,
                "compute_ms": (time.time() - t_start) * 1000.0,
            }
        )

    def _on_call(self, call: Call) -> None:
        assert self.session is not None
        rest = self._rest_frames.get(call.shot)
        t_rest = self.capture.captured_at(rest) if rest is not None else None
        now = time.time()
        latency = (now - t_rest) * 1000.0 if t_rest is not None else None
        if latency is not None:
            self._final_latencies.append(latency)
            if call.shot not in self._shown:
                self._latencies.append(latency)
        self._shown.add(call.shot)
        self._moved = False
        self._shown_provisional = None
        self.store.put_calls([call], self.session.judge.score_sheet(), latency)
        self.publish(
            {
                "type": "call",
                "call": self._call_dict(call, latency),
                "rest_wall_s": t_rest,
                "published_wall_s": time.time(),
                "sheet": self.session.judge.score_sheet(),
                "rest_frame": rest,
            }
        )

    def _call_dict(self, call: Call, latency_ms: float | None) -> dict[str, Any]:
        d = call_to_dict(call)
        d["text"] = call_text(call)
        d["latency_ms"] = latency_ms
        return d

    def _maybe_balls(self) -> None:
        now = time.monotonic()
        if now - self._last_balls < self.opts.balls_every_s:
            return
        self._last_balls = now
        s = self.session
        assert s is not None
        m = s.motion
        self.publish({"type": "balls", "t": round(m.t_s, 3), "resting": m.resting, "balls": self.balls_now()})

    def balls_now(self) -> dict[str, list[float]]:
        """Where the tracker has each ball on the table now (mm)."""
        s = self.session
        if s is None:
            return {}
        return {b.ball.value: [round(b.x_mm, 1), round(b.y_mm, 1)] for b in s.motion.balls if not b.gone}

    def _maybe_stats(self) -> None:
        now = time.monotonic()
        if now - self._last_stats < self.opts.stats_every_s:
            return
        self._last_stats = now
        self.publish({"type": "stats", "stats": asdict(self.stats())})

    # -- what the server asks -------------------------------------------------------------------
    def stats(self) -> LiveStats:
        c = self.capture.stats()
        ts = list(self._analysed_times)
        rate = (len(ts) - 1) / (ts[-1] - ts[0]) if len(ts) > 2 and ts[-1] > ts[0] else 0.0
        lat = list(self._latencies)
        s = self.session
        return LiveStats(
            frames_read=c.frames_read,
            frames_dropped=c.frames_dropped,
            frames_analysed=s.analysed if s else 0,
            queued=c.queued,
            source_fps=c.source_fps,
            analysis_fps=round(rate, 1),
            latency_last_ms=round(lat[-1], 1) if lat else None,
            latency_median_ms=round(float(np.median(lat)), 1) if lat else None,
            latency_final_median_ms=(
                round(float(np.median(self._final_latencies)), 1) if self._final_latencies else None
            ),
            rss_mb=round(rss_mb(), 1),
            source=self.spec.label,
            source_alive=c.alive,
            source_ended=c.ended,
            camera_moved=self.camera_moved,
            camera_agreement=None if self.camera_agreement is None else round(self.camera_agreement, 3),
            calibration=self.camera.method,
        )

    def next_shot(self) -> int:
        return max((e.shot for e in self.store.events()), default=0) + 1

    def referee_action(self, shot: int | None, fields: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply one referee action (see the module docstring); returns the calls re-judged (empty
        when it is for the next shot). :class:`RefereeActionError` (one line) changes nothing."""
        if not isinstance(fields, Mapping) or not fields:
            raise RefereeActionError("expected 'fields': an object of referee-input fields for one shot")
        with self.lock:
            nxt = self.next_shot()
            n = nxt if shot is None else shot
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= nxt:
                raise RefereeActionError(f"'shot': expected a shot number from 1 to {nxt} (the next one), got {shot!r}")
            trial = RefereeAction(0, time.time(), n, dict(fields))
            raw = self.store.referee_input([trial])
            calls = self._apply(raw, rejudge=n < nxt)
            self.store.add_action(n, fields)
        self._publish_state(calls)
        return calls

    def undo(self) -> list[dict[str, Any]]:
        """Undo the last referee action not undone; :class:`RefereeActionError` when none."""
        with self.lock:
            last = next((a for a in reversed(self.store.actions()) if not a.undone), None)
            if last is None:
                raise RefereeActionError("there is no referee action to undo")
            self.store.set_undone(last.id, True)
            try:
                calls = self._apply(self.store.referee_input(), rejudge=last.shot < self.next_shot())
            except RefereeActionError:
                self.store.set_undone(last.id, False)
                raise
        self._publish_state(calls)
        return calls

    def _apply(self, raw: dict[str, Any], rejudge: bool) -> list[dict[str, Any]]:
        assert self.session is not None
        judge = self.session.judge
        try:
            if not rejudge:
                judge.set_input(raw)
                return []
            calls = judge.rejudge(self.store.events(), raw)
        except (TabletrackError, ValueError) as e:
            raise RefereeActionError(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__) from None
        self.store.put_calls(calls, judge.score_sheet())
        return [self._call_dict(c, None) for c in calls]

    def _publish_state(self, calls: list[dict[str, Any]]) -> None:
        if calls:
            self.publish({"type": "calls", "calls": self.store.calls(), "sheet": self.store.sheet()})
        self.publish({"type": "actions", "actions": [asdict(a) for a in self.store.actions()]})

    def state(self) -> dict[str, Any]:
        """Everything a page needs at once: the match, the score, the calls, the machinery."""
        calls = self.store.calls()
        players = [c["player"] for c in calls]
        sheet = self.store.sheet()
        return {
            "game": self.game.value,
            "table": {
                "name": self.opts.table.name,
                "length_mm": self.opts.table.length_mm,
                "width_mm": self.opts.table.width_mm,
                "ball_diameter_mm": self.opts.table.ball_diameter_mm,
                "pockets": _pockets(self.opts.table),
            },
            "players": _players(self.store.referee_input(), calls, players),
            "sheet": sheet,
            "calls": calls,
            "last_call": calls[-1] if calls else None,
            "next_shot": self.next_shot(),
            "balls": self.balls_now(),
            "actions": [asdict(a) for a in self.store.actions()],
            "stats": asdict(self.stats()),
            "session": self.session_number,
        }


def live_cloth(camera: CameraModel, table: TableSpec, image: np.ndarray, fps: float) -> ClothModel | None:
    """The cloth model of a live session: from the frame the camera was solved on (or, with a
    calibration file, the first frame), as a live source has no later frames to take a median
    of; None when that frame is dark (a lens cap at start: no table-not-seen gaps then). With it,
    frames where the table is not seen (black, covered) are gaps, and a call whose shot touches
    one is marked for review, as in ``analyze`` (:mod:`tabletrack.visibility`)."""
    h, w = image.shape[:2]
    try:
        return ClothModel.from_frames([Frame(0, 0.0, image)], camera, table, (w, h), 0, fps)
    except TableNotSeenError:
        return None


def _players(raw: Mapping[str, Any], calls: list[dict[str, Any]], seen: list[str]) -> list[str]:
    given = raw.get("players")
    if isinstance(given, list) and given:
        return [str(p) for p in given]
    names: list[str] = []
    for c in calls:
        for p in c.get("score") or {}:
            if p not in names:
                names.append(p)
    return names or list(dict.fromkeys(seen))


def _pockets(table: TableSpec) -> list[dict[str, Any]]:
    return [{"name": p.name, "centre_mm": [float(v) for v in p.centre_mm]} for p in table.pockets]


def _read_base_input(path: str | None) -> dict[str, Any] | None:
    if not path:
        return None
    from rules.core.parsing import read_input_json

    obj = read_input_json(path)
    if not isinstance(obj, dict):
        raise TabletrackError(
            f"{Path(path).name}: expected a JSON object (the referee input), got {type(obj).__name__}"
        )
    return obj


def finite_or_none(v: float | None) -> float | None:
    return None if v is None or not math.isfinite(v) else v
