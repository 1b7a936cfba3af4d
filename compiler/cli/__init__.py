"""The command line: `splendor-rules SUBCOMMAND`, one module per command.

This package is the only layer that imports click, prints and chooses exit
codes; the compiler and the tools it calls return results and raise errors.

Exit codes: 0 all is well, 1 the input is wrong (a rule file with mistakes,
a record whose expectations fail), 2 the command line is wrong (click's
convention for usage errors) or a record is unreadable, so nothing could be
checked.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="splendor-rules")
def main() -> None:
    """A rules specification compiler for the Splendor family of board games."""


def _generated_folder() -> Path:
    """Where `build` writes the engines (tests replace it, here, by a copy)."""
    return Path(str(importlib.import_module("splendor_rules.generated").__path__[0]))


def _register() -> None:
    from splendor_rules.compiler.cli import bench, build, check, conform, diff, play, replay

    for module in (check, build, bench, play, replay, diff, conform):
        main.add_command(module.command)


_register()
