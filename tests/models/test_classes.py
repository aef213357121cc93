"""Label sets of the detector (issue 4 section 2 classes): pool cue, 1..15; carom white, yellow,
red; snooker cue, red, yellow, green, brown, blue, pink, black (reds told apart by tracking)."""

from __future__ import annotations

import pytest

from models.classes import (
    CLASSIFIER_CLASSES,
    GAME_LABELS,
    POOL_KINDS,
    GameError,
    class_index,
    game_mask,
    label_of,
    pool_kind,
)
from tracking.ids import BallId


def test_every_label_is_a_ball_id():
    for labels in GAME_LABELS.values():
        for label in labels:
            assert BallId.parse(label).value == label


@pytest.mark.parametrize(
    "game, ball, label",
    [
        ("snooker", BallId.RED_7, "red"),
        ("snooker", BallId.CUE, "cue"),
        ("pool", BallId.B15, "15"),
        ("carom", BallId.WHITE, "white"),
    ],
)
def test_label_of(game, ball, label):
    assert label_of(game, ball) == label


@pytest.mark.parametrize("game, ball", [("carom", BallId.CUE), ("pool", BallId.WHITE), ("snooker", BallId.B3)])
def test_label_of_foreign_ball(game, ball):
    with pytest.raises(GameError):
        label_of(game, ball)


def test_game_mask_keeps_the_game_and_none():
    m = game_mask("carom")
    kept = [c for c, k in zip(CLASSIFIER_CLASSES, m) if k]
    assert kept == ["carom:white", "carom:yellow", "carom:red", "none"]
    assert class_index("pool", "cue") != class_index("snooker", "cue")
    with pytest.raises(GameError):
        game_mask("golf")


@pytest.mark.parametrize(
    "label, kind",
    [
        ("cue", "cue"),
        ("1", "solid"),
        ("7", "solid"),
        ("8", "eight"),
        ("9", "stripe"),
        ("15", "stripe"),
        ("16", None),
        ("0", None),
        ("white", None),
        ("none", None),
    ],
)
def test_pool_kind_is_eight_balls_groups(label, kind):
    # 002 bola 8 ART 1.2: the solids 1-7, the stripes 9-15, the 8 apart
    assert pool_kind(label) == kind


def test_pool_kinds_are_what_pool_kind_gives():
    assert {pool_kind(lab) for lab in GAME_LABELS["pool"]} == set(POOL_KINDS)
