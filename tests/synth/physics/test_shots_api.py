"""Listing and loading the committed synthetic shots without pooltool, and their top view."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import load_table
from synth.physics.shots import ShotNotFoundError, list_shots, load_shot


def test_list_shots_is_sorted_and_loadable():
    paths = list_shots()
    assert len(paths) >= 14
    assert paths == sorted(paths)
    shot = load_shot(paths[0].stem)
    assert shot.meta["name"] == paths[0].stem
    assert shot.table == "carom_match"


def test_every_file_is_small():
    for p in list_shots():
        assert p.stat().st_size < 400_000, p


def test_unknown_shot_names_the_known_ones():
    with pytest.raises(ShotNotFoundError, match="point_2a"):
        load_shot("no_such_shot")


def test_state_at_interpolates_the_rest_positions():
    shot = load_shot("point_2a")
    xy, z, on = shot.state_at(0.1)
    assert np.allclose(xy, shot.xy_mm[0]) and on.all()


def test_top_view_draws_the_cue_ball_path():
    from synth.physics.topview import draw_top_view

    table = load_table("carom")
    shot = load_shot("point_2a")
    img = draw_top_view(shot, table, px_per_mm=0.35, border_px=40)
    assert img.shape == (int(round(1420 * 0.35)) + 80, int(round(2840 * 0.35)) + 80, 3)
    start = shot.events[0]
    j = shot.balls.index(start.cue_ball)
    mid = shot.xy_mm[len(shot.t_s) // 3, j]  # somewhere along the cue ball's path
    u, v = int(round(40 + mid[0] * 0.35)), int(round(img.shape[0] - 40 - mid[1] * 0.35))
    cloth = np.array([40, 110, 30])
    patch = img[v - 2 : v + 3, u - 2 : u + 3].reshape(-1, 3)
    assert (np.abs(patch.astype(int) - cloth).sum(axis=1) > 60).any()
