"""`splendor-rules build`: every edition compiled into generated/<edition>.py,
or, with --check, each generated file that is not current named."""

from __future__ import annotations

import sys

import click

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend.build import BuildError, build_all, extra, stale, write
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder
from splendor_rules.dsl.diagnostics import Sources, display_path, render


def _report(error: BuildError) -> None:
    sources = Sources()
    compiled = compile_file(error.path, sources)
    for diagnostic in compiled.diagnostics:
        click.echo(render(diagnostic, sources), err=True)
    click.echo(f"{display_path(error.path)} does not check; nothing was written", err=True)


@click.command("build")
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 naming each generated file that is not current.",
)
def command(check_only: bool) -> None:
    """Compile every edition into generated/<edition>.py."""
    out = cli._generated_folder()  # looked up on the package, where tests replace it
    try:
        texts = build_all(editions_folder(), out)
    except BuildError as error:
        _report(error)
        sys.exit(1)
    engines = [path for path in texts if path.name != "__init__.py"]
    if check_only:
        changed, leftover = stale(texts), extra(texts, out)
        for path in changed:
            click.echo(f"{display_path(path)} is not current: run splendor-rules build", err=True)
        for path in leftover:
            click.echo(f"{display_path(path)} has no edition: remove it", err=True)
        if changed or leftover:
            sys.exit(1)
        click.echo(f"generated/ is current ({len(engines)} engines)")
        return
    written = write(texts)
    for path in engines:
        state = "written" if path in written else "unchanged"
        lines = texts[path].count("\n")
        click.echo(f"{display_path(path)}: {lines} lines, {state}")
