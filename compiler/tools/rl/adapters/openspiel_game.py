"""Every edition as an OpenSpiel game, registered with pyspiel (issue 23, docs/rl.md).

`register()` registers `splendor_rules_EDITION` for each edition; then
`pyspiel.load_game("splendor_rules_classic", {"players": 2})` plays it. The
deal is the one chance node: outcome `d` of `deals` equally likely ones deals
`new_game(players, d)`; the decks' order follows from it, as in the engine.
Actions are the indices of the edition's action space; observations are the
seat's tensor (its `view`); returns are 1 for a winner, -1 for another seat,
0 for all when every seat or none wins.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from splendor_rules.compiler.runtime.loading import generated_editions
from splendor_rules.compiler.tools.rl.adapters.common import engine_for
from splendor_rules.compiler.tools.rl.game import Game

DEALS = 1000
# A cap on a game's decisions OpenSpiel asks for; no rule bounds a game's
# length, and random play stays far below it (docs/rl.md).
MAX_DECISIONS = 5000


def _game_class(edition: str) -> tuple[Any, type]:
    engine = engine_for(edition)
    d = engine.DESCRIPTION
    game_type = pyspiel.GameType(
        short_name=f"splendor_rules_{edition}",
        long_name=f"{d['title']} (splendor-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=d["players"]["max"],
        min_num_players=d["players"]["min"],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": d["players"]["min"], "deals": DEALS},
    )

    class SplendorGame(pyspiel.Game):  # type: ignore[misc]
        """One edition for a player count."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = {"players": d["players"]["min"], "deals": DEALS, **(params or {})}
            self.core = Game(engine, int(params["players"]))
            self.deals = int(params["deals"])
            info = pyspiel.GameInfo(
                num_distinct_actions=self.core.space.size,
                max_chance_outcomes=self.deals,
                num_players=self.core.players,
                min_utility=-1.0, max_utility=1.0,
                utility_sum=None,
                max_game_length=MAX_DECISIONS)
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> SplendorState:
            return SplendorState(self)

        def make_py_observer(self, iig_obs_type: Any = None,
                             params: dict[str, Any] | None = None) -> Observer:
            if iig_obs_type is not None and iig_obs_type.perfect_recall:
                raise ValueError("no information state: observations only (perfect_recall=False)")
            return Observer(self.core)

    return game_type, SplendorGame


class SplendorState(pyspiel.State):  # type: ignore[misc]
    """A game in play: the deal first (chance), then the seats' decisions."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.core: Game | None = None
        self._template: Game = game.core
        self._deals: int = game.deals

    def current_player(self) -> int:
        if self.core is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.core.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.core.to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.core is not None
        return list(self.core.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(deal, 1.0 / self._deals) for deal in range(self._deals)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            self.core = self._template.copy()
            self.core.reset(int(action))
        else:
            self.core.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self._template.space.label(action)

    def is_terminal(self) -> bool:
        return self.core is not None and self.core.over

    def returns(self) -> list[float]:
        if self.core is None:
            return [0.0] * self._template.players
        return [float(r) for r in self.core.rewards()]

    def __str__(self) -> str:
        if self.core is None:
            return "not dealt"
        return repr(self.core.engine.to_json(self.core.state))


class Observer:
    """The seat's tensor, as OpenSpiel's observers give it."""

    def __init__(self, core: Game) -> None:
        self.tensor: Any = np.zeros(core.layout.size, np.float32)
        self.dict = {s.name: self.tensor[s.start:s.start + s.size].reshape(s.shape)
                     for s in core.layout.sections}

    def set_from(self, state: SplendorState, player: int) -> None:
        if state.core is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state.core.observe_raw(player)

    def string_from(self, state: SplendorState, player: int) -> str:
        if state.core is None:
            return "not dealt"
        return repr(state.core.engine.view(state.core.state, player))


def register(editions: list[str] | None = None) -> list[str]:
    """Register every edition (or those given) with pyspiel; their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for edition in editions if editions is not None else generated_editions():
        game_type, cls = _game_class(edition)
        if game_type.short_name not in registered:
            pyspiel.register_game(game_type, cls)
        names.append(game_type.short_name)
    return names
