"""`splendor-rules lsp`: the language server of rule files, over stdin and
stdout (docs/editors.md); `--bench` times its answers after an edit."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.dsl.diagnostics import display_path

INSTALL = "pip install 'splendor-rules[lsp]'"


@click.command("lsp")
@click.option(
    "--stdio", is_flag=True, help="Talk over stdin and stdout (the default; editors pass it)."
)
@click.option(
    "--bench",
    "bench",
    is_flag=True,
    help="Instead of serving, time a server's answers after edits of the largest edition.",
)
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="With --bench: the rule file to edit (default: the largest edition).",
)
@click.option(
    "--edits",
    default=20,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="With --bench: how many times a comment is typed, then taken back (two edits each).",
)
def command(stdio: bool, bench: bool, file: Path | None, edits: int) -> None:
    """Serve the language server protocol for rule files, for an editor.

    Diagnostics as the file is typed, hover, go to definition, find
    references, rename, completion and the outline. Needs pygls: install it
    with the `lsp` extra.
    """
    try:
        from splendor_rules.compiler.tools.lsp import server
    except ImportError as error:  # as simulate's Ray backend: the command asks for an extra
        missing = f"the language server needs the lsp extra ({error.name} is missing): {INSTALL}"
        raise click.UsageError(missing) from error
    if not bench:
        server.serve()
        return
    from splendor_rules.compiler.tools.lsp.bench import largest_edition, measure, summary

    path = file or largest_edition()
    command = [sys.executable, "-c", "from splendor_rules.compiler.cli import main; main()", "lsp"]
    timings = measure(command, path, edits)
    edited = f"{2 * edits} edits of a line in its middle (a comment typed, then taken back)"
    click.echo(f"{display_path(path)}: {timings.lines} lines, {edited}")
    click.echo(f"diagnostics after an edit  {summary(timings.diagnostics)}")
    click.echo(f"hover after an edit        {summary(timings.hover)}")
    click.echo(f"completion after an edit   {summary(timings.completion)}")
    if timings.cpu is not None:
        click.echo(f"server CPU time            {timings.cpu:6.1f} ms per edit ({_SPENT})")
    click.echo(f"load average (1 min) {timings.load:.2f} on {_cores()} cores")


_SPENT = "its check, and a hover and a completion after every other edit"


def _cores() -> int:
    import os

    return os.cpu_count() or 1
