"""Probe editions: the two real editions, made comparable, with their engines.

A probe extends its real edition: its cards are read from one CSV shared by
both probes (edition a's cards, under each probe's own names), the card
tables and markets the two editions do not share are removed (their columns
kept on the unnamed table, at their defaults), and its edition-specific
endings are made inert, so that whatever differs between
the two probes' behaviour is a difference of the rules they share
(docs/conformance.md gives the design). Probe engines live in memory only
(`tools.loader`).
"""

from __future__ import annotations

import csv
import json
import shutil
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.data import COLUMN_TYPES
from splendor_rules.compiler.frontend.editions import Entry, Key, ResolvedEdition
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.tools.conformance.correspondence import pairs_of
from splendor_rules.compiler.tools.conformance.diff import EditionDiff
from splendor_rules.compiler.tools.conformance.editions import CannotCompare
from splendor_rules.compiler.tools.loader import rendered_engine
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Sources, render


@frozen
class Probe:
    """A probe edition (the real one, with its cards read from the shared
    probe data and its edition-specific endings made inert) and its engine."""

    compiled: Compiled
    text: str  # the probe's rule file
    engine: types.ModuleType

    @property
    def model(self) -> m.Edition:
        assert self.compiled.model is not None
        return self.compiled.model


def _tags(decl: s.Decl) -> str:
    return f"[{', '.join(t.text for t in decl.tags)}] " if decl.tags else ""


def unnamed_rows(edition: m.Edition) -> tuple[Mapping[str, m.CellValue], ...]:
    """The unnamed table's cards (`cards` holds every table's, those first)."""
    named = sum(len(t.rows) for t in edition.card_tables)
    return edition.cards.rows[: len(edition.cards.rows) - named]


@frozen
class _Cards:
    """What a probe's unnamed table declares: the real unnamed table's
    columns, then those of the named tables the probe removes (`moved`: the
    unnamed cards hold their defaults), with the rule ids of both."""

    columns: tuple[s.Column, ...]
    moved: frozenset[str]
    ids: tuple[str, ...]


def _probe_cards(resolved: ResolvedEdition, removed: list[s.Decl]) -> _Cards:
    """The unnamed table, with the columns of the removed tables that no table
    the probe keeps declares."""
    main = _cards_decl(resolved)
    kept = [
        e.decl
        for e in resolved.entries
        if isinstance(e.decl, s.Cards) and all(e.decl is not r for r in removed)
    ]
    declared = {c.name.text for d in kept for c in d.columns}
    moved: dict[str, s.Column] = {}
    for decl in removed:
        if isinstance(decl, s.Cards):
            for column in decl.columns:
                if column.name.text not in declared:
                    moved.setdefault(column.name.text, column)
    ids = [t.text for d in (main, *removed) for t in d.tags]
    return _Cards((*main.columns, *moved.values()), frozenset(moved), tuple(dict.fromkeys(ids)))


def _removed(resolved: ResolvedEdition, keep: set[Key]) -> list[tuple[Key, s.Decl]]:
    """The named card tables and markets a probe removes: each one that is
    not a rule both editions share, with the market taking its cards (a
    table without a market, or a market without its table, cannot stay)."""
    markets = [
        e for e in resolved.entries if isinstance(e.decl, s.Market) and e.decl.name is not None
    ]
    tables = [
        e for e in resolved.entries if isinstance(e.decl, s.Cards) and e.decl.name is not None
    ]
    gone = {e.key[1] for e in tables if e.key not in keep}
    for market in markets:
        assert isinstance(market.decl, s.Market) and market.decl.table is not None
        if market.key not in keep:
            gone.add(market.decl.table.text)
    return [(e.key, e.decl) for e in (*tables, *markets) if _table_of(e) in gone]


def _table_of(entry: Entry) -> str | None:
    """The named card table a table or market entry declares or takes."""
    if isinstance(entry.decl, s.Market):
        return entry.decl.table.text if entry.decl.table is not None else None
    return entry.key[1]


class _ProbeCards:
    """The shared probe cards: edition a's cards in one CSV that both probes
    read. A column both editions declare holds a's values, read by each probe
    under its own names (b's colours through mappings); a column only one
    declares holds a neutral value: 0 (or its range's end nearest 0), false,
    a unique text, so that the rules reading it stay inert."""

    def __init__(
        self, a: m.Edition, decls: tuple[_Cards, _Cards], colours_b: Mapping[str, str]
    ) -> None:
        self.a = a
        self.rows = unnamed_rows(a)
        self.colours_b = colours_b  # a's colour -> b's
        kinds = [{c.name.text: COLUMN_TYPES[c.type.kind] for c in d.columns} for d in decls]
        self.shared = {
            c.name
            for c in a.cards.columns
            if kinds[0].get(c.name) == kinds[1].get(c.name) == c.type
        }
        self.columns: dict[str, list[Any]] = {}  # CSV heading -> values

    def write(self, path: Path) -> None:
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(self.columns)
            writer.writerows(zip(*self.columns.values(), strict=True))

    def a_column(self, column: m.Column) -> list[str]:
        """The CSV headings holding a column of a's cards."""
        rows = self.rows
        if column.type != "vector":
            values = [row[column.name] for row in rows]
            self.columns[column.name] = [int(v) if isinstance(v, bool) else v for v in values]
            return [column.name]
        headings = []
        for i, colour in enumerate(self.a.colours):
            heading = f"{column.name}[{colour}]"
            self.columns[heading] = [row[column.name][i] for row in rows]  # type: ignore[index]
            headings.append(heading)
        return headings

    def neutral(self, edition: str, column: s.Column, colours: tuple[str, ...]) -> list[str]:
        """The CSV headings of a column only one probe declares."""
        kind, name = column.type, column.name.text
        count = len(self.rows)
        heading = f"~{edition}.{name}"
        if kind.kind == "per_colour":
            for colour in colours:
                self.columns[f"{heading}[{colour}]"] = [0] * count
            return [f"{heading}[{colour}]" for colour in colours]
        if kind.kind == "text":
            values: list[Any] = [f"{name} {i}" for i in range(count)]
        elif kind.kind == "one_of":
            values = [kind.values[0].value] * count
        elif kind.kind == "colour_or_none":
            values = [""] * count  # none
        elif kind.kind == "colour":
            values = [colours[0]] * count
        elif kind.kind == "int_range" and kind.low is not None and kind.high is not None:
            values = [min(max(0, kind.low), kind.high)] * count
        else:
            values = [0] * count
        self.columns[heading] = values
        return [heading]

    def constant(self, edition: str, column: m.Column, colours: tuple[str, ...]) -> list[str]:
        """The CSV headings of a column that a removed table declares: every
        card of the unnamed table holds its default, as in the real edition."""
        heading, count = f"~{edition}.{column.name}", len(self.rows)
        value = column.default
        if isinstance(value, tuple):
            for colour, n in zip(colours, value, strict=True):
                self.columns[f"{heading}[{colour}]"] = [n] * count
            return [f"{heading}[{colour}]" for colour in colours]
        cell = "" if value is None else int(value) if isinstance(value, bool) else value
        self.columns[heading] = [cell] * count
        return [heading]

    def declaration(self, decl: _Cards, edition: m.Edition, is_a: bool) -> str:
        """The probe's `override cards`, reading the shared CSV."""
        a_columns = {c.name: c for c in self.a.cards.columns}
        merged = {c.name: c for c in edition.cards.columns}
        back = {new: old for old, new in self.colours_b.items()}  # b's colour -> a's
        lines = []
        for column in decl.columns:
            name, kind = column.name.text, column.type.kind
            mapping: dict[str, str] = {}
            if name not in self.shared and name in decl.moved:
                headings = self.constant(edition.name, merged[name], edition.colours)
                if kind == "per_colour":
                    mapping = dict(zip(edition.colours, headings, strict=True))
            elif name in self.shared:
                headings = self.a_column(a_columns[name])
                if kind == "per_colour":
                    by_colour = dict(zip(self.a.colours, headings, strict=True))
                    mapping = {c: by_colour[c if is_a else back[c]] for c in edition.colours}
                elif kind in ("colour", "colour_or_none"):
                    mapping = {c: c if is_a else self.colours_b[c] for c in self.a.colours}
            else:
                headings = self.neutral(edition.name, column, edition.colours)
                if kind == "per_colour":
                    mapping = dict(zip(edition.colours, headings, strict=True))
            lines.append(_column(column, headings[0], mapping))
        body = "\n    ".join(lines)
        tags = f"[{', '.join(decl.ids)}] " if decl.ids else ""
        rows = len(self.rows)
        return f'  override {tags}cards from "cards.csv" with {rows} rows {{\n    {body}\n  }}'


def _column(column: s.Column, heading: str, mapping: Mapping[str, str]) -> str:
    kind = column.type
    name = column.name.text
    if kind.kind == "per_colour":
        pairs = ", ".join(f"{c}: {json.dumps(h)}" for c, h in mapping.items())
        return f"{name}: per colour {{{pairs}}}"
    default = _default(column.default)
    if kind.kind in ("colour", "colour_or_none"):
        pairs = ", ".join(f"{v}: {c}" for v, c in mapping.items())
        written = "colour" if kind.kind == "colour" else "colour or none"
        return (
            f"{name}: {written} {{{pairs}}} from {json.dumps(heading)}{default}"
            if pairs
            else (f"{name}: {written} from {json.dumps(heading)}{default}")
        )
    written = f"int {kind.low}..{kind.high}" if kind.kind == "int_range" else kind.kind
    if kind.kind == "one_of":
        written = "one of " + ", ".join(json.dumps(v.value) for v in kind.values)
    return f"{name}: {written} from {json.dumps(heading)}{default}"


def _default(written: s.Expr | None) -> str:
    """A column's `default VALUE`, as written (the cards of other tables take it)."""
    if isinstance(written, s.IntLit):
        return f" default {written.value}"
    if isinstance(written, s.BoolLit):
        return f" default {str(written.value).lower()}"
    if isinstance(written, s.TextLit):
        return f" default {json.dumps(written.text.value)}"
    if isinstance(written, s.NameRef):
        return f" default {written.name}"
    return ""


# How an ending of each mode is written.
_ENDING_WORDS = {
    "once": "after the round once",
    "at_round_end": "after a round that ends with",
    "at_turn_end": "at the end of the turn once",
}


def _inert_endings(resolved: ResolvedEdition, keep: set[Key]) -> list[str]:
    """Each ending not in `keep`, overridden by one whose condition never
    holds; its rule ids are restated, so that the probe still states every
    rule of its rulebook."""
    lines = []
    for entry in resolved.entries:
        decl = entry.decl
        if isinstance(decl, s.Ending) and entry.key not in keep:
            when = _ENDING_WORDS[decl.mode]
            lines.append(f"  override {_tags(decl)}end {entry.key[1]}: {when} false")
    return lines


def _beside(real: Path, folder: Path) -> Path:
    """A folder where `extends <stem of real>` finds the real rule file: a link
    to it (the resolver follows links, so the file's own data and parent are
    found where they are), or if links are not allowed, a copy of its folder."""
    folder.mkdir(parents=True)
    try:
        (folder / real.name).symlink_to(real.resolve())
        return folder
    except OSError:
        copy = folder / "copy"
        shutil.copytree(real.resolve().parent, copy)
        return copy


def _cards_decl(resolved: ResolvedEdition) -> s.Cards:
    decl = next(
        (e.decl for e in resolved.entries if isinstance(e.decl, s.Cards) and e.decl.name is None),
        None,
    )  # the unnamed table: the probe's cards replace it
    if decl is None:
        raise CannotCompare(f"edition {resolved.name} declares no cards")
    return decl


def build_probes(
    real_a: Compiled, real_b: Compiled, diff: EditionDiff, folder: Path
) -> tuple[Probe, Probe]:
    """The probes of a and b, written to `folder`, compiled and loaded."""
    assert real_a.model is not None and real_b.model is not None
    assert real_a.resolved is not None and real_b.resolved is not None
    tokens = diff.renaming("colour", "token")
    compared = pairs_of(diff)
    keeps = ({p.key_a for p in compared}, {p.key_b for p in compared})
    removed = (_removed(real_a.resolved, keeps[0]), _removed(real_b.resolved, keeps[1]))
    decls = (
        _probe_cards(real_a.resolved, [d for _, d in removed[0]]),
        _probe_cards(real_b.resolved, [d for _, d in removed[1]]),
    )
    cards = _ProbeCards(real_a.model, decls, {c: tokens.get(c, c) for c in real_a.model.colours})
    texts, places = [], []
    for real, side in ((real_a, 0), (real_b, 1)):
        assert real.model is not None and real.resolved is not None
        name = f"{real.model.name}_probe"
        texts.append(
            "\n".join(
                [
                    f'edition {name} "probe of {real.model.name}" extends {real.path.stem} {{',
                    cards.declaration(decls[side], real.model, side == 0),
                    *(f"  remove {key[0]} {key[1]}" for key, _ in removed[side]),
                    *_inert_endings(real.resolved, keeps[side]),
                    "}",
                ]
            )
            + "\n"
        )
        places.append(_beside(real.path, folder / "ab"[side]) / f"{name}.rules")
    probes = []
    for real, text, path in zip((real_a, real_b), texts, places, strict=True):
        assert real.model is not None
        path.write_text(text, encoding="utf-8")
        cards.write(path.parent / "cards.csv")  # the same file for both probes
        sources = Sources()
        compiled = compile_file(path, sources)
        if not compiled.ok or compiled.model is None:
            shown = "\n".join(render(d, sources) for d in compiled.diagnostics)
            raise CannotCompare(f"the probe of {real.model.name} does not check:\n{text}{shown}")
        engine = rendered_engine(compiled.model, path.parent, path.stem, register=False)
        probes.append(Probe(compiled, text, engine))
    return probes[0], probes[1]
