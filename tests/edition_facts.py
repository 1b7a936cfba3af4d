"""The editions the tests run on, and their data as the tests read it.

The editions are discovered (every rule file in the editions folder), so a
new edition needs no test edit: the tests that need nothing but the engine
API run on it at once. The data are read straight from RULES.md section 1
and the CSV files, not through the compiler, so that they check it; they are
stated per edition by name, and a test that needs them skips an edition they
are not stated for (`stated_facts`).
"""

from __future__ import annotations

import csv

import pytest

from splendor_rules.compiler.frontend.pipeline import edition_files, editions_folder
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import (
    ALL_ENGINE_KINDS,
    EngineKind,
    EngineUnavailable,
    load_engine,
)
from splendor_rules.compiler.tools.rl.actions import refusal

EDITIONS: tuple[str, ...] = tuple(path.stem for path in edition_files())
# The engine kinds the API tests run on: generated, interpreted and native
# (a native case skips where its engine is not built: `engine_or_skip`).
KINDS: tuple[EngineKind, ...] = ALL_ENGINE_KINDS
# Every engine of every edition: (edition, kind).
ENGINES: tuple[tuple[str, EngineKind], ...] = tuple(
    (edition, kind) for edition in EDITIONS for kind in KINDS
)


def engine_or_skip(edition: str, kind: EngineKind) -> Engine:
    """The engine of that edition and kind; a native engine that is not
    built (no C compiler, no Python headers) skips the test, saying why."""
    try:
        return load_engine(edition, kind)
    except EngineUnavailable as error:
        if kind != "native":
            raise
        pytest.skip(f"no native engine: {error}")


DATA = editions_folder() / "data"
# RULES.md section 1: the payable colours in order, and the data's colour words.
COLOUR_WORDS = {
    "classic": {c: c for c in ("white", "blue", "green", "red", "black")},
    "marvel": {
        "yellow": "mind",
        "blue": "space",
        "orange": "soul",
        "red": "reality",
        "purple": "power",
    },
}
COST_COLUMNS = {
    "classic": ("white", "blue", "green", "red", "black"),
    "marvel": (
        "cost_yellow_mind",
        "cost_blue_space",
        "cost_orange_soul",
        "cost_red_reality",
        "cost_purple_power",
    ),
}
REQUIRE_COLUMNS = {
    "classic": COST_COLUMNS["classic"],
    "marvel": (
        "req_yellow_mind",
        "req_blue_space",
        "req_orange_soul",
        "req_red_reality",
        "req_purple_power",
    ),
}
CARD_FILES = {"classic": "classic_cards.csv", "marvel": "marvel_cards.csv"}
TILE_FILES = {"classic": "classic_nobles.csv", "marvel": "marvel_locations.csv"}
WILD = {"classic": "gold", "marvel": "shield"}  # RULES.md section 1: the wild token kind


def has_facts(edition: str) -> bool:
    """Whether this file states the facts of the edition."""
    return edition in COLOUR_WORDS


def stated_facts(edition: str) -> str:
    """The edition, if this file states its facts; else the test that needs
    them is skipped for it (the API tests that need none still run)."""
    if not has_facts(edition):
        pytest.skip(f"tests/edition_facts.py states no facts of edition {edition!r}")
    return edition


def read_csv(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def rl_editions(names: list[str]) -> list[str]:
    """The editions of `names` the research interface encodes: every one
    but one whose moves hold a value it has no encoding for, which it
    refuses, saying so (docs/rl.md: none the compiler makes today; the
    refusal is tested in tests/test_rl.py on a made-up kind)."""
    return [name for name in names if refusal(load_engine(name).DESCRIPTION) is None]
