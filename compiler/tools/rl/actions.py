"""A fixed, finite action space per edition, read from its description (issue 23).

A move is cut into atoms: its head (the move's name, with its first choice when
that is one value), then one atom per later value: one per token kind for a
count per kind, and for a set of cards, of players or of cells chosen distinct
one per element then an end. A player is a seat relative to the player
choosing (1: the next in turn order), so a policy reads the same from every
seat. Every atom is an index in 0..N-1. Choosing a move is choosing its atoms
in turn; an atom that every remaining legal move shares is taken without
asking, so a move the state allows in one way only is one decision. docs/rl.md
gives the encoding.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from splendor_rules.compiler.frontend.description import DISTINCT_CELLS, move_shapes

# Kinds of choice with one value, numbered in a block of their own (a set of
# cells in a line is one value: the line, among the board's lines; a player,
# a seat relative to the one choosing); a count per token kind is one atom per
# kind; a set of cards, of players, or of cells chosen distinct (not in a line:
# kind DISTINCT_CELLS: frontend/description.py) one atom per element, then an end.
SCALARS = ("token", "card", "tile", "set:token", "cell", "set:cell", "player")
# The directions of a line from its lowest-numbered cell (row, column steps):
# along the row, down the column, down to the right, down to the left.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
VECTORS = ("pay", "tokens")
# A set chosen one element at a time: the block its elements' atoms are of.
ATOM_SETS = {"set:card": "card", "set:player": "player", DISTINCT_CELLS: "cell"}


def refusal(description: Mapping[str, Any]) -> str | None:
    """Why the research interface cannot encode an edition, or None: a move
    holding a kind of value that has no block of indices (docs/rl.md). Read
    from the description alone, so a construct that adds a kind of move
    value is refused, saying so, until it is given an encoding."""
    d = description
    held = {kind for move in d["moves"] for _, kind in move["choices"]}
    unknown = sorted(held - {*SCALARS, *VECTORS, *ATOM_SETS})
    if unknown:
        return (
            f"{d['edition']} has moves holding {', '.join(unknown)}, which the research "
            "interface does not encode yet (docs/rl.md)"
        )
    return None


@dataclass(frozen=True)
class Block:
    """A run of indices and what each means."""

    name: str
    start: int
    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.labels)


class ActionSpace:
    """The action space of one edition: blocks of indices and each move's atoms."""

    def __init__(self, description: Mapping[str, Any]) -> None:
        refused = refusal(description)
        if refused is not None:
            raise ValueError(refused)
        self.edition: str = description["edition"]
        self.tokens: tuple[str, ...] = tuple(t["name"] for t in description["tokens"])
        self.decks: tuple[Hashable, ...] = tuple(d["name"] for d in description["decks"])
        self.cards: int = description["cards"]["count"]
        self.tiles: int = description["tiles"]["count"]
        self.most_tokens = most_tokens(description)
        self.most_players: int = description["players"]["max"]
        board = description.get("board")
        self.rows: int = board["rows"] if board else 0
        self.columns: int = board["columns"] if board else 0
        self.cells = self.rows * self.columns
        lengths = board.get("lines") if board else None
        self.lines: tuple[tuple[int, ...], ...] = (
            board_lines(self.rows, self.columns, lengths["min"], lengths["max"])
            if lengths else ())
        self.line_index = {frozenset(line): i for i, line in enumerate(self.lines)}
        # each move's values by name and kind (a set of cells not in a line: DISTINCT_CELLS)
        self.shapes = move_shapes(description)
        # follow-ups the player may decline: their head ends with "none", the decline
        self.declinable = frozenset(m["name"] for m in description["moves"] if m.get("declinable"))
        self.blocks: list[Block] = []
        self.heads: dict[str, Block] = {}
        for name, shape in self.shapes.items():
            first = shape[0][1] if self.scalar_head(name) else None
            labels = self.labels(first) if first else ("",)
            if name in self.declinable:
                labels = (*labels, "none")
            self.heads[name] = self._add(name, tuple(f"{name} {x}".rstrip() for x in labels))
        self.shared: dict[str, Block] = {}
        for kind in self._later_kinds():
            self.shared[kind] = self._add(kind, self.labels(kind))
        self.size = sum(b.size for b in self.blocks)

    def scalar_head(self, name: str) -> bool:
        """Is a move's first value in its head (one value of a scalar kind)?"""
        shape = self.shapes.get(name, ())
        return bool(shape) and shape[0][1] in SCALARS

    def _add(self, name: str, labels: tuple[str, ...]) -> Block:
        block = Block(name, sum(b.size for b in self.blocks), labels)
        self.blocks.append(block)
        return block

    def _later_kinds(self) -> list[str]:
        """The kinds of block the atoms after the heads need, in a fixed order."""
        kinds: set[str] = set()
        for shape in self.shapes.values():
            rest = shape[1:] if shape and shape[0][1] in SCALARS else shape
            for _, kind in rest:
                kinds.update(
                    ["count"] if kind in VECTORS else [ATOM_SETS[kind], "end"]
                    if kind in ATOM_SETS else [kind]
                )
        order = ("token", "card", "tile", "set:token", "count", "end", "cell", "set:cell",
                 "player")
        unknown = kinds - set(order)
        if unknown:
            raise ValueError(f"no encoding for the choice kinds {sorted(unknown)}")
        return [k for k in order if k in kinds]

    def labels(self, kind: str) -> tuple[str, ...]:
        if kind == "token":
            return self.tokens
        if kind == "card":
            return (*(str(c) for c in range(self.cards)), *(f"deck {d}" for d in self.decks))
        if kind == "tile":
            return tuple(str(t) for t in range(self.tiles))
        if kind == "set:token":
            return tuple(
                "+".join(s) or "none"
                for n in range(len(self.tokens) + 1)
                for s in combinations(self.tokens, n)
            )
        if kind == "count":
            return tuple(str(n) for n in range(self.most_tokens + 1))
        if kind == "end":
            return ("end of set",)
        if kind == "cell":
            return tuple(self.cell_label(c) for c in range(self.cells))
        if kind == "set:cell":
            return tuple("-".join(self.cell_label(c) for c in {line[0]: 0, line[-1]: 0})
                         for line in self.lines)
        if kind == "player":
            return tuple(f"seat +{r}" for r in range(1, self.most_players))
        raise ValueError(f"no encoding for the choice kind {kind!r}")

    def _offset(self, kind: str, value: Any, seat: int = 0, players: int = 0) -> int:
        """A value's place in its kind's block; a player's, by its seat
        relative to `seat`, the player choosing, among `players`."""
        if kind == "token":
            return self.tokens.index(value)
        if kind == "card":
            if isinstance(value, tuple):
                return self.cards + self.decks.index(value[1])
            if not 0 <= value < self.cards:
                raise ValueError(f"card {value} is not a card of {self.edition}")
            return int(value)
        if kind == "tile":
            if not 0 <= value < self.tiles:
                raise ValueError(f"tile {value} is not a tile of {self.edition}")
            return int(value)
        if kind == "set:token":
            chosen = set(value)
            return self.labels("set:token").index(
                "+".join(t for t in self.tokens if t in chosen) or "none"
            )
        if kind == "count":
            if not 0 <= value <= self.most_tokens:
                raise ValueError(f"a count of {value} is past the {self.most_tokens} encoded")
            return int(value)
        if kind == "cell":
            if not 0 <= value < self.cells:
                raise ValueError(f"cell {value} is not a cell of {self.edition}'s board")
            return int(value)
        if kind == "set:cell":
            line = self.line_index.get(frozenset(value))
            if line is None:
                raise ValueError(f"cells {tuple(value)} are not a line of {self.edition}'s "
                                 "board of the lengths its choices take")
            return line
        if kind == "player":
            if players < 2 or not 0 <= value < players or not 0 <= seat < players:
                raise ValueError(f"seat {value} chosen by seat {seat} of {players} players "
                                 "has no index: a move choosing a player is read with the "
                                 "seat choosing and the player count")
            if value == seat:
                raise ValueError(f"seat {seat} choosing itself has no index")
            return int(value - seat) % players - 1
        raise ValueError(f"no encoding for the choice kind {kind!r}")

    def atoms(self, move: Sequence[Any], seat: int = 0, players: int = 0) -> tuple[int, ...]:
        """The atoms of a move, in the order they are chosen; a move that
        chooses a player needs the seat choosing and the player count."""
        shape = self.shapes[move[0]]
        values = move[1:]
        head = self.heads[move[0]]
        if move[0] in self.declinable and tuple(values) == (None,):
            return (head.start + head.size - 1,)  # the decline, last of its head
        if self.scalar_head(move[0]):
            out = [head.start + self._offset(shape[0][1], values[0], seat, players)]
            rest = zip(shape[1:], values[1:], strict=True)
        else:
            out = [head.start]
            rest = zip(shape, values, strict=True)
        for (_, kind), value in rest:
            if kind in VECTORS:
                out.extend(self.shared["count"].start + self._offset("count", n) for n in value)
            elif kind in ATOM_SETS:
                element = ATOM_SETS[kind]
                block = self.shared[element].start
                places = [self._offset(element, v, seat, players) for v in value]
                # a set of players or of cells in a fixed order (turn order
                # from the next; by number); cards as the move lists them
                out.extend(block + p for p in (places if element == "card" else sorted(places)))
                out.append(self.shared["end"].start)
            else:
                out.append(self.shared[kind].start + self._offset(kind, value, seat, players))
        return tuple(out)

    def cell_label(self, cell: int) -> str:
        """A cell by its row and column, "(r, c)"."""
        return f"({cell // self.columns}, {cell % self.columns})"

    def label(self, index: int) -> str:
        """What an index means, as "block: label"."""
        for block in self.blocks:
            if block.start <= index < block.start + block.size:
                return f"{block.name}: {block.labels[index - block.start]}"
        raise IndexError(f"index {index} is outside 0..{self.size - 1}")


def most_tokens(description: Mapping[str, Any]) -> int:
    """The most tokens of one kind there are, for any player count: its
    supply and, with a board, its tokens in the bag at setup."""
    bag = (description.get("board") or {}).get("bag", {})
    return max((amount + bag.get(t["name"], {}).get(players, 0)
                for t in description["tokens"] for players, amount in t["supply"].items()),
               default=0)


def board_lines(rows: int, columns: int, low: int, high: int) -> tuple[tuple[int, ...], ...]:
    """The lines of `low` to `high` cells of a board, by length, then by their
    lowest-numbered cell, then by direction (a line of one cell once); each
    lists its cells from the lowest-numbered on (docs/rl.md)."""
    out = []
    for length in range(low, high + 1):
        for first in range(rows * columns):
            r, c = divmod(first, columns)
            for dr, dc in DIRECTIONS[:1] if length == 1 else DIRECTIONS:
                cells = [(r + i * dr, c + i * dc) for i in range(length)]
                if all(0 <= y < rows and 0 <= x < columns for y, x in cells):
                    out.append(tuple(y * columns + x for y, x in cells))
    return tuple(out)


def line_direction(line: Sequence[int], columns: int) -> int:
    """The direction of a line (DIRECTIONS' place) from its lowest cell to its
    highest; 0 for a line of one cell."""
    low, high = min(line), max(line)
    if len(line) == 1 or high // columns == low // columns:
        return 0
    step = high % columns - low % columns
    return 1 if step == 0 else 2 if step > 0 else 3


class Choosing:
    """Choosing one move among a state's legal moves, atom by atom.

    `options` are the indices to choose from now; `move` is the move once the
    atoms chosen leave one. The head is always asked, so every move is at
    least one decision; a later atom all remaining moves share is taken at once.
    """

    def __init__(self, space: ActionSpace, legal: Sequence[tuple[Any, ...]], seat: int = 0,
                 players: int = 0) -> None:
        self.space = space
        self.legal = list(legal)
        self.seat, self.players = seat, players  # the seat choosing, for a player's atom
        self._atoms = [space.atoms(m, seat, players) for m in self.legal]
        self._left = list(range(len(self.legal)))
        self.prefix: list[int] = []
        self.options: tuple[int, ...] = ()
        self._advance()
        self._start = (list(self._left), list(self.prefix), self.options)

    @property
    def move(self) -> tuple[Any, ...] | None:
        """The move chosen, once only one is left."""
        return self.legal[self._left[0]] if len(self._left) == 1 and self.prefix else None

    def _advance(self) -> None:
        while self._left:
            at = len(self.prefix)
            if at and len(self._left) == 1:
                break
            nexts = sorted({self._atoms[i][at] for i in self._left})
            if len(nexts) > 1 or not at:
                self.options = tuple(nexts)
                return
            self.prefix.append(nexts[0])
        self.options = ()

    def copy(self) -> Choosing:
        """A copy to choose on apart (the moves and their atoms are shared)."""
        other = Choosing.__new__(Choosing)
        other.space, other.legal, other._atoms = self.space, self.legal, self._atoms
        other.seat, other.players = self.seat, self.players
        other._left, other.prefix, other.options = list(self._left), list(self.prefix), self.options
        other._start = self._start
        return other

    def choose(self, index: int) -> None:
        """Take one of the options; ValueError for an index that is not one."""
        if index not in self.options:
            raise ValueError(f"action {index} is not legal here; legal: {list(self.options)}")
        at = len(self.prefix)
        self.prefix.append(index)
        self._left = [i for i in self._left if self._atoms[i][at] == index]
        self._advance()

    def decisions(self, move: tuple[Any, ...]) -> tuple[int, ...]:
        """The indices that choose a legal move from the start, in order."""
        target = self.space.atoms(move, self.seat, self.players)
        probe = self.copy()  # from the start: the moves' atoms are not found again
        probe._left, probe.prefix, probe.options = (
            list(self._start[0]), list(self._start[1]), self._start[2])
        out = []
        while probe.move is None:
            index = target[len(probe.prefix)]
            out.append(index)
            probe.choose(index)
        if probe.move != move:
            raise ValueError(f"{move!r} is not a legal move here")
        return tuple(out)
