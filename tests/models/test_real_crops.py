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
    # two tracked balls can never be the same real ball, unless the file says that one track took
    # over from the other (``one_ball``); any number of tracks may be no ball (``none``)
    for clip, c in _clips().items():
        joined = {t for group in c.get("one_ball", []) for t in group[1:]}
        named = [v for t, v in c["names"].items() if v not in (None, "none") and t not in joined]
        assert len(named) == len(set(named)), clip
        for group in c.get("one_ball", []):
            assert len({c["names"][t] for t in group}) == 1, f"{clip}: {group} named as one ball"


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


def test_crop_accuracy_counts_right_crops_per_game(tmp_path: Path) -> None:
    # crops the shipped classifier names at once (plain cloth is `none`) against wrong labels
    pytest.importorskip("onnxruntime")
    from models.classes import GAMES
    from models.real_crops import crop_accuracy

    cloth = np.zeros((4, 40, 40, 3), np.uint8)
    cloth[:] = (120, 90, 20)  # a blue-green cloth, no ball
    none = class_index("pool", "none")
    f = tmp_path / "c.npz"
    np.savez_compressed(
        f,
        x=cloth,
        y=np.array([none, none, none, class_index("pool", "3")]),
        game=np.full(4, GAMES.index("pool")),
        off=np.zeros((4, 2), np.float32),
    )
    acc, n = crop_accuracy(REPO / "models" / "ball_classifier.onnx", f)["pool"]
    assert n == 4 and acc == pytest.approx(0.75)
