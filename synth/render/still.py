"""One-call stills of any table with any balls, and randomised looks for training data.

Contract: :func:`render_still` draws balls resting at table positions (or any
:class:`~synth.render.balls.BallsState`, e.g. a ball dropping into a pocket) on ``table`` through
``camera`` and returns the 8-bit BGR frame; balls are turned at random by ``rng`` unless the state
carries orientations, so numbers and stripes show at any angle. :func:`random_style` draws a
:class:`RenderStyle` from the ranges real footage shows (cloth colour, rails wooden or black, lamp
layout and power, ball colours of another set, marked cue balls), for detector training.
:func:`ball_labels` (in :mod:`synth.render.labels`) gives each ball's boxes for the same frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import cast

import numpy as np

from calibration._vec import floats3
from calibration.camera import CameraModel
from calibration.table import TableSpec
from synth.render.balls import BallsState
from synth.render.style import ClothColour, Lamp, RenderStyle
from tracking.ids import BallId


def render_still(
    table: TableSpec,
    balls: Mapping[BallId, tuple[float, float]] | BallsState,
    camera: CameraModel,
    style: RenderStyle | None = None,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """The frame (H, W, 3) uint8 BGR of ``balls`` ({ball: (x_mm, y_mm)} resting on the cloth, or a
    state) on ``table`` seen by ``camera`` in ``style`` (noise and overlay included)."""
    from synth.render.frame import render_frame
    from synth.render.scene import build_scene

    rng = rng if rng is not None else np.random.default_rng(0)
    style = style or RenderStyle()
    rs, rb, rf = (
        # numpy's stub types seed_seq as the ISeedSequence interface, which has no spawn
        (np.random.default_rng(s) for s in cast(np.random.SeedSequence, rng.bit_generator.seed_seq).spawn(3))
        if hasattr(rng.bit_generator, "seed_seq")
        else (rng, rng, rng)
    )
    state = balls if isinstance(balls, BallsState) else BallsState.at_rest(balls, table.ball_radius_mm, rb)
    if state.orientations is None:
        from synth.render.balls import random_rotations

        state = replace(state, orientations=random_rotations(len(state.balls), rb))
    scene = build_scene(table, camera, style, rs)
    return render_frame(scene, state, rf)


def lamp_layout(
    table: TableSpec, layout: str, height_mm: float = 1000.0, power: float = 1.0, radius_mm: float = 140.0
) -> tuple[Lamp, ...]:
    """Lamps over the table: ``box8`` (two rows of four, a match lamp box), ``row3`` (three shades
    along the centre line, as pool halls hang them), ``row4``, ``canopy`` (a 3 x 6 grid of small
    lamps, a snooker-style diffuse canopy), ``single`` (one lamp over the centre)."""
    L, W = table.length_mm, table.width_mm
    if layout == "box8":
        pts = [(L * (2 * i + 1) / 8.0, W * fy) for i in range(4) for fy in (0.3, 0.7)]
    elif layout in ("row3", "row4"):
        n = 3 if layout == "row3" else 4
        pts = [(L * (2 * i + 1) / (2 * n), W / 2.0) for i in range(n)]
    elif layout == "canopy":
        pts = [(L * (2 * i + 1) / 12.0, W * (2 * j + 1) / 6.0) for i in range(6) for j in range(3)]
        power, radius_mm = power * 8.0 / 18.0, radius_mm * 0.6
    elif layout == "single":
        pts = [(L / 2.0, W / 2.0)]
    else:
        raise ValueError(f"lamp layout: expected box8, row3, row4, canopy or single, got {layout!r}")
    return tuple(Lamp(x, y, height_mm, power, radius_mm) for x, y in pts)


LAMP_LAYOUTS = ("box8", "row3", "row4", "canopy", "single")
_RAILS = ((34.0, 62.0, 112.0), (28.0, 44.0, 78.0), (52.0, 92.0, 150.0), (26.0, 26.0, 28.0), (40.0, 40.0, 44.0))


def random_style(table: TableSpec, rng: np.random.Generator, base: RenderStyle | None = None) -> RenderStyle:
    """A style drawn at random for training images (see the module docstring): a cloth preset
    moved by a few percent per channel, rails of one of five woods/blacks, one of
    :data:`LAMP_LAYOUTS` 0.8-1.6 m high at 0.6-1.5 power with jittered positions, another ball
    set's colours (:func:`~synth.render.ballset.jittered_ball_bgr`), a marked cue ball one time
    in four on pool tables, ambient, specular, shadow, noise and vignette within real ranges."""
    from synth.render.ballset import POOL_BALLS, SNOOKER_BALLS, jittered_ball_bgr

    base = base or RenderStyle()
    cloths = list(ClothColour)
    cloth = cloths[int(rng.integers(len(cloths)))]
    cloth_bgr = floats3(np.clip(c * rng.uniform(0.88, 1.12), 0, 255) for c in cloth.bgr)
    layout = LAMP_LAYOUTS[int(rng.integers(len(LAMP_LAYOUTS)))]
    lamps = tuple(
        replace(lamp, x_mm=lamp.x_mm + rng.normal(0, 60), y_mm=lamp.y_mm + rng.normal(0, 40))
        for lamp in lamp_layout(
            table, layout, rng.uniform(800.0, 1600.0), rng.uniform(0.6, 1.5), rng.uniform(60.0, 220.0)
        )
    )
    balls = SNOOKER_BALLS if table.kind == "snooker" else POOL_BALLS
    cue = ("none", "dots6", "measles")[int(rng.choice(3, p=(0.75, 0.15, 0.10)))] if table.kind == "pool" else "none"
    return replace(
        base,
        cloth=cloth,
        cloth_bgr=cloth_bgr,
        rail_bgr=_RAILS[int(rng.integers(len(_RAILS)))],
        lamps=lamps,
        ball_bgr=jittered_ball_bgr(balls, rng),
        cue_marking=cue,
        cloth_texture=rng.uniform(0.01, 0.06),
        cloth_mottle=rng.uniform(0.0, 0.03),
        ambient=rng.uniform(0.1, 0.4),
        ball_specular=rng.uniform(0.2, 0.8),
        ball_shininess=rng.uniform(25.0, 110.0),
        shadow_strength=rng.uniform(0.55, 0.95),
        vignette=rng.uniform(0.0, 0.25),
        noise_sigma=rng.uniform(0.5, 4.0),
    )


def rack_positions(
    table: TableSpec, balls: tuple[BallId, ...], gap_mm: float = 0.2, apex: str | None = None
) -> dict[BallId, tuple[float, float]]:
    """A triangle of ``balls`` (row by row from the apex, which points to the head) behind the
    ``apex`` spot (pool ``rack_apex``, snooker ``reds_apex``), touching with ``gap_mm``."""
    name = apex or ("reds_apex" if table.kind == "snooker" else "rack_apex")
    ax, ay = table.spots_mm[name]
    d = table.ball_diameter_mm + gap_mm
    out: dict[BallId, tuple[float, float]] = {}
    row, k = 0, 0
    while k < len(balls):
        for j in range(row + 1):
            if k == len(balls):
                break
            out[balls[k]] = (ax + row * d * np.sqrt(3) / 2, ay + (j - row / 2) * d)
            k += 1
        row += 1
    return out
