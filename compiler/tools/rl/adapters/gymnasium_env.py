"""A Gymnasium environment: one seat of an edition against bots of `simulate`
(issue 23, docs/rl.md).

The observation is a dict of the seat's tensor (`observation`) and its legal
indices (`action_mask`). The other seats are played by a bot of `simulate`
(`random`, `greedy`, `mcts:N`) between the agent's decisions. The reward is
given at the end: 1 for a win, -1 for a loss, 0 for a draw. An index that is
not legal ends the episode with -1 (`info["illegal"]`), as an agent that
breaks the rules loses.
"""

from __future__ import annotations

import functools
import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from splendor_rules.compiler.runtime.loading import EngineKind
from splendor_rules.compiler.tools.rl.adapters.common import array, box, engine_for, mask
from splendor_rules.compiler.tools.rl.game import Game
from splendor_rules.compiler.tools.simulate.bots import Bot, bot_factory


class SplendorGym(gymnasium.Env):  # type: ignore[misc]
    """One seat of an edition against bots."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(self, edition: str = "classic", players: int = 2, seat: int = 0,
                 opponent: str = "random", engine: EngineKind | None = None,
                 render_mode: str | None = None) -> None:
        self.game = Game(engine_for(edition, engine), players)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        self.seat = seat
        self.opponent = opponent
        self._make_bot = bot_factory(opponent)
        self.bots: dict[int, Bot] = {}
        self.render_mode = render_mode
        n = self.game.space.size
        self.observation_space = spaces.Dict({
            "observation": box(self.game.layout),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(n)
        self._rng = random.Random()

    def _observation(self) -> dict[str, Any]:
        legal = () if self.game.over else self.game.legal()
        return {"observation": array(self.game.observe_raw(self.seat), self.game.layout),
                "action_mask": mask(self.game.space.size, legal)}

    def _others(self) -> None:
        """The bots play until the agent's seat chooses or the game ends."""
        game = self.game
        while not game.over and game.to_move != self.seat:
            seat = game.to_move
            move = self.bots[seat].choose(game.engine, seat, list(game.choosing.legal),
                                          functools.partial(game.engine.view, game.state, seat))
            game.play(move)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        game_seed = self._rng.randrange(2**62)
        self.bots = {s: self._make_bot(f"{game_seed}:{s}") for s in range(self.game.players)
                     if s != self.seat}
        self.game.reset(game_seed)
        self._others()
        return self._observation(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        index = int(action)
        if index not in self.game.legal():
            return self._observation(), -1.0, True, False, {"illegal": True}
        self.game.step(index)
        self._others()
        reward = float(self.game.rewards()[self.seat]) if self.game.over else 0.0
        return self._observation(), reward, self.game.over, False, {}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return repr(self.game.engine.to_json(self.game.state))
        return None
