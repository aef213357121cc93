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
    got = crop_accuracy(REPO / "models" / "ball_classifier.onnx", f)
    acc, n = got["pool"]
    assert n == 4 and acc == pytest.approx(0.75)
    # of the one ball (a solid, 002 bola 8 ART 1.2), read as no ball: its kind is wrong
    assert got["pool_kind"] == (0.0, 1)


def _camera(angle_deg: float, dist_mm: float = 2800.0):
    import math

    from calibration.camera import CameraModel

    c = (1270.0, 635.0, 0.0)
    a = math.radians(angle_deg)
    eye = (c[0] - dist_mm * math.sin(a), c[1], dist_mm * math.cos(a))
    up = (1.0, 0.0, 0.0) if angle_deg < 1 else (0.0, 0.0, 1.0)
    return CameraModel.look_at(1024, 576, 900.0, eye, c, up_hint=up, table="pool_9ft")


@pytest.mark.parametrize("angle_deg", [0.0, 65.0])
def test_real_crops_show_a_round_ball_as_the_detector_crops_it(tmp_path: Path, angle_deg: float) -> None:
    """A ball tracked in a clip gives a crop where it is round and CROP_BALL_PX wide, whether the
    camera is overhead (the rectified view, as the guided detector crops) or 65 degrees off the
    vertical (the camera's own image, as vision/frame_yolo.py crops): cut from the rectified view,
    the oblique camera's ball would be a streak ~2.4x longer than wide."""
    import cv2

    from calibration.table import load_table
    from models.real_crops import track_crops
    from vision.frame_yolo import ball_image_radius_px
    from vision.yolo_geometry import CROP_BALL_PX

    table = load_table("pool")
    R = table.ball_radius_mm
    cam = _camera(angle_deg)
    analysis = tmp_path / "clip"
    analysis.mkdir()
    cam.save(analysis / "calibration.json")
    x, y = 1500.0, 700.0
    (analysis / "tracks.csv").write_text(
        "t,frame,ball,x_mm,y_mm,observed,confidence\n"
        + "".join(f"{f / 30:.6f},{f},7,{x},{y},1,0.9\n" for f in range(3))
    )
    (u, v), r = cam.project(np.array([[x, y, R]]))[0], float(ball_image_radius_px(cam, np.array([[x, y]]), R)[0])
    img = np.full((576, 1024, 3), (40, 120, 30), np.uint8)  # cloth
    s = 8  # draw at 8x and shrink: an anti-aliased disc
    big = cv2.resize(img, (1024 * s, 576 * s), interpolation=cv2.INTER_NEAREST)
    cv2.circle(
        big, (int(round((u + 0.5) * s - 0.5)), int(round((v + 0.5) * s - 0.5))), int(round(r * s)), (20, 20, 220), -1
    )
    img = cv2.resize(big, (1024, 576), interpolation=cv2.INTER_AREA)
    video = tmp_path / "clip.avi"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (1024, 576))
    for _ in range(3):
        w.write(img)
    w.release()
    crops = list(track_crops(video, analysis, "pool", 1, np.random.default_rng(0), jitter=False))
    assert [c[0] for c in crops] == ["7", "7", "7"]
    crop = crops[0][2]
    red = (crop[:, :, 2].astype(int) - crop[:, :, 1].astype(int)) > 60
    mid = crop.shape[0] // 2
    across, along = int(red[mid].sum()), int(red[:, mid].sum())
    assert red[mid, mid]
    assert across == pytest.approx(CROP_BALL_PX, abs=4)
    assert along == pytest.approx(CROP_BALL_PX, abs=4)
