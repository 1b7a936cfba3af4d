"""`splendor-rules conform A B`: whether the rules edition B shares with A
behave identically, checked in probe engines; exit 1 on any divergence."""

from __future__ import annotations

import sys

import click

from splendor_rules.compiler.cli.options import edition_argument, first_seed_option
from splendor_rules.compiler.tools.conformance import (
    CannotCompare,
    check_conformance,
    format_report,
)


@click.command("conform")
@click.argument("a")
@click.argument("b")
@click.option(
    "--games",
    "-g",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Random games to draw positions from (each also played from an empty supply).",
)
@first_seed_option
@click.option(
    "--plies",
    type=click.IntRange(0),
    default=100,
    show_default=True,
    help="At most this many moves per game.",
)
@click.option(
    "--players",
    "-p",
    type=click.IntRange(1),
    multiple=True,
    help="Player count (repeatable); default: each count both editions allow, in turn.",
)
def command(a: str, b: str, games: int, seed: int, plies: int, players: tuple[int, ...]) -> None:
    """Check that the rules edition B shares with A behave identically.

    A and B are edition names (editions/NAME.rules) or rule files. Exit 1 on
    any divergence, with the smallest diverging case.
    """
    path_a, path_b = edition_argument(a, "A"), edition_argument(b, "B")
    try:
        report = check_conformance(path_a, path_b, games, seed, plies, players)
    except CannotCompare as error:
        click.echo(f"cannot compare {a} and {b}: {error}", err=True)
        sys.exit(1)
    click.echo(format_report(report))
    sys.exit(1 if report.diverged else 0)
