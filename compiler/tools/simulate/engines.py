"""The editions a simulation names: an engine by name (the native engine, or
the generated one), or a rule file built on the fly.

An argument naming an existing file (or ending in `.rules`) is a rule file:
it is played by its native engine where a C compiler is present (built
into the per-user cache by `tools.loader`, from which each worker loads
it), else (or with --engine generated) by its generated engine, rendered
into a module that each worker imports from a temporary file (so it also
runs on a Ray cluster's other machines). Anything else is the name of
an edition with a generated engine; it is played by the engine asked for,
or by default by its native engine where that is built, else by the
generated one. The bots choose the same moves on either (the engines agree
move by move), so the results do not depend on the engine. Playout bots
(`playout` in every seat) play only on a native engine: `check_playouts`.
"""

from __future__ import annotations

from pathlib import Path

from splendor_rules.compiler.backend.native.compile import native_available
from splendor_rules.compiler.runtime.loading import (
    HOW_TO_BUILD,
    EngineKind,
    EngineUnavailable,
    load_engine,
)
from splendor_rules.compiler.tools import loader
from splendor_rules.compiler.tools.simulate.runner import EditionSource, SimulateError
from splendor_rules.dsl.diagnostics import display_path


def engine_source(path: Path) -> tuple[str, str]:
    """The edition's name and its engine module's source, from a rule file
    (`tools.loader`); SimulateError with the diagnostics if it has mistakes."""
    try:
        model = loader.check_rule_file(path)
    except EngineUnavailable as error:
        raise SimulateError(str(error)) from error
    return model.name, loader.render_source(model, path.parent)


class NoEngineOfThatKind(SimulateError):
    """The edition exists, but not with the engine asked for (a native engine
    not built, or a rule file, which only the Python target renders)."""


def edition_source(argument: str, kind: EngineKind | None = None) -> EditionSource:
    """What a simulation argument names (see the module), played by the
    engine of that kind (None: native where built, else generated);
    SimulateError if it names nothing that can be played."""
    path = Path(argument)
    if loader.is_rule_file(argument):
        if kind == "native" or (kind is None and native_available() is None):
            return _native_of_rule_file(path, argument)
        if kind == "interpreted":
            return _interpreted_rule_file(path, argument)
        name, source = engine_source(path)
        return EditionSource(name, source, argument)
    try:
        # the interpreter plays an edition a target does not print yet
        load_engine(argument, "interpreted" if kind == "interpreted" else "generated")
    except (EngineUnavailable, ImportError) as error:
        raise SimulateError(str(error)) from error
    if kind is None:
        kind = "native" if native_built(argument) else "generated"
    elif kind == "native":
        try:
            load_engine(argument, "native")
        except (EngineUnavailable, ImportError) as error:
            raise NoEngineOfThatKind(str(error)) from error
    return EditionSource(argument, None, argument, kind)


def _native_of_rule_file(path: Path, argument: str) -> EditionSource:
    """A rule file played by its native engine, from the cache (built there
    now if it is not): each worker loads it from there."""
    try:
        engine = loader.load(path, "native")
    except loader.RuleFileMistakes as error:
        raise SimulateError(str(error)) from error
    except EngineUnavailable as error:
        raise NoEngineOfThatKind(str(error)) from error
    rules = str(path.resolve())
    return EditionSource(engine.EDITION, None, argument, "native", rules)


def _interpreted_rule_file(path: Path, argument: str) -> EditionSource:
    """A rule file played by the reference interpreter, which each worker
    reads from the file."""
    try:
        engine = loader.load(path, "interpreted")
    except loader.RuleFileMistakes as error:
        raise SimulateError(str(error)) from error
    return EditionSource(engine.EDITION, None, argument, "interpreted", str(path.resolve()))


def native_built(edition: str) -> bool:
    """Whether the edition's native engine is there (built)."""
    try:
        load_engine(edition, "native")
    except (EngineUnavailable, ImportError):
        return False
    return True


def engine_named(source: EditionSource) -> str:
    """Which engine plays an edition, as the run's header says it."""
    if source.source is not None:
        return "the generated engine of the rule file"
    if source.rules is not None:
        return "the native engine of the rule file"
    return f"the {source.kind} engine"


class NoPlayoutEngine(SimulateError):
    """Playout bots asked of an edition that is not played by a native engine."""


def check_playouts(sources: list[EditionSource], kind: EngineKind | None) -> None:
    """That every edition is played by a native engine, as playout bots need
    (`kind`: the engine asked for, None if none was); NoPlayoutEngine, saying
    which edition is not and what to use instead, if one is not."""
    needs = "the playout bot plays only on a native engine (its games are played in native code)"
    instead = "or --bots random, the same uniform choice made in Python, on any engine"
    for source in sources:
        if source.source is not None:
            raise NoPlayoutEngine(
                f"{display_path(Path(source.label))} is a rule file, played by the generated "
                f"engine rendered from it: {needs}; use --engine native (or leave --engine "
                f"out where there is a C compiler), {instead}"
            )
        if source.kind == "native":
            continue
        if kind == "generated":
            raise NoPlayoutEngine(
                f"--engine generated: {needs}; use --engine native (or leave --engine out), "
                f"{instead}"
            )
        raise NoPlayoutEngine(
            f"the native engine of {source.name!r} is not built: {needs}; {HOW_TO_BUILD}, {instead}"
        )
