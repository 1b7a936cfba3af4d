"""The syntax tree written back as rule text (dsl/unparse.py).

Faithful: parsing the printed text gives the same tree (spans aside), for
every rule file the project has (editions, variants, the parsable broken
goldens), every expression and statement in them one by one, random
expression trees, and random editions of the fuzz generator (a fixed set by
default; UNPARSE_EXAMPLES=N draws N fresh ones). Minimal: every
pair of parentheses the printer writes is needed (taking it away changes
the tree, or the text no longer parses).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fuzz.children import editions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from splendor_rules.compiler.frontend.pipeline import edition_files
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.parser import parse_edition, parse_expression
from splendor_rules.dsl.unparse import (
    unparse_declaration,
    unparse_edition,
    unparse_expression,
    unparse_statements,
)
from splendor_rules.dsl.visitor import walk

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted(
    [
        *edition_files(),
        *(ROOT / "tests" / "variants").glob("*.rules"),
        *(ROOT / "tests" / "broken").glob("*.rules"),
    ]
)
SPAN = s.Span("<test>", 1, 1, 1, 2)
# By default a fixed (derandomized) set of examples; UNPARSE_EXAMPLES=N for
# N fresh ones.
EXAMPLES = int(os.environ.get("UNPARSE_EXAMPLES") or 0)


def _tree(path: Path) -> s.Edition | None:
    tree, _ = parse_edition(path.read_text(encoding="utf-8"), str(path))
    return tree


PARSED = [(p, t) for p in RULE_FILES if (t := _tree(p)) is not None]


def _reparse_value(text: str) -> s.Expr:
    """An expression printed where a value may stand, read back as the
    argument of a call (where filters and quantified arguments may stand)."""
    tree, diagnostics = parse_expression(f"f({text})", "<test>", 1, 1)
    assert tree is not None, (text, diagnostics)
    assert isinstance(tree, s.Call) and len(tree.arguments) == 1, text
    return tree.arguments[0]


def _reparse_statements(lines: list[str]) -> tuple[s.Statement, ...]:
    body = "\n".join("    " + line for line in lines)
    text = f'edition t "T" {{\n  action a {{\n{body}\n  }}\n}}\n'
    tree, diagnostics = parse_edition(text, "<test>")
    assert tree is not None, (text, diagnostics)
    action = tree.items[0]
    assert isinstance(action, s.Action) and action.body is not None
    return action.body


def test_every_parsable_rule_file_is_found():
    assert len(PARSED) > 60
    assert any(p.parent.name == "editions" for p, _ in PARSED)


@pytest.mark.parametrize("path,tree", PARSED, ids=[p.name for p, _ in PARSED])
def test_a_rule_file_reads_back_as_the_same_tree(path: Path, tree: s.Edition):
    text = unparse_edition(tree)
    again, diagnostics = parse_edition(text, str(path))
    assert again == tree, (text, diagnostics)
    assert unparse_edition(again) == text  # and prints the same again


@pytest.mark.parametrize("path,tree", PARSED, ids=[p.name for p, _ in PARSED])
def test_each_expression_and_statement_reads_back(path: Path, tree: s.Edition):
    for node in walk(tree):
        # A choice's source, a string compared with: read back in their parent.
        if isinstance(node, s.Expr) and not isinstance(node, s.DeckTops | s.TextLit):
            assert _reparse_value(unparse_expression(node)) == node
        elif isinstance(node, s.Statement):
            assert _reparse_statements(unparse_statements([node])) == (node,)


@pytest.mark.parametrize("path,tree", PARSED, ids=[p.name for p, _ in PARSED])
def test_each_declaration_reads_back(path: Path, tree: s.Edition):
    for item in tree.items:
        text = "\n".join(unparse_declaration(item))
        name, title = tree.name.text, tree.title.value
        again, diagnostics = parse_edition(f'edition {name} "{title}" {{\n{text}\n}}\n', "<t>")
        assert again is not None and again.items == (item,), (text, diagnostics)


def test_the_parentheses_are_those_the_shape_needs():
    cases = {
        "a + b * c": "a + b * c",
        "(a + b) * c": "(a + b) * c",
        "a - (b - c)": "a - (b - c)",
        "(a - b) - c": "a - b - c",
        "-(a + 1)": "-(a + 1)",
        "not (a and b) or c": "not (a and b) or c",
        "a or (b or c)": "a or (b or c)",
        "(a if b else c) if d else e": "(a if b else c) if d else e",
        "a if b else (c if d else e)": "a if b else c if d else e",
        "(a < b) == (c < d)": "(a < b) == (c < d)",
        "count(x in (s) where (x.tier == 1))": "count(x in s where x.tier == 1)",
        '((k.kind)) == "joker"': 'k.kind == "joker"',
        "(a + b).cost[(c)]": "(a + b).cost[c]",
    }
    for written, printed in cases.items():
        tree, _ = parse_expression(written, "<test>", 1, 1)
        assert tree is not None, written
        assert unparse_expression(tree) == printed


def test_a_message_keeps_its_text_and_escapes():
    lines = ['require a > 1 else "needs {a} \\"quoted\\" {{braces}}\\tand a tab"']
    (statement,) = _reparse_statements(lines)
    assert unparse_statements([statement]) == lines
    assert _reparse_statements(unparse_statements([statement])) == (statement,)


def test_rename_changes_the_names_that_refer_to_declarations():
    tree, _ = parse_expression("supply(white) + k.cost[white]", "<test>", 1, 1)
    assert tree is not None
    names = {"white": "mind", "supply": "stock"}
    renamed = unparse_expression(tree, lambda name: names.get(name, name))
    assert renamed == "stock(mind) + k.cost[mind]"


# ------------------------------------------------ random expression trees

_NAMES = st.sampled_from(["a", "b", "k", "x", "supply"])
_OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">="]


def _name(text: str) -> s.Name:
    return s.Name(span=SPAN, text=text)


def _leaves() -> st.SearchStrategy[s.Expr]:
    return st.one_of(
        st.integers(0, 99).map(lambda v: s.IntLit(span=SPAN, value=v)),
        st.booleans().map(lambda v: s.BoolLit(span=SPAN, value=v)),
        _NAMES.map(lambda n: s.NameRef(span=SPAN, name=n)),
    )


_KINDS = [
    "binary",
    "text",
    "or",
    "and",
    "not",
    "negate",
    "if",
    "attribute",
    "index",
    "call",
    "filter",
    "per_colour",
    "players",
    "over",
]


def _node(kind: str, e1: s.Expr, e2: s.Expr, e3: s.Expr, name: str, op: str) -> s.Expr:
    text = s.TextLit(span=SPAN, text=s.StringLit(span=SPAN, value=name))
    made: dict[str, Any] = {
        "binary": lambda: s.Binary(span=SPAN, op=op, left=e1, right=e2),
        "text": lambda: s.Binary(span=SPAN, op="==", left=e1, right=text),
        "or": lambda: s.Logic(span=SPAN, op="or", operands=(e1, e2, e3)),
        "and": lambda: s.Logic(span=SPAN, op="and", operands=(e1, e2)),
        "not": lambda: s.Not(span=SPAN, operand=e1),
        "negate": lambda: s.Negate(span=SPAN, operand=e1),
        "if": lambda: s.Conditional(span=SPAN, then=e1, condition=e2, otherwise=e3),
        "attribute": lambda: s.Attribute(span=SPAN, subject=e1, attribute=_name("cost")),
        "index": lambda: s.Index(span=SPAN, subject=e1, index=e2),
        "call": lambda: s.Call(span=SPAN, function=_name("count"), arguments=(e1, e2)),
        # Filters and quantified arguments stand only as arguments.
        "filter": lambda: _call(s.Filter(span=SPAN, variable=_name(name), source=e1, condition=e2)),
        "per_colour": lambda: _call(s.PerColour(span=SPAN, variable=_name(name), body=e1)),
        "players": lambda: _call(s.OverPlayers(span=SPAN, body=e1)),
        "over": lambda: _call(
            s.OverSet(span=SPAN, variable=_name(name), source=e1, condition=e2, body=e3)
        ),
    }
    return made[kind]()  # type: ignore[no-any-return]


def _call(argument: s.Expr) -> s.Expr:
    return s.Call(span=SPAN, function=_name("any"), arguments=(argument,))


@st.composite
def _expressions(draw: Any, depth: int = 4) -> s.Expr:
    """A random tree, `depth` levels at most: deep enough for every pair of
    kinds to nest, shallow enough that no chain of one operator reaches the
    length the parser regroups (dsl/building.py, CHAIN_GROUP)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(_leaves())
    kind = draw(st.sampled_from(_KINDS))
    e1, e2, e3 = (draw(_expressions(depth - 1)) for _ in range(3))
    return _node(kind, e1, e2, e3, draw(_NAMES), draw(st.sampled_from(_OPS)))


EXPRESSIONS = _expressions()


def _unneeded_parentheses(text: str, tree: s.Expr) -> list[str]:
    """Each text with one pair of the printed parentheses taken away that
    still reads back as the same tree (there should be none)."""
    found = []
    stack: list[int] = []
    for i, char in enumerate(text):
        if char == "(":
            stack.append(i)
        elif char == ")":
            start = stack.pop()
            if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
                continue  # a call's parentheses
            shorter = text[:start] + text[start + 1 : i] + text[i + 1 :]
            again, _ = parse_expression(shorter, "<test>", 1, 1)
            if again == tree:
                found.append(shorter)
    return found


@settings(max_examples=EXAMPLES or 100, deadline=None, derandomize=not EXAMPLES)
@given(EXPRESSIONS)
def test_random_expressions_read_back_with_no_needless_parentheses(tree: s.Expr):
    text = unparse_expression(tree)
    again, diagnostics = parse_expression(text, "<test>", 1, 1)
    assert again == tree, (text, diagnostics)
    assert _unneeded_parentheses(text, tree) == []


@settings(
    max_examples=EXAMPLES or 25,
    deadline=None,
    derandomize=not EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(editions())
def test_the_fuzz_generators_editions_read_back(drawn: Any):
    for name, text in drawn.files.items():
        if not name.endswith(".rules"):
            continue
        tree, diagnostics = parse_edition(text, name)
        assert tree is not None, (text, diagnostics)
        printed = unparse_edition(tree)
        again, diagnostics = parse_edition(printed, name)
        assert again == tree, (printed, diagnostics)
