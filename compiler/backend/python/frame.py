"""The scope an expression is emitted in, passed explicitly.

Like jinja2's `Frame`: what a name of the model means at one place in a
generated function. Emitting an expression reads a frame and never changes
it; binding a name, reading for another player or another state makes a new
frame. The temporary names of one function come from one counter, shared by
every frame derived from the function's first frame, so no two temporaries
of a function clash.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import define, evolve, field, frozen

from splendor_rules.compiler.backend.python.nodes import Value


@define
class Temporaries:
    """The counter behind the temporary names of one generated function."""

    count: int = 0

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"_{hint}{self.count}"


@frozen
class Frame:
    """Where an expression is emitted.

    `state` is the Python name of the state read, `player` the player in
    context (a name, or a seat number known when generating), `locals` maps
    the rule's local names to what stands for them, `prebound` the
    definitions already read into locals for this state and player, and
    `cell_tokens` the local cells whose token a local holds.
    """

    state: str = "s"
    player: Value = "p"
    locals: Mapping[str, Value] = field(factory=dict)
    prebound: Mapping[str, str] = field(factory=dict)
    temporaries: Temporaries = field(factory=Temporaries, eq=False)
    cell_tokens: Mapping[str, str] = field(factory=dict)

    def bind_cell(self, local: str, stands_for: str, token: str) -> Frame:
        """The frame with a local name bound to a cell whose token a local
        already holds (a pass over the board)."""
        return evolve(
            self,
            locals={**self.locals, local: stands_for},
            cell_tokens={**self.cell_tokens, local: token},
        )

    def bind(self, local: str, stands_for: Value) -> Frame:
        """The frame with a local name bound."""
        if local in self.cell_tokens:
            tokens = {k: v for k, v in self.cell_tokens.items() if k != local}
            return evolve(self, locals={**self.locals, local: stands_for}, cell_tokens=tokens)
        return evolve(self, locals={**self.locals, local: stands_for})

    def prebind(self, definition: str, local: str) -> Frame:
        """The frame with a definition read into a local."""
        return evolve(self, prebound={**self.prebound, definition: local})

    def of(self, player: Value) -> Frame:
        """The frame reading for another player (its definitions are not prebound)."""
        return evolve(self, player=player, prebound={})

    def at(self, state: str) -> Frame:
        """The frame reading another state (its definitions are not prebound)."""
        if state == self.state:
            return self
        return evolve(self, state=state, prebound={}, cell_tokens={})

    def temporary(self, hint: str) -> str:
        """A fresh name for a loop variable of a comprehension."""
        return self.temporaries.fresh(hint)
