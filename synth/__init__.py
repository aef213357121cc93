"""The synthetic world: the truth that footage cannot give (exact ball paths, exact event times,
exact pixels), for tests, benchmarks, regeneration tools and training data.

- :mod:`synth.physics` -- shots with exact paths and truth events (pooltool bridges, the analytic
  jump model, the committed shots in ``sample_data/``).
- :mod:`synth.render` -- the OpenCV renderer: sample clips with their ``<clip>.truth.json``
  (``sample_videos/``) and labelled stills for detector training.
- :mod:`synth.tracking_sim` -- the analytic carom simulator of the tracking tests and its
  samplers (camera frames, another tracking system's sparse reports).

The contract (``tests/test_boundaries.py``; ``synth/README.md``, ``docs/DESIGN.md``): tests,
``tools/``, ``bench/`` and ``models/`` may import ``synth``; no runtime package (``vision``,
``calibration``, ``tracking``, ``rules``, ``tabletrack``) may. ``synth`` itself imports only
``vision``, ``calibration`` and, of tracking, ``tracking.ids``, ``tracking.events``,
``tracking.eventlog`` (truth in event-log form) and ``tracking.trajectory`` (sampled paths).

Nothing is imported at package import.
"""

# the submodules (nothing is imported here: ``from synth import *`` imports them all)
__all__ = [
    "physics",
    "render",
    "tracking_sim",
]
