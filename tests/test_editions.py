"""The shipped editions: they check clean, state every rule of RULES.md, and
differ from each other only where the rule files say so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from edition_facts import EDITIONS

from splendor_rules.compiler.frontend.model import Claim, Ending, TokenLimit
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, editions_folder
from splendor_rules.compiler.frontend.rule_ids import ids_in_reference

ROOT = Path(__file__).resolve().parent.parent
PREFIXES = {"classic": "SCE", "marvel": "SME"}


@pytest.mark.parametrize("name", EDITIONS)
def test_edition_checks_without_diagnostics(compiled_editions: dict[str, Compiled], name: str):
    compiled = compiled_editions[name]
    assert compiled.ok
    assert compiled.diagnostics == []


@pytest.mark.parametrize("name", ["classic", "marvel"])
def test_every_reference_id_is_stated(compiled_editions: dict[str, Compiled], name: str):
    model = compiled_editions[name].model
    assert model is not None
    reference = ids_in_reference(editions_folder() / "RULES.md")
    wanted = {i for i in reference if i[0] in PREFIXES[name]}
    assert wanted, "RULES.md defines ids"
    assert wanted - set(model.rule_ids) == set()
    assert set(model.rule_ids) - wanted == set()


def test_reference_is_the_shared_rulebook_copy():
    """editions/RULES.md has every id the rulebook defines (33 of them)."""
    ids = ids_in_reference(editions_folder() / "RULES.md")
    assert len(ids) == 33
    assert {"S-3.1", "M-4.1a", "E-6.3", "C-5.3", "M-3.10"} <= set(ids)


def test_rule_ids_are_written_in_the_files():
    """Ids are part of the language: each stated id appears in brackets."""
    for name in ("classic", "marvel"):
        text = (editions_folder() / f"{name}.rules").read_text()
        assert re.search(r"\[S-3\.1\]|\[C-2\.2\]|\[M-2\.2\]", text)


def test_marvel_inherits_renamed_colours_and_wild_token(compiled_editions):
    marvel = compiled_editions["marvel"].model
    assert marvel.colours == ("mind", "space", "soul", "reality", "power")
    tokens = {t.name: t for t in marvel.tokens}
    assert tokens["shield"].role == "wild"
    assert tokens["shield"].title == "S.H.I.E.L.D."
    assert dict(tokens["time_stone"].supply) == {2: 2, 3: 3, 4: 4}
    assert tokens["time_stone"].returnable is False
    assert "M-4.1a" in tokens["time_stone"].returnable_ids
    # The inherited reserve action now gains the renamed wild token.
    reserve = next(a for a in marvel.actions if a.name == "reserve")
    assert "shield" in repr(reserve.body) and "gold" not in repr(reserve.body)


def test_marvel_changes_are_listed_from_the_rule_files(compiled_editions):
    changes = compiled_editions["marvel"].resolved.changes
    by_kind = {(c.kind, c.key) for c in changes}
    assert ("rename", ("colour", "white")) in by_kind
    assert ("rename", ("token", "gold")) in by_kind
    assert ("override", ("supply", None)) in by_kind
    assert ("remove", ("tiles", "noble")) in by_kind
    assert ("add", ("majority", "avengers_assemble")) in by_kind
    overridden = {c.key: (c.old_ids, c.new_ids) for c in changes if c.kind == "override"}
    assert overridden[("winners", None)] == (("C-5.3",), ("M-5.4",))


def test_data_is_read_per_declared_columns(compiled_editions):
    classic = compiled_editions["classic"].model
    marvel = compiled_editions["marvel"].model
    assert len(classic.cards.rows) == len(marvel.cards.rows) == 90
    tiers = [row["tier"] for row in classic.cards.rows]
    assert (tiers.count(1), tiers.count(2), tiers.count(3)) == (40, 30, 20)
    assert all(row["time_icon"] == (row["tier"] == 3) for row in marvel.cards.rows)
    location = marvel.tile_sets[0]
    assert location.sides_by == "tile" and len(location.rows) == 8
    assert {row["bonus"] for row in marvel.cards.rows} == set(marvel.colours)


def test_a_house_rule_is_a_rule_file_change_only():
    """A token limit of 12 and an 18-point ending, as a variant edition file."""
    compiled = compile_file(ROOT / "tests" / "variants" / "house.rules")
    assert compiled.ok, compiled.diagnostics
    model = compiled.model
    limit = next(s for s in model.steps if isinstance(s, TokenLimit))
    assert limit.limit == 12
    target = next(e for e in model.endings if isinstance(e, Ending) and e.name == "target")
    assert "18" in repr(target.condition)
    assert any(isinstance(s, Claim) for s in model.steps)  # the rest is inherited


GENERIC_LAYERS = ["dsl", "compiler"]
EDITION_WORDS = re.compile(
    r"noble|\bgold\b|shield|gauntlet|avenger|marvel|time.?stone|orient|joker|sacrific|\blocations?\b",
    re.I,
)

# The language server protocol's type of a place in a file, which the
# language server (compiler/tools/lsp) must name: no edition's noun.
PROTOCOL_TYPE = "t.Location"


def test_generic_layers_know_no_edition_nouns():
    """Edition knowledge lives in editions/ only."""
    hits = []
    for layer in GENERIC_LAYERS:
        for path in sorted((ROOT / layer).rglob("*")):
            if path.suffix in (".py", ".lark", ".j2") and path.is_file():
                for number, line in enumerate(path.read_text().splitlines(), 1):
                    if EDITION_WORDS.search(line.replace(PROTOCOL_TYPE, "")):
                        hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert hits == []
