"""The engine API of docs/engine.md, on every engine of every edition.

One suite, run on each engine kind (the generated module, the reference
interpreter and the native engine) of each edition found in the editions
folder, all typed as the `Engine` Protocol; a native case skips where its
engine is not built. Positions are built from the public JSON form: `to_json`
of a new game, edited, then `from_json`. Expected values come from
editions/RULES.md (the rule ids are in the test names and docstrings) and the
CSV data (tests/edition_facts.py), never from the engine's internals; a test
that needs them skips an edition they are not stated for.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from edition_facts import (
    CARD_FILES,
    COLOUR_WORDS,
    COST_COLUMNS,
    EDITIONS,
    ENGINES,
    KINDS,
    REQUIRE_COLUMNS,
    TILE_FILES,
    WILD,
    engine_or_skip,
    has_facts,
    read_csv,
    stated_facts,
)

from splendor_rules import generated
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import (
    EngineKind,
    EngineUnavailable,
    load_engine,
)

Json = dict[str, Any]
Case = tuple[str, EngineKind]  # (edition, engine kind)

# --------------------------------------------------------------- the data


class Card(NamedTuple):
    tier: int
    bonus: str
    points: int
    cost: tuple[int, ...]
    avengers: int


class Tile(NamedTuple):
    points: int
    requires: tuple[int, ...]
    physical: int  # the physical tile: faces sharing it are one tile


def cards(edition: str) -> list[Card]:
    words = COLOUR_WORDS[edition]
    return [
        Card(
            int(row["tier"]),
            words[row["bonus"]],
            int(row["points"]),
            tuple(int(row[c]) for c in COST_COLUMNS[edition]),
            int(row.get("avengers", 0)),
        )
        for row in read_csv(CARD_FILES[edition])
    ]


def tiles(edition: str) -> list[Tile]:
    """Tile faces, numbered as docs/engine.md says (faces, then majority tiles)."""
    rows = read_csv(TILE_FILES[edition])
    faces = [
        Tile(
            int(row["points"]),
            tuple(int(row[c]) for c in REQUIRE_COLUMNS[edition]),
            int(row["tile"]) if "tile" in row else i,
        )
        for i, row in enumerate(rows)
    ]
    if edition == "marvel":  # M-3.10: Avengers Assemble, 3 points
        faces.append(Tile(3, (), -1))
    return faces


CARDS = {e: cards(e) for e in EDITIONS if has_facts(e)}
TILES = {e: tiles(e) for e in EDITIONS if has_facts(e)}


# ------------------------------------------------------------ fixtures


@pytest.fixture(params=ENGINES, ids="-".join)
def case(request: pytest.FixtureRequest) -> Case:
    """An edition and an engine kind: every engine of every edition."""
    edition, kind = request.param
    return edition, kind


@pytest.fixture
def engine(case: Case) -> Engine:
    return engine_or_skip(*case)


def ed(engine: Engine) -> str:
    return str(engine.EDITION)


def data_of(engine: Engine, players: int = 2, seed: int = 0, first: int = 0) -> Json:
    return engine.to_json(engine.new_game(players, seed, first))


def tier_of(engine: Engine, card: int) -> int:
    return CARDS[ed(engine)][card].tier


def relocate(engine: Engine, data: Json, card: int, seat: int, zone: str) -> None:
    """Move a card from a deck or the market into a seat's zone (a market
    slot is refilled from its deck, as S-3.6 does)."""
    tier = str(tier_of(engine, card))
    deck, row = data["decks"][tier], data["market"][tier]
    if card in deck:
        deck.remove(card)
    elif card in row:
        row[row.index(card)] = deck.pop() if deck else None
    else:
        raise AssertionError(f"card {card} is neither in a deck nor in the market")
    data["seats"][seat]["zones"][zone].append(card)


def give_tokens(data: Json, seat: int, counts: dict[str, int]) -> None:
    """Move tokens from the supply to a seat (conserving them)."""
    held = data["seats"][seat]["tokens"]
    for kind, n in counts.items():
        assert data["supply"][kind] >= n
        data["supply"][kind] -= n
        held[kind] = held.get(kind, 0) + n
        if held[kind] == 0:
            del held[kind]


def cards_with_bonus(engine: Engine, colour: str, n: int, tier: int = 1) -> list[int]:
    found = [i for i, c in enumerate(CARDS[ed(engine)]) if c.bonus == colour and c.tier == tier]
    return found[:n]


def position(engine: Engine, edit: Callable[[Json], None], **new_game: Any) -> Any:
    data = data_of(engine, **new_game)
    edit(data)
    return engine.from_json(data, complete=False)  # a hand-made position


def allowed(engine: Engine, players: int) -> int:
    """A player count of the edition; a test of another count is skipped."""
    if players not in engine.PLAYERS:
        pytest.skip(f"{ed(engine)} is not for {players} players")
    return players


# ------------------------------------------------------- loader and constants


def test_editions_lists_every_engine():
    names = generated.editions()
    assert set(EDITIONS) <= set(names)
    assert names == sorted(names)


def test_load_edition_of_an_unknown_name_raises_value_error():
    with pytest.raises(ValueError, match="nope"):
        generated.load_edition("nope")


@pytest.mark.parametrize("kind", KINDS)
def test_load_engine_of_an_unknown_name_says_so(kind: EngineKind):
    with pytest.raises(EngineUnavailable, match="nope"):
        load_engine("nope", kind)


def test_engine_constants_are_of_the_documented_types(case: Case, engine: Engine):
    """docs/engine.md, API: EDITION is the edition's name, PLAYERS a range,
    TOKENS the token kinds with the payable COLOURS first; IllegalAction is a
    ValueError. An engine is loaded once per edition and kind."""
    edition, kind = case
    assert load_engine(edition, kind) is engine
    if kind == "generated":
        assert generated.load_edition(edition) is engine
    assert edition == engine.EDITION and isinstance(engine.TITLE, str)
    assert isinstance(engine.PLAYERS, range) and len(engine.PLAYERS) > 0
    assert all(isinstance(token, str) for token in engine.TOKENS)
    assert tuple(engine.TOKENS[: len(engine.COLOURS)]) == tuple(engine.COLOURS)
    assert issubclass(engine.IllegalAction, ValueError)


def test_engine_constants(engine: Engine):
    """EDITION, TITLE, PLAYERS, TOKENS, COLOURS (docs/engine.md, Identities)."""
    name = stated_facts(ed(engine))
    assert {"classic": "Splendor", "marvel": "Splendor: Marvel"}[name] == engine.TITLE
    assert range(2, 5) == engine.PLAYERS
    colours = tuple(COLOUR_WORDS[name].values())
    assert tuple(engine.COLOURS) == colours
    others = {"classic": ("gold",), "marvel": ("shield", "time_stone")}[name]
    assert tuple(engine.TOKENS) == colours + others
    assert issubclass(engine.IllegalAction, ValueError)


# ---------------------------------------------------------------- new_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_is_determined_by_the_seed_E_6_1(engine: Engine, players: int):
    """E-6.1: the same seed gives the same setup; different seeds differ."""
    allowed(engine, players)
    first = engine.to_json(engine.new_game(players, 11))
    assert engine.to_json(engine.new_game(players, 11)) == first
    others = [json.dumps(engine.to_json(engine.new_game(players, s))) for s in range(12, 20)]
    assert json.dumps(first) not in others
    assert len(set(others)) == len(others)


def test_new_game_rejects_a_player_count_the_edition_does_not_allow(engine: Engine):
    """None, one fewer than the fewest, one more than the most (0, 1, 5)."""
    for players in (0, engine.PLAYERS.start - 1, engine.PLAYERS.stop):
        with pytest.raises(ValueError):
            engine.new_game(players, 0)


@pytest.mark.parametrize(("players", "first"), [(2, -1), (2, 2), (3, 3), (4, 7)])
def test_new_game_rejects_a_first_player_out_of_range(engine: Engine, players: int, first: int):
    allowed(engine, players)
    with pytest.raises(ValueError):
        engine.new_game(players, 0, first)


@pytest.mark.parametrize(("players", "first"), [(2, 1), (3, 2), (4, 3)])
def test_the_first_player_is_chosen_at_setup_S_2_4(engine: Engine, players: int, first: int):
    """S-2.4: turn order is fixed; the first player is a seat given at setup."""
    allowed(engine, players)
    state = engine.new_game(players, 5, first)
    assert engine.current_player(state) == first
    data = engine.to_json(state)
    assert data["first_player"] == first and data["current_player"] == first


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_S_2_4(engine: Engine, players: int):
    """S-2.4: players start with nothing; nobody has played; nothing pending."""
    stated_facts(ed(engine))
    state = engine.new_game(players, 3)
    assert engine.current_player(state) == 0
    assert engine.is_over(state) is False
    assert engine.scores(state) == (0,) * players
    assert engine.winners(state) == frozenset()
    data = engine.to_json(state)
    assert data["edition"] == ed(engine)
    assert data["players"] == players
    assert (data["turn"], data["over"], data["last_round"], data["pending"]) == (
        0,
        False,
        False,
        None,
    )
    assert data["hidden"] == []
    assert (
        data["seats"]
        == [{"tokens": {}, "zones": {"bought": [], "reserved": [], "won": []}, "did": []}] * players
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_twelve_cards_face_up_S_2_1(engine: Engine, players: int):
    """S-2.1: each tier's deck is shuffled and 4 of its cards are face up."""
    stated_facts(ed(engine))
    data = data_of(engine, players, seed=players)
    sizes = {"1": 40, "2": 30, "3": 20}
    assert set(data["market"]) == set(sizes) == set(data["decks"])
    for tier, size in sizes.items():
        row, deck = data["market"][tier], data["decks"][tier]
        assert len(row) == 4 and None not in row
        assert len(deck) == size - 4
        assert all(tier_of(engine, k) == int(tier) for k in row + deck)
    everything = [k for t in sizes for k in data["market"][t] + data["decks"][t]]
    assert sorted(everything) == list(range(90))
    # shuffled: not the data order
    assert data["decks"]["1"] != sorted(data["decks"]["1"])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 99, 2**40 + 7])
def test_setup_makes_the_documented_random_draws_E_6_1(engine: Engine, players: int, seed: int):
    """docs/engine.md, Setup: random.Random(seed); each tier's card numbers
    shuffled in ascending tier, slots filled from the top (the list's end);
    then the reveals: nobles shuffled, the first players + 1 kept; Marvel's
    physical location tiles shuffled, the first `players` kept, each face
    picked with randrange. Nothing else draws (E-6.1)."""
    name = stated_facts(ed(engine))
    rng = random.Random(seed)
    decks: dict[str, list[int]] = {}
    market: dict[str, list[int | None]] = {}
    for tier in (1, 2, 3):
        deck = [k for k, c in enumerate(CARDS[name]) if c.tier == tier]
        rng.shuffle(deck)
        market[str(tier)] = [deck.pop() if deck else None for _ in range(4)]
        decks[str(tier)] = deck
    if name == "classic":
        nobles = list(range(10))
        rng.shuffle(nobles)
        expected_tiles = {"noble": nobles[: players + 1]}
    else:
        physical: dict[int, list[int]] = {}
        for face, tile in enumerate(TILES[name][:8]):
            physical.setdefault(tile.physical, []).append(face)
        shuffled = list(physical.values())
        rng.shuffle(shuffled)
        kept = shuffled[:players]
        expected_tiles = {"location": [faces[rng.randrange(len(faces))] for faces in kept]}
    data = data_of(engine, players, seed)
    assert data["decks"] == decks
    assert data["market"] == market
    assert data["tiles"] == expected_tiles


SUPPLY = {  # RULES.md C-2.2 and M-2.2
    "classic": {2: 4, 3: 5, 4: 7},
    "marvel": {2: 4, 3: 5, 4: 7},
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_supply_per_player_count_C_2_2_M_2_2(engine: Engine, players: int):
    """C-2.2: 4/5/7 of each colour, gold 5. M-2.2: the same, S.H.I.E.L.D. 5
    and 2/3/4 time stones."""
    name = stated_facts(ed(engine))
    expected = {c: SUPPLY[name][players] for c in engine.COLOURS}
    expected[WILD[name]] = 5
    if name == "marvel":
        expected["time_stone"] = players
    assert data_of(engine, players)["supply"] == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_revealed_tiles_C_2_3_M_2_3(engine: Engine, players: int):
    """C-2.3: players + 1 nobles at random. M-2.3: as many locations as
    players, one random face of each drawn tile; Avengers Assemble unowned."""
    name = stated_facts(ed(engine))
    faces_seen: set[int] = set()
    sets: set[tuple[int, ...]] = set()
    for seed in range(12):
        data = data_of(engine, players, seed)
        (tile_set,) = data["tiles"].values()
        sets.add(tuple(tile_set))
        if name == "classic":
            assert len(tile_set) == players + 1
            assert all(0 <= t < 10 for t in tile_set)
        else:
            assert len(tile_set) == players
            assert all(0 <= t < 8 for t in tile_set)  # faces only: 8 is Avengers Assemble
            physical = [TILES[name][t].physical for t in tile_set]
            assert len(set(physical)) == len(physical), "two faces of one tile"
            faces_seen |= {t % 2 for t in tile_set}  # faces 2i and 2i+1 share a tile
        assert len(set(tile_set)) == len(tile_set)
        assert all(seat["zones"]["won"] == [] for seat in data["seats"])
    assert len(sets) > 1, "the tiles revealed depend on the seed"
    if name == "marvel":
        assert faces_seen == {0, 1}, "both faces come up"


# ------------------------------------------------------------ legal actions


def expected_main_actions(engine: Engine, data: Json) -> list[tuple[Any, ...]]:
    """The legal actions of a position with nothing pending, in the order of
    docs/engine.md, computed from the JSON form and the data (RULES S-3.1 to
    S-3.5, E-3.8)."""
    name = ed(engine)
    colours = list(engine.COLOURS)
    tokens = list(engine.TOKENS)
    seat = data["seats"][data["current_player"]]
    held = [seat["tokens"].get(t, 0) for t in tokens]
    supply = data["supply"]
    out: list[tuple[Any, ...]] = []
    open_ = [c for c in colours if supply[c] > 0]
    if open_:
        out += [
            ("take_distinct", combo) for combo in itertools.combinations(open_, min(3, len(open_)))
        ]
    out += [("take_two", c) for c in colours if supply[c] >= 4]
    market = [
        k for t in sorted(data["market"], key=int) for k in data["market"][t] if k is not None
    ]
    tops = [("deck", int(t)) for t in sorted(data["decks"], key=int) if data["decks"][t]]
    if len(seat["zones"]["reserved"]) < 3:
        out += [("reserve", k) for k in market + tops]
    bonus = [sum(CARDS[name][k].bonus == c for k in seat["zones"]["bought"]) for c in colours]
    wild_index = tokens.index(WILD[name])
    wild = held[wild_index]
    for k in market + [k for k in seat["zones"]["reserved"]]:
        price = [max(0, c - b) for c, b in zip(CARDS[name][k].cost, bonus, strict=True)]
        ranges = [range(max(0, p - held[i]), p + 1) for i, p in enumerate(price)]
        for split in itertools.product(*ranges):
            if sum(split) <= wild:
                pay = [0] * len(tokens)
                for i, p in enumerate(price):
                    pay[i] = p - split[i]
                pay[wild_index] = sum(split)
                out.append(("buy", k, tuple(pay)))
    return out or [("pass",)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_of_a_new_game_in_documented_order(engine: Engine, players: int):
    """S-3.1 to S-3.5: take three (combinations in colour order), take two,
    reserve (market by tier and slot, then deck tops); nothing to buy yet."""
    stated_facts(ed(engine))
    state = engine.new_game(players, 21)
    legal = engine.legal_actions(state)
    assert legal == expected_main_actions(engine, engine.to_json(state))
    assert len([a for a in legal if a[0] == "take_distinct"]) == 10
    assert not [a for a in legal if a[0] == "buy"]


def test_payments_with_wild_tokens_are_every_split_in_order_S_3_5(engine: Engine):
    """S-3.5: with wild tokens held, each way of paying is its own move, in
    itertools.product order over the colours (wild counts ascending)."""
    stated_facts(ed(engine))
    colours = list(engine.COLOURS)
    wild = WILD[ed(engine)]

    held = {colours[0]: 2, colours[1]: 2, colours[3]: 1, wild: 2}
    # a card whose cost these tokens can pay in several ways: wild tokens
    # may stand in for colours the player also holds
    card = next(
        k
        for k, c in enumerate(CARDS[ed(engine)])
        if c.tier == 1
        and sum(max(0, n - held.get(colour, 0)) for colour, n in zip(colours, c.cost, strict=True))
        <= 1
        and c.cost[0] >= 1
    )

    def edit(data: Json) -> None:
        give_tokens(data, 0, held)
        relocate(engine, data, card, 0, "reserved")

    state = position(engine, edit, seed=8)
    legal = engine.legal_actions(state)
    buys = [a for a in legal if a[0] == "buy"]
    assert len([a for a in buys if a[1] == card]) > 1, "several ways to pay the card"
    assert legal == expected_main_actions(engine, engine.to_json(state))


def test_pass_is_legal_only_when_nothing_else_is_E_3_8(engine: Engine):
    stated_facts(ed(engine))
    state = engine.new_game(2, 0)
    assert ("pass",) not in engine.legal_actions(state)
    with pytest.raises(engine.IllegalAction, match=r"^E-3\.8: "):
        engine.apply(state, ("pass",))


# ------------------------------------------------------------ illegal moves


def test_take_two_with_three_left_names_S_3_3(engine: Engine):
    """S-3.3: take two needs at least 4 of the colour in the supply; the move
    is refused with the rule's message, after its id; the state is unchanged."""
    stated_facts(ed(engine))
    colour = engine.COLOURS[3]  # red / reality

    def edit(data: Json) -> None:
        give_tokens(data, 1, {colour: data["supply"][colour] - 3})

    state = position(engine, edit, players=3, seed=4)
    before = engine.to_json(state)
    assert ("take_two", colour) not in engine.legal_actions(state)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, ("take_two", colour))
    assert str(error.value) == (
        f"S-3.3: take two needs at least 4 {colour} in the supply; there are 3"
    )
    assert isinstance(error.value, ValueError)
    assert engine.to_json(state) == before


@pytest.mark.parametrize("kind", KINDS)
def test_take_two_message_in_classic_is_exactly_the_documented_one(kind: EngineKind):
    engine = engine_or_skip("classic", kind)

    def edit(data: Json) -> None:
        give_tokens(data, 1, {"red": 1})

    state = position(engine, edit, players=2, seed=1)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, ("take_two", "red"))
    assert str(error.value) == "S-3.3: take two needs at least 4 red in the supply; there are 3"


def _three_reserved(engine: Engine) -> Callable[[Json], None]:
    def edit(data: Json) -> None:
        for _ in range(3):
            data["seats"][0]["zones"]["reserved"].append(data["decks"]["3"].pop())

    return edit


RULE_PREFIX = r"^[A-Z]-\d+(\.\d+)*[a-z]?(, [A-Z]-\d+(\.\d+)*[a-z]?)*: "


def illegal_cases() -> list[Any]:
    def not_in_market(engine: Engine, state: Any) -> tuple[Any, ...]:
        data = engine.to_json(state)
        hidden = next(iter(data["decks"]["1"]))
        return ("buy", hidden, (0,) * len(engine.TOKENS))

    def unaffordable(engine: Engine, state: Any) -> tuple[Any, ...]:
        k = engine.to_json(state)["market"]["3"][0]
        return ("buy", k, (0,) * len(engine.TOKENS))

    def wild_as_colour(engine: Engine, state: Any) -> tuple[Any, ...]:
        return ("take_two", WILD[ed(engine)])

    def four_distinct(engine: Engine, state: Any) -> tuple[Any, ...]:
        return ("take_distinct", tuple(engine.COLOURS[:4]))

    def wrong_arity(engine: Engine, state: Any) -> tuple[Any, ...]:
        return ("take_two",)

    def decision_not_pending(engine: Engine, state: Any) -> tuple[Any, ...]:
        return ("token_limit", (0,) * len(engine.TOKENS))

    return [
        pytest.param(not_in_market, r"^S-3\.5: ", id="buy-a-card-not-face-up-S-3.5"),
        pytest.param(unaffordable, r"^S-3\.5: ", id="buy-unaffordable-S-3.5"),
        pytest.param(wild_as_colour, r"^S-3\.3: ", id="take-two-wild-S-3.3"),
        pytest.param(four_distinct, r"^S-3\.2, S-3\.1: ", id="take-four-S-3.2"),
        pytest.param(wrong_arity, r"^S-3\.3: ", id="take-two-no-colour-S-3.3"),
        pytest.param(
            decision_not_pending,
            r"^S-4\.1: ",
            id="return-tokens-nothing-pending-S-4.1",
        ),
    ]


@pytest.mark.parametrize(("make", "prefix"), illegal_cases())
def test_an_illegal_move_names_its_rule_and_changes_nothing(
    engine: Engine, make: Callable[[Engine, Any], tuple[Any, ...]], prefix: str
):
    stated_facts(ed(engine))
    state = engine.new_game(2, 13)
    before = engine.to_json(state)
    action = make(engine, state)
    assert action not in engine.legal_actions(state)
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, action)
    assert re.match(prefix, str(error.value)), str(error.value)
    assert engine.to_json(state) == before


def test_reserving_a_fourth_card_is_refused_S_3_4(engine: Engine):
    """S-3.4: a player holds at most 3 reserved cards."""
    stated_facts(ed(engine))
    state = position(engine, _three_reserved(engine), seed=2)
    assert not [a for a in engine.legal_actions(state) if a[0] == "reserve"]
    k = engine.to_json(state)["market"]["1"][0]
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, ("reserve", k))
    assert str(error.value) == "S-3.4: a player holds at most 3 reserved cards; you hold 3"


@pytest.mark.parametrize(
    "action",
    [("fly",), ("fly", "red"), ("Take_Two", "red"), ("",)],
    ids=["fly", "fly-red", "wrong-case", "empty-name"],
)
def test_an_unknown_action_name_is_illegal(engine: Engine, action: tuple[Any, ...]):
    state = engine.new_game(2, 0)
    before = engine.to_json(state)
    with pytest.raises(engine.IllegalAction):
        engine.apply(state, action)
    assert engine.to_json(state) == before


@pytest.mark.parametrize("action", [(), "take_two", ["take_two", "red"], None, (3, "red")])
def test_a_malformed_action_is_illegal(engine: Engine, action: Any):
    with pytest.raises(engine.IllegalAction):
        engine.apply(engine.new_game(2, 0), action)


def test_an_unknown_action_in_json_is_a_value_error(engine: Engine):
    with pytest.raises(ValueError):
        engine.action_from_json({"action": "fly"})
    with pytest.raises(ValueError):
        engine.action_from_json({"no action": "take_two"})


# ------------------------------------------------------ decisions (S-4.3)


def test_returning_tokens_is_the_players_decision_S_4_1_S_4_3(engine: Engine):
    """S-4.1, S-4.3: above 10 tokens at the end of the turn, the player picks
    which to return: every way, in itertools.product order, is an option."""
    stated_facts(ed(engine))
    colours = list(engine.COLOURS)
    tokens = list(engine.TOKENS)

    def edit(data: Json) -> None:
        give_tokens(data, 0, {c: 2 for c in colours})

    state = position(engine, edit, seed=6)
    state = engine.apply(state, ("take_distinct", tuple(colours[:3])))  # 13 tokens
    data = engine.to_json(state)
    assert data["pending"] == "token_limit"
    assert engine.current_player(state) == 0 and data["turn"] == 0
    held = [data["seats"][0]["tokens"].get(t, 0) for t in tokens]
    assert sum(held) == 13
    ranges = [range(min(n, 3) + 1) for n in held]
    expected = [("token_limit", r) for r in itertools.product(*ranges) if sum(r) == 3]
    assert engine.legal_actions(state) == expected
    # anything else waits for the decision
    with pytest.raises(engine.IllegalAction, match=r"^S-4\.1: "):
        engine.apply(state, ("take_two", colours[4]))
    choice = expected[len(expected) // 2]
    after = engine.apply(state, choice)
    seat = engine.to_json(after)["seats"][0]["tokens"]
    assert sum(seat.values()) == 10
    assert [seat.get(t, 0) for t in tokens] == [h - r for h, r in zip(held, choice[1], strict=True)]
    assert engine.current_player(after) == 1
    assert engine.to_json(after)["pending"] is None
    assert engine.to_json(after)["turn"] == 1


@pytest.mark.parametrize("kind", KINDS)
def test_the_time_stone_is_never_returned_M_4_1a(kind: EngineKind):
    """M-4.1a: the time stone counts toward the 10 but is never returned."""
    engine = engine_or_skip("marvel", kind)
    colours = list(engine.COLOURS)

    def edit(data: Json) -> None:
        give_tokens(data, 0, {"time_stone": 1, "mind": 2, "space": 2, "soul": 2, "reality": 3})

    state = engine.apply(position(engine, edit, seed=6), ("take_two", "power"))  # 12 tokens
    held = engine.to_json(state)["seats"][0]["tokens"]
    assert held == {"time_stone": 1, "mind": 2, "space": 2, "soul": 2, "reality": 3, "power": 2}
    ranges = [
        range(1) if t == "time_stone" else range(min(held.get(t, 0), 2) + 1) for t in engine.TOKENS
    ]
    expected = [("token_limit", r) for r in itertools.product(*ranges) if sum(r) == 2]
    assert engine.legal_actions(state) == expected
    assert len(expected) > 1 and len(colours) == 5


def _two_tiles_met(engine: Engine) -> tuple[Callable[[Json], None], list[int]]:
    """A position where seat 0's bonuses meet exactly two tiles in play."""
    name = ed(engine)
    colours = list(engine.COLOURS)
    faces = [t for t in range(len(TILES[name])) if TILES[name][t].requires]
    for a, b in itertools.combinations(faces, 2):
        if TILES[name][a].physical == TILES[name][b].physical:
            continue
        need = [
            max(x, y) for x, y in zip(TILES[name][a].requires, TILES[name][b].requires, strict=True)
        ]
        others = [
            t
            for t in faces
            if t not in (a, b)
            and TILES[name][t].physical not in (TILES[name][a].physical, TILES[name][b].physical)
            and any(r > n for r, n in zip(TILES[name][t].requires, need, strict=True))
        ]
        if others:
            break
    else:  # pragma: no cover
        raise AssertionError("no two tiles to meet")
    third = others[0]

    def edit(data: Json) -> None:
        (set_name,) = data["tiles"]
        data["tiles"][set_name] = [a, third, b]
        for colour, n in zip(colours, need, strict=True):
            for k in cards_with_bonus(engine, colour, n):
                relocate(engine, data, k, 0, "bought")

    return edit, [a, b]


def test_claiming_a_tile_is_the_players_decision_C_4_2_M_4_2(engine: Engine):
    """C-4.2 / M-4.2, S-4.3: two tiles met: the player chooses one (in play
    order); at most one per turn; the other is claimed on a later turn."""
    stated_facts(ed(engine))
    edit, met = _two_tiles_met(engine)
    state = position(engine, edit, seed=9)
    (set_name,) = engine.to_json(state)["tiles"]
    state = engine.apply(state, ("take_distinct", tuple(engine.COLOURS[:3])))
    data = engine.to_json(state)
    assert data["pending"] == "claim_tile"
    assert engine.legal_actions(state) == [("claim_tile", met[0]), ("claim_tile", met[1])]
    state = engine.apply(state, ("claim_tile", met[1]))
    data = engine.to_json(state)
    assert data["seats"][0]["zones"]["won"] == [met[1]]
    assert met[1] not in data["tiles"][set_name] and met[0] in data["tiles"][set_name]
    assert engine.current_player(state) == 1
    bought_points = sum(CARDS[ed(engine)][k].points for k in data["seats"][0]["zones"]["bought"])
    assert engine.scores(state)[0] == bought_points + TILES[ed(engine)][met[1]].points
    # seat 1 plays; then seat 0's next turn claims the other one at once
    state = engine.apply(state, ("take_distinct", tuple(engine.COLOURS[2:5])))
    state = engine.apply(state, ("take_distinct", tuple(engine.COLOURS[:3])))
    data = engine.to_json(state)
    assert data["pending"] is None
    assert data["seats"][0]["zones"]["won"] == [met[1], met[0]]


# ----------------------------------------------------- the end of the game


def _stalemate(engine: Engine) -> Callable[[Json], None]:
    """Nobody can do anything: no tokens anywhere to take or pay with, three
    cards reserved each (the tokens are out of the game: a made-up position)."""

    def edit(data: Json) -> None:
        for kind in data["supply"]:
            data["supply"][kind] = 0
        for seat in range(data["players"]):
            for tier in ("1", "2", "3"):
                data["seats"][seat]["zones"]["reserved"].append(data["decks"][tier].pop(0))

    return edit


def test_everyone_passing_ends_the_game_E_6_2(engine: Engine):
    """E-6.2: a round in which every player passes ends the game; it is
    scored as usual (classic: a tie shared; Marvel: nobody qualifies)."""
    stated_facts(ed(engine))
    state = position(engine, _stalemate(engine), players=2, seed=3)
    assert engine.legal_actions(state) == [("pass",)]
    state = engine.apply(state, ("pass",))
    assert not engine.is_over(state)
    assert engine.winners(state) == frozenset()
    assert engine.legal_actions(state) == [("pass",)]
    state = engine.apply(state, ("pass",))
    assert engine.is_over(state)
    assert engine.legal_actions(state) == []
    assert engine.scores(state) == (0, 0)
    expected = {"classic": frozenset({0, 1}), "marvel": frozenset()}[ed(engine)]
    assert engine.winners(state) == expected
    with pytest.raises(engine.IllegalAction):
        engine.apply(state, ("pass",))


def test_a_move_after_the_end_names_the_ending_rules(engine: Engine):
    """docs/engine.md: a refused move's message starts with the rule ids that
    forbid it; after the end, those of the endings (C-5.2 / M-5.3, E-6.2)."""
    stated_facts(ed(engine))
    state = position(engine, _stalemate(engine), players=2, seed=3)
    state = engine.apply(engine.apply(state, ("pass",)), ("pass",))
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, ("pass",))
    assert re.match(RULE_PREFIX, str(error.value)), str(error.value)
    assert "E-6.2" in str(error.value).split(":")[0]


@pytest.mark.parametrize("kind", KINDS)
def test_fifteen_points_ends_the_game_after_the_round_C_5_2_C_5_3(kind: EngineKind):
    """C-5.2: 15 points at the end of a turn: the round is played out (the
    later seats still play), then the game ends. C-5.3: highest score wins;
    tied, the fewest bought cards."""
    engine = engine_or_skip("classic", kind)
    top = [k for k, c in enumerate(CARDS["classic"]) if c.tier == 3]
    by_points = {n: [k for k in top if CARDS["classic"][k].points == n] for n in (3, 4, 5)}
    one_point = next(k for k, c in enumerate(CARDS["classic"]) if c.tier == 1 and c.points == 1)
    seat0 = [by_points[5][0], by_points[5][1], by_points[4][0]]  # 14 points, 3 cards
    seat1 = [by_points[4][1], by_points[4][2], by_points[3][0], by_points[3][1]]  # 14, 4 cards

    def edit(data: Json) -> None:
        for k in seat0:
            relocate(engine, data, k, 0, "bought")
        for k in seat1:
            relocate(engine, data, k, 1, "bought")
        relocate(engine, data, one_point, 0, "reserved")
        cost = dict(zip(engine.COLOURS, CARDS["classic"][one_point].cost, strict=True))
        give_tokens(data, 0, {c: n for c, n in cost.items() if n})

    state = position(engine, edit, players=3, seed=14)
    assert engine.scores(state) == (14, 14, 0)
    buy = next(a for a in engine.legal_actions(state) if a[0] == "buy" and a[1] == one_point)
    state = engine.apply(state, buy)
    assert engine.scores(state)[0] == 15
    assert engine.to_json(state)["last_round"] is True
    for seat in (1, 2):  # the round is played out
        assert not engine.is_over(state)
        assert engine.winners(state) == frozenset()
        assert engine.current_player(state) == seat
        state = engine.apply(state, engine.legal_actions(state)[0])
        while engine.to_json(state)["pending"] is not None:
            state = engine.apply(state, engine.legal_actions(state)[0])
    assert engine.is_over(state)
    assert engine.legal_actions(state) == []
    final = engine.to_json(state)
    scores = engine.scores(state)
    keys = [(scores[p], -len(final["seats"][p]["zones"]["bought"])) for p in range(3)]
    assert engine.winners(state) == frozenset(p for p in range(3) if keys[p] == max(keys))
    assert engine.winners(state) == frozenset({0})


@pytest.mark.parametrize("kind", KINDS)
def test_a_tie_on_points_goes_to_the_fewest_bought_cards_C_5_3(kind: EngineKind):
    engine = engine_or_skip("classic", kind)
    top = [k for k, c in enumerate(CARDS["classic"]) if c.tier == 3]
    by_points = {n: [k for k in top if CARDS["classic"][k].points == n] for n in (3, 4, 5)}

    def edit(data: Json) -> None:
        for k in (by_points[5][0], by_points[5][1], by_points[5][2]):  # 15 in 3
            relocate(engine, data, k, 0, "bought")
        for k in (by_points[4][0], by_points[4][1], by_points[4][2], by_points[3][0]):  # 15 in 4
            relocate(engine, data, k, 1, "bought")
        data["last_round"] = True

    state = position(engine, edit, players=2, seed=2)
    state = engine.apply(state, engine.legal_actions(state)[0])
    state = engine.apply(state, engine.legal_actions(state)[0])
    assert engine.is_over(state)
    assert engine.scores(state) == (15, 15)
    assert engine.winners(state) == frozenset({0})


# -------------------------------------------------------------------- JSON


def sample_states(engine: Engine) -> list[Any]:
    """States of random games (decisions pending included) and made-up ones."""
    states = []
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        if players not in engine.PLAYERS:  # more games of a count the edition allows
            players = min(engine.PLAYERS)
        rng = random.Random(seed)
        state = engine.new_game(players, seed, seed % players)
        for ply in range(400):
            if ply % 9 == 0 or engine.to_json(state)["pending"] is not None:
                states.append(state)
            legal = engine.legal_actions(state)
            if not legal:
                states.append(state)
                break
            state = engine.apply(state, rng.choice(legal))
    if has_facts(ed(engine)):  # the made-up positions need the edition's facts
        edit, _ = _two_tiles_met(engine)
        pending = engine.apply(
            position(engine, edit, seed=9), ("take_distinct", tuple(engine.COLOURS[:3]))
        )
        states.append(pending)
        states.append(position(engine, _stalemate(engine), players=2, seed=3))
    return states


@pytest.fixture(scope="module")
def sampled() -> dict[Case, list[Any]]:
    """The sample states of each engine, made once."""
    return {}


@pytest.fixture
def samples(case: Case, engine: Engine, sampled: dict[Case, list[Any]]) -> list[Any]:
    if case not in sampled:
        sampled[case] = sample_states(engine)
    return sampled[case]


def test_state_json_round_trip(engine: Engine, samples: list[Any]):
    """from_json(to_json(s)) is s again, also through json.dumps/json.loads."""
    for state in samples:
        data = engine.to_json(state)
        again = engine.from_json(data, complete=False)  # samples include hand-made positions
        assert engine.to_json(again) == data
        text = json.dumps(data)
        loaded = engine.from_json(json.loads(text), complete=False)
        assert json.dumps(engine.to_json(loaded)) == text
        assert engine.legal_actions(loaded) == engine.legal_actions(state)
        assert engine.scores(loaded) == engine.scores(state)
        assert engine.current_player(loaded) == engine.current_player(state)
        assert engine.is_over(loaded) == engine.is_over(state)
        legal = engine.legal_actions(state)
        if legal:
            action = legal[len(legal) // 2]
            assert engine.to_json(engine.apply(loaded, action)) == engine.to_json(
                engine.apply(state, action)
            )


def test_apply_leaves_the_given_state_unchanged(engine: Engine, samples: list[Any]):
    for state in samples[:40]:
        before = json.dumps(engine.to_json(state))
        for action in engine.legal_actions(state):
            engine.apply(state, action)
        assert json.dumps(engine.to_json(state)) == before


def test_from_json_rejects_another_editions_state(case: Case, engine: Engine):
    for edition in EDITIONS:
        if edition != ed(engine):
            other = engine_or_skip(edition, case[1])
            with pytest.raises(ValueError):
                engine.from_json(other.to_json(other.new_game(other.PLAYERS.start, 0)))
    with pytest.raises(ValueError):
        engine.from_json({"edition": ed(engine)})


def test_action_json_round_trip_for_every_legal_action(engine: Engine, samples: list[Any]):
    """action_from_json(action_to_json(a)) == a, through json text too, for
    every legal action of the sample positions (decisions included)."""
    names: set[str] = set()
    for state in samples:
        for action in engine.legal_actions(state):
            data = engine.action_to_json(action)
            assert data["action"] == action[0]
            assert engine.action_from_json(data) == action
            assert engine.action_from_json(json.loads(json.dumps(data))) == action
            names.add(action[0])
    if not has_facts(ed(engine)):
        return  # the action names below are the facts of classic and Marvel
    assert {
        "take_distinct",
        "take_two",
        "reserve",
        "buy",
        "token_limit",
        "claim_tile",
        "pass",
    } <= names


def test_action_json_forms_are_as_documented(engine: Engine):
    """docs/engine.md: choices by name, deck tops as {"deck": tier}, sets as
    lists, payments and returns with only the non-zero counts."""
    stated_facts(ed(engine))
    tokens = list(engine.TOKENS)
    c = list(engine.COLOURS)
    wild = WILD[ed(engine)]
    pay = tuple(2 if t == c[3] else 1 if t == wild else 0 for t in tokens)
    ret = tuple(1 if t in (c[0], c[1]) else 0 for t in tokens)
    cases = [
        (("take_distinct", tuple(c[:3])), {"action": "take_distinct", "picks": c[:3]}),
        (("take_two", c[3]), {"action": "take_two", "c": c[3]}),
        (("reserve", ("deck", 2)), {"action": "reserve", "k": {"deck": 2}}),
        (("reserve", 17), {"action": "reserve", "k": 17}),
        (("buy", 17, pay), {"action": "buy", "k": 17, "pay": {c[3]: 2, wild: 1}}),
        (("pass",), {"action": "pass"}),
        (("token_limit", ret), {"action": "token_limit", "tokens": {c[0]: 1, c[1]: 1}}),
        (("claim_tile", 4), {"action": "claim_tile", "tile": 4}),
    ]
    for action, form in cases:
        assert engine.action_to_json(action) == form
        assert engine.action_from_json(form) == action


# -------------------------------------------------------------------- views


def reserve_from_deck(engine: Engine, seed: int = 5) -> tuple[Any, int, int]:
    """Seat 0 reserves the top of the tier-2 deck, then seat 1 reserves a face-up card."""
    state = engine.new_game(2, seed)
    secret = engine.to_json(state)["decks"]["2"][-1]
    state = engine.apply(state, ("reserve", ("deck", 2)))
    open_card = engine.to_json(state)["market"]["1"][0]
    state = engine.apply(state, ("reserve", open_card))
    return state, secret, open_card


def test_view_hides_deck_order_E_6_3(engine: Engine):
    """E-6.3: deck order is seen by nobody: a view shows deck sizes."""
    stated_facts(ed(engine))
    state, _, _ = reserve_from_deck(engine)
    data = engine.to_json(state)
    for p in (0, 1):
        view = engine.view(state, p)
        assert view["decks"] == {t: len(cards) for t, cards in data["decks"].items()}
        for key in ("market", "tiles", "supply", "turn", "current_player", "pending", "over"):
            assert view[key] == data[key]
        json.dumps(view)


def test_view_hides_the_others_cards_reserved_from_a_deck_E_6_3(engine: Engine):
    """E-6.3: a card reserved from a deck is seen only by its owner, as the
    deck it came from; a face-up card reserved is seen by all."""
    stated_facts(ed(engine))
    state, secret, open_card = reserve_from_deck(engine)
    data = engine.to_json(state)
    assert data["seats"][0]["zones"]["reserved"] == [secret]
    assert data["seats"][1]["zones"]["reserved"] == [open_card]
    assert secret in data["hidden"] and open_card not in data["hidden"]

    mine = engine.view(state, 0)
    assert mine["seats"][0]["zones"]["reserved"] == [secret]
    assert secret in mine["hidden"]
    assert mine["seats"][1]["zones"]["reserved"] == [open_card]

    theirs = engine.view(state, 1)
    assert theirs["seats"][0]["zones"]["reserved"] == [{"deck": 2}]
    assert theirs["seats"][1]["zones"]["reserved"] == [open_card]
    assert secret not in theirs["hidden"]
    for seat in theirs["seats"]:
        for cards_ in seat["zones"].values():
            assert secret not in cards_
    # the view is the JSON form otherwise (tokens, did, bought, won)
    for p in (0, 1):
        assert theirs["seats"][p]["tokens"] == data["seats"][p]["tokens"]
        assert theirs["seats"][p]["did"] == data["seats"][p]["did"]
        assert theirs["seats"][p]["zones"]["bought"] == data["seats"][p]["zones"]["bought"]


def test_a_card_reserved_from_a_deck_stays_hidden_until_bought(engine: Engine):
    stated_facts(ed(engine))
    state, secret, _ = reserve_from_deck(engine)
    data = engine.to_json(state)
    cost = dict(zip(engine.COLOURS, CARDS[ed(engine)][secret].cost, strict=True))
    # hand seat 0 the exact price; seat 0 is to move
    for kind, n in cost.items():
        missing = n - data["seats"][0]["tokens"].get(kind, 0)
        if missing > 0:
            give_tokens(data, 0, {kind: min(missing, data["supply"][kind])})
    state = engine.from_json(data, complete=False)
    buys = [a for a in engine.legal_actions(state) if a[0] == "buy" and a[1] == secret]
    if not buys:
        pytest.skip("the supply cannot pay for this card")  # pragma: no cover
    state = engine.apply(state, buys[0])
    data = engine.to_json(state)
    assert secret in data["seats"][0]["zones"]["bought"]
    assert secret not in data["hidden"]
    assert engine.view(state, 1)["seats"][0]["zones"]["bought"][-1] == secret


def documented_view(engine: Engine, state: Any, player: int) -> Json:
    """docs/engine.md: the JSON form, with decks replaced by their sizes,
    every card in `hidden` in another player's card zones replaced by
    {"deck": tier}, and `hidden` listing only the player's own such cards."""
    data = copy.deepcopy(engine.to_json(state))
    hidden = set(data["hidden"])
    owner = {
        k: p
        for p, seat in enumerate(data["seats"])
        for zone in ("bought", "reserved")
        for k in seat["zones"][zone]
    }
    data["decks"] = {t: len(cards_) for t, cards_ in data["decks"].items()}

    def seen(k: int) -> Any:
        if k in hidden and owner.get(k, player) != player:
            return {"deck": tier_of(engine, k)}
        return k

    for p, seat in enumerate(data["seats"]):
        for zone in ("bought", "reserved"):  # the card zones; `won` holds tiles
            seat["zones"][zone] = [k if p == player else seen(k) for k in seat["zones"][zone]]
    data["hidden"] = [k for k in data["hidden"] if owner.get(k) == player]
    return data


def test_view_is_the_documented_form(engine: Engine, samples: list[Any]):
    stated_facts(ed(engine))
    for state in samples:
        for p in range(engine.to_json(state)["players"]):
            assert engine.view(state, p) == documented_view(engine, state, p)


def test_view_hidden_list_holds_only_the_viewers_own_cards_E_6_3(engine: Engine):
    stated_facts(ed(engine))
    state, secret, _ = reserve_from_deck(engine)
    assert engine.to_json(state)["hidden"] == [secret]
    assert engine.view(state, 0)["hidden"] == [secret]
    assert engine.view(state, 1)["hidden"] == []


# ---------------------------------------------- card numbers vs tile numbers

SHARED = 7  # tile 7 (noble / location face) and card 7 (tier 1) share a number


def _hold_tile(data: Json, seat: int, tile: int, edition: str) -> None:
    """Put `tile` in a seat's `won` zone, taking its physical tile out of play."""
    (set_name,) = data["tiles"]
    physical = TILES[edition][tile].physical
    data["tiles"][set_name] = [
        t for t in data["tiles"][set_name] if TILES[edition][t].physical != physical
    ]
    data["seats"][seat]["zones"]["won"].append(tile)


def test_buying_a_reserved_card_keeps_the_tile_with_the_same_number_C_5_1_M_5_1(
    engine: Engine,
):
    name = stated_facts(ed(engine))
    assert CARDS[name][SHARED].tier == 1

    def edit(data: Json) -> None:
        _hold_tile(data, 0, SHARED, name)
        relocate(engine, data, SHARED, 0, "reserved")
        cost = dict(zip(engine.COLOURS, CARDS[name][SHARED].cost, strict=True))
        give_tokens(data, 0, {c: n for c, n in cost.items() if n})

    state = position(engine, edit, seed=30)
    assert engine.scores(state)[0] == TILES[name][SHARED].points
    buy = [a for a in engine.legal_actions(state) if a[0] == "buy" and a[1] == SHARED]
    assert buy, "the reserved card is affordable"
    state = engine.apply(state, buy[0])
    seat = engine.to_json(state)["seats"][0]["zones"]
    assert seat["bought"] == [SHARED]
    assert seat["won"] == [SHARED]
    assert engine.scores(state)[0] == TILES[name][SHARED].points + CARDS[name][SHARED].points


def test_view_shows_a_tile_whose_number_is_a_hidden_card_E_6_3(engine: Engine):
    name = stated_facts(ed(engine))

    def edit(data: Json) -> None:
        _hold_tile(data, 1, SHARED, name)  # seat 1 holds tile 7
        relocate(engine, data, SHARED, 0, "reserved")  # seat 0 took card 7 ...
        data["hidden"].append(SHARED)  # ... from the top of its deck

    state = position(engine, edit, seed=31)
    assert engine.view(state, 1)["seats"][0]["zones"]["reserved"] == [{"deck": 1}]
    assert engine.view(state, 1)["seats"][1]["zones"]["won"] == [SHARED]
    assert engine.view(state, 0)["seats"][1]["zones"]["won"] == [SHARED]


def test_view_hidden_list_does_not_leak_a_card_numbered_like_a_held_tile_E_6_3(
    engine: Engine,
):
    name = stated_facts(ed(engine))

    def edit(data: Json) -> None:
        _hold_tile(data, 1, SHARED, name)  # seat 1 holds tile 7
        relocate(engine, data, SHARED, 0, "reserved")  # seat 0 took card 7 ...
        data["hidden"].append(SHARED)  # ... from the top of its deck

    state = position(engine, edit, seed=31)
    assert engine.view(state, 0)["hidden"] == [SHARED]
    assert engine.view(state, 1)["hidden"] == []


# ------------------------------------------------------------------ scores


def test_scores_and_winners_before_the_end(engine: Engine, samples: list[Any]):
    """C-5.1 / M-5.1: score = points of bought cards + tiles held (reserved
    cards and tokens score nothing); no winners before the end."""
    name = stated_facts(ed(engine))
    for state in samples:
        data = engine.to_json(state)
        expected = tuple(
            sum(CARDS[name][k].points for k in seat["zones"]["bought"])
            + sum(TILES[name][t].points for t in seat["zones"]["won"])
            for seat in data["seats"]
        )
        assert engine.scores(state) == expected
        if not engine.is_over(state):
            assert engine.winners(state) == frozenset()
