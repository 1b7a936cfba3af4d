"""The bots' speed: games between bots timed on one core, and counted in
machine instructions per search iteration.

The games are simulate's (`simulate/games.py`: game i dealt by
`new_game(players, seed + i)`, the bot of seat s seeded `"{seed}/{i}/{s}"`),
played in this process, one after another, so the CPU time is one core's.
The native bots play where the engine has them, else (or with
`python_bots`) the Python ones. The instruction count runs the same games
under `valgrind --tool=callgrind` in a child process (`bench.py`, whose
start-up, a run of 0 games, is subtracted) and divides by the iterations
the searches made: every instruction of the games, the moves made between
searches included, over the iterations.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import load_engine
from splendor_rules.compiler.tools.bench import BenchError, valgrind
from splendor_rules.compiler.tools.simulate.bots import bot_factory, parse_bots
from splendor_rules.compiler.tools.simulate.engines import native_built
from splendor_rules.compiler.tools.simulate.games import chooser
from splendor_rules.compiler.tools.simulate.mcts import MctsBot
from splendor_rules.compiler.tools.simulate.native import NativeMctsBot, bot_engine

MATCHES = ("mcts:200,mcts:200", "greedy,greedy")  # the yardsticks


@frozen
class BotGames:
    """Games between bots, timed: plies, search iterations, CPU seconds."""

    edition: str
    bots: tuple[str, ...]
    native: bool  # whether the native bots played (where the engine has them)
    games: int
    plies: int
    iterations: int  # made by the searches (mcts seats), in all
    cpu: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.cpu

    @property
    def actions_per_second(self) -> float:
        return self.plies / self.cpu

    @property
    def microseconds_per_iteration(self) -> float | None:
        return self.cpu * 1e6 / self.iterations if self.iterations else None


def play_bot_games(
    engine: Engine, bots: Sequence[str], games: int, seed: int, python_bots: bool = False
) -> tuple[int, int]:
    """Games 0 .. games - 1 of a run with that seed: the plies and the
    search iterations made."""
    native = None if python_bots else bot_engine(engine)
    plies = iterations = 0
    for index in range(games):
        made = [bot_factory(spec, native)(f"{seed}/{index}/{s}") for s, spec in enumerate(bots)]
        choosers = [chooser(engine, bot) for bot in made]
        state = engine.new_game(len(bots), seed + index)
        while not engine.is_over(state):
            seat = engine.current_player(state)
            state = engine.apply(state, choosers[seat](seat, engine.legal_actions(state), state))
            plies += 1
        for bot in made:
            if isinstance(bot, NativeMctsBot):
                iterations += bot.iterations
            elif isinstance(bot, MctsBot):
                iterations += bot.iterations_made
    return plies, iterations


def time_bot_games(
    edition: str, bots: str, games: int, seed: int, python_bots: bool = False
) -> BotGames:
    """Time the games of a --bots value (every seat named) on the edition's
    native engine where built, else its generated one."""
    engine = load_engine(edition, "native") if native_built(edition) else load_engine(edition)
    seats = parse_bots(bots, len(bots.split(",")))
    gc.collect()
    cpu = time.process_time()
    plies, iterations = play_bot_games(engine, seats, games, seed, python_bots)
    cpu = time.process_time() - cpu
    native = not python_bots and bot_engine(engine) is not None
    return BotGames(edition, seats, native, games, plies, iterations, cpu)


# The child process under valgrind: plays the games, prints nothing.
_CHILD = (
    "import sys\n"
    "from splendor_rules.compiler.tools.bench_bots import bots_in_child\n"
    "bots_in_child(sys.argv[1:])\n"
)


def bots_in_child(argv: Sequence[str]) -> None:
    """What the child runs (argv: edition, bots, games, seed, python or native)."""
    edition, bots, games, seed, where = argv
    engine = load_engine(edition, "native") if native_built(edition) else load_engine(edition)
    seats = parse_bots(bots, len(bots.split(",")))
    play_bot_games(engine, seats, int(games), int(seed), where == "python")


def _instructions(args: Sequence[str], folder: Path) -> int:
    out = folder / f"callgrind.{len(list(folder.iterdir()))}"
    command = [valgrind(), "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
    done = subprocess.run(
        [*command, "-c", _CHILD, *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-12:])
        raise BenchError(f"the games under valgrind failed (exit {done.returncode}):\n{tail}")
    for line in out.read_text(encoding="utf-8").splitlines() if out.is_file() else []:
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise BenchError(f"callgrind wrote no instruction count to {out}")


def count_bot_instructions(
    edition: str, bots: str, games: int, seed: int, python_bots: bool = False
) -> tuple[int, BotGames]:
    """The instructions of the games under callgrind (start-up subtracted),
    and the games as played here (their plies and iterations; the time is
    this process's)."""
    where = "python" if python_bots else "native"
    with tempfile.TemporaryDirectory(prefix="bench-bots-") as name:
        folder = Path(name)
        startup = _instructions((edition, bots, "0", str(seed), where), folder)
        total = _instructions((edition, bots, str(games), str(seed), where), folder)
    return total - startup, time_bot_games(edition, bots, games, seed, python_bots)
