"""Diagnostics: located messages about a rule file, in the gcc form.

Every stage reports a user's mistake as a Diagnostic and keeps going where it
can, so that one run shows every mistake; nothing here raises for bad input.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Literal

from attrs import frozen

from splendor_rules.dsl.syntax import Span

Severity = Literal["error", "warning"]


@frozen
class Note:
    """A place a diagnostic points to besides its own (gcc's "note: first
    declared here"), shown after it with its own source line and caret."""

    message: str
    span: Span

    def headline(self) -> str:
        return visible(f"{self.span}: note: {self.message}")


@frozen
class Diagnostic:
    severity: Severity
    message: str
    span: Span
    hint: str | None = None
    notes: tuple[Note, ...] = ()

    def headline(self) -> str:
        hint = f" ({self.hint})" if self.hint else ""
        return visible(f"{self.span}: {self.severity}: {self.message}{hint}")


class Sources:
    """The text of every file read, so a diagnostic can quote its line."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        # Each file's lines, split once on first use: a file with thousands
        # of diagnostics is not split again for each of them.
        self._lines: dict[str, list[str]] = {}

    def add(self, file: str, text: str) -> None:
        self._texts[file] = text
        self._lines.pop(file, None)

    def text(self, file: str) -> str | None:
        """The whole text of a file read (as diagnostics name it), if it was."""
        return self._texts.get(file)

    def line(self, file: str, number: int) -> str | None:
        lines = self._lines.get(file)
        if lines is None:
            text = self._texts.get(file)
            if text is None:
                return None
            # Lines as the parser counts them: ended by '\n' only (splitlines would
            # also break at form feeds and at '\u2028' in comments and strings).
            lines = self._lines[file] = text.split("\n")
        return lines[number - 1].removesuffix("\r") if 0 < number <= len(lines) else None


def visible(text: str) -> str:
    """Text as a message shows it: a character that prints as nothing or
    moves the cursor (a NUL, an escape, a byte-order mark, a zero-width
    space) is written as its Python escape, '\\x00', never sent raw."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# A source line longer than this is quoted around the spot only.
MAX_QUOTED = 200


def _shown(text: str) -> str:
    """A stretch of a source line as quoted: a tab as one space (so that a
    column stays a column), any other unprintable character escaped."""
    return visible(text.replace("\t", " "))


def render(diagnostic: Diagnostic, sources: Sources) -> str:
    """The headline, then the source line and a caret under the spot; then
    each note the same way."""
    out: list[str] = []
    for headline, span in [
        (diagnostic.headline(), diagnostic.span),
        *((note.headline(), note.span) for note in diagnostic.notes),
    ]:
        out.append(headline)
        line = sources.line(span.file, span.line)
        if line is not None:
            out.extend(_quote(line, span))
    return "\n".join(out)


def _quote(line: str, span: Span) -> list[str]:
    """The line and a caret line under the span's stretch of it."""
    start = span.column
    end = start + 1
    if span.end_line == span.line and span.end_column > start:
        end = min(span.end_column, len(line) + 1, start + MAX_QUOTED)
    # A very long line (a wide CSV row) is quoted around the spot only, so
    # that many diagnostics on it do not print all of it each time.
    first, last = 1, len(line) + 1
    if len(line) > MAX_QUOTED:
        first = max(1, min(start, len(line) + 1) - MAX_QUOTED // 2)
        last = min(len(line) + 1, max(end, first + MAX_QUOTED))
    before = ("..." if first > 1 else "") + _shown(line[first - 1 : start - 1])
    marked = _shown(line[start - 1 : end - 1])
    after = _shown(line[max(start, end) - 1 : last - 1]) + ("..." if last <= len(line) else "")
    # Past the end of the line (a missing last part), the caret stands after it.
    offset = len(before) + max(0, start - 1 - len(line))
    return [f"    {before}{marked}{after}", "    " + " " * offset + "^" + "~" * (len(marked) - 1)]


def display_path(path: Path) -> str:
    """A path as the user would write it, the same in every message: relative
    to the working folder when inside it, absolute otherwise."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# Each hint compares a word with every candidate: a file with thousands of
# unknown names among thousands of known ones would cost their product. A run
# (see hint_budget) may compare this many candidates in all; past it,
# messages go without a "did you mean" hint.
HINT_COMPARISONS = 100_000
_hint_budget: ContextVar[list[int] | None] = ContextVar("hint_budget", default=None)


@contextmanager
def hint_budget(comparisons: int = HINT_COMPARISONS) -> Iterator[None]:
    """Bound the work of the hints given inside the block (one check's run)."""
    token = _hint_budget.set([comparisons])
    try:
        yield
    finally:
        _hint_budget.reset(token)


def hints_left(comparisons: int) -> bool:
    """May a hint still compare a word with this many candidates? (So that a
    caller need not even list them when it may not.)"""
    budget = _hint_budget.get()
    return budget is None or budget[0] >= comparisons


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The known word closest to a word, if one is close enough (and the
    run's hint budget allows the comparisons)."""
    known = list(candidates)
    budget = _hint_budget.get()
    if budget is not None:
        if budget[0] < len(known):
            return None
        budget[0] -= len(known)
    matches = difflib.get_close_matches(word, sorted(set(known)), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known word, if one is close enough."""
    match = closest(word, candidates)
    return f"did you mean '{match}'?" if match is not None else None


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)
