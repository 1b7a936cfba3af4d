"""One simulated game, determined by the seed and its index, and its record.

Game i of a run deals `new_game(players, seed + i)` (the games `bench`
plays for the same seed) and seeds the bot of seat s with the string
`"{seed}/{i}/{s}"`, so a game's result depends on nothing else: not on the
worker that plays it, nor on the games played before it.

With `playout` in every seat, game i is dealt alike and played whole by the
native engine, `engine.playout(state, playout_seed(seed, i))`: its moves
are drawn by the engine's own generator (splitmix64, in C), seeded with the
first 8 bytes, big-endian, of the SHA-256 of `"{seed}/{i}/playout"`. The
moves are not returned, so such a game records no action mix (`actions`:
None).

The engine API does not say which ending ended a game; what the JSON form
shows is recorded instead: whether the last-round mark of an ending of mode
`once` was set when the game ended (`ending`: "last round" or "immediate").
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from attrs import frozen

from splendor_rules.compiler.runtime.api import Action, Engine, Json, State, playout_engine
from splendor_rules.compiler.tools.simulate.bots import Bot, bot_factory, plays_out
from splendor_rules.compiler.tools.simulate.hidden import zone_kinds
from splendor_rules.compiler.tools.simulate.native import (
    NativeGreedyBot,
    NativeMctsBot,
    bot_engine,
)

MAX_PLIES = 100_000  # a game longer than this is a bot's or an engine's fault


class RunawayGame(RuntimeError):
    """A game that did not end within MAX_PLIES moves (or, played out, that
    stopped before its end)."""


class NoPlayouts(TypeError):
    """Playout bots asked of an engine that has no native playouts."""


@frozen
class GameResult:
    """What a finished game leaves for the statistics."""

    index: int
    seed: int
    plies: int
    rounds: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ending: str
    actions: dict[str, int] | None  # moves by name, in name order; None: not recorded
    acquired: tuple[tuple[str, ...], ...]  # per seat: "card N" / "tile N" held at the end

    def to_json(self) -> Json:
        return {
            "index": self.index,
            "seed": self.seed,
            "plies": self.plies,
            "rounds": self.rounds,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ending": self.ending,
            "actions": None if self.actions is None else dict(self.actions),
            "acquired": [list(items) for items in self.acquired],
        }

    @classmethod
    def from_json(cls, data: Json) -> GameResult:
        return cls(
            data["index"],
            data["seed"],
            data["plies"],
            data["rounds"],
            tuple(data["scores"]),
            tuple(data["winners"]),
            data["ending"],
            None if data["actions"] is None else dict(data["actions"]),
            tuple(tuple(items) for items in data["acquired"]),
        )


def _acquired(engine: Engine, form: Json) -> tuple[tuple[str, ...], ...]:
    cards = zone_kinds(engine, form["players"]).cards
    return tuple(
        tuple(
            sorted(
                f"{'card' if zone in cards else 'tile'} {item}"
                for zone, items in seat["zones"].items()
                for item in items
            )
        )
        for seat in form["seats"]
    )


def deal(engine: Engine, players: int, seed: int, index: int) -> Any:
    """The state game `index` of a run with that seed starts from."""
    return engine.new_game(players, seed + index)


def _result(
    engine: Engine, state: Any, index: int, seed: int, plies: int, actions: dict[str, int] | None
) -> GameResult:
    """The record of a finished game, from its final state."""
    form = engine.to_json(state)
    return GameResult(
        index=index,
        seed=seed + index,
        plies=plies,
        rounds=-(-form["turn"] // form["players"]),
        scores=tuple(engine.scores(state)),
        winners=tuple(sorted(engine.winners(state))),
        ending="last round" if form["last_round"] else "immediate",
        actions=actions,
        acquired=_acquired(engine, form),
    )


Chooser = Callable[[int, list[Action], State], Action]


def chooser(engine: Engine, bot: Bot | NativeGreedyBot | NativeMctsBot) -> Chooser:
    """A bot's choice from (seat, legal moves, state): a native bot is given
    the state (it reads only what the seat's view shows, `native.py`); a
    Python bot, the seat's view, made only if it asks."""
    if isinstance(bot, NativeGreedyBot | NativeMctsBot):
        return bot.choose_in
    choose, view = bot.choose, engine.view
    return lambda seat, legal, state: choose(engine, seat, legal, partial(view, state, seat))


def play_game(
    engine: Engine, bots: Sequence[str], seed: int, index: int, python_bots: bool = False
) -> GameResult:
    """Game `index` of a run with that seed, the seats played by `bots`
    (native where the engine has native bots, unless `python_bots`)."""
    if plays_out(bots):
        return play_playout(engine, len(bots), seed, index)
    players = len(bots)
    native = None if python_bots else bot_engine(engine)
    seats = [bot_factory(spec, native)(f"{seed}/{index}/{s}") for s, spec in enumerate(bots)]
    state = deal(engine, players, seed, index)
    # the loop of every game, kept lean (`bench` is its yardstick): engine
    # methods and choosers looked up once, move names counted at the end
    is_over, legal_actions, apply = engine.is_over, engine.legal_actions, engine.apply
    current_player = engine.current_player
    choosers = [chooser(engine, bot) for bot in seats]
    names: list[Any] = []
    played = names.append
    for _ in range(MAX_PLIES):
        if is_over(state):
            break
        seat = current_player(state)
        action = choosers[seat](seat, legal_actions(state), state)
        played(action[0])
        state = apply(state, action)
    else:
        if not is_over(state):
            raise RunawayGame(f"game {index} did not end within {MAX_PLIES} moves")
    moves = Counter(map(str, names))
    return _result(engine, state, index, seed, len(names), dict(sorted(moves.items())))


def playout_seed(seed: int, index: int) -> int:
    """The seed of game `index`'s playout in a run with that seed (see the
    module): from 0 to 2**64 - 1."""
    digest = hashlib.sha256(f"{seed}/{index}/playout".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_playout(engine: Engine, players: int, seed: int, index: int) -> GameResult:
    """Game `index` of a run with that seed played whole by the engine's
    native playout (see the module); NoPlayouts if the engine has none (its
    description says whether it has)."""
    player = playout_engine(engine)
    if player is None:
        raise NoPlayouts(
            f"{engine.EDITION}: this engine has no native playouts (playout bots need the "
            "native engine)"
        )
    dealt = deal(engine, players, seed, index)
    state, plies = player.playout(dealt, playout_seed(seed, index), MAX_PLIES)
    if not engine.is_over(state):
        raise RunawayGame(
            f"game {index}'s playout stopped after {plies} moves, before the end of the game"
        )
    return _result(engine, state, index, seed, plies, None)


def play_games(
    engine: Engine,
    bots: Sequence[str],
    seed: int,
    indices: Sequence[int],
    python_bots: bool = False,
) -> list[GameResult]:
    """The games of those indices, in that order."""
    return [play_game(engine, bots, seed, index, python_bots) for index in indices]
