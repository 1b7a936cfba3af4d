"""Building a drawn edition into its two engines.

A drawn edition is written into a folder of its own, checked with
`compile_file`, rendered into an engine module's source, written beside the
rule file and run from there by the one loader (`tools.loader`); the
interpreter runs the same checked model.
"""

from __future__ import annotations

import itertools
import tempfile
import types
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fuzz.rule_files import DrawnEdition

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.tools import loader
from splendor_rules.dsl.diagnostics import Sources
from splendor_rules.dsl.diagnostics import render as render_diagnostic

ROOT = Path(__file__).resolve().parents[2]

# A change to the engine's text before it is imported (a planted fault).
Mutation = Callable[[str], str]


def render(model: m.Edition) -> str:
    """The engine module's source for a checked model (the one loader's
    rendering, tools.loader)."""
    return loader.render_source(model, ROOT)


class StrategyBug(AssertionError):
    """A drawn edition that the checker refuses: the strategy is wrong."""


@dataclass
class Built:
    """A drawn edition, checked and built: the model, the generated module
    (from `source`) and the reference interpreter."""

    drawn: DrawnEdition
    folder: Path
    model: m.Edition
    source: str
    generated: types.ModuleType
    interpreter: InterpretedEngine
    warnings: list[str]


def check(drawn: DrawnEdition, folder: Path) -> tuple[m.Edition, list[str]]:
    """The checked model of a drawn edition written into `folder`; raises
    StrategyBug with the diagnostics if it does not check."""
    path = drawn.write(folder)
    sources = Sources()
    compiled = compile_file(path, sources)
    errors = [render_diagnostic(d, sources) for d in compiled.diagnostics if d.severity == "error"]
    if errors or compiled.model is None:
        raise StrategyBug(
            "a drawn edition does not check:\n" + "\n".join(errors) + "\n" + drawn.show()
        )
    warnings = [render_diagnostic(d, sources) for d in compiled.diagnostics]
    return compiled.model, warnings


_COUNTER = itertools.count()


def import_engine(source: str, folder: Path) -> types.ModuleType:
    """Write an engine's source into the folder and import it from there
    (under a unique module name, left out of sys.modules)."""
    name = f"random_edition_{next(_COUNTER)}"
    return loader.module_from_source(source, name, folder=folder, register=False)


_BUILT: OrderedDict[tuple[object, ...], Built] = OrderedDict()
_CACHED = 64  # shrinking tries an edition again and again, with other games


def build(drawn: DrawnEdition, folder: Path, mutation: Mutation | None = None) -> Built:
    """Check, render (with the planted fault, if any) and load both engines
    (engines are pure functions of their states: a build can be reused)."""
    key = (tuple(sorted(drawn.files.items())), drawn.main, mutation)
    if key in _BUILT:
        _BUILT.move_to_end(key)
        return _BUILT[key]
    built_ = _build(drawn, folder, mutation)
    _BUILT[key] = built_
    if len(_BUILT) > _CACHED:
        _BUILT.popitem(last=False)
    return built_


def _build(drawn: DrawnEdition, folder: Path, mutation: Mutation | None) -> Built:
    model, warnings = check(drawn, folder)
    source = render(model)
    if mutation is not None:
        source = mutation(source)
    generated = import_engine(source, folder)
    return Built(drawn, folder, model, source, generated, InterpretedEngine(model), warnings)


@contextmanager
def built(drawn: DrawnEdition, mutation: Mutation | None = None) -> Iterator[Built]:
    """A drawn edition built in a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="random-edition-") as folder:
        yield build(drawn, Path(folder), mutation)
