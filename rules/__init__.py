"""Rules engines: one per game, fed shots of events, giving verdicts (calls) and a game state.

``rules`` never sees a pixel or a coordinate: it reads the event log (DESIGN.md) and the referee
input, and imports only :mod:`tracking`'s event types. Entry points::

    from rules import judge_events, parse_game, load_referee_input, CallWriter
    calls, state = judge_events(read_events("events.jsonl"), "three-cushion",
                                load_referee_input("referee.json"), on_call=writer.write)

Modules: :mod:`rules.games` (Game), :mod:`rules.fouls` (Foul), :mod:`rules.config` (JudgeConfig,
MatchConfig), :mod:`rules.referee` (referee input), :mod:`rules.state` (GameState),
:mod:`rules.carom_path` (what the cue ball did), :mod:`rules.cushion_carom` (the three- and
one-cushion engine), :mod:`rules.carom_match` (innings, series, end of game and sets),
:mod:`rules.evidence` (needs_review), :mod:`rules.call` (calls.jsonl), :mod:`rules.engine`
(the Engine protocol), :mod:`rules.judge` (judge_events), :mod:`rules.report` (table, score sheet).
"""

from rules.call import Call, CallWriter, call_to_dict
from rules.config import JudgeConfig, MatchConfig
from rules.engine import ENGINE_MODULES, Engine, GameInput, engine_for
from rules.errors import RefereeInputError, RulesError, ShotError
from rules.fouls import Foul, parse_foul
from rules.games import Family, Game, UnknownGameError, parse_game
from rules.inputs import load_game_input, parse_game_input, read_input_json
from rules.judge import judge_events, judge_log
from rules.referee import (
    MatchSetup,
    RefereeInput,
    ShotInput,
    StartState,
    Verdict,
    load_referee_input,
    parse_referee_input,
)
from rules.report import format_calls_table, format_score_sheet, score_sheet
from rules.state import GameState

__all__ = [
    "Call", "CallWriter", "call_to_dict", "JudgeConfig", "MatchConfig", "Engine", "engine_for",
    "RefereeInputError", "RulesError", "ShotError", "Foul", "parse_foul", "Game", "UnknownGameError",
    "parse_game", "judge_events", "judge_log", "MatchSetup", "RefereeInput", "ShotInput", "StartState",
    "Verdict", "load_referee_input", "parse_referee_input", "format_calls_table", "score_sheet", "GameState",
    "ENGINE_MODULES", "GameInput", "Family", "load_game_input", "parse_game_input", "read_input_json",
    "format_score_sheet",
]
