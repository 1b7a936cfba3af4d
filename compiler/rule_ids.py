"""Rule ids: their form, their uniqueness and their coverage of a rulebook.

Rule ids are part of the language, not comments: the compiler checks them
here and carries them into generated code and illegal-move messages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from dsl import syntax as s
from dsl.diagnostics import Diagnostic, did_you_mean

RULE_ID_FORM = re.compile(r"[A-Z]-\d+(?:\.\d+)*[a-z]?")


def rule_ids_in(node: object) -> Iterator[s.RuleId]:
    return (n for n in s.walk(node) if isinstance(n, s.RuleId))


def check_rule_ids(ids: Iterable[s.RuleId]) -> tuple[dict[str, s.Span], list[Diagnostic]]:
    """Every well-formed id with its place; errors for malformed or repeated ids."""
    seen: dict[str, s.Span] = {}
    diagnostics: list[Diagnostic] = []
    for rule_id in ids:
        if not RULE_ID_FORM.fullmatch(rule_id.text):
            diagnostics.append(Diagnostic(
                "error", f"malformed rule id '{rule_id.text}'", rule_id.span,
                "a rule id is a capital letter, a dash and numbers, like S-3.1 or M-4.1a"))
        elif rule_id.text in seen:
            first = seen[rule_id.text]
            diagnostics.append(Diagnostic(
                "error", f"rule id {rule_id.text} is stated twice", rule_id.span,
                f"it is already stated at {first}"))
        else:
            seen[rule_id.text] = rule_id.span
    return seen, diagnostics


def ids_in_reference(path: Path) -> list[str]:
    """The rule ids a rulebook defines: each id written in bold, **S-3.1**."""
    text = path.read_text(encoding="utf-8")
    found = re.findall(r"\*\*(" + RULE_ID_FORM.pattern + r")\b", text)
    return list(dict.fromkeys(found))


def check_coverage(
    stated: dict[str, s.Span], reference: list[str], prefixes: tuple[str, ...], where: s.Span
) -> list[Diagnostic]:
    """Each id of the rulebook with one of the prefixes must be stated, and no
    id may be stated that the rulebook lacks."""
    wanted = [i for i in reference if i[0] in prefixes]
    diagnostics = [
        Diagnostic("error", f"rule {i} of the reference is stated nowhere in this edition", where)
        for i in wanted
        if i not in stated
    ]
    for rule_id, span in stated.items():
        if rule_id not in wanted:
            diagnostics.append(Diagnostic(
                "error", f"rule id {rule_id} is not in the reference for this edition", span,
                did_you_mean(rule_id, wanted)))
    return diagnostics
