"""`splendor-rules diff A B`: what edition B renames, overrides, adds and
removes relative to A."""

from __future__ import annotations

import sys

import click

from splendor_rules.compiler.cli.options import edition_argument
from splendor_rules.compiler.tools.conformance import (
    CannotCompare,
    compile_edition,
    diff_editions,
    format_diff,
)


@click.command("diff")
@click.argument("a")
@click.argument("b")
def command(a: str, b: str) -> None:
    """List what B renames, overrides, adds and removes relative to A.

    A and B are edition names (editions/NAME.rules) or rule files.
    """
    path_a, path_b = edition_argument(a, "A"), edition_argument(b, "B")
    try:
        resolved_a = compile_edition(path_a).resolved
        resolved_b = compile_edition(path_b).resolved
    except CannotCompare as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    assert resolved_a is not None and resolved_b is not None
    click.echo(format_diff(diff_editions(resolved_a, resolved_b)))
