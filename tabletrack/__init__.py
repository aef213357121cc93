"""tabletrack: officiating billiards from an overhead camera (the app package: CLI, pipeline, outputs).

The public entry points are named here and loaded on first use: ``import tabletrack`` stays light
(no OpenCV, numpy or model), as the command line's start needs; ``tabletrack.analyze_video`` is
:func:`tabletrack.pipeline.analyze_video`, ``tabletrack.main`` is :func:`tabletrack.cli.main`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.lazy import lazy_exports

if TYPE_CHECKING:
    from tabletrack.cli import main
    from tabletrack.pipeline import AnalyzeOptions, AnalyzeResult, analyze_video

__version__ = "0.1.0"

__all__ = ["AnalyzeOptions", "AnalyzeResult", "__version__", "analyze_video", "main"]

# public name -> the module that defines it (imported when the name is first used); any other name
# is an AttributeError, so ``from tabletrack import cli`` still imports the submodule
_LAZY = {
    "main": "cli",
    "AnalyzeOptions": "pipeline",
    "AnalyzeResult": "pipeline",
    "analyze_video": "pipeline",
}

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
