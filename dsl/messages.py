"""The wording of the parser's diagnostics, in one place.

The parser decides what went wrong and where; this module says it. Keeping
every sentence here (as mypy keeps its in messages.py) lets the wording be
read, reviewed and kept consistent as a whole, and keeps the parser free of
prose. The checker's messages are in compiler/frontend/messages.py.
"""

from __future__ import annotations

from collections.abc import Iterable

from splendor_rules.dsl.diagnostics import Diagnostic, did_you_mean
from splendor_rules.dsl.syntax import Span

# How the terminals of the grammar are named when the parser lists what it
# expected; a keyword not listed here is shown as itself, in quotes.
TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "RULE_ID": "a rule id",
    "_NL": "a line break",
    "COMPARE": "a comparison",
    "ADD": "'+' or '-'",
    "MUL": "'*', '/', '%'",
    "KEY_KIND": "a kind of declaration",
    "_CARD_VALUE": "a card value",
    "ZONE_CONTENT": "'cards' or 'tiles'",
    "RANK_ORDER": "'highest' or 'lowest'",
    "RULE_PREFIX": "a capital letter",
    "$END": "the end of the file",
    # the first words of a player's name, listed as one
    **dict.fromkeys(("YOU", "OPPONENT", "NEXT", "PREVIOUS", "OTHER"), "a player"),
}
MAX_EXPECTED_SHOWN = 8

# What the parser found where it expected something else.
FOUND_END_OF_FILE = "end of file"
FOUND_END_OF_LINE = "end of line"
FOUND_END_OF_PLACEHOLDER = "end of the {...} part"

# Hints for the common slips.
HINT_DOUBLE_QUOTES = "strings are written in double quotes"
HINT_COMPARE_WITH_DOUBLE_EQUALS = "use '==' to compare"
HINT_UNCLOSED_BRACE = "a '{' is never closed"
HINT_LINE_ENDS_EARLY = "the line ends before the statement is complete"


def keyword(text: str) -> str:
    """A keyword of the grammar, as an expected-token list shows it."""
    return f"'{text}'"


def found_token(text: str) -> str:
    """A token the parser did not expect, as the message quotes it."""
    return repr(text)


def misspelt_keyword(word: str, keywords: Iterable[str]) -> str | None:
    return did_you_mean(word, keywords)


def unexpected_character(span: Span, char: str) -> Diagnostic:
    hint = HINT_DOUBLE_QUOTES if char == "'" else None
    return Diagnostic("error", f"unexpected character {char!r}", span, hint)


def unexpected(span: Span, found: str, expected: Iterable[str], hint: str | None) -> Diagnostic:
    """`found` where one of `expected` (already worded) should be."""
    words = sorted(set(expected))
    if len(words) > MAX_EXPECTED_SHOWN:
        words = [*words[:MAX_EXPECTED_SHOWN], "..."]
    message = f"unexpected {found}"
    if words:
        message += f"; expected {', '.join(words)}"
    return Diagnostic("error", message, span, hint)


def too_deep(span: Span, limit: int) -> Diagnostic:
    return Diagnostic(
        "error",
        f"this nests too deeply (over {limit} levels)",
        span,
        "name a part of it with 'define'",
    )


def number_too_long(span: Span, digits: int, limit: int) -> Diagnostic:
    return Diagnostic(
        "error", f"a number of {digits} digits is too long", span, f"at most {limit} digits"
    )


def line_break_in_placeholder(span: Span) -> Diagnostic:
    return Diagnostic("error", "a {...} part of a message cannot hold a line break", span)


HINT_LITERAL_BRACES = "a literal brace is written twice: '{{' or '}}'"


def too_many_values(span: Span, limit: int) -> Diagnostic:
    return Diagnostic(
        "error", f"a message shows at most {limit} values in {{...}} parts", span, None
    )


def empty_placeholder(span: Span) -> Diagnostic:
    return Diagnostic("error", "a {...} part of a message is empty", span, HINT_LITERAL_BRACES)
