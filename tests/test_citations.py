"""A rule cited at several places: `[see O-3.3] require …`.

A rule id is stated at one place of an edition (the rulebook check and
`doc` find it there); a requirement that enforces it elsewhere cites it with
`see`, and its refusal names it on every engine (the two Orient scenarios
orient_joker_refused_names_rule.json and
orient_sacrifice_with_tokens_names_rule.json hold the engines to it).
"""

from __future__ import annotations

from pathlib import Path

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.frontend.rule_ids import cited_ids_in, rule_ids_in
from splendor_rules.compiler.tools.rulebook import make_rulebook
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.parser import parse_edition
from splendor_rules.dsl.unparse import unparse_declaration

ROOT = Path(__file__).resolve().parent.parent
ORIENT = ROOT / "editions" / "orient.rules"

BUY = """edition x "x" {
  [S-3.5] action buy {
    choose k from market
    [O-3.6, see O-3.3] require k.points > 0 else "no"
  }
}
"""


def _edition(folder: Path, body: str) -> Path:
    path = folder / "cites.rules"
    path.write_text(f'edition cites "cites" extends classic {{\n{body}\n}}\n', encoding="utf-8")
    return path


def test_a_citation_is_parsed_and_written_back() -> None:
    tree, diagnostics = parse_edition(BUY, "x.rules")
    assert not diagnostics and tree is not None
    action = tree.items[0]
    assert isinstance(action, s.Action) and action.body
    require = action.body[1]
    assert [(t.text, t.cited) for t in require.tags] == [("O-3.6", False), ("O-3.3", True)]
    assert [t.text for t in rule_ids_in(action)] == ["S-3.5", "O-3.6"]
    assert [t.text for t in cited_ids_in(action)] == ["O-3.3"]
    assert '[O-3.6, see O-3.3] require k.points > 0 else "no"' in "\n".join(
        unparse_declaration(action)
    )


def test_the_orient_refusals_name_the_rules_they_cite() -> None:
    compiled = compile_file(ORIENT)
    assert compiled.ok and compiled.model is not None
    buy = next(a for a in compiled.model.actions if a.name == "buy")
    requirements = [st for st in buy.body or () if isinstance(st, m.Require)]
    assert [r.rule_ids for r in requirements] == [
        ("O-3.5", "S-3.5", "O-3.1"),
        ("O-3.3", "S-3.5", "O-3.1"),
    ]
    # Each is still stated once, where it was: the trigger, the sacrifice.
    assert list(compiled.model.rule_ids).count("O-3.3") == 1


def test_a_citation_states_nothing(tmp_path: Path) -> None:
    """Citing a rule the edition drops leaves it stated nowhere: the
    rulebook's coverage and the citation both say so."""
    path = _edition(
        tmp_path,
        """  override action take_two "take two tokens" {
    choose c from colours
    [see S-3.3] require supply(c) >= 4 else "no"
    gain 2 c
  }""",
    )
    messages = [d.message for d in compile_file(path).diagnostics if d.severity == "error"]
    assert "rule S-3.3 is cited but stated nowhere in this edition" in messages
    assert "rule S-3.3 of the reference is stated nowhere in this edition" in messages


def test_the_rulebook_says_a_cited_rule_where_it_is_enforced() -> None:
    book = make_rulebook(ORIENT)
    joker = next(r for r in book.rules if r.rule_id == "O-3.3")
    # What states it first, then the requirement that cites it.
    assert joker.sentences[0].startswith("Each time a card")
    assert joker.sentences[-1].startswith("In action “buy a card”: The move is legal only if")
    assert not any("O-3.3" in r.rule_id for r in book.rules if r.rule_id != "O-3.3")
