"""Rules engines: one per game, fed shots of events, giving verdicts (calls) and a game state.

``rules`` never sees a pixel or a coordinate: it reads the event log (DESIGN.md) and the referee
input, and imports only :mod:`tracking`'s event types. Entry points::

    from rules import judge_events, parse_game, load_referee_input, CallWriter
    calls, state = judge_events(read_events("events.jsonl"), "three-cushion",
                                load_referee_input("referee.json"), on_call=writer.write)

Layout (README.md): :mod:`rules.core` is what every game shares (the games, the Engine protocol,
the call and ``calls.jsonl``, judging a log, the opening check, evidence review, referee-input
parsing helpers, foul info, the after-match call); each family is one package with the same file
names for the same roles: :mod:`rules.carom` (three- and one-cushion), :mod:`rules.balkline`,
:mod:`rules.nine_ball`, :mod:`rules.eight_ball`, :mod:`rules.straight_pool`, :mod:`rules.snooker`.
The names below are the public API; the carom ones (``GameState``, ``MatchSetup`` …, the score
sheet) are kept here for the callers that judge three-cushion, the default game.
"""

from rules.carom.config import MatchConfig
from rules.carom.fouls import Foul, parse_foul
from rules.carom.inputs import (
    MatchSetup,
    RefereeInput,
    ShotInput,
    StartState,
    Verdict,
    load_referee_input,
    parse_referee_input,
)
from rules.carom.sheet import format_score_sheet, score_sheet
from rules.carom.state import GameState
from rules.core.call import Call, CallWriter, call_to_dict
from rules.core.config import JudgeConfig
from rules.core.engine import ENGINE_MODULES, Engine, GameInput, engine_for
from rules.core.errors import RefereeInputError, RulesError, ShotError
from rules.core.games import Family, Game, UnknownGameError, parse_game
from rules.core.inputs import load_game_input, parse_game_input, read_input_json
from rules.core.judge import judge_events, judge_log
from rules.core.report import format_calls_table

__all__ = [
    "Call",
    "CallWriter",
    "call_to_dict",
    "JudgeConfig",
    "MatchConfig",
    "Engine",
    "engine_for",
    "RefereeInputError",
    "RulesError",
    "ShotError",
    "Foul",
    "parse_foul",
    "Game",
    "UnknownGameError",
    "parse_game",
    "judge_events",
    "judge_log",
    "MatchSetup",
    "RefereeInput",
    "ShotInput",
    "StartState",
    "Verdict",
    "load_referee_input",
    "parse_referee_input",
    "format_calls_table",
    "score_sheet",
    "GameState",
    "ENGINE_MODULES",
    "GameInput",
    "Family",
    "load_game_input",
    "parse_game_input",
    "read_input_json",
    "format_score_sheet",
]
