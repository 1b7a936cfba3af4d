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
    OutputUnwritable,
)
from splendor_rules.compiler.frontend import pipeline
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


@click.command("build")
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
def command(check_only: bool, which: str) -> None:
    """Compile every edition into generated/<edition>.py and into a native
    engine (generated/native/<edition>.c, compiled with the C compiler
    Python was built with when there is one).

    Every edition is checked and reported in one run; if one does not build,
    nothing is written (exit 1), and --check still names the engines of the
    others that are not current. Without a C compiler the native engines are
    not compiled, said in one line (exit 0): the pure-Python engines work.
    """
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
