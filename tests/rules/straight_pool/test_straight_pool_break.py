"""The 14.1 opening break (004 art. 6), table-driven: the two ways to meet the requirement, the
breaking violation (-2, outside the successive-foul rule), the opponent's options (accept the table
or have the breaker break again, repeated with -2 each time), a scratch on a legal break (-1, a
foul that counts), and the choice read from the next shot's start when the input gives none."""

from __future__ import annotations

import pytest
from straight_pool_builders import ALL, FOOT_SPOT, Table, called, judge, rack_positions

from rules.straight_pool.fouls import StraightPoolFoul as F

RAILS = ["1", "foot", "2:left", "3:right"]  # the cue ball to a cushion after the contact, 2 object balls to one

# id, tokens, shot input, points, foul, breaker continues, next is break, ball in hand next
CASES = [
    ("004-6-(2)-cue-ball-and-two-object-balls-to-a-cushion", RAILS, {}, 0, None, False, False, False),
    ("004-6-(1)-called-ball-pocketed", ["1", "6>foot_left"], called("6", "foot_left"), 1, None, True, False, False),
    ("004-6-(1)-no-call-first-pocketed-taken-as-called", ["1", "6>foot_left"], {}, 1, None, True, False, False),
    (
        "004-6-(1)-called-ball-in-another-pocket-and-no-rails",
        ["1", "6>foot_right"],
        called("6", "foot_left"),
        -2,
        F.BREAKING_VIOLATION,
        False,
        False,
        False,
    ),
    (
        "004-6-(2)-one-object-ball-to-a-cushion",
        ["1", "foot", "2:left"],
        {},
        -2,
        F.BREAKING_VIOLATION,
        False,
        False,
        False,
    ),
    (
        "004-6-(2)-cue-ball-to-no-cushion-after-contact",
        ["1", "2:left", "3:right"],
        {},
        -2,
        F.BREAKING_VIOLATION,
        False,
        False,
        False,
    ),
    (
        "004-6-(2)-cue-ball-cushion-before-contact-only",
        ["foot", "1", "2:left", "3:right"],
        {},
        -2,
        F.BREAKING_VIOLATION,
        False,
        False,
        False,
    ),
    ("004-6-no-contact", ["foot"], {}, -2, F.BREAKING_VIOLATION, False, False, False),
    (
        "004-6-scratch-on-a-legal-break-is-a-foul",
        RAILS + ["cue>head_left"],
        {},
        -1,
        F.CUE_BALL_POCKETED,
        False,
        False,
        True,
    ),
    ("004-6-safety-break-meets-(2)", RAILS, {"safety": True}, 0, None, False, False, False),
    (
        "004-6-breaking-violation-absorbs-a-scratch",
        ["1", "cue>side_left"],
        {},
        -2,
        F.BREAKING_VIOLATION,
        False,
        False,
        True,
    ),
]


@pytest.mark.parametrize(
    "tokens,si,points,foul,continues,next_break,in_hand", [pytest.param(*c[1:], id=c[0]) for c in CASES]
)
def test_opening_break(tokens, si, points, foul, continues, next_break, in_hand):
    ref = {"players": ["A", "B"], "shots": {"1": dict(si)}}
    if foul is F.BREAKING_VIOLATION:
        ref["shots"]["1"]["choice"] = "accept_table"
    (c,), st = judge(Table().shot(tokens), ref)
    assert c.break_shot and (c.points, c.foul) == (points, foul), c.reason
    assert (not c.turn_over) == continues and st.opening_break == next_break and st.ball_in_hand == in_hand
    assert "004 art. 6" in c.reason
    if foul is F.BREAKING_VIOLATION:
        assert st.players[0].consecutive_fouls == 0 and st.players[0].breaking_violations == 1  # art. 6: not a foul
        assert st.at_table == 1 and c.details["option"] == "breaking_violation"
    if foul is F.CUE_BALL_POCKETED:
        assert st.players[0].consecutive_fouls == 1  # art. 6: the scratch counts toward successive fouls


def test_004_6_rerack_choice_breaker_breaks_again_minus_two_each_time():
    t = Table().shot(["1", "foot"])  # violation
    t.shot(["1", "2:left"], place={k.value: v for k, v in rack_positions(ALL[::-1]).items()})
    t.shot(RAILS, place={"cue": (300.0, 600.0)})
    ref = {"players": ["A", "B"], "shots": {"1": {"choice": "rerack"}, "2": {"choice": "rerack"}}}
    calls, st = judge(t, ref)
    assert [c.player for c in calls] == ["A", "A", "A"]
    assert [c.points for c in calls] == [-2, -2, 0] and [c.break_shot for c in calls] == [True, True, True]
    assert st.score == {"A": -4, "B": 0} and st.players[0].consecutive_fouls == 0 and st.at_table == 1
    assert "must break again" in calls[0].reason and calls[0].details["next_is_break"]
    assert st.players[0].innings == 3  # each return to the table is an inning


def test_004_6_accept_table_opponent_plays_it():
    t = Table().shot(["1", "foot"]).shot(["4", "4>foot_left"])
    calls, st = judge(t, {"players": ["A", "B"], "shots": {"1": {"choice": "accept_table"}}})
    assert calls[1].player == "B" and not calls[1].break_shot and calls[1].points == 1
    assert "B accepts the table" in calls[0].reason


def test_004_6_choice_read_from_the_next_shot_start():
    """No choice given: the balls racked again at the next start mean re-rack, else the table was accepted."""
    t = Table().shot(["1", "foot", "1:left", "1>foot_left"], conf=0.95)  # 1 pocketed, cue never reached a cushion after
    racked = {k.value: v for k, v in rack_positions([str(n) for n in range(15, 0, -1)]).items()}  # racked anew
    t.shot(RAILS, place={**racked, "cue": (300.0, 600.0)})
    calls, st = judge(t, {"players": ["A", "B"], "shots": {"1": called("2", "foot_left")}})
    assert calls[0].foul is F.BREAKING_VIOLATION and calls[0].details["option"] == "breaking_violation"
    assert calls[1].player == "A" and calls[1].break_shot and "as the shot start shows" in calls[1].reason
    assert not calls[1].needs_review

    t2 = Table().shot(["1", "foot", "1:left", "1>foot_left"], moves={"2": (1700.0, 500.0)})
    t2.shot(["4", "4:foot"], place={"1": FOOT_SPOT})  # the 1 spotted (004 art. 8), the rest as it lay
    calls2, _ = judge(t2, {"players": ["A", "B"], "shots": {"1": called("2", "foot_left")}})
    assert calls2[1].player == "B" and not calls2[1].break_shot and "accepts the table" in calls2[1].reason
    assert not calls2[1].needs_review


def test_004_6_choice_unreadable_when_nothing_moved_is_flagged():
    t = Table().shot(["foot"]).shot(RAILS)
    calls, _ = judge(t, {"players": ["A", "B"]})
    assert calls[1].player == "B" and calls[1].needs_review and "racked again" in calls[1].review_reason
