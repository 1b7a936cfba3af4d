"""`splendor-rules replay`: records replayed and their expectations checked.

Exit 0 every record holds, 1 some record does not hold, 2 some record cannot
be read (or the command line is wrong).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from splendor_rules.compiler.cli.options import engine_option, plural, printable
from splendor_rules.compiler.tools.records import Failure, Record, RecordError, check_file
from splendor_rules.compiler.tools.records.form import Json


def _files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise click.BadParameter(f"{path} holds no .json record", param_hint="FILES")
            files.extend(found)
        else:
            files.append(path)
    return files


def _show(value: Json) -> str:
    return printable(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value)


def _show_failure(path: Path, record: Record, failure: Failure) -> None:
    where = "the start" if failure.step == 0 else f"step {failure.step}"
    click.echo(printable(f"{path}: FAILED at {where}: {record.title}"))
    if failure.action is not None:
        click.echo(printable(f"  action:   {failure.action}"))
    for what, expected, actual in failure.problems:
        click.echo(f"  {what}:")
        click.echo(f"    expected: {_show(expected)}")
        click.echo(f"    actual:   {_show(actual)}")


@click.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Print only what fails.")
@click.option(
    "--rules",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Replay against the engines of this rule file (which must declare the records' "
    "edition) instead of the installed edition of that name.",
)
@engine_option
def command(files: tuple[Path, ...], quiet: bool, rules: Path | None, kind: str) -> None:
    """Replay game records and check every action and expectation.

    A directory stands for the .json records in it. A record of a rule
    file's edition (`play my.rules -o game.json`) is replayed with --rules:
    `replay game.json --rules my.rules`. A record names the fingerprint of
    the rules it was played under; replayed against other rules, a warning
    says so (and a failure may come from the change). Exit 0 all hold, 1
    some record does not hold, 2 some record cannot be read.
    """
    ok = failed = bad = 0
    for path in _files(files):
        try:
            record, failure = check_file(path, kind, None if rules is None else str(rules))
        except RecordError as error:
            bad += 1
            click.echo(printable(f"{path}: error: {error}"), err=True)
            continue
        if record.other_rules:
            click.echo(
                printable(
                    f"{path}: warning: played under other rules (fingerprint "
                    f"{record.fingerprint}; these rules are {record.rules_fingerprint}): "
                    "the edition has changed since"
                ),
                err=True,
            )
        if failure is None:
            ok += 1
            if not quiet:
                steps = plural(len(record.steps), "step")
                click.echo(printable(f"{path}: ok ({steps}): {record.title}"))
            continue
        failed += 1
        _show_failure(path, record, failure)
    total = ok + failed + bad
    if not quiet or failed or bad:
        click.echo(f"{plural(total, 'record')}: {ok} ok, {failed} failed, {bad} bad")
    sys.exit(2 if bad else 1 if failed else 0)
