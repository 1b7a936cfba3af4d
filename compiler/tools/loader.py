"""One loader: an edition's name or a rule file's path -> an engine of any kind.

By name, an installed engine (`runtime.loading.load_engine`: the generated
module, the interpreter, or the native engine where it is built). By rule
file, its generated and native engines come from the per-user cache
(`tools.cache`: built there on first use, keyed by the contents of every
file the check read), and its interpreter runs over the checked model. If
the cache cannot be written, the generated engine is rendered in memory
instead. It sits at the tools layer because it uses both the back end
(rendering) and the runtime (the interpreter).

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
from typing import TYPE_CHECKING

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import EngineKind, EngineUnavailable, load_engine

if TYPE_CHECKING:
    from splendor_rules.compiler.frontend import model as m
    from splendor_rules.compiler.frontend.pipeline import Compiled

# The compiler (front end, back end, cache) is imported where a rule file
# needs it: loading an installed edition by name imports none of it, so
# that a child process timed under valgrind starts in a fraction of the
# instructions (compiler/tools/random_games.py).

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
    from splendor_rules.compiler.frontend.pipeline import compile_file
    from splendor_rules.dsl.diagnostics import Sources, display_path, has_errors, render

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
    from splendor_rules.compiler.backend.python.target import PYTHON

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
    from splendor_rules.dsl.diagnostics import display_path

    path = Path(edition)
    if not path.is_file():
        raise EngineUnavailable(f"no rule file {display_path(path)}")
    if kind == "interpreted":
        from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

        return InterpretedEngine(check_rule_file(path))
    if kind not in ("generated", "native"):
        raise EngineUnavailable(f"unknown engine kind {kind!r}")
    return cached_engine(path, kind)


def cached_engine(path: Path, kind: EngineKind) -> Engine:
    """A rule file's generated or native engine from the cache (built there
    first if need be). Without a usable cache the generated engine is
    rendered in memory; the native one is then unavailable, as it is
    without a C compiler (EngineUnavailable says why)."""
    from splendor_rules.compiler.backend.native.compile import (
        CompileFailed,
        CompilerSetting,
        NativeUnavailable,
        OutputUnwritable,
        native_available,
    )
    from splendor_rules.compiler.tools import cache
    from splendor_rules.dsl.diagnostics import display_path

    target: cache.Target = "native" if kind == "native" else "python"
    if target == "native":
        reason = native_available()
        if reason is not None:
            raise EngineUnavailable(
                f"{display_path(path)} has no native engine here: {reason}; "
                "--engine generated plays it in Python"
            )
    from splendor_rules.compiler.backend.unprinted import NotPrinted

    try:
        loaded = cache.engine_module(path, target, check_rule_file)
    except NotPrinted as refused:
        located = "; ".join(d.headline() for d in refused.diagnostics)
        raise EngineUnavailable(f"no {kind} engine for {display_path(path)}: {located}") from None
    except cache.CacheError as error:
        if target == "native":
            raise EngineUnavailable(f"no native engine for {display_path(path)}: {error}") from None
        fallback: Engine = rendered_engine(check_rule_file(path), path.parent)
        return fallback
    except (NativeUnavailable, CompileFailed, CompilerSetting, OutputUnwritable) as error:
        raise EngineUnavailable(
            f"the native engine of {display_path(path)} could not be built: {error}"
        ) from None
    engine: Engine = loaded.module
    return engine
