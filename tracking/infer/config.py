"""The thresholds of event inference, and the sampling they are read for.

:class:`InferenceConfig` gathers every part's config (:class:`tracking.segment.SegmentConfig`,
:class:`tracking.sides.ContactConfig`, :class:`tracking.offtable.ExitConfig`) and the few
thresholds of the shot as a whole. It is a frozen value: the steps of :mod:`tracking.infer` read
it and never change it. :func:`with_sampling` resolves ``Sampling.AUTO`` once per run, from the
whole data, before any step reads the segmenter's config.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from tracking.ids import BallId
from tracking.offtable import ExitConfig
from tracking.sampling import Sampling, detect_sampling
from tracking.segment import SegmentConfig
from tracking.sides import ContactConfig
from tracking.trajectory import Trajectory


@dataclass(frozen=True)
class InferenceConfig:
    """All thresholds of event inference (see each part's config for its own)."""

    segment: SegmentConfig = field(default_factory=SegmentConfig)
    contact: ContactConfig = field(default_factory=ContactConfig)
    exit: ExitConfig = field(default_factory=ExitConfig)
    #: mm. A ball resting with its centre within R + this of a cushion's nose line is frozen to
    #: that cushion (``ShotStart.frozen_to_cushion``). The rest position is a median of up to
    #: ``contact.rest_fit_samples`` centres (~1 mm noise each: well under a mm for the median),
    #: so 2 mm is the noise with a margin; a ball a referee sees clear of the cushion lies
    #: farther. Value of the first version (320e9d4).
    frozen_tol_mm: float = 2.0
    #: mm. Two resting balls whose centres lie within 2R + this are touching
    #: (``ShotStart.balls_in_contact``): the same margin as ``frozen_tol_mm``, for the same
    #: noise. Also, plus 2 mm, how close a ball that rolled to rest must lie to a resting ball
    #: to have stopped against it (:mod:`tracking.infer.unseen`). First version (320e9d4).
    touching_tol_mm: float = 2.0
    #: mm. Two balls resting with their centres within 2R + this when one of them is struck pass
    #: the blow on within a millisecond (a rack, a cluster: a ball at 5 m/s crosses 6 mm in 1.2
    #: ms, far below any camera's or recorder's sample gap), so the contact between them cannot
    #: be ordered against the one that struck the chain, and does not bound that contact's fits
    #: (pass 4 of :mod:`tracking.infer.contacts`). Wider than ``touching_tol_mm``: a racked
    #: ball's centre seen on real broadcast video is a few mm off (real nine-ball, darkened World
    #: Championship break: the apex's contact with the ball behind it timed 5 ms after the cue
    #: ball's and the cue ball's first contact then lost).
    chain_gap_mm: float = 6.0
    #: mm. A pass of the cue ball this close to another ball (the gap between their surfaces on
    #: the sampled paths) with no contact found is a ``near_miss`` event (:mod:`tracking.infer.near`),
    #: which the rules' review reads as a contact that may have been too thin to see. 0 turns
    #: them off. 3 mm: three times the centre noise (``ContactConfig.noise_mm``), as
    #: ``APART_MM``. Measured on the real three-cushion tracks with 1-2 mm of noise added: the
    #: thin contacts lost came out as passes of -5.2 to +2.0 mm; a synthetic 60 fps pass truly
    #: 2.35 mm wide as 2.08 mm; the widest pass on the 60 real shots as recorded is a miss by 3.3 mm.
    near_miss_mm: float = 3.0
    #: s. A ball already moving on its first sample, no later than this after the data's first
    #: sample, was under way when the recording began (``ShotStart.under_way``): the stroke, and
    #: whatever the balls did before the first frame, was not seen. 0.1 s: a few frames at video
    #: rates (a ball hidden on the first frame and seen moving on the next is still one), under a
    #: sparse recorder's first report; a ball first seen later (out from under a hand) is not one.
    under_way_s: float = 0.1
    #: mm. A ball whose two consecutive samples within ``under_way_s`` of the data's first lie
    #: this close stood still between them, and is not under way however far its other samples
    #: lie (the centre's noise): a ball moving at 0.1 m/s covers 1.7 mm a frame at 60 fps. Real
    #: dev Clip12, the break's rack: the 6 at one centre on frames 0 and 1 (read alike), 5 mm off
    #: on frame 2 (another detection of it), struck on frame 4: named under way, it was left out
    #: of the opening layout, and with the 9 first seen on frame 2 the rack fell under
    #: ``rules.core.opening.RACK_SHARE``: the break was taken as a shot in play.
    under_way_still_mm: float = 1.0
    #: mm/s. When the data end with balls still moving, the shot is closed (``ShotEnd`` at 0.5
    #: confidence at most) only if each of them was slower than this at its last sample: all but
    #: stopped (about 10 cm to go at a rolling deceleration of ~0.1 m/s^2); with a faster one the
    #: shot is left open, since it may yet reach a cushion or a ball. First version (320e9d4).
    end_speed_mm_s: float = 150.0
    #: mm/s. No stroke sends a ball faster (a pool break: 9-11 m/s): a stroke's start that puts
    #: the cue ball's way from its rest to its first moving sample faster than this was timed
    #: too late (the ball was hidden at the stroke, real broadcast dev Clip1's break), and is
    #: timed by the way to its first contact over its speed instead (:mod:`tracking.infer.start`).
    max_stroke_speed_mm_s: float = 12000.0
    #: s. Two ball-ball contacts of the same pair found within this of each other are one (the
    #: passes find the same contact again, timed slightly apart); also how near a contact must
    #: lie to a ball's start from rest to explain it, and the window within which a pass does
    #: not find an already-found contact again. 20 ms: about one frame at 50-60 fps, far below
    #: the time two balls that drew apart take to meet again. First version (320e9d4).
    dedupe_s: float = 0.02
    #: s. Two contacts of one ball with the same cushion within this of each other are one (a
    #: contact found both as a turn and as a graze, or at two neighbouring splits): to meet the
    #: same cushion again a ball must first be turned back by another contact. From 1d3e33d
    #: (grazing and dying cushion contacts).
    same_cushion_s: float = 0.1
    sampling: Sampling = Sampling.AUTO


def with_sampling(config: InferenceConfig, trajs: Mapping[BallId, Trajectory]) -> InferenceConfig:
    """``config`` with its sampling resolved: ``AUTO`` is read from the data
    (:func:`tracking.sampling.detect_sampling`); ``SPARSE`` sets the segmenter's reporting pace."""
    kind = config.sampling
    spacing = config.segment.sparse_spacing_s
    if kind is Sampling.AUTO:
        rep = detect_sampling(trajs)
        kind, spacing = rep.kind, rep.spacing_s
    elif kind is Sampling.SPARSE and spacing is None:
        spacing = detect_sampling(trajs).spacing_s
    seg = replace(config.segment, sparse_spacing_s=spacing if kind is Sampling.SPARSE and spacing else None)
    return replace(config, sampling=kind, segment=seg)
