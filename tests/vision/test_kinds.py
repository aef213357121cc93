"""The classifier's kind outputs joined with its identities (vision/kinds.py): a pattern the kinds
are sure of moves the label within the game's balls and never touches ``none``; a model without
kind outputs is used as it is."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.kinds import KindMap, fuse_kinds, kind_map

LABELS = ("cue", "1", "5", "8", "13")
META = {
    "kinds": json.dumps(["pool:cue", "pool:solid", "pool:eight", "pool:stripe"]),
    "kind_of": json.dumps(
        {
            "pool:cue": "pool:cue",
            "pool:1": "pool:solid",
            "pool:5": "pool:solid",
            "pool:8": "pool:eight",
            "pool:13": "pool:stripe",
        }
    ),
}


def test_kind_map_points_each_label_at_its_kind_column():
    km = kind_map(META, "pool", LABELS, first_column=30)
    assert km == KindMap(columns=(30, 31, 32, 33), label_kind=(0, 1, 1, 2, 3))


@pytest.mark.parametrize(
    "meta, game",
    [
        ({}, "pool"),  # an older classifier: no kind outputs
        ({"kinds": META["kinds"]}, "pool"),  # kinds without the labels' map
        (META, "carom"),  # kinds of another game
    ],
)
def test_kind_map_is_none_without_kinds_for_the_game(meta, game):
    assert kind_map(meta, game, ("white", "yellow", "red") if game == "carom" else LABELS, 30) is None


def test_a_sure_stripe_moves_a_solid_reading_to_the_stripe_and_keeps_none():
    # an orange-and-white stripe read 0.6 the orange 5 (solid), 0.2 the 13; the kinds say stripe
    p = np.array([[0.02, 0.03, 0.6, 0.05, 0.2, 0.1]])
    kl = np.log(np.array([[0.01, 0.04, 0.01, 0.94]]))
    q = fuse_kinds(p, (0, 1, 1, 2, 3), kl)
    assert q[0, -1] == pytest.approx(0.1)  # none: untouched
    assert q[0].sum() == pytest.approx(1.0)
    assert LABELS[int(q[0, :-1].argmax())] == "13"


def test_undecided_kinds_leave_the_identities_as_they_were():
    p = np.array([[0.1, 0.2, 0.3, 0.1, 0.2, 0.1], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]])
    q = fuse_kinds(p, (0, 1, 1, 2, 3), np.zeros((2, 4)))
    assert np.allclose(q, p)


def test_a_label_without_a_kind_is_weighed_by_one():
    p = np.array([[0.5, 0.5]])  # two labels, no none; the second has no kind
    q = fuse_kinds(p, (0, -1), np.log(np.array([[0.5, 0.5]])))
    # the first is weighed 0.5, the second 1: renormalised to the same total
    assert q[0] == pytest.approx([1 / 3, 2 / 3])


def test_no_crops_no_work():
    assert fuse_kinds(np.zeros((0, 6)), (0, 1, 1, 2, 3), np.zeros((0, 4))).shape == (0, 6)
