"""Real crops named by a person (models/real_crops.py, issue 13 section 2): the committed names
file is well formed and names only balls the classifier knows; the shipped ONNX classifier loads
back into the trainer's network exactly (fine-tuning starts from what is shipped)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.classes import class_index
from models.real_crops import LABELS_FILE

REPO = Path(__file__).resolve().parents[2]


def _clips() -> dict:
    return {k: v for k, v in json.loads(LABELS_FILE.read_text()).items() if not k.startswith("_")}


def test_names_file_lists_clips_with_a_video_an_analysis_and_names() -> None:
    clips = _clips()
    assert clips, "no clip named"
    for clip, c in clips.items():
        assert set(c) >= {"video", "analysis", "game", "names"}, clip
        assert not Path(c["video"]).is_absolute(), f"{clip}: the video is relative to the data root"
        assert c["names"], clip


@pytest.mark.parametrize("clip", sorted(_clips()))
def test_every_name_is_a_ball_of_the_game(clip: str) -> None:
    c = _clips()[clip]
    for tracked, true in c["names"].items():
        class_index(c["game"], tracked)  # the tracker's id is a ball of the game too
        if true is not None:
            class_index(c["game"], true)


def test_names_are_one_to_one_within_a_clip() -> None:
    # two tracked balls can never be the same real ball
    for clip, c in _clips().items():
        named = [v for v in c["names"].values() if v is not None]
        assert len(named) == len(set(named)), clip


def test_the_shipped_classifier_loads_into_the_trainer_network() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from models.train import _net, init_from_onnx

    path = REPO / "models" / "ball_classifier.onnx"
    net = _net()
    init_from_onnx(net, path)
    net.eval()
    x = np.random.default_rng(0).random((4, 3, 40, 40)).astype(np.float32)
    want = ort.InferenceSession(str(path)).run(None, {"crops": x})[0]
    got = net(torch.from_numpy(x)).detach().numpy()
    assert np.abs(want - got).max() < 1e-4
