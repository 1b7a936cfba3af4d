"""An edition as a rulebook: its rules in its reference's order, each spelt
out in English from the checked model, its card and tile tables, and what
it changes from the edition it extends.

Each rule id the edition states is a section, in the order of its
reference rulebooks (the model's rule texts), then any id no reference
defines. A declaration's sentences stand under the first of its own ids
(the others point to it); an id stated on a statement of an action or a
trigger, or on a token's property, has that statement's sentence. A
declaration that states no id is in "Components and terms", first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePath

from attrs import frozen

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.editions import EditionLoader, Entry, Key, ResolvedEdition
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, editions_folder
from splendor_rules.compiler.frontend.rule_ids import cited_ids_in, rule_ids_in
from splendor_rules.compiler.tools.conformance.changes import describe_changes
from splendor_rules.compiler.tools.conformance.diff import diff_editions
from splendor_rules.compiler.tools.rulebook.declarations import Declarations
from splendor_rules.compiler.tools.rulebook.english import English, words
from splendor_rules.compiler.tools.rulebook.palette import Swatch, palette
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Sources, display_path, render
from splendor_rules.dsl.unparse import unparse_declaration
from splendor_rules.dsl.visitor import walk


class CannotDocument(Exception):
    """The edition cannot be written as a rulebook; the message says why."""


@frozen
class Rule:
    rule_id: str
    title: str  # the reference's words in bold after the id, maybe none
    reference: str | None  # the rulebook that defines it (None: no reference does)
    sentences: tuple[str, ...]
    see: str | None = None  # the section holds only a pointer to this id's section
    source: tuple[str, ...] = ()  # the rule text of the declarations that state it
    said: str = ""  # the reference's own text of it


@frozen
class Paragraph:
    label: str  # the declaration, as a heading names it
    sentences: tuple[str, ...]


@frozen
class Pip:
    colour: str  # the token kind's name
    label: str  # its title
    count: int | None  # None: a colour shown alone (a bonus)


@frozen
class Cell:
    text: str
    pips: tuple[Pip, ...] = ()
    points: bool = False  # a column the score reads


@frozen
class DataTable:
    title: str
    file: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


@frozen
class Change:
    status: str  # overridden, added or removed
    label: str
    ids: str  # the rule ids, old -> new for an override
    sentences: tuple[str, ...]  # what it says now (removed: what it said)
    lines: tuple[str, ...]  # an override's changed lines of rule text, old -> new


@frozen
class Changes:
    parent: str
    renamed: tuple[str, ...]
    declarations: tuple[Change, ...]
    inherited: int
    inherited_ids: tuple[str, ...]


@frozen
class Rulebook:
    name: str
    title: str
    file: str  # the rule file's name
    players: tuple[int, int]
    components: tuple[Paragraph, ...]
    rules: tuple[Rule, ...]
    tables: tuple[DataTable, ...]
    swatches: Mapping[str, Swatch]  # by token kind
    legend: tuple[Pip, ...]  # each token kind, with its title
    changes: Changes | None


def compile_for_book(path: Path) -> Compiled:
    """A rule file compiled; CannotDocument, with its mistakes, if it has any."""
    sources = Sources()
    compiled = compile_file(path, sources)
    if not compiled.ok:
        shown = "\n".join(render(d, sources) for d in compiled.diagnostics)
        raise CannotDocument(f"{display_path(path)} does not check:\n{shown}")
    return compiled


def make_rulebook(path: Path) -> Rulebook:
    """The rulebook of a rule file (and, for an edition that extends
    another, what it changes from it)."""
    compiled = compile_for_book(path)
    assert compiled.model is not None and compiled.resolved is not None
    model, resolved = compiled.model, compiled.resolved
    said = Declarations(model, _own_columns(resolved))
    changes = None
    if resolved.parent is not None:
        parent = EditionLoader([editions_folder()], Sources()).find_parent(
            resolved.parent.name, path
        )
        if parent is None:  # the check found it: it is there
            raise CannotDocument(f"no rule file for {resolved.parent.name}")
        changes = _changes(compile_for_book(parent), compiled, said)
    return Rulebook(
        name=model.name,
        title=model.title,
        file=PurePath(model.file).name,
        players=model.players,
        components=tuple(_components(resolved, said)),
        rules=tuple(_rules(model, resolved, said)),
        tables=tuple(_tables(model, said)),
        swatches=palette([(t.name, t.title) for t in model.tokens], _aliases(resolved)),
        legend=tuple(Pip(t.name, said.english.token(t.name), None) for t in model.tokens),
        changes=changes,
    )


# ------------------------------------------------------------- the rules


def _own_ids(entry: Entry) -> tuple[str, ...]:
    return tuple(t.text for t in entry.decl.tags)


def _all_ids(entry: Entry) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.text for t in rule_ids_in(entry.decl)))


def _cited_ids(entry: Entry) -> tuple[str, ...]:
    """The ids a declaration's requirements cite (`[see O-3.3]`), stated elsewhere."""
    return tuple(dict.fromkeys(t.text for t in cited_ids_in(entry.decl)))


def _components(resolved: ResolvedEdition, said: Declarations) -> Iterator[Paragraph]:
    for entry in resolved.entries:
        if not _own_ids(entry) and (sentences := said.sentences(entry.key)):
            yield Paragraph(said.label(entry.key), tuple(sentences))


def _rules(model: m.Edition, resolved: ResolvedEdition, said: Declarations) -> Iterator[Rule]:
    texts = {t.rule_id: t for t in model.rule_texts}
    order = [*texts, *(i for i in model.rule_ids if i not in texts)]
    position = {rule_id: n for n, rule_id in enumerate(order)}
    first: dict[str, str] = {}  # an id -> the id whose section holds its declaration
    found: dict[str, list[str]] = {i: [] for i in order}
    source: dict[str, list[str]] = {i: [] for i in order}
    cited: dict[str, list[str]] = {i: [] for i in order}  # said after what states the id
    for entry in resolved.entries:
        own = sorted(_own_ids(entry), key=lambda i: position.get(i, len(order)))
        if own:
            found[own[0]] += said.sentences(entry.key)
            first |= {other: own[0] for other in own[1:]}
        for nested in _all_ids(entry):
            if nested not in own:
                found[nested] += _nested(said, entry.key, nested)
            if nested not in first:
                source[nested] += unparse_declaration(entry.decl, entry.renames.apply)
        for rule_id in _cited_ids(entry):
            if rule_id in cited:
                cited[rule_id] += _nested(said, entry.key, rule_id)
    for rule_id in order:
        found[rule_id] += cited[rule_id]
    for rule_id in order:
        text = texts.get(rule_id)
        see = first.get(rule_id) if not found[rule_id] else None
        sentences = found[rule_id]
        if see is not None:
            sentences = [f"Stated with {see}, above: {_label_of(resolved, said, see)}."]
        elif not sentences:  # a part no sentence says (none today): named at least
            sentences = [f"Stated by {_label_of(resolved, said, rule_id, nested=True)}."]
        yield Rule(
            rule_id,
            text.title if text else "",
            text.reference if text else None,
            tuple(sentences),
            see,
            tuple(source[rule_id]),
            text.text if text else "",
        )


def _label_of(
    resolved: ResolvedEdition, said: Declarations, rule_id: str, *, nested: bool = False
) -> str:
    """The declarations that state an id (with `nested`, in a part of them)."""
    stating = _all_ids if nested else _own_ids
    return ", ".join(said.label(e.key) for e in resolved.entries if rule_id in stating(e))


def _nested(said: Declarations, key: Key, rule_id: str) -> list[str]:
    """The sentences of the parts of a declaration that state an id its
    declaration does not: statements, and a token kind's properties."""
    kind, name = key
    model, english = said.edition, said.english
    if kind == "token":
        token = next(t for t in model.tokens if t.name == name)
        title = f"“{english.token(token.name)}”"
        out = []
        if rule_id in token.returnable_ids and not token.returnable:
            out.append(f"A player never returns {title} tokens.")
        if rule_id in token.cap_ids and token.cap is not None:
            out.append(f"A player holds at most {token.cap} {title} tokens.")
        return out
    body: tuple[m.Statement, ...] = ()
    owner = ""
    if kind == "action" and name in english.actions:
        action = english.actions[name]
        body, owner = action.body or (), f"action {english.action(action.name)}"
        enclosing = action.rule_ids
    elif kind == "trigger":
        trigger = next(t for t in model.triggers if t.name == name)
        body, owner, enclosing = trigger.body, f"“{words(trigger.name)}”", trigger.rule_ids
    else:
        return []
    later = kind == "trigger"
    return [f"In {owner}: {x}" for x in _stating(english, body, enclosing, rule_id, later)]


def _stating(
    english: English,
    body: Sequence[m.Statement],
    enclosing: tuple[str, ...],
    rule_id: str,
    later: bool,
) -> Iterator[str]:
    """The sentences of the statements of a block that state an id their
    enclosing block does not (`later`: see English.statements)."""
    for x in body:
        if rule_id in x.rule_ids and rule_id not in enclosing:
            yield english.statement(x, later)
        elif isinstance(x, m.If):
            yield from _stating(english, x.body, x.rule_ids, rule_id, True)


# ------------------------------------------------------------ the tables


def _own_columns(resolved: ResolvedEdition) -> dict[Key, tuple[str, ...]]:
    return {
        e.key: tuple(c.name.text for c in e.decl.columns)
        for e in resolved.entries
        if isinstance(e.decl, s.Cards)
    }


def _aliases(resolved: ResolvedEdition) -> dict[str, list[str]]:
    """The data values a colour column's map sends to each colour."""
    found: dict[str, list[str]] = {}
    for entry in resolved.entries:
        if isinstance(entry.decl, s.Cards | s.Tiles):
            for column in entry.decl.columns:
                for value, colour in column.type.mapping:
                    if column.type.kind in ("colour", "colour_or_none") and isinstance(
                        colour, s.Name
                    ):
                        found.setdefault(entry.renames.apply(colour.text), []).append(value.text)
    return found


def _score_columns(model: m.Edition) -> set[str]:
    """The columns the score reads: shown as points."""
    return {e.attribute for e in walk(model.score.value) if isinstance(e, m.Attr)}


def _cell(model: m.Edition, english: English, column: m.Column, value: object) -> Cell:
    if column.type == "vector" and isinstance(value, tuple):
        pips = tuple(
            Pip(c, english.token(c), n) for c, n in zip(model.colours, value, strict=True) if n
        )
        return Cell(", ".join(f"{p.count} {p.label}" for p in pips) or "—", pips)
    if column.type == "colour":
        if value is None:
            return Cell("—")
        return Cell(english.token(str(value)), (Pip(str(value), english.token(str(value)), None),))
    if column.type == "bool":
        return Cell("yes" if value else "")
    return Cell("" if value is None else str(value))


def _table(
    model: m.Edition,
    table: m.Table,
    rows: Sequence[Mapping[str, m.CellValue]],
    title: str,
    columns: Sequence[str],
    points: set[str],
) -> DataTable:
    english = English(model)
    shown = [c for c in table.columns if c.name in columns]
    return DataTable(
        title=title,
        file=PurePath(table.file).name,
        columns=tuple(words(c.name) for c in shown),
        rows=tuple(
            tuple(
                _with_points(_cell(model, english, c, row.get(c.name)), c.name in points)
                for c in shown
            )
            for row in rows
        ),
    )


def _with_points(cell: Cell, points: bool) -> Cell:
    return Cell(cell.text, cell.pips, points) if points else cell


def _tables(model: m.Edition, said: Declarations) -> Iterator[DataTable]:
    points = _score_columns(model)
    numbers = identities.table_cards(model)
    for name, cards in numbers.items():
        table = next((t for t in model.card_tables if t.name == name), model.cards)
        title = "Cards" if name is None else f"Cards: {words(name)}"
        rows = model.cards.rows[cards.start : cards.stop]
        yield _table(model, table, rows, title, said.columns[("cards", name)], points)
    for tiles in model.tile_sets:
        columns = tuple(c.name for c in tiles.columns)
        yield _table(model, tiles, tiles.rows, f"Tiles: {words(tiles.name)}", columns, points)


# ----------------------------------------------------------- the changes


def _changes(parent: Compiled, child: Compiled, said: Declarations) -> Changes:
    assert parent.resolved is not None and parent.model is not None
    assert child.resolved is not None
    diff = diff_editions(parent.resolved, child.resolved)
    found = describe_changes(diff, parent.resolved, child.resolved)
    before = Declarations(parent.model, _own_columns(parent.resolved))
    declarations = []
    for c in found.declarations:
        source = before if c.status == "removed" else said
        ids = ", ".join(c.ids_b or c.ids_a)
        if c.status == "overridden" and c.ids_a != c.ids_b:
            ids = f"{', '.join(c.ids_a) or 'no rule id'} → {', '.join(c.ids_b) or 'no rule id'}"
        lines = tuple(
            f"{x.old} → {x.new}" if x.old and x.new else f"- {x.old}" if x.old else f"+ {x.new}"
            for x in c.lines
        )
        label = source.label(c.key)
        if c.placed:  # a step placed `before X` or `after X`
            label += f", {'moved' if c.status == 'overridden' else 'placed'} {words(c.placed)}"
        declarations.append(Change(c.status, label, ids, tuple(source.sentences(c.key)), lines))
    renamed = tuple(f"{r.kind} {r.old} is now {r.new}" for r in diff.renamed)
    assert child.model is not None
    order = {t.rule_id: n for n, t in enumerate(child.model.rule_texts)}
    inherited = tuple(sorted(set(diff.inherited_ids), key=lambda i: (order.get(i, len(order)), i)))
    return Changes(parent.model.name, renamed, tuple(declarations), len(diff.inherited), inherited)
