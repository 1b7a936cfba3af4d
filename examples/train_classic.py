"""Train a policy for classic Splendor with the batched native environment
(numpy alone), then measure it against `random` (docs/rl.md).

The policy is linear: a softmax over the legal indices of the action space,
its logits a weight matrix times the seat's observation tensor (scaled) plus
a bias. It is trained by REINFORCE with a running baseline, playing seat 0
of every game of the batch while the other seat plays uniformly random
decisions (drawn in C: action -1). Evaluation plays new deals, the policy
in seat 0 of half the games and seat 1 of the other half, choosing its most
likely index, against random decisions; the win rate's 95% interval is the
Wilson interval of `simulate`'s statistics, and the test beside it is
`simulate`'s two-proportion test against random-against-random on the same
deals.

    python examples/train_classic.py                       # the full run of docs/rl.md
    python examples/train_classic.py --iterations 5 --eval 200   # a quick one (CI)
"""

from __future__ import annotations

import argparse
import os
import time

# One core: numpy's BLAS threads only contend for it on small products.
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

import numpy as np  # noqa: E402

from splendor_rules.compiler.tools.rl.adapters.batch_env import BatchEnv  # noqa: E402
from splendor_rules.compiler.tools.simulate.stats import two_proportion_test, wilson  # noqa: E402


def features(env: BatchEnv, observations: np.ndarray) -> np.ndarray:
    """The tensor scaled to about 0..1 (the turn by 50, counts by 5)."""
    x = observations.astype(np.float32) / 5.0
    turn = env.layout.at["turn"].start
    x[:, turn] = observations[:, turn] / 50.0
    return x


def policy(weights: np.ndarray, bias: np.ndarray, x: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The probability of each index, zero where it is not legal."""
    logits = x @ weights + bias
    logits = np.where(masks > 0, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cumulative = p.cumsum(axis=1)
    draws = rng.random((p.shape[0], 1)) * cumulative[:, -1:]
    return (cumulative < draws).sum(axis=1).clip(0, p.shape[1] - 1).astype(np.int32)


def train(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(args.seed)
    env = BatchEnv("classic", args.games, 2, seed=args.seed)
    size, actions = env.layout.size, env.space.size
    weights = np.zeros((size, actions), dtype=np.float32)
    bias = np.zeros(actions, dtype=np.float32)
    baseline = 0.0
    episode = np.arange(args.games)  # each game's episode number
    next_episode = args.games
    for iteration in range(args.iterations):
        # The decisions in seat 0, as arrays per step: features, probabilities,
        # the index chosen and the episode; each episode's reward once it ends.
        xs, ps, picks, episodes = [], [], [], []
        reward: dict[int, float] = {}
        while len(reward) < args.games:
            seats = env.to_move()
            mine = np.flatnonzero(seats == 0)
            chosen = np.full(args.games, -1, dtype=np.int32)
            if mine.size:
                x = features(env, env.observations[mine])
                p = policy(weights, bias, x, env.masks[mine])
                pick = sample(p, rng)
                chosen[mine] = pick
                xs.append(x)
                ps.append(p)
                picks.append(pick)
                episodes.append(episode[mine])
            _, _, rewards, dones = env.step(chosen)
            for game in np.flatnonzero(dones):
                reward[int(episode[game])] = float(rewards[game, 0])
                episode[game] = next_episode
                next_episode += 1
        x, p = np.concatenate(xs), np.concatenate(ps)
        pick, owner = np.concatenate(picks), np.concatenate(episodes)
        ended = np.array([e in reward for e in owner.tolist()])
        advantage = np.array([reward.get(e, baseline) for e in owner.tolist()]) - baseline
        advantage = np.where(ended, advantage, 0.0).astype(np.float32)
        p[np.arange(len(pick)), pick] -= 1.0  # p - onehot: the gradient of -log p
        weights -= args.rate * (x.T * advantage) @ p / len(reward)
        bias -= args.rate * (advantage @ p) / len(reward)
        returns = np.array(list(reward.values()))
        baseline = 0.9 * baseline + 0.1 * float(returns.mean())
        if iteration % max(1, args.iterations // 10) == 0 or iteration == args.iterations - 1:
            wins = float((returns > 0).mean())
            print(f"iteration {iteration:4d}: {len(reward)} games, won {wins:.1%} in training")
    return weights, bias


def evaluate(args: argparse.Namespace, weights: np.ndarray | None,
             bias: np.ndarray | None) -> tuple[int, int]:
    """Games won by the policy (or, without one, by a random player in its
    seat) over `args.eval` new deals, in seat 0 of even games and 1 of odd ones."""
    env = BatchEnv("classic", args.eval, 2, seed=10**9 + args.seed)
    seat = np.arange(args.eval) % 2
    done = np.zeros(args.eval, dtype=bool)
    won = 0
    while not done.all():
        seats = env.to_move()
        chosen = np.full(args.eval, -1, dtype=np.int32)
        mine = np.flatnonzero((seats == seat) & ~done)
        if weights is not None and bias is not None and mine.size:
            p = policy(weights, bias, features(env, env.observations[mine]), env.masks[mine])
            chosen[mine] = p.argmax(axis=1)
        _, _, rewards, dones = env.step(chosen)
        for game in np.flatnonzero((dones > 0) & ~done):
            won += int(rewards[game, seat[game]] > 0)
            done[game] = True
    return won, args.eval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=256, help="games in the training batch")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--rate", type=float, default=0.05, help="learning rate")
    parser.add_argument("--eval", type=int, default=2000, help="games to evaluate on")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.process_time()
    weights, bias = train(args)
    trained = time.process_time() - start
    won, games = evaluate(args, weights, bias)
    base, _ = evaluate(args, None, None)
    low, high = wilson(won, games)
    base_low, base_high = wilson(base, games)
    _, p_value = two_proportion_test(won, games, base, games)
    print(f"trained in {trained:.0f} s of CPU time ({args.iterations} iterations of "
          f"{args.games} games)")
    print(f"policy vs random: won {won}/{games} = {won / games:.1%} "
          f"(95% interval {low:.1%} to {high:.1%})")
    print(f"random vs random: won {base}/{games} = {base / games:.1%} "
          f"(95% interval {base_low:.1%} to {base_high:.1%})")
    shown = f"{p_value:.3g}" if p_value > 0 else "< 1e-16 (below double precision)"
    print(f"two-proportion test, policy against random in the same seats: p = {shown}")


if __name__ == "__main__":
    main()
