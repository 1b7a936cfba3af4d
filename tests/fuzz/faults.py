"""Planted faults: changes to a generated engine's text that the random-edition
differential must catch.

Each fault is a function from an engine module's source to a faulty source,
applied after rendering and before importing (tests/fuzz/engines.py), so it
does not depend on how the back end builds the text: only on what the text
says. The rule-derived code is found by the comment the back end heads each
rule's function with (`# <file>.rules:<line> <rule ids>`, compiler/backend/
python/lower.py); template code is left alone, except where a fault is about
it (the gain cap).

- `dropped_parenthesis`: the emitter forgets to parenthesise: every pair of
  grouping parentheses whose loss changes the meaning is dropped, so that
  `(a - (b + c))` becomes `a - b + c` and `(not (x or y))` becomes `not x or y`.
- `swapped_comparison`: every `<` of a rule is emitted as `>`.
- `gain_cap_off_by_one`: a gain stops one token short of a kind's cap per
  player (`_CAP[kind] - have` becomes `_CAP[kind] - have - 1`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

Fault = Callable[[str], str]
_RULE_COMMENT = re.compile(r"^\s*# \S+\.rules:\d+")


class FaultNotPlanted(AssertionError):
    """The engine's text no longer has what the fault changes: update the
    fault to the back end's new text."""


def rule_lines(source: str) -> set[int]:
    """The numbers of the lines inside the functions the back end emits for
    rules: those whose body starts with a `# <file>.rules:<line>` comment."""
    lines = source.splitlines()
    found: set[int] = set()
    for i, line in enumerate(lines):
        if not (line.lstrip().startswith("def ") and i + 1 < len(lines)):
            continue
        if not _RULE_COMMENT.match(lines[i + 1]):
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > indent):
            found.add(j)
            j += 1
    return found


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _in_rules(source: str, change: Callable[[str], str]) -> str:
    """Apply a change to each line of rule-derived code."""
    lines = source.splitlines()
    for i in sorted(rule_lines(source)):
        lines[i] = change(lines[i])
    return "\n".join(lines) + "\n"


def _matching(text: str, start: int) -> int | None:
    """The index of the parenthesis that closes the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return None


def _groups(text: str) -> bool:
    """Is this a parenthesised operation (not a tuple, call or generator)?"""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return False
    return isinstance(node, ast.BinOp | ast.BoolOp | ast.Compare | ast.IfExp)


def _tree(line: str) -> str | None:
    """The line's syntax tree, taken alone (None if it is no statement)."""
    text = line.strip()
    if text.startswith("elif "):
        text = text[2:]
    if text.endswith(":"):
        text += " pass"
    try:
        return ast.dump(ast.parse(text))
    except SyntaxError:
        return None


def _drop_in_line(line: str) -> str:
    """Drop each pair of grouping parentheses whose loss changes what the
    line means (calls, tuples and generators keep theirs)."""
    out = line
    for found in reversed(list(re.finditer(r"(?<![\w\])])\(", line))):
        start = found.start()
        end = _matching(out, start)
        if end is None or not _groups(out[start : end + 1]):
            continue
        dropped = out[:start] + out[start + 1 : end] + out[end + 1 :]
        tree = _tree(dropped)
        if tree is not None and tree != _tree(out):
            out = dropped
    return out


def dropped_parenthesis(source: str) -> str:
    """(An engine with no such place is left as it is: its edition cannot
    show the fault.)"""
    return _in_rules(source, _drop_in_line)


def swapped_comparison(source: str) -> str:
    return _in_rules(source, lambda line: line.replace(" < ", " > "))


_CAP = re.compile(r"(_CAP\[\w+\] - [\w\[\]]+)")


def gain_cap_off_by_one(source: str) -> str:
    changed = _CAP.sub(r"\1 - 1", source)
    if changed == source:
        raise FaultNotPlanted("no `_CAP[kind] - held` in the engine's gains: update the fault")
    return changed


FAULTS: dict[str, Fault] = {
    "dropped parenthesis": dropped_parenthesis,
    "swapped comparison": swapped_comparison,
    "gain cap off by one": gain_cap_off_by_one,
}
