"""Engine modules written by `splendor-rules build`, one per edition.

`load_edition(name)` returns the engine of an edition by name, so callers
need not import modules by name; every engine has the API of docs/engine.md.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def editions() -> list[str]:
    """The names of the generated engines."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def load_edition(name: str) -> ModuleType:
    """The generated engine of an edition; ValueError if there is none."""
    if name not in editions():
        known = ", ".join(editions())
        raise ValueError(f"no generated engine for edition {name!r}; there are: {known}")
    return importlib.import_module(f"{__name__}.{name}")
