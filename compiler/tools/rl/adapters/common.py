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

# The bounds of an observation's values: a count is never below -1 (a count
# not yet chosen) nor, in a state play reaches, past 2**31 - 1.
LOW, HIGH = -1, 2**31 - 1


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


def array(values: list[int]) -> Any:
    """A tensor as numpy holds it: 32-bit whole numbers."""
    return np.asarray(values, dtype=np.int32)


def mask(size: int, legal: tuple[int, ...]) -> Any:
    out: Any = np.zeros(size, dtype=np.int8)
    out[list(legal)] = 1
    return out
