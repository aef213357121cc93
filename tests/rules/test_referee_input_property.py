"""Property tests of the referee input reader (rules/core/inputs.py, each engine's parse_input): the
committed referee files read; a mutated one, or any JSON value, is read or refused with a
TabletrackError in one line, for every game, never another exception."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_inputs import FAST, json_values, mutated

from common.errors import TabletrackError
from rules import Game, load_game_input, parse_game_input

REPO = Path(__file__).resolve().parents[2]
REFEREE_FILES = sorted(REPO.glob("sample_videos/**/*.referee.json"))
GAMES = list(Game)


def _game_of(path: Path) -> Game:
    """The game of a committed clip: its truth file's ``game`` (the carom clips: three-cushion)."""
    truth = json.loads(path.with_name(path.name.replace(".referee.json", ".truth.json")).read_text())
    return Game(truth.get("game", Game.THREE_CUSHION.value))


@pytest.mark.parametrize("path", REFEREE_FILES, ids=lambda p: p.name)
def test_the_committed_referee_files_read(path: Path) -> None:
    load_game_input(path, _game_of(path))


@FAST
@given(data=st.data())
def test_a_mutated_referee_file_is_read_or_refused(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = data.draw(st.sampled_from(REFEREE_FILES))
    text = data.draw(mutated(path.read_text()))
    p = tmp_path_factory.mktemp("ref") / "referee.json"
    p.write_text(text, encoding="utf-8")
    try:
        load_game_input(p, _game_of(path))
    except TabletrackError as e:
        assert "\n" not in str(e)


@FAST
@given(
    game=st.sampled_from(GAMES),
    value=st.fixed_dictionaries(
        {},
        optional={
            "players": json_values,
            "match": json_values,
            "start": json_values,
            "shots": st.dictionaries(st.sampled_from(["1", "2", "x", "-1"]), json_values, max_size=3),
        },
    )
    | json_values,
)
def test_any_json_is_a_referee_input_or_refused(game: Game, value: object) -> None:
    try:
        parse_game_input(value, game)
    except TabletrackError as e:
        assert "\n" not in str(e)
