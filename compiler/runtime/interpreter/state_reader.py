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

The reader walks the state's schema (compiler/frontend/schema.py): a reader
per kind of field, not per field, so a new field of a known kind is read
with no edit here. The kinds are read in one order, each after those its
checks need (the hidden cards after the zones they must be in), with the
checks across fields between them (the tokens' totals once the supply and
every seat's tokens are read), as every engine reads a state: the first
thing wrong is the one named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

from attrs import define, field

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend.identities import DeckName
from splendor_rules.compiler.frontend.limits import CARD_VALUE, COUNT
from splendor_rules.compiler.frontend.schema import Entry, Field, Kind, Place
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
    """Where each card and each physical tile was found: one place only.
    Every place of cards or tiles is checked by `entry`, as the schema
    describes it (compiler/frontend/schema.py): no kind of place is known here."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.cards: dict[int, str] = {}
        self.tiles: dict[tuple[object, ...], tuple[int, str]] = {}

    def entry(
        self, place: Place, entry: Entry, items: list[Any], where: str, seat: int | None
    ) -> tuple[int | None, ...]:
        """An entry's cards or tiles, each checked: in range, in one place,
        of the entry's deck or tile set (an empty slot is None)."""
        if place.cards:
            tier = None if entry.of < 0 else self.tables.tiers[entry.of]
            return tuple(
                None if item is None and entry.slots >= 0 else self.card(item, where, tier)
                for item in items
            )
        tiles = tuple(self.tile(item, where, seat if place.claims else None) for item in items)
        if entry.of >= 0:
            faces = self.tables.tiles.set_faces[self.tables.model.tile_sets[entry.of].name]
            stray = [t for t in tiles if t not in faces]
            if stray:
                raise refuse(f"{where}: tile {stray[0]} is not one of its tiles")
        return tiles

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

    def tile(self, value: Any, where: str, seat: int | None = None) -> int:
        """A tile, each physical tile in one place: but a tile of a set
        claimed once per player is in play and in each seat's zones once
        (`seat`: the place counts such tiles per seat)."""
        count = self.tables.tiles.count
        if type(value) is not int or not 0 <= value < count:
            raise refuse(f"{where}: {value!r} is not a tile (0 to {count - 1})")
        physical: tuple[object, ...] = self.tables.tiles.physical[value]
        if seat is not None and value in self.tables.shared_tiles:
            physical = (*physical, seat)
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


# The State attribute of a field whose name is not its key; a field named
# here as None is no attribute (the edition is the engine's own).
ATTRIBUTES: dict[str, str | None] = {"edition": None, "current_player": "current"}


def attribute(key: str) -> str | None:
    """The State (or Seat) attribute a field is held in, if any."""
    return ATTRIBUTES.get(key, key)


def held(read: dict[str, Any]) -> dict[str, Any]:
    """Fields read, by key, as the attributes that hold them."""
    return {name: v for k, v in read.items() if (name := attribute(k)) is not None}


class At(NamedTuple):
    """A field's value where it is read: the state's, or seat `seat`'s."""

    value: Any
    what: str  # its name in a refusal: "supply", "seat 0 tokens"
    seat: int | None = None


@define
class Reading:
    """A state being read: its form, and each field read so far."""

    data: Json
    complete: bool
    places: Places
    state: dict[str, Any] = field(factory=dict)  # by key
    forms: list[Json] = field(factory=list)  # each seat's form
    seats: list[dict[str, Any]] = field(factory=list)  # each seat's fields, by key
    follow: tuple[tuple[int, tuple[Value, ...]], ...] = ()


Reader = Callable[[Field, At, Reading], Any]
PLACES: Literal["places"] = "places"  # the fields of places of cards or tiles, whatever their kind


def read_by(f: Field, step: Kind | Literal["places"]) -> bool:
    """Is the field read by the step of that kind? A field of places of cards
    or tiles is read by the places' step, whatever its kind."""
    if f.of_items:
        return step == PLACES
    return f.kind == step


Check = Callable[[Reading], None]


class StateReader:
    """The JSON form of a state, checked field by field, as a `State`."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.model = tables.model
        self.schema = tables.schema
        # The order of reading: each step reads every field of its kind (the
        # state's, then each seat's) or checks across the fields read.
        self.order: tuple[tuple[Kind | Literal["places"], Reader] | Check, ...] = (
            ("edition", self.edition),
            ("players", self.players),
            ("seats", self.seat_forms),
            ("seat", self.seat),
            ("count", self.count),
            ("flag", self.flag),
            ("pending", self.pending),
            ("board cells", self.board_cells),
            ("generator", self.generator),
            ("token counts", self.counts),
            self.token_totals,
            (PLACES, self.places),
            self.nowhere,
            ("hidden cards", self.hidden),
            ("card values", self.card_values),
            ("pending", self.follow),
            ("actions done", self.did),
        )
        # Each step with the fields it reads, the state's then the seat's.
        self.plan = tuple(
            (
                step[1],
                tuple(f for f in self.schema.fields if read_by(f, step[0])),
                tuple(f for f in self.schema.seat_fields if read_by(f, step[0])),
            )
            if isinstance(step, tuple)
            else step
            for step in self.order
        )

    def state(self, data: Any, complete: bool) -> State:
        """The state; ValueError naming the first thing that is wrong."""
        if not complete and isinstance(data, dict):
            # A hand-made position may leave the card values out: all initial.
            initial: Json = {
                f.key: {n: {} for n in f.names}
                for f in self.schema.fields
                if f.kind == "card values"
            }
            data = {**initial, **data}
        an_object(data, self.schema.keys, "the state")
        r = Reading(data, complete, Places(self.tables))
        for step in self.plan:
            if not isinstance(step, tuple):
                step(r)
                continue
            read, fields, seat_fields = step
            for f in fields:
                r.state[f.key] = read(f, At(data[f.key], f.key), r)
            for f in seat_fields:
                for p, (form, seat) in enumerate(zip(r.forms, r.seats, strict=True)):
                    seat[f.key] = read(f, At(form[f.key], f"seat {p} {f.key}", p), r)
        seats = tuple(Seat(**held(seat)) for seat in r.seats)
        return State(**{**held(r.state), "seats": seats}, follow=r.follow)

    # ------------------------------------------------- the form's frame

    def edition(self, f: Field, at: At, r: Reading) -> str:
        (name,) = f.names
        if at.value != name:
            raise refuse(f"a state of edition {at.value!r}, not of {name!r}")
        return name

    def players(self, f: Field, at: At, r: Reading) -> int:
        players = at.value
        if type(players) is not int or not f.low <= players <= f.high:
            raise refuse(f"{self.model.name} is for {f.low} to {f.high} players, not {players!r}")
        return players

    def seat_forms(self, f: Field, at: At, r: Reading) -> list[Json]:
        """The seats' forms, each an object of the seat's fields."""
        players = r.state["players"]
        seats = a_list(at.value, at.what)
        if len(seats) != players:
            raise refuse(f"{len(seats)} seats for {players} players")
        for p, seat in enumerate(seats):
            an_object(seat, self.schema.seat_keys, f"seat {p}")
        r.forms, r.seats = seats, [{} for _ in seats]
        return seats

    # ------------------------------------------------------- the numbers

    def seat(self, f: Field, at: At, r: Reading) -> int:
        players = r.state["players"]
        if type(at.value) is not int or not 0 <= at.value < players:
            raise refuse(f"{at.what} must be a seat from 0 to {players - 1}, not {at.value!r}")
        return at.value

    def count(self, f: Field, at: At, r: Reading) -> int:
        value = whole(at.value, at.what)
        if value > f.high:  # a count with bounds of its own (`stage`)
            raise refuse(f"{at.what} must be at most {f.high}, not {value}")
        return value

    def flag(self, f: Field, at: At, r: Reading) -> bool:
        return flag(at.value, at.what)

    def counts(self, f: Field, at: At, r: Reading) -> tuple[int, ...]:
        """Token counts: every kind listed, or only those not 0 (sparse)."""
        value, what = at.value, at.what
        if not isinstance(value, dict):
            raise refuse(f"{what} must be an object, not {type(value).__name__}")
        stray = [key for key in value if key not in f.names]
        if stray:
            raise refuse(f"unknown token kind {stray[0]!r} in {what}")
        absent = [] if f.sparse else [kind for kind in f.names if kind not in value]
        if absent:
            raise refuse(f"missing token kind {absent[0]!r} in {what}")
        return tuple(whole(value.get(kind, 0), f"{what} {kind}") for kind in f.names)

    def token_totals(self, r: Reading) -> None:
        """No seat over a kind's cap; complete, every token of the game in
        the supply or a seat."""
        supply = r.state["supply"]
        board = self.model.board
        # an edition with a board: the tokens on it and in the bag count too
        placed = [0] * len(self.model.tokens)
        if board is not None:
            placed = [
                b + sum(1 for c in r.state["board"] if c == k) for k, b in enumerate(r.state["bag"])
            ]
        places = (
            "the supply, the seats, the board and the bag" if board else "the supply and the seats"
        )
        held = [
            s[f.key] for s in r.seats for f in self.schema.seat_fields if f.kind == "token counts"
        ]
        players = len(r.seats)
        for k, kind in enumerate(self.model.tokens):
            for p, counts in enumerate(held):
                if kind.cap is not None and counts[k] > kind.cap:
                    raise refuse(
                        f"seat {p} holds {counts[k]} {kind.name}; a player holds at most {kind.cap}"
                    )
            total = supply[k] + sum(counts[k] for counts in held) + placed[k]
            if total > COUNT.high:
                raise refuse(
                    f"{total} {kind.name} in {places}; a state counts at most {COUNT.high}"
                )
            game = kind.supply[players]
            if board is not None:
                game += board.bag.get(kind.name, {}).get(players, 0)
            if r.complete and total != game:
                raise refuse(f"{total} {kind.name} in {places}; a {players}-player game has {game}")

    # ---------------------------------------------------------- a board

    def board_cells(self, f: Field, at: At, r: Reading) -> tuple[int | None, ...]:
        """A board's cells: a token kind's index, or None for an empty cell."""
        board = self.model.board
        assert board is not None
        cells = a_list(at.value, at.what)
        if len(cells) != board.cells:
            raise refuse(f"{at.what} has {len(cells)} cells, not {board.cells}")
        for n, kind in enumerate(cells):
            if kind is not None and kind not in f.names:
                known = ", ".join(f.names)
                raise refuse(f"{at.what} cell {n}: {kind!r} is not a token kind ({known})")
        return tuple(None if k is None else f.names.index(k) for k in cells)

    def generator(self, f: Field, at: At, r: Reading) -> int:
        """A generator's state: a whole number from 0 to its most."""
        if type(at.value) is not int or not f.low <= at.value <= f.high:
            raise refuse(
                f"{at.what} must be a whole number from {f.low} to {f.high}, not {at.value!r}"
            )
        return at.value

    # ------------------------------------------------ the cards and tiles

    def places(self, f: Field, at: At, r: Reading) -> tuple[tuple[int | None, ...], ...]:
        """A field of places of cards or tiles (the decks, the market rows,
        the tiles in play, a seat's zones): an object of its places' entries,
        each a list (or a row of slots), read by one loop over the schema's
        places, every card and physical tile in one place."""
        named = an_object(at.value, f.names, at.what, f.noun)
        read: list[tuple[int | None, ...]] = []
        for place in f.places:
            for entry in place.entries:
                where = place.where.format(entry=entry.key, seat=at.seat)
                items = a_list(named[entry.key], where)
                if entry.slots >= 0 and len(items) != entry.slots:
                    raise refuse(f"{where} has {len(items)} slots, not {entry.slots}")
                read.append(r.places.entry(place, entry, items, where, at.seat))
        return tuple(read)

    def nowhere(self, r: Reading) -> None:
        """Complete, every card is in some place (or in the box, if any)."""
        if r.complete and not self.tables.boxes and (card := r.places.missing_card()) is not None:
            raise refuse(f"card {card} is nowhere: in no deck, market row or zone")

    def hidden(self, f: Field, at: At, r: Reading) -> tuple[int, ...]:
        """The cards seen by their owner only: in a seat's place seen so,
        each listed once; kept in ascending order."""
        hiding = {
            card
            for g in self.schema.seat_fields
            for seat in r.seats
            for place, items in zip(g.places, seat.get(g.key, ()), strict=False)
            if place.seen == "owner"
            for card in items
        }
        seen: list[int] = []
        for card in a_list(at.value, at.what):
            if type(card) is not int or card not in hiding:
                hides = "a zone that hides cards taken from a deck"
                raise refuse(f"{at.what}: {card!r} is not a card in {hides}")
            if card in seen:
                raise refuse(f"{at.what}: card {card} is listed twice")
            seen.append(card)
        return tuple(sorted(seen))

    # --------------------------------------------------- what cards hold

    def card_values(self, f: Field, at: At, r: Reading) -> tuple[tuple[Any, ...], ...]:
        """Each card value: cards named by their number (as text), each value
        of its kind; a card not named has the initial value."""
        named = an_object(at.value, f.names, at.what, "card value")
        cards = len(self.model.cards.rows)
        keys = {str(card) for card in range(cards)}  # as to_json writes them
        read = []
        declared = self.model.card_values
        for value, row in zip(declared, self.tables.initial_card_values(), strict=True):
            where = f"card value {value.name}"
            given = named[value.name]
            if not isinstance(given, dict):
                raise refuse(f"{where} must be an object, not {type(given).__name__}")
            values = list(row)
            for key, v in given.items():
                if not isinstance(key, str) or key not in keys:
                    raise refuse(f"{where}: {key!r} is not a card (0 to {cards - 1})")
                values[int(key)] = self.card_value(v, value.type, f"{where} of card {key}")
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

    # ------------------------------------------------- what is to be done

    def pending(self, f: Field, at: At, r: Reading) -> str | None:
        """The step whose decision is pending, or None (a list: the
        follow-up decisions waiting, read last, by `follow`)."""
        value = at.value
        if value is None or (isinstance(value, list) and self.tables.follow_ups):
            return None
        decisions = [s.name for s in self.model.steps if s.name in self.tables.signatures]
        if not isinstance(value, str) or value not in decisions:
            raise refuse(
                f"{at.what} must be null or a decision step ({', '.join(decisions)}), not {value!r}"
            )
        if self.over(r):
            raise refuse(f"{at.what}: a game that is over has no pending decision ({value})")
        return value

    def over(self, r: Reading) -> bool:
        """Whether the game is over (the flag `over`, read before)."""
        return bool(r.state["over"])

    def follow(self, f: Field, at: At, r: Reading) -> str | None:
        """The follow-up decisions waiting (docs/engine.md): a non-empty list
        of {"decision": move name, "names": {name: value}}."""
        value = at.value
        if not (isinstance(value, list) and self.tables.follow_ups):
            step: str | None = r.state[f.key]  # a step, or None: read by `pending`
            return step
        if not value:
            raise refuse(f"{at.what}: a list of follow-up decisions cannot be empty")
        queue = []
        for entry in value:
            an_object(entry, ("decision", "names"), "a pending follow-up decision")
            name = entry["decision"]
            if not isinstance(name, str) or name not in self.tables.follow_up:
                known = ", ".join(self.tables.follow_up)
                raise refuse(f"{at.what}: {name!r} is not a follow-up decision ({known})")
            index = self.tables.follow_up[name]
            site = self.tables.follow_ups[index]
            names = an_object(entry["names"], tuple(n for n, _ in site.bound), f"{name} names")
            values = tuple(
                self.bound_value(names[n], identities.value_kind(t), f"{name} {n}")
                for n, t in site.bound
            )
            queue.append((index, values))
        if self.over(r):
            raise refuse(f"{at.what}: a game that is over has no pending decision")
        r.follow = tuple(queue)
        return None

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
        if kind == "player":  # a seat: below the most players the edition allows
            high = self.tables.schema.field("players").high
            if type(value) is not int or not 0 <= value < high:
                raise refuse(f"{what}: {value!r} is not a player (0 to {high - 1})")
            return value
        cells = tables.model.board.cells if tables.model.board is not None else 0
        counts = {"card": len(tables.decks.card_tier), "tile": tables.tiles.count, "cell": cells}
        count = counts.get(kind)
        if count is None:
            return number(value, what)
        if type(value) is not int or not 0 <= value < count:
            raise refuse(f"{what}: {value!r} is not a {kind} (0 to {count - 1})")
        return value

    def did(self, f: Field, at: At, r: Reading) -> tuple[str, ...]:
        """The actions a seat did this round, each once, in declaration order."""
        done: list[str] = []
        for name in a_list(at.value, at.what):
            if not isinstance(name, str) or name not in f.names:
                raise refuse(f"{at.what}: {name!r} is not an action of {self.model.name}")
            if name in done:
                raise refuse(f"{at.what}: {name} is listed twice")
            done.append(name)
        return tuple(a for a in f.names if a in done)
