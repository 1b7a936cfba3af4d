"""What the adapters share: the engine an edition is played on, arrays of tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import (
    EngineKind,
    EngineUnavailable,
    load_engine,
    native_editions,
)
from splendor_rules.compiler.tools.rl.observation import Layout


def engine_for(edition: str, engine: EngineKind | None = None) -> Engine:
    """The edition's native engine where it is built, else its generated one."""
    if engine is None:
        engine = "native" if edition in native_editions() else "generated"
    try:
        return load_engine(edition, engine)
    except EngineUnavailable:
        if engine != "native":
            raise
        return load_engine(edition, "generated")


def array(values: Any, layout: Layout) -> Any:
    """A tensor as numpy holds it: whole numbers of the layout's type."""
    return np.asarray(values, dtype=layout.dtype)


def box(layout: Layout) -> Any:
    """The observation's space: each entry's bounds, the layout's type."""
    from gymnasium import spaces

    low, high = layout.bounds()
    return spaces.Box(np.asarray(low, dtype=layout.dtype), np.asarray(high, dtype=layout.dtype),
                      dtype=layout.dtype)


def mask(size: int, legal: tuple[int, ...]) -> Any:
    out: Any = np.zeros(size, dtype=np.int8)
    out[list(legal)] = 1
    return out
