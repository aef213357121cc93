"""Tracking: detections to ball paths, and ball paths to the event log of DESIGN.md.

The public API, importable from the package (``from tracking import BallId``) or from its module
(``from tracking.ids import BallId``, the form the project uses):

- :mod:`tracking.ids` -- :class:`BallId`, :class:`Cushion`, :class:`Pocket`, :data:`CAROM_BALLS`.
- :mod:`tracking.events` -- the event types (:class:`ShotStart`, :class:`BallBall`,
  :class:`CushionHit`, :class:`Pocketed`, :class:`OffTable`, :class:`ShotEnd`; ``Event`` their
  union), :class:`Shot`, :func:`group_shots`.
- :mod:`tracking.eventlog` -- the event log as JSON lines: :func:`read_events`,
  :func:`write_events`, :class:`EventLogWriter`.
- :mod:`tracking.detections` -- what a detector hands the tracker (:class:`BallDetection`,
  :class:`Detections`) and the motion the tracker hands back (:class:`MotionState`).
- :mod:`tracking.tracker` -- :class:`Tracker`: detections to ball states, frame after frame.
- :mod:`tracking.trajectory` -- :class:`Trajectory`, one ball's samples; :mod:`tracking.tracks_csv`
  their CSV form.
- :mod:`tracking.infer` -- :func:`infer_events` (whole trajectories) and :class:`EventStream`
  (samples as they come): the events of the paths.
- :mod:`tracking.sampling`, :mod:`tracking.identity`, :mod:`tracking.between`,
  :mod:`tracking.shorthand` -- the sampling of a source, the ball sets of each game, what changed
  between two shots, a shorthand for writing events by hand.

The rest (``segment``, ``sides``, ``pathfit``, ``collisions``, ``cushions``, ``pockets``,
``offtable``) is the inference's internals. Nothing is imported at package import: a name is
loaded from its module on first use, so ``import tracking.ids`` (which rules/ does) stays light;
no module of tracking loads OpenCV (tests/test_boundaries.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.lazy import lazy_exports

# public name -> the module that defines it
_SOURCE: dict[str, str] = {
    "BallId": "ids",
    "CAROM_BALLS": "ids",
    "Cushion": "ids",
    "Pocket": "ids",
    "UnknownIdError": "ids",
    "BallBall": "events",
    "CushionHit": "events",
    "Event": "events",
    "EventKind": "events",
    "OffTable": "events",
    "Pocketed": "events",
    "Shot": "events",
    "ShotEnd": "events",
    "ShotStart": "events",
    "group_shots": "events",
    "EventLogError": "eventlog",
    "EventLogWriter": "eventlog",
    "event_from_dict": "eventlog",
    "event_to_dict": "eventlog",
    "iter_events": "eventlog",
    "read_events": "eventlog",
    "write_events": "eventlog",
    "BallDetection": "detections",
    "BallMotion": "detections",
    "Detections": "detections",
    "MotionState": "detections",
    "ball_label": "detections",
    "ball_scores": "detections",
    "in_play": "detections",
    "BallState": "tracker",
    "Tracker": "tracker",
    "TrackerConfig": "tracker",
    "TrackerError": "tracker",
    "Trajectory": "trajectory",
    "TrajectoryError": "trajectory",
    "as_trajectory_map": "trajectory",
    "TracksCsvError": "tracks_csv",
    "TracksCsvWriter": "tracks_csv",
    "parse_tracks_csv": "tracks_csv",
    "read_tracks_csv": "tracks_csv",
    "write_tracks_csv": "tracks_csv",
    "EventStream": "infer",
    "InferenceConfig": "infer",
    "infer_events": "infer",
    "shot_events": "infer",
    "Sampling": "sampling",
    "SamplingReport": "sampling",
    "detect_sampling": "sampling",
    "BallSetError": "identity",
    "balls_for": "identity",
    "detector_class": "identity",
    "Change": "between",
    "Placed": "between",
    "Reracked": "between",
    "Respotted": "between",
    "between_shots": "between",
    "shorthand_events": "shorthand",
}

__all__ = [
    "BallId",
    "CAROM_BALLS",
    "Cushion",
    "Pocket",
    "UnknownIdError",
    "BallBall",
    "CushionHit",
    "Event",
    "EventKind",
    "OffTable",
    "Pocketed",
    "Shot",
    "ShotEnd",
    "ShotStart",
    "group_shots",
    "EventLogError",
    "EventLogWriter",
    "event_from_dict",
    "event_to_dict",
    "iter_events",
    "read_events",
    "write_events",
    "BallDetection",
    "BallMotion",
    "Detections",
    "MotionState",
    "ball_label",
    "ball_scores",
    "in_play",
    "BallState",
    "Tracker",
    "TrackerConfig",
    "TrackerError",
    "Trajectory",
    "TrajectoryError",
    "as_trajectory_map",
    "TracksCsvError",
    "TracksCsvWriter",
    "parse_tracks_csv",
    "read_tracks_csv",
    "write_tracks_csv",
    "EventStream",
    "InferenceConfig",
    "infer_events",
    "shot_events",
    "Sampling",
    "SamplingReport",
    "detect_sampling",
    "BallSetError",
    "balls_for",
    "detector_class",
    "Change",
    "Placed",
    "Reracked",
    "Respotted",
    "between_shots",
    "shorthand_events",
]

if TYPE_CHECKING:
    from tracking.between import Change, Placed, Reracked, Respotted, between_shots
    from tracking.detections import (
        BallDetection,
        BallMotion,
        Detections,
        MotionState,
        ball_label,
        ball_scores,
        in_play,
    )
    from tracking.eventlog import (
        EventLogError,
        EventLogWriter,
        event_from_dict,
        event_to_dict,
        iter_events,
        read_events,
        write_events,
    )
    from tracking.events import (
        BallBall,
        CushionHit,
        Event,
        EventKind,
        OffTable,
        Pocketed,
        Shot,
        ShotEnd,
        ShotStart,
        group_shots,
    )
    from tracking.identity import BallSetError, balls_for, detector_class
    from tracking.ids import CAROM_BALLS, BallId, Cushion, Pocket, UnknownIdError
    from tracking.infer import EventStream, InferenceConfig, infer_events, shot_events
    from tracking.sampling import Sampling, SamplingReport, detect_sampling
    from tracking.shorthand import shorthand_events
    from tracking.tracker import BallState, Tracker, TrackerConfig, TrackerError
    from tracking.tracks_csv import (
        TracksCsvError,
        TracksCsvWriter,
        parse_tracks_csv,
        read_tracks_csv,
        write_tracks_csv,
    )
    from tracking.trajectory import Trajectory, TrajectoryError, as_trajectory_map
else:
    __getattr__, __dir__ = lazy_exports(__name__, _SOURCE, globals())
