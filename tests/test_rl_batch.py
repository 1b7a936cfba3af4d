"""The batched native environment (docs/rl.md): N games stepped in C give what
stepping each game through the engine API gives, index by index."""

from __future__ import annotations

import random
from pathlib import Path

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


@pytest.mark.parametrize("dtype", ["int16", "int32"])
def test_a_wider_tensor_type_holds_the_same_numbers(dtype: str) -> None:
    """Every edition's tensor is int8 today; the C code writes int16 and int32
    too, for a table that says so: the same numbers, in the batch and in
    `_observe`."""
    _native("classic")
    from splendor_rules.compiler.runtime.loading import native_extension
    from splendor_rules.compiler.tools.rl.batch import HEADER

    narrow, wide = _batch("classic", 5, 2, 3), _batch("classic", 5, 2, 3)
    wide.table[HEADER.index("itemsize")] = np.dtype(dtype).itemsize
    wide.observations = np.zeros(narrow.observations.shape, dtype=dtype)
    wide.reset(3)
    for _ in range(60):
        assert wide.observations.tolist() == narrow.observations.tolist()
        actions = narrow.masks.argmax(axis=1)
        narrow.step(actions)
        wide.step(actions)
    observe = native_extension("classic")._observe
    none = np.zeros(0, dtype=np.int32)
    for i in range(5):
        for seat in range(2):
            short = np.zeros(narrow.layout.size, dtype=narrow.layout.dtype)
            long = np.zeros(narrow.layout.size, dtype=dtype)
            observe(narrow.state(i), narrow.table, none, seat, short)
            observe(narrow.state(i), wide.table, none, seat, long)
            assert long.tolist() == short.tolist()
    odd = wide.table.copy()
    odd[HEADER.index("itemsize")] = 3
    with pytest.raises(ValueError, match="not this state's"):
        observe(narrow.state(0), odd, none, 0, np.zeros(3 * narrow.layout.size, dtype=np.int8))


def test_an_action_space_past_16_bits_is_refused() -> None:
    """A game's memo keeps atoms in 16 bits: a table with more actions is a
    ValueError, not atoms cut short."""
    _native("classic")
    from splendor_rules.compiler.tools.rl.batch import HEADER

    batch = _batch("classic", 2, 2, 0)
    table = batch.table.copy()
    table[HEADER.index("actions")] = 40_000
    with pytest.raises(ValueError, match="more than 32,767 actions"):
        batch._c._batch_step(batch._games, table, batch._random, batch.observations,
                             batch.masks, batch.rewards, batch.dones)


def test_a_table_whose_zones_differ_from_the_engine_is_refused() -> None:
    """The writer takes the zones' places as its build's constants: a table
    that places a card zone elsewhere is a ValueError, with no tensor written
    by it, in the batch and in `_observe`."""
    _native("classic")
    from splendor_rules.compiler.tools.rl.batch import HEADER

    batch = _batch("classic", 2, 2, 0)
    table = batch.table.copy()
    table[HEADER.index("card_zones")] += 1
    with pytest.raises(ValueError, match="not this engine's"):
        batch._c._batch_step(batch._games, table, batch._random, batch.observations,
                             batch.masks, batch.rewards, batch.dones)
    out = np.zeros(batch.layout.size, dtype=batch.layout.dtype)
    with pytest.raises(ValueError, match="not this state's"):
        batch._c._observe(batch.state(0), table, np.zeros(0, dtype=np.int32), 0, out)
    assert not out.any()


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


def test_the_batch_steps_several_actions_a_turn(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The favours variant (actions before the main one, extra turns): the
    batch, which makes moves through the C engine's make_move, steps as the
    engine API does."""
    from engine_modules import native_engine_module

    from splendor_rules.compiler.frontend.pipeline import compile_file
    from splendor_rules.compiler.tools.rl.adapters import batch_env

    path = Path(__file__).resolve().parent / "variants" / "favours.rules"
    model = compile_file(path).model
    assert model is not None
    native = native_engine_module(model, tmp_path)
    monkeypatch.setattr(batch_env, "load_engine", lambda edition, kind: native)
    monkeypatch.setattr(batch_env, "native_extension", lambda edition: native._c)
    games, seed = 4, 3
    batch = _batch(model.name, games, 2, seed)
    alone = [Game(native, 2, seed=seed + i) for i in range(games)]
    rng = random.Random(5)
    names: set[str] = set()
    for _ in range(150):
        for i, game in enumerate(alone):
            assert batch.masks[i].tolist() == game.mask()
            assert batch.observations[i].tolist() == game.observe(game.to_move)
        actions = [rng.choice(game.legal()) for game in alone]
        batch.step(actions)
        for i, (game, action) in enumerate(zip(alone, actions, strict=True)):
            made = game.step(action)
            if made is not None:
                names.add(made[0])
            assert bool(batch.dones[i]) == game.over
            if game.over:
                game.reset(seed + i + games)
    assert "spend" in names


@pytest.mark.parametrize(("variant", "names"), [
    ("players", {"rob"}), ("chosen_sets", {"tax", "take_cells", "levy.p"})])
def test_the_batch_encodes_players_and_cells_chosen_as_the_engine_api_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str, names: set[str]
) -> None:
    """A move choosing a player (a seat relative to the seat choosing), a set
    of players and a set of cells chosen distinct (an atom each, then the
    end): the batch's masks and tensors are those of stepping each game
    through the engine API, at every player count."""
    from engine_modules import native_engine_module

    from splendor_rules.compiler.frontend.pipeline import compile_file
    from splendor_rules.compiler.tools.rl.adapters import batch_env

    model = compile_file(Path(__file__).resolve().parent / "variants" / f"{variant}.rules").model
    assert model is not None
    native = native_engine_module(model, tmp_path)
    monkeypatch.setattr(batch_env, "load_engine", lambda edition, kind: native)
    monkeypatch.setattr(batch_env, "native_extension", lambda edition: native._c)
    made: set[str] = set()
    for players in (2, 3, 4):
        games, seed = 4, 40 + players
        batch = _batch(model.name, games, players, seed)
        alone = [Game(native, players, seed=seed + i) for i in range(games)]
        rng = random.Random(players)
        deals = [0] * games
        choosing = batch.layout.at["choosing"]
        for _ in range(400):
            for i, game in enumerate(alone):
                assert batch.masks[i].tolist() == game.mask()
                seat = game.to_move
                tensor = game.observe(seat)  # the C code's (`_observe`)
                assert batch.observations[i].tolist() == tensor
                # mid-move too, the atoms chosen so far shown as the view's encode shows them
                assert tensor == encode(game.layout, native.view(game.state, seat), seat,
                                        game.choosing.prefix)
                shown = tensor[choosing.start:choosing.start + choosing.size]
                counts = game.space.shared.get("count")
                assert {a for a, x in enumerate(shown) if x} == {
                    a for a in game.choosing.prefix
                    if counts is None or not counts.start <= a < counts.start + counts.size}
            actions = [rng.choice(game.legal()) for game in alone]
            batch.step(actions)
            for i, (game, action) in enumerate(zip(alone, actions, strict=True)):
                move = game.step(action)
                if move is not None:
                    made.add(move[0])
                assert bool(batch.dones[i]) == game.over
                if game.over:
                    assert batch.rewards[i].tolist() == game.rewards()
                    deals[i] += 1
                    game.reset(seed + i + deals[i] * games)
    assert names <= made, names - made
