"""The checked model's expressions and statements in English.

A general printer: it knows the language's constructs (choices, payments,
requirements, filters, quantifiers), never an edition, so every noun comes
from the edition's own names: a token kind's title, an action's title, a
zone or a definition by its name with `_` read as a space. A variable keeps
its name (`k`, `c`): a sentence names it where it is chosen, as a rulebook
says "choose a card, k". Each phrase is plain text; the renderers escape it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import Visitor

_COMPARISONS = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
}
_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times"}
_PRODUCTS = ("*", "/", "%")


def _grouped(e: m.Expr, op: str, side: str) -> bool:
    """Does an operand need parentheses in words? A phrase joined by
    `and`/`or` or `if` and a comparison always; arithmetic alone (after a
    minus), a sum in a product, a sum or difference right of a minus, any
    arithmetic right of a division or remainder, a negative number divided,
    and a division or remainder (a phrase of its own) in any operation."""
    if isinstance(e, m.Logic | m.Conditional):
        return True
    if isinstance(e, m.Unary) and op in ("/", "%"):
        return True  # `(minus a) divided by b, rounded down` is not `minus (a divided by b, …)`
    if not isinstance(e, m.Binary):
        return False
    if e.op in _COMPARISONS or side == "alone":
        return True
    if e.op in ("/", "%") or (op in ("/", "%") and side == "right"):
        return True  # `(a divided by b, rounded down) times c`, `a divided by (b times c)`
    sum_like = e.op in ("+", "-")
    return sum_like and (op in _PRODUCTS or (op == "-" and side == "right"))


def words(name: str) -> str:
    """A declared name as words: `take_two` -> `take two`."""
    return name.replace("_", " ")


def listed(items: Sequence[str], last: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class English(Visitor):
    """Phrases for one edition's expressions and statements."""

    def __init__(self, edition: m.Edition) -> None:
        self.edition = edition
        self.tokens = {t.name: t for t in edition.tokens}
        self.actions = {a.name: a for a in edition.actions}
        self.majorities = {x.name: x for x in edition.majorities}
        self.defines = {d.name: d for d in (*edition.defines, edition.score)}
        self.zones = {z.name: z for z in edition.zones}

    # ------------------------------------------------------------ names

    def token(self, name: str) -> str:
        """A token kind or a colour by its title (a colour's is its name)."""
        kind = self.tokens.get(name)
        return kind.title if kind is not None and kind.title else words(name)

    def zone(self, name: str) -> str:
        zone = self.zones.get(name)
        content = zone.content if zone is not None else "cards"
        return f"the player's {words(name)} {content}"

    def action(self, name: str) -> str:
        action = self.actions.get(name)
        return f"“{action.title}”" if action is not None and action.title else f"“{words(name)}”"

    def majority(self, name: str) -> str:
        found = self.majorities.get(name)
        return f"“{found.title}”" if found is not None and found.title else f"“{words(name)}”"

    # ------------------------------------------------------ expressions

    def expr(self, e: m.Expr) -> str:
        """An expression as an English phrase."""
        phrase: str = self.visit(e)
        return phrase

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise TypeError(f"no English for {type(node).__name__}")

    def visit_Const(self, e: m.Const) -> str:
        if e.value is None:
            return "no colour"
        if isinstance(e.value, bool):
            return "true" if e.value else "false"
        if isinstance(e.value, str):
            return f"“{e.value}”"
        return str(e.value)

    def visit_DeckTops(self, e: m.DeckTops) -> str:
        return "the top card of each deck that has one"

    def visit_Attr(self, e: m.Attr) -> str:
        if e.type.kind == "bool":  # a yes-or-no column: `k has “time icon”`
            return f"{self.expr(e.subject)} has “{words(e.attribute)}”"
        return f"the {words(e.attribute)} of {self.expr(e.subject)}"

    def visit_Index(self, e: m.Index) -> str:
        return f"{self.expr(e.subject)} in {self.expr(e.index)}"

    def visit_Unary(self, e: m.Unary) -> str:
        word = "not" if e.op == "not" else "minus"
        return f"{word} {self._inner(e.operand)}"

    def visit_Conditional(self, e: m.Conditional) -> str:
        return (
            f"{self.expr(e.then)} if {self.expr(e.condition)}, otherwise {self.expr(e.otherwise)}"
        )

    def visit_Filter(self, e: m.Filter) -> str:
        return f"{self.expr(e.source)} {e.variable} such that {self.expr(e.condition)}"

    def visit_PerColour(self, e: m.PerColour) -> str:
        return f"for each colour {e.variable}, {self.expr(e.body)}"

    def visit_Total(self, e: m.Total) -> str:
        over = f"{self.expr(e.source)} {e.variable}"
        if e.condition is not None:
            over += f" such that {self.expr(e.condition)}"
        return f"the sum of {self.expr(e.body)} over {over}"

    def _inner(self, e: m.Expr, op: str = "", side: str = "alone") -> str:
        """An operand (`side`: left or right of `op`, or alone after `not`
        or `-`), in parentheses where the words alone would read another
        grouping: `not (a and b)`, `a minus (b plus c)`."""
        text = self.expr(e)
        return f"({text})" if _grouped(e, op, side) else text

    def visit_PlayerRef(self, e: m.PlayerRef) -> str:
        return _PLAYERS[e.which]

    def visit_OfPlayer(self, e: m.OfPlayer) -> str:
        return f"{self.expr(e.value)}, read for {self.expr(e.player)}"

    def visit_Ref(self, e: m.Ref) -> str:
        if e.kind in ("colour", "token"):
            return self.token(e.name)
        if e.kind == "colours":
            return "the colours"
        if e.kind == "players":
            return "the number of players"
        if e.kind == "zone":
            return self.zone(e.name)
        if e.kind == "market":
            return "the face-up cards"
        if e.kind == "tiles":
            return f"the {words(e.name)} tiles in play"
        if e.kind == "define":
            return self._define(e.name)
        if e.kind == "score":
            return "the player's score"
        if e.kind == "majority":
            return self.majority(e.name)
        if e.kind == "action":
            return self.action(e.name)
        if e.kind == "board":
            return "the cells of the board that hold a token"
        if e.kind == "bag":
            return "the tokens in the bag"
        return e.name  # a variable

    def _define(self, name: str) -> str:
        found = self.defines.get(name)
        if found is not None and found.value.type.kind == "bool":
            return f"“{words(name)}” holds for the player"
        return f"the player's {words(name)}"

    def visit_Call(self, e: m.Call) -> str:
        args = [self.expr(a) for a in e.arguments]
        if e.function == "supply":
            return f"the number of {args[0]} tokens in the supply"
        if e.function == "tokens":
            return f"the number of {args[0]} tokens the player holds"
        if e.function == "count":
            return f"the number of {args[0]}"
        if e.function == "sum":
            return f"the sum of {args[0]}"
        if e.function == "distinct":  # colours: none is no colour, not counted
            what = "values" if e.arguments[0].type.element == m.INT else "colours"
            return f"the number of different {what} of {args[0]}"
        if e.function in ("min", "max"):
            which = "smaller" if e.function == "min" else "larger"
            if len(args) > 2:
                which = "least" if e.function == "min" else "greatest"
            return f"the {which} of {listed(args)}"
        if e.function == "holds":
            return f"the player holds {args[0]}"
        if e.function == "did":
            return f"the player took the action {args[0]} this round"
        return f"{words(e.function)} of {listed(args)}"

    def visit_Apply(self, e: m.Apply) -> str:
        args = listed([self.expr(a) for a in e.arguments])
        name = words(e.name)
        if name.endswith(" of"):  # `colour_of(k)`: the colour of k
            return f"the {name} {args}"
        return f"“{name}” of {args}"

    def visit_Binary(self, e: m.Binary) -> str:
        left, right = self._inner(e.left, e.op, "left"), self._inner(e.right, e.op, "right")
        if e.op in _COMPARISONS:
            return f"{left} {_COMPARISONS[e.op]} {right}"
        if e.op == "/":
            return f"{left} divided by {right}, rounded down"
        if e.op == "%":
            return f"the remainder of {left} divided by {right}"
        return f"{left} {_ARITHMETIC.get(e.op, e.op)} {right}"

    def visit_Logic(self, e: m.Logic) -> str:
        parts = []
        for operand in e.operands:
            text = self.expr(operand)
            if isinstance(operand, m.Logic):
                text = f"either {text}" if operand.op == "or" else f"both {text}"
            parts.append(text)
        if any("," in part for part in parts):  # a part with commas: `;` between parts
            return "; ".join(parts[:-1]) + f"; {e.op} {parts[-1]}"
        return listed(parts, e.op)

    def visit_Quantifier(self, e: m.Quantifier) -> str:
        some = "some" if e.op == "any" else "every"
        if e.variable is None or e.source is None:
            return f"for {some} player: {self.expr(e.body)}"
        return f"for {some} {e.variable} of {self._over(e.source, e.variable)}, {self.expr(e.body)}"

    def _over(self, source: m.Expr, variable: str) -> str:
        """What a variable ranges over: a filter of the same variable reads
        `X such that …` once, not `X x such that …` then `x` again."""
        if isinstance(source, m.Filter) and source.variable == variable:
            return f"{self.expr(source.source)} such that {self.expr(source.condition)}"
        return self.expr(source)

    # ------------------------------------------------------- statements

    def statements(self, body: Sequence[m.Statement], later: bool = False) -> list[str]:
        """A block as sentences, one per statement, in order; `later`: a
        trigger's block, or one under `if`, whose choices are follow-ups."""
        return [self.statement(x, later) for x in body]

    def statement(self, x: m.Statement, later: bool = False) -> str:
        """A statement as one sentence (`later`: see `statements`)."""
        if isinstance(x, m.Let):
            return f"Let {x.name} be {self.expr(x.value)}."
        if isinstance(x, m.MayChoose):
            sources = listed([self.expr(s) for s in x.sources], "or")
            return (
                f"The player then may choose one, {x.name}, from {sources}, as a decision "
                "after the move, or decline; declined, or with nothing to choose from, "
                "the rest is skipped."
            )
        if isinstance(x, m.Choose):
            sources = listed([self.expr(s) for s in x.sources], "or")
            if later:  # a follow-up choice (docs/language.md)
                return (
                    f"The player then chooses one, {x.name}, from {sources}, as a decision "
                    "after the move; with nothing to choose from, the rest is skipped."
                )
            return f"The player chooses one, {x.name}, from {sources}."
        if isinstance(x, m.ChooseDistinct):
            return (
                f"The player chooses {x.name}: exactly {self.expr(x.count)} different "
                f"ones from {self.expr(x.source)}."
            )
        if isinstance(x, m.Require):
            return f"The move is legal only if {self.expr(x.condition)}."
        if isinstance(x, m.Gain):
            return f"The player {self._gain(x.amount, x.token)}."
        if isinstance(x, m.GainEach):
            return (
                f"The player takes {self.expr(x.amount)} token of each of "
                f"{self.expr(x.tokens)} from the supply."
            )
        if isinstance(x, m.Pay):
            return self._pay(x)
        if isinstance(x, m.Move):
            content = "tiles" if x.tile else "cards"
            return f"The player puts {x.card} into their {words(x.zone)} {content}."
        if isinstance(x, m.ReturnToBox):
            leaves = "they leave" if x.many else "it leaves"
            return f"The player returns {x.cards} to the box: {leaves} the game."
        if isinstance(x, m.If):
            inner = self.statements(x.body, later=True)
            condition = self.expr(x.condition)
            if len(inner) == 1:  # `If …, the player takes …` (`, then` after a comma)
                then = ", then" if "," in condition else ","
                return f"If {condition}{then} {inner[0][:1].lower()}{inner[0][1:]}"
            return f"If {condition}: {' '.join(inner)}"
        if isinstance(x, m.SetValue):
            return f"The {words(x.value_name)} of {x.card} becomes {self.expr(x.value)}."
        if isinstance(x, m.AnotherTurn):
            return (
                "The player plays another turn, a whole one, once this turn has ended "
                "(its end-of-turn steps included)."
            )
        if isinstance(x, m.Transfer):
            return self._transfer(x)
        return self._board_statement(x)

    def _board_statement(self, x: m.Statement) -> str:
        """The statements of a board of cells."""
        if isinstance(x, m.ChooseLine):
            return (
                f"The player chooses {x.name}: {x.low} to {x.high} of {self.expr(x.source)}, "
                "neighbours along one row, column or diagonal with no cell skipped."
            )
        if isinstance(x, m.TakeCells):
            return f"The player takes the tokens of {x.cells} from the board."
        if isinstance(x, m.RefillBoard):
            return (
                "The bag is drawn at random onto the empty cells of the board, in fill "
                "order, until the bag or the empty cells run out."
            )
        raise TypeError(f"no English for {type(x).__name__}")

    def _gain(self, amount: m.Expr, token: m.Expr) -> str:
        """`takes 2 red tokens from the supply`; an amount that is no number
        written out after the kind: `takes c tokens from the supply, as many
        as the points of k`."""
        what = self.expr(token)
        if isinstance(amount, m.Const) and isinstance(amount.value, int):
            plural = "" if amount.value == 1 else "s"
            return f"takes {amount.value} {what} token{plural} from the supply"
        return f"takes {what} tokens from the supply, as many as {self.expr(amount)}"

    def _transfer(self, x: m.Transfer) -> str:
        """`Up to 1 red token goes from the opponent to the player.`"""
        source, target = (
            self.expr(h) if h is not None else "the supply" for h in (x.source, x.target)
        )
        what = self.expr(x.token)
        moved, go = f"Up to {self.expr(x.amount)} {what} tokens", "go"
        if isinstance(x.amount, m.Const) and x.amount.value == 1:
            moved, go = f"Up to 1 {what} token", "goes"
        return f"{moved} {go} from {source} to {target}, as many as {source} has."

    def _pay(self, x: m.Pay) -> str:
        wild = [self.token(t.name) for t in self.edition.tokens if t.role == "wild"]
        tokens = "tokens of that colour"
        if wild:
            tokens += f" or {listed(wild, 'or')} tokens, each paying 1 of any colour"
        text = (
            f"The player pays {self.expr(x.cost)} less {self.expr(x.discount)}, colour by "
            f"colour and never below 0, with {tokens}; the tokens paid go "
            + ("into the bag." if x.into_bag else "back to the supply.")
        )
        if x.wild_cards is not None:
            spent = x.wild_cards
            text += (
                f" They may also spend {self.expr(spent.cards)}: each pays up to "
                f"{spent.units} of the price in any colours and then leaves the game."
            )
        return text


# How the rulebook names the players a rule names from the one in context.
_PLAYERS = {
    "you": "the player",
    "opponent": "the opponent",
    "next": "the next player",
    "previous": "the previous player",
    "others": "the other players",
}
