"""`splendor-rules build`: every edition compiled by each target, the Python
engines into generated/<edition>.py and the native ones' C sources into
generated/native/, and those compiled into extension modules; or, with
--check, each generated source that is not current named.

Each edition is compiled on its own, so that one that does not check does
not hide the mistakes of the next: every edition is reported in one run,
and nothing is written unless all of them build. An engine is named after
the edition its rule file declares; two rule files that declare one name,
or a name whose engine file would be another file of the package, are
mistakes reported here, before anything is written.

The native engines need a C compiler and Python's headers: without them
the build says so in one line and exits 0 (the pure-Python engines work).
An extension module is compiled when it is missing or older than its
source, as the editable install leaves it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend import build as backend
from splendor_rules.compiler.backend.build import extra, stale, write_atomically
from splendor_rules.compiler.backend.native.compile import (
    CompileFailed,
    NativeUnavailable,
    native_available,
)
from splendor_rules.compiler.backend.target import Target
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend import pipeline
from splendor_rules.dsl.diagnostics import Sources, display_path, render

TARGETS = ("python", "native", "all")
NO_NATIVE_TARGET = "this version of splendor-rules has no native target"


class _Output:
    """What one target's output folder should hold: the engines of the
    editions that build, by path, and the package files."""

    def __init__(self, target: Target, out: Path, shown: str) -> None:
        self.target, self.out, self.shown = target, out, shown  # shown: "generated/"
        self.texts: dict[Path, str] = {}
        self.engines: dict[Path, Path] = {}  # an engine file -> the rule file it is built from


class _Build:
    """The texts of the output folders for the editions that build, and the
    reason each other edition does not."""

    def __init__(self, folder: Path, outputs: list[_Output]) -> None:
        self.outputs = outputs
        self.mistakes: list[str] = []
        for path in pipeline.edition_files(folder):
            self._add(path, folder)
        packages = [self._package(output) for output in outputs]
        if not self.mistakes:
            for output, package in zip(outputs, packages, strict=True):
                output.texts.update(package)

    def _package(self, output: _Output) -> dict[Path, str]:
        """The package files of an output; an engine that would be one is a mistake."""
        editions = sorted(engine.stem for engine in output.engines)
        package = {
            output.out / name: text for name, text in output.target.package_files(editions).items()
        }
        for engine in sorted(set(output.engines) & set(package)):
            del output.texts[engine]
            self.mistakes.append(
                f"{display_path(output.engines[engine])}: its engine would be "
                f"{display_path(engine)}, a file of the package: rename the edition"
            )
        return package

    def _add(self, path: Path, folder: Path) -> None:
        """One edition's engines, or the mistakes that stop them, reported."""
        sources = Sources()
        compiled = pipeline.compile_file(path, sources)
        for diagnostic in compiled.diagnostics:
            click.echo(render(diagnostic, sources), err=True)
        if not compiled.ok or compiled.model is None:
            self.mistakes.append(f"{display_path(path)} does not check")
            return
        for output in self.outputs:
            self._engine(output, path, compiled.model, folder)

    def _engine(self, output: _Output, path: Path, model: m.Edition, folder: Path) -> None:
        try:
            engine = output.out / output.target.engine_file(model.name)
        except ValueError as error:
            self.mistakes.append(f"{display_path(path)}: no engine file for this name: {error}")
            return
        if engine in output.engines:
            self.mistakes.append(
                f"{display_path(output.engines[engine])} and {display_path(path)} both build "
                f"{display_path(engine)}: rename one edition"
            )
            return
        output.engines[engine] = path
        for name, text in output.target.render_files(model, folder.parent).items():
            output.texts[output.out / name] = text


def _outputs(which: str, generated: Path) -> list[_Output]:
    """The targets to build, with their output folders (no native one in a
    version that has no native target)."""
    outputs = []
    if which in ("python", "all"):
        outputs.append(_Output(backend.default_target(), generated, "generated/"))
    native = backend.native_target() if which in ("native", "all") else None
    if native is not None:
        folder = generated / backend.NATIVE_FOLDER
        outputs.append(_Output(native, folder, f"generated/{backend.NATIVE_FOLDER}/"))
    return outputs


def _not_current(paths: list[Path]) -> None:
    for path in paths:
        click.echo(f"{display_path(path)} is not current: run splendor-rules build", err=True)


def _check(output: _Output) -> bool:
    """Name each file of an output that is not current; is it all current?"""
    changed = stale(output.texts)
    leftover = extra(output.texts, output.out, output.target) if output.out.is_dir() else []
    _not_current(changed)
    for path in leftover:
        click.echo(f"{display_path(path)} has no edition: remove it", err=True)
    if changed or leftover:
        return False
    click.echo(f"{output.shown} is current ({len(output.engines)} engines)")
    return True


def _write(output: _Output) -> None:
    """Write the files that changed, each atomically; exit 2 if one cannot be."""
    written: list[Path] = []
    for path in stale(output.texts):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, output.texts[path])
        except OSError as error:
            done = ", ".join(display_path(p) for p in written) or "none"
            click.echo(
                f"cannot write {display_path(path)}: {error.strerror or error} "
                f"(written before it: {done})",
                err=True,
            )
            sys.exit(2)
        written.append(path)
    for path in output.engines:
        state = "written" if path in written else "unchanged"
        lines = output.texts[path].count("\n")
        click.echo(f"{display_path(path)}: {lines} lines, {state}")


def _compile_native(folder: Path) -> None:
    """Compile each native engine whose extension module is missing or older
    than its source; one line says what was done, or why nothing could be."""
    reason = native_available()
    if reason is not None:
        click.echo(f"native: not built: {reason}; the pure-Python engines work")
        return
    todo = backend.stale_extensions(folder)
    try:
        backend.compile_extensions(todo)
    except NativeUnavailable as error:
        click.echo(f"native: not built: {error}")
        return
    except CompileFailed as error:
        click.echo(f"native: {error}", err=True)
        sys.exit(1)
    click.echo(f"native: {_compiled(todo, backend.native_sources(folder))}")


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
    type=click.Choice(TARGETS),
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
    build = _Build(pipeline.editions_folder(), _outputs(which, generated))
    if build.mistakes:
        for mistake in build.mistakes:
            click.echo(mistake, err=True)
        if check_only:
            for output in build.outputs:
                _not_current(stale(output.texts))
        else:
            click.echo("nothing was written", err=True)
        sys.exit(1)
    if check_only:
        current = all([_check(output) for output in build.outputs])
    else:
        for output in build.outputs:
            _write(output)
            if output.target.name == "native":
                _compile_native(output.out)
    if which != "python" and not any(o.target.name == "native" for o in build.outputs):
        done = "checked" if check_only else "built"
        click.echo(f"native: not {done}: {NO_NATIVE_TARGET}; the pure-Python engines work")
    if check_only and not current:
        sys.exit(1)
