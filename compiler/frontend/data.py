"""Card and tile data: CSV files read against the columns a rule file declares.

A mistake in the data is reported at its cell (file, line, column), the way a
mistake in the rule file is, and every mistake in a file is reported at once.
A record is located on the line where it starts, even after a quoted cell
that holds a line break. Reading stops converting past the row count the rule
file declares: the rows beyond are only counted, so a file far longer than
declared costs little and its surplus rows report nothing but the count.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator

from attrs import define, field

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.files import MAX_DATA_FILE_BYTES, Unreadable, read_named_text
from splendor_rules.compiler.frontend.limits import COUNT, NUMBER
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, closest, display_path

Value = m.CellValue
_NONE: None = None  # the value of a `colour or none` cell with no colour


class _Bad:
    """A cell that is wrong (reported): no value."""


_BAD = _Bad()

# ASCII digits only (str.isdigit accepts '²', which int() refuses), and few
# enough of them for int() (Python refuses more than 4300).
_WHOLE = re.compile(r"[0-9]{1,100}")
_SIGNED = re.compile(r"-?[0-9]{1,100}")


_CELL_MARK = re.compile(r'[",]')
Plan = list[tuple[s.Column, s.ColumnType, list[int]]]  # each column, its type, its cells


@define
class Record:
    """One CSV record: its cells, and the physical lines it spans (a quoted
    cell may hold a line break), so that each cell is located where it is."""

    cells: list[str]
    first_line: int
    last_line: int
    _starts: list[tuple[int, int]] | None = field(default=None, init=False)

    def starts(self, lines: list[str]) -> list[tuple[int, int]]:
        """The (line, column) where each cell starts, found once."""
        if self._starts is None:
            starts = [(self.first_line, 1)]
            quoted = False
            for number in range(self.first_line, self.last_line + 1):
                for mark in _CELL_MARK.finditer(lines[number - 1] if number <= len(lines) else ""):
                    if mark.group() == '"':
                        quoted = not quoted
                    elif not quoted:
                        starts.append((number, mark.start() + 2))
            self._starts = starts
        return self._starts

    def cell_span(self, file: str, lines: list[str], index: int) -> s.Span:
        """Where cell `index` is written (past the last cell: the line's end)."""
        starts = self.starts(lines)
        if index >= len(starts):
            line = lines[self.first_line - 1] if self.first_line <= len(lines) else ""
            return s.Span(file, self.first_line, len(line) + 1, self.first_line, len(line) + 2)
        number, column = starts[index]
        line = lines[number - 1] if number <= len(lines) else ""
        end = len(line) + 1
        if index + 1 < len(starts) and starts[index + 1][0] == number:
            end = starts[index + 1][1] - 1
        return s.Span(file, number, column, number, max(end, column + 1))


class UnreadableRecord(Exception):
    """A record csv cannot read (a cell over its size limit), and its line."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def _why(error: str) -> str:
    """What csv's complaint means for the person who wrote the file."""
    if "new-line character" in error:
        return msgs.LONE_CARRIAGE_RETURN
    if "field larger than field limit" in error:
        return msgs.cell_too_long(csv.field_size_limit())
    return error


def records(text: str) -> Iterator[Record]:
    """The CSV records of a text, each with the lines it spans (lines as
    csv counts them: ended by '\\n' only); UnreadableRecord for one that
    csv cannot read."""
    reader = csv.reader(io.StringIO(text))
    last = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise UnreadableRecord(last + 1, _why(str(error))) from error
        yield Record(cells, last + 1, reader.line_num)
        last = reader.line_num


class TableReader:
    """Reads one declared table (the cards, or one tile set)."""

    def __init__(
        self,
        decl: s.Cards | s.Tiles,
        colours: tuple[str, ...],
        colour_name: Callable[[str], str],
        original_colour: Callable[[str], str],
        sources: Sources,
    ) -> None:
        self.decl = decl
        self.colours = colours
        self.colour_name = colour_name  # a colour as the rule file wrote it -> its name now
        self.original_colour = original_colour  # the inverse, for default column names
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        self.file = ""  # the data file as messages show it, once found
        self.lines: list[str] = []  # its lines
        # A cell error repeated word for word in later rows (one wrong value
        # used throughout a column) is reported once, at its first row.
        self._repeats: dict[str, list[int]] = {}
        # Colour columns with a map: the cells each holds, and those that are
        # no colour (each with its error's message), for check_map_keys.
        self._map_cells: dict[str, set[str]] = {}
        self._unmapped: dict[str, dict[str, str]] = {}

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
        try:
            path, text = read_named_text(decl.path.span.file, decl.path.value, MAX_DATA_FILE_BYTES)
        except Unreadable as error:
            self.report(
                msgs.unreadable_data_file(decl.path.span, decl.path.value, error.reason, error.hint)
            )
            return None
        self.file = display_path(path)
        self.sources.add(self.file, text)
        self.lines = text.split("\n")  # as csv counts them: not at '\u2028' or a form feed
        try:
            return self.read_records(records(text), name, rule_ids)
        except UnreadableRecord as error:
            span = s.Span(self.file, error.line, 1, error.line, 2)
            self.report(msgs.unreadable_record(span, error.reason))
            return None

    def read_records(
        self, found: Iterator[Record], name: str, rule_ids: tuple[str, ...]
    ) -> m.Table | None:
        decl = self.decl
        header_record = next(found, None)
        if header_record is None:
            self.report(msgs.empty_data_file(decl.path.span, decl.path.value))
            return None
        header = [h.strip() for h in header_record.cells]
        plan = self.plan_columns(header)
        if plan is None:
            return None
        used = {index for _, _, indices in plan for index in indices}
        for i, heading in enumerate(header):
            if i not in used:
                span = header_record.cell_span(self.file, self.lines, i)
                self.report(msgs.undeclared_data_column(span, heading, self.file))
        declared = decl.row_count.count if decl.row_count is not None else None
        rows: list[tuple[dict[str, Value], Record]] = []
        data_rows = 0
        for record in found:
            if not any(cell.strip() for cell in record.cells):
                continue
            data_rows += 1
            if declared is not None and data_rows > declared:
                continue  # past the declared count: only counted
            if len(record.cells) != len(header):
                span = record.cell_span(self.file, self.lines, 0)
                self.report(msgs.row_length(span, len(record.cells), len(header)))
                continue
            values = self.convert_row(plan, record)
            if len(values) == len(plan):
                rows.append((values, record))
        self.check_map_keys(plan)
        self.note_repeats()
        self.check_rows(rows, plan)
        if declared is not None and data_rows != declared:
            assert decl.row_count is not None
            self.report(msgs.row_count(decl.row_count.span, self.file, data_rows, declared))
        sides = None
        if isinstance(decl, s.Tiles) and decl.sides_by is not None:
            sides = decl.sides_by.text
            self.check_sides(sides, rows, plan)
        if any(d.severity == "error" for d in self.diagnostics):
            return None
        return m.Table(
            rule_ids=rule_ids,
            span=decl.span,
            name=name,
            file=self.file,
            columns=tuple(self.column(c) for c, _, _ in plan),
            rows=tuple(values for values, _ in rows),
            sides_by=sides,
        )

    def column(self, column: s.Column) -> m.Column:
        """The model of a declared column: its type, its values, its default."""
        kind = column.type
        return m.Column(
            column.name.text,
            COLUMN_TYPES[kind.kind],
            values=tuple(v.value for v in kind.values),
            none=kind.kind == "colour_or_none",
            default=self.default(column) if column.default is not None else None,
            has_default=column.default is not None,
        )

    def default(self, column: s.Column) -> Value:
        """A column's default, checked against its type (reported if wrong)."""
        kind, written = column.type, column.default
        assert written is not None
        value: Value = _NONE
        if isinstance(written, s.IntLit) and kind.kind in ("int", "int_range"):
            value = written.value
            if kind.kind == "int_range" and not (kind.low or 0) <= value <= (kind.high or 0):
                self.report(
                    msgs.out_of_range(written.span, value, kind.low, kind.high, column.name.text)
                )
            return value
        if isinstance(written, s.BoolLit) and kind.kind == "bool":
            return written.value
        if isinstance(written, s.TextLit) and kind.kind in ("text", "one_of"):
            values = [v.value for v in kind.values]
            if kind.kind == "one_of" and written.text.value not in values:
                self.report(
                    msgs.not_one_of(written.span, written.text.value, column.name.text, values)
                )
            return written.text.value
        if isinstance(written, s.NameRef) and kind.kind in ("colour", "colour_or_none"):
            if kind.kind == "colour_or_none" and written.name == "none":
                return _NONE
            colour = self.colour_name(written.name)
            if colour not in self.colours:
                self.report(msgs.unknown(written.span, "colour", written.name, self.colours))
            return colour
        self.report(msgs.bad_default(written.span, column.name.text, _KIND_WORDS[kind.kind]))
        return value

    def convert_row(self, plan: Plan, record: Record) -> dict[str, Value]:
        """The row's value in each column whose cells are right."""
        values: dict[str, Value] = {}
        for column, kind, indices in plan:
            cells = [(index, record.cells[index].strip()) for index in indices]
            value = self.convert(column, kind, cells, record)
            if not isinstance(value, _Bad):
                values[column.name.text] = value
        return values

    def plan_columns(self, header: list[str]) -> Plan | None:
        """For each declared column, the CSV columns it reads, by index."""
        index: dict[str, int] = {}
        for i, heading in enumerate(header):
            index.setdefault(heading, i)
        plan = []
        ok = True
        for column in self.decl.columns:
            kind = column.type
            if kind.kind == "per_colour":
                sources = self.colour_columns(column)
            else:
                sources = [column.source.value if column.source else column.name.text]
            for source in sources:
                if source not in index:
                    ok = False
                    unmapped = kind.kind == "per_colour" and not kind.mapping
                    span = (column.source or column.name).span
                    path = self.decl.path.value
                    self.report(msgs.missing_data_column(span, path, source, header, unmapped))
            if kind.kind in ("colour", "colour_or_none"):
                known = (*self.colours, "none") if kind.kind == "colour_or_none" else self.colours
                for _, colour in kind.mapping:
                    assert isinstance(colour, s.Name)
                    if self.colour_name(colour.text) not in known:
                        self.report(msgs.unknown(colour.span, "colour", colour.text, known))
            seen: set[str] = set()
            for value in kind.values:
                if value.value in seen:
                    self.report(msgs.value_twice(value.span, value.value, column.name.text))
                seen.add(value.value)
            low, high = kind.low, kind.high
            if kind.kind == "int_range" and low is not None and high is not None and low > high:
                self.report(msgs.empty_range(kind.span, low, high))
            plan.append((column, kind, [index[source] for source in sources if source in index]))
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
        record: Record,
    ) -> Value | _Bad:
        name = column.name.text

        def at(index: int) -> s.Span:
            return record.cell_span(self.file, self.lines, index)

        if kind.kind == "per_colour":
            numbers = []
            for index, cell in cells:
                if not _WHOLE.fullmatch(cell):
                    self.cell_error(msgs.not_a_whole_number(at(index), cell, name))
                    return _BAD
                if int(cell) > COUNT.high:
                    found = int(cell)
                    self.cell_error(
                        msgs.count_beyond(at(index), f"in column '{name}'", found, COUNT)
                    )
                    return _BAD
                numbers.append(int(cell))
            return tuple(numbers)
        index, cell = cells[0]
        if kind.kind in ("int", "int_range"):
            if not _SIGNED.fullmatch(cell):
                self.cell_error(msgs.not_a_whole_number(at(index), cell, name))
                return _BAD
            value = int(cell)
            if kind.kind == "int_range" and not (kind.low or 0) <= value <= (kind.high or 0):
                self.cell_error(msgs.out_of_range(at(index), value, kind.low, kind.high, name))
                return _BAD
            if not NUMBER.low <= value <= NUMBER.high:
                self.cell_error(msgs.number_beyond(at(index), value, NUMBER))
                return _BAD
            return value
        if kind.kind == "bool":
            if cell not in ("0", "1"):
                self.cell_error(msgs.not_a_flag(at(index), cell, name))
                return _BAD
            return cell == "1"
        if kind.kind == "one_of":
            values = [v.value for v in kind.values]
            if cell not in values:
                self.cell_error(msgs.not_one_of(at(index), cell, name, values))
                return _BAD
            return cell
        if kind.kind in ("colour", "colour_or_none"):
            return self.convert_colour(name, kind, cell, at(index))
        return cell

    def convert_colour(
        self, name: str, kind: s.ColumnType, cell: str, span: s.Span
    ) -> Value | _Bad:
        """A colour cell: a key of the column's map, or (without a map, or
        for `colour or none`) a colour's name; `colour or none` takes an empty
        cell as none."""
        mapping = {
            v.text: self.colour_name(c.text) for v, c in kind.mapping if isinstance(c, s.Name)
        }
        if mapping:
            self._map_cells.setdefault(name, set()).add(cell)
        if kind.kind == "colour_or_none":
            # The map's values, then a colour's name; an empty cell is none.
            colour = mapping.get(cell) or ("none" if cell == "" else self.colour_name(cell))
            if colour == "none":
                return _NONE
            known = [*mapping, *(self.original_colour(c) for c in self.colours), "none"]
        elif mapping:
            colour = mapping.get(cell, "")
            known = list(mapping)
        else:
            colour = self.colour_name(cell)
            known = [self.original_colour(c) for c in self.colours]
        if colour not in self.colours:
            diagnostic = msgs.unknown_colour_cell(span, cell, name, known)
            if mapping:
                self._unmapped.setdefault(name, {}).setdefault(cell, diagnostic.message)
            self.cell_error(diagnostic)
            return _BAD
        return colour

    def check_map_keys(self, plan: Plan) -> None:
        """A key of a colour column's map that no cell holds, close to a cell
        that is no colour, is the misspelling: reported at the key, in place
        of the cells' errors (whose hint would name the typo as the fix)."""
        for column, kind, _ in plan:
            name = column.name.text
            unmapped = self._unmapped.get(name, {})
            for key, _ in kind.mapping if kind.kind in ("colour", "colour_or_none") else ():
                if key.text in self._map_cells.get(name, ()):
                    continue
                match = closest(key.text, unmapped)
                if match is None:
                    continue
                message = unmapped.pop(match)
                first = next(d for d in self.diagnostics if d.message == message)
                lines = [first.span.line, *self._repeats.pop(message, [])]
                self.diagnostics = [d for d in self.diagnostics if d.message != message]
                self.report(
                    msgs.map_key_in_no_row(key.span, key.text, name, first.span, match, lines)
                )

    def check_rows(self, rows: list[tuple[dict[str, Value], Record]], plan: Plan) -> None:
        """Text columns name their rows: no two rows may share a name. Each
        repeat is reported at its cell, naming the row that has it first."""
        for column, kind, indices in plan:
            if kind.kind != "text":
                continue
            name = column.name.text
            first: dict[Value, int] = {}
            for values, record in rows:
                value = values[name]
                if value not in first:
                    first[value] = record.first_line
                    continue
                span = record.cell_span(self.file, self.lines, indices[0])
                self.report(msgs.repeated_name(span, name, value, first[value]))

    def check_sides(
        self, sides: str, rows: list[tuple[dict[str, Value], Record]], plan: Plan
    ) -> None:
        decl = self.decl
        assert isinstance(decl, s.Tiles) and decl.sides_by is not None
        index = next((indices[0] for c, _, indices in plan if c.name.text == sides), None)
        if index is None:
            self.report(msgs.no_sides_column(decl.sides_by.span, sides))
            return
        faces: dict[Value, list[Record]] = {}
        for values, record in rows:
            faces.setdefault(values[sides], []).append(record)
        for value, found in faces.items():
            if len(found) != 2:
                span = found[-1].cell_span(self.file, self.lines, index)
                lines = [record.first_line for record in found]
                self.report(msgs.tile_faces(span, value, lines, sides))


# A declared column type (dsl.syntax.ColumnKind) -> the model's column type.
COLUMN_TYPES: dict[str, m.ColumnType] = {
    "int": "int",
    "int_range": "int",
    "bool": "bool",
    "text": "text",
    "colour": "colour",
    "colour_or_none": "colour",
    "one_of": "text",
    "per_colour": "vector",
}
# The type of a value read from a column, by the model's column type.
VALUE_TYPES: dict[str, m.Type] = {
    "int": m.INT,
    "bool": m.BOOL,
    "text": m.TEXT,
    "colour": m.COLOUR,
    "vector": m.VECTOR,
}
# A column type as a default's error names it.
_KIND_WORDS = {
    "int": "a whole number",
    "int_range": "a whole number",
    "bool": "true or false",
    "text": "a text",
    "one_of": "one of its values",
    "colour": "a colour",
    "colour_or_none": "a colour or none",
    "per_colour": "allowed (a number per colour has no default)",
}
