"""The range of every number an edition computes, bounded before it is run.

A number of the rules is 64 bits in the native engine and unbounded in
Python's: an expression that could pass 64 bits would be played differently
by the engines. So each number an edition computes is bounded here, from
what bounds its parts (a literal is itself, a data column its least and
greatest cell, a count of tokens or of turns a count of a state, a count of
the bag's tokens a count of a state per token kind, a count of a collection
the most elements one may hold, a card value of numbers its
declared range), by interval arithmetic; an expression whose bounds pass 64
bits is reported where it is written, the innermost such, and so is a
divisor that may be less than 1 (`a / b`, `a % b`). The bounds are
conservative: a name bound in several places (a `let`, a parameter) has
the widest of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import limits as lim
from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.visitor import Visitor, walk

Bound = tuple[int, int]
NUMBERS: Bound = (lim.NUMBER.low, lim.NUMBER.high)
CONDITION: Bound = (0, 1)


def _hull(*bounds: Bound) -> Bound:
    return min(b[0] for b in bounds), max(b[1] for b in bounds)


def _times(a: Bound, b: Bound) -> Bound:
    products = [x * y for x in a for y in b]
    return min(products), max(products)


def quotient(a: Bound, b: Bound) -> Bound:
    """The bound of `a / b` rounded down, b at least 1: rounding down is
    monotonic in the dividend, and in a divisor of one sign, so the least
    and greatest quotients are among the corners'."""
    quotients = [x // y for x in a for y in b]
    return min(quotients), max(quotients)


def remainder(a: Bound, b: Bound) -> Bound:
    """The bound of `a % b`, b at least 1: from 0 to one less than the
    divisor, and no more than a dividend of no sign."""
    return 0, min(b[1] - 1, a[1]) if a[0] >= 0 else b[1] - 1


class Ranges(Visitor):
    """The bound of each numeric expression of one edition."""

    def __init__(self, edition: m.Edition) -> None:
        self.edition = edition
        tiles = identities.tile_numbering(edition).count
        # the most elements any collection holds: cards, tiles, colours, seats
        self.most = max(len(edition.cards.rows), tiles, len(edition.tokens), edition.players[1], 1)
        # the most tokens the bag holds: a count of a state per kind, not its
        # contents at setup (payments and returns add to it, and a state made
        # by hand may hold more)
        self.bag = len(edition.tokens) * lim.COUNT.high
        self.columns: dict[str, Bound] = {}
        for table in (edition.cards, *edition.tile_sets):
            for column in table.columns:
                self.columns[column.name] = _hull(
                    self.columns.get(column.name, (0, 0)), *self._cells(table, column.name)
                )
        self.columns.setdefault("points", (0, 0))
        for majority in edition.majorities:
            self.columns["points"] = _hull(self.columns["points"], (majority.points,) * 2)
        self.defines = {d.name: d for d in edition.defines}
        self.binders = dict(_binders(edition))
        # a definition's parameter is a name of its own, apart from a rule's
        # local of the same name (whose value an argument may read)
        self.parameters: dict[int, str] = {
            id(node): _parameter(d.name, node.name)
            for d in edition.defines
            for node in walk(d.value)
            if isinstance(node, m.Ref)
            and node.kind == "variable"
            and any(node.name == p for p, _ in d.parameters)
        }
        self.known: dict[int, Bound] = {}
        self.names: dict[str, Bound] = {}
        self.busy: set[str] = set()
        self.found: list[Diagnostic] = []

    @staticmethod
    def _cells(table: m.Table, column: str) -> Iterator[Bound]:
        for row in table.rows:
            cell = row.get(column)
            if isinstance(cell, bool) or cell is None:
                yield CONDITION
            elif isinstance(cell, int):
                yield cell, cell
            elif isinstance(cell, tuple):
                numbers = [int(x) for x in cell] or [0]
                yield min(numbers), max(numbers)

    # ------------------------------------------------------------ bounds

    def bound(self, e: m.Expr) -> Bound:
        """The bound of e, reported (and then clamped) if it passes 64 bits."""
        key = id(e)
        if key not in self.known:
            found = self.visit(e)
            if found[0] < lim.NUMBER.low or found[1] > lim.NUMBER.high:
                self.found.append(msgs.value_beyond(e.span, found, lim.NUMBER))
                found = (max(found[0], lim.NUMBER.low), min(found[1], lim.NUMBER.high))
            self.known[key] = found
        return self.known[key]

    def name(self, name: str) -> Bound:
        """A name bound by a let, a choice, a parameter...: the widest of
        what binds it (all numbers while it is being found: a cycle)."""
        if name not in self.names:
            if name in self.busy:
                return NUMBERS
            self.busy.add(name)
            sources = self.binders.get(name, [])
            self.names[name] = _hull(*(self.bound(s) for s in sources)) if sources else CONDITION
            self.busy.discard(name)
        return self.names[name]

    def generic_visit(self, e: m.Expr) -> Bound:
        return CONDITION  # colours, cards, tiles, texts: no number of the rules

    def visit_Const(self, e: m.Const) -> Bound:
        return (e.value, e.value) if isinstance(e.value, int) else CONDITION

    def visit_Ref(self, e: m.Ref) -> Bound:
        if e.kind == "players":
            return self.edition.players
        if e.kind == "define":
            return self.bound(self.defines[e.name].value)
        if e.kind == "score":
            return self.bound(self.edition.score.value)
        if e.kind == "variable" and e.type.kind in ("int", "vector", "list", "set"):
            return self.name(self.parameters.get(id(e), e.name))
        return CONDITION

    def visit_Attr(self, e: m.Attr) -> Bound:
        if e.source == "value":
            return (lim.CARD_VALUE.low, lim.CARD_VALUE.high)
        return self.columns.get(e.attribute, CONDITION)

    def visit_Index(self, e: m.Index) -> Bound:
        return self.bound(e.subject)

    def visit_Call(self, e: m.Call) -> Bound:
        parts = [self.bound(a) for a in e.arguments]
        if e.function in ("supply", "tokens"):
            return 0, lim.COUNT.high
        if e.function == "count" and e.arguments:
            counted = e.arguments[0]
            if _is_bag(counted.source if isinstance(counted, m.Filter) else counted):
                return 0, self.bag
            return 0, self.most
        if e.function == "sum":
            return _times(parts[0], (0, self.most))
        if e.function == "distinct":  # no more different values than the list holds
            return 0, self.most
        if e.function == "min" and parts:
            return min(p[0] for p in parts), min(p[1] for p in parts)
        if e.function == "max" and parts:
            return max(p[0] for p in parts), max(p[1] for p in parts)
        return CONDITION

    def visit_Apply(self, e: m.Apply) -> Bound:
        for argument in e.arguments:
            self.bound(argument)
        return self.bound(self.defines[e.name].value)

    def visit_OfPlayer(self, e: m.OfPlayer) -> Bound:
        self.bound(e.player)
        return self.bound(e.value)  # another player's value is bounded alike

    def visit_Unary(self, e: m.Unary) -> Bound:
        low, high = self.bound(e.operand)
        return (-high, -low) if e.op == "-" else CONDITION

    def visit_Binary(self, e: m.Binary) -> Bound:
        a, b = self.bound(e.left), self.bound(e.right)
        if e.op == "+":
            return a[0] + b[0], a[1] + b[1]
        if e.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if e.op == "*":
            return _times(a, b)
        if e.op in ("/", "%"):
            return self.division(e, a, b)
        return CONDITION

    def division(self, e: m.Binary, a: Bound, b: Bound) -> Bound:
        """`a / b` rounded down and `a % b` its remainder, with a divisor
        proved at least 1 (else reported at the divisor, and bounded as if
        it were): so no engine divides by 0, nor the least number by -1."""
        if b[0] < 1:
            self.found.append(msgs.divisor_not_positive(e.right.span, b))
            b = (1, max(b[1], 1))
        return remainder(a, b) if e.op == "%" else quotient(a, b)

    def visit_Conditional(self, e: m.Conditional) -> Bound:
        self.bound(e.condition)
        return _hull(self.bound(e.then), self.bound(e.otherwise))

    def visit_Filter(self, e: m.Filter) -> Bound:
        self.bound(e.condition)
        return self.bound(e.source)

    def visit_PerColour(self, e: m.PerColour) -> Bound:
        return self.bound(e.body)

    def visit_Total(self, e: m.Total) -> Bound:
        self.bound(e.source)
        if e.condition is not None:
            self.bound(e.condition)
        elements = self.bag if _is_bag(e.source) else self.most
        return _times(self.bound(e.body), (0, elements))


def _is_bag(e: m.Expr | None) -> bool:
    return isinstance(e, m.Ref) and e.kind == "bag"


def _parameter(define: str, name: str) -> str:
    """The key a definition's parameter is bound under: no local's name."""
    return f"{define}({name})"


def _binders(edition: m.Edition) -> Iterator[tuple[str, list[m.Expr]]]:
    """Each name a rule binds to numbers, with every expression binding it
    (a let's value, a choice's or filter's source, a parameter's arguments:
    a parameter under its definition's key, `_parameter`)."""
    found: dict[str, list[m.Expr]] = {}
    parameters = {d.name: [p for p, _ in d.parameters] for d in edition.defines}
    for node in walk(edition):
        if isinstance(node, m.Let):
            found.setdefault(node.name, []).append(node.value)
        elif isinstance(node, m.Choose):
            found.setdefault(node.name, []).extend(node.sources)
        elif isinstance(node, m.ChooseDistinct):
            found.setdefault(node.name, []).append(node.source)
        elif isinstance(node, m.Filter | m.Total | m.Quantifier) and node.source is not None:
            found.setdefault(node.variable or "", []).append(node.source)
        elif isinstance(node, m.Apply):
            for parameter, argument in zip(parameters[node.name], node.arguments, strict=False):
                found.setdefault(_parameter(node.name, parameter), []).append(argument)
    yield from found.items()


def check_ranges(edition: m.Edition) -> list[Diagnostic]:
    """Every expression whose value may pass 64 bits, at its innermost place."""
    ranges = Ranges(edition)
    for node in walk(edition):
        if isinstance(node, m.Expr):
            ranges.bound(node)
    return list(dict.fromkeys(ranges.found))
