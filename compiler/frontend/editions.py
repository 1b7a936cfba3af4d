"""Edition resolution: a rule file and its ancestors -> one ordered list of
declarations.

An edition that `extends` another inherits every declaration of its parent and
states only what differs: `override` replaces a declaration in place, `remove`
drops one, `rename` gives an inherited name a new one (and every inherited
reference follows it), and anything else is added. A declaration is known by
its key: its kind, and its name where an edition may have several of a kind
(a reference is known by its file, so an edition may answer to several
rulebooks). Each change is recorded as a Change, so that the differences
between two editions can be listed from the rule files alone.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Literal

from attrs import define, evolve, frozen

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend.files import (
    BYTE_ORDER_MARK,
    MAX_RULE_FILE_BYTES,
    Unreadable,
    named_file,
    read_bytes,
    read_start,
)
from splendor_rules.compiler.frontend.identities import RENAMABLE_KINDS
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, display_path
from splendor_rules.dsl.parser import parse_edition

Key = tuple[str, str | None]
# Parsed rule files by (the file as diagnostics show it, its text).
ParseCache = MutableMapping[tuple[str, str], tuple[s.Edition | None, list[Diagnostic]]]

# Kinds of declaration that an edition holds at most one of.
_SINGLETONS = {
    s.Players: "players",
    s.Colours: "colours",
    s.Supply: "supply",
    s.SeatSetup: "setup",
    s.Cards: "cards",
    s.Market: "market",
    s.Refill: "refill",
    s.TurnOrder: "turn order",
    s.Randomness: "randomness",
    s.Hidden: "hidden",
    s.Decisions: "decisions",
    s.Score: "score",
    s.Winners: "winners",
}

# Kinds of declaration that are told apart by a name.
NAMED_KINDS = {
    s.Token: "token",
    s.Tiles: "tiles",
    s.Zone: "zone",
    s.Action: "action",
    s.Trigger: "trigger",
    s.Majority: "majority",
    s.Step: "step",
    s.Define: "define",
    s.Ending: "end",
    s.CardValue: "card value",
}


def declared_name(decl: s.Decl) -> s.Name | None:
    """The name a declaration is known by, for the kinds that have one."""
    if isinstance(decl, s.Reveal):
        return decl.tiles
    if type(decl) in NAMED_KINDS:
        name = getattr(decl, "name", None)
        return name if isinstance(name, s.Name) else None
    return None


def key_of(decl: s.Decl) -> Key:
    if isinstance(decl, s.Reveal):
        return ("reveal", decl.tiles.text)
    if isinstance(decl, s.Reference):  # an edition may name several rulebooks
        return ("reference", decl.path.value)
    if isinstance(decl, s.Cards | s.Market) and decl.name is not None:
        return (_SINGLETONS[type(decl)], decl.name.text)  # a further table or market
    if type(decl) in _SINGLETONS:
        return (_SINGLETONS[type(decl)], None)
    name = declared_name(decl)
    return (NAMED_KINDS[type(decl)], name.text if name else None)


def renamed_key(key: Key, step: Mapping[str, str]) -> Key:
    """A key after one edition's renames (by name, whatever the kind); a
    reference's key is its file, which no rename renames."""
    kind, name = key
    if name is None or kind == "reference":
        return key
    return (kind, step.get(name, name))


def describe_key(key: Key) -> str:
    """A declaration by its key, as messages and reports name it."""
    return msgs.describe_key(key)


@frozen
class Renames:
    """The renames an inherited declaration's names pass through, oldest
    first: a name written in the declaring edition -> its name here."""

    steps: tuple[Mapping[str, str], ...] = ()

    def apply(self, name: str) -> str:
        for step in self.steps:
            name = step.get(name, name)
        return name

    def original(self, name: str) -> str:
        """The inverse: the name as the declaring edition wrote it."""
        for step in reversed(self.steps):
            for old, new in step.items():
                if new == name:
                    name = old
                    break
        return name

    def then(self, step: Mapping[str, str]) -> Renames:
        return Renames((*self.steps, step)) if step else self


@frozen
class Entry:
    """One declaration of the resolved edition and where it came from."""

    decl: s.Decl
    edition: str  # the edition whose file wrote it
    renames: Renames  # to apply to the names the declaration uses
    key: Key  # after renames


ChangeKind = Literal["rename", "override", "remove", "add"]


@frozen
class Change:
    """What an edition changes relative to its parent."""

    kind: ChangeKind
    key: Key  # the key in the child (for rename and remove: in the parent)
    span: s.Span
    old_ids: tuple[str, ...] = ()
    new_ids: tuple[str, ...] = ()
    new_name: str | None = None  # rename only
    placed: str | None = None  # a step added or overridden `before X` or `after X`


@frozen
class ResolvedEdition:
    name: str
    title: str
    file: str
    span: s.Span
    parent: ResolvedEdition | None
    entries: tuple[Entry, ...]
    changes: tuple[Change, ...]
    titles: Mapping[str, str]  # display titles given by renames, by new name


# An edition may extend one that extends another, and so on, this deep at most.
MAX_ANCESTORS = 100


class EditionLoader:
    """Reads rule files and resolves their inheritance, memoising each file.

    A parent named in `extends` is looked for as `<name>.rules` beside the
    child, then in each search directory in turn. A chain of parents is
    followed in a loop, not by recursion, and at most MAX_ANCESTORS deep.
    """

    def __init__(
        self,
        search: list[Path],
        sources: Sources,
        texts: Mapping[Path, str] | None = None,
        parsed: ParseCache | None = None,
    ) -> None:
        self.search = search
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        self._done: dict[Path, ResolvedEdition | None] = {}
        # An editor's unsaved text of a file (by resolved path), read instead of the disk.
        self.texts = texts or {}
        # Trees of texts parsed before, kept by the caller across runs (a
        # language server checks the same parents after each keystroke).
        self.parsed = parsed

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def find_parent(self, name: str, child: Path) -> Path | None:
        for folder in [child.parent, *self.search]:
            candidate = folder / f"{name}.rules"
            if candidate.is_file():
                return candidate.resolve()
        return None

    def known_editions(self, child: Path) -> list[str]:
        """The names of the editions an `extends` beside `child` could name."""
        return [p.stem for folder in [child.parent, *self.search] for p in folder.glob("*.rules")]

    def load(self, path: Path, display: str | None = None) -> ResolvedEdition | None:
        """The resolved edition of a rule file, or None (and diagnostics)."""
        path = path.resolve()
        chain: list[_Pending] = []  # the file, then its ancestors not yet loaded
        current: Path | None = path
        while current is not None and current not in self._done:
            file = display if current == path and display else display_path(current)
            tree = self.parse(current, file)
            if tree is None:
                self._done[current] = None
                break
            pending = _Pending(current, file, tree)
            self.find_parent_of(pending, [p.path for p in chain])
            if pending.parent is not None and len(chain) == MAX_ANCESTORS:
                first = chain[0].tree.parent
                assert first is not None
                self.report(msgs.too_many_ancestors(first.span, MAX_ANCESTORS))
                pending.broken = True
            chain.append(pending)
            current = None if pending.broken else pending.parent
        for pending in reversed(chain):
            parent = self._done.get(pending.parent) if pending.parent else None
            resolved = None
            if not pending.broken and (pending.parent is None or parent is not None):
                resolved = _Merge(self, pending.tree, pending.file, parent).run()
            self._done[pending.path] = resolved
        return self._done.get(path)

    def parse(self, path: Path, file: str) -> s.Edition | None:
        """The syntax tree of one rule file, read within bounds."""
        where = s.Span(file, 1, 1, 1, 2)
        text = self.texts.get(path)
        try:
            if text is None:
                text = read_bytes(path, MAX_RULE_FILE_BYTES).decode("utf-8")
        except Unreadable as error:
            self.report(msgs.unreadable_rule_file(where, error.reason))
            return None
        except UnicodeDecodeError as error:
            self.report(msgs.not_utf8(where, error.reason))
            return None
        text = text.removeprefix(BYTE_ORDER_MARK)
        self.sources.add(file, text)
        tree, errors = self._parse(text, file)
        self.diagnostics.extend(errors)
        if tree is not None:
            self.diagnostics.extend(edition_name_errors(tree.name))
        return tree

    def _parse(self, text: str, file: str) -> tuple[s.Edition | None, list[Diagnostic]]:
        if self.parsed is None:
            return parse_edition(text, file)
        found = self.parsed.get((file, text))
        if found is None:
            found = self.parsed[(file, text)] = parse_edition(text, file)
        return found[0], list(found[1])

    def find_parent_of(self, pending: _Pending, children: list[Path]) -> None:
        """Set the path of the edition a file extends, or mark the chain
        broken, reported, when there is no such file or the chain loops."""
        tree = pending.tree
        if tree.parent is None:
            return
        pending.parent = self.find_parent(tree.parent.text, pending.path)
        if pending.parent is None:
            known = self.known_editions(pending.path)
            self.report(msgs.unknown_edition(tree.parent.span, tree.parent.text, known))
            pending.broken = True
        elif pending.parent == pending.path or pending.parent in children:
            self.report(msgs.extends_itself(tree.parent.span, tree.name.text, tree.parent.text))
            pending.broken = True


@define
class _Pending:
    """A rule file read, waiting for its parent to be resolved first."""

    path: Path
    file: str  # as diagnostics show it
    tree: s.Edition
    parent: Path | None = None  # the file of the edition it extends
    broken: bool = False  # reported: its parent cannot be found, or loops


# Names that an edition may not take: each edition's engine is a module of the
# generated package, named after the edition, and the package's own
# __init__.py (compiler/backend/python/templates/package.py.j2) binds these.
RESERVED_EDITION_NAMES = frozenset(
    {"annotations", "editions", "importlib", "load_edition", "pkgutil"}
)
EDITION_NAME = re.compile(r"[a-z][a-z0-9_]*")
MAX_EDITION_NAME = 64  # characters: it names files


def edition_name_errors(name: s.Name) -> list[Diagnostic]:
    """An edition's name must be able to name its engine's module: a
    lower-case word that is no keyword of Python and nothing the package has."""
    text = name.text
    if not EDITION_NAME.fullmatch(text):
        reason = msgs.EDITION_NAME_FORM
    elif len(text) > MAX_EDITION_NAME:
        reason = msgs.edition_name_too_long(MAX_EDITION_NAME)
    elif keyword.iskeyword(text):
        reason = msgs.EDITION_NAME_KEYWORD
    elif text in RESERVED_EDITION_NAMES:
        reason = msgs.EDITION_NAME_TAKEN
    else:
        return []
    return [msgs.bad_edition_name(name.span, text, reason, _valid_name(text))]


# The start of a rule file, up to its edition's name: blank lines and comments,
# then `edition NAME`. Looked for in the first bytes of a file only.
_HEADER = re.compile(r"\A(?:\s|#[^\n]*)*edition\s+([A-Za-z_][A-Za-z0-9_]*)")
_HEADER_BYTES = 16 * 1024


def declared_edition_name(path: Path) -> str | None:
    """The name of the edition a rule file declares, read from its start only
    (to compare names across a folder without parsing every file in it)."""
    text = read_start(path, _HEADER_BYTES).decode("utf-8", errors="replace")
    found = _HEADER.match(text.removeprefix(BYTE_ORDER_MARK))
    return found.group(1) if found else None


def same_name_beside(path: Path, name: s.Name) -> list[Diagnostic]:
    """An error if another rule file in the same folder declares an edition
    of the same name: an engine, and a parent, are found by the name."""
    here = path.resolve()
    folder = here.parent
    for other in sorted(path.parent.glob("*.rules")):
        found = other.resolve()
        if found == here or not found.is_relative_to(folder):  # read nothing outside
            continue
        if declared_edition_name(found) == name.text:
            return [msgs.same_edition_name(name.span, name.text, display_path(other))]
    return []


def _valid_name(text: str) -> str:
    """A valid edition name close to `text`, for a hint."""
    word = re.sub(r"[^a-z0-9_]+", "_", text.lower()).strip("_")[:MAX_EDITION_NAME]
    word = word.lstrip("0123456789_") or "edition"
    if keyword.iskeyword(word) or word in RESERVED_EDITION_NAMES:
        word = f"{word}_edition"
    return word


class _Merge:
    """Applies one edition's items to its parent's declarations."""

    def __init__(
        self, loader: EditionLoader, tree: s.Edition, file: str, parent: ResolvedEdition | None
    ) -> None:
        self.loader = loader
        self.tree = tree
        self.file = file
        self.parent = parent
        self.entries: list[Entry] = []
        self.changes: list[Change] = []
        self.titles: dict[str, str] = dict(parent.titles) if parent else {}
        self.step: dict[str, str] = {}

    def report(self, diagnostic: Diagnostic) -> None:
        self.loader.report(diagnostic)

    def run(self) -> ResolvedEdition:
        items = self.tree.items
        if self.parent is not None:
            # Renames first, wherever they are written: they decide the
            # names every other item of this file refers to.
            for item in items:
                if isinstance(item, s.Rename):
                    self.rename(item)
            self.entries = [self.inherit(entry) for entry in self.parent.entries]
        parent_keys = {entry.key for entry in self.entries}
        seen: dict[Key, s.Span] = {}
        for item in items:
            if isinstance(item, s.Rename):
                if self.parent is None:
                    self.report(msgs.needs_parent(item.span, "rename"))
                continue
            if isinstance(item, s.Remove):
                self.remove(item, parent_keys)
                continue
            decl = item.decl if isinstance(item, s.Override) else item
            key = key_of(decl)
            if key in seen:
                self.report(msgs.declared_twice(_where(decl), key, seen[key]))
                continue
            seen[key] = _where(decl)
            if isinstance(item, s.Override):
                self.override(item, key, parent_keys)
            elif key in parent_keys:
                first = next((_where(e.decl) for e in self.entries if e.key == key), None)
                self.report(msgs.declared_by_parent(_where(decl), key, self.parent_name, first))
            else:
                placed = self.place(Entry(decl, self.tree.name.text, Renames(), key), None)
                self.changes.append(
                    Change("add", key, decl.span, new_ids=_ids(decl), placed=placed)
                )
        return ResolvedEdition(
            name=self.tree.name.text,
            title=self.tree.title.value,
            file=self.file,
            span=self.tree.name.span,
            parent=self.parent,
            entries=tuple(self.entries),
            changes=tuple(self.changes),
            titles=self.titles,
        )

    @property
    def parent_name(self) -> str:
        return self.parent.name if self.parent else ""

    def inherit(self, entry: Entry) -> Entry:
        new_key = renamed_key(entry.key, self.step)
        return evolve(entry, renames=entry.renames.then(self.step), key=new_key)

    def parent_names(self, kind: str) -> list[str]:
        """The names of a renamable kind that the parent declares."""
        assert self.parent is not None and kind in RENAMABLE_KINDS, kind
        if kind == "colour":
            return [
                entry.renames.apply(n.text)
                for entry in self.parent.entries
                if isinstance(entry.decl, s.Colours)
                for n in entry.decl.names
            ]
        return [n for k, n in (e.key for e in self.parent.entries) if k == kind and n]

    def rename(self, item: s.Rename) -> None:
        known = self.parent_names(item.kind)
        for renaming in item.renamings:
            old, new = renaming.old.text, renaming.new.text
            if old not in known:
                self.report(
                    msgs.nothing_to_rename(
                        renaming.old.span, self.parent_name, item.kind, old, known
                    )
                )
                continue
            if old in self.step:
                self.report(msgs.renamed_twice(renaming.old.span, item.kind, old))
                continue
            if new in known or new in self.step.values():
                self.report(msgs.rename_to_taken_name(renaming.new.span, item.kind, old, new))
                continue
            self.step[old] = new
            if renaming.title is not None:
                self.titles[new] = renaming.title.value
            self.changes.append(Change("rename", (item.kind, old), renaming.span, new_name=new))

    def remove(self, item: s.Remove, parent_keys: set[Key]) -> None:
        if self.parent is None:
            self.report(msgs.needs_parent(item.span, "remove"))
            return
        kind = item.kind.text
        named = item.file.value if item.file else item.name.text if item.name else None
        key: Key = (kind, named)
        if key not in parent_keys:
            candidates = [n for k, n in parent_keys if k == kind and n]
            written = item.file or item.name
            where = written.span if written else item.span
            self.report(msgs.nothing_to_change(where, self.parent_name, key, "remove", candidates))
            return
        removed = next((e for e in self.entries if e.key == key), None)
        if removed is None:
            self.report(msgs.already_removed(item.span, key))
            return
        self.entries = [e for e in self.entries if e.key != key]
        self.changes.append(Change("remove", key, item.span, old_ids=_ids(removed.decl)))

    def override(self, item: s.Override, key: Key, parent_keys: set[Key]) -> None:
        decl = item.decl
        if self.parent is None:
            self.report(msgs.needs_parent(item.span, "override"))
            return
        if key not in parent_keys:
            if isinstance(decl, s.Reference) and not _names_a_file(decl):
                # A path that names no file matches none: the checker reports
                # the path, where it reads the references.
                self.entries.append(Entry(decl, self.tree.name.text, Renames(), key))
                self.changes.append(Change("add", key, decl.span, new_ids=_ids(decl)))
                return
            candidates = [n for k, n in parent_keys if k == key[0] and n]
            self.report(
                msgs.nothing_to_change(_where(decl), self.parent_name, key, "override", candidates)
            )
            return
        index = next((i for i, e in enumerate(self.entries) if e.key == key), None)
        if index is None:
            self.report(msgs.override_of_removed(_where(decl), key))
            return
        old = self.entries[index]
        placed = self.place(Entry(decl, self.tree.name.text, Renames(), key), index)
        self.changes.append(
            Change(
                "override",
                key,
                decl.span,
                old_ids=_ids(old.decl),
                new_ids=_ids(decl),
                placed=placed,
            )
        )

    def place(self, entry: Entry, index: int | None) -> str | None:
        """Put an added entry last, or an overriding one at `index` (the
        place of the one it replaces); a step that says `before X` or `after
        X` goes there instead. Returns where it was placed, in words, if it
        said so."""
        decl = entry.decl
        if index is not None:
            self.entries[index] = entry
        else:
            self.entries.append(entry)
        if not isinstance(decl, s.Step) or decl.place is None:
            return None
        where = decl.place
        name, other = decl.name.text, where.other.text
        steps = [n for kind, n in (e.key for e in self.entries) if kind == "step" and n]
        if other == name:
            self.report(msgs.step_placed_beside_itself(where.other.span, name, where.side))
            return None
        if other not in steps:
            known = [n for n in steps if n != name]
            later = any(
                isinstance(d, s.Step) and d.name.text == other
                for d in (i.decl if isinstance(i, s.Override) else i for i in self.tree.items)
            )
            self.report(
                msgs.no_step_to_place_beside(
                    where.other.span, name, where.side, other, known, later
                )
            )
            return None
        self.entries = [e for e in self.entries if e is not entry]
        target = next(i for i, e in enumerate(self.entries) if e.key == ("step", other))
        self.entries.insert(target if where.side == "before" else target + 1, entry)
        return f"{where.side} {other}"


def _names_a_file(decl: s.Reference) -> bool:
    """Whether a reference's path may name a file (within the folder)."""
    try:
        named_file(decl.path.span.file, decl.path.value)
    except Unreadable:
        return False
    return True


def _where(decl: s.Decl) -> s.Span:
    """Where to point at a declaration: its name (a reference: its file),
    if it has one."""
    if isinstance(decl, s.Reference):
        return decl.path.span
    name = declared_name(decl)
    return name.span if name is not None else decl.span


def _ids(decl: s.Decl) -> tuple[str, ...]:
    """Every rule id a declaration states, its own and its parts'."""
    from splendor_rules.compiler.frontend.rule_ids import rule_ids_in

    return tuple(rule_id.text for rule_id in rule_ids_in(decl))
