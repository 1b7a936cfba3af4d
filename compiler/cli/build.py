"""`splendor-rules build`: every edition compiled into generated/<edition>.py,
or, with --check, each generated file that is not current named.

Each edition is compiled on its own, so that one that does not check does
not hide the mistakes of the next: every edition is reported in one run,
and nothing is written unless all of them build. An engine is named after
the edition its rule file declares; two rule files that declare one name,
or a name whose engine file would be another file of the package, are
mistakes reported here, before anything is written.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend.build import default_target, extra, stale, write_atomically
from splendor_rules.compiler.backend.target import Target
from splendor_rules.compiler.frontend import pipeline
from splendor_rules.dsl.diagnostics import Sources, display_path, render


class _Build:
    """The texts of the output folder for the editions that build, and the
    reason each other edition does not."""

    def __init__(self, folder: Path, out: Path, target: Target) -> None:
        self.texts: dict[Path, str] = {}
        self.engines: dict[Path, Path] = {}  # an engine file -> the rule file it is built from
        self.mistakes: list[str] = []
        for path in pipeline.edition_files(folder):
            self._add(path, folder, out, target)
        editions = sorted(engine.stem for engine in self.engines)
        package = {out / name: text for name, text in target.package_files(editions).items()}
        for engine in sorted(set(self.engines) & set(package)):
            del self.texts[engine]
            self.mistakes.append(
                f"{display_path(self.engines[engine])}: its engine would be "
                f"{display_path(engine)}, a file of the package: rename the edition"
            )
        if not self.mistakes:
            self.texts.update(package)

    def _add(self, path: Path, folder: Path, out: Path, target: Target) -> None:
        """One edition's engine, or the mistakes that stop it, reported."""
        sources = Sources()
        compiled = pipeline.compile_file(path, sources)
        for diagnostic in compiled.diagnostics:
            click.echo(render(diagnostic, sources), err=True)
        if not compiled.ok or compiled.model is None:
            self.mistakes.append(f"{display_path(path)} does not check")
            return
        try:
            engine = out / target.engine_file(compiled.model.name)
        except ValueError as error:
            self.mistakes.append(f"{display_path(path)}: no engine file for this name: {error}")
            return
        if engine in self.engines:
            self.mistakes.append(
                f"{display_path(self.engines[engine])} and {display_path(path)} both build "
                f"{display_path(engine)}: rename one edition"
            )
            return
        self.engines[engine] = path
        self.texts[engine] = target.render_engine(compiled.model, folder.parent)


def _not_current(paths: list[Path]) -> None:
    for path in paths:
        click.echo(f"{display_path(path)} is not current: run splendor-rules build", err=True)


def _check(build: _Build, out: Path) -> None:
    """Name each file that is not current; exit 1 if any is not."""
    changed, leftover = stale(build.texts), extra(build.texts, out)
    _not_current(changed)
    for path in leftover:
        click.echo(f"{display_path(path)} has no edition: remove it", err=True)
    if changed or leftover:
        sys.exit(1)
    click.echo(f"generated/ is current ({len(build.engines)} engines)")


def _write(build: _Build) -> None:
    """Write the files that changed, each atomically; exit 2 if one cannot be."""
    written: list[Path] = []
    for path in stale(build.texts):
        try:
            write_atomically(path, build.texts[path])
        except OSError as error:
            done = ", ".join(display_path(p) for p in written) or "none"
            click.echo(
                f"cannot write {display_path(path)}: {error.strerror or error} "
                f"(written before it: {done})",
                err=True,
            )
            sys.exit(2)
        written.append(path)
    for path in build.engines:
        state = "written" if path in written else "unchanged"
        lines = build.texts[path].count("\n")
        click.echo(f"{display_path(path)}: {lines} lines, {state}")


@click.command("build")
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 naming each generated file that is not current.",
)
def command(check_only: bool) -> None:
    """Compile every edition into generated/<edition>.py.

    Every edition is checked and reported in one run; if one does not build,
    nothing is written (exit 1), and --check still names the engines of the
    others that are not current.
    """
    out = cli._generated_folder()  # looked up on the package, where tests replace it
    build = _Build(pipeline.editions_folder(), out, default_target())
    if build.mistakes:
        for mistake in build.mistakes:
            click.echo(mistake, err=True)
        if check_only:
            _not_current(stale(build.texts))
        else:
            click.echo("nothing was written", err=True)
        sys.exit(1)
    if check_only:
        _check(build, out)
    else:
        _write(build)
