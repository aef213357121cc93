"""The burned-in scoreboard sits in a frame corner outside the table, or is refused."""

import numpy as np
import pytest
from render_helpers import overhead_camera, table

from synth.render.balls import BallsState
from synth.render.frame import render_frame
from synth.render.overlay import ScoreboardOverlay, table_outline_px
from synth.render.scene import build_scene
from synth.render.style import RenderError, RenderStyle, Scoreboard
from tracking.ids import BallId


def _scene(fill):
    return build_scene(
        table(), overhead_camera(480, 270, fill=fill), RenderStyle(static_supersample=1), np.random.default_rng(0)
    )


def test_scoreboard_is_outside_the_table_and_burned_in():
    import cv2

    sc = _scene(0.84)
    ov = ScoreboardOverlay(sc, Scoreboard(corner="bottom_left"))
    x0, y0, x1, y1 = ov.box
    mask = np.zeros(sc.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(table_outline_px(sc)).astype(np.int32)], 1)
    assert not mask[y0:y1, x0:x1].any()
    st = BallsState((BallId.WHITE,), np.array([[1420.0, 710.0, 30.75]]), np.ones(1, bool))
    plain = render_frame(sc, st)
    style = RenderStyle(static_supersample=1, scoreboard=Scoreboard(corner="bottom_left"))
    sc2 = build_scene(table(), sc.camera, style, np.random.default_rng(0))
    with_box = render_frame(sc2, st)
    assert np.abs(with_box[y0:y1, x0:x1].astype(int) - plain[y0:y1, x0:x1]).mean() > 10


def test_scoreboard_without_room_is_refused():
    with pytest.raises(RenderError, match="scoreboard"):
        ScoreboardOverlay(_scene(1.02), Scoreboard())


def test_unknown_corner_is_refused():
    with pytest.raises(RenderError, match="corner"):
        Scoreboard(corner="middle")
