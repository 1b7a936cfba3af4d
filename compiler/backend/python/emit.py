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
from typing import Any

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import Names
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import Visitor

# The engine functions that only some editions need: the template writes one
# when the lowering reports it used (`ExprEmitter.helpers`).
OPTIONAL_HELPERS = (
    "_tally",
    "_totals",
    "_plain_combinations",
    "_unique",
    "_transfer",
    "_bag_tokens",
)


def is_bag(e: m.Expr | None) -> bool:
    """Is the expression the board's bag itself?"""
    return isinstance(e, m.Ref) and e.kind == "bag"


def element(t: m.Type) -> m.Type:
    """The type of the elements of a collection type; any other type itself."""
    return t.element if t.kind in ("set", "list") and t.element is not None else t


class ExprEmitter:
    """Model expression -> Python expression tree, in a frame.

    It also records which optional engine helpers the code it emitted calls
    (`helpers`), so the template writes exactly those.
    """

    def __init__(self, names: Names) -> None:
        self.names = names
        self.helpers: set[str] = set()

    def helper(self, function: str) -> ast.Name:
        """A call target among the optional helpers, recorded as used."""
        assert function in OPTIONAL_HELPERS, function
        self.helpers.add(function)
        return py.name(function)

    def emit(self, e: m.Expr, frame: Frame) -> ast.expr:
        return _Emission(self, frame).expr(e)


class _Emission(Visitor):
    """The emission of one expression in one frame (dispatched by
    dsl.visitor); a part read in another frame is a new emission."""

    def __init__(self, emitter: ExprEmitter, frame: Frame) -> None:
        self.emitter = emitter
        self.names = emitter.names
        self.frame = frame

    def expr(self, e: m.Expr) -> ast.expr:
        """A part of the expression, in the same frame."""
        aggregate = analysis.aggregate_of(e)
        if aggregate is not None and aggregate in self.names.aggregates:
            agg = py.attr(self.frame.state, "agg")
            return py.item(agg, self.frame.player, self.names.aggregates[aggregate])
        emitted: ast.expr = self.visit(e)
        return emitted

    def within(self, e: m.Expr, frame: Frame) -> ast.expr:
        """A part of the expression read in another frame."""
        return self.emitter.emit(e, frame)

    def generic_visit(self, node: Any) -> Any:
        raise AssertionError(f"cannot emit {type(node).__name__}")

    def visit_Const(self, e: m.Const) -> ast.expr:
        if e.value is None:  # none, the colour of no colour
            return py.const(-1)
        return py.const(e.value)

    def visit_Attr(self, e: m.Attr) -> ast.expr:
        if e.source == "value":  # held by the state: s.values[V_name][card]
            values = py.attr(self.frame.state, "values")
            column = py.item(values, self.names.card_value(e.attribute))
        elif (
            e.attribute == "token"
            and isinstance(e.subject, m.Ref)
            and e.subject.kind == "variable"
            and e.subject.name in self.frame.cell_tokens
        ):  # a cell's token, held by a local
            return py.name(self.frame.cell_tokens[e.subject.name])
        elif element(e.subject.type) == m.CELL:  # a cell's token (-1: none), row or column
            cells = {"token": py.attr(self.frame.state, "board"), "row": py.name("_CELL_ROW")}
            column = cells.get(e.attribute, py.name("_CELL_COLUMN"))
        else:
            column = self.names.column(element(e.subject.type), e.attribute)
        if e.subject.type.kind in ("set", "list"):
            item = self.frame.temporary("i")
            return py.list_of(py.item(column, item), item, self.expr(e.subject))
        return py.item(column, self.expr(e.subject))

    def visit_Index(self, e: m.Index) -> ast.expr:
        return self.unless_none(e.index, lambda index: py.item(self.expr(e.subject), index))

    def unless_none(self, kind: m.Expr, read: Callable[[ast.expr], ast.expr]) -> ast.expr:
        """What `read` makes of a colour or token kind, or 0 when the kind
        is none (-1: a colour card value never set, or a `colour or none`
        column's empty cell)."""
        index = self.expr(kind)
        if isinstance(index, ast.Constant):  # a colour known when generating
            return py.const(0) if index.value == -1 else read(index)
        if not self.names.may_be_none(kind):
            return read(index)
        return py.if_expression(py.binary(index, ">=", py.const(0)), read(index), py.const(0))

    def visit_Apply(self, e: m.Apply) -> ast.expr:
        arguments = [self.expr(a) for a in e.arguments]
        state, player = py.name(self.frame.state), py.value(self.frame.player)
        return py.call(self.names.define(e.name), state, player, *arguments)

    def visit_Unary(self, e: m.Unary) -> ast.expr:
        operand = self.expr(e.operand)
        return py.negative(operand) if e.op == "-" else py.not_(operand)

    def visit_Binary(self, e: m.Binary) -> ast.expr:
        # the rules' `/` rounds down, as Python's `//` does (and `%` alike)
        op = "//" if e.op == "/" else e.op
        return py.binary(self.expr(e.left), op, self.expr(e.right))

    def visit_Logic(self, e: m.Logic) -> ast.expr:
        return py.logic(e.op, [self.expr(o) for o in e.operands])

    def visit_Conditional(self, e: m.Conditional) -> ast.expr:
        return py.if_expression(self.expr(e.condition), self.expr(e.then), self.expr(e.otherwise))

    def visit_Filter(self, e: m.Filter) -> ast.expr:
        var = self.frame.temporary(e.variable)
        if isinstance(e.source, m.Ref) and e.source.kind == "board":
            # the cells that hold a token and pass: one pass over the board,
            # each cell's token read once
            token = self.frame.temporary("t")
            inner = self.frame.bind_cell(e.variable, var, token)
            held = py.binary(py.name(token), ">=", py.const(0))
            test = py.logic("and", [held, self.within(e.condition, inner)])
            cells = py.call("enumerate", py.attr(self.frame.state, "board"))
            return py.call("tuple", py.generator(py.name(var), (var, token), cells, test))
        condition = self.within(e.condition, self.frame.bind(e.variable, var))
        return py.call("tuple", py.generator(py.name(var), var, self.expr(e.source), condition))

    def visit_PerColour(self, e: m.PerColour) -> ast.expr:
        tally = analysis.tally_of(e)
        if tally is not None and tally[1] not in self.names.none_columns:
            # A tally of any source: one pass over it, not one per colour.
            source, column = tally
            counted = self.expr(source)
            return py.call(self.emitter.helper("_tally"), counted, self.names.card_column(column))
        by_colour = analysis.total_by_colour(e)
        if by_colour is not None:
            # Totals by colour: one pass over the source, not one per colour.
            total, colour = by_colour
            var = self.frame.temporary(total.variable)
            inner = self.frame.bind(total.variable, var)
            pair = py.tuple_([self.within(colour, inner), self.within(total.body, inner)])
            pairs = py.generator(pair, var, self.expr(total.source))
            return py.call(self.emitter.helper("_totals"), pairs)
        # The colours are known: one element per colour, no loop.
        colours = range(len(self.names.edition.colours))
        return py.tuple_([self.within(e.body, self.frame.bind(e.variable, c)) for c in colours])

    def visit_Quantifier(self, e: m.Quantifier) -> ast.expr:
        if e.variable is None:
            other = self.frame.temporary("p")
            body = self.within(e.body, self.frame.of(other))
            players = py.call("range", py.attr(self.frame.state, "players"))
            return py.call(e.op, py.generator(body, other, players))
        assert e.source is not None
        if isinstance(e.source, m.Ref) and e.source.kind == "colours":
            # The colours are known: the body once per colour, no loop.
            colours = range(len(self.names.edition.colours))
            bodies = [self.within(e.body, self.frame.bind(e.variable, c)) for c in colours]
            return py.logic("and" if e.op == "all" else "or", bodies)
        if is_bag(e.source):  # each kind the bag holds
            return py.call(e.op, self.bag_counts(e.variable, e.body, None, weighed=False))
        var = self.frame.temporary(e.variable)
        body = self.within(e.body, self.frame.bind(e.variable, var))
        return py.call(e.op, py.generator(body, var, self.expr(e.source)))

    def bag_counts(
        self, variable: str, body: m.Expr | None, condition: m.Expr | None, weighed: bool = True
    ) -> ast.GeneratorExp:
        """`(element for kind, n in enumerate(s.bag) if test)`: the bag read
        kind by kind from its counts, never listed token by token (it may
        hold any number). Weighed (a count, a sum): the element is `n`, or
        `n` times `body`, for each kind that passes `condition`; not weighed
        (`any`, `all`): `body` for each kind the bag holds."""
        kind, held = self.frame.temporary(variable), self.frame.temporary("n")
        inner = self.frame.bind(variable, kind)
        count = py.name(held)
        element = count if body is None else self.within(body, inner)
        test: ast.expr | None = count  # n > 0
        if weighed:
            if body is not None:
                element = py.binary(count, "*", element)
            test = self.within(condition, inner) if condition is not None else None
        pairs = py.call("enumerate", py.attr(self.frame.state, "bag"))
        return py.generator(element, (kind, held), pairs, test)

    def visit_Total(self, e: m.Total) -> ast.expr:
        if is_bag(e.source):  # each kind, times its count
            return py.call("sum", self.bag_counts(e.variable, e.body, e.condition))
        var = self.frame.temporary(e.variable)
        inner = self.frame.bind(e.variable, var)
        body = self.within(e.body, inner)
        condition = self.within(e.condition, inner) if e.condition is not None else None
        return py.call("sum", py.generator(body, var, self.expr(e.source), condition))

    def visit_PlayerRef(self, e: m.PlayerRef) -> ast.expr:
        """A seat named from the player in context, in turn order."""
        me, players = py.value(self.frame.player), py.attr(self.frame.state, "players")
        if e.which == "you":
            return me
        if e.which == "others":
            k = self.frame.temporary("k")
            seat = py.binary(py.binary(me, "+", py.name(k)), "%", players)
            return py.call("tuple", py.generator(seat, k, py.call("range", py.const(1), players)))
        step = py.binary(players, "-", py.const(1)) if e.which == "previous" else py.const(1)
        return py.binary(py.binary(me, "+", step), "%", players)

    def visit_OfPlayer(self, e: m.OfPlayer) -> ast.expr:
        """The value read for another player: a name or a seat stands in the
        frame; anything else is read once, `next(value for q in (player,))`."""
        player = self.expr(e.player)
        if isinstance(player, ast.Name):
            return self.within(e.value, self.frame.of(player.id))
        other = self.frame.temporary("q")
        value = self.within(e.value, self.frame.of(other))
        return py.call("next", py.generator(value, other, py.tuple_([player])))

    def visit_Ref(self, e: m.Ref) -> ast.expr:
        n = self.names
        state = self.frame.state
        if e.kind == "variable":
            return py.value(self.frame.locals[e.name])
        if e.kind in ("colour", "token"):
            return n.token(e.name)
        if e.kind == "colours":
            return py.name("COLOUR_KINDS")
        if e.kind == "players":
            return py.attr(state, "players")
        if e.kind == "zone":
            return py.item(py.attr(state, "zones"), n.zone(e.name), self.frame.player)
        if e.kind == "market":
            return py.call("_market", py.name(state))
        if e.kind == "tiles":
            return py.item(py.attr(state, "tiles"), n.tile_set(e.name))
        if e.kind == "define":
            if e.name in self.frame.prebound:
                return py.name(self.frame.prebound[e.name])
            return py.call(n.define(e.name), py.name(state), py.value(self.frame.player))
        if e.kind == "score":
            return py.call("_score", py.name(state), py.value(self.frame.player))
        if e.kind == "board":
            return py.call("_occupied", py.name(state))
        if e.kind == "bag":
            return py.call(self.emitter.helper("_bag_tokens"), py.name(state))
        raise AssertionError(f"cannot emit a reference to a {e.kind}")

    def visit_Call(self, e: m.Call) -> ast.expr:
        n = self.names
        state = self.frame.state
        arguments = e.arguments
        if e.function == "holds":
            assert isinstance(arguments[0], m.Ref)
            majority = arguments[0].name
            zone = n.zone(n.majority_zone[majority])
            held = py.item(py.attr(state, "zones"), zone, self.frame.player)
            return py.binary(n.majority(majority), "in", held)
        if e.function == "did":
            assert isinstance(arguments[0], m.Ref)
            did = py.item(py.attr(state, "did"), self.frame.player)
            return py.call("bool", py.binary(did, "&", n.action_bit(arguments[0].name)))
        if e.function == "supply":
            supply = py.attr(state, "supply")
            return self.unless_none(arguments[0], lambda kind: py.item(supply, kind))
        if e.function == "tokens":
            held = py.attr(state, "held")
            return self.unless_none(
                arguments[0], lambda kind: py.item(held, self.frame.player, kind)
            )
        if e.function == "count" and is_bag(arguments[0]):  # the bag's counts
            return py.call("sum", py.attr(state, "bag"))
        counted = arguments[0] if e.function == "count" else None
        if isinstance(counted, m.Filter) and is_bag(counted.source):
            return py.call("sum", self.bag_counts(counted.variable, None, counted.condition))
        parts = [self.expr(a) for a in arguments]
        if e.function == "count":
            return py.call("len", parts[0])
        if e.function == "distinct":  # colours less none (-1): len(set(x for x in L if x >= 0))
            if arguments[0].type.element == m.INT:
                return py.call("len", py.call("set", parts[0]))
            x = self.frame.temporary("x")
            kept = py.generator(py.name(x), x, parts[0], py.binary(py.name(x), ">=", py.const(0)))
            return py.call("len", py.call("set", kept))
        if e.function in ("sum", "min", "max"):
            return py.call(e.function, *parts)
        raise AssertionError(f"cannot emit a call of {e.function}")
