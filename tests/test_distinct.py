"""The built-in `distinct(LIST)`, the number of different values of a list
of numbers or colours, `none` not counted (docs/language.md,
"Expressions"), on the three engines (the interpreter, the generated Python
engine and the native one): tests/variants/varied.rules, whose score counts
the different colours and tiers of the cards bought and whose `reserve`
counts the different points of the market and colours of the reserved
cards of no points; and an edition of cards of no colour (extending orient)
whose score is the number of different colours bought.

Each engine's score and legal moves are compared with the same counts made
here in Python, on states drawn by hypothesis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engine_modules import checked_model, three_engines
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "varied.rules"
NO_COLOUR = """edition unvaried "Orient, of colours counted" extends orient {
  define colours_owned = distinct(bought.bonus)
  override [C-5.1] score = colours_owned
}
"""
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> tuple[m.Edition, dict[str, Any]]:
    model = checked_model(VARIANT)
    return model, three_engines(model, tmp_path_factory.mktemp("varied"))


@pytest.fixture(scope="module")
def no_colour(tmp_path_factory: pytest.TempPathFactory) -> tuple[m.Edition, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("unvaried")
    (folder / "unvaried.rules").write_text(NO_COLOUR, encoding="utf-8")
    model = checked_model(folder / "unvaried.rules")
    return model, three_engines(model, folder)


def dealt(
    engine: Any, data: st.DataObject, seat: dict[str, int], empty: bool = False
) -> dict[str, Any]:
    """The JSON form of a new 2-player game where player 0's zones hold
    cards drawn from the decks (as many as `seat` says per zone), and, if
    `empty`, some of the market's tiers emptied into the decks (their slots
    left empty): one state, read by each engine."""
    state: dict[str, Any] = engine.to_json(engine.new_game(2, 1))
    decks: dict[str, list[int]] = state["decks"]
    if empty:
        for tier in data.draw(st.sets(st.sampled_from(sorted(state["market"]))), "emptied"):
            decks[tier] += [k for k in state["market"][tier] if k is not None]
            state["market"][tier] = [None] * len(state["market"][tier])
    pool = sorted(k for deck in decks.values() for k in deck)
    chosen = data.draw(st.permutations(pool), "order")[: sum(seat.values())]
    for zone, n in seat.items():
        state["seats"][0]["zones"][zone], chosen = chosen[:n], chosen[n:]
    taken = {k for zone in seat for k in state["seats"][0]["zones"][zone]}
    state["decks"] = {tier: [k for k in deck if k not in taken] for tier, deck in decks.items()}
    return state


@SETTINGS
@given(st.data(), st.integers(0, 20))
def test_the_score_counts_different_colours_and_tiers(
    varied: tuple[m.Edition, dict[str, Any]], data: st.DataObject, bought: int
) -> None:
    """score = points + (different bonus colours) / 2 + (2 if three tiers)."""
    model, engines = varied
    rows = model.cards.rows
    as_json = dealt(engines["interpreter"], data, {"bought": bought})
    owned = as_json["seats"][0]["zones"]["bought"]
    for kind, engine in engines.items():
        state = engine.from_json(as_json)
        colours = len({rows[k]["bonus"] for k in owned})
        tiers = len({rows[k]["tier"] for k in owned})
        expected = sum(rows[k]["points"] for k in owned) + colours // 2 + (2 if tiers == 3 else 0)
        assert engine.scores(state)[0] == expected, (kind, owned)


@SETTINGS
@given(st.data(), st.integers(0, 3))
def test_reserve_needs_varied_points_and_plain_reserved_cards_of_one_colour(
    varied: tuple[m.Edition, dict[str, Any]], data: st.DataObject, reserved: int
) -> None:
    """reserve is legal while fewer than 3 cards are reserved, the market
    shows two values of points at least, and the reserved cards of no
    points are of one colour at most."""
    model, engines = varied
    rows = model.cards.rows
    as_json = dealt(engines["interpreter"], data, {"reserved": reserved}, empty=True)
    held = as_json["seats"][0]["zones"]["reserved"]
    shown = [k for cards in as_json["market"].values() for k in cards if k is not None]
    legal = (
        len(held) < 3
        and len({rows[k]["points"] for k in shown}) >= 2
        and len({rows[k]["bonus"] for k in held if rows[k]["points"] == 0}) <= 1
    )
    event(f"reserve legal: {legal}")
    for kind, engine in engines.items():
        state = engine.from_json(as_json)
        moves = [engine.action_to_json(a) for a in engine.legal_actions(state)]
        assert any(move["action"] == "reserve" for move in moves) == legal, (kind, held, shown)


@SETTINGS
@given(st.data(), st.integers(0, 30))
def test_a_card_of_no_colour_adds_no_colour(
    no_colour: tuple[m.Edition, dict[str, Any]], data: st.DataObject, bought: int
) -> None:
    """Orient's jokers and gold cards (bonus none) bought add no colour."""
    model, engines = no_colour
    rows = model.cards.rows
    as_json = dealt(engines["interpreter"], data, {"bought": bought})
    owned = as_json["seats"][0]["zones"]["bought"]
    expected = len({rows[k]["bonus"] for k in owned} - {None})
    event(f"a card of no colour bought: {any(rows[k]['bonus'] is None for k in owned)}")
    for kind, engine in engines.items():
        state = engine.from_json(as_json)
        assert engine.scores(state)[0] == expected, (kind, owned)


@pytest.mark.parametrize(
    ("written", "found"),
    [
        ("bought", "set of card"),
        ("count(bought) > 2", "condition"),
        ("bought.cost", "list of number per colour"),
    ],
)
def test_a_list_of_neither_numbers_nor_colours_is_refused(
    tmp_path: Path, written: str, found: str
) -> None:
    """distinct takes a list (or set) of numbers or colours, nothing else."""
    path = tmp_path / "wrong.rules"
    text = f'edition wrong "wrong" extends classic {{\n  define d = distinct({written})\n}}\n'
    path.write_text(text, encoding="utf-8")
    compiled = compile_file(path)
    assert not compiled.ok
    assert any(f"found a {found}" in d.message for d in compiled.diagnostics)
