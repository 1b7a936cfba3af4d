"""Monte Carlo tree search that respects hidden information.

Each iteration deals a state from the seat's view (`hidden.sample_state`:
the unseen cards shuffled into the decks and the other seats' hidden
cards), then walks one tree shared by all the deals (a single-observer
information-set search): at a node, only the moves legal in this deal are
considered; an untried one is expanded, else UCT (UCB1 with exploration
constant `EXPLORATION`, counting a child's chances from the times it was
legal) chooses. A node keeps the rewards of the seat that moved into it.

Knowledge at the root: each legal move starts with `PRIOR_VISITS` visits
valued as the position one ply after it in the first deal (the evaluation
below), so that the search starts from what a one-ply look ahead knows.

Rollout policy: up to `ROLLOUT_PLIES` moves from the new node, each the
best-scoring (the mover's score after it) of `ROLLOUT_CANDIDATES` legal moves
drawn at random; then the position is scored: a finished game gives each
winner 1/winners and the others 0; an unfinished one gives each seat
`1 / (1 + exp(-(v - best other v) / SCALE))`, where v is the score plus a
tenth of the generic progress estimate (`bots.progress`). The move played is
the root's most visited child. With the `uniform` rollout (`mcts:N:uniform`),
the rollout instead plays uniformly random moves to the end of the game.

A search is N iterations a move (`mcts:N`), or as many as a time allows
(`mcts:50ms`, at least one): then its moves depend on the machine's speed,
and a run is no longer determined by its seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from attrs import frozen

from splendor_rules.compiler.runtime.api import Action, Engine, Json, State
from splendor_rules.compiler.tools.simulate.bots import progress
from splendor_rules.compiler.tools.simulate.hidden import Dealer

DEFAULT_ITERATIONS = 200
ROLLOUTS = ("best2", "uniform")  # the default policy (below), uniformly random moves to the end
EXPLORATION = 0.7
ROLLOUT_PLIES = 10
SCALE = 3.0
PRIOR_VISITS = 5  # the root's children start with this many visits at their one-ply value
ROLLOUT_CANDIDATES = 2  # a rollout move is the best-scoring of this many random legal moves


@frozen
class MctsSpec:
    """What an `mcts` entry of --bots asks: iterations a move, or seconds a
    move (0: by iterations), and the rollout policy."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float = 0.0
    rollout: str = "best2"


def parse_mcts(argument: str) -> MctsSpec | None:
    """The spec of `mcts[:N | :Nms][:uniform | :best2]` from what follows
    `mcts:` (empty: the default); None if it is not one."""
    parts = argument.split(":") if argument else []
    rollout = "best2"
    if parts and parts[-1] in ROLLOUTS:
        rollout = parts.pop()
    if len(parts) > 1:
        return None
    budget = parts[0] if parts else str(DEFAULT_ITERATIONS)
    number = budget.removesuffix("ms")
    if not number.isdigit() or int(number) < 1 or int(number) > 10**9:
        return None
    if budget.endswith("ms"):
        return MctsSpec(0, int(number) / 1000, rollout)
    return MctsSpec(int(number), 0.0, rollout)


class Node:
    """A move's statistics, from the point of view of the seat that made it."""

    __slots__ = ("chances", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.chances = 0  # iterations in which this move was legal at its parent
        self.total = 0.0

    def uct(self) -> float:
        return self.total / self.visits + EXPLORATION * math.sqrt(
            math.log(max(self.chances, 1)) / self.visits
        )


def evaluate(engine: Engine, state: State) -> list[float]:
    """Each seat's reward in [0, 1] for a position (see the module)."""
    form = engine.to_json(state)
    seats = range(form["players"])
    if engine.is_over(state):
        winners = engine.winners(state)
        return [1 / len(winners) if seat in winners else 0.0 for seat in seats]
    scores = engine.scores(state)
    values = [scores[seat] + progress(engine, form, seat) / 10 for seat in seats]
    rewards = []
    for seat in seats:
        other = max(values[s] for s in seats if s != seat)
        rewards.append(1 / (1 + math.exp(-(values[seat] - other) / SCALE)))
    return rewards


class MctsBot:
    """UCT over states dealt from the seat's view (see the module)."""

    def __init__(
        self, seed: str, iterations: int = DEFAULT_ITERATIONS, spec: MctsSpec | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.spec = spec or MctsSpec(iterations)
        self.iterations = self.spec.iterations
        self.samples = 0  # states dealt, for the tests
        self.iterations_made = 0  # in all, for the benchmark

    def choose(
        self, engine: Engine, seat: int, legal: list[Action], view: Callable[[], Json]
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        dealer = Dealer(engine, view())
        root = Node(seat)
        if PRIOR_VISITS:
            first = self.deal(dealer)
            for action in legal:
                child = root.children[action] = Node(seat)
                child.visits = child.chances = PRIOR_VISITS
                child.total = PRIOR_VISITS * evaluate(engine, engine.apply(first, action))[seat]
        if self.spec.seconds > 0:
            end = time.perf_counter() + self.spec.seconds
            self._iterate(engine, root, self.deal(dealer))
            while time.perf_counter() < end:
                self._iterate(engine, root, self.deal(dealer))
        else:
            for _ in range(self.iterations):
                self._iterate(engine, root, self.deal(dealer))
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def deal(self, dealer: Dealer) -> State:
        """One state consistent with the view (the only states searched)."""
        self.samples += 1
        return dealer.deal(self.rng)

    def _iterate(self, engine: Engine, root: Node, state: State) -> None:
        self.iterations_made += 1
        node, path = root, []
        while not engine.is_over(state):
            actions = engine.legal_actions(state)
            mover = engine.current_player(state)
            untried = [a for a in actions if a not in node.children]
            for action in actions:
                if action in node.children:
                    node.children[action].chances += 1
            if untried:
                action = self.rng.choice(untried)
                child = node.children[action] = Node(mover)
                child.chances = 1
                state = engine.apply(state, action)
                path.append(child)
                break
            action = max(actions, key=lambda a: node.children[a].uct())
            node = node.children[action]
            state = engine.apply(state, action)
            path.append(node)
        if self.spec.rollout == "uniform":
            while not engine.is_over(state):
                state = engine.apply(state, self.rng.choice(engine.legal_actions(state)))
        for _ in range(ROLLOUT_PLIES):
            if engine.is_over(state):
                break
            state = self._rollout_move(engine, state)
        rewards = evaluate(engine, state)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.mover]

    def _rollout_move(self, engine: Engine, state: State) -> State:
        actions = engine.legal_actions(state)
        if ROLLOUT_CANDIDATES <= 1 or len(actions) == 1:
            return engine.apply(state, self.rng.choice(actions))
        mover = engine.current_player(state)
        candidates = [
            engine.apply(state, self.rng.choice(actions)) for _ in range(ROLLOUT_CANDIDATES)
        ]
        return max(candidates, key=lambda after: engine.scores(after)[mover])
