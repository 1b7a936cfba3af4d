"""The base printer of the engine plan: the walk every target shares.

A target's printer subclasses `PlanPrinter` with one `visit_<Op>` method
per operation, each taking the operation and the target's frame (what the
model's names stand for there) and returning the target's statements and
the frame after it. The base class walks a block in order, threading the
frame, and stops after a wait (the rest of its block is its own), as
sqlglot's dialects subclass one generator.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.dsl.visitor import Visitor

S = TypeVar("S")  # a target's statement
F = TypeVar("F")  # a target's frame


class PlanPrinter(Visitor, Generic[S, F]):
    """Print plan operations as a target's statements."""

    def block(self, body: ops.Block, frame: F, *args: Any) -> tuple[list[S], F]:
        """The statements of a block, in order, and the frame after it
        (`args`: passed on to each operation's method)."""
        out: list[S] = []
        for op in body:
            printed, frame = self.visit(op, frame, *args)
            out.extend(printed)
        return out, frame

    def blocks(self, bodies: tuple[ops.Block, ...], frame: F, *args: Any) -> tuple[list[S], F]:
        """Blocks one after another (a follow-up's rest, innermost first)."""
        out: list[S] = []
        for body in bodies:
            printed, frame = self.block(body, frame, *args)
            out.extend(printed)
        return out, frame

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} prints no {type(node).__name__}")
