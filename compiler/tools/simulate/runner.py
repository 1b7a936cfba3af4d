"""Running many games: in this process, in worker processes, or on Ray.

The games of a run are cut into chunks of consecutive indices; a worker
plays a chunk and returns its results, which are put back in game order, so
the results (and the summary made from them) do not depend on the number of
workers, the order chunks finish in, or the backend. The chunks are cut
as they are handed out (a generator), so a run of many games costs no
memory before its first game; every game's result is kept for the
statistics, hence a bound on the games of a run (MAX_GAMES). An interrupt
(Ctrl-C) stops the run: the workers are ended and the games already
finished are returned, marked as interrupted.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import itertools
import multiprocessing
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import field, frozen

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import EngineKind, load_engine
from splendor_rules.compiler.tools.simulate.games import GameResult, play_games

Progress = Callable[[int], None]  # called with the number of games just finished

# The most games a run may ask for: each finished game's result is kept for
# the statistics (3.0-3.3 KB in memory in two-player classic, measured with
# tracemalloc: docs/simulate.md), so 10**6 games take more than 3 GB.
MAX_GAMES = 1_000_000
# Chunks handed to Ray ahead of the results, per job: enough to keep the
# cluster busy, few enough that a long run's tasks are not all queued at once.
IN_FLIGHT_PER_JOB = 4


class SimulateError(Exception):
    """A simulation that cannot run (an edition, a backend); the message says why."""


@frozen
class EditionSource:
    """An edition to simulate: an engine by name, generated or native (`kind`),
    or the source of an engine module rendered from a rule file
    (`engine_source`), which each worker imports from a temporary file."""

    name: str
    source: str | None = None
    label: str = ""  # how the user named it
    kind: EngineKind = "generated"  # the engine that plays, for an edition by name
    rules: str | None = None  # a rule file whose native engine plays (from the cache)

    def engine(self) -> Engine:
        if self.rules is not None:
            from splendor_rules.compiler.tools import loader

            return loader.load(self.rules, self.kind)
        if self.source is None:
            return load_engine(self.name, self.kind)
        return _module(self.name, self.source)


_MODULES: dict[str, Engine] = {}


def _module(name: str, source: str) -> Engine:
    """The engine module of that source, imported once per process."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    module_name = f"splendor_rules_simulated_{name}_{digest}"
    found = _MODULES.get(module_name)
    if found is None:
        folder = Path(tempfile.mkdtemp(prefix="simulate-"))
        path = folder / f"{module_name}.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise SimulateError(f"cannot import the engine built for {name}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        found = _MODULES[module_name] = module
    return found


@frozen
class Run:
    """The games of one edition: players, bots per seat, the seed, how many."""

    edition: EditionSource
    bots: tuple[str, ...]
    seed: int
    games: int
    python_bots: bool = False  # greedy and mcts in Python even where the engine has native bots

    @property
    def players(self) -> int:
        return len(self.bots)


@frozen
class Outcome:
    """The finished games of each run, in game order; `interrupted` if the
    run was stopped before all were played."""

    results: tuple[tuple[GameResult, ...], ...]
    interrupted: bool = field(default=False)


Chunk = tuple[int, Run, tuple[int, ...]]  # (run number, run, game indices)


def chunks(runs: Sequence[Run], jobs: int) -> Iterator[Chunk]:
    """The runs' games cut into chunks, as they are asked for: about eight
    per worker and run, at most 50 games each, so that the workers stay busy
    and progress shows."""
    for number, run in enumerate(runs):
        size = max(1, min(50, run.games // max(1, jobs * 8)))
        for start in range(0, run.games, size):
            yield (number, run, tuple(range(start, min(start + size, run.games))))


def play_chunk(chunk: Chunk) -> tuple[int, list[GameResult]]:
    """What a worker does: play a chunk's games."""
    number, run, indices = chunk
    return number, play_games(run.edition.engine(), run.bots, run.seed, indices, run.python_bots)


def _collect(
    runs: Sequence[Run], found: list[tuple[int, list[GameResult]]], stopped: bool
) -> Outcome:
    merged: list[list[GameResult]] = [[] for _ in runs]
    for number, results in found:
        merged[number].extend(results)
    return Outcome(
        tuple(tuple(sorted(results, key=lambda r: r.index)) for results in merged), stopped
    )


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the parent, which ends it (the signal was
    held while the worker was forked: see _interrupts_held)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C while the workers start: a worker forked before it could
    ignore the signal would print its own traceback. The signal is delivered
    (KeyboardInterrupt) when the block ends, once the pool can be ended."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: nothing to hold
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """Ignore Ctrl-C (pressed again) while the workers are being ended."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread, where signals are not handled anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def default_jobs() -> int:
    """The machine's cores (those this process may use)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_local(runs: Sequence[Run], jobs: int, progress: Progress | None = None) -> Outcome:
    """Play the runs here (jobs 1) or in `jobs` worker processes. Ctrl-C at
    any moment, the workers' start included, ends the run with the games
    finished."""
    found: list[tuple[int, list[GameResult]]] = []
    try:
        if jobs <= 1:
            for task in chunks(runs, jobs):
                found.append(play_chunk(task))
                if progress:
                    progress(len(task[2]))
        else:
            _play_in_pool(runs, jobs, found, progress)
    except KeyboardInterrupt:
        return _collect(runs, found, True)
    return _collect(runs, found, False)


def _play_in_pool(
    runs: Sequence[Run],
    jobs: int,
    found: list[tuple[int, list[GameResult]]],
    progress: Progress | None,
) -> None:
    """Play the chunks in a pool of workers, adding each chunk's results to
    `found` as it ends; on any exception (Ctrl-C) the workers are ended."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = None
    try:
        with _interrupts_held():
            pool = context.Pool(jobs, initializer=_ignore_interrupts)
        for done in pool.imap_unordered(play_chunk, chunks(runs, jobs)):
            found.append(done)
            if progress:
                progress(len(done[1]))
        pool.close()
        pool.join()
    except BaseException:
        if pool is not None:
            with _interrupts_ignored():
                pool.terminate()
                pool.join()
        raise


def run_ray(
    runs: Sequence[Run], address: str | None, jobs: int, progress: Progress | None = None
) -> Outcome:
    """Play the runs as Ray tasks, a chunk each: on the cluster at `address`
    (reached first within a bounded time: cluster.py), on the Ray instance
    this process already started, or on a new local one. The chunks are
    sent as the results come, IN_FLIGHT_PER_JOB per job ahead."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError as error:
        raise SimulateError(
            "the Ray backend needs the ray extra: pip install 'splendor-rules[ray]'"
        ) from error
    from splendor_rules.compiler.tools.simulate.cluster import join

    if not ray.is_initialized():
        join(ray, address)
    remote: Any = ray.remote(play_chunk)
    tasks = chunks(runs, jobs)
    found: list[tuple[int, list[GameResult]]] = []
    pending: list[Any] = []
    try:
        pending = [
            remote.remote(task) for task in itertools.islice(tasks, IN_FLIGHT_PER_JOB * jobs)
        ]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for reference in ready:
                done = ray.get(reference)
                found.append(done)
                if progress:
                    progress(len(done[1]))
                pending += [remote.remote(task) for task in itertools.islice(tasks, 1)]
    except KeyboardInterrupt:
        for reference in pending:
            ray.cancel(reference, force=True)
        return _collect(runs, found, True)
    return _collect(runs, found, False)
