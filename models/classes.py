"""The detector's label sets: which names each game's balls go by, and the classifier's classes.

Contract: :data:`GAME_LABELS` lists, per game (the ``TableSpec.kind``: ``carom``, ``pool``,
``snooker``), the labels the detector reports; each is a :class:`~tracking.ids.BallId` value.
Snooker reds are all ``red`` (tracking tells them apart). :data:`CLASSIFIER_CLASSES` is the
classifier network's output order: ``game:label`` for every game's labels, then ``none`` (a crop
that holds no ball: a diamond, a pocket, a hand). One network serves every game; at inference the
logits of the other games are masked out (:func:`game_mask`), so look-alikes across games (a carom
white and a pool cue ball) never compete.
"""

from __future__ import annotations

from common.errors import TabletrackError
from tracking.ids import POOL_KINDS as _POOL_KINDS
from tracking.ids import BallId
from tracking.ids import pool_kind as _ball_kind

GAMES: tuple[str, ...] = ("carom", "pool", "snooker")

GAME_LABELS: dict[str, tuple[str, ...]] = {
    "carom": ("white", "yellow", "red"),
    "pool": ("cue",) + tuple(str(i) for i in range(1, 16)),
    "snooker": ("cue", "red", "yellow", "green", "brown", "blue", "pink", "black"),
}

NONE_CLASS = "none"

CLASSIFIER_CLASSES: tuple[str, ...] = tuple(f"{g}:{lab}" for g in GAMES for lab in GAME_LABELS[g]) + (NONE_CLASS,)

#: A pool ball's kind (:data:`tracking.ids.POOL_KINDS`): what the eight-ball figures count a
#: ball right by.
POOL_KINDS: tuple[str, ...] = _POOL_KINDS


class GameError(TabletrackError):
    """A game name the detector has no labels for."""


def check_game(game: str) -> str:
    if game not in GAME_LABELS:
        raise GameError(f"game: expected one of {', '.join(GAMES)}, got {game!r}")
    return game


def label_of(game: str, ball: BallId) -> str:
    """The detector label of a ball id in a game (snooker ``red_7`` -> ``red``)."""
    check_game(game)
    v = ball.value
    if game == "snooker" and v.startswith("red_"):
        v = "red"
    if v not in GAME_LABELS[game]:
        raise GameError(f"ball {ball.value!r}: expected a ball of {game} ({', '.join(GAME_LABELS[game])})")
    return v


def class_index(game: str, label: str) -> int:
    """Index in :data:`CLASSIFIER_CLASSES` of ``label`` in ``game`` (``none`` for no ball)."""
    if label == NONE_CLASS:
        return len(CLASSIFIER_CLASSES) - 1
    return CLASSIFIER_CLASSES.index(f"{check_game(game)}:{label}")


def pool_kind(label: str) -> str | None:
    """The kind (:data:`POOL_KINDS`) of a pool label (``cue``, ``1`` ... ``15``); None for any other."""
    try:
        return _ball_kind(BallId(label))
    except ValueError:
        return None


def game_mask(game: str) -> list[bool]:
    """Which classifier outputs belong to ``game`` (its labels and ``none``)."""
    check_game(game)
    return [c == NONE_CLASS or c.split(":", 1)[0] == game for c in CLASSIFIER_CLASSES]
