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


def play_random_game(engine: Engine, players: int, seed: int, index: int = 0) -> int:
    """Game `index` of a run with that seed: dealt by `new_game(players, seed
    + index)`, each seat choosing uniformly among the legal actions with its
    own generator, seeded `"{seed}/{index}/{seat}"`. These are exactly the
    games `simulate --bots random` plays (simulate/games.py), and the moves
    do not replay the stream that dealt the cards. Returns the plies."""
    choosers = [random.Random(f"{seed}/{index}/{seat}").choice for seat in range(players)]
    state = engine.new_game(players, seed + index)
    plies = 0
    while not engine.is_over(state):
        legal = engine.legal_actions(state)
        state = engine.apply(state, choosers[engine.current_player(state)](legal))
        plies += 1
    return plies


def play_random_games(engine: Engine, players: int, games: int, seed: int) -> int:
    """Games 0 .. games - 1 of a run with that seed; their plies in all."""
    return sum(play_random_game(engine, players, seed, i) for i in range(games))


def play_in_child(argv: Sequence[str]) -> int:
    """What the bench's child process runs under valgrind (argv: edition or
    rule file, engine kind, players, games, seed); its plies."""
    from splendor_rules.compiler.runtime.loading import ALL_ENGINE_KINDS, EngineKind
    from splendor_rules.compiler.tools import loader

    edition, kind, players, games, seed = argv
    kinds: dict[str, EngineKind] = {known: known for known in ALL_ENGINE_KINDS}
    engine = loader.load(edition, kinds[kind])  # a rule file's: from the cache
    return play_random_games(engine, int(players), int(games), int(seed))
