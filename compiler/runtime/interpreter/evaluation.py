"""Expression evaluation: the value of a model expression in a position.

An `Env` is where an expression is read (the state, the player in context,
the local names) and also its reader: a `Visitor` over the model's
expressions, one `visit_<Node>` method per kind of expression. Values are
those of values.py. Nothing here changes a state.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.runtime.interpreter import board
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.values import Seat, State, Value
from splendor_rules.dsl.visitor import Visitor

_BINARY: Mapping[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.floordiv,  # rounded down; the checker proves the divisor at least 1
    "%": operator.mod,  # of the divisor's sign
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
_NO_NAMES: Mapping[str, Value] = {}


class Definitions:
    """The definitions (and the score) read for a player. A definition
    depends on nothing else, and states never change, so the values for the
    last state read are kept (a claim's condition reads the same definition
    once per colour and tile)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._state: State | None = None
        self._values: dict[tuple[object, ...], Value] = {}

    def value(self, define: m.Define, state: State, player: int) -> Value:
        if self._state is not state:
            self._state, self._values = state, {}
        key = (define.name, player)
        if key not in self._values:
            self._values[key] = Env(self, state, player).visit(define.value)
        return self._values[key]

    def apply(self, define: m.Define, state: State, player: int, arguments: list[Value]) -> Value:
        """A definition with parameters, read with them bound to the arguments
        (kept as `value` keeps a definition's: a sum per colour reads one
        card's definition once per colour)."""
        if self._state is not state:
            self._state, self._values = state, {}
        key = (define.name, player, *arguments)
        try:
            return self._values[key]
        except KeyError:
            kept = True
        except TypeError:  # an argument that is no key: read it each time
            kept = False
        names = {name: value for (name, _), value in zip(define.parameters, arguments, strict=True)}
        found = Env(self, state, player, names).visit(define.value)
        if kept:
            self._values[key] = found
        return found

    def score(self, state: State, player: int) -> int:
        return int(self.value(self.tables.model.score, state, player))

    def env(self, state: State, player: int | None = None) -> Env:
        """Where an expression is read with no local names."""
        return Env(self, state, player)


class Env(Visitor):
    """Where an expression is read: the state, the player in context (whose
    zones, tokens and definitions bare names mean) and the local names.
    `visit(expr)` is the value of the expression there."""

    def __init__(
        self,
        definitions: Definitions,
        state: State,
        player: int | None,
        names: Mapping[str, Value] = _NO_NAMES,
    ) -> None:
        self.definitions = definitions
        self.tables = definitions.tables
        self.state = state
        self.player = player
        self.names = names

    # ------------------------------------------------------ other places

    def bind(self, name: str, value: Value) -> Env:
        return Env(self.definitions, self.state, self.player, {**self.names, name: value})

    def at(self, state: State) -> Env:
        return Env(self.definitions, state, self.player, self.names)

    def of(self, player: int) -> Env:
        return Env(self.definitions, self.state, player, self.names)

    def holds(self, expr: m.Expr) -> bool:
        return bool(self.visit(expr))

    def whose(self) -> int:
        """The player in context."""
        if self.player is None:
            raise AssertionError("a player's value read with no player in context")
        return self.player

    def seat(self) -> Seat:
        return self.state.seats[self.whose()]

    # ------------------------------------------------------- expressions

    def generic_visit(self, node: Any) -> Any:
        raise AssertionError(f"unknown expression {type(node).__name__}")

    def visit_Const(self, expr: m.Const) -> Value:
        return expr.value

    def visit_Ref(self, expr: m.Ref) -> Value:
        kind, state = expr.kind, self.state
        if kind == "variable":
            return self.names[expr.name]
        if kind in ("colour", "token"):
            return expr.name
        if kind == "colours":
            return self.tables.colours
        if kind == "players":
            return state.players
        if kind == "zone":
            return self.seat().zones[self.tables.zone[expr.name]]
        if kind == "market":
            return tuple(c for row in state.market for c in row if c is not None)
        if kind == "tiles":
            return state.tiles[self.tables.tile_set[expr.name]]
        if kind == "define":
            define = self.tables.defines[expr.name]
            return self.definitions.value(define, state, self.whose())
        if kind == "score":
            return self.definitions.value(self.tables.model.score, state, self.whose())
        if kind == "board":
            return board.occupied(state)
        if kind == "bag":
            return tuple(
                t for t, n in zip(self.tables.tokens, state.bag, strict=True) for _ in range(n)
            )
        raise AssertionError(f"'{expr.name}' ({kind}) is not a value")

    def visit_PlayerRef(self, expr: m.PlayerRef) -> Value:
        """A seat named from the player in context, in turn order."""
        me, players = self.whose(), self.state.players
        if expr.which == "you":
            return me
        if expr.which == "previous":
            return (me - 1) % players
        if expr.which == "others":
            return tuple((me + k) % players for k in range(1, players))
        return (me + 1) % players  # next, and the opponent of two

    def visit_OfPlayer(self, expr: m.OfPlayer) -> Value:
        return self.of(self.visit(expr.player)).visit(expr.value)

    def visit_DeckTops(self, expr: m.DeckTops) -> Value:
        return tuple(deck[-1] for deck in self.state.decks if deck)

    def visit_Attr(self, expr: m.Attr) -> Value:
        subject = self.visit(expr.subject)
        type_ = expr.subject.type
        if expr.source == "value":  # a card value, held by the state
            values = self.state.card_values[self.tables.card_value[expr.attribute]]
            many = type_.kind in ("set", "list")
            return tuple(values[k] for k in subject) if many else values[subject]
        if type_.kind == "cell" or type_.element == m.CELL:
            assert self.tables.model.board is not None
            grid, tokens = self.tables.model.board, self.tables.tokens
            if type_.kind == "cell":
                return board.cell_attribute(grid, self.state, tokens, subject, expr.attribute)
            return tuple(
                board.cell_attribute(grid, self.state, tokens, x, expr.attribute) for x in subject
            )
        if type_.kind in ("set", "list"):
            assert type_.element is not None
            kind = type_.element.kind
            return tuple(self.tables.attribute(kind, x, expr.attribute) for x in subject)
        return self.tables.attribute(type_.kind, subject, expr.attribute)

    def visit_Index(self, expr: m.Index) -> Value:
        vector = self.visit(expr.subject)
        colour = self.visit(expr.index)
        if colour is None:  # none, a colour card value never set: 0 of everything
            return 0
        return vector[self.tables.colours.index(colour)]

    def visit_Apply(self, expr: m.Apply) -> Value:
        define = self.tables.defines[expr.name]
        arguments = [self.visit(a) for a in expr.arguments]
        return self.definitions.apply(define, self.state, self.whose(), arguments)

    def visit_Call(self, expr: m.Call) -> Value:
        function = expr.function
        if function in ("holds", "did"):
            (argument,) = expr.arguments
            assert isinstance(argument, m.Ref)
            seat = self.seat()
            if function == "did":
                return argument.name in seat.did
            tile = self.tables.tiles.majority_tile[argument.name]
            return any(tile in seat.zones[z] for z in self.tables.tile_zones)
        values = [self.visit(a) for a in expr.arguments]
        if function in ("supply", "tokens") and values[0] is None:
            return 0  # none, a colour card value never set: no tokens of it
        if function == "supply":
            return self.state.supply[self.tables.token[values[0]]]
        if function == "tokens":
            return self.seat().tokens[self.tables.token[values[0]]]
        if function == "count":
            return len(values[0])
        if function == "sum":
            return sum(values[0])
        if function == "distinct":  # none, a card of no colour, adds no colour
            return len({v for v in values[0] if v is not None})
        if function == "min":
            return min(values)
        if function == "max":
            return max(values)
        raise AssertionError(f"unknown function {function}")

    def visit_Unary(self, expr: m.Unary) -> Value:
        operand = self.visit(expr.operand)
        return -operand if expr.op == "-" else not operand

    def visit_Binary(self, expr: m.Binary) -> Value:
        compute = _BINARY.get(expr.op)
        if compute is None:
            raise AssertionError(f"unknown operator {expr.op}")
        return compute(self.visit(expr.left), self.visit(expr.right))

    def visit_Logic(self, expr: m.Logic) -> Value:
        if expr.op == "and":
            return all(self.holds(o) for o in expr.operands)
        return any(self.holds(o) for o in expr.operands)

    def visit_Conditional(self, expr: m.Conditional) -> Value:
        return self.visit(expr.then if self.holds(expr.condition) else expr.otherwise)

    def visit_Filter(self, expr: m.Filter) -> Value:
        return tuple(
            x for x in self.visit(expr.source) if self.bind(expr.variable, x).holds(expr.condition)
        )

    def visit_PerColour(self, expr: m.PerColour) -> Value:
        return tuple(self.bind(expr.variable, c).visit(expr.body) for c in self.tables.colours)

    def visit_Quantifier(self, expr: m.Quantifier) -> Value:
        if expr.variable is None:  # over the players: each in turn is in context
            envs = [self.of(p) for p in range(self.state.players)]
        else:
            assert expr.source is not None
            envs = [self.bind(expr.variable, x) for x in self.visit(expr.source)]
        if expr.op == "any":
            return any(e.holds(expr.body) for e in envs)
        return all(e.holds(expr.body) for e in envs)

    def visit_Total(self, expr: m.Total) -> Value:
        envs = (self.bind(expr.variable, x) for x in self.visit(expr.source))
        return sum(
            e.visit(expr.body) for e in envs if expr.condition is None or e.holds(expr.condition)
        )
