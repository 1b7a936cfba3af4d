"""A wild token that counts as more than one in payments where a condition
holds (`token KIND: wild, counts as N in payments where COND`,
docs/language.md): each such token pays up to N units of one colour for a
player meeting COND, as Cities of Splendor's trading post lets a gold token
count as two gems of one colour.

The reference interpreter plays it; the Python and native targets do not
print it yet and refuse an edition that uses it, located at the token (so
it has no variant under tests/variants/ yet, which every target builds).

The edition below (rule W-1.1): classic, where gold counts as 2 for a player
who owns 3 cards or more.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from splendor_rules.compiler.backend.targets import named, names
from splendor_rules.compiler.backend.unprinted import NotPrinted
from splendor_rules.compiler.cli import main
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

RULES = """\
edition worth "Splendor, gold worth two" extends classic {
  remove reference "RULES.md"
  override token gold "gold": wild, [W-1.1] counts as 2 in payments where count(bought) >= 3
}
"""
TARGET = 24  # a tier-1 card costing 3 white


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> m.Edition:
    path = tmp_path_factory.mktemp("worth") / "worth.rules"
    path.write_text(RULES, encoding="utf-8")
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


@pytest.fixture(scope="module")
def engine(model: m.Edition) -> InterpretedEngine:
    return InterpretedEngine(model)


def position(engine: InterpretedEngine, model: m.Edition, owned: int, white: int, gold: int) -> Any:
    """Player 0 to move, card 24 (3 white) face up, owning `owned` blue
    cards and holding `white` white and `gold` gold tokens."""
    assert model.cards.rows[TARGET]["cost"] == (3, 0, 0, 0, 0)
    blues = [k for k, r in enumerate(model.cards.rows) if r["bonus"] == "blue"][:owned]
    data = engine.to_json(engine.new_game(2, 1))
    placed = {TARGET, *blues}
    for tier, deck in data["decks"].items():
        cards = [k for k in (*deck, *data["market"][tier]) if k is not None and k not in placed]
        size = len(data["market"][tier])
        shown = [TARGET, *cards[: size - 1]] if tier == "1" else cards[:size]
        data["market"][tier], data["decks"][tier] = shown, cards[len(shown) - (tier == "1") :]
    data["seats"][0]["zones"]["bought"] = blues
    for kind, n in (("white", white), ("gold", gold)):
        data["supply"][kind] -= n
        data["seats"][0]["tokens"][kind] = n
    return engine.from_json(data)


def payments(engine: InterpretedEngine, state: Any) -> list[dict[str, int]]:
    """The ways to buy card 24, each as the tokens it spends."""
    moves = [engine.action_to_json(a) for a in engine.legal_actions(state)]
    found = [a["pay"] for a in moves if a["action"] == "buy" and a["k"] == TARGET]
    return [{kind: n for kind, n in pay.items() if n} for pay in found]


def test_w_1_1_a_gold_token_pays_two_of_one_colour(engine: Any, model: m.Edition) -> None:
    state = position(engine, model, owned=3, white=1, gold=2)
    assert payments(engine, state) == [{"white": 1, "gold": 1}, {"gold": 2}]
    move = {"action": "buy", "k": TARGET, "pay": {"white": 1, "gold": 1}}
    after = engine.to_json(engine.apply(state, engine.action_from_json(move)))
    assert TARGET in after["seats"][0]["zones"]["bought"]
    held = after["seats"][0]["tokens"]
    assert (held.get("white", 0), held["gold"]) == (0, 1)


def test_w_1_1_without_the_condition_a_gold_token_pays_one(engine: Any, model: m.Edition) -> None:
    state = position(engine, model, owned=2, white=1, gold=2)
    assert payments(engine, state) == [{"white": 1, "gold": 2}]
    assert payments(engine, position(engine, model, owned=2, white=0, gold=2)) == []


def test_w_1_1_a_payment_of_too_little_is_refused(engine: Any, model: m.Edition) -> None:
    state = position(engine, model, owned=3, white=0, gold=1)
    assert payments(engine, state) == []
    move = {"action": "buy", "k": TARGET, "pay": {"gold": 1}}
    with pytest.raises(ValueError, match=r"S-3\.5: paying"):
        engine.apply(state, engine.action_from_json(move))


@pytest.mark.parametrize("target", names())
def test_the_targets_refuse_it_at_the_token(target: str, model: m.Edition) -> None:
    with pytest.raises(NotPrinted) as refused:
        named(target).render_engine(model, Path(model.file).parent)
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.span.line == 3
    assert "counts as more than one in payments" in diagnostic.message


def test_build_out_refuses_it_located(model: m.Edition, tmp_path: Path) -> None:
    """`build FILE --out DIR` of such an edition: the located refusal, exit
    1, nothing written (was a traceback)."""
    out = tmp_path / "engines"
    result = CliRunner().invoke(main, ["build", model.file, "--out", str(out)])
    assert result.exit_code == 1
    assert "worth.rules:3:" in result.output and "Traceback" not in result.output
    assert not out.exists()
