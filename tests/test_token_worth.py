"""A wild token that counts as more than one in payments where a condition
holds (`token KIND: wild, counts as N in payments where COND`,
docs/language.md), on tests/variants/gold_worth.rules, in the three
engines: the interpreter, the generated Python engine and the native one.

The variant (its rulebook: tests/variants/WORTH.md): classic, where a gold
token pays up to 2 gems of one colour for a player whose cards give bonuses
of three colours or more (W-1.1), as a trading post of Cities of Splendor
lets it. The ways to pay are, per colour and in colour order, the gold
tokens spent on it ascending, from the fewest its own tokens leave
necessary to enough for its whole price.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from engine_modules import checked_model, three_engines, variant_fixtures

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.build import build
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.tools.records import load_record, read_json, replay_record

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "gold_worth.rules"
TARGET = 24  # a tier-1 card costing 3 white
TWO_COLOURS = 32  # a tier-1 black card costing 2 white, 2 blue and 1 red
COLOURS = ("white", "blue", "green", "red", "black")


model, engines, engine = variant_fixtures(VARIANT)


def position(
    engine: Any, model: m.Edition, bonus: tuple[str, ...], tokens: dict[str, int], target: int
) -> Any:
    """Player 0 to move, card `target` face up first in tier 1, owning one
    card of each colour of `bonus` (tier-1 cards without points) and
    holding `tokens`."""
    rows = model.cards.rows
    owned = [
        next(k for k, r in enumerate(rows) if r["bonus"] == c and r["tier"] == 1 and k != target)
        for c in bonus
    ]
    data = engine.to_json(engine.new_game(2, 1))
    placed = {target, *owned}
    for tier, deck in data["decks"].items():
        cards = [k for k in (*deck, *data["market"][tier]) if k is not None and k not in placed]
        size = len(data["market"][tier])
        shown = [target, *cards[: size - 1]] if tier == "1" else cards[:size]
        data["market"][tier], data["decks"][tier] = shown, cards[len(shown) - (tier == "1") :]
    data["seats"][0]["zones"]["bought"] = owned
    for kind, n in tokens.items():
        data["supply"][kind] -= n
        data["seats"][0]["tokens"][kind] = n
    return engine.from_json(data)


def payments(engine: Any, state: Any, target: int) -> list[dict[str, int]]:
    """The ways to buy the card, each as the tokens it spends, in order."""
    moves = [engine.action_to_json(a) for a in engine.legal_actions(state)]
    found = [a["pay"] for a in moves if a["action"] == "buy" and a["k"] == target]
    return [{kind: n for kind, n in pay.items() if n} for pay in found]


THREE = ("blue", "green", "black")  # bonuses of three colours: gold counts as 2


def test_w_1_1_a_gold_token_pays_two_of_one_colour(engine: Any, model: m.Edition) -> None:
    state = position(engine, model, THREE, {"white": 1, "gold": 2}, TARGET)
    assert payments(engine, state, TARGET) == [{"white": 1, "gold": 1}, {"gold": 2}]
    move = {"action": "buy", "k": TARGET, "pay": {"white": 1, "gold": 1}}
    after = engine.to_json(engine.apply(state, engine.action_from_json(move)))
    assert TARGET in after["seats"][0]["zones"]["bought"]
    held = after["seats"][0]["tokens"]
    assert (held.get("white", 0), held["gold"]) == (0, 1)


def test_w_1_1_without_the_condition_a_gold_token_pays_one(engine: Any, model: m.Edition) -> None:
    two = ("blue", "green")
    state = position(engine, model, two, {"white": 1, "gold": 2}, TARGET)
    assert payments(engine, state, TARGET) == [{"white": 1, "gold": 2}]
    assert payments(engine, position(engine, model, two, {"gold": 2}, TARGET), TARGET) == []


def test_w_1_1_the_ways_over_two_colours_in_order(engine: Any, model: m.Edition) -> None:
    """Card 32 (2 white, 2 blue, 1 red) less the blue and red bonuses: 2
    white and 1 blue. With 1 white, 1 blue and 2 gold: white needs one gold
    (worth 2, enough for both), blue none or one."""
    owned = ("blue", "green", "red")
    tokens = {"white": 1, "blue": 1, "gold": 2}
    state = position(engine, model, owned, tokens, TWO_COLOURS)
    assert payments(engine, state, TWO_COLOURS) == [
        {"blue": 1, "gold": 1},
        {"gold": 2},
    ]
    plain = position(engine, model, ("blue", "red"), tokens, TWO_COLOURS)
    assert payments(engine, plain, TWO_COLOURS) == [
        {"white": 1, "blue": 1, "gold": 1},
        {"white": 1, "gold": 2},
        {"blue": 1, "gold": 2},
    ]


def test_w_1_1_a_payment_of_too_little_is_refused(engine: Any, model: m.Edition) -> None:
    state = position(engine, model, THREE, {"gold": 1}, TARGET)
    before = engine.to_json(state)
    assert payments(engine, state, TARGET) == []
    move = {"action": "buy", "k": TARGET, "pay": {"gold": 1}}
    with pytest.raises(ValueError, match=r"S-3\.5"):
        engine.apply(state, engine.action_from_json(move))
    assert engine.to_json(state) == before


def test_positions_pay_alike_in_the_three_engines(engines: dict[str, Any], model: m.Edition):
    """Seeded positions: cards of random colours owned, random tokens held;
    the three engines list the same moves, ways to pay in the same order,
    and make the same state of each way to buy."""
    rng = random.Random("gold_worth")
    worth_two = 0
    for _ in range(40):
        bonus = tuple(rng.sample(COLOURS, rng.randrange(6)))
        tokens = {c: rng.randrange(3) for c in COLOURS} | {"gold": rng.randrange(5)}
        target = rng.choice([k for k, r in enumerate(model.cards.rows) if r["tier"] == 1])
        states = {kind: position(e, model, bonus, tokens, target) for kind, e in engines.items()}
        legal = {kind: engines[kind].legal_actions(s) for kind, s in states.items()}
        assert legal["generated"] == legal["interpreter"] == legal["native"]
        worth_two += len(bonus) >= 3 and tokens["gold"] > 0
        for action in legal["interpreter"]:
            if action[0] == "buy":
                after = {kind: engines[kind].apply(s, action) for kind, s in states.items()}
                shown = {kind: engines[kind].to_json(s) for kind, s in after.items()}
                assert shown["generated"] == shown["interpreter"] == shown["native"]
    assert worth_two >= 5


def test_the_plan_carries_the_token_to_each_payment(model: m.Edition) -> None:
    plan = build(model)
    gold = next(t for t in model.tokens if t.name == "gold")
    pays = [op for apply in plan.apply for op in apply.reads if isinstance(op, ops.PickPayment)]
    assert pays and all(op.worth == gold for op in pays)


@pytest.mark.parametrize("kind", ["generated", "interpreted"])
def test_the_variant_s_record_holds(kind: str) -> None:
    """A record of the variant (tests/variants/records/): gold worth two
    once the third colour is owned, and a payment of too little refused."""
    path = VARIANT.parent / "records" / "gold_worth.json"
    record, eng = load_record(read_json(path), str(path), kind, rules=str(VARIANT))
    failure = replay_record(record, eng)
    assert failure is None, f"step {failure.step}: {failure.problems}"


HOARD = """\
edition hoard "Gold hoarded, each worth the most a count holds" extends classic {
  override token gold "gold": wild, counts as 2147483647 in payments where true
  override [C-2.2] supply {
    each colour: 4
    gold: 2147483647
  }
}
"""


def test_the_bounds_pay_alike_in_the_three_engines(tmp_path: Path) -> None:
    """Near the language's bounds: each gold token worth the most a count
    holds (32 bits), and a million of them held (the most the Python
    engine reads for a kind without a cap). The native engine's reach (gold
    times worth) stays within 64 bits, and the ways to pay are the few the
    price allows (a token for each colour it pays, or none), alike in the
    three engines."""
    path = tmp_path / "hoard.rules"
    path.write_text(HOARD, encoding="utf-8")
    model = checked_model(path)
    engines = three_engines(model, tmp_path)
    found = {}
    for kind, engine in engines.items():
        data = engine.to_json(engine.new_game(2, 1))
        k = next(k for row in data["market"].values() for k in row if k is not None)
        data["supply"]["gold"] = 2**31 - 1 - 10**6
        data["seats"][0]["tokens"]["gold"] = 10**6
        found[kind] = payments(engine, engine.from_json(data), k)
    assert found["generated"] == found["interpreter"] == found["native"]
    assert found["interpreter"] and all(set(way) == {"gold"} for way in found["interpreter"])
