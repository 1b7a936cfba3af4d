"""The syntax tree written back as rule text, in the language's own syntax.

`unparse_expression`, `unparse_statements` and `unparse_declaration` (and
`unparse_edition`, for a whole file) print any node so that parsing the text
gives the same tree again (spans aside): parse(unparse(x)) == x. Each
expression is printed with exactly the parentheses its place needs, from
the precedence of its kind and of the place (the levels of dsl/grammar.lark's
expression rules), never around a node that does not need them; so `diff`
prints what a rule says, and a formatter can lay a file out without
changing its meaning. Statements and declarations come out one per line,
blocks indented by two spaces. Comments are not in the tree, so not here:
each printed `Line` names the source lines it was printed from, and the
formatter (dsl/formatting.py) puts the comments back beside them.

A `rename` function, if given, is applied to every name that refers to a
declaration (a name read, a function called, a zone, a token): `diff`
prints an edition's text in another's names with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import attrs
from attrs import frozen

from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import Visitor

# The places an expression can stand, loosest first (dsl/grammar.lark): a
# value (a filter or `per colour` may stand there: a choice's source, a
# let, a definition, an argument), an expression, then each operator's
# operands. A node whose own level is below its place's is parenthesised.
VALUE, CONDITIONAL, OR, AND, NOT, COMPARISON, SUM, PRODUCT, UNARY, ATOM = range(10)
INDENT = "  "

_BINARY_LEVELS = {
    **dict.fromkeys(("==", "!=", "<", "<=", ">", ">="), COMPARISON),
    "+": SUM,
    "-": SUM,
    "*": PRODUCT,
    "/": PRODUCT,
    "%": PRODUCT,
}
_LEVELS: dict[type, int] = {
    s.Filter: VALUE,
    s.PerColour: VALUE,
    s.OverPlayers: VALUE,
    s.OverSet: VALUE,
    s.DeckTops: VALUE,
    s.Conditional: CONDITIONAL,
    s.Not: NOT,
    s.Negate: UNARY,
}

Rename = Callable[[str], str]


def _same(name: str) -> str:
    return name


def quote(text: str) -> str:
    """A string as the language writes it: double quotes, with the escapes
    Python reads back (the parser decodes strings as Python literals)."""
    return json.dumps(text, ensure_ascii=False)


def level(node: s.Expr) -> int:
    """How loosely a node binds: the lowest place it may stand without
    parentheses."""
    if isinstance(node, s.Binary):
        return _BINARY_LEVELS[node.op]
    if isinstance(node, s.Logic):
        return OR if node.op == "or" else AND
    if isinstance(node, s.IntLit) and node.value < 0:
        return UNARY
    return _LEVELS.get(type(node), ATOM)


class ExpressionPrinter(Visitor):
    """An expression's text; `at(node, place)` adds the parentheses the
    place needs."""

    def __init__(self, rename: Rename = _same) -> None:
        self.rename = rename

    def at(self, node: s.Expr, place: int) -> str:
        text: str = self.visit(node)
        return f"({text})" if level(node) < place else text

    def generic_visit(self, node: object, *args: object) -> str:
        raise TypeError(f"no rule text for {type(node).__name__}")

    def visit_IntLit(self, node: s.IntLit) -> str:
        return str(node.value)

    def visit_BoolLit(self, node: s.BoolLit) -> str:
        return "true" if node.value else "false"

    def visit_TextLit(self, node: s.TextLit) -> str:
        return quote(node.text.value)

    def visit_NameRef(self, node: s.NameRef) -> str:
        return self.rename(node.name)

    def visit_Attribute(self, node: s.Attribute) -> str:
        return f"{self.at(node.subject, ATOM)}.{node.attribute.text}"

    def visit_Index(self, node: s.Index) -> str:
        return f"{self.at(node.subject, ATOM)}[{self.at(node.index, CONDITIONAL)}]"

    def visit_Call(self, node: s.Call) -> str:
        arguments = ", ".join(self.at(a, VALUE) for a in node.arguments)
        return f"{self.rename(node.function.text)}({arguments})"

    def visit_Negate(self, node: s.Negate) -> str:
        return "-" + self.at(node.operand, UNARY)

    def visit_Not(self, node: s.Not) -> str:
        return "not " + self.at(node.operand, NOT)

    def visit_Binary(self, node: s.Binary) -> str:
        own = _BINARY_LEVELS[node.op]
        if own == COMPARISON:  # no chains: `a < b < c` is no comparison
            left, right = self.at(node.left, SUM), self.at(node.right, SUM)
        else:  # chains associate to the left
            left, right = self.at(node.left, own), self.at(node.right, own + 1)
        return f"{left} {node.op} {right}"

    def visit_Logic(self, node: s.Logic) -> str:
        # `a or b or c` is one flat node: an operand of the same kind is a
        # parenthesised group.
        place = AND if node.op == "or" else NOT
        return f" {node.op} ".join(self.at(operand, place) for operand in node.operands)

    def visit_Conditional(self, node: s.Conditional) -> str:
        then, condition = self.at(node.then, OR), self.at(node.condition, OR)
        return f"{then} if {condition} else {self.at(node.otherwise, CONDITIONAL)}"

    def visit_Filter(self, node: s.Filter) -> str:
        source, condition = self.at(node.source, CONDITIONAL), self.at(node.condition, CONDITIONAL)
        return f"{node.variable.text} in {source} where {condition}"

    def visit_PerColour(self, node: s.PerColour) -> str:
        return f"per colour {node.variable.text}: {self.at(node.body, CONDITIONAL)}"

    def visit_OverPlayers(self, node: s.OverPlayers) -> str:
        return f"player: {self.at(node.body, CONDITIONAL)}"

    def visit_OverSet(self, node: s.OverSet) -> str:
        text = f"{node.variable.text} in {self.at(node.source, CONDITIONAL)}"
        if node.condition is not None:
            text += f" where {self.at(node.condition, CONDITIONAL)}"
        return f"{text}: {self.at(node.body, CONDITIONAL)}"

    def visit_DeckTops(self, node: s.DeckTops) -> str:
        return "deck tops"

    def visit_PlayerName(self, node: s.PlayerName) -> str:
        return _PLAYER_TEXT[node.which]

    def visit_OfPlayer(self, node: s.OfPlayer) -> str:
        """`value of player`: the player is an atom or a call (the grammar's
        of_operand), anything else in parentheses; `a of b of c` is `(a of b) of c`."""
        player = self.visit(node.player)
        if not isinstance(node.player, s.NameRef | s.PlayerName | s.Call):
            player = f"({player})"
        return f"{self.at(node.value, ATOM)} of {player}"


_PLAYER_TEXT: dict[str, str] = {
    "you": "you",
    "opponent": "opponent",
    "next": "next player",
    "previous": "previous player",
    "others": "other players",
}


def tags(ids: Sequence[s.RuleId]) -> str:
    """`[S-3.1, S-3.2] ` before a declaration or statement that states ids."""
    return f"[{', '.join(('see ' if t.cited else '') + t.text for t in ids)}] " if ids else ""


def int_map(node: s.IntMap) -> str:
    return "{" + ", ".join(f"{key}: {value}" for key, value in node.entries) + "}"


@frozen
class Line:
    """A printed line: its text, its depth of indentation, and the source
    lines it was printed from (first, last; 0 when none is known), so that a
    formatter can put each comment back beside the code it was written by.
    An `opening` line ends with `{`; a `closing` one is a block's `}`."""

    text: str
    depth: int = 0
    first: int = 0
    last: int = 0
    opening: bool = False
    closing: bool = False

    def __str__(self) -> str:
        return INDENT * self.depth + self.text


Printed = Sequence[str | Line]  # a visit's lines: plain text, or lines with places


def lines_of(found: Printed, node: s.Node | None = None) -> list[Line]:
    """A visit's lines as Lines; one line of plain text is given the place
    of its node."""
    if len(found) == 1 and isinstance(found[0], str) and node is not None:
        return [Line(found[0], first=node.span.line, last=node.span.end_line)]
    return [line if isinstance(line, Line) else Line(line) for line in found]


def tagged(lines: list[Line], prefix: str) -> list[Line]:
    """The lines with a prefix (tags, `override `) before the first one."""
    return [attrs.evolve(lines[0], text=prefix + lines[0].text), *lines[1:]]


def block(lines: Sequence[str | Line]) -> list[Line]:
    """The lines one level deeper."""
    return [attrs.evolve(line, depth=line.depth + 1) for line in lines_of(lines)]


def opening(text: str, node: s.Node, last: s.Node | None = None) -> Line:
    """A block's first line, `... {`: from the node's first line to its
    `{`, on the line where `last` (the head's last part) ends."""
    end = last.span.end_line if last is not None else node.span.line
    return Line(f"{text} {{", first=node.span.line, last=end, opening=True)


def closing(node: s.Node) -> Line:
    """A block's `}`, on the node's last line."""
    return Line("}", first=node.span.end_line, last=node.span.end_line, closing=True)


def texts(lines: Sequence[Line]) -> list[str]:
    return [str(line) for line in lines]


class StatementPrinter(Visitor):
    """A statement's lines (an `if` spans several)."""

    def __init__(self, rename: Rename = _same) -> None:
        self.rename = rename
        self.expressions = ExpressionPrinter(rename)

    def expr(self, node: s.Expr, place: int = CONDITIONAL) -> str:
        return self.expressions.at(node, place)

    def lines(self, statements: Sequence[s.Statement]) -> list[Line]:
        return [line for statement in statements for line in self.statement(statement)]

    def body(
        self, head: str, statements: Sequence[s.Statement], node: s.Node, last: s.Node | None
    ) -> list[Line]:
        """`head {`, the statements indented, `}`."""
        return [opening(head, node, last), *block(self.lines(statements)), closing(node)]

    def statement(self, node: s.Statement) -> list[Line]:
        return tagged(lines_of(self.visit(node), node), tags(node.tags))

    def generic_visit(self, node: object, *args: object) -> list[str]:
        raise TypeError(f"no rule text for {type(node).__name__}")

    def visit_Let(self, node: s.Let) -> list[str]:
        return [f"let {node.name.text} = {self.expr(node.value, VALUE)}"]

    def visit_Choose(self, node: s.Choose) -> list[str]:
        sources = ", ".join(self.expr(source, VALUE) for source in node.sources)
        return [f"choose {node.name.text} from {sources}"]

    def visit_MayChoose(self, node: s.MayChoose) -> list[str]:
        return ["may " + self.visit_Choose(node)[0]]

    def visit_ChooseDistinct(self, node: s.ChooseDistinct) -> list[str]:
        count, source = self.expr(node.count), self.expr(node.source, VALUE)
        return [f"choose {node.name.text}: {count} distinct from {source}"]

    def visit_Require(self, node: s.Require) -> list[str]:
        return [f"require {self.expr(node.condition)} else {quote(node.message.value)}"]

    def visit_Gain(self, node: s.Gain) -> list[str]:
        return [f"gain {self.expr(node.amount)} {self.rename(node.token.text)}"]

    def visit_GainEach(self, node: s.GainEach) -> list[str]:
        return [f"gain {self.expr(node.amount)} each of {self.expr(node.tokens)}"]

    def visit_Pay(self, node: s.Pay) -> list[str]:
        text = f"pay {self.expr(node.cost)} less {self.expr(node.discount)}"
        wild = node.wild_cards
        if wild is not None:
            source, condition = self.expr(wild.source), self.expr(wild.condition)
            text += (
                f", using {wild.variable.text} in {source} where {condition}"
                f" as {wild.units} wild each"
            )
        if node.into_bag:
            text += " into the bag"
        return [text]

    def visit_ChooseLine(self, node: s.ChooseLine) -> list[str]:
        source = self.expr(node.source, VALUE)
        return [f"choose {node.name.text}: {node.low} to {node.high} in a line from {source}"]

    def visit_TakeCells(self, node: s.TakeCells) -> list[str]:
        return [f"take the tokens of {self.rename(node.cells.text)}"]

    def visit_RefillBoard(self, node: s.RefillBoard) -> list[str]:
        return ["refill the board"]

    def visit_Move(self, node: s.Move) -> list[str]:
        return [f"move {self.rename(node.card.text)} to {self.rename(node.zone.text)}"]

    def visit_ReturnToBox(self, node: s.ReturnToBox) -> list[str]:
        return [f"return {self.rename(node.cards.text)} to the box"]

    def visit_If(self, node: s.If) -> list[Line]:
        return self.body(f"if {self.expr(node.condition)}", node.body, node, node.condition)

    def visit_SetValue(self, node: s.SetValue) -> list[str]:
        target = f"{self.rename(node.card.text)}.{node.value_name.text}"
        return [f"set {target} = {self.expr(node.value)}"]

    def visit_AnotherTurn(self, node: s.AnotherTurn) -> list[str]:
        return ["play another turn"]

    def visit_Transfer(self, node: s.Transfer) -> list[str]:
        text = f"{node.verb} {self.expr(node.amount)} {self.rename(node.token.text)}"
        if node.source is not None:
            text += f" from {self.holder(node.source)}"
        if node.target is not None:
            text += f" to {self.holder(node.target)}"
        return [text]

    def holder(self, node: s.Expr | s.TheSupply) -> str:
        return "the supply" if isinstance(node, s.TheSupply) else self.expr(node)


class DeclarationPrinter(Visitor):
    """A declaration's lines, and a whole edition's."""

    def __init__(self, rename: Rename = _same) -> None:
        self.rename = rename
        self.statements = StatementPrinter(rename)

    def expr(self, node: s.Expr, place: int = CONDITIONAL) -> str:
        return self.statements.expr(node, place)

    def name(self, node: s.Name) -> str:
        return self.rename(node.text)

    def edition(self, node: s.Edition) -> list[Line]:
        parent = f" extends {node.parent.text}" if node.parent is not None else ""
        head = f"edition {node.name.text} {quote(node.title.value)}{parent}"
        items = [line for item in node.items for line in self.item(item)]
        last = node.parent if node.parent is not None else node.title
        return [opening(head, node, last), *block(items), closing(node)]

    def item(self, node: s.Decl | s.Item) -> list[Line]:
        lines = lines_of(self.visit(node), node)
        return tagged(lines, tags(node.tags)) if isinstance(node, s.Decl) else lines

    def generic_visit(self, node: object, *args: object) -> list[str]:
        raise TypeError(f"no rule text for {type(node).__name__}")

    # ------------------------------------------------------------- items

    def visit_Override(self, node: s.Override) -> list[Line]:
        lines = self.item(node.decl)
        if len(lines) == 1:  # from `override` on
            lines = [attrs.evolve(lines[0], first=node.span.line)]
        return tagged(lines, "override ")

    def visit_Remove(self, node: s.Remove) -> list[str]:
        if node.file is not None:
            return [f"remove {node.kind.text} {quote(node.file.value)}"]
        name = f" {node.name.text}" if node.name is not None else ""
        return [f"remove {node.kind.text}{name}"]

    def visit_Rename(self, node: s.Rename) -> list[str]:
        renamings = ", ".join(
            f"{r.old.text} -> {r.new.text}" + (f" {quote(r.title.value)}" if r.title else "")
            for r in node.renamings
        )
        return [f"rename {node.kind} {renamings}"]

    # -------------------------------------------------------- components

    def visit_Reference(self, node: s.Reference) -> list[str]:
        return [f"reference {quote(node.path.value)} ids {', '.join(node.prefixes)}"]

    def visit_Players(self, node: s.Players) -> list[str]:
        return [f"players {node.low}..{node.high}"]

    def visit_Colours(self, node: s.Colours) -> list[str]:
        return ["colours " + ", ".join(self.name(n) for n in node.names)]

    def visit_Token(self, node: s.Token) -> list[str]:
        title = f" {quote(node.title.value)}" if node.title is not None else ""
        words = {"wild": "wild", "special": "special", "never_returned": "never returned"}
        shown = [tags(p.tags) + self.token_property(p, words) for p in node.properties]
        properties = ", ".join(shown)
        return [f"token {self.name(node.name)}{title}: {properties}"]

    def token_property(self, p: s.TokenProperty, words: dict[str, str]) -> str:
        if p.kind == "at_most":
            return f"at most {p.amount} per player"
        if p.kind == "counts_as" and p.condition is not None:
            return f"counts as {p.amount} in payments where {self.expr(p.condition)}"
        return words[p.kind]

    def visit_Supply(self, node: s.Supply) -> list[Line]:
        return [opening("supply", node), *block(self.supply_lines(node.lines)), closing(node)]

    def supply_lines(self, written: tuple[s.SupplyLine, ...]) -> list[Line]:
        """The lines of a supply or a bag: an amount per kind."""
        lines = []
        for line in written:
            target = self.name(line.target) if line.target is not None else "each colour"
            amount = line.amount
            shown = str(amount) if isinstance(amount, int) else "by players " + int_map(amount)
            lines.extend(lines_of([f"{target}: {shown}"], line))
        return lines

    def visit_SeatSetup(self, node: s.SeatSetup) -> list[Line]:
        lines = []
        for line in node.lines:
            gains = f"gains {line.amount} {self.name(line.token)}"
            gift = f"player {line.position} in turn order {gains}"
            lines.extend(lines_of([gift], line))
        return [opening("setup", node), *block(lines), closing(node)]

    def table(self, head: str, node: s.Cards | s.Tiles) -> list[Line]:
        head += f" from {quote(node.path.value)}"
        last: s.Node = node.path
        if node.row_count is not None:
            head += f" with {node.row_count.count} rows"
            last = node.row_count
        if isinstance(node, s.Tiles) and node.sides_by is not None:
            head += f", double-sided by {node.sides_by.text}"
            last = node.sides_by
        if isinstance(node, s.Tiles) and node.shared:
            head += ", claimed once per player"
        columns = [line for c in node.columns for line in lines_of([self.column(c)], c)]
        return [opening(head, node, last), *block(columns), closing(node)]

    def visit_Cards(self, node: s.Cards) -> list[Line]:
        return self.table("cards" + (f" {node.name.text}" if node.name else ""), node)

    def visit_Tiles(self, node: s.Tiles) -> list[Line]:
        return self.table(f"tiles {self.name(node.name)}", node)

    def column(self, node: s.Column) -> str:
        text = f"{node.name.text}: {self.column_type(node.type)}"
        if node.source is not None:
            text += f" from {quote(node.source.value)}"
        if node.default is not None:
            text += f" default {self.expr(node.default, ATOM)}"
        return text

    def column_type(self, node: s.ColumnType) -> str:
        kind = node.kind
        if kind == "int_range":
            return f"int {node.low}..{node.high}"
        if kind == "one_of":
            return "one of " + ", ".join(quote(v.value) for v in node.values)
        words = {"colour": "colour", "colour_or_none": "colour or none", "per_colour": "per colour"}
        if kind not in words:
            return kind
        # A colour column maps data values to colours; a per-colour one, colours
        # to CSV columns: only the colours are names that a rename changes.
        pairs = ", ".join(
            f"{self.name(key) if kind == 'per_colour' else key.text}: "
            + (quote(value.value) if isinstance(value, s.StringLit) else self.name(value))
            for key, value in node.mapping
        )
        return words[kind] + (f" {{{pairs}}}" if pairs else "")

    def visit_Zone(self, node: s.Zone) -> list[str]:
        typed = f"{self.name(node.typed_by)} " if node.typed_by is not None else ""
        return [f"zone {self.name(node.name)}: {typed}{node.content} of each player"]

    def visit_CardValue(self, node: s.CardValue) -> list[str]:
        return [f"card value {node.name.text}: {node.kind}"]

    def visit_Board(self, node: s.Board) -> list[str]:
        cells = ", ".join(f"({c.row}, {c.column})" for c in node.order)
        return [f"board {node.rows} by {node.columns}, filled in order {cells}"]

    def visit_Bag(self, node: s.Bag) -> list[Line]:
        return [opening("bag", node), *block(self.supply_lines(node.lines)), closing(node)]

    # ------------------------------------------------------------- setup

    def visit_Market(self, node: s.Market) -> list[str]:
        named = ""
        if node.name is not None and node.table is not None:
            named = f" {node.name.text} from {node.table.text}"
        sizes = int_map(node.deck_sizes)
        return [f"market{named} by {node.group_by.text} {sizes}, {node.face_up} face up each"]

    def visit_Refill(self, node: s.Refill) -> list[str]:
        return ["refill from own deck"]

    def visit_Reveal(self, node: s.Reveal) -> list[str]:
        face = ", one random face each" if node.random_face else ""
        return [f"reveal {self.name(node.tiles)}: {self.expr(node.count)}{face}"]

    def visit_TurnOrder(self, node: s.TurnOrder) -> list[str]:
        return ["turn order: fixed, first player chosen at setup"]

    def visit_Randomness(self, node: s.Randomness) -> list[str]:
        return ["randomness: seeded at setup"]

    def visit_Hidden(self, node: s.Hidden) -> list[str]:
        parts = [
            "deck order"
            if p.kind == "deck_order" or p.zone is None
            else f"{self.name(p.zone)} cards from a deck except to their owner"
            for p in node.parts
        ]
        return ["hidden: " + ", ".join(parts)]

    # ----------------------------------------------------- actions, turns

    def visit_Action(self, node: s.Action) -> Printed:
        title = f" {quote(node.title.value)}" if node.title is not None else ""
        head = f"action {self.name(node.name)}{title}"
        if node.body is None:
            return [f"{head}: only when no other action is legal"]
        if node.before is not None:
            repeat = "once" if node.before == "once" else "any number of times"
            head += f": before the main action, {repeat}"
        last = node.title if node.title is not None else node.name
        return self.statements.body(head, node.body, node, last)

    def visit_Trigger(self, node: s.Trigger) -> list[Line]:
        head = (
            f"trigger {self.name(node.name)}: after card {node.card.text}"
            f" enters {self.name(node.zone)}"
        )
        return self.statements.body(head, node.body, node, node.zone)

    def visit_Majority(self, node: s.Majority) -> list[Line]:
        title = f" {quote(node.title.value)}" if node.title is not None else ""
        # A line with a node (an expression, a zone) is placed by it; the
        # others' places are not in the tree.
        lines: list[Line] = []
        if node.points is not None:
            lines.append(Line(f"points {node.points}"))
        if node.measure is not None:
            lines += lines_of([f"measure {self.expr(node.measure)}"], node.measure)
        if node.threshold is not None:
            lines.append(Line(f"threshold {node.threshold}"))
        if node.event_zone is not None:
            zone = self.name(node.event_zone)
            lines += lines_of([f"contested after a card enters {zone}"], node.event_zone)
        if node.ties_keep_holder:
            lines.append(Line("ties keep the holder"))
        if node.zone is not None:
            lines += lines_of([f"kept in {self.name(node.zone)}"], node.zone)
        head = f"majority tile {self.name(node.name)}{title}"
        last = node.title if node.title is not None else node.name
        return [opening(head, node, last), *block(lines), closing(node)]

    def visit_Step(self, node: s.Step) -> list[str]:
        place = ""
        if node.place is not None:
            place = f" {node.place.side} {self.name(node.place.other)}"
        return [f"step {self.name(node.name)}{place}: {self.step_body(node.body)}"]

    def step_body(self, body: s.StepLimit | s.StepClaim | s.StepEndCheck) -> str:
        if isinstance(body, s.StepLimit):
            kinds = ", ".join(self.name(k) for k in body.kinds)
            counting = f", {'not ' if body.not_counting else ''}counting {kinds}" if kinds else ""
            into = " into the bag" if body.into_bag else ""
            return f"return tokens above {body.limit}{into}{counting}"
        if isinstance(body, s.StepEndCheck):
            return "check game end"
        source = f" from {self.name(body.source)}" if body.source is not None else ""
        return (
            f"claim one {self.name(body.tiles)} {body.variable.text}{source}"
            f" into {self.name(body.zone)} where {self.expr(body.condition)}"
        )

    def visit_Decisions(self, node: s.Decisions) -> list[str]:
        return ["decisions by the player: " + ", ".join(self.name(n) for n in node.names)]

    # ------------------------------------------------- end of the game

    def visit_Define(self, node: s.Define) -> list[str]:
        parameters = ", ".join(f"{p.name.text}: {self.parameter_type(p)}" for p in node.parameters)
        shown = f"({parameters})" if parameters else ""
        return [f"define {self.name(node.name)}{shown} = {self.expr(node.value, VALUE)}"]

    def parameter_type(self, node: s.Parameter) -> str:
        """A parameter's type: a word, or the tile set that types it."""
        return self.name(node.typed_by) if node.typed_by is not None else node.kind

    def visit_Score(self, node: s.Score) -> list[str]:
        return [f"score = {self.expr(node.value)}"]

    def visit_Ending(self, node: s.Ending) -> list[str]:
        when = {
            "once": "after the round once",
            "at_round_end": "after a round that ends with",
            "at_turn_end": "at the end of the turn once",
        }[node.mode]
        return [f"end {self.name(node.name)}: {when} {self.expr(node.condition)}"]

    def visit_Winners(self, node: s.Winners) -> list[str]:
        among = f" among {self.expr(node.among)}" if node.among is not None else ""
        keys = ", then ".join(f"{k.order} {self.expr(k.value)}" for k in node.keys)
        return [f"winners{among}: {keys}, ties share"]


def unparse_expression(node: s.Expr, rename: Rename = _same) -> str:
    """An expression's text, as it may stand where a value may (a filter,
    `per colour` and a quantified argument bare)."""
    return ExpressionPrinter(rename).at(node, VALUE)


def unparse_statements(statements: Sequence[s.Statement], rename: Rename = _same) -> list[str]:
    """Statements, one a line (an `if`'s body indented under it)."""
    return texts(StatementPrinter(rename).lines(statements))


def unparse_declaration(node: s.Decl | s.Item, rename: Rename = _same) -> list[str]:
    """A declaration's lines (or an override's, a remove's, a rename's),
    with its tags."""
    return texts(DeclarationPrinter(rename).item(node))


def unparse_edition(node: s.Edition, rename: Rename = _same) -> str:
    """A whole rule file's text (without its comments)."""
    return "\n".join(texts(DeclarationPrinter(rename).edition(node))) + "\n"


def edition_lines(node: s.Edition) -> list[Line]:
    """A whole rule file's lines, each with the source lines it was printed
    from (for the formatter)."""
    return DeclarationPrinter().edition(node)
