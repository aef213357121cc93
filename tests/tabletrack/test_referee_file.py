"""A referee input read as the default game (no --game): the message names the games the file is
for and the --game to give (tabletrack/referee_file.py); one line, exit 2, no traceback from the
CLI. The nine-ball file is 000 2.1's race (``race_to``), which three-cushion's match section (003
art. 2: distance, innings) does not have."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules import Game, RefereeInputError
from rules.core.inputs import games_reading
from tabletrack.referee_file import load_referee_input

REPO = Path(__file__).resolve().parents[2]
NINE_BALL = {
    "players": ["ANA", "BEA"],
    "match": {"race_to": 9, "break": "alternate"},
    "start": {"at_table": "BEA", "breaker": "ANA", "next_is_break": False, "balls": ["1", "5", "7", "9"]},
}
CAROM = {"players": ["A", "B"], "match": {"distance": 40}}


def _file(tmp_path: Path, obj: object) -> Path:
    p = tmp_path / "clip.referee.json"
    p.write_text(json.dumps(obj) if not isinstance(obj, str) else obj)
    return p


@pytest.mark.parametrize(
    "obj, game, given, expect",
    [
        # the default game, a nine-ball file: named, with the --game to give
        (
            NINE_BALL,
            Game.THREE_CUSHION,
            False,
            ["unknown key 'race_to'", "the default game", "if the clip is not three-cushion", "give --game nine-ball"],
        ),
        # the game given: the message as the rules engine says it, nothing assumed
        (NINE_BALL, Game.THREE_CUSHION, True, ["unknown key 'race_to'"]),
        # no game reads it: say so
        ({"match": {"colour": 1}}, Game.THREE_CUSHION, False, ["reads as no other game's input"]),
        # not JSON: the reader's message alone
        ("{not json", Game.THREE_CUSHION, False, ["clip.referee.json"]),
    ],
)
def test_a_file_read_as_the_default_game_names_its_games(
    tmp_path: Path, obj: object, game: Game, given: bool, expect: list[str]
) -> None:
    with pytest.raises(RefereeInputError) as e:
        load_referee_input(_file(tmp_path, obj), game, given)
    msg = str(e.value)
    assert "\n" not in msg
    for part in expect:
        assert part in msg
    if given or obj == "{not json":
        assert "default game" not in msg


def test_a_good_file_passes_and_games_reading_lists_its_games(tmp_path: Path) -> None:
    load_referee_input(_file(tmp_path, CAROM), Game.THREE_CUSHION, False)
    fits = games_reading(NINE_BALL)
    assert Game.NINE_BALL in fits and Game.THREE_CUSHION not in fits
    assert Game.THREE_CUSHION in games_reading(CAROM)


@pytest.mark.parametrize("command", ["analyze", "live"])
def test_without_game_a_nine_ball_file_is_one_line(tmp_path: Path, command: str) -> None:
    """The CLI (analyze reads the file beside the clip, live the --input): exit 2, one line naming
    nine-ball, no traceback, before any video or camera is opened."""
    video = tmp_path / "clip.mp4"
    video.write_bytes(b"")  # never opened: the referee input fails first
    ref = _file(tmp_path, NINE_BALL)
    args = (
        ["analyze", str(video), "--out", str(tmp_path / "out")]
        if command == "analyze"
        else ["live", "--source", str(video), "--input", str(ref), "--match", str(tmp_path / "m")]
    )
    r = subprocess.run([sys.executable, "-m", "tabletrack", *args], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "give --game nine-ball" in lines[0]
