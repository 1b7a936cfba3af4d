"""Tiles each player may claim once (`tiles … claimed once per player`,
docs/language.md), on tests/variants/claims.rules, in the three engines:
the interpreter, the generated Python engine and the native one.

The variant (its rulebook: tests/variants/CLAIMS.md): four of five posts in
play (P-1.1); at the end of the turn a player who owns as many cards of a
post's colour as it asks claims one they have not claimed yet, and the post
stays in play for the others (P-1.2); a claimed post scores its points
(P-1.3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engine_modules import variant_fixtures

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "claims.rules"

# The posts' tile numbers (after classic's 10 nobles), in the data's order:
# white 3 cards (1 point), blue 3 (1), green 4 (2), red 4 (2), black 5 (3).
WHITE, BLUE, GREEN, RED, BLACK = range(10, 15)


model, engines, engine = variant_fixtures(VARIANT)


def cards_of(model: m.Edition, colour: str, count: int) -> list[int]:
    """The first `count` tier-1 cards of a bonus colour, without points."""
    rows = enumerate(model.cards.rows)
    found = [k for k, r in rows if r["bonus"] == colour and r["tier"] == 1 and r["points"] == 0]
    return found[:count]


def position(
    engine: Any, model: m.Edition, owned: dict[int, list[int]], posts: dict[int, list[int]]
) -> Any:
    """Player 0 to move, the posts white, blue, green and red in play, each
    seat owning the cards and holding the posts given."""
    data = engine.to_json(engine.new_game(2, 1))
    taken = {k for cards in owned.values() for k in cards}
    for tier, deck in data["decks"].items():
        row = data["market"][tier]
        data["decks"][tier] = [k for k in (*deck, *(k for k in row if k is not None))]
        data["decks"][tier] = [k for k in data["decks"][tier] if k not in taken]
        data["market"][tier] = data["decks"][tier][-len(row) :]
        data["decks"][tier] = data["decks"][tier][: -len(row)]
    data["tiles"]["post"] = [WHITE, BLUE, GREEN, RED]
    for seat, cards in owned.items():
        data["seats"][seat]["zones"]["bought"] = cards
    for seat, held in posts.items():
        data["seats"][seat]["zones"]["posts"] = held
    return engine.from_json(data)


def end_turn(engine: Any, state: Any) -> Any:
    """Take two tokens of a colour: the turn ends, its steps run."""
    take = next(a for a in engine.legal_actions(state) if a[0] == "take_two")
    return engine.apply(state, take)


def test_p_1_2_a_claimed_post_stays_in_play(engine: Any, model: m.Edition) -> None:
    whites = cards_of(model, "white", 6)
    state = end_turn(engine, position(engine, model, {0: whites[:3]}, {}))
    data = engine.to_json(state)
    assert data["seats"][0]["zones"]["posts"] == [WHITE]
    assert data["tiles"]["post"] == [WHITE, BLUE, GREEN, RED]


def test_p_1_2_every_player_may_claim_a_post_once(engine: Any, model: m.Edition) -> None:
    whites = cards_of(model, "white", 6)
    start = position(engine, model, {0: whites[:3], 1: whites[3:]}, {})
    state = end_turn(engine, end_turn(engine, start))
    data = engine.to_json(state)
    assert [seat["zones"]["posts"] for seat in data["seats"]] == [[WHITE], [WHITE]]
    again = engine.to_json(end_turn(engine, state))  # player 0 again: white is claimed
    assert again["seats"][0]["zones"]["posts"] == [WHITE]


def test_p_1_2_the_choice_leaves_out_posts_claimed(engine: Any, model: m.Edition) -> None:
    owned = [*cards_of(model, "white", 3), *cards_of(model, "blue", 3)]
    owned += cards_of(model, "green", 4)
    both = end_turn(engine, position(engine, model, {0: owned}, {}))
    assert engine.legal_actions(both) == [("claim_post", t) for t in (WHITE, BLUE, GREEN)]
    held = end_turn(engine, position(engine, model, {0: owned}, {0: [BLUE]}))
    assert engine.legal_actions(held) == [("claim_post", t) for t in (WHITE, GREEN)]
    after = engine.to_json(engine.apply(held, ("claim_post", GREEN)))
    assert after["seats"][0]["zones"]["posts"] == [BLUE, GREEN]
    assert after["tiles"]["post"] == [WHITE, BLUE, GREEN, RED]


def test_p_1_3_posts_claimed_score(engine: Any, model: m.Edition) -> None:
    state = position(engine, model, {}, {0: [GREEN, BLUE], 1: [GREEN]})
    assert list(engine.scores(state)) == [3, 2]


def test_a_post_is_in_play_and_once_in_each_seat(engine: Any, model: m.Edition) -> None:
    position(engine, model, {}, {0: [WHITE, BLACK], 1: [WHITE]})  # accepted
    with pytest.raises(ValueError, match="two places"):
        position(engine, model, {}, {0: [WHITE, WHITE]})


def test_the_description_says_which_sets_are_claimed_once(engine: Any, model: m.Edition) -> None:
    sets = {t["name"]: t for t in engine.DESCRIPTION["tiles"]["sets"]}
    assert sets["post"]["claimed_once_per_player"] is True
    assert "claimed_once_per_player" not in sets["noble"]
    assert identities.shared_tiles(model) == frozenset(range(WHITE, BLACK + 1))
