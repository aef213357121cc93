"""Pentathlon and triathlon (002 ART 28-30): one match made of several carom games in a fixed
order, each played under its own rules (ART 28.1).

Pentathlon (ART 29): libre, cuadro 47/1, cuadro 71/2, one-cushion, three-cushion; triathlon
(ART 30): cuadro 71/2, one-cushion, three-cushion; "in this order" (29.2, 30.2). Each modality is a
separate game judged by its own engine (:mod:`rules.balkline.engine` or
:mod:`rules.carom.engine`) to its own distance (referee input ``match.distances``, keyed by game
name; a modality without one is played on and never ends). When a modality ends the next begins
from the break position with the other player starting (the rules do not say who starts each
modality; alternating is this engine's reading, and ``start.modality`` / ``start.starter`` of the
referee input set any other start).

The match result is not fixed by ART 28-30 (each modality is "una partida distinta"): this engine
scores 2 match points for a modality won, 1 for a draw (ART 12.4), and the winner is the player
with more match points, then the better general average (points / innings over every modality),
as carom competitions rank players; ``draw`` if both are equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.balkline.engine import split_match_keys
from rules.carom.config import MatchConfig
from rules.carom.inputs import MatchSetup, ShotInput, StartState, parse_referee_input
from rules.core.call import Call
from rules.core.config import JudgeConfig
from rules.core.engine import engine_for
from rules.core.errors import RefereeInputError, ShotError
from rules.core.games import Game, parse_game
from tracking.events import Shot
from tracking.ids import BallId

__all__ = ["SEQUENCES", "ModalityResult", "MultiSetup", "MultiInput", "MultiState", "MultiCaromEngine"]

SEQUENCES: dict[Game, tuple[Game, ...]] = {
    Game.PENTATHLON: (Game.LIBRE, Game.BALKLINE_47_1, Game.BALKLINE_71_2, Game.ONE_CUSHION, Game.THREE_CUSHION),
    Game.TRIATHLON: (Game.BALKLINE_71_2, Game.ONE_CUSHION, Game.THREE_CUSHION),
}


@dataclass(frozen=True)
class ModalityResult:
    """One finished modality: the game, points and innings per player, winner index or None."""

    game: Game
    points: tuple[int, int]
    innings: tuple[int, int]
    winner: int | None


@dataclass(frozen=True)
class MultiSetup:
    """Players, each modality's distance, the innings limit, and where the log starts (the
    modality being played and that modality's start state)."""

    players: tuple[str, str]
    distances: Mapping[Game, int]
    innings_limit: int | None
    modality: Game
    start: StartState | None


@dataclass(frozen=True)
class MultiInput:
    setup: MultiSetup
    shots: Mapping[int, ShotInput]

    def for_shot(self, number: int) -> ShotInput | None:
        return self.shots.get(number)


@dataclass(frozen=True)
class MultiState:
    """The modality being played (index into the sequence), its engine's state, the finished
    modalities, and the setup (distances, players)."""

    game: Game
    setup: MultiSetup
    index: int
    current: Any
    results: tuple[ModalityResult, ...] = ()
    match_over: bool = False

    @property
    def modality(self) -> Game:
        return SEQUENCES[self.game][self.index]


def _carom_state(state: Any) -> Any:
    """The carom GameState inside a modality's state (balk-line states wrap it)."""
    return getattr(state, "carom", state)


@dataclass(frozen=True)
class MultiCaromEngine:
    game: Game
    config: JudgeConfig = field(default_factory=JudgeConfig)

    def _sub(self, g: Game) -> Any:
        return engine_for(g, self.config)

    def parse_input(self, obj: Any, where: str = "referee input") -> MultiInput:
        rest, taken = split_match_keys(obj, where, ("distances",))
        start = rest.get("start")
        modality_name = None
        if isinstance(start, dict) and "modality" in start:
            start = dict(start)
            modality_name = start.pop("modality")
            rest["start"] = start
        if isinstance(rest.get("match"), dict) and rest["match"].get("distance") is not None:
            raise RefereeInputError(
                f"{where}: match.distance: give each modality's distance in match.distances "
                f"({self.game.value}, 002 ART 28.1), got distance {rest['match']['distance']!r}"
            )
        ref = parse_referee_input(rest, where)
        seq = SEQUENCES[self.game]
        distances: dict[Game, int] = {}
        raw = taken.get("distances") or {}
        if not isinstance(raw, dict):
            raise RefereeInputError(f"{where}: match.distances must be an object keyed by game, got {raw!r}")
        for k, v in raw.items():
            g = parse_game(k)
            if g not in seq:
                raise RefereeInputError(
                    f"{where}: match.distances: {g.value} is not a modality of {self.game.value} "
                    f"({', '.join(x.value for x in seq)})"
                )
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise RefereeInputError(f"{where}: match.distances.{k} must be a positive integer, got {v!r}")
            distances[g] = v
        modality = seq[0] if modality_name is None else parse_game(modality_name)
        if modality not in seq:
            raise RefereeInputError(
                f"{where}: start.modality must be one of {', '.join(x.value for x in seq)}, got {modality.value}"
            )
        setup = MultiSetup(
            players=ref.setup.players,
            distances=distances,
            innings_limit=ref.setup.match.innings_limit,
            modality=modality,
            start=ref.setup.start,
        )
        return MultiInput(setup, ref.shots)

    def _modality_state(self, setup: MultiSetup, g: Game, start: StartState | None) -> Any:
        match = MatchConfig(distance=setup.distances.get(g), innings_limit=setup.innings_limit)
        return self._sub(g).initial_state(MatchSetup(players=setup.players, match=match, start=start))

    def initial_state(self, setup: MultiSetup | None = None) -> MultiState:
        seq = SEQUENCES[self.game]
        setup = setup or MultiSetup(
            players=MatchSetup().players, distances={}, innings_limit=None, modality=seq[0], start=None
        )
        index = seq.index(setup.modality)
        return MultiState(self.game, setup, index, self._modality_state(setup, setup.modality, setup.start))

    def judge_shot(self, state: MultiState, shot: Shot, shot_input: ShotInput | None = None) -> tuple[Call, MultiState]:
        if state.game is not self.game:
            raise ShotError(f"this engine judges {self.game.value}, got a {state.game.value} state")
        seq = SEQUENCES[self.game]
        g = state.modality
        call, sub_state = self._sub(g).judge_shot(state.current, shot, shot_input)
        details = {"modality": g.value, "modality_number": state.index + 1, **call.details}
        if state.match_over or not call.match_over:
            return (
                replace(call, game=self.game, details=details, match_over=state.match_over),
                replace(state, current=sub_state),
            )
        cs = _carom_state(sub_state)
        result = ModalityResult(
            g, (cs.players[0].points, cs.players[1].points), (cs.players[0].innings, cs.players[1].innings), cs.winner
        )
        results = state.results + (result,)
        names = state.setup.players
        if state.index + 1 < len(seq):
            nxt = seq[state.index + 1]
            starter = 1 - _carom_state(state.current).starter
            new_sub = self._modality_state(
                state.setup, nxt, StartState(at_table=names[starter], starter=names[starter])
            )
            reason = (
                call.reason + f" {g.value} is over; next modality: {nxt.value}, {names[starter]} starts "
                f"(002 ART {'29' if self.game is Game.PENTATHLON else '30'})."
            )
            return (
                replace(call, game=self.game, reason=reason, details=details, match_over=False, winner=None),
                MultiState(self.game, state.setup, state.index + 1, new_sub, results),
            )
        winner, how = self._winner(results)
        reason = call.reason + f" {self.game.value} is over: {how}."
        return (
            replace(
                call,
                game=self.game,
                reason=reason,
                details=details,
                match_over=True,
                winner=None if winner is None else names[winner],
                draw=winner is None,
            ),
            MultiState(self.game, state.setup, state.index, sub_state, results, match_over=True),
        )

    def _winner(self, results: tuple[ModalityResult, ...]) -> tuple[int | None, str]:
        mp = [0, 0]
        for r in results:
            if r.winner is None:
                mp[0] += 1
                mp[1] += 1
            else:
                mp[r.winner] += 2
        if mp[0] != mp[1]:
            w = 0 if mp[0] > mp[1] else 1
            return w, f"match points {mp[0]}-{mp[1]}"
        av = []
        for i in (0, 1):
            pts = sum(r.points[i] for r in results)
            inn = sum(r.innings[i] for r in results)
            av.append(pts / inn if inn else 0.0)
        if av[0] != av[1]:
            w = 0 if av[0] > av[1] else 1
            return w, f"match points {mp[0]}-{mp[1]}, general average {av[0]:.3f}-{av[1]:.3f}"
        return None, f"match points {mp[0]}-{mp[1]} and equal general averages: a draw"

    def balls_on_table(self, state: MultiState) -> frozenset[BallId] | None:
        """None: the three balls are always in play."""
        return None

    def score_sheet(self, state: MultiState) -> dict[str, Any]:
        names = state.setup.players
        winner, how = self._winner(state.results) if state.match_over else (None, None)
        return {
            "game": self.game.value,
            "modalities": [g.value for g in SEQUENCES[self.game]],
            "results": [
                {
                    "modality": r.game.value,
                    "points": {names[i]: r.points[i] for i in (0, 1)},
                    "innings": {names[i]: r.innings[i] for i in (0, 1)},
                    "winner": None if r.winner is None else names[r.winner],
                }
                for r in state.results
            ],
            "current": None
            if state.match_over
            else {"modality": state.modality.value, "sheet": self._sub(state.modality).score_sheet(state.current)},
            "match_over": state.match_over,
            "winner": None if winner is None else names[winner],
            "result": how,
        }

    def format_score_sheet(self, state: MultiState) -> str:
        names = state.setup.players
        lines = [f"{self.game.value} score sheet"]
        for r in state.results:
            won = "draw" if r.winner is None else f"{names[r.winner]} wins"
            lines.append(
                f"{r.game.value}: {names[0]} {r.points[0]} ({r.innings[0]} inn.) - {names[1]} {r.points[1]} "
                f"({r.innings[1]} inn.), {won}"
            )
        if state.match_over:
            lines.append(self.score_sheet(state)["result"])
        else:
            lines.append(f"now playing {state.modality.value}:")
            lines.append(self._sub(state.modality).format_score_sheet(state.current))
        return "\n".join(lines)
