"""`splendor-rules play`: a game played by bots (random, simulate's greedy
and mcts, or a human at this terminal, who sees the cards by their data) and
written as a record that `replay` reproduces."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.table import Table
from rich.text import Text

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.cli.options import engine_option, plural
from splendor_rules.compiler.runtime.api import Action, Engine, State
from splendor_rules.compiler.tools.labels import EditionData, data_of, move_label
from splendor_rules.compiler.tools.records import (
    Bot,
    EngineNotAvailable,
    GameStopped,
    RecordError,
    StopGame,
    check_bot,
    dump_record,
    engine,
    play_game,
    read_move,
)
from splendor_rules.dsl.diagnostics import display_path


def _style(name: str) -> str:
    """A token kind's name as a rich style if it names a colour, else none."""
    try:
        Style.parse(name)
    except StyleSyntaxError:
        return ""
    return name


def _pips(counts: dict[str, int]) -> Text:
    text = Text()
    for kind, count in counts.items():
        if count:
            text.append(f" {count} {kind}", style=_style(kind))
    return text


def _card(data: EditionData, card: Any) -> Text:
    """A card by its data (its label), then its cost and other vectors."""
    text = Text(data.card_label(card))
    if isinstance(card, int) and 0 <= card < len(data.cards):
        for column, value in data.cards[card]["values"].items():
            if isinstance(value, dict):
                text.append(f"\n{column}:")
                text.append_text(_pips(value))
    return text


def _board(view: dict[str, Any], columns: int) -> Table:
    """A board of cells as a grid, each cell its number (as a move names
    it: `take [0,1]`) and its token kind, and the bag's counts below."""
    bag = view.get("bag") or {}
    total = sum(bag.values())
    caption = Text(f"bag: {total} token{'s' if total != 1 else ''}").append_text(_pips(bag))
    grid = Table(show_header=False, title="board", caption=caption, padding=(0, 1))
    cells = list(view["board"])
    for start in range(0, len(cells), columns):
        row = []
        for number, kind in enumerate(cells[start : start + columns], start=start):
            said = Text(f"{number:>2} ")
            row.append(said.append(kind, style=_style(kind)) if kind else said.append("·", "dim"))
        grid.add_row(*row)
    return grid


def show_position(eng: Engine, state: State, seat: int, legal: list[Action]) -> None:
    """The position as the seat sees it (rich, on stderr): the supply, the
    market with each card's cost, bonus and points, the tiles, a board of
    cells and its bag, each seat's tokens and cards, and the legal moves,
    numbered from 1 and labelled."""
    console = Console(stderr=True, highlight=False)
    data = data_of(eng.DESCRIPTION)
    view = eng.view(state, seat)
    console.print(f"\n[bold]seat {seat} to move[/]; scores {list(eng.scores(state))}")
    console.print(Text("supply:").append_text(_pips(view["supply"])))
    market = Table(show_header=False, box=None, padding=(0, 1))
    for deck, cards in view["market"].items():
        market.add_row(f"deck {deck}\n{view['decks'][deck]} left", *(_card(data, c) for c in cards))
    console.print(market)
    if "board" in view:
        console.print(_board(view, eng.DESCRIPTION["board"]["columns"]))
    for tiles in view["tiles"].values():
        for tile in tiles:
            console.print(f"tile: {data.tile_label(tile)}")
    if "board" in eng.DESCRIPTION and "board" in view:
        console.print(_board(view, eng.DESCRIPTION["board"]["columns"]))
    for p, part in enumerate(view["seats"]):
        line = Text(f"seat {p}{' (you)' if p == seat else ''}: tokens").append_text(
            _pips(part["tokens"])
        )
        for zone, items in part["zones"].items():
            named = [
                data.tile_label(i)
                if isinstance(i, int) and zone_holds_tiles(eng, zone)
                else data.card_label(i)
                for i in items
            ]
            line.append(f"\n  {zone} ({len(items)}): {'; '.join(named)}")
        console.print(line)
    for number, move in enumerate(legal, start=1):
        said = move_label(eng.action_to_json(move), eng.DESCRIPTION, data)
        console.print(f"  {number:>3}. {said}")


def zone_holds_tiles(eng: Engine, zone: str) -> bool:
    return any(z["name"] == zone and z["holds"] == "tiles" for z in eng.DESCRIPTION["zones"])


def human_bot(eng: Engine, seat: int) -> Bot:
    """Ask at the terminal, on stderr so that stdout holds only the record: a
    number from the list, or an action in short form. The end of the input
    (Ctrl-D, a closed stdin) or Ctrl-C stops the game (StopGame)."""

    def choose(state: State, legal: list[Action]) -> Action:
        show_position(eng, state, seat, legal)
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
    if len(names) != players:
        raise click.BadParameter(
            f"give {players} bots, one per seat (random, human, greedy, mcts:N): {bots!r}",
            param_hint="--bots",
        )
    for name in names:
        try:
            check_bot(name)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--bots") from error
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
    help="One per seat, comma-separated: human, random, greedy, mcts or mcts:N (the bots "
    "of simulate). Default: random for every seat.",
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
