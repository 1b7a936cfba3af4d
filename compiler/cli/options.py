"""Options and arguments more than one command takes, written once."""

from __future__ import annotations

from pathlib import Path

import click

from splendor_rules.compiler.runtime.loading import ENGINE_KINDS
from splendor_rules.compiler.tools.conformance import UnknownEdition, edition_path

engine_option = click.option(
    "--engine",
    "kind",
    type=click.Choice(ENGINE_KINDS),
    default="generated",
    show_default=True,
    help="The engine to run: the generated module or the reference interpreter.",
)


def edition_argument(name: str, hint: str) -> Path:
    """The rule file of an edition named on the command line (a usage error
    if there is none)."""
    try:
        return edition_path(name)
    except UnknownEdition as error:
        raise click.BadParameter(str(error), param_hint=hint) from error


def plural(count: int, noun: str) -> str:
    """`1 record`, `2 records`."""
    return f"{count} {noun}{'s' if count != 1 else ''}"
