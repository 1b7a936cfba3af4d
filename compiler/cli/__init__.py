"""The command line: `splendor-rules SUBCOMMAND`, one module per command.

This package is the only layer that imports click, prints and chooses exit
codes; the compiler and the tools it calls return results and raise errors.

Exit codes: 0 all is well, 1 the input is wrong (a rule file with mistakes,
a record whose expectations fail, a game whose human stopped answering), 2
the command line is wrong (click's convention for usage errors), a record is
unreadable so nothing could be checked, or the output cannot be written (a
closed pipe ends the run quietly; a full disk or another error says so in
one line on stderr): never a traceback; 130 interrupted by Ctrl-C, at any
moment (interrupts.py; simulate first reports the games finished).
"""

from __future__ import annotations

# First: Ctrl-C while the rest loads ends the run in one line (interrupts.py).
from splendor_rules.compiler.cli import interrupts  # isort: split

import contextlib
import errno
import importlib
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from splendor_rules.dsl.diagnostics import display_path


def _output_failed(error: OSError) -> NoReturn:
    """End the run when the output cannot be written: later writes, click's
    and the interpreter's last flush, go to the null device instead of
    failing again; a closed pipe is said nothing about (its reader is gone)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # no real stdout (closed, or a test's): nothing is left to flush
    if error.errno != errno.EPIPE:
        what = display_path(Path(error.filename)) if error.filename else "cannot write the output"
        with contextlib.suppress(OSError):  # stderr may be unwritable too
            click.echo(f"splendor-rules: {what}: {error.strerror or error}", err=True)
    sys.exit(2)


class _Commands(click.Group):
    """The group of commands, which ends the run in one line when a command
    meets an OSError it does not handle (stdout full or closed) or Ctrl-C
    (exit 130; before the command runs, at once: interrupts.py)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with interrupts.exiting():
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with interrupts.raising():
                return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupts.say_interrupted()
            sys.exit(interrupts.INTERRUPTED)
        except OSError as error:
            _output_failed(error)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="splendor-rules")
def main() -> None:
    """A rules specification compiler for the Splendor family of board games."""


def _generated_folder() -> Path:
    """Where `build` writes the engines (tests replace it, here, by a copy)."""
    return Path(str(importlib.import_module("splendor_rules.generated").__path__[0]))


def _installed() -> bool:
    """Is the package installed (not an editable install of a clone)? Its
    folders then lie in site-packages, with no pyproject.toml beside them,
    and `build` writes nothing there."""
    package = Path(str(importlib.import_module("splendor_rules.generated").__path__[0]))
    return not (package.parent / "pyproject.toml").is_file()


def _register() -> None:
    from splendor_rules.compiler.cli import (
        bench,
        bench_bots,
        build,
        cache,
        check,
        conform,
        diff,
        doc,
        fmt,
        lsp,
        play,
        replay,
        rl,
        serve,
        simulate,
    )

    commands = (
        check, fmt, build, bench, bench_bots, play, replay, diff, doc, conform, simulate, cache,
        lsp, serve, rl,
    )
    for module in commands:
        main.add_command(module.command)


_register()
interrupts.loaded()
