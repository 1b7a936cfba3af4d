"""`splendor-rules cache info|clear`: the per-user cache of rule files'
engines (compiler/tools/cache.py): where it is, what it holds, emptied."""

from __future__ import annotations

import time

import click

from splendor_rules.compiler.cli.options import plural
from splendor_rules.compiler.tools import cache


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


@click.group("cache")
def command() -> None:
    """The per-user cache of the engines built from rule files.

    `play my.rules`, `bench my.rules --engine native` and every other
    command build a rule file's engines there on first use, keyed by the
    contents of the file, its parents, its data, the compiler's version
    and the target. It is $SPLENDOR_RULES_CACHE if set, else the user's
    cache folder; $SPLENDOR_RULES_CACHE_MB bounds its size.
    """


@command.command("info")
def info() -> None:
    """Say where the cache is, its bound, and each engine it holds."""
    found = cache.entries()
    total = sum(entry.size for entry in found)
    click.echo(f"cache: {cache.cache_folder()}")
    click.echo(
        f"{plural(len(found), 'engine')}, {_megabytes(total)} of at most "
        f"{_megabytes(cache.bound())} (the least recently used are removed past it)"
    )
    for entry in reversed(found):
        used = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.last_used))
        click.echo(
            f"  {entry.edition:<16} {entry.target:<7} {_megabytes(entry.size):>9}  "
            f"used {used}  from {entry.rule_file}"
        )


@command.command("clear")
def clear() -> None:
    """Remove every engine of the cache (they are built again when needed)."""
    removed, size = cache.clear()
    click.echo(f"removed {plural(len(removed), 'engine')} ({_megabytes(size)})")
