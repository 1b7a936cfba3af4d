"""Native bots (issue 25): greedy in native code makes the Python greedy's
moves; a native deal shows a seat only what its view shows; the native
search is the Python search's player in distribution and is strong.

The matches are short here; BOTS_LONG=1 plays the issue's full matches
(docs/testing.md, "Native bots": 400 games of mcts:200 native against
Python, 200 of mcts:200 against random and against greedy).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from functools import partial

import pytest
from edition_facts import EDITIONS, engine_or_skip, has_facts

from splendor_rules.compiler.runtime.api import Action, Engine, Json, State
from splendor_rules.compiler.tools.simulate import stats
from splendor_rules.compiler.tools.simulate.bots import (
    BadBotSpec,
    GreedyBot,
    RandomBot,
    parse_bots,
)
from splendor_rules.compiler.tools.simulate.games import chooser, play_game
from splendor_rules.compiler.tools.simulate.hidden import (
    Dealer,
    is_placeholder,
    unseen_cards,
)
from splendor_rules.compiler.tools.simulate.mcts import MctsBot, MctsSpec, parse_mcts
from splendor_rules.compiler.tools.simulate.native import (
    BotEngine,
    NativeGreedyBot,
    NativeMctsBot,
    bot_engine,
)

LONG = os.environ.get("BOTS_LONG") == "1"


def _native(edition: str) -> tuple[Engine, BotEngine]:
    engine = engine_or_skip(edition, "native")
    native = bot_engine(engine)
    assert native is not None, f"{edition}: the native engine has no bots"
    return engine, native


def _positions(engine: Engine, players: int, games: int) -> list[tuple[State, int]]:
    """Every position of a few random games, with the seat to move."""
    if players not in engine.PLAYERS:  # a two-player edition: its own count
        players = min(engine.PLAYERS)
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(players, seed)
        while not engine.is_over(state):
            found.append((state, engine.current_player(state)))
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return found


def _placeholders(view: Json) -> int:
    return sum(
        is_placeholder(item)
        for seat in view["seats"]
        for items in seat["zones"].values()
        for item in items
    )


def _hidden_parts(view: Json, sample: Json) -> list[int]:
    """The cards of a sample where the view shows none: decks and placeholders."""
    cards = [c for deck in sample["decks"].values() for c in deck]
    for seen, dealt in zip(view["seats"], sample["seats"], strict=True):
        for zone, items in seen["zones"].items():
            cards += [
                d for s, d in zip(items, dealt["zones"][zone], strict=True) if is_placeholder(s)
            ]
    return cards


# ---------------------------------------------------------------- greedy


@pytest.mark.parametrize("edition", EDITIONS)
def test_native_greedy_plays_the_python_greedy_games(edition: str) -> None:
    engine, _ = _native(edition)
    for players in sorted({engine.PLAYERS.start, engine.PLAYERS.stop - 1}):
        bots = ("greedy",) * players
        for index in range(2 if players == engine.PLAYERS.start else 1):
            native = play_game(engine, bots, 0, index)
            assert native == play_game(engine, bots, 0, index, python_bots=True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_native_greedy_chooses_and_draws_as_the_python_greedy(edition: str) -> None:
    """Move by move in random positions (many with hidden cards): the same
    move, and the bot's generator left in the same state."""
    engine, native = _native(edition)
    positions = _positions(engine, 3, 2)
    for n, (state, seat) in enumerate(positions[::4]):
        legal = engine.legal_actions(state)
        python, fast = GreedyBot(f"g{n}"), NativeGreedyBot(native, f"g{n}")
        view = partial(engine.view, state, seat)
        assert fast.choose_in(seat, legal, state) == python.choose(engine, seat, legal, view)
        assert fast.rng.getstate() == python.rng.getstate()


# ------------------------------------------------------------- the deal


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_native_deal_shows_what_the_view_shows_and_hides_only_unseen_cards(
    edition: str,
) -> None:
    engine, native = _native(edition)
    positions = _positions(engine, 3, 3)
    assert any(_placeholders(engine.view(s, p)) for s, p in positions[-5:])
    for n, (state, seat) in enumerate(positions[::3]):
        view = engine.view(state, seat)
        sample = native.bot_deal(state, seat, n)
        assert engine.view(sample, seat) == view
        form = engine.to_json(sample)
        unseen = {c for cards in unseen_cards(engine, view).values() for c in cards}
        hidden = _hidden_parts(view, form)
        assert len(hidden) == len(set(hidden)) and set(hidden) <= unseen
        if has_facts(edition):  # no card of classic or Marvel leaves the game
            assert set(hidden) == unseen
        assert engine.legal_actions(sample) == engine.legal_actions(state)
        # a state the engine makes from its JSON form: its aggregates kept right
        assert engine.from_json(form, complete=False) == sample


@pytest.mark.parametrize("edition", EDITIONS)
def test_native_bots_choose_alike_in_states_their_seat_cannot_tell_apart(edition: str) -> None:
    """Two true states with the same view (other deals of it): the same deal,
    the same search and the same greedy move, so nothing hidden is read."""
    engine, native = _native(edition)
    positions = [(s, p) for s, p in _positions(engine, 2, 3) if _placeholders(engine.view(s, p))]
    assert positions
    for state, seat in positions[:: max(1, len(positions) // 4)]:
        view = engine.view(state, seat)
        twins = [Dealer(engine, view).deal(random.Random(n)) for n in range(2)]
        assert engine.to_json(twins[0]) != engine.to_json(twins[1])
        assert len({str(engine.to_json(native.bot_deal(t, seat, 5))) for t in twins}) == 1
        twister = random.Random("t").getstate()[1]
        assert len({native.bot_greedy(t, seat, twister) for t in twins}) == 1
        for uniform in (False, True):
            assert len({native.bot_mcts(t, seat, 12, 0.0, uniform, 3) for t in twins}) == 1


# ------------------------------------------------------------- the search


def test_mcts_specs() -> None:
    assert parse_mcts("") == MctsSpec(200, 0.0, "best2")
    assert parse_mcts("50ms") == MctsSpec(0, 0.05, "best2")
    assert parse_mcts("30:uniform") == MctsSpec(30, 0.0, "uniform")
    assert parse_mcts("uniform") == MctsSpec(200, 0.0, "uniform")
    assert parse_bots("mcts:50ms,mcts:20:uniform", 2) == ("mcts:50ms", "mcts:20:uniform")
    for wrong in ("mcts:0ms", "mcts:ms", "mcts:5:fast", "mcts:5:uniform:uniform", "mcts:-3"):
        with pytest.raises(BadBotSpec):
            parse_bots(wrong, 2)


def test_native_search_iterations_and_time_budget() -> None:
    engine, native = _native("classic")
    state, seat = _positions(engine, 2, 1)[20]
    legal = engine.legal_actions(state)
    index, made = native.bot_mcts(state, seat, 37, 0.0, False, 1)
    assert made == 37 and 0 <= index < len(legal)
    assert native.bot_mcts(state, seat, 37, 0.0, False, 1) == (index, made)  # seeded
    _, timed = native.bot_mcts(state, seat, 0, 0.002, False, 1)
    assert timed >= 1
    with pytest.raises(ValueError, match="seat"):
        native.bot_mcts(state, 1 - seat, 5, 0.0, False, 1)
    with pytest.raises(ValueError, match="iteration"):
        native.bot_mcts(state, seat, 0, 0.0, False, 1)


def test_python_search_takes_a_time_budget_and_uniform_rollouts() -> None:
    engine = engine_or_skip("classic", "generated")
    state, seat = _positions(engine, 2, 1)[20]
    legal = engine.legal_actions(state)
    for spec in (MctsSpec(0, 0.001, "best2"), MctsSpec(3, 0.0, "uniform")):
        bot = MctsBot("s", spec=spec)
        assert bot.choose(engine, seat, legal, lambda: engine.view(state, seat)) in legal
        assert bot.samples >= 2  # the first deal, then at least one iteration


Maker = Callable[[str], object]


def _game(engine: Engine, first: Maker, second: Maker, seed: int, index: int) -> bool:
    """Game `index` of a match (`first` in seat 1 of the odd games): whether
    `first` won it (a shared win counts)."""
    swap = index % 2
    makers = (second, first) if swap else (first, second)
    bots = [make(f"{seed}/{index}/{s}") for s, make in enumerate(makers)]
    choosers = [chooser(engine, bot) for bot in bots]  # type: ignore[arg-type]
    state = engine.new_game(2, seed + index)
    while not engine.is_over(state):
        seat = engine.current_player(state)
        action: Action = choosers[seat](seat, engine.legal_actions(state), state)
        state = engine.apply(state, action)
    return swap in engine.winners(state)


def _match(engine: Engine, first: Maker, second: Maker, games: int, seed: int) -> tuple[int, int]:
    """`first` against `second`, each in each seat for half the games: the
    games `first` won and those played."""
    return sum(_game(engine, first, second, seed, index) for index in range(games)), games


def _contains(wins: int, games: int, share: float) -> bool:
    low, high = stats.wilson(wins, games)
    return low <= share <= high


def test_native_search_plays_as_the_python_search() -> None:
    """mcts native against mcts in Python, the same iterations: a win share
    whose 95% interval holds 50% (BOTS_LONG: 400 games of mcts:200)."""
    engine, native = _native("classic")
    iterations, games = (200, 400) if LONG else (12, 12)
    spec = MctsSpec(iterations)
    wins, played = _match(
        engine,
        lambda seed: NativeMctsBot(native, seed, spec),
        lambda seed: MctsBot(seed, spec=spec),
        games,
        1000,
    )
    assert _contains(wins, played, 0.5), (wins, played)


def test_native_search_beats_random_and_greedy() -> None:
    """mcts:200 native: at least 90% against random and more than half
    against greedy (BOTS_LONG: 200 games each, the interval's low end)."""
    engine, native = _native("classic")
    games = 200 if LONG else 12
    spec = MctsSpec(200)
    search = lambda seed: NativeMctsBot(native, seed, spec)  # noqa: E731
    wins, played = _match(engine, search, RandomBot, games, 2000)
    low, _ = stats.wilson(wins, played)
    assert (low if LONG else wins / played) >= 0.9, (wins, played)
    wins, played = _match(engine, search, lambda seed: NativeGreedyBot(native, seed), games, 3000)
    low, _ = stats.wilson(wins, played)
    assert (low if LONG else wins / played) > 0.5, (wins, played)
