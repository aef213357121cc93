"""An offline ultralytics: no DNS check, no font download, no settings sync, no update check.

Why: this project trains its detector on machines that reach no network but a package index.
Ultralytics, left to itself, resolves two DNS names at import (``utils.is_online``), downloads
``Arial.ttf`` into its config dir when a dataset is checked (``data.utils.check_det_dataset`` calls
``checks.check_font`` even with ``plots=False``), sends telemetry when settings ``sync`` is on,
auto-installs missing requirements, and sets torch to ``NUM_THREADS = cpu_count - 1`` threads
(one thread on a 2-core machine, twice the epoch time). :func:`prepare_ultralytics` fixes all of
that *before* the first ``import ultralytics`` of the process and returns the module:

- ``YOLO_OFFLINE=1`` (``is_online`` answers False without a lookup), ``YOLO_AUTOINSTALL=False``;
- ``YOLO_CONFIG_DIR`` under the project's cache (:func:`default_cache_dir`), holding
  ``Arial.ttf`` / ``Arial.Unicode.ttf`` copied from a TTF that a pip package ships (matplotlib's
  DejaVuSans, a dependency of ultralytics), so ``check_font`` finds its file and never downloads;
- settings ``sync=False``, no API key, every logging integration off, and the datasets/weights/runs dirs under the same cache;
- ``OMP_NUM_THREADS`` and ultralytics' ``NUM_THREADS`` (read by ``select_device``, which calls
  ``torch.set_num_threads``) set to ``threads``.

It changes the process environment (that is its job); nothing happens at import of this module.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

from common.errors import TabletrackError


class OfflineSetupError(TabletrackError):
    """The offline ultralytics environment could not be prepared."""


_FONTS = ("Arial.ttf", "Arial.Unicode.ttf")
# logging integrations that would reach a server when their package happens to be installed
_INTEGRATIONS = ("clearml", "comet", "dvc", "mlflow", "raytune", "tensorboard", "wandb")


def default_cache_dir() -> Path:
    """``$TABLETRACK_CACHE``, or ``runs/cache`` at the repository root (git-ignored)."""
    env = os.environ.get("TABLETRACK_CACHE")
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[1] / "runs" / "cache"


def _bundled_ttf() -> Path:
    """A TrueType font shipped inside an installed pip package (no download)."""
    try:
        import matplotlib
    except ImportError:
        raise OfflineSetupError(
            "offline ultralytics: expected matplotlib (an ultralytics dependency) to "
            "provide a TTF font, got no matplotlib"
        ) from None
    p = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    if not p.is_file():
        raise OfflineSetupError(f"offline ultralytics: expected a font at {p}, found none")
    return p


def prepare_environment(cache_dir: Path | None = None, threads: int = 2) -> Path:
    """Set the environment variables and the font files; returns ultralytics' config dir.

    Safe to call before or after ultralytics was imported, but only effective on a fresh import
    for the variables it reads at import (``YOLO_OFFLINE`` is read at every ``is_online`` call)."""
    if threads < 1:
        raise OfflineSetupError(f"threads: expected >= 1, got {threads}")
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cfg_root = root / "ultralytics-config"
    cfg = cfg_root / "Ultralytics"  # get_user_config_dir appends this sub dir to YOLO_CONFIG_DIR
    cfg.mkdir(parents=True, exist_ok=True)
    font = _bundled_ttf()
    for name in _FONTS:
        dst = cfg / name
        if not dst.is_file():
            shutil.copyfile(font, dst)
    os.environ.pop("ULTRALYTICS_API_KEY", None)
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(cfg_root)
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("YOLO_VERBOSE", "False")
    os.environ.setdefault("MPLBACKEND", "Agg")
    return cfg


def prepare_ultralytics(cache_dir: Path | None = None, threads: int = 2) -> ModuleType:
    """Prepare the environment (see the module docstring), import ultralytics and return it."""
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cfg = prepare_environment(root, threads)
    import torch

    torch.set_num_threads(threads)
    import ultralytics
    import ultralytics.utils as uu
    import ultralytics.utils.torch_utils as ut

    if Path(uu.USER_CONFIG_DIR).resolve() != cfg.resolve():
        raise OfflineSetupError(
            f"offline ultralytics: expected its config dir at {cfg}, got "
            f"{uu.USER_CONFIG_DIR} (ultralytics was imported before the environment was set)"
        )
    uu.SETTINGS.update(
        sync=False,
        api_key="",
        datasets_dir=str(root / "datasets"),
        weights_dir=str(root / "weights"),
        runs_dir=str(root / "runs"),
        **{k: False for k in _INTEGRATIONS if k in uu.SETTINGS},
    )
    uu.NUM_THREADS = threads
    ut.NUM_THREADS = threads
    for mod in ("ultralytics.data.base", "ultralytics.data.dataset"):
        import importlib

        m: Any = importlib.import_module(mod)
        m.NUM_THREADS = threads
    return ultralytics
