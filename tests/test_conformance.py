"""Edition conformance (compiler/tools/conformance/).

`diff` lists what an edition renames, overrides, adds and removes relative to
another, computed from the rule files; `conform` checks that every rule the
two editions share behaves identically in their engines (docs/conformance.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from splendor_rules.compiler.cli.conform import command as conform_command
from splendor_rules.compiler.cli.diff import command as diff_command
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, edition_files
from splendor_rules.compiler.tools.conformance import (
    EditionDiff,
    build_probes,
    diff_editions,
)

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "variants" / "house.rules"

# The rules classic and Marvel share: every S- and E- rule of RULES.md.
SHARED = [
    "S-2.1", "S-2.4", "S-3.1", "S-3.2", "S-3.3", "S-3.4", "S-3.5", "S-3.6", "E-3.8",
    "S-4.1", "S-4.3", "S-4.4", "E-6.1", "E-6.2", "E-6.3",
]  # fmt: skip

# A variant of Marvel with one shared rule changed: take two needs 3 tokens.
TAKE_TWO_FROM_3 = """\
edition take_two_from_3 "Marvel, take two from 3" extends marvel {
  override [S-3.3] action take_two "take 2 tokens of one colour" {
    choose c from colours
    require supply(c) >= 3 else "take two needs at least 3 {c} in the supply"
    gain 2 c
  }
}
"""

# A variant whose added rule no probe data can make inert: a time stone per
# card bought, whatever the card.
STONE_PER_CARD = """\
edition stone_per_card "Marvel, a time stone per card" extends marvel {
  trigger stone_per_card: after card k enters bought {
    gain 1 time_stone
  }
}
"""


def invoke(command: object, *args: str) -> Result:
    return CliRunner().invoke(command, list(args))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def marvel_diff(compiled_editions: dict[str, Compiled]) -> EditionDiff:
    classic, marvel = compiled_editions["classic"], compiled_editions["marvel"]
    assert classic.resolved is not None and marvel.resolved is not None
    return diff_editions(classic.resolved, marvel.resolved)


# ---------------------------------------------------------------------- diff


def test_diff_lists_the_renames(marvel_diff: EditionDiff):
    renamed = {(r.kind, r.old, r.new) for r in marvel_diff.renamed}
    assert renamed == {
        ("colour", "white", "mind"),
        ("colour", "blue", "space"),
        ("colour", "green", "soul"),
        ("colour", "red", "reality"),
        ("colour", "black", "power"),
        ("token", "gold", "shield"),
    }


def test_diff_lists_the_overrides_with_their_rule_ids(marvel_diff: EditionDiff):
    overridden = {o.key_b: (o.ids_a, o.ids_b) for o in marvel_diff.overridden}
    assert overridden == {
        ("reference", "RULES.md"): ((), ()),
        ("cards", None): ((), ()),
        ("supply", None): (("C-2.2",), ("M-2.2",)),
        ("step", "claim_tile"): (("C-4.2",), ("M-4.2",)),
        ("score", None): (("C-5.1",), ("M-5.1",)),
        ("winners", None): (("C-5.3",), ("M-5.4",)),
    }


def test_diff_lists_removals_and_additions(marvel_diff: EditionDiff):
    assert {d.key: d.ids for d in marvel_diff.removed} == {
        ("tiles", "noble"): (),
        ("reveal", "noble"): ("C-2.3",),
        ("end", "target"): ("C-5.2",),
    }
    assert {d.key: d.ids for d in marvel_diff.added} == {
        ("token", "time_stone"): ("M-3.7", "M-4.1a"),
        ("tiles", "location"): (),
        ("reveal", "location"): ("M-2.3",),
        ("trigger", "first_time_icon"): ("M-3.9",),
        ("majority", "avengers_assemble"): ("M-3.10",),
        ("define", "qualifies"): ("M-5.2",),
        ("end", "gauntlet"): ("M-5.3", "M-5.5"),
    }


def test_diff_lists_the_rules_inherited_unchanged(marvel_diff: EditionDiff):
    assert sorted(marvel_diff.inherited_ids) == sorted(SHARED)
    # Inherited under b's names: the renamed wild token's reserve is still reserve.
    inherited = {i.key_b for i in marvel_diff.inherited}
    assert {("action", "reserve"), ("token", "shield"), ("step", "token_limit")} <= inherited


def test_diff_accounts_for_every_rule_id(compiled_editions: dict[str, Compiled], marvel_diff):
    classic, marvel = compiled_editions["classic"].model, compiled_editions["marvel"].model
    d = marvel_diff
    old = set(d.inherited_ids)
    old |= {i for o in d.overridden for i in o.ids_a} | {i for r in d.removed for i in r.ids}
    new = set(d.inherited_ids)
    new |= {i for o in d.overridden for i in o.ids_b} | {i for a in d.added for i in a.ids}
    assert old == set(classic.rule_ids)
    assert new == set(marvel.rule_ids)


def test_diff_the_other_way_is_the_inverse(compiled_editions, marvel_diff: EditionDiff):
    back = diff_editions(
        compiled_editions["marvel"].resolved, compiled_editions["classic"].resolved
    )
    assert {(r.old, r.new) for r in back.renamed} == {(r.new, r.old) for r in marvel_diff.renamed}
    assert {d.key for d in back.added} == {d.key for d in marvel_diff.removed}
    assert sorted(back.inherited_ids) == sorted(SHARED)


def test_diff_accumulates_along_a_chain(tmp_path: Path, marvel_diff: EditionDiff):
    """classic -> marvel -> variant: marvel's changes and the variant's."""
    variant = tmp_path / "take_two_from_3.rules"
    variant.write_text(TAKE_TWO_FROM_3)
    classic = compile_file(ROOT / "editions" / "classic.rules").resolved
    resolved = compile_file(variant).resolved
    assert classic is not None and resolved is not None
    d = diff_editions(classic, resolved)
    assert d.renamed == marvel_diff.renamed
    assert ("action", "take_two") in {o.key_b for o in d.overridden}
    assert "S-3.3" not in d.inherited_ids
    assert d.added == marvel_diff.added and d.removed == marvel_diff.removed


def test_diff_of_siblings_goes_through_their_common_ancestor(compiled_editions):
    """house and marvel both extend classic: marvel's renames, and house's
    token limit (S-4.1 restated) shows as overridden."""
    house = compile_file(HOUSE).resolved
    assert house is not None
    d = diff_editions(house, compiled_editions["marvel"].resolved)
    assert ("token", "gold", "shield") in {(r.kind, r.old, r.new) for r in d.renamed}
    assert ("step", "token_limit") in {o.key_b for o in d.overridden}
    assert "S-3.3" in d.inherited_ids and "S-4.1" not in d.inherited_ids


def test_diff_command_prints_the_changes():
    result = invoke(diff_command, "classic", "marvel")
    assert result.exit_code == 0, result.output
    for line in [
        "classic -> marvel: marvel extends classic",
        "  colour white -> mind",
        "  token gold -> shield",
        # Each declaration as rule text, classic's in Marvel's names: the
        # supply adds one line, the time stones'.
        "  supply [C-2.2 -> M-2.2]: + time_stone: by players {2: 2, 3: 3, 4: 4}",
        "  winners [C-5.3 -> M-5.4]: winners: highest score, then lowest count(bought),"
        " ties share -> winners among qualifies: highest score, then highest"
        " holds(avengers_assemble), then lowest count(bought), ties share",
        "  reveal noble [C-2.3]: reveal noble: players + 1",
        "  end gauntlet [M-5.3, M-5.5]: end gauntlet: after a round that ends with"
        " any(player: qualifies)",
    ]:
        assert line in result.output.splitlines()
    assert "inherited unchanged (21 declarations, 15 rule ids): S-2.1, S-2.4," in result.output


def test_an_unknown_edition_is_a_usage_error():
    for command in (diff_command, conform_command):
        result = invoke(command, "classic", "marvle")
        assert result.exit_code == 2
        known = ", ".join(sorted(path.stem for path in edition_files()))
        assert f"unknown edition 'marvle'; the editions are {known}" in result.output


def test_a_rule_file_with_mistakes_exits_1(tmp_path: Path):
    broken = tmp_path / "broken.rules"
    broken.write_text('edition broken "Broken" extends classic {\n  rename colour pink -> red\n}\n')
    result = invoke(diff_command, "classic", str(broken))
    assert result.exit_code == 1
    assert "has no colour 'pink' to rename" in result.output


# ------------------------------------------------------------------- probes


def test_probes_share_the_cards_and_neutralise_edition_only_parts(
    tmp_path: Path, compiled_editions: dict[str, Compiled], marvel_diff: EditionDiff
):
    probe_a, probe_b = build_probes(
        compiled_editions["classic"], compiled_editions["marvel"], marvel_diff, tmp_path
    )
    text = probe_b.text
    assert (
        "bonus: colour {white: mind, blue: space, green: soul, red: reality, black: power}" in text
    )
    assert 'avengers: int 0..2 from "~marvel.avengers"' in text
    assert "override [M-5.3, M-5.5] end gauntlet: after a round that ends with false" in text
    assert "override [C-5.2] end target: after the round once false" in probe_a.text
    # The same card faces under the renaming; no Marvel icons.
    a, b = probe_a.model.cards.rows, probe_b.model.cards.rows
    assert [row["cost"] for row in a] == [row["cost"] for row in b]
    rename = marvel_diff.renaming("colour")
    assert [rename[str(row["bonus"])] for row in a] == [row["bonus"] for row in b]
    assert not any(row["avengers"] or row["time_icon"] for row in b)


# ------------------------------------------------------------------ conform


@pytest.fixture(scope="module")
def classic_marvel() -> Result:
    return invoke(conform_command, "classic", "marvel", "--games", "3")


def status(result: Result, rule_id: str) -> str:
    found = re.search(rf"^{re.escape(rule_id)}\s+\| (.*)$", result.output, re.M)
    assert found, f"no row for {rule_id}:\n{result.output}"
    return found.group(1)


def test_conform_classic_marvel_finds_no_divergence(classic_marvel: Result):
    assert classic_marvel.exit_code == 0, classic_marvel.output
    assert "no divergence: the 15 shared rule ids behave identically" in classic_marvel.output


@pytest.mark.parametrize("rule_id", SHARED)
def test_every_shared_rule_is_identical_on_some_positions(classic_marvel: Result, rule_id: str):
    found = re.fullmatch(r"shared: identical on (\d+) positions", status(classic_marvel, rule_id))
    assert found and int(found.group(1)) > 0


def test_conform_lists_every_rule_id_of_both_editions(
    classic_marvel: Result, compiled_editions: dict[str, Compiled]
):
    for name in ("classic", "marvel"):
        model = compiled_editions[name].model
        assert model is not None
        for rule_id in model.rule_ids:
            status(classic_marvel, rule_id)
    assert status(classic_marvel, "C-2.2") == "overridden by M-2.2"
    assert status(classic_marvel, "M-5.4") == "added (overriding C-5.3)"
    assert status(classic_marvel, "C-5.2") == "removed"
    assert status(classic_marvel, "M-3.10") == "added"


def test_a_planted_difference_is_found_and_blamed(tmp_path: Path):
    variant = tmp_path / "take_two_from_3.rules"
    variant.write_text(TAKE_TWO_FROM_3)
    result = invoke(conform_command, "classic", str(variant), "--games", "2", "--plies", "40")
    assert result.exit_code == 1, result.output
    assert re.fullmatch(
        r"shared \(restated by an override\): DIVERGES on \d+ of \d+ positions",
        status(result, "S-3.3"),
    )
    for rule_id in (i for i in SHARED if i != "S-3.3"):
        assert status(result, rule_id).startswith("shared: identical on")
    assert "blaming S-3.3; the smallest:" in result.output
    assert "  compared: the legal actions" in result.output
    assert "S-3.3: take two needs at least 4 white in the supply; there are 3" in result.output


def test_the_house_rules_diverge_exactly_where_restated():
    """house restates S-4.1 (a limit of 12) and C-5.2 (18 points): the
    divergences are blamed on those two rules, and on no other."""
    result = invoke(conform_command, "classic", str(HOUSE), "--games", "2", "--plies", "40")
    assert result.exit_code == 1, result.output
    blamed = re.search(r"blaming (.*); the smallest:", result.output)
    assert blamed and "S-4.1" in blamed.group(1).split(", ")
    assert set(blamed.group(1).split(", ")) <= {"S-4.1", "C-5.2"}
    assert status(result, "S-4.1").startswith("shared (restated by an override): DIVERGES")
    # The nobles are shared too: the ones revealed at setup are compared.
    assert status(result, "C-2.3").startswith("shared: identical on")


def test_an_added_rule_that_acts_voids_the_comparison(tmp_path: Path):
    variant = tmp_path / "stone_per_card.rules"
    variant.write_text(STONE_PER_CARD)
    result = invoke(conform_command, "classic", str(variant), "--games", "1", "--plies", "40")
    assert result.exit_code == 1, result.output
    assert "NOT INERT: on" in result.output
    assert re.search(r"differs at seat \d holds 1 time_stone", result.output)
