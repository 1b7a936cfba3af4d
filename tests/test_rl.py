"""The research interface (issue 23, docs/rl.md): the fixed action space and the
observation tensors, on every edition, read from each engine's description."""

from __future__ import annotations

import copy
import itertools
import random
import re
from pathlib import Path
from typing import Any

import pytest
from edition_facts import rl_editions
from engine_modules import checked_model, engine_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import (
    EngineUnavailable,
    generated_editions,
    load_engine,
)
from splendor_rules.compiler.tools.rl.actions import ActionSpace, Choosing, refusal
from splendor_rules.compiler.tools.rl.batch import table
from splendor_rules.compiler.tools.rl.game import Game
from splendor_rules.compiler.tools.rl.observation import Layout, encode

EDITIONS = rl_editions(generated_editions())
# Variants whose moves choose a player (players.rules: `rob`), a set of players
# and a set of cells chosen distinct (chosen_sets.rules: `tax`, `take_cells`).
VARIANTS = ("players", "chosen_sets")
VARIANT_FOLDER = Path(__file__).resolve().parent / "variants"


def _engine(edition: str) -> Engine:
    """The native engine where built (the fast one), else the generated."""
    try:
        return load_engine(edition, "native")
    except EngineUnavailable:
        return load_engine(edition, "generated")


def _states(engine: Engine, games: int, seed: int) -> list[Any]:
    """States of random games of every player count, every tenth move."""
    rng = random.Random(seed)
    states = []
    for g in range(games):
        players = list(engine.PLAYERS)[g % len(engine.PLAYERS)]
        state = engine.new_game(players, seed + g)
        plies = 0
        while not engine.is_over(state):
            if plies % 10 == 0 or len(engine.legal_actions(state)) > 40:
                states.append(state)
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
            plies += 1
    return states


def _every_path(choosing: Choosing) -> list[tuple[tuple[int, ...], Any]]:
    """Every sequence of indices the choice allows, with the move it ends on."""
    if choosing.move is not None:
        return [((), choosing.move)]
    out = []
    for index in choosing.options:
        branch = choosing.copy()
        branch.choose(index)
        out += [((index, *rest), move) for rest, move in _every_path(branch)]
    return out


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_legal_move_is_one_sequence_of_indices_and_back(edition: str) -> None:
    engine = _engine(edition)
    space = ActionSpace(engine.DESCRIPTION)
    for state in _states(engine, 6, 7):
        legal = engine.legal_actions(state)
        choosing = Choosing(space, legal)
        paths = _every_path(choosing)
        # The choices reach exactly the legal moves, each by one path.
        assert sorted(map(repr, (m for _, m in paths))) == sorted(map(repr, legal))
        assert len({p for p, _ in paths}) == len(paths)
        for path, move in paths:
            assert choosing.decisions(move) == path
            assert all(0 <= i < space.size for i in path)
        # The first decision's mask: the heads of the legal moves, no more.
        assert set(choosing.options) == {space.atoms(m)[0] for m in legal}


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_action_space_is_fixed_by_the_description(edition: str) -> None:
    engine = _engine(edition)
    space = ActionSpace(engine.DESCRIPTION)
    assert space.size == sum(b.size for b in space.blocks)
    starts = [b.start for b in space.blocks]
    assert starts == sorted(starts) and starts[0] == 0
    assert space.label(space.size - 1)
    with pytest.raises(IndexError):
        space.label(space.size)
    assert ActionSpace(load_engine(edition, "generated").DESCRIPTION).size == space.size


def test_an_index_that_is_not_legal_is_refused_and_changes_nothing() -> None:
    game = Game(_engine("classic"), 2, seed=3)
    before = (game.state, list(game.choosing.prefix), game.legal())
    illegal = next(i for i in range(game.space.size) if i not in game.legal())
    with pytest.raises(ValueError, match="not legal"):
        game.step(illegal)
    assert (game.state, list(game.choosing.prefix), game.legal()) == before


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_game_played_by_indices_is_the_engine_s_game(edition: str) -> None:
    """Index by index, the moves applied are those a random bot picks, and the
    game ends with the engine's winners as rewards."""
    engine = _engine(edition)
    players = engine.PLAYERS.start
    game = Game(engine, players, seed=11)
    state = engine.new_game(players, 11)
    rng = random.Random(5)
    while not game.over:
        move = rng.choice(engine.legal_actions(state))
        for index in game.choosing.decisions(move):
            game.step(index)
        state = engine.apply(state, move)
        assert engine.to_json(game.state) == engine.to_json(state)
    winners = engine.winners(state)
    rewards = game.rewards()
    assert sum(r > 0 for r in rewards) in (0, len(winners))
    assert all((r > 0) == (s in winners) for s, r in enumerate(rewards) if r)


def _hide_differently(engine: Engine, form: dict[str, Any], seat: int,
                      rng: random.Random) -> dict[str, Any]:
    """The same state but for what `seat` cannot see: each deck shuffled, each
    card another seat took hidden from a deck swapped with one of that deck,
    and a board's bag drawn from another generator."""
    tier_of = {c: str(d["name"]) for d in engine.DESCRIPTION["decks"] for c in d["cards"]}
    for deck in form["decks"].values():
        rng.shuffle(deck)
    hidden = set(form["hidden"])
    card_zones = {z["name"] for z in engine.DESCRIPTION["zones"] if z["holds"] == "cards"}
    for s, seat_form in enumerate(form["seats"]):
        if s == seat:
            continue
        for name, zone in seat_form["zones"].items():
            if name not in card_zones:  # a tile's number is not a card's
                continue
            for i, card in enumerate(zone):
                deck = form["decks"].get(tier_of.get(card, ""), []) if card in hidden else []
                if deck:
                    j = rng.randrange(len(deck))
                    zone[i], deck[j] = deck[j], card
                    hidden = (hidden - {card}) | {zone[i]}
    form["hidden"] = sorted(hidden)
    if form.get("draws") is not None:  # a board's bag: its next draws are hidden too
        form["draws"] = rng.getrandbits(64)
    return form


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), plies=st.integers(0, 150), seat=st.integers(0, 3))
def test_a_seat_s_tensor_holds_only_what_it_sees(
    edition: str, seed: int, plies: int, seat: int
) -> None:
    engine = _engine(edition)
    players = list(engine.PLAYERS)[seed % len(engine.PLAYERS)]
    seat %= players
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    for _ in range(plies):
        if engine.is_over(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    other = engine.from_json(_hide_differently(engine, engine.to_json(state), seat, rng))
    layout, full = Layout(engine.DESCRIPTION, players), Layout(engine.DESCRIPTION, players,
                                                                full=True)
    seen = encode(layout, engine.view(state, seat), seat)
    assert seen == encode(layout, engine.view(other, seat), seat)
    game = Game(engine, players)  # a native engine's C code writes the tensor: the same
    for each in (state, other):
        game.load(each)
        assert game.observe(seat) == seen
    assert len(seen) == layout.size
    if engine.to_json(other)["decks"] != engine.to_json(state)["decks"]:
        # The full-information tensor does see the difference.
        assert encode(full, engine.to_json(state), seat) != encode(
            full, engine.to_json(other), seat)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_tensor_reads_each_part_of_the_view(edition: str) -> None:
    """Spot checks of the layout against the view: supply, seats' tokens
    relative to the seat observing, the market's cards, the seat to move."""
    engine = _engine(edition)
    players = engine.PLAYERS.start
    game = Game(engine, players, seed=2)
    rng = random.Random(2)
    for _ in range(12):
        game.step(rng.choice(game.legal()))
    layout = game.layout
    for seat in range(players):
        tensor, view = game.observe(seat), engine.view(game.state, seat)
        supply = layout.at["supply"]
        assert tensor[supply.start:supply.start + supply.size] == [
            view["supply"][t] for t in layout.tokens]
        tokens = layout.at["seat_tokens"].start
        k = len(layout.tokens)
        for s in range(players):
            rel = (s - seat) % players
            held = tensor[tokens + rel * k: tokens + rel * k + k]
            assert held == [view["seats"][s]["tokens"].get(t, 0) for t in layout.tokens]
        assert tensor[layout.at["to_move"].start + (game.to_move - seat) % players] == 1
        places = layout.at["cards"].shape[1]
        for row in view["market"].values():
            for card in row:
                if card is not None:
                    assert tensor[layout.at["cards"].start + card * places] == 1


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_native_tensor_is_the_view_s(edition: str) -> None:
    """A native engine writes the tensor in C: the tensor `encode` reads from
    the view, for every seat, mid-move too."""
    engine = _engine(edition)
    players = engine.PLAYERS.stop - 1
    game = Game(engine, players, seed=8)
    rng = random.Random(8)
    for _ in range(300):
        if game.over:
            game.reset(rng.randrange(1000))
        for seat in range(players):
            prefix = game.choosing.prefix if seat == game.to_move else ()
            assert game.observe(seat) == encode(
                game.layout, engine.view(game.state, seat), seat, prefix)
        game.step(rng.choice(game.legal()))


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_layout_names_every_value_once(edition: str) -> None:
    engine = _engine(edition)
    for players in engine.PLAYERS:
        for full in (False, True):
            layout = Layout(engine.DESCRIPTION, players, full=full)
            rows = layout.describe()
            assert rows[0][0] == 0 and rows[-1][1] == layout.size
            assert all(a[1] == b[0] for a, b in itertools.pairwise(rows))
    with pytest.raises(ValueError, match="players"):
        Layout(engine.DESCRIPTION, engine.PLAYERS.stop)


def test_a_set_of_cells_not_in_a_line_is_an_atom_per_cell_then_an_end() -> None:
    """A board's set of cells in a line is one index among its lines; a set
    chosen `distinct` (not in a line) is one atom per cell, by number, then
    the end, as a set of cards is: Duel's take_tokens read as such a set."""
    engine = load_engine("duel", "generated")
    d = copy.deepcopy(engine.DESCRIPTION)
    assert ActionSpace(d).heads["take_tokens"].size == 25 + 72 + 48
    d["board"]["lines"]["moves"].remove("take_tokens")
    space = ActionSpace(d)
    assert space.heads["take_tokens"].size == 1
    cell, end = space.shared["cell"], space.shared["end"]
    assert (cell.size, end.size) == (25, 1)
    head = space.heads["take_tokens"].start
    assert space.atoms(("take_tokens", (12, 2, 7))) == (
        head, cell.start + 2, cell.start + 7, cell.start + 12, end.start)
    assert space.label(cell.start + 7) == "cell: (1, 2)"
    state = engine.new_game(2, 4)
    legal = [m for m in engine.legal_actions(state) if m[0] == "take_tokens"]
    paths = _every_path(Choosing(space, legal))
    assert sorted(map(repr, (m for _, m in paths))) == sorted(map(repr, legal))


def test_a_move_value_of_a_kind_with_no_encoding_is_refused_saying_so() -> None:
    """`refusal` stays for a kind of move value no construct makes yet: a
    description holding one (made by hand here) is refused by the action
    space, the layout and the batch's table alike, saying so."""
    d = copy.deepcopy(load_engine("classic", "generated").DESCRIPTION)
    assert refusal(d) is None
    d["moves"].append({"name": "swap", "kind": "action", "choices": [["ts", "set:tile"]]})
    message = refusal(d)
    assert message == ("classic has moves holding set:tile, which the research interface "
                       "does not encode yet (docs/rl.md)")
    for make in (ActionSpace, lambda d: Layout(d, 2), lambda d: table(d, 2)):
        with pytest.raises(ValueError, match=re.escape(message)):
            make(d)


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The generated engines of VARIANTS, built once for the module."""
    folder = tmp_path_factory.mktemp("rl_variants")
    return {name: engine_module(checked_model(VARIANT_FOLDER / f"{name}.rules"), folder)
            for name in VARIANTS}


def _player_atoms(space: ActionSpace, move: tuple[Any, ...], seat: int,
                  players: int) -> list[int]:
    """The atoms a move's players should have: seats relative to `seat`, less
    1, in the block of the head (the first value) or the shared block."""
    out = []
    for i, ((_, kind), value) in enumerate(zip(space.shapes[move[0]], move[1:], strict=True)):
        start = space.heads[move[0]].start if i == 0 and kind == "player" else (
            space.shared["player"].start if "player" in kind else None)
        if start is None:
            continue
        seats = [value] if kind == "player" else value
        out += sorted(start + (p - seat) % players - 1 for p in seats)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), plies=st.integers(1, 150))
def test_a_move_choosing_players_or_cells_is_its_atoms_and_back(
    variants: dict[str, Any], variant: str, seed: int, players: int, plies: int
) -> None:
    """Over a random game, at each state every legal move -> its atoms -> the
    indices that choose it -> the move again, one sequence of indices per
    move; a player is its seat relative to the seat choosing."""
    engine = variants[variant]
    space = ActionSpace(engine.DESCRIPTION)
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    for _ in range(plies):
        if engine.is_over(state):
            break
        legal = engine.legal_actions(state)
        seat = engine.current_player(state)
        choosing = Choosing(space, legal, seat, players)
        paths = _every_path(choosing)
        assert sorted(map(repr, (m for _, m in paths))) == sorted(map(repr, legal))
        assert len({p for p, _ in paths}) == len(paths)
        atoms = {move: space.atoms(move, seat, players) for move in legal}
        assert len(set(atoms.values())) == len(legal)
        for path, move in paths:
            assert choosing.decisions(move) == path
            assert all(0 <= i < space.size for i in atoms[move])
            head = space.heads[move[0]]
            if move[1:] == (None,):  # a declined follow-up: the last of its head
                assert atoms[move] == (head.start + head.size - 1,)
                continue
            first = space.shapes[move[0]][0][1] if space.shapes[move[0]] else None
            chosen = [i for i in atoms[move] if space.label(i).startswith("player:")
                      or (i == atoms[move][0] and first == "player")]
            assert chosen == _player_atoms(space, move, seat, players)
        state = engine.apply(state, rng.choice(legal))


@pytest.mark.parametrize(("variant", "names"), [
    ("players", {"rob"}), ("chosen_sets", {"tax", "take_cells", "levy.p"})])
def test_the_variants_moves_of_players_and_cells_are_played_by_indices(
    variants: dict[str, Any], variant: str, names: set[str]
) -> None:
    """Games of 3 and 4 players played index by index, random indices: the
    moves choosing players and cells are made, and a player's atom reads the
    same from every seat (`rob seat +1` robs the next player)."""
    engine = variants[variant]
    made: dict[str, list[tuple[int, int, tuple[Any, ...]]]] = {name: [] for name in names}
    for players in (3, 4):
        game = Game(engine, players, seed=players)
        rng = random.Random(players)
        for _ in range(3000):
            if game.over:
                game.reset(rng.randrange(1000))
            seat = game.to_move
            move = game.step(rng.choice(game.legal()))
            if move is not None and move[0] in names:
                made[move[0]].append((seat, players, move))
    assert all(made.values()), {name: len(found) for name, found in made.items()}
    space = ActionSpace(engine.DESCRIPTION)
    for seat, players, move in made.get("rob", []):
        assert space.label(space.atoms(move, seat, players)[0]) == (
            f"rob: rob seat +{(move[1] - seat) % players}")
    with pytest.raises(ValueError, match="choosing itself"):
        space.atoms(("rob", 1, "white") if "rob" in names else ("tax", (1, 2)), 1, 3)
