"""The reference interpreter's engine: the API of docs/engine.md over one
edition's checked model.

It is the oracle that generated engines are compared with, move by move, so
it follows docs/engine.md to the letter and favours being obviously faithful
to the model over speed. It shares the facts every engine agrees on
(compiler/frontend/identities.py) but no code path with the code generator.
This class only answers the API; the rules live beside it, by concern.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.description import describe
from splendor_rules.compiler.frontend.lookup import find_edition
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.interpreter import setup
from splendor_rules.compiler.runtime.interpreter.effects import Effects
from splendor_rules.compiler.runtime.interpreter.evaluation import Definitions
from splendor_rules.compiler.runtime.interpreter.json_form import JsonForm
from splendor_rules.compiler.runtime.interpreter.moves import Moves
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.turns import Turns
from splendor_rules.compiler.runtime.interpreter.values import Action, IllegalAction, Json, State
from splendor_rules.dsl.diagnostics import Sources, render


class InterpretedEngine:
    """The engine API of docs/engine.md over one edition's checked model."""

    IllegalAction = IllegalAction
    # The legal moves' generator; a test plants a fault in a subclass of it.
    moves_class: ClassVar[type[Moves]] = Moves

    def __init__(self, edition: m.Edition) -> None:
        self.model = edition
        self.tables = Tables(edition)
        self.EDITION = edition.name
        self.TITLE = edition.title
        self.PLAYERS = range(edition.players[0], edition.players[1] + 1)
        self.TOKENS: tuple[str, ...] = self.tables.tokens
        self.COLOURS: tuple[str, ...] = self.tables.colours
        self.DESCRIPTION: Json = describe(edition)
        self.definitions = Definitions(self.tables)
        self.moves = self.moves_class(self.tables, self.definitions)
        self.turns = Turns(self.moves, Effects(self.tables, self.definitions))
        self.json = JsonForm(self.tables)

    def new_game(self, players: int, seed: int, first_player: int = 0) -> State:
        """The setup of docs/engine.md, with the random calls in its order."""
        return setup.new_game(self.definitions, players, seed, first_player)

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal move of the player to move, in the order of the spec."""
        return self.moves.legal(state)

    def apply(self, state: State, action: Action) -> State:
        """The state after the move; raises IllegalAction for a move that is
        not legal, naming the rules that forbid it."""
        return self.turns.apply(state, action)

    def current_player(self, state: State) -> int:
        return state.current

    def is_over(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(self.definitions.score(state, p) for p in range(state.players))

    def winners(self, state: State) -> frozenset[int]:
        """Players for whom `among` holds, best on every key in order."""
        if not state.over:
            return frozenset()
        rule = self.model.winners
        env = self.definitions.env(state)
        among = [
            p for p in range(state.players) if rule.among is None or env.of(p).holds(rule.among)
        ]
        if not among:
            return frozenset()

        def rank(player: int) -> tuple[int, ...]:
            values = (int(env.of(player).visit(k.value)) for k in rule.keys)
            return tuple(
                v if k.order == "highest" else -v for k, v in zip(rule.keys, values, strict=True)
            )

        best = max(rank(p) for p in among)
        return frozenset(p for p in among if rank(p) == best)

    def view(self, state: State, player: int) -> Json:
        return self.json.view(state, player)

    def to_json(self, state: State) -> Json:
        return self.json.to_json(state)

    def from_json(self, data: Json, *, complete: bool = True) -> State:
        """A state from its JSON form; ValueError, naming what is wrong, if it
        is not one. `complete`: every card and token must be somewhere."""
        return self.json.from_json(data, complete)

    def action_to_json(self, action: Action) -> Json:
        return self.json.action_to_json(action)

    def action_from_json(self, data: Json) -> Action:
        return self.json.action_from_json(data)


def load_interpreted(name: str) -> InterpretedEngine:
    """The interpreter for the edition of that name (found by the name its
    rule file declares); ValueError, with the diagnostics, if there is no
    such edition or it does not check."""
    path = find_edition(name)  # UnknownEdition is a ValueError
    sources = Sources()
    compiled = compile_file(path, sources)
    if not compiled.ok or compiled.model is None:
        errors = [render(d, sources) for d in compiled.diagnostics if d.severity == "error"]
        raise ValueError(f"edition '{name}' does not check:\n" + "\n".join(errors))
    return InterpretedEngine(compiled.model)


if TYPE_CHECKING:  # mypy checks that the interpreter has the engine API (api.py)
    _AN_ENGINE: Callable[[m.Edition], Engine] = InterpretedEngine
