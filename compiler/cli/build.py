"""`splendor-rules build`: every edition compiled into generated/<edition>.py,
or, with --check, each generated file that is not current named."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend.python.codegen import BuildError, build_all
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder
from splendor_rules.dsl.diagnostics import Sources, display_path, render


def _report(error: BuildError) -> None:
    sources = Sources()
    compiled = compile_file(error.path, sources)
    for diagnostic in compiled.diagnostics:
        click.echo(render(diagnostic, sources), err=True)
    click.echo(f"{display_path(error.path)} does not check; nothing was written", err=True)


def _stale(texts: dict[Path, str]) -> list[Path]:
    """The engines whose file is missing or differs from its text."""
    return [
        path
        for path, text in texts.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def _extra(out: Path, texts: dict[Path, str]) -> list[Path]:
    """The files of the folder that are no edition's engine."""
    return [
        path
        for path in sorted(out.glob("*.py"))
        if path.name != "__init__.py" and path not in texts
    ]


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
    stale = _stale(texts)
    if check_only:
        extra = _extra(out, texts)
        for path in stale:
            click.echo(f"{display_path(path)} is not current: run splendor-rules build", err=True)
        for path in extra:
            click.echo(f"{display_path(path)} has no edition: remove it", err=True)
        if stale or extra:
            sys.exit(1)
        click.echo(f"generated/ is current ({len(texts)} engines)")
        return
    for path, text in texts.items():
        if path in stale:
            path.write_text(text, encoding="utf-8")
    for path in texts:
        state = "written" if path in stale else "unchanged"
        lines = texts[path].count("\n")
        click.echo(f"{display_path(path)}: {lines} lines, {state}")
