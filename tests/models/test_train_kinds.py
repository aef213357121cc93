"""The classifier's kind outputs in training (models/train.py): the recolouring they learn from
keeps a ball's pattern (white stays white, black black, a colour stays as bright) and changes its
colour; each pool class trains its kind (002 bola 8 ART 1.2: solids 1-7, stripes 9-15)."""

from __future__ import annotations

import numpy as np
import pytest

from models.classes import CLASSIFIER_CLASSES, KIND_CLASSES, class_index


def test_recolour_keeps_greys_and_brightness_and_moves_colours():
    torch = pytest.importorskip("torch")
    from models.train import _recolour

    x = torch.zeros(64, 3, 4, 4)
    x[:, :, 0, :] = 0.95  # a white band
    x[:, :, 1, :] = 0.05  # black
    x[:, 0, 2, :], x[:, 1, 2, :], x[:, 2, 2, :] = 0.2, 0.4, 0.7  # an orange (BGR)
    x[:, :, 3, :] = 0.5
    y = _recolour(x.clone(), torch.Generator().manual_seed(1))
    assert y.shape == x.shape
    assert torch.allclose(y[:, :, :2], x[:, :, :2], atol=1e-5)  # greys stay
    assert torch.allclose(y[:, :, 2].mean(1), x[:, :, 2].mean(1), atol=0.06)  # brightness (clamped at most a little)
    moved = (y[:, :, 2] - x[:, :, 2]).abs().amax(dim=(1, 2))
    assert (moved > 0.1).float().mean() > 0.8  # most crops get another colour


@pytest.mark.parametrize("label, kind", [("cue", "cue"), ("3", "solid"), ("8", "eight"), ("11", "stripe")])
def test_kind_targets_of_pool_classes(label, kind):
    pytest.importorskip("torch")
    from models.train import _kind_targets

    assert KIND_CLASSES[_kind_targets()[class_index("pool", label)]] == f"pool:{kind}"


def test_no_kind_target_outside_pool_balls():
    pytest.importorskip("torch")
    from models.train import _kind_targets

    t = _kind_targets()
    for i, c in enumerate(CLASSIFIER_CLASSES):
        if not c.startswith("pool:"):
            assert t[i] == -1, c
    assert np.count_nonzero(t >= 0) == 16
