"""Cards, tiles and moves named by their data, for people.

An engine numbers its cards and tiles (docs/engine.md, "Identities"); a
person wants "card 71 (tier 3, black bonus, 4 points)" or a tile's name
where the data has one. The data of each card and tile is read from the
engine's description (its card and tile tables, columns and rows: no front
end runs), turned into JSON-ready rows once per edition, and labelled by one
function for every tool that shows a card: the web board, `play` in the
terminal and `simulate`'s report. Nothing here knows an edition: a label is
made from the columns' types alone (the market's grouping column first, a
text column whose values are all distinct is a name, numbers with their
column's name).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.loader import is_rule_file, load


@frozen
class EditionData:
    """Every card and tile of an edition as JSON-ready rows (a vector as a
    count per colour, zeros left out), with the label of each."""

    cards: tuple[Json, ...]  # by card number: {"number", "label", "name", "values": {column: v}}
    tiles: tuple[Json, ...]  # by tile number: {"number", "set", "label", "name", "values"}
    columns: Mapping[str, str]  # every card column's type
    name_column: str | None  # a text column naming each card, if one does
    board_columns: int | None = None  # the columns of the board of cells, if there is one

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

    def cell_label(self, cell: Any) -> str:
        """A cell of the board by its number and place: `cell 7 (2, 1)`
        (row, column), as docs/language.md writes a cell."""
        if self.board_columns and isinstance(cell, int) and cell >= 0:
            return f"cell {cell} ({cell // self.board_columns}, {cell % self.board_columns})"
        return f"cell {cell}"

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


def _counts(counts: Mapping[str, int]) -> str:
    return " ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "nothing"


def _values(row: Sequence[Any], columns: Sequence[Json], colours: Sequence[str]) -> Json:
    """A described row by column name (a vector as its counts not 0)."""
    values = {}
    for column, value in zip(columns, row, strict=True):
        if column["type"] == "vector" and isinstance(value, list):
            value = {c: n for c, n in zip(colours, value, strict=False) if n}
        values[column["name"]] = value
    return values


def _name_column(columns: Sequence[Json], rows: Sequence[Sequence[Any]]) -> str | None:
    """A text column whose values are all distinct names each row."""
    for i, column in enumerate(columns):
        values = [row[i] for row in rows]
        if column["type"] == "text" and len(set(values)) == len(values) > 1:
            return str(column["name"])
    return None


def _parts(values: Mapping[str, Any], columns: Sequence[Json], skip: set[str]) -> list[str]:
    """A row's values in words, column by column (vectors left to pips)."""
    parts = []
    for column in columns:
        name, kind = column["name"], column["type"]
        value = values.get(name)
        if name in skip or value is None or value is False or value == 0:
            continue
        if kind == "vector":
            continue
        if kind == "bool":
            parts.append(name)
        elif kind == "colour" or kind == "int":
            parts.append(f"{value} {name}")
        else:
            parts.append(f"{name} {value}")
    return parts


def _card_rows(description: Json) -> tuple[Json, ...]:
    columns, colours = description["cards"]["columns"], description["colours"]
    described = description["cards"]["rows"]
    named = _name_column(columns, described)
    group = description["markets"][0]["group_by"]
    rows = []
    for number, row in enumerate(described):
        values = _values(row, columns, colours)
        words = [f"{group} {values[group]}"] if group in values else []
        words += _parts(values, columns, {group, *([named] if named else [])})
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


def _tile_rows(description: Json) -> tuple[Json, ...]:
    rows: list[Json] = []
    tiles, colours = description["tiles"], description["colours"]
    for table in tiles["sets"]:
        columns = table["columns"]
        named = _name_column(columns, table["rows"])
        for index, row in enumerate(table["rows"]):
            values = _values(row, columns, colours)
            needs = [
                _counts(v) for c in columns if c["type"] == "vector" and (v := values[c["name"]])
            ]
            words = _parts(values, columns, {named} if named else set()) + needs
            name = values[named] if named else f"{table['name']} {index}"
            rows.append(
                {
                    "number": len(rows),
                    "set": table["name"],
                    "label": f"{name} ({', '.join(words)})",
                    "name": name,
                    "values": values,
                }
            )
    for majority in tiles["majorities"]:
        rows.append(
            {
                "number": len(rows),
                "set": majority["name"],
                "label": f"{majority['title']} ({majority['points']} points)",
                "name": majority["title"],
                "values": {"points": majority["points"]},
            }
        )
    return tuple(rows)


_DATA: dict[tuple[str, str], EditionData] = {}


def data_of(description: Json) -> EditionData:
    """The cards and tiles an engine describes, labelled (once per edition
    and fingerprint)."""
    key = (description["edition"], description["fingerprint"])
    found = _DATA.get(key)
    if found is None:
        cards = description["cards"]
        found = EditionData(
            cards=_card_rows(description),
            tiles=_tile_rows(description),
            columns={c["name"]: c["type"] for c in cards["columns"]},
            name_column=_name_column(cards["columns"], cards["rows"]),
            board_columns=description["board"]["columns"] if "board" in description else None,
        )
        _DATA[key] = found
    return found


@functools.lru_cache(maxsize=32)
def _data_at(path: str, stamp: float) -> EditionData:
    return data_of(load(Path(path)).DESCRIPTION)


def edition_data(edition: str | Path) -> EditionData:
    """The data of an edition by name (its installed engine) or of a rule
    file by path (its engine, from the cache); EngineUnavailable, saying
    why, if there is none. A rule file is read once per version."""
    if not is_rule_file(edition):
        return data_of(load(str(edition)).DESCRIPTION)
    path = Path(edition)
    if not path.is_file():
        return data_of(load(path).DESCRIPTION)  # EngineUnavailable: no rule file
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
    if value is None:  # a follow-up declined (`may choose`)
        return "decline"
    if kind == "card":
        return data.card_label(value)
    if kind == "tile":
        return data.tile_label(value)
    if kind == "cell":
        return data.cell_label(value)
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
        named = kind in ("card", "tile", "token", "set:token", "cell", "set:cell")
        words.append(said if named else f"{choice} {said}")
    title = titles.get(name, str(name).replace("_", " "))
    return f"{title}: {'; '.join(words)}" if words else title


def move_rules(name: str, description: Json) -> list[str]:
    """The rule ids of a move (an action, a step's decision, a follow-up)."""
    for part in ("actions", "steps", "follow_ups"):
        for item in description[part]:
            if item["name"] == name:
                return list(item["rules"])
    return []
