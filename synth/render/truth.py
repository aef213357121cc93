"""The truth file written beside every rendered clip: ``<clip>.truth.json``.

Contract (format tag ``tabletrack-clip-truth/1``):

- ``clip``, ``video`` (the MP4's file name), ``shot`` (the SimShot's name), ``fps``,
  ``frame_count``, ``image_w_px``, ``image_h_px``, ``table`` (TableSpec name), ``camera``
  (:meth:`CameraModel.to_dict`, the exact model the frames were drawn with).
- ``timing``: frame ``i`` shows the instant ``t = i / fps`` seconds of the clip (the middle of its
  exposure of ``exposure_s``); clip time is the SimShot's time plus ``lead_in_s`` (the clip opens
  on the balls at rest before the stroke). An event at clip time ``t`` carries
  ``frame = floor(t * fps)`` (computed as ``floor(t * fps + 1e-9)`` against rounding), i.e. it
  happened between the instants of frames ``frame`` and ``frame + 1``.
- ``balls``: ids in drawing order; ``frames``: one record per frame, ``{"frame", "t", "balls":
  {id: {"mm": [x, y, z], "px": [u, v], "r_px", "on_table", "visible"}}}`` where ``px`` is
  :meth:`CameraModel.project` of the centre, ``r_px`` the apparent radius, ``visible`` the fraction
  of the ball's disc not covered by a hand or cue (balls off the table are absent).
- ``events``: the truth in DESIGN.md event-log form (``tracking.eventlog.event_to_dict``) with
  clip times and frames; ``meta``: the shot's meta (description, expected call);
  ``occlusions``: the hand/cue frame ranges; ``overlay_box_px``: the scoreboard's box or null;
  ``render``: seed, CRF, style summary.

:func:`load_truth` reads it back with validation (:class:`TruthFormatError`, one line).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from calibration.camera import CameraModel, CameraModelError
from common.errors import TabletrackError
from tracking.eventlog import EventLogError, event_from_dict, event_to_dict
from tracking.events import Event
from tracking.ids import BallId

FORMAT = "tabletrack-clip-truth/1"


class TruthFormatError(TabletrackError):
    """A truth file is missing, malformed, or of another format."""


@dataclass(frozen=True)
class BallTruth:
    x_mm: float
    y_mm: float
    z_mm: float
    u_px: float
    v_px: float
    r_px: float
    visible: float


@dataclass(frozen=True)
class FrameTruth:
    frame: int
    t_s: float
    balls: dict[BallId, BallTruth]


@dataclass(frozen=True)
class ClipTruth:
    clip: str
    video: str
    shot: str
    fps: float
    frame_count: int
    image_w_px: int
    image_h_px: int
    table: str
    camera: CameraModel
    lead_in_s: float
    exposure_s: float
    balls: tuple[BallId, ...]
    frames: tuple[FrameTruth, ...]
    events: tuple[Event, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    occlusions: tuple[dict[str, Any], ...] = ()
    overlay_box_px: tuple[int, int, int, int] | None = None
    render: dict[str, Any] = field(default_factory=dict)


def _ints4(v: Any) -> tuple[int, int, int, int]:
    """``tuple(int(c) for c in v)``, typed as four values (a box); the length is not checked."""
    return cast("tuple[int, int, int, int]", tuple(int(c) for c in v))


def event_frame(t_s: float, fps: float) -> int:
    """The frame an event at clip time ``t_s`` falls in: floor(t * fps), guarded against rounding."""
    import math

    return int(math.floor(t_s * fps + 1e-9))


def truth_to_dict(tr: ClipTruth) -> dict[str, Any]:
    frames = []
    for f in tr.frames:
        frames.append(
            {
                "frame": f.frame,
                "t": round(f.t_s, 9),
                "balls": {
                    b.value: {
                        "mm": [round(v.x_mm, 3), round(v.y_mm, 3), round(v.z_mm, 3)],
                        "px": [round(v.u_px, 3), round(v.v_px, 3)],
                        "r_px": round(v.r_px, 3),
                        "on_table": True,
                        "visible": round(v.visible, 3),
                    }
                    for b, v in f.balls.items()
                },
            }
        )
    return {
        "format": FORMAT,
        "clip": tr.clip,
        "video": tr.video,
        "shot": tr.shot,
        "fps": tr.fps,
        "frame_count": tr.frame_count,
        "image_w_px": tr.image_w_px,
        "image_h_px": tr.image_h_px,
        "table": tr.table,
        "camera": tr.camera.to_dict(),
        "timing": {
            "t_of_frame": "t = frame / fps (middle of the exposure)",
            "event_frame": "frame = floor(t * fps)",
            "clip_time": "t_clip = t_shot + lead_in_s",
            "lead_in_s": tr.lead_in_s,
            "exposure_s": tr.exposure_s,
        },
        "balls": [b.value for b in tr.balls],
        "frames": frames,
        "events": [event_to_dict(e) for e in tr.events],
        "meta": tr.meta,
        "occlusions": list(tr.occlusions),
        "overlay_box_px": None if tr.overlay_box_px is None else list(tr.overlay_box_px),
        "render": tr.render,
    }


def write_truth(path: str | Path, tr: ClipTruth) -> Path:
    p = Path(path)
    p.write_text(json.dumps(truth_to_dict(tr), separators=(",", ":")) + "\n", encoding="utf-8")
    return p


def load_truth(path: str | Path) -> ClipTruth:
    """Read and validate a truth file; :class:`TruthFormatError` naming the fault otherwise."""
    p = Path(path)
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TruthFormatError(f"{p}: truth file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TruthFormatError(f"{p}: not a readable truth JSON file ({e})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise TruthFormatError(f'{p}: expected a JSON object with "format": "{FORMAT}"')
    try:
        balls = tuple(BallId.parse(b) for b in d["balls"])
        frames = tuple(
            FrameTruth(
                frame=int(f["frame"]),
                t_s=float(f["t"]),
                balls={
                    BallId.parse(k): BallTruth(
                        float(v["mm"][0]),
                        float(v["mm"][1]),
                        float(v["mm"][2]),
                        float(v["px"][0]),
                        float(v["px"][1]),
                        float(v["r_px"]),
                        float(v["visible"]),
                    )
                    for k, v in f["balls"].items()
                },
            )
            for f in d["frames"]
        )
        events = tuple(event_from_dict(e, f"{p.name}: event {i}") for i, e in enumerate(d["events"]))
        tr = ClipTruth(
            clip=str(d["clip"]),
            video=str(d["video"]),
            shot=str(d["shot"]),
            fps=float(d["fps"]),
            frame_count=int(d["frame_count"]),
            image_w_px=int(d["image_w_px"]),
            image_h_px=int(d["image_h_px"]),
            table=str(d["table"]),
            camera=CameraModel.from_dict(d["camera"], f"{p.name}: camera"),
            lead_in_s=float(d["timing"]["lead_in_s"]),
            exposure_s=float(d["timing"]["exposure_s"]),
            balls=balls,
            frames=frames,
            events=events,
            meta=dict(d.get("meta", {})),
            occlusions=tuple(d.get("occlusions", [])),
            overlay_box_px=None if d.get("overlay_box_px") is None else _ints4(d["overlay_box_px"]),
            render=dict(d.get("render", {})),
        )
    except (EventLogError, CameraModelError) as e:
        raise TruthFormatError(f"{p}: {e}") from None
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise TruthFormatError(f"{p}: malformed truth file ({type(e).__name__}: {e})") from None
    if len(tr.frames) != tr.frame_count:
        raise TruthFormatError(f"{p}: expected {tr.frame_count} frame records, found {len(tr.frames)}")
    return tr
