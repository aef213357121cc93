"""The call of a shot played after the match is over: one rule for every game.

A log can go on after the match ended (the players kept practising, the clip ran on, a numbering
mistake in the referee input). Such a shot is never scored and never changes the state; its call
says so, repeats the final score and the winner, and asks for review (``needs_review``): judging
a shot the rules do not cover is exactly what a human should look at. The turn is not "over"
(``turn_over`` false): there is no next turn. Each engine words the reason with its own article
(who won and how) and adds its own score-sheet extras; the flags are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.call import Call
from rules.core.games import Game
from tracking.events import Shot
from tracking.ids import BallId

__all__ = ["after_match_call", "AFTER_MATCH_REVIEW"]

#: The review reason of a shot after the end of the match (the default).
AFTER_MATCH_REVIEW = "Needs review: the log goes on after the end of the match."


def after_match_call(
    game: Game,
    shot: Shot,
    *,
    player: str,
    score: Mapping[str, int],
    winner: str | None,
    reason: str,
    note: str | None,
    cue_ball: BallId | None = None,
    summary: str | None = "after the match",
    review_reason: str = AFTER_MATCH_REVIEW,
    details: Mapping[str, Any] | None = None,
    **extras: Any,
) -> Call:
    """The call of ``shot``, played after the match ended: no points, no foul, ``game_over`` and
    ``match_over``, ``needs_review``. ``reason``: the engine's sentence (with its article);
    ``cue_ball``: the shot start's where not given; ``extras``: further :class:`Call` fields of
    the game (carom: innings, high runs, sets)."""
    if cue_ball is None and shot.start is not None:
        cue_ball = shot.start.cue_ball
    return Call(
        shot=shot.number,
        game=game,
        player=player,
        legal=True,
        foul=None,
        points=0,
        turn_over=False,
        game_over=True,
        reason=reason,
        score=score,
        needs_review=True,
        cue_ball=cue_ball,
        match_over=True,
        winner=winner,
        review_reason=review_reason,
        note=note,
        summary=summary,
        details={} if details is None else details,
        **extras,
    )
