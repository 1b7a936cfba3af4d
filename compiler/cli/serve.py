"""`splendor-rules serve`: the web board, to play, watch and replay games."""

from __future__ import annotations

import os
from pathlib import Path

import click

from splendor_rules.compiler.runtime.loading import generated_editions
from splendor_rules.compiler.tools.board.games import Games, Refused, open_edition
from splendor_rules.compiler.tools.loader import is_rule_file
from splendor_rules.dsl.diagnostics import display_path


def default_folder() -> Path:
    """Where games in progress are kept between runs: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "splendor-rules" / "games"


def _records(paths: tuple[Path, ...]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.glob("*.json")))
        elif path.is_file():
            found.append(path)
        else:
            raise click.BadParameter(
                f"no file or folder {display_path(path)}", param_hint="--replay"
            )
    return found


def _sources(editions: tuple[str, ...]) -> list[str]:
    """The editions offered, each checked now: a rule file by its full path."""
    sources = [str(Path(e).resolve()) if is_rule_file(e) else e for e in editions]
    for source in sources:
        try:
            open_edition(source)
        except Refused as refused:
            raise click.BadParameter(refused.message, param_hint="EDITION") from refused
    return sources


def _games(folder: Path) -> Games:
    """The games kept in the folder (made if need be), resumed."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.BadParameter(
            f"cannot make {display_path(folder)}: {error.strerror}", param_hint="--games"
        ) from error
    games = Games(folder)
    for problem in games.restore():
        click.echo(f"not resumed: {problem}", err=True)
    return games


@click.command("serve")
@click.argument("editions", nargs=-1)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on (0.0.0.0: every network).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8024,
    show_default=True,
    help="The port to listen on.",
)
@click.option(
    "--games",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep games in progress here (default: "
    "$XDG_DATA_HOME/splendor-rules/games); a restart resumes them.",
)
@click.option(
    "--replay",
    "replay",
    multiple=True,
    type=click.Path(exists=False, path_type=Path),
    help="A record or a folder of records (play -o, scenarios) to offer for replay.",
)
def command(
    editions: tuple[str, ...],
    host: str,
    port: int,
    folder: Path | None,
    replay: tuple[Path, ...],
) -> None:
    """Serve the web board: play an edition (EDITION names or rule FILEs;
    default: every edition with an engine) against bots or other people,
    watch bots play, and replay records.

    Each human seat gets its own link with an unguessable token; give a
    link to the person who plays that seat. Games are saved after every
    move and resumed when the server starts again. Exit 2 if an edition,
    a rule file or a folder cannot be used.
    """
    try:
        import uvicorn

        from splendor_rules.compiler.cli.web import make_app
    except ImportError as error:
        raise click.UsageError(
            f"the web board needs the web extra ({error.name} is missing): "
            "pip install 'splendor-rules[web]'"
        ) from error

    sources = _sources(editions)
    folder = folder or default_folder()
    games = _games(folder)
    offered = sources or generated_editions()
    app = make_app(games, offered, _records(replay))
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(
        f"the board is at http://{shown}:{port}/ ({len(games.games)} games resumed "
        f"from {display_path(folder)}); Ctrl-C stops it",
        err=True,
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")
