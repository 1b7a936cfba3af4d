"""Steps per second of the research interface, each on one core (issue 23,
docs/rl.md): the batched native environment with observations and masks
written, and the PettingZoo and Gymnasium adapters. A step is one decision.
Rates are of this process's CPU time."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Rate:
    """What was timed, how many steps, in how many seconds of CPU time."""

    what: str
    steps: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0


def _timed(what: str, seconds: float, run: Callable[[], int]) -> Rate:
    start = time.process_time()
    steps = 0
    while (spent := time.process_time() - start) < seconds:
        steps += run()
    return Rate(what, steps, spent)


def batch(edition: str, players: int, games: int, seconds: float, given: bool) -> Rate:
    """The batched environment: random decisions drawn in C, or given ones
    (each game's first legal index, picked by numpy from the masks)."""
    from splendor_rules.compiler.tools.rl.adapters.batch_env import BatchEnv

    env = BatchEnv(edition, games, players)
    if given:
        def run() -> int:
            env.step(env.masks.argmax(axis=1))
            return games
    else:
        def run() -> int:
            env.step()
            return games
    kind = "given" if given else "random"
    return _timed(f"batch of {games}, {kind} actions", seconds, run)


def pettingzoo(edition: str, players: int, seconds: float) -> Rate:
    """The PettingZoo AEC environment, a random legal action a step."""
    from splendor_rules.compiler.tools.rl.adapters.pettingzoo_env import env as make

    env = make(edition, players)
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def run() -> int:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            return 0
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        return 1

    return _timed("PettingZoo AEC", seconds, run)


def gymnasium(edition: str, players: int, seconds: float) -> Rate:
    """The Gymnasium environment against `random` bots, a random legal action a step."""
    from splendor_rules.compiler.tools.rl.adapters.gymnasium_env import SplendorGym

    env = SplendorGym(edition, players, opponent="random")
    observation, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    state = {"observation": observation}

    def run() -> int:
        mask = state["observation"]["action_mask"]
        observation, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        state["observation"] = env.reset()[0] if done else observation
        return 1

    return _timed("Gymnasium vs random", seconds, run)


def alpha_zero_general(folder: str, players: int, seconds: float) -> list[Rate]:
    """alpha-zero-general's Splendor environment (cestpasphoto/alpha-zero-general,
    a numba engine; not part of this project): `folder` holds its `Game.py` and
    `splendor/` package. A step is what its self-play and arena loops do per
    decision: the canonical board of the seat to move (its observation), that
    board's valid moves (its mask), a random valid move applied, the end check;
    a game that ends is dealt again. Timed driven from Python, as its loops
    drive it, and inside one numba function (no Python between steps).
    ImportError without numba or without its files."""
    import importlib

    numba = importlib.import_module("numba")
    sys.path.insert(0, folder)
    try:
        azg = importlib.import_module("splendor.SplendorGame")
    finally:
        sys.path.remove(folder)
    canonical_form, valid_moves = azg.getCanonicalForm, azg.getValidMoves
    next_state, game_ended = azg.getNextState, azg.getGameEnded
    game = azg.SplendorGame(players)
    rng = np.random.default_rng(0)
    at: dict[str, Any] = {"board": game.getInitBoard(), "player": 0}

    def step() -> int:
        seen = canonical_form(game.board, at["board"], at["player"])
        action = int(rng.choice(np.flatnonzero(valid_moves(game.board, seen, 0))))
        at["board"], at["player"] = next_state(game.board, at["board"], at["player"], action)
        if game_ended(game.board, at["board"]).any():
            at["board"], at["player"] = game.getInitBoard(), 0
        return 1

    def loop(board_object: Any, board: Any, player: int, count: int) -> tuple[Any, int]:
        for _ in range(count):
            seen = canonical_form(board_object, board, player)
            legal = np.flatnonzero(valid_moves(board_object, seen, 0))
            board, player = next_state(board_object, board, player,
                                       legal[np.random.randint(len(legal))])
            if game_ended(board_object, board).any():
                board_object.init_game()
                board, player = board_object.get_state(), 0
        return board, player

    compiled = numba.njit(loop)

    def steps() -> int:
        at["board"], at["player"] = compiled(game.board, at["board"], at["player"], 1000)
        return 1000

    for _ in range(200):  # compiled before the clock starts
        step()
    steps()
    return [_timed("alpha-zero-general, Python loop", seconds, step),
            _timed("alpha-zero-general, numba loop", seconds, steps)]
