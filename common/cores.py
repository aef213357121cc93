"""The CPU cores this process may run on: what a thread count for a library is set from.

Contract: :func:`usable_cores` is the number of cores in the process's CPU affinity where the
system tells it (Linux: ``os.sched_getaffinity``; a container or ``taskset`` may allow fewer than
the machine has), else ``os.cpu_count()``, and at least 1. Standard library only.

Why one function: ONNX Runtime's threads (vision/yolo.py) and the annotated video's encoder
threads (tabletrack/encode.py) are both set from it, where each had a fixed number tuned on this
project's 2-core machine, which left a larger machine's cores idle.
"""

from __future__ import annotations

import os

__all__ = ["usable_cores"]


def usable_cores() -> int:
    get_affinity = getattr(os, "sched_getaffinity", None)
    if get_affinity is not None:
        try:
            return max(1, len(get_affinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)
