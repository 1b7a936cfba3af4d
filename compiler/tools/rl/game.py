"""One game played through the action space: the core every adapter wraps (issue 23).

A game holds an engine's state and the move being chosen. `step` takes one
index of the action space; when the atoms chosen leave one move, the engine
applies it. The rewards are given once, at the end: 1 to each winner, -1 to
each other seat, 0 to all when every seat or none wins (E-6.2).
"""

from __future__ import annotations

import sys
from array import array
from typing import Any

from splendor_rules.compiler.runtime.api import Engine, State, playout_engine
from splendor_rules.compiler.tools.rl.actions import ActionSpace, Choosing
from splendor_rules.compiler.tools.rl.observation import Layout, encode


class Game:
    """A game of an engine, chosen index by index."""

    def __init__(self, engine: Engine, players: int, seed: int = 0, first_player: int = 0,
                 space: ActionSpace | None = None) -> None:
        self.engine = engine
        self.players = players
        self.space = space or ActionSpace(engine.DESCRIPTION)
        self.layout = Layout(engine.DESCRIPTION, players)
        self._full: Layout | None = None
        self.moves = 0
        self.reset(seed, first_player)
        self._native = self._native_observer()

    def _native_observer(self) -> Any:
        """A native engine's C code writes the tensor (the `_observe` of its
        extension module, `PACKAGE._EDITION` beside `PACKAGE.EDITION`, checked
        to be the one whose states it makes), else None: `view` is read."""
        if playout_engine(self.engine) is None:
            return None
        package, _, name = getattr(self.engine, "__name__", "").rpartition(".")
        module = sys.modules.get(f"{package}._{name}")
        if module is None or getattr(module, "State", None) is not type(self.state):
            return None
        if not hasattr(module, "_observe"):
            return None
        from splendor_rules.compiler.tools.rl.batch import table

        self._table = array("i", table(self.engine.DESCRIPTION, self.players))
        self._zeros = array(self.layout.typecode, bytes(self.layout.itemsize * self.layout.size))
        return module._observe

    def copy(self) -> Game:
        """A copy to play on apart: states are immutable, the choice is copied."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.choosing = self.choosing.copy()
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """As `copy`: the engine is a module, shared (OpenSpiel deep-copies states)."""
        return self.copy()

    def reset(self, seed: int, first_player: int = 0) -> None:
        self.state: State = self.engine.new_game(self.players, seed, first_player)
        self.moves = 0
        self._choose()

    def load(self, state: State) -> None:
        """Play on from a state of the engine (a position, a game of a batch)."""
        self.state = state
        self._choose()

    def _choose(self) -> None:
        self.choosing = Choosing(self.space, self.engine.legal_actions(self.state),
                                 self.engine.current_player(self.state), self.players)

    @property
    def over(self) -> bool:
        return self.engine.is_over(self.state)

    @property
    def to_move(self) -> int:
        """The seat choosing now."""
        return self.engine.current_player(self.state)

    def legal(self) -> tuple[int, ...]:
        """The indices legal now, ascending (none once the game is over)."""
        return self.choosing.options

    def mask(self) -> list[int]:
        out = [0] * self.space.size
        for index in self.choosing.options:
            out[index] = 1
        return out

    def step(self, index: int) -> tuple[Any, ...] | None:
        """Choose an index; the move applied if it completed one."""
        self.choosing.choose(index)
        move = self.choosing.move
        if move is None:
            return None
        self.play(move)
        return move

    def play(self, move: tuple[Any, ...]) -> None:
        """Apply a whole legal move (a bot's), whatever part of one was chosen."""
        self.state = self.engine.apply(self.state, move)
        self.moves += 1
        self._choose()

    def rewards(self) -> list[int]:
        """Each seat's reward: nothing before the end."""
        if not self.over:
            return [0] * self.players
        winners = self.engine.winners(self.state)
        if len(winners) in (0, self.players):
            return [0] * self.players
        return [1 if s in winners else -1 for s in range(self.players)]

    def observe(self, seat: int) -> list[int]:
        """The tensor of what `seat` sees (its `view`), the move being chosen included."""
        return list(self.observe_raw(seat))

    def observe_raw(self, seat: int) -> Any:
        """`observe`'s tensor as an `array` of the layout's type (numpy takes
        it without a copy): written by a native engine's C code, else read
        from `view` (an OverflowError if a value passed the type's bounds)."""
        prefix = self.choosing.prefix if seat == self.to_move else ()
        if self._native is not None:
            out = array(self.layout.typecode, self._zeros)
            self._native(self.state, self._table, array("i", prefix), seat, out)
            return out
        return array(self.layout.typecode,
                     encode(self.layout, self.engine.view(self.state, seat), seat, prefix))

    def observe_all(self, seat: int) -> list[int]:
        """The full-information tensor: the whole state, decks in order, from
        `seat`; its values held by its layout's type (checked)."""
        if self._full is None:
            self._full = Layout(self.engine.DESCRIPTION, self.players, full=True)
        out = encode(self._full, self.engine.to_json(self.state), seat, self.choosing.prefix)
        return list(array(self._full.typecode, out))
