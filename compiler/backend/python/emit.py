"""Model expressions -> Python expression trees.

An expression is emitted in a `Frame` (which state, which player, which
locals) and becomes an `ast` expression over the engine's state; `nodes`
renders it. Strings from a rule file only ever become `ast.Constant`s and
names only prefixed identifiers (`names.ident`), so nothing in a rule file
can inject code, and the tree's shape, not spliced text, fixes precedence.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, ClassVar

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import Names
from splendor_rules.compiler.frontend import model as m

# The engine functions that only some editions need: the template writes one
# when the lowering reports it used (`ExprEmitter.helpers`).
OPTIONAL_HELPERS = ("_tally", "_plain_combinations", "_unique")


def element(t: m.Type) -> m.Type:
    """The type of the elements of a collection type; any other type itself."""
    return t.element if t.kind in ("set", "list") and t.element is not None else t


class ExprEmitter:
    """Model expression -> Python expression tree, in a frame.

    It also records which optional engine helpers the code it emitted calls
    (`helpers`), so the template writes exactly those.
    """

    _emitters: ClassVar[dict[type, str]] = {
        m.Const: "const",
        m.Ref: "ref",
        m.Attr: "attribute",
        m.Index: "index",
        m.Call: "call",
        m.Unary: "unary",
        m.Binary: "binary",
        m.Logic: "logic",
        m.Conditional: "conditional",
        m.Filter: "filter",
        m.PerColour: "per_colour",
        m.Quantifier: "quantifier",
    }

    def __init__(self, names: Names) -> None:
        self.names = names
        self.helpers: set[str] = set()

    def helper(self, function: str) -> ast.Name:
        """A call target among the optional helpers, recorded as used."""
        assert function in OPTIONAL_HELPERS, function
        self.helpers.add(function)
        return py.name(function)

    def emit(self, e: m.Expr, frame: Frame) -> ast.expr:
        aggregate = analysis.aggregate_of(e)
        if aggregate is not None and aggregate in self.names.aggregates:
            agg = py.attr(frame.state, "agg")
            return py.item(agg, frame.player, self.names.aggregates[aggregate])
        method = self._emitters.get(type(e))
        if method is None:
            raise AssertionError(f"cannot emit {type(e).__name__}")
        emitter: Callable[[Any, Frame], ast.expr] = getattr(self, method)
        return emitter(e, frame)

    def const(self, e: m.Const, frame: Frame) -> ast.expr:
        return py.const(e.value)

    def attribute(self, e: m.Attr, frame: Frame) -> ast.expr:
        column = self.names.column(element(e.subject.type), e.attribute)
        if e.subject.type.kind in ("set", "list"):
            item = frame.temporary("i")
            return py.list_of(py.item(column, item), item, self.emit(e.subject, frame))
        return py.item(column, self.emit(e.subject, frame))

    def index(self, e: m.Index, frame: Frame) -> ast.expr:
        return py.item(self.emit(e.subject, frame), self.emit(e.index, frame))

    def unary(self, e: m.Unary, frame: Frame) -> ast.expr:
        operand = self.emit(e.operand, frame)
        return py.negative(operand) if e.op == "-" else py.not_(operand)

    def binary(self, e: m.Binary, frame: Frame) -> ast.expr:
        return py.binary(self.emit(e.left, frame), e.op, self.emit(e.right, frame))

    def logic(self, e: m.Logic, frame: Frame) -> ast.expr:
        return py.logic(e.op, [self.emit(o, frame) for o in e.operands])

    def conditional(self, e: m.Conditional, frame: Frame) -> ast.expr:
        return py.if_expression(
            self.emit(e.condition, frame), self.emit(e.then, frame), self.emit(e.otherwise, frame)
        )

    def filter(self, e: m.Filter, frame: Frame) -> ast.expr:
        var = frame.temporary(e.variable)
        condition = self.emit(e.condition, frame.bind(e.variable, var))
        return py.call(
            "tuple", py.generator(py.name(var), var, self.emit(e.source, frame), condition)
        )

    def per_colour(self, e: m.PerColour, frame: Frame) -> ast.expr:
        tally = analysis.tally_of(e)
        if tally is not None:
            # A tally of any source: one pass over it, not one per colour.
            source, column = tally
            counted = self.emit(source, frame)
            return py.call(self.helper("_tally"), counted, self.names.card_column(column))
        # The colours are known: one element per colour, no loop.
        colours = range(len(self.names.edition.colours))
        return py.tuple_([self.emit(e.body, frame.bind(e.variable, c)) for c in colours])

    def quantifier(self, e: m.Quantifier, frame: Frame) -> ast.expr:
        if e.variable is None:
            other = frame.temporary("p")
            body = self.emit(e.body, frame.of(other))
            players = py.call("range", py.attr(frame.state, "players"))
            return py.call(e.op, py.generator(body, other, players))
        assert e.source is not None
        if isinstance(e.source, m.Ref) and e.source.kind == "colours":
            # The colours are known: the body once per colour, no loop.
            colours = range(len(self.names.edition.colours))
            bodies = [self.emit(e.body, frame.bind(e.variable, c)) for c in colours]
            return py.logic("and" if e.op == "all" else "or", bodies)
        var = frame.temporary(e.variable)
        body = self.emit(e.body, frame.bind(e.variable, var))
        return py.call(e.op, py.generator(body, var, self.emit(e.source, frame)))

    def ref(self, e: m.Ref, frame: Frame) -> ast.expr:
        n = self.names
        state = frame.state
        if e.kind == "variable":
            return py.value(frame.locals[e.name])
        if e.kind in ("colour", "token"):
            return n.token(e.name)
        if e.kind == "colours":
            return py.name("COLOUR_KINDS")
        if e.kind == "players":
            return py.attr(state, "players")
        if e.kind == "zone":
            return py.item(py.attr(state, "zones"), n.zone(e.name), frame.player)
        if e.kind == "market":
            return py.call("_market", py.name(state))
        if e.kind == "tiles":
            return py.item(py.attr(state, "tiles"), n.tile_set(e.name))
        if e.kind == "define":
            if e.name in frame.prebound:
                return py.name(frame.prebound[e.name])
            return py.call(n.define(e.name), py.name(state), py.value(frame.player))
        if e.kind == "score":
            return py.call("_score", py.name(state), py.value(frame.player))
        raise AssertionError(f"cannot emit a reference to a {e.kind}")

    def call(self, e: m.Call, frame: Frame) -> ast.expr:
        n = self.names
        state = frame.state
        arguments = e.arguments
        if e.function == "holds":
            assert isinstance(arguments[0], m.Ref)
            majority = arguments[0].name
            zone = n.zone(n.majority_zone[majority])
            held = py.item(py.attr(state, "zones"), zone, frame.player)
            return py.binary(n.majority(majority), "in", held)
        if e.function == "did":
            assert isinstance(arguments[0], m.Ref)
            did = py.item(py.attr(state, "did"), frame.player)
            return py.call("bool", py.binary(did, "&", n.action_bit(arguments[0].name)))
        parts = [self.emit(a, frame) for a in arguments]
        if e.function == "supply":
            return py.item(py.attr(state, "supply"), parts[0])
        if e.function == "tokens":
            return py.item(py.attr(state, "held"), frame.player, parts[0])
        if e.function == "count":
            return py.call("len", parts[0])
        if e.function in ("sum", "min", "max"):
            return py.call(e.function, *parts)
        raise AssertionError(f"cannot emit a call of {e.function}")
