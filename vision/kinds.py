"""A classifier's kind outputs joined with its identities: which ball, given what pattern it shows.

Why: the identity outputs learn a ball set's colours, and on a set the classifier never saw (another
manufacturer's pink 4, a salmon 12) they read a stripe as the solid of the nearest colour. Whether a
pool ball is the cue ball, the eight, a solid or a stripe is a pattern (a white band or not), the
same in every set; the classifier's kind outputs are trained on recoloured crops for that
(:mod:`models.train`). The two are joined as independent experts: each ball label's probability is
multiplied by its kind's probability, and the labels are renormalised to the probability the crop
holds a ball at all, which the kind outputs leave alone (they say nothing about cloth or hands).

The model tells the runtime which label has which kind in its metadata (``kinds``: the kind
classes, ``game:kind``; ``kind_of``: ``game:label`` -> ``game:kind``), so this module needs no
label list of its own; a model without them (an older classifier) is used as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class KindMap:
    """For one game: ``columns`` the model's output columns of the game's kinds; ``label_kind`` per
    game label (in the detector's label order), the index into ``columns`` of its kind, or -1."""

    columns: tuple[int, ...]
    label_kind: tuple[int, ...]


def kind_map(meta: Mapping[str, str], game: str, labels: Sequence[str], first_column: int) -> KindMap | None:
    """The game's :class:`KindMap` from a classifier's metadata (``kinds`` and ``kind_of``, JSON);
    the kind outputs start at column ``first_column`` of the model's output. None when the model
    has no kind outputs for the game."""
    if "kinds" not in meta or "kind_of" not in meta:
        return None
    kinds: list[str] = json.loads(meta["kinds"])
    kind_of: dict[str, str] = json.loads(meta["kind_of"])
    mine = [i for i, k in enumerate(kinds) if k.split(":", 1)[0] == game]
    if not mine:
        return None
    local = {kinds[i]: j for j, i in enumerate(mine)}
    label_kind = tuple(local.get(kind_of.get(f"{game}:{lab}", ""), -1) for lab in labels)
    if all(k < 0 for k in label_kind):
        return None
    return KindMap(tuple(first_column + i for i in mine), label_kind)


def fuse_kinds(p: np.ndarray, label_kind: Sequence[int], kind_logits: np.ndarray) -> np.ndarray:
    """``p`` (k, n [+ 1]): the game's n label probabilities (then ``none``, when the model has it);
    ``label_kind`` (n,) as :attr:`KindMap.label_kind`; ``kind_logits`` (k, K). Each label with a kind is weighed by its kind's softmax probability, and
    the labels renormalised to their old sum; ``none`` is kept as it was."""
    if not len(p):
        return p
    z = kind_logits - kind_logits.max(axis=1, keepdims=True)
    pk = np.exp(z)
    pk /= pk.sum(axis=1, keepdims=True)
    n = len(label_kind)
    lk = np.asarray(label_kind, int)
    has = lk >= 0
    labels = p[:, :n]
    w = np.ones_like(labels)
    w[:, has] = pk[:, lk[has]]
    q = labels * w
    s = q.sum(axis=1, keepdims=True)
    total = labels.sum(axis=1, keepdims=True)
    q = np.where(s > 1e-12, q * (total / np.maximum(s, 1e-12)), labels)
    return np.concatenate([q, p[:, n:]], axis=1)
