"""A rulebook written out: Markdown, or one self-contained HTML page.

The page layouts are jinja2 templates (`templates/`); HTML is autoescaped,
and Markdown text goes through `md`, which escapes the characters Markdown
would read as markup. The HTML page carries its style inline and names no
other file or address, so it reads the same saved anywhere.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import jinja2

from splendor_rules.compiler.tools.rulebook.book import DataTable, Rule, Rulebook

FORMATS = ("md", "html")

_MARKUP = re.compile(r"([\\`*_\[\]<>|#])")


def md(text: str) -> str:
    """Text as Markdown shows it on one line, markup characters escaped."""
    return _MARKUP.sub(r"\\\1", " ".join(text.splitlines()))


def paragraphs(sentences: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Sentences as paragraphs: a sentence that ends with a colon opens a
    list of those that follow it (an action's statements)."""
    found: list[tuple[str, list[str]]] = []
    for sentence in sentences:
        if found and found[-1][0].endswith(":"):
            found[-1][1].append(sentence)
        else:
            found.append((sentence, []))
    return found


def md_table(table: DataTable) -> str:
    """A data table as a Markdown table; points in bold."""
    lines = [
        "| " + " | ".join(md(c) for c in table.columns) + " |",
        "|" + "---|" * len(table.columns),
    ]
    for row in table.rows:
        cells = [f"**{md(c.text)}**" if c.points and c.text else md(c.text) for c in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def code(lines: Sequence[str]) -> str:
    """Lines of rule text as a fenced block, its fence longer than any run
    of backquotes in the lines."""
    longest = max((len(run) for line in lines for run in re.findall("`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence, *lines, fence])


def by_reference(rules: Sequence[Rule]) -> list[tuple[str | None, list[Rule]]]:
    """The rules in order, grouped by the rulebook that defines them."""
    groups: list[tuple[str | None, list[Rule]]] = []
    for rule in rules:
        if not groups or groups[-1][0] != rule.reference:
            groups.append((rule.reference, []))
        groups[-1][1].append(rule)
    return groups


@functools.cache  # one environment: its templates are compiled once per process
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("splendor_rules.compiler.tools.rulebook", "templates"),
        autoescape=lambda name: (name or "").endswith(".html.j2"),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = md
    env.globals["paragraphs"] = paragraphs
    env.globals["by_reference"] = by_reference
    env.globals["md_table"] = md_table
    env.globals["code"] = code
    return env


def render_rulebook(book: Rulebook, format: str) -> str:
    """The rulebook as `md` or `html` text."""
    if format not in FORMATS:
        raise ValueError(f"no rulebook format {format!r}; the formats are {', '.join(FORMATS)}")
    context: dict[str, Any] = {"book": book}
    text = _environment().get_template(f"rulebook.{format}.j2").render(**context)
    text = "\n".join(line.rstrip() for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"
