"""Bots that play any edition through the engine API, each seeded.

A bot is given, at its turn, its seat, the legal moves (which name a deck's
top card only as `("deck", tier)`, so they show nothing hidden) and the view
of its seat (computed only if the bot asks). It never sees the true state:
to look ahead it searches states dealt from the view (`hidden.sample_state`).

- `random`: a uniform choice among the legal moves.
- `greedy`: one ply ahead in one state dealt from the view; the move after
  which its score is highest, ties broken by `progress` (below), then at
  random.
- `mcts:N`: Monte Carlo tree search, N iterations a move (`mcts.py`); or
  `mcts:Nms`, N milliseconds a move; `:uniform` after either, rollouts of
  uniformly random moves to the end.

Where the engine has native bots (`native.py`), `greedy` and `mcts` run
their inner loops in native code: the same players (`bot_factory`).
- `playout`: uniformly random moves drawn by the native engine's own
  generator; every move of a game made in native code (`engine.playout`). It
  is not a bot that is asked for a move: it plays every seat of a game or
  none (`parse_bots`), and only on a native engine (`games.play_playout`).

`progress` is the generic estimate of how far a seat has come, computed from
a JSON form alone: 10 per card in a zone of cards that does not hide cards
(cards kept, as bought cards are), 2 per card in a zone that hides them
(cards put aside), 1 per token held.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, overload

from splendor_rules.compiler.runtime.api import Action, Engine, Json
from splendor_rules.compiler.tools.simulate.hidden import sample_state, zone_kinds

if TYPE_CHECKING:
    from splendor_rules.compiler.tools.simulate.native import BotEngine, NativeBot


class Bot(Protocol):
    """A player: chooses a move from what its seat may know."""

    def choose(
        self, engine: Engine, seat: int, legal: list[Action], view: Callable[[], Json]
    ) -> Action: ...


class BadBotSpec(ValueError):
    """A --bots entry that names no bot; the message says what there is."""


def progress(engine: Engine, form: Json, seat: int) -> int:
    """The generic estimate of a seat's progress (see the module)."""
    kinds = zone_kinds(engine, form["players"])
    held = form["seats"][seat]
    estimate: int = sum(held["tokens"].values())
    for zone, items in held["zones"].items():
        if zone in kinds.cards:
            estimate += len(items) * (2 if zone in kinds.hiding else 10)
    return estimate


class RandomBot:
    """A uniform choice among the legal moves."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def choose(
        self, engine: Engine, seat: int, legal: list[Action], view: Callable[[], Json]
    ) -> Action:
        return self.rng.choice(legal)


class GreedyBot:
    """One ply ahead: the highest score after the move, then progress."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def choose(
        self, engine: Engine, seat: int, legal: list[Action], view: Callable[[], Json]
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        state = sample_state(engine, view(), self.rng)
        best: list[Action] = []
        best_key = (-(10**9), -(10**9))
        for action in legal:
            after = engine.apply(state, action)
            key = (engine.scores(after)[seat], progress(engine, engine.view(after, seat), seat))
            if key > best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return self.rng.choice(best)


BotFactory = Callable[[str], "Bot | NativeBot"]

PLAYOUT = "playout"


def plays_out(bots: Sequence[str]) -> bool:
    """Whether the seats are played by native playouts (`playout` in every
    seat; `parse_bots` allows it in all seats or none)."""
    return bool(bots) and all(bot == PLAYOUT for bot in bots)


@overload
def bot_factory(spec: str, native: None = None) -> Callable[[str], Bot]: ...
@overload
def bot_factory(spec: str, native: BotEngine) -> BotFactory: ...
def bot_factory(spec: str, native: BotEngine | None = None) -> BotFactory:
    """What makes the bot an entry of --bots names (`random`, `greedy`,
    `mcts`, `mcts:N`, `mcts:Nms`, either with `:uniform`), from a seed;
    BadBotSpec if none (`playout` too: it chooses no moves,
    `games.play_playout` plays its games whole). With `native` (an engine's
    native bots), greedy and mcts are their native versions."""
    from splendor_rules.compiler.tools.simulate.mcts import MctsBot, parse_mcts
    from splendor_rules.compiler.tools.simulate.native import NativeGreedyBot, NativeMctsBot

    name, _, argument = spec.strip().partition(":")
    if name == PLAYOUT:
        raise BadBotSpec(
            f"{spec!r} is not a bot that chooses moves: playout plays whole games in native code"
            if not argument
            else f"playout takes no argument, not {spec!r}"
        )
    if name == "random" and not argument:
        return RandomBot
    if name == "greedy" and not argument:
        if native is not None:
            return lambda seed: NativeGreedyBot(native, seed)
        return GreedyBot
    if name == "mcts":
        found = parse_mcts(argument)
        if found is None:
            raise BadBotSpec(
                f"mcts:N needs a whole number of iterations N >= 1 (or mcts:Nms, N milliseconds), "
                f"then :uniform or nothing, not {spec!r}"
            )
        if native is not None:
            return lambda seed: NativeMctsBot(native, seed, found)
        return lambda seed: MctsBot(seed, spec=found)
    raise BadBotSpec(
        f"unknown bot {spec!r}: random, greedy, mcts, mcts:N, mcts:Nms (either with :uniform) "
        "or playout"
    )


def parse_bots(spec: str, players: int) -> tuple[str, ...]:
    """One bot spec per seat from a comma-separated --bots value (a single
    entry plays every seat); BadBotSpec if a count or a name is wrong, or if
    `playout` plays some seats but not all."""
    entries = tuple(entry.strip() for entry in spec.split(","))
    if len(entries) == 1:
        entries *= players
    if len(entries) != players:
        raise BadBotSpec(f"{len(entries)} bots for {players} players: give one per seat")
    for entry in entries:
        if entry != PLAYOUT:
            bot_factory(entry)
    if PLAYOUT in entries and not plays_out(entries):
        others = ",".join(entry for entry in entries if entry != PLAYOUT)
        raise BadBotSpec(
            f"playout plays every seat or none (a playout makes every move of a game in native "
            f"code), not beside {others}: use --bots {PLAYOUT} for all seats, or random, the "
            "same uniform choice made in Python, beside other bots"
        )
    return entries
