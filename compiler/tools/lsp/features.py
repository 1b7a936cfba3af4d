"""What the language server answers, over an Analysis: hover, go to
definition, find references, rename and document symbols. Places are 1-based
(line, column), as spans are; the server converts them to the protocol's."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.rule_ids import rule_texts
from splendor_rules.compiler.tools.lsp.analysis import Analysis
from splendor_rules.compiler.tools.lsp.index import Index, Key, Occurrence, contains, where
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import display_path
from splendor_rules.dsl.unparse import unparse_declaration

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Refused(Exception):
    """A request that cannot be done, and why (a rename of a parent's name)."""


def occurrence_at(analysis: Analysis, line: int, column: int) -> Occurrence | None:
    index = analysis.index
    return index.at(analysis.file, line, column) if index is not None else None


# ------------------------------------------------------------- definition


def definition(analysis: Analysis, line: int, column: int) -> list[s.Span]:
    """Where the symbol at a place is declared: the declaration in force (an
    override's, over its parent's); for a column's declaration, its data
    file's header; for a rule id, its rulebook."""
    index = analysis.index
    found = occurrence_at(analysis, line, column)
    if index is None or found is None:
        return []
    if found.key[0] == "rule":
        place = rule_place(index, found.key[1])
        return [place] if place is not None else []
    if found.key[0] == "edition":
        return [o.span for o in index.of(found.key) if o.definition][:1]
    everywhere = index.of(found.key)
    if found.definition and found.kind == "column":
        return index.data.get(where(found.span), [])
    declared = [o.span for o in everywhere if o.definition]
    return declared[-1:]


def references(
    analysis: Analysis, line: int, column: int, declaration: bool = True
) -> list[s.Span]:
    """Every place the symbol at a place is written, in every file of the
    edition's chain and the data headers."""
    index = analysis.index
    found = occurrence_at(analysis, line, column)
    if index is None or found is None:
        return []
    return [o.span for o in index.of(found.key) if declaration or not o.definition]


# ------------------------------------------------------------------ rename

# What a rename may not rename, and why.
_FIXED = {
    "column": "a column is named by its data file's header; rename it there too",
    "data": "a column is named by its data file's header; rename it there too",
    "colour": "a colour is named in the data files' cells too",
    "rule": "a rule id is its rulebook's",
    "edition": "an edition is found by its name: rename its file too",
    "value": "a card value cannot be renamed here",
}


def rename(analysis: Analysis, line: int, column: int, new: str) -> list[tuple[s.Span, str]]:
    """The edits that rename the symbol at a place: a declaration of this
    file (a definition, a zone, an action...) or a local name. Refused, with
    the reason, for a name a parent declares, or a new name that is no name
    or is taken."""
    index = analysis.index
    found = occurrence_at(analysis, line, column)
    if index is None or found is None:
        raise Refused("no name to rename here")
    spans = renamable(analysis, found)
    if not NAME.fullmatch(new) or new in keywords():
        raise Refused(f"'{new}' is not a name the language allows")
    if new in _taken(index, analysis, found):
        raise Refused(f"the name '{new}' is taken")
    return [(span, new) for span in spans]


def renamable(analysis: Analysis, found: Occurrence) -> list[s.Span]:
    """The places a rename of a symbol edits, or Refused."""
    index = analysis.index
    assert index is not None
    if found.key[0] != "global" and found.key[0] != "local":
        raise Refused(_FIXED.get(found.key[0], "this cannot be renamed"))
    if found.kind in _FIXED:
        raise Refused(_FIXED[found.kind])
    everywhere = index.of(found.key)
    declared = [o for o in everywhere if o.definition]
    if not declared:
        raise Refused(f"'{found.key[1]}' is built into the language")
    elsewhere = [o for o in declared if o.span.file != analysis.file]
    if elsewhere:
        owner = elsewhere[0].span.file
        raise Refused(
            f"'{found.key[1]}' is declared in {owner}: rename it there, "
            f"or give it a new name here with a `rename` declaration"
        )
    return [o.span for o in everywhere]


def _taken(index: Index, analysis: Analysis, found: Occurrence) -> set[str]:
    if found.key[0] == "global":
        return set(index.kinds)
    at = found.span
    return {b.name for b in index.locals_at(analysis.file, at.line, at.column)} | set(index.kinds)


# ------------------------------------------------------------------- hover


def hover(analysis: Analysis, line: int, column: int) -> str | None:
    """Markdown about the place: a rule id's text, a column's type and
    range, a name's declaration and what an override replaces, an
    expression's type."""
    index = analysis.index
    parts: list[str] = []
    found = occurrence_at(analysis, line, column)
    if index is not None and found is not None:
        parts.extend(_about(analysis, index, found))
    for word, replaced in index.replaced if index is not None else ():
        if word.file == analysis.file and contains(word, line, column):
            parts.append(f"overrides, from {replaced.span}:\n\n" + _code(replaced))
    typed = _expression_at(analysis, line, column)
    if typed is not None and (found is None or found.key[0] != "rule"):
        text, kind = typed
        parts.append(f"`{text}`: {kind}")
    return "\n\n---\n\n".join(parts) if parts else None


def _about(analysis: Analysis, index: Index, found: Occurrence) -> list[str]:
    kind = found.key[0]
    if kind == "rule":
        return [rule_text(index, found.key[1]) or f"rule {found.key[1]}: not in a rulebook"]
    if kind in ("column", "value") or found.kind == "data":
        return [_column(analysis, index, found.key)]
    if kind == "local":
        return [f"local `{_name(analysis, found)}`, bound at {_binding(index, found.key)}"]
    parts = []
    declared = [o for o in index.of(found.key) if o.definition]
    if declared:
        decl = index.declarations.get(where(declared[-1].span))
        if decl is not None:
            parts.append(f"{found.kind} declared at {declared[-1].span}\n\n" + _code(decl))
    replaced = index.overrides.get(where(declared[-1].span)) if declared else None
    if replaced is not None:
        parts.append(f"overrides, from {replaced.span}:\n\n" + _code(replaced))
    return parts


def _binding(index: Index, key: Key) -> str:
    declared = [o for o in index.of(key) if o.definition]
    return str(declared[0].span) if declared else "?"


def _name(analysis: Analysis, found: Occurrence) -> str:
    line = analysis.sources.line(found.span.file, found.span.line) or ""
    return line[found.span.column - 1 : found.span.end_column - 1]


def _code(decl: s.Decl) -> str:
    lines = unparse_declaration(decl)
    shown = lines if len(lines) <= 12 else [*lines[:12], "  …"]
    return "```splendor-rules\n" + "\n".join(shown) + "\n```"


def _column(analysis: Analysis, index: Index, key: Key) -> str:
    if key[0] == "value":
        value = index.values.get(key[-1])
        return f"card value `{key[-1]}`: {value.kind if value else 'unknown'}, set by `set`"
    declared = index.columns.get(key)
    if declared is None:
        return f"column `{key[-1]}`"
    column, data = declared
    table = "cards" if key[1] == "cards" else f"tiles {key[1]}"
    files = ", ".join(dict.fromkeys(data))
    text = f"column `{column.name.text}` of {table} ({files}): {_column_type(column)}"
    seen = _range(analysis.model, key)
    return text + (f"\n\nin the data: {seen}" if seen else "")


def _column_type(column: s.Column) -> str:
    kind = column.type
    if kind.kind == "int_range":
        return f"number {kind.low}..{kind.high}"
    if kind.kind == "one_of":
        return "one of " + ", ".join(f'"{v.value}"' for v in kind.values)
    words = {"int": "number", "bool": "condition", "text": "text", "colour": "colour"}
    words |= {"colour_or_none": "colour or none", "per_colour": "number per colour"}
    return words.get(kind.kind, kind.kind)


def _range(model: m.Edition | None, key: Key) -> str | None:
    """The values a column takes in the data: the lowest and highest number,
    or the distinct values."""
    if model is None or key[0] != "column":
        return None
    tables = (
        [model.cards] if key[1] == "cards" else [t for t in model.tile_sets if t.name == key[1]]
    )
    cells = [row.get(key[2]) for table in tables for row in table.rows if key[2] in row]
    numbers: list[int] = []
    for cell in cells:
        if isinstance(cell, int) and not isinstance(cell, bool):
            numbers.append(cell)
        elif isinstance(cell, tuple):
            numbers.extend(v for v in cell if isinstance(v, int))
    if numbers:
        return f"{min(numbers)}..{max(numbers)} over {len(cells)} rows"
    shown = sorted({str(cell) for cell in cells})
    if shown and len(shown) <= 12:
        return ", ".join(shown) + f" over {len(cells)} rows"
    return None


def _expression_at(analysis: Analysis, line: int, column: int) -> tuple[str, str] | None:
    """The narrowest expression of the checked model at the place, written
    out, and its type."""
    best: m.Expr | None = None
    for expr in analysis.expressions.values():
        span = expr.span
        if span.file != analysis.file or not contains(span, line, column):
            continue
        if best is None or (span.end_line - span.line, span.end_column - span.column) < (
            best.span.end_line - best.span.line,
            best.span.end_column - best.span.column,
        ):
            best = expr
    if best is None:
        return None
    text = _source(analysis, best.span)
    return text, str(best.type)


def _source(analysis: Analysis, span: s.Span) -> str:
    text = analysis.sources.text(span.file) or ""
    lines = text.split("\n")[span.line - 1 : span.end_line]
    if not lines:
        return ""
    if len(lines) == 1:
        return lines[0][span.column - 1 : span.end_column - 1]
    lines[0] = lines[0][span.column - 1 :]
    lines[-1] = lines[-1][: span.end_column - 1]
    return " ".join(part.strip() for part in lines)


# --------------------------------------------------------------- rule ids


@cache
def _rulebook(path: Path, stamp: float) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _book_of(index: Index, rule_id: str) -> Path | None:
    for path, prefixes in index.references:
        if rule_id[:1] in prefixes:
            return path
    return None


def _read_book(path: Path) -> str:
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return _rulebook(path, stamp)


def rule_text(index: Index, rule_id: str) -> str | None:
    """A rule id's title and text from its rulebook, in markdown."""
    path = _book_of(index, rule_id)
    if path is None:
        return None
    found = rule_texts(_read_book(path), path.name, {rule_id})
    if not found:
        return None
    text = found[0]
    title = f" {text.title}" if text.title else ""
    return f"**{rule_id}**{title} ({path.name})\n\n{text.text}"


def rule_place(index: Index, rule_id: str) -> s.Span | None:
    """Where a rulebook defines a rule id (its id in bold)."""
    path = _book_of(index, rule_id)
    if path is None:
        return None
    for number, line in enumerate(_read_book(path).split("\n"), 1):
        at = line.find(f"**{rule_id}")
        if at >= 0 and not line[at + 2 + len(rule_id) : at + 3 + len(rule_id)].isalnum():
            column = at + 3
            return s.Span(display_path(path), number, column, number, column + len(rule_id))
    return None


def rule_ids(index: Index) -> list[tuple[str, str]]:
    """Every rule id the edition's rulebooks define, with its title."""
    found: list[tuple[str, str]] = []
    for path, prefixes in index.references:
        text = _read_book(path)
        wanted = {
            i for i in re.findall(r"\*\*([A-Z]-[0-9][0-9.]*[a-z]?)", text) if i[0] in prefixes
        }
        found.extend(
            (t.rule_id, t.title or t.text[:60]) for t in rule_texts(text, path.name, wanted)
        )
    return found


# --------------------------------------------------------------- symbols


@frozen
class Symbol:
    name: str
    kind: str
    span: s.Span
    selection: s.Span
    children: tuple[Symbol, ...] = ()


def symbols(analysis: Analysis) -> list[Symbol]:
    """The declarations of the file, as the editor's outline lists them."""
    tree = analysis.tree
    if tree is None:
        return []
    found = []
    for item in tree.items:
        decl = item.decl if isinstance(item, s.Override) else item
        if not isinstance(decl, s.Decl):
            continue
        name = getattr(decl, "name", None)
        kind = type(decl).__name__.lower()
        selection = name.span if isinstance(name, s.Name) else decl.span
        label = name.text if isinstance(name, s.Name) else kind
        columns: tuple[Symbol, ...] = ()
        if isinstance(decl, s.Cards | s.Tiles):
            columns = tuple(
                Symbol(c.name.text, "column", c.span, c.name.span) for c in decl.columns
            )
        found.append(Symbol(label, kind, item.span, selection, columns))
    return found


@cache
def keywords() -> frozenset[str]:
    """Every word the grammar reserves (a name may not be one)."""
    from splendor_rules.compiler.tools.lsp.completion import grammar_words

    return frozenset(w for words in grammar_words().values() for w in words if " " not in w)
