"""Judging shots as they finish: the one place the app turns a :class:`tracking.events.Shot` into
a :class:`rules.core.call.Call`, writes it to ``calls.jsonl`` and keeps the score sheet current.

``analyze`` and ``live`` both judge through :class:`ShotJudge`, so a live session and the
analysis of its recording make the same calls from the same events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from calibration.table import TableSpec
from common.atomic import write_text_atomic
from rules import CallWriter, JudgeConfig, engine_for, judge_events, load_game_input, parse_game
from rules.core.call import Call
from rules.core.judge import check_referee_shots, with_opening
from rules.core.opening import OpeningSight, opening_input
from rules.core.parsing import read_input_json
from tabletrack.annotate import CallOverlay
from tabletrack.blind import BlindLog
from tabletrack.tables import table_spots
from tabletrack.visibility import GapLog
from tracking.events import Event, Shot, group_shots
from tracking.ids import BallId

__all__ = ["ShotJudge", "call_text"]


class ShotJudge:
    """Judges each finished shot as it comes, writes its call (one JSON line, flushed) and rewrites
    ``score_sheet.json`` beside ``calls_path`` after each call."""

    def __init__(
        self,
        game: str,
        referee_path: str | None,
        fps: float,
        calls_path: Path,
        table: TableSpec | None = None,
        sheet_path: Path | None = None,
        gaps: GapLog | None = None,
        blind: BlindLog | None = None,
    ) -> None:
        g = parse_game(game)
        self.game = g
        self.raw_ref = read_input_json(referee_path) if referee_path else None
        self.ref_name = Path(referee_path).name if referee_path else "referee input"
        self.ref = load_game_input(referee_path, g) if referee_path else None
        self.opening = table_spots(table) if table is not None else None
        self.config = JudgeConfig(frame_period_s=1.0 / fps)
        self.engine = engine_for(g, self.config, self.opening)
        self.state: Any = None
        self.calls_path = calls_path
        self.writer = CallWriter(calls_path)
        self.sheet_path = sheet_path or calls_path.with_name("score_sheet.json")
        self.gaps = gaps or GapLog()
        self.blind = blind or BlindLog()
        self.calls: list[Call] = []
        self._call_frames: dict[int, int] = {}
        #: while set, every call made is held: ``needs_review`` with this reason (live: the camera moved)
        self.hold_reason: str | None = None
        self.held: dict[int, str] = {}
        # balls_on_table's caches: the state it was computed for, and the referee input's start state
        self._on_table_for: Any = None
        self._on_table: frozenset[BallId] | None = None
        self._start_for: Any = None
        self._start: Any = None

    def _judged(self, shot: Shot) -> tuple[Call, Any, Any, OpeningSight | None]:
        """The call of ``shot`` from the current state, flagged for the gaps and blind spells it
        touches (:mod:`tabletrack.visibility`, :mod:`tabletrack.blind`), and the
        state, referee input and opening sight after it; nothing is kept. The first shot starts
        from the referee's state, or a new game whose first shot is a break only where its start
        shows the break position (:mod:`rules.core.opening`)."""
        state, ref, sight = self.state, self.ref, None
        if state is None:
            raw, sight = opening_input(self.raw_ref, self.game, shot.start, self.opening)
            if sight is not None:
                ref = self.engine.parse_input(raw, self.ref_name)
            state = self.engine.initial_state(ref.setup if ref else None)
        call, after = self.engine.judge_shot(state, shot, ref.for_shot(shot.number) if ref else None)
        if sight is not None:
            call = with_opening(call, sight)
        return _flag_blind(_flag_gaps(call, shot, self.gaps), shot, self.blind), after, ref, sight

    def judge(self, shot: Shot) -> Call:
        """The call of ``shot`` (the next one in order), written before it is returned."""
        call, self.state, self.ref, _ = self._judged(shot)
        if self.hold_reason is not None:
            self.held[shot.number] = self.hold_reason
        call = self._held(call)
        self.writer.write(call)
        self.calls.append(call)
        self._write_sheet()
        end = shot.end
        self._call_frames[shot.number] = end.frame if end else shot.events[-1].frame
        return call

    def preview(self, shot: Shot) -> tuple[Call, dict[str, Any]]:
        """The call ``shot`` would get and the score sheet after it, changing nothing (no state,
        no file): live mode shows it the moment the balls stop, before the shot is settled and
        :meth:`judge` makes it final. The engines' states are frozen, so judging from the current
        state without keeping the result is free of side effects."""
        call, after, _, _ = self._judged(shot)
        if self.hold_reason is not None:
            call = _for_review(call, self.hold_reason)
        return call, self.engine.score_sheet(after)

    def _held(self, call: Call) -> Call:
        reason = self.held.get(call.shot)
        return call if reason is None else _for_review(call, reason)

    def set_input(self, raw: Mapping[str, Any] | None) -> None:
        """Replace the referee input for the shots still to come (live: a referee action). The
        input is checked by the game's engine first: a bad one raises and changes nothing."""
        parsed = self.engine.parse_input(dict(raw), self.ref_name) if raw is not None else None
        self.raw_ref, self.ref = (dict(raw) if raw is not None else None), parsed

    def rejudge(self, events: Sequence[Event], raw: Mapping[str, Any] | None) -> list[Call]:
        """Judge every shot of ``events`` again from the start with the referee input ``raw``,
        through :func:`rules.core.judge.judge_events`, the path ``tabletrack judge`` takes, so a
        referee action and a later ``judge`` of the exported log agree. The per-shot input of shots
        the log does not have yet stays for them. Rewrites ``calls.jsonl`` and the score sheet and
        continues from the final state; raises (and changes nothing) where the input does not fit
        the shots (a push-out where none is allowed ...)."""
        shots = group_shots(list(events))
        have = {str(s.number) for s in shots}
        now = dict(raw or {})
        if isinstance(now.get("shots"), Mapping):
            now["shots"] = {k: v for k, v in now["shots"].items() if k in have}
        calls, state = judge_events(events, self.game, now, self.config, table=self.opening)
        self.set_input(raw)
        self.state = state if shots else None
        self.calls = [self._held(c) for c in calls]
        for shot in shots:
            end = shot.end
            self._call_frames[shot.number] = end.frame if end else shot.events[-1].frame
        self.writer.close()
        self.writer = CallWriter(self.calls_path)
        for c in self.calls:
            self.writer.write(c)
        self._write_sheet()
        return list(self.calls)

    def _write_sheet(self) -> None:
        """The score sheet after the last call, replaced atomically (never a half-written file)."""
        write_text_atomic(self.sheet_path, json.dumps(self.score_sheet(), ensure_ascii=False, indent=1) + "\n")

    def check_shots(self) -> None:
        """Refuse, as ``judge`` does, referee input for a shot the video never had (a numbering
        mistake must not be silently dropped); the run's outputs then stay ``*.partial``."""
        if self.ref is not None:
            check_referee_shots(self.ref, [c.shot for c in self.calls], "the video (its outputs are left as *.partial)")

    def balls_on_table(self) -> frozenset[BallId] | None:
        """The balls the game has on the table now: after the last call, by its state; before the
        first, by the referee input's start (a new game when it gives none); None where the game
        does not know them (no referee input before the first call, a log started mid-rack
        without them, 14.1's re-racks, carom: :meth:`rules.core.engine.Engine.balls_on_table`).
        The tracker then counts as possibly appearing only these balls' absence (a ball pocketed
        before the clip cannot be placed or found; the analysis takes fewer key frames and skips
        still frames sooner). Computed once per state."""
        state: Any = self.state
        if state is None:
            if self.ref is None:
                return None
            if self._start_for is not self.ref:
                self._start_for, self._start = self.ref, self.engine.initial_state(self.ref.setup)
            state = self._start
        if self._on_table_for is not state:
            self._on_table_for, self._on_table = state, self.engine.balls_on_table(state)
        return self._on_table

    def score_sheet(self) -> dict[str, Any]:
        """The game's score sheet after the last call (empty before the first)."""
        return self.engine.score_sheet(self.state) if self.state is not None else {}

    def overlays(self) -> list[CallOverlay]:
        return [CallOverlay(c.shot, self._call_frames.get(c.shot, 0), call_text(c), c.points > 0) for c in self.calls]

    def close(self) -> None:
        self.writer.close()


class _Described(Protocol):
    """A gap or a blind spell: what it was, in words."""

    def describe(self) -> str: ...


#: how far before a shot's start or after its end a gap still touches it: the stroke itself (cue
#: ball accelerating) is seen a few frames before the fitted start
GAP_MARGIN_S = 0.5


def _flag_gaps(call: Call, shot: Shot, gaps: GapLog) -> Call:
    """``call`` marked for review when the table was not seen during its shot (or within
    :data:`GAP_MARGIN_S` of it): what happened in the gap is unknown, so the call is not certain."""
    return _flag_touching(call, shot, lambda t0, t1: gaps.touching(t0, t1, GAP_MARGIN_S))


def _flag_blind(call: Call, shot: Shot, blind: BlindLog) -> Call:
    """``call`` marked for review when a ball moved unseen during its shot, the table being in view
    (:mod:`tabletrack.blind`): a contact or cushion then has no path to be found from."""
    return _flag_touching(call, shot, blind.touching)


def _flag_touching(call: Call, shot: Shot, touching: Callable[[float, float], Sequence[_Described]]) -> Call:
    """``call`` marked for review with the description of each thing ``touching`` finds over its
    shot's span (first to last event), unchanged where it finds none."""
    if not shot.events:
        return call
    found = touching(shot.events[0].t_s, max(e.t_s for e in shot.events))
    if not found:
        return call
    return _for_review(call, "; ".join(x.describe() for x in found))


def _for_review(call: Call, why: str) -> Call:
    """``call`` with ``needs_review`` and ``why`` added to its review reason."""
    reason = f"{call.review_reason}; {why}" if call.review_reason else why
    return replace(call, needs_review=True, review_reason=reason)


def call_text(c: Call) -> str:
    """The call in a few words, as the annotated video and the live pages show it."""
    if c.summary:
        text = c.summary
    elif c.foul:
        text = f"FOUL ({c.foul.value.replace('_', ' ')})"
    elif c.points > 0:
        text = f"POINT {c.carom_case}" if c.carom_case else "POINT"
    else:
        text = "MISS"
    return text + ("  - needs review" if c.needs_review else "")
