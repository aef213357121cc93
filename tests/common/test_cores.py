"""common/cores.py usable_cores: the process's CPU affinity where the system gives it, else the
machine's core count, never under 1."""

from __future__ import annotations

import pytest

from common import cores


def _fail(pid: int) -> set[int]:
    raise OSError("not here")


@pytest.mark.parametrize(
    ("affinity", "count", "expected"),
    [
        (lambda pid: {0, 1}, 8, 2),  # taskset / a container: fewer than the machine has
        (_fail, 4, 4),
        (None, 6, 6),
        (None, None, 1),
    ],
    ids=["affinity", "affinity refused: the count", "no affinity call: the count", "nothing known: one"],
)
def test_usable_cores(monkeypatch: pytest.MonkeyPatch, affinity, count, expected: int) -> None:
    if affinity is None:
        monkeypatch.delattr(cores.os, "sched_getaffinity", raising=False)
    else:
        monkeypatch.setattr(cores.os, "sched_getaffinity", affinity, raising=False)
    monkeypatch.setattr(cores.os, "cpu_count", lambda: count)
    assert cores.usable_cores() == expected
