"""The setup of a new game, with the random calls in the order of
docs/engine.md ("Setup"): the decks by ascending tier, then the reveals."""

from __future__ import annotations

import random

from attrs import evolve

from splendor_rules.compiler.runtime.interpreter.evaluation import Definitions
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.values import Seat, State, replace


def new_game(definitions: Definitions, players: int, seed: int, first_player: int) -> State:
    """The first state of a game; ValueError for a setup the edition refuses."""
    tables = definitions.tables
    model = tables.model
    low, high = model.players
    if not _is_int(players) or players not in range(low, high + 1):
        raise ValueError(f"{model.name} is for {low} to {high} players, not {players!r}")
    if not _is_int(first_player) or not 0 <= first_player < players:
        raise ValueError(f"first player {first_player} is not a seat of {players} players")
    rng = random.Random(seed)
    decks: list[tuple[int, ...]] = []
    market: list[tuple[int | None, ...]] = []
    for cards, face_up in zip(tables.decks.deck_cards, tables.decks.face_up, strict=True):
        deck = list(cards)
        rng.shuffle(deck)
        market.append(tuple(deck.pop() if deck else None for _ in range(face_up)))
        decks.append(tuple(deck))
    state = State(
        players=players,
        first_player=first_player,
        current=first_player,
        turn=0,
        over=False,
        last_round=False,
        pending=None,
        supply=tuple(t.supply[players] for t in model.tokens),
        decks=tuple(decks),
        market=tuple(market),
        tiles=tuple(() for _ in model.tile_sets),
        hidden=(),
        seats=tuple(
            Seat(tokens=(0,) * len(tables.tokens), zones=tuple(() for _ in model.zones), did=())
            for _ in range(players)
        ),
        card_values=tables.initial_card_values(),
    )
    state = _seat_gifts(tables, state)
    tiles = state.tiles
    for reveal in model.reveals:
        wanted = definitions.env(state).visit(reveal.count)
        index = tables.tile_set[reveal.tiles]
        tiles = replace(tiles, index, _revealed(tables, reveal.tiles, wanted, rng))
    return evolve(state, tiles=tiles)


def _seat_gifts(tables: Tables, state: State) -> State:
    """What players start with (`setup { … }`), in the order written: the
    player at that place in the turn order (if the game has one) gains the
    tokens as `gain` does, at most what the supply holds and the cap allows."""
    supply = list(state.supply)
    seats = list(state.seats)
    for gift in tables.model.seat_gifts:
        if gift.position > state.players:
            continue
        seat = (state.first_player + gift.position - 1) % state.players
        kind = tables.token[gift.token]
        held = list(seats[seat].tokens)
        cap = tables.kinds[gift.token].cap
        room = cap - held[kind] if cap is not None else gift.amount
        taken = max(0, min(gift.amount, supply[kind], room))
        supply[kind] -= taken
        held[kind] += taken
        seats[seat] = evolve(seats[seat], tokens=tuple(held))
    return evolve(state, supply=tuple(supply), seats=tuple(seats))


def _is_int(value: object) -> bool:
    """A number of players or a seat: an int (a bool or a float is not one)."""
    return type(value) is int


def _revealed(tables: Tables, tile_set: str, wanted: int, rng: random.Random) -> tuple[int, ...]:
    """The tiles a reveal puts in play: `wanted` tiles drawn at random, and
    of a double-sided tile, one face drawn at random."""
    if tables.table(tile_set).sides_by is None:
        order = list(tables.tiles.set_faces[tile_set])
        rng.shuffle(order)
        return tuple(order[: max(0, min(wanted, len(order)))])
    physical = list(tables.tiles.set_tiles[tile_set])
    rng.shuffle(physical)
    chosen = physical[: max(0, min(wanted, len(physical)))]
    return tuple(faces[rng.randrange(len(faces))] for faces in chosen)
