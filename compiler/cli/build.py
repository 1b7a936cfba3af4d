"""`splendor-rules build`: every edition compiled by each target, the Python
engines into generated/<edition>.py and the native ones' C sources into
generated/native/, and those compiled into extension modules; or, with
--check, each generated source that is not current named.

The build is the library's (`backend.build.render`, `write`,
`compile_output`); this module prints what it returns and picks the exit
code. Every edition is reported in one run, and nothing is written unless
all of them build.

The native engines need a C compiler and Python's headers: without them
the build says so in one line and exits 0 (the pure-Python engines work),
after removing any compiled module that its source no longer makes. An
extension module is compiled when it is missing or not stamped with its
source's hash and today's compiler.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend import build as backend
from splendor_rules.compiler.backend import targets
from splendor_rules.compiler.backend.build import Output, extra, stale
from splendor_rules.compiler.backend.native.compile import (
    WHAT_STILL_WORKS,
    CompileFailed,
    CompilerSetting,
    NativeUnavailable,
    OutputUnwritable,
    native_available,
)
from splendor_rules.compiler.backend.unprinted import NotPrinted
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend import pipeline
from splendor_rules.compiler.tools import cache, export, loader
from splendor_rules.dsl.diagnostics import display_path, render


def _shown(output: Output) -> str:
    return f"generated/{output.target.folder}/" if output.target.folder else "generated/"


def _not_current(paths: list[Path]) -> None:
    for path in paths:
        click.echo(f"{display_path(path)} is not current: run splendor-rules build", err=True)


def _check(output: Output) -> bool:
    """Name each file of an output that is not current, and each compiled
    module its source no longer makes; is it all current?"""
    texts = output.files()
    changed = stale(texts)
    leftover = extra(texts, output.folder, output.target) if output.folder.is_dir() else []
    modules = (
        backend.stale_modules(output.folder, output.target.package)
        if output.target.compiled
        else []
    )
    _not_current(changed)
    for path in leftover:
        click.echo(f"{display_path(path)} has no edition: remove it", err=True)
    for module, problem in modules:
        shown = display_path(module)
        click.echo(f"{shown} is stale ({problem}): run splendor-rules build", err=True)
    if changed or leftover or modules:
        return False
    click.echo(f"{_shown(output)} is current ({len(output.engines)} engines)")
    return True


def _write(output: Output) -> None:
    """Write the files that changed, each atomically; exit 2 if one cannot be."""
    texts = output.files()
    try:
        written = backend.write(texts)
    except backend.WriteFailed as failed:
        done = ", ".join(display_path(p) for p in failed.written) or "none"
        click.echo(
            f"cannot write {display_path(failed.path)}: "
            f"{failed.error.strerror or failed.error} (written before it: {done})",
            err=True,
        )
        sys.exit(2)
    for path in output.engines:
        state = "written" if path in written else "unchanged"
        lines = texts[path].count("\n")
        click.echo(f"{display_path(path)}: {lines} lines, {state}")


def _compile(output: Output) -> None:
    """Compile each engine whose extension module is stale; one line says
    what was done, or why nothing could be."""
    try:
        compiled = backend.compile_output(output)
    except CompileFailed as error:
        click.echo(f"native: {error}", err=True)
        sys.exit(1)
    except (CompilerSetting, OutputUnwritable) as error:
        click.echo(f"native: {error}", err=True)
        sys.exit(2)
    for said in compiled.said:
        click.echo(f"native: {said}", err=True)
    for module, problem in compiled.removed:
        click.echo(f"native: removed {display_path(module)}: {problem}")
    if compiled.unavailable is not None:
        reason = compiled.unavailable.removesuffix(f": {WHAT_STILL_WORKS}")
        click.echo(f"native: not built: {reason}; the pure-Python engines work")
        return
    click.echo(f"native: {_compiled(compiled.done, compiled.sources)}")


def _compiled(done: list[Path], sources: list[Path]) -> str:
    """`3 engines compiled (a, b, c)`, `1 engine compiled (a), 2 current
    (b, c)`, `3 engines current (a, b, c)`."""

    def listed(paths: list[Path]) -> str:
        return f"({', '.join(path.stem for path in paths)})"

    current = [source for source in sources if source not in done]
    if not sources:
        return "no engines to compile"
    noun = "engine" if len(done or current) == 1 else "engines"
    if not done:
        return f"{len(current)} {noun} current {listed(current)}"
    line = f"{len(done)} {noun} compiled {listed(done)}"
    return line + (f", {len(current)} current {listed(current)}" if current else "")


def _build_files(files: tuple[Path, ...], out: Path | None, which: str) -> None:
    """Rule files' engines: into the cache, or with --out into a folder."""
    for path in files:
        try:
            model = loader.check_rule_file(path)
        except loader.RuleFileMistakes as error:
            click.echo(str(error), err=True)
            sys.exit(1)
        if out is not None:
            _export(model, path, out, which != "python")
            continue
        for target in ("python", "native") if which == "all" else (which,):
            _cache_one(path, target)


def _cache_one(path: Path, target: str) -> None:
    shown = display_path(path)
    if target == "native" and (reason := native_available()) is not None:
        click.echo(f"{shown}: native: not built: {reason}; the pure-Python engine works")
        return
    try:
        loaded = cache.engine_module(
            path, "native" if target == "native" else "python", loader.check_rule_file
        )
    except CompileFailed as error:
        click.echo(f"{shown}: native: {error}", err=True)
        sys.exit(1)
    except (cache.CacheError, CompilerSetting, OutputUnwritable, NativeUnavailable) as error:
        click.echo(f"{shown}: {target}: {error}", err=True)
        sys.exit(2)
    except NotPrinted as refused:
        located = "\n".join(d.headline() for d in refused.diagnostics)
        if target == "native":  # as without a C compiler: the generated engine works
            click.echo(f"{shown}: native: not built:\n{located}")
            return
        click.echo(located, err=True)  # no engine but the interpreter plays it
        sys.exit(1)
    for said in loaded.said:
        click.echo(f"native: {said}", err=True)
    state = "built" if loaded.built else "current"
    click.echo(f"{shown}: {target} engine {state} in the cache: {loaded.folder}")


def _export(model: m.Edition, path: Path, out: Path, native_too: bool) -> None:
    try:
        exported = export.export_engines(model, path, out, native_too)
    except export.ExportError as error:
        raise click.BadParameter(str(error), param_hint="--out") from error
    except CompileFailed as error:
        click.echo(f"native: {error}", err=True)
        sys.exit(1)
    except CompilerSetting as error:
        click.echo(f"native: {error}", err=True)
        sys.exit(2)
    except NotPrinted as refused:  # no Python engine: the interpreter plays it
        click.echo("\n".join(d.headline() for d in refused.diagnostics), err=True)
        sys.exit(1)
    for said in exported.said:
        click.echo(f"native: {said}", err=True)
    for file in exported.files:
        click.echo(f"{display_path(file)}: written")
    if exported.module is not None:
        click.echo(f"{display_path(exported.module)}: compiled")
    else:
        click.echo(f"native: not compiled: {exported.unavailable}")


INSTALLED = (
    "the engines of the installed package were built when it was installed, and build "
    "writes nothing inside it: build a rule file of yours (`splendor-rules build my.rules`, "
    "into the cache, or with --out DIR), or run build in a clone of the project"
)


@click.command("build")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 naming each generated source that is not current.",
)
@click.option(
    "--target",
    "which",
    type=click.Choice([*targets.names(), "all"]),
    default="all",
    show_default=True,
    help="The engines to build: the Python ones (generated/), the native ones "
    "(generated/native/, compiled into extension modules), or both.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="With FILES: write each one's engine sources (and compiled native module) into this "
    "folder, a Python package named after it, instead of the cache.",
)
def command(files: tuple[Path, ...], check_only: bool, which: str, out: Path | None) -> None:
    """Compile every edition into generated/<edition>.py and into a native
    engine (generated/native/<edition>.c, compiled with the C compiler
    Python was built with when there is one); or the rule FILES given.

    Every edition is checked and reported in one run; if one does not build,
    nothing is written (exit 1), and --check still names the engines of the
    others that are not current. Without a C compiler the native engines are
    not compiled, said in one line (exit 0): the pure-Python engines work.

    \b
    A rule file of yours, anywhere:
      splendor-rules build my.rules            its engines into the per-user cache
      splendor-rules build my.rules --out eng  eng/house.py, eng/native/house.c (+ module)
    Every command takes the file too (play my.rules, bench my.rules ...),
    building its engines into the cache on first use. Installed without -e,
    build with no FILES writes nothing (exit 2): the package is left as
    installed.
    """
    if files:
        if check_only:
            raise click.UsageError("--check is for the editions folder, not for FILES")
        _build_files(files, out, which)
        return
    if out is not None:
        raise click.UsageError("--out needs a rule file: build FILE --out DIR")
    if not check_only and cli._installed():
        click.echo(f"splendor-rules build: {INSTALLED}", err=True)
        sys.exit(2)
    generated = cli._generated_folder()  # looked up on the package, where tests replace it
    chosen = [(t, backend.output_folder(generated, t)) for t in backend.chosen(which)]
    build = backend.render(pipeline.editions_folder(), chosen)
    for diagnostic, sources in build.diagnostics:
        click.echo(render(diagnostic, sources), err=True)
    if not build.ok:
        for mistake in build.mistakes:
            click.echo(mistake, err=True)
        if check_only:
            for output in build.outputs:
                _not_current(stale(output.files()))
        else:
            click.echo("nothing was written", err=True)
        sys.exit(1)
    if check_only:
        if not all([_check(output) for output in build.outputs]):
            sys.exit(1)
        return
    for output in build.outputs:
        _write(output)
        if output.target.compiled:
            _compile(output)
