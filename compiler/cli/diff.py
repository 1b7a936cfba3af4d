"""`splendor-rules diff A B`: what edition B renames, overrides, adds and
removes relative to A, each declaration's rule text old -> new."""

from __future__ import annotations

import json
import sys

import click

from splendor_rules.compiler.cli.options import edition_argument, printable
from splendor_rules.compiler.tools.conformance import (
    CannotCompare,
    compile_edition,
    diff_editions,
)
from splendor_rules.compiler.tools.conformance.changes import (
    changes_json,
    describe_changes,
    format_changes,
)


@click.command("diff")
@click.argument("a")
@click.argument("b")
@click.option(
    "--format",
    "output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text to read; json for tools.",
)
def command(a: str, b: str, output: str) -> None:
    """Show what B renames, overrides, adds and removes relative to A.

    A and B are edition names (editions/NAME.rules) or rule files. Each
    declaration is shown as rule text: an override line by line, old -> new
    (A's text in B's names), in the order of the rule ids it states; an
    added or removed one whole. Exit 0, or 1 if a rule file has mistakes.
    """
    path_a, path_b = edition_argument(a, "A"), edition_argument(b, "B")
    try:
        resolved_a = compile_edition(path_a).resolved
        resolved_b = compile_edition(path_b).resolved
    except CannotCompare as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    assert resolved_a is not None and resolved_b is not None
    changes = describe_changes(diff_editions(resolved_a, resolved_b), resolved_a, resolved_b)
    if output == "json":
        click.echo(json.dumps(changes_json(changes), indent=2))
    else:
        click.echo("\n".join(printable(line) for line in format_changes(changes).split("\n")))
