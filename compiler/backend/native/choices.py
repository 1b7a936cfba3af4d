"""The native target's loops over a choice's values, in an enumerator of
legal moves or a follow-up's options: one element at a time from each
source, or the market's slots that pass a test all at once (a slot mask),
or the combinations of distinct values."""

from __future__ import annotations

from collections.abc import Callable

from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native.base import Base
from splendor_rules.compiler.backend.native.emit import Frame
from splendor_rules.compiler.backend.native.emit import Source as Collection
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.frontend import identities


class Choices(Base):
    """The loops over choices' values."""

    def choice_loop(
        self,
        op: ops.ChoiceLoop,
        frame: Frame,
        body: list[c.Stmt],
        shown: list[c.Stmt],
        test: Callable[[c.Expr], c.Expr] | None = None,
    ) -> tuple[list[c.Stmt], Frame]:
        """Append to `body` the loops over a choice's values: the inner body
        (where the value is bound, if a later statement reads it) and its
        frame. `shown` receives the statement that writes the value into the
        move. `test`: a test of the card chosen, applied first (to the
        market's cards all at once)."""
        st = op.statement
        var = c.ident("v_", st.name)
        # one element at a time, from each source in turn, into one shared body
        seen = frame.temporary("seen") if op.may_repeat else None
        x = frame.temporary("x")
        inner: list[c.Stmt] = []
        # cards offered are kept as bits (`card_seen`), other values in a set
        cards = all(
            s.type.element is not None and s.type.element.kind == "card" for s in st.sources
        )
        bound: list[c.Stmt] = []
        if seen is not None and cards:
            body.append(c.declare("SeenCards", seen))
            body.append(
                c.do(
                    c.call(
                        "memset",
                        c.Unary("&", c.name(seen)),
                        c.num(0),
                        c.call("sizeof", c.name(seen)),
                    )
                )
            )
            known = c.call("card_seen", c.Unary("&", c.name(seen)), c.name(x))
            bound.append(c.if_(known, [c.Raw("continue;")]))
        elif seen is not None:
            body.append(c.declare("Set", seen))
            body.append(c.assign(c.dot(c.name(seen), "n"), c.num(0)))
            known = c.call("set_has", c.Unary("&", c.name(seen)), c.name(x))
            bound.append(c.if_(known, [c.Raw("continue;")]))
            bound.append(c.do(c.call("set_add", c.Unary("&", c.name(seen)), c.name(x))))
        card = c.binary(c.name(x), "&", c.name("VALUE_MASK"))
        if op.read_later:
            bound.append(c.declare("V", var, card))
        kept = [c.Seq(inner)] if test is None else [c.if_(test(card), [c.Seq(inner)])]
        for source in st.sources:
            i = frame.temporary("i")
            src = self.emitter.source(source, frame, slots=op.slots)
            body.extend(src.declared)
            if test is not None and src.gaps and self.market_size() <= 64:
                body.extend(self.market_sweep(src, i, x, test, [*bound, c.Seq(inner)], frame))
                continue
            body.append(c.for_(i, src.low, src.count, [*src.head(x, c.name(i)), *bound, *kept]))
        shown.append(c.do(c.call("mv_put", c.name("out"), c.name(x))))
        return inner, frame.bind(st.name, var, colour=op.colours)

    def combination_loop(
        self, op: ops.CombinationLoop, frame: Frame, body: list[c.Stmt], shown: list[c.Stmt]
    ) -> tuple[list[c.Stmt], Frame]:
        """Append to `body` the loop over the combinations of a choice of
        distinct values: the inner body and its frame."""
        st = op.statement
        var = c.ident("v_", st.name)
        comb, more = frame.temporary("comb"), frame.temporary("more")
        combination = c.Unary("&", c.name(comb))
        count = self.expr(st.count, frame)
        src = self.emitter.source(st.source, frame, as_set=True)
        # the combination written into the set as it steps: no copy per value
        chosen, elements = c.Unary("&", c.name(var)), c.Unary("&", c.name(src.name))
        first = c.call("comb_start", combination, chosen, elements, count)
        body.extend(src.declared)
        body.append(c.declare("Comb", comb))
        body.append(c.declare("Set", var))
        body.append(c.declare("int32_t", more, first))
        inner: list[c.Stmt] = []
        next_ = c.assign(more, c.call("comb_step", combination, chosen, elements))
        body.append(c.While(c.name(more), [c.Seq(inner), next_]))
        shown.append(c.do(c.call("mv_put_set", c.name("out"), c.Unary("&", c.name(var)))))
        return inner, frame.bind(st.name, var)

    def market_sweep(
        self,
        src: Collection,
        i: str,
        x: str,
        test: Callable[[c.Expr], c.Expr],
        each: list[c.Stmt],
        frame: Frame,
    ) -> list[c.Stmt]:
        """The market's slots whose card passes `test` found first, all at
        once, as the bits of a mask (a test per slot, no branch on its
        outcome: which cards pass is what a processor cannot predict); then
        `each` run for each such slot, in order, `x` the card there."""
        assert src.items is not None
        mask, at, card = (frame.temporary(n) for n in ("slots", "at", "card"))
        present = c.binary(c.name(at), ">=", c.num(0))
        empty = c.binary(c.name(at), "<", c.num(0))
        number = c.Conditional(empty, c.num(0), c.binary(c.name(at), "&", c.name("VALUE_MASK")))
        passes = c.Unary("(uint64_t)", c.logic("&&", [present, test(c.name(card))]))
        sweep = [
            c.declare("V", at, src.at_slot(c.name(i))),
            c.declare("V", card, number),
            c.assign(mask, c.binary(passes, "<<", c.name(i)), "|="),
        ]
        first = c.call("__builtin_ctzll", c.name(mask))
        visit = [
            c.declare("int32_t", i, first),
            c.assign(mask, c.binary(c.name(mask), "-", c.num(1)), "&="),
            c.declare("V", x, src.at_slot(c.name(i))),
            *each,
        ]
        return [
            c.declare("uint64_t", mask, c.num(0)),
            c.for_(i, src.low, src.count, sweep),
            c.While(c.name(mask), visit),
        ]

    def market_size(self) -> int:
        """The market's slots, all decks together."""
        return sum(identities.decks(self.edition).face_up)
