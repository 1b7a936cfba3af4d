"""A state read back from its JSON form, every part checked.

`from_json` is where a state enters an engine from outside, so it is where a
state that breaks the game's invariants is refused: a count that is not a
whole number (a bool is not one) or is negative, a seat or a step out of
range, an unknown key, kind, card or tile, a card or a physical tile in two
places, a seat over a kind's cap; and, for a complete state, tokens or cards
that are nowhere (docs/engine.md, "JSON form of a state"). The refusal is a
ValueError naming what is wrong, worded as the generated engines word it,
though the check is written here from the model alone: the interpreter stays
an implementation independent of the code generator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend.identities import DeckName
from splendor_rules.compiler.frontend.limits import CARD_VALUE, COUNT
from splendor_rules.compiler.frontend.schema import GENERATOR_HIGH
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.values import Json, Seat, State, Value


def refuse(message: str) -> ValueError:
    return ValueError(message)


def whole(value: Any, what: str) -> int:
    """A count: an int that is not a bool, and not negative."""
    if type(value) is not int:
        raise refuse(f"{what} must be a whole number, not {value!r}")
    if value < 0:
        raise refuse(f"{what} must be at least 0, not {value}")
    if value > COUNT.high:
        raise refuse(f"{what} must be at most {COUNT.high}, the most a state counts, not {value}")
    return value


def number(value: Any, what: str) -> int:
    """A number a follow-up decision carries: an int that is not a bool."""
    if type(value) is not int:
        raise refuse(f"{what} must be a whole number, not {value!r}")
    return value


def flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise refuse(f"{what} must be true or false, not {value!r}")
    return value


def a_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise refuse(f"{what} must be a list, not {type(value).__name__}")
    return value


def an_object(value: Any, keys: Sequence[str], what: str, noun: str = "key") -> Json:
    """A JSON object with exactly the given keys."""
    if not isinstance(value, dict):
        raise refuse(f"{what} must be an object, not {type(value).__name__}")
    stray = [key for key in value if key not in keys]
    if stray:
        raise refuse(f"unknown {noun} {stray[0]!r} in {what}")
    absent = [key for key in keys if key not in value]
    if absent:
        raise refuse(f"missing {noun} {absent[0]!r} in {what}")
    return value


class Places:
    """Where each card and each physical tile was found: one place only."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.cards: dict[int, str] = {}
        self.tiles: dict[tuple[str, object], tuple[int, str]] = {}

    def card(self, value: Any, where: str, tier: DeckName | None = None) -> int:
        count = len(self.tables.decks.card_tier)
        if type(value) is not int or not 0 <= value < count:
            raise refuse(f"{where}: {value!r} is not a card (0 to {count - 1})")
        if value in self.cards:
            raise refuse(f"card {value} is in two places: {self.cards[value]} and {where}")
        if tier is not None and self.tables.tier(value) != tier:
            raise refuse(f"{where}: card {value} is of tier {self.tables.tier(value)}")
        self.cards[value] = where
        return value

    def tile(self, value: Any, where: str) -> int:
        count = self.tables.tiles.count
        if type(value) is not int or not 0 <= value < count:
            raise refuse(f"{where}: {value!r} is not a tile (0 to {count - 1})")
        physical = self.tables.tiles.physical[value]
        if physical in self.tiles:
            face, at = self.tiles[physical]
            other = "" if face == value else f" (tile {face} is its other face)"
            raise refuse(f"tile {value} is in two places{other}: {at} and {where}")
        self.tiles[physical] = (value, where)
        return value

    def missing_card(self) -> int | None:
        """The first card found nowhere, if any."""
        count = len(self.tables.decks.card_tier)
        return next((card for card in range(count) if card not in self.cards), None)


class StateReader:
    """The JSON form of a state, checked part by part, as a `State`."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.model = tables.model

    def state(self, data: Any, complete: bool) -> State:
        """The state; ValueError naming the first thing that is wrong (the
        parts are checked in the order of the form)."""
        if self.model.card_values and not complete and isinstance(data, dict):
            # A hand-made position may leave the card values out: all initial.
            data = {"card_values": {v.name: {} for v in self.model.card_values}, **data}
        players, seats = self.header(data)
        first = self.seat(data["first_player"], players, "first_player")
        current = self.seat(data["current_player"], players, "current_player")
        turn = whole(data["turn"], "turn")
        over = flag(data["over"], "over")
        last_round = flag(data["last_round"], "last_round")
        pending = self.pending(data["pending"], over)
        board, bag, draws = self.board(data) if self.model.board is not None else ((), (), 0)
        supply, tokens = self.tokens(data, seats, complete, (*board, *bag))
        places = Places(self.tables)
        decks, market = self.cards_on_the_table(data, places)
        tiles = self.tiles_in_play(data["tiles"], places)
        zones = [self.zones(p, seat["zones"], places) for p, seat in enumerate(seats)]
        if complete and not self.tables.boxes and (card := places.missing_card()) is not None:
            raise refuse(f"card {card} is nowhere: in no deck, market row or zone")
        hidden = self.hidden(data["hidden"], zones)
        card_values = self.card_values(data["card_values"]) if self.model.card_values else ()
        listed = isinstance(data["pending"], list) and bool(self.tables.follow_ups)
        follow = self.follow(data["pending"]) if listed else ()
        if follow and over:
            raise refuse("pending: a game that is over has no pending decision")
        return State(
            players=players,
            first_player=first,
            current=current,
            turn=turn,
            over=over,
            last_round=last_round,
            pending=pending,
            supply=supply,
            decks=decks,
            market=market,
            tiles=tiles,
            hidden=hidden,
            follow=follow,
            seats=tuple(
                Seat(tokens=held, zones=zones[p], did=self.did(p, seats[p]["did"]))
                for p, held in enumerate(tokens)
            ),
            card_values=card_values,
            board=board,
            bag=bag,
            draws=draws,
        )

    # ------------------------------------------------------------- parts

    def header(self, data: Any) -> tuple[int, list[Json]]:
        """The edition, the player count and the seats."""
        an_object(data, self.tables.schema.keys, "the state")
        name = self.model.name
        if data["edition"] != name:
            raise refuse(f"a state of edition {data['edition']!r}, not of {name!r}")
        field = self.tables.schema.field("players")
        low, high = field.low, field.high
        players = data["players"]
        if type(players) is not int or not low <= players <= high:
            raise refuse(f"{name} is for {low} to {high} players, not {players!r}")
        seats = a_list(data["seats"], "seats")
        if len(seats) != players:
            raise refuse(f"{len(seats)} seats for {players} players")
        for p, seat in enumerate(seats):
            an_object(seat, self.tables.schema.seat_keys, f"seat {p}")
        return players, seats

    def seat(self, value: Any, players: int, what: str) -> int:
        if type(value) is not int or not 0 <= value < players:
            raise refuse(f"{what} must be a seat from 0 to {players - 1}, not {value!r}")
        return value

    def follow(self, value: list[Any]) -> tuple[tuple[int, tuple[Value, ...]], ...]:
        """The follow-up decisions waiting (docs/engine.md): a non-empty list
        of {"decision": move name, "names": {name: value}}."""
        if not value:
            raise refuse("pending: a list of follow-up decisions cannot be empty")
        queue = []
        for entry in value:
            an_object(entry, ("decision", "names"), "a pending follow-up decision")
            name = entry["decision"]
            if not isinstance(name, str) or name not in self.tables.follow_up:
                known = ", ".join(self.tables.follow_up)
                raise refuse(f"pending: {name!r} is not a follow-up decision ({known})")
            index = self.tables.follow_up[name]
            site = self.tables.follow_ups[index]
            names = an_object(entry["names"], tuple(n for n, _ in site.bound), f"{name} names")
            values = tuple(
                self.bound_value(names[n], identities.value_kind(t), f"{name} {n}")
                for n, t in site.bound
            )
            queue.append((index, values))
        return tuple(queue)

    def bound_value(self, value: Any, kind: str, what: str) -> Value:
        """A value a follow-up decision carries, checked against its kind."""
        tables = self.tables
        if kind.startswith("list:"):
            return tuple(self.bound_value(v, kind[5:], what) for v in a_list(value, what))
        if kind == "vector":
            items = a_list(value, what)
            if len(items) != len(tables.colours):
                raise refuse(f"{what} must list {len(tables.colours)} numbers, not {len(items)}")
            return tuple(number(v, what) for v in items)
        names = {"colour": tables.colours, "token": tables.tokens}.get(kind)
        if names is not None:
            if value not in names:
                raise refuse(f"{what}: {value!r} is not a {kind} ({', '.join(names)})")
            return value
        if kind == "bool":
            return flag(value, what)
        if kind == "text":
            if not isinstance(value, str):
                raise refuse(f"{what} must be a string, not {value!r}")
            return value
        cells = tables.model.board.cells if tables.model.board is not None else 0
        count = {
            "card": len(tables.decks.card_tier),
            "tile": tables.tiles.count,
            "cell": cells,
        }.get(kind)
        if count is None:
            return number(value, what)
        if type(value) is not int or not 0 <= value < count:
            raise refuse(f"{what}: {value!r} is not a {kind} (0 to {count - 1})")
        return value

    def pending(self, value: Any, over: bool) -> str | None:
        if value is None or (isinstance(value, list) and self.tables.follow_ups):
            return None  # a list: follow-up decisions, read by `follow`
        decisions = [s.name for s in self.model.steps if s.name in self.tables.signatures]
        if not isinstance(value, str) or value not in decisions:
            raise refuse(
                f"pending must be null or a decision step ({', '.join(decisions)}), not {value!r}"
            )
        if over:
            raise refuse(f"pending: a game that is over has no pending decision ({value})")
        return value

    def counts(self, value: Any, what: str, every: bool) -> tuple[int, ...]:
        kinds = self.tables.tokens
        if not isinstance(value, dict):
            raise refuse(f"{what} must be an object, not {type(value).__name__}")
        stray = [key for key in value if key not in kinds]
        if stray:
            raise refuse(f"unknown token kind {stray[0]!r} in {what}")
        absent = [kind for kind in kinds if kind not in value] if every else []
        if absent:
            raise refuse(f"missing token kind {absent[0]!r} in {what}")
        return tuple(whole(value.get(kind, 0), f"{what} {kind}") for kind in kinds)

    def board(self, data: Json) -> tuple[tuple[int | None, ...], tuple[int, ...], int]:
        """The board's cells (a token kind or null each), the bag's counts
        and the generator's state."""
        grid = self.model.board
        assert grid is not None
        kinds = self.tables.tokens
        cells = a_list(data["board"], "board")
        if len(cells) != grid.cells:
            raise refuse(f"board has {len(cells)} cells, not {grid.cells}")
        for n, kind in enumerate(cells):
            if kind is not None and kind not in kinds:
                raise refuse(f"board cell {n}: {kind!r} is not a token kind ({', '.join(kinds)})")
        board = tuple(None if k is None else self.tables.token[k] for k in cells)
        bag = self.counts(data["bag"], "bag", every=True)
        draws = data["draws"]
        if type(draws) is not int or not 0 <= draws <= GENERATOR_HIGH:
            raise refuse(f"draws must be a whole number from 0 to {GENERATOR_HIGH}, not {draws!r}")
        return board, bag, draws

    def tokens(
        self,
        data: Json,
        seats: list[Json],
        complete: bool,
        placed: tuple[int | None, ...] = (),
    ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
        """The supply and what each seat holds: none over a kind's cap;
        complete, every token of the game in one or the other, or on the
        board or in the bag (`placed`: the board's cells, then the bag's
        counts)."""
        grid = self.model.board
        cells = grid.cells if grid is not None else 0
        on_board = [
            sum(1 for k in placed[:cells] if k == i) for i in range(len(self.tables.tokens))
        ]
        in_bag = [n or 0 for n in placed[cells:]] or [0] * len(self.tables.tokens)
        supply = self.counts(data["supply"], "supply", every=True)
        held = [
            self.counts(s["tokens"], f"seat {p} tokens", every=False) for p, s in enumerate(seats)
        ]
        for k, kind in enumerate(self.model.tokens):
            for p, counts in enumerate(held):
                if kind.cap is not None and counts[k] > kind.cap:
                    raise refuse(
                        f"seat {p} holds {counts[k]} {kind.name}; a player holds at most {kind.cap}"
                    )
            total = supply[k] + sum(counts[k] for counts in held) + on_board[k] + in_bag[k]
            places = (
                "the supply, the seats, the board and the bag"
                if grid
                else "the supply and the seats"
            )
            if total > COUNT.high:
                raise refuse(
                    f"{total} {kind.name} in {places}; a state counts at most {COUNT.high}"
                )
            game = kind.supply[len(seats)]
            if grid is not None:
                game += grid.bag.get(kind.name, {}).get(len(seats), 0)
            if complete and total != game:
                raise refuse(
                    f"{total} {kind.name} in {places}; a {len(seats)}-player game has {game}"
                )
        return supply, held

    def cards_on_the_table(
        self, data: Json, places: Places
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int | None, ...], ...]]:
        """The decks (bottom to top) and the market rows, by ascending tier."""
        keys = [str(tier) for tier in self.tables.tiers]
        decks = an_object(data["decks"], keys, "decks", "deck")
        market = an_object(data["market"], keys, "market", "deck")
        deck_cards = tuple(
            tuple(
                places.card(c, f"deck tier {t}", t) for c in a_list(decks[str(t)], f"deck tier {t}")
            )
            for t in self.tables.tiers
        )
        rows: list[tuple[int | None, ...]] = []
        for tier, face_up in zip(self.tables.tiers, self.tables.decks.face_up, strict=True):
            where = f"market tier {tier}"
            row = a_list(market[str(tier)], where)
            if len(row) != face_up:
                raise refuse(f"{where} has {len(row)} slots, not {face_up}")
            rows.append(tuple(None if c is None else places.card(c, where, tier) for c in row))
        return deck_cards, tuple(rows)

    def tiles_in_play(self, value: Any, places: Places) -> tuple[tuple[int, ...], ...]:
        names = [table.name for table in self.model.tile_sets]
        sets = an_object(value, names, "tiles", "tile set")
        in_play: list[tuple[int, ...]] = []
        for name in names:
            where = f"tile set {name}"
            tiles = tuple(places.tile(t, where) for t in a_list(sets[name], where))
            stray = [t for t in tiles if t not in self.tables.tiles.set_faces[name]]
            if stray:
                raise refuse(f"{where}: tile {stray[0]} is not one of its tiles")
            in_play.append(tiles)
        return tuple(in_play)

    def zones(self, p: int, value: Any, places: Places) -> tuple[tuple[int, ...], ...]:
        """A seat's zones, in declaration order: cards or tiles, as declared."""
        named = an_object(value, [z.name for z in self.model.zones], f"seat {p} zones", "zone")
        zones: list[tuple[int, ...]] = []
        for zone in self.model.zones:
            where = f"seat {p} zone {zone.name}"
            place = places.card if zone.content == "cards" else places.tile
            zones.append(tuple(place(item, where) for item in a_list(named[zone.name], where)))
        return tuple(zones)

    def hidden(self, value: Any, zones: list[tuple[tuple[int, ...], ...]]) -> tuple[int, ...]:
        """The cards seen by their owner only: in a zone that hides cards
        taken from a deck, each listed once; kept in ascending order."""
        hiding = {
            card
            for seat in zones
            for zone, cards in zip(self.model.zones, seat, strict=True)
            if zone.hidden_from_deck
            for card in cards
        }
        seen: list[int] = []
        for card in a_list(value, "hidden"):
            if type(card) is not int or card not in hiding:
                raise refuse(
                    f"hidden: {card!r} is not a card in a zone that hides cards taken from a deck"
                )
            if card in seen:
                raise refuse(f"hidden: card {card} is listed twice")
            seen.append(card)
        return tuple(sorted(seen))

    def card_values(self, value: Any) -> tuple[tuple[Any, ...], ...]:
        """Each card value: cards named by their number (as text), each value
        of its kind; a card not named has the initial value."""
        declared = self.model.card_values
        named = an_object(value, [v.name for v in declared], "card_values", "card value")
        cards = len(self.model.cards.rows)
        keys = {str(card) for card in range(cards)}  # as to_json writes them
        read = []
        for declared_value, row in zip(declared, self.tables.initial_card_values(), strict=True):
            where = f"card value {declared_value.name}"
            given = named[declared_value.name]
            if not isinstance(given, dict):
                raise refuse(f"{where} must be an object, not {type(given).__name__}")
            values = list(row)
            for key, v in given.items():
                if not isinstance(key, str) or key not in keys:
                    raise refuse(f"{where}: {key!r} is not a card (0 to {cards - 1})")
                values[int(key)] = self.card_value(v, declared_value.type, f"{where} of card {key}")
            read.append(tuple(values))
        return tuple(read)

    def card_value(self, value: Any, kind: str, what: str) -> Any:
        if kind == "bool":
            return flag(value, what)
        if kind == "int":
            if type(value) is not int:
                raise refuse(f"{what} must be a whole number, not {value!r}")
            if not CARD_VALUE.low <= value <= CARD_VALUE.high:
                raise refuse(
                    f"{what} must be from {CARD_VALUE.low} to {CARD_VALUE.high}, not {value}"
                )
            return value
        colours = self.tables.colours
        if value is not None and (not isinstance(value, str) or value not in colours):
            raise refuse(f"{what} must be a colour ({', '.join(colours)}) or null, not {value!r}")
        return value

    def did(self, p: int, value: Any) -> tuple[str, ...]:
        """The actions a seat did this round, each once, in declaration order."""
        actions: Mapping[str, Any] = self.tables.actions
        done: list[str] = []
        for name in a_list(value, f"seat {p} did"):
            if not isinstance(name, str) or name not in actions:
                raise refuse(f"seat {p} did: {name!r} is not an action of {self.model.name}")
            if name in done:
                raise refuse(f"seat {p} did: {name} is listed twice")
            done.append(name)
        return tuple(a for a in actions if a in done)
