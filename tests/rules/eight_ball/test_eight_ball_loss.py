"""Winning and losing the rack with the 8 (002 Reglamento bola 8 ART 1.3, 15.2, 24.1, 25.1a-f),
table-driven; each case names the article it checks."""

from __future__ import annotations

import pytest
from eight_ball_builders import judge, state

from rules.eight_ball.state import FULL_RACK
from tracking.ids import BallId

ON_EIGHT = dict(balls=["8", "9", "10"], group="solids")  # Ana's solids are gone
LAST_SOLID = dict(balls=["3", "8", "9", "10"], group="solids")  # Ana has the 3 left
GROUP_LEFT = dict(balls=["3", "4", "8", "9"], group="solids")
OPEN = dict(group=None)
CALL8 = {"called": {"ball": "8", "pocket": "foot_left"}}

# id, state kwargs, tokens, input, Ana wins (True) / loses (False), ART 25.1 items cited
CASES = [
    ("ART-1.3-15.2-24.1-eight-in-the-named-pocket-wins", ON_EIGHT, ["8", "8>foot_left"], CALL8, True, []),
    (
        "ART-25.1a-foul-while-pocketing-the-8",
        ON_EIGHT,
        ["8", "8>foot_left"],
        {**CALL8, "foul": "touched_ball"},
        False,
        ["25.1a"],
    ),
    ("ART-25.1a-wrong-ball-first-then-the-8", ON_EIGHT, ["9", "9-8", "8>foot_left"], CALL8, False, ["25.1a"]),
    (
        "ART-25.1b-8-with-the-last-ball-of-the-group",
        LAST_SOLID,
        ["3", "3>side_left", "3-8", "8>foot_left"],
        {"called": {"ball": "3", "pocket": "side_left"}},
        False,
        ["25.1b"],
    ),
    ("ART-25.1c-8-off-the-table", ON_EIGHT, ["8", "8:foot", "off:8"], CALL8, False, ["25.1c"]),
    ("ART-25.1c-8-off-the-table-before-the-group", GROUP_LEFT, ["3", "3-8", "8:foot", "off:8"], None, False, ["25.1c"]),
    ("ART-25.1d-8-in-a-pocket-not-named", ON_EIGHT, ["8", "8>foot_right"], CALL8, False, ["25.1d"]),
    (
        "ART-25.1d-24.1-8-on-a-safety-no-pocket-named",
        ON_EIGHT,
        ["8", "8>foot_right"],
        {"safety": True},
        False,
        ["25.1d"],
    ),
    ("ART-25.1e-8-while-group-balls-remain", GROUP_LEFT, ["3", "3-8", "8>foot_left"], None, False, ["25.1e"]),
    ("ART-25.1e-8-on-an-open-table", OPEN, ["3", "3-8", "8>foot_left"], None, False, ["25.1e"]),
    ("ART-25.1e-8-first-on-open-table-pocketed", OPEN, ["8", "8>side_left"], None, False, ["25.1e"]),
    (
        "ART-25.1f-8-and-the-cue-ball",
        ON_EIGHT,
        ["8", "8>foot_left", "cue>foot_right"],
        CALL8,
        False,
        ["25.1f", "25.1a"],
    ),
    (
        "ART-25.1f-25.1e-8-and-cue-ball-with-group-left",
        GROUP_LEFT,
        ["3", "3-8", "8>foot_left", "cue>foot_right"],
        None,
        False,
        ["25.1f", "25.1a", "25.1e"],
    ),
]


@pytest.mark.parametrize("kw,tokens,si,wins,items", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rack_ends(kw, tokens, si, wins, items):
    st = state(**kw)
    call, new = judge(tokens, st, si)
    assert call.game_over and call.turn_over
    assert call.winner == ("Ana" if wins else "Bea")
    assert call.points == (1 if wins else 0)
    assert new.racks_won == ((1, 0) if wins else (0, 1))
    assert call.details["loss"] == items
    for it in items:
        assert f"002 bola 8 ART {it}" in call.reason
    if wins:
        assert "002 bola 8 ART 1.3, 15.2, 24.1" in call.reason
    # the next shot breaks a new full rack, by the rack's winner (ART 6.1, 7.2)
    assert new.next_is_break and new.balls == FULL_RACK and new.groups == (None, None) and new.rack == 2
    assert new.at_table == new.breaker == (0 if wins else 1)
    assert not new.ball_in_hand and not new.match_over


def test_ART_24_1_eight_without_a_call_is_taken_as_called_and_flagged():
    call, _ = judge(["8", "8>foot_left"], state(**ON_EIGHT))
    assert call.winner == "Ana" and call.needs_review
    assert "taken as called" in call.reason and "ART 24.1" in call.review_reason


def test_ART_25_1d_the_named_pocket_is_in_the_reason():
    call, _ = judge(["8", "8>foot_right"], state(**ON_EIGHT), CALL8)
    assert "the foot_left was named" in call.reason and "8 in the foot_right" in call.reason


def test_ART_15_2_eight_not_pocketed_goes_on():
    call, new = judge(["8", "8:foot"], state(**ON_EIGHT), CALL8)
    assert not call.game_over and call.turn_over and new.at_table == 1 and BallId.B8 in new.balls


def test_ART_15_2_group_cleared_by_the_opponent_puts_the_player_on_the_8():
    st = state(balls=["8", "9", "10"], group="stripes", at_table=1)  # Bea plays the solids, all gone
    call, _ = judge(["8", "8>side_left"], st, {"called": {"ball": "8", "pocket": "side_left"}})
    assert call.winner == "Bea" and call.player == "Bea"
