"""Facts about a checked model that code generation needs, for any target.

Which locals and definitions a piece of a rule reads, which per-player zone
aggregates an edition computes (so that an engine can keep them up to date
as cards and tiles move instead of recomputing them), and which zones run
code when something enters them. Every pass walks the model with
`dsl.visitor.walk`; none depends on the target language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import Visitor, walk

# ("sum" or "tally", zone, column), or ("total" or "totals", zone, the
# expression): a number, or a number per colour, that a Total adds up.
Aggregate = tuple[str, str, "str | m.Expr"]


def nodes(tree: object) -> Iterator[object]:
    """Every node of a model tree, or of a tuple of trees, parents first."""
    roots = tree if isinstance(tree, tuple | list) else (tree,)
    for root in roots:
        yield from walk(root)


def uses(tree: object, local: str) -> bool:
    """Does a model expression or statement (or a tuple of them) read the local?"""
    return identities.reads_local(tree, local)


def inlinable(define: m.Define) -> bool:
    """Can a definition with parameters be read in place, as an expression
    of its arguments? When it reads nothing of the state but its parameters'
    columns and card values, constants and kinds (no zone, definition or
    function of the player), and builds no collection."""
    if not define.parameters:
        return False
    plain = m.Const | m.Attr | m.Index | m.Unary | m.Binary | m.Logic | m.Conditional
    for node in walk(define.value):
        if isinstance(node, m.Ref):
            if node.kind not in ("variable", "colour", "token"):
                return False
        elif isinstance(node, m.Expr) and not isinstance(node, plain):
            return False
    return True


def inline_definitions(edition: m.Edition) -> m.Edition:
    """The edition with each use of a definition with parameters that reads
    only its arguments (`inlinable`), applied to local names, written out in
    place: `colour_of(k)` becomes the definition's body read at k. The
    analyses then see what such a use reads (a zone's upkeep can keep a sum
    over it); the definitions themselves stay, for their other uses."""
    defines = {d.name: d for d in edition.defines if inlinable(d)}
    if not defines:
        return edition
    rewritten: m.Edition = _rewrite(edition, defines)
    return rewritten


def _rewrite(node: Any, defines: Mapping[str, m.Define]) -> Any:
    """A model tree with the inlinable uses written out; the same object
    where nothing changes."""
    if isinstance(node, tuple):
        items = tuple(_rewrite(item, defines) for item in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if isinstance(node, m.Apply) and node.name in defines:
        arguments = node.arguments
        if all(isinstance(a, m.Ref) and a.kind == "variable" for a in arguments):
            define = defines[node.name]
            bound = {p: a for (p, _), a in zip(define.parameters, arguments, strict=True)}
            return _substitute(define.value, bound)
    if not isinstance(node, m.Expr | m.Statement | m.Part | m.Edition | m.RankKey):
        return node
    changes = {}
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        new = _rewrite(value, defines)
        if new is not value:
            changes[field.name] = new
    return attrs.evolve(node, **changes) if changes else node


def _substitute(e: Any, bound: Mapping[str, m.Expr]) -> Any:
    """A definition's body with its parameters replaced by the arguments."""
    if isinstance(e, m.Ref) and e.kind == "variable" and e.name in bound:
        return bound[e.name]
    if isinstance(e, tuple):
        return tuple(_substitute(item, bound) for item in e)
    if not isinstance(e, m.Expr):
        return e
    changes = {f.name: _substitute(getattr(e, f.name), bound) for f in attrs.fields(type(e))}
    return attrs.evolve(e, **changes)


def defines_in(tree: object) -> set[str]:
    """The definitions a model expression or statement (or a tuple of them) reads."""
    return {node.name for node in nodes(tree) if isinstance(node, m.Ref) and node.kind == "define"}


def tally_of(e: object) -> tuple[m.Expr, str] | None:
    """`per colour c: count(x in S where x.a == c)` counts S by the colour
    column a: its source S and column a, if e has that shape."""
    if not (isinstance(e, m.PerColour) and isinstance(e.body, m.Call)):
        return None
    call = e.body
    if call.function != "count" or not isinstance(call.arguments[0], m.Filter):
        return None
    found = call.arguments[0]
    test = found.condition
    if not (isinstance(test, m.Binary) and test.op == "=="):
        return None
    sides = (test.left, test.right)
    for attribute, colour in (sides, sides[::-1]):
        if (
            isinstance(attribute, m.Attr)
            and attribute.source == "column"  # a card value changes: no static tally
            and isinstance(attribute.subject, m.Ref)
            and attribute.subject.name == found.variable
            and attribute.subject.type == m.CARD
            and isinstance(colour, m.Ref)
            and colour.name == e.variable
        ):
            return found.source, attribute.attribute
    return None


def total_by_colour(e: object) -> tuple[m.Total, m.Expr] | None:
    """`per colour c: sum(x in S where A == c: N)`, with c read nowhere else,
    adds N up by the colour A of each element: the Total and A, if e has that
    shape (one pass over S gives every colour's total)."""
    if not (isinstance(e, m.PerColour) and isinstance(e.body, m.Total)):
        return None
    total, test = e.body, e.body.condition
    if not (isinstance(test, m.Binary) and test.op == "=="):
        return None
    if uses((total.source, total.body), e.variable):
        return None
    for side, colour in ((test.left, test.right), (test.right, test.left)):
        if isinstance(colour, m.Ref) and colour.kind == "variable" and colour.name == e.variable:
            return (total, side) if not uses(side, e.variable) else None
    return None


def aggregate_of(e: object) -> Aggregate | None:
    """The per-player zone aggregate an expression computes, if it is one:
    `sum(Z.a)`, or a tally of a zone (tally_of)."""
    if isinstance(e, m.Call) and e.function == "sum" and len(e.arguments) == 1:
        total = e.arguments[0]
        if (
            isinstance(total, m.Attr)
            and total.source == "column"  # a card value changes: no static sum
            and isinstance(total.subject, m.Ref)
            and total.subject.kind == "zone"
            and total.type == m.list_of(m.INT)
        ):
            return ("sum", total.subject.name, total.attribute)
    tally = tally_of(e)
    if tally is not None and isinstance(tally[0], m.Ref) and tally[0].kind == "zone":
        return ("tally", tally[0].name, tally[1])
    if isinstance(e, m.Total) and kept_total(e, ()):
        return ("total", _zone_name(e), e)
    if isinstance(e, m.PerColour) and isinstance(e.body, m.Total):
        kept = kept_total(e.body, (e.variable,))
        return ("totals", _zone_name(e.body), e) if kept else None
    return None


# The parts of an element's contribution to a Total that a zone's upkeep can
# compute from the element alone: constants, colours, the element's columns.
_ELEMENTWISE = (m.Const, m.Index, m.Unary, m.Binary, m.Logic, m.Conditional)


def kept_total(e: m.Total, outer: tuple[str, ...]) -> bool:
    """May a zone's upkeep keep this Total? It must add up over a zone, and
    what it adds (and its condition) must depend on the element and on the
    variables `outer` (bound outside it, each to one colour) only."""
    if not (isinstance(e.source, m.Ref) and e.source.kind == "zone"):
        return False
    for node in nodes((e.body, e.condition) if e.condition is not None else e.body):
        if isinstance(node, m.Ref):
            if node.kind == "variable" and node.name in (e.variable, *outer):
                continue
            if node.kind in ("colour", "token"):
                continue
            return False
        if isinstance(node, m.Attr):
            subject = node.subject
            if not (isinstance(subject, m.Ref) and subject.kind == "variable"):
                return False
            if subject.name != e.variable:
                return False  # an attribute of anything but the element
            continue
        if not isinstance(node, (*_ELEMENTWISE, m.Type)):
            return False
    return True


def _zone_name(e: m.Total) -> str:
    assert isinstance(e.source, m.Ref)
    return e.source.name


def _reads_columns_only(aggregate: Aggregate, edition: m.Edition) -> bool:
    """Does a kept Total read only the declared columns of what the zone
    holds (data that never changes while the element sits in the zone)?"""
    kind, zone, kept = aggregate
    if kind not in ("total", "totals"):
        return True
    tables = {"cards": edition.cards} if zone_content(edition, zone) == "cards" else {}
    columns = {c.name for table in (*tables.values(), *edition.tile_sets) for c in table.columns}
    # a card value may change while the card sits in the zone: the engine
    # then takes the card out of the zone's aggregates and puts it back
    return all(
        node.attribute in columns or node.source == "value"
        for node in nodes(kept)
        if isinstance(node, m.Attr)
    )


def aggregates_in(tree: object) -> list[Aggregate]:
    """Every zone aggregate in a model tree, in first-seen order (no part of
    an aggregate is itself one, so the nodes inside one add nothing)."""
    found: dict[Aggregate, None] = {}
    for node in nodes(tree):
        aggregate = aggregate_of(node)
        if aggregate is not None:
            if isinstance(tree, m.Edition) and not _reads_columns_only(aggregate, tree):
                continue
            found.setdefault(aggregate)
    return list(found)


def may_be_none(e: m.Expr, none_columns: frozenset[str] = frozenset()) -> bool:
    """May a colour or token expression be none? A colour card value never
    set is, so is a cell of a `colour or none` column (`none_columns`) and
    the literal `none`, and so may be whatever holds one (a local, a
    parameter, a definition); a kind named, or another column read, is
    sure not to be."""
    if e.type not in (m.COLOUR, m.TOKEN):
        return False
    if isinstance(e, m.Ref) and e.kind in ("colour", "token"):
        return False
    if isinstance(e, m.Attr) and e.subject.type == m.CELL:  # an empty cell's token is none
        return True
    if isinstance(e, m.Attr) and e.source == "column":
        return e.attribute in none_columns
    if isinstance(e, m.Conditional):
        return may_be_none(e.then, none_columns) or may_be_none(e.otherwise, none_columns)
    return True


def none_columns(edition: m.Edition) -> frozenset[str]:
    """The colour columns whose cells may be none (-1): `colour or none`."""
    tables = (edition.cards, *edition.tile_sets)
    return frozenset(column.name for table in tables for column in table.columns if column.none)


def colours_may_be_none(edition: m.Edition) -> bool:
    """May a colour be none when an engine runs? Where a card value (never
    set), a `colour or none` column or the literal `none` is; elsewhere an
    engine need guard no colour (`may_be_none` says which may)."""
    return (
        bool(edition.card_values)
        or bool(none_columns(edition))
        or edition.board is not None
        or any(isinstance(n, m.Const) and n.value is None for n in nodes(edition))
    )


def hooked_zones(edition: m.Edition) -> list[str]:
    """The zones whose entry runs code: triggers, then contested majorities."""
    zones = [t.zone for t in edition.triggers]
    zones += [majority.event_zone for majority in edition.majorities]
    return list(dict.fromkeys(zones))


def zone_content(edition: m.Edition, zone: str) -> str:
    """What a zone holds: "cards" or "tiles"."""
    return next(z.content for z in edition.zones if z.name == zone)


def wild_token(edition: m.Edition) -> int:
    """The index of the wild token kind, or -1 if the edition has none."""
    return next((i for i, t in enumerate(edition.tokens) if t.role == "wild"), -1)


def place_of(source: m.Expr, defines: Mapping[str, m.Define]) -> str | None:
    """The place a source's cards are in, when it is one or a part of one
    (a filter of it, a definition without parameters that is one): "deck
    tops", "market" or "zone NAME" (the player's in context); None for any
    other source."""
    if isinstance(source, m.DeckTops):
        return "deck tops"
    if isinstance(source, m.Filter):
        return place_of(source.source, defines)
    if not isinstance(source, m.Ref):
        return None
    if source.kind == "market":
        return "market"
    if source.kind == "zone":
        return f"zone {source.name}"
    define = defines.get(source.name) if source.kind == "define" else None
    if define is not None and not define.parameters:
        return place_of(define.value, defines)
    return None


def apart(sources: tuple[m.Expr, ...], defines: Mapping[str, m.Define]) -> bool:
    """Can no two of a choice's sources hold one value? So when each is a
    place a card is in or a part of one, and no two are of one place: a
    card is in one place at a time."""
    places = [place_of(source, defines) for source in sources]
    return None not in places and len(set(places)) == len(places)


def worth_token(edition: m.Edition) -> m.TokenKind | None:
    """The wild token that counts as more than one in payments where its
    condition holds (`counts as N in payments where COND`; only a wild
    token may), if any."""
    return next((t for t in edition.tokens if t.worth > 1), None)


def choice_part(action: m.Action) -> list[m.Statement]:
    """The statements of an action that decide whether (and how) it is legal:
    its locals, choices, requirements and payment, in order."""
    return [
        st
        for st in action.body or ()
        if isinstance(st, m.Let | m.Choose | m.ChooseDistinct | m.ChooseLine | m.Require | m.Pay)
    ]


class _Unknown(Exception):
    """A value that depends on more than one card's data."""


# The operators of numbers a card's data may decide: order and arithmetic.
_ON_NUMBERS: dict[str, Any] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
}


def card_condition(e: m.Expr, variable: str, row: Mapping[str, object]) -> bool | None:
    """A condition's value for one card of the data bound to `variable`,
    where that card's columns and constants decide it; None where it reads
    anything else (the state, another name): it is then known only in play.
    An `or` with one true part is true, an `and` with one false part false."""
    try:
        return bool(_card_value(e, variable, row))
    except _Unknown:
        return None


def _card_value(e: m.Expr, variable: str, row: Mapping[str, object]) -> object:
    if isinstance(e, m.Const):
        return e.value
    if isinstance(e, m.Ref) and e.kind in ("colour", "token"):
        return e.name
    if (
        isinstance(e, m.Attr)
        and e.source == "column"
        and e.attribute in row
        and isinstance(e.subject, m.Ref)
        and (e.subject.kind, e.subject.name) == ("variable", variable)
    ):
        return row[e.attribute]
    if isinstance(e, m.Logic):
        known = [card_condition(o, variable, row) for o in e.operands]
        decisive = e.op == "or"  # the value one part decides the whole by
        if decisive in known:
            return decisive
        if None in known:
            raise _Unknown
        return not decisive
    if isinstance(e, m.Unary):
        operand = _card_value(e.operand, variable, row)
        if e.op == "not":
            return not operand
        if isinstance(operand, int):
            return -operand
    if isinstance(e, m.Conditional):
        chosen = e.then if _card_value(e.condition, variable, row) else e.otherwise
        return _card_value(chosen, variable, row)
    if isinstance(e, m.Binary):
        left, right = _card_value(e.left, variable, row), _card_value(e.right, variable, row)
        if e.op == "==":
            return left == right
        if e.op == "!=":
            return left != right
        if e.op in _ON_NUMBERS and isinstance(left, int) and isinstance(right, int):
            return _ON_NUMBERS[e.op](left, right)
    raise _Unknown


# A requirement on the count of a local, the count on the left: what the
# count must be, tested the same way with the count read from a tally.
_COUNT_TESTS = {">=": ">=", ">": ">", "<=": ">=", "<": ">"}


def tally_prechecks(action: m.Action) -> dict[int, m.Expr]:
    """Early tests for the choice part of an action (choice_part), by the
    index of a `let` they go before. For `let L = x in Z where KEY == E`
    (Z a zone of the player, KEY a colour the element decides, E a colour
    that does not read x) followed by `require count(L) >= N` (or >): the
    count is the tally `per colour c: sum(x in Z where KEY == c: 1)` at E,
    which a zone keeps up to date, so `E == none or tally[E] >= N` is a
    test the requirement implies, made before L is built. (With E none,
    L counts the elements whose KEY is none: no tally holds that.)"""
    part = choice_part(action)
    found: dict[int, m.Expr] = {}
    for index, st in enumerate(part):
        if not isinstance(st, m.Let) or not isinstance(st.value, m.Filter):
            continue
        shape = _keyed_filter(st.value)
        if shape is None:
            continue
        key, colour = shape
        bound_since: list[str] = []  # what N may not read: it is not bound yet at the let
        for later in part[index:]:
            bound_since.extend(bound_by(later))
            test = _count_test(later, st.name)
            if test is not None:
                if not any(uses(test[1], name) for name in bound_since):
                    found[index] = _precheck(st, key, colour, *test)
                break
    return found


def _keyed_filter(e: m.Filter) -> tuple[m.Expr, m.Expr] | None:
    """(KEY, E) of `x in Z where KEY == E`, Z a zone, both colours, KEY
    decided by the element (what a zone's upkeep can keep), E not reading x."""
    if not (isinstance(e.source, m.Ref) and e.source.kind == "zone"):
        return None
    test = e.condition
    if not (isinstance(test, m.Binary) and test.op == "=="):
        return None
    for key, colour in ((test.left, test.right), (test.right, test.left)):
        if key.type != m.COLOUR or colour.type != m.COLOUR or uses(colour, e.variable):
            continue
        total = m.Total(
            type=m.INT, span=e.span, variable=e.variable, source=e.source, condition=None, body=key
        )
        if uses(key, e.variable) and kept_total(total, ()):
            return key, colour
    return None


class _Binds(Visitor):
    """The local a statement binds: a let's or a choice's name."""

    def generic_visit(self, node: Any, *args: Any) -> tuple[str, ...]:
        return ()

    def visit_Let(self, st: m.Let) -> tuple[str, ...]:
        return (st.name,)

    def visit_Choose(self, st: m.Choose) -> tuple[str, ...]:
        return (st.name,)

    def visit_ChooseDistinct(self, st: m.ChooseDistinct) -> tuple[str, ...]:
        return (st.name,)


_BINDS = _Binds()


def bound_by(st: m.Statement) -> tuple[str, ...]:
    """The local a statement binds, if any (a let or a choice)."""
    found: tuple[str, ...] = _BINDS.visit(st)
    return found


def _count_test(st: m.Statement, local: str) -> tuple[str, m.Expr] | None:
    """(op, N) of a requirement `count(local) op N` (op >= or >, or the
    mirror), N not reading the local."""
    if not isinstance(st, m.Require):
        return None
    test = st.condition
    if not (isinstance(test, m.Binary) and test.op in _COUNT_TESTS):
        return None
    for count, bound, mirrored in ((test.left, test.right, False), (test.right, test.left, True)):
        if (
            isinstance(count, m.Call)
            and count.function == "count"
            and isinstance(count.arguments[0], m.Ref)
            and count.arguments[0].kind == "variable"
            and count.arguments[0].name == local
            and not uses(bound, local)
            and (test.op in ("<=", "<")) == mirrored
        ):
            return _COUNT_TESTS[test.op], bound
    return None


def _precheck(let: m.Let, key: m.Expr, colour: m.Expr, op: str, bound: m.Expr) -> m.Expr:
    """`E == none or tally[E] op N`, the tally as a kept per-colour total."""
    assert isinstance(let.value, m.Filter)
    span, filtered = let.span, let.value
    c = f"{filtered.variable}#colour"  # no name of a rule file has a '#'
    each = m.Ref(type=m.COLOUR, span=span, kind="variable", name=c)
    one = m.Const(type=m.INT, span=span, value=1)
    matches = m.Binary(type=m.BOOL, span=span, op="==", left=key, right=each)
    total = m.Total(
        type=m.INT,
        span=span,
        variable=filtered.variable,
        source=filtered.source,
        condition=matches,
        body=one,
    )
    tally = m.PerColour(type=m.VECTOR, span=span, variable=c, body=total)
    counted = m.Index(type=m.INT, span=span, subject=tally, index=colour)
    enough = m.Binary(type=m.BOOL, span=span, op=op, left=counted, right=bound)
    none = m.Const(type=m.COLOUR, span=span, value=None)
    unset = m.Binary(type=m.BOOL, span=span, op="==", left=colour, right=none)
    return m.Logic(type=m.BOOL, span=span, op="or", operands=(unset, enough))


def precheck_aggregates(edition: m.Edition) -> list[Aggregate]:
    """The tallies that the early tests of tally_prechecks read and a zone
    can keep (Names gives them places after the edition's own)."""
    trees = tuple(
        test
        for action in edition.actions
        if action.body is not None
        for test in tally_prechecks(action).values()
    )
    return [a for a in aggregates_in(trees) if _reads_columns_only(a, edition)]


def kept_aggregates(edition: m.Edition) -> list[Aggregate]:
    """The zone aggregates an engine may keep up to date: the edition's own,
    then the tallies of the prechecks and the filters' counts, each once."""
    kept = aggregates_in(edition) + precheck_aggregates(edition) + filter_counts(edition)
    return list(dict.fromkeys(kept))


def filter_count(e: m.Filter) -> m.Total | None:
    """`sum(x in Z where C: 1)` for a filter of a zone whose condition a
    zone's upkeep can keep (kept_total): how many elements it keeps, so
    that an engine can skip the loop when none passes."""
    if not (isinstance(e.source, m.Ref) and e.source.kind == "zone"):
        return None
    one = m.Const(type=m.INT, span=e.span, value=1)
    total = m.Total(
        type=m.INT,
        span=e.span,
        variable=e.variable,
        source=e.source,
        condition=e.condition,
        body=one,
    )
    return total if kept_total(total, ()) else None


def filter_counts(edition: m.Edition) -> list[Aggregate]:
    """The counts of filter_count for every filter of the edition that a
    zone can keep (Names gives them places after the edition's own)."""
    totals = tuple(
        t for n in nodes(edition) if isinstance(n, m.Filter) for t in [filter_count(n)] if t
    )
    return [a for a in aggregates_in(totals) if _reads_columns_only(a, edition)]
