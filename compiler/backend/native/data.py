"""An edition's data tables as C initialisers.

The cells come from the target-neutral tables (backend/tables.py: one
reading of the data for both targets); this module only writes them in C,
and adds what only the C engine wants: a per-colour column packed into one
64-bit word where it fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native.emit import Names
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.limits import CARD_VALUE

# A packed vector: 8 bits per colour, each cell below 128 (the shortfall
# test borrows the eighth bit), all cells of a row summing below 256.
LANE_BITS = 8
LANE_MAX = 127
LANES_SUM_MAX = 255


def packed_cells(rows: Sequence[object], colours: int) -> list[int] | None:
    """A per-colour column packed a row per word, or None where it does not fit."""
    if colours * LANE_BITS > 64:
        return None
    packed = []
    for row in rows:
        assert isinstance(row, tuple), row
        cells = [int(x) for x in row]
        if any(not 0 <= x <= LANE_MAX for x in cells) or sum(cells) > LANES_SUM_MAX:
            return None
        packed.append(sum(x << (LANE_BITS * k) for k, x in enumerate(cells)))
    return packed


def packed_column(edition: m.Edition, column: str) -> str | None:
    """The C name of a card column's packed twin, if it has one."""
    for col in edition.cards.columns:
        if col.name == column and col.type == "vector":
            rows = [row[column] for row in edition.cards.rows]
            if packed_cells(rows, len(edition.colours)) is not None:
                return c.ident("CARD_", column + "_packed")
    return None


def data(
    edition: m.Edition, names: Names, python: dict[str, Any], packed: set[str]
) -> dict[str, Any]:
    """The data tables, as C initialisers; `packed`: the card columns whose
    packed twins the engine reads."""
    e = edition
    card_kinds = {col.name: col.type for col in e.cards.columns}
    tile_kinds: dict[str, str] = {"points": "int"}
    for table in e.tile_sets:
        for col in table.columns:
            tile_kinds[col.name] = col.type
    decks = identities.decks(e)
    return {
        "c_card_columns": [
            column(names, "CARD_", col.name, card_kinds[col.name], col.values)
            for col in python["card_columns"]
        ],
        "c_packed_columns": [
            packed_twin(names, col.name, col.values)
            for col in python["card_columns"]
            if col.name in packed
        ],
        "c_tile_columns": [
            column(names, "TILE_", col.name, tile_kinds[col.name], col.values)
            for col in python["tile_columns"]
        ],
        "set_element": set_element(e),
        "card_count": len(e.cards.rows),
        "deck_count": len(decks.tiers),
        "deck_sizes": [len(cards) for cards in decks.deck_cards],
        "deck_face_up": list(decks.face_up),
        "zone_caps": [
            len(e.cards.rows) if z.content == "cards" else max(python["tile_count"], 1)
            for z in e.zones
        ],
        "tile_set_caps": [max(len(faces), 1) for faces in python["tile_set_faces"]],
        "players_max": e.players[1],
        "token_count": len(e.tokens),
        "value_count": len(e.card_values),
        **_card_value_type(e),
    }


def _card_value_type(e: m.Edition) -> dict[str, str]:
    """A card value's C type and its range: 16 bits where every value is a
    colour or a condition, else a full `V` holding the language's range of a
    number card value (frontend/limits.py)."""
    if any(v.type == "int" for v in e.card_values):
        low, high = f"{CARD_VALUE.low}LL", f"{CARD_VALUE.high}LL"
        return {"value_element": "V", "value_low": low, "value_high": high}
    return {"value_element": "int16_t", "value_low": "INT16_MIN", "value_high": "INT16_MAX"}


def set_element(edition: m.Edition) -> str:
    """The C type of a set's or list's elements: 32 bits, unless a list
    of numbers may hold more (a number card value, a data cell past 32 bits)."""
    if any(v.type == "int" for v in edition.card_values):
        return "V"
    for table in (edition.cards, *edition.tile_sets):
        for col in table.columns:
            if col.type == "int":
                cells = [row.get(col.name) for row in table.rows]
                if any(isinstance(x, int) and not -(2**31) <= x < 2**31 for x in cells):
                    return "V"
    return "int32_t"


def column(
    names: Names, prefix: str, name: str, kind: str, values: tuple[Any, ...]
) -> dict[str, Any]:
    """A column of a data table: its C name, type and cells."""
    if kind == "vector":
        cells = ["{{" + ", ".join(str(int(x)) for x in v) + "}}" for v in values]
        return {"name": c.ident(prefix, name), "type": "Vec", "cells": cells or ["{{0}}"]}

    def scalar(v: Any) -> str:
        if isinstance(v, str):
            return str(names.texts[v])
        return "-1" if v is None else str(int(v))

    cells = [scalar(v) for v in values] or ["0"]
    return {"name": c.ident(prefix, name), "type": "V", "cells": cells}


def packed_twin(names: Names, name: str, values: tuple[Any, ...]) -> dict[str, Any]:
    """A per-colour card column packed a card per 64-bit word."""
    packed = packed_cells([tuple(v) for v in values], len(names.edition.colours))
    assert packed is not None, name
    cells = [f"0x{word:x}ULL" for word in packed] or ["0"]
    return {"name": c.ident("CARD_", name + "_packed"), "type": "uint64_t", "cells": cells}
