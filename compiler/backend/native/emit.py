"""Model expressions -> C expression trees.

The C twin of the Python target's emitter. Every value of the model is a C
value: numbers, conditions, colours, cards, tiles and texts (by their code
in the edition's text table) are `V` (`int64_t`); a number per colour is a `Vec`;
a set or list is a `Set` (a count and the elements). A value computed with a
loop is a GNU statement expression, so an expression stays an expression.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import evolve, field, frozen

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import Visitor


def c_type(t: m.Type) -> str:
    """The C type of a value of a model type."""
    if t.kind == "vector":
        return "Vec"
    if t.kind in ("set", "list"):
        return "Set"
    return "V"


def element(t: m.Type) -> m.Type:
    return t.element if t.kind in ("set", "list") and t.element is not None else t


@frozen
class Counter:
    count: list[int] = field(factory=lambda: [0])

    def fresh(self, hint: str) -> str:
        self.count[0] += 1
        return c.ident("t_", f"{hint}{self.count[0]}")


@frozen
class Frame:
    """What a model name means at one place of the C code: the state
    (`g`), the player in context, and the locals."""

    state: str = "g"
    player: c.Expr = field(factory=lambda: c.name("p"))
    locals: Mapping[str, c.Expr] = field(factory=dict)
    # definitions read once at the top of the function, by local name
    prebound: Mapping[str, str] = field(factory=dict)
    counter: Counter = field(factory=Counter, eq=False)
    # the locals bound to a colour of the colours (never none)
    colours: frozenset[str] = frozenset()

    def bind(self, local: str, value: c.Expr | str, colour: bool = False) -> Frame:
        """The frame with `local` standing for `value`; `colour`: the value
        is one of the colours, never none."""
        stands = c.name(value) if isinstance(value, str) else value
        colours = self.colours | {local} if colour else self.colours - {local}
        return evolve(self, locals={**self.locals, local: stands}, colours=colours)

    def of(self, player: c.Expr) -> Frame:
        return evolve(self, player=player, prebound={})

    def prebind(self, definition: str, local: str) -> Frame:
        return evolve(self, prebound={**self.prebound, definition: local})

    def temporary(self, hint: str) -> str:
        return self.counter.fresh(hint)


class Names:
    """How the model's names are spelled in a C engine."""

    def __init__(self, edition: m.Edition) -> None:
        self.edition = edition
        self.token_index = {t.name: i for i, t in enumerate(edition.tokens)}
        self.zone_index = {z.name: i for i, z in enumerate(edition.zones)}
        numbering = identities.tile_numbering(edition)
        self.majority_tile = dict(numbering.majority_tile)
        self.majority_zone = {maj.name: maj.zone for maj in edition.majorities}
        self.tile_set_index = {t.name: i for i, t in enumerate(edition.tile_sets)}
        self.action_index = {a.name: i for i, a in enumerate(edition.actions)}
        self.value_index = {v.name: i for i, v in enumerate(edition.card_values)}
        self.none_columns = analysis.none_columns(edition)
        self.none_colours = analysis.colours_may_be_none(edition)
        # Zone aggregates: each at an offset of a player's `agg` row (a
        # number takes one place, a number per colour one per colour).
        self.aggregates: dict[analysis.Aggregate, tuple[int, bool]] = {}
        offset = 0
        colours = len(edition.colours)
        for aggregate in analysis.kept_aggregates(edition):
            vector = aggregate[0] in ("tally", "totals")
            self.aggregates[aggregate] = (offset, vector)
            offset += colours if vector else 1
        self.aggregate_slots = offset
        # what each definition without parameters stands for
        self.define_values = {d.name: d.value for d in edition.defines if not d.parameters}
        self.texts = text_codes(edition)

    def may_be_none(self, e: m.Expr, frame: Frame) -> bool:
        """May this colour or token be none (-1) when the engine runs?"""
        if isinstance(e, m.Ref) and e.kind == "variable" and e.name in frame.colours:
            return False
        return self.none_colours and analysis.may_be_none(e, self.none_columns)

    def column(self, element_type: m.Type, column: str) -> str:
        return c.ident("CARD_" if element_type == m.CARD else "TILE_", column)

    def define(self, name: str) -> str:
        return c.ident("d_", name)


def text_codes(edition: m.Edition) -> dict[str, int]:
    """Every text of the edition (text columns' cells, text literals),
    numbered in sorted order: the C engine compares texts by number."""
    found: set[str] = {""}  # "": the cell of a column a table lacks
    for table in (edition.cards, *edition.tile_sets):
        for column in table.columns:
            if column.type == "text":
                found.update(str(row[column.name]) for row in table.rows if column.name in row)
                found.update(column.values)
                if isinstance(column.default, str):
                    found.add(column.default)
    for node in analysis.nodes(edition):
        if isinstance(node, m.Const) and isinstance(node.value, str):
            found.add(node.value)
    return {text: code for code, text in enumerate(sorted(found))}


class Emitter:
    def __init__(self, names: Names) -> None:
        self.names = names

    def emit(self, e: m.Expr, frame: Frame) -> c.Expr:
        return _Emission(self, frame).expr(e)

    def declare(self, name: str, e: m.Expr, frame: Frame) -> list[c.Stmt]:
        """`name` declared with the value of e. A collection or vector built
        by a loop is built in `name` itself: no copy of the whole value."""
        value = _Emission(self, frame, into=(name, e)).expr(e)
        if isinstance(value, c.Block) and value.value == c.name(name):
            return list(value.body)
        return [c.declare(c_type(e.type), name, value)]

    def source(
        self,
        e: m.Expr,
        frame: Frame,
        as_set: bool = False,
        slots: tuple[int, int] | None = None,
    ) -> Source:
        """A collection to loop over: a local as it is, a zone or the market
        of the state read in place and the colours counted (no copy of the
        elements, unless `as_set`), anything else built in a new local.
        `slots`: the market's slots to look at, when not all of them."""
        if isinstance(e, m.Ref) and e.kind == "variable":
            value = frame.locals[e.name]
            if isinstance(value, c.Name):
                return Source([], c.dot(value, "n"), c.dot(value, "v"), value.name)
        if (
            isinstance(e, m.Ref)
            and e.kind == "define"
            and e.name in frame.prebound
            and e.type.kind in ("set", "list")
        ):
            # a definition read once at the top: its set looked at in place
            read = c.name(frame.prebound[e.name])
            return Source([], c.dot(read, "n"), c.dot(read, "v"), read.name)
        if isinstance(e, m.Ref) and e.kind == "zone" and not as_set:
            items = frame.temporary("items")
            zone = c.num(self.names.zone_index[e.name])
            view = c.call("zone_view", c.name(frame.state), zone, frame.player)
            count = c.index(c.arrow(frame.state, "zn"), zone, frame.player)
            return Source([c.declare("const int16_t *", items, view)], count, c.name(items))
        if isinstance(e, m.Ref) and e.kind == "market" and not as_set:
            market = c.arrow(frame.state, "market")
            if slots is not None:
                return Source([], c.num(slots[1]), market, gaps=True, low=slots[0])
            return Source([], c.name("FTOTAL"), market, gaps=True)
        if isinstance(e, m.Ref) and e.kind == "colours" and not as_set:
            return Source([], c.name("NC"), None)
        src = frame.temporary("src")
        return Source(
            self.declare(src, e, frame), c.dot(c.name(src), "n"), c.dot(c.name(src), "v"), src
        )


def bag_count(e: m.Expr) -> tuple[str, m.Expr | None] | None:
    """`count(bag)`, or `count(t in bag where C)` (the variable and C): read
    from the bag's counts. The bag is never built as a list: it may hold
    more tokens than a set has room for (native_bag_uses in
    backend/unprinted.py refuses any other use of it)."""
    if isinstance(e, m.Ref) and e.kind == "bag":
        return "", None
    if isinstance(e, m.Filter) and isinstance(e.source, m.Ref) and e.source.kind == "bag":
        return e.variable, e.condition
    return None


def filled(name: str, function: str, *arguments: c.Expr) -> list[c.Stmt]:
    """`name` declared as a set and filled in place by `function`."""
    return [c.declare("Set", name), c.do(c.call(function, c.Unary("&", c.name(name)), *arguments))]


@frozen
class Source:
    """A collection looped over: what declares it, its size, its elements
    (an array; none when each element is its index), its name when it is a
    `Set` local, whether it has gaps (empty places, below 0, skipped), and
    the first place looked at (the places before it hold nothing wanted)."""

    declared: list[c.Stmt]
    count: c.Expr
    items: c.Expr | None
    name: str = ""
    gaps: bool = False
    low: int = 0  # the first place looked at (a part of the market)

    def at_slot(self, i: c.Expr) -> c.Expr:
        """The element at place `i`."""
        return i if self.items is None else c.index(self.items, i)

    def head(self, x: str, i: c.Expr) -> list[c.Stmt]:
        """The first statements of the loop's body: `x` the element at `i`."""
        head: list[c.Stmt] = [c.declare("V", x, self.at_slot(i))]
        if self.gaps:
            head.append(c.if_(c.binary(c.name(x), "<", c.num(0)), [c.Raw("continue;")]))
        return head


class _Emission(Visitor):
    def __init__(
        self, emitter: Emitter, frame: Frame, into: tuple[str, m.Expr] | None = None
    ) -> None:
        self.emitter = emitter
        self.names = emitter.names
        self.frame = frame
        self.into = into  # (name, e): the value of e, built by a loop, goes in name

    def result(self, e: m.Expr, hint: str) -> str:
        """The local a value built by a loop is built in: the declared name
        for the expression being declared, else a new temporary."""
        if self.into is not None and self.into[1] is e:
            return self.into[0]
        return self.frame.temporary(hint)

    @property
    def g(self) -> c.Expr:
        return c.name(self.frame.state)

    def expr(self, e: m.Expr) -> c.Expr:
        aggregate = analysis.aggregate_of(e)
        if aggregate is not None and aggregate in self.names.aggregates:
            offset, vector = self.names.aggregates[aggregate]
            row = c.index(c.arrow(self.frame.state, "agg"), self.frame.player)
            if vector:
                return c.call("vec_at", c.Unary("&", c.index(row, offset)))
            return c.index(row, offset)
        emitted: c.Expr = self.visit(e)
        return emitted

    def within(self, e: m.Expr, frame: Frame) -> c.Expr:
        return self.emitter.emit(e, frame)

    def generic_visit(self, node: object) -> c.Expr:
        raise AssertionError(f"cannot emit {type(node).__name__}")

    def visit_Const(self, e: m.Const) -> c.Expr:
        if e.value is None:
            return c.num(-1)
        if isinstance(e.value, str):
            return c.num(self.names.texts[e.value])
        return c.Num(int(e.value), wide=isinstance(e.value, int) and not isinstance(e.value, bool))

    def loop(
        self,
        source: m.Expr,
        variable: str,
        body: Callable[[Frame, str], list[c.Stmt]],
    ) -> list[c.Stmt]:
        """Statements running `body` for each element of a collection, the
        element bound to `variable`."""
        i = self.frame.temporary("i")
        x = self.frame.temporary("x")
        src = self.emitter.source(source, self.frame)
        inner = self.frame.bind(variable, x, colour=src.items is None)
        element = [*src.head(x, c.name(i)), *body(inner, x)]
        return [*src.declared, c.for_(i, src.low, src.count, element)]

    def visit_Attr(self, e: m.Attr) -> c.Expr:
        def read(subject: c.Expr) -> c.Expr:
            if e.source == "value":
                values = c.index(
                    c.arrow(self.frame.state, "values"), self.names.value_index[e.attribute]
                )
                return c.index(values, subject)
            if element(e.subject.type) == m.CELL:
                return self.cell(e.attribute, subject)
            return c.index(c.name(self.names.column(element(e.subject.type), e.attribute)), subject)

        if e.subject.type.kind not in ("set", "list"):
            return read(self.expr(e.subject))
        if e.type.element is not None and e.type.element.kind == "vector":
            return self.expr(e.subject)  # a list of vectors is only ever counted
        out = self.result(e, "out")
        src = self.emitter.source(e.subject, self.frame)
        if src.gaps or src.items is None:  # read from a dense array
            src = self.emitter.source(e.subject, self.frame, as_set=True)
        assert src.items is not None
        i = c.name(self.frame.temporary("i"))
        each = [c.assign(c.index(c.dot(c.name(out), "v"), i), read(c.index(src.items, i)))]
        body = [
            *src.declared,
            c.declare("Set", out),
            c.assign(c.dot(c.name(out), "n"), src.count),
            c.for_(i.name, 0, src.count, each),
        ]
        return c.block(body, c.name(out))

    def cell(self, attribute: str, subject: c.Expr) -> c.Expr:
        """A cell's token (-1: none), row or column (cells by number, row by row)."""
        if attribute == "token":
            return c.index(c.arrow(self.frame.state, "board"), subject)
        return c.binary(subject, "/" if attribute == "row" else "%", c.name("BOARD_COLUMNS"))

    def unless_none(self, kind: m.Expr, read: Callable[[c.Expr], c.Expr]) -> c.Expr:
        index = self.expr(kind)
        if isinstance(index, c.Num):
            return c.num(0) if index.value == -1 else read(index)
        if not self.names.may_be_none(kind, self.frame):
            return read(index)
        return c.Conditional(c.binary(index, ">=", c.num(0)), read(index), c.num(0))

    def visit_Index(self, e: m.Index) -> c.Expr:
        subject_value = e.subject
        if isinstance(subject_value, m.Ref) and subject_value.kind == "define":
            subject_value = self.names.define_values.get(subject_value.name, subject_value)
        aggregate = analysis.aggregate_of(subject_value)
        kept = self.names.aggregates.get(aggregate) if aggregate is not None else None
        if kept is not None and kept[1]:  # a colour's place in the row, not a copy of the row
            row = c.index(c.arrow(self.frame.state, "agg"), self.frame.player)
            offset = kept[0]

            def place(i: c.Expr) -> c.Expr:
                at = (
                    c.num(offset + i.value)
                    if isinstance(i, c.Num)
                    else c.binary(c.num(offset), "+", i)
                )
                return c.index(row, at)

            return self.unless_none(e.index, place)
        subject = self.expr(e.subject)
        return self.unless_none(e.index, lambda i: c.index(c.dot(subject, "c"), i))

    def visit_Apply(self, e: m.Apply) -> c.Expr:
        arguments = [self.expr(a) for a in e.arguments]
        return c.call(self.names.define(e.name), self.g, self.frame.player, *arguments)

    def visit_Unary(self, e: m.Unary) -> c.Expr:
        return c.Unary("-" if e.op == "-" else "!", self.expr(e.operand))

    def visit_Binary(self, e: m.Binary) -> c.Expr:
        if e.op in ("/", "%"):
            return self.division(e)
        assert e.op in ("+", "-", "*", "<", "<=", ">", ">=", "==", "!="), e.op
        return c.binary(self.expr(e.left), e.op, self.expr(e.right))

    def division(self, e: m.Binary) -> c.Expr:
        """`a / b` rounded down and `a % b` its remainder (of b's sign), b at
        least 1 (the checker proves it): C's `/` and `%` round towards 0, so
        a negative remainder moves the quotient down one and the remainder
        up by b. Each operand is read once, into a local."""
        n, d, r = (self.frame.temporary(hint) for hint in ("n", "d", "r"))
        body = [
            c.declare("V", n, self.expr(e.left)),
            c.declare("V", d, self.expr(e.right)),
            c.declare("V", r, c.binary(c.name(n), "%", c.name(d))),
        ]
        below = c.binary(c.name(r), "<", c.num(0))
        if e.op == "/":
            value = c.binary(c.binary(c.name(n), "/", c.name(d)), "-", below)
        else:
            value = c.binary(c.name(r), "+", c.Conditional(below, c.name(d), c.num(0)))
        return c.block(body, value)

    def visit_Logic(self, e: m.Logic) -> c.Expr:
        return c.logic("&&" if e.op == "and" else "||", [self.expr(o) for o in e.operands])

    def visit_Conditional(self, e: m.Conditional) -> c.Expr:
        return c.Conditional(self.expr(e.condition), self.expr(e.then), self.expr(e.otherwise))

    def visit_Filter(self, e: m.Filter) -> c.Expr:
        out = self.result(e, "out")

        def keep(inner: Frame, x: str) -> list[c.Stmt]:
            # written, then counted if kept: no branch on which elements
            # pass, which a processor cannot predict (expressions have no effects)
            kept = c.truth(self.within(e.condition, inner))
            n = c.dot(c.name(out), "n")
            return [
                c.assign(c.index(c.dot(c.name(out), "v"), n), c.name(x)),
                c.assign(n, kept, "+="),
            ]

        body: list[c.Stmt] = [c.declare("Set", out), c.assign(c.dot(c.name(out), "n"), c.num(0))]
        loop = self.loop(e.source, e.variable, keep)
        counted = analysis.filter_count(e)
        if counted is not None and analysis.aggregate_of(counted) in self.names.aggregates:
            # the zone keeps how many pass: no loop when none does
            loop = [c.if_(c.binary(self.expr(counted), ">", c.num(0)), loop)]
        return c.block(body + loop, c.name(out))

    def visit_PerColour(self, e: m.PerColour) -> c.Expr:
        out = self.result(e, "vec")
        body: list[c.Stmt] = [c.declare("Vec", out)]
        for colour in range(len(self.names.edition.colours)):
            value = self.within(e.body, self.frame.bind(e.variable, c.num(colour)))
            body.append(c.assign(c.index(c.dot(c.name(out), "c"), colour), value))
        return c.block(body, c.name(out))

    def visit_Quantifier(self, e: m.Quantifier) -> c.Expr:
        every = e.op == "all"
        result = self.frame.temporary("q")
        found = c.assign(result, c.num(not every))
        if e.variable is None:
            q = self.frame.temporary("p")
            body = self.within(e.body, self.frame.of(c.name(q)))
            test = c.not_(body) if every else body
            loop = c.for_(
                q, 0, c.arrow(self.frame.state, "players"), [c.if_(test, [found, c.Raw("break;")])]
            )
            return c.block([c.declare("int32_t", result, c.num(every)), loop], c.name(result))
        assert e.source is not None
        if isinstance(e.source, m.Ref) and e.source.kind == "colours":
            colours = range(len(self.names.edition.colours))
            bodies = [self.within(e.body, self.frame.bind(e.variable, c.num(k))) for k in colours]
            return c.logic("&&" if every else "||", bodies)
        variable = e.variable

        def check(inner: Frame, _: object) -> list[c.Stmt]:
            body = self.within(e.body, inner)
            return [c.if_(c.not_(body) if every else body, [found, c.Raw("break;")])]

        if isinstance(e.source, m.Ref) and e.source.kind == "bag":  # each kind it holds
            loops = self.bag_loop(variable, check)
        else:
            loops = self.loop(e.source, variable, check)
        return c.block([c.declare("int32_t", result, c.num(every)), *loops], c.name(result))

    def bag_loop(
        self, variable: str, body: Callable[[Frame, c.Expr], list[c.Stmt]]
    ) -> list[c.Stmt]:
        """`body` run for each token kind the bag holds, the kind bound to
        `variable`, with its count in the bag."""
        k = self.frame.temporary("k")
        held = c.index(c.arrow(self.frame.state, "bag"), c.name(k))
        inner = self.frame.bind(variable, k, colour=True)  # a kind, never none
        each = [c.if_(c.binary(held, "==", c.num(0)), [c.Raw("continue;")]), *body(inner, held)]
        return [c.for_(k, 0, c.name("NK"), each)]

    def bag_count(self, variable: str, condition: m.Expr | None) -> c.Expr:
        """The tokens in the bag (that pass `condition`), from its counts."""
        total = self.frame.temporary("bag")

        def add(inner: Frame, held: c.Expr) -> list[c.Stmt]:
            added: c.Stmt = c.assign(total, held, "+=")
            if condition is None:
                return [added]
            return [c.if_(self.within(condition, inner), [added])]

        loop = self.bag_loop(variable, add)
        return c.block([c.declare("V", total, c.num(0)), *loop], c.name(total))

    def visit_Total(self, e: m.Total) -> c.Expr:
        total = self.frame.temporary("sum")
        if isinstance(e.source, m.Ref) and e.source.kind == "bag":  # each kind, times its count
            condition = e.condition

            def times(inner: Frame, held: c.Expr) -> list[c.Stmt]:
                each = c.binary(held, "*", self.within(e.body, inner))
                added: c.Stmt = c.assign(total, each, "+=")
                if condition is None:
                    return [added]
                return [c.if_(self.within(condition, inner), [added])]

            loop = self.bag_loop(e.variable, times)
            return c.block([c.declare("V", total, c.num(0)), *loop], c.name(total))

        def add(inner: Frame, _: str) -> list[c.Stmt]:
            added: c.Stmt = c.assign(total, self.within(e.body, inner), "+=")
            if e.condition is None:
                return [added]
            return [c.if_(self.within(e.condition, inner), [added])]

        return c.block(
            [c.declare("V", total, c.num(0)), *self.loop(e.source, e.variable, add)],
            c.name(total),
        )

    def distinct(self, listed: m.Expr) -> c.Expr:
        """The number of different values of a list: colours (none, below 0,
        not counted) as the bits of a mask when the token kinds fit in 64,
        else each value counted at its first place (a loop over the places
        before it)."""
        found, i = self.frame.temporary("distinct"), self.frame.temporary("i")
        x = self.frame.temporary("x")
        src = self.emitter.source(listed, self.frame)
        colours = listed.type.element != m.INT
        body: list[c.Stmt] = src.head(x, c.name(i))
        if colours:
            body.append(c.if_(c.binary(c.name(x), "<", c.num(0)), [c.Raw("continue;")]))
        add = c.assign(found, c.num(1), "+=")
        declared: list[c.Stmt] = [c.declare("V", found, c.num(0))]
        if colours and len(self.names.token_index) <= 64:
            seen = self.frame.temporary("seen")
            bit = c.binary(c.Unary("(uint64_t)", c.num(1)), "<<", c.name(x))
            new = c.binary(c.binary(c.name(seen), "&", bit), "==", c.num(0))
            body.append(c.if_(new, [c.assign(seen, bit, "|="), add]))
            declared.append(c.declare("uint64_t", seen, c.num(0)))
        else:
            j, before = self.frame.temporary("j"), self.frame.temporary("before")
            same = c.binary(src.at_slot(c.name(j)), "==", c.name(x))
            look = [c.if_(same, [c.assign(before, c.num(1)), c.Raw("break;")])]
            body += [
                c.declare("int32_t", before, c.num(0)),
                c.for_(j, src.low, c.name(i), look),
                c.if_(c.binary(c.name(before), "==", c.num(0)), [add]),
            ]
        loop = c.for_(i, src.low, src.count, body)
        return c.block([*declared, *src.declared, loop], c.name(found))

    def filled(self, e: m.Expr, function: str, *arguments: c.Expr) -> c.Expr:
        """A set of the state, filled in the local it is declared as."""
        out = self.result(e, "set")
        return c.block(filled(out, function, *arguments), c.name(out))

    def visit_DeckTops(self, e: m.DeckTops) -> c.Expr:
        return self.filled(e, "deck_tops_fill", self.g)

    def visit_PlayerRef(self, e: m.PlayerRef) -> c.Expr:
        """A seat named from the player in context, in turn order."""
        me, players = self.frame.player, c.arrow(self.frame.state, "players")
        if e.which == "you":
            return me
        if e.which == "others":  # the set of the others, from the next on
            out, k = self.result(e, "set"), self.frame.temporary("k")
            n = c.dot(c.name(out), "n")
            seat = c.binary(c.binary(me, "+", c.name(k)), "%", players)
            add = [c.assign(c.index(c.dot(c.name(out), "v"), n), seat), c.assign(n, c.num(1), "+=")]
            body = [c.declare("Set", out), c.assign(n, c.num(0)), c.for_(k, 1, players, add)]
            return c.block(body, c.name(out))
        step = c.binary(players, "-", c.num(1)) if e.which == "previous" else c.num(1)
        return c.binary(c.binary(me, "+", step), "%", players)

    def visit_OfPlayer(self, e: m.OfPlayer) -> c.Expr:
        """The value read with another player in context (their seat is an
        expression without effects: it stands where the player is read)."""
        return self.within(e.value, self.frame.of(self.expr(e.player)))

    def visit_Ref(self, e: m.Ref) -> c.Expr:
        n = self.names
        if e.kind == "variable":
            return self.frame.locals[e.name]
        if e.kind in ("colour", "token"):
            return c.num(n.token_index[e.name])
        if e.kind == "colours":
            return self.filled(e, "colours_fill")
        if e.kind == "players":
            return c.arrow(self.frame.state, "players")
        if e.kind == "zone":
            zone = c.num(n.zone_index[e.name])
            return self.filled(e, "zone_fill", self.g, zone, self.frame.player)
        if e.kind == "market":
            return self.filled(e, "market_fill", self.g)
        if e.kind == "tiles":
            return self.filled(e, "tiles_fill", self.g, c.num(n.tile_set_index[e.name]))
        if e.kind == "define":
            if e.name in self.frame.prebound:
                return c.name(self.frame.prebound[e.name])
            return c.call(n.define(e.name), self.g, self.frame.player)
        if e.kind == "score":
            return c.call("score", self.g, self.frame.player)
        if e.kind == "board":
            return self.filled(e, "board_fill", self.g)
        raise AssertionError(f"cannot emit a reference to a {e.kind}")

    def visit_Call(self, e: m.Call) -> c.Expr:
        n = self.names
        arguments = e.arguments
        if e.function == "holds":
            assert isinstance(arguments[0], m.Ref)
            majority = arguments[0].name
            zone = n.zone_index[n.majority_zone[majority]]
            tile = n.majority_tile[majority]
            return c.call("zone_has", self.g, c.num(zone), self.frame.player, c.num(tile))
        if e.function == "did":
            assert isinstance(arguments[0], m.Ref)
            bit = 1 << n.action_index[arguments[0].name]
            did = c.index(c.arrow(self.frame.state, "did"), self.frame.player)
            return c.binary(c.binary(did, "&", c.Num(bit, wide=True)), "!=", c.num(0))
        if e.function == "supply":
            return self.unless_none(
                arguments[0], lambda k: c.index(c.arrow(self.frame.state, "supply"), k)
            )
        if e.function == "tokens":
            held = c.index(c.arrow(self.frame.state, "held"), self.frame.player)
            return self.unless_none(arguments[0], lambda k: c.index(held, k))
        if e.function == "count":
            counted = bag_count(arguments[0])
            if counted is not None:
                return self.bag_count(*counted)
            return c.dot(self.expr(arguments[0]), "n")
        if e.function == "sum":
            return c.call("set_sum", self.expr(arguments[0]))
        if e.function == "distinct":
            return self.distinct(arguments[0])
        if e.function in ("min", "max"):
            parts = [self.expr(a) for a in arguments]
            result = parts[0]
            for part in parts[1:]:
                result = c.call("i" + e.function, result, part)
            return result
        raise AssertionError(f"cannot emit a call of {e.function}")
