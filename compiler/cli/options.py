"""Options and arguments more than one command takes, written once."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler.runtime.loading import ALL_ENGINE_KINDS
from splendor_rules.compiler.tools.bench import BenchError, valgrind
from splendor_rules.compiler.tools.conformance import UnknownEdition, edition_path

engine_option = click.option(
    "--engine",
    "kind",
    type=click.Choice(ALL_ENGINE_KINDS),
    default="generated",
    show_default=True,
    help="The engine to run: the generated module, the reference interpreter, or the native "
    "engine (compiled by splendor-rules build, which needs a C compiler).",
)

first_seed_option = click.option(
    "--seed",
    "-s",
    type=int,
    default=0,
    show_default=True,
    help="The first game's seed; game i uses seed + i.",
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


def printable(text: str) -> str:
    """A line of output with every character a terminal would act on (escape
    sequences, carriage returns, bidirectional overrides) written as its
    escape, so that a record's text shows as text and nothing else."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def need_valgrind() -> None:
    """Exit 1, saying why, where instructions cannot be counted (--instructions
    of `bench` and `bench-bots`)."""
    try:
        valgrind()
    except BenchError as error:
        click.echo(f"cannot count instructions: {error}", err=True)
        sys.exit(1)
