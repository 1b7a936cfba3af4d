"""A PettingZoo AEC environment of any edition (issue 23, docs/rl.md).

Agents are `player_0`, `player_1`, ...; each observation is a dict of the
seat's tensor (`observation`) and the legal indices (`action_mask`, all zero
for a seat not choosing). Rewards come at the end of the game.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from splendor_rules.compiler.runtime.loading import EngineKind
from splendor_rules.compiler.tools.rl.adapters.common import array, box, engine_for, mask
from splendor_rules.compiler.tools.rl.game import Game


class SplendorAEC(AECEnv):  # type: ignore[misc]
    """An edition as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "splendor_rules_v0", "is_parallelizable": False,
    }

    def __init__(self, edition: str = "classic", players: int = 2, engine: EngineKind | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.game = Game(engine_for(edition, engine), players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = list(self.possible_agents)
        n = self.game.space.size
        space = spaces.Dict({
            "observation": box(self.game.layout),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._rng = random.Random()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        self.game.reset(self._rng.randrange(2**62))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        legal = self.game.legal() if seat == self.game.to_move and not self.game.over else ()
        return {"observation": array(self.game.observe_raw(seat), self.game.layout),
                "action_mask": mask(self.game.space.size, legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.game.step(int(action))  # type: ignore[arg-type]
        if self.game.over:
            for agent_name, reward in zip(self.agents, self.game.rewards(), strict=True):
                self.rewards[agent_name] = reward
                self.terminations[agent_name] = True
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[self.game.to_move]
        if self.game.over:
            self.agent_selection = self._agent_selector_dead()

    def _agent_selector_dead(self) -> str:
        """The first agent still to be stepped once the game is over."""
        return self.agents[0]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return repr(self.game.engine.to_json(self.game.state))
        return None

    def close(self) -> None:
        pass


def env(edition: str = "classic", players: int = 2, engine: EngineKind | None = None,
        render_mode: str | None = None) -> SplendorAEC:
    """The environment, as PettingZoo's `env()` convention names it."""
    return SplendorAEC(edition, players, engine, render_mode)
