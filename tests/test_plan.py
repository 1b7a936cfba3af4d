"""The engine plan of each shipped edition (discovered, not listed) has the
shape its model implies: an enumerator per action with a body, whose nested
operations follow the choice part's statements in order and end in the
move written; an apply that reads the move's values in order; effects
whose blocks end at a wait, each wait the follow-up it names."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.native.statements import Statements
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.build import build
from splendor_rules.compiler.backend.plan.show import show
from splendor_rules.compiler.backend.python.actions import Actions
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import Compiled, edition_files

EDITIONS = tuple(path.stem for path in edition_files())

# The operation that stands for each statement of a choice part, in an
# enumerator and in an apply.
IN_LEGAL = {
    ops.Let: "Let",
    ops.ChoiceLoop: "Choose",
    ops.CombinationLoop: "ChooseDistinct",
    ops.LineLoop: "ChooseLine",
    ops.Payment: "Pay",
}
IN_APPLY = {
    ops.Let: "Let",
    ops.Pick: "Choose",
    ops.PickSet: "ChooseDistinct",
    ops.PickLine: "ChooseLine",
    ops.Check: "Require",
    ops.PickPayment: "Pay",
}


def _model(compiled_editions: dict[str, Compiled], name: str) -> m.Edition:
    model = compiled_editions[name].model
    assert model is not None
    return analysis.inline_definitions(model)


def _legal_path(block: ops.Block) -> Iterator[str]:
    """The statement kinds an enumerator's nested operations stand for, in
    order, then "Emit"; each block holds its nesting operation last."""
    for position, op in enumerate(block):
        body = getattr(op, "body", None)
        if body is not None:
            assert position == len(block) - 1, f"{op} nests, yet is not last"
        if isinstance(op, ops.Guard):
            yield from ("Require" for _ in op.requirements)
        elif isinstance(op, ops.Precheck):
            assert isinstance(op.body[0], ops.Let), "a precheck goes before a let"
        elif isinstance(op, ops.Emit):
            yield "Emit"
        else:
            yield IN_LEGAL[type(op)]
        if body is not None:
            yield from _legal_path(body)


def _blocks(block: ops.Block) -> Iterator[ops.Block]:
    yield block
    for op in block:
        if isinstance(op, ops.When):
            yield from _blocks(op.body)


@pytest.mark.parametrize("name", EDITIONS)
def test_each_enumerator_follows_its_choice_part(
    compiled_editions: dict[str, Compiled], name: str
) -> None:
    edition = _model(compiled_editions, name)
    plan = build(edition)
    assert len(plan.legal) == len(plan.apply) == len(edition.actions)
    for action, legal in zip(edition.actions, plan.legal, strict=True):
        if action.body is None:
            assert legal is None
            continue
        assert legal is not None and legal.action is action
        part = analysis.choice_part(action)
        expected = [type(st).__name__ for st in part]
        assert list(_legal_path(legal.body)) == [*expected, "Emit"], action.name
        assert legal.defines == tuple(sorted(analysis.defines_in(tuple(part))))
        if legal.early is not None:
            assert any(st is legal.early.pay for st in part)


@pytest.mark.parametrize("name", EDITIONS)
def test_each_apply_reads_its_move_in_order(
    compiled_editions: dict[str, Compiled], name: str
) -> None:
    edition = _model(compiled_editions, name)
    plan = build(edition)
    for action, apply in zip(edition.actions, plan.apply, strict=True):
        part = analysis.choice_part(action)
        assert [IN_APPLY[type(op)] for op in apply.reads] == [type(st).__name__ for st in part]
        signature = [value for value, _ in identities.action_signature(action)]
        assert len(apply.values) == len(signature), action.name
        picks = ops.Pick | ops.PickSet | ops.PickLine
        positions = [op.position for op in apply.reads if isinstance(op, picks)]
        assert positions == list(range(1, len(positions) + 1))


@pytest.mark.parametrize("name", EDITIONS)
def test_effects_end_at_a_wait_for_the_follow_up_named(
    compiled_editions: dict[str, Compiled], name: str
) -> None:
    edition = _model(compiled_editions, name)
    plan = build(edition)
    sites = identities.follow_ups(edition)
    blocks = [apply.effects for apply in plan.apply] + [t.body for t in plan.triggers]
    blocks += [b for follow in plan.follow_ups for b in (*follow.take, *follow.skip)]
    waits = 0
    for block in (inner for outer in blocks for inner in _blocks(outer)):
        for position, op in enumerate(block):
            if isinstance(op, ops.Wait):
                waits += 1
                assert position == len(block) - 1, "nothing follows a wait in its block"
                assert sites[op.site].choice is op.choice
                assert op.carried == tuple(n for n, _ in sites[op.site].bound)
    assert (waits > 0) == bool(sites)
    waiting = [t.trigger for t in plan.triggers if t.waits]
    assert waiting == [t for t in edition.triggers if any(s.owner is t for s in sites)]
    hooked = [trigger.trigger for hook in plan.hooks for trigger in hook.triggers]
    assert sorted(t.name for t in hooked) == sorted(t.name for t in edition.triggers)
    assert [follow.site for follow in plan.follow_ups] == list(sites)


@pytest.mark.parametrize("name", EDITIONS)
def test_the_plan_prints_as_text(compiled_editions: dict[str, Compiled], name: str) -> None:
    edition = _model(compiled_editions, name)
    text = show(build(edition))
    lines = text.splitlines()
    for action in edition.actions:
        if action.body is not None:
            assert any(line.startswith(f"legal {action.name}") for line in lines)
        assert any(line.startswith(f"apply {action.name} ") for line in lines)
    enumerators = sum(a.body is not None for a in edition.actions)
    assert text.count("Emit") == enumerators + len(identities.follow_ups(edition))


def _ops(block: ops.Block) -> Iterator[ops.Op]:
    for op in block:
        yield op
        body = getattr(op, "body", None)
        if isinstance(body, tuple):
            yield from _ops(body)


def test_the_python_printer_prints_every_operation() -> None:
    """The Python target prints every operation of the plan (the base
    printer refuses one without a method); the operations are found, not
    listed."""
    kinds = [
        value
        for value in vars(ops).values()
        if isinstance(value, type) and issubclass(value, ops.Op) and value is not ops.Op
    ]
    assert len(kinds) > 20
    assert [k.__name__ for k in kinds if not hasattr(Actions, f"visit_{k.__name__}")] == []


@pytest.mark.parametrize("name", EDITIONS)
def test_each_target_prints_the_operations_of_each_edition(
    compiled_editions: dict[str, Compiled], name: str
) -> None:
    """Every target prints every operation a shipped edition's plan holds
    (a target may refuse, located, a construct no shipped edition uses)."""
    plan = build(_model(compiled_editions, name))
    blocks = [legal.body for legal in plan.legal if legal is not None]
    blocks += [block for apply in plan.apply for block in (apply.reads, apply.effects)]
    blocks += [t.body for t in plan.triggers]
    blocks += [(f.options,) for f in plan.follow_ups]
    blocks += [b for f in plan.follow_ups for b in (*f.take, *f.skip)]
    kinds = {type(op).__name__ for block in blocks for op in _ops(block)}
    for printer in (Actions, Statements):
        assert sorted(k for k in kinds if not hasattr(printer, f"visit_{k}")) == []
