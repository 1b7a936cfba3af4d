"""The payments of the native target's enumerators of legal moves: what the
player can pay with (found once where no choice changes it), the test that
passes over a cost beyond it (a packed cost in a few word operations), and
the ways to pay written straight into the move buffer as moves."""

from __future__ import annotations

from collections.abc import Callable

from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native import data
from splendor_rules.compiler.backend.native.base import Base, Means
from splendor_rules.compiler.backend.native.emit import Frame
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.frontend import model as m


class Payments(Base):
    """The payments of the legal moves: what the player can pay with, the
    test that passes over what they cannot afford, the ways written as moves."""

    def payment(
        self,
        op: ops.Payment,
        frame: Frame,
        body: list[c.Stmt],
        moves: list[c.Stmt],
        hoisted: list[c.Stmt],
        checked: Means | None = None,
    ) -> list[c.Stmt]:
        """Append the test of the means and the price; the body where the
        move is written. To `moves`, the call that writes every way to pay,
        each completing the move begun (the checker puts a payment after
        every choice and requirement, so nothing follows it in a move).
        `checked`: the means, when a choice has already passed over what it
        cannot afford."""
        st = op.statement
        price = frame.temporary("price")
        found = checked or self.payment_means(
            st, frame, body, hoisted, op.discount_varies, op.cards_vary, op.worth
        )
        value = self.expr(st.cost, frame)
        if checked is None:
            # a card's cost is read where it is (a column's cell), else computed once
            if not isinstance(value, c.Index | c.Name):
                cost = frame.temporary("cost")
                body.extend(self.emitter.declare(cost, st.cost, frame))
                value = c.name(cost)
            inner_body: list[c.Stmt] = []
            body.append(c.if_(self.affordable(found, value), inner_body))
            body = inner_body
        discount = self.expr(st.discount, frame)
        body.append(c.declare("Vec", price, c.call("price_of", value, discount)))
        priced = c.Unary("&", c.name(price))
        wild = st.wild_cards
        paid: tuple[c.Expr, ...]
        if found.worth is not None:  # a wild token may pay more than one unit
            kind, paid = "worth_pay", (priced, c.name(found.worth))
        elif wild is None or found.spendable is None:
            kind, paid = "pay", (priced,)
        else:
            cards: c.Expr = c.Unary("&", c.name(found.spendable))
            chosen = op.spendable_choices
            if chosen or wild.chosen_sets:  # the cards the action chose are not spent
                gone, copy = frame.temporary("gone"), frame.temporary("copy")
                body.append(c.declare("Set", gone))
                body.append(c.assign(c.dot(c.name(gone), "n"), c.num(0)))
                for name in chosen:
                    body.append(
                        c.do(c.call("set_add", c.Unary("&", c.name(gone)), frame.locals[name]))
                    )
                for name in wild.chosen_sets:
                    chosen_set = c.Unary("&", frame.locals[name])
                    body.append(c.do(c.call("set_add_all", c.Unary("&", c.name(gone)), chosen_set)))
                body.append(c.declare("Set", copy))
                cards = c.call(
                    "without", cards, c.Unary("&", c.name(copy)), c.Unary("&", c.name(gone))
                )
            kind, paid = "card_pay", (priced, cards, c.num(wild.units))
        moves.append(c.do(c.call(f"{kind}_moves", c.name("g"), c.name("p"), *paid, c.name("out"))))
        return body

    def payment_means(
        self,
        st: m.Pay,
        frame: Frame,
        body: list[c.Stmt],
        hoisted: list[c.Stmt],
        varies: bool,
        cards_vary: bool,
        worth: m.TokenKind | None = None,
    ) -> Means:
        """Declare what the player can pay with per colour (tokens and
        discount), and beyond it (wild tokens, cards): in `hoisted`, found
        once, unless a choice changes the discount (`varies`) or the cards
        (`cards_vary`; then in `body`). `worth`: the wild token that may
        count as more than one, its worth for the player found once (its
        condition reads no choice)."""
        means, reach = frame.temporary("means"), frame.temporary("reach")
        (body if varies else hoisted).extend(self.emitter.declare(means, st.discount, frame))
        (body if varies else hoisted).append(
            c.do(c.call("add_held", c.Unary("&", c.name(means)), c.name("g"), c.name("p")))
        )
        wild = st.wild_cards
        room: c.Expr = c.call("wild_held", c.name("g"), c.name("p"))
        worth_local = None
        if worth is not None:  # each wild token pays up to `worth` units of a colour
            assert worth.worth_condition is not None
            worth_local = frame.temporary("worth")
            # read only where some wild token is held (else its worth is never read)
            condition = c.logic("&&", [room, self.expr(worth.worth_condition, frame)])
            value = c.Conditional(condition, c.num(worth.worth), c.num(1))
            hoisted.append(c.comment(self.source.place(worth, worth.worth_ids)))
            hoisted.append(c.declare("V", worth_local, value))
            room = c.binary(room, "*", c.name(worth_local))
        room_varies = False
        spendable = None
        if wild is not None:
            spendable = frame.temporary("spendable")
            room_varies = cards_vary
            (body if room_varies else hoisted).extend(
                self.emitter.declare(spendable, wild.cards, frame)
            )
            count = c.dot(c.name(spendable), "n")
            room = c.binary(room, "+", c.binary(c.num(wild.units), "*", count))
        (body if room_varies else hoisted).append(c.declare("V", reach, room))
        packed = self.packed_cost(st.cost)
        word = None
        if packed is not None:
            word = frame.temporary("packed")
            read = c.call("means_packed", c.Unary("&", c.name(means)))
            (body if varies else hoisted).append(c.declare("uint64_t", word, read))
        return Means(means, reach, spendable, packed, word, worth_local)

    @staticmethod
    def affordable(found: Means, cost: c.Expr) -> c.Expr:
        """A cost beyond the means is no move: no payment is enumerated."""
        if found.packed is not None and found.word is not None and isinstance(cost, c.Index):
            lack = c.call(
                "shortfall_packed", c.index(c.name(found.packed), cost.index), c.name(found.word)
            )
        else:
            lack = c.call("shortfall", c.Unary("&", cost), c.Unary("&", c.name(found.means)))
        return c.binary(lack, "<=", c.name(found.reach))

    def cost_test(
        self, pay: m.Pay, found: Means, name: str, frame: Frame
    ) -> Callable[[c.Expr], c.Expr]:
        """The test that the card bound to `name` is not beyond the means."""
        return lambda card: self.affordable(found, self.expr(pay.cost, frame.bind(name, card)))

    def packed_cost(self, cost: m.Expr) -> str | None:
        """The packed twin of the card column a cost reads, if it has one."""
        if not (isinstance(cost, m.Attr) and cost.source == "column"):
            return None
        if cost.subject.type != m.CARD:
            return None
        packed = data.packed_column(self.edition, cost.attribute)
        if packed is not None:
            self.packed.add(cost.attribute)
        return packed
