"""A frame and a match of snooker (002 Reglamento snooker ART 1): the last red and its colour, the
colours in order, the black ending the frame, the tie on a re-spotted black, free ball (ART 1.10),
the opponent's choice after a foul, breaks, frames and the race."""

from __future__ import annotations

from snooker_builders import log, max_break, pot, shot_events
from snooker_helpers import RED_ON, judge, seq_on

from rules import judge_events


def test_art_1_6_last_red_then_any_colour_respotted_then_yellow():
    calls, st = judge(pot("red_1"), pot("pink"), pot("yellow"), start={"reds": 1, "score": [0, 0]})
    assert [c.points for c in calls] == [1, 6, 2]
    assert calls[0].details["next_ball_on"] == "colour" and calls[0].details["reds_remaining"] == 0
    assert calls[1].details["respot"] == {"pink": "pink_spot"} and calls[1].details["next_ball_on"] == "yellow"
    assert calls[2].details["respot"] == {} and st.on.value == "green"


def test_art_1_6_last_red_colour_missed_yellow_on():
    calls, st = judge(pot("red_1"), ["blue"], start={"reds": 1, "score": [0, 0]})
    assert calls[1].turn_over and st.on.value == "yellow" and st.at_table == 1


def test_art_2_2_6_last_red_down_on_a_foul_yellow_on():
    calls, st = judge(["red_1", "red_1>foot_left", "cue>foot_left"], start={"reds": 1, "score": [0, 0]})
    assert calls[0].foul.value == "cue_ball_pocketed" and st.reds == 0 and st.on.value == "yellow"


def test_art_1_6_colours_in_order_and_the_black_ends_the_frame_art_1_4_higher_score_wins():
    strokes = [pot(c) for c in ("yellow", "green", "brown", "blue", "pink", "black")]
    calls, st = judge(*strokes, start=seq_on("yellow", (40, 30)), match={"frames": 3})
    assert [c.points for c in calls] == [2, 3, 4, 5, 6, 7]
    last = calls[-1]
    assert last.game_over and last.winner == "A" and last.score == {"A": 67, "B": 30}
    assert "ART 1.6" in last.reason and "ART 1.4" in last.reason
    assert st.frames_won == (1, 0) and st.frame == 2 and st.next_is_break and st.at_table == 1
    assert st.frames[0].points == (67, 30) and st.frames[0].high_breaks == (27, 0)


def test_art_1_4_the_black_potted_by_the_player_behind_still_loses():
    calls, st = judge(pot("black"), start=seq_on("black", (50, 20)) | {"at_table": "B"})
    assert calls[0].winner == "A" and calls[0].player == "B"


def test_tied_frame_re_spotted_black_first_score_wins():
    calls, st = judge(pot("black"), ["black"], pot("black"), start=seq_on("black", (60, 53)) | {"at_table": "B"})
    first, miss, win = calls
    assert not first.game_over and first.details["re_spotted_black"] and first.score == {"A": 60, "B": 60}
    assert "re-spotted" in first.reason and "ART 1.4" in first.reason
    # no draw given: the opponent of the potter plays first, and says so
    assert miss.player == "A" and "plays_first" in miss.reason
    assert win.player == "B" and win.game_over and win.winner == "B" and win.score == {"A": 60, "B": 67}
    assert st.frames[0].re_spotted_black and st.frames_won == (0, 1)


def test_tied_frame_re_spotted_black_foul_loses_and_plays_first_is_read():
    calls, st = judge(
        pot("black"),
        ["black", "cue>foot_left"],
        start=seq_on("black", (60, 53)) | {"at_table": "B"},
        shots={2: {"plays_first": "B"}},
    )
    assert calls[1].player == "B" and calls[1].foul.value == "cue_ball_pocketed"
    assert calls[1].game_over and calls[1].winner == "A" and calls[1].score == {"A": 67, "B": 60}


def test_art_1_10_free_ball_as_a_red():
    calls, st = judge(
        pot("green"),
        start=RED_ON | {"fouled": "A", "at_table": "B"},
        shots={1: {"free_ball": True, "called": {"ball": "green"}}},
    )
    c = calls[0]
    assert c.player == "B" and c.legal and c.points == 1 and c.details["free_ball"] == "green"
    assert c.details["respot"] == {"green": "green_spot"} and c.details["next_ball_on"] == "colour"
    assert "ART 1.10" in c.reason and st.reds == 10


def test_art_1_10_free_ball_unnominated_taken_from_first_hit():
    c = judge(
        ["pink", "pink-red_1", "red_1>foot_left"],
        start=RED_ON | {"fouled": "A", "at_table": "B"},
        shots={1: {"free_ball": True}},
    )[0][0]
    assert c.legal and c.points == 1 and c.details["free_ball"] == "pink" and "hit first" in c.reason


def test_art_2_2_5_free_ball_and_ball_on_together_no_foul():
    c = judge(
        ["green", "red_2~0", "green>foot_left", "red_2>foot_right"],
        start=RED_ON | {"fouled": "A", "at_table": "B"},
        shots={1: {"free_ball": True, "called": {"ball": "green"}}},
    )[0][0]
    assert c.legal and c.points == 2


def test_art_1_10_free_ball_end_sequence_scores_the_ball_on_and_is_respotted():
    calls, st = judge(
        pot("blue"),
        start=seq_on("yellow", (10, 20)) | {"fouled": "A", "at_table": "B"},
        shots={1: {"free_ball": True, "called": {"ball": "blue"}}},
    )
    c = calls[0]
    assert c.points == 2 and c.details["respot"] == {"blue": "blue_spot"} and st.on.value == "yellow"


def test_art_1_10_free_ball_counts_as_the_ball_on_in_penalties():
    """Potting the free ball (the black, on the yellow) and the cue ball: penalty of the yellow: 4."""
    c = judge(
        ["black", "black>foot_left", "cue>foot_left"],
        start=seq_on("yellow") | {"fouled": "A", "at_table": "B"},
        shots={1: {"free_ball": True, "called": {"ball": "black"}}},
    )[0][0]
    assert c.foul.value == "cue_ball_pocketed" and c.details["penalty"] == 4


def test_art_2_2_4_snookered_behind_the_free_ball():
    c = judge(
        ["blue"],
        start=seq_on("yellow") | {"fouled": "A", "at_table": "B"},
        shots={1: {"free_ball": True, "called": {"ball": "blue"}, "foul": "snooker_behind_free_ball"}},
    )[0][0]
    assert c.foul.value == "snooker_behind_free_ball" and c.details["penalty"] == 4 and "ART 2.2.4" in c.reason


def test_art_1_10_choice_after_a_foul_default_play_and_opponent_shoots():
    calls, st = judge(["foot"], ["red_1"], ["foot"], ["red_2"], start=RED_ON, shots={4: {"choice": "opponent_shoots"}})
    assert calls[0].foul.value == "no_ball_hit" and "may play or have A play again" in calls[0].reason
    assert calls[1].player == "B" and "no choice given" in calls[1].reason and calls[1].details["choice"] == "play"
    assert calls[2].player == "A" and calls[2].foul is not None
    assert calls[3].player == "A" and calls[3].details["choice"] == "opponent_shoots"
    assert "has him play again" in calls[3].reason


def test_art_1_7_breaks_current_and_highest():
    calls, st = judge(
        pot("red_1"),
        pot("black"),
        pot("red_2"),
        ["blue"],  # A: 9, misses
        pot("red_3"),
        pot("pink"),
        ["red_4", "cue>foot_left"],  # B: 7, fouls
        pot("red_5"),
        ["black"],
        start=RED_ON,
    )  # A: 1
    assert [c.details["break"] for c in calls] == [1, 8, 9, 9, 1, 7, 7, 1, 1]
    assert [c.player for c in calls] == ["A"] * 4 + ["B"] * 3 + ["A"] * 2
    assert st.high_breaks == (9, 7) and st.score == {"A": 14, "B": 7}
    assert calls[6].details["high_break"] == {"A": 9, "B": 7}


def test_art_1_4_match_best_of_three_from_a_new_match_no_referee_input():
    """Three 147s: A breaks frame 1, B frame 2, A frame 3 (alternate) and wins 2-1; then the log goes on."""
    strokes = max_break() * 3 + [pot("red_1")]
    calls, st = judge_events(log(*strokes), "snooker", {"match": {"frames": 3}})
    ends = [c for c in calls if c.game_over and c.details.get("frame") is not None]
    assert [c.winner for c in calls if c.details.get("frame_winner")] == ["player 1", "player 2", "player 1"]
    breaks = [c for c in calls if c.break_shot]
    assert [c.player for c in breaks] == ["player 1", "player 2", "player 1"] and len(ends) >= 3
    assert st.match_over and st.winner == 0 and st.frames_won == (2, 1) and st.high_breaks == (147, 147)
    assert calls[-2].match_over and "wins the match 2-1" in calls[-2].reason
    assert calls[-1].needs_review and calls[-1].summary == "after the match"


def test_break_rule_winner_breaks():
    strokes = max_break() + [pot("red_1")]
    calls, st = judge(*strokes, match={"frames": 5, "break": "winner"})
    assert calls[-1].break_shot and calls[-1].player == "A"


def test_art_1_3_break_off_reds_from_the_shot_start_positions():
    pos = {f"red_{i}": (2800.0 + 10 * i, 889.0) for i in range(1, 7)} | {"cue": (600.0, 800.0)}
    evs = shot_events(pot("red_1"), start_pos=pos)
    calls, st = judge_events(evs, "snooker", {})
    assert st.reds == 5 and "6 reds" in calls[0].reason and calls[0].break_shot


def test_table_mismatch_with_the_shot_start_needs_review():
    pos = {f"red_{i}": (2800.0 + 10 * i, 889.0) for i in range(1, 4)}
    pos |= dict.fromkeys(("yellow", "green", "brown", "blue", "pink", "black"), (1000.0, 1000.0))
    evs = shot_events(["red_1"], start_pos=pos)
    c = judge_events(evs, "snooker", {"players": ["A", "B"], "start": RED_ON})[0][0]
    assert c.needs_review and "3 reds" in c.review_reason


def test_art_1_9_unnamed_reds_counted_per_pocket():
    c = judge(["red", "red>foot_left", "red>foot_right"], start=RED_ON)[0][0]
    assert c.points == 2 and not c.needs_review
    c = judge(["red", "red>foot_left", "red>foot_left"], start=RED_ON)[0][0]
    assert c.points == 1 and c.needs_review


def test_low_confidence_pocket_event_needs_review():
    c = judge(["red_1", "red_1>foot_left@0.3"], start=RED_ON)[0][0]
    assert c.points == 1 and c.needs_review and "pocket" in c.review_reason
    assert any(e.doubt for e in c.evidence)


def test_art_2_1_points_remaining_and_snookers_required():
    calls, st = judge(["yellow"], start=seq_on("yellow", (0, 70)))
    assert st.remaining == 27 and st.snookers_required(0) == 11 and st.snookers_required(1) == 0
    calls, st = judge(["black"], start=seq_on("black", (0, 10)))
    assert st.remaining == 7 and st.snookers_required(0) == 1
    _, st = judge(["red_1"], start=RED_ON)
    assert st.remaining == 10 * 8 + 27
    _, st = judge(pot("red_1"), start=RED_ON)
    assert st.remaining == 9 * 8 + 7 + 27
