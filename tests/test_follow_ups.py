"""Follow-up choices and moves inside triggers (docs/engine.md, "Follow-up
decisions"), on tests/variants/follow_ups.rules, in both engines.

The variant: a bought card of tier 2 or 3 with points gives a face-up tier-1
card of the player's choice (trigger `free_card`: a choice, then a move whose
own triggers run); a tier-1 card with points gives its points in tokens of a
colour of the player's choice (trigger `lucky`, which carries the card); a
reserve when the gold is gone gives a token of the player's choice (a choice
under `if` among the effects of the action `reserve`, rule S-3.4).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from engine_modules import engine_module

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "follow_ups.rules"

# Cards of classic's data: tier-1 cards without points (0-3), one with a
# point (7), and a tier-2 card with a point (40, costing 2 white, 3 blue, 3 red).
PLAIN, POINTED, TIER_TWO = (0, 1, 2), 7, 40


@pytest.fixture(scope="module")
def model() -> m.Edition:
    compiled = compile_file(VARIANT)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


@pytest.fixture(scope="module")
def generated(model: m.Edition, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return engine_module(model, tmp_path_factory.mktemp("follow_ups"), "follow_ups_engine")


@pytest.fixture(params=["generated", "interpreter"])
def engine(request: pytest.FixtureRequest, model: m.Edition, generated: Any) -> Any:
    return generated if request.param == "generated" else InterpretedEngine(model)


def position(
    engine: Any, tier_one: list[int | None], gold_away: bool = False, complete: bool = True
) -> Any:
    """Player 0 to move, holding 2 white, 3 blue and 3 red (card 40's price),
    with these tier-1 cards face up and card 40 face up in tier 2. Without
    `complete`, the tier-1 deck is emptied; `gold_away`: player 1 holds the gold."""
    data = engine.to_json(engine.new_game(2, 1))
    placed = {k for k in tier_one if k is not None} | {TIER_TWO}
    decks, market = data["decks"], data["market"]
    decks["1"] = [k for k in (*decks["1"], *market["1"]) if k not in placed]
    decks["2"] = [k for k in (*decks["2"], *market["2"]) if k not in placed]
    if not complete:
        decks["1"] = []
    market["1"] = list(tier_one)
    market["2"] = [TIER_TWO, *decks["2"][:3]]
    decks["2"] = decks["2"][3:]
    for colour, n in (("white", 2), ("blue", 3), ("red", 3)):
        data["supply"][colour] -= n
        data["seats"][0]["tokens"][colour] = n
    if gold_away:
        data["seats"][1]["tokens"]["gold"] = data["supply"]["gold"]
        data["supply"]["gold"] = 0
    return engine.from_json(data, complete=complete)


def buy_tier_two(engine: Any, state: Any) -> Any:
    (buy,) = [a for a in engine.legal_actions(state) if a[:2] == ("buy", TIER_TWO)]
    return engine.apply(state, buy)


def test_a_trigger_choice_waits_as_a_decision_of_the_same_player(engine: Any):
    state = buy_tier_two(engine, position(engine, [*PLAIN, POINTED]))
    data = engine.to_json(state)
    assert data["pending"] == [{"decision": "free_card.f", "names": {}}]
    assert engine.current_player(state) == 0 and data["turn"] == 0
    assert engine.legal_actions(state) == [("free_card.f", k) for k in (*PLAIN, POINTED)]
    assert data["seats"][0]["zones"]["bought"] == [TIER_TWO]


def test_the_decision_runs_the_rest_of_the_trigger_then_ends_the_turn(engine: Any):
    before = position(engine, [*PLAIN, POINTED])
    state = engine.apply(buy_tier_two(engine, before), ("free_card.f", 1))
    data = engine.to_json(state)
    assert data["seats"][0]["zones"]["bought"] == [TIER_TWO, 1]
    top = engine.to_json(before)["decks"]["1"][-1]
    assert data["market"]["1"] == [0, top, 2, POINTED]  # refilled from the deck
    assert data["pending"] is None and engine.current_player(state) == 1


def test_a_free_card_runs_its_own_triggers_a_chain_of_two(engine: Any):
    state = engine.apply(
        buy_tier_two(engine, position(engine, [*PLAIN, POINTED])), ("free_card.f", POINTED)
    )
    data = engine.to_json(state)
    assert data["pending"] == [{"decision": "lucky.c", "names": {"k": POINTED}}]
    colours = [c for c in engine.COLOURS if data["supply"][c] > 0]
    assert engine.legal_actions(state) == [("lucky.c", c) for c in colours]
    red = data["seats"][0]["tokens"].get("red", 0)
    after = engine.to_json(engine.apply(state, ("lucky.c", "red")))
    assert after["seats"][0]["tokens"].get("red", 0) == red + 1  # card 7's one point
    assert after["seats"][0]["zones"]["bought"] == [TIER_TWO, POINTED]
    assert after["pending"] is None and after["current_player"] == 1


def test_a_choice_without_option_is_skipped_with_the_rest_of_its_block(engine: Any):
    state = buy_tier_two(engine, position(engine, [None] * 4, complete=False))
    data = engine.to_json(state)
    assert data["pending"] is None and data["current_player"] == 1
    assert data["seats"][0]["zones"]["bought"] == [TIER_TWO]


def test_a_single_option_is_taken_at_once(engine: Any):
    state = buy_tier_two(engine, position(engine, [None, 2, None, None], complete=False))
    data = engine.to_json(state)
    assert data["pending"] is None and data["seats"][0]["zones"]["bought"] == [TIER_TWO, 2]


def test_an_illegal_decision_is_refused_and_changes_nothing(engine: Any):
    state = buy_tier_two(engine, position(engine, [*PLAIN, POINTED]))
    before = engine.to_json(state)
    refused = [
        ("free_card.f", TIER_TWO),
        ("free_card.f", True),
        ("free_card.f",),
        ("buy", POINTED, (0, 0, 0, 0, 0, 0)),
        ("lucky.c", "red"),
        ("pass",),
    ]
    for action in refused:
        with pytest.raises(ValueError) as error:
            engine.apply(state, action)
        assert type(error.value).__name__ == "IllegalAction"
        assert engine.to_json(state) == before
    with pytest.raises(ValueError, match=r"the decision 'free_card\.f' is pending"):
        engine.apply(state, ("buy", POINTED, (0, 0, 0, 0, 0, 0)))


def test_a_choice_under_if_in_an_action_names_its_rules(engine: Any):
    state = position(engine, [*PLAIN, POINTED], gold_away=True)
    state = engine.apply(state, ("reserve", POINTED))
    assert engine.to_json(state)["pending"] == [{"decision": "reserve.c", "names": {"k": POINTED}}]
    with pytest.raises(ValueError, match=r"^S-3\.4: "):
        engine.apply(state, ("reserve.c", "gold"))
    with pytest.raises(ValueError, match=r"^S-3\.4: no 'reserve.c' decision is pending"):
        engine.apply(position(engine, [*PLAIN, POINTED]), ("reserve.c", "red"))
    after = engine.to_json(engine.apply(state, ("reserve.c", "green")))
    assert after["seats"][0]["tokens"]["green"] == 2  # a card with points: two
    assert after["seats"][0]["zones"]["reserved"] == [POINTED]


def test_the_json_form_mid_decision_round_trips(engine: Any):
    state = engine.apply(
        buy_tier_two(engine, position(engine, [*PLAIN, POINTED])), ("free_card.f", POINTED)
    )
    data = engine.to_json(state)
    again = engine.from_json(data)
    assert engine.to_json(again) == data
    assert engine.legal_actions(again) == engine.legal_actions(state)
    assert engine.action_to_json(("lucky.c", "red")) == {"action": "lucky.c", "c": "red"}
    assert engine.action_from_json({"action": "free_card.f", "f": 3}) == ("free_card.f", 3)
    for pending, message in (
        ([], "cannot be empty"),
        ([{"decision": "nothing.x", "names": {}}], "not a follow-up decision"),
        ([{"decision": "lucky.c", "names": {}}], "missing key 'k'"),
        ([{"decision": "lucky.c", "names": {"k": 999}}], "is not a card"),
        ([{"decision": "lucky.c"}], "missing key 'names'"),
    ):
        with pytest.raises(ValueError, match=message):
            engine.from_json({**data, "pending": pending})
    with pytest.raises(ValueError, match="over has no pending decision"):
        engine.from_json({**data, "over": True})


def test_the_view_hides_a_card_from_a_deck_that_a_decision_carries(engine: Any):
    state = position(engine, [*PLAIN, POINTED], gold_away=True)
    state = engine.apply(state, ("reserve", ("deck", 1)))
    (card,) = engine.to_json(state)["seats"][0]["zones"]["reserved"]
    assert engine.view(state, 0)["pending"] == [{"decision": "reserve.c", "names": {"k": card}}]
    assert engine.view(state, 1)["pending"] == [
        {"decision": "reserve.c", "names": {"k": {"deck": 1}}}
    ]


@pytest.mark.parametrize("seed", range(4))
def test_whole_games_agree_in_both_engines(model: m.Edition, generated: Any, seed: int):
    """The generated-vs-interpreter differential on the variant: the same
    legal moves, states, views and refusals after every move."""
    interpreter = InterpretedEngine(model)
    rng = random.Random(seed)
    g, i = generated.new_game(2, seed), interpreter.new_game(2, seed)
    decisions = 0
    while not generated.is_over(g):
        legal = generated.legal_actions(g)
        assert legal == interpreter.legal_actions(i)
        for p in (0, 1):
            assert generated.view(g, p) == interpreter.view(i, p)
        action = rng.choice(legal)
        decisions += "." in action[0]
        g, i = generated.apply(g, action), interpreter.apply(i, action)
        assert generated.to_json(g) == interpreter.to_json(i)
    assert decisions > 0
    assert generated.winners(g) == interpreter.winners(i)


def test_records_name_follow_up_moves_in_their_short_form(model: m.Edition):
    """A record may write a follow-up move in the short form (`free_card.f
    12`) and expect a pending follow-up (the state's JSON form of it)."""
    from splendor_rules.compiler.tools.records import expect
    from splendor_rules.compiler.tools.records.actions import action_data, parse_short
    from splendor_rules.compiler.tools.records.catalog import catalog_of
    from splendor_rules.compiler.tools.records.form import RecordError

    cat = catalog_of(model)
    assert parse_short("free_card.f 12", cat) == {"action": "free_card.f", "f": 12}
    assert action_data("lucky.c red", cat) == {"action": "lucky.c", "c": "red"}
    with pytest.raises(RecordError, match=r"lucky\.c needs a value for .c."):
        action_data({"action": "lucky.c"}, cat)
    expect._pending([{"decision": "lucky.c", "names": {"k": 7}}], 2, cat, "pending")
    with pytest.raises(RecordError, match="a follow-up decision is"):
        expect._pending([{"decision": "nothing"}], 2, cat, "pending")


# Follow-ups inside follow-ups: a trigger that chooses, then (under `if`)
# chooses a set, then a card it moves, with statements after each block that
# run once the innermost choice is decided (or skipped); and an action whose
# choice under `if` is followed by an effect after the `if`.
NESTED = """edition nested "Nested follow-ups" extends classic {
  trigger two: after card k enters bought {
    let pts = k.points
    if k.tier >= 1 {
      choose a from x in colours where supply(x) > 1
      gain 1 a
      if pts > 0 {
        choose b: 2 distinct from x in colours where x != a and supply(x) > 0
        gain pts each of b
        choose f from x in market where x.tier == 1 and x.points == 0
        move f to reserved
      }
      gain 1 a
    }
    gain 0 gold
  }
  override [S-3.3] action take_two "take 2 tokens of one colour" {
    choose c from colours
    require supply(c) >= 4 else "take two needs at least 4 {c} in the supply; there are {supply(c)}"
    gain 2 c
    if supply(c) < 4 {
      choose d from x in colours where x != c and supply(x) == 4
      gain 1 d
    }
    gain 1 gold
  }
}
"""


@pytest.mark.parametrize("seed", range(3))
def test_nested_follow_ups_agree_in_both_engines(tmp_path: Path, seed: int):
    rules = tmp_path / "nested.rules"
    rules.write_text(NESTED, encoding="utf-8")
    compiled = compile_file(rules)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    generated = engine_module(compiled.model, tmp_path, "nested_engine")
    interpreter = InterpretedEngine(compiled.model)
    rng = random.Random(seed)
    g, i = generated.new_game(2, seed), interpreter.new_game(2, seed)
    names = set()
    while not generated.is_over(g):
        legal = generated.legal_actions(g)
        assert legal == interpreter.legal_actions(i)
        action = rng.choice(legal)
        names.add(action[0])
        g, i = generated.apply(g, action), interpreter.apply(i, action)
        data = generated.to_json(g)
        assert data == interpreter.to_json(i)
        assert generated.to_json(generated.from_json(data)) == data
    assert {"two.a", "two.b"} <= names
