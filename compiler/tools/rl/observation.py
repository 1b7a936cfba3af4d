"""Observation tensors per seat, laid out from an edition's description (issue 23).

`observe` reads a seat's `view` and nothing else, so a tensor holds what the
seat may see; `observe_all` reads the state's full JSON form and adds the
order of the decks (perfect information). Seats are relative: the seat
observing is seat 0 of the tensor, the next to play after it seat 1, and so
on. Every value is a whole number, of the smallest type of int8, int16 and
int32 that holds every entry's bounds; a count no rule bounds (the turns,
the follow-ups waiting) is written in base-2**(bits - 1) digits of that
type, least first. docs/rl.md gives the layout.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from splendor_rules.compiler.frontend.limits import CARD_VALUE, COUNT
from splendor_rules.compiler.tools.rl.actions import ActionSpace, most_tokens, refusal

# The element types a tensor may have, smallest first: numpy's name, the
# `array` module's type code, bytes.
TYPES = (("int8", "b", 1), ("int16", "h", 2), ("int32", "i", 4))


@dataclass(frozen=True)
class Section:
    """A slice of the tensor: its name, where it starts, its shape, what it holds."""

    name: str
    start: int
    shape: tuple[int, ...]
    meaning: str
    low: int  # the least value an entry holds
    high: int  # the most (a count no rule bounds: the most of a digit)
    wide: bool = False  # a count no rule bounds, written in digits

    @property
    def size(self) -> int:
        size = 1
        for n in self.shape:
            size *= n
        return size


class Layout:
    """Where each part of a state goes in the tensor, for one edition and player count."""

    def __init__(self, description: Mapping[str, Any], players: int, *, full: bool = False):
        d = description
        refused = refusal(d)  # moves holding a value with no encoding
        if refused is not None:
            raise ValueError(refused)
        if not d["players"]["min"] <= players <= d["players"]["max"]:
            raise ValueError(f"{d['edition']} is played by {d['players']['min']} to "
                             f"{d['players']['max']} players, not {players}")
        self.players = players
        self.full = full
        self.tokens = tuple(t["name"] for t in d["tokens"])
        self.colours = tuple(d["colours"])
        self.decks: tuple[str, ...] = tuple(str(x["name"]) for x in d["decks"])
        self.cards: int = d["cards"]["count"]
        self.tiles: int = d["tiles"]["count"]
        self.actions = tuple(a["name"] for a in d["actions"])
        self.card_zones = tuple(z["name"] for z in d["zones"]
                                if z["owner"] == "player" and z["holds"] == "cards")
        self.tile_zones = tuple(z["name"] for z in d["zones"]
                                if z["owner"] == "player" and z["holds"] == "tiles")
        self.pending = (*(s["name"] for s in d["steps"] if s["decision"]),
                        *(f["name"] for f in d["follow_ups"]))
        self.follow_ups = len(d["follow_ups"])
        self.values = tuple((v["name"], v["type"], v["initial"]) for v in d["cards"]["values"])
        self.space = ActionSpace(d)
        self.most_tokens = most_tokens(d)  # a kind's supply, and its bag with a board
        board = d.get("board")
        self.cells = board["rows"] * board["columns"] if board else 0
        # the bag's counts, where a seat sees them (every seat: docs/engine.md)
        self.bag = bool(board) and any(z["name"] == "bag" and z["seen_by"] == "everyone"
                                       for z in d["zones"])
        # a card value of numbers: the language's range (no edition declares
        # one); a flag's, 0 or 1
        self.value_bounds = {v["name"]: (0, 1) if v["type"] == "bool"
                             else (CARD_VALUE.low, CARD_VALUE.high)
                             for v in d["cards"]["values"]}
        self.sections: list[Section] = []
        self.digits, self.bits = 1, 31
        self._lay_out()
        low = min(s.low for s in self.sections if not s.wide)
        high = max(s.high for s in self.sections if not s.wide)
        self.dtype, self.typecode, self.itemsize = next(
            t for t in TYPES if -(1 << (8 * t[2] - 1)) <= low and high < 1 << (8 * t[2] - 1))
        self.bits = 8 * self.itemsize - 1
        self.digits = -(-COUNT.high.bit_length() // self.bits)
        self.sections = []
        self._lay_out()
        self.size = sum(s.size for s in self.sections)
        self.at = {s.name: s for s in self.sections}

    def _add(self, name: str, shape: tuple[int, ...], meaning: str,
             bounds: tuple[int, int] = (0, 1)) -> None:
        start = sum(s.size for s in self.sections)
        self.sections.append(Section(name, start, shape, meaning, *bounds))

    def _add_wide(self, name: str, meaning: str) -> None:
        """A count no rule bounds but the counts' range: digits of the type."""
        start = sum(s.size for s in self.sections)
        if self.digits > 1:
            meaning += f", in {self.digits} base-2**{self.bits} digits, least first"
        self.sections.append(Section(name, start, (self.digits,), meaning,
                                     0, min(COUNT.high, (1 << self.bits) - 1), wide=True))

    def _lay_out(self) -> None:
        n, k = self.players, len(self.tokens)
        self._add("to_move", (n,), "1 for the seat to move (relative: 0 is the seat observing)")
        self._add_wide("turn", "turns completed")
        self._add("flags", (2,), "last round marked, game over")
        self._add("pending", (len(self.pending),),
                  f"1 for the decision pending, the first waiting: {', '.join(self.pending)}")
        if self.follow_ups:
            self._add_wide("waiting", "follow-up decisions waiting")
        else:
            self._add("waiting", (1,), "follow-up decisions waiting (none here)", (0, 0))
        tokens, cards = (0, self.most_tokens), (0, self.cards)
        self._add("supply", (k,), f"tokens in the supply: {', '.join(self.tokens)}", tokens)
        self._add("deck_sizes", (len(self.decks),), f"cards in deck {', '.join(self.decks)}",
                  cards)
        self._add("seat_tokens", (n, k), "tokens each seat holds, per token kind", tokens)
        self._add("did", (n, len(self.actions)),
                  f"1 per action done this round: {', '.join(self.actions)}")
        places = ("market", *(f"seat {s} {z}" for s in range(n) for z in self.card_zones),
                  "hidden")
        self._add("cards", (self.cards, len(places)),
                  "per card, 1 where it is: " + ", ".join(places)
                  + " (hidden: taken from a deck, seen by its owner only)")
        self._add("unseen_cards", (n, len(self.card_zones), len(self.decks)),
                  "cards of a seat's zone this seat cannot see, per zone and deck", cards)
        tile_places = ("in play", *(f"seat {s} {z}" for s in range(n) for z in self.tile_zones))
        self._add("tiles", (self.tiles, len(tile_places)),
                  "per tile number, 1 where it is: " + ", ".join(tile_places))
        if self.cells:
            self._add("board", (self.cells, k),
                      "per cell of the board (row * columns + column), 1 for the token kind "
                      "on it (none: empty)")
        if self.bag:
            self._add("bag", (k,), "tokens in the bag, per token kind", tokens)
        for name, kind, _ in self.values:
            if kind == "colour":
                self._add(f"value {name}", (self.cards, len(self.colours)),
                          f"per card, 1 for its {name} colour: {', '.join(self.colours)}")
            else:
                self._add(f"value {name}", (self.cards,), f"per card, its {name} ({kind})",
                          self.value_bounds[name])
        self._add("choosing", (self.space.size,),
                  "1 per atom of the move being chosen but counts (docs/rl.md, action space)")
        self._add("choosing_counts", (len(self.tokens),),
                  "the counts chosen so far of the count per token kind being chosen, "
                  "-1 if not yet", (-1, max(self.space.shared["count"].size - 1, 0)
                                    if "count" in self.space.shared else 0))
        if self.full:
            self._add("deck_order", (self.cards,),
                      "per card in a deck, 1 for its top card, 2 the next, ...; 0 elsewhere",
                      cards)

    def bounds(self) -> tuple[list[int], list[int]]:
        """Each entry's least and most value (an observation space's box)."""
        low, high = [], []
        for s in self.sections:
            low += [s.low] * s.size
            high += [s.high] * s.size
        return low, high

    def empty(self) -> list[int]:
        return [0] * self.size

    def describe(self) -> list[tuple[int, int, str, str, str]]:
        """Each section: start, end, name, shape, meaning."""
        return [(s.start, s.start + s.size, s.name, "x".join(map(str, s.shape)), s.meaning)
                for s in self.sections]


def _deck_index(layout: Layout, tier: Hashable) -> int:
    return layout.decks.index(str(tier))


def encode(layout: Layout, form: Mapping[str, Any], seat: int,
           choosing: Sequence[int] = ()) -> list[int]:
    """The tensor of a JSON form (a view, or the full form) seen from `seat`."""
    out = layout.empty()
    at = layout.at
    n = layout.players
    rel = [(s - seat) % n for s in range(n)]
    out[at["to_move"].start + rel[form["current_player"]]] = 1
    _wide(layout, "turn", form["turn"], out)
    out[at["flags"].start] = int(form["last_round"])
    out[at["flags"].start + 1] = int(form["over"])
    pending = form["pending"]
    if isinstance(pending, list):
        _wide(layout, "waiting", len(pending), out)
        pending = pending[0]["decision"] if pending else None
    if pending is not None:
        out[at["pending"].start + layout.pending.index(pending)] = 1
    for i, token in enumerate(layout.tokens):
        out[at["supply"].start + i] = form["supply"][token]
    for i, name in enumerate(layout.decks):
        deck = form["decks"][name]
        out[at["deck_sizes"].start + i] = deck if isinstance(deck, int) else len(deck)
    _seats(layout, form, rel, out)
    _cards(layout, form, rel, out)
    _tiles(layout, form, rel, out)
    if layout.cells:
        for cell, token in enumerate(form["board"]):
            if token is not None:
                out[at["board"].start + cell * len(layout.tokens) + layout.tokens.index(token)] = 1
    if layout.bag:
        for i, token in enumerate(layout.tokens):
            out[at["bag"].start + i] = form["bag"][token]
    _choosing(layout, choosing, out)
    if layout.full:
        for name in layout.decks:
            deck = form["decks"][name]
            for depth, card in enumerate(reversed(deck)):
                out[at["deck_order"].start + card] = depth + 1
    return out


def _wide(layout: Layout, name: str, value: int, out: list[int]) -> None:
    """A count no rule bounds, in the layout's digits, least first."""
    section = layout.at[name]
    if not section.wide:
        out[section.start] = value
        return
    for i in range(layout.digits):
        out[section.start + i] = value >> (i * layout.bits) & ((1 << layout.bits) - 1)


def _choosing(layout: Layout, choosing: Sequence[int], out: list[int]) -> None:
    """The atoms of the move being chosen; a count is kept by its token kind."""
    at = layout.at
    counts = layout.space.shared.get("count")
    k = len(layout.tokens)
    out[at["choosing_counts"].start:at["choosing_counts"].start + k] = [-1] * k
    run = 0
    for atom in choosing:
        if counts is not None and counts.start <= atom < counts.start + counts.size:
            out[at["choosing_counts"].start + run % k] = atom - counts.start
            run += 1
        else:
            out[at["choosing"].start + atom] = 1
            run = 0


def _seats(layout: Layout, form: Mapping[str, Any], rel: list[int], out: list[int]) -> None:
    at = layout.at
    k, a = len(layout.tokens), len(layout.actions)
    for s, seat_form in enumerate(form["seats"]):
        for token, count in seat_form["tokens"].items():
            out[at["seat_tokens"].start + rel[s] * k + layout.tokens.index(token)] = count
        for action in seat_form["did"]:
            out[at["did"].start + rel[s] * a + layout.actions.index(action)] = 1


def _cards(layout: Layout, form: Mapping[str, Any], rel: list[int], out: list[int]) -> None:
    at = layout.at
    zones, decks = len(layout.card_zones), len(layout.decks)
    places = 2 + layout.players * zones
    cards = at["cards"].start
    for row in form["market"].values():
        for card in row:
            if card is not None:
                out[cards + card * places] = 1
    for s, seat_form in enumerate(form["seats"]):
        for z, zone in enumerate(layout.card_zones):
            for card in seat_form["zones"][zone]:
                if isinstance(card, dict):
                    slot = (rel[s] * zones + z) * decks + _deck_index(layout, card["deck"])
                    out[at["unseen_cards"].start + slot] += 1
                else:
                    out[cards + card * places + 1 + rel[s] * zones + z] = 1
    for card in form["hidden"]:
        out[cards + card * places + places - 1] = 1
    values = form.get("card_values", {})
    for name, kind, initial in layout.values:
        start = at[f"value {name}"].start
        given = {int(c): v for c, v in values.get(name, {}).items()}
        for card in range(layout.cards):
            value = given.get(card, initial)
            if kind == "colour":
                if value is not None:
                    out[start + card * len(layout.colours) + layout.colours.index(value)] = 1
            else:
                out[start + card] = int(value)


def _tiles(layout: Layout, form: Mapping[str, Any], rel: list[int], out: list[int]) -> None:
    at = layout.at
    places = 1 + layout.players * len(layout.tile_zones)
    start = at["tiles"].start
    for tiles in form["tiles"].values():
        for tile in tiles:
            out[start + tile * places] = 1
    for s, seat_form in enumerate(form["seats"]):
        for z, zone in enumerate(layout.tile_zones):
            for tile in seat_form["zones"][zone]:
                out[start + tile * places + 1 + rel[s] * len(layout.tile_zones) + z] = 1
