"""What every drawn edition is drawn with: the draws themselves (each
shrinking towards the simplest choice) and the card and tile tables with
their CSV data."""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

COLUMN_NAMES = {
    "int": ("points", "prestige"),
    "bool": ("flag", "spark"),
    "text": ("name", "label"),
    "colour": ("bonus_colour", "gem_colour"),
    "vector": ("cost", "price"),
    "oneof": ("sort", "family"),  # a text column of a closed set: `one of "alpha", ...`
    "colour?": ("tint", "shade"),  # `colour or none`
}
ONE_OF = ("alpha", "beta", "gamma")
# The type an expression reads from a column of each kind (expressions.World).
WORLD_TYPES = {"oneof": "text"}
TITLES = ("Take", 'say "hi"', "back\\slash", "ünïcødé", "{braces}", "tab\there")
# One drawn edition in LONG_CHANCE plays short games (a few plies: an
# ending or a stalemate soon); the others play games as long as the shipped
# editions' (a larger clock, supply and decks, endings that wait for turns
# to pass). docs/testing.md, "Game lengths".
LONG_CHANCE = 5


def quote(text: str) -> str:
    """A rule-file string for the text."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    return f'"{escaped}"'


@dataclass
class Table:
    """A drawn card or tile table: its declaration lines and CSV."""

    columns: dict[str, str]  # name -> kind
    declaration: str
    csv: str
    rows: list[dict[str, Any]]

    @property
    def types(self) -> dict[str, str]:
        """The columns by the type an expression reads (expressions.World)."""
        return {name: WORLD_TYPES.get(kind, kind) for name, kind in self.columns.items()}


class Generator:
    """Draws one edition (and its parent, for a child of a drawn base)."""

    def __init__(self, draw: Any, known: frozenset[str]) -> None:
        self.draw = draw
        self.known = known
        self.next_id = 0
        self.files: dict[str, str] = {}
        self.shapes: list[str] = []
        self.long: bool | None = None  # drawn by `long_games`
        self.short_draw = 1  # the draw that makes an edition short (`long_games`)

    # ------------------------------------------------------------ helpers

    def index(self, n: int) -> int:
        return int(self.draw(st.integers(0, n - 1))) if n > 1 else 0

    def pick(self, options: Any) -> Any:
        options = list(options)
        return options[self.index(len(options))]

    def number(self, low: int, high: int) -> int:
        return int(self.draw(st.integers(low, high)))

    def flip(self, chance: int = 2) -> bool:
        """True about once in `chance` draws; shrinks to False."""
        return self.index(chance) == chance - 1

    def subset(self, items: Any, most: int | None = None) -> list[Any]:
        """Some of the items, in order (shrinks to none)."""
        items = list(items)
        count = self.number(0, len(items) if most is None else min(most, len(items)))
        return items[:count]

    def permuted(self, items: list[Any]) -> list[Any]:
        """The items in a drawn order: one draw, shrinking to the given order."""
        seed = self.index(8)
        out = list(items)
        if seed:
            random.Random(seed).shuffle(out)
        return out

    def tag(self, chance: int = 4) -> str:
        """Now and then, rule ids in square brackets (each stated once)."""
        if not self.flip(chance):
            return ""
        ids = []
        for _ in range(1 + self.index(2)):
            self.next_id += 1
            suffix = self.pick(["", ".1", "a"])
            ids.append(f"R-{self.next_id}{suffix}")
        return "[" + ", ".join(ids) + "] "

    def title(self) -> str:
        return " " + quote(self.pick(TITLES)) if self.flip(3) else ""

    def amount(self, players: tuple[int, int], low: int, high: int) -> tuple[str, int]:
        """A supply amount: a number or a table by player count; and its most."""
        if not self.flip(3):
            n = self.number(low, high)
            return str(n), n
        counts = {p: self.number(low, high) for p in range(players[0], players[1] + 1)}
        table = ", ".join(f"{p}: {n}" for p, n in self.permuted(list(counts.items())))
        return f"by players {{{table}}}", max(counts.values())

    def long_games(self) -> bool:
        """Does the edition play long games? Drawn once for an edition and
        its drawn parent (they share the clock). Short is a middle value:
        Hypothesis draws 0 more often than 1 in LONG_CHANCE once it mutates
        earlier examples (four runs of 60 editions: 10 to 26 short with 0
        for short, 9 to 20 with 1); so it shrinks to long, unless
        `short_draw` is 0 (base_editions(shrink_to_short=True))."""
        if self.long is None:
            self.long = self.index(LONG_CHANCE) != self.short_draw
        return self.long

    def shape(self, name: str) -> None:
        self.shapes.append(name)

    # ------------------------------------------------------------- tables

    def columns(self, kinds: list[str], taken: set[str]) -> list[tuple[str, str]]:
        """Named extra columns of the given kinds (names not yet taken)."""
        named = []
        for kind in kinds:
            name = next((n for n in COLUMN_NAMES[kind] if n not in taken), None)
            if name is not None:
                taken.add(name)
                named.append((name, kind))
        return named

    def extra_kinds(self, most: int) -> list[str]:
        kinds = ("int", "vector", "oneof", "colour", "bool", "colour?", "text", "int")
        return [k for k in kinds if self.flip()][:most]

    def table(
        self,
        path: str,
        colours: list[str],
        columns: list[tuple[str, str]],
        keyed: list[dict[str, Any]],
        declared: str,
        defaults: dict[str, str] | None = None,
    ) -> Table:
        """A table with the given columns; `keyed` gives each row's fixed
        cells (the tier, the side); `declared` starts the declaration;
        `defaults`, the columns that state a default (for another card table)."""
        header: list[str] = []
        lines: list[str] = []
        sources: dict[str, list[str]] = {}
        mappings: dict[str, dict[str, str]] = {}
        for name, kind in columns:
            written, source = self.column_type(name, kind, colours, mappings)
            if kind == "vector":
                sources[name] = source
            else:
                src = f"src_{name}" if self.flip(4) else name
                sources[name] = [src]
                if src != name:
                    written += f" from {quote(src)}"
            if defaults and name in defaults:
                written += f" default {defaults[name]}"
            lines.append(f"  {name}: {written}")
            header.extend(sources[name])
        rows = []
        cells: list[dict[str, str]] = []
        rng = random.Random(self.number(0, 1000))
        for number, fixed in enumerate(keyed):
            row: dict[str, Any] = {}
            cell: dict[str, str] = {}
            for name, kind in columns:
                value, shown = self.cell(rng, name, kind, number, colours, fixed, mappings)
                row[name] = value
                for src, text in zip(sources[name], shown, strict=True):
                    cell[src] = text
            rows.append(row)
            cells.append(cell)
        order = self.permuted(list(dict.fromkeys(header)))
        csv_text = _csv([order, *[[c[h] for h in order] for c in cells]])
        count = f" with {len(keyed)} rows" if self.flip(3) else ""
        text = f"{declared.format(path=quote(path), rows=count)} {{\n" + "\n".join(lines) + "\n}"
        return Table(dict(columns), text, csv_text, rows)

    def column_type(
        self, name: str, kind: str, colours: list[str], mappings: dict[str, dict[str, str]]
    ) -> tuple[str, list[str]]:
        """How a column's type is written, and (for a vector) its CSV columns."""
        if kind == "int":
            return self.pick(["int", "int 0..9"]), []
        if kind in ("bool", "text"):
            return kind, []
        if kind == "oneof":
            return "one of " + ", ".join(quote(v) for v in ONE_OF), []
        if kind == "colour?":
            if not self.flip(3):
                return "colour or none", []
            values = {f"v{i}_{name}": c for i, c in enumerate([*colours, "none"])}
            mappings[name] = values
            inner = ", ".join(f"{v}: {c}" for v, c in self.permuted(list(values.items())))
            return f"colour or none {{{inner}}}", []
        if kind == "colour":
            if not self.flip(3):
                return "colour", []
            values = {f"v{i}_{name}": c for i, c in enumerate(colours)}
            mappings[name] = values
            inner = ", ".join(f"{v}: {c}" for v, c in self.permuted(list(values.items())))
            return f"colour {{{inner}}}", []
        if name == "cost" and not self.flip(3):
            return "per colour", list(colours)
        columns = {c: f"{name}_{c}" for c in colours}
        inner = ", ".join(f"{c}: {quote(s)}" for c, s in self.permuted(list(columns.items())))
        return f"per colour {{{inner}}}", [columns[c] for c in colours]

    @staticmethod
    def cell(
        rng: random.Random,
        name: str,
        kind: str,
        number: int,
        colours: list[str],
        fixed: dict[str, Any],
        mappings: dict[str, dict[str, str]],
    ) -> tuple[Any, list[str]]:
        """A row's value in a column, and its CSV cells. The values come from
        one drawn seed per table: a draw per cell would make editions slow
        to draw and to shrink, and their values matter less than their shape."""
        if name in fixed:
            return fixed[name], [str(fixed[name])]
        if kind == "int":
            n = rng.randrange(6)
            return n, [str(n)]
        if kind == "bool":
            b = rng.random() < 0.5
            return b, ["1" if b else "0"]
        if kind == "text":
            text = f"{name} {number}" if rng.random() < 0.3 else f"{name}{number}"
            return text, [text]
        if kind == "oneof":
            value = rng.choice(ONE_OF)
            return value, [value]
        if kind == "colour?":
            colour = rng.choice([*colours, "none"])
            if name in mappings:
                return colour, [next(v for v, c in mappings[name].items() if c == colour)]
            return colour, ["" if colour == "none" and rng.random() < 0.5 else colour]
        if kind == "colour":
            colour = rng.choice(colours)
            if name in mappings:
                return colour, [next(v for v, c in mappings[name].items() if c == colour)]
            return colour, [colour]
        vector = [rng.randrange(4) for _ in colours]
        if rng.random() < 0.1:  # now and then past what a native engine packs (data.py)
            vector = [rng.choice((0, 1, 60, 127, 128, 200)) for _ in colours]
        return tuple(vector), [str(n) for n in vector]

    def cards(self, colours: list[str]) -> tuple[Table, str, tuple[Table, str] | None]:
        """The cards (with a tier column) and the market declaration; now
        and then a second card table with its own market."""
        tier_column = self.pick(["tier", "level"])
        tiers = [1, 2, 3][: 1 + self.index(3)]
        if self.flip(4):
            tiers = [t * 2 + 1 for t in tiers]
        keyed = []
        most = 12 if self.long_games() else 6  # (long games buy more cards)
        for tier in tiers:
            keyed += [{tier_column: tier}] * self.number(1, most)
        taken = {tier_column}
        columns = [(tier_column, "int"), *self.columns(self.extra_kinds(5), taken)]
        columns = self.permuted(columns)
        extra = self.flip(3)
        # A second table shares the tier column and every vector column
        # (which have no default), and some others; each table gives a
        # default for the columns it has that the other lacks.
        shared = [
            (n, k) for n, k in columns if n == tier_column or k == "vector" or not self.flip()
        ]
        own = self.columns([k for k in self.extra_kinds(3) if k != "vector"], taken)
        defaults = {n: self.default(k, colours) for n, k in columns if (n, k) not in shared}
        table = self.table(
            "cards.csv",
            colours,
            columns,
            keyed,
            "cards from {path}{rows}",
            defaults if extra else None,
        )
        market = self.market("", tier_column, keyed)
        if not extra:
            return table, market, None
        self.shape("several card tables")
        extra_keyed = [{tier_column: t} for t in tiers for _ in range(self.number(1, 4))]
        extra_columns = self.permuted([*shared, *own])
        own_defaults = {n: self.default(k, colours) for n, k in own}
        second = self.table(
            "extra.csv",
            colours,
            extra_columns,
            extra_keyed,
            "cards extra from {path}{rows}",
            own_defaults,
        )
        return table, market, (second, self.market("extra from extra ", tier_column, extra_keyed))

    def market(self, named: str, tier_column: str, keyed: list[dict[str, Any]]) -> str:
        """A market of a table's cards by their tiers (`named`: "NAME from TABLE ")."""
        sizes: dict[int, int] = {}
        for row in keyed:
            sizes[row[tier_column]] = sizes.get(row[tier_column], 0) + 1
        shown = ", ".join(f"{t}: {n}" for t, n in self.permuted(list(sizes.items())))
        face_up = self.number(1, 3)
        return f"market {named}by {tier_column} {{{shown}}}, {face_up} face up each"

    def default(self, kind: str, colours: list[str]) -> str:
        """A default for a column of the kind (a vector has none)."""
        if kind == "int":
            return str(self.number(0, 3))
        if kind == "bool":
            return self.pick(["true", "false"])
        if kind == "text":
            return quote("plain")
        if kind == "oneof":
            return quote(self.pick(ONE_OF))
        if kind == "colour?":
            return self.pick(["none", *colours])
        assert kind == "colour", kind
        return self.pick(colours)

    def tiles(
        self, name: str, colours: list[str], colour: bool, shared: bool = False
    ) -> tuple[Table, bool]:
        """A tile set, single- or double-sided (`colour`: may it have a
        colour column; `shared`: is it claimed once per player)."""
        sided = self.flip(3)
        taken = {"points"}
        kinds = [k for k in self.extra_kinds(3) if colour or k not in ("colour", "colour?")]
        columns = [("points", "int"), *self.columns(kinds, taken)]
        if sided:
            faces = self.number(1, 3)
            keyed = [{"side": t + 1} for t in range(faces) for _ in range(2)]
            columns.append(("side", "int"))
        else:
            keyed = [{} for _ in range(self.number(1, 5))]
        columns = self.permuted(columns)
        sides = ", double-sided by side" if sided else ""
        sides += ", claimed once per player" if shared else ""
        table = self.table(
            f"{name}.csv", colours, columns, keyed, f"tiles {name} from {{path}}{{rows}}{sides}"
        )
        return table, sided


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()
