"""The shared referee-input checks (rules/core/parsing.py), for every game's parser."""

import pytest

from rules import parse_game_input
from rules.core.errors import RefereeInputError
from rules.core.parsing import one_or_many, shot_entries


@pytest.mark.parametrize("value,want", [(None, []), ("touched_ball", ["touched_ball"]), (["a", "b"], ["a", "b"])])
def test_one_or_many(value, want):
    assert one_or_many(value, "foul", "a foul name") == want


def test_one_or_many_refuses_other_shapes():
    with pytest.raises(RefereeInputError, match="^foul must be a foul name or a list of them, got 3$"):
        one_or_many(3, "foul", "a foul name")
    with pytest.raises(RefereeInputError, match="list of them"):
        one_or_many(("a",), "foul", "a foul name", many=(list,))


@pytest.mark.parametrize("game", ["three-cushion", "nine-ball", "eight-ball", "straight-pool", "snooker", "libre"])
def test_a_shot_given_twice_is_refused_in_every_game(game):
    with pytest.raises(RefereeInputError, match="shot 3 is given twice"):
        parse_game_input({"shots": {"3": {}, "03": {}}}, game)


def test_shot_entries_keep_the_written_key():
    assert shot_entries({"2": 1, "10": 2}, "ref") == [(2, "2", 1), (10, "10", 2)]
    with pytest.raises(RefereeInputError, match="shots must be an object keyed by shot number, got list"):
        shot_entries([1], "ref")
