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
        self, lowering: LoweringPart, st: m.Pay, frame: Frame, loop_vars: set[str]
    ) -> None:
        self.lowering = lowering
        self.st = st
        self.frame = frame
        self.colours = lowering.colours()
        self.wild = analysis.wild_token(lowering.edition)
        # The discount stays outside the loops unless a choice changes it.
        self.varies = any(analysis.uses(st.discount, v) for v in loop_vars)

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
        return statements if self.varies else statements + self.means()

    def spending(self) -> list[ast.expr]:
        """The arguments of `_card_payments` after the price: the cards that
        may be spent, their units and the cards the action chose."""
        wild = self.st.wild_cards
        assert wild is not None
        chosen: list[ast.expr] = [py.tuple_([py.value(self.frame.locals[n])]) for n in wild.chosen]
        chosen += [py.value(self.frame.locals[n]) for n in wild.chosen_sets]
        return [
            self.lowering.expr(wild.cards, self.frame),
            py.const(wild.units),
            py.chain("+", chosen) if chosen else py.tuple_([]),
        ]

    def card_loops(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Append the loop over the payments that may spend cards to `body`;
        the body of the loop, where each payment is `v_pay` and the cards
        it spends are the `using` variable's local."""
        wild = self.st.wild_cards
        assert wild is not None
        if self.varies:
            body.extend(self.means())
        price = py.call("_price", self.lowering.expr(self.st.cost, self.frame), py.name("discount"))
        ways = py.call("_card_payments", py.name("held"), price, *self.spending())
        loop: list[ast.stmt] = []
        spent = ident("v_", wild.variable)
        body.append(py.for_(("v_pay", spent), ways, loop))
        return loop

    def loops(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Append the affordability test and the loop over the payments to
        `body`; the body of the loop, where each payment is `v_pay`."""
        if self.st.wild_cards is not None:
            return self.card_loops(body)
        if self.varies:
            body.extend(self.means())
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
        affordable = py.logic(
            "or", [within, py.logic("and", [wild, py.binary(shortfall, "<=", wild)])]
        )
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
        ways = py.if_expression(
            wild, py.call("_payments", py.name("held"), price), py.tuple_([exact])
        )
        loop: list[ast.stmt] = []
        body.append(py.if_(affordable, [py.for_("v_pay", ways, loop)]))
        return loop
