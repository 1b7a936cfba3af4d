"""One loader: an edition's name or a rule file's path -> an engine of any kind.

By name, an installed engine (`runtime.loading.load_engine`: the generated
module, the interpreter, or the native engine where it is built). By rule
file, the file is checked and its engine made here: the Python target's
module rendered in memory, or the interpreter over the checked model (a
rule file has no native engine until `splendor-rules build` has compiled
one for the editions folder). It sits at the tools layer because it uses
both the back end (rendering) and the runtime (the interpreter).

A rendered module is run under a readable name (`rendered_<edition>`) with
a file name that tracebacks show (its text is put in `linecache`, or the
module is written to a folder given), and is registered in `sys.modules`,
so that its states pickle, unless asked not to be (many throwaway engines).
"""

from __future__ import annotations

import itertools
import linecache
import sys
import types
from pathlib import Path

from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.runtime.loading import EngineKind, EngineUnavailable, load_engine
from splendor_rules.dsl.diagnostics import Sources, display_path, has_errors, render

_NUMBERS = itertools.count(2)


class RuleFileMistakes(EngineUnavailable):
    """The rule file does not check: no engine can be made from it. The
    message shows every mistake; `compiled` holds them."""

    def __init__(self, message: str, compiled: Compiled) -> None:
        super().__init__(message)
        self.compiled = compiled


def is_rule_file(argument: str | Path) -> bool:
    """Does an argument name a rule file (an existing file, or a `.rules`
    name) rather than an edition?"""
    path = Path(argument)
    return path.is_file() or str(argument).endswith(".rules")


def check_rule_file(path: Path) -> m.Edition:
    """The checked model of a rule file; RuleFileMistakes, with its
    diagnostics rendered, if it does not check (or is not there)."""
    if not path.is_file():
        raise EngineUnavailable(f"no rule file {display_path(path)}")
    sources = Sources()
    compiled = compile_file(path, sources)
    if compiled.model is None or has_errors(compiled.diagnostics):
        shown = "\n".join(render(d, sources) for d in compiled.diagnostics)
        raise RuleFileMistakes(f"{display_path(path)} has mistakes:\n{shown}", compiled)
    return compiled.model


def render_source(model: m.Edition, root: Path) -> str:
    """The Python target's engine module for a checked model; comments name
    rule files relative to `root`."""
    return PYTHON.render_engine(model, root)


def module_from_source(
    text: str, name: str, *, folder: Path | None = None, register: bool = True
) -> types.ModuleType:
    """A module run from its source, named `name` (another name if a
    different module holds it): written to `folder/<name>.py` if given,
    else kept in memory with its lines in linecache, so tracebacks show
    them; left in sys.modules only if `register`."""
    while name in sys.modules:
        name = f"{name.rstrip('_0123456789')}_{next(_NUMBERS)}"
    module = types.ModuleType(name)
    if folder is not None:
        filename = str(folder / f"{name}.py")
        Path(filename).write_text(text, encoding="utf-8")
    else:
        filename = f"<rendered engine {name}>"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module.__file__ = filename
    sys.modules[name] = module  # annotations and pickling look the module up while it runs
    try:
        exec(compile(text, filename, "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    if not register:
        del sys.modules[name]
    return module


def rendered_engine(
    model: m.Edition,
    root: Path,
    name: str | None = None,
    *,
    folder: Path | None = None,
    register: bool = True,
) -> types.ModuleType:
    """The generated engine of a checked model, rendered and run (see
    module_from_source); named `rendered_<edition>` unless `name` is given."""
    text = render_source(model, root)
    return module_from_source(
        text, name or f"rendered_{model.name}", folder=folder, register=register
    )


def load(edition: str | Path, kind: EngineKind = "generated") -> Engine:
    """The engine of an edition by name, or of a rule file by path, of the
    kind asked for; EngineUnavailable (RuleFileMistakes for a rule file with
    mistakes) if there is none."""
    if not is_rule_file(edition):
        return load_engine(str(edition), kind)
    path = Path(edition)
    model = check_rule_file(path)
    if kind == "interpreted":
        return InterpretedEngine(model)
    if kind == "native":
        raise EngineUnavailable(
            f"{display_path(path)} is a rule file: its engine is rendered by the Python target "
            "(the generated kind) or interpreted; a native engine is built only for the "
            "editions folder, by `splendor-rules build`"
        )
    engine: Engine = rendered_engine(model, path.parent)
    return engine
