"""Local names: what let, choose, filters, quantifiers, triggers and claims
bind, and whether a player is in context where an expression is read.

A scope knows its parent, so an inner block sees the names of the blocks
around it; a name may not be bound twice in one chain of scopes, so that a
name always means one thing where it is read.
"""

from __future__ import annotations

from collections.abc import Iterator

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.model import Type
from splendor_rules.dsl import syntax as s

BUILTINS = (
    "supply",
    "tokens",
    "count",
    "sum",
    "distinct",
    "min",
    "max",
    "any",
    "all",
    "holds",
    "did",
)
# The JSON form of a move names its choices beside these keys.
RESERVED_LOCALS = ("action", "pay", "tokens", "tile")


class Scope:
    """Local names and whether a player is in context (whose zones, tokens
    and definitions a bare name means)."""

    def __init__(self, parent: Scope | None = None, player: bool | None = None) -> None:
        self.parent = parent
        self.player: bool = player if player is not None else bool(parent and parent.player)
        self.names: dict[str, tuple[Type, s.Span]] = {}
        self.used: set[str] = set()

    def child(self, player: bool | None = None) -> Scope:
        return Scope(self, player)

    def find(self, name: str) -> Scope | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None

    def visible(self) -> Iterator[str]:
        scope: Scope | None = self
        while scope is not None:
            yield from scope.names
            scope = scope.parent


def bind(context: Context, scope: Scope, name: s.Name, type_: Type) -> None:
    """Bind a local name, reporting a name already bound, built in or reserved."""
    bound = scope.find(name.text)
    if bound is not None:
        first = bound.names[name.text][1]
        context.report(msgs.bound_twice(name.span, name.text, first))
        return
    if name.text in BUILTINS:
        context.report(msgs.builtin_bound(name.span, name.text))
    elif name.text in RESERVED_LOCALS:
        context.report(msgs.reserved_local(name.span, name.text))
    scope.names[name.text] = (type_, name.span)
