"""`splendor-rules doc EDITION`: the edition as a rulebook in English,
Markdown or one self-contained HTML page."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.cli.options import edition_argument
from splendor_rules.compiler.tools.rulebook import (
    FORMATS,
    CannotDocument,
    make_rulebook,
    render_rulebook,
)
from splendor_rules.dsl.diagnostics import display_path


def _format(chosen: str | None, out: str | None) -> str:
    """The format asked for; without --format, html for an output file
    named .html or .htm, else md."""
    if chosen is not None:
        return chosen
    if out is not None and Path(out).suffix.lower() in (".html", ".htm"):
        return "html"
    return "md"


@click.command("doc")
@click.argument("edition")
@click.option(
    "--format",
    "chosen",
    type=click.Choice(FORMATS),
    default=None,
    help="md (Markdown) or html (one self-contained page). Default: html for an -o file "
    "named .html or .htm, else md.",
)
@click.option(
    "--out",
    "-o",
    default=None,
    metavar="FILE",
    help="Write the rulebook here (atomically: a temporary file, then a rename); "
    "- or none: to stdout.",
)
def command(edition: str, chosen: str | None, out: str | None) -> None:
    """Write EDITION as a rulebook in English.

    EDITION is an edition's name (classic) or a rule file (my.rules). Each
    rule id of its reference rulebooks is a section, in their order, spelt
    out from what the checked rule file states (numbers, conditions,
    choices, payments); then its card and tile tables (in HTML with
    coloured cost pips and points) and, for an edition that extends
    another, what it changes from it. Exit 0; 1 if the rule file has
    mistakes (they are shown); 2 if the command line is wrong or the output
    cannot be written.
    """
    path = edition_argument(edition, "EDITION")
    try:
        book = make_rulebook(path)
    except CannotDocument as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    text = render_rulebook(book, _format(chosen, out))
    if out is None or out == "-":
        click.echo(text, nl=False)
        return
    target = Path(out)
    try:
        write_atomically(target, text)
    except OSError as error:
        click.echo(f"cannot write {display_path(target)}: {error.strerror or error}", err=True)
        sys.exit(2)
    click.echo(f"{display_path(target)}: the rulebook of {book.name}", err=True)
