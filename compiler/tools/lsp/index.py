"""Where each name of an edition is declared and used: in the rule file,
in the editions it extends and in its data files' headers.

A symbol is known by a key: ("global", name) for a declaration's name (in
the namespace of the edition being edited, after its renames), ("local",
file, line, column) for a name bound inside a declaration (by let, choose,
a filter, a quantifier, a trigger, a claim or a parameter), ("column", table,
name) for a column (table: "cards" for every card table, whose columns are
one set, or the tile set's name), ("value", name) for a card value,
("edition", name) and ("rule", id). Go to definition, find references,
rename and hover all read the occurrences listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from pathlib import Path

import attrs
from attrs import define, frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.editions import NAMED_KINDS, key_of
from splendor_rules.compiler.frontend.files import Unreadable, named_file, read_start
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import display_path
from splendor_rules.dsl.visitor import children

Key = tuple[str, ...]
Where = tuple[str, int, int, int, int]  # a span as a dictionary key


def where(span: s.Span) -> Where:
    return (span.file, span.line, span.column, span.end_line, span.end_column)


@frozen
class Occurrence:
    """One place a symbol is written: declared (`definition`) or used."""

    span: s.Span
    key: Key
    kind: str  # what the symbol is: "zone", "define", "local", "column", "data"...
    definition: bool = False


@frozen
class Binder:
    """A local name and the stretch of the file where it can be read."""

    name: str
    span: s.Span
    scope: s.Span
    key: Key


# The kind of symbol each named declaration declares: the kinds an edition
# tells apart by name but card values (frontend/editions.py), and the card
# tables and markets.
_DECLARED = {kind: word for kind, word in NAMED_KINDS.items() if kind is not s.CardValue} | {
    s.Cards: "cards",
    s.Market: "market",
}


def contains(span: s.Span, line: int, column: int) -> bool:
    """Is (line, column) inside the span, its end included (a cursor just
    after a name is on it)?"""
    if (line, column) < (span.line, span.column):
        return False
    return (line, column) <= (span.end_line, span.end_column)


def _size(span: s.Span) -> tuple[int, int]:
    return (span.end_line - span.line, span.end_column - span.column)


@define
class Index:
    """Every occurrence of every symbol, and the facts hover and completion need."""

    occurrences: list[Occurrence] = attrs.Factory(list)
    binders: list[Binder] = attrs.Factory(list)
    kinds: dict[str, str] = attrs.Factory(dict)  # a global name -> its kind
    # every column by its key, with its first declaration and its tables' data files
    columns: dict[Key, tuple[s.Column, list[str]]] = attrs.Factory(dict)
    values: dict[str, s.CardValue] = attrs.Factory(dict)  # card values by name
    data: dict[Where, list[s.Span]] = attrs.Factory(dict)  # a column's name -> its header cells
    # each declaration by the span of its name (for hover: what it states)
    declarations: dict[Where, s.Decl] = attrs.Factory(dict)
    overrides: dict[Where, s.Decl] = attrs.Factory(dict)  # override's name -> what it replaces
    replaced: list[tuple[s.Span, s.Decl]] = attrs.Factory(list)  # the word `override` -> the same
    latest: dict[tuple[str, str | None], s.Decl] = attrs.Factory(dict)  # by key, the last declared
    references: list[tuple[Path, tuple[str, ...]]] = attrs.Factory(list)  # rulebooks
    _by_key: dict[Key, list[Occurrence]] = attrs.Factory(dict)

    def add(self, occurrence: Occurrence) -> None:
        self.occurrences.append(occurrence)
        self._by_key.setdefault(occurrence.key, []).append(occurrence)

    def of(self, key: Key) -> list[Occurrence]:
        return self._by_key.get(key, [])

    def at(self, file: str, line: int, column: int) -> Occurrence | None:
        """The occurrence written at a place of a file (the narrowest)."""
        found = [
            o for o in self.occurrences if o.span.file == file and contains(o.span, line, column)
        ]
        return min(found, key=lambda o: _size(o.span), default=None)

    def locals_at(self, file: str, line: int, column: int) -> list[Binder]:
        return [b for b in self.binders if b.scope.file == file and contains(b.scope, line, column)]


def build_index(chain: list[tuple[str, s.Edition]], expressions: Mapping[Where, m.Expr]) -> Index:
    """The index of an edition from the trees of its files, the root
    ancestor first; `expressions`: the checked model's expressions by span
    (empty when the file does not check), which tell a column's table."""
    index = Index()
    renames = [partial(_through, steps=_later_renames(chain, i)) for i in range(len(chain))]
    for rename, (_, tree) in zip(renames, chain, strict=True):
        for item in tree.items:  # first the kinds, so that a use may come before its declaration
            decl = item.decl if isinstance(item, s.Override) else item
            name = _name_of(decl) if isinstance(decl, s.Decl) else None
            if name is not None and type(decl) in _DECLARED:
                index.kinds.setdefault(rename(name.text), _DECLARED[type(decl)])
    for rename, (file, tree) in zip(renames, chain, strict=True):
        _Walker(index, file, rename, expressions).edition(tree)
    return index


def _later_renames(chain: list[tuple[str, s.Edition]], position: int) -> list[dict[str, str]]:
    """The renames that the editions extending a file's apply to its names."""
    return [_renames_of(tree) for _, tree in chain[position + 1 :]]


def _renames_of(tree: s.Edition) -> dict[str, str]:
    return {
        r.old.text: r.new.text
        for item in tree.items
        if isinstance(item, s.Rename)
        for r in item.renamings
    }


def _through(name: str, *, steps: list[dict[str, str]]) -> str:
    for step in steps:
        name = step.get(name, name)
    return name


class _Walker:  # size: one method per kind of node that binds or names a symbol
    """Walks one file's tree, adding its occurrences to the index."""

    def __init__(
        self,
        index: Index,
        file: str,
        rename: Callable[[str], str],
        expressions: Mapping[Where, m.Expr],
    ) -> None:
        self.index = index
        self.file = file
        self.rename = rename
        self.expressions = expressions
        self.scopes: list[dict[str, Key]] = []
        self.colours: list[str] = []

    # ------------------------------------------------------------ recording

    def use(self, name: s.Name | None, kind: str) -> None:
        """A use of a global name (or, first, of a local name in scope)."""
        if name is None:
            return
        for scope in reversed(self.scopes):
            if name.text in scope:
                self.index.add(Occurrence(name.span, scope[name.text], "local"))
                return
        text = self.rename(name.text)
        self.index.add(Occurrence(name.span, ("global", text), self.index.kinds.get(text, kind)))

    def declare(self, name: s.Name, kind: str, decl: s.Decl) -> None:
        text = self.rename(name.text)
        self.index.kinds.setdefault(text, kind)
        self.index.add(Occurrence(name.span, ("global", text), kind, definition=True))
        self.index.declarations[where(name.span)] = decl

    def bind(self, name: s.Name, scope: s.Span) -> None:
        key: Key = ("local", name.span.file, str(name.span.line), str(name.span.column))
        self.scopes[-1][name.text] = key
        self.index.binders.append(Binder(name.text, name.span, scope, key))
        self.index.add(Occurrence(name.span, key, "local", definition=True))

    # ----------------------------------------------------------- the items

    def edition(self, tree: s.Edition) -> None:
        self.index.add(Occurrence(tree.name.span, ("edition", tree.name.text), "edition", True))
        if tree.parent is not None:
            self.index.add(Occurrence(tree.parent.span, ("edition", tree.parent.text), "edition"))
        for node in _all(tree, s.RuleId):
            self.index.add(Occurrence(node.span, ("rule", node.text), "rule"))
        for item in tree.items:
            self.item(item)

    def item(self, item: s.Item) -> None:
        if isinstance(item, s.Rename):
            for renaming in item.renamings:
                key = ("global", self.rename(renaming.new.text))
                kind = self.index.kinds.get(key[1], item.kind)
                self.index.add(Occurrence(renaming.old.span, key, kind))
                self.index.add(Occurrence(renaming.new.span, key, kind))
        elif isinstance(item, s.Remove):
            self.use(item.name, item.kind.text)
        elif isinstance(item, s.Override):
            replaced = self.index.latest.get(self.key(item.decl))
            if replaced is not None:
                # the word `override`, and the declaration's name where it has one
                word = s.Span(
                    item.span.file,
                    item.span.line,
                    item.span.column,
                    item.span.line,
                    item.span.column + 8,
                )
                self.index.replaced.append((word, replaced))
                name = _name_of(item.decl)
                if name is not None:
                    self.index.overrides[where(name.span)] = replaced
            self.decl(item.decl)
        else:
            self.decl(item)

    def key(self, decl: s.Decl) -> tuple[str, str | None]:
        """A declaration's key (editions.key_of) in the edited edition's names."""
        kind, name = key_of(decl)
        return (kind, self.rename(name) if name is not None and kind != "reference" else name)

    def decl(self, decl: s.Decl) -> None:
        self.index.latest[self.key(decl)] = decl
        self.scopes = [{}]
        name = _name_of(decl)
        kind = _DECLARED.get(type(decl))
        if name is not None and kind is not None:
            self.declare(name, kind, decl)
        if isinstance(decl, s.Reference):
            try:
                path = named_file(self.file, decl.path.value)
            except Unreadable:
                return
            self.index.references.append((path, decl.prefixes))
        elif isinstance(decl, s.Colours):
            for colour in decl.names:
                self.declare(colour, "colour", decl)
                self.colours.append(colour.text)
        elif isinstance(decl, s.CardValue):
            self.index.values[decl.name.text] = decl
            self.index.add(Occurrence(decl.name.span, ("value", decl.name.text), "value", True))
            self.index.declarations[where(decl.name.span)] = decl
        elif isinstance(decl, s.Cards | s.Tiles):
            self.table(decl)
        elif isinstance(decl, s.Market):
            self.use(decl.table, "cards")
            self.column_use(decl.group_by, ("column", "cards", decl.group_by.text))
        elif isinstance(decl, s.Trigger):
            self.use(decl.zone, "zone")
            self.bind(decl.card, decl.span)
            self.statements(decl.body, decl.span)
        elif isinstance(decl, s.Define):
            for parameter in decl.parameters:
                self.use(parameter.typed_by, "tiles")  # typed by a tile set
                self.bind(parameter.name, decl.span)
            self.node(decl.value)
        elif isinstance(decl, s.Action):
            self.statements(decl.body or (), decl.span)
        elif isinstance(decl, s.Step):
            self.step(decl)
        elif isinstance(decl, s.Majority):
            self.use(decl.event_zone, "zone")
            self.use(decl.zone, "zone")
            self.node(decl.measure)
        elif isinstance(decl, s.Reveal):
            self.use(decl.tiles, "tiles")
            self.node(decl.count)
        elif isinstance(decl, s.Hidden):
            for part in decl.parts:
                self.use(part.zone, "zone")
        elif isinstance(decl, s.Supply):
            for line in decl.lines:
                self.use(line.target, "token")
        elif isinstance(decl, s.SeatSetup):
            for gift in decl.lines:
                self.use(gift.token, "token")
        elif isinstance(decl, s.Zone):
            self.use(decl.typed_by, "tiles")  # the tile set a zone is typed by, if any
        elif isinstance(decl, s.Decisions | s.Token):
            return  # nothing named but its own name
        else:
            for child in children(decl):
                self.node(child)

    def table(self, decl: s.Cards | s.Tiles) -> None:
        table = "cards" if isinstance(decl, s.Cards) else self.rename(decl.name.text)
        data = self.data_header(decl.path.value)
        for column in decl.columns:
            key: Key = ("column", table, column.name.text)
            self.index.columns.setdefault(key, (column, []))[1].append(decl.path.value)
            self.index.add(Occurrence(column.name.span, key, "column", definition=True))
            self.index.declarations[where(column.name.span)] = decl
            for colour, value in column.type.mapping:
                if column.type.kind == "per_colour":
                    self.use(colour, "colour")
                elif isinstance(value, s.Name) and value.text != "none":
                    self.use(value, "colour")
            if isinstance(column.default, s.NameRef) and column.default.name != "none":
                self.use(s.Name(span=column.default.span, text=column.default.name), "colour")
            if data is not None:
                cells = self.index.data[where(column.name.span)] = []
                for span in data(self.header_names(column)):
                    self.index.add(Occurrence(span, key, "data"))
                    cells.append(span)
        if isinstance(decl, s.Tiles) and decl.sides_by is not None:
            self.column_use(decl.sides_by, ("column", table, decl.sides_by.text))

    def header_names(self, column: s.Column) -> list[str]:
        """The CSV columns a declared column reads."""
        if column.type.kind == "per_colour":
            mapped = [v.value for _, v in column.type.mapping if isinstance(v, s.StringLit)]
            return mapped or self.colours
        return [column.source.value if column.source else column.name.text]

    def data_header(self, written: str) -> Callable[[list[str]], Iterator[s.Span]] | None:
        """Where each named cell of a data file's header is, if it can be read."""
        try:
            path = named_file(self.file, written)
        except Unreadable:
            return None
        first = read_start(path, 64 * 1024).decode("utf-8", errors="replace")
        header = first.removeprefix("\ufeff").split("\n", 1)[0].rstrip("\r")
        file = display_path(path)
        cells: dict[str, s.Span] = {}
        column = 1 + (1 if first.startswith("\ufeff") else 0)
        for cell in header.split(","):
            cells.setdefault(cell.strip(), s.Span(file, 1, column, 1, column + len(cell)))
            column += len(cell) + 1

        def spans(names: list[str]) -> Iterator[s.Span]:
            return (cells[name] for name in names if name in cells)

        return spans

    def column_use(self, name: s.Name, key: Key) -> None:
        self.index.add(Occurrence(name.span, key, "column"))

    def step(self, decl: s.Step) -> None:
        if decl.place is not None:
            self.use(decl.place.other, "step")
        body = decl.body
        if isinstance(body, s.StepLimit):
            for kind in body.kinds:
                self.use(kind, "token")
        if isinstance(body, s.StepClaim):
            self.use(body.tiles, "tiles")
            self.use(body.source, "zone")
            self.use(body.zone, "zone")
            self.bind(body.variable, decl.span)
            self.node(body.condition)

    # ---------------------------------------------------------- statements

    def statements(self, body: Iterable[s.Statement], scope: s.Span) -> None:
        for statement in body:
            self.statement(statement, scope)

    def statement(self, st: s.Statement, scope: s.Span) -> None:
        if isinstance(st, s.Let):
            self.node(st.value)
            self.bind(st.name, scope)
        elif isinstance(st, s.Choose):
            for source in st.sources:
                self.node(source)
            self.bind(st.name, scope)
        elif isinstance(st, s.ChooseDistinct):
            self.node(st.count)
            self.node(st.source)
            self.bind(st.name, scope)
        elif isinstance(st, s.Gain):
            self.node(st.amount)
            self.use(st.token, "token")
        elif isinstance(st, s.Move):
            self.use(st.card, "local")
            self.use(st.zone, "zone")
        elif isinstance(st, s.ChooseLine):
            self.node(st.source)
            self.bind(st.name, scope)
        elif isinstance(st, s.ReturnToBox | s.TakeCells):
            self.use(st.cards if isinstance(st, s.ReturnToBox) else st.cells, "local")
        elif isinstance(st, s.SetValue):
            self.use(st.card, "local")
            self.column_use(st.value_name, ("value", st.value_name.text))
            self.node(st.value)
        elif isinstance(st, s.If):
            self.node(st.condition)
            self.scopes.append({})
            self.statements(st.body, st.span)
            self.scopes.pop()
        elif isinstance(st, s.Pay) and st.wild_cards is not None:
            self.node(st.cost)
            self.node(st.discount)
            wild = st.wild_cards
            self.node(wild.source)
            self.scopes.append({})
            self.bind(wild.variable, wild.span)
            self.node(wild.condition)
            self.scopes.pop()
        else:
            for child in children(st):
                self.node(child)

    # --------------------------------------------------------- expressions

    def node(self, node: object) -> None:
        if node is None:
            return
        if isinstance(node, s.NameRef):
            self.use(s.Name(span=node.span, text=node.name), "name")
        elif isinstance(node, s.Attribute):
            self.node(node.subject)
            self.column_use(node.attribute, self.attribute_key(node))
        elif isinstance(node, s.Call):
            if self.index.kinds.get(self.rename(node.function.text)) == "define":
                self.use(node.function, "define")
            for argument in node.arguments:
                self.node(argument)
        elif isinstance(node, s.Filter | s.OverSet | s.PerColour):
            self.binding(node)
        else:
            for child in children(node):
                self.node(child)

    def binding(self, node: s.Filter | s.OverSet | s.PerColour) -> None:
        """A construct that binds a name for its condition and body."""
        if not isinstance(node, s.PerColour):
            self.node(node.source)
        self.scopes.append({})
        self.bind(node.variable, node.span)
        if isinstance(node, s.PerColour):
            self.node(node.body)
        else:
            self.node(node.condition)
            if isinstance(node, s.OverSet):
                self.node(node.body)
        self.scopes.pop()

    def attribute_key(self, node: s.Attribute) -> Key:
        """The column, or card value, an attribute reads: by the checked
        model's type of its subject where there is one."""
        name = node.attribute.text
        found = self.expressions.get(where(node.span))
        if isinstance(found, m.Attr) and found.source == "value":
            return ("value", name)
        subject = found.subject.type if isinstance(found, m.Attr) else None
        while subject is not None and subject.element is not None:
            subject = subject.element
        if subject is not None and subject.kind == "tile" and subject.tiles:
            return ("column", subject.tiles, name)
        if subject is not None and subject.kind == "card":
            return ("column", "cards", name)
        if name in self.index.values:
            return ("value", name)
        tables = [key for key in self.index.columns if key[2] == name]
        return tables[0] if tables else ("column", "cards", name)


def _name_of(decl: s.Decl) -> s.Name | None:
    name = getattr(decl, "name", None)
    return name if isinstance(name, s.Name) else None


def _all(node: object, kind: type[s.RuleId]) -> Iterator[s.RuleId]:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, kind):
            yield current
        stack.extend(children(current))


def model_expressions(edition: m.Edition | None) -> dict[Where, m.Expr]:
    """Every expression of a checked model by its span (the outermost of
    those that share one)."""
    found: dict[Where, m.Expr] = {}
    if edition is None:
        return found
    stack: list[object] = [edition]
    while stack:
        current = stack.pop()
        if isinstance(current, m.Expr):
            found.setdefault(where(current.span), current)
        stack.extend(children(current))
    return found
