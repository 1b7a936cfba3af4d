"""`splendor-rules simulate`: many games of one or more editions played by
bots, the statistics as a table, and with --report a folder of files.

Exit codes: 0 the games were played; 1 an edition cannot be played (a rule
file with mistakes, a game that would not end); 2 the command line is wrong
(more games than MAX_GAMES, an --address that is no Ray address or where no
cluster answers, a --report folder that cannot take a report), the Ray
backend is not installed, or the report cannot be written; 130 interrupted
by Ctrl-C, after reporting the games finished (none if it came before the
first game ended).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from splendor_rules.compiler.cli.options import plural
from splendor_rules.compiler.runtime.loading import EngineKind
from splendor_rules.compiler.tools.simulate.bots import BadBotSpec, parse_bots, plays_out
from splendor_rules.compiler.tools.simulate.cluster import BadAddress, check_address
from splendor_rules.compiler.tools.simulate.engines import (
    NoEngineOfThatKind,
    NoPlayoutEngine,
    check_playouts,
    edition_source,
    engine_named,
)
from splendor_rules.compiler.tools.simulate.games import RunawayGame
from splendor_rules.compiler.tools.simulate.report import (
    ReportError,
    check_report_folder,
    tables,
    write_report,
)
from splendor_rules.compiler.tools.simulate.runner import (
    MAX_GAMES,
    EditionSource,
    Outcome,
    Run,
    SimulateError,
    default_jobs,
    run_local,
    run_ray,
)
from splendor_rules.compiler.tools.simulate.summary import document


class _ProgressBar:
    """A progress bar on stderr (games, games/s, time left), shown only once
    a run has lasted a second, and drawn when a chunk of games finishes
    rather than by a timer thread, which would take the games' processor
    time (a few percent of a run on one core)."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.started = time.perf_counter()
        self.shown = False
        self.bar = Progress(
            TextColumn("simulating"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} games/s"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
            auto_refresh=False,
        )
        self.task = self.bar.add_task("games", total=total, rate="-")
        self.done = 0

    def advance(self, games: int) -> None:
        self.done += games
        elapsed = time.perf_counter() - self.started
        if not self.shown and elapsed > 1:
            self.bar.start()
            self.shown = True
        rate = f"{self.done / elapsed:.1f}" if elapsed > 0 else "-"
        self.bar.update(self.task, advance=games, rate=rate)
        if self.shown:
            self.bar.refresh()

    def stop(self) -> None:
        if self.shown:
            self.bar.stop()


def _print_tables(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for title, header, rows in tables(summary):
        table = Table(title=title, title_justify="left")
        for column in header:
            table.add_column(str(column))
        for row in rows:
            table.add_row(*(str(cell) for cell in row))
        console.print(table)


def _sources(editions: tuple[str, ...], kind: EngineKind | None) -> list[EditionSource]:
    found = []
    for edition in editions:
        try:
            found.append(edition_source(edition, kind))
        except NoEngineOfThatKind as error:
            raise click.BadParameter(str(error), param_hint="--engine") from error
        except SimulateError as error:
            if edition.endswith(".rules") or Path(edition).is_file():
                click.echo(str(error), err=True)
                sys.exit(1)
            raise click.BadParameter(str(error), param_hint="EDITION") from error
    return found


def _players(sources: list[EditionSource], players: int | None, bots: str) -> int:
    count = players or (len(bots.split(",")) if "," in bots else None)
    for source in sources:
        allowed = source.engine().PLAYERS
        count = count or allowed.start
        if count not in allowed:
            raise click.BadParameter(
                f"{source.name} is for {allowed.start} to {allowed.stop - 1} players",
                param_hint="--players",
            )
    assert count is not None
    return count


def _play(runs: list[Run], jobs: int, backend: str, address: str | None, header: str) -> Outcome:
    """Say what is played (`header`) and play the runs; Ctrl-C at any moment
    once the header is out (the chunks cut, the workers or Ray started)
    gives the games finished, none if no game had ended."""
    bar = None
    try:
        click.echo(header, err=True)
        bar = _ProgressBar(sum(run.games for run in runs))
        if backend == "ray":
            return run_ray(runs, address, jobs, bar.advance)
        return run_local(runs, jobs, bar.advance)
    except KeyboardInterrupt:
        return Outcome(tuple(() for _ in runs), interrupted=True)
    except BadAddress as error:
        raise click.BadParameter(str(error), param_hint="--address") from error
    except SimulateError as error:
        raise click.UsageError(str(error)) from error
    except RunawayGame as error:
        click.echo(f"splendor-rules: {error}", err=True)
        sys.exit(1)
    finally:
        if bar is not None:
            bar.stop()


def _check_options(games: int, backend: str, address: str | None, report: Path | None) -> None:
    """Refuse, before any edition is loaded or game played, the options that
    cannot work: too many games, an --address that is no Ray address or is
    given without --backend ray, a --report folder that cannot take a report."""
    if games > MAX_GAMES:
        raise click.BadParameter(
            f"{games} is more than {MAX_GAMES:,} games: each game's result is kept in memory "
            f"for the statistics; run several simulations instead, --seed {MAX_GAMES} apart "
            "(their games do not overlap)",
            param_hint="--games",
        )
    if address is not None:
        if backend != "ray":
            raise click.BadParameter(
                "an address is for the Ray backend: add --backend ray", param_hint="--address"
            )
        try:
            check_address(address)
        except BadAddress as error:
            raise click.BadParameter(str(error), param_hint="--address") from error
    if report is not None:
        try:
            check_report_folder(report)
        except ReportError as error:
            raise click.BadParameter(str(error), param_hint="--report") from error


def _write_report(report: Path, summary: dict[str, Any], outcome: Outcome) -> None:
    """Write the report folder whole, or say which file failed (exit 2): the
    folder is then left as it was."""
    try:
        written = write_report(report, summary, outcome.results)
    except ReportError as error:
        click.echo(f"splendor-rules: {error}", err=True)
        sys.exit(2)
    click.echo(f"report written: {', '.join(str(p) for p in written)}")


def _header(
    sources: list[EditionSource],
    games: int,
    seats: tuple[str, ...],
    seed: int,
    jobs: int,
    backend: str,
    python_bots: bool = False,
) -> str:
    """The run's first line: what is played, which engine plays it, and
    whether by native playouts or native bots."""
    played = ", ".join(f"{s.name} on {engine_named(s)}" for s in sources)
    where = "ray" if backend == "ray" else plural(jobs, "job")
    each = " each" if len(sources) > 1 else ""
    line = f"{played}: {plural(games, 'game')}{each}, bots {','.join(seats)}, seed {seed}, {where}"
    if plays_out(seats):
        line += "; the games played by native playouts (every move drawn and made in native code)"
    return line + _bots_note(sources, seats, python_bots)


def _bots_note(sources: list[EditionSource], seats: tuple[str, ...], python_bots: bool) -> str:
    """Where the bots that look ahead think, if not in Python as ever: in
    native code on a native engine (docs/simulate.md, "Native bots")."""
    thinking = sorted({seat.partition(":")[0] for seat in seats} & {"greedy", "mcts"})
    if not thinking:
        return ""
    names = " and ".join(thinking)
    native = [s.name for s in sources if s.source is None and s.kind == "native"]
    if python_bots:
        return f"; {names} in Python (--python-bots)"
    if not native:
        return ""
    where = "" if len(native) == len(sources) else f" on {', '.join(native)}, in Python elsewhere"
    return f"; {names} in native code{where}"


_PLAYERS = click.option(
    "--players",
    "-p",
    type=click.IntRange(1),
    default=None,
    help="Players per game.  [default: one per bot given, else the fewest allowed]",
)

_GAMES = click.option(
    "--games",
    "-g",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help=f"Games per edition (at most {MAX_GAMES:,}).",
)

_BOTS = click.option(
    "--bots",
    "-b",
    default="random",
    show_default=True,
    help="One bot per seat, comma-separated (one for all seats): random, greedy, "
    "mcts or mcts:N (N iterations a move), mcts:Nms (N milliseconds a move), either with "
    ":uniform (rollouts of random moves to the end); or playout, in every seat, on the native "
    "engine: uniformly random moves drawn by the engine's own generator, whole games in "
    "native code.",
)

_SEED = click.option(
    "--seed",
    "-s",
    type=int,
    default=0,
    show_default=True,
    help="Game i deals with seed + i; the bots are seeded from it too.",
)

_JOBS = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1),
    default=None,
    help="Worker processes (local); with ray, the games are cut for that many.  "
    "[default: the cores]",
)

_BACKEND = click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where the games run.",
)

_ENGINE = click.option(
    "--engine",
    "kind",
    type=click.Choice(["generated", "native", "interpreted"]),
    default=None,
    help="The engine that plays each edition (a rule file's native engine is built into the "
    "per-user cache on first use); random and greedy make the same moves on both, mcts "
    "is the same search (native code on the native engine, drawn from another generator; "
    "--python-bots for the same games), the playout bot is native only; interpreted: the "
    "reference interpreter, slow, for an edition a target does not print yet.  "
    "[default: native where it is built or a C compiler can build it, else generated]",
)

_PYTHON_BOTS = click.option(
    "--python-bots",
    is_flag=True,
    default=False,
    help="Play greedy and mcts in Python even on a native engine, whose native bots "
    "otherwise play them (greedy makes the same moves; mcts is the same search).",
)

_ADDRESS = click.option(
    "--address",
    default=None,
    help="The Ray cluster to join, with --backend ray: HOST:PORT, ray://HOST:PORT, auto or local.  "
    "[default: a new local Ray instance]",
)

_REPORT = click.option(
    "--report",
    "report",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write summary.json, games.csv, PNG plots and report.html here (a new folder, or one "
    "that holds a report, which is replaced whole).",
)


@click.command("simulate")
@click.argument("editions", nargs=-1, required=True)
@_PLAYERS
@_GAMES
@_BOTS
@_SEED
@_JOBS
@_ENGINE
@_PYTHON_BOTS
@_BACKEND
@_ADDRESS
@_REPORT
def command(
    editions: tuple[str, ...],
    players: int | None,
    games: int,
    bots: str,
    seed: int,
    jobs: int | None,
    kind: EngineKind | None,
    python_bots: bool,
    backend: str,
    address: str | None,
    report: Path | None,
) -> None:
    """Play GAMES games of each EDITION (a name, or a rule file) with bots,
    and report the statistics: win rates with 95% intervals, lengths,
    scores, endings, actions, cards and tiles; two or more editions side by
    side, with tests of the differences.

    \b
    Classic against a rule file of yours:
      splendor-rules simulate classic my.rules --games 200 --bots greedy,greedy
    """
    _check_options(games, backend, address, report)
    sources = _sources(editions, kind)
    count = _players(sources, players, bots)
    try:
        seats = parse_bots(bots, count)
    except BadBotSpec as error:
        raise click.BadParameter(str(error), param_hint="--bots") from error
    if plays_out(seats):
        try:
            check_playouts(sources, kind)
        except NoPlayoutEngine as error:
            raise click.BadParameter(str(error), param_hint="--bots") from error
    runs = [Run(source, seats, seed, games, python_bots) for source in sources]
    workers = jobs or default_jobs()
    header = _header(sources, games, seats, seed, workers, backend, python_bots)
    started = time.perf_counter()
    outcome = _play(runs, workers, backend, address, header)
    elapsed = time.perf_counter() - started
    summary = document([s.name for s in sources], seats, seed, outcome.results, outcome.interrupted)
    _print_tables(summary)
    finished = sum(len(r) for r in outcome.results)
    plies = sum(game.plies for results in outcome.results for game in results)
    seconds = max(elapsed, 1e-9)
    click.echo(
        f"{finished} games in {elapsed:.2f} s: {finished / seconds:.1f} games/s,"
        f" {plies / seconds:.0f} actions/s",
        err=True,
    )
    if report is not None:
        _write_report(report, summary, outcome)
    if outcome.interrupted:
        click.echo(f"interrupted: {finished} of {games * len(runs)} games finished", err=True)
        sys.exit(130)
