"""One simulated game, determined by the seed and its index, and its record.

Game i of a run deals `new_game(players, seed + i)` (the games `bench`
plays for the same seed) and seeds the bot of seat s with the string
`"{seed}/{i}/{s}"`, so a game's result depends on nothing else: not on the
worker that plays it, nor on the games played before it.

The engine API does not say which ending ended a game; what the JSON form
shows is recorded instead: whether the last-round mark of an ending of mode
`once` was set when the game ended (`ending`: "last round" or "immediate").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

from attrs import frozen

from splendor_rules.compiler.runtime.api import Engine, Json
from splendor_rules.compiler.tools.simulate.bots import bot_factory
from splendor_rules.compiler.tools.simulate.hidden import zone_kinds

MAX_PLIES = 100_000  # a game longer than this is a bot's or an engine's fault


class RunawayGame(RuntimeError):
    """A game that did not end within MAX_PLIES moves."""


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
    actions: dict[str, int]  # moves by name, in name order
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
            "actions": dict(self.actions),
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
            dict(data["actions"]),
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


def play_game(engine: Engine, bots: Sequence[str], seed: int, index: int) -> GameResult:
    """Game `index` of a run with that seed, the seats played by `bots`."""
    players = len(bots)
    game_seed = seed + index
    seats = [bot_factory(spec)(f"{seed}/{index}/{s}") for s, spec in enumerate(bots)]
    state = engine.new_game(players, game_seed)
    # the loop of every game, kept lean (`bench` is its yardstick): engine
    # methods and choosers looked up once, move names counted at the end
    is_over, legal_actions, apply = engine.is_over, engine.legal_actions, engine.apply
    current_player, view = engine.current_player, engine.view
    choosers = [bot.choose for bot in seats]
    names: list[Any] = []
    played = names.append
    for _ in range(MAX_PLIES):
        if is_over(state):
            break
        seat = current_player(state)
        action = choosers[seat](engine, seat, legal_actions(state), partial(view, state, seat))
        played(action[0])
        state = apply(state, action)
    else:
        if not is_over(state):
            raise RunawayGame(f"game {index} did not end within {MAX_PLIES} moves")
    plies = len(names)
    moves = Counter(map(str, names))
    form = engine.to_json(state)
    return GameResult(
        index=index,
        seed=game_seed,
        plies=plies,
        rounds=-(-form["turn"] // players),
        scores=tuple(engine.scores(state)),
        winners=tuple(sorted(engine.winners(state))),
        ending="last round" if form["last_round"] else "immediate",
        actions=dict(sorted(moves.items())),
        acquired=_acquired(engine, form),
    )


def play_games(
    engine: Engine, bots: Sequence[str], seed: int, indices: Sequence[int]
) -> list[GameResult]:
    """The games of those indices, in that order."""
    return [play_game(engine, bots, seed, index) for index in indices]
