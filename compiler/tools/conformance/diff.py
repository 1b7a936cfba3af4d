"""Edition diff: what one edition renames, overrides, adds and removes
relative to another, computed from the resolved editions.

The differences come from the changes the edition resolver records along an
inheritance chain; two editions neither of which extends the other are
compared declaration by declaration. Nothing here knows an edition.
"""

from __future__ import annotations

from pathlib import Path

from attrs import define, frozen

from splendor_rules.compiler.frontend.editions import Key, ResolvedEdition, renamed_key
from splendor_rules.compiler.frontend.identities import RENAMABLE_KINDS
from splendor_rules.compiler.frontend.rule_ids import rule_ids_in
from splendor_rules.dsl import syntax as s

# Renaming a tile set renames its reveal's key too.
_KEY_KINDS_RENAMED = {"tiles": ("tiles", "reveal")}


@frozen
class Renamed:
    """A name edition b gives to a declaration of edition a."""

    kind: str  # one of RENAMABLE_KINDS
    old: str
    new: str


@frozen
class Overridden:
    """A declaration both editions have under one key, written differently."""

    key_a: Key
    key_b: Key
    ids_a: tuple[str, ...]
    ids_b: tuple[str, ...]
    placed: str | None = None  # a step moved `before X` or `after X`


@frozen
class Declared:
    """A declaration only one of the two editions has."""

    key: Key
    ids: tuple[str, ...]
    placed: str | None = None  # a step inserted `before X` or `after X`


@frozen
class Inherited:
    """A declaration edition b has unchanged from edition a (names renamed)."""

    key_a: Key
    key_b: Key
    ids: tuple[str, ...]


@frozen
class EditionDiff:
    """What edition b renames, overrides, adds and removes relative to a."""

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
        if name is not None and kind in RENAMABLE_KINDS:
            found.append((kind, name))
    return found


@define
class _Slot:
    """A declaration followed down an inheritance chain."""

    key_a: Key | None  # its key in the first edition; None if added later
    ids_a: tuple[str, ...]
    ids: tuple[str, ...]
    changed: bool
    placed: str | None = None  # where the last change placed a step, in words


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
        slots = {renamed_key(k, step): slot for k, slot in slots.items()}
        removed = {renamed_key(k, step): slot for k, slot in removed.items()}
        for change in edition.changes:
            if change.kind == "add":
                slot = removed.pop(change.key, None)
                if slot is None:
                    slots[change.key] = _Slot(None, (), change.new_ids, True, change.placed)
                else:  # removed earlier in the chain, then declared again
                    slot.ids, slot.changed, slot.placed = change.new_ids, True, change.placed
                    slots[change.key] = slot
            elif change.kind == "override" and change.key in slots:
                slots[change.key].ids = change.new_ids
                slots[change.key].changed = True
                slots[change.key].placed = change.placed or slots[change.key].placed
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
            Overridden(slot.key_a, key, slot.ids_a, slot.ids, slot.placed)
            for key, slot in slots.items()
            if slot.key_a is not None and slot.changed
        ),
        added=tuple(
            Declared(key, slot.ids, slot.placed)
            for key, slot in slots.items()
            if slot.key_a is None
        ),
        removed=tuple(
            Declared(slot.key_a, slot.ids_a) for slot in removed.values() if slot.key_a is not None
        ),
        inherited=tuple(
            Inherited(slot.key_a, key, slot.ids_a)
            for key, slot in slots.items()
            if slot.key_a is not None and not slot.changed
        ),
    )


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
