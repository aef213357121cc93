"""A log's first shot is a break only where the balls stand as the break places them
(rules/core/opening.py): carom 003 art. 5 / 002 ART 4, pool 000 2.2, eight-ball 002 bola 8 ART 10,
14.1 004 art. 4, snooker 002 snooker ART 1.3; under the table's four symmetries."""

from __future__ import annotations

import math

import pytest

from calibration.table import load_table
from rules import Game, judge_events
from rules.core.opening import break_left_to_default, opening_input, sight_opening
from rules.core.table import TableSpots
from tabletrack.tables import table_spots
from tracking.events import BallBall, CushionHit, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion

CAROM = table_spots(load_table("carom"))
POOL = table_spots(load_table("pool"))
SNOOKER = table_spots(load_table("snooker"))
W, Y, R = BallId.WHITE, BallId.YELLOW, BallId.RED


def _start(cue: BallId, positions: dict[BallId, tuple[float, float]]) -> ShotStart:
    return ShotStart(0.0, 0, 1, 1.0, cue, positions)


def _mirror(t: TableSpots, p: tuple[float, float], fx: bool, fy: bool) -> tuple[float, float]:
    return (t.length_mm - p[0] if fx else p[0], t.width_mm - p[1] if fy else p[1])


# the break of 002 ART 4: red on the foot spot (2130, 710), yellow on the head spot (710, 710), the
# white 18.5 cm beside it; 003 art. 5's 15.2 cm too
CAROM_CASES = [
    ("002 ART 4 layout", {R: (2130, 710), Y: (710, 710), W: (710, 525)}, W, True),
    ("003 art. 5: 15.2 cm beside", {R: (2130, 710), Y: (710, 710), W: (710, 558)}, W, True),
    ("yellow breaks", {R: (2130, 710), W: (710, 710), Y: (710, 895)}, Y, True),
    ("placed by hand, a few cm off", {R: (2150, 690), Y: (690, 725), W: (735, 540)}, W, True),
    ("the tracker's struck ball on the head spot", {R: (2130, 710), W: (710, 710), Y: (710, 525)}, W, True),
    ("both beside the head spot", {R: (2130, 710), W: (710, 895), Y: (710, 525)}, W, False),
    ("red not on its spot", {R: (1800, 400), Y: (710, 710), W: (710, 525)}, W, False),
    ("a position in play", {R: (344.8, 378.7), W: (261.3, 444.9), Y: (2125.7, 713.3)}, Y, False),
    ("cue ball not seen at rest", {R: (2130, 710), Y: (710, 710)}, W, False),
    ("red on the head spot", {R: (710, 710), Y: (2130, 710), W: (2130, 525)}, W, True),  # mirrored: foot is head
]


@pytest.mark.parametrize("fx,fy", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("name,pos,cue,is_break", CAROM_CASES, ids=[c[0] for c in CAROM_CASES])
def test_carom_break_position_003_art5_002_art4(name, pos, cue, is_break, fx, fy) -> None:
    start = _start(cue, {b: _mirror(CAROM, p, fx, fy) for b, p in pos.items()})
    sight = sight_opening(Game.THREE_CUSHION, start, CAROM)
    assert sight.is_break is is_break
    assert "003 art. 5" in sight.reason


def _rack(t: TableSpots, balls: list[str], apex: tuple[float, float]) -> dict[BallId, tuple[float, float]]:
    """A triangle rack (rows of 1, 2, 3 ...) with its apex on ``apex``, toward the foot."""
    D = t.ball_diameter_mm + 0.5
    out, k, row = {}, 0, 0
    while k < len(balls):
        for j in range(row + 1):
            if k >= len(balls):
                break
            x = apex[0] + row * D * math.sqrt(3) / 2
            y = apex[1] + (j - row / 2) * D
            out[BallId.parse(balls[k])] = (x, y)
            k += 1
        row += 1
    return out


NINE = [str(i) for i in range(1, 10)]
FIFTEEN = [str(i) for i in range(1, 16)]


@pytest.mark.parametrize(
    "game,balls,art",
    [
        (Game.NINE_BALL, NINE, "000 2.2"),
        (Game.EIGHT_BALL, FIFTEEN, "002 bola 8 ART 10"),
        (Game.STRAIGHT_POOL, FIFTEEN, "004 art. 4"),
    ],
)
def test_pool_rack_is_a_break(game: Game, balls: list[str], art: str) -> None:
    pos = _rack(POOL, balls, POOL.spots_mm["foot_spot"])
    pos[BallId.CUE] = (400.0, 500.0)
    sight = sight_opening(game, _start(BallId.CUE, pos), POOL)
    assert sight.is_break and art in sight.reason
    mirrored = {b: _mirror(POOL, p, True, True) for b, p in pos.items()}
    assert sight_opening(game, _start(BallId.CUE, mirrored), POOL).is_break


def test_pool_rack_with_a_ball_missed_by_the_detector_is_a_break() -> None:
    pos = _rack(POOL, NINE, POOL.spots_mm["foot_spot"])
    del pos[BallId.parse("5")]
    assert sight_opening(Game.NINE_BALL, _start(BallId.CUE, pos), POOL).is_break


@pytest.mark.parametrize(
    "moved_mm, is_break, why",
    [
        (0.0, True, "first seen packed in the rack: jitter read as motion, the rack struck on the first frames"),
        (6.0, True, "a few mm off their rack places on the first frame: still the rack's cluster"),
        (400.0, False, "first seen far from the rack, in flight: a shot in play"),
    ],
)
def test_rack_balls_under_way_count_where_first_seen_000_2_2(moved_mm: float, is_break: bool, why: str) -> None:
    """Three of the nine balls already moving when the recording began (``under_way``): the rest
    layout holds six, under the rack's share; where those three were first seen decides."""
    rack = _rack(POOL, NINE, POOL.spots_mm["foot_spot"])
    moving = [BallId.parse(b) for b in ("5", "6", "9")]
    at_rest = {b: p for b, p in rack.items() if b not in moving}
    first = {b: (rack[b][0] - moved_mm, rack[b][1]) for b in moving}
    start = ShotStart(0.0, 0, 1, 0.3, BallId.CUE, at_rest, under_way=(*moving, BallId.CUE), under_way_at=first)
    assert sight_opening(Game.NINE_BALL, start, POOL).is_break is is_break, why
    assert not sight_opening(Game.NINE_BALL, _start(BallId.CUE, at_rest), POOL).is_break  # without them: short


def test_balls_spread_in_play_are_no_break_000_2_2() -> None:
    pos = {BallId.parse(str(i)): (300.0 + 220.0 * i, 200.0 + 90.0 * (i % 4)) for i in range(1, 10)}
    sight = sight_opening(Game.NINE_BALL, _start(BallId.CUE, pos), POOL)
    assert not sight.is_break and "shot in play" in sight.reason


def test_rack_far_from_the_foot_spot_is_no_break() -> None:
    pos = _rack(POOL, NINE, (1270.0, 300.0))  # a cluster at the side pocket
    assert not sight_opening(Game.NINE_BALL, _start(BallId.CUE, pos), POOL).is_break


def test_snooker_reds_racked_behind_the_pink_002_art_1_3() -> None:
    pink = SNOOKER.spots_mm["pink"]
    reds = [f"red_{i}" for i in range(1, 16)]
    pos = _rack(SNOOKER, reds, (pink[0] + SNOOKER.ball_diameter_mm + 1, pink[1]))
    sight = sight_opening(Game.SNOOKER, _start(BallId.CUE, pos), SNOOKER)
    assert sight.is_break and "ART 1.3" in sight.reason


@pytest.mark.parametrize(
    "raw,default",
    [
        (None, True),
        ({}, True),
        ({"players": ["A", "B"]}, True),
        ({"start": {}}, True),
        ({"start": {"next_is_break": True}}, False),
        ({"start": {"next_is_break": False}}, False),
        ({"start": {"at_table": "A"}}, False),
    ],
)
def test_only_input_silent_on_the_start_leaves_the_opening_to_the_layout(raw, default) -> None:
    assert break_left_to_default(raw) is default


def test_referee_start_is_kept_whatever_the_layout() -> None:
    start = _start(W, {R: (300, 300), W: (400, 400), Y: (1500, 900)})
    raw, sight = opening_input({"start": {"next_is_break": True}}, Game.THREE_CUSHION, start, CAROM)
    assert raw == {"start": {"next_is_break": True}} and sight is None


def _shot_in_play() -> list:
    # the white plays the yellow then the red after three cushions: a point, from a position in
    # play (as a break it would be a foul: the red not first, 003 art. 5)
    s = _start(W, {Y: (600, 400), W: (300, 300), R: (2000, 1000)})
    return [
        s,
        BallBall(0.5, 1, 1, 1.0, (W, Y), (570, 390)),
        CushionHit(1.0, 2, 1, 1.0, W, Cushion.LEFT, (900, 1389)),
        CushionHit(1.5, 3, 1, 1.0, W, Cushion.FOOT, (2809, 1200)),
        CushionHit(2.0, 4, 1, 1.0, W, Cushion.RIGHT, (2300, 31)),
        BallBall(2.6, 5, 1, 1.0, (W, R), (2000, 970)),
        ShotEnd(4.0, 6, 1, 1.0, {Y: (700, 300), W: (1900, 900), R: (2100, 1100)}),
    ]


def test_first_shot_in_play_judged_as_such_and_said_003_art5() -> None:
    calls, _ = judge_events(_shot_in_play(), Game.THREE_CUSHION, None, table=CAROM)
    c = calls[0]
    assert c.points == 1 and not c.break_shot
    assert "taken as a shot in play" in c.reason and "003 art. 5" in c.reason


def test_without_the_table_the_first_shot_is_still_a_break() -> None:
    calls, _ = judge_events(_shot_in_play(), Game.THREE_CUSHION, None)
    assert calls[0].break_shot and calls[0].foul is not None and calls[0].points == 0


def test_referee_input_not_an_object_is_one_line() -> None:
    from rules.core.errors import RefereeInputError

    with pytest.raises(RefereeInputError, match="expected a JSON object"):
        opening_input(["start"], Game.THREE_CUSHION, _start(W, {}), CAROM)
