"""Each engine's ``balls_on_table`` (rules/core/engine.py): the balls its state has on the table,
for the tracker to know which balls may yet appear (issue 10), or None where the game does not
know them or brings balls back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import Game, engine_for, load_game_input
from rules.core.config import JudgeConfig
from tracking.ids import BallId


def _ids(*names: str) -> frozenset[BallId]:
    return frozenset(BallId(n) for n in names)


REDS = tuple(f"red_{k}" for k in range(1, 16))
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")


@pytest.mark.parametrize(
    ("game", "referee", "want", "why"),
    [
        (Game.NINE_BALL, None, _ids("cue", *map(str, range(1, 10))), "000 2.1: a new rack, balls 1-9"),
        (Game.NINE_BALL, {"start": {"balls": ["3", "7", "9"]}}, _ids("cue", "3", "7", "9"), "a rack under way"),
        (Game.SEVEN_BALL, {"start": {"balls": ["2", "5", "7"]}}, _ids("cue", "2", "5", "7"), "scratch_hand's rack"),
        (Game.EIGHT_BALL, None, _ids("cue", *map(str, range(1, 16))), "002 ART 4: the full rack"),
        (Game.EIGHT_BALL, {"start": {"balls": ["1", "8", "12"]}}, _ids("cue", "1", "8", "12"), "a rack under way"),
        (Game.SNOOKER, None, _ids("cue", *REDS, *COLOURS), "ART 1.3: 15 reds and the six colours"),
        (
            Game.SNOOKER,
            {"start": {"score": [0, 0], "reds": 6}},
            _ids("cue", *REDS[:6], *COLOURS),
            "6 reds left: six of the named reds (the tracker counts reds)",
        ),
        (Game.STRAIGHT_POOL, None, None, "004 art. 7.3: a re-rack brings 14 balls back mid-game"),
        (Game.THREE_CUSHION, None, None, "carom: the three balls are always in play"),
    ],
)
def test_balls_on_table(
    game: Game, referee: dict[str, Any] | None, want: frozenset[BallId] | None, why: str, tmp_path: Path
) -> None:
    engine: Any = engine_for(game, JudgeConfig())
    setup = None
    if referee is not None:
        path = tmp_path / "ref.json"
        path.write_text(json.dumps(referee))
        setup = load_game_input(path, game).setup
    assert engine.balls_on_table(engine.initial_state(setup)) == want, why
