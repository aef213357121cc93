"""Small clips for the app's tests: a committed sample at half size, frames blanked where asked,
with its true camera, so a test analyses a real shot in seconds without solving the camera."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import CameraModel

REPO = Path(__file__).resolve().parents[2]
#: one three-cushion shot from 0.7 to 7.6 s, a miss (003 art. 2); 261 frames at 30 fps
CLIP = REPO / "sample_videos" / "miss_one_ball_720p30"


def half_size_clip(path: Path, black_s: tuple[float, float] | None, frames: int | None = None) -> Path:
    """The sample at 640x360 (``frames`` of it), frames in ``black_s`` (seconds) black."""
    assert CLIP.with_suffix(".mp4").is_file(), "the sample clip is committed"
    cap = cv2.VideoCapture(str(CLIP.with_suffix(".mp4")))
    fps = cap.get(cv2.CAP_PROP_FPS)
    out = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (640, 360))
    i = 0
    while frames is None or i < frames:
        ok, f = cap.read()
        if not ok:
            break
        f = cv2.resize(f, (640, 360), interpolation=cv2.INTER_AREA)
        if black_s is not None and black_s[0] * fps <= i < black_s[1] * fps:
            f = np.zeros_like(f)
        out.write(f)
        i += 1
    out.release()
    cap.release()
    return path


def half_size_calibration(path: Path) -> Path:
    """The clip's true camera at 640x360, so the test spends no time solving it."""
    truth = json.loads(CLIP.with_suffix(".truth.json").read_text())
    cam = CameraModel.from_dict(truth["camera"]).scaled(640, 360)
    cam.save(path)
    return path
