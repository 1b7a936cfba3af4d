"""The engine's shared helpers whose shape is an edition's counts: a
statement or an operand per colour, token kind or deck, unrolled.

The template lays out the module and the helpers every edition shares
word for word; a helper whose code depends on how many colours, token kinds
or decks an edition has is built here as a syntax tree (never pasted text),
so the template holds no loop that writes code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.literals import WIDTH
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.base import LoweringPart
from splendor_rules.compiler.frontend import identities

TOKENS = "tuple[int, ...]"


def _at(subject: str, index: int) -> ast.expr:
    return py.item(py.name(subject), index)


def _above(minuend: ast.expr, subtrahend: ast.expr) -> ast.expr:
    """minuend - subtrahend, or 0 where that would be negative."""
    return py.if_expression(
        py.binary(minuend, ">", subtrahend), py.binary(minuend, "-", subtrahend), py.const(0)
    )


def _least(a: ast.expr, b: ast.expr) -> ast.expr:
    return py.if_expression(py.binary(a, "<", b), a, b)


def _minus(start: ast.expr, names: list[str]) -> ast.expr:
    return py.chain("-", [start, *(py.name(n) for n in names)])


class Unrolled(LoweringPart):
    """The helpers, as the text of each function, by the name the template
    places it under."""

    def context(self) -> dict[str, str]:
        functions = {
            "market": self.market(),
            "give_back": self.give_back(),
            "price": self.price(),
            "payments": self.payments(),
            "is_payment": self.is_payment(),
        }
        if analysis.worth_token(self.edition) is not None:
            functions["worth_payments"] = self.worth_payments()
        found = {name: function.text(WIDTH) for name, function in functions.items()}
        found.setdefault("worth_payments", "")
        return found

    def market(self) -> py.Function:
        decks = len(identities.decks(self.edition).tiers)
        cards = py.name("cards")
        filled = py.generator(py.name("k"), "k", cards, py.binary(py.name("k"), ">=", py.const(0)))
        has_gap = py.binary(py.const(-1), "in", cards)
        return py.Function(
            "_market",
            (("s", "State"),),
            TOKENS,
            [
                py.Docstring("The face-up cards: tier ascending, slot order."),
                py.assign("rows", py.attr("s", "market")),
                py.assign("cards", py.chain("+", [_at("rows", d) for d in range(decks)])),
                py.return_(py.if_expression(has_gap, py.call("tuple", filled), cards)),
            ],
        )

    def give_back(self) -> py.Function:
        kinds = range(len(self.edition.tokens))

        def moved(place: str, op: str) -> ast.Tuple:
            return py.tuple_([py.binary(_at(place, t), op, _at("counts", t)) for t in kinds])

        held = py.item(py.attr("s", "held"), py.name("p"))
        return py.Function(
            "_give_back",
            (("s", "State"), ("p", "int"), ("counts", TOKENS)),
            "None",
            [
                py.Docstring("Tokens from player p to the supply (a payment or a return)."),
                py.assign("supply", py.attr("s", "supply")),
                py.assign("held", held),
                py.set_(py.attr("s", "supply"), moved("supply", "+")),
                py.assign("held", moved("held", "-")),
                py.set_(
                    py.attr("s", "held"),
                    py.call("_replace", py.attr("s", "held"), py.name("p"), py.name("held")),
                ),
                py.set_(py.attr("s", "_memo"), ast.Dict(keys=[], values=[])),
            ],
        )

    def price(self) -> py.Function:
        parts = [_above(_at("cost", c), _at("discount", c)) for c in self.colours()]
        return py.Function(
            "_price",
            (("cost", TOKENS), ("discount", TOKENS)),
            TOKENS,
            [py.return_(py.tuple_(parts))],
        )

    def payments(self) -> py.Function:
        """Every way to pay with colour and wild tokens: a loop per colour
        over the wild tokens it takes, each bounded by what is left."""
        docstring = py.Docstring(
            "Every way to pay the price with colour tokens and wild tokens: colour",
            "c takes w{c} wild tokens, from what the colour lacks up to its price.",
        )
        body = self.splits(
            docstring,
            lambda c: _above(_at("price", c), _at("held", c)),
            lambda c: _at("price", c),
            lambda c: py.binary(_at("price", c), "-", py.name(f"w{c}")),
        )
        return py.Function(
            "_payments", (("held", TOKENS), ("price", TOKENS)), f"list[{TOKENS}]", body
        )

    def worth_payments(self) -> py.Function:
        """Every way to pay where a wild token pays up to `worth` units of
        one colour (docs/language.md, "A token's worth in payments"): per
        colour, from the fewest wild tokens its own tokens leave necessary
        up to enough for its whole price; its tokens pay the rest."""
        worth = py.name("worth")

        def tokens_for(units: ast.expr) -> ast.expr:
            """The wild tokens that pay `units` (at least 0), rounded up."""
            return py.binary(py.binary(units, "+", py.binary(worth, "-", py.const(1))), "//", worth)

        def lacking(c: int) -> ast.expr:
            short = py.binary(_at("price", c), "-", _at("held", c))
            return py.if_expression(
                py.binary(_at("price", c), ">", _at("held", c)), tokens_for(short), py.const(0)
            )

        def paid(c: int) -> ast.expr:
            return _above(_at("price", c), py.binary(worth, "*", py.name(f"w{c}")))

        docstring = py.Docstring(
            "Every way to pay the price when a wild token pays up to `worth` of one",
            "colour: colour c takes w{c} wild tokens, from the fewest its own tokens",
            "leave necessary up to enough for its whole price; its tokens pay the rest.",
        )
        needs: list[ast.stmt] = [
            py.assign(f"need{c}", tokens_for(_at("price", c))) for c in self.colours()
        ]
        body = self.splits(docstring, lacking, lambda c: py.name(f"need{c}"), paid, needs)
        parameters = (("held", TOKENS), ("price", TOKENS), ("worth", "int"))
        return py.Function("_worth_payments", parameters, f"list[{TOKENS}]", body)

    def splits(
        self,
        docstring: py.Docstring,
        least: Callable[[int], ast.expr],
        most: Callable[[int], ast.expr],
        paid: Callable[[int], ast.expr],
        before_loops: list[ast.stmt] | None = None,
    ) -> list[ast.stmt]:
        """The body of a function of the ways to pay: per colour c a loop
        over w{c}, the wild tokens it takes, from `least(c)` to `most(c)`,
        bounded by the wild tokens left; `paid(c)`: what its tokens pay;
        `before_loops`: statements run once some wild token is held."""
        colours = list(self.colours())
        low = [f"low{c}" for c in colours]
        wild = analysis.wild_token(self.edition)
        body: list[ast.stmt] = [
            docstring,
            *(py.assign(low[c], least(c)) for c in colours),
            py.assign("short", py.chain("+", [py.name(n) for n in low])),
            py.assign("wild", _at("held", wild) if wild >= 0 else py.const(0)),
            py.if_(py.binary(py.name("short"), ">", py.name("wild")), [py.return_(py.list_([]))]),
            py.if_(
                py.binary(py.name("wild"), "==", py.const(0)),
                [py.return_(py.list_([self.payment(lambda c: _at("price", c), py.const(0))]))],
            ),
            py.declare("options", py.annotation(f"list[{TOKENS}]"), py.list_([])),
            *(before_loops or []),
        ]
        split = self.payment(paid, py.chain("+", [py.name(f"w{c}") for c in colours]))
        innermost: list[ast.stmt] = [
            py.do(py.call(py.attr("options", "append"), split)),
        ]
        for c in reversed(colours):
            taken = [f"w{d}" for d in range(c)] + low[c + 1 :]
            spare, top = f"spare{c}", f"top{c}"
            over = py.call("range", py.name(low[c]), py.binary(py.name(top), "+", py.const(1)))
            innermost = [
                py.assign(spare, _minus(py.name("wild"), taken)),
                py.assign(top, _least(most(c), py.name(spare))),
                py.for_(f"w{c}", over, innermost),
            ]
        body.extend(innermost)
        body.append(py.return_(py.name("options")))
        return body

    def is_payment(self) -> py.Function:
        """Whether a value given as a payment is one of the ways to pay: each
        colour at most its price and at most what the player holds, the wild
        tokens the rest, no other kind."""
        given = py.name("given")
        wild = analysis.wild_token(self.edition)
        checks: list[ast.expr] = [
            py.binary(py.call("type", given), "is", py.name("tuple")),
            py.binary(py.call("len", given), "==", py.const(len(self.edition.tokens))),
        ]
        for t, token in enumerate(self.edition.tokens):
            part = _at("given", t)
            checks.append(py.binary(py.call("type", part), "is", py.name("int")))
            if token.role == "colour":
                checks.append(_within(part, _at("price", t)))
                checks.append(py.binary(part, "<=", _at("held", t)))
            elif t == wild:
                checks.append(_within(part, _at("held", t)))
            else:
                checks.append(py.binary(part, "==", py.const(0)))
        unpaid = _at("price", 0)
        for c in self.colours():
            if c:
                unpaid = py.binary(unpaid, "+", _at("price", c))
            unpaid = py.binary(unpaid, "-", _at("given", c))
        checks.append(py.binary(unpaid, "==", _at("given", wild) if wild >= 0 else py.const(0)))
        return py.Function(
            "_is_payment",
            (("held", TOKENS), ("price", TOKENS), ("given", "Any")),
            "bool",
            [
                py.Docstring(
                    "Whether a value given as a payment is one of the ways to pay: each",
                    "colour at most its price and what the player holds, the wild tokens",
                    "the rest, and no other kind.",
                ),
                py.return_(py.logic("and", checks)),
            ],
        )


def _within(value: ast.expr, bound: ast.expr) -> ast.Compare:
    """0 <= value <= bound"""
    return ast.Compare(left=py.const(0), ops=[ast.LtE(), ast.LtE()], comparators=[value, bound])
