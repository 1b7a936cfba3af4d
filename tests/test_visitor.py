"""The one tree walker and visitor (dsl/visitor.py), on both trees."""

from __future__ import annotations

from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.parser import parse_expression
from splendor_rules.dsl.visitor import Visitor, children, walk


def _expr(text: str) -> s.Expr:
    parsed, diagnostics = parse_expression(text, "<test>", 1, 1)
    assert parsed is not None and not diagnostics
    return parsed


def test_walk_is_preorder_in_source_order() -> None:
    tree = _expr("a + b * c")
    names = [n.name for n in walk(tree) if isinstance(n, s.NameRef)]
    assert names == ["a", "b", "c"]
    assert next(walk(tree)) is tree


def test_walk_does_not_recurse() -> None:
    tree: s.Expr = _expr("x")
    for _ in range(5000):  # deeper than Python's recursion limit
        tree = s.Not(operand=tree, span=tree.span)
    assert sum(1 for _ in walk(tree)) == 5001


def test_children_are_the_direct_nodes() -> None:
    tree = _expr("min(a, b)")
    assert isinstance(tree, s.Call)
    assert [type(c).__name__ for c in children(tree)] == ["Name", "NameRef", "NameRef"]


class _Names(Visitor):
    def __init__(self) -> None:
        self.found: list[str] = []

    def visit_NameRef(self, node: s.NameRef) -> None:
        self.found.append(node.name)


class _Kinds(Visitor):
    def visit_Expr(self, node: s.Expr) -> str:
        return "expression"

    def visit_IntLit(self, node: s.IntLit) -> str:
        return "number"


def test_visitor_dispatches_by_class_and_visits_children_by_default() -> None:
    names = _Names()
    names.visit(_expr("a and not (b or c)"))
    assert names.found == ["a", "b", "c"]


def test_visitor_falls_back_to_the_nearest_base_class() -> None:
    kinds = _Kinds()
    assert kinds.visit(_expr("3")) == "number"
    assert kinds.visit(_expr("a")) == "expression"


class _Depths(Visitor):
    """Counts the `not`s around each name: an extra argument of visit."""

    def __init__(self) -> None:
        self.found: list[tuple[str, int]] = []

    def visit_NameRef(self, node: s.NameRef, depth: int) -> None:
        self.found.append((node.name, depth))

    def visit_Not(self, node: s.Not, depth: int) -> None:
        self.visit(node.operand, depth + 1)


def test_visitor_passes_extra_arguments_on_to_methods_and_children() -> None:
    depths = _Depths()
    depths.visit(_expr("a and not (b or not c)"), 0)
    assert depths.found == [("a", 0), ("b", 1), ("c", 2)]
