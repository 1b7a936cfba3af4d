"""`splendor-rules play`: a game played by bots (random, or a human at this
terminal) and written as a record that `replay` reproduces."""

from __future__ import annotations

import json
from pathlib import Path

import click

from splendor_rules.compiler.cli.options import engine_option
from splendor_rules.compiler.runtime.api import Action, Engine, State
from splendor_rules.compiler.tools.records import (
    BOT_KINDS,
    Bot,
    RecordError,
    describe_position,
    dump_record,
    engine,
    play_game,
    read_move,
)


def human_bot(eng: Engine, seat: int) -> Bot:
    """Ask in the terminal: a number from the list, or an action in short form."""

    def choose(state: State, legal: list[Action]) -> Action:
        for line in describe_position(eng, state, seat, legal):
            click.echo(line)
        while True:
            answer = click.prompt("your move", type=str)
            try:
                return read_move(answer, eng, legal)
            except RecordError as error:
                click.echo(f"  {error}")

    return choose


def _bots(bots: str | None, players: int) -> list[str]:
    names = [b.strip() for b in bots.split(",")] if bots else ["random"] * players
    if len(names) != players or any(b not in BOT_KINDS for b in names):
        raise click.BadParameter(
            f"give {players} bots, each random or human: {bots!r}", param_hint="--bots"
        )
    return names


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
    help="Write the record here instead of to stdout.",
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
    """Play a game with bots and write its record (replayable with `replay`)."""
    try:
        eng = engine(edition, kind)
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
    text = dump_record(play_game(eng, players, seed, names, first_player, human=human_bot))
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"{out}: {len(json.loads(text)['actions'])} actions", err=True)
