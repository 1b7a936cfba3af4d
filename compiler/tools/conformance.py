"""Edition conformance: what one edition changes relative to another (`diff`),
and whether the rules the two share behave identically in their engines
(`conform`).

Both work from the rule files alone: the differences come from the changes
the edition resolver records; the behaviour from engines generated for probe
editions that extend the real ones (docs/conformance.md gives the design).
Nothing here knows an edition: renames, edition-only token kinds, columns,
tiles and rules are all read from the resolved editions and their models.
"""

from __future__ import annotations

import csv
import json
import random
import shutil
import sys
import tempfile
import time
import types
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import click
from attrs import define, field, frozen

from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.data import COLUMN_TYPES
from splendor_rules.compiler.frontend.editions import Key, ResolvedEdition, describe_key
from splendor_rules.compiler.frontend.pipeline import (
    Compiled,
    compile_file,
    editions_folder,
)
from splendor_rules.compiler.frontend.rule_ids import RULE_ID_FORM, rule_ids_in
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Sources, display_path, render

Json = dict[str, Any]

# What a rename can rename; renaming a tile set renames its reveal's key too.
_RENAME_KINDS = ("colour", "token", "tiles", "zone", "action", "define", "step", "end")
_KEY_KINDS_RENAMED = {"tiles": ("tiles", "reveal")}

# ===================================================================== diff


@frozen
class Renamed:
    kind: str  # one of _RENAME_KINDS
    old: str
    new: str


@frozen
class Overridden:
    """A declaration both editions have under one key, written differently."""

    key_a: Key
    key_b: Key
    ids_a: tuple[str, ...]
    ids_b: tuple[str, ...]


@frozen
class Declared:
    """A declaration only one of the two editions has."""

    key: Key
    ids: tuple[str, ...]


@frozen
class Inherited:
    """A declaration edition b has unchanged from edition a (names renamed)."""

    key_a: Key
    key_b: Key
    ids: tuple[str, ...]


@frozen
class EditionDiff:
    a: str
    b: str
    relation: str  # how the two editions are related, in words
    renamed: tuple[Renamed, ...]
    overridden: tuple[Overridden, ...]
    added: tuple[Declared, ...]
    removed: tuple[Declared, ...]
    inherited: tuple[Inherited, ...]

    @property
    def inherited_ids(self) -> tuple[str, ...]:
        return tuple(i for entry in self.inherited for i in entry.ids)

    def renaming(self, *kinds: str) -> dict[str, str]:
        """Edition a's name -> edition b's, for the names of these kinds."""
        return {r.old: r.new for r in self.renamed if r.kind in kinds}

    def inverted(self) -> EditionDiff:
        """The same differences, seen from b to a."""
        return EditionDiff(
            a=self.b,
            b=self.a,
            relation=self.relation,
            renamed=tuple(Renamed(r.kind, r.new, r.old) for r in self.renamed),
            overridden=tuple(
                Overridden(o.key_b, o.key_a, o.ids_b, o.ids_a) for o in self.overridden
            ),
            added=self.removed,
            removed=self.added,
            inherited=tuple(Inherited(i.key_b, i.key_a, i.ids) for i in self.inherited),
        )


def _ids(decl: s.Decl) -> tuple[str, ...]:
    return tuple(rule_id.text for rule_id in rule_ids_in(decl))


def _lineage(edition: ResolvedEdition) -> list[ResolvedEdition]:
    """The edition, its parent, its parent's parent, ..."""
    chain = []
    current: ResolvedEdition | None = edition
    while current is not None:
        chain.append(current)
        current = current.parent
    return chain


def _same(x: ResolvedEdition, y: ResolvedEdition) -> bool:
    """The same edition, though resolved by different loaders."""
    return x.name == y.name and Path(x.file).resolve() == Path(y.file).resolve()


def _names(edition: ResolvedEdition) -> list[tuple[str, str]]:
    """The (kind, name) pairs a rename could rename, in declaration order."""
    found: list[tuple[str, str]] = []
    for entry in edition.entries:
        if isinstance(entry.decl, s.Colours):
            found += [("colour", entry.renames.apply(n.text)) for n in entry.decl.names]
        kind, name = entry.key
        if name is not None and kind in _RENAME_KINDS:
            found.append((kind, name))
    return found


@define
class _Slot:
    """A declaration followed down an inheritance chain."""

    key_a: Key | None  # its key in the first edition; None if added later
    ids_a: tuple[str, ...]
    ids: tuple[str, ...]
    changed: bool


def _accumulate(a: ResolvedEdition, chain: list[ResolvedEdition]) -> EditionDiff:
    """The changes each edition of `chain` (a's descendants, oldest first)
    records, accumulated into the differences between a and the last one."""
    slots = {e.key: _Slot(e.key, _ids(e.decl), _ids(e.decl), False) for e in a.entries}
    removed: dict[Key, _Slot] = {}
    names = {name: name[1] for name in _names(a)}  # (kind, name in a) -> name now
    for edition in chain:
        # The resolver applies an edition's renames before its other items,
        # and renames keys by name.
        step: dict[str, str] = {}
        for change in edition.changes:
            old = change.key[1]
            if change.kind != "rename" or change.new_name is None or old is None:
                continue
            step[old] = change.new_name
            for name, now in names.items():
                if name[0] == change.key[0] and now == old:
                    names[name] = change.new_name
        slots = {_renamed_key(k, step): slot for k, slot in slots.items()}
        removed = {_renamed_key(k, step): slot for k, slot in removed.items()}
        for change in edition.changes:
            if change.kind == "add":
                slot = removed.pop(change.key, None)
                if slot is None:
                    slots[change.key] = _Slot(None, (), change.new_ids, True)
                else:  # removed earlier in the chain, then declared again
                    slot.ids, slot.changed = change.new_ids, True
                    slots[change.key] = slot
            elif change.kind == "override" and change.key in slots:
                slots[change.key].ids = change.new_ids
                slots[change.key].changed = True
            elif change.kind == "remove" and change.key in slots:
                slot = slots.pop(change.key)
                if slot.key_a is not None:
                    removed[change.key] = slot
    b = chain[-1] if chain else a
    path = " -> ".join(e.name for e in [a, *chain])
    relation = f"{b.name} extends {a.name}" + (f" ({path})" if len(chain) > 1 else "")
    return EditionDiff(
        a=a.name,
        b=b.name,
        relation=relation if chain else "the same edition",
        renamed=tuple(Renamed(k, old, new) for (k, old), new in names.items() if old != new),
        overridden=tuple(
            Overridden(slot.key_a, key, slot.ids_a, slot.ids)
            for key, slot in slots.items()
            if slot.key_a is not None and slot.changed
        ),
        added=tuple(Declared(key, slot.ids) for key, slot in slots.items() if slot.key_a is None),
        removed=tuple(
            Declared(slot.key_a, slot.ids_a) for slot in removed.values() if slot.key_a is not None
        ),
        inherited=tuple(
            Inherited(slot.key_a, key, slot.ids_a)
            for key, slot in slots.items()
            if slot.key_a is not None and not slot.changed
        ),
    )


def _renamed_key(key: Key, step: Mapping[str, str]) -> Key:
    kind, name = key
    return (kind, step.get(name, name) if name is not None else None)


def _by_keys(a: ResolvedEdition, b: ResolvedEdition) -> EditionDiff:
    """Editions neither of which extends the other: their resolved
    declarations compared key by key, through the renames each made from their
    nearest common ancestor, if they have one. A declaration is the same when
    its syntax tree is (spans are not compared)."""
    common = next((x for x in _lineage(a) if any(_same(x, y) for y in _lineage(b))), None)
    renamed: list[Renamed] = []
    relation = f"{a.name} and {b.name} are unrelated"
    if common is not None:
        relation = f"{a.name} and {b.name} both extend {common.name}"
        to_a = {(r.kind, r.old): r.new for r in diff_editions(common, a).renamed}
        to_b = {(r.kind, r.old): r.new for r in diff_editions(common, b).renamed}
        for name in _names(common):
            new_a, new_b = to_a.get(name, name[1]), to_b.get(name, name[1])
            if new_a != new_b:
                renamed.append(Renamed(name[0], new_a, new_b))
    by_kind: dict[str, dict[str, str]] = {}
    for r in renamed:
        for kind in _KEY_KINDS_RENAMED.get(r.kind, (r.kind,)):
            by_kind.setdefault(kind, {})[r.old] = r.new
    b_entries = {e.key: e for e in b.entries}
    overridden, removed, inherited = [], [], []
    matched = set()
    for entry in a.entries:
        kind_a, name_a = entry.key
        renaming = by_kind.get(kind_a, {})
        key_b = (kind_a, renaming.get(name_a, name_a) if name_a is not None else None)
        other = b_entries.get(key_b)
        if other is None:
            removed.append(Declared(entry.key, _ids(entry.decl)))
            continue
        matched.add(key_b)
        if other.decl == entry.decl:
            inherited.append(Inherited(entry.key, key_b, _ids(entry.decl)))
        else:
            overridden.append(Overridden(entry.key, key_b, _ids(entry.decl), _ids(other.decl)))
    added = [Declared(e.key, _ids(e.decl)) for e in b.entries if e.key not in matched]
    return EditionDiff(
        a.name,
        b.name,
        relation,
        tuple(renamed),
        tuple(overridden),
        tuple(added),
        tuple(removed),
        tuple(inherited),
    )


def diff_editions(a: ResolvedEdition, b: ResolvedEdition) -> EditionDiff:
    """What edition b renames, overrides, adds and removes relative to a."""
    line_a, line_b = _lineage(a), _lineage(b)
    for i, ancestor in enumerate(line_b):
        if _same(ancestor, a):
            return _accumulate(a, line_b[:i][::-1])
    for i, ancestor in enumerate(line_a):
        if _same(ancestor, b):
            return _accumulate(b, line_a[:i][::-1]).inverted()
    return _by_keys(a, b)


def _show_ids(ids: Iterable[str]) -> str:
    return ", ".join(ids) or "no rule id"


def _describe(key: Key) -> str:
    kind, name = key
    return f"{kind} {name}" if name is not None else kind


def format_diff(diff: EditionDiff) -> str:
    """The differences, one section per kind of change."""
    lines = [f"{diff.a} -> {diff.b}: {diff.relation}"]

    def section(title: str, items: list[str]) -> None:
        lines.append(f"{title} ({len(items)}):" if items else f"{title}: none")
        lines.extend(f"  {item}" for item in items)

    section("renamed", [f"{r.kind} {r.old} -> {r.new}" for r in diff.renamed])
    section(
        "overridden",
        [
            f"{_describe(o.key_b)}: {_show_ids(o.ids_a)} -> {_show_ids(o.ids_b)}"
            for o in diff.overridden
        ],
    )
    section("added", [f"{_describe(d.key)}: {_show_ids(d.ids)}" for d in diff.added])
    section("removed", [f"{_describe(d.key)}: {_show_ids(d.ids)}" for d in diff.removed])
    ids = _sorted_ids(diff.inherited_ids)
    lines.append(
        f"inherited unchanged ({len(diff.inherited)} declarations, {len(ids)} rule ids):"
        + (f" {', '.join(ids)}" if ids else "")
    )
    return "\n".join(lines)


def _sorted_ids(ids: Iterable[str], letters: str = "") -> list[str]:
    """Rule ids in rulebook order: by section numbers, then by letter (in the
    order of `letters`, if given)."""

    def order(rule_id: str) -> tuple[tuple[int, ...], str, int, str]:
        letter, _, rest = rule_id.partition("-")
        digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
        numbers = tuple(int(n) for n in digits.split(".") if n.isdigit())
        rank = letters.find(letter) if letter in letters else len(letters)
        return (numbers, rest[len(digits) :], rank, letter)

    return sorted(dict.fromkeys(ids), key=order)


# ======================================================= the command line


class UnknownEdition(ValueError):
    pass


class CannotCompare(Exception):
    """The two editions cannot be compared; the message says why."""


def edition_path(name: str) -> Path:
    """An edition named on the command line: the name of an edition in the
    editions folder, or a rule file."""
    path = Path(name)
    if path.suffix == ".rules" or len(path.parts) > 1:
        if path.is_file():
            return path
        raise UnknownEdition(f"no rule file '{name}'")
    shipped = editions_folder() / f"{name}.rules"
    if shipped.is_file():
        return shipped
    known = ", ".join(sorted(p.stem for p in editions_folder().glob("*.rules")))
    raise UnknownEdition(
        f"unknown edition '{name}'; the editions are {known} (or name a .rules file)"
    )


def _argument(name: str, hint: str) -> Path:
    try:
        return edition_path(name)
    except UnknownEdition as error:
        raise click.BadParameter(str(error), param_hint=hint) from error


def _compile(path: Path) -> Compiled:
    """A rule file compiled; CannotCompare, with its mistakes, if it has any."""
    sources = Sources()
    compiled = compile_file(path, sources)
    if not compiled.ok:
        shown = "\n".join(render(d, sources) for d in compiled.diagnostics)
        raise CannotCompare(f"{display_path(path)} does not check:\n{shown}")
    return compiled


@click.command("diff")
@click.argument("a")
@click.argument("b")
def diff_command(a: str, b: str) -> None:
    """List what B renames, overrides, adds and removes relative to A.

    A and B are edition names (editions/NAME.rules) or rule files.
    """
    path_a, path_b = _argument(a, "A"), _argument(b, "B")
    try:
        resolved_a, resolved_b = _compile(path_a).resolved, _compile(path_b).resolved
    except CannotCompare as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    assert resolved_a is not None and resolved_b is not None
    click.echo(format_diff(diff_editions(resolved_a, resolved_b)))


# =============================================================== probes


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


class _ProbeCards:
    """The shared probe cards: edition a's cards in one CSV that both probes
    read. A column both editions declare holds a's values, read by each probe
    under its own names (b's colours through mappings); a column only one
    declares holds a neutral value: 0 (or its range's end nearest 0), false,
    a unique text, so that the rules reading it stay inert."""

    def __init__(
        self, a: m.Edition, decls: tuple[s.Cards, s.Cards], colours_b: Mapping[str, str]
    ) -> None:
        self.a = a
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
        rows = self.a.cards.rows
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
        count = len(self.a.cards.rows)
        heading = f"~{edition}.{name}"
        if kind.kind == "per_colour":
            for colour in colours:
                self.columns[f"{heading}[{colour}]"] = [0] * count
            return [f"{heading}[{colour}]" for colour in colours]
        if kind.kind == "text":
            values: list[Any] = [f"{name} {i}" for i in range(count)]
        elif kind.kind == "colour":
            values = [colours[0]] * count
        elif kind.kind == "int_range" and kind.low is not None and kind.high is not None:
            values = [min(max(0, kind.low), kind.high)] * count
        else:
            values = [0] * count
        self.columns[heading] = values
        return [heading]

    def declaration(self, decl: s.Cards, edition: m.Edition, is_a: bool) -> str:
        """The probe's `override cards`, reading the shared CSV."""
        a_columns = {c.name: c for c in self.a.cards.columns}
        back = {new: old for old, new in self.colours_b.items()}  # b's colour -> a's
        lines = []
        for column in decl.columns:
            name, kind = column.name.text, column.type.kind
            mapping: dict[str, str] = {}
            if name in self.shared:
                headings = self.a_column(a_columns[name])
                if kind == "per_colour":
                    by_colour = dict(zip(self.a.colours, headings, strict=True))
                    mapping = {c: by_colour[c if is_a else back[c]] for c in edition.colours}
                elif kind == "colour":
                    mapping = {c: c if is_a else self.colours_b[c] for c in self.a.colours}
            else:
                headings = self.neutral(edition.name, column, edition.colours)
                if kind == "per_colour":
                    mapping = dict(zip(edition.colours, headings, strict=True))
            lines.append(_column(column, headings[0], mapping))
        body = "\n    ".join(lines)
        rows = len(self.a.cards.rows)
        return (
            f'  override {_tags(decl)}cards from "cards.csv" with {rows} rows {{\n    {body}\n  }}'
        )


def _column(column: s.Column, heading: str, mapping: Mapping[str, str]) -> str:
    kind = column.type
    name = column.name.text
    if kind.kind == "per_colour":
        pairs = ", ".join(f"{c}: {json.dumps(h)}" for c, h in mapping.items())
        return f"{name}: per colour {{{pairs}}}"
    if kind.kind == "colour":
        pairs = ", ".join(f"{v}: {c}" for v, c in mapping.items())
        return (
            f"{name}: colour {{{pairs}}} from {json.dumps(heading)}"
            if pairs
            else (f"{name}: colour from {json.dumps(heading)}")
        )
    written = f"int {kind.low}..{kind.high}" if kind.kind == "int_range" else kind.kind
    return f"{name}: {written} from {json.dumps(heading)}"


def _inert_endings(resolved: ResolvedEdition, keep: set[Key]) -> list[str]:
    """Each ending not in `keep`, overridden by one whose condition never
    holds; its rule ids are restated, so that the probe still states every
    rule of its rulebook."""
    lines = []
    for entry in resolved.entries:
        decl = entry.decl
        if isinstance(decl, s.Ending) and entry.key not in keep:
            when = "after the round once" if decl.mode == "once" else "after a round that ends with"
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


def _load_engine(text: str, name: str) -> types.ModuleType:
    """An engine module from its source, in memory only."""
    module = types.ModuleType(name)
    exec(compile(text, f"<{name}>", "exec"), module.__dict__)
    return module


def _cards_decl(resolved: ResolvedEdition) -> s.Cards:
    decl = next((e.decl for e in resolved.entries if isinstance(e.decl, s.Cards)), None)
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
    decls = (_cards_decl(real_a.resolved), _cards_decl(real_b.resolved))
    cards = _ProbeCards(real_a.model, decls, {c: tokens.get(c, c) for c in real_a.model.colours})
    compared = _pairs(diff)
    texts, places = [], []
    for real, is_a in ((real_a, True), (real_b, False)):
        assert real.model is not None and real.resolved is not None
        keep = {p.key_a if is_a else p.key_b for p in compared}
        name = f"{real.model.name}_probe"
        texts.append(
            "\n".join(
                [
                    f'edition {name} "probe of {real.model.name}" extends {real.path.stem} {{',
                    cards.declaration(decls[0 if is_a else 1], real.model, is_a),
                    *_inert_endings(real.resolved, keep),
                    "}",
                ]
            )
            + "\n"
        )
        places.append(_beside(real.path, folder / ("a" if is_a else "b")) / f"{name}.rules")
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
        engine = _load_engine(render_engine(compiled.model, path.parent), path.stem)
        probes.append(Probe(compiled, text, engine))
    return probes[0], probes[1]


# ========================================================= correspondence


@frozen
class Pair:
    """A declaration both editions state as the same rule: inherited
    unchanged, or restated by an override that keeps some of its rule ids."""

    key_a: Key
    key_b: Key
    ids: tuple[str, ...]  # the rule ids both state
    restated: bool


def _pairs(diff: EditionDiff) -> list[Pair]:
    pairs = [Pair(i.key_a, i.key_b, i.ids, False) for i in diff.inherited]
    for o in diff.overridden:
        common = tuple(i for i in o.ids_b if i in o.ids_a)
        if common:
            pairs.append(Pair(o.key_a, o.key_b, common, True))
    return pairs


@frozen
class _Naming:
    """One direction of the correspondence between two editions' names."""

    tokens: Mapping[str, str]
    actions: Mapping[str, str]
    steps: Mapping[str, str]
    tiles: Mapping[int, int]
    choices: Mapping[str, Mapping[str, str]]  # action -> choice -> token, card or tile

    def action(self, data: Json) -> Json | None:
        """An action in the other edition's JSON form; None if it has none."""
        name = data["action"]
        if name in self.steps:
            out: Json = {"action": self.steps[name]}
            for key, value in data.items():
                if key == "tokens":
                    out[key] = {self.tokens.get(t, t): n for t, n in value.items()}
                elif key == "tile":
                    out[key] = self.tiles.get(value, -1)
            return out
        if name not in self.actions:
            return None
        out = {"action": self.actions[name]}
        choices = self.choices.get(name, {})
        for key, value in data.items():
            if key == "pay":
                out[key] = {self.tokens.get(t, t): n for t, n in value.items()}
            elif key != "action":
                out[key] = self.value(value, choices.get(key, "card"))
        return out

    def value(self, value: Any, kind: str) -> Any:
        if isinstance(value, list):
            return [self.value(v, kind) for v in value]
        if kind == "token" and isinstance(value, str):
            return self.tokens.get(value, value)
        if kind == "tile" and isinstance(value, int):
            return self.tiles.get(value, -1)
        return value

    def inverse(self, choices: Mapping[str, Mapping[str, str]]) -> _Naming:
        def flip(names: Mapping[Any, Any]) -> dict[Any, Any]:
            return {new: old for old, new in names.items()}

        return _Naming(
            flip(self.tokens), flip(self.actions), flip(self.steps), flip(self.tiles), choices
        )


def _choice_kinds(edition: m.Edition) -> dict[str, dict[str, str]]:
    """For each action, what each choice picks: a token, a card or a tile."""
    found: dict[str, dict[str, str]] = {}
    for action in edition.actions:
        kinds = found.setdefault(action.name, {})
        for statement in action.body or ():
            if isinstance(statement, m.Choose):
                name, source = statement.name, statement.sources[0].type
            elif isinstance(statement, m.ChooseDistinct):
                name, source = statement.name, statement.source.type
            else:
                continue
            element = source.element or source
            kinds[name] = "token" if element.kind in ("colour", "token") else element.kind
    return found


class Correspondence:
    """How edition a's names, parts and rules map to edition b's."""

    def __init__(self, diff: EditionDiff, a: m.Edition, b: m.Edition) -> None:
        self.diff, self.a, self.b = diff, a, b
        renamed = diff.renaming("colour", "token")
        if tuple(renamed.get(c, c) for c in a.colours) != b.colours:
            raise CannotCompare(
                f"the colours of {a.name} ({', '.join(a.colours)}) are not those of {b.name} "
                f"({', '.join(b.colours)}) under its renames"
            )
        if dict(a.market.deck_sizes) != dict(b.market.deck_sizes):
            raise CannotCompare(f"the decks of {a.name} and {b.name} differ in size")
        self.tokens = self._names("colour token", [t.name for t in a.tokens], b.tokens)
        self.zones = self._names("zone", [z.name for z in a.zones], b.zones)
        self.a_only_tokens = [t.name for t in a.tokens if t.name not in self.tokens]
        self.b_only_tokens = [t.name for t in b.tokens if t.name not in self.tokens.values()]
        self.pairs = _pairs(diff)
        self.paired_b = {p.key_b for p in self.pairs}
        self.restated = {i for p in self.pairs if p.restated for i in p.ids}
        self.tiles_shared = self._tiles_shared()
        self.forward = _Naming(
            self.tokens,
            self._names("action", [x.name for x in a.actions], b.actions),
            self._names("step", [x.name for x in a.steps], b.steps),
            self._tile_map(),
            _choice_kinds(a),
        )
        self.backward = self.forward.inverse(_choice_kinds(b))
        self.tile_zones = {z.name for z in b.zones if z.content == "tiles"}
        self.tile_zones_a = {z.name for z in a.zones if z.content == "tiles"}

    def _names(self, kinds: str, names: list[str], parts: Iterable[Any]) -> dict[str, str]:
        """a's name -> b's, for the parts both have (after b's renames)."""
        renaming = self.diff.renaming(*kinds.split())
        there = {p.name for p in parts}
        return {n: renaming.get(n, n) for n in names if renaming.get(n, n) in there}

    def _tiles_shared(self) -> bool:
        """Tiles stay in play only when every tile set and majority tile is a
        shared rule, in the same order in both: tile numbers then agree."""
        keys_a = [("tiles", t.name) for t in self.a.tile_sets]
        keys_a += [("majority", x.name) for x in self.a.majorities]
        keys_b = [("tiles", t.name) for t in self.b.tile_sets]
        keys_b += [("majority", x.name) for x in self.b.majorities]
        by_a = {p.key_a: p.key_b for p in self.pairs}
        sizes_a = [len(t.rows) for t in self.a.tile_sets]
        sizes_b = [len(t.rows) for t in self.b.tile_sets]
        return [by_a.get(k) for k in keys_a] == keys_b and sizes_a == sizes_b

    def _tile_map(self) -> dict[int, int]:
        """a's tile numbers -> b's, for the tiles that may be held: all when
        tiles are shared, else the majority tiles both editions have."""
        if self.tiles_shared:
            count = sum(len(t.rows) for t in self.a.tile_sets) + len(self.a.majorities)
            return {n: n for n in range(count)}
        base_a = sum(len(t.rows) for t in self.a.tile_sets)
        base_b = sum(len(t.rows) for t in self.b.tile_sets)
        names_b = [x.name for x in self.b.majorities]
        return {
            base_a + i: base_b + names_b.index(x.name)
            for i, x in enumerate(self.a.majorities)
            if ("majority", x.name) in self.paired_b
        }

    def ids_of(self, kinds: Iterable[str], names: Iterable[str] | None = None) -> list[str]:
        """The rule ids of the shared declarations of these kinds (and names,
        in b); an action or step that states none is named instead."""
        wanted = set(names) if names is not None else None
        found: list[str] = []
        for p in self.pairs:
            kind, name = p.key_b
            if kind in kinds and (wanted is None or name in wanted):
                found += p.ids or ([f"({describe_key(p.key_b)})"] if kind in _LABELLED else [])
        return found

    # ------------------------------------------------------------- states

    def position(self, data: Json, extra_supply: Mapping[str, int], edition: str) -> Json | None:
        """A state of a in b's JSON form, b's own token kinds given
        `extra_supply`; None if the state has a part b lacks."""
        pending = data["pending"]
        if pending is not None and pending not in self.forward.steps:
            return None
        seats = self.seats(data)
        if seats is None:
            return None
        supply = {self.tokens[t]: n for t, n in data["supply"].items() if t in self.tokens}
        supply.update(extra_supply)
        tiles: dict[str, list[int]] = {t.name: [] for t in self.b.tile_sets}
        if self.tiles_shared:
            renaming = self.diff.renaming("tiles")
            tiles = {renaming.get(k, k): list(v) for k, v in data["tiles"].items()}
        for seat in seats:
            seat["zones"] = {**{z.name: [] for z in self.b.zones}, **seat["zones"]}
        return {
            "edition": edition,
            **{k: data[k] for k in _COPIED},
            "pending": self.forward.steps[pending] if pending is not None else None,
            "supply": supply,
            "tiles": tiles,
            "seats": seats,
        }

    def seats(self, data: Json) -> list[Json] | None:
        """a's seats in b's names; None if one holds what b lacks."""
        seats = []
        tokens, zones, actions, tiles = self.tokens, self.zones, self.forward.actions, self.tile_map
        for seat in data["seats"]:
            if any(t not in tokens for t in seat["tokens"]):
                return None
            mine: Json = {}
            for zone, items in seat["zones"].items():
                there = zones.get(zone)
                if there is None:
                    if items:
                        return None
                elif there in self.tile_zones:
                    if any(t not in tiles for t in items):
                        return None
                    mine[there] = [tiles[t] for t in items]
                else:
                    mine[there] = items
            seats.append(
                {
                    "tokens": {tokens[t]: n for t, n in seat["tokens"].items()},
                    "zones": mine,
                    "did": [actions[x] for x in seat["did"] if x in actions],
                }
            )
        return seats

    @property
    def tile_map(self) -> Mapping[int, int]:
        return self.forward.tiles


# The fields of a state copied as they are from one edition's form to the other's.
_COPIED = (
    *("players", "first_player", "current_player", "turn", "over", "last_round"),
    *("decks", "market", "hidden"),
)

# Shared declarations named in the report when they state no rule id.
_LABELLED = {"action", "step", "end"}


# ============================================================ comparison


@frozen
class Where:
    """Where comparisons are made: a setup, or a state in both JSON forms."""

    a: str
    b: str
    size: tuple[int, int]  # to find the smallest case: turn, then JSON length


@frozen
class Case:
    """One diverging comparison, with what a reader needs to replay it."""

    ids: tuple[str, ...]  # the rules blamed
    what: str  # what was compared
    at: Where
    action: str | None  # in b's JSON form
    result_a: str
    result_b: str
    differences: tuple[str, ...]


@define
class Tally:
    ok: set[int] = field(factory=set)
    bad: set[int] = field(factory=set)


@define
class Report:
    diff: EditionDiff
    ids_a: tuple[str, ...]
    ids_b: tuple[str, ...]
    pairs: list[Pair]
    tallies: dict[str, Tally] = field(factory=dict)
    cases: list[Case] = field(factory=list)
    void: list[Case] = field(factory=list)  # moves where an edition-specific rule acted
    games: int = 0
    setups: int = 0
    positions: int = 0
    skipped: int = 0
    actions: int = 0
    seconds: float = 0.0

    @property
    def diverged(self) -> bool:
        return bool(self.cases or self.void)

    def smallest(self) -> Case | None:
        return min(self.cases, key=lambda c: c.at.size, default=None)

    def status(self, rule_id: str) -> str:
        pair = next((p for p in self.pairs if rule_id in p.ids), None)
        if pair is not None:
            tally = self.tallies.get(rule_id, Tally())
            restated = " (restated by an override)" if pair.restated else ""
            total = len(tally.ok | tally.bad)
            if tally.bad:
                return f"shared{restated}: DIVERGES on {len(tally.bad)} of {total} positions"
            if total:
                return f"shared{restated}: identical on {total} positions"
            return f"shared{restated}: not exercised by the probes"
        for o in self.diff.overridden:
            if rule_id in o.ids_a:
                return f"overridden by {_show_ids(o.ids_b)}"
            if rule_id in o.ids_b:
                return f"added (overriding {_show_ids(o.ids_a)})"
        if any(rule_id in d.ids for d in self.diff.removed):
            return "removed"
        if any(rule_id in d.ids for d in self.diff.added):
            return "added"
        return "stated by both editions, on different declarations: not compared"

    def table(self) -> list[str]:
        letters = "".join(dict.fromkeys(i[0] for i in [*self.ids_a, *self.ids_b]))
        ids = _sorted_ids([*self.ids_a, *self.ids_b], letters)
        labels = [k for k, t in self.tallies.items() if not RULE_ID_FORM.fullmatch(k) and t.bad]
        width = max(len(i) for i in ["rule id", *ids, *labels])
        rows = [f"{'rule id':<{width}} | status"]
        rows += [f"{i:<{width}} | {self.status(i)}" for i in ids]
        rows += [
            f"{label:<{width}} | shared: DIVERGES on {len(self.tallies[label].bad)} positions"
            for label in labels
        ]
        return rows


def _differences(x: Any, y: Any, path: str = "") -> Iterator[str]:
    """Where two JSON values differ, as paths."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in [*x, *(k for k in y if k not in x)]:
            yield from _differences(x.get(key), y.get(key), f"{path}.{key}" if path else key)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y, strict=True)):
            yield from _differences(u, v, f"{path}[{i}]")
    elif x != y:
        yield f"{path or 'value'}: {json.dumps(x)} != {json.dumps(y)}"


def _fields(x: Json, y: Json) -> set[str]:
    """The parts of two projected states that differ: top-level fields, and
    `tokens`, `zones` and `did` for the seats."""
    found = {k for k in x.keys() | y.keys() if k != "seats" and x.get(k) != y.get(k)}
    for u, v in zip(x.get("seats", ()), y.get("seats", ()), strict=False):
        found |= {k for k in u.keys() | v.keys() if u.get(k) != v.get(k)}
    return found


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _cards(market: Mapping[str, list[int | None]]) -> set[int]:
    return {k for row in market.values() for k in row if k is not None}


# Which rules may write each part of a state, by group (see _Checker.groups).
_WRITERS: dict[str, tuple[str, ...]] = {
    "supply": ("action", "steps", "entry", "tokens"),
    "tokens": ("action", "steps", "entry", "tokens"),
    "decks": ("action", "refill"),
    "market": ("action", "refill"),
    "hidden": ("action",),
    "zones": ("action", "entry", "claim"),
    "did": ("action",),
    "pending": ("steps",),
    "current_player": ("turn", "steps"),
    "turn": ("turn", "steps"),
    "last_round": ("end", "define"),
    "over": ("end", "round", "define"),
    "scores": ("score", "define"),
    "winners": ("winners", "define"),
    "tiles": ("claim",),
}


class _Checker:
    """Runs the comparisons and tallies them per rule id."""

    def __init__(self, corr: Correspondence, a: Probe, b: Probe, report: Report) -> None:
        self.corr, self.report = corr, report
        self.ea, self.eb = a.engine, b.engine
        self.kinds = list(corr.tokens.values())
        self.zones = list(corr.zones.values())
        self.actions = set(corr.forward.actions.values())
        self.index = 0  # of the position being compared
        self.at = Where("", "", (0, 0))
        ids = corr.ids_of
        b_model = b.model
        self.deck_ids = ids(["market", "randomness"])
        self.random_ids = ids(["randomness"])
        self.seat_ids = ids(["turn order"])
        self.supply_ids = ids(["supply"])
        self.reveal_ids = ids(["reveal", "tiles"]) if corr.tiles_shared else []
        self.view_ids = ids(["hidden"])
        self.refill_ids = ids(["refill"])
        self.decision_ids = ids(["decisions"])
        self.token_ids = ids(["token"])
        self.score_ids = ids(["score"])
        self.define_ids = ids(["define"])
        self.winner_ids = ids(["winners"])
        self.end_ids = ids(["step"], [x.name for x in b_model.steps if isinstance(x, m.EndCheck)])
        self.end_ids += ids(["end"], [x.name for x in b_model.endings if x.mode == "once"])
        self.round_ids = ids(["end"], [x.name for x in b_model.endings if x.mode != "once"])
        self.claim_ids = ids(["step"], [x.name for x in b_model.steps if isinstance(x, m.Claim)])
        self.limits: dict[str, tuple[int, int]] = {}  # b's token-limit steps: both limits
        for step in a.model.steps:
            name = corr.forward.steps.get(step.name)
            other = next((x for x in b_model.steps if x.name == name), None)
            if isinstance(step, m.TokenLimit) and isinstance(other, m.TokenLimit):
                self.limits[other.name] = (step.limit, other.limit)
        self.entry_ids: dict[str, list[str]] = {}  # a zone -> the rules a card entering it runs
        for trigger in b_model.triggers:
            self.entry_ids.setdefault(trigger.zone, []).extend(ids(["trigger"], [trigger.name]))
        for majority in b_model.majorities:
            self.entry_ids.setdefault(majority.event_zone, []).extend(
                ids(["majority"], [majority.name])
            )
        self.compared = self._compared_actions(a.model, b_model)

    def _compared_actions(self, a: m.Edition, b: m.Edition) -> dict[str, list[str]]:
        """b's actions whose legal moves are compared, with their rule ids.
        The fallback action is compared only when every other action is
        shared: it is legal exactly when they all are not."""
        names = self.corr.forward.actions
        shared = {
            names[x.name]
            for x in a.actions
            if x.name in names and ("action", names[x.name]) in self.corr.paired_b
        }
        main = [x.name for x in b.actions if x.body is not None]
        everything = set(main) <= shared and sum(x.body is not None for x in a.actions) == len(main)
        return {
            x.name: self.corr.ids_of(["action"], [x.name])
            for x in b.actions
            if x.name in shared and (x.body is not None or everything)
        }

    # ------------------------------------------------------------- tallies

    def ok(self, ids: Iterable[str]) -> None:
        for rule_id in ids:
            self.report.tallies.setdefault(rule_id, Tally()).ok.add(self.index)

    def fail(self, case: Case) -> None:
        for rule_id in case.ids:
            self.report.tallies.setdefault(rule_id, Tally()).bad.add(self.index)
        self.report.cases.append(case)

    def case(
        self,
        ids: Iterable[str],
        what: str,
        action: str | None,
        result_a: Any,
        result_b: Any,
        differences: Iterable[str] | None = None,
    ) -> Case:
        """A case at the current place; results that are not text are shown
        as JSON, with the paths where they differ."""
        if differences is None:
            differences = _differences(result_a, result_b)
        shown_a, shown_b = (
            r if isinstance(r, str) else _canonical(r) for r in (result_a, result_b)
        )
        return Case(tuple(ids), what, self.at, action, shown_a, shown_b, tuple(differences))

    def blame(self, candidates: Iterable[str]) -> tuple[str, ...]:
        """The rules to blame for a difference that any of `candidates` may
        have made: the restated ones if there are any (an unchanged inherited
        rule is blamed only when no restated one can explain it)."""
        candidates = tuple(dict.fromkeys(candidates))
        restated = tuple(i for i in candidates if i in self.corr.restated)
        return restated or candidates

    def compare(
        self,
        groups: Mapping[str, list[str]],
        x: Json,
        y: Json,
        what: str,
        action: str | None = None,
    ) -> None:
        """Tally one comparison of two projected states. A difference is
        blamed on the rules that may write the parts that differ."""
        exercised = [i for ids in groups.values() for i in ids]
        if x == y:
            self.ok(exercised)
            return
        fields = _fields(x, y)
        if "pending" in fields:  # a decision pending in one only: the turn waits for it
            fields -= {"current_player", "turn"}
        writers = {g for f in fields for g in _WRITERS.get(f, ())}
        blamed = self.blame(i for g in writers for i in groups.get(g, ())) or self.blame(exercised)
        if blamed:
            self.fail(self.case(blamed, what, action, x, y))

    # ---------------------------------------------------------- projection

    def project(self, data: Json) -> Json:
        """The parts of a state (or a view) of b the shared rules act on."""
        kinds, zones, actions = self.kinds, self.zones, self.actions
        return {
            **{k: data[k] for k in _COPIED},
            "pending": data["pending"],
            "supply": {t: data["supply"][t] for t in kinds},
            "seats": [
                {
                    "tokens": {t: seat["tokens"][t] for t in kinds if t in seat["tokens"]},
                    "zones": {z: seat["zones"][z] for z in zones},
                    "did": sorted(x for x in seat["did"] if x in actions),
                }
                for seat in data["seats"]
            ],
        }

    def project_a(self, data: Json) -> Json | None:
        """The same parts of a state (or view) of a, in b's names."""
        seats = self.corr.seats(data)
        if seats is None:
            return None
        tokens, steps = self.corr.tokens, self.corr.forward.steps
        pending = data["pending"]
        return {
            **{k: data[k] for k in _COPIED},
            "pending": steps.get(pending, pending) if pending is not None else None,
            "supply": {tokens[t]: n for t, n in data["supply"].items() if t in tokens},
            "seats": [{**seat, "did": sorted(seat["did"])} for seat in seats],
        }

    def foreign(self, data: Json, is_a: bool) -> str | None:
        """What a state shows of the parts only its edition has (a token kind,
        a tile held), if anything: an edition-specific rule acted."""
        corr = self.corr
        kinds = corr.a_only_tokens if is_a else corr.b_only_tokens
        zones = corr.tile_zones_a if is_a else corr.tile_zones
        tiles = set(corr.tile_map) if is_a else set(corr.tile_map.values())
        for p, seat in enumerate(data["seats"]):
            for kind in kinds:
                if seat["tokens"].get(kind):
                    return f"seat {p} holds {seat['tokens'][kind]} {kind}"
            for zone in zones:
                if any(t not in tiles for t in seat["zones"][zone]):
                    return f"seat {p} holds tiles {seat['zones'][zone]} in {zone}"
        return None

    # -------------------------------------------------------------- setups

    def setups(self, players: int, seed: int) -> None:
        """Compare the setups of one seed, for every first player."""
        ea, eb = self.ea, self.eb
        for first in range(players):
            self.index += 1
            self.report.setups += 1
            shown = f"setup of {players} players, seed {seed}, first player {first}"
            self.at = Where(shown, shown, (-1, self.index))
            sa = ea.to_json(ea.new_game(players, seed, first))
            sb = eb.to_json(eb.new_game(players, seed, first))
            again = (
                ea.to_json(ea.new_game(players, seed, first)) == sa,
                eb.to_json(eb.new_game(players, seed, first)) == sb,
            )
            self.compare(
                {"random": self.random_ids},
                {"the same both times": list(again)},
                {"the same both times": [True, True]},
                "the setup made twice in each engine",
            )
            pa, pb = self.project_a(sa), self.project(sb)
            assert pa is not None  # a setup holds nothing
            parts = (
                (self.deck_ids, ("decks", "market", "hidden")),
                (self.seat_ids, (*_COPIED[:6], "pending", "seats")),
                (self.supply_ids, ("supply",)),
            )
            for ids, keys in parts:
                x, y = {k: pa[k] for k in keys}, {k: pb[k] for k in keys}
                self.compare({"setup": ids}, x, y, "the setup")
            if self.reveal_ids:
                renaming = self.corr.diff.renaming("tiles")
                tiles_a = {renaming.get(k, k): v for k, v in sa["tiles"].items()}
                self.compare(
                    {"reveal": self.reveal_ids}, tiles_a, sb["tiles"], "the tiles revealed"
                )

    # ----------------------------------------------------------- positions

    def position(self, state_a: Any, extra_supply: Mapping[str, int]) -> None:
        """Compare everything the shared rules decide from one state of a:
        the views, the legal moves, and the state after each of them."""
        ea, eb, corr = self.ea, self.eb, self.corr
        data_a = ea.to_json(state_a)
        if data_a["over"]:
            return
        converted = corr.position(data_a, extra_supply, eb.EDITION)
        if converted is None:
            self.report.skipped += 1
            return
        state_b = eb.from_json(converted)
        self.index += 1
        self.report.positions += 1
        shown = _canonical(converted)
        self.at = Where(_canonical(data_a), shown, (converted["turn"], len(shown)))
        for player in range(converted["players"]):
            view_a = self.project_a(ea.view(state_a, player)) or {}
            view_b = self.project(eb.view(state_b, player))
            self.compare({"view": self.view_ids}, view_a, view_b, f"the view of seat {player}")
        legal_a: dict[str, tuple[str, Any]] = {}
        for action in ea.legal_actions(state_a):
            data = corr.forward.action(ea.action_to_json(action))
            if data is not None:
                legal_a[_canonical(data)] = (data["action"], action)
        legal_b: dict[str, tuple[str, Any]] = {}
        for action in eb.legal_actions(state_b):
            data = eb.action_to_json(action)
            legal_b[_canonical(data)] = (data["action"], action)
        pending = converted["pending"]
        groups = {pending: self.step_ids(pending)} if pending is not None else self.compared
        for name, ids in groups.items():
            mine_a = {k for k, (n, _) in legal_a.items() if n == name}
            mine_b = {k for k, (n, _) in legal_b.items() if n == name}
            if mine_a == mine_b:
                self.ok(ids)
            for key in sorted(mine_a ^ mine_b):
                self.fail(self.legal_case(ids, key, key in mine_a, state_a, state_b))
            for key in sorted(mine_a & mine_b):
                self.report.actions += 1
                moves = (legal_a[key][1], legal_b[key][1])
                self.apply(ids, data_a, (state_a, state_b), moves, key)

    def step_ids(self, step: str) -> list[str]:
        return [*self.corr.ids_of(["step"], [step]), *self.decision_ids]

    def legal_case(self, ids: list[str], key: str, in_a: bool, state_a: Any, state_b: Any) -> Case:
        """An action legal in one engine only, with the other's refusal."""
        data = json.loads(key)
        engine, state = (self.eb, state_b) if in_a else (self.ea, state_a)
        mine = data if in_a else self.corr.backward.action(data)
        try:
            if mine is None:
                raise ValueError("the edition has no such action")
            engine.apply(state, engine.action_from_json(mine))
            refusal = "yet apply accepts it"
        except ValueError as error:
            refusal = f"apply refuses it: {error}"
        legal, other = "legal", f"not legal ({refusal})"
        ra, rb = (legal, other) if in_a else (other, legal)
        return self.case(self.blame(ids), "the legal actions", key, ra, rb, ())

    def apply(
        self,
        ids: list[str],
        before: Json,
        states: tuple[Any, Any],
        moves: tuple[Any, Any],
        key: str,
    ) -> None:
        """Apply one move in both engines and compare the states after it,
        and the options of a decision it leaves pending."""
        ea, eb = self.ea, self.eb
        try:
            after_a, after_b = ea.apply(states[0], moves[0]), eb.apply(states[1], moves[1])
        except ValueError as error:
            self.fail(
                self.case(
                    self.blame(ids), "applying a legal move", key, "", "", [f"refused: {error}"]
                )
            )
            return
        data_a, data_b = ea.to_json(after_a), eb.to_json(after_b)
        groups = self.groups(ids, before, data_a, data_b)
        acted = self.foreign(data_a, True) or self.foreign(data_b, False)
        pa, pb = self.project_a(data_a), self.project(data_b)
        if acted is not None or pa is None:
            exercised = dict.fromkeys(i for g in groups.values() for i in g)
            what = "the states after the move"
            self.report.void.append(
                self.case(exercised, what, key, data_a, data_b, [acted or "a part only a has"])
            )
            return
        if self.score_ids or self.define_ids:
            pa["scores"], pb["scores"] = list(ea.scores(after_a)), list(eb.scores(after_b))
        if self.winner_ids and (data_a["over"] or data_b["over"]):
            pa["winners"], pb["winners"] = sorted(ea.winners(after_a)), sorted(eb.winners(after_b))
        self.compare(groups, pa, pb, "the state after the move", key)
        pending = data_b["pending"]
        if pending is not None and data_a["pending"] == self.corr.backward.steps.get(pending):
            options_a = [
                _canonical(self.corr.forward.action(ea.action_to_json(x)))
                for x in ea.legal_actions(after_a)
            ]
            options_b = [_canonical(eb.action_to_json(x)) for x in eb.legal_actions(after_b)]
            self.compare(
                {"steps": self.step_ids(pending)},
                {"options": sorted(options_a)},
                {"options": sorted(options_b)},
                "the options of the decision the move leaves pending",
                key,
            )

    def groups(
        self, ids: list[str], before: Json, after_a: Json, after_b: Json
    ) -> dict[str, list[str]]:
        """The rules a move exercised, by what they may write (_WRITERS)."""
        mover = before["current_player"]
        steps: list[str] = []
        for data in (before, after_a, after_b):
            pending = data["pending"]
            if pending is not None:
                steps += self.step_ids(self.corr.forward.steps.get(pending, pending))
        for name, limits in self.limits.items():  # a token limit that may have acted
            held = [sum(d["seats"][mover]["tokens"].values()) for d in (after_a, after_b)]
            if any(h >= limit for h, limit in zip(held, limits, strict=True)):
                steps += self.step_ids(name)
        found = {
            "action": ids,
            "steps": steps,
            "end": self.end_ids,
            "tokens": self.token_ids,
            "score": self.score_ids,
            "define": self.define_ids,
            "winners": self.winner_ids if after_a["over"] or after_b["over"] else [],
            "refill": [],
            "turn": [],
            "round": [],
            "claim": [],
            "entry": [],
        }
        if _cards(before["market"]) - _cards(after_a["market"]):
            found["refill"] = self.refill_ids
        if after_a["turn"] != before["turn"] or after_b["turn"] != before["turn"]:
            found["turn"] = self.seat_ids
            if after_a["current_player"] == after_a["first_player"]:
                found["round"] = self.round_ids
        if self.corr.tiles_shared and (after_a["tiles"] != before["tiles"]):
            found["claim"] = self.claim_ids
        back = {new: old for old, new in self.corr.zones.items()}
        for zone, entry in self.entry_ids.items():
            zone_a = back.get(zone)
            if zone_a is not None and len(after_a["seats"][mover]["zones"][zone_a]) > len(
                before["seats"][mover]["zones"][zone_a]
            ):
                found["entry"] = found["entry"] + entry
        return found


# ================================================================== games


def _random_game(engine: types.ModuleType, start: Any, seed: int, plies: int) -> Iterator[Any]:
    """The states of a game played at random from `start`, up to `plies` moves."""
    rng = random.Random(seed)
    state = start
    yield state
    for _ in range(plies):
        if engine.is_over(state):
            return
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        yield state


def _start(engine: types.ModuleType, players: int, seed: int, tiles: bool, starved: bool) -> Any:
    """A setup of a where the edition-specific parts are inert: no tiles
    (unless both editions have the same ones); for a starved game, an empty
    supply too, so that the moves run out and the fallback action and the
    endings that follow from it are reached."""
    data = engine.to_json(engine.new_game(players, seed))
    if not tiles:
        data["tiles"] = {name: [] for name in data["tiles"]}
    if starved:
        data["supply"] = {name: 0 for name in data["supply"]}
    return engine.from_json(data)


def check_conformance(
    a: Path,
    b: Path,
    games: int = 20,
    seed: int = 0,
    plies: int = 100,
    players: tuple[int, ...] = (),
) -> Report:
    """Compare every rule edition b shares with edition a, in probe engines,
    from the setups and positions of `games` seeded random games of a."""
    started = time.perf_counter()
    real_a, real_b = _compile(a), _compile(b)
    assert real_a.resolved is not None and real_b.resolved is not None
    assert real_a.model is not None and real_b.model is not None
    diff = diff_editions(real_a.resolved, real_b.resolved)
    with tempfile.TemporaryDirectory(prefix="conform-") as folder:
        probe_a, probe_b = build_probes(real_a, real_b, diff, Path(folder))
    corr = Correspondence(diff, probe_a.model, probe_b.model)
    report = Report(diff, tuple(real_a.model.rule_ids), tuple(real_b.model.rule_ids), corr.pairs)
    checker = _Checker(corr, probe_a, probe_b, report)
    ea, eb = probe_a.engine, probe_b.engine
    counts = [n for n in ea.PLAYERS if n in eb.PLAYERS and (not players or n in players)]
    if not counts:
        raise CannotCompare("no player count is allowed by both editions (and asked for)")
    for game in range(games):
        game_seed, count = seed + game, counts[game % len(counts)]
        report.games += 1
        checker.setups(count, game_seed)
        supply_b = eb.to_json(eb.new_game(count, game_seed))["supply"]
        for starved in (False, True):
            extra = {t: 0 if starved else supply_b[t] for t in corr.b_only_tokens}
            start = _start(ea, count, game_seed, corr.tiles_shared, starved)
            for state in _random_game(ea, start, game_seed, plies):
                checker.position(state, extra)
    report.seconds = time.perf_counter() - started
    return report


def format_report(report: Report) -> str:
    diff = report.diff
    skipped = f", {report.skipped} skipped" if report.skipped else ""
    lines = [
        f"conform {diff.a} -> {diff.b}: {diff.relation}",
        f"{report.games} games: {report.setups} setups and {report.positions} positions"
        f"{skipped}, {report.actions} moves applied in both engines, in {report.seconds:.1f} s",
        "",
        *report.table(),
        "",
    ]
    shared = {i for p in report.pairs for i in p.ids}
    case = report.smallest()
    if case is None and not report.void:
        lines.append(f"no divergence: the {len(shared)} shared rule ids behave identically")
        return "\n".join(lines)
    if case is not None:
        bad = _sorted_ids(i for c in report.cases for i in c.ids)
        lines += [
            f"DIVERGENCE: {len(report.cases)} comparisons differ, blaming {', '.join(bad)}; "
            "the smallest:",
            *_show_case(case, diff),
        ]
    if report.void:
        void = min(report.void, key=lambda c: c.at.size)
        lines += [
            f"NOT INERT: on {len(report.void)} moves an edition-specific rule acted in a probe, "
            "so the shared rules could not be compared there; the smallest:",
            *_show_case(void, diff),
        ]
    return "\n".join(lines)


def _show_case(case: Case, diff: EditionDiff) -> list[str]:
    lines = [f"  rules: {_show_ids(case.ids)}", f"  compared: {case.what}"]
    if case.at.a == case.at.b:
        lines.append(f"  where: {case.at.a}")
    else:
        lines.append(f"  position ({diff.a}'s JSON form): {case.at.a}")
        lines.append(f"  position ({diff.b}'s JSON form): {case.at.b}")
    if case.action is not None:
        lines.append(f"  action ({diff.b}'s form): {case.action}")
    lines += [f"  {diff.a}: {case.result_a}", f"  {diff.b}: {case.result_b}"]
    lines += [f"  differs at {d}" for d in case.differences[:12]]
    return lines


@click.command("conform")
@click.argument("a")
@click.argument("b")
@click.option(
    "--games",
    "-g",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Random games to draw positions from (each also played from an empty supply).",
)
@click.option(
    "--seed",
    "-s",
    type=int,
    default=0,
    show_default=True,
    help="The first game's seed; game i uses seed + i.",
)
@click.option(
    "--plies",
    type=click.IntRange(0),
    default=100,
    show_default=True,
    help="At most this many moves per game.",
)
@click.option(
    "--players",
    "-p",
    type=click.IntRange(1),
    multiple=True,
    help="Player count (repeatable); default: each count both editions allow, in turn.",
)
def conform_command(
    a: str, b: str, games: int, seed: int, plies: int, players: tuple[int, ...]
) -> None:
    """Check that the rules edition B shares with A behave identically.

    A and B are edition names (editions/NAME.rules) or rule files. Exit 1 on
    any divergence, with the smallest diverging case.
    """
    path_a, path_b = _argument(a, "A"), _argument(b, "B")
    try:
        report = check_conformance(path_a, path_b, games, seed, plies, players)
    except CannotCompare as error:
        click.echo(f"cannot compare {a} and {b}: {error}", err=True)
        sys.exit(1)
    click.echo(format_report(report))
    sys.exit(1 if report.diverged else 0)
