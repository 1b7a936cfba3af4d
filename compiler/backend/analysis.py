"""Facts about a checked model that code generation needs, for any target.

Which locals and definitions a piece of a rule reads, which per-player zone
aggregates an edition computes (so that an engine can keep them up to date
as cards and tiles move instead of recomputing them), and which zones run
code when something enters them. Every pass walks the model with
`dsl.visitor.walk`; none depends on the target language.
"""

from __future__ import annotations

from collections.abc import Iterator

from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import walk

Aggregate = tuple[str, str, str]  # ("sum" or "tally", zone, column)


def nodes(tree: object) -> Iterator[object]:
    """Every node of a model tree, or of a tuple of trees, parents first."""
    roots = tree if isinstance(tree, tuple | list) else (tree,)
    for root in roots:
        yield from walk(root)


def uses(tree: object, local: str) -> bool:
    """Does a model expression or statement (or a tuple of them) read the local?"""
    for node in nodes(tree):
        if isinstance(node, m.Ref) and node.kind == "variable" and node.name == local:
            return True
        if isinstance(node, m.Move) and node.card == local:
            return True
        if isinstance(node, m.ReturnToBox) and node.cards == local:
            return True
        if isinstance(node, m.WildCards) and local in (*node.chosen, *node.chosen_sets):
            return True
    return False


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
            and isinstance(attribute.subject, m.Ref)
            and attribute.subject.name == found.variable
            and attribute.subject.type == m.CARD
            and isinstance(colour, m.Ref)
            and colour.name == e.variable
        ):
            return found.source, attribute.attribute
    return None


def aggregate_of(e: object) -> Aggregate | None:
    """The per-player zone aggregate an expression computes, if it is one:
    `sum(Z.a)`, or a tally of a zone (tally_of)."""
    if isinstance(e, m.Call) and e.function == "sum" and len(e.arguments) == 1:
        total = e.arguments[0]
        if (
            isinstance(total, m.Attr)
            and isinstance(total.subject, m.Ref)
            and total.subject.kind == "zone"
            and total.type == m.list_of(m.INT)
        ):
            return ("sum", total.subject.name, total.attribute)
    tally = tally_of(e)
    if tally is not None and isinstance(tally[0], m.Ref) and tally[0].kind == "zone":
        return ("tally", tally[0].name, tally[1])
    return None


def aggregates_in(tree: object) -> list[Aggregate]:
    """Every zone aggregate in a model tree, in first-seen order (no part of
    an aggregate is itself one, so the nodes inside one add nothing)."""
    found: dict[Aggregate, None] = {}
    for node in nodes(tree):
        aggregate = aggregate_of(node)
        if aggregate is not None:
            found.setdefault(aggregate)
    return list(found)


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


def choice_part(action: m.Action) -> list[m.Statement]:
    """The statements of an action that decide whether (and how) it is legal:
    its locals, choices, requirements and payment, in order."""
    return [
        st
        for st in action.body or ()
        if isinstance(st, m.Let | m.Choose | m.ChooseDistinct | m.Require | m.Pay)
    ]
