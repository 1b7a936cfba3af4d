"""The front end's shape: the parser's table covers the grammar exactly, the
checks word no message themselves, and facts stated twice agree."""

from __future__ import annotations

import re
from pathlib import Path

from lark.grammar import Terminal

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend.identities import RENAMABLE_KINDS
from splendor_rules.dsl.building import RULES
from splendor_rules.dsl.diagnostics import Sources
from splendor_rules.dsl.parser import _lark

ROOT = Path(__file__).resolve().parent.parent
FRONTEND = ROOT / "compiler" / "frontend"


def _tree_names() -> set[str]:
    """Every name a node of Lark's parse tree can have: a rule or an alias,
    except the rules Lark inlines (_name, and ?name where one child is left)."""
    names = set()
    for rule in _lark().rules:
        name = str(rule.alias or rule.origin.name)
        if name.startswith("_"):
            continue
        kept = [
            symbol
            for symbol in rule.expansion
            if not (
                isinstance(symbol, Terminal)
                and symbol.filter_out
                and not rule.options.keep_all_tokens
            )
        ]
        if rule.options.expand1 and rule.alias is None and len(kept) == 1:
            continue
        names.add(name)
    return names


def test_every_grammar_rule_has_one_line_in_the_table() -> None:
    names = _tree_names()
    assert sorted(names - set(RULES)) == []  # rules the builder would not know
    assert sorted(set(RULES) - names) == []  # lines for rules the grammar lacks


def test_the_checks_word_no_message_themselves() -> None:
    """Every diagnostic of the front end is made in messages.py."""
    modules = [*sorted((FRONTEND / "checks").glob("*.py"))]
    modules += [FRONTEND / name for name in ("editions.py", "data.py", "rule_ids.py")]
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert "Diagnostic(" not in text, path.name
        assert "did_you_mean" not in text, path.name


def test_renamable_kinds_are_the_grammars() -> None:
    grammar = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    found = re.search(r"^!rename_kind:(.*)$", grammar, re.M)
    assert found is not None
    assert set(re.findall(r'"(\w+)"', found.group(1))) == RENAMABLE_KINDS


def test_a_key_is_described_as_messages_name_it() -> None:
    assert msgs.describe_key(("zone", "bought")) == "zone 'bought'"
    assert msgs.describe_key(("market", None)) == "market"


def test_sources_quote_lines_of_the_latest_text() -> None:
    sources = Sources()
    sources.add("f", "one\r\ntwo\u2028still two\nthree")
    assert sources.line("f", 1) == "one"
    assert sources.line("f", 2) == "two\u2028still two"
    assert sources.line("f", 4) is None
    assert sources.line("g", 1) is None
    sources.add("f", "new")
    assert sources.line("f", 1) == "new"
    assert sources.line("f", 2) is None
