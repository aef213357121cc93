"""Shared test fixtures: paths of the repository's data; the ``unit`` tier mark."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TIERS = ("golden", "slow")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Every test not marked ``golden`` or ``slow`` is ``unit`` (so ``pytest -m unit`` selects the
    unit tier); before the ``-m`` selection, which is why this runs first."""
    for item in items:
        if not any(next(item.iter_markers(name), None) for name in TIERS):
            item.add_marker(pytest.mark.unit)


@pytest.fixture
def repo() -> Path:
    return REPO
