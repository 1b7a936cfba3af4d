"""What a diff's declarations say, old -> new, as rule text.

`diff_editions` finds which declarations edition b renames, overrides, adds
and removes relative to a; here each of them is printed as rule text
(dsl/unparse.py) and an override's two texts are compared line by line, so
that `diff` shows what changed (`require supply(c) >= 4 -> require
supply(c) >= 3`), not only which rule ids. Edition a's text is printed in
b's names (the renames are listed on their own), so that a rename alone is
no change of a declaration. Declarations are listed in the order of the
rule ids they state (rulebook order); those that state none come last.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from attrs import frozen

from splendor_rules.compiler.frontend.editions import Entry, Key, ResolvedEdition
from splendor_rules.compiler.tools.conformance.diff import EditionDiff
from splendor_rules.dsl.unparse import unparse_declaration


@frozen
class LineChange:
    """A line of a declaration's text that differs: old -> new, or a line
    only one of the two has (the other None)."""

    old: str | None
    new: str | None


@frozen
class DeclarationChange:
    """A declaration b overrides, adds or removes, with its text."""

    status: str  # "overridden", "added" or "removed"
    key: Key  # in b's names (a's, for a removed one)
    ids_a: tuple[str, ...]
    ids_b: tuple[str, ...]
    old: tuple[str, ...]  # a's text (in b's names); empty for an added one
    new: tuple[str, ...]  # b's text; empty for a removed one
    lines: tuple[LineChange, ...]  # an override's changed lines
    placed: str | None = None  # a step placed `before X` or `after X`


@frozen
class EditionChanges:
    diff: EditionDiff
    declarations: tuple[DeclarationChange, ...]


def _text(entry: Entry, after: Callable[[str], str] = str) -> tuple[str, ...]:
    """A declaration's text, without its rule ids (shown apart), in the names
    of its edition, then through `after`."""
    decl = attrs.evolve(entry.decl, tags=())
    return tuple(unparse_declaration(decl, lambda name: after(entry.renames.apply(name))))


def line_changes(old: Sequence[str], new: Sequence[str]) -> tuple[LineChange, ...]:
    """The lines that differ, a replaced line paired with its replacement."""
    found: list[LineChange] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        gone, came = [x.strip() for x in old[i1:i2]], [x.strip() for x in new[j1:j2]]
        found += _paired(gone, came)
    return tuple(found)


# Two lines this alike (see _likeness) are one line changed; less alike,
# one line gone and another come.
ALIKE = 0.5
_TAGS = re.compile(r"\[[^]]*\] ")


def _likeness(old: str, new: str) -> float:
    """How alike two lines are, 0 to 1: the share of their characters in
    common (difflib's ratio); for two lines that start with the same word
    (the same statement, column or step, rule ids aside), the share of the
    shorter line found in the longer, so that a line extended is one line
    changed."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    if _TAGS.sub("", old).split(" ")[0] != _TAGS.sub("", new).split(" ")[0]:
        return matcher.ratio()
    common = sum(block.size for block in matcher.get_matching_blocks())
    return common / max(1, min(len(old), len(new)))


def _paired(gone: list[str], came: list[str]) -> list[LineChange]:
    """A run of replaced lines, each paired with the replacement most like
    it (in order, by the most likeness in all), the rest gone or come."""
    n, m = len(gone), len(came)
    like = [[_likeness(g, c) for c in came] for g in gone]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            pair = like[i][j] + best[i + 1][j + 1] if like[i][j] >= ALIKE else 0.0
            best[i][j] = max(pair, best[i + 1][j], best[i][j + 1])
    out: list[LineChange] = []
    i = j = 0
    while i < n and j < m:
        if like[i][j] >= ALIKE and best[i][j] == like[i][j] + best[i + 1][j + 1]:
            out.append(LineChange(gone[i], came[j]))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            out.append(LineChange(gone[i], None))
            i += 1
        else:
            out.append(LineChange(None, came[j]))
            j += 1
    out += [LineChange(g, None) for g in gone[i:]] + [LineChange(None, c) for c in came[j:]]
    return out


def describe_changes(diff: EditionDiff, a: ResolvedEdition, b: ResolvedEdition) -> EditionChanges:
    """The text of each declaration the diff names: old -> new."""
    in_a = {e.key: e for e in a.entries}
    in_b = {e.key: e for e in b.entries}
    renames = diff.renaming(*{r.kind for r in diff.renamed})

    def to_b(name: str) -> str:
        return renames.get(name, name)

    found = []
    for o in diff.overridden:
        old, new = _text(in_a[o.key_a], to_b), _text(in_b[o.key_b])
        lines = line_changes(old, new)
        found.append(
            DeclarationChange("overridden", o.key_b, o.ids_a, o.ids_b, old, new, lines, o.placed)
        )
    for d in diff.added:
        new = _text(in_b[d.key])
        found.append(DeclarationChange("added", d.key, (), d.ids, (), new, (), d.placed))
    for d in diff.removed:
        old = _text(in_a[d.key], to_b)
        found.append(DeclarationChange("removed", d.key, d.ids, (), old, (), ()))
    order = {status: i for i, status in enumerate(("overridden", "added", "removed"))}
    found.sort(key=lambda c: (order[c.status], _id_order(c.ids_b or c.ids_a)))
    return EditionChanges(diff, tuple(found))


def _id_order(ids: Sequence[str]) -> tuple[int, tuple[tuple[int, ...], str, str]]:
    """Rulebook order of a declaration's first rule id; none: last."""
    if not ids:
        return (1, ((), "", ""))
    letter, _, rest = ids[0].partition("-")
    digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    numbers = tuple(int(n) for n in digits.split(".") if n.isdigit())
    return (0, (numbers, rest[len(digits) :], letter))


def _describe(key: Key) -> str:
    kind, name = key
    return f"{kind} {name}" if name is not None else kind


def _ids(change: DeclarationChange) -> str:
    a, b = ", ".join(change.ids_a), ", ".join(change.ids_b)
    if change.status == "overridden" and a != b:
        return f" [{a or 'no rule id'} -> {b or 'no rule id'}]"
    shown = b or a
    return f" [{shown}]" if shown else ""


def _line(change: LineChange) -> str:
    if change.old is not None and change.new is not None:
        return f"{change.old} -> {change.new}"
    return f"- {change.old}" if change.old is not None else f"+ {change.new}"


def _body(change: DeclarationChange) -> list[str]:
    """What follows a declaration's heading: on its line if one line says
    it, else indented lines below."""
    if change.status == "overridden":
        if not change.lines:
            return [" the same text"]
        shown = [_line(line) for line in change.lines]
    else:
        shown = list(change.new or change.old)
    if len(shown) == 1:
        return [" " + shown[0]]
    return ["", *("    " + line for line in shown)]


def format_changes(changes: EditionChanges) -> str:
    """The differences as text: the renames, then each declaration
    overridden, added or removed with its text, then what is inherited."""
    diff = changes.diff
    out = [f"{diff.a} -> {diff.b}: {diff.relation}"]
    renamed = [f"  {r.kind} {r.old} -> {r.new}" for r in diff.renamed]
    out.append(f"renamed ({len(renamed)}):" if renamed else "renamed: none")
    out += renamed
    for status in ("overridden", "added", "removed"):
        declarations = [c for c in changes.declarations if c.status == status]
        out.append(f"{status} ({len(declarations)}):" if declarations else f"{status}: none")
        for change in declarations:
            verb = "moved" if status == "overridden" else "inserted"
            placed = f" {verb} {change.placed}" if change.placed else ""
            first, *rest = _body(change)
            out.append(f"  {_describe(change.key)}{placed}{_ids(change)}:{first}")
            out += rest
    ids = sorted(dict.fromkeys(diff.inherited_ids), key=lambda i: _id_order([i]))
    out.append(
        f"inherited unchanged ({len(diff.inherited)} declarations, {len(ids)} rule ids):"
        + (f" {', '.join(ids)}" if ids else "")
    )
    return "\n".join(out)


def changes_json(changes: EditionChanges) -> dict[str, Any]:
    """The differences as JSON, for tools."""
    diff = changes.diff

    def declaration(c: DeclarationChange) -> dict[str, Any]:
        kind, name = c.key
        return {
            "status": c.status,
            "kind": kind,
            "name": name,
            "ids_a": list(c.ids_a),
            "ids_b": list(c.ids_b),
            "placed": c.placed,
            "old": list(c.old),
            "new": list(c.new),
            "changes": [{"old": line.old, "new": line.new} for line in c.lines],
        }

    by_id: dict[str, list[dict[str, Any]]] = {}
    for c in changes.declarations:
        for rule_id in dict.fromkeys((*c.ids_a, *c.ids_b)):
            by_id.setdefault(rule_id, []).append(
                {"status": c.status, "kind": c.key[0], "name": c.key[1]}
            )
    return {
        "a": diff.a,
        "b": diff.b,
        "relation": diff.relation,
        "renamed": [{"kind": r.kind, "old": r.old, "new": r.new} for r in diff.renamed],
        "declarations": [declaration(c) for c in changes.declarations],
        # Each rule id a changed declaration states (before or after), in
        # rulebook order, and the declarations that state it.
        "by_rule_id": {i: by_id[i] for i in sorted(by_id, key=lambda i: _id_order([i]))},
        "inherited": [
            {"kind": i.key_b[0], "name": i.key_b[1], "ids": list(i.ids)} for i in diff.inherited
        ],
    }
