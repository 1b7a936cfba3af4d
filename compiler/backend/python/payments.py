"""The loop over the ways to pay in an action's enumerator of legal moves.

What the player can pay with in each colour (tokens plus discount) is
computed once when no choice changes it, and a cost beyond it plus the wild
tokens is rejected before any payment is enumerated. The vectors are
unpacked into locals: the colours are known when generating.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.frontend import model as m

if TYPE_CHECKING:
    from splendor_rules.compiler.backend.python.base import LoweringPart


class LegalPayments:
    """The payment of one action's `pay` statement, for its enumerator."""

    def __init__(
        self,
        lowering: LoweringPart,
        st: m.Pay,
        frame: Frame,
        varies: bool,
        cards_vary: bool,
        worth: m.TokenKind | None = None,
    ) -> None:
        self.lowering = lowering
        self.st = st
        self.frame = frame
        self.colours = lowering.colours()
        self.wild = analysis.wild_token(lowering.edition)
        # The discount stays outside the loops unless a choice changes it
        # (the plan's Payment says); so do the cards that may be spent.
        self.varies = varies
        self.cards_vary = cards_vary
        # a wild token that counts as more than one where its condition holds
        self.worth = worth

    def means(self) -> list[ast.stmt]:
        """The discount, and what the player can pay with in each colour."""
        discount = self.lowering.expr(self.st.discount, self.frame)
        held, owned = py.name("held"), py.name("discount")
        return [
            py.assign("discount", discount),
            *(
                py.assign(f"means{c}", py.binary(py.item(held, c), "+", py.item(owned, c)))
                for c in self.colours
            ),
        ]

    def hoisted(self) -> list[ast.stmt]:
        """The statements to run once, before the enumerator's loops."""
        held = py.name("held")
        wild = py.item(held, self.wild) if self.wild >= 0 else py.const(0)
        statements: list[ast.stmt] = [
            py.assign("held", py.item(py.attr("s", "held"), "p")),
            py.assign("wild", wild),
        ]
        if self.worth is not None:  # read for the player paying, before the move
            statements.append(self.lowering.where(self.worth, self.worth.worth_ids))
            held_wild = py.name("wild")  # (with none held, its worth is never read)
            worth = worth_of(self.lowering, self.worth, self.frame, held_wild)
            statements.append(py.assign("worth", worth))
        if self.st.wild_cards is not None and not self.cards_vary:
            statements.append(self.spendable())
        return statements if self.varies else statements + self.means()

    def spendable(self) -> ast.stmt:
        """`spendable`: the cards of the `using` set."""
        assert self.st.wild_cards is not None
        cards = self.lowering.expr(self.st.wild_cards.cards, self.frame)
        return py.assign("spendable", py.call("tuple", cards))

    def usable(self, spendable: ast.expr) -> ast.expr:
        """The cards of `spendable` that the action did not choose."""
        wild = self.st.wild_cards
        assert wild is not None
        chosen = [py.value(self.frame.locals[n]) for n in wild.chosen]
        sets = [py.value(self.frame.locals[n]) for n in wild.chosen_sets]
        if not chosen and not sets:
            return spendable
        k = py.name("k")
        kept = py.list_of(
            k,
            "k",
            spendable,
            py.binary(
                k,
                "not in",
                py.chain("+", [py.tuple_(chosen), *sets]) if chosen else py.chain("+", sets),
            ),
        )
        return py.logic("and", [spendable, py.call("tuple", kept)])

    def loops(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Append the affordability test and the loop over the payments to
        `body`; the body of the loop, where each payment is `v_pay` (and,
        with cards that may be spent, the cards in the `using` local)."""
        if self.varies:
            body.extend(self.means())
        affordable, ways = self.token_ways(body)
        loop: list[ast.stmt] = []
        wild = self.st.wild_cards
        if wild is None:
            body.append(py.if_(affordable, [py.for_("v_pay", ways, loop)]))
            return loop
        # Cards to spend: every way with them; none (the common case): the
        # ways with tokens only, each spending no card.
        if self.cards_vary:
            body.append(self.spendable())
        body.append(py.assign("usable", self.usable(py.name("spendable"))))
        price = py.call("_price", py.name("cost"), py.name("discount"))
        with_cards = py.call(
            "_card_payments", py.name("held"), price, py.name("usable"), py.const(wild.units)
        )
        tokens_only: list[ast.stmt] = [py.assign("ways", py.call("_no_cards", ways))]
        nothing: list[ast.stmt] = [py.assign("ways", py.list_([]))]
        choose: list[ast.stmt] = [py.if_(affordable, tokens_only, nothing)]
        # What the tokens leave unpaid must fit in the wild tokens and the
        # cards' units, or no way is enumerated at all.
        room = py.binary(
            py.name("wild"),
            "+",
            py.binary(py.const(wild.units), "*", py.call("len", py.name("usable"))),
        )
        reach = py.logic("or", [self.within, py.binary(self.shortfall, "<=", room)])
        spend = py.if_expression(reach, with_cards, py.list_([]))
        body.append(py.if_(py.name("usable"), [py.assign("ways", spend)], choose))
        body.append(py.for_(("v_pay", ident("v_", wild.variable)), py.name("ways"), loop))
        return loop

    def token_ways(self, body: list[ast.stmt]) -> tuple[ast.expr, ast.expr]:
        """Append the cost to `body`; whether the player can pay it with
        tokens, and the ways to."""
        cost = [py.name(f"cost{c}") for c in self.colours]
        means = [py.name(f"means{c}") for c in self.colours]
        body.append(py.assign("cost", self.lowering.expr(self.st.cost, self.frame)))
        body.append(py.assign([f"cost{c}" for c in self.colours], py.name("cost")))
        within = py.logic("and", [py.binary(c, "<=", w) for c, w in zip(cost, means, strict=True)])
        shortfall = py.chain(
            "+",
            [
                py.if_expression(py.binary(c, ">", w), py.binary(c, "-", w), py.const(0))
                for c, w in zip(cost, means, strict=True)
            ],
        )
        # Within the means colour by colour is a quick yes; without wild
        # tokens nothing else is; only then is the shortfall summed.
        wild = py.name("wild")
        reach: ast.expr = wild
        if self.worth is not None:  # each wild token pays up to `worth` units
            reach = py.binary(wild, "*", py.name("worth"))
        affordable = py.logic(
            "or", [within, py.logic("and", [wild, py.binary(shortfall, "<=", reach)])]
        )
        self.within, self.shortfall = within, shortfall
        # Without wild tokens there is one way to pay: the price itself.
        discount = py.name("discount")
        exact = self.lowering.payment(
            lambda c: py.if_expression(
                py.binary(cost[c], ">", py.item(discount, c)),
                py.binary(cost[c], "-", py.item(discount, c)),
                py.const(0),
            ),
            py.const(0),
        )
        price = py.call("_price", py.name("cost"), discount)
        splits = py.call("_payments", py.name("held"), price)
        if self.worth is not None:
            splits = py.call("_worth_payments", py.name("held"), price, py.name("worth"))
        ways = py.if_expression(wild, splits, py.tuple_([exact]))
        return affordable, ways


def worth_of(
    lowering: LoweringPart, worth: m.TokenKind, frame: Frame, held: ast.expr | None = None
) -> ast.expr:
    """What a wild token pays of one colour for the player in the frame:
    its worth where its condition holds, else 1 (`held`: the wild tokens
    held, the condition read only when there are some)."""
    assert worth.worth_condition is not None
    condition = lowering.expr(worth.worth_condition, frame)
    if held is not None:
        condition = py.logic("and", [held, condition])
    return py.if_expression(condition, py.const(worth.worth), py.const(1))


def token_pick(
    lowering: LoweringPart,
    worth: m.TokenKind | None,
    frame: Frame,
    means: list[ast.expr],
    given: ast.expr,
    rule: ast.expr,
) -> ast.expr:
    """The payment read from a move, of tokens only (`means`: what the
    player holds and the price), refused unless it is a way to pay; where
    a wild token may count as more than one, at its worth for the player."""
    if worth is None:
        return py.call("_pick_payment", *means, given, rule)
    return py.call("_pick_worth_payment", *means, worth_of(lowering, worth, frame), given, rule)
