"""Completion: the keywords the grammar accepts at the cursor (asked of
Lark's interactive parser, fed the text before it), the names in scope
there, a card's columns after a dot, and rule ids inside brackets."""

from __future__ import annotations

import re
from functools import cache

from attrs import frozen
from lark.exceptions import LarkError

from splendor_rules.compiler.tools.lsp.analysis import Analysis
from splendor_rules.compiler.tools.lsp.features import rule_ids
from splendor_rules.dsl.parser import BYTE_ORDER_MARK, grammar_parser


@frozen
class Item:
    label: str
    kind: str  # "keyword", "rule", "column", "value", or a symbol's kind
    detail: str = ""


_WORD = re.compile(r"[A-Za-z0-9_.\-]*\Z")
_ATTRIBUTE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*\.\s*[A-Za-z0-9_]*\Z")
_IN_TAGS = re.compile(r"^\s*(?:override\s+)?\[[^\]]*\Z")
_PUNCTUATION_ONLY = re.compile(r"[^A-Za-z]*")


@cache
def grammar_words() -> dict[str, tuple[str, ...]]:
    """The words each keyword terminal of the grammar stands for."""
    words: dict[str, tuple[str, ...]] = {}
    for definition in grammar_parser().terminals:
        value = str(definition.pattern.value)
        if definition.pattern.type == "str":
            found = (value,) if re.fullmatch(r"[a-z][a-z -]*", value) else ()
        else:
            listed = re.fullmatch(r"\(\?:([a-z|\\ -]+)\)", value)
            found = tuple(listed.group(1).replace("\\", "").split("|")) if listed else ()
        if found:
            words[definition.name] = found
    return words


def accepted(prefix: str) -> set[str] | None:
    """The terminals the grammar accepts after a text, or None if the text
    does not parse as the start of a rule file."""
    try:
        parser = grammar_parser().parse_interactive(
            prefix.removeprefix(BYTE_ORDER_MARK), start="start"
        )
        parser.exhaust_lexer()
        return set(parser.accepts())  # type: ignore[no-untyped-call]
    except LarkError:
        return None


def complete(analysis: Analysis, text: str, line: int, column: int) -> list[Item]:
    """What may be written at (line, column) of `text`; `analysis` is the
    latest that parsed (for the names, which a half-written line lacks)."""
    lines = text.split("\n")
    before = lines[line - 1][: column - 1] if line <= len(lines) else ""
    index = analysis.index
    if _IN_TAGS.search(before):
        return [Item(rule_id, "rule", title) for rule_id, title in rule_ids(index)] if index else []
    if _ATTRIBUTE.search(before):
        return _attributes(analysis)
    word = _WORD.search(before)
    start = column - 1 - (len(word.group()) if word else 0)
    prefix = "\n".join([*lines[: line - 1], lines[line - 1][:start] if line <= len(lines) else ""])
    terminals = accepted(prefix)
    if terminals is None:  # a mistake before: the current declaration alone
        terminals = accepted(_HEADER + _declaration(prefix))
    items = _keywords(terminals)
    if terminals is None or "NAME" in terminals:
        items.extend(_names(analysis, line, column))
    return items


_HEADER = 'edition completing "" {\n'
_STRINGS = re.compile(r'"([^"\\\n]|\\.)*"')


def _declaration(prefix: str) -> str:
    """The text of the top-level declaration the prefix ends in: from the
    last line that starts at brace depth 1 (strings and comments aside)."""
    lines = prefix.split("\n")
    depth, start = 0, 0
    for number, line in enumerate(lines):
        if depth <= 1 and line.strip():
            start = number
        code = _STRINGS.sub("", line).split("#")[0]
        depth += code.count("{") - code.count("}")
    return "\n".join(lines[start:])


def _keywords(terminals: set[str] | None) -> list[Item]:
    words = grammar_words()
    chosen = words if terminals is None else {t: words[t] for t in terminals if t in words}
    labels = sorted({w for found in chosen.values() for w in found})
    return [Item(label, "keyword") for label in labels]


def _names(analysis: Analysis, line: int, column: int) -> list[Item]:
    index = analysis.index
    if index is None:
        return []
    items = [Item(b.name, "local") for b in index.locals_at(analysis.file, line, column)]
    items += [Item(name, kind) for name, kind in sorted(index.kinds.items())]
    return list(dict.fromkeys(items))


def _attributes(analysis: Analysis) -> list[Item]:
    index = analysis.index
    if index is None:
        return []
    items = [
        Item(key[2], "column", "cards" if key[1] == "cards" else f"tiles {key[1]}")
        for key in index.columns
    ]
    items += [Item(name, "value", f"card value: {v.kind}") for name, v in index.values.items()]
    return list(dict.fromkeys(items))
