"""Counts required of a filtered local, read first from a tally a zone
keeps (backend/analysis.py, `tally_prechecks`): the native engine tests
`E == none or tally[E] >= N` before it builds `let L = x in Z where KEY ==
E`, when `require count(L) >= N` follows.

The shape is The Orient's sacrifice (O-3.5, editions/orient.rules), so
this test reads that edition; the differential tests of tests/test_native.py
check that the engines that test early offer the same moves as those that
do not, on it and on random editions that draw the shape.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file

ORIENT = Path(__file__).resolve().parent.parent / "editions" / "orient.rules"


@pytest.fixture(scope="module")
def sacrifice() -> m.Action:
    compiled = compile_file(ORIENT)
    assert compiled.model is not None
    edition = analysis.inline_definitions(compiled.model)
    return next(a for a in edition.actions if a.name == "sacrifice")


def test_offered_count_is_read_from_a_tally(sacrifice: m.Action) -> None:
    """O-3.5: `let offered = x in bought where colour_of(x) == k.sacrifice_colour`,
    then `require count(offered) >= k.sacrifice_count`: tested before the let."""
    part = analysis.choice_part(sacrifice)
    found = analysis.tally_prechecks(sacrifice)
    (index,) = found
    let = part[index]
    assert isinstance(let, m.Let) and let.name == "offered"
    test = found[index]
    assert isinstance(test, m.Logic) and test.op == "or"
    unset, enough = test.operands
    assert isinstance(unset, m.Binary) and unset.op == "=="
    assert isinstance(enough, m.Binary) and enough.op == ">="
    (tally,) = analysis.aggregates_in(test)
    assert tally[0] == "totals" and tally[1] == "bought"


def test_no_early_test_when_the_bound_is_not_known_yet(sacrifice: m.Action) -> None:
    """A count compared with a local bound after the let cannot be tested
    before it."""
    assert sacrifice.body is not None
    body = list(sacrifice.body)
    at = next(i for i, st in enumerate(body) if isinstance(st, m.Let) and st.name == "offered")
    require = next(st for st in body[at:] if isinstance(st, m.Require))
    assert isinstance(require.condition, m.Binary)
    bound = require.condition.right
    later = m.Let(rule_ids=(), span=require.span, name="needed", value=bound)
    needed = m.Ref(type=bound.type, span=bound.span, kind="variable", name="needed")
    reworded = attrs.evolve(require, condition=attrs.evolve(require.condition, right=needed))
    body[at + 1 : at + 1] = [later]
    body[body.index(require)] = reworded
    changed = attrs.evolve(sacrifice, body=tuple(body))
    assert analysis.tally_prechecks(changed) == {}


def test_an_upper_bound_gives_no_early_test(sacrifice: m.Action) -> None:
    """`count(L) <= N` is not implied by a tally being large enough: no test."""
    assert sacrifice.body is not None
    body = list(sacrifice.body)
    at = next(i for i, st in enumerate(body) if isinstance(st, m.Let) and st.name == "offered")
    require = next(st for st in body[at:] if isinstance(st, m.Require))
    assert isinstance(require.condition, m.Binary)
    upper = attrs.evolve(require, condition=attrs.evolve(require.condition, op="<="))
    body[body.index(require)] = upper
    assert analysis.tally_prechecks(attrs.evolve(sacrifice, body=tuple(body))) == {}
