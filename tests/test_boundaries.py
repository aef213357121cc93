"""DESIGN.md "Stages and what each may know": each stage imports only what it may.

Checked statically on the source (every import statement, at any depth), so a lazy import inside
a function is caught too; and dynamically: importing ``rules`` and ``tracking`` must not load
OpenCV, torch or ultralytics (the rules and the event-log tools start fast).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STAGES = ("vision", "calibration", "tracking", "rules", "models", "tabletrack", "synth", "common")
#: the packages the officiating program runs on; none of them may import ``synth`` (the synthetic
#: world is test, tool and training-data tooling: truth that footage cannot give).
RUNTIME = ("vision", "calibration", "tracking", "rules", "tabletrack")

#: what every stage may import: the project's error root (``common/``), which imports nothing
SHARED = ("common",)

# stage -> project modules it may import (prefix match on dotted names), besides SHARED
ALLOWED = {
    "common": ("common",),
    "calibration": ("calibration",),
    # the detectors' output and the tracker's motion state are one vocabulary with the tracker
    # (tracking/detections.py, which the tracker takes), and ball ids the shared names
    "vision": ("vision", "calibration", "tracking.ids", "tracking.detections"),
    "tracking": ("tracking", "calibration.table"),
    "rules": ("rules", "tracking.ids", "tracking.events", "tracking.eventlog"),
    "models": ("models", "vision", "calibration", "tracking.ids", "tracking.detections", "synth"),
    "tabletrack": tuple(s for s in STAGES if s != "synth"),
    # The synthetic world writes truth in event-log form (the event types) and samples it as
    # trajectories (tracking.trajectory); it renders with the cameras and tables of calibration.
    "synth": (
        "synth",
        "vision",
        "calibration",
        "tracking.ids",
        "tracking.events",
        "tracking.eventlog",
        "tracking.trajectory",
    ),
}
FORBIDDEN_THIRD_PARTY = {
    "common": ("cv2", "numpy", "scipy", "torch", "ultralytics", "onnxruntime"),
    "tracking": ("cv2", "torch", "ultralytics"),
    "rules": ("cv2", "numpy", "scipy", "torch", "ultralytics"),
    "calibration": ("torch", "ultralytics"),
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _cases():
    for stage in STAGES:
        for path in sorted((REPO / stage).rglob("*.py")):
            yield pytest.param(stage, path, id=str(path.relative_to(REPO)))


@pytest.mark.parametrize("stage,path", list(_cases()))
def test_stage_imports_only_what_design_allows(stage: str, path: Path) -> None:
    rel = path.relative_to(REPO).as_posix()
    allowed = ALLOWED[stage] + SHARED
    for name in _imports(path):
        top = name.split(".")[0]
        if stage in RUNTIME:
            assert top != "synth", f"{rel} imports {name}: no runtime package may import the synthetic world"
        if top in STAGES:
            assert any(name == a or name.startswith(a + ".") for a in allowed), (
                f"{rel} imports {name}, but DESIGN.md lets it import only {allowed}"
            )
        assert top not in FORBIDDEN_THIRD_PARTY.get(stage, ()), (
            f"{path.relative_to(REPO)} imports {top}, which {stage}/ must not"
        )


def test_vision_holds_no_synthetic_world() -> None:
    """The renderer and the physics truth live in ``synth/``; ``vision/`` keeps the runtime's frames,
    rectification and detectors."""
    stray = sorted(
        p.relative_to(REPO).as_posix() for sub in ("render", "synth") for p in (REPO / "vision" / sub).rglob("*.py")
    )
    assert not stray, f"synthetic-world code back under vision/: {stray}"


@pytest.mark.parametrize("module", ["common", "rules", "tracking.eventlog", "tracking.events", "tracking.detections"])
def test_light_modules_do_not_load_heavy_libraries(module: str) -> None:
    code = (
        f"import sys, importlib, pkgutil; import {module} as m\n"
        "for info in pkgutil.walk_packages(getattr(m, '__path__', []), m.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "bad = [n for n in ('cv2', 'torch', 'ultralytics') if n in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"importing {module} loaded {out.stdout.strip()}"
