"""Source text -> Lark parse tree -> typed syntax tree (dsl.syntax).

The grammar is dsl/grammar.lark; dsl/building.py turns its parse tree into
the syntax tree, rule by rule, from one table. `parse_edition` never raises
for bad input: a syntax error comes back as a located Diagnostic (worded in
dsl/messages.py), with the tokens that would have been accepted and, for the
common slips, a hint.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from splendor_rules.dsl import messages as msgs
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.building import UNGROUPED, TreeBuilder, chain_depth, span_of
from splendor_rules.dsl.diagnostics import Diagnostic

_OPENING = {"LPAR", "LSQB"}
_CLOSING = {"RPAR", "RSQB"}


class _JoinBracketedLines:
    """Postlexer: a line break inside ( ) or [ ] does not end a statement."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        for token in stream:
            if token.type in _OPENING:
                depth += 1
            elif token.type in _CLOSING:
                depth = max(0, depth - 1)
            elif token.type == "_NL" and depth > 0:
                continue
            yield token


@cache
def _lark() -> Lark:
    grammar_file = resources.files("splendor_rules.dsl").joinpath("grammar.lark")
    grammar = grammar_file.read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=_JoinBracketedLines(),
    )


def grammar_parser() -> Lark:
    """The rule files' parser, for a tool that asks what may come next
    (an editor's completion: `parse_interactive`, `accepts`)."""
    return _lark()


# Beyond these, a tree is refused with a located error rather than passed on:
# every later stage walks the tree recursively, and Python's int() refuses
# numbers of more than 4300 digits.
MAX_DEPTH = 100  # levels of the parse tree; the shipped editions use under 20
MAX_DIGITS = 100
BYTE_ORDER_MARK = "\ufeff"
_CHAINS = {"sum_expr", "product"}


def _limits(tree: Tree[Token], file: str) -> Diagnostic | None:
    """The first place where the tree nests too deeply or a number is too long."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return msgs.too_deep(span_of(file, node.meta), MAX_DEPTH)
        # `a + b + c` is one flat node here, and nests a little once built.
        step = 1
        if node.data in _CHAINS:
            grouped = not any(str(op) in UNGROUPED for op in node.children[1::2])
            step += chain_depth(len(node.children) // 2 + 1, grouped)
        for child in reversed(node.children):
            if isinstance(child, Tree):
                stack.append((child, depth + step))
            elif isinstance(child, Token) and child.type == "INT" and len(child) > MAX_DIGITS:
                return msgs.number_too_long(span_of(file, child), len(child), MAX_DIGITS)
    return None


# ------------------------------------------------------------------ entry points


def _describe(terminal: str) -> str:
    if terminal in msgs.TERMINAL_WORDS:
        return msgs.TERMINAL_WORDS[terminal]
    for definition in _lark().terminals:
        if definition.name == terminal and definition.pattern.type == "str":
            return msgs.keyword(str(definition.pattern.value))
    return terminal.lower()


def _keywords(terminal: str) -> list[str]:
    """The literal words of a keyword terminal, for 'did you mean' hints: its
    word, or each word of a list of words such as 'highest' | 'lowest'."""
    for definition in _lark().terminals:
        if definition.name != terminal:
            continue
        value = str(definition.pattern.value)
        if definition.pattern.type == "str":
            words = [value]
        else:
            listed = re.fullmatch(r"\(\?:([a-z|\\ -]+)\)", value)
            words = listed.group(1).replace("\\", "").split("|") if listed else []
        return [w for w in words if re.fullmatch(r"[a-z][a-z -]*", w)]
    return []


def _syntax_error(
    error: UnexpectedInput, file: str, text: str, end: str = msgs.FOUND_END_OF_FILE
) -> Diagnostic:
    lines = text.splitlines() or [""]
    line = error.line if error.line and error.line > 0 else len(lines)
    column = error.column if error.column and error.column > 0 else len(lines[line - 1]) + 1
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position] if position < len(text) else ""
        return msgs.unexpected_character(s.Span(file, line, column, line, column + 1), char)

    expected: set[str] = set()
    found = end
    end_column = column + 1
    hint: str | None = None
    if isinstance(error, UnexpectedToken):
        expected = set(error.expected)
        token = error.token
        if token.type == "$END":
            found = end
        elif token.type == "_NL":
            found = msgs.FOUND_END_OF_LINE
        else:
            found = msgs.found_token(str(token))
            end_column = (token.end_column or column + 1) if token.end_line == line else column + 1
        hint = _hint(token, expected)
    elif isinstance(error, UnexpectedEOF):
        expected = set(error.expected)
        if "RBRACE" in expected:
            hint = msgs.HINT_UNCLOSED_BRACE
    span = s.Span(file, line, column, line, end_column)
    return msgs.unexpected(span, found, [_describe(t) for t in expected], hint)


def _hint(token: Token, expected: set[str]) -> str | None:
    """A hint for the common slips, given the token found and the terminals expected."""
    keywords = [k for terminal in expected for k in _keywords(terminal)]
    # A misspelt keyword lexes as whatever word-like token fits (a name,
    # a rule id), so go by its text rather than its type.
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", str(token)) and keywords:
        return msgs.misspelt_keyword(str(token), keywords)
    if str(token) == "=" and "COMPARE" in expected:
        return msgs.HINT_COMPARE_WITH_DOUBLE_EQUALS
    if token.type == "$END" and "RBRACE" in expected:
        return msgs.HINT_UNCLOSED_BRACE
    if token.type == "_NL" and "RBRACE" not in expected:
        return msgs.HINT_LINE_ENDS_EARLY
    return None


def parse_edition(text: str, file: str) -> tuple[s.Edition | None, list[Diagnostic]]:
    """Parse one rule file. Returns the tree, or None and the syntax error.

    A byte-order mark that starts the text is no part of it (editors on some
    systems write one); the caller keeps, in Sources, the text without it."""
    text = text.removeprefix(BYTE_ORDER_MARK)
    try:
        tree = _lark().parse(text, start="start")
    except UnexpectedInput as error:
        return None, [_syntax_error(error, file, text)]
    too_far = _limits(tree, file)
    if too_far is not None:
        return None, [too_far]
    edition: s.Edition = TreeBuilder(file, parse_expression).transform(tree)
    return edition, []


def parse_expression(
    text: str, file: str, line: int, column: int
) -> tuple[s.Expr | None, list[Diagnostic]]:
    """Parse an expression embedded at (line, column) of a file, such as the
    `{supply(c)}` placeholders of a requirement's message."""
    try:
        tree = _lark().parse(text, start="expr")
        diagnostic = _limits(tree, file)
    except UnexpectedInput as error:
        diagnostic = _syntax_error(error, file, text, msgs.FOUND_END_OF_PLACEHOLDER)
    if diagnostic is not None:
        at = diagnostic.span
        shifted = s.Span(
            file,
            line + at.line - 1,
            at.column + (column - 1 if at.line == 1 else 0),
            line + at.end_line - 1,
            at.end_column + (column - 1 if at.end_line == 1 else 0),
        )
        return None, [Diagnostic("error", diagnostic.message, shifted, diagnostic.hint)]
    expr: s.Expr = TreeBuilder(file, None, line - 1, column - 1).transform(tree)
    return expr, []


__all__ = ["VisitError", "grammar_parser", "parse_edition", "parse_expression"]
