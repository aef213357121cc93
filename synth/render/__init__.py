"""The fast synthetic renderer: overhead broadcast-style video of a carom, pool or snooker table
from a simulated shot, and stills with labels for detector training.

Modules, each with one job:

- :mod:`synth.render.style` -- :class:`RenderStyle`, the look of a clip (cloth, lamps, noise, shutter).
- :mod:`synth.render.lens` -- exact viewing rays of every pixel of the *distorted* frame.
- :mod:`synth.render.lighting` -- the lamp box over the table: irradiance and shadow visibility.
- :mod:`synth.render.scene` -- the static scene (floor, rails, cushions, cloth, diamonds), once per clip.
- :mod:`synth.render.pockets` -- the pockets' plan geometry (throat, hole, rim, facings); balls sinking.
- :mod:`synth.render.ballset` -- each ball's look (pool numbers and stripes, snooker colours) in its own frame.
- :mod:`synth.render.balls` -- ray-cast balls with shading, rolling marks, soft shadows, motion blur.
- :mod:`synth.render.still` -- :func:`render_still`, :func:`random_style`, lamp layouts, racks.
- :mod:`synth.render.labels` -- :func:`ball_labels`: each ball's boxes (raw and rectified) and visibility.
- :mod:`synth.render.occluder` -- a player's hand and cue over a ball.
- :mod:`synth.render.overlay` -- a burned-in broadcast scoreboard.
- :mod:`synth.render.frame` -- one frame: :func:`render_frame` composes the layers.
- :mod:`synth.render.truth` -- the ``<clip>.truth.json`` format, written and read.
- :mod:`synth.render.clip` -- :func:`render_clip`: a SimShot to an H.264 MP4 plus its truth file.

Nothing here is imported at package import; OpenCV and imageio-ffmpeg load only where used.
"""

# the submodules (nothing is imported here: ``from synth.render import *`` imports them all)
__all__ = [
    "balls",
    "ballset",
    "cameras",
    "clip",
    "frame",
    "labels",
    "lens",
    "lighting",
    "occluder",
    "overlay",
    "pockets",
    "scene",
    "still",
    "style",
    "truth",
    "video",
]
