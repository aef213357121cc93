"""Ball proposals from the cloth (vision/proposals.py): every ball gets a proposal near its
centre, alone or in a packed rack; lines, spots and the cushions' shading do not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.proposals import ball_proposals, playing_region
from vision.rectify import RectifiedGeometry

R_PX = 13.0  # a snooker ball at 0.5 px/mm
CLOTH_BGR = (40, 120, 30)


def _view(
    centres: list[tuple[float, float]],
    colours: list[tuple[int, int, int]],
    w: int = 900,
    h: int = 460,
) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = CLOTH_BGR
    # a lamp gradient and cloth noise, which the cloth model must absorb
    ramp = np.linspace(-25, 25, w, dtype=np.float32)[None, :, None]
    img = np.clip(img.astype(np.float32) + ramp + np.random.default_rng(0).normal(0, 3, img.shape), 0, 255)
    img = img.astype(np.uint8)
    cv2.line(img, (200, 0), (200, h - 1), (230, 230, 230), 2)  # the baulk line
    cv2.circle(img, (600, 230), 2, (230, 230, 230), -1)  # a spot
    for (u, v), c in zip(centres, colours):
        cv2.circle(img, (int(round(u * 8)), int(round(v * 8))), int(R_PX * 8), c, -1, cv2.LINE_AA, shift=3)
    return img


def _pack(apex: tuple[float, float], rows: int = 5) -> list[tuple[float, float]]:
    """A triangle of touching balls (the snooker rack of 15 reds)."""
    d = 2 * R_PX + 0.5
    return [(apex[0] + i * d * np.sqrt(3) / 2, apex[1] + (j - i / 2) * d) for i in range(rows) for j in range(i + 1)]


def _nearest(u: np.ndarray, v: np.ndarray, c: tuple[float, float]) -> float:
    return float(np.hypot(u - c[0], v - c[1]).min()) if len(u) else np.inf


@pytest.mark.parametrize(
    "colour, what",
    [
        ((20, 20, 200), "red on green"),
        ((15, 15, 15), "black on green"),
        ((110, 60, 20), "blue on green"),
        ((60, 140, 40), "green on green, darker and more saturated"),
    ],
)
def test_a_lone_ball_gets_one_proposal_at_its_centre(colour, what):
    c = (450.0, 300.0)
    u, v, s = ball_proposals(_view([c], [colour]), R_PX)
    assert _nearest(u, v, c) < 0.3 * R_PX, what
    near = np.hypot(u - c[0], v - c[1]) < 2 * R_PX
    assert near.sum() == 1, f"{what}: expected one proposal for one ball, got {near.sum()}"


def test_every_ball_of_a_packed_rack_has_a_proposal_within_the_regression_range():
    balls = _pack((500.0, 230.0))
    u, v, _ = ball_proposals(_view(balls, [(20, 20, 200)] * len(balls)), R_PX)
    worst = max(_nearest(u, v, c) for c in balls)
    assert worst < 0.6 * R_PX, f"a ball of the pack is {worst / R_PX:.2f} radii from its nearest proposal"


def test_lines_spots_and_bare_cloth_give_no_proposal():
    u, v, _ = ball_proposals(_view([], []), R_PX)
    assert len(u) == 0, f"expected no proposal on bare cloth with a line and a spot, got {len(u)}"


def test_the_region_bounds_the_proposals_and_follows_the_view_geometry():
    geo = RectifiedGeometry(1800.0, 900.0, 26.25, 0.5, 26.25)
    u0, v0, u1, v1 = playing_region(geo, R_PX)
    w, h = geo.size_px
    assert u0 == pytest.approx(26.25 * 0.5 + 0.8 * R_PX) and u1 == pytest.approx(w - 1 - u0)
    assert v1 == pytest.approx(h - 1 - v0)
    img = _view([(100.0, 100.0), (450.0, 300.0)], [(20, 20, 200)] * 2)
    u, v, _ = ball_proposals(img, R_PX, region_px=(300.0, 0.0, 899.0, 459.0))
    assert len(u) and (u >= 300.0 - 4).all(), "a proposal outside the region"
    assert _nearest(u, v, (450.0, 300.0)) < 0.3 * R_PX


def test_a_bad_radius_is_refused():
    with pytest.raises(ValueError, match="radius"):
        ball_proposals(_view([], []), 0.0)
