"""Physics truth of the synthetic world: shots with exact ball paths and truth events.

Modules, each with one job:

- :mod:`synth.physics.trajectory` -- :class:`SimShot`, a simulated shot (1 kHz paths, truth events), saved as ``.npz``.
- :mod:`synth.physics.shots` -- the committed carom shots (``sample_data/shots``), listed and loaded without pooltool.
- :mod:`synth.physics.scenarios` -- what each committed three-cushion shot must show and how it is searched for.
- :mod:`synth.physics.pooltool_shots` -- carom strokes simulated with pooltool, written as :class:`SimShot` truth.
- :mod:`synth.physics.pooltool_pool` -- pool and snooker strokes simulated with pooltool.
- :mod:`synth.physics.pooltool_frame`, :mod:`synth.physics.pooltool_pocket_frame` -- pooltool's table frames to ours.
- :mod:`synth.physics.jump` -- a ball jumping off a pool table (analytic rigid-ball model, no pooltool).
- :mod:`synth.physics.carom_call` -- the three-cushion call a shot's truth events imply.
- :mod:`synth.physics.resting` -- which resting balls touch a cushion or each other (``ShotStart`` truth).
- :mod:`synth.physics.pool_racks` -- starting layouts of pool and snooker.
- :mod:`synth.physics.topview` -- a top-view picture of a :class:`SimShot`, for looking at a shot.

Nothing here is imported at package import; pooltool is imported only inside the functions that
simulate (its own environment: ``tools/setup_sim_env.sh``).
"""

# the submodules (nothing is imported here: ``from synth.physics import *`` imports them all)
__all__ = [
    "carom_call",
    "jump",
    "pool_racks",
    "pooltool_frame",
    "pooltool_pocket_frame",
    "pooltool_pool",
    "pooltool_shots",
    "resting",
    "scenarios",
    "shots",
    "topview",
    "trajectory",
]
