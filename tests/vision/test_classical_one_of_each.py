"""The classical detector's carom classes under a warmer light than its thresholds were set for
(vision/classical.py, ``ClassicalDetector._one_of_each``): the set has one ball of each colour
(the ivory, the yellow and the red: 002 carom ART 2.8), so when the absolute thresholds give a
class twice, the balls' colours against each other decide."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.table import load_table
from synth.render.balls import BallsState
from synth.render.cameras import broadcast_camera
from synth.render.frame import render_frame
from synth.render.scene import build_scene
from synth.render.style import RenderStyle
from tracking.detections import MotionState
from tracking.ids import BallId
from vision.classical import ClassicalConfig, ClassicalDetector
from vision.rectify import Rectifier
from vision.source import Frame

TABLE = load_table("carom")
R = TABLE.ball_radius_mm
BALLS = {BallId.WHITE: (500.0, 300.0), BallId.YELLOW: (2200.0, 1000.0), BallId.RED: (2300.0, 300.0)}


@pytest.fixture(scope="module")
def world():
    cam = broadcast_camera(TABLE, 1280, 720)
    scene = build_scene(TABLE, cam, RenderStyle(static_supersample=1), np.random.default_rng(3))
    return Rectifier(cam, TABLE, 0.5), scene


def _light(img: np.ndarray, warm: float, gamma: float) -> np.ndarray:
    """The frame under a warmer (red up, blue down by ``warm``) and darker (``gamma``) light."""
    lut = (np.linspace(0.0, 1.0, 256) ** gamma * 255.0).astype(np.uint8)
    tint = np.array([2.0 - warm, 1.0, warm], np.float32)
    return np.clip(cv2.LUT(img, lut).astype(np.float32) * tint, 0, 255).astype(np.uint8)


def _found(rect: Rectifier, image: np.ndarray, config: ClassicalConfig) -> dict[BallId, str]:
    """The class found at each placed ball (by position), '-' where none."""
    det = ClassicalDetector(rect.geometry, R, config=config, rectifier=rect)
    det.set_background(rect(image))
    found = det.detect_frame(Frame(0, 0.0, image), MotionState(0.0, True)).balls
    out = {}
    for ball, (x, y) in BALLS.items():
        near = [d for d in found if np.hypot(d.x_mm - x, d.y_mm - y) < R]
        out[ball] = near[0].label.value if near and near[0].label is not None else "-"
    return out


@pytest.mark.parametrize(
    "warm, gamma, placed, white_read_as",
    [
        (1.0, 1.0, (BallId.WHITE, BallId.YELLOW, BallId.RED), "white"),  # the thresholds' light
        (1.3, 1.0, (BallId.WHITE, BallId.YELLOW, BallId.RED), "white"),  # warm: the white looks yellow
        (1.3, 1.6, (BallId.WHITE, BallId.YELLOW, BallId.RED), "white"),  # warm and dark
        # the yellow hidden: two balls are not the set, so nothing tells the white from a yellow
        (1.3, 1.0, (BallId.WHITE, BallId.RED), "yellow"),
    ],
)
def test_a_class_given_twice_is_told_by_the_balls_colours_against_each_other(
    world, warm: float, gamma: float, placed: tuple[BallId, ...], white_read_as: str
) -> None:
    rect, scene = world
    still = BallsState.at_rest({b: BALLS[b] for b in placed}, R)
    image = _light(render_frame(scene, still, np.random.default_rng(2)), warm, gamma)
    found = _found(rect, image, ClassicalConfig())
    assert found[BallId.WHITE] == white_read_as
    if BallId.YELLOW in placed:
        assert found[BallId.YELLOW] == "yellow"
    assert found[BallId.RED] == "red"


def test_without_the_rule_the_warm_white_is_a_second_yellow(world) -> None:
    """The case the rule is for: the absolute thresholds alone read the warm white as the yellow
    (``set_score`` above any score turns the rule off)."""
    rect, scene = world
    image = _light(render_frame(scene, BallsState.at_rest(BALLS, R), np.random.default_rng(2)), 1.3, 1.0)
    found = _found(rect, image, ClassicalConfig(set_score=2.0))
    assert found[BallId.WHITE] == "yellow" and found[BallId.YELLOW] == "yellow"
