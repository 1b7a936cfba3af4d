"""How the model's names are spelled in a generated Python module.

Every name that came from a rule file is used only inside a generated
identifier with a fixed prefix, after checking that it is an identifier, so
no name in a rule file can inject code.
"""

from __future__ import annotations

import ast

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.source import ident as ident
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m


class Names:
    """The generated identifiers of one edition's tokens, zones, tiles,
    actions, definitions and table columns, and the numbers of its majority
    tiles and zone aggregates."""

    def __init__(self, edition: m.Edition) -> None:
        self.edition = edition
        self.token_index = {t.name: i for i, t in enumerate(edition.tokens)}
        self.majority_tile = dict(identities.tile_numbering(edition).majority_tile)
        self.majority_zone = {maj.name: maj.zone for maj in edition.majorities}
        # Colour columns whose cells may be none (-1): a tally skips such a cell.
        self.none_columns = analysis.none_columns(edition)
        # May a colour be none? Then a vector read at a colour not known when
        # generating is guarded (see emit.visit_Index).
        self.none_colours = analysis.colours_may_be_none(edition)
        self.aggregates = {a: i for i, a in enumerate(analysis.aggregates_in(edition))}

    def may_be_none(self, e: m.Expr) -> bool:
        """May this colour or token be none (-1) when the engine runs? Only
        in an edition where some colour can be none."""
        return self.none_colours and analysis.may_be_none(e, self.none_columns)

    def token(self, name: str) -> ast.Name:
        return py.name(ident("K_", name))

    def zone(self, name: str) -> ast.Name:
        return py.name(ident("Z_", name))

    def tile_set(self, name: str) -> ast.Name:
        return py.name(ident("S_", name))

    def majority(self, name: str) -> ast.Name:
        return py.name(ident("M_", name))

    def action_bit(self, name: str) -> ast.Name:
        return py.name(ident("A_", name))

    def define(self, name: str) -> str:
        return ident("_define_", name)

    def card_column(self, column: str) -> ast.Name:
        return py.name(ident("CARD_", column))

    def card_value(self, name: str) -> ast.Name:
        return py.name(ident("V_", name))

    def tile_column(self, column: str) -> ast.Name:
        return py.name(ident("TILE_", column))

    def column(self, element: m.Type, column: str) -> ast.Name:
        """The table of a card or tile column."""
        if element == m.CARD:
            return self.card_column(column)
        return self.tile_column(column)
