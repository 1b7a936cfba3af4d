"""Hand-made positions: a record's `setup` patch applied to a new game.

A scenario sets up the position it needs (tokens held, cards bought or
reserved, market rows, decks, tiles) as a patch on the state new_game gives.
The patch is checked as it is applied: each card and each physical tile is
put in one place only, cards stay in their tier, seats and zones exist, and
tokens given to the seats come out of the supply (docs/records.md, "setup").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from splendor_rules.compiler.frontend.identities import DeckName
from splendor_rules.compiler.tools.records.actions import check_card, check_counts, check_tile
from splendor_rules.compiler.tools.records.catalog import Catalog
from splendor_rules.compiler.tools.records.form import Json, RecordError, brief, is_int

SETUP_KEYS = frozenset(
    {"supply", "seats", "market", "decks", "tiles", "current_player", "board", "bag"}
)


def seat_index(key: Json, players: int, what: str) -> int:
    """A seat number given as a JSON key or number."""
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise RecordError(f"{what}: seat {brief(key)} is not a seat number") from None
    if not 0 <= seat < players or isinstance(key, bool):
        raise RecordError(f"{what}: seat {brief(key)} is not a seat of {players} players")
    return seat


def by_seat(patch: Json, players: int, what: str) -> dict[int, Json]:
    """Per-seat values given as a list, or as an object keyed by seat."""
    if isinstance(patch, list):
        if len(patch) > players:
            raise RecordError(f"{what}: {len(patch)} seats for {players} players")
        return dict(enumerate(patch))
    if isinstance(patch, dict):
        return {seat_index(key, players, what): value for key, value in patch.items()}
    raise RecordError(f"{what} must be a list or an object keyed by seat")


class _Places:
    """Where the patch puts each card and each physical tile: each only once."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.cards: dict[int, str] = {}
        self.tiles: dict[tuple[str, object], tuple[int, str]] = {}

    def card(self, card: Json, where: str) -> int:
        check_card(card, self.cat, f"setup {where}")
        if isinstance(card, dict):
            raise RecordError(f"setup {where}: name a card by its number, not {brief(card)}")
        if card in self.cards:
            raise RecordError(
                f"setup: card {card} is in two places: {self.cards[card]} and {where}"
            )
        self.cards[card] = where
        number: int = card
        return number

    def tile(self, tile: Json, where: str) -> int:
        check_tile(tile, self.cat, f"setup {where}")
        key = self.cat.physical[tile]
        if key in self.tiles:
            other, at = self.tiles[key]
            same = "" if other == tile else f" (tile {other} is its other face)"
            raise RecordError(f"setup: tile {tile} is in two places{same}: {at} and {where}")
        self.tiles[key] = (tile, where)
        number: int = tile
        return number


class _Seats:
    """What the patch gives each seat: tokens, zone contents, hidden cards."""

    def __init__(self, patch: Json, players: int, cat: Catalog, places: _Places) -> None:
        self.cat, self.places = cat, places
        self.parts = by_seat(patch, players, "setup seats")
        self.tokens: dict[int, dict[str, int]] = {}
        self.zones: dict[int, dict[str, list[int]]] = {}
        self.hidden: set[int] = set()
        for seat, part in self.parts.items():
            if not isinstance(part, dict):
                raise RecordError(f"setup seat {seat} must be an object")
            for key, value in part.items():
                self.read(seat, key, value)
        self.check_hidden()

    def read(self, seat: int, key: str, value: Json) -> None:
        cat, where = self.cat, f"seat {seat} {key}"
        if key == "tokens":
            check_counts(value, cat, f"setup {where}")
            for kind, count in value.items():
                cap = cat.caps[kind]
                if cap is not None and count > cap:
                    raise RecordError(f"setup {where}: at most {cap} {kind} per player")
            self.tokens[seat] = dict(value)
        elif key in cat.zones:
            if not isinstance(value, list):
                raise RecordError(f"setup {where} must be a list")
            place = self.places.card if cat.zones[key][0] == "cards" else self.places.tile
            self.zones.setdefault(seat, {})[key] = [place(v, where) for v in value]
        elif key == "hidden":
            if not isinstance(value, list):
                raise RecordError(f"setup {where} must be a list of cards")
            for card in value:
                if not is_int(card):
                    raise RecordError(
                        f"setup {where}: name a card by its number, not {brief(card)}"
                    )
            self.hidden.update(value)
        else:
            known = ", ".join(["tokens", "hidden", *cat.zones])
            raise RecordError(f"setup seat {seat}: no key {brief(key)}; the keys are {known}")

    def check_hidden(self) -> None:
        """A hidden card lies in a zone of its seat that hides deck cards."""
        hiding = [name for name, (_, hides) in self.cat.zones.items() if hides]
        for seat, part in self.parts.items():
            for card in part.get("hidden", ()):
                if not any(card in self.zones.get(seat, {}).get(name, ()) for name in hiding):
                    raise RecordError(
                        f"setup seat {seat} hidden: card {brief(card)} is not in a zone of seat "
                        f"{seat} that hides cards taken from a deck"
                    )


def _by_tier(value: Json, cat: Catalog, what: str) -> dict[DeckName, list[Json]]:
    if not isinstance(value, dict):
        raise RecordError(f"setup {what} must be an object keyed by tier")
    out: dict[DeckName, list[Json]] = {}
    named = {str(t): t for t in cat.tiers if isinstance(t, str)}  # a named market's decks
    for key, items in value.items():
        tier: DeckName
        try:
            tier = int(key)
        except (TypeError, ValueError):
            tier = named.get(key, -1)
        if tier not in cat.tiers:
            tiers = ", ".join(str(t) for t in cat.tiers)
            raise RecordError(f"setup {what}: unknown tier {brief(key)}; the tiers are {tiers}")
        if not isinstance(items, list):
            raise RecordError(f"setup {what} {key} must be a list of cards")
        out[tier] = items
    return out


def _in_tier(card: int, tier: DeckName, cat: Catalog, what: str) -> None:
    if cat.card_tiers[card] != tier:
        raise RecordError(
            f"setup {what} {tier}: card {card} is of tier {cat.card_tiers[card]}, not {tier}"
        )


def _market(
    patch: Json, cat: Catalog, places: _Places
) -> tuple[dict[DeckName, list[Json]], dict[DeckName, list[Json]]]:
    """The market rows and the decks the patch gives, by tier."""
    rows = _by_tier(patch.get("market", {}), cat, "market")
    decks = _by_tier(patch.get("decks", {}), cat, "decks")
    for tier, row in rows.items():
        if len(row) != cat.face_up[tier]:
            shown = cat.face_up[tier]
            raise RecordError(f"setup market {tier}: a row has {shown} slots, not {len(row)}")
        for card in row:
            if card is not None:
                _in_tier(places.card(card, f"market {tier}"), tier, cat, "market")
    for tier, cards in decks.items():
        for card in cards:
            if card is None:
                raise RecordError(f"setup decks {tier}: a deck holds cards, not null")
            _in_tier(places.card(card, f"deck {tier}"), tier, cat, "decks")
    return rows, decks


def _tiles(patch: Json, cat: Catalog, places: _Places) -> dict[str, list[int]]:
    """The tiles in play the patch gives, by tile set."""
    tiles = patch.get("tiles", {})
    if not isinstance(tiles, dict):
        raise RecordError("setup tiles must be an object keyed by tile set")
    for name, faces in tiles.items():
        if name not in cat.tile_sets:
            known = ", ".join(cat.tile_sets) or "none"
            raise RecordError(f"setup tiles: unknown tile set {brief(name)}; the sets are {known}")
        if not isinstance(faces, list):
            raise RecordError(f"setup tiles {name} must be a list")
        for face in faces:
            places.tile(face, f"{name} in play")
            if face not in cat.tile_sets[name]:
                raise RecordError(f"setup tiles {name}: tile {face} is not a {name}")
    return tiles


def _move_cards(
    state: dict[str, Json],
    rows: Mapping[DeckName, list[Json]],
    decks: Mapping[DeckName, list[Json]],
    placed: set[int],
    cat: Catalog,
) -> None:
    """Each placed card leaves where the new game put it; a market slot it
    leaves is refilled from its deck, unless the deck is given."""
    for tier in cat.tiers:
        key = str(tier)
        old_row: list[int | None] = state["market"][key]
        deck: list[int] = (
            list(decks[tier])
            if tier in decks
            else [k for k in state["decks"][key] if k not in placed]
        )
        if tier in rows:
            row = list(rows[tier])
            if tier not in decks:
                displaced = [k for k in old_row if k is not None and k not in placed]
                deck = displaced + deck  # back under the deck: its top is unchanged
        else:
            row = [None if k is not None and k in placed else k for k in old_row]
            for slot, card in enumerate(old_row):
                if card is not None and row[slot] is None:
                    if tier in decks:
                        raise RecordError(
                            f"setup: card {card} leaves market row {tier} while deck {tier} is "
                            f"given; give market row {tier} too"
                        )
                    row[slot] = deck.pop() if deck else None
        state["market"][key] = row
        state["decks"][key] = deck


def _move_tiles(
    state: dict[str, Json], tiles: Mapping[str, list[int]], places: _Places, cat: Catalog
) -> None:
    """The given tile sets are exact; a tile placed with a seat leaves play."""
    for name in cat.tile_sets:
        if name in tiles:
            state["tiles"][name] = list(tiles[name])
        else:
            state["tiles"][name] = [
                t for t in state["tiles"][name] if cat.physical[t] not in places.tiles
            ]


def _give_tokens(
    state: dict[str, Json], supply: Json, held: Mapping[int, dict[str, int]], cat: Catalog
) -> None:
    """What the seats are given comes out of the supply, unless the supply
    of that kind is given."""
    check_counts(supply, cat, "setup supply")
    for seat, counts in held.items():
        state["seats"][seat]["tokens"] = {k: n for k, n in counts.items() if n}
    for kind in cat.tokens:
        if kind in supply:
            state["supply"][kind] = supply[kind]
            continue
        taken = sum(counts.get(kind, 0) for counts in held.values())
        left = state["supply"][kind] - taken
        if left < 0:
            raise RecordError(
                f"setup: the seats are given {taken} {kind} but the supply has only "
                f"{state['supply'][kind]}; give setup supply {kind} explicitly"
            )
        state["supply"][kind] = left


def _board(state: dict[str, Json], board: Json, bag: Json, cat: Catalog) -> None:
    """The board, cell by cell (a token kind or null), and the bag: the
    tokens the board gains come out of the bag, and those it loses go
    into it, for every kind the bag does not list."""
    if not cat.cells:
        raise RecordError(f"setup: {cat.name} has no board")
    check_counts(bag, cat, "setup bag")
    old = state["board"]
    if board is not None:
        if not isinstance(board, list) or len(board) != cat.cells:
            raise RecordError(f"setup board must list its {cat.cells} cells, a token kind or null")
        for n, kind in enumerate(board):
            if kind is not None and kind not in cat.tokens:
                raise RecordError(f"setup board cell {n}: unknown token kind {brief(kind)}")
        state["board"] = list(board)
    for kind in cat.tokens:
        if kind in bag:
            state["bag"][kind] = bag[kind]
            continue
        left = state["bag"][kind] + old.count(kind) - state["board"].count(kind)
        if left < 0:
            raise RecordError(
                f"setup: the board is given more {kind} than the board and the bag held; "
                f"give setup bag {kind} explicitly"
            )
        state["bag"][kind] = left


def apply_setup(state: dict[str, Json], patch: Json, cat: Catalog) -> dict[str, Any]:
    """The state (JSON form, after new_game) with the record's setup patch
    applied: see docs/records.md. Anything impossible is a RecordError."""
    if not isinstance(patch, dict):
        raise RecordError("setup must be an object")
    stray = sorted(set(patch) - SETUP_KEYS)
    if stray:
        raise RecordError(f"setup has no key {', '.join(map(brief, stray))}")
    players: int = state["players"]
    state = json.loads(json.dumps(state))
    places = _Places(cat)
    seats = _Seats(patch.get("seats", {}), players, cat, places)
    rows, decks = _market(patch, cat, places)
    tiles = _tiles(patch, cat, places)
    _move_cards(state, rows, decks, set(places.cards), cat)
    _move_tiles(state, tiles, places, cat)
    _give_tokens(state, patch.get("supply", {}), seats.tokens, cat)
    for seat, named in seats.zones.items():
        for name, items in named.items():
            state["seats"][seat]["zones"][name] = items
    state["hidden"] = sorted(seats.hidden)
    if "board" in patch or "bag" in patch:
        _board(state, patch.get("board"), patch.get("bag", {}), cat)
    if "current_player" in patch:
        current = patch["current_player"]
        if not is_int(current) or not 0 <= current < players:
            raise RecordError(f"setup current_player {brief(current)} is not a seat of {players}")
        state["current_player"] = current
    return state
