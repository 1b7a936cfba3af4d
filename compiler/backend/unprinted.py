"""Constructs of the language a target does not print yet.

The interpreter plays them; a target asked for an edition that uses one
refuses it, located at each use, rather than generate an engine that plays
another game (docs/language.md names them). The native target reads a
board's bag only as counts (`native_bag_uses`).
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.visitor import walk


class NotPrinted(ValueError):
    """An edition uses a construct the target does not print yet."""

    def __init__(self, target: str, diagnostics: list[Diagnostic]) -> None:
        lines = "; ".join(d.headline() for d in diagnostics)
        super().__init__(f"the {target} target cannot build this edition: {lines}")
        self.target = target
        self.diagnostics = diagnostics


def refuse_unprinted(edition: m.Edition, target: str) -> None:
    """Raise NotPrinted, naming each use, if the edition uses a construct
    the target does not print."""
    found = unprinted(edition, target)
    if found:
        raise NotPrinted(target, found)


def unprinted(edition: m.Edition, target: str) -> list[Diagnostic]:
    """A located error at each use of a construct the target does not print."""
    found: list[Diagnostic] = []
    if target == "native":
        found += [
            msgs.not_printed(ref.span, target, "a use of the bag but a count, any, all or sum")
            for ref in native_bag_uses(edition)
        ]
    return found


def native_bag_uses(edition: m.Edition) -> list[m.Ref]:
    """The uses of `bag` the native target does not print: it reads the
    bag from its counts (`count(bag)`, `count(t in bag where C)`, and
    `any`, `all` or `sum` over it), never builds it as a list, which may
    hold more tokens than its sets have room for."""
    read: set[int] = set()
    for node in walk(edition):
        if isinstance(node, m.Call) and node.function == "count" and node.arguments:
            counted = node.arguments[0]
            read.add(id(counted.source if isinstance(counted, m.Filter) else counted))
        elif isinstance(node, m.Quantifier | m.Total) and node.source is not None:
            read.add(id(node.source))
    return [
        node
        for node in walk(edition)
        if isinstance(node, m.Ref) and node.kind == "bag" and id(node) not in read
    ]
