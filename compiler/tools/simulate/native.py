"""The bots' inner loops in native code, where an engine has them.

A native engine (docs/native.md) carries three entry points for the bots,
`bot_greedy`, `bot_mcts` and `bot_deal`: the greedy bot's one-ply
evaluation, the whole Monte Carlo tree search of a move, and the deal of a
state from a seat's view, each in C over the engine's own state. They are
given the true state and the seat, and read of it only what the seat's view
shows: before anything looks ahead, the hidden cards (the decks and the
cards other seats hold hidden) are dealt anew, as `hidden.Dealer` deals a
view (the tests hold a native deal to it).

- `NativeGreedyBot` is `bots.GreedyBot` exactly: the native deal and the
  tie-break draw from the Python bot's own `random.Random`, continued in C
  (its Mersenne Twister state goes in and comes back), so both make the
  same moves for the same seed.
- `NativeMctsBot` is `mcts.MctsBot`'s search (the same deals, tree, UCT,
  knowledge at the root, rollouts and rewards) drawn from another generator
  (splitmix64, seeded per move from the bot's `random.Random`): the same
  player in distribution, not move for move.

The Python bots stay the reference, and play wherever an engine has no
native bots (the generated engines, rule files) or when asked
(`simulate --python-bots`).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, cast

from splendor_rules.compiler.runtime.api import Action, Engine, State
from splendor_rules.compiler.tools.simulate.mcts import DEFAULT_ITERATIONS, MctsSpec


class BotEngine(Protocol):
    """The native bots' entry points of an engine (docs/simulate.md)."""

    def bot_greedy(
        self, state: State, seat: int, twister: tuple[int, ...], /
    ) -> tuple[int, tuple[int, ...]]: ...

    def bot_mcts(
        self, state: State, seat: int, iterations: int, seconds: float, uniform: bool, seed: int, /
    ) -> tuple[int, int]: ...

    def bot_deal(self, state: State, seat: int, seed: int, /) -> State: ...


NATIVE_ENTRIES = ("bot_greedy", "bot_mcts", "bot_deal")


def bot_engine(engine: Engine) -> BotEngine | None:
    """The engine as one with native bots, or None if it has none."""
    if all(callable(getattr(engine, name, None)) for name in NATIVE_ENTRIES):
        return cast(BotEngine, engine)
    return None


class NativeGreedyBot:
    """`bots.GreedyBot`, its evaluation in native code (see the module)."""

    def __init__(self, native: BotEngine, seed: str) -> None:
        self.native = native
        self.rng = random.Random(seed)

    def choose_in(self, seat: int, legal: list[Action], state: State) -> Action:
        if len(legal) == 1:
            return legal[0]
        version, words, gauss = self.rng.getstate()
        index, words = self.native.bot_greedy(state, seat, words)
        self.rng.setstate((version, words, gauss))
        return legal[index]


class NativeMctsBot:
    """`mcts.MctsBot`'s search in native code (see the module)."""

    def __init__(self, native: BotEngine, seed: str, spec: MctsSpec | None = None) -> None:
        self.native = native
        self.rng = random.Random(seed)
        self.spec = spec or MctsSpec(DEFAULT_ITERATIONS)
        self.iterations = 0  # made in all, for the benchmark

    def choose_in(self, seat: int, legal: list[Action], state: State) -> Action:
        if len(legal) == 1:
            return legal[0]
        spec = self.spec
        index, made = self.native.bot_mcts(
            state,
            seat,
            spec.iterations,
            spec.seconds,
            spec.rollout == "uniform",
            self.rng.getrandbits(64),
        )
        self.iterations += made
        return legal[index]


NativeBot = NativeGreedyBot | NativeMctsBot


def native_bot(native: BotEngine, name: str, spec: Any, seed: str) -> NativeBot | None:
    """The native version of a bot (`greedy`, `mcts`), None for another."""
    if name == "greedy":
        return NativeGreedyBot(native, seed)
    if name == "mcts":
        return NativeMctsBot(native, seed, spec)
    return None
