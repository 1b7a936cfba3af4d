"""The record format: its keys, its errors, and reading and writing its JSON.

Everything else in the package reads or writes records through these
definitions, so that the format docs/records.md describes is stated once.
"""

from __future__ import annotations

import json
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


def read_json(path: Path) -> Json:
    """The JSON text of a file; RecordError if it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read the file: {error}") from error
    except json.JSONDecodeError as error:
        raise RecordError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from error


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
