"""Cards, tiles and moves named by their data, for people.

An engine numbers its cards and tiles (docs/engine.md, "Identities"); a
person wants "card 71 (tier 3, black bonus, 4 points)" or a tile's name
where the data has one. The data of each card and tile is read once from the
checked model of the edition's rule file (the description names the columns,
not the rows), turned into JSON-ready rows, and labelled by one function
for every tool that shows a card: the web board, `play` in the terminal and
`simulate`'s report. Nothing here knows an edition: a label is made from the
columns' types alone (the market's grouping column first, a text column whose
values are all distinct is a name, numbers with their column's name).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.lookup import UnknownEdition, find_edition
from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.runtime.loading import EngineUnavailable
from splendor_rules.compiler.tools.loader import check_rule_file, is_rule_file


@frozen
class EditionData:
    """Every card and tile of an edition as JSON-ready rows (a vector as a
    count per colour, zeros left out), with the label of each."""

    cards: tuple[Json, ...]  # by card number: {"number", "label", "name", "values": {column: v}}
    tiles: tuple[Json, ...]  # by tile number: {"number", "set", "label", "name", "values"}
    columns: Mapping[str, str]  # every card column's type
    name_column: str | None  # a text column naming each card, if one does

    def as_json(self) -> Json:
        return {"cards": list(self.cards), "tiles": list(self.tiles), "columns": dict(self.columns)}

    def card_label(self, card: Any) -> str:
        """A card by its data; a deck's top (`{"deck": tier}` or `("deck",
        tier)`) as that."""
        deck = _deck(card)
        if deck is not None:
            return f"top of deck {deck}"
        if isinstance(card, int) and 0 <= card < len(self.cards):
            return str(self.cards[card]["label"])
        return f"card {card}"

    def tile_label(self, tile: Any) -> str:
        if isinstance(tile, int) and 0 <= tile < len(self.tiles):
            return str(self.tiles[tile]["label"])
        return f"tile {tile}"


def _deck(card: Any) -> Any:
    if isinstance(card, dict) and set(card) == {"deck"}:
        return card["deck"]
    if isinstance(card, tuple | list) and len(card) == 2 and card[0] == "deck":
        return card[1]
    return None


def _cell(value: Any, column: m.Column, colours: Sequence[str]) -> Any:
    if column.type == "vector" and isinstance(value, tuple):
        return {c: n for c, n in zip(colours, value, strict=False) if n}
    return value


def _counts(counts: Mapping[str, int]) -> str:
    return " ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "nothing"


def _name_column(table: m.Table) -> str | None:
    """A text column whose values are all distinct names each row."""
    for column in table.columns:
        values = [row.get(column.name) for row in table.rows]
        if column.type == "text" and len(set(values)) == len(values) > 1:
            return column.name
    return None


def _parts(values: Mapping[str, Any], columns: Sequence[m.Column], skip: set[str]) -> list[str]:
    """A row's values in words, column by column (vectors left to pips)."""
    parts = []
    for column in columns:
        value = values.get(column.name)
        if column.name in skip or value is None or value is False or value == 0:
            continue
        if column.type == "vector":
            continue
        if column.type == "bool":
            parts.append(column.name)
        elif column.type == "colour" or column.type == "int":
            parts.append(f"{value} {column.name}")
        else:
            parts.append(f"{column.name} {value}")
    return parts


def _card_rows(model: m.Edition) -> tuple[Json, ...]:
    table = model.cards
    named = _name_column(table)
    group = model.market.group_by
    rows = []
    for number, row in enumerate(table.rows):
        values = {c.name: _cell(row.get(c.name), c, model.colours) for c in table.columns}
        words = [f"{group} {values[group]}"] if group in values else []
        words += _parts(values, table.columns, {group, *([named] if named else [])})
        head = f"{values[named]} (card {number}" if named else f"card {number} ("
        sep = ", " if named else ""
        label = f"{head}{sep}{', '.join(words)})" if words or named else f"card {number}"
        rows.append(
            {
                "number": number,
                "label": label,
                "name": values[named] if named else None,
                "values": values,
            }
        )
    return tuple(rows)


def _tile_rows(model: m.Edition) -> tuple[Json, ...]:
    rows: list[Json] = []
    for table in model.tile_sets:
        named = _name_column(table)
        for index, row in enumerate(table.rows):
            values = {c.name: _cell(row.get(c.name), c, model.colours) for c in table.columns}
            needs = [
                _counts(v) for c in table.columns if c.type == "vector" and (v := values[c.name])
            ]
            words = _parts(values, table.columns, {named} if named else set()) + needs
            name = values[named] if named else f"{table.name} {index}"
            rows.append(
                {
                    "number": len(rows),
                    "set": table.name,
                    "label": f"{name} ({', '.join(words)})",
                    "name": name,
                    "values": values,
                }
            )
    for majority in model.majorities:
        rows.append(
            {
                "number": len(rows),
                "set": majority.name,
                "label": f"{majority.title} ({majority.points} points)",
                "name": majority.title,
                "values": {"points": majority.points},
            }
        )
    return tuple(rows)


def data_of(model: m.Edition) -> EditionData:
    """The cards and tiles of a checked edition, labelled."""
    named = _name_column(model.cards)
    return EditionData(
        cards=_card_rows(model),
        tiles=_tile_rows(model),
        columns={c.name: c.type for c in model.cards.columns},
        name_column=named,
    )


@functools.lru_cache(maxsize=32)
def _data_at(path: str, stamp: float) -> EditionData:
    return data_of(check_rule_file(Path(path)))


def edition_data(edition: str | Path) -> EditionData:
    """The data of an edition by name (its rule file in the editions folder)
    or of a rule file by path; EngineUnavailable, saying why, if there is
    none. Read once per file version."""
    try:
        path = Path(edition) if is_rule_file(edition) else find_edition(str(edition))
    except UnknownEdition as error:
        raise EngineUnavailable(str(error)) from error
    if not path.is_file():
        raise EngineUnavailable(f"no rule file {path}")
    return _data_at(str(path.resolve()), path.stat().st_mtime)


def item_label(data: EditionData | None, item: str) -> str:
    """A held item as `simulate` names it ("card 71", "tile 3") by its data;
    the name itself without data."""
    kind, _, number = item.partition(" ")
    if data is None or not number.isdigit():
        return item
    if kind == "card":
        return data.card_label(int(number))
    return data.tile_label(int(number)) if kind == "tile" else item


def _value_words(kind: str, value: Any, data: EditionData) -> str:
    if kind == "card":
        return data.card_label(value)
    if kind == "tile":
        return data.tile_label(value)
    if kind in ("pay", "tokens") and isinstance(value, dict):
        return _counts(value)
    if kind.startswith("set:") and isinstance(value, list):
        inner = kind.partition(":")[2]
        return ", ".join(_value_words(inner, v, data) for v in value) or "none"
    return str(value)


_MOVES: dict[int, tuple[Json, dict[str, Any], dict[str, str]]] = {}


def _moves(description: Json) -> tuple[dict[str, Any], dict[str, str]]:
    """Each move's shape and each action's title, by name (once per description)."""
    found = _MOVES.get(id(description))
    if found is None or found[0] is not description:
        shapes = {s["name"]: s for s in description["moves"]}
        titles = {a["name"]: a["title"] for a in description["actions"]}
        found = (description, shapes, titles)
        _MOVES[id(description)] = found
    return found[1], found[2]


def move_label(move: Json, description: Json, data: EditionData) -> str:
    """A move in the JSON form in words: its title, then each choice by its
    data ("buy a card: card 12 (tier 1, 1 red bonus), pay 2 red 1 wild")."""
    name = str(move.get("action"))
    shapes, titles = _moves(description)
    shape = shapes.get(name)
    if shape is None:
        return str(name)
    words = []
    for choice, kind in shape["choices"]:
        if choice not in move:
            continue
        said = _value_words(kind, move[choice], data)
        words.append(said if kind in ("card", "tile", "token", "set:token") else f"{choice} {said}")
    title = titles.get(name, str(name).replace("_", " "))
    return f"{title}: {'; '.join(words)}" if words else title


def move_rules(name: str, description: Json) -> list[str]:
    """The rule ids of a move (an action, a step's decision, a follow-up)."""
    for part in ("actions", "steps", "follow_ups"):
        for item in description[part]:
            if item["name"] == name:
                return list(item["rules"])
    return []
