"""The batched native environment: N games stepped at once in C (issue 23, docs/rl.md).

Every array is numpy's and is written in place by the native engine:
`observations` (games x tensor, of the layout's type, the tensor of the seat to move),
`masks` (games x actions, int8), `rewards` (games x seats, float32, by seat,
given on the decision that ends a game) and `dones` (games, int8). A game
that ends is dealt again at once (its next seed is its seed plus the number
of games), so the observation beside a done flag is the new game's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor_rules.compiler.runtime.api import Engine, State
from splendor_rules.compiler.runtime.loading import load_engine, native_extension
from splendor_rules.compiler.tools.rl.actions import ActionSpace
from splendor_rules.compiler.tools.rl.batch import table
from splendor_rules.compiler.tools.rl.observation import Layout


class BatchEnv:
    """`games` games of an edition on its native engine, stepped together."""

    def __init__(self, edition: str, games: int, players: int = 2, seed: int = 0) -> None:
        if games < 1:
            raise ValueError(f"a batch needs at least one game, not {games}")
        self.engine: Engine = load_engine(edition, "native")
        self._c: Any = native_extension(edition)
        self.space = ActionSpace(self.engine.DESCRIPTION)
        self.layout = Layout(self.engine.DESCRIPTION, players)
        self.players = players
        self.games = games
        self.table = np.asarray(table(self.engine.DESCRIPTION, players), dtype=np.int32)
        size, entries, _ = self._c._batch_info()
        if entries != len(self.table):
            raise RuntimeError(f"the batch table has {len(self.table)} entries; the engine "
                               f"reads {entries}: rebuild the native engine")
        self._games: Any = np.zeros(games * size, dtype=np.uint8)
        self.observations: Any = np.zeros((games, self.layout.size), dtype=self.layout.dtype)
        self.masks: Any = np.zeros((games, self.space.size), dtype=np.int8)
        self.rewards: Any = np.zeros((games, players), dtype=np.float32)
        self.dones: Any = np.zeros(games, dtype=np.int8)
        self._random: Any = np.full(games, -1, dtype=np.int32)
        self.reset(seed)

    def reset(self, seed: int = 0) -> Any:
        """Deal game i as `new_game(players, seed + i)`; the observations."""
        seeds: Any = np.arange(seed, seed + self.games, dtype=np.int64)
        self._c._batch_reset(self._games, self.table, seeds, self.games, seed & (2**64 - 1),
                             self.observations, self.masks)
        self.rewards[:] = 0
        self.dones[:] = 0
        return self.observations

    def step(self, actions: Any = None) -> tuple[Any, Any, Any, Any]:
        """One decision in every game: `actions[i]`, or a random legal one where
        it is -1 (or for all, with None). ValueError, and no game moves, if a
        given action is not legal."""
        if actions is None:
            chosen = self._random
        else:
            chosen = np.ascontiguousarray(actions, dtype=np.int32)
            if chosen.shape != (self.games,):
                raise ValueError(f"one action per game: {self.games}, not {chosen.shape}")
        self._c._batch_step(self._games, self.table, chosen, self.observations, self.masks,
                            self.rewards, self.dones)
        return self.observations, self.masks, self.rewards, self.dones

    def state(self, game: int) -> State:
        """Game `game`'s state, as the engine's state."""
        return self._c._batch_state(self._games, game)

    def to_move(self) -> Any:
        """The seat to move in each game (int32, one per game)."""
        seats: Any = np.zeros(self.games, dtype=np.int32)
        self._c._batch_seats(self._games, seats)
        return seats
