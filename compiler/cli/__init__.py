"""The command line: `splendor-rules SUBCOMMAND`.

Exit codes: 0 all is well, 1 the input is wrong (a rule file with mistakes,
a record whose expectations fail), 2 the command line is wrong (click's
convention for usage errors) or a record is unreadable, so nothing could be
checked.
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import click

from splendor_rules.compiler.backend.python.codegen import BuildError, build_all
from splendor_rules.compiler.frontend.pipeline import (
    Compiled,
    compile_file,
    edition_files,
    editions_folder,
)
from splendor_rules.compiler.frontend.rule_ids import ids_in_reference
from splendor_rules.compiler.tools import conformance, records
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Sources, display_path, render


def _summary(compiled: Compiled) -> str:
    model = compiled.model
    assert model is not None and compiled.resolved is not None
    faces = sum(len(t.rows) for t in model.tile_sets)
    tiles = sum(
        len({row[t.sides_by] for row in t.rows}) if t.sides_by else len(t.rows)
        for t in model.tile_sets
    )
    parts = [
        f"{len(model.tokens)} token kinds",
        f"{len(model.cards.rows)} cards",
        f"{tiles} tiles ({faces} faces)" if faces != tiles else f"{tiles} tiles",
        f"{len(model.actions)} actions",
        _coverage(compiled),
    ]
    parent = f", extends {model.parent}" if model.parent else ""
    return f"{model.name} ({display_path(compiled.path)}{parent}): " + ", ".join(parts)


def _coverage(compiled: Compiled) -> str:
    model = compiled.model
    assert model is not None and compiled.resolved is not None
    reference = next(
        (e for e in compiled.resolved.entries if isinstance(e.decl, s.Reference)), None
    )
    if reference is None:
        return f"{len(model.rule_ids)} rule ids"
    assert isinstance(reference.decl, s.Reference)
    path = Path(reference.decl.span.file).parent / reference.decl.path.value
    wanted = [i for i in ids_in_reference(path) if i[0] in reference.decl.prefixes]
    present = sum(1 for i in wanted if i in model.rule_ids)
    return f"rule ids {present}/{len(wanted)} of {reference.decl.path.value} present"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="splendor-rules")
def main() -> None:
    """A rules specification compiler for the Splendor family of board games."""


@main.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Print errors only, no summaries or warnings.")
def check(files: tuple[Path, ...], quiet: bool) -> None:
    """Check rule files and report every mistake, located.

    With no FILES, checks every edition in the editions folder.
    """
    paths = list(files) or edition_files()
    if not paths:
        raise click.UsageError("no rule files given and none found in the editions folder")
    failed = False
    for path in paths:
        sources = Sources()
        compiled = compile_file(path, sources)
        for diagnostic in compiled.diagnostics:
            if quiet and diagnostic.severity != "error":
                continue
            click.echo(render(diagnostic, sources), err=True)
        if compiled.ok:
            if not quiet:
                click.echo(_summary(compiled))
        else:
            failed = True
            errors = sum(d.severity == "error" for d in compiled.diagnostics)
            click.echo(f"{path}: {errors} error{'s' if errors != 1 else ''}", err=True)
    sys.exit(1 if failed else 0)


def _generated_folder() -> Path:
    return Path(str(importlib.import_module("splendor_rules.generated").__path__[0]))


def _report(error: BuildError) -> None:
    sources = Sources()
    compiled = compile_file(error.path, sources)
    for diagnostic in compiled.diagnostics:
        click.echo(render(diagnostic, sources), err=True)
    click.echo(f"{display_path(error.path)} does not check; nothing was written", err=True)


@main.command()
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; exit 1 naming each generated file that is not current.",
)
def build(check_only: bool) -> None:
    """Compile every edition into generated/<edition>.py."""
    out = _generated_folder()
    try:
        texts = build_all(editions_folder(), out)
    except BuildError as error:
        _report(error)
        sys.exit(1)
    stale = [
        path
        for path, text in texts.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    extra = [
        path
        for path in sorted(out.glob("*.py"))
        if path.name != "__init__.py" and path not in texts
    ]
    if check_only:
        for path in stale:
            click.echo(f"{display_path(path)} is not current: run splendor-rules build", err=True)
        for path in extra:
            click.echo(f"{display_path(path)} has no edition: remove it", err=True)
        if stale or extra:
            sys.exit(1)
        click.echo(f"generated/ is current ({len(texts)} engines)")
        return
    for path, text in texts.items():
        if path in stale:
            path.write_text(text, encoding="utf-8")
    for path in texts:
        state = "written" if path in stale else "unchanged"
        lines = texts[path].count("\n")
        click.echo(f"{display_path(path)}: {lines} lines, {state}")


def _engine(edition: str, kind: str) -> Any:
    if kind == "interpreted":
        interpreter = importlib.import_module("splendor_rules.compiler.runtime.interpreter")
        return interpreter.load_interpreted(edition)
    loader: ModuleType = importlib.import_module("splendor_rules.generated")
    return loader.load_edition(edition)


def _play(engine: Any, players: int, seed: int) -> int:
    """One random game (uniform choice among the legal actions); its plies."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    plies = 0
    while not engine.is_over(state):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        plies += 1
    return plies


@main.command()
@click.argument("edition")
@click.option(
    "--players",
    "-p",
    type=click.IntRange(1),
    multiple=True,
    help="Player count (repeatable); default: every count the edition allows.",
)
@click.option(
    "--games",
    "-g",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="Games per player count.",
)
@click.option(
    "--seed",
    "-s",
    type=int,
    default=0,
    show_default=True,
    help="The first game's seed; game i uses seed + i.",
)
@click.option(
    "--engine",
    "kinds",
    type=click.Choice(["generated", "interpreted"]),
    multiple=True,
    help="Engine(s) to time (repeatable); default: generated.",
)
def bench(
    edition: str, players: tuple[int, ...], games: int, seed: int, kinds: tuple[str, ...]
) -> None:
    """Time random games: games/s, actions/s and plies per game."""
    engines = {}
    for kind in kinds or ("generated",):
        try:
            engines[kind] = _engine(edition, kind)
        except (ValueError, ImportError) as error:
            raise click.BadParameter(str(error), param_hint="EDITION") from error
    first = next(iter(engines.values()))
    counts = players or tuple(first.PLAYERS)
    for count in counts:
        if count not in first.PLAYERS:
            raise click.BadParameter(
                f"{edition} is for {first.PLAYERS.start} to {first.PLAYERS.stop - 1} players",
                param_hint="--players",
            )
    click.echo(
        f"{edition}: {games} random games per player count, seeds {seed}..{seed + games - 1}"
    )
    click.echo("rates per second of this process's CPU time (one core); wall clock beside")
    click.echo(
        f"{'engine':<12} {'players':>7} {'games/s':>9} {'actions/s':>10} {'wall':>9} "
        f"{'plies/game':>11}"
    )
    rates: dict[tuple[str, int], float] = {}
    for count in counts:
        for kind, engine in engines.items():
            wall, cpu = time.perf_counter(), time.process_time()
            plies = sum(_play(engine, count, seed + i) for i in range(games))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            rates[kind, count] = plies / cpu
            click.echo(
                f"{kind:<12} {count:>7} {games / cpu:>9.1f} {plies / cpu:>10.0f} "
                f"{plies / wall:>9.0f} {plies / games:>11.1f}"
            )
    if len(engines) == 2:
        for count in counts:
            ratio = rates["generated", count] / rates["interpreted", count]
            click.echo(f"generated engine is {ratio:.1f}x the interpreter with {count} players")


main.add_command(records.play)
main.add_command(records.replay)
main.add_command(conformance.diff_command)
main.add_command(conformance.conform_command)
