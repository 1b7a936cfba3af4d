"""Diagnostics: located messages about a rule file, in the gcc form.

Every stage reports a user's mistake as a Diagnostic and keeps going where it
can, so that one run shows every mistake; nothing here raises for bad input.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from attrs import frozen

from splendor_rules.dsl.syntax import Span

Severity = Literal["error", "warning"]


@frozen
class Diagnostic:
    severity: Severity
    message: str
    span: Span
    hint: str | None = None

    def headline(self) -> str:
        hint = f" ({self.hint})" if self.hint else ""
        return f"{self.span}: {self.severity}: {self.message}{hint}"


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


def render(diagnostic: Diagnostic, sources: Sources) -> str:
    """The headline, then the source line and a caret under the spot."""
    span = diagnostic.span
    out = [diagnostic.headline()]
    line = sources.line(span.file, span.line)
    if line is not None:
        shown = line.expandtabs(1)
        width = 1
        if span.end_line == span.line and span.end_column > span.column:
            width = span.end_column - span.column
        width = max(1, min(width, len(shown) - span.column + 1))
        out.append(f"    {shown}")
        out.append("    " + " " * (span.column - 1) + "^" + "~" * (width - 1))
    return "\n".join(out)


def display_path(path: Path) -> str:
    """A path as the user would write it, the same in every message: relative
    to the working folder when inside it, absolute otherwise."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known word, if one is close enough."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)
