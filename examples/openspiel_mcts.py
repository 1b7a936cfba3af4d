"""OpenSpiel's own MCTS bot, playing classic through the OpenSpiel adapter,
against this project's `mcts` bot of `simulate` (docs/rl.md).

OpenSpiel's bot searches the adapter's states (a random rollout per
simulation), seeing the true state as OpenSpiel's MCTS does; the project's
bot searches states dealt from its seat's view. Seats alternate game by
game; the win rate's interval is `simulate`'s Wilson interval.

    python examples/openspiel_mcts.py --games 10 --simulations 50 --iterations 50
"""

from __future__ import annotations

import argparse
import functools
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from splendor_rules.compiler.tools.rl.adapters.openspiel_game import register
from splendor_rules.compiler.tools.simulate.bots import bot_factory
from splendor_rules.compiler.tools.simulate.stats import wilson


def play(game: pyspiel.Game, args: argparse.Namespace, index: int) -> int | None:
    """One game; the seat that won, or None for a draw."""
    spiel_seat = index % 2
    rng = np.random.RandomState(args.seed + index)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    spiel = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                         evaluator=evaluator, random_state=rng)
    ours = bot_factory(f"mcts:{args.iterations}")(f"{args.seed}:{index}")
    state = game.new_initial_state()
    state.apply_action(args.seed + index)  # the deal: new_game(2, seed + index)
    while not state.is_terminal():
        core = state.core
        if state.current_player() == spiel_seat:
            state.apply_action(spiel.step(state))
            continue
        seat = core.to_move
        move = ours.choose(core.engine, seat, list(core.choosing.legal),
                           functools.partial(core.engine.view, core.state, seat))
        for action in core.choosing.decisions(move):  # a seat's move starts unchosen
            state.apply_action(action)
    returns = state.returns()
    best = [s for s in range(2) if returns[s] > 0]
    return best[0] if best else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=100,
                        help="OpenSpiel MCTS simulations a decision")
    parser.add_argument("--iterations", type=int, default=100,
                        help="iterations a move of the project's mcts bot")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    register(["classic"])
    game = pyspiel.load_game("splendor_rules_classic", {"players": 2})
    start = time.process_time()
    spiel_wins = ours_wins = draws = 0
    for index in range(args.games):
        winner = play(game, args, index)
        if winner is None:
            draws += 1
        elif winner == index % 2:
            spiel_wins += 1
        else:
            ours_wins += 1
        name = "none" if winner is None else "OpenSpiel MCTS" if winner == index % 2 else "mcts"
        print(f"game {index}: OpenSpiel MCTS in seat {index % 2}, winner: {name}")
    low, high = wilson(spiel_wins, args.games)
    print(f"OpenSpiel MCTS ({args.simulations} simulations) won {spiel_wins}/{args.games} "
          f"(95% interval {low:.0%} to {high:.0%}); mcts:{args.iterations} won {ours_wins}; "
          f"draws {draws}; {time.process_time() - start:.0f} s of CPU time")


if __name__ == "__main__":
    main()
