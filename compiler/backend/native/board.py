"""The native printer's operations of a board of cells (backend/plan/ops.py:
LineLoop, PickLine, TakeCells, RefillBoard), kept apart from `Statements`,
whose printer they are part of, and the board's constants for the template.
The C helpers they call (`line_fill`, `take_cells`, `refill`, ...) are
written once in `templates/board.c.j2` for every edition with a board
(docs/engine.md, "The board", gives the lines' order and the draws).
"""

from __future__ import annotations

from typing import Any

from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native.emit import Emitter, Frame, filled
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.frontend import model as m

Printed = tuple[list[c.Stmt], Frame]


def board_context(edition: m.Edition) -> dict[str, Any] | None:
    """A board's constants: its size, fill order and the bag at setup (a
    count per token kind, a row per player count from 0 to the most); None
    without a board."""
    board = edition.board
    if board is None:
        return None
    kinds = [t.name for t in edition.tokens]
    bag = [
        tuple(board.bag.get(k, {}).get(count, 0) for k in kinds)
        for count in range(edition.players[1] + 1)
    ]
    return {
        "rows": board.rows,
        "columns": board.columns,
        "order": board.order,
        "bag": bag,
        "longest": max(board.rows, board.columns),
    }


class BoardPrinting:
    """Mixed into `Statements` (after its other bases, which provide what
    the stubs below stand for)."""

    emitter: Emitter

    def where(self, part: m.Part | m.Statement) -> c.Comment:
        raise NotImplementedError

    def block(self, body: ops.Block, frame: Frame, *args: Any) -> tuple[list[c.Stmt], Frame]:
        raise NotImplementedError

    def visit_LineLoop(self, op: ops.LineLoop, frame: Frame, context: Any) -> Printed:
        """For each line of cells of the source: by length, first cell (by
        number), then direction; a line of one cell once (docs/engine.md).
        The first cells of each length's lines are found for all directions
        at once as sets of bits (`line_starts`, templates/board.c.j2), and
        only the cells set in them are visited, in order."""
        st = op.statement
        var = c.ident("v_", st.name)
        allowed, length, starts, word, left, bit, way = (
            frame.temporary(n)
            for n in ("allowed", "length", "starts", "word", "left", "bit", "way")
        )
        src = self.emitter.source(st.source, frame, as_set=True)
        cells = c.Unary("&", c.name(allowed))
        fill = c.call("cells_allowed", cells, c.Unary("&", c.name(src.name)))
        ways = frame.temporary("ways")  # directions: a line of one cell once
        one = c.Conditional(c.binary(c.name(length), "==", c.num(1)), c.num(1), c.num(4))
        found = c.call(
            "line_fill",
            c.Unary("&", c.name(var)),
            c.Unary("&", c.name(starts)),
            c.name(bit),
            c.name(way),
            c.name(length),
        )
        put = c.call("mv_put_set", c.name("out"), c.Unary("&", c.name(var)))
        context.moves.append(c.do(put))  # before the body's statements end the move
        inner, _ = self.block(op.body, frame.bind(st.name, var), context)
        each_way = [
            c.declare("Set", var),
            c.if_(c.not_(found), [c.Raw("continue;")]),
            *inner,
        ]
        first = c.binary(
            c.binary(c.name(word), "*", c.num(64)),
            "+",
            c.call("next_bit", c.Unary("&", c.name(left))),
        )
        each_start = [
            c.declare("int32_t", bit, first),
            c.for_(way, 0, c.name(ways), each_way),
        ]
        each_word = [
            c.declare(
                "uint64_t", left, c.call("line_any", c.Unary("&", c.name(starts)), c.name(word))
            ),
            c.While(c.name(left), each_start),
        ]
        each_length = [
            c.declare("int32_t", ways, one),
            c.declare("LineStarts", starts),
            c.do(c.call("line_starts", c.Unary("&", c.name(starts)), cells, c.name(length))),
            c.for_(word, 0, c.name("CELL_WORDS"), each_word),
        ]
        low, high = max(st.low, 1), min(st.high, self.longest())
        out: list[c.Stmt] = [
            self.where(st),
            *src.declared,
            c.declare("Cells", allowed),
            c.do(fill),
            c.for_(length, low, c.num(high + 1), each_length),
        ]
        return out, frame

    def longest(self) -> int:
        """The most cells a line may have: the board's longer side."""
        raise NotImplementedError

    def visit_PickLine(self, op: ops.PickLine, frame: Frame, context: Any) -> Printed:
        """The line of cells of the move (one the enumerator listed)."""
        var = c.ident("v_", op.statement.name)
        out = filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", c.name("at")))
        return out, frame.bind(op.statement.name, var)

    def visit_TakeCells(self, op: ops.TakeCells, frame: Frame, context: Any) -> Printed:
        st = op.statement
        cells = frame.locals[st.cells]
        g, p = c.name("g"), c.name("p")
        if st.many:
            return [c.do(c.call("take_cells", g, p, c.Unary("&", cells)))], frame
        return [c.do(c.call("take_cell", g, p, cells))], frame

    def visit_RefillBoard(self, op: ops.RefillBoard, frame: Frame, context: Any) -> Printed:
        return [c.do(c.call("refill", c.name("g")))], frame
