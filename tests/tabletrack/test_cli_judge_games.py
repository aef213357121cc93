"""`tabletrack judge EVENTS --game G [--input REF]` for every game (issue 3): the calls, the table and
the score sheet, in process (the CLI's main) so that 16 games stay fast."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from rules import Game
from rules.core.shot_check import event_balls
from rules.nine_ball.variants import VARIANTS
from synth.physics.shots import load_shot
from tabletrack.cli import main
from tracking.eventlog import read_events, write_events
from tracking.events import Event, ShotEnd, ShotStart
from tracking.ids import BallId

REPO = Path(__file__).resolve().parents[2]
XCHECK = REPO / "tests" / "fixtures" / "pooltool_xcheck"


def _log_for(game: Game, tmp: Path) -> Path:
    """A log the game can be judged on: a carom shot for the carom games, the first racks of the
    pooltool nine-ball match for the pool games, the snooker match for snooker."""
    out = tmp / "events.jsonl"
    if game.family.value == "carom":
        write_events(out, load_shot("point_2a").events)
    else:
        src = XCHECK / ("snooker" if game is Game.SNOOKER else "nine-ball") / "events.jsonl"
        events = [e for e in read_events(src) if e.shot <= 40]
        variant = VARIANTS.get(game)
        if variant is not None and len(variant.balls) < 9:
            # six- and seven-ball racks have no 8 or 9 (rules/core/shot_check.py refuses a ball
            # of another game): the nine-ball match with those balls taken off the table
            keep = {BallId.CUE, *variant.balls}
            events = [_only(e, keep) for e in events if all(b in keep for b in _moving(e))]
        write_events(out, events)
    return out


def _moving(e: Event) -> tuple[BallId, ...]:
    """The balls an event is about (not the layouts of a shot's start or end)."""
    if isinstance(e, (ShotStart, ShotEnd)):
        return (e.cue_ball,) if isinstance(e, ShotStart) else ()
    return tuple(b for b in event_balls(e))


def _only(e: Event, keep: set[BallId]) -> Event:
    """``e`` with the layouts limited to ``keep``."""
    if isinstance(e, (ShotStart, ShotEnd)):
        e = replace(e, positions={b: p for b, p in e.positions.items() if b in keep})
    if isinstance(e, ShotStart):
        e = replace(
            e,
            frozen_to_cushion={b: c for b, c in e.frozen_to_cushion.items() if b in keep},
            balls_in_contact=tuple(p for p in e.balls_in_contact if p[0] in keep and p[1] in keep),
        )
    return e


@pytest.mark.parametrize("game", list(Game))
def test_judge_every_game(game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = _log_for(game, tmp_path)
    calls, sheet = tmp_path / "calls.jsonl", tmp_path / "sheet.json"
    assert main(["judge", str(events), "--game", game.value, "-o", str(calls), "--sheet", str(sheet)]) == 0
    out = capsys.readouterr().out
    lines = [json.loads(x) for x in calls.read_text().splitlines()]
    n = len({e.shot for e in read_events(events)})
    assert len(lines) == n and all(c["game"] == game.value for c in lines)
    # every verdict cites its rules document (000, 002, 003 or 004) and an article
    assert all(re.search(r"\b00[0-4]\b[^)]*\d", c["reason"]) for c in lines), [c["reason"] for c in lines][:3]
    assert "score sheet" in out.lower() or "player" in out.lower()
    assert json.loads(sheet.read_text())  # the JSON score sheet


@pytest.mark.parametrize(
    "game,bad,expect",
    [
        ("nine-ball", {"players": ["A"]}, "players"),
        ("eight-ball", {"shots": {"x": {}}}, "shot numbers"),
        ("snooker", {"match": {"frames": "many"}}, "match"),
        ("straight-pool", {"start": {"nobody": 1}}, "start"),
        ("libre", {"match": {"table_mm": [1]}}, "table_mm"),
    ],
)
def test_judge_bad_referee_input_is_one_line(
    game: str, bad: dict, expect: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = _log_for(Game(game), tmp_path)
    ref = tmp_path / "referee.json"
    ref.write_text(json.dumps(bad))
    assert main(["judge", str(events), "--game", game, "--input", str(ref)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expect in err and err.startswith("tabletrack: error:")
