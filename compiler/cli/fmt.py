"""`splendor-rules fmt`: rule files rewritten in the canonical layout
(dsl/formatting.py), every comment kept; `--check` and `--diff` write nothing."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.frontend.files import MAX_RULE_FILE_BYTES, Unreadable, read_bytes
from splendor_rules.compiler.frontend.pipeline import edition_files
from splendor_rules.dsl.diagnostics import Sources, display_path, render
from splendor_rules.dsl.formatting import Unparsable, format_source


def _rule_files(given: tuple[Path, ...]) -> list[Path]:
    """The files named, a folder's rule files (in its tree), or with none
    named the shipped editions."""
    if not given:
        return edition_files()
    found: list[Path] = []
    for path in given:
        found.extend(sorted(path.rglob("*.rules")) if path.is_dir() else [path])
    return found


def _formatted(path: Path) -> tuple[str, str] | None:
    """A file's text and its formatted text; None (having said why) when it
    cannot be read or does not parse."""
    try:
        text = read_bytes(path, MAX_RULE_FILE_BYTES).decode("utf-8")
    except Unreadable as error:
        click.echo(f"{display_path(path)}: error: {error.reason}", err=True)
        return None
    except UnicodeDecodeError:
        click.echo(f"{display_path(path)}: error: not UTF-8 text", err=True)
        return None
    try:
        return text, format_source(text, str(path))
    except Unparsable as error:
        sources = Sources()
        sources.add(str(path), text)
        click.echo(render(error.diagnostic, sources), err=True)
        return None


def _diff(path: Path, text: str, formatted: str) -> str:
    shown = display_path(path)
    lines = difflib.unified_diff(
        text.splitlines(keepends=True),
        formatted.splitlines(keepends=True),
        f"{shown} (original)",
        f"{shown} (formatted)",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _plural(count: int) -> str:
    return f"{count} file{'s' if count != 1 else ''}"


@click.command("fmt")
@click.argument("files", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a file would change.")
@click.option("--diff", is_flag=True, help="Write nothing; print what would change, as a diff.")
def command(files: tuple[Path, ...], check: bool, diff: bool) -> None:
    """Rewrite rule files in the canonical layout, keeping every comment.

    FILES are rule files or folders (their .rules files); with none, the
    shipped editions. Only files whose text changes are written, each
    atomically. A file that does not parse gets the checker's located message
    and is left as it is (exit 1). The layout, the wrap rule and where
    comments go: docs/language.md, "Formatting".
    """
    paths = _rule_files(files)
    if not paths:
        raise click.UsageError("no rule files given and none found in the editions folder")
    failed = changed = 0
    for path in paths:
        found = _formatted(path)
        if found is None:
            failed += 1
            continue
        text, formatted = found
        if formatted == text:
            continue
        changed += 1
        if diff:
            click.echo(_diff(path, text, formatted), nl=False)
        if check or diff:
            click.echo(f"would reformat {display_path(path)}", err=True)
            continue
        try:
            write_atomically(path, formatted)
        except OSError as error:
            click.echo(f"cannot write {display_path(path)}: {error.strerror or error}", err=True)
            sys.exit(2)
        click.echo(f"reformatted {display_path(path)}", err=True)
    done = "would be reformatted" if check or diff else "reformatted"
    unchanged = len(paths) - changed - failed
    summary = f"{_plural(changed)} {done}, {_plural(unchanged)} already formatted"
    if failed:
        summary += f", {_plural(failed)} not formatted (errors above)"
    click.echo(summary, err=True)
    sys.exit(1 if failed or (check and changed) else 0)
