"""Event inference: from ball trajectories to the event log of DESIGN.md.

``infer_events(trajectories, table)`` runs over whole trajectories; :class:`EventStream` takes
samples as they come (a live pipeline) and hands back each shot's events as soon as that shot is
over. Both run the same per-shot inference, :func:`shot_events`, on the rest and motion of each
ball grouped into shots (:mod:`tracking.segment`). One module per step:

=========================  =====================================================================
:mod:`.config`             :class:`InferenceConfig` (every threshold, with its unit and why), and
                           the sampling (video frames or a sparse recorder) resolved from the data
:mod:`.timeline`           the frame of a time; rest/motion of each ball; where a ball rests
:mod:`.start`              ``ShotStart``: the stroke (the first ball to move, timed where its
                           fitted path leaves its rest position), the rest layout before it
                           (``positions``, ``frozen_to_cushion``, ``balls_in_contact``), and the
                           stroke re-timed once the contacts are known (a cue ball hidden at the
                           stroke started before its first contact)
:mod:`.contacts`           ``BallBall`` and ``CushionHit`` the paths show, found in passes (each
                           on its own, then re-timed inside the ball's neighbouring contacts)
:mod:`.unseen`             ball-ball contacts no path shows, from their effects (a ball set moving
                           with no contact found was struck by the ball next to it), low confidence
:mod:`.exits`              ``OffTable`` / ``Pocketed`` / lost, for balls whose track ends in motion
                           or that come to rest in a pocket's throat
:mod:`.near`               ``NearMiss``: the cue ball's passes within a hair of a ball it was not
                           found to touch (for the rules' review, never counted as a contact)
:mod:`.end`                ``ShotEnd`` when every ball is at rest, with their positions
:mod:`.shot`               :func:`shot_events` (the steps above as a pipeline), :func:`infer_events`
:mod:`.stream`             :class:`EventStream`
=========================  =====================================================================

Sampling: any. Times come from the samples, never from a frame rate; ``frame`` of an event is
the highest ``frame`` value among the samples (of any ball) at or before the event's time, so for
video it is the frame the event falls in, and for data without frames (CSV tracks) it is what the
reader put there (:mod:`tracking.tracks_csv`: a ``frame`` column, else the row index).
Confidence of each event (0..1) comes from its fits' residuals, how many samples support each
side, the sample gap and occlusion at the time, and how clearly the velocity changed; it is a
graded score, not a calibrated probability.

The steps share no state: each reads the frozen config and what the steps before it returned
(frozen dataclasses: :class:`.start.Opening`, :class:`.start.Stroke`, :class:`.contacts.Contacts`,
:class:`.exits.Exits`).
"""

from tracking.infer.config import InferenceConfig, with_sampling
from tracking.infer.shot import infer_events, iter_inferred_shots, shot_events
from tracking.infer.start import SURE_OPENING
from tracking.infer.stream import EventStream
from tracking.infer.unseen import MAX_BALL_SPEED_MM_S, MOVING_STRIKER_REACH_D
from tracking.sides import ContactConfig

__all__ = [
    "MAX_BALL_SPEED_MM_S",
    "MOVING_STRIKER_REACH_D",
    "SURE_OPENING",
    "ContactConfig",
    "EventStream",
    "InferenceConfig",
    "infer_events",
    "iter_inferred_shots",
    "shot_events",
    "with_sampling",
]
