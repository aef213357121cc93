"""ONNX Runtime writes nothing under the user's home (vision/yolo.py onnxruntime_quiet): a pool run
made ``~/.cache/Microsoft/DeveloperTools/.onnxruntime/{deviceid,onnxruntime.db}`` before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import numpy as np
from vision.yolo import DEFAULT_CLASSIFIER, DEFAULT_DETECTOR, _session
for path in (DEFAULT_DETECTOR, DEFAULT_CLASSIFIER):
    s = _session(path, 1)
    i = s.get_inputs()[0]
    s.run(None, {i.name: np.zeros([d if isinstance(d, int) else 1 for d in i.shape], np.float32)})
print("ran")
"""


def test_model_sessions_leave_home_clean(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("ORT_DISABLE_TELEMETRY", "XDG_CACHE_HOME")}
    env["HOME"] = str(home)
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ran" in r.stdout, r.stderr
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []
