"""The annotated video marks a ball whose name the shot start doubts with a question mark
(tabletrack/annotate.py ``ball_label``; ``Overlay`` keeps the doubts per shot)."""

from __future__ import annotations

import pytest

from tabletrack.annotate import ball_label
from tracking.ids import BallId

B = BallId.parse


@pytest.mark.parametrize(
    "ball, doubted, label",
    [(B("9"), {B("9")}, "9?"), (B("9"), {B("13")}, "9"), (BallId.CUE, set(), "cue")],
    ids=["doubted", "another-doubted", "none-doubted"],
)
def test_ball_label(ball, doubted, label) -> None:
    assert ball_label(ball, doubted) == label


def test_the_overlay_keeps_each_shots_doubted_names_and_draws_them() -> None:
    """Drawn with the doubt, the ball's label is wider (the '?') than drawn without it."""
    import numpy as np

    from calibration.camera import CameraModel
    from calibration.table import load_table
    from tabletrack.annotate import Overlay
    from tracking.events import NameDoubt, ShotStart

    pool = load_table("pool")
    L, W = pool.length_mm, pool.width_mm

    def drawn(doubts: dict) -> np.ndarray:
        cam = CameraModel.look_at(1024, 576, 500.0, (L / 2, W / 2, 3000.0), (L / 2, W / 2, 0.0), table="pool")
        ov = Overlay(cam, pool, 1.0, [BallId.CUE, B("9")])
        ov.add_events([ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {B("9"): (900.0, 600.0)}, name_doubts=doubts)])
        ov.add_samples(B("9"), np.array([0]), np.array([900.0]), np.array([600.0]), np.array([True]))
        img = np.zeros((576, 1024, 3), np.uint8)
        ov.draw(img, 0)
        return img

    sure, unsure = drawn({}), drawn({B("9"): NameDoubt(0.2, B("13"), 0.6)})
    assert (unsure > 0).sum() > (sure > 0).sum()
