"""Warnings for what an edition declares or binds and never uses.

Each is a warning, not an error: the edition still works, but a name never
read is most often a misspelling or a leftover. The checks that read names
mark them used (Scope.used for local names, Context.used_globals for the
edition's own); these functions then report the rest.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.scopes import Scope
from splendor_rules.dsl import syntax as s


def warn_unused_locals(context: Context, scope: Scope) -> None:
    """The names a scope binds that nothing in it reads."""
    for name, (_, span) in scope.names.items():
        if name not in scope.used:
            context.report(msgs.never_used(span, name))


def warn_unrevealed_tiles(context: Context, revealed: set[str]) -> None:
    """Tile sets that no `reveal` puts on the table."""
    for name, table in context.tile_sets.items():
        if name not in revealed:
            context.report(msgs.tiles_never_revealed(table.span, name))


def warn_unused_globals(context: Context) -> None:
    """Definitions and zones that no expression, statement or step reads."""
    for name, entry in context.defines.items():
        if name not in context.used_globals:
            decl = entry.decl
            assert isinstance(decl, s.Define)
            context.report(msgs.definition_never_used(decl.name.span, name))
    for name, zone in context.zones.items():
        if name not in context.used_globals:
            context.report(msgs.zone_never_used(zone.name.span, name))
