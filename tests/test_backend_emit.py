"""Emission that cannot get precedence wrong (issue 8, back end).

- the probe edition's requirement `A and B` is refused by the generated
  engine exactly as by the interpreter (it was emitted `if not A and B:`);
- random nested and/or/not/if-else/comparison/arithmetic expressions emit
  Python that evaluates as the interpreter evaluates the model;
- the printer's text parses back to the very tree it printed, for random
  trees and for every function of every shipped engine.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from engine_modules import engine_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python import printer
from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.backend.python.emit import ExprEmitter
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import Names
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files, editions_folder
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.dsl.syntax import Span

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = Path(__file__).resolve().parent / "variants"
SPAN = Span("<test>", 1, 1, 1, 1)


def checked(path: Path) -> m.Edition:
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


# ------------------------------------------------------------ the probe


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, InterpretedEngine]:
    model = checked(VARIANTS / "probe.rules")
    folder = tmp_path_factory.mktemp("probe")
    return engine_module(model, folder, "probe_engine"), InterpretedEngine(model)


def _without_gold(engine: Any, state: Any) -> Any:
    data = engine.to_json(state)
    data["supply"]["gold"] = 0
    return engine.from_json(data, complete=False)  # a hand-made position


def test_probe_requirement_is_the_whole_condition(probe: tuple[ModuleType, InterpretedEngine]):
    """`require count(reserved) < 3 and supply(gold) > 0`: with no gold in
    the supply, neither engine offers or accepts a reserve, and both give
    the same reason."""
    generated, interpreted = probe
    messages = []
    for engine in (generated, interpreted):
        state = _without_gold(engine, engine.new_game(2, 1))
        assert not [a for a in engine.legal_actions(state) if a[0] == "reserve"]
        card = engine.to_json(state)["market"]["1"][0]
        with pytest.raises(engine.IllegalAction) as refused:
            engine.apply(state, ("reserve", card))
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("S-3.4: needs a gold")


def test_probe_reserve_with_gold_agrees(probe: tuple[ModuleType, InterpretedEngine]):
    generated, interpreted = probe
    states = [engine.new_game(2, 1) for engine in (generated, interpreted)]
    reserves = [
        [a for a in engine.legal_actions(state) if a[0] == "reserve"]
        for engine, state in zip(probe, states, strict=True)
    ]
    assert reserves[0] == reserves[1] and reserves[0]
    after = [
        engine.to_json(engine.apply(state, reserves[0][0]))
        for engine, state in zip(probe, states, strict=True)
    ]
    assert after[0] == after[1]


# ------------------------------------- random expressions, both engines


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> tuple[m.Edition, ModuleType]:
    model = checked(editions_folder() / "classic.rules")
    folder = tmp_path_factory.mktemp("classic")
    return model, engine_module(model, folder, "classic_engine_for_expressions")


def colour(name: str) -> m.Expr:
    return m.Ref(type=m.COLOUR, span=SPAN, kind="colour", name=name)


def supply(name: str) -> m.Expr:
    return m.Call(type=m.INT, span=SPAN, function="supply", arguments=(colour(name),))


COLOURS = ("white", "blue", "green", "red", "black")


def integers() -> st.SearchStrategy[m.Expr]:
    leaves = st.one_of(
        st.integers(0, 9).map(lambda v: m.Const(type=m.INT, span=SPAN, value=v)),
        st.sampled_from(COLOURS).map(supply),
    )

    def grow(inner: st.SearchStrategy[m.Expr]) -> st.SearchStrategy[m.Expr]:
        return st.one_of(
            st.builds(
                lambda op, a, b: m.Binary(type=m.INT, span=SPAN, op=op, left=a, right=b),
                st.sampled_from(("+", "-", "*")),
                inner,
                inner,
            ),
            inner.map(lambda a: m.Unary(type=m.INT, span=SPAN, op="-", operand=a)),
            st.builds(
                lambda c, a, b: m.Conditional(
                    type=m.INT, span=SPAN, then=a, condition=c, otherwise=b
                ),
                booleans(inner),
                inner,
                inner,
            ),
        )

    return st.recursive(leaves, grow, max_leaves=8)


def booleans(numbers: st.SearchStrategy[m.Expr] | None = None) -> st.SearchStrategy[m.Expr]:
    numbers = (
        numbers
        if numbers is not None
        else st.integers(0, 9).map(lambda v: m.Const(type=m.INT, span=SPAN, value=v))
    )
    comparisons = st.builds(
        lambda op, a, b: m.Binary(type=m.BOOL, span=SPAN, op=op, left=a, right=b),
        st.sampled_from(("<", "<=", ">", ">=", "==", "!=")),
        numbers,
        numbers,
    )
    leaves = st.one_of(
        st.booleans().map(lambda v: m.Const(type=m.BOOL, span=SPAN, value=v)), comparisons
    )

    def grow(inner: st.SearchStrategy[m.Expr]) -> st.SearchStrategy[m.Expr]:
        return st.one_of(
            st.builds(
                lambda op, operands: m.Logic(
                    type=m.BOOL, span=SPAN, op=op, operands=tuple(operands)
                ),
                st.sampled_from(("and", "or")),
                st.lists(inner, min_size=2, max_size=4),
            ),
            inner.map(lambda a: m.Unary(type=m.BOOL, span=SPAN, op="not", operand=a)),
            st.builds(
                lambda c, a, b: m.Conditional(
                    type=m.BOOL, span=SPAN, then=a, condition=c, otherwise=b
                ),
                inner,
                inner,
                inner,
            ),
            st.builds(
                lambda op, a, b: m.Binary(type=m.BOOL, span=SPAN, op=op, left=a, right=b),
                st.sampled_from(("==", "!=")),
                inner,
                inner,
            ),
        )

    return st.recursive(leaves, grow, max_leaves=6)


INTEGERS = integers()
EXPRESSIONS = st.one_of(booleans(INTEGERS), INTEGERS)


@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # the strategy's own repr
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression=EXPRESSIONS, supplies=st.lists(st.integers(0, 7), min_size=5, max_size=5))
def test_emitted_expressions_evaluate_as_the_interpreter(
    classic: tuple[m.Edition, ModuleType], expression: m.Expr, supplies: list[int]
):
    model, generated = classic
    interpreter = InterpretedEngine(model)
    data = generated.to_json(generated.new_game(2, 0))
    data["supply"].update(zip(COLOURS, supplies, strict=True))
    code = printer.expression(ExprEmitter(Names(model)).emit(expression, Frame()))
    got = eval(code, vars(generated), {"s": generated.from_json(data, complete=False), "p": 0})
    position = interpreter.from_json(data, complete=False)  # a hand-made supply
    expected = interpreter.definitions.env(position, 0).visit(expression)
    assert got == expected and type(got) is type(expected), code


def test_a_requirement_of_a_conditional_is_refused_whole():
    """`not (a if c else b)` keeps its parentheses."""
    a, b, c = (m.Const(type=m.BOOL, span=SPAN, value=v) for v in (True, False, False))
    conditional = m.Conditional(type=m.BOOL, span=SPAN, then=a, condition=c, otherwise=b)
    model = checked(editions_folder() / "classic.rules")
    tree = ExprEmitter(Names(model)).emit(conditional, Frame())
    text = printer.expression(py.not_(tree))
    assert text == "not (True if False else False)"
    assert eval(text) is True


# ------------------------------------------------------------ the printer

NAMES = st.sampled_from(("a", "b", "x", "y"))


def trees() -> st.SearchStrategy[ast.expr]:
    leaves = st.one_of(
        NAMES.map(py.name),
        st.integers(-3, 9).map(py.const),
        st.booleans().map(py.const),
        st.text("ab'\"\\\n", max_size=3).map(py.const),
    )

    def grow(inner: st.SearchStrategy[ast.expr]) -> st.SearchStrategy[ast.expr]:
        binary_ops = ("+", "-", "*", "&", "<", "<=", "==", "!=", "in", "is not")
        return st.one_of(
            st.builds(py.binary, inner, st.sampled_from(binary_ops), inner),
            st.builds(
                py.logic, st.sampled_from(("and", "or")), st.lists(inner, min_size=2, max_size=3)
            ),
            inner.map(py.not_),
            inner.map(py.negative),
            st.builds(py.if_expression, inner, inner, inner),
            st.builds(py.item, inner, inner),
            st.builds(lambda f, args: py.call(f, *args), inner, st.lists(inner, max_size=2)),
            st.lists(inner, max_size=3).map(py.tuple_),
            st.lists(inner, max_size=3).map(py.list_),
            st.builds(lambda e, v, o, c: py.generator(e, v, o, c), inner, NAMES, inner, inner),
            st.builds(lambda e, v, o: py.list_of(e, v, o), inner, NAMES, inner),
            st.builds(lambda e, v, o: py.call("f", py.generator(e, v, o)), inner, NAMES, inner),
            st.builds(py.attr, inner, st.just("real")),
        )

    return st.recursive(leaves, grow, max_leaves=15)


@settings(max_examples=500, deadline=None)
@given(tree=trees())
def test_printed_expressions_parse_back_to_their_tree(tree: ast.expr):
    text = printer.expression(tree)
    assert ast.dump(ast.parse(text, mode="eval").body) == ast.dump(tree), text


def _docstring(statement: ast.stmt) -> ast.stmt:
    """A docstring of a top-level function as Python parses it back."""
    if isinstance(statement, py.Docstring):
        return ast.Expr(value=ast.Constant(value="\n    ".join(statement.lines)))
    return statement


def _without_comments(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                kept = [_docstring(s) for s in statements if not isinstance(s, py.Comment)]
                setattr(node, field, kept)
    return tree


@pytest.mark.parametrize("path", edition_files(editions_folder()), ids=lambda p: p.stem)
def test_every_generated_function_parses_back_to_its_tree(
    path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The functions of a shipped engine, printed and parsed again, are the
    trees the lowering built."""
    printed: list[tuple[str, ast.FunctionDef]] = []
    text_of = py.Function.text

    def recording(function: py.Function, width: int | None = None) -> str:
        text = text_of(function, width)
        printed.append((text, function.tree()))
        return text

    monkeypatch.setattr(py.Function, "text", recording)
    render_engine(checked(path), ROOT)
    assert len(printed) > 20
    for text, tree in printed:
        parsed = ast.parse(text).body[0]
        assert ast.dump(parsed) == ast.dump(_without_comments(tree)), text


# ------------------------------------------ found by the random editions

FOUND_BY_FUZZING = {
    # An empty block: its Python block needs a statement.
    "empty_block": """
  override [S-3.4] action reserve "reserve a card" {
    require count(reserved) < 3 else "at most 3"
    choose k from market, deck tops
    move k to reserved
    if supply(gold) > 0 {
    }
  }
  trigger nothing: after card k enters bought {}
""",
    # A card from a deck top moved again into a zone that hides it stays hidden.
    "hidden_card_moved_again": """
  override [S-3.4] action reserve "reserve a card" {
    choose k from deck tops
    move k to reserved
    move k to reserved
  }
""",
    # A let read by a payment's discount: assigned before the discount is.
    "discount_from_let": """
  override [S-3.5] action buy "buy a card" {
    let b = bonus
    choose k from market, reserved
    pay k.cost less b
    move k to bought
  }
""",
}


@pytest.mark.parametrize("name", sorted(FOUND_BY_FUZZING))
def test_shapes_the_fuzzer_found_build_and_play_alike(name: str, tmp_path: Path):
    rules = tmp_path / f"{name}.rules"
    rules.write_text(
        f'edition {name} "{name}" extends classic {{{FOUND_BY_FUZZING[name]}}}\n', "utf-8"
    )
    model = checked(rules)
    generated, interpreted = (
        engine_module(model, tmp_path, f"{name}_engine"),
        InterpretedEngine(model),
    )
    rng = random.Random(1)
    g, i = generated.new_game(2, 1), interpreted.new_game(2, 1)
    for _ in range(60):
        if generated.is_over(g):
            break
        legal = generated.legal_actions(g)
        assert legal == interpreted.legal_actions(i)
        action = rng.choice(legal)
        g, i = generated.apply(g, action), interpreted.apply(i, action)
        assert generated.to_json(g) == interpreted.to_json(i)
