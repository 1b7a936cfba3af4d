"""Conformance of an edition with more card tables, markets and card values
than its parent (editions/orient.rules over classic; docs/conformance.md).

The probes remove the card tables and markets the two editions do not share
(their columns move to the unnamed table, at the defaults its cards hold), so
the rules orient inherits are compared and found identical, and what it
overrides or adds is listed as changed, not as a divergence. A shared rule
that really diverges is still found, and tables both editions share stay in
play.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from splendor_rules.compiler.cli.conform import command as conform_command
from splendor_rules.compiler.cli.diff import command as diff_command
from splendor_rules.compiler.frontend.pipeline import Compiled
from splendor_rules.compiler.tools.conformance import (
    build_probes,
    check_conformance,
    diff_editions,
    edition_path,
)

# The rules orient inherits from classic unchanged.
INHERITED = [
    "S-2.1", "C-2.2", "C-2.3", "S-2.4", "S-3.1", "S-3.2", "S-3.3", "S-3.4", "S-3.6", "E-3.8",
    "S-4.1", "C-4.2", "S-4.3", "S-4.4", "C-5.1", "C-5.2", "E-6.1", "E-6.2", "E-6.3",
]  # fmt: skip

# What orient overrides (before -> after) and adds, as the CHANGED section lists it.
CHANGED = [
    "  define bonus: no rule id -> O-3.2, O-4.1 (overridden)",
    "  action buy: S-3.5 -> S-3.5, O-3.1, O-3.6 (overridden)",
    "  winners: C-5.3 -> C-5.3, O-4.2 (overridden)",
    "  reference ORIENT.md: no rule id (added)",
    "  cards orient: O-1.1 (added)",
    "  card value taken: no rule id (added)",
    "  define colour_of: no rule id (added)",
    "  define coloured: no rule id (added)",
    "  market orient: O-2.1 (added)",
    "  action sacrifice: O-3.5, O-3.7 (added)",
    "  trigger joker_colour: O-3.3 (added)",
    "  trigger free_card: O-3.4 (added)",
]

# A child of orient that changes an inherited rule: take two needs 3 tokens.
TAKE_TWO_FROM_3 = """\
edition orient_take_two "Orient, take two from 3" extends orient {
  override [S-3.3] action take_two "take 2 tokens of one colour" {
    choose c from colours
    require supply(c) >= 3 else "take two needs at least 3 {c} in the supply"
    gain 2 c
  }
}
"""

# A child of orient that changes a trigger's follow-up choice: a joker takes
# any colour, not only one its owner has.
JOKER_ANY_COLOUR = """\
edition orient_joker "Orient, a joker takes any colour" extends orient {
  override [O-3.3] trigger joker_colour: after card k enters bought {
    if k.kind == "joker" {
      choose c from x in colours where true
      set k.taken = c
    }
  }
}
"""


def invoke(command: object, *args: str) -> Result:
    return CliRunner().invoke(command, list(args))  # type: ignore[arg-type]


def status(result: Result, rule_id: str) -> str:
    found = re.search(rf"^{re.escape(rule_id)}\s+\| (.*)$", result.output, re.M)
    assert found, f"no row for {rule_id}:\n{result.output}"
    return found.group(1)


def changed_section(result: Result) -> list[str]:
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("CHANGED from"))
    end = lines.index("", start)
    return lines[start + 1 : end]


@pytest.fixture(scope="module")
def classic_orient() -> Result:
    return invoke(conform_command, "classic", "orient", "--games", "3")


def test_conform_classic_orient_exits_0(classic_orient: Result) -> None:
    assert classic_orient.exit_code == 0, classic_orient.output
    assert "DIVERGE" not in classic_orient.output
    assert "NOT INERT" not in classic_orient.output
    shared = f"no divergence: the {len(INHERITED)} shared rule ids behave identically"
    assert shared in classic_orient.output


@pytest.mark.parametrize("rule_id", INHERITED)
def test_every_inherited_rule_is_identical(classic_orient: Result, rule_id: str) -> None:
    found = re.fullmatch(r"shared: identical on (\d+) positions", status(classic_orient, rule_id))
    assert found and int(found.group(1)) > 0, status(classic_orient, rule_id)


def test_the_changed_rules_are_listed(classic_orient: Result) -> None:
    assert (
        status(classic_orient, "S-3.5") == "changed: action buy overridden as S-3.5, O-3.1, O-3.6"
    )
    assert status(classic_orient, "C-5.3") == "changed: winners overridden as C-5.3, O-4.2"
    assert status(classic_orient, "O-3.1") == "added (overriding S-3.5)"
    for rule_id in ("O-1.1", "O-2.1", "O-3.3", "O-3.4", "O-3.5", "O-3.7"):
        assert status(classic_orient, rule_id) == "added", rule_id
    heading = "CHANGED from classic to orient (12 declarations, not compared):"
    assert heading in classic_orient.output.splitlines()
    assert changed_section(classic_orient) == CHANGED


def test_conform_orient_classic_lists_the_same_changes_removed() -> None:
    result = invoke(conform_command, "orient", "classic", "--games", "2")
    assert result.exit_code == 0, result.output
    assert "DIVERGE" not in result.output
    for rule_id in INHERITED:
        assert status(result, rule_id).startswith("shared: identical on"), rule_id
    assert status(result, "O-3.5") == "removed"
    assert "  market orient: O-2.1 (removed)" in changed_section(result)


def _heading(changed: str) -> str:
    """A CHANGED line as `diff` heads the declaration: `name [ids]`."""
    name, ids = changed.strip().rsplit(" (", 1)[0].split(": ", 1)
    return name if ids == "no rule id" else f"{name} [{ids}]"


def _headings(lines: list[str]) -> list[str]:
    found = []
    for line in lines:
        if line.startswith("  ") and not line.startswith("   "):
            text = line[2:]
            found.append(text[: text.index("]:") + 1] if "]:" in text else text.split(":")[0])
    return found


def test_diff_classic_orient_lists_the_changes() -> None:
    result = invoke(diff_command, "classic", "orient")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:2] == ["classic -> orient: orient extends classic", "renamed: none"]
    overridden, added = lines.index("overridden (3):"), lines.index("added (9):")
    removed = lines.index("removed: none")
    # Each declaration's heading (its name and rule ids) is a line indented by
    # two; its rule text follows (docs/conformance.md).
    assert _headings(lines[overridden + 1 : added]) == [
        _heading(line) for line in CHANGED if line.endswith("(overridden)")
    ]
    assert sorted(_headings(lines[added + 1 : removed])) == sorted(
        _heading(line) for line in CHANGED if line.endswith("(added)")
    )
    assert "removed: none" in lines
    inherited = next(line for line in lines if line.startswith("inherited unchanged"))
    assert inherited.startswith("inherited unchanged (27 declarations, 19 rule ids): ")
    assert inherited.split(": ", 1)[1].split(", ") == INHERITED


def test_the_probe_removes_the_unshared_table_and_keeps_the_defaults(
    tmp_path: Path, compiled_editions: dict[str, Compiled]
) -> None:
    """The probe of orient has no orient cards: its table and market are
    removed, their rule ids restated on the cards, and the classic cards hold
    the defaults of the orient columns, as they do in the real edition."""
    classic, orient = compiled_editions["classic"], compiled_editions["orient"]
    assert classic.resolved is not None and orient.resolved is not None
    diff = diff_editions(classic.resolved, orient.resolved)
    probe_a, probe_b = build_probes(classic, orient, diff, tmp_path)
    assert "  remove cards orient\n  remove market orient\n" in probe_b.text
    assert "override [O-1.1, O-2.1] cards from" in probe_b.text
    assert "remove" not in probe_a.text
    rows_a, rows_b = probe_a.model.cards.rows, probe_b.model.cards.rows
    assert len(rows_a) == len(rows_b) == 90 and probe_b.model.markets == ()
    assert [row["cost"] for row in rows_a] == [row["cost"] for row in rows_b]
    assert {(r["kind"], r["bonuses"], r["free_tier"], r["sacrifice_count"]) for r in rows_b} == {
        ("plain", 1, 0, 0)
    }


def test_a_planted_divergence_under_orient_is_found(tmp_path: Path) -> None:
    """A child of orient that changes take two: conform from orient keeps
    the orient cards in play (their table is shared) and blames S-3.3."""
    variant = tmp_path / "orient_take_two.rules"
    variant.write_text(TAKE_TWO_FROM_3)
    result = invoke(conform_command, "orient", str(variant), "--games", "2")
    assert result.exit_code == 1, result.output
    assert status(result, "S-3.3").startswith("shared (restated by an override): DIVERGES")
    assert status(result, "O-3.5").startswith("shared: identical on")
    assert "DIVERGENCE" in result.output and "  rules: S-3.3" in result.output


def test_a_planted_divergence_from_classic_is_found(tmp_path: Path) -> None:
    """The same change seen from classic: S-3.3 diverges; orient's own
    changes are still listed as changed."""
    variant = tmp_path / "orient_take_two.rules"
    variant.write_text(TAKE_TWO_FROM_3)
    result = invoke(conform_command, "classic", str(variant), "--games", "2")
    assert result.exit_code == 1, result.output
    assert status(result, "S-3.3").startswith("shared (restated by an override): DIVERGES")
    assert status(result, "S-3.1").startswith("shared: identical on")
    assert "  rules: S-3.3" in result.output
    assert "  market orient: O-2.1 (added)" in changed_section(result)


def test_a_planted_divergence_in_a_follow_up_is_found(tmp_path: Path) -> None:
    """Positions where a shared trigger's follow-up decision is pending are
    compared too: the joker's colour options differ, blamed on O-3.3."""
    variant = tmp_path / "orient_joker.rules"
    variant.write_text(JOKER_ANY_COLOUR)
    result = invoke(conform_command, "orient", str(variant), "--games", "4")
    assert result.exit_code == 1, result.output
    assert status(result, "O-3.3").startswith("shared (restated by an override): DIVERGES")
    assert status(result, "O-3.4").startswith("shared: identical on")
    assert "  rules: O-3.3" in result.output
    assert '"action":"joker_colour.c"' in result.output


def test_the_changed_buy_is_compared_as_a_change() -> None:
    """Orient's buy has a choice classic's lacks (the cards spent as wild
    units): a classic move is orient's with none spent, so buys are applied
    in both probes; they agree, and any difference would be the change's."""
    for a, b in (("classic", "orient"), ("orient", "classic")):
        report = check_conformance(edition_path(a), edition_path(b), games=2)
        assert report.tallies["S-3.5"].ok and not report.tallies["S-3.5"].bad
        assert not report.changed and not report.cases and not report.void
        assert report.tallies["S-3.6"].ok and report.tallies["E-3.8"].ok
