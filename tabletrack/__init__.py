"""tabletrack: officiating billiards from an overhead camera (the app package: CLI, pipeline, outputs).

The public entry points are named here and loaded on first use: ``import tabletrack`` stays light
(no OpenCV, numpy or model), as the command line's start needs; ``tabletrack.analyze_video`` is
:func:`tabletrack.pipeline.analyze_video`, ``tabletrack.main`` is :func:`tabletrack.cli.main`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletrack.cli import main
    from tabletrack.pipeline import AnalyzeOptions, AnalyzeResult, analyze_video

__version__ = "0.1.0"

__all__ = ["AnalyzeOptions", "AnalyzeResult", "__version__", "analyze_video", "main"]

# public name -> the module that defines it (imported when the name is first used)
_LAZY = {
    "main": "tabletrack.cli",
    "AnalyzeOptions": "tabletrack.pipeline",
    "AnalyzeResult": "tabletrack.pipeline",
    "analyze_video": "tabletrack.pipeline",
}


def __getattr__(name: str) -> Any:
    """PEP 562: the entry points of ``__all__`` from their modules on first use; any other name is
    an AttributeError (so ``from tabletrack import cli`` still imports the submodule)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tabletrack' has no attribute {name!r}")
    return getattr(import_module(module), name)
