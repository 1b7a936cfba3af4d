"""The adapters of the `rl` extra (docs/rl.md): each library's own test of an
environment, on every edition (the native engine where built). Skipped, with
the reason, where the extra is not installed (`pip install -e '.[rl]'`)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from edition_facts import rl_editions
from engine_modules import checked_model, engine_module

from splendor_rules.compiler.runtime.loading import generated_editions

EDITIONS = rl_editions(generated_editions())
PLAYERS_RULES = Path(__file__).resolve().parent / "variants" / "players.rules"


@pytest.fixture
def players_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """tests/variants/players.rules (a move choosing a player) as an edition
    the adapters load by name: its generated engine, for its name."""
    engine = engine_module(checked_model(PLAYERS_RULES), tmp_path)
    name = engine.DESCRIPTION["edition"]

    def engine_for(edition: str, kind: Any = None) -> Any:
        assert edition == name
        return engine

    for adapter in ("pettingzoo_env", "gymnasium_env", "openspiel_game"):
        module = pytest.importorskip(f"splendor_rules.compiler.tools.rl.adapters.{adapter}",
                                     reason="the rl extra is not installed")
        monkeypatch.setattr(module, "engine_for", engine_for)
    return str(name)


def test_the_adapters_play_a_variant_whose_moves_choose_a_player(players_variant: str) -> None:
    """players.rules with 3 players (its `rob` chooses a player): PettingZoo's
    api_test, Gymnasium's check_env and OpenSpiel's random simulation."""
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from splendor_rules.compiler.tools.rl.adapters.gymnasium_env import SplendorGym
    from splendor_rules.compiler.tools.rl.adapters.openspiel_game import register
    from splendor_rules.compiler.tools.rl.adapters.pettingzoo_env import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # as in the tests below
        api_test(env(players_variant, 3), num_cycles=300, verbose_progress=False)
        check_env(SplendorGym(players_variant, 3, opponent="random"), skip_render_check=True)
    name = f"splendor_rules_{players_variant}"
    assert name in register([players_variant])
    game = pyspiel.load_game(name, {"players": 3})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    assert game.num_distinct_actions() == 372


@pytest.mark.parametrize("edition", EDITIONS)
def test_pettingzoo_api_test(edition: str) -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    from pettingzoo.test import api_test

    from splendor_rules.compiler.tools.rl.adapters.pettingzoo_env import env

    with warnings.catch_warnings():
        # Its warnings: a dict observation (the action mask beside the tensor), as
        # PettingZoo's own board games have.
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(edition, 2), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("edition", EDITIONS)
def test_gymnasium_check_env(edition: str) -> None:
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from gymnasium.utils.env_checker import check_env

    from splendor_rules.compiler.tools.rl.adapters.gymnasium_env import SplendorGym

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no spec: not made by gymnasium.make
        check_env(SplendorGym(edition, 2, opponent="random"), skip_render_check=True)


def test_gymnasium_plays_a_seat_to_the_end_against_a_bot() -> None:
    np = pytest.importorskip("numpy", reason="the rl extra is not installed")
    pytest.importorskip("gymnasium", reason="the rl extra is not installed")
    from splendor_rules.compiler.tools.rl.adapters.gymnasium_env import SplendorGym

    env = SplendorGym("classic", 3, seat=1, opponent="greedy")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    done, reward, decisions = False, 0.0, 0
    while not done:
        assert env.game.to_move == 1 and obs["action_mask"].any()
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    assert "illegal" not in info and reward in (-1.0, 0.0, 1.0) and env.game.over
    illegal = int(np.flatnonzero(env.reset(seed=5)[0]["action_mask"] == 0)[0])
    assert env.step(illegal)[1:3] == (-1.0, True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_openspiel_random_simulation(edition: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")
    from splendor_rules.compiler.tools.rl.adapters.openspiel_game import register

    name = f"splendor_rules_{edition}"
    assert name in register([edition])
    game = pyspiel.load_game(name, {"players": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    assert game.num_distinct_actions() > 0 and game.observation_tensor_size() > 0
