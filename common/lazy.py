"""Lazy public names for a package ``__init__`` (PEP 562): ``__all__`` without the import cost.

Contract: ``lazy_exports(__name__, sources, globals())`` returns the ``__getattr__`` and ``__dir__``
a package ``__init__`` assigns; a public name is imported from ``package.<module>`` (``sources``
maps name -> module) the first time it is read and then kept in the package's namespace, any other
name is an ``AttributeError``. Why: ``import tracking`` must not load OpenCV, and ``import models``
must not load torch, yet each package should list its public API in one place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, sources: Mapping[str, str], namespace: MutableMapping[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package`` (see the module docstring)."""

    def __getattr__(name: str) -> Any:
        module = sources.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(sources))

    return __getattr__, __dir__
