"""The editions a simulation names: a generated engine, or a rule file built
on the fly.

An argument naming an existing file (or ending in `.rules`) is a rule file:
it is checked, and its engine rendered by the Python target into a module
that each worker imports from a temporary file. Anything else is the name of
an edition with a generated engine.
"""

from __future__ import annotations

from pathlib import Path

from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.loading import EngineUnavailable, load_engine
from splendor_rules.compiler.tools.simulate.runner import EditionSource, SimulateError
from splendor_rules.dsl.diagnostics import Sources, display_path, has_errors, render


def engine_source(path: Path) -> tuple[str, str]:
    """The edition's name and its engine module's source, from a rule file;
    SimulateError with the diagnostics if it has mistakes."""
    sources = Sources()
    compiled = compile_file(path, sources)
    if compiled.model is None or has_errors(compiled.diagnostics):
        shown = "\n".join(render(d, sources) for d in compiled.diagnostics)
        raise SimulateError(f"{display_path(path)} has mistakes:\n{shown}")
    return compiled.model.name, render_engine(compiled.model, path.parent)


def edition_source(argument: str) -> EditionSource:
    """What a simulation argument names (see the module); SimulateError if
    it names nothing that can be played."""
    path = Path(argument)
    if path.is_file() or argument.endswith(".rules"):
        if not path.is_file():
            raise SimulateError(f"no rule file {display_path(path)}")
        name, source = engine_source(path)
        return EditionSource(name, source, argument)
    try:
        load_engine(argument)
    except (EngineUnavailable, ImportError) as error:
        raise SimulateError(str(error)) from error
    return EditionSource(argument, None, argument)
