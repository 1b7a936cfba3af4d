"""`splendor-rules rl`: the research interface (docs/rl.md): an edition's action
space and observation layout, and the speed of its environments."""

from __future__ import annotations

from collections.abc import Callable

import click

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import EngineUnavailable
from splendor_rules.compiler.tools.rl.actions import ActionSpace
from splendor_rules.compiler.tools.rl.observation import Layout


@click.group("rl")
def command() -> None:
    """The research interface: action space, observation layout, speed."""


def _engine(edition: str) -> Engine:
    """An edition's generated engine, by name or by rule file (its cached build)."""
    from splendor_rules.compiler.tools.loader import load

    try:
        return load(edition, "generated")
    except EngineUnavailable as error:
        raise click.BadParameter(str(error), param_hint="EDITION") from error


def _layout(engine: Engine, players: int | None, full: bool) -> Layout:
    count = players if players is not None else engine.PLAYERS.start
    try:
        return Layout(engine.DESCRIPTION, count, full=full)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--players") from error


@command.command("layout")
@click.argument("edition")
@click.option("--players", "-p", type=int, help="The player count (default: the least).")
@click.option("--full", is_flag=True, help="The full-information tensor's layout.")
def layout_command(edition: str, players: int | None, full: bool) -> None:
    """Print the observation tensor's layout: each section's slice, shape and meaning
    (EDITION: an edition's name, or a rule file)."""
    layout = _layout(_engine(edition), players, full)
    kind = "full-information tensor" if full else "observation tensor"
    click.echo(f"{edition}, {layout.players} players: {kind} of {layout.size} {layout.dtype}")
    click.echo(f"{'slice':>11}  {'section':<16} {'shape':<10} meaning")
    for start, end, name, shape, meaning in layout.describe():
        click.echo(f"{start:>5}:{end:<5}  {name:<16} {shape:<10} {meaning}")


@command.command("actions")
@click.argument("edition")
def actions_command(edition: str) -> None:
    """Print the action space: each block of indices and what its first index means
    (EDITION: an edition's name, or a rule file)."""
    space = ActionSpace(_engine(edition).DESCRIPTION)
    click.echo(f"{edition}: {space.size} actions")
    for block in space.blocks:
        end = block.start + block.size
        click.echo(f"{block.start:>5}:{end:<5}  {block.name:<16} {block.size:>4}  "
                   f"first: {block.labels[0] or block.name}")


@command.command("bench")
@click.argument("edition")
@click.option("--players", "-p", type=int, default=2, show_default=True)
@click.option("--games", "-g", type=int, default=1024, show_default=True,
              help="Games in the batch.")
@click.option("--seconds", type=float, default=3.0, show_default=True,
              help="CPU seconds per figure.")
@click.option("--azg", type=click.Path(exists=True, file_okay=False),
              help="A folder of alpha-zero-general's Game.py and splendor/: its Splendor "
                   "environment timed in the same run (needs numba; docs/rl.md).")
def bench_command(edition: str, players: int, games: int, seconds: float,
                  azg: str | None) -> None:
    """Time the batched native environment and the adapters, in steps (decisions) per second."""
    from splendor_rules.compiler.tools.loader import is_rule_file

    if is_rule_file(edition):  # the adapters load installed editions, by name
        raise click.BadParameter("bench times an installed edition, by name, not a rule file",
                                 param_hint="EDITION")
    _layout(_engine(edition), players, False)
    if games < 1:
        raise click.BadParameter("at least one game", param_hint="--games")
    try:
        from splendor_rules.compiler.tools.rl.adapters import speed
    except ImportError as error:
        raise click.UsageError(f"the rl extra is not installed ({error}): "
                               "pip install -e '.[rl]'") from error
    click.echo(f"{edition}, {players} players: steps (decisions) per second of CPU time, one core")
    runs: list[Callable[[], list[speed.Rate]]] = [
        lambda: [speed.batch(edition, players, games, seconds, given=False)],
        lambda: [speed.batch(edition, players, games, seconds, given=True)],
        lambda: [speed.pettingzoo(edition, players, seconds)],
        lambda: [speed.gymnasium(edition, players, seconds)],
    ]
    if azg is not None:
        runs.append(lambda: speed.alpha_zero_general(azg, players, seconds))
    for run in runs:
        try:
            rates = run()
        except (EngineUnavailable, ImportError) as error:
            click.echo(f"  skipped: {error}")
            continue
        for rate in rates:
            click.echo(f"  {rate.what:<32} {rate.per_second:>12,.0f} steps/s")
