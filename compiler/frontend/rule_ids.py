"""Rule ids: their form, their uniqueness and their coverage of a rulebook.

Rule ids are part of the language, not comments: the compiler checks them
here and carries them into generated code and illegal-move messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.visitor import walk

RULE_ID_FORM = re.compile(r"[A-Z]-\d+(?:\.\d+)*[a-z]?")


def rule_ids_in(node: object) -> Iterator[s.RuleId]:
    """The ids a node and its parts state (not those they only cite)."""
    return (n for n in walk(node) if isinstance(n, s.RuleId) and not n.cited)


def cited_ids_in(node: object) -> Iterator[s.RuleId]:
    """The ids a node's requirements cite (`[see O-3.3]`): stated elsewhere."""
    return (n for n in walk(node) if isinstance(n, s.RuleId) and n.cited)


def check_rule_ids(ids: Iterable[s.RuleId]) -> tuple[dict[str, s.Span], list[Diagnostic]]:
    """Every well-formed id with its place; errors for malformed or repeated ids."""
    seen: dict[str, s.Span] = {}
    diagnostics: list[Diagnostic] = []
    for rule_id in ids:
        if not RULE_ID_FORM.fullmatch(rule_id.text):
            meant = repaired(rule_id.text)
            diagnostics.append(msgs.malformed_rule_id(rule_id.span, rule_id.text, meant))
        elif rule_id.text in seen:
            first = seen[rule_id.text]
            diagnostics.append(msgs.rule_id_twice(rule_id.span, rule_id.text, first))
        else:
            seen[rule_id.text] = rule_id.span
    return seen, diagnostics


def meant_ids(ids: Iterable[s.RuleId]) -> set[str]:
    """The well-formed ids that malformed ones surely mean: the coverage
    check does not report them missing as well."""
    malformed = (i.text for i in ids if not RULE_ID_FORM.fullmatch(i.text))
    return {meant for text in malformed if (meant := repaired(text))}


def repaired(text: str) -> str | None:
    """The well-formed id a malformed one surely means (a missing or wrong
    dash, a lower-case letter), or None."""
    found = re.fullmatch(r"([A-Za-z])[-_.]?(\d+(?:\.\d+)*)([A-Za-z]?)", text)
    if found is None:
        return None
    letter, numbers, suffix = found.groups()
    return f"{letter.upper()}-{numbers}{suffix.lower()}"


def ids_in_reference(path: Path) -> list[str]:
    """The rule ids a rulebook defines: each id written in bold, **S-3.1**."""
    return ids_in_text(path.read_text(encoding="utf-8"))


def ids_in_text(text: str) -> list[str]:
    """The rule ids a rulebook's text defines (see ids_in_reference)."""
    found = re.findall(r"\*\*(" + RULE_ID_FORM.pattern + r")\b", text)
    return list(dict.fromkeys(found))


# An id in bold with the words after it in the same bold (its title): at
# most 200 characters without a `*`, so that a hostile text costs linear time.
_BOLD_ID = re.compile(r"\*\*(" + RULE_ID_FORM.pattern + r")\b([^*]{0,200})\*\*")


def _blocks(text: str) -> Iterator[str]:
    """A rulebook's list items and paragraphs, each as one line: a block
    starts at a list item, a heading or after a blank line, and goes on over
    the lines that start none of these."""
    block: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        starts = not stripped or line.startswith(("- ", "#", "|"))
        if starts and block:
            yield " ".join(block)
            block = []
        if stripped:
            block.append(stripped)
    if block:
        yield " ".join(block)


def rule_texts(text: str, reference: str, wanted: Collection[str]) -> tuple[m.RuleText, ...]:
    """The text of each id in `wanted` that the rulebook's text defines, in
    its order: the bold words after the id are its title; its text runs to
    the next id or the end of its block, bold marks removed."""
    found: dict[str, m.RuleText] = {}
    for block in _blocks(text):
        marks = list(_BOLD_ID.finditer(block))
        ends = [mark.start() for mark in marks[1:]] + [len(block)] * bool(marks)
        for mark, end in zip(marks, ends, strict=True):
            rule_id = mark.group(1)
            if rule_id not in wanted or rule_id in found:
                continue
            body = block[mark.end() : end]
            title = mark.group(2).strip().rstrip(".").strip()
            words = " ".join(body.replace("**", "").split())
            found[rule_id] = m.RuleText(rule_id, reference, title, words)
    return tuple(found.values())


@frozen
class Rulebook:
    """One reference of an edition, read: the ids it defines with one of its
    prefixes (None when its file could not be read, which is reported
    already), and where to report an id of it that no declaration states."""

    file: str  # as the rule file writes it
    prefixes: tuple[str, ...]
    wanted: tuple[str, ...] | None
    locate: Callable[[str], tuple[s.Span, str | None]]
    texts: tuple[m.RuleText, ...] = ()  # the text of each id wanted


def check_coverage(
    stated: dict[str, s.Span], books: Sequence[Rulebook], meant: Collection[str] = ()
) -> list[Diagnostic]:
    """Each id of each rulebook with one of its prefixes must be stated, and
    no id may be stated that the rulebook claiming its prefix lacks (or whose
    prefix no rulebook claims). A missing id is reported where the rulebook's
    `locate` says; not at all if a malformed id surely `meant` it (that one is
    reported already). With one rulebook the messages do not name its file."""
    several = len(books) > 1
    diagnostics = []
    for book in books:
        for rule_id in book.wanted or ():
            if rule_id not in stated and rule_id not in meant:
                span, hint = book.locate(rule_id)
                shown = book.file if several else None
                diagnostics.append(msgs.rule_stated_nowhere(span, rule_id, hint, shown))
    claims: dict[str, frozenset[str] | None] = {}  # prefix -> the ids of its rulebook
    for book in books:
        known = frozenset(book.wanted) if book.wanted is not None else None
        for prefix in book.prefixes:
            claims.setdefault(prefix, known)
    every = [i for book in books for i in book.wanted or ()]
    for rule_id, span in stated.items():
        prefix = rule_id[0]
        if prefix in claims and (claims[prefix] is None or rule_id in (claims[prefix] or ())):
            continue
        files = [b.file for b in books] if several else None
        diagnostics.append(msgs.rule_id_not_in_reference(span, rule_id, every, files))
    return diagnostics
