"""Rule text in one canonical layout, every comment kept (`splendor-rules fmt`).

The syntax tree is printed by dsl/unparse.py, the one printer of rule text:
indentation, spacing and parentheses are its own. The tree holds no
comments, so they are read again from the text (outside strings) and put
back beside the printed line that comes from the source line they were on:

- a comment alone on its line goes on its own line before the first printed
  line that does not end above it, at that line's indentation (inside the
  block, before a `}`);
- a comment after code goes at the end of the printed line that ends on
  its source line, two spaces after the code; if no printed line ends there
  (a comment inside an expression written over several lines), it goes on
  its own line before the line that holds it.

Blank lines: at most one in a row, kept where the source has one between two
lines (declarations, statements, comments), never before a `}` nor after a
block's `{` (the edition's own `{` may keep one), none at the start or the
end of the file.

Width: a line longer than WIDTH characters is broken inside the outermost
pair of parentheses with the longest contents, if those are at least
WRAP_MIN characters long: the arguments one a line, two spaces deeper, and
the `)` on a line of its own (a line break inside parentheses does not end a
statement); each line made is broken again the same way if still too long.
Failing that, a map in braces (a column's) is broken the same way, each line
but the last ending in `\\` (where a line break would end the declaration).
A string and a line with no such brackets stay whole.

Formatting never changes what a file means: the tree of the formatted text
is the tree of the original (tests/test_formatting.py checks the checked
models too), and formatting is idempotent.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict

from attrs import frozen

from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.parser import BYTE_ORDER_MARK, parse_edition
from splendor_rules.dsl.unparse import INDENT, Line, edition_lines

WIDTH = 100
WRAP_MIN = 40
TRAILING_GAP = "  "

# A string (whose `#` is no comment) or a comment, as dsl/grammar.lark's
# STRING and COMMENT terminals read them.
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


class Unparsable(ValueError):
    """The text does not parse: `diagnostic` is the parser's located message."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.headline())
        self.diagnostic = diagnostic


@frozen
class Comment:
    """A comment of the source: its line, its text (from `#`, without the
    spaces after it) and whether code comes before it on its line."""

    line: int
    text: str
    trailing: bool


def comments(text: str) -> list[Comment]:
    """Every comment of a rule file's text, in order."""
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    found = []
    for match in _STRING_OR_COMMENT.finditer(text):
        if not match.group().startswith("#"):
            continue
        line = bisect.bisect_right(starts, match.start())
        before = text[starts[line - 1] : match.start()]
        found.append(Comment(line, match.group().rstrip(), bool(before.strip())))
    return found


def format_source(text: str, path: str | None = None) -> str:
    """The text of a rule file in the canonical layout, with its comments.

    Raises Unparsable, with the parser's located message (naming `path`),
    when the text does not parse."""
    tree, diagnostics = parse_edition(text, path if path is not None else "<text>")
    if tree is None:
        raise Unparsable(diagnostics[0])
    text = text.removeprefix(BYTE_ORDER_MARK)
    return _Layout(text.splitlines()).text(edition_lines(tree), comments(text))


@frozen
class _Entry:
    """An output line before wrapping: printed code (with maybe a trailing
    comment) or a comment on its own line."""

    text: str
    depth: int
    first: int
    last: int
    opening: bool = False
    closing: bool = False
    comment: str | None = None  # a trailing comment
    alone: bool = False  # a comment on its own line (never wrapped)


class _Layout:
    """Comments put back among the printed lines, blank lines, wrapping."""

    def __init__(self, source: list[str]) -> None:
        self.source = source

    def text(self, lines: list[Line], found: list[Comment]) -> str:
        entries = self.entries(lines, found)
        out: list[str] = []
        for previous, entry in zip([None, *entries], entries, strict=False):
            if previous is not None and self.blank_between(previous, entry):
                out.append("")
            out.extend(self.physical(entry))
        return "\n".join(out) + "\n"

    def entries(self, lines: list[Line], found: list[Comment]) -> list[_Entry]:
        before: dict[int, list[Comment]] = defaultdict(list)
        after: dict[int, Comment] = {}
        end: list[Comment] = []
        for comment in found:
            if comment.trailing:
                at = _last_ending_on(lines, comment.line)
                if at is not None and at not in after:
                    after[at] = comment
                    continue
            at = _first_reaching(lines, comment.line)
            if at is None:
                end.append(comment)
            else:
                before[at].append(comment)
        entries: list[_Entry] = []
        for i, line in enumerate(lines):
            depth = line.depth + 1 if line.closing else line.depth
            entries.extend(_Entry(c.text, depth, c.line, c.line, alone=True) for c in before[i])
            trailing = after[i].text if i in after else None
            last = max(line.last, after[i].line) if i in after else line.last
            entries.append(
                _Entry(
                    line.text, line.depth, line.first, last, line.opening, line.closing, trailing
                )
            )
        entries.extend(_Entry(c.text, 0, c.line, c.line, alone=True) for c in end)
        return entries

    def blank_between(self, previous: _Entry, entry: _Entry) -> bool:
        """Does the source have a blank line between two entries that may
        have one?"""
        if entry.closing or (previous.opening and previous.depth > 0):
            return False
        if not previous.last or not entry.first or previous.last >= entry.first:
            return False
        gap = self.source[previous.last : entry.first - 1]
        return any(not line.strip() for line in gap)

    def physical(self, entry: _Entry) -> list[str]:
        """An entry's lines as written: wrapped to the width, a trailing
        comment at the end of the last."""
        if entry.alone:
            return [INDENT * entry.depth + entry.text]
        lines = wrap(entry.text, entry.depth)
        if entry.comment is not None:
            lines[-1] += TRAILING_GAP + entry.comment
        return lines


def _last_ending_on(lines: list[Line], line: int) -> int | None:
    """The last printed line that ends on a source line."""
    found = [i for i, printed in enumerate(lines) if printed.last == line]
    return found[-1] if found else None


def _first_reaching(lines: list[Line], line: int) -> int | None:
    """The first printed line (of known place) that does not end above a
    source line."""
    return next((i for i, printed in enumerate(lines) if printed.last >= line), None)


# ------------------------------------------------------------------ wrapping


def wrap(text: str, depth: int) -> list[str]:
    """A line, indented, broken inside parentheses if it is too long (the
    module's docstring says how)."""
    whole = INDENT * depth + text
    if len(whole) <= WIDTH:
        return [whole]
    for opening, ends in (("(", ""), ("{", " \\")):
        pair = _widest_pair(text, opening)
        if pair is not None and pair[1] - pair[0] - 1 >= WRAP_MIN:
            return _broken(text, depth, pair, ends)
    return [whole]


def _broken(text: str, depth: int, pair: tuple[int, int], ends: str) -> list[str]:
    """A line broken inside a pair of brackets, each line but the last
    ending with `ends` (a `\\` where a line break would end the statement)."""
    start, end = pair
    parts = _top_level_split(text[start + 1 : end])
    lines = [INDENT * depth + text[: start + 1] + ends]
    for i, part in enumerate(parts):
        comma = "," if i < len(parts) - 1 else ""
        made = wrap(part.strip() + comma, depth + 1)
        lines.extend(line + ends for line in made)
    lines.extend(wrap(text[end:], depth))
    return lines


def _scan(text: str) -> list[tuple[int, str]]:
    """The brackets and commas of a line outside its strings, with their
    places."""
    found = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == '"':
            match = _STRING_OR_COMMENT.match(text, i)
            i = match.end() if match else len(text)
            continue
        if char in "()[]{},":
            found.append((i, char))
        i += 1
    return found


def _widest_pair(text: str, opening: str) -> tuple[int, int] | None:
    """The outermost pair of brackets of a kind with the longest contents."""
    best: tuple[int, int] | None = None
    depth = 0
    start = 0
    for i, char in _scan(text):
        if char in "([{":
            if depth == 0:
                start = i
            depth += 1
        elif char in ")]}":
            depth -= 1
            wider = best is None or i - start > best[1] - best[0]
            if depth == 0 and text[start] == opening and wider:
                best = (start, i)
    return best


def _top_level_split(text: str) -> list[str]:
    """A bracket's contents cut at its own commas (not those nested deeper)."""
    parts = []
    depth = 0
    start = 0
    for i, char in _scan(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts
