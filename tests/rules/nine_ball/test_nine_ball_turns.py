"""Nine-ball turns over several shots: the push-out (000 2.4; 002 bola 9 ART 7.4-7.6), three
consecutive fouls and the warning (000 6.14; 002 bola 9 ART 10.1.1), the stalemate (000 2.9)."""

from __future__ import annotations

import pytest
from nine_ball_builders import BREAK_4_RAILS, Table

from rules.nine_ball.errors import NineBallInputError
from rules.nine_ball.fouls import PoolFoul

REF = {"players": ["Ana", "Bea"]}


def test_000_2_4_push_out_by_the_breaker_after_a_pocket():
    t = Table(referee=REF)
    t.play(["1", "2>foot_left"])
    c = t.play(["foot"], push_out=True)  # no ball hit, no rail after contact: no foul on a push-out
    assert c.legal and c.player == "Ana" and c.details["push_out"] and c.summary == "push-out"
    assert "6.2 and 6.3 do not apply" in c.reason and "000 2.4" in c.reason
    assert t.state.at_table == 1 and t.state.option and not t.state.ball_in_hand


def test_000_2_4_push_out_by_the_incoming_player_after_a_dry_break():
    t = Table(referee=REF)
    c = t.play(BREAK_4_RAILS)
    assert "Bea may push out (000 2.4)" in c.reason
    c = t.play(["5"], push_out=True)  # wrong ball first and no rail: allowed on a push-out
    assert c.legal and c.player == "Bea" and t.state.at_table == 0 and t.state.option


@pytest.mark.parametrize("choice,shooter", [("play", "Bea"), ("pass_back", "Ana"), (None, "Bea")])
def test_000_2_4_push_out_option_play_or_pass_back(choice, shooter):
    t = Table(referee=REF)
    t.play(["1", "2>foot_left"])
    t.play(["5", "5:foot"], push_out=True)
    c = t.play(["1", "1:foot"], **({"choice": choice} if choice else {}))
    assert c.player == shooter and c.legal and c.details["choice"] == (choice or "play")
    assert ("taken as play" in c.reason) is (choice is None)
    assert not t.state.option


def test_000_2_4_push_out_balls_stay_down_but_the_9_is_respotted():
    t = Table(referee=REF)
    t.play(["1", "2>foot_left"])
    c = t.play(["4", "4>side_left", "9>foot_left"], push_out=True)
    assert c.legal and not c.game_over and c.details["respot"] == ["9"]
    assert {b.value for b in t.state.balls} == {"1", "3", "5", "6", "7", "8", "9"}


def test_000_2_4_a_foul_on_a_push_out_is_penalised():
    t = Table(referee=REF)
    t.play(["1", "2>foot_left"])
    c = t.play(["4", "cue>side_left"], push_out=True)
    assert c.foul is PoolFoul.CUE_BALL_POCKETED
    assert t.state.ball_in_hand and not t.state.option and t.state.consecutive_fouls == (1, 0)


def test_000_2_4_a_shot_not_announced_is_a_normal_shot():
    t = Table(referee=REF)
    t.play(["1", "2>foot_left"])
    c = t.play(["4", "4:foot"])
    assert c.foul is PoolFoul.WRONG_BALL_FIRST


@pytest.mark.parametrize(
    "before,why",
    [
        ([], "a break comes first"),
        ([["2", "1:foot"]], "ball in hand"),
        ([["1", "2>foot_left"], ["1", "1:foot"]], "no longer the shot after the break"),
    ],
)
def test_000_2_4_push_out_not_allowed(before, why):
    t = Table(referee=REF)
    for tokens in before:
        t.play(tokens)
    with pytest.raises(NineBallInputError, match=f"shot {len(before) + 1}: push_out.*{why}"):
        t.play(["3"], push_out=True)


def test_000_2_4_choice_without_an_option_is_an_error():
    t = Table(referee=REF)
    with pytest.raises(NineBallInputError, match="shot 1: choice 'pass_back': no option"):
        t.play(["1", "2>foot_left"], choice="pass_back")


MID = {"players": ["Ana", "Bea"], "start": {"at_table": "Ana", "balls": ["3", "5", "9"]}}
FOUL, MISS, BEA_MISS = ["5", "5:foot"], ["3", "3:foot"], ["3", "3:foot"]


def test_000_6_14_three_fouls_lose_the_rack_with_a_warning_after_the_second():
    t = Table(referee=MID)
    c1 = t.play(FOUL)
    t.play(BEA_MISS)
    c2 = t.play(FOUL)
    assert c2.details["warning"] and "the referee warns him" in c2.reason and "000 6.14" in c2.reason
    assert c2.details["consecutive_fouls"] == {"Ana": 2, "Bea": 0} and not c1.details["warning"]
    t.play(BEA_MISS)
    c3 = t.play(FOUL)
    assert c3.game_over and c3.details["rack_winner"] == "Bea" and "three consecutive fouls" in c3.reason
    assert c3.details["consecutive_fouls"] == {"Ana": 3, "Bea": 0} and c3.summary.endswith("loses the rack")
    assert t.state.racks_won == (0, 1) and t.state.consecutive_fouls == (0, 0) and t.state.next_is_break
    assert t.state.records[-1].how.startswith("Ana committed three consecutive fouls (000 6.14)")


def test_000_6_14_a_legal_shot_ends_the_run_of_fouls():
    t = Table(referee=MID)
    t.play(FOUL)
    t.play(BEA_MISS)
    t.play(FOUL)
    t.play(BEA_MISS)
    t.play(MISS)  # Ana's legal shot
    assert t.state.consecutive_fouls == (0, 0)
    t.play(BEA_MISS)
    c = t.play(FOUL)
    assert not c.game_over and t.state.consecutive_fouls == (1, 0)


def test_000_6_14_the_opponents_fouls_do_not_break_the_count():
    t = Table(referee=MID)
    t.play(FOUL)  # Ana 1
    t.play(FOUL, balls=["3", "5", "9"])  # Bea 1, ball in hand to Ana
    t.play(FOUL)  # Ana 2
    t.play(FOUL)  # Bea 2
    c = t.play(FOUL)  # Ana 3
    assert c.game_over and c.details["rack_winner"] == "Bea"


def test_000_6_14_not_warned_the_third_foul_counts_as_the_second():
    t = Table(referee=MID)
    t.play(FOUL)
    t.play(BEA_MISS)
    t.play(FOUL)
    t.play(BEA_MISS)
    c = t.play(FOUL, warned=False)
    assert not c.game_over and t.state.consecutive_fouls == (2, 0) and "counts as the second" in c.reason


def test_000_6_14_warned_false_needs_two_fouls_pending():
    t = Table(referee=MID)
    with pytest.raises(NineBallInputError, match="shot 1: warned: false .* Ana has 0"):
        t.play(FOUL, warned=False)


def test_000_6_14_a_legal_push_out_is_a_shot_without_a_foul():
    # the breaker fouled twice in an earlier run? No: a push-out follows a break, so build the run from a start
    ref = {
        "players": ["Ana", "Bea"],
        "start": {
            "at_table": "Ana",
            "balls": ["1", "3", "9"],
            "push_out_allowed": True,
            "consecutive_fouls": {"Ana": 2},
        },
    }
    t = Table(referee=ref)
    t.play(["3"], push_out=True)
    assert t.state.consecutive_fouls == (0, 0)


def test_000_2_9_stalemate_rerack_same_breaker():
    ref = {"players": ["Ana", "Bea"], "match": {"race_to": 3}}
    t = Table(referee=ref)
    t.play(BREAK_4_RAILS)  # Ana breaks, Bea to play
    c = t.play(["1", "1:foot"], stalemate=True)
    assert c.game_over and c.details["stalemate"] and c.details["rack_winner"] is None and "000 2.9" in c.reason
    st = t.state
    assert st.next_is_break and st.at_table == 0 and st.breaker == 0 and st.rack == 2
    assert st.racks_won == (0, 0) and st.records[-1].winner is None


def test_000_2_9_stalemate_cannot_follow_the_end_of_the_rack():
    t = Table(referee=REF)
    with pytest.raises(NineBallInputError, match="shot 1: stalemate"):
        t.play(["1", "9>foot_left"], stalemate=True)
