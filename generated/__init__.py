"""Engine modules written by `splendor-rules build`, one per edition.

`load_edition(name)` returns the engine of an edition by name, so callers
need not import modules by name; every engine has the API of docs/engine.md.
This file is written by the build too: under TYPE_CHECKING it states that
each engine module is an `Engine` (compiler/runtime/api.py), so mypy checks
every engine against the Protocol.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from splendor_rules.compiler.runtime.api import Engine
    from splendor_rules.generated import classic, duel, marvel, orient

    _classic: Engine = classic
    _duel: Engine = duel
    _marvel: Engine = marvel
    _orient: Engine = orient


def editions() -> list[str]:
    """The names of the generated engines (the modules of this package; not
    its subpackages, such as the native engines')."""
    return sorted(
        m.name for m in pkgutil.iter_modules(__path__) if not (m.ispkg or m.name.startswith("_"))
    )


def load_edition(name: str) -> ModuleType:
    """The generated engine of an edition; ValueError if there is none."""
    if name not in editions():
        known = ", ".join(editions())
        raise ValueError(f"no generated engine for edition {name!r}; there are: {known}")
    return importlib.import_module(f"{__name__}.{name}")
