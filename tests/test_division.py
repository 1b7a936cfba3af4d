"""Whole-number division and remainder (`a / b` rounded down, `a % b` its
remainder of the divisor's sign; docs/language.md, "Expressions"): the
checker's bounds of them, and the three engines (the interpreter, the
generated Python engine and the native one) on tests/variants/divided.rules,
whose score divides a number that may be negative and whose `take_two`
takes the remainder of one: an engine rounding towards 0, as C's `/` and
`%` do, would score and move otherwise.

The variant: classic, where a player's score adds `(count(bought) - 4) / 3`
(a player who bought no card scores -2, one who bought 2 or 3 scores -1),
and two tokens of a colour may be taken from a supply of at least 4 whose
`(supply - 6) % 4` is not 2 (not from 4 nor 8).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from engine_modules import variant_fixtures
from hypothesis import given
from hypothesis import strategies as st

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.ranges import quotient, remainder
from splendor_rules.compiler.frontend.pipeline import compile_file

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "divided.rules"


model, engines, engine = variant_fixtures(VARIANT)


def with_bought(engine: Any, model: m.Edition, bought: int) -> Any:
    """A new 2-player game where player 0 owns `bought` tier-1 cards of no
    points (taken from the tier-1 deck)."""
    rows = model.cards.rows
    data = engine.to_json(engine.new_game(2, 1))
    deck = data["decks"]["1"]
    owned = [k for k in deck if rows[k]["points"] == 0][:bought]
    data["decks"]["1"] = [k for k in deck if k not in owned]
    data["seats"][0]["zones"]["bought"] = owned
    return engine.from_json(data)


def with_supply(engine: Any, colour: str, supply: int) -> Any:
    """A new 4-player game (7 tokens of each colour) with `supply` tokens of
    `colour` in the supply, the others held by the second player."""
    data = engine.to_json(engine.new_game(4, 1))
    data["seats"][1]["tokens"][colour] = data["supply"][colour] - supply
    data["supply"][colour] = supply
    return engine.from_json(data)


@pytest.mark.parametrize("bought", range(9))
def test_a_negative_quotient_is_rounded_down(engine: Any, model: m.Edition, bought: int) -> None:
    """The score's `(count(bought) - 4) / 3`: -2 for no card, -1 for one to
    three (towards 0, 2 and 3 cards would give 0), then 0, 0, 0, 1, 1."""
    state = with_bought(engine, model, bought)
    assert engine.scores(state)[0] == (bought - 4) // 3
    assert engine.scores(state)[1] == -2


@pytest.mark.parametrize("supply", range(8))
def test_a_negative_remainder_is_of_the_divisor_sign(engine: Any, supply: int) -> None:
    """`take_two` needs `(supply(c) - 6) % 4 != 2`: illegal from 4 (-2 % 4
    is 2, where C's `%` gives -2), legal from 5, 6 and 7."""
    state = with_supply(engine, "white", supply)
    moves = [engine.action_to_json(a) for a in engine.legal_actions(state)]
    takes = {"action": "take_two", "c": "white"} in moves
    assert takes == (supply >= 4 and (supply - 6) % 4 != 2)
    assert takes == (supply in (5, 6, 7))


def test_the_engines_agree_on_the_score_after_random_games(engines: dict[str, Any]) -> None:
    """A few random games, the three engines' scores alike after every move."""
    for seed in range(3):
        rng = random.Random(seed)
        states = {kind: e.new_game(2, seed) for kind, e in engines.items()}
        for _ in range(120):
            reference = engines["interpreter"]
            if reference.is_over(states["interpreter"]):
                break
            scores = {kind: tuple(engines[kind].scores(s)) for kind, s in states.items()}
            assert len(set(scores.values())) == 1, scores
            legal = reference.legal_actions(states["interpreter"])
            move = reference.action_to_json(rng.choice(legal))
            states = {
                kind: engines[kind].apply(s, engines[kind].action_from_json(move))
                for kind, s in states.items()
            }


BOUNDS = st.tuples(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**63), 2**63 - 1)).map(
    lambda b: (min(b), max(b))
)
DIVISORS = st.tuples(st.integers(1, 2**63 - 1), st.integers(1, 2**63 - 1)).map(
    lambda b: (min(b), max(b))
)


@given(BOUNDS, DIVISORS, st.data())
def test_the_bounds_hold_every_quotient_and_remainder(
    a: tuple[int, int], b: tuple[int, int], data: st.DataObject
) -> None:
    """For any dividend and divisor within their bounds (the divisor at
    least 1), the quotient and the remainder are within the checker's
    bounds, and the quotient's bounds are reached (at the corners)."""
    x = data.draw(st.integers(*a))
    y = data.draw(st.integers(*b))
    low, high = quotient(a, b)
    assert low <= x // y <= high
    assert {low, high} <= {p // q for p in a for q in b}
    low, high = remainder(a, b)
    assert low <= x % y <= high
    assert quotient(a, b)[0] >= -(2**63) and quotient(a, b)[1] <= 2**63 - 1


def test_operands_must_be_numbers(tmp_path: Path) -> None:
    """A condition divided is a type error, located at the operand."""
    line = "  override [C-5.1] score = sum(bought.points) % (count(won) > 0)"
    path = tmp_path / "typed.rules"
    path.write_text(f'edition typed "Typed" extends classic {{\n{line}\n}}\n', encoding="utf-8")
    compiled = compile_file(path)
    assert [(d.severity, d.message, d.span.line, d.span.column) for d in compiled.diagnostics] == [
        ("error", "expected a number, found a condition", 2, line.index("count") + 1)
    ]


def test_the_rulebook_says_rounded_down_and_keeps_the_grouping(model: m.Edition) -> None:
    """`splendor-rules doc`'s words (compiler/tools/rulebook/english.py): a
    quotient rounded down, a remainder, each a phrase grouped as written."""
    from splendor_rules.compiler.tools.rulebook.english import English
    from splendor_rules.dsl.syntax import Span

    span = Span("x", 1, 1, 1, 1)

    def n(value: int) -> m.Expr:
        return m.Const(type=m.INT, span=span, value=value)

    def op(symbol: str, left: m.Expr, right: m.Expr) -> m.Expr:
        return m.Binary(type=m.INT, span=span, op=symbol, left=left, right=right)

    english = English(model)
    assert english.expr(op("/", n(7), n(2))) == "7 divided by 2, rounded down"
    assert english.expr(op("%", n(7), n(2))) == "the remainder of 7 divided by 2"
    assert english.expr(op("*", op("/", n(7), n(2)), n(3))) == (
        "(7 divided by 2, rounded down) times 3"
    )
    assert english.expr(op("/", n(7), op("*", n(2), n(3)))) == (
        "7 divided by (2 times 3), rounded down"
    )
    negative = m.Unary(type=m.INT, span=span, op="-", operand=n(7))
    assert english.expr(op("%", negative, n(2))) == "the remainder of (minus 7) divided by 2"


@pytest.mark.parametrize("op", ["/", "%"])
def test_a_chain_of_divisions_nests_as_written(op: str) -> None:
    """`a / b / c` is `(a / b) / c`, never regrouped as `+`, `-` and `*`
    chains are (dsl/building.py, UNGROUPED): so each operator is a level
    of the parser's depth bound, and a long chain is refused, located."""
    from splendor_rules.dsl import syntax as s
    from splendor_rules.dsl.parser import MAX_DEPTH, parse_expression

    tree, found = parse_expression(f" {op} ".join(["7"] * 20), "<test>", 1, 1)
    assert found == []
    depth = 0
    while isinstance(tree, s.Binary):
        assert isinstance(tree.right, s.IntLit)
        tree, depth = tree.left, depth + 1
    assert depth == 19
    _, found = parse_expression(f" {op} ".join(["7"] * (MAX_DEPTH + 1)), "<test>", 1, 1)
    assert [d.message for d in found] == [f"this nests too deeply (over {MAX_DEPTH} levels)"]
    _, found = parse_expression(" * ".join(["7"] * (MAX_DEPTH + 1)), "<test>", 1, 1)
    assert found == []
