"""Engine speed: random games timed, or counted in machine instructions.

A random game picks uniformly among the legal actions at every step, to the
end. Timing gives actions per second of CPU time, which on a shared machine
drifts by a third from one moment to the next; the instruction count, taken
by running the same games under `valgrind --tool=callgrind` in a child
process, does not drift, and is the figure to compare two versions of an
engine by. The start-up of the child (Python, the imports, the engine) is
measured by a run of 0 games and subtracted.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import EngineKind
from splendor_rules.compiler.tools import loader
from splendor_rules.compiler.tools.random_games import play_random_games

# ---------------------------------------------------------------- timing


@frozen
class Timing:
    """Random games of one engine and player count, timed."""

    kind: str
    players: int
    games: int
    plies: int
    cpu: float  # seconds of this process's CPU time
    wall: float  # seconds of wall-clock time

    @property
    def games_per_second(self) -> float:
        return self.games / self.cpu

    @property
    def actions_per_second(self) -> float:
        return self.plies / self.cpu

    @property
    def actions_per_wall_second(self) -> float:
        return self.plies / self.wall

    @property
    def plies_per_game(self) -> float:
        return self.plies / self.games


def time_games(engine: Engine, kind: str, players: int, games: int, seed: int) -> Timing:
    """Play `games` random games and time them. What was garbage before is
    collected first: a collection of what the command itself loaded (some
    40,000 objects) would otherwise fall in whichever engine's timing first
    makes enough new objects; the games' own collections are timed."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    plies = play_random_games(engine, players, games, seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Timing(kind, players, games, plies, cpu, wall)


# ------------------------------------------------------------ instructions


class BenchError(Exception):
    """The instruction count cannot be taken; the message says why."""


@frozen
class InstructionCount:
    """Random games of one engine and player count, counted in instructions."""

    kind: str
    players: int
    games: int
    actions: int
    instructions: int  # of the games alone: the start-up subtracted
    startup: int  # of a run of 0 games

    @property
    def per_action(self) -> float:
        return self.instructions / self.actions


# The child process: plays the games, prints nothing.
_CHILD = (
    "import sys\n"
    "from splendor_rules.compiler.tools.random_games import play_in_child\n"
    "play_in_child(sys.argv[1:])\n"
)
_SUMMARY = re.compile(r"^(?:summary|totals):\s*(\d+)", re.M)


def valgrind() -> str:
    """The valgrind program; BenchError if it is not installed."""
    found = shutil.which("valgrind")
    if found is None:
        raise BenchError(
            "valgrind is not installed (or not on PATH): the instruction count runs the games "
            "under `valgrind --tool=callgrind`; install valgrind (e.g. apt-get install valgrind) "
            "or bench without --instructions"
        )
    return found


def _instructions(args: Sequence[str], folder: Path) -> int:
    """The instructions a child process playing `args` executes."""
    # one file per run, named for it: a rule file's path is no part of a file name
    out = folder / f"callgrind.{'.'.join(a.replace('/', '_') for a in args)}"
    command = [
        valgrind(),
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        sys.executable,
        "-c",
        _CHILD,
        *args,
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict orders every run
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-12:])
        raise BenchError(f"the games under valgrind failed (exit {done.returncode}):\n{tail}")
    found = _SUMMARY.search(out.read_text(encoding="utf-8")) if out.is_file() else None
    if found is None:
        raise BenchError(f"callgrind wrote no instruction count to {out}")
    return int(found.group(1))


def count_instructions(
    edition: str, kind: EngineKind, counts: Sequence[int], games: int, seed: int
) -> list[InstructionCount]:
    """Play `games` random games per player count under callgrind in a child
    process, and once with 0 games for the start-up; the instructions per
    action of each count. The actions are counted by playing the same games
    here (they are determined by their seeds)."""
    valgrind()
    engine = loader.load(edition, kind)  # an edition's name or a rule file (absolute)
    with tempfile.TemporaryDirectory(prefix="bench-") as name:
        folder = Path(name)
        startup = _instructions((edition, kind, str(counts[0]), "0", str(seed)), folder)
        found = []
        for players in counts:
            total = _instructions((edition, kind, str(players), str(games), str(seed)), folder)
            actions = play_random_games(engine, players, games, seed)
            found.append(InstructionCount(kind, players, games, actions, total - startup, startup))
    return found


# ------------------------------------------------------------ load time

# The child process of `load_times`: the loader imported first (every
# command pays for it whatever it loads), then one engine loaded, timed.
_LOAD_CHILD = (
    "import sys, time\n"
    "from splendor_rules.compiler.tools import loader\n"
    "start = time.perf_counter()\n"
    "loader.load(sys.argv[1], sys.argv[2])\n"
    "print(time.perf_counter() - start)\n"
)


@frozen
class LoadTime:
    """The seconds an engine takes to load in fresh processes: the first
    process's, and the later ones'."""

    kind: str
    first: float
    later: tuple[float, ...]

    @property
    def median(self) -> float:
        ordered = sorted(self.later)
        return ordered[len(ordered) // 2]


def _load_once(edition: str, kind: EngineKind) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _LOAD_CHILD, edition, kind],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-12:])
        raise BenchError(f"loading {edition} failed (exit {done.returncode}):\n{tail}")
    return float(done.stdout.split()[-1])


def load_times(edition: str, kind: EngineKind, runs: int) -> LoadTime:
    """How long loading an edition's engine of `kind` takes, in `runs` + 1
    fresh processes (wall clock, the loader's import excluded): for a rule
    file, the first builds the engine into the cache if it is not there
    (the command line loads it before, so that all find it there)."""
    first = _load_once(edition, kind)
    return LoadTime(kind, first, tuple(_load_once(edition, kind) for _ in range(runs)))
