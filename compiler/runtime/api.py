"""The engine API as a type: what every engine of every edition provides.

A generated engine is a module and the reference interpreter an object; both
are checked against `Engine` by mypy (the generated package states, for the
type checker, that each engine module is an `Engine`). docs/engine.md gives
the semantics; this Protocol gives the shapes. States are opaque to callers:
each engine has its own state type, read only through the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

State = Any  # an engine's own immutable state value
Action = tuple[Any, ...]
Json = dict[str, Any]


class Engine(Protocol):
    """One edition's engine (docs/engine.md, "API")."""

    # Read-only attributes, named as the modules name their constants.
    @property
    def EDITION(self) -> str: ...

    @property
    def TITLE(self) -> str: ...

    @property
    def PLAYERS(self) -> range: ...

    @property
    def TOKENS(self) -> tuple[str, ...]: ...

    @property
    def COLOURS(self) -> tuple[str, ...]: ...

    @property
    def IllegalAction(self) -> type[ValueError]: ...

    def new_game(self, players: int, seed: int, first_player: int = 0) -> State: ...

    def legal_actions(self, state: State) -> list[Action]: ...

    def apply(self, state: State, action: Action) -> State: ...

    def current_player(self, state: State) -> int: ...

    def is_over(self, state: State) -> bool: ...

    def scores(self, state: State) -> tuple[int, ...]: ...

    def winners(self, state: State) -> frozenset[int]: ...

    def view(self, state: State, player: int) -> Json: ...

    def to_json(self, state: State) -> Json: ...

    def from_json(self, data: Json) -> State: ...

    def action_to_json(self, action: Action) -> Json: ...

    def action_from_json(self, data: Json) -> Action: ...
