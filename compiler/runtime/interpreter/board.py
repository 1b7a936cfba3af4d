"""The board of cells and its bag (docs/engine.md, "The board"): lines of
cells, tokens taken from cells, tokens going into the bag, and the bag
drawn onto the empty cells.

The bag is unordered: the state holds how many tokens of each kind it
holds, and a generator's state (`draws`, splitmix64) that every engine
steps alike, so that a draw is random to the players and the same in
every engine. A draw of one token: the generator steps, its output
shifted right by 33 bits modulo the tokens in the bag is an index into
the bag's tokens listed kind by kind in token order.
"""

from __future__ import annotations

from attrs import evolve

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.runtime.interpreter.values import State, with_seat

MASK = 2**64 - 1
# The directions of a line, in the order lines are listed: along a row,
# down a column, down to the right, down to the left.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def splitmix(x: int) -> tuple[int, int]:
    """splitmix64: the generator's next state and its output."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def refill(board: m.Board, state: State) -> State:
    """Draw the bag onto the empty cells in fill order, one token a cell,
    until the bag is empty or no cell is."""
    cells = list(state.board)
    bag = list(state.bag)
    draws = state.draws
    for cell in board.order:
        left = sum(bag)
        if not left:
            break
        if cells[cell] is not None:
            continue
        draws, out = splitmix(draws)
        index = (out >> 33) % left
        kind = 0
        while index >= bag[kind]:
            index -= bag[kind]
            kind += 1
        bag[kind] -= 1
        cells[cell] = kind
    return evolve(state, board=tuple(cells), bag=tuple(bag), draws=draws)


def occupied(state: State) -> tuple[int, ...]:
    """The cells that hold a token, by number."""
    return tuple(n for n, kind in enumerate(state.board) if kind is not None)


def lines(board: m.Board, cells: tuple[int, ...], low: int, high: int) -> list[tuple[int, ...]]:
    """Every line of `low` to `high` of the given cells, consecutive along a
    row, a column or a diagonal: by length, then by first cell (by number),
    then by direction; a single cell once. Each in line order."""
    allowed = set(cells)
    found: list[tuple[int, ...]] = []
    for length in range(max(low, 1), high + 1):
        for start in sorted(allowed):
            row, column = divmod(start, board.columns)
            for dr, dc in DIRECTIONS[: 1 if length == 1 else None]:
                line = []
                for step in range(length):
                    r, c = row + step * dr, column + step * dc
                    if not (0 <= r < board.rows and 0 <= c < board.columns):
                        break
                    if r * board.columns + c not in allowed:
                        break
                    line.append(r * board.columns + c)
                if len(line) == length:
                    found.append(tuple(line))
    return found


def take(state: State, player: int, cells: tuple[int, ...], caps: tuple[int | None, ...]) -> State:
    """The tokens of the cells into the player's supply, in line order: a
    cell left empty, or a token whose kind the player holds at its cap,
    stays where it is."""
    board = list(state.board)
    seat = state.seats[player]
    tokens = list(seat.tokens)
    for cell in cells:
        kind = board[cell]
        if kind is None:
            continue
        cap = caps[kind]
        if cap is not None and tokens[kind] >= cap:
            continue
        tokens[kind] += 1
        board[cell] = None
    state = with_seat(state, player, evolve(seat, tokens=tuple(tokens)))
    return evolve(state, board=tuple(board))


def into_bag(state: State, player: int, counts: tuple[int, ...]) -> State:
    """Tokens the player pays or returns, into the bag."""
    seat = state.seats[player]
    tokens = tuple(h - n for h, n in zip(seat.tokens, counts, strict=True))
    bag = tuple(b + n for b, n in zip(state.bag, counts, strict=True))
    return evolve(with_seat(state, player, evolve(seat, tokens=tokens)), bag=bag)


def cell_attribute(
    board: m.Board, state: State, tokens: tuple[str, ...], cell: int, name: str
) -> object:
    """A cell's attribute: its token's kind (none when empty), row or column."""
    if name == "token":
        kind = state.board[cell]
        return None if kind is None else tokens[kind]
    row, column = divmod(cell, board.columns)
    return row if name == "row" else column
