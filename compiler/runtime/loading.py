"""Engines by edition name: the generated module or the reference interpreter.

The one place that turns an edition's name and an engine kind into an
`Engine`; the tools and the command line never import engines themselves.
"""

from __future__ import annotations

import functools
import importlib
from typing import Literal

from splendor_rules.compiler.runtime.api import Engine

EngineKind = Literal["generated", "interpreted"]
ENGINE_KINDS: tuple[EngineKind, ...] = ("generated", "interpreted")


class EngineUnavailable(LookupError):
    """No engine of that kind for that edition; the message says why."""


def generated_editions() -> list[str]:
    """The editions that have a generated engine."""
    from splendor_rules import generated

    return generated.editions()


@functools.cache
def load_engine(edition: str, kind: EngineKind = "generated") -> Engine:
    """The engine of an edition by name; EngineUnavailable if there is none."""
    if kind == "generated":
        known = generated_editions()
        if edition not in known:
            raise EngineUnavailable(
                f"no generated engine for edition {edition!r}; there are: {', '.join(known)}"
            )
        engine: Engine = importlib.import_module(f"splendor_rules.generated.{edition}")
        return engine
    if kind == "interpreted":
        from splendor_rules.compiler.runtime.interpreter import load_interpreted

        try:
            return load_interpreted(edition)
        except ValueError as error:
            raise EngineUnavailable(str(error)) from error
    raise EngineUnavailable(f"unknown engine kind {kind!r}: {' or '.join(ENGINE_KINDS)}")
