"""Random games: a uniform choice among the legal actions at every step, to
the end; the workload the bench times and counts.

It imports nothing but `random`, so that the bench's child process under
valgrind starts quickly: everything it loads besides the engine is start-up
cost, measured and subtracted, but paid at callgrind's slow pace.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from splendor_rules.compiler.runtime.api import Engine


def play_random_game(engine: Engine, players: int, seed: int) -> int:
    """One random game (uniform choice among the legal actions); its plies."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    plies = 0
    while not engine.is_over(state):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        plies += 1
    return plies


def play_random_games(engine: Engine, players: int, games: int, seed: int) -> int:
    """Games seed, seed + 1, ...; their plies in all."""
    return sum(play_random_game(engine, players, seed + i) for i in range(games))


def play_in_child(argv: Sequence[str]) -> int:
    """What the bench's child process runs under valgrind (argv: edition,
    engine kind, players, games, seed); its plies."""
    from splendor_rules.compiler.runtime.loading import load_engine

    edition, kind, players, games, seed = argv
    engine = load_engine(edition, "interpreted" if kind == "interpreted" else "generated")
    return play_random_games(engine, int(players), int(games), int(seed))
