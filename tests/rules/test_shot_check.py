"""Engines refuse what their game does not have (rules/core/shot_check.py), in one line naming
the shot: a ball of another game struck or in a contact (000 2: nine-ball is played with balls 1-9 and the cue ball;
002 bola 8 ART 1 and 004: 1-15; 002 snooker ART 1.3), one ball pocketed twice in one stroke
(nothing respots a ball during a stroke: 000 2.6 respots between shots); and a table of another
kind than the game's (tabletrack/tables.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from common.errors import TabletrackError
from rules import Game, judge_events
from tracking.eventlog import event_to_dict
from tracking.events import BallBall, Event, Pocketed, ShotEnd, ShotStart
from tracking.ids import BallId, Pocket

REPO = Path(__file__).resolve().parents[2]
CUE, ONE, NINE = BallId.CUE, BallId("1"), BallId("9")


def _shot(*middle: Event, balls: tuple[BallId, ...] = (CUE, ONE, NINE)) -> list[Event]:
    pos = {b: (300.0 + 100 * i, 600.0) for i, b in enumerate(balls)}
    return [ShotStart(0.0, 0, 1, 1.0, CUE, pos), *middle, ShotEnd(3.0, 90, 1, 1.0, pos)]


@pytest.mark.parametrize(
    "game,foreign,article",
    [
        (Game.NINE_BALL, BallId.YELLOW, "000 2"),
        (Game.NINE_BALL, BallId("12"), "000 2"),
        (Game.SEVEN_BALL, BallId("8"), "000 2"),
        (Game.EIGHT_BALL, BallId.RED_3, "002 bola 8 ART 1"),
        (Game.EIGHT_BALL, BallId.WHITE, "002 bola 8 ART 1"),
    ],
)
def test_000_2_a_ball_of_another_game_is_refused(game: Game, foreign: BallId, article: str) -> None:
    """Struck by the cue ball (it moves): the shot would be judged as that ball's."""
    contact = BallBall(0.5, 15, 1, 1.0, (CUE, foreign), (600.0, 600.0))
    with pytest.raises(TabletrackError) as e:
        judge_events(_shot(contact, balls=(CUE, ONE, foreign)), game)
    msg = str(e.value)
    assert msg.startswith("shot 1, ball_ball event at t=0.500 s")
    assert f"'{foreign.value}' is not a ball of {game.value}" in msg and article in msg and "\n" not in msg


def test_004_14_1_refuses_a_carom_ball_in_its_own_words() -> None:
    """14.1 had its own check (004: the cue ball and 1-15), kept with its message."""
    contact = BallBall(0.5, 15, 1, 1.0, (CUE, BallId.WHITE), (600.0, 600.0))
    with pytest.raises(
        TabletrackError, match="shot 1: 14.1 is played with the cue ball and balls 1..15, got the white"
    ):
        judge_events(_shot(contact, balls=(CUE, ONE, BallId.WHITE)), Game.STRAIGHT_POOL)


@pytest.mark.parametrize("game", [Game.NINE_BALL, Game.EIGHT_BALL])
def test_000_2_a_foreign_cue_ball_is_refused(game: Game) -> None:
    """ "yellow moved, no stroke" was the call of a nine-ball shot whose struck ball was the yellow."""
    pos = {CUE: (300.0, 600.0), BallId.YELLOW: (500.0, 600.0)}
    events = [ShotStart(0.0, 0, 1, 1.0, BallId.YELLOW, pos), ShotEnd(3.0, 90, 1, 1.0, pos)]
    with pytest.raises(
        TabletrackError, match=f"shot 1, shot_start event at t=0.000 s: 'yellow' is not a ball of {game.value}"
    ):
        judge_events(events, game)


@pytest.mark.parametrize("game", [Game.NINE_BALL, Game.EIGHT_BALL, Game.STRAIGHT_POOL, Game.SNOOKER])
def test_000_2_6_a_ball_pocketed_twice_in_one_stroke_is_refused(game: Game) -> None:
    ball = BallId.RED_1 if game is Game.SNOOKER else ONE
    balls = (CUE, ball, BallId.BLACK) if game is Game.SNOOKER else (CUE, ONE, NINE)
    events = _shot(
        Pocketed(1.0, 30, 1, 1.0, ball, Pocket.FOOT_LEFT),
        Pocketed(1.5, 45, 1, 1.0, ball, Pocket.SIDE_LEFT),
        balls=balls,
    )
    with pytest.raises(
        TabletrackError, match=rf"shot 1, pocket event at t=1.500 s: {ball.value} was pocketed \(foot_left\)"
    ):
        judge_events(events, game)


def test_a_carom_table_is_refused_for_nine_ball(tmp_path: Path) -> None:
    """It was accepted, and the break called illegal for want of a rack on a foot spot."""
    log = tmp_path / "events.jsonl"
    log.write_text("".join(json.dumps(event_to_dict(e)) + "\n" for e in _shot()))
    r = subprocess.run(
        [sys.executable, "-m", "tabletrack", "judge", str(log), "--game", "nine-ball", "--table", "carom"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert "nine-ball is played on a pool table, but the table is 'carom_match' (carom)" in lines[0]
