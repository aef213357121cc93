"""The shape every rules engine has, and the engine of each game.

An engine is pure: ``judge_shot(state, shot, shot_input) -> (Call, new_state)`` reads one shot's
events and the referee's input for it and returns the verdict and the next state, touching
nothing else; ``initial_state(setup)`` gives the state before the first shot (a new game, or the
referee's mid-game start). So a verdict can be replayed from any state, a live server can keep the
state between shots, and a test can build any situation by hand. Engines for other games (pool,
snooker, the balk-line carom games) implement the same protocol with their own state type.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from rules.call import Call
from rules.config import JudgeConfig
from rules.cushion_carom import CushionCaromEngine
from rules.games import Game, parse_game
from rules.referee import MatchSetup, ShotInput
from tracking.events import Shot

S = TypeVar("S")


class Engine(Protocol[S]):
    """A game's rules: the state before the first shot, and the verdict of each shot."""

    game: Game

    def initial_state(self, setup: MatchSetup | None = None) -> S: ...

    def judge_shot(self, state: S, shot: Shot, shot_input: ShotInput | None = None) -> tuple[Call, S]: ...


def engine_for(game: Game | str, config: JudgeConfig | None = None) -> "CushionCaromEngine":
    """The engine that officiates ``game`` (a :class:`Game` or its name), judging evidence per
    ``config`` (defaults of :class:`JudgeConfig`)."""
    g = parse_game(game)
    cfg = config or JudgeConfig()
    if g is Game.THREE_CUSHION:
        return CushionCaromEngine(game=g, min_cushions=3, config=cfg)
    if g is Game.ONE_CUSHION:
        return CushionCaromEngine(game=g, min_cushions=1, config=cfg)
    raise AssertionError(f"no engine registered for {g.value}")  # every Game member has one (tested)
