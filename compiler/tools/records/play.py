"""Playing games with bots and writing their records.

A played game becomes a record that replays it: the seed, the bots, every
action in the engine's JSON form and, as expectations, the final scores and
winners. Bots are functions from a state and its legal actions to an action;
a human seat is a bot the command line provides (this module does no I/O),
helped by `describe_position` and `read_move`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from splendor_rules.compiler.runtime.api import Action, Engine, State
from splendor_rules.compiler.tools.records.actions import (
    canonical,
    parse_short,
    short_form,
    to_action,
)
from splendor_rules.compiler.tools.records.catalog import engine_catalog
from splendor_rules.compiler.tools.records.form import Json, RecordError
from splendor_rules.compiler.tools.simulate.bots import BadBotSpec, bot_factory

Bot = Callable[[State, list[Action]], Action]


class StopGame(Exception):
    """Raised by a bot that gives no move (a human whose input ended): the
    game stops there, its record holding the moves made so far."""


class GameStopped(Exception):
    """A game stopped before its end; `record` replays the moves made so far
    (its final expectation says the game is not over)."""

    def __init__(self, record: dict[str, Json], reason: str) -> None:
        super().__init__(reason)
        self.record = record
        self.reason = reason


BOT_KINDS = ("random", "human")  # and every bot of simulate: greedy, mcts, mcts:N
_LIST_NUMBER = re.compile("[0-9]{1,9}")  # a number from the list of legal moves


def check_bot(name: str) -> None:
    """ValueError, saying what there is, unless `name` is random, human or
    a bot of simulate that chooses moves (greedy, mcts, mcts:N)."""
    if name not in BOT_KINDS:
        try:
            bot_factory(name)
        except BadBotSpec as error:
            raise ValueError(f"{error}, or human") from error


def simulate_bot(eng: Engine, seat: int, spec: str, seed: int) -> Bot:
    """A bot of simulate (made by its factory, seeded by the game's seed and
    the seat) as a bot of a record's game: it sees only its seat's view."""
    bot = bot_factory(spec)(f"{seed}:{seat}")

    def choose(state: State, legal: list[Action]) -> Action:
        return bot.choose(eng, seat, legal, lambda: eng.view(state, seat))

    return choose


def random_bot(rng: random.Random) -> Bot:
    """Uniform over the legal actions."""

    def choose(state: State, legal: list[Action]) -> Action:
        return rng.choice(legal)

    return choose


def describe_position(eng: Engine, state: State, seat: int, legal: list[Action]) -> list[str]:
    """What a human seat is shown before it moves: the position as the seat
    sees it and the legal actions, numbered from 1."""
    view = eng.view(state, seat)
    lines = [
        f"\nseat {seat} to move; scores {list(eng.scores(state))}",
        f"supply: {view['supply']}",
        f"market: {view['market']}  tiles: {view['tiles']}",
    ]
    for p, part in enumerate(view["seats"]):
        lines.append(f"seat {p}: tokens {part['tokens']}, {part['zones']}")
    for number, text in enumerate(legal_forms(eng, legal), start=1):
        lines.append(f"  {number:>3}. {text}")
    return lines


def legal_forms(eng: Engine, legal: list[Action]) -> list[str]:
    """The legal actions in the short form."""
    return [short_form(canonical(a, eng)) for a in legal]


def read_move(answer: str, eng: Engine, legal: list[Action]) -> Action:
    """The action a human answered: a number from the list, or an action in
    the short form. RecordError, with what to tell the human, otherwise."""
    answer = answer.strip()
    if _LIST_NUMBER.fullmatch(answer) and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    cat = engine_catalog(eng)
    wanted = short_form(canonical(to_action(parse_short(answer, cat), eng), eng))
    shown = legal_forms(eng, legal)
    if wanted in shown:
        return legal[shown.index(wanted)]
    raise RecordError("not a legal move here")


def play_game(
    eng: Engine,
    players: int,
    seed: int,
    bots: Sequence[str],
    first_player: int = 0,
    max_plies: int = 100_000,
    human: Callable[[Engine, int], Bot] | None = None,
) -> dict[str, Json]:
    """Play a game with the given bots (BOT_KINDS or simulate's, one per seat; `human`
    makes the bot of a human seat); its record, ending with the final scores
    and winners as expectations so that a replay checks them. The record
    names the determinism rule (E-6.1) when the edition states it: replaying
    it from the seed must give the same game. A bot that raises StopGame ends
    the game early: GameStopped then carries the record of the moves made."""
    rng = random.Random(seed)
    seats: list[Bot] = []
    for seat, bot in enumerate(bots):
        if bot == "random":
            seats.append(random_bot(rng))
        elif bot == "human" and human is not None:
            seats.append(human(eng, seat))
        elif bot != "human":
            check_bot(bot)
            seats.append(simulate_bot(eng, seat, bot, seed))
        else:
            raise ValueError(f"no bot {bot!r} for seat {seat}")
    state = eng.new_game(players, seed, first_player)
    actions: list[dict[str, Json]] = []
    stopped = None
    while not eng.is_over(state) and len(actions) < max_plies:
        legal = eng.legal_actions(state)
        if not legal:
            break
        try:
            action = seats[eng.current_player(state)](state, legal)
        except StopGame as stop:
            stopped = f"seat {eng.current_player(state)} gave no move at step {len(actions) + 1}"
            stopped += f" ({stop})" if str(stop) else ""
            break
        state = eng.apply(state, action)
        actions.append(canonical(action, eng))
    final: dict[str, Json] = {
        "step": len(actions),
        "is_over": bool(eng.is_over(state)),
        "scores": list(eng.scores(state)),
        "winners": sorted(eng.winners(state)),
    }
    record: dict[str, Json] = {
        "title": f"{eng.EDITION}, {players} players, seed {seed}: {', '.join(bots)}",
        "rules": [r for r in ("E-6.1",) if r in engine_catalog(eng).rule_ids],
        "edition": eng.EDITION,
        "fingerprint": eng.DESCRIPTION["fingerprint"],
        "players": players,
        "seed": seed,
        "first_player": first_player,
        "bots": list(bots),
        "actions": actions,
        "expect": [final],
    }
    if stopped is not None:
        record["notes"] = f"stopped before the end: {stopped}"
        raise GameStopped(record, stopped)
    return record
