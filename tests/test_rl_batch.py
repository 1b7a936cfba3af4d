"""The batched native environment (docs/rl.md): N games stepped in C give what
stepping each game through the engine API gives, index by index."""

from __future__ import annotations

import random

import pytest
from edition_facts import rl_editions

from splendor_rules.compiler.runtime.loading import (
    EngineUnavailable,
    load_engine,
    native_editions,
)
from splendor_rules.compiler.tools.rl.game import Game
from splendor_rules.compiler.tools.rl.observation import encode

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")


def _native(edition: str) -> None:
    try:
        load_engine(edition, "native")
    except EngineUnavailable as error:
        pytest.skip(str(error))


def _batch(edition: str, games: int, players: int, seed: int):  # type: ignore[no-untyped-def]
    from splendor_rules.compiler.tools.rl.adapters.batch_env import BatchEnv

    return BatchEnv(edition, games, players, seed=seed)


@pytest.mark.parametrize("edition", rl_editions(native_editions()))
def test_the_batch_steps_as_the_engine_api_does(edition: str) -> None:
    _native(edition)
    engine = load_engine(edition, "native")
    players = list(engine.PLAYERS)
    for count in (players[0], players[-1]):
        games, seed = 6, 40
        batch = _batch(edition, games, count, seed)
        alone = [Game(engine, count, seed=seed + i) for i in range(games)]
        deals = [0] * games
        rng = random.Random(count)
        for _ in range(300):
            assert batch.to_move().tolist() == [game.to_move for game in alone]
            for i, game in enumerate(alone):
                assert batch.masks[i].tolist() == game.mask()
                assert batch.observations[i].tolist() == game.observe(game.to_move)
            actions = [rng.choice(game.legal()) for game in alone]
            batch.step(actions)
            for i, (game, action) in enumerate(zip(alone, actions, strict=True)):
                game.step(action)
                assert bool(batch.dones[i]) == game.over
                if game.over:
                    assert batch.rewards[i].tolist() == game.rewards()
                    deals[i] += 1
                    game.reset(seed + i + deals[i] * games)
                else:
                    assert not batch.rewards[i].any()
        assert sum(deals) > 0


@pytest.mark.parametrize("edition", rl_editions(native_editions()))
def test_random_decisions_are_legal_and_games_end(edition: str) -> None:
    _native(edition)
    engine = load_engine(edition, "native")
    batch = _batch(edition, 16, engine.PLAYERS.start, 7)
    ended = 0
    for _ in range(300):
        batch.step()
        ended += int(batch.dones.sum())
        done = batch.rewards[batch.dones == 1]
        assert all(sorted(set(row.tolist())) in ([0.0], [-1.0, 1.0]) for row in done)
    assert ended > 0
    # Each game's tensor is its state's, as the engine's view shows it.
    layout = batch.layout
    choosing = layout.at["choosing"]
    for i in range(batch.games):
        state = batch.state(i)
        seat = engine.current_player(state)
        mine = batch.observations[i].tolist()
        theirs = encode(layout, engine.view(state, seat), seat)
        assert mine[: choosing.start] == theirs[: choosing.start]


def test_an_illegal_action_moves_no_game() -> None:
    _native("classic")
    batch = _batch("classic", 3, 2, 0)
    before = [batch.engine.to_json(batch.state(i)) for i in range(3)]
    actions = [int(np.flatnonzero(batch.masks[i])[0]) for i in range(3)]
    actions[2] = int(np.flatnonzero(batch.masks[2] == 0)[0])
    with pytest.raises(ValueError, match="not legal in game 2"):
        batch.step(actions)
    assert [batch.engine.to_json(batch.state(i)) for i in range(3)] == before
    with pytest.raises(ValueError, match="one action per game"):
        batch.step([0])


def test_bench_times_alpha_zero_general_only_from_a_folder_of_its_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`rl bench --azg FOLDER`: a folder without alpha-zero-general's files (or no
    numba) is a line saying the figure is skipped and why; a folder that does not
    exist is a command-line error (exit 2)."""
    from click.testing import CliRunner

    from splendor_rules.compiler import cli

    edition = native_editions()[0]
    _native(edition)
    result = CliRunner().invoke(cli.main, ["rl", "bench", edition, "-g", "4", "--seconds", "0.01",
                                           "--azg", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "batch of 4, random actions" in lines[1]
    assert lines[-1].startswith("  skipped: No module named")
    missing = CliRunner().invoke(cli.main, ["rl", "bench", edition, "--azg", str(tmp_path / "no")])
    assert missing.exit_code == 2
