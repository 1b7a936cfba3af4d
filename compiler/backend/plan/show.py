"""The engine plan as indented text, one operation a line: what a reader
(or a test) sees of the plan without a target. A third printer of the
plan, through the base printer's walk, with one method for every operation:
its kind, its statement's place in the rule file, and its facts."""

from __future__ import annotations

import attrs

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.printer import PlanPrinter


def _fact(value: object) -> str | None:
    """A fact shown as text; None for what the line does not show (the
    statement, a nested block)."""
    if isinstance(value, bool | int | str) or value is None:
        return repr(value)
    if isinstance(value, tuple) and all(isinstance(v, str | int) for v in value):
        return repr(value)
    return None


class TextPrinter(PlanPrinter[str, int]):
    """Each operation a line, indented by its depth (the printer's frame)."""

    def visit_Op(self, op: ops.Op, depth: int) -> tuple[list[str], int]:
        facts = []
        for field in attrs.fields(type(op)):
            value = getattr(op, field.name)
            shown = _fact(value)
            if shown is not None:
                facts.append(f"{field.name}={shown}")
        statement = getattr(op, "statement", None)
        name = getattr(statement, "name", None)
        head = type(op).__name__ + (f" {name}" if isinstance(name, str) else "")
        lines = ["  " * depth + " ".join([head, *facts])]
        body = getattr(op, "body", None)
        if isinstance(body, tuple):
            inner, _ = self.block(body, depth + 1)
            lines.extend(inner)
        return lines, depth


def show(plan: ops.Plan) -> str:
    """The whole plan: per action its enumerator and apply, per trigger its
    effects, per follow-up its options and rests."""
    printer = TextPrinter()
    lines: list[str] = []
    for legal, apply in zip(plan.legal, plan.apply, strict=True):
        if legal is not None:
            lines.append(f"legal {legal.action.name}" + _early(legal) + _before(legal.before))
            lines.extend(printer.block(legal.body, 1)[0])
        lines.append(f"apply {apply.action.name} values={apply.values!r}" + _before(apply.before))
        lines.extend(printer.block(apply.reads, 1)[0])
        lines.append("  effects")
        lines.extend(printer.block(apply.effects, 2)[0])
    for trigger in plan.triggers:
        lines.append(f"trigger {trigger.trigger.name} waits={trigger.waits!r}")
        lines.extend(printer.block(trigger.body, 1)[0])
    for hook in plan.hooks:
        triggers = [t.trigger.name for t in hook.triggers]
        majorities = [j.name for j in hook.majorities]
        lines.append(f"hook {hook.zone} triggers={triggers!r} majorities={majorities!r}")
    for follow in plan.follow_ups:
        lines.append(f"follow-up {follow.index} {follow.site.name}")
        lines.extend(printer.block((follow.options,), 1)[0])
        for label, blocks in (("take", follow.take), ("skip", follow.skip)):
            lines.append(f"  {label}")
            lines.extend(printer.blocks(blocks, 2)[0])
    return "\n".join(lines) + "\n"


def _early(legal: ops.Legal) -> str:
    """The choice after which the payment's cost is tested, if any."""
    return "" if legal.early is None else f" early cost test at {legal.early.choice}"


def _before(before: ops.Before | None) -> str:
    """An action taken before the main one: its place, and the stage after."""
    return "" if before is None else f" before main: place {before.place}, then {before.after}"
