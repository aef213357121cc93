"""Respotting colours (002 Reglamento snooker ART 1.6, 1.8): their own spot, else the highest free
spot, else as near their own spot as they can go toward the top cushion; the spots' table."""

from __future__ import annotations

import json

import pytest
from snooker_helpers import COLOUR_ON, RED_ON, judge

from rules.snooker.spots import BALL_DIAMETER_MM, SPOTS_MM, respot_colours
from tracking.ids import BallId

S = {b.value: p for b, p in SPOTS_MM.items()}


def _near(spot: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
    x, y = S[spot]
    return (x + dx, y + dy)


def test_spots_are_the_calibration_tables(repo):
    """rules/ may not import calibration: the constant table must equal calibration's snooker spots."""
    spec = json.loads((repo / "calibration" / "tables" / "snooker.json").read_text())
    for colour, xy in S.items():
        assert spec["spots_mm"][colour] == pytest.approx(list(xy), abs=0.01), colour
    assert spec["ball_diameter_mm"] == BALL_DIAMETER_MM


# (id citing the article, colours potted, balls at rest {ball: (x, y)}, expected {colour: spot})
CASES = [
    ("ART-1.6-own-spot-free", ["blue"], {"cue": (1000.0, 500.0)}, {"blue": "blue_spot"}),
    ("ART-1.8-black-spot-taken-goes-to-pink", ["black"], {"red_5": _near("black", 20.0)}, {"black": "pink_spot"}),
    ("ART-1.8-pink-spot-taken-goes-to-black", ["pink"], {"cue": _near("pink", 0.0, -30.0)}, {"pink": "black_spot"}),
    (
        "ART-1.8-black-and-pink-spots-taken-blue",
        ["pink"],
        {"cue": _near("pink"), "red_1": _near("black")},
        {"pink": "blue_spot"},
    ),
    (
        "ART-1.8-a-ball-touching-the-spot-leaves-it-free",
        ["black"],
        {"red_5": _near("black", BALL_DIAMETER_MM)},
        {"black": "black_spot"},
    ),
    (
        "ART-1.8-just-inside-a-diameter-takes-it",
        ["black"],
        {"red_5": _near("black", BALL_DIAMETER_MM - 0.5)},
        {"black": "pink_spot"},
    ),
    (
        "ART-1.8-highest-value-first",
        ["black", "pink"],
        {"red_5": _near("black", 10.0)},
        {"black": "pink_spot", "pink": "blue_spot"},
    ),
    ("ART-1.8-yellow-spot-taken-goes-to-black", ["yellow"], {"cue": _near("yellow", 5.0)}, {"yellow": "black_spot"}),
]


@pytest.mark.parametrize("case,colours,rest,expected", CASES, ids=[c[0] for c in CASES])
def test_respot(case, colours, rest, expected):
    got = respot_colours([BallId.parse(c) for c in colours], {BallId.parse(b): p for b, p in rest.items()})
    assert {r.ball.value: r.spot for r in got} == expected
    assert all(r.article.startswith("ART 1.") for r in got)


def test_art_1_8_every_spot_taken_near_own_spot_toward_the_top_cushion():
    rest = {f"red_{i}": S[c] for i, c in enumerate(S, start=1)}  # a ball on every spot
    rest["red_9"] = _near("blue", BALL_DIAMETER_MM)  # and one touching the first free place
    (r,) = respot_colours([BallId.BLUE], {BallId.parse(b): p for b, p in rest.items()})
    assert r.spot == "near_blue_spot"
    x, y = r.pos_mm
    assert y == S["blue"][1] and x == pytest.approx(S["blue"][0] + 2 * BALL_DIAMETER_MM)
    assert all(((x - px) ** 2 + (y - py) ** 2) ** 0.5 >= BALL_DIAMETER_MM - 1e-9 for px, py in rest.values())


def test_art_1_8_engine_reads_the_shot_end_positions():
    """The black potted after a red with a red left on the black spot goes to the pink spot."""
    from snooker_builders import shot_events

    from rules import judge_events

    evs = shot_events(["black", "black>foot_left"], end_pos={"red_2": _near("black", 10.0), "cue": (3000.0, 600.0)})
    c = judge_events(evs, "snooker", {"players": ["A", "B"], "start": COLOUR_ON})[0][0]
    assert c.points == 7 and c.details["respot"] == {"black": "pink_spot"}
    assert c.details["respot_mm"] == {"black": [round(S["pink"][0], 1), S["pink"][1]]}
    assert "ART 1.8" in c.reason


def test_art_1_6_no_end_positions_own_spot_and_review():
    from snooker_builders import shot_events

    from rules import judge_events

    evs = shot_events(["red_1", "red_1-blue", "blue>side_left"], end=False)
    c = judge_events(evs, "snooker", {"players": ["A", "B"], "start": RED_ON})[0][0]
    assert c.details["respot"] == {"blue": "blue_spot"} and c.needs_review
    assert "own spots" in c.review_reason


def test_art_1_6_colour_in_the_end_sequence_stays_down():
    c = judge(["yellow", "yellow>foot_left"], start={"reds": 0, "ball_on": "yellow", "score": [0, 0]})[0][0]
    assert c.details["respot"] == {}


def test_spots_come_from_the_table_played_on():
    """Another table size respots on its own spots (the app hands in the table spec's spots); no
    table, or one without the six colour spots, keeps the standard 12 ft table's."""
    from rules.core.table import TableSpots
    from rules.snooker.spots import STANDARD, SnookerSpots

    assert SnookerSpots.of_table(None) is STANDARD
    assert SnookerSpots.of_table(TableSpots(2540.0, 1270.0, 57.0, {"foot_spot": (1905.0, 635.0)})) is STANDARD
    small = {name: (x * 0.7, y * 0.7) for name, (x, y) in S.items()}
    t = SnookerSpots.of_table(TableSpots(3569.0 * 0.7, 1778.0 * 0.7, 52.5, small))
    (r,) = respot_colours([BallId.BLUE], {BallId.CUE: (100.0, 100.0)}, t)
    assert r.spot == "blue_spot" and r.pos_mm == pytest.approx(small["blue"])
