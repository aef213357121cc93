"""The shape every rules engine has, and the engine of each game.

An engine is pure: ``judge_shot(state, shot, shot_input) -> (Call, new_state)`` reads one shot's
events and the referee's input for it and returns the verdict and the next state, touching
nothing else; ``initial_state(setup)`` gives the state before the first shot (a new game, or the
referee's mid-game start). So a verdict can be replayed from any state, a live server can keep the
state between shots, and a test can build any situation by hand.

Each game family keeps its own state type, fouls and referee input (a nine-ball state knows the
balls on the table and the consecutive fouls; a carom state the innings), so the protocol also
asks each engine to read its own referee input (``parse_input``: the decoded JSON of
``referee.json`` → an object with ``setup``, ``shots`` and ``for_shot(n)``) and to write its own
score sheet (``score_sheet``: JSON-ready; ``format_score_sheet``: the readable table).

Engines are registered by module path and imported when first asked for, so ``rules`` starts fast
and one game's module never loads another's.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.games import Game, parse_game
from rules.core.table import TableSpots
from tracking.events import Shot
from tracking.ids import BallId

__all__ = ["Engine", "GameInput", "ENGINE_MODULES", "engine_for", "StateT", "InputT", "SetupT"]

#: A game's state (NineBallState, GameState …).
StateT = TypeVar("StateT")
#: A game's referee input for one shot (NineBallShotInput, ShotInput …).
InputT = TypeVar("InputT")
#: A game's match setup (the referee input's players, match and start).
SetupT = TypeVar("SetupT")
#: The same, as :class:`GameInput` only gives them out.
SetupT_co = TypeVar("SetupT_co", covariant=True)
InputT_co = TypeVar("InputT_co", covariant=True)


class GameInput(Protocol[SetupT_co, InputT_co]):
    """A game's parsed referee input: the match setup (or None: a new game) and per-shot inputs."""

    @property
    def setup(self) -> SetupT_co | None: ...

    @property
    def shots(self) -> Mapping[int, InputT_co]: ...

    def for_shot(self, number: int) -> InputT_co | None: ...


class Engine(Protocol[StateT, InputT]):
    """A game's rules, generic over its state and its per-shot referee input: the state before
    the first shot (``initial_state``: each family builds it with its one module-level
    ``initial_state``), the verdict of each shot, its referee input and its score sheet."""

    game: Game

    def initial_state(self, setup: Any = None) -> StateT: ...

    def judge_shot(self, state: StateT, shot: Shot, shot_input: InputT | None = None) -> tuple[Call, StateT]: ...

    def parse_input(self, obj: Any, where: str = "referee input") -> GameInput[Any, InputT]: ...

    def score_sheet(self, state: StateT) -> dict[str, Any]: ...

    def balls_on_table(self, state: StateT) -> frozenset[BallId] | None:
        """The balls ``state`` has on the table (the cue ball with them), for the tracker to know
        which balls may yet appear; None where the game does not know them, or brings balls back
        to the table that are off it now (14.1's re-rack), or keeps every ball on it (carom)."""
        ...

    def format_score_sheet(self, state: StateT) -> str: ...


#: Where each game's engine lives: a module with ``make_engine(game, config, table) -> Engine``.
ENGINE_MODULES: dict[Game, str] = {
    Game.THREE_CUSHION: "rules.carom.engine",
    Game.ONE_CUSHION: "rules.carom.engine",
    Game.LIBRE: "rules.balkline.engine",
    Game.BALKLINE_47_2: "rules.balkline.engine",
    Game.BALKLINE_47_1: "rules.balkline.engine",
    Game.BALKLINE_71_2: "rules.balkline.engine",
    Game.PENTATHLON: "rules.balkline.engine",
    Game.TRIATHLON: "rules.balkline.engine",
    Game.NINE_BALL: "rules.nine_ball.engine",
    Game.TEN_BALL: "rules.nine_ball.engine",
    Game.SEVEN_BALL: "rules.nine_ball.engine",
    Game.SIX_BALL: "rules.nine_ball.engine",
    Game.ROTATION: "rules.nine_ball.engine",
    Game.EIGHT_BALL: "rules.eight_ball.engine",
    Game.STRAIGHT_POOL: "rules.straight_pool.engine",
    Game.SNOOKER: "rules.snooker.engine",
}


def engine_for(
    game: Game | str, config: JudgeConfig | None = None, table: TableSpots | None = None
) -> Engine[Any, Any]:
    """The engine that officiates ``game`` (a :class:`Game` or its name), judging evidence per
    ``config`` (defaults of :class:`JudgeConfig`). ``table``: the table played on (its spots; snooker respots its colours there); None: the
    game's standard table."""
    g = parse_game(game)
    module = importlib.import_module(ENGINE_MODULES[g])
    return module.make_engine(g, config or JudgeConfig(), table)
