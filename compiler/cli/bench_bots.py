"""`splendor-rules bench-bots`: games between bots timed on one core
(games/s, actions/s, microseconds per search iteration), or with
--instructions counted in machine instructions per search iteration."""

from __future__ import annotations

import sys

import click

from splendor_rules.compiler.cli.options import first_seed_option, need_valgrind
from splendor_rules.compiler.runtime.loading import (
    EngineUnavailable,
    load_engine,
    native_editions,
)
from splendor_rules.compiler.tools.bench import BenchError
from splendor_rules.compiler.tools.bench_bots import (
    MATCHES,
    BotGames,
    count_bot_instructions,
    time_bot_games,
)
from splendor_rules.compiler.tools.simulate.bots import BadBotSpec, parse_bots

GAMES = 20  # per edition and match


def _check(editions: tuple[str, ...], matches: tuple[str, ...]) -> None:
    for edition in editions:
        try:
            load_engine(edition)
        except (EngineUnavailable, ImportError) as error:
            raise click.BadParameter(str(error), param_hint="EDITION") from error
    for match in matches:
        try:
            parse_bots(match, len(match.split(",")))
        except BadBotSpec as error:
            raise click.BadParameter(str(error), param_hint="--bots") from error
        if "playout" in match:
            raise click.BadParameter(
                "playout is no bot to time here: bench times playouts", param_hint="--bots"
            )


def _row(found: BotGames, instructions: int | None) -> str:
    per_iteration = found.microseconds_per_iteration
    code = "native" if found.native else "python"
    line = (
        f"{found.edition:<10} {','.join(found.bots):<20} {code:<6} "
        f"{found.games:>5} {found.plies:>6} {found.cpu:>8.2f} {found.games_per_second:>9.2f} "
        f"{found.actions_per_second:>10,.0f} "
        + (f"{per_iteration:>9.1f}" if per_iteration is not None else f"{'-':>9}")
    )
    if instructions is not None:
        per = f"{instructions / found.iterations:>12,.0f}" if found.iterations else f"{'-':>12}"
        line += f" {instructions / found.games:>16,.0f} {per}"
    return line


@click.command("bench-bots")
@click.argument("editions", nargs=-1)
@click.option(
    "--bots",
    "-b",
    "matches",
    multiple=True,
    help="A match to time (repeatable): one bot per seat, as simulate's --bots.  "
    f"[default: {' and '.join(MATCHES)}]",
)
@click.option(
    "--games", "-g", type=click.IntRange(1), default=GAMES, show_default=True,
    help="Games per edition and match.",
)  # fmt: skip
@first_seed_option
@click.option(
    "--python-bots",
    is_flag=True,
    help="Time the Python bots (the reference) instead of the native ones.",
)
@click.option(
    "--instructions",
    is_flag=True,
    help="Also count machine instructions under valgrind: per game and per search iteration.",
)
def command(
    editions: tuple[str, ...],
    matches: tuple[str, ...],
    games: int,
    seed: int,
    python_bots: bool,
    instructions: bool,
) -> None:
    """Time games between bots on one core: games/s, actions/s and the
    microseconds of a search iteration, per EDITION (default: every edition
    whose native engine is built) and match.

    With --instructions, also count instructions per game and per search
    iteration: exit 1 if valgrind is not installed.
    """
    editions = editions or tuple(native_editions())
    matches = matches or MATCHES
    _check(editions, matches)
    if instructions:
        need_valgrind()
    click.echo(f"{games} games per edition and match, seeds {seed}..{seed + games - 1}, one core")
    header = (
        f"{'edition':<10} {'bots':<20} {'code':<6} {'games':>5} {'plies':>6} {'CPU s':>8} "
        f"{'games/s':>9} {'actions/s':>10} {'µs/iter':>9}"
    )
    if instructions:
        header += f" {'instructions/game':>16} {'per iteration':>12}"
    click.echo(header)
    for edition in editions:
        for match in matches:
            if instructions:
                try:
                    counted, found = count_bot_instructions(
                        edition, match, games, seed, python_bots
                    )
                except BenchError as error:
                    click.echo(f"cannot count instructions: {error}", err=True)
                    sys.exit(1)
                click.echo(_row(found, counted))
            else:
                click.echo(_row(time_bot_games(edition, match, games, seed, python_bots), None))
