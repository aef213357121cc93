"""The trained ball detector: YOLO finds the balls, a small classifier names them and places them.

Contract: :class:`YoloDetector` fills :class:`vision.detect.ViewDetector` (and, behind
:class:`vision.detect.RectifiedDetector`, the pipeline's :class:`vision.detect.Detector`) for one
game (``carom``, ``pool`` or ``snooker``): ``detect(rectified_bgr)`` -> one :class:`BallDetection`
per ball, with ``label`` the ball's name in that game (:data:`models.classes.GAME_LABELS`) as a
:class:`~tracking.ids.BallId` (snooker reds are all ``red``), ``label_scores`` the classifier's
belief over the game's labels, ``score`` the finder's confidence (or ``proposal_weight``) times
the classifier's belief that the crop holds a ball.

Two networks, run with ONNX Runtime (no torch at run time):

1. the ball finder (``models/ball_detector.onnx``, a YOLOv8 of one class) on the rectified view
   letterboxed into its fixed input (320x640 by default: a ball is 9-14 px there), decoded and
   NMS-filtered here;
2. for each box, a crop of the *full-resolution* view around it, scaled so the ball spans 30 of
   40 px (:func:`vision.yolo_geometry.ball_crop`), through the classifier
   (``models/ball_classifier.onnx``): identity logits (other games masked out) and the offset of
   the ball's centre from the crop's centre. The centre is refined by that offset, so positions
   are good to a fraction of a full-resolution pixel though the finder saw the table at less than
   half that scale; it is re-cropped until it moves less
   than ``converged_r`` radii, so it ends at the regression's fixed point whatever it started
   from (a box, a proposal, a prediction of :mod:`vision.guided`). A crop the classifier is
   unsure of (its likeliest label under ``turn_below``) is read again turned a quarter, a half
   and three quarters (``turns`` views in all), and its identity logits are their mean (the
   centre stays the unturned crop's): a ball looks the same whichever way it is turned, and the
   mean of the four reads is steadier on a ball set the classifier never saw (real eight-ball
   clips, each left out of the training in turn: the kind right on 77 -> 81 of 88 labelled
   balls; crops of the left-out clip, kind right 0.67 -> 0.74 on the oblique broadcast);
3. where the finder saw nothing, proposals from the cloth (:mod:`vision.proposals`: discs of the
   ball's size that differ from the cloth, a grid over a rack of touching balls) go through the
   same classifier, which rejects what is no ball (its ``none`` class, trained on such proposals)
   and pulls the rest onto their balls; a proposal's score is the classifier's belief times
   ``proposal_weight``. The finder at ~9 px a ball misses dark balls on dark cloth and most of a
   packed rack; the proposals find them at the full view's scale. One detection is kept per ball
   (the best of those whose refined centres lie within a radius).

Why two stages: the finder at this scale tells a ball from the cloth easily, but sixteen pool
balls apart badly (measured: mAP50 0.32 over 4 classes after 40 epochs from scratch); a crop at
full resolution shows stripes and colours plainly, and a classifier on it is small and fast.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import cv2
import numpy as np

from calibration._vec import floats4
from common.cores import usable_cores
from common.errors import TabletrackError
from tracking.detections import BallDetection, ball_label, ball_scores
from tracking.ids import BallId
from vision.crop_memo import CropMemo
from vision.proposals import ball_proposals, lab_difference, playing_region
from vision.rectify import LazyView, RectifiedGeometry
from vision.streaks import ball_streaks
from vision.yolo_geometry import CROP_BALL_PX, letterbox, view_crop

if TYPE_CHECKING:
    import onnxruntime as ort

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_DETECTOR = MODELS_DIR / "ball_detector.onnx"
DEFAULT_CLASSIFIER = MODELS_DIR / "ball_classifier.onnx"
NONE_CLASS = "none"


class YoloModelError(TabletrackError):
    """A model file that is missing or does not have the expected inputs, outputs or metadata."""


def onnxruntime_quiet() -> ModuleType:
    """ONNX Runtime, imported with its telemetry off.

    ONNX Runtime writes a device id and an event database under ``~/.cache/Microsoft/`` when it is
    first imported, unless ``ORT_DISABLE_TELEMETRY`` is set then (it reads it once, at load);
    ``disable_telemetry_events`` stops its events for the process. A run of ``tabletrack`` writes
    its outputs and nothing else, and never into the user's home: every session is made here.
    The variable is set only if the user has not set it, and only when the model is about to run
    (never at the import of this module)."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime as ort

    ort.disable_telemetry_events()
    return ort


#: the most ONNX Runtime threads a session takes: a 320x640 finder and batches of 40x40 crops gain
#: little beyond it, and the decoder and the annotated video need cores of their own
MAX_ORT_THREADS = 8


def default_threads(cap: int = MAX_ORT_THREADS) -> int:
    """ONNX Runtime's threads for this machine: the cores this process may run on
    (:func:`common.cores.usable_cores`), at most ``cap``. Why not a fixed number: OpenCV and FFmpeg
    already take every core by default, and a fixed 2 left most of a larger machine idle while the
    finder ran; on this project's 2-core machine it is 2, as before."""
    return max(1, min(int(cap), usable_cores()))


def _session(path: Path, threads: int) -> ort.InferenceSession:
    ort = onnxruntime_quiet()
    if not Path(path).is_file():
        raise YoloModelError(f"YOLO detector: expected an ONNX model at {path}, found nothing")
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    # the pool's threads sleep between runs instead of spinning: on two cores a spinning thread
    # takes the core the decoder and the annotated video need (nine-ball and snooker samples:
    # the analysis 4.5-5.2 -> 3.3-3.7 s, CPU time a third less, the same outputs)
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=so, providers=["CPUExecutionProvider"])


def decode_yolo(out: np.ndarray, conf: float, iou: float, max_det: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """YOLOv8 raw output (1, 4 + nc, N) -> boxes (k, 4) x0, y0, x1, y1 in input px and scores (k,),
    best-first, after class-agnostic NMS at ``iou``."""
    p = np.asarray(out)[0]
    if p.ndim != 2 or p.shape[0] < 5:
        raise YoloModelError(f"YOLO output: expected (1, 4 + classes, anchors), got {np.asarray(out).shape}")
    scores = p[4:].max(axis=0)
    keep = np.nonzero(scores >= conf)[0]
    if not len(keep):
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    cx, cy, w, h = p[0, keep], p[1, keep], p[2, keep], p[3, keep]
    s = scores[keep]
    boxes = np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]).astype(np.float32)
    picked = cv2.dnn.NMSBoxes(
        [[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])] for b in boxes],
        [float(v) for v in s],
        conf,
        iou,
        top_k=max_det,
    )
    idx = np.asarray(picked, int).reshape(-1)
    order = idx[np.argsort(-s[idx])]
    return boxes[order], s[order].astype(np.float32)


def ball_sized(boxes: np.ndarray, view_hw: tuple[int, ...], min_side_px: float) -> np.ndarray:
    """Which finder boxes (k, 4: x0, y0, x1, y1 in view px) may hold a ball: on the rectified view
    every ball spans its diameter (more along a blur), so a box whose longer side is under
    ``min_side_px`` is a table mark (real broadcast: the foot spot, 0.6-0.67 of a diameter, scored
    0.61 and was tracked as a ball), unless the view's border cuts it (a ball leaving over a rail
    may show any part of itself)."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    h, w = int(view_hw[0]), int(view_hw[1])
    cut = (b[:, 0] < 2) | (b[:, 1] < 2) | (b[:, 2] > w - 3) | (b[:, 3] > h - 3)
    big = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) >= float(min_side_px)
    return np.asarray(big | cut, dtype=bool)


def _along_segment(a: np.ndarray, b: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Where points (u, v) project along the segment a-b: 0 at a, 1 at b (not clipped)."""
    ab = b - a
    return ((u - a[0]) * ab[0] + (v - a[1]) * ab[1]) / max(float(ab @ ab), 1e-9)


def _segment_distance_px(a: np.ndarray, b: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Distances (k,) of points (u, v) from the segment a-b (view px)."""
    ab = b - a
    t = np.clip(_along_segment(a, b, u, v), 0.0, 1.0)
    return np.hypot(u - (a[0] + t * ab[0]), v - (a[1] + t * ab[1]))


#: how far from either end of a streak (as a fraction of its length) a weak detection on it counts
#: as the streak's end read as a ball (see :meth:`YoloDetector.streak_detections`)
STREAK_END_FRACTION = 0.25

#: how much longer (in ball radii) than a row of touching balls a streak must be for two or more
#: detections on it, all of one label and none sure (under :data:`SMEAR_SCORE`), to be one fast ball
#: read several times along its smear (see :meth:`YoloDetector.streak_detections`)
SMEAR_EXCESS_R = 1.0
SMEAR_SCORE = 0.5


def _mean_scores(reads: Sequence[BallDetection]) -> dict[BallId, float]:
    """The mean of several detections' beliefs per ball (a ball missing from one counts 0 there)."""
    out: dict[BallId, float] = {}
    for d in reads:
        for b, v in (d.label_scores or {}).items():
            out[b] = out.get(b, 0.0) + float(v) / len(reads)
    return out


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class YoloDetector:
    """See the module docstring. ``conf`` is the finder's score threshold, ``iou`` its NMS
    overlap; ``refine`` how many times at most the centre is re-cropped at the refined position
    (a ball whose centre moved less than ``converged_r`` radii is not re-cropped); finder boxes
    whose longer side is under ``min_box_d`` ball diameters are no ball (:func:`ball_sized`);
    ``turns`` views (1: none) of each crop read under ``turn_below`` are averaged (module
    docstring); ``threads`` ONNX Runtime's threads for each model (None: :func:`default_threads`,
    the machine's usable cores up to 8)."""

    def __init__(
        self,
        geometry: RectifiedGeometry,
        ball_radius_mm: float,
        game: str,
        detector_path: Path | str | None = None,
        classifier_path: Path | str | None = None,
        conf: float = 0.25,
        iou: float = 0.45,
        threads: int | None = None,
        refine: int = 2,
        min_score: float = 0.2,
        proposals: bool = True,
        proposal_weight: float = 0.4,
        proposal_refine: int = 2,
        proposal_inset_r: float = 0.8,
        converged_r: float = 0.03,
        proposal_min_ball: float = 0.85,
        min_box_d: float = 0.75,
        streaks: bool = True,
        streak_score: float = 0.3,
        streak_clear_r: float = 1.5,
        crop_memo: bool = False,
        memo_near_r: float = 0.1,
        turns: int = 4,
        turn_below: float = 0.9,
    ) -> None:
        if not 1 <= int(turns) <= 4:
            raise ValueError(f"YOLO classifier: expected 1 to 4 quarter-turn views, got {turns}")
        self.geometry = geometry
        self.r_px = float(ball_radius_mm) * geometry.px_per_mm
        self.conf, self.iou, self.refine, self.min_score = float(conf), float(iou), int(refine), float(min_score)
        self.converged_r = float(converged_r)
        self.proposals, self.proposal_weight = bool(proposals), float(proposal_weight)
        self.proposal_refine, self.proposal_inset_r = int(proposal_refine), float(proposal_inset_r)
        self.proposal_min_ball = float(proposal_min_ball)
        self.min_box_d = float(min_box_d)
        self.streaks, self.streak_score, self.streak_clear_r = bool(streaks), float(streak_score), float(streak_clear_r)
        self.turns, self.turn_below = int(turns), float(turn_below)
        #: answers for unchanged crops asked within ``memo_near_r`` radii of where they were
        #: asked or ended before (:mod:`vision.crop_memo`); None: every crop classified. For a
        #: sequence of frames of one video (the pipeline's), not for unrelated images.
        self.crop_memo = CropMemo(near_px=memo_near_r * self.r_px) if crop_memo else None
        #: ONNX Runtime's threads for each model (:func:`default_threads` unless given)
        self.threads = default_threads() if threads is None else max(1, int(threads))
        self._det = _session(Path(detector_path or DEFAULT_DETECTOR), self.threads)
        self._cls = _session(Path(classifier_path or DEFAULT_CLASSIFIER), self.threads)
        shape = self._det.get_inputs()[0].shape
        if len(shape) != 4 or not all(isinstance(v, int) for v in shape[2:]):
            raise YoloModelError(f"YOLO finder: expected a fixed input (1, 3, H, W), got {shape}")
        self.input_hw = (int(shape[2]), int(shape[3]))
        meta = self._cls.get_modelmeta().custom_metadata_map
        if "classes" not in meta:
            raise YoloModelError("YOLO classifier: expected 'classes' in the model's metadata, found none")
        self.classes: list[str] = json.loads(meta["classes"])
        labels = [c.split(":", 1)[1] for c in self.classes if c.split(":", 1)[0] == game]
        if not labels:
            games = sorted({c.split(":", 1)[0] for c in self.classes if ":" in c})
            raise YoloModelError(f"YOLO classifier: expected game one of {', '.join(games)}, got {game!r}")
        self.game = game
        self.labels: tuple[str, ...] = tuple(labels)
        self._cols = np.array([i for i, c in enumerate(self.classes) if c.split(":", 1)[0] == game], int)
        self._none = self.classes.index(NONE_CLASS) if NONE_CLASS in self.classes else None

    # -- stages -----------------------------------------------------------------------------
    def find(self, rectified_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Finder boxes (k, 4) in view px and their scores."""
        img, lb = letterbox(rectified_bgr, self.input_hw)
        x = np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1)[None], np.float32) / 255.0
        out = self._det.run(None, {self._det.get_inputs()[0].name: x})[0]
        boxes, scores = decode_yolo(out, self.conf, self.iou)
        return boxes / lb.scale, scores

    def classify(
        self,
        rectified_bgr: np.ndarray | LazyView,
        u: np.ndarray,
        v: np.ndarray,
        r_px: np.ndarray | None = None,
        refine: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For centres (k,) (and radii, default the table's ball): class probabilities over the
        game's labels and ``none`` (k, n + 1), and the refined centres u, v (view px), re-cropped
        ``refine`` times (default the detector's). The view may be a :class:`vision.rectify.LazyView`:
        then only the crops' windows are remapped. With a :attr:`crop_memo`, a crop that has not
        changed since it was classified gets the answer it had then (:mod:`vision.crop_memo`). A
        final crop read under ``turn_below`` is read turned too (:meth:`_turned_logits`)."""
        r = np.full(len(u), self.r_px) if r_px is None else np.maximum(np.asarray(r_px, np.float64), 1.0)
        k = CROP_BALL_PX / (2.0 * r)
        n = len(self.classes)
        refine = self.refine if refine is None else int(refine)
        u, v = np.array(u, np.float64), np.array(v, np.float64)
        if not len(u):
            return np.zeros((0, len(self._cols) + (self._none is not None))), u, v
        logits = np.zeros((len(u), n))
        off = np.zeros((len(u), 2))
        todo = np.arange(len(u))
        last: np.ndarray | None = None  # each crop's last view, for the turned reads
        ran = np.zeros(0, int)  # the crops read here (not answered by the memo)
        memo = self.crop_memo
        if memo is not None:
            fresh = []
            for i in todo:
                ri = float(r[i])

                def read(cu: float, cv: float, ri: float = ri) -> np.ndarray:
                    return view_crop(rectified_bgr, cu, cv, ri)

                hit = memo.lookup(float(u[i]), float(v[i]), ri, refine, read)
                if hit is None:
                    fresh.append(i)
                else:
                    logits[i], u[i], v[i] = hit.logits, hit.u_px, hit.v_px
            todo = np.array(fresh, int)
            asked = (u[todo].copy(), v[todo].copy())
            first: list[np.ndarray] = []
        for it in range(refine + 1):
            if not len(todo):
                break
            crops = np.stack([view_crop(rectified_bgr, float(u[i]), float(v[i]), float(r[i])) for i in todo])
            if last is None:
                last = np.zeros((len(u),) + crops.shape[1:], crops.dtype)
                ran = todo.copy()
            last[todo] = crops
            if memo is not None and it == 0:
                first = list(crops)
            out = self._read(crops)
            off[todo] = np.clip(out[:, n : n + 2], -1.0, 1.0) * (CROP_BALL_PX / 2.0) / k[todo, None]  # view px
            logits[todo] = out[:, :n]
            if it < refine:
                # re-crop only the balls whose centre still moves: the centre then ends at the
                # regression's fixed point whatever the start (finder box, proposal, prediction)
                moving = np.hypot(off[todo, 0], off[todo, 1]) > self.converged_r * r[todo]
                u[todo], v[todo] = u[todo] + off[todo, 0], v[todo] + off[todo, 1]
                off[todo] = 0.0
                todo = todo[moving]
        cols = self._cols if self._none is None else np.append(self._cols, self._none)
        if last is not None and self.turns > 1:
            unsure = ran[_softmax(logits[ran][:, cols]).max(axis=1) < self.turn_below]
            if len(unsure):
                logits[unsure] = self._turned_logits(last[unsure], logits[unsure])
        if memo is not None:
            for j, i in enumerate(fresh):
                memo.store(
                    float(asked[0][j]),
                    float(asked[1][j]),
                    float(r[i]),
                    refine,
                    first[j],
                    logits[i],
                    float(u[i] + off[i, 0]),
                    float(v[i] + off[i, 1]),
                )
        p = _softmax(logits[:, cols])
        return p, u + off[:, 0], v + off[:, 1]

    def _read(self, crops: np.ndarray) -> np.ndarray:
        """The classifier's raw output (k, classes + 2: identity logits, then the centre's
        regression) for crops (k, H, W, 3) of 8-bit BGR, as the network takes them."""
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255.0
        return np.asarray(self._cls.run(None, {self._cls.get_inputs()[0].name: x})[0])

    def _turned_logits(self, crops: np.ndarray, logits: np.ndarray) -> np.ndarray:
        """The mean identity logits of ``crops`` (k, H, W, 3; their unturned reads ``logits``)
        and of the same crops turned by 1 .. ``turns`` - 1 quarters (exact pixel turns about the
        crop's centre, which the ball's centre is near: no resampling)."""
        n = logits.shape[1]
        turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(1, self.turns)])
        out = self._read(turned)[:, :n]
        return (logits + out.reshape(self.turns - 1, len(crops), n).sum(axis=0)) / self.turns

    def _proposed(
        self,
        rectified_bgr: np.ndarray,
        u_known: np.ndarray,
        v_known: np.ndarray,
        lab_diff: tuple[np.ndarray, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Proposals (:mod:`vision.proposals`) farther than a radius from every finder ball,
        classified and pulled onto their balls: probabilities (k, n + 1) and centres u, v."""
        region = playing_region(self.geometry, self.r_px, self.proposal_inset_r)
        pu, pv, _ = ball_proposals(rectified_bgr, self.r_px, region_px=region, lab_diff=lab_diff)
        if len(pu) and len(u_known):
            far = np.hypot(pu[:, None] - u_known[None, :], pv[:, None] - v_known[None, :]).min(axis=1) > self.r_px
            pu, pv = pu[far], pv[far]
        return self.classify(rectified_bgr, pu, pv, refine=self.proposal_refine)

    def detect_with_boxes(
        self,
        rectified_bgr: np.ndarray,
        radius_from_box: bool = False,
    ) -> list[tuple[BallDetection, tuple[float, float, float, float]]]:
        """Detections with the finder's box (view px) of each (a proposal's: the ball's square).
        ``radius_from_box`` sizes each crop by its box instead of the table's ball, and takes no
        proposals (for photos with no rectified geometry, where a ball's size is not known)."""
        boxes, scores = self.find(rectified_bgr)
        if not radius_from_box and len(boxes):
            keep = ball_sized(boxes, rectified_bgr.shape[:2], self.min_box_d * 2.0 * self.r_px)
            boxes, scores = boxes[keep], scores[keep]
        n = len(self.labels)
        if len(boxes):
            u0 = (boxes[:, 0] + boxes[:, 2]) / 2.0
            v0 = (boxes[:, 1] + boxes[:, 3]) / 2.0
            rb = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) / 2.0 if radius_from_box else None
            p, u, v = self.classify(rectified_bgr, u0, v0, rb)
            radii = rb if rb is not None else np.full(len(u), self.r_px)
            if rb is None:
                # the box around the refined centre, as long as the finder saw the ball (a blurred
                # ball is longer along its path) but never narrower than the ball: the finder's
                # coarse box is often off centre by a few px, which the regression has corrected
                hw = np.maximum((boxes[:, 2] - boxes[:, 0]) / 2.0, self.r_px)
                hh = np.maximum((boxes[:, 3] - boxes[:, 1]) / 2.0, self.r_px)
                boxes = np.column_stack([u - hw, v - hh, u + hw, v + hh]).astype(np.float32)
        else:
            p, u, v, radii = np.zeros((0, n + 1)), np.zeros(0), np.zeros(0), np.zeros(0)
        score = scores * p[:, :n].sum(axis=1)
        # the cloth model's difference, shared by the proposals and the streaks
        lab_diff = (
            lab_difference(rectified_bgr, self.r_px)
            if (self.proposals or self.streaks) and not radius_from_box
            else None
        )
        if self.proposals and not radius_from_box:
            pp, pu, pv = self._proposed(rectified_bgr, u, v, lab_diff)
            r = self.r_px
            p, u, v = np.vstack([p, pp]), np.concatenate([u, pu]), np.concatenate([v, pv])
            pb = pp[:, :n].sum(axis=1)
            score = np.concatenate([score, np.where(pb >= self.proposal_min_ball, self.proposal_weight * pb, 0.0)])
            boxes = np.vstack([boxes.reshape(-1, 4), np.column_stack([pu - r, pv - r, pu + r, pv + r])])
            radii = np.concatenate([radii, np.full(len(pu), r)])
        # one detection per ball: the best of those whose refined centres lie within a radius
        order = np.argsort(-score, kind="stable")
        kept: list[int] = []
        for i in order:
            if score[i] < self.min_score:
                break
            if kept and np.min(np.hypot(u[kept] - u[i], v[kept] - v[i]) / np.maximum(radii[kept], 1e-6)) < 1.0:
                continue
            kept.append(int(i))
        dets = self.detections(p[kept], u[kept], v[kept], radii[kept], score[kept])
        out = [(d, floats4(boxes[i])) for d, i in zip(dets, kept)]
        if self.streaks and not radius_from_box:
            found = self.streak_detections(rectified_bgr, u[kept], v[kept], lab_diff, score[kept], dets)
            displaced = {k for *_, ks in found for k in ks}
            out = [o for k, o in enumerate(out) if k not in displaced]
            out += [(d, box) for d, box, _ in found]
        return out

    def streak_detections(
        self,
        rectified_bgr: np.ndarray,
        u_balls: np.ndarray,
        v_balls: np.ndarray,
        lab_diff: tuple[np.ndarray, int] | None = None,
        score_balls: np.ndarray | None = None,
        reads: Sequence[BallDetection] | None = None,
    ) -> list[tuple[BallDetection, tuple[float, float, float, float], tuple[int, ...]]]:
        """Fast balls seen as streaks (:mod:`vision.streaks`) that pass no detected ball (centres
        ``u_balls, v_balls``) closer than ``streak_clear_r`` radii: unnamed (but for a smear,
        below), at ``streak_score`` (under the tracker's start bar: a streak continues a ball the
        tracker follows, it starts none), the path's ends in ``streak_px``; each with the box around
        the streak and the indices of the balls it displaces.

        Two or more detections on a streak (``reads``: the detections at those centres), all read
        as one ball, none surer than :data:`SMEAR_SCORE`, on a streak longer by
        :data:`SMEAR_EXCESS_R` than that many balls touching in a row, are that ball read along its
        smear: they are displaced by the streak, which takes their name and their mean beliefs
        (real broadcast, dev Clip12 warmer: the cue ball's break at 25 fps, a streak of 7.2 radii
        read as three boxes of the cue ball, 0.27-0.39, and the tracker took the trailing one: its
        contact with the rack was lost; unnamed, such a streak lost the cue ball at its stroke).

        A detection scoring under ``streak_score`` (``score_balls``) within :data:`STREAK_END_FRACTION` of the streak's length from one of its ends does not
        block it but is displaced by it: the classifier's crop of a streak's end reads weakly as a
        ball (real broadcast, dev Clip12's break: a proposal at the streak's leading end read 0.21
        the 5, 75 mm ahead of the ball's mid-exposure position, hid the streak, and the tracker
        placed the cue ball there). A weak detection in a streak's middle is a ball with its shadow
        or a neighbour, and blocks it (dev Clip17: a 1 by a pocket read 0.30-0.43 in the middle
        of a 4.8-radius blob, frame after frame)."""
        r = self.r_px
        region = playing_region(self.geometry, r, self.proposal_inset_r)
        out = []
        for st in ball_streaks(rectified_bgr, r, region_px=region, lab_diff=lab_diff):
            a = np.array(st.ends_px[:2])
            b = np.array(st.ends_px[2:])
            displaced: tuple[int, ...] = ()
            named: list[BallDetection] = []
            if len(u_balls):
                on = np.flatnonzero(_segment_distance_px(a, b, u_balls, v_balls) < self.streak_clear_r * r)
                if len(on):
                    t = _along_segment(a, b, u_balls[on], v_balls[on])
                    at_end = (t < STREAK_END_FRACTION) | (t > 1.0 - STREAK_END_FRACTION)
                    weak = score_balls is not None and bool((score_balls[on] < self.streak_score).all())
                    smear = (
                        len(on) >= 2
                        and score_balls is not None
                        and reads is not None
                        and len({reads[int(k)].label for k in on}) == 1
                        and reads[int(on[0])].label is not None
                        and bool((score_balls[on] < SMEAR_SCORE).all())
                        and st.length_r > 2.0 * len(on) + SMEAR_EXCESS_R
                    )
                    if not (smear or (weak and at_end.all())):
                        continue  # a ball with its shadow or a neighbour, not a lone fast ball
                    displaced = tuple(int(k) for k in on)
                    if smear and reads is not None:
                        named = [reads[k] for k in displaced]
            (x_mm,), (y_mm,) = self.geometry.uv_to_mm(np.array([st.u_px]), np.array([st.v_px]))
            ex, ey = self.geometry.uv_to_mm(np.array(st.ends_px[0::2]), np.array(st.ends_px[1::2]))
            det = BallDetection(
                x_mm=float(x_mm),
                y_mm=float(y_mm),
                u_px=st.u_px,
                v_px=st.v_px,
                r_px=r,
                label=named[0].label if named else None,
                label_scores=_mean_scores(named) if named else {},
                score=self.streak_score,
                streak_px=st.ends_px,
                streak_mm=(float(ex[0]), float(ey[0]), float(ex[1]), float(ey[1])),
            )
            lo, hi = np.minimum(a, b) - r, np.maximum(a, b) + r
            out.append((det, floats4(np.concatenate([lo, hi])), displaced))
        return out

    def detections(
        self,
        p: np.ndarray,
        u: np.ndarray,
        v: np.ndarray,
        r_px: np.ndarray,
        score: np.ndarray,
    ) -> list[BallDetection]:
        """Detections from the classifier's probabilities (k, n + 1; :meth:`classify`), refined
        centres, radii and scores: the label the game's best, its beliefs renormalized over the
        game's labels (the ``none`` share left out)."""
        n = len(self.labels)
        x_mm, y_mm = self.geometry.uv_to_mm(u, v)
        out = []
        for i in range(len(u)):
            q = p[i, :n] / max(float(p[i, :n].sum()), 1e-9)
            out.append(
                BallDetection(
                    x_mm=float(x_mm[i]),
                    y_mm=float(y_mm[i]),
                    u_px=float(u[i]),
                    v_px=float(v[i]),
                    r_px=float(r_px[i]),
                    label=ball_label(self.labels[int(np.argmax(q))]),
                    score=float(score[i]),
                    label_scores=ball_scores((name, float(q[t])) for t, name in enumerate(self.labels)),
                )
            )
        return out

    def detect(self, rectified_bgr: np.ndarray, t_s: float | None = None) -> list[BallDetection]:
        """The balls of one rectified view (:class:`vision.detect.ViewDetector`; ``t_s`` unused:
        each view is seen afresh). For the pipeline, :class:`vision.detect.RectifiedDetector`."""
        return [d for d, _ in self.detect_with_boxes(rectified_bgr)]
