"""The Python printer's operations of a board of cells (backend/plan/ops.py:
LineLoop, PickLine, TakeCells, RefillBoard), kept apart from `Actions`,
whose printer they are part of. The helpers they call (`_lines`,
`_pick_line`, `_take_cells`, `_refill`) are the engine template's, written
once for every edition with a board (docs/engine.md, "The board")."""

from __future__ import annotations

import ast
from typing import Any

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.frontend import model as m

Printed = tuple[list[ast.stmt], Frame]


class BoardPrinting:
    """Mixed into `Actions` (after its other bases, which provide what the
    stubs below stand for)."""

    def expr(self, e: m.Expr, frame: Frame) -> ast.expr:
        raise NotImplementedError

    def comment(self, st: m.Statement, own: tuple[str, ...]) -> list[ast.stmt]:
        raise NotImplementedError

    def ids(self, part: m.Statement | m.Part) -> str:
        raise NotImplementedError

    def block(self, body: ops.Block, frame: Frame, *args: Any) -> tuple[list[ast.stmt], Frame]:
        raise NotImplementedError

    def visit_LineLoop(self, op: ops.LineLoop, frame: Frame, context: Any) -> Printed:
        """for each line of cells of the source (`_lines`: docs/engine.md)."""
        st = op.statement
        var = ident("v_", st.name)
        lines = py.call("_lines", self.expr(st.source, frame), py.const(st.low), py.const(st.high))
        context.shown.append(py.name(var))
        inner, _ = self.block(op.body, frame.bind(st.name, var), context)
        return [*self.comment(st, op.own), py.for_(var, lines, inner)], frame

    def visit_PickLine(self, op: ops.PickLine, frame: Frame, context: Any) -> Printed:
        """Read a line of cells from the move, refusing one not offered."""
        st = op.statement
        var = ident("v_", st.name)
        given = py.item(py.name("action"), op.position)
        low, high, rule = py.const(st.low), py.const(st.high), py.const(self.ids(st))
        pick = py.call("_pick_line", self.expr(st.source, frame), given, low, high, rule)
        return [*self.comment(st, op.own), py.assign(var, pick)], frame.bind(st.name, var)

    def visit_TakeCells(self, op: ops.TakeCells, frame: Frame, context: Any) -> Printed:
        st = op.statement
        cells = py.value(frame.locals[st.cells])
        cells = cells if st.many else py.tuple_([cells])
        take = py.call("_take_cells", py.name(frame.state), py.name("p"), cells)
        return [*self.comment(st, op.own), py.do(take)], frame

    def visit_RefillBoard(self, op: ops.RefillBoard, frame: Frame, context: Any) -> Printed:
        refill = py.do(py.call("_refill", py.name(frame.state)))
        return [*self.comment(op.statement, op.own), refill], frame
