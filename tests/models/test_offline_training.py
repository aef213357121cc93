"""The training chain runs with the network blocked (issue 4 section 2: no DNS check, no font
download, no settings sync, no update check): a tiny dataset, one epoch of the ball finder at
64 px and of the classifier, both exported to ONNX and loaded by ONNX Runtime, in a subprocess
whose sockets raise and record every attempt."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import json, socket, sys
    from pathlib import Path
    attempts = []
    def _blocked(name):
        def f(*a, **k):
            attempts.append([name, repr(a[:2])])
            raise OSError(f"network blocked in this test: {name}")
        return f
    socket.socket.connect = _blocked("connect")
    socket.socket.connect_ex = _blocked("connect_ex")
    socket.getaddrinfo = _blocked("getaddrinfo")
    socket.gethostbyname = _blocked("gethostbyname")
    socket.create_connection = _blocked("create_connection")
    out = Path(sys.argv[1])
    from models.dataset import generate
    generate(out / "data", ["carom"], {"train": 4, "val": 2}, per_scene=3, log=lambda *a: None)
    from models.train import train_detector, train_classifier
    det = train_detector(out / "data" / "yolo" / "data.yaml", epochs=1, out=out / "det.onnx", imgsz=64,
                         export_hw=(64, 128), batch=4, workers=0, name="offline-test", cache_dir=out / "cache")
    cls = train_classifier(out / "data" / "crops", epochs=1, out=out / "cls.onnx", batch=16, log=lambda *a: None)
    import ultralytics.utils as uu
    (out / "result.json").write_text(json.dumps({
        "attempts": attempts, "online": uu.ONLINE, "sync": uu.SETTINGS["sync"],
        "config_dir": str(uu.USER_CONFIG_DIR), "det": det["onnx"], "cls": cls["onnx"]}))
""")


@pytest.mark.slow
def test_tiny_training_runs_with_the_network_blocked(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "PYTHONPATH": str(REPO),
        "TABLETRACK_CACHE": str(tmp_path / "cache"),
    }
    pytest.importorskip("ultralytics")
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=REPO, env=env, capture_output=True, text=True, timeout=900
    )
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads((tmp_path / "result.json").read_text())
    assert res["attempts"] == [], res["attempts"]
    assert res["online"] is False and res["sync"] is False
    # the config dir (with its font) lies under the project's cache, not the user's home
    assert Path(res["config_dir"]).is_relative_to(tmp_path / "cache")
    assert (Path(res["config_dir"]) / "Arial.ttf").is_file()
    assert not (tmp_path / "home" / ".config" / "Ultralytics").exists()
    import numpy as np
    import onnxruntime as ort

    det = ort.InferenceSession(res["det"], providers=["CPUExecutionProvider"])
    assert det.get_inputs()[0].shape == [1, 3, 64, 128]
    y = det.run(None, {det.get_inputs()[0].name: np.zeros((1, 3, 64, 128), np.float32)})[0]
    assert y.shape[:2] == (1, 5)  # x, y, w, h and one class score per anchor
    cls = ort.InferenceSession(res["cls"], providers=["CPUExecutionProvider"])
    assert "classes" in cls.get_modelmeta().custom_metadata_map
