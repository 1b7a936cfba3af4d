"""Several card tables: the named ones (`cards NAME from ...`) beside the
unnamed one, merged into one numbered sequence of cards.

Every card has the attributes of every table's columns, so that an
expression over cards reads any of them whatever table a card came from. A
column declared by several tables has one type; a table that lacks a column
gives its cards the column's default, which a table declaring it states
(`points: int default 0`). Each table's data is read and checked at its own
CSV cells, as the unnamed table's is.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.data import COLUMN_TYPES, VALUE_TYPES, TableReader
from splendor_rules.compiler.frontend.editions import Entry
from splendor_rules.dsl import syntax as s


def table_name(decl: s.Cards) -> str:
    """A card table as messages name it."""
    return msgs.card_table(decl.name.text if decl.name else None)


def check_card_tables(context: Context, main: Entry, named: list[Entry]) -> dict[str, m.Table]:
    """Read the named card tables, check their columns against every other
    table's, and make `context.cards` every table's cards in one sequence."""
    tables: dict[str, m.Table] = {}
    failed = context.cards is None
    for entry in named:
        decl = entry.decl
        assert isinstance(decl, s.Cards) and decl.name is not None
        context.enter(entry)
        name = decl.name.text
        if name in tables:
            continue  # reported as a declaration twice
        reader = TableReader(
            decl, context.colours, entry.renames.apply, entry.renames.original, context.sources
        )
        table = reader.read(name, context.current_ids)
        context.diagnostics.extend(reader.diagnostics)
        if table is None:
            failed = True
        else:
            tables[name] = table
    decls = [e.decl for e in (main, *named) if isinstance(e.decl, s.Cards)]
    _merge_declared(context, decls)
    if not failed and context.cards is not None:
        context.cards = _merged(context, context.cards, decls, tables)
    return tables


def _merge_declared(context: Context, decls: list[s.Cards]) -> None:
    """The cards' attributes (for typing expressions): every table's
    columns, each of one type, and the values a closed text column may hold."""
    types = context.columns.setdefault("cards", {})
    first: dict[str, tuple[s.Cards, str]] = {}
    closed: dict[str, list[tuple[str, ...]]] = {}
    for decl in decls:
        seen: set[str] = set()
        for column in decl.columns:
            name, kind = column.name.text, COLUMN_TYPES[column.type.kind]
            if name in seen and decl is not decls[0]:  # the unnamed table's: reported
                context.report(msgs.column_twice(column.name.span, name))
            seen.add(name)
            if kind == "text":
                closed.setdefault(name, []).append(tuple(v.value for v in column.type.values))
            if column.type.kind == "colour_or_none":
                context.none_columns.setdefault("cards", set()).add(name)
            if name not in first:
                first[name] = (decl, kind)
                types[name] = VALUE_TYPES[kind]
            elif first[name][1] != kind:
                earlier, earlier_kind = first[name]
                where, table = column.type.span, table_name(decl)
                context.report(
                    msgs.column_type_differs(
                        where, name, table, kind, table_name(earlier), earlier_kind
                    )
                )
    # A text column that one table leaves open (`text`) holds any text.
    context.text_values["cards"] = {
        name: tuple(dict.fromkeys(v for values in sets for v in values))
        for name, sets in closed.items()
        if all(sets)
    }


def _merged(
    context: Context, main: m.Table, decls: list[s.Cards], tables: dict[str, m.Table]
) -> m.Table:
    """Every table's cards, the unnamed table's first: a row for each, with
    every table's columns (a column a table lacks at its default)."""
    all_tables = [main, *tables.values()]
    columns: dict[str, m.Column] = {}
    for table in all_tables:
        for column in table.columns:
            known = columns.get(column.name)
            columns[column.name] = column if known is None else _joined(known, column)
    rows: list[dict[str, m.CellValue]] = []
    for decl, table in zip(decls, all_tables, strict=True):
        own = {c.name for c in table.columns}
        missing = [c for c in columns.values() if c.name not in own]
        for column in missing:
            if not column.has_default:
                _no_default(context, decls, decl, column.name)
        defaults = {c.name: c.default for c in missing}
        rows += [{**row, **defaults} for row in table.rows]
    return m.Table(
        rule_ids=main.rule_ids,
        span=main.span,
        name=main.name,
        file=main.file,
        columns=tuple(columns.values()),
        rows=tuple(rows),
        sides_by=None,
    )


def _no_default(context: Context, decls: list[s.Cards], lacking: s.Cards, name: str) -> None:
    """A column a table lacks, with no default: reported where it is declared."""
    column = next(c for d in decls for c in d.columns if c.name.text == name)
    context.report(msgs.no_default(column.name.span, name, table_name(lacking)))


def _joined(a: m.Column, b: m.Column) -> m.Column:
    """One column declared by two tables: none if either may be none; a
    closed text set only if both are closed; the first default given."""
    values = tuple(dict.fromkeys((*a.values, *b.values))) if a.values and b.values else ()
    return m.Column(
        a.name,
        a.type,
        values=values,
        none=a.none or b.none,
        default=a.default if a.has_default else b.default,
        has_default=a.has_default or b.has_default,
    )
