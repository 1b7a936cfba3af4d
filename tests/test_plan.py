"""The engine plan of each shipped edition (discovered, not listed) has the
shape its model implies: an enumerator per action with a body, whose nested
operations follow the choice part's statements in order and end in the
move written; an apply that reads the move's values in order; effects
whose blocks end at a wait, each wait the follow-up it names; the steps at
the end of a turn, the endings, the scoring and the set-up (the variants'
too, which use what the shipped editions do not)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.native.lower import Lowering
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.build import build
from splendor_rules.compiler.backend.plan.show import show
from splendor_rules.compiler.backend.python.turns import Turns
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, edition_files
from splendor_rules.dsl.diagnostics import Sources

EDITIONS = tuple(path.stem for path in edition_files())
TESTS = Path(__file__).resolve().parent
VARIANTS = tuple(sorted((TESTS / "variants").glob("*.rules")))
# Each target's printer of the whole plan.
PRINTERS = (Turns, Lowering)
# Operations a printer may lack: those of a construct the target refuses,
# located (compiler/backend/unprinted.py: the native target's board).
NOT_YET = {Lowering: {"LineLoop", "PickLine", "TakeCells", "RefillBoard"}}

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
    assert [contest.statement for contest in plan.contests] == list(edition.majorities)


@pytest.mark.parametrize("name", EDITIONS)
def test_the_plan_prints_as_text(compiled_editions: dict[str, Compiled], name: str) -> None:
    edition = _model(compiled_editions, name)
    plan = build(edition)
    text = show(plan)
    lines = text.splitlines()
    for action in edition.actions:
        if action.body is not None:
            assert any(line.startswith(f"legal {action.name}") for line in lines)
        assert any(line.startswith(f"apply {action.name} ") for line in lines)
    enumerators = sum(a.body is not None for a in edition.actions)
    assert text.count("Emit") == enumerators + len(identities.follow_ups(edition))
    steps = [
        f"  {type(op).__name__} {op.statement.name} index={op.index}" for op in plan.turn_end.steps
    ]
    at = lines.index(f"turn end stops={plan.turn_end.stops!r}")
    assert [line[: len(step)] for line, step in zip(lines[at + 1 :], steps, strict=False)] == steps
    assert lines[at + 1 + len(steps)].startswith("  RoundEnds")


def _ops(block: ops.Block) -> Iterator[ops.Op]:
    for op in block:
        yield op
        body = getattr(op, "body", None)
        if isinstance(body, tuple):
            yield from _ops(body)


def test_every_printer_prints_every_operation() -> None:
    """Each target prints every operation of the plan (the base printer
    refuses one without a method); the operations are found, not listed."""
    kinds = [
        value
        for value in vars(ops).values()
        if isinstance(value, type) and issubclass(value, ops.Op) and value is not ops.Op
    ]
    assert len(kinds) > 30
    for printer in PRINTERS:
        missing = {k.__name__ for k in kinds if not hasattr(printer, f"visit_{k.__name__}")}
        assert missing <= NOT_YET.get(printer, set()), printer.__name__


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
    blocks += [plan.contests, (*plan.turn_end.steps, plan.turn_end.round_ends)]
    blocks += [(plan.scoring.score, plan.scoring.ranking), plan.setup.gifts, plan.setup.reveals]
    kinds = {type(op).__name__ for block in blocks for op in _ops(block)}
    assert {"RoundEnds", "Score", "Ranking"} <= kinds
    for printer in PRINTERS:
        assert sorted(k for k in kinds if not hasattr(printer, f"visit_{k}")) == []


# ------------------------------------------- the end of a turn, scoring, set-up

# The operation that stands for each kind of step.
STEP_OPS = {m.TokenLimit: ops.ReturnTokens, m.Claim: ops.ClaimTile, m.EndCheck: ops.CheckEnd}
MODES = ("once", "at_round_end", "at_turn_end")


@pytest.fixture(scope="module")
def models(compiled_editions: dict[str, Compiled]) -> dict[str, m.Edition]:
    """The shipped editions and the variants, their definitions inlined."""
    found = {name: _model(compiled_editions, name) for name in EDITIONS}
    for path in VARIANTS:
        compiled = compile_file(path, Sources())
        assert compiled.model is not None, path
        found[f"variants/{path.stem}"] = analysis.inline_definitions(compiled.model)
    return found


MODELS = (*EDITIONS, *(f"variants/{path.stem}" for path in VARIANTS))


@pytest.mark.parametrize("name", MODELS)
def test_the_end_of_a_turn_follows_the_steps_and_endings(
    models: dict[str, m.Edition], name: str
) -> None:
    edition = models[name]
    end = build(edition).turn_end
    assert [type(op) for op in end.steps] == [STEP_OPS[type(st)] for st in edition.steps]
    by_mode = {mode: [e for e in edition.endings if e.mode == mode] for mode in MODES}
    for index, (step, op) in enumerate(zip(edition.steps, end.steps, strict=True)):
        assert op.statement is step and op.index == index
        if isinstance(op, ops.ReturnTokens):
            assert isinstance(step, m.TokenLimit)
            counted = [t.name for i, t in enumerate(edition.tokens) if i in (op.counted or ())]
            assert (None if op.counted is None else counted) == (
                None if step.counted is None else list(step.counted)
            )
        elif isinstance(op, ops.CheckEnd):
            assert list(op.last_round) == by_mode["once"]
            assert list(op.game_over) == by_mode["at_turn_end"]
        else:
            assert isinstance(op, ops.ClaimTile) and isinstance(step, m.Claim)
            assert (op.faces is None) == (step.source is None)
            assert op.defines == tuple(sorted(analysis.defines_in(step.condition)))
    assert list(end.round_ends.endings) == by_mode["at_round_end"]
    assert end.stops == bool(by_mode["at_turn_end"])


@pytest.mark.parametrize("name", MODELS)
def test_the_scoring_and_set_up_are_the_models(models: dict[str, m.Edition], name: str) -> None:
    edition = models[name]
    plan = build(edition)
    assert plan.scoring.score.statement is edition.score
    assert plan.scoring.ranking.statement is edition.winners
    gifts = plan.setup.gifts
    assert [op.statement for op in gifts] == list(edition.seat_gifts)
    for op in gifts:
        assert op.after == op.statement.position - 1
        assert op.every_game == (op.statement.position <= edition.players[0])
    assert [op.statement for op in plan.setup.reveals] == list(edition.reveals)


def test_the_variants_use_what_the_shipped_editions_do_not(models: dict[str, m.Edition]) -> None:
    """The plans above hold a counted token limit, a claim from a zone of
    the player's, an ending at the turn's end and a gift by seat, at least
    once among them."""
    plans = [build(edition) for edition in models.values()]
    steps = [op for plan in plans for op in plan.turn_end.steps]
    assert any(isinstance(op, ops.ReturnTokens) and op.counted is not None for op in steps)
    assert any(isinstance(op, ops.ClaimTile) and op.faces is not None for op in steps)
    assert any(plan.turn_end.stops for plan in plans)
    assert any(plan.setup.gifts for plan in plans)
