"""Requirements decided by a card's data alone (backend/analysis.py,
`card_condition`), which let a native engine look at only the market's
slots whose decks hold a card that may meet them.

The conditions are The Orient's own (editions/orient.rules), so this test
reads that edition; the differential tests of tests/test_native.py check
that the engines that skip slots offer the same moves as those that do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.plan.build import Facts
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file

ORIENT = Path(__file__).resolve().parent.parent / "editions" / "orient.rules"


@pytest.fixture(scope="module")
def orient() -> m.Edition:
    compiled = compile_file(ORIENT)
    assert compiled.model is not None
    return analysis.inline_definitions(compiled.model)


def requirements(edition: m.Edition, action: str) -> list[m.Expr]:
    found = next(a for a in edition.actions if a.name == action)
    return [st.condition for st in analysis.choice_part(found) if isinstance(st, m.Require)]


def test_data_decides_or_leaves_open(orient: m.Edition) -> None:
    """O-3.5: a card bought by sacrifice needs k.sacrifice_count > 0 (the
    data decides); the cards offered are the player's (play decides)."""
    by_data, by_play = requirements(orient, "sacrifice")
    rows = orient.cards.rows
    for row in rows:
        assert analysis.card_condition(by_data, "k", row) is (row["sacrifice_count"] > 0)
        assert analysis.card_condition(by_play, "k", row) is None
    assert analysis.card_condition(by_data, "other", rows[0]) is None  # another name


def test_one_part_decides_or_and_and(orient: m.Edition) -> None:
    """S-3.5 O-3.1: `k.kind != "joker" or coloured` holds for any card but a
    joker whatever the state; for a joker, the state decides."""
    _, joker_rule = requirements(orient, "buy")
    for row in orient.cards.rows:
        expected = None if row["kind"] == "joker" else True
        assert analysis.card_condition(joker_rule, "k", row) is expected


def test_market_slots(orient: m.Edition) -> None:
    """The native engine's sacrifice looks only from the first to the last
    deck holding a card bought by sacrifice; its buy looks at every deck."""
    decks = identities.decks(orient)
    with_sacrifice = [
        d
        for d, cards in enumerate(decks.deck_cards)
        if any(orient.cards.rows[k]["sacrifice_count"] for k in cards)
    ]
    assert with_sacrifice and with_sacrifice != list(range(len(decks.deck_cards)))
    starts = [sum(decks.face_up[:d]) for d in range(len(decks.face_up) + 1)]
    facts = Facts.of(orient)
    for action, expected in (
        ("sacrifice", (starts[with_sacrifice[0]], starts[with_sacrifice[-1] + 1])),
        ("buy", None),
    ):
        part = analysis.choice_part(next(a for a in orient.actions if a.name == action))
        choice = part[0]
        assert isinstance(choice, m.Choose)
        assert facts.market_slots(choice, tuple(part[1:])) == expected
