"""A board of cells and its bag: the grid, its fill order, the tokens in
the bag at setup, and the names `board` and `bag` that expressions read.

The board is declared once; the bag says what it holds at setup, as a
supply does (an amount per token kind, or a table by player count). Both
names are the edition's only when it has a board, so an edition without
one may use them for its own declarations.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.components import token_amounts
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.model import CELL, INT, TOKEN
from splendor_rules.dsl import syntax as s

# A board's side: its cells are few enough to show, and a cell's number fits anywhere.
MAX_SIDE = 64
# What a cell's attributes are, for `x.token`, `x.row` and `x.column`.
CELL_ATTRIBUTES = {"token": TOKEN, "row": INT, "column": INT}


def check_board(context: Context) -> m.Board | None:
    """The board and its bag, if the edition declares one; its names are
    declared for the expressions to read."""
    board_entry = next(iter(context.of(s.Board)), None)
    bag_entry = next(iter(context.of(s.Bag)), None)
    if board_entry is None:
        if bag_entry is not None:
            context.report(msgs.bag_without_board(bag_entry.decl.span))
        return None
    context.enter(board_entry)
    decl = board_entry.decl
    assert isinstance(decl, s.Board)
    ids = context.current_ids
    order = _fill_order(context, decl)
    bag: dict[str, dict[int, int]] = {}
    bag_ids: tuple[str, ...] = ()
    if bag_entry is None:
        context.report(msgs.board_without_bag(decl.span))
    else:
        context.enter(bag_entry)
        assert isinstance(bag_entry.decl, s.Bag)
        bag, bag_ids = _bag(context, bag_entry.decl), context.current_ids
    names: tuple[tuple[m.RefKind, m.Type], ...] = (
        ("board", m.set_of(CELL)),
        ("bag", m.list_of(TOKEN)),
    )
    for kind, type_ in names:  # each read by its kind's own name
        if kind in context.globals:
            context.report(msgs.board_name_taken(decl.span, kind, context.declared_at.get(kind)))
        else:
            context.globals[kind] = (kind, type_)
    context.board = m.Board(
        rule_ids=ids,
        span=decl.span,
        rows=decl.rows,
        columns=decl.columns,
        order=order,
        bag=bag,
        bag_ids=bag_ids,
    )
    return context.board


def _fill_order(context: Context, decl: s.Board) -> tuple[int, ...]:
    """The cells in fill order, by number: each on the board, each once,
    every cell listed."""
    for side in (decl.rows, decl.columns):
        if not 1 <= side <= MAX_SIDE:
            context.report(msgs.board_side(decl.span, side, MAX_SIDE))
            return ()
    order: list[int] = []
    first: dict[int, s.Cell] = {}
    for cell in decl.order:
        if not (0 <= cell.row < decl.rows and 0 <= cell.column < decl.columns):
            context.report(msgs.cell_off_board(cell.span, cell.row, cell.column, decl))
            continue
        number = cell.row * decl.columns + cell.column
        if number in first:
            context.report(msgs.cell_twice(cell.span, cell.row, cell.column, first[number].span))
            continue
        first[number] = cell
        order.append(number)
    missing = [n for n in range(decl.rows * decl.columns) if n not in first]
    if missing:
        row, column = divmod(missing[0], decl.columns)
        context.report(msgs.cell_not_filled(decl.span, row, column, len(missing)))
    return tuple(order)


def _bag(context: Context, decl: s.Bag) -> dict[str, dict[int, int]]:
    """The tokens in the bag at setup, by kind and player count."""
    return token_amounts(context, decl.lines, msgs.bag_twice)
