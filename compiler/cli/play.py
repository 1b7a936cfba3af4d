"""`splendor-rules play`: a game played by bots (random, or a human at this
terminal) and written as a record that `replay` reproduces."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.cli.options import engine_option, plural
from splendor_rules.compiler.runtime.api import Action, Engine, State
from splendor_rules.compiler.tools.records import (
    BOT_KINDS,
    Bot,
    EngineNotAvailable,
    GameStopped,
    RecordError,
    StopGame,
    describe_position,
    dump_record,
    engine,
    play_game,
    read_move,
)
from splendor_rules.dsl.diagnostics import display_path


def human_bot(eng: Engine, seat: int) -> Bot:
    """Ask at the terminal, on stderr so that stdout holds only the record: a
    number from the list, or an action in short form. The end of the input
    (Ctrl-D, a closed stdin) or Ctrl-C stops the game (StopGame)."""

    def choose(state: State, legal: list[Action]) -> Action:
        for line in describe_position(eng, state, seat, legal):
            click.echo(line, err=True)
        while True:
            try:
                answer = click.prompt("your move", type=str, err=True)
            except click.Abort:
                click.echo(err=True)  # end the line of the prompt
                raise StopGame("the input ended") from None
            try:
                return read_move(answer, eng, legal)
            except RecordError as error:
                click.echo(f"  {error}", err=True)

    return choose


def _bots(bots: str | None, players: int) -> list[str]:
    names = [b.strip() for b in bots.split(",")] if bots else ["random"] * players
    if len(names) != players or any(b not in BOT_KINDS for b in names):
        raise click.BadParameter(
            f"give {players} bots, each random or human: {bots!r}", param_hint="--bots"
        )
    return names


def _check_destination(out: Path | None) -> None:
    """Before the game is played: the record can be written where it goes (a
    file is created and removed in the folder of --out, as root can write
    where the permissions say no and a read-only disk refuses anyone)."""
    if out is None:
        if sys.stdout is None:
            raise click.UsageError("stdout is closed: give --out FILE for the record")
        return
    folder = out.parent
    if not folder.is_dir():
        raise click.BadParameter(f"there is no folder {display_path(folder)}", param_hint="--out")
    if out.exists() and not out.is_file():
        raise click.BadParameter(f"{display_path(out)} is not a regular file", param_hint="--out")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{out.name}.", suffix=".probe"):
            pass
    except OSError as error:
        raise click.BadParameter(
            f"cannot write in {display_path(folder)}: {error.strerror or error}", param_hint="--out"
        ) from error


def _deliver(text: str, out: Path | None) -> str:
    """Write the record (atomically to --out: a good file is never left half
    replaced); where it went. If --out cannot be written after all (a full
    disk), the record goes to stdout instead, so the game is not lost, and
    the command exits 2."""
    if out is None:
        click.echo(text, nl=False)
        return "stdout"
    try:
        write_atomically(out, text)
    except OSError as error:
        click.echo(f"cannot write {display_path(out)}: {error.strerror or error}", err=True)
        click.echo("the record follows on stdout instead", err=True)
        click.echo(text, nl=False)
        sys.exit(2)
    return display_path(out)


@click.command("play")
@click.argument("edition")
@click.option("--players", "-p", type=int, required=True, help="Player count.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="The setup seed.")
@click.option(
    "--bots",
    default=None,
    help="One per seat, comma-separated: random or human. Default: random for every seat.",
)
@click.option("--first-player", type=int, default=0, show_default=True, help="The first seat.")
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the record here (atomically) instead of to stdout.",
)
@engine_option
def command(
    edition: str,
    players: int,
    seed: int,
    bots: str | None,
    first_player: int,
    out: Path | None,
    kind: str,
) -> None:
    """Play a game with bots and write its record (replayable with `replay`).

    EDITION is an edition's name or a rule file anywhere, played on any
    engine (a rule file's are built into the per-user cache on first use):

    \b
      splendor-rules play my.rules -p 2 --bots human,random -o game.json
      splendor-rules replay game.json --rules my.rules

    Everything is checked before the first move, --out included. Exit 0 the
    game was played to its end; 1 a human seat's input ended (Ctrl-D, a
    closed stdin, Ctrl-C) before the end: the record of the moves made so far
    is still written, and replays; 2 the command line is wrong, or --out could
    not be written (the record then goes to stdout).
    """
    try:
        eng = engine(edition, kind)
    except EngineNotAvailable as error:
        raise click.BadParameter(error.message, param_hint="--engine") from error
    except RecordError as error:
        raise click.BadParameter(error.message, param_hint="EDITION") from error
    if players not in eng.PLAYERS:
        raise click.BadParameter(
            f"{edition} is for {eng.PLAYERS.start} to {eng.PLAYERS.stop - 1} players",
            param_hint="--players",
        )
    if not 0 <= first_player < players:
        raise click.BadParameter(f"not a seat of {players} players", param_hint="--first-player")
    names = _bots(bots, players)
    _check_destination(out)
    try:
        record, stopped = play_game(eng, players, seed, names, first_player, human=human_bot), None
    except GameStopped as stop:
        record, stopped = stop.record, stop.reason
    where = _deliver(dump_record(record), out)
    moves = plural(len(record["actions"]), "action")
    if stopped is not None:
        click.echo(f"stopped before the end: {stopped}; {moves} written to {where}", err=True)
        sys.exit(1)
    if out is not None:
        click.echo(f"{where}: {moves}", err=True)
