"""The Python printer's operations of several actions a turn
(docs/language.md, "Several actions a turn"): an action taken before the
main one (`ops.Before`, on its enumerator and its apply) and `play another
turn` (`ops.AnotherTurn`), kept apart from `Actions`, whose printer they
are part of. `_taken_before` and the end of the turn are the engine
template's, written once for every edition that has them."""

from __future__ import annotations

import ast

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.frontend import model as m

Printed = tuple[list[ast.stmt], Frame]


def closed(before: ops.Before) -> ast.expr:
    """An action before the main one is closed once the turn's stage is
    past its place (a later one, or itself if once, has been taken)."""
    return py.binary(py.attr("s", "stage"), ">", py.const(before.place))


def illegal(message: str) -> ast.Raise:
    return py.raise_(py.call("IllegalAction", py.const(message)))


class SeveralPrinting:
    """Mixed into `Actions` (after its other bases, which provide what the
    stubs below stand for)."""

    def comment(self, st: m.Statement, own: tuple[str, ...]) -> list[ast.stmt]:
        raise NotImplementedError

    def ids(self, part: m.Part) -> str:
        raise NotImplementedError

    def bit(self, action: m.Action) -> ast.expr:
        raise NotImplementedError

    @staticmethod
    def open_moves(before: ops.Before | None) -> list[ast.stmt]:
        """At the top of an enumerator: no move while the action is closed."""
        return [] if before is None else [py.if_(closed(before), [py.return_()])]

    def open_apply(self, plan: ops.Apply) -> list[ast.stmt]:
        """At the top of an apply: a closed action refused, naming its rules."""
        if plan.before is None:
            return []
        name = plan.action.name
        message = (
            f"{self.ids(plan.action)}: '{name}' is no longer open this turn: the actions"
            " before the main action are taken in their declared order"
        )
        return [py.if_(closed(plan.before), [illegal(message)])]

    def ended(self, plan: ops.Apply) -> ast.expr:
        """What an apply returns: the end of the turn after a main action;
        after one before the main action, the turn goes on (the stage set)."""
        s2, p, bit = py.name("s2"), py.name("p"), self.bit(plan.action)
        if plan.before is None:
            return py.call("_done", s2, p, bit)
        return py.call("_taken_before", s2, p, bit, py.const(plan.before.after))

    def visit_AnotherTurn(self, op: ops.AnotherTurn, frame: Frame, context: object) -> Printed:
        again = py.set_(py.attr(frame.state, "again"), py.const(True))
        return [*self.comment(op.statement, op.own), again], frame
