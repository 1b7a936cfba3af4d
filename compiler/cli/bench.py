"""`splendor-rules bench`: random games timed (games/s, actions/s), or with
--instructions counted in machine instructions per action under valgrind."""

from __future__ import annotations

import contextlib
import itertools
import sys
import time
from pathlib import Path
from typing import cast

import click

from splendor_rules.compiler.cli.options import first_seed_option, need_valgrind
from splendor_rules.compiler.frontend.lookup import UnknownEdition, find_edition
from splendor_rules.compiler.runtime.api import Engine, playout_engine
from splendor_rules.compiler.runtime.loading import (
    ALL_ENGINE_KINDS,
    EngineKind,
    EngineUnavailable,
    load_engine,
)
from splendor_rules.compiler.tools import loader
from splendor_rules.compiler.tools.bench import (
    BenchError,
    Timing,
    count_instructions,
    load_times,
    time_games,
)

GAMES = 100  # per player count, timed
GAMES_COUNTED = 20  # per player count, under valgrind (the README's figures)
_ENGINE_NAMES = {"interpreted": "interpreter", "generated": "generated engine"}


def _engines(edition: str, kinds: tuple[str, ...]) -> dict[EngineKind, Engine]:
    rule_file = loader.is_rule_file(edition)
    if "interpreted" in kinds and not rule_file:
        try:  # the interpreter reads a rule file: one of the editions folder, by its name
            find_edition(edition)
        except UnknownEdition as error:
            raise click.BadParameter(str(error), param_hint="EDITION") from error
    engines: dict[EngineKind, Engine] = {}
    for kind in cast(tuple[EngineKind, ...], kinds or ("generated",)):
        try:
            engines[kind] = loader.load(edition, kind)
        except loader.RuleFileMistakes as error:
            click.echo(str(error), err=True)
            sys.exit(1)
        except (EngineUnavailable, ImportError) as error:
            raise click.BadParameter(str(error), param_hint="EDITION") from error
    if not kinds and not rule_file:  # by default the native engine too, once built
        with contextlib.suppress(EngineUnavailable, ImportError):
            engines["native"] = load_engine(edition, "native")
    return engines


def _counts(edition: str, engine: Engine, players: tuple[int, ...]) -> tuple[int, ...]:
    for count in players:
        if count not in engine.PLAYERS:
            raise click.BadParameter(
                f"{edition} is for {engine.PLAYERS.start} to {engine.PLAYERS.stop - 1} players",
                param_hint="--players",
            )
    return players or tuple(engine.PLAYERS)


def _timed(
    engines: dict[EngineKind, Engine], counts: tuple[int, ...], games: int, seed: int
) -> None:
    click.echo("rates per second of this process's CPU time (one core); wall clock beside")
    click.echo(
        f"{'engine':<12} {'players':>7} {'games/s':>9} {'actions/s':>10} {'wall':>9} "
        f"{'plies/game':>11}"
    )
    rates: dict[tuple[str, int], Timing] = {}
    for count in counts:
        for kind, engine in engines.items():
            timing = rates[kind, count] = time_games(engine, kind, count, games, seed)
            click.echo(
                f"{kind:<12} {count:>7} {timing.games_per_second:>9.1f} "
                f"{timing.actions_per_second:>10.0f} {timing.actions_per_wall_second:>9.0f} "
                f"{timing.plies_per_game:>11.1f}"
            )
    native = engines.get("native")
    if native is not None:
        _playouts(native, counts, games, seed)
    # Each engine against the next slower kind timed: native, generated, interpreted.
    ranked = [kind for kind in ("native", "generated", "interpreted") if kind in engines]
    for faster, slower in itertools.pairwise(ranked):
        for count in counts:
            ratio = (
                rates[faster, count].actions_per_second / rates[slower, count].actions_per_second
            )
            click.echo(
                f"{faster} engine is {ratio:.1f}x the {_ENGINE_NAMES[slower]} with {count} players"
            )


def _playouts(engine: Engine, counts: tuple[int, ...], games: int, seed: int) -> None:
    """The native engine's own playouts: deals and random moves all in native
    code (ten times the games, for a measurable time)."""
    player = playout_engine(engine)
    if player is None:
        return
    click.echo("native playouts (deal and uniformly random moves in native code, no Python loop):")
    for count in counts:
        start = time.process_time()
        moves, ended, _ = player.playouts(count, 10 * games, seed, seed)
        spent = max(time.process_time() - start, 1e-9)
        click.echo(
            f"{'playouts':<12} {count:>7} {ended / spent:>9.1f} {moves / spent:>10.0f} "
            f"{'':>9} {moves / max(ended, 1):>11.1f}"
        )


def _counted(
    edition: str, kinds: tuple[EngineKind, ...], counts: tuple[int, ...], games: int, seed: int
) -> None:
    click.echo("instructions counted by valgrind --tool=callgrind in a child process, less")
    click.echo("its start-up (the same process playing 0 games): stable from run to run")
    click.echo(
        f"{'engine':<12} {'players':>7} {'actions':>8} {'instructions':>14} "
        f"{'per action':>11} {'start-up':>14}"
    )
    for kind in kinds:
        try:
            found = count_instructions(edition, kind, counts, games, seed)
        except BenchError as error:
            click.echo(f"cannot count instructions: {error}", err=True)
            sys.exit(1)
        for count in found:
            click.echo(
                f"{count.kind:<12} {count.players:>7} {count.actions:>8} "
                f"{count.instructions:>14,} {count.per_action:>11,.0f} {count.startup:>14,}"
            )


def _load_time(shown: str, edition: str, kinds: tuple[EngineKind, ...]) -> None:
    click.echo(f"{shown}: seconds to load each engine in a fresh process (the loader's import")
    click.echo("excluded; wall clock; from the cache for a rule file): the first process, then")
    click.echo("the median and the slowest of 5 more")
    click.echo(f"{'engine':<12} {'first':>8} {'median':>8} {'slowest':>8}")
    for kind in kinds:
        try:
            found = load_times(edition, kind, 5)
        except BenchError as error:
            click.echo(f"cannot time the load: {error}", err=True)
            sys.exit(1)
        click.echo(f"{kind:<12} {found.first:>8.3f} {found.median:>8.3f} {max(found.later):>8.3f}")


@click.command("bench")
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
    default=None,
    help=f"Games per player count.  [default: {GAMES}; {GAMES_COUNTED} with --instructions]",
)
@first_seed_option
@click.option(
    "--engine",
    "kinds",
    type=click.Choice(ALL_ENGINE_KINDS),
    multiple=True,
    help="Engine(s) to time (repeatable): the generated Python module, the interpreter, or "
    "the native engine (splendor-rules build compiles it); default: generated, and native "
    "with its playouts when it is built.",
)
@click.option(
    "--load-time",
    is_flag=True,
    help="Time loading the engine instead, in six fresh processes (a rule file's engines "
    "built into the cache first if they are not there): the first load and the median of "
    "the five others, the loader's import excluded.",
)
@click.option(
    "--instructions",
    is_flag=True,
    help="Count machine instructions per action under valgrind (the figure that does not "
    "drift with the machine's load) instead of timing.",
)
def command(
    edition: str,
    players: tuple[int, ...],
    games: int | None,
    seed: int,
    kinds: tuple[str, ...],
    load_time: bool,
    instructions: bool,
) -> None:
    """Time random games: games/s, actions/s and plies per game.

    EDITION is an edition's name or a rule file (`bench my.rules --engine
    native`: its engines are built into the cache on first use). With
    --instructions, count instructions per action instead: exit 1 if
    valgrind is not installed. With --load-time, time loading the engine.
    """
    shown = edition
    if loader.is_rule_file(edition) and Path(edition).is_file():
        edition = str(Path(edition).resolve())  # the same file for the child processes
    engines = _engines(edition, kinds)
    if load_time:
        _load_time(shown, edition, tuple(engines))
        return
    counts = _counts(edition, next(iter(engines.values())), players)
    if instructions:
        need_valgrind()
    games = games or (GAMES_COUNTED if instructions else GAMES)
    click.echo(
        f"{shown}: {games} random games per player count, seeds {seed}..{seed + games - 1}"
    )
    if instructions:
        _counted(edition, tuple(engines), counts, games, seed)
    else:
        _timed(engines, counts, games, seed)
