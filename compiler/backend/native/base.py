"""What every part of the native target's lowering shares: the model, its
names and emitter, the comments, the move codes, the definitions read once.

A move is a run of `int32_t` slots in a `MoveBuf` (docs/native.md): its
kind, then its values in signature order: one slot per card, tile, colour or
number; a payment's count per token kind; a set's size and elements. An
element of a choice that is a deck's top card carries `DECK_TOP` beside the
card's number, so the move shows `("deck", tier)`.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native.emit import Emitter, Frame, Names, c_type
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.build import build
from splendor_rules.compiler.backend.source import Source
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

STATE = ("G *", "g")
CONST_STATE = ("const G *", "g")
PLAYER = ("int32_t", "p")

# How a move's value is shown to Python: the codes of engine.c.j2's move_object.
SHOWN = {"int": 0, "bool": 1, "token": 2, "card": 3, "tile": 0, "text": 4, "pay": 5}
SET_OF = 8  # added to an element's code: a set of such elements


def shown_code(kind: str) -> int:
    if kind.startswith("set:"):
        return SET_OF + SHOWN.get(kind[4:], 0)
    return SHOWN.get(kind, 0)


@frozen
class Means:
    """The locals of what a player can pay with: per colour (tokens and
    discount), beyond it (wild tokens and the cards that may be spent), and,
    for a cost with a packed twin (its C name), the means packed; `worth`:
    what a wild token pays of one colour for the player, where a wild token
    may count as more than one (docs/language.md, "A token's worth in
    payments")."""

    means: str
    reach: str
    spendable: str | None
    packed: str | None
    word: str | None
    worth: str | None = None


class Base:
    """What every part of the lowering shares: the model, names and emitter."""

    def __init__(self, edition: m.Edition, root: Path) -> None:
        self.edition = analysis.inline_definitions(edition)
        self.plan: ops.Plan = build(self.edition)
        self.source = Source(root)
        self.names = Names(self.edition)
        self.emitter = Emitter(self.names)
        self.sites = identities.follow_ups(self.edition)
        self.steps = self.edition.steps
        self.actions = self.edition.actions
        self.packed: set[str] = set()  # the card columns read packed

    # ------------------------------------------------------------- basics

    def where(self, part: m.Part | m.Statement) -> c.Comment:
        return c.comment(self.source.place(part))

    def expr(self, e: m.Expr, frame: Frame) -> c.Expr:
        return self.emitter.emit(e, frame)

    def move_code(self, kind: str, index: int) -> int:
        """A move's kind: actions, then step decisions, then follow-ups."""
        base = {
            "action": 0,
            "step": len(self.actions),
            "follow": len(self.actions) + len(self.steps),
        }
        return base[kind] + index

    def prebind(self, names: tuple[str, ...], frame: Frame, body: list[c.Stmt]) -> Frame:
        """Read the definitions named (of the player in context) into locals
        at the top of the function: once, not once per choice (the C
        compiler cannot tell that writing a move leaves them alone)."""
        types = {d.name: d.value.type for d in self.edition.defines}
        for name in names:
            local = c.ident("d_", name + "_value")
            read = c.call(self.names.define(name), c.name(frame.state), frame.player)
            body.append(c.declare(c_type(types[name]), local, read))
            frame = frame.prebind(name, local)
        return frame

    def width(self, type_: m.Type) -> int:
        """The slots a name carried by a follow-up takes in its row."""
        if type_.kind == "vector":
            return len(self.edition.colours)
        if type_.kind in ("set", "list"):
            return 1 + self.set_capacity()
        return 1

    def set_capacity(self) -> int:
        count = identities.tile_numbering(self.edition).count
        cells = self.edition.board.cells if self.edition.board is not None else 0
        return max(len(self.edition.cards.rows), count, len(self.edition.tokens), 4, cells)

    def longest(self) -> int:
        """The most cells a line of the board may have: its longer side."""
        board = self.edition.board
        return 0 if board is None else max(board.rows, board.columns)
