"""The limits of the language: every bound of the engines' data model, in one table.

The pure-Python engines could hold more (Python's integers have no width),
but the native engine keeps a state in fixed arrays of fixed-width integers;
an edition past one of its bounds would build and play wrong there, without
a word (a seat past the bits of a word, a card number past 16 bits, a number
past 64). So the bounds are the language's: the checker refuses an edition
past any of them, at the declaration that passes it (checks/limits.py), and
every engine refuses a state or a move past the counts' range alike
(docs/engine.md, "Limits"). The native target reads its C types' widths from
here, so a wider type is one line of this table and of its template.
"""

from __future__ import annotations

from attrs import frozen


@frozen
class Limit:
    """A bound: `what` may be at most `high` (at least `low`), because `why`."""

    what: str
    low: int
    high: int
    why: str


INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
INT32_MAX = 2**31 - 1
INT16_MAX = 2**15 - 1

PLAYERS = Limit("players", 1, 100, "the tokens in the supply are tabled per player count")
ACTIONS = Limit(
    "actions", 0, 63, "the actions a player did this round are the bits of one signed 64-bit word"
)
CARDS = Limit(
    "cards", 0, INT16_MAX, "a card's number is 16 bits in the state's zones, decks and markets"
)
TILES = Limit(
    "tile numbers",
    0,
    INT16_MAX,
    "a tile's number, a face's or a majority tile's, is 16 bits in the state",
)
NUMBER = Limit(
    "a whole number",
    INT64_MIN,
    INT64_MAX,
    "a number of the rules, written or computed, is 64 bits in the native engine",
)
COUNT = Limit(
    "a count",
    0,
    INT32_MAX,
    "a count of a state, of tokens or of turns, is 32 bits, and a per-colour cell is one",
)
CARD_VALUE = Limit(
    "a card value of numbers",
    -(2**31),
    INT32_MAX,
    "a card value of numbers may be set from itself, so it grows in play: its range bounds it",
)
STATE_BYTES = Limit(
    "the bytes of a state",
    0,
    2**20,
    "a state is one flat block, copied on every move and kept on the C stack in playouts",
)

TABLE: tuple[Limit, ...] = (PLAYERS, ACTIONS, CARDS, TILES, NUMBER, COUNT, CARD_VALUE, STATE_BYTES)
"""Every limit, in the order docs/engine.md lists them."""
