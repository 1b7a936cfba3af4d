"""Cards that leave the game: `return CARDS to the box` (and, with it, a
price paid by returning owned cards), on the variant
tests/variants/box_and_wild_cards.rules, in both engines."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from engine_modules import play_alike, variant_engines

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "box_and_wild_cards.rules"


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return variant_engines(VARIANT, tmp_path_factory.mktemp("box"))


def position(engine: Any, bought: list[int], seed: int = 3) -> Any:
    """A new 2-player game where seat 0 has bought these cards, taken from
    the decks."""
    data = engine.to_json(engine.new_game(2, seed))
    for tier, deck in data["decks"].items():
        data["decks"][tier] = [k for k in deck if k not in bought]
    data["seats"][0]["zones"]["bought"] = list(bought)
    return engine.from_json(data, complete=False)


def test_returning_a_chosen_set_to_the_box(engines: tuple[Any, Any]) -> None:
    """trade_in: the 2 owned cards chosen leave the game (no zone, no deck,
    no market, not in the bonus any more), the card bought enters `bought`,
    and no token moves; both engines agree on the moves and the state."""
    generated, interpreted = engines
    market = generated.to_json(generated.new_game(2, 3))["market"]
    target = market["1"][0]
    colour = generated.CARD_bonus[target]
    same = [k for k in range(40) if generated.CARD_bonus[k] == colour and k != target]
    owned = [k for k in same if k not in market["1"]][:3]
    g, i = position(generated, owned), position(interpreted, owned)
    trades = [a for a in generated.legal_actions(g) if a[0] == "trade_in" and a[1] == target]
    assert trades == [a for a in interpreted.legal_actions(i) if a in trades]
    assert [a[2] for a in trades] == [
        (owned[0], owned[1]),
        (owned[0], owned[2]),
        (owned[1], owned[2]),
    ]
    move = ("trade_in", target, (owned[0], owned[2]))
    assert generated.action_to_json(move) == {
        "action": "trade_in",
        "k": target,
        "given": [owned[0], owned[2]],
    }
    g2, i2 = generated.apply(g, move), interpreted.apply(i, move)
    data = generated.to_json(g2)
    assert data == interpreted.to_json(i2)
    assert data["seats"][0]["zones"]["bought"] == [owned[1], target]
    places = [*data["seats"][0]["zones"]["bought"], *data["seats"][1]["zones"]["bought"]]
    places += [k for row in data["market"].values() for k in row]
    places += [k for deck in data["decks"].values() for k in deck]
    assert owned[0] not in places and owned[2] not in places
    assert data["seats"][0]["tokens"] == {}
    # A complete state: a card in no place is in the box.
    assert generated.to_json(generated.from_json(data)) == data
    assert interpreted.to_json(interpreted.from_json(data)) == data


def test_a_card_returned_does_not_count(engines: tuple[Any, Any]) -> None:
    """After the return, the zone aggregates the generated engine keeps up
    to date (the colour count `bonus`) count only the cards still owned: the
    same as when read afresh from the JSON form."""
    generated, _ = engines
    market = generated.to_json(generated.new_game(2, 3))["market"]
    target = market["1"][0]
    colour = generated.CARD_bonus[target]
    owned = [k for k in range(40) if generated.CARD_bonus[k] == colour and k not in market["1"]]
    g = position(generated, owned[:3])
    g2 = generated.apply(g, ("trade_in", target, tuple(owned[:2])))
    assert g2.agg == generated.from_json(generated.to_json(g2)).agg
    assert g2.agg != g.agg


def test_random_games_agree(engines: tuple[Any, Any]) -> None:
    """The variant played at random: same legal moves, same states, and
    JSON forms that read back."""
    generated, interpreted = engines
    play_alike(generated, interpreted, range(3), ("trade_in", "buy"))


# ------------------------------------------------- wild units from cards


def minimal_payments(
    engine: Any, price: tuple[int, ...], held: tuple[int, ...], cards: tuple[int, ...]
) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The payments docs/engine.md allows, by brute force: tokens paying no
    colour beyond its price, plus cards worth 1 unit each covering the rest,
    with no token and no card that could be left out."""
    colours, wild = len(engine.COLOURS), engine.TOKENS.index("gold")
    found = set()
    for counts in itertools.product(*(range(n + 1) for n in held)):
        if any(counts[c] > price[c] for c in range(colours)):
            continue
        if any(counts[t] for t in range(len(counts)) if t >= colours and t != wild):
            continue
        rest = sum(price) - sum(counts[:colours]) - counts[wild]
        if rest < 0:
            continue
        for size in range(len(cards) + 1):
            for spent in itertools.combinations(cards, size):
                covers = size >= rest
                needed = size == 0 or size - 1 < rest
                tokens_needed = sum(counts) == 0 or size == rest
                if covers and needed and tokens_needed:
                    found.add((counts, spent))
    return found


def test_paying_with_wild_cards_offers_exactly_the_minimal_payments(
    engines: tuple[Any, Any],
) -> None:
    """`pay … using x in bought where x.tier == 1 and x.points == 0 as 1
    wild each`: for every card of the market, the buy moves are exactly the
    distinct minimal payments (none twice), in the same order in both
    engines; a spent card goes to the box."""
    generated, interpreted = engines
    data = generated.to_json(generated.new_game(2, 5))
    market = {k for row in data["market"].values() for k in row}
    plain = [k for k in range(40) if generated.CARD_points[k] == 0 and k not in market][:3]
    g, i = position(generated, plain, 5), position(interpreted, plain, 5)
    data = generated.to_json(g)
    data["seats"][0]["tokens"] = {"white": 1, "blue": 1, "gold": 1}
    g, i = generated.from_json(data, complete=False), interpreted.from_json(data, complete=False)
    held = g.held[0]
    legal = generated.legal_actions(g)
    assert legal == interpreted.legal_actions(i)
    spending = 0
    for card in sorted(market):
        moves = [a for a in legal if a[0] == "buy" and a[1] == card]
        bonus = [sum(1 for k in plain if generated.CARD_bonus[k] == c) for c in range(5)]
        price = tuple(max(0, c - b) for c, b in zip(generated.CARD_cost[card], bonus, strict=True))
        wanted = minimal_payments(generated, price, held, tuple(plain))
        assert len(moves) == len(wanted)
        assert {(a[2], a[3]) for a in moves} == wanted
        spending += sum(1 for a in moves if a[3])
    assert spending > 0
    move = next(a for a in legal if a[0] == "buy" and a[3])
    assert generated.action_to_json(move)["x"] == list(move[3])
    assert interpreted.action_from_json(generated.action_to_json(move)) == move
    after = generated.to_json(generated.apply(g, move))
    assert after == interpreted.to_json(interpreted.apply(i, move))
    assert not set(move[3]) & set(after["seats"][0]["zones"]["bought"])
    assert after["seats"][0]["zones"]["bought"][-1] == move[1]


def test_a_payment_not_offered_is_refused_alike(engines: tuple[Any, Any]) -> None:
    """A card spent that is not needed, or not spendable, is refused by
    both engines with the payment's rule id."""
    generated, interpreted = engines
    data = generated.to_json(generated.new_game(2, 5))
    market = {k for row in data["market"].values() for k in row}
    plain = [k for k in range(40) if generated.CARD_points[k] == 0 and k not in market][:2]
    g, i = position(generated, plain, 5), position(interpreted, plain, 5)
    legal = [a for a in generated.legal_actions(g) if a[0] == "buy" and a[3]]
    assert legal
    move = legal[0]
    wasteful = (*move[:3], tuple(plain))
    for bad in ([*move[:3], (*move[3], move[3][0])], wasteful if wasteful != move else None):
        if bad is None or tuple(bad) in generated.legal_actions(g):
            continue
        with pytest.raises(ValueError, match=r"^S-3\.5"):
            generated.apply(g, tuple(bad))
        with pytest.raises(ValueError, match=r"^S-3\.5"):
            interpreted.apply(i, tuple(bad))
