"""The back end dispatches on statements and steps one way: the engine
plan's builder walks the model with `dsl.visitor.Visitor` (`visit_<Node>`
methods) and each target prints the plan's operations the same way. This test reads every
module of `compiler/backend/` with `ast` and refuses an `isinstance` ladder
over the model's statement kinds: two or more `isinstance(_, m.X)` tests
naming statement classes in one function (a comprehension counts with its
function). A single test (a filter, a guard) is no ladder."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import attrs
import pytest

from splendor_rules.compiler.frontend import model as m

ROOT = Path(__file__).resolve().parent.parent
BACKEND = ROOT / "compiler" / "backend"
MODULES = sorted(BACKEND.rglob("*.py"))
# Every statement class of the model, found from the model (not listed), and
# the kinds of end-of-turn step (the plan's builder visits them too).
STATEMENTS = frozenset(
    name
    for name, value in vars(m).items()
    if isinstance(value, type) and attrs.has(value) and issubclass(value, m.Statement)
) | frozenset(kind.__name__ for kind in typing.get_args(m.Step))
# Functions allowed a ladder, each with why (none today).
ALLOWED: dict[str, str] = {}


def _named(node: ast.expr) -> set[str]:
    """The statement classes a class argument of isinstance names
    (`m.Let`, `m.Let | m.Choose`, `(m.Let, m.Choose)`)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return {node.attr} & STATEMENTS if node.value.id == "m" else set()
    if isinstance(node, ast.BinOp):
        return _named(node.left) | _named(node.right)
    if isinstance(node, ast.Tuple):
        return {name for element in node.elts for name in _named(element)}
    return set()


def _own_nodes(function: ast.AST) -> list[ast.AST]:
    """The nodes of a function, less those of the functions inside it."""
    found: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def ladders(source: str, module: str) -> list[str]:
    """The functions of a module that test two or more statement kinds."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        tests = [
            node
            for node in _own_nodes(function)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
            and _named(node.args[1])
        ]
        where = f"{module}:{function.name}"
        if len(tests) >= 2 and where not in ALLOWED:
            kinds = sorted({k for t in tests for k in _named(t.args[1])})
            found.append(f"{where} (line {function.lineno}): {len(tests)} tests of {kinds}")
    return found


def test_the_model_has_statement_classes() -> None:
    assert {"Let", "Choose", "Require", "Pay", "If", "TokenLimit", "EndCheck"} <= STATEMENTS


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_isinstance_ladder_over_statements(path: Path) -> None:
    module = path.relative_to(ROOT).as_posix()
    assert ladders(path.read_text(encoding="utf-8"), module) == []


def test_a_ladder_is_found() -> None:
    probe = (
        "def effects(st):\n"
        "    if isinstance(st, m.Gain):\n"
        "        return 1\n"
        "    elif isinstance(st, m.Move | m.If):\n"
        "        return [x for x in st.body if isinstance(x, (m.Let, m.Pay))]\n"
        "def one(st):\n"
        "    return isinstance(st, m.Require) and isinstance(st.condition, m.Binary)\n"
    )
    assert ladders(probe, "probe") == [
        "probe:effects (line 1): 3 tests of ['Gain', 'If', 'Let', 'Move', 'Pay']"
    ]


def test_every_allowed_ladder_is_still_there() -> None:
    for where in ALLOWED:
        module, function = where.split(":")
        source = (ROOT / module).read_text(encoding="utf-8")
        assert f"def {function}(" in source, f"{where} is allowed but gone"
