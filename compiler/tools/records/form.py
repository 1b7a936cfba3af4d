"""The record format: its keys, its errors, and reading and writing its JSON.

Everything else in the package reads or writes records through these
definitions, so that the format docs/records.md describes is stated once.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

Json = Any  # a value read from or written to JSON

# Keys of a step that are the record's, not the action's.
STEP_KEYS = frozenset({"expect", "illegal", "note", "do"})
RECORD_KEYS = frozenset(
    {
        "title",
        "rules",
        "edition",
        "fingerprint",
        "players",
        "seed",
        "first_player",
        "state",
        "setup",
        "actions",
        "expect",
        "description",
        "notes",
        "bots",
    }
)
REQUIRED_KEYS = ("title", "rules", "edition", "players", "seed", "actions")
CHECK_KEYS = (
    "scores",
    "winners",
    "is_over",
    "current_player",
    "pending",
    "last_round",
    "turn",
    "supply",
    "holdings",
    "market",
    "market_sizes",
    "deck_sizes",
    "tiles",
    "tile_counts",
    "hidden",
    "legal",
    "legal_count",
    "legal_includes",
    "legal_excludes",
    "seen_by",
    "board",
    "bag",
)


class RecordError(Exception):
    """A record that cannot be read or set up: the record is wrong, not the
    engine. `step` is the 1-based step it concerns, if any."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.step = step

    def __str__(self) -> str:
        return f"step {self.step}: {self.message}" if self.step is not None else self.message


def is_int(value: Json) -> bool:
    """A JSON whole number (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


# Bounds on what a record file may hold, far above any real record (a long
# game is some 30 kB and 8 deep, its numbers a few digits long): a file past
# them is refused as unreadable before anything else looks at it.
MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32  # lists and objects within each other
MAX_DIGITS = 64  # the digits of one number
_SHOWN = 60  # the characters of a value a message shows

_STRING = r'"(?:[^"\\]|\\.)*"'  # a JSON string, skipped when looking for a place


def brief(value: Json) -> str:
    """A value of a record as a message shows it: its repr, cut short, so that
    a huge value cannot flood the terminal (and a control character in it is
    escaped, as repr escapes it)."""
    text = repr(value)
    return text if len(text) <= _SHOWN else f"{text[: _SHOWN - 3]}..."


class _Refused(Exception):
    """A JSON value json.loads would take that a record may not hold; `pattern`
    finds where it is in the text."""

    def __init__(self, message: str, pattern: str) -> None:
        super().__init__(message)
        self.message = message
        self.pattern = pattern


def _constant(name: str) -> Json:
    raise _Refused(f"{name} is not a number JSON allows", re.escape(name))


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number of more than {MAX_DIGITS} digits", rf"-?\d{{{MAX_DIGITS + 1},}}")
    return int(text)


def _fraction(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _Refused(f"{text} is too large a number", re.escape(text))
    return number


def _place(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


def _first(text: str, pattern: str) -> str:
    """The place of the first match of `pattern` outside JSON strings."""
    for match in re.finditer(f"{_STRING}|({pattern})", text):
        if match.group(1) is not None:
            return _place(text, match.start(1))
    return "an unknown place"


def _too_deep(text: str) -> str:
    """The place where the text's lists and objects go deeper than MAX_DEPTH."""
    depth = 0
    for match in re.finditer(rf"{_STRING}|([\[{{])|([\]}}])", text):
        if match.group(1) is not None:
            depth += 1
            if depth > MAX_DEPTH:
                return _place(text, match.start(1))
        elif match.group(2) is not None:
            depth -= 1
    return "an unknown place"


def _deepest(value: Json) -> int:
    """How deep lists and objects go in a parsed value, found without
    recursion and given up past MAX_DEPTH; RecordError on a string that is
    not text (half of a surrogate pair, which no output could print)."""
    deepest = 0
    pending: list[tuple[Json, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            for key in item:
                _check_text(key)
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            if isinstance(item, str):
                _check_text(item)
            continue
        if depth > MAX_DEPTH:
            return depth
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def _check_text(text: str) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise RecordError(
            f"a string holds {text[error.start]!r}, half of a surrogate pair: not text"
        ) from None


def _read_text(path: Path) -> str:
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise RecordError(f"cannot read the file: {error.strerror or error}") from error
    if len(data) > MAX_BYTES:
        raise RecordError(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"not UTF-8 text (byte {error.start + 1})") from error


def read_json(path: Path) -> Json:
    """The JSON value of a record file; RecordError, with the place, if it
    cannot be read, is not JSON, or is past the bounds above (nested too
    deep, a number too long, Infinity or NaN, a string that is not text)."""
    text = _read_text(path)
    try:
        value = json.loads(
            text, parse_constant=_constant, parse_int=_whole_number, parse_float=_fraction
        )
    except json.JSONDecodeError as error:
        raise RecordError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from error
    except _Refused as error:
        raise RecordError(f"{error.message} at {_first(text, error.pattern)}") from error
    except RecursionError:
        raise RecordError(f"nested more than {MAX_DEPTH} deep at {_too_deep(text)}") from None
    if _deepest(value) > MAX_DEPTH:
        raise RecordError(f"nested more than {MAX_DEPTH} deep at {_too_deep(text)}")
    return value


def dump_record(record: Mapping[str, Json]) -> str:
    """A record as JSON text a reader can follow: one line per action and per
    expectation, short containers on one line."""
    return _pretty(record, 0, top=True) + "\n"


def _pretty(value: Json, indent: int, top: bool = False) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    fits = len(flat) + indent <= 96 and not top
    if fits or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + _pretty(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [f"{pad}{json.dumps(k)}: {_pretty(v, indent + 2)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
