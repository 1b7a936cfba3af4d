"""The engine API as a type: what every engine of every edition provides.

A generated engine is a module and the reference interpreter an object; both
are checked against `Engine` by mypy (the generated package states, for the
type checker, that each engine module is an `Engine`). docs/engine.md gives
the semantics; this Protocol gives the shapes. States are opaque to callers:
each engine has its own state type, read only through the engine.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

State = Any  # an engine's own immutable state value
Action = tuple[Any, ...]
Json = dict[str, Any]


class Engine(Protocol):
    """One edition's engine (docs/engine.md, "API"). No method changes the
    state it is given."""

    # Read-only attributes, named as the modules name their constants.
    @property
    def EDITION(self) -> str:
        """The edition's name."""

    @property
    def TITLE(self) -> str: ...

    @property
    def PLAYERS(self) -> range:
        """The player counts the edition allows."""

    @property
    def TOKENS(self) -> tuple[str, ...]:
        """The token kinds, in order: the payable colours, then the others."""

    @property
    def COLOURS(self) -> tuple[str, ...]:
        """The payable colours, in order."""

    @property
    def DESCRIPTION(self) -> Json:
        """What the engine plays, as plain JSON data made from the checked
        model (docs/engine.md, "Description"): the same for every engine of
        an edition but for `capabilities`. Read it; do not change it."""

    @property
    def IllegalAction(self) -> type[ValueError]:
        """What `apply` raises for an illegal move; the message starts with
        the ids of the rules that forbid it."""

    def new_game(self, players: int, seed: int, first_player: int = 0) -> State:
        """The setup; ValueError for a player count or first player the
        edition does not allow (a bool is neither)."""

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal move of the player to move, in the documented order;
        [] once the game is over."""

    def apply(self, state: State, action: Action) -> State:
        """The state after the move; IllegalAction for an illegal one."""

    def current_player(self, state: State) -> int:
        """The seat to move (0-based)."""

    def is_over(self, state: State) -> bool: ...

    def scores(self, state: State) -> tuple[int, ...]:
        """Each player's score, now."""

    def winners(self, state: State) -> frozenset[int]:
        """The winners once the game is over (maybe none), else none."""

    def view(self, state: State, player: int) -> Json:
        """The JSON form as that player may see it (E-6.3); ValueError if
        player is not a seat."""

    def to_json(self, state: State) -> Json: ...

    def from_json(self, data: Json, *, complete: bool = True) -> State:
        """A state from its JSON form; ValueError, naming what is wrong, if it
        is not one (a state breaking the game's invariants is not one).
        `complete`: every card and token of the game must be somewhere, as
        in any state reached by play."""

    def action_to_json(self, action: Action) -> Json: ...

    def action_from_json(self, data: Json) -> Action:
        """An action from its JSON form; ValueError if it is not one."""


class PlayoutEngine(Engine, Protocol):
    """An engine that also plays whole games itself, with uniformly random
    legal moves (a native engine; docs/engine.md, "The native engines"). Its
    description says so: `capabilities.playouts` is true."""

    def playout(self, state: State, seed: int, limit: int = ..., /) -> tuple[State, int]:
        """The state at the end of a random game from `state` (or after
        `limit` moves), and the number of moves made."""

    def playouts(
        self, players: int, games: int, seed: int, first_seed: int, /
    ) -> tuple[int, int, tuple[int, ...]]:
        """Games dealt from seeds `first_seed`, `first_seed + 1`, ... and
        played to the end: the moves made, the games ended, and the wins of
        each seat."""


def playout_engine(engine: Engine) -> PlayoutEngine | None:
    """The engine as a `PlayoutEngine` if its description says it plays
    out games (`capabilities.playouts`), else None."""
    if engine.DESCRIPTION["capabilities"]["playouts"] is True:
        return cast(PlayoutEngine, engine)
    return None
