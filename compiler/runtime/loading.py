"""Engines by edition name: the generated module, the reference interpreter,
or the native engine (a C extension module behind a thin Python module).

The one place that turns an edition's name and an engine kind into an
`Engine`; the tools and the command line never import engines themselves.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from types import ModuleType
from typing import Literal

from splendor_rules.compiler.runtime.api import Engine

EngineKind = Literal["generated", "interpreted", "native"]
# The kinds every installed project has for each edition; the native kind
# needs its C extension built (a C compiler), so it is listed apart.
ENGINE_KINDS: tuple[EngineKind, ...] = ("generated", "interpreted")
ALL_ENGINE_KINDS: tuple[EngineKind, ...] = (*ENGINE_KINDS, "native")
# The native target's package (compiler/backend/targets.py registers the
# target; the runtime does not import the back end, and a test ties the two).
NATIVE_PACKAGE = "splendor_rules.generated.native"
HOW_TO_BUILD = "run `splendor-rules build`, which needs a C compiler"


class EngineUnavailable(LookupError):
    """No engine of that kind for that edition; the message says why."""


def generated_editions() -> list[str]:
    """The editions that have a generated engine."""
    from splendor_rules import generated

    return generated.editions()


def native_editions() -> list[str]:
    """The editions that have a native engine (its module in
    generated/native/, built or not: `load_engine(name, "native")` says
    which is not built)."""
    try:
        package = importlib.import_module(NATIVE_PACKAGE)
    except ModuleNotFoundError as error:
        if error.name != NATIVE_PACKAGE:
            raise
        return []
    return sorted(
        m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")
    )


def _load_native(edition: str) -> Engine:
    known = native_editions()
    if edition not in known:
        raise EngineUnavailable(
            f"no native engine for edition {edition!r}; there are: {', '.join(known) or 'none'}"
        )
    extension = f"{NATIVE_PACKAGE}._{edition}"
    if importlib.util.find_spec(extension) is None:
        raise EngineUnavailable(
            f"the native engine of {edition!r} is not built (no extension module {extension}): "
            f"{HOW_TO_BUILD}"
        )
    stale: str | None = importlib.import_module(NATIVE_PACKAGE).stale(edition)
    if stale is not None:
        raise EngineUnavailable(
            f"the native engine of {edition!r} is stale: {stale}: run `splendor-rules build` "
            "to compile it again (without a C compiler it removes the stale module)"
        )
    engine: Engine = importlib.import_module(f"{NATIVE_PACKAGE}.{edition}")
    return engine


def native_extension(edition: str) -> ModuleType:
    """The C extension module of an edition's native engine, for what the
    engine API does not carry (the batched environment, docs/rl.md);
    EngineUnavailable if it is not built or stale."""
    _load_native(edition)
    return importlib.import_module(f"{NATIVE_PACKAGE}._{edition}")


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
    if kind == "native":
        return _load_native(edition)
    raise EngineUnavailable(f"unknown engine kind {kind!r}: {' or '.join(ALL_ENGINE_KINDS)}")
