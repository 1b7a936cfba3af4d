"""The state's schema: every field of a state, derived once from the checked model.

The state's shape was written three times (the Python engine's template, the
native engine's export and import, the interpreter's JSON reader and writer),
so a new field of state meant three edits that had to agree. This module says
it once: each field of the JSON form (its key, its kind, its bounds from
`limits.py`, the names of its entries, who sees it) and each part an engine
stores (the Python engine's State attribute and the native engine's export
name, its type, the field it is written to). Every engine iterates it
(docs/engine.md, "JSON form of a state"); the description's zones say who
sees what from the same fields.
"""

from __future__ import annotations

from typing import Literal

from attrs import evolve, frozen

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.limits import CARD_VALUE, COUNT

GENERATOR_HIGH = 2**64 - 1  # a splitmix64 state

Kind = Literal[
    "edition",  # the edition's name, a constant
    "players",  # the player count
    "seat",  # a seat, 0 to players - 1
    "count",  # a whole number a state counts
    "flag",  # true or false
    "pending",  # null, a decision step, or the follow-up decisions waiting
    "token counts",  # an object: token kind -> count
    "deck cards",  # an object: deck -> its cards, bottom to top
    "market rows",  # an object: deck -> its market row (a card or null each slot)
    "tile sets",  # an object: tile set -> its tiles in play
    "hidden cards",  # the cards seen by their owner only
    "card values",  # an object: card value -> {card: value} where not initial
    "seats",  # one object a seat, of the seat fields
    "zones",  # an object: zone -> its cards or tiles
    "actions done",  # the actions a seat did this round
    "board cells",  # a list: per cell, the token kind it holds, or null
    "generator",  # a generator's state, 0 to 2**64 - 1
]

Seen = Literal["everyone", "owner", "sizes", "nobody"]
"""Who sees a field or a place in a view: everyone; the owner only of the
cards taken from a deck into it (the others see the deck each came from);
its sizes only; or nobody (a view shows null)."""

Holds = Literal["tokens", "cards", "tiles"]


@frozen
class Entry:
    """A list of cards or tiles in a place: a deck's, a market row, a tile
    set's in play, a seat's zone."""

    key: str  # its key in the place's JSON object
    # The deck (of cards) or the tile set (of tiles) it holds only, by index;
    # -1: any card or tile.
    of: int = -1
    # Its slots, each a card or null (empty), or -1: a list of any length.
    slots: int = -1


@frozen
class Place:
    """A place things are in (the description's zones): a field of the
    state, shared, or an entry of a seat's zones, which each seat has.

    A place of cards or tiles lists its entries, and every reader of a
    state (the interpreter, the Python engine, the native engine's import)
    checks that each card and each physical tile is in one place by one
    loop over the places: a new kind of place is a new entry here."""

    name: str
    holds: Holds
    seen: Seen = "everyone"
    entries: tuple[Entry, ...] = ()  # its lists, for a place of cards or tiles
    where: str = ""  # an entry's name in a refusal, of {entry} (and {seat})
    # The native engine's name of an entry, in a refusal of an imported
    # state: followed by the entry's index (a shared place) or the seat's.
    export: str = ""
    per_seat: bool = False  # each seat has it (a zone)
    # Does each seat count the tiles claimed once per player on its own? (A
    # tile of such a set is in play and in each seat's zones once.)
    claims: bool = False

    @property
    def cards(self) -> bool:
        return self.holds == "cards"


@frozen
class Field:
    """A field of the JSON form of a state (or of a seat)."""

    key: str
    kind: Kind
    low: int  # the least number it holds (a count's, a card's, a seat's)
    high: int  # the most
    names: tuple[str, ...] = ()  # an object's keys, in order
    seen: Seen = "everyone"
    # Only the entries that are not 0 are written; one left out reads as 0.
    sparse: bool = False
    # The places it is: itself (a shared place) or, for a seat's zones, each
    # entry; none for a field that holds no cards, tiles or tokens.
    places: tuple[Place, ...] = ()
    # For a field of places of cards or tiles (an object of their entries,
    # its `names`), what an entry is in a refusal: "unknown deck '9' in decks".
    noun: str = ""

    @property
    def of_items(self) -> bool:
        """Is it an object of places of cards or tiles, read by the places' loop?"""
        return bool(self.noun)


@frozen
class Part:
    """A part an engine stores: the Python engine's State attribute, and
    the name of the native engine's exported part."""

    name: str
    field: str  # the JSON key it is written to
    annotation: str  # its type in the Python engine
    note: str = ""  # a comment on its annotation
    # Does the edition have it? A Python engine holds only the parts its
    # edition has; the native engine exports every part (empty if absent).
    present: bool = True


@frozen
class Schema:
    """The state's fields (JSON order), the seat's, and the stored parts."""

    fields: tuple[Field, ...]
    seat_fields: tuple[Field, ...]
    parts: tuple[Part, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields)

    @property
    def seat_keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.seat_fields)

    def field(self, key: str) -> Field:
        """The field of a key, of the state or of a seat; KeyError if none."""
        for f in (*self.fields, *self.seat_fields):
            if f.key == key:
                return f
        raise KeyError(key)

    def has(self, key: str) -> bool:
        return key in self.keys

    @property
    def part_names(self) -> tuple[str, ...]:
        """Every part, as the native engine exports it."""
        return tuple(p.name for p in self.parts)

    @property
    def seat_places(self) -> tuple[Place, ...]:
        """The places each seat has (its zones)."""
        return tuple(p for f in self.seat_fields for p in f.places)

    @property
    def shared_places(self) -> tuple[Place, ...]:
        """The places of the state, shared, in the order of the JSON form."""
        return tuple(p for f in self.fields for p in f.places)

    @property
    def item_fields(self) -> tuple[Field, ...]:
        """The fields of places of cards or tiles, the state's then the
        seat's, in the order every reader checks them (the JSON form's)."""
        return tuple(f for f in (*self.fields, *self.seat_fields) if f.of_items)

    @property
    def held(self) -> tuple[Part, ...]:
        """The parts the edition has: a Python engine's State attributes."""
        return tuple(p for p in self.parts if p.present)


def schema(edition: m.Edition) -> Schema:
    """The schema of a checked edition's state."""
    decks = identities.decks(edition)
    tiles = identities.tile_numbering(edition)
    low, high = edition.players
    cards = len(edition.cards.rows) - 1
    deck_names = tuple(str(d) for d in decks.tiers)
    token_names = tuple(t.name for t in edition.tokens)
    tile_set_names = tuple(t.name for t in edition.tile_sets)
    fields = [
        Field("edition", "edition", 0, 0, (edition.name,)),
        Field("players", "players", low, high),
        Field("first_player", "seat", 0, high - 1),
        Field("current_player", "seat", 0, high - 1),
        Field("turn", "count", 0, COUNT.high),
        Field("over", "flag", 0, 1),
        Field("last_round", "flag", 0, 1),
        Field("pending", "pending", -1, len(edition.steps) - 1),
        _place(Field("supply", "token counts", 0, COUNT.high, token_names), "tokens"),
        _place(
            Field("decks", "deck cards", 0, cards, deck_names, "sizes"),
            "cards",
            tuple(Entry(name, d) for d, name in enumerate(deck_names)),
            ("deck", "deck tier {entry}", "a card of deck"),
        ),
        _place(
            Field("market", "market rows", 0, cards, deck_names),
            "cards",
            tuple(Entry(n, d, decks.face_up[d]) for d, n in enumerate(deck_names)),
            ("deck", "market tier {entry}", "a market slot of deck"),
        ),
        _place(
            Field("tiles", "tile sets", 0, tiles.count - 1, tile_set_names),
            "tiles",
            tuple(Entry(name, t) for t, name in enumerate(tile_set_names)),
            ("tile set", "tile set {entry}", "tile set"),
        ),
        Field("hidden", "hidden cards", 0, cards, (), "owner"),
    ]
    if edition.card_values:
        fields.append(
            Field(
                "card_values",
                "card values",
                CARD_VALUE.low,
                CARD_VALUE.high,
                tuple(v.name for v in edition.card_values),
            )
        )
    if edition.board is not None:
        fields.extend(_board_fields(edition))
    fields += _turn_fields(edition)
    fields.append(Field("seats", "seats", low, high))
    return Schema(tuple(fields), _seat_fields(edition, cards), _parts(edition))


def _turn_fields(edition: m.Edition) -> list[Field]:
    """The state of a turn of several actions, for an edition that has
    them: `stage`, the first of the actions before the main one that is
    still open this turn (each in declaration order; one taken once closes
    itself); `again`, an extra turn granted to the player to move."""
    optional = sum(1 for a in edition.actions if a.before is not None)
    fields = [Field("stage", "count", 0, optional)] if optional else []
    if identities.extra_turns(edition):
        fields.append(Field("again", "flag", 0, 1))
    return fields


def _turn_parts(edition: m.Edition) -> list[Part]:
    """The parts of `_turn_fields`, only for an edition that has them (the
    other editions' engines, and the native export's parts, are as they were)."""
    keys = [f.key for f in _turn_fields(edition)]
    notes = {
        "stage": ("int", "the first action before the main one still open this turn"),
        "again": ("bool", "an extra turn granted to the player to move"),
    }
    return [Part(key, key, *notes[key]) for key in keys]


def _place(
    field: Field,
    holds: Holds,
    entries: tuple[Entry, ...] = (),
    names: tuple[str, str, str] = ("", "", ""),
) -> Field:
    """A field that is one shared place, seen as the field is: of cards or
    tiles, its entries and how a refusal names them (noun, where, export)."""
    noun, where, export = names
    place = Place(field.key, holds, field.seen, entries, where, export)
    return evolve(field, places=(place,), noun=noun)


def _board_fields(edition: m.Edition) -> tuple[Field, ...]:
    """A board's cells (a token kind each, or null), the bag's counts
    (public: the bag has no order to hide) and the generator its draws
    come from (seen by nobody, or a player could foresee them)."""
    kinds = tuple(t.name for t in edition.tokens)
    return (
        _place(Field("board", "board cells", 0, len(kinds) - 1, kinds), "tokens"),
        _place(Field("bag", "token counts", 0, COUNT.high, kinds), "tokens"),
        Field("draws", "generator", 0, GENERATOR_HIGH, (), "nobody"),
    )


def _seat_fields(edition: m.Edition, cards: int) -> tuple[Field, ...]:
    caps = [t.cap for t in edition.tokens]
    most = COUNT.high if any(c is None for c in caps) else max((c or 0 for c in caps), default=0)
    sets = [t.name for t in edition.tile_sets]
    claims = bool(identities.shared_tiles(edition))
    zones = tuple(
        Place(
            z.name,
            z.content,
            "owner" if z.hidden_from_deck else "everyone",
            (Entry(z.name, -1 if z.tiles is None else sets.index(z.tiles)),),
            "seat {seat} zone {entry}",
            "a zone of seat",
            per_seat=True,
            claims=claims and z.content == "tiles",
        )
        for z in edition.zones
    )
    return (
        Field(
            "tokens", "token counts", 0, most, tuple(t.name for t in edition.tokens), sparse=True
        ),
        Field(
            "zones",
            "zones",
            0,
            max(cards, identities.tile_numbering(edition).count - 1),
            tuple(z.name for z in zones),
            "owner" if any(z.seen == "owner" for z in zones) else "everyone",
            places=zones,
            noun="zone",
        ),
        Field(
            "did",
            "actions done",
            0,
            len(edition.actions) - 1,
            tuple(a.name for a in edition.actions),
        ),
    )


def _parts(edition: m.Edition) -> tuple[Part, ...]:
    """What an engine stores, in the order of the native export: the parts
    every state has, then the card values and the follow-ups waiting (present
    when the edition has them)."""
    parts = [
        Part("players", "players", "int"),
        Part("first", "first_player", "int"),
        Part("current", "current_player", "int"),
        Part("turn", "turn", "int"),
        Part("over", "over", "bool"),
        Part("last", "last_round", "bool"),
        Part("pending", "pending", "int", "the index of the step awaiting a decision, or -1"),
        Part("supply", "supply", "tuple[int, ...]"),
        Part("held", "tokens", "tuple[tuple[int, ...], ...]"),
        Part("zones", "zones", "tuple[tuple[tuple[int, ...], ...], ...]"),
        Part("decks", "decks", "tuple[tuple[int, ...], ...]"),
        Part("market", "market", "tuple[tuple[int, ...], ...]", "-1: an empty slot"),
        Part("tiles", "tiles", "tuple[tuple[int, ...], ...]"),
        Part("hidden", "hidden", "frozenset[int]"),
        Part("did", "did", "tuple[int, ...]"),
    ]
    parts.append(
        Part(
            "values",
            "card_values",
            "tuple[tuple[Any, ...], ...]",
            "per card value, its value for each card",
            present=bool(edition.card_values),
        )
    )
    if edition.board is not None:
        # Only an edition with a board stores them, so the other editions'
        # engines (and the native export's parts) are as they were.
        parts.append(Part("board", "board", "tuple[int, ...]", "per cell, a token kind or -1"))
        parts.append(Part("bag", "bag", "tuple[int, ...]"))
        parts.append(Part("draws", "draws", "int", "the bag's generator, splitmix64"))
    parts += _turn_parts(edition)
    parts.append(
        Part(
            "follow",
            "pending",
            "tuple[tuple[int, tuple[Any, ...]], ...]",
            "the follow-ups waiting, first the pending one: index and values",
            present=bool(identities.follow_ups(edition)),
        )
    )
    return tuple(parts)
