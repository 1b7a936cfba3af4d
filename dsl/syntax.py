"""The typed syntax tree of a rule file.

One small frozen class per construct of the grammar, each carrying the span of
source text it came from, so that every later stage can point back at the rule
file. The tree is what was written, nothing more: names are not resolved and
nothing is inherited here (that is the compiler's job).
"""

from __future__ import annotations

from typing import Literal

from attrs import field, frozen


@frozen
class Span:
    """A stretch of one source file: 1-based lines and columns, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@frozen(kw_only=True)
class Node:
    span: Span = field(eq=False, repr=False)


@frozen(kw_only=True)
class Name(Node):
    text: str


@frozen(kw_only=True)
class RuleId(Node):
    """A rule id in a tag list: stated there, or with `see` only cited (a
    requirement naming in its refusal a rule that another place states)."""

    text: str
    cited: bool = False


@frozen(kw_only=True)
class StringLit(Node):
    """A string as written, with its escapes decoded."""

    value: str


# --------------------------------------------------------------- expressions


@frozen(kw_only=True)
class Expr(Node):
    pass


@frozen(kw_only=True)
class IntLit(Expr):
    value: int


@frozen(kw_only=True)
class BoolLit(Expr):
    value: bool


@frozen(kw_only=True)
class TextLit(Expr):
    """A string in an expression: a value of a text column ("plain")."""

    text: StringLit


@frozen(kw_only=True)
class NameRef(Expr):
    name: str


@frozen(kw_only=True)
class Attribute(Expr):
    subject: Expr
    attribute: Name


@frozen(kw_only=True)
class Index(Expr):
    subject: Expr
    index: Expr


@frozen(kw_only=True)
class Call(Expr):
    function: Name
    arguments: tuple[Expr, ...]


@frozen(kw_only=True)
class Negate(Expr):
    operand: Expr


@frozen(kw_only=True)
class Not(Expr):
    operand: Expr


@frozen(kw_only=True)
class Binary(Expr):
    """Arithmetic or a comparison: op is one of + - * / % == != < <= > >=
    (`/` and `%` whole-number division rounded down and its remainder)."""

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
    """`x in source where condition`: the elements of source that pass."""

    variable: Name
    source: Expr
    condition: Expr


@frozen(kw_only=True)
class PerColour(Expr):
    """`per colour c: body`: a vector with one value per payable colour."""

    variable: Name
    body: Expr


@frozen(kw_only=True)
class OverPlayers(Expr):
    """`player: body`, an argument of any/all: body read for each player."""

    body: Expr


@frozen(kw_only=True)
class OverSet(Expr):
    """`x in source: body`, an argument of any/all; `x in source where
    condition: body` reads body for the elements that pass only. As the
    argument of sum, body is the number added up per element."""

    variable: Name
    source: Expr
    condition: Expr | None = None
    body: Expr


@frozen(kw_only=True)
class DeckTops(Expr):
    """`deck tops`: the top card of each non-empty deck, as a choice source."""


PlayerWord = Literal["you", "opponent", "next", "previous", "others"]


@frozen(kw_only=True)
class PlayerName(Expr):
    """A player named from the one in context: `you` (that player),
    `opponent` (the other of two), `next player`, `previous player` (in turn
    order), or `other players` (the set of all the others)."""

    which: PlayerWord


@frozen(kw_only=True)
class OfPlayer(Expr):
    """`value of player`: value read with that player in context."""

    value: Expr
    player: Expr


# ------------------------------------------------------------------ messages


@frozen(kw_only=True)
class BrokenPlaceholder(Node):
    """A `{...}` part of a message that is no expression. The parser keeps its
    complaint here rather than failing the file: the checker reports it where
    it checks the message, as it reports every other mistake inside a
    declaration it checks."""

    problem: str
    hint: str | None = None


@frozen(kw_only=True)
class Message(StringLit):
    """A requirement's message: its text, and the `{expression}` parts shown
    in it, each parsed where it is written in the file."""

    parts: tuple[str | Expr | BrokenPlaceholder, ...]


# ---------------------------------------------------------------- statements


@frozen(kw_only=True)
class Statement(Node):
    tags: tuple[RuleId, ...] = ()


@frozen(kw_only=True)
class Let(Statement):
    name: Name
    value: Expr


@frozen(kw_only=True)
class Choose(Statement):
    name: Name
    sources: tuple[Expr, ...]


@frozen(kw_only=True)
class MayChoose(Choose):
    """`may choose x from …`: a follow-up choice the player may decline."""


@frozen(kw_only=True)
class ChooseDistinct(Statement):
    name: Name
    count: Expr
    source: Expr


@frozen(kw_only=True)
class Require(Statement):
    condition: Expr
    message: Message


@frozen(kw_only=True)
class Gain(Statement):
    amount: Expr
    token: Name


@frozen(kw_only=True)
class GainEach(Statement):
    amount: Expr
    tokens: Expr


@frozen(kw_only=True)
class WildCards(Node):
    """`using x in SET where COND as N wild each`: cards a payment may spend."""

    variable: Name
    source: Expr
    condition: Expr
    units: int


@frozen(kw_only=True)
class Pay(Statement):
    cost: Expr
    discount: Expr
    wild_cards: WildCards | None = None
    into_bag: bool = False  # `into the bag`: the tokens paid go into the bag


@frozen(kw_only=True)
class Move(Statement):
    card: Name
    zone: Name


@frozen(kw_only=True)
class ReturnToBox(Statement):
    """`return x to the box`: a card, or a set of cards, leaves the game."""

    cards: Name


@frozen(kw_only=True)
class AnotherTurn(Statement):
    """`play another turn`: the player plays a whole new turn after this one."""


@frozen(kw_only=True)
class If(Statement):
    condition: Expr
    body: tuple[Statement, ...]


@frozen(kw_only=True)
class SetValue(Statement):
    """`set k.name = value`: a card value of the card k."""

    card: Name
    value_name: Name
    value: Expr


@frozen(kw_only=True)
class TheSupply(Node):
    """`the supply`, where a transfer takes tokens from or gives them to."""


@frozen(kw_only=True)
class Transfer(Statement):
    """`take N kind from HOLDER` (to the player in context) or `give N kind
    [from HOLDER] to HOLDER` (from the player in context unless `from` says):
    a holder is a player or the supply; None is the player in context."""

    verb: Literal["take", "give"]
    amount: Expr
    token: Name
    source: Expr | TheSupply | None = None
    target: Expr | TheSupply | None = None


@frozen(kw_only=True)
class ChooseLine(Statement):
    """`choose x: LOW to HIGH in a line from CELLS`: LOW to HIGH cells of
    the source, consecutive along a row, a column or a diagonal."""

    name: Name
    low: int
    high: int
    source: Expr


@frozen(kw_only=True)
class TakeCells(Statement):
    """`take the tokens of x`: the tokens of a chosen cell, or cells, into
    the player's supply."""

    cells: Name


@frozen(kw_only=True)
class RefillBoard(Statement):
    """`refill the board`: the bag drawn onto the empty cells in fill order."""


# -------------------------------------------------------------- declarations


@frozen(kw_only=True)
class Decl(Node):
    tags: tuple[RuleId, ...] = ()


@frozen(kw_only=True)
class Reference(Decl):
    path: StringLit
    prefixes: tuple[str, ...]


@frozen(kw_only=True)
class Players(Decl):
    low: int
    high: int


@frozen(kw_only=True)
class Colours(Decl):
    names: tuple[Name, ...]


TokenPropertyKind = Literal["wild", "special", "never_returned", "at_most", "counts_as"]


@frozen(kw_only=True)
class TokenProperty(Node):
    tags: tuple[RuleId, ...]
    kind: TokenPropertyKind
    amount: int | None = None
    # `counts as N in payments where COND`: the condition, read for the player paying
    condition: Expr | None = None


@frozen(kw_only=True)
class Token(Decl):
    name: Name
    title: StringLit | None
    properties: tuple[TokenProperty, ...]


@frozen(kw_only=True)
class IntMap(Node):
    """A table of whole numbers, {2: 4, 3: 5, 4: 7}: by player count in a
    supply, by tier in a market."""

    entries: tuple[tuple[int, int], ...]


@frozen(kw_only=True)
class SupplyLine(Node):
    target: Name | None  # None: each payable colour
    amount: int | IntMap


@frozen(kw_only=True)
class Supply(Decl):
    lines: tuple[SupplyLine, ...]


@frozen(kw_only=True)
class SeatGift(Node):
    """`player 2 in turn order gains 1 NAME`: a line of `setup { … }`."""

    position: int  # in the turn order, from 1 (the first player)
    amount: int
    token: Name


@frozen(kw_only=True)
class SeatSetup(Decl):
    """`setup { … }`: what players start with, by their place in the turn order."""

    lines: tuple[SeatGift, ...]


ColumnKind = Literal[
    "int", "int_range", "bool", "text", "colour", "colour_or_none", "one_of", "per_colour"
]


@frozen(kw_only=True)
class ColumnType(Node):
    kind: ColumnKind
    low: int | None = None
    high: int | None = None
    # colour: data value -> colour name; per colour: colour name -> CSV column
    mapping: tuple[tuple[Name, Name | StringLit], ...] = ()
    values: tuple[StringLit, ...] = ()  # one of: the values a cell may hold


@frozen(kw_only=True)
class Column(Node):
    name: Name
    type: ColumnType
    source: StringLit | None
    default: Expr | None = None  # the value of a card of a table that lacks the column


@frozen(kw_only=True)
class RowCount(Node):
    """`with N rows`: how many rows a data file must have."""

    count: int


@frozen(kw_only=True)
class Cards(Decl):
    name: Name | None  # None: the unnamed table (the main market's cards)
    path: StringLit
    row_count: RowCount | None
    columns: tuple[Column, ...]

    @property
    def rows(self) -> int | None:
        return self.row_count.count if self.row_count is not None else None


@frozen(kw_only=True)
class Tiles(Decl):
    name: Name
    path: StringLit
    row_count: RowCount | None
    sides_by: Name | None
    columns: tuple[Column, ...]
    shared: bool = False  # `claimed once per player`: a claim leaves the tile in play

    @property
    def rows(self) -> int | None:
        return self.row_count.count if self.row_count is not None else None


@frozen(kw_only=True)
class Zone(Decl):
    name: Name
    content: Literal["cards", "tiles"]
    # `zone shelf: posts tiles of each player`: the tiles of that set only,
    # read by its own columns
    typed_by: Name | None = None


CardValueKind = Literal["colour", "int", "bool"]


@frozen(kw_only=True)
class CardValue(Decl):
    """`card value NAME: TYPE`: a value every card has, held by the state."""

    name: Name
    kind: CardValueKind


@frozen(kw_only=True)
class Cell(Node):
    """`(row, column)`: a cell of the board, (0, 0) at the top left."""

    row: int
    column: int


@frozen(kw_only=True)
class Board(Decl):
    """`board R by C, filled in order (r, c), ...`: a grid of cells, each
    holding at most one token, filled from the bag in the order listed."""

    rows: int
    columns: int
    order: tuple[Cell, ...]


@frozen(kw_only=True)
class Bag(Decl):
    """`bag { KIND: amount ... }`: the tokens in the bag at setup."""

    lines: tuple[SupplyLine, ...]


@frozen(kw_only=True)
class Market(Decl):
    name: Name | None  # None: the main market, of the unnamed card table
    table: Name | None  # a named market's card table
    group_by: Name
    deck_sizes: IntMap
    face_up: int


@frozen(kw_only=True)
class Refill(Decl):
    pass


@frozen(kw_only=True)
class Reveal(Decl):
    tiles: Name
    count: Expr
    random_face: bool


@frozen(kw_only=True)
class TurnOrder(Decl):
    pass


@frozen(kw_only=True)
class Randomness(Decl):
    pass


@frozen(kw_only=True)
class HiddenPart(Node):
    kind: Literal["deck_order", "from_deck"]
    zone: Name | None = None


@frozen(kw_only=True)
class Hidden(Decl):
    parts: tuple[HiddenPart, ...]


@frozen(kw_only=True)
class Action(Decl):
    name: Name
    title: StringLit | None
    body: tuple[Statement, ...] | None  # None: legal only when nothing else is
    # Taken before the main action: "once" or "any" number of times; None: a main action.
    before: Literal["once", "any"] | None = None


@frozen(kw_only=True)
class Trigger(Decl):
    name: Name
    card: Name
    zone: Name
    body: tuple[Statement, ...]


@frozen(kw_only=True)
class Majority(Decl):
    """Its lines may come in any order, and any may be missing (the checker
    says which is)."""

    name: Name
    title: StringLit | None
    points: int | None = None
    measure: Expr | None = None
    threshold: int | None = None
    event_zone: Name | None = None
    zone: Name | None = None  # the tile zone its holder keeps it in
    ties_keep_holder: bool = False


@frozen(kw_only=True)
class StepLimit(Node):
    """`return tokens above N`, counting every kind, or with `, counting
    KIND, …` only those (`, not counting KIND, …`: all but those); `into
    the bag` after N: the tokens returned go into the bag."""

    limit: int
    kinds: tuple[Name, ...] = ()
    not_counting: bool = False
    into_bag: bool = False  # the tokens returned go into the bag


@frozen(kw_only=True)
class StepClaim(Node):
    tiles: Name
    variable: Name
    zone: Name
    condition: Expr
    source: Name | None = None  # a tile zone of the player's; None: the tiles in play


@frozen(kw_only=True)
class StepEndCheck(Node):
    pass


@frozen(kw_only=True)
class StepPlace(Node):
    """`before OTHER` or `after OTHER`: where a step goes among the others."""

    side: Literal["before", "after"]
    other: Name


@frozen(kw_only=True)
class Step(Decl):
    """A step runs last, or where `place` puts it; an override keeps its place
    unless it gives one."""

    name: Name
    place: StepPlace | None = None
    body: StepLimit | StepClaim | StepEndCheck


@frozen(kw_only=True)
class Decisions(Decl):
    names: tuple[Name, ...]


ParameterKind = Literal["card", "tile", "colour", "int", "bool", "player"]


@frozen(kw_only=True)
class Parameter(Node):
    name: Name
    kind: ParameterKind
    # `t: posts`: a tile of that set (kind "tile"), read by its own columns
    typed_by: Name | None = None


@frozen(kw_only=True)
class Define(Decl):
    name: Name
    value: Expr
    parameters: tuple[Parameter, ...] = ()


@frozen(kw_only=True)
class Score(Decl):
    value: Expr


@frozen(kw_only=True)
class Ending(Decl):
    """The game ends after the round: `once` the condition holds at the end of
    any turn of it (latched), or if it holds when the round ends; or, at the
    end of the turn, right there (`at_turn_end`, no round played out)."""

    name: Name
    mode: Literal["once", "at_round_end", "at_turn_end"]
    condition: Expr


@frozen(kw_only=True)
class RankKey(Node):
    order: Literal["highest", "lowest"]
    value: Expr


@frozen(kw_only=True)
class Winners(Decl):
    among: Expr | None
    keys: tuple[RankKey, ...]


# --------------------------------------------------------------------- items


@frozen(kw_only=True)
class Override(Node):
    decl: Decl


@frozen(kw_only=True)
class Remove(Node):
    kind: Name
    name: Name | None = None
    file: StringLit | None = None  # a reference is named by its file


@frozen(kw_only=True)
class Renaming(Node):
    old: Name
    new: Name
    title: StringLit | None


@frozen(kw_only=True)
class Rename(Node):
    kind: str
    renamings: tuple[Renaming, ...]


Item = Decl | Override | Remove | Rename


@frozen(kw_only=True)
class Edition(Node):
    name: Name
    title: StringLit
    parent: Name | None
    items: tuple[Item, ...]
