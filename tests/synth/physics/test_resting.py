"""Frozen balls at the start of a shot (three-cushion art. 9 balls in contact, art. 10 frozen to a
cushion)."""

from __future__ import annotations

import pytest

from synth.physics.resting import balls_in_contact, frozen_to_cushion
from tracking.ids import BallId, Cushion

L, W, R = 2840.0, 1420.0, 30.75


@pytest.mark.parametrize(
    "pos,cushion",
    [
        ((R, 700.0), Cushion.HEAD),
        ((L - R, 700.0), Cushion.FOOT),
        ((1000.0, R), Cushion.RIGHT),
        ((1000.0, W - R), Cushion.LEFT),
        ((R + 0.005, 700.0), Cushion.HEAD),
        ((R + 0.5, 700.0), None),  # near the cushion but not touching
        ((1420.0, 710.0), None),
    ],
)
def test_frozen_to_cushion(pos, cushion):
    got = frozen_to_cushion({BallId.WHITE: pos}, L, W, R)
    assert got == ({} if cushion is None else {BallId.WHITE: cushion})


def test_balls_in_contact():
    pos = {BallId.WHITE: (1000.0, 700.0), BallId.YELLOW: (1000.0 + 2 * R, 700.0), BallId.RED: (1500.0, 700.0)}
    assert balls_in_contact(pos, R) == ((BallId.WHITE, BallId.YELLOW),)
    pos[BallId.YELLOW] = (1000.0 + 2 * R + 1.0, 700.0)
    assert balls_in_contact(pos, R) == ()
