"""The checked model: what an edition means, with every name resolved and
every expression typed.

This is the compiler's contract with the later stages (code generation, the
reference interpreter, diff and conformance): they read the model and never
look back at the syntax tree. Every part keeps the rule ids it states and its
span in the rule file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from attrs import field, frozen

from splendor_rules.dsl.syntax import Span

# A field added after editions were played: the fingerprint (fingerprint.py)
# leaves it out at its default, so an edition that does not use it keeps its own.
ADDED = {"fingerprint": "left out at its default"}

# --------------------------------------------------------------------- types


@frozen
class Type:
    """A value type. `element` is set for collections (set, list)."""

    kind: Literal[
        "int",
        "bool",
        "text",
        "colour",
        "token",
        "card",
        "tile",
        "player",
        "cell",
        "vector",
        "set",
        "list",
        "error",
    ]
    element: Type | None = None
    tiles: str | None = None  # for a tile: the tile set, or None for any tile

    def __str__(self) -> str:
        if self.kind in ("set", "list"):
            return f"{self.kind} of {self.element}"
        if self.kind == "vector":
            return "number per colour"
        if self.kind == "tile" and self.tiles:
            return f"tile of {self.tiles}"
        return {"int": "number", "bool": "condition"}.get(self.kind, self.kind)


INT = Type("int")
BOOL = Type("bool")
TEXT = Type("text")
COLOUR = Type("colour")
TOKEN = Type("token")
CARD = Type("card")
PLAYER = Type("player")  # a seat: 0 for the first in turn order, up to players - 1
CELL = Type("cell")  # a cell of the board: its number, row * columns + column
VECTOR = Type("vector")
ERROR = Type("error")  # a mistake already reported: accepted everywhere


def set_of(element: Type) -> Type:
    return Type("set", element)


def list_of(element: Type) -> Type:
    return Type("list", element)


def tile(tiles: str | None) -> Type:
    return Type("tile", tiles=tiles)


# --------------------------------------------------------------- expressions

RefKind = Literal[
    "variable",  # a name bound by let, choose, a filter, a quantifier, a trigger or a claim
    "colour",  # a payable colour
    "token",  # a token kind that is not a colour
    "colours",  # the set of payable colours
    "players",  # the number of players
    "zone",  # a zone of the player in context
    "market",  # the face-up cards
    "tiles",  # the tiles of a set still in play
    "define",  # a definition, read for the player in context
    "score",  # the score of the player in context
    "majority",  # a majority tile (only as an argument of holds)
    "action",  # an action (only as an argument of did)
    "board",  # the cells of the board that hold a token
    "bag",  # the tokens in the bag, as a list of token kinds in token order
]


@frozen(kw_only=True)
class Expr:
    type: Type
    span: Span = field(eq=False, repr=False)


@frozen(kw_only=True)
class Const(Expr):
    """A literal: a number, a condition, a text ("plain"), or `none` (None), the
    colour of a card with no colour."""

    value: int | bool | str | None


@frozen(kw_only=True)
class Ref(Expr):
    kind: RefKind
    name: str


@frozen(kw_only=True)
class DeckTops(Expr):
    pass


PlayerWord = Literal["you", "opponent", "next", "previous", "others"]


@frozen(kw_only=True)
class PlayerRef(Expr):
    """A player named from the one in context: "you" (that player),
    "opponent" (the other of two), "next" and "previous" (in turn order),
    or "others" (the set of all the others, in turn order from the next)."""

    which: PlayerWord


@frozen(kw_only=True)
class OfPlayer(Expr):
    """`value of player`: the value read with that player in context (their
    zones, tokens, definitions and score; `you` is that player)."""

    value: Expr
    player: Expr


@frozen(kw_only=True)
class Attr(Expr):
    """A card's or tile's attribute; over a collection, the list of them."""

    subject: Expr
    attribute: str
    # "column": a column of the data, fixed for the game; "value": a card
    # value (CardValue), held by the state and changed by `set`.
    source: Literal["column", "value"] = "column"


@frozen(kw_only=True)
class Index(Expr):
    subject: Expr
    index: Expr


@frozen(kw_only=True)
class Call(Expr):
    """A built-in function: supply, tokens, count, sum, distinct, min, max, holds, did."""

    function: str
    arguments: tuple[Expr, ...]


@frozen(kw_only=True)
class Apply(Expr):
    """A use of a definition with parameters, `name(arguments)`, read for
    the player in context with its parameters bound to the arguments."""

    name: str
    arguments: tuple[Expr, ...]


@frozen(kw_only=True)
class Unary(Expr):
    op: Literal["-", "not"]
    operand: Expr


@frozen(kw_only=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@frozen(kw_only=True)
class Logic(Expr):
    op: Literal["and", "or"]
    operands: tuple[Expr, ...]


@frozen(kw_only=True)
class Conditional(Expr):
    then: Expr
    condition: Expr
    otherwise: Expr


@frozen(kw_only=True)
class Filter(Expr):
    variable: str
    source: Expr
    condition: Expr


@frozen(kw_only=True)
class PerColour(Expr):
    variable: str
    body: Expr


@frozen(kw_only=True)
class Quantifier(Expr):
    """any/all over a set (variable bound) or over the players (no variable:
    the body is read for each player in turn)."""

    op: Literal["any", "all"]
    variable: str | None
    source: Expr | None
    body: Expr


@frozen(kw_only=True)
class Total(Expr):
    """`sum(x in source where condition: body)`: the number body added up
    over the elements of source that pass condition (all, without one)."""

    variable: str
    source: Expr
    condition: Expr | None
    body: Expr


# ---------------------------------------------------------------- statements


@frozen(kw_only=True)
class Statement:
    rule_ids: tuple[str, ...]  # its own ids, then those of what encloses it
    span: Span = field(eq=False, repr=False)


@frozen(kw_only=True)
class Let(Statement):
    name: str
    value: Expr


@frozen(kw_only=True)
class Choose(Statement):
    """A choice of one element among the union of the sources."""

    name: str
    sources: tuple[Expr, ...]


@frozen(kw_only=True)
class MayChoose(Choose):
    """A follow-up choice the player may decline (`may choose x from …`):
    declining skips the rest of its block, as having no option does."""


@frozen(kw_only=True)
class ChooseDistinct(Statement):
    name: str
    count: Expr
    source: Expr


@frozen(kw_only=True)
class Require(Statement):
    condition: Expr
    message: tuple[str | Expr, ...]  # text and the values to show in it


@frozen(kw_only=True)
class Gain(Statement):
    amount: Expr
    token: Expr


@frozen(kw_only=True)
class GainEach(Statement):
    amount: Expr
    tokens: Expr


@frozen(kw_only=True)
class WildCards:
    """Cards a payment may spend besides tokens: each pays up to `units` of
    the price in any colours, and a card spent goes to the box. The moves
    list the cards spent under the name `variable`."""

    variable: str
    cards: Filter  # the player's cards that may be spent
    units: int
    chosen: tuple[str, ...]  # the action's card choices before it: never spent
    chosen_sets: tuple[str, ...]  # its choices of distinct cards before it: never spent
    span: Span = field(eq=False, repr=False)


@frozen(kw_only=True)
class Pay(Statement):
    """Pay max(0, cost - discount) per colour with colour and wild tokens
    (and, with `wild_cards`, cards)."""

    cost: Expr
    discount: Expr
    wild_cards: WildCards | None = None
    # the tokens paid go into the bag, not the supply
    into_bag: bool = field(default=False, metadata=ADDED)


@frozen(kw_only=True)
class ChooseLine(Statement):
    """A choice of `low` to `high` cells of `source`, consecutive along a
    row, a column or a diagonal; bound as the set of them in line order."""

    name: str
    low: int
    high: int
    source: Expr


@frozen(kw_only=True)
class TakeCells(Statement):
    """The tokens of a chosen cell (or set of cells, `many`) into the
    player's supply; the cells are left empty."""

    cells: str
    many: bool


@frozen(kw_only=True)
class RefillBoard(Statement):
    """The bag drawn at random onto the empty cells, in fill order."""


@frozen(kw_only=True)
class Move(Statement):
    card: str  # the local naming the card, or the tile
    zone: str
    tile: bool = False  # a tile, moved from play or from a tile zone


@frozen(kw_only=True)
class ReturnToBox(Statement):
    """A card (or a set of cards, `many`) of the player leaves the game."""

    cards: str
    many: bool


@frozen(kw_only=True)
class AnotherTurn(Statement):
    """The player plays a whole new turn once this one has ended."""


@frozen(kw_only=True)
class If(Statement):
    condition: Expr
    body: tuple[Statement, ...]


@frozen(kw_only=True)
class SetValue(Statement):
    """`set k.name = value`: the card value `name` of the card bound to `card`."""

    card: str
    value_name: str
    value: Expr


@frozen(kw_only=True)
class Transfer(Statement):
    """Up to `amount` tokens of one kind move from `source` to `target`, each
    a player or None for the supply: as many as the source holds and, for a
    player with a cap on the kind, as many as the cap leaves room for (never
    fewer than none). A player is an expression of type player."""

    amount: Expr
    token: Expr
    source: Expr | None
    target: Expr | None


# ------------------------------------------------------------ the edition


@frozen(kw_only=True)
class Part:
    rule_ids: tuple[str, ...]
    span: Span = field(eq=False, repr=False)


@frozen(kw_only=True)
class TokenKind(Part):
    """A kind of token. Payable colours come first, in declaration order."""

    name: str
    title: str
    role: Literal["colour", "wild", "special"]
    returnable: bool
    cap: int | None  # at most this many per player
    supply: Mapping[int, int]  # player count -> tokens in the supply at setup
    returnable_ids: tuple[str, ...] = ()  # the rule that forbids returning it
    cap_ids: tuple[str, ...] = ()
    # `counts as N in payments where COND`: for a player meeting COND (read
    # for the player paying), a wild token pays up to N units of one colour.
    worth: int = field(default=1, metadata=ADDED)
    worth_condition: Expr | None = field(default=None, metadata=ADDED)
    worth_ids: tuple[str, ...] = field(default=(), metadata=ADDED)


ColumnType = Literal["int", "bool", "text", "colour", "vector"]


CellValue = int | bool | str | tuple[int, ...] | None


@frozen
class Column:
    name: str
    type: ColumnType
    values: tuple[str, ...] = ()  # a text column of a closed set: its values
    none: bool = False  # a colour column whose cells may be `none` (None)
    default: CellValue = None  # for the cards of a table that lacks the column
    has_default: bool = False


@frozen(kw_only=True)
class Table(Part):
    """Cards or tiles read from a CSV file: a row per card or tile face, with
    a value per declared column (a vector is a tuple in colour order)."""

    name: str
    file: str
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, CellValue], ...]
    sides_by: str | None = None  # double-sided: rows sharing this column are one tile
    # A tile set each player may claim once (`claimed once per player`): a
    # claim puts the tile into the player's zone and leaves it in play.
    shared: bool = field(default=False, metadata=ADDED)


@frozen(kw_only=True)
class Zone(Part):
    name: str
    content: Literal["cards", "tiles"]
    hidden_from_deck: bool = False  # a card taken from a deck is seen by its owner only
    # `zone shelf: posts tiles of each player`: the tiles of that set only
    tiles: str | None = field(default=None, metadata=ADDED)


CardValueType = Literal["colour", "int", "bool"]


@frozen(kw_only=True)
class CardValue(Part):
    """A value every card has, held by the game state (not the data): none
    (no colour), 0 or false until a `set` changes it."""

    name: str
    type: CardValueType


@frozen(kw_only=True)
class Board(Part):
    """A grid of cells, each holding at most one token, numbered row by row
    (row * columns + column); `order` is the fill order, every cell once.
    The bag, hidden and unordered, holds `bag` at setup (token kind ->
    player count -> amount), drawn onto the board then."""

    rows: int
    columns: int
    order: tuple[int, ...]
    bag: Mapping[str, Mapping[int, int]]
    bag_ids: tuple[str, ...] = ()

    @property
    def cells(self) -> int:
        return self.rows * self.columns


@frozen(kw_only=True)
class Market(Part):
    """A market: the cards of one card table in decks by a column, each deck
    showing `face_up` cards. The main market (name None) takes the unnamed
    table's cards; a named one, those of the table it names."""

    group_by: str
    deck_sizes: Mapping[int, int]
    face_up: int
    refill: bool
    refill_ids: tuple[str, ...] = ()
    name: str | None = None
    table: str | None = None  # a named market's card table


@frozen(kw_only=True)
class SeatGift(Part):
    """At setup, the player at `position` in the turn order (1: the first)
    gains `amount` tokens of `token` from the supply, as `gain` does; in a
    game of fewer players, nothing."""

    position: int
    token: str
    amount: int


@frozen(kw_only=True)
class Reveal(Part):
    tiles: str
    count: Expr
    random_face: bool


@frozen(kw_only=True)
class Action(Part):
    name: str
    title: str
    body: tuple[Statement, ...] | None  # None: legal only when no other action is
    # Taken before the main action, "once" or "any" number of times (the
    # optional actions in declaration order); None: a main action.
    before: Literal["once", "any"] | None = field(default=None, metadata=ADDED)


@frozen(kw_only=True)
class Trigger(Part):
    name: str
    card: str
    zone: str
    body: tuple[Statement, ...]


@frozen(kw_only=True)
class Majority(Part):
    name: str
    title: str
    points: int
    measure: Expr
    threshold: int
    event_zone: str
    ties_keep_holder: bool
    zone: str  # the tile zone the holder keeps it in


@frozen(kw_only=True)
class TokenLimit(Part):
    """Return tokens down to `limit`: of the kinds `counted` (None: every
    kind), which are the kinds counted and the kinds that may be returned."""

    name: str
    limit: int
    # in the edition's token order
    counted: tuple[str, ...] | None = field(default=None, metadata=ADDED)
    # the tokens returned go into the bag, not the supply
    into_bag: bool = field(default=False, metadata=ADDED)


@frozen(kw_only=True)
class Claim(Part):
    name: str
    tiles: str
    variable: str
    zone: str
    condition: Expr
    source: str | None = None  # claimed from this tile zone of the player's, not from play


@frozen(kw_only=True)
class EndCheck(Part):
    name: str


Step = TokenLimit | Claim | EndCheck


@frozen(kw_only=True)
class Define(Part):
    name: str
    value: Expr
    parameters: tuple[tuple[str, Type], ...] = ()  # bound, in order, by an Apply


@frozen(kw_only=True)
class Ending(Part):
    """`once`: the round is played out after the condition holds at a turn's
    end check; `at_round_end`: checked when a round ends; `at_turn_end`: the
    game ends at the turn's end check, right there."""

    name: str
    mode: Literal["once", "at_round_end", "at_turn_end"]
    condition: Expr


@frozen(kw_only=True)
class RankKey:
    order: Literal["highest", "lowest"]
    value: Expr


@frozen(kw_only=True)
class Winners(Part):
    among: Expr | None
    keys: tuple[RankKey, ...]


@frozen(kw_only=True)
class Policy(Part):
    """A declared engine behaviour with no parameters beyond its words
    (turn order, seeded randomness, hidden deck order, player decisions)."""

    name: str
    values: tuple[str, ...] = ()


@frozen
class RuleText:
    """A rule id as its reference rulebook states it: the file (as the rule
    file names it), the words in bold after the id (maybe none) and the text
    that follows, up to the next id or the end of its list item, as one line."""

    rule_id: str
    reference: str
    title: str
    text: str


@frozen(kw_only=True)
class Edition:
    name: str
    title: str
    file: str
    parent: str | None
    players: tuple[int, int]
    colours: tuple[str, ...]
    tokens: tuple[TokenKind, ...]
    cards: Table
    tile_sets: tuple[Table, ...]
    zones: tuple[Zone, ...]
    market: Market
    reveals: tuple[Reveal, ...]
    actions: tuple[Action, ...]
    triggers: tuple[Trigger, ...]
    majorities: tuple[Majority, ...]
    steps: tuple[Step, ...]
    defines: tuple[Define, ...]
    score: Define
    endings: tuple[Ending, ...]
    winners: Winners
    policies: tuple[Policy, ...]
    rule_ids: Mapping[str, Span]  # every rule id stated, with its place
    # The named card tables, each with its own columns and rows, numbered
    # after the unnamed table's cards in this order (`cards` holds them all,
    # with every table's columns, a missing one at its default).
    card_tables: tuple[Table, ...] = ()
    markets: tuple[Market, ...] = ()  # the named markets, after the main one
    # each reference rulebook (its file, as written) and the ids it defines
    # with the edition's prefixes for it: what the edition must state
    references: tuple[tuple[str, tuple[str, ...]], ...] = ()
    card_values: tuple[CardValue, ...] = ()
    # the text of each id of `references`, in each reference's order
    rule_texts: tuple[RuleText, ...] = ()
    # what players start with (`setup { … }`)
    seat_gifts: tuple[SeatGift, ...] = field(default=(), metadata=ADDED)
    board: Board | None = field(default=None, metadata=ADDED)  # a board of cells and its bag
