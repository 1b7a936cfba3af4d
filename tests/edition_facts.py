"""The editions' data as the tests read it: straight from RULES.md section 1
and the CSV files, not through the compiler, so that they check it."""

from __future__ import annotations

import csv

from splendor_rules.compiler.frontend.pipeline import editions_folder

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


def read_csv(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))
