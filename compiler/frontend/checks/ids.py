"""The rule ids of a resolved edition: well formed, stated once, and (when
the edition names reference rulebooks) covering them exactly, each rulebook
the ids of its own prefixes.

The checks themselves are in rule_ids.py; this module gathers the ids of
every declaration and says where to report a rule that an edition dropped
from its parent's.
"""

from __future__ import annotations

import functools

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.editions import Change, Entry, Key, declared_name
from splendor_rules.compiler.frontend.files import MAX_DATA_FILE_BYTES, Unreadable, read_named_text
from splendor_rules.compiler.frontend.rule_ids import (
    RULE_ID_FORM,
    Rulebook,
    check_coverage,
    check_rule_ids,
    ids_in_text,
    meant_ids,
    repaired,
    rule_ids_in,
    rule_texts,
)
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import walk


def check_ids(context: Context) -> dict[str, s.Span]:
    """Every rule id stated, with its place; the rulebooks read are kept in
    `context.rulebooks`, each with the ids it asks of the edition."""
    ids = [rule_id for entry in context.entries for rule_id in rule_ids_in(entry.decl)]
    stated, diagnostics = check_rule_ids(ids)
    context.diagnostics.extend(diagnostics)
    _check_citations(context, stated)
    references = [e.decl for e in context.of(s.Reference) if isinstance(e.decl, s.Reference)]
    if references:
        dropped = _Dropped(context)
        books = [_read(context, decl, dropped) for decl in references]
        _check_prefixes(
            context, [d for d, b in zip(references, books, strict=True) if b.wanted is not None]
        )
        context.diagnostics.extend(check_coverage(stated, books, meant_ids(ids)))
        context.rulebooks = [(b.file, b.wanted) for b in books if b.wanted is not None]
        context.rule_texts = [t for b in books for t in b.texts]
    return stated


def _check_citations(context: Context, stated: dict[str, s.Span]) -> None:
    """A rule cited (`[see O-3.3]`) is well formed, stated at some place of
    the edition, and cited by a requirement only: its refusal names it."""
    for entry in context.entries:
        for node in walk(entry.decl):
            cited = [t for t in getattr(node, "tags", ()) if t.cited]
            for rule_id in cited:
                if not RULE_ID_FORM.fullmatch(rule_id.text):
                    meant = repaired(rule_id.text)
                    context.report(msgs.malformed_rule_id(rule_id.span, rule_id.text, meant))
                elif not isinstance(node, s.Require):
                    context.report(msgs.citation_off_a_requirement(rule_id.span, rule_id.text))
                elif rule_id.text not in stated:
                    context.report(msgs.cited_rule_stated_nowhere(rule_id.span, rule_id.text))


def _check_prefixes(context: Context, references: list[s.Reference]) -> None:
    """Two references of an edition may not claim one prefix: reported at
    the second, once for each earlier reference it shares prefixes with.
    (A reference that cannot be read is reported as such, and only so.)"""
    first: dict[str, s.Reference] = {}
    for decl in references:
        shared: dict[int, list[str]] = {}  # earlier reference (by index) -> the prefixes
        for prefix in dict.fromkeys(decl.prefixes):
            if prefix in first:
                shared.setdefault(references.index(first[prefix]), []).append(prefix)
            else:
                first[prefix] = decl
        for index, prefixes in sorted(shared.items()):
            earlier = references[index]
            context.report(
                msgs.prefix_claimed_twice(
                    decl.path.span, prefixes, decl.path.value, earlier.path.value, earlier.path.span
                )
            )


def _read(context: Context, decl: s.Reference, dropped: _Dropped) -> Rulebook:
    """A reference's rulebook, read within bounds (None ids if it cannot be)."""
    path = decl.path
    try:
        _, text = read_named_text(path.span.file, path.value, MAX_DATA_FILE_BYTES)
    except Unreadable as error:
        context.report(msgs.unreadable_reference(path.span, path.value, error.reason, error.hint))
        wanted, texts = None, tuple[m.RuleText, ...]()
    else:
        wanted = tuple(i for i in ids_in_text(text) if i[0] in decl.prefixes)
        texts = rule_texts(text, path.value, wanted)
    locate = functools.partial(dropped.locate, decl)
    return Rulebook(path.value, decl.prefixes, wanted, locate, texts)


class _Dropped:
    """Where to report a rule id of the reference that no declaration
    states: at the remove or override of this edition that dropped it, else
    at this edition's name when the reference is inherited. The changes and
    the declarations are indexed once, so that many missing ids cost little."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.changes: dict[str, Change] = {}
        for change in context.edition.changes:
            for rule_id in change.old_ids:
                if rule_id not in change.new_ids:
                    self.changes.setdefault(rule_id, change)
        self.entries: dict[Key, Entry] = {}
        for entry in context.entries:
            self.entries.setdefault(entry.key, entry)

    def locate(self, reference: s.Reference, rule_id: str) -> tuple[s.Span, str | None]:
        edition = self.context.edition
        change = self.changes.get(rule_id)
        if change is not None:
            parent = edition.parent.name if edition.parent else msgs.PARENT
            if change.kind == "remove":
                return change.span, msgs.dropped_by_remove(change.key, parent)
            entry = self.entries.get(change.key)
            name = declared_name(entry.decl) if entry is not None else None
            return (name.span if name is not None else change.span), (
                msgs.dropped_by_override(change.key, parent, rule_id)
            )
        if reference.span.file != edition.file:
            return edition.span, msgs.reference_declared_at(reference.span)
        return reference.span, None
