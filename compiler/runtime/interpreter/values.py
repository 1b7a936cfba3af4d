"""The interpreter's values: game states, and the refusal of an illegal move.

States are immutable values, frozen attrs classes of tuples: every change
builds a new state, so an engine never changes a state it was given
(docs/engine.md). While evaluating, numbers and conditions are `int` and
`bool`; a colour or token kind is its name; a card or tile is its number
(docs/engine.md, "Identities"); a number per colour is a tuple in colour
order; a set or list is a tuple in its defined order.
"""

from __future__ import annotations

from typing import Any

from attrs import evolve, frozen

from splendor_rules.compiler.frontend import model as m

Value = Any  # int | bool | str | tuple[Value, ...]: see the module docstring
Action = tuple[Any, ...]
Json = dict[str, Any]

DECK = "deck"  # a deck top in a move: (DECK, tier); in JSON: {DECK: tier}


class IllegalAction(ValueError):
    """A move the rules forbid; the message starts with the ids of the rules
    that forbid it, so a failing move names the rule to read."""


@frozen
class Seat:
    """What one player has. Zones are in declaration order, each in the
    order its cards or tiles entered it."""

    tokens: tuple[int, ...]  # per token kind, in token order
    zones: tuple[tuple[int, ...], ...]
    did: tuple[str, ...]  # the actions done this round, for did()


@frozen
class State:
    """A whole game position, hidden parts included (view() hides them)."""

    players: int
    first_player: int
    current: int
    turn: int  # turns completed
    over: bool
    last_round: bool  # marked by an ending of mode "once"
    pending: str | None  # the step whose decision is pending
    supply: tuple[int, ...]  # per token kind
    decks: tuple[tuple[int, ...], ...]  # per tier ascending, bottom to top
    market: tuple[tuple[int | None, ...], ...]  # per tier ascending, slot order
    tiles: tuple[tuple[int, ...], ...]  # per tile set: the tiles in play, in play order
    hidden: tuple[int, ...]  # cards taken from a deck into a zone that hides them
    seats: tuple[Seat, ...]
    # per card value (model order), its value for each card: a colour's name,
    # None for none; empty for an edition that declares no card values
    card_values: tuple[tuple[Any, ...], ...] = ()
    # The follow-up decisions waiting, first the pending one: each a site
    # (its index in tables.follow_ups) and the values of the names it carries.
    follow: tuple[tuple[int, tuple[Any, ...]], ...] = ()
    # The board, per cell its token kind's index or None (empty); the bag,
    # per token kind its count; the bag's generator (board.py). Empty and 0
    # for an edition without a board.
    board: tuple[int | None, ...] = ()
    bag: tuple[int, ...] = ()
    draws: int = 0
    # A turn of several actions: the first action before the main one still
    # open this turn (0 when the edition has none), and an extra turn granted.
    stage: int = 0
    again: bool = False


def same(a: Value, b: Value) -> bool:
    """Equality that does not confuse True with 1 or a list with a tuple: an
    action value must be exactly one the engine offers."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def show(value: Value) -> str:
    """A value inside a requirement's message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:  # a colour card value never set
        return "none"
    if isinstance(value, tuple):
        return ", ".join(show(v) for v in value)
    return str(value)


def rule_ids(part: m.Statement | m.Part) -> str:
    """The ids that open a refusal's message."""
    return ", ".join(part.rule_ids)


def replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def with_seat(state: State, player: int, seat: Seat) -> State:
    return evolve(state, seats=replace(state.seats, player, seat))
