"""Card and tile data: CSV files read against the columns a rule file declares.

A mistake in the data is reported at its cell (file, line, column), the way a
mistake in the rule file is, and every mistake in a file is reported at once.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, display_path

Value = int | bool | str | tuple[int, ...]

# ASCII digits only (str.isdigit accepts '²', which int() refuses), and few
# enough of them for int() (Python refuses more than 4300).
_WHOLE = re.compile(r"[0-9]{1,100}")
_SIGNED = re.compile(r"-?[0-9]{1,100}")


def _cell_columns(line: str) -> list[int]:
    """The 1-based column where each cell of a CSV line starts."""
    starts = [1]
    quoted = False
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            starts.append(i + 2)
    return starts


class TableReader:
    """Reads one declared table (the cards, or one tile set)."""

    def __init__(
        self,
        decl: s.Cards | s.Tiles,
        folder: Path,
        colours: tuple[str, ...],
        colour_name: Callable[[str], str],
        original_colour: Callable[[str], str],
        sources: Sources,
    ) -> None:
        self.decl = decl
        self.folder = folder
        self.colours = colours
        self.colour_name = colour_name  # a colour as the rule file wrote it -> its name now
        self.original_colour = original_colour  # the inverse, for default column names
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        # A cell error repeated word for word in later rows (one wrong value
        # used throughout a column) is reported once, at its first row.
        self._repeats: dict[str, list[int]] = {}

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def cell_error(self, diagnostic: Diagnostic) -> None:
        if diagnostic.message in self._repeats:
            self._repeats[diagnostic.message].append(diagnostic.span.line)
            return
        self._repeats[diagnostic.message] = []
        self.report(diagnostic)

    def note_repeats(self) -> None:
        """Tell, on each cell error, the other rows that repeat it."""
        for i, diagnostic in enumerate(self.diagnostics):
            lines = self._repeats.get(diagnostic.message)
            if not lines or diagnostic.severity != "error":
                continue
            self.diagnostics[i] = msgs.with_repeats(diagnostic, lines)

    def read(self, name: str, rule_ids: tuple[str, ...]) -> m.Table | None:
        decl = self.decl
        path = self.folder / decl.path.value
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: not UTF-8, or a NUL in the path
            reason = (
                (exc.strerror or msgs.CANNOT_OPEN)
                if isinstance(exc, OSError)
                else msgs.NOT_UTF8
                if isinstance(exc, UnicodeDecodeError)
                else msgs.NOT_A_PATH
            )
            self.report(msgs.unreadable_data_file(decl.path.span, decl.path.value, reason))
            return None
        file = display_path(path)
        self.sources.add(file, text)
        lines = text.split("\n")  # as csv counts them: not at '\u2028' or a form feed
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            self.report(msgs.empty_data_file(decl.path.span, decl.path.value))
            return None
        header = [h.strip() for h in rows[0]]
        columns = self.plan_columns(header)
        if columns is None:
            return None
        used = {source for _, _, sources in columns for source in sources}
        for i, heading in enumerate(header):
            if heading not in used:
                self.report(
                    msgs.undeclared_data_column(self.cell_span(file, lines, 1, i), heading, file)
                )
        table_rows: list[dict[str, Value]] = []
        row_lines: list[int] = []  # the line of each of table_rows
        data_rows = 0
        for number, row in enumerate(rows[1:], start=2):
            if not any(cell.strip() for cell in row):
                continue
            data_rows += 1
            if len(row) != len(header):
                span = self.cell_span(file, lines, number, 0)
                self.report(msgs.row_length(span, len(row), len(header)))
                continue
            values: dict[str, Value] = {}
            for column, kind, sources in columns:
                cells = [(header.index(src), row[header.index(src)].strip()) for src in sources]
                value = self.convert(column, kind, cells, file, lines, number)
                if value is not None:
                    values[column.name.text] = value
            if len(values) == len(columns):
                table_rows.append(values)
                row_lines.append(number)
        self.note_repeats()
        self.check_rows(table_rows, row_lines, header, columns, file, lines)
        if decl.row_count is not None and data_rows != decl.row_count.count:
            span = decl.row_count.span
            self.report(msgs.row_count(span, file, data_rows, decl.row_count.count))
        sides = None
        if isinstance(decl, s.Tiles) and decl.sides_by is not None:
            sides = decl.sides_by.text
            self.check_sides(sides, table_rows, row_lines, header, columns, file, lines)
        if any(d.severity == "error" for d in self.diagnostics):
            return None
        return m.Table(
            rule_ids=rule_ids,
            span=decl.span,
            name=name,
            file=file,
            columns=tuple(m.Column(c.name.text, COLUMN_TYPES[c.type.kind]) for c, _, _ in columns),
            rows=tuple(table_rows),
            sides_by=sides,
        )

    def cell_span(self, file: str, lines: list[str], number: int, index: int) -> s.Span:
        line = lines[number - 1] if number - 1 < len(lines) else ""
        starts = _cell_columns(line)
        column = starts[index] if index < len(starts) else len(line) + 1
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(line) + 1
        return s.Span(file, number, column, number, max(end, column + 1))

    def plan_columns(
        self, header: list[str]
    ) -> list[tuple[s.Column, s.ColumnType, list[str]]] | None:
        """For each declared column, the CSV columns it reads."""
        plan = []
        ok = True
        for column in self.decl.columns:
            kind = column.type
            if kind.kind == "per_colour":
                sources = self.colour_columns(column)
            else:
                sources = [column.source.value if column.source else column.name.text]
            for source in sources:
                if source not in header:
                    ok = False
                    unmapped = kind.kind == "per_colour" and not kind.mapping
                    span = (column.source or column.name).span
                    path = self.decl.path.value
                    self.report(msgs.missing_data_column(span, path, source, header, unmapped))
            if kind.kind == "colour":
                for _, colour in kind.mapping:
                    assert isinstance(colour, s.Name)
                    if self.colour_name(colour.text) not in self.colours:
                        self.report(msgs.unknown(colour.span, "colour", colour.text, self.colours))
            low, high = kind.low, kind.high
            if kind.kind == "int_range" and low is not None and high is not None and low > high:
                self.report(msgs.empty_range(kind.span, low, high))
            plan.append((column, kind, sources))
        return plan if ok else None

    def colour_columns(self, column: s.Column) -> list[str]:
        """A vector column reads one CSV column per colour, named after the
        colour as the rule file wrote it unless mapped."""
        mapping: dict[str, str] = {}
        unknown = False
        for colour, source in column.type.mapping:
            assert isinstance(source, s.StringLit)
            name = self.colour_name(colour.text)
            if name not in self.colours:
                unknown = True
                self.report(msgs.unknown(colour.span, "colour", colour.text, self.colours))
            mapping[name] = source.value
        # A colour left out because another was misspelled is not a second mistake.
        missing = [c for c in self.colours if c not in mapping]
        if column.type.mapping and missing and not unknown:
            self.report(msgs.unmapped_colours(column.type.span, column.name.text, missing))
        return [mapping.get(c, self.original_colour(c)) for c in self.colours]

    def convert(
        self,
        column: s.Column,
        kind: s.ColumnType,
        cells: list[tuple[int, str]],
        file: str,
        lines: list[str],
        number: int,
    ) -> Value | None:
        name = column.name.text

        def at(index: int) -> s.Span:
            return self.cell_span(file, lines, number, index)

        if kind.kind == "per_colour":
            numbers = []
            for index, cell in cells:
                if not _WHOLE.fullmatch(cell):
                    self.cell_error(msgs.not_a_whole_number(at(index), cell, name))
                    return None
                numbers.append(int(cell))
            return tuple(numbers)
        index, cell = cells[0]
        if kind.kind in ("int", "int_range"):
            if not _SIGNED.fullmatch(cell):
                self.cell_error(msgs.not_a_whole_number(at(index), cell, name))
                return None
            value = int(cell)
            if kind.kind == "int_range" and not (kind.low or 0) <= value <= (kind.high or 0):
                self.cell_error(msgs.out_of_range(at(index), value, kind.low, kind.high, name))
                return None
            return value
        if kind.kind == "bool":
            if cell not in ("0", "1"):
                self.cell_error(msgs.not_a_flag(at(index), cell, name))
                return None
            return cell == "1"
        if kind.kind == "colour":
            mapping = {
                v.text: self.colour_name(c.text) for v, c in kind.mapping if isinstance(c, s.Name)
            }
            if mapping:
                if cell not in mapping:
                    self.cell_error(msgs.unknown_colour_cell(at(index), cell, name, mapping))
                    return None
                return mapping[cell]
            colour = self.colour_name(cell)
            if colour not in self.colours:
                written = [self.original_colour(c) for c in self.colours]
                self.cell_error(msgs.unknown_colour_cell(at(index), cell, name, written))
                return None
            return colour
        return cell

    def check_rows(
        self,
        rows: list[dict[str, Value]],
        row_lines: list[int],
        header: list[str],
        columns: list[tuple[s.Column, s.ColumnType, list[str]]],
        file: str,
        lines: list[str],
    ) -> None:
        """Text columns name their rows: no two rows may share a name. Each
        repeat is reported at its cell, naming the row that has it first."""
        for column, kind, sources in columns:
            if kind.kind != "text":
                continue
            name = column.name.text
            first: dict[Value, int] = {}
            for row, number in zip(rows, row_lines, strict=True):
                value = row[name]
                if value not in first:
                    first[value] = number
                    continue
                span = self.cell_span(file, lines, number, header.index(sources[0]))
                self.report(msgs.repeated_name(span, name, value, first[value]))

    def check_sides(
        self,
        sides: str,
        rows: list[dict[str, Value]],
        row_lines: list[int],
        header: list[str],
        columns: list[tuple[s.Column, s.ColumnType, list[str]]],
        file: str,
        lines: list[str],
    ) -> None:
        decl = self.decl
        assert isinstance(decl, s.Tiles) and decl.sides_by is not None
        source = next((srcs[0] for c, _, srcs in columns if c.name.text == sides), None)
        if source is None:
            self.report(msgs.no_sides_column(decl.sides_by.span, sides))
            return
        faces: dict[Value, list[int]] = {}
        for row, number in zip(rows, row_lines, strict=True):
            faces.setdefault(row[sides], []).append(number)
        for value, numbers in faces.items():
            if len(numbers) != 2:
                span = self.cell_span(file, lines, numbers[-1], header.index(source))
                self.report(msgs.tile_faces(span, value, numbers, sides))


# A declared column type (dsl.syntax.ColumnKind) -> the model's column type.
COLUMN_TYPES: dict[str, m.ColumnType] = {
    "int": "int",
    "int_range": "int",
    "bool": "bool",
    "text": "text",
    "colour": "colour",
    "per_colour": "vector",
}
