"""Lowering the values an edition derives from a state: the upkeep of its zone
aggregates, and its definitions (the score too, printed from the plan by
`turns.py`)."""

from __future__ import annotations

import ast

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python import printer
from splendor_rules.compiler.backend.python.base import LoweringPart, python_type
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.frontend import model as m


class Values(LoweringPart):
    """The functions of an edition's derived values."""

    def functions(self) -> list[py.Function]:
        found = [self.count_in()]
        # a definition with parameters whose every use was written out in
        # place (analysis.inline_definitions) needs no function
        applied = {n.name for n in analysis.nodes(self.edition) if isinstance(n, m.Apply)}
        for define in self.edition.defines:
            if not define.parameters or define.name in applied:
                found.append(self.define(define, self.names.define(define.name)))
        return found

    def count_in(self) -> py.Function:
        """The upkeep of the zone aggregates as an item enters or leaves."""
        by_zone: dict[str, list[tuple[int, str, str | m.Expr]]] = {}
        for (kind, zone, column), index in self.names.aggregates.items():
            by_zone.setdefault(zone, []).append((index, kind, column))
        body: list[ast.stmt] = []
        if by_zone:
            agg = py.attr("s", "agg")
            body.append(py.assign("totals", py.call("list", py.item(agg, "p"))))
            otherwise: list[ast.stmt] = [py.return_()]
            for zone, aggregates in reversed(by_zone.items()):
                test = py.binary(py.name("zone"), "==", self.names.zone(zone))
                upkeep = self.zone_upkeep(zone, aggregates)
                otherwise = [py.if_(test, upkeep, otherwise)]
            body.extend(otherwise)
            totals = py.call("tuple", py.name("totals"))
            body.append(py.set_(agg, py.call("_replace", agg, py.name("p"), totals)))
        else:
            body.append(py.return_())
        parameters = (("s", "State"), ("p", "int"), ("zone", "int"), ("item", "int"))
        return py.Function("_count_in", (*parameters, ("sign", "int")), "None", body)

    def zone_upkeep(
        self, zone: str, aggregates: list[tuple[int, str, str | m.Expr]]
    ) -> list[ast.stmt]:
        """The aggregates of one zone, updated for an item entering (sign 1)
        or leaving (sign -1)."""
        cards = analysis.zone_content(self.edition, zone) == "cards"
        totals, item, sign = py.name("totals"), py.name("item"), py.name("sign")
        body: list[ast.stmt] = []
        for index, kind, column in aggregates:
            if not isinstance(column, str):
                body.extend(self.total_upkeep(index, column))
                continue
            table = self.names.card_column(column) if cards else self.names.tile_column(column)
            if kind == "sum":
                body.append(
                    py.augment(
                        py.item(totals, index), "+", py.binary(sign, "*", py.item(table, item))
                    )
                )
            else:
                body.append(py.assign("counts", py.call("list", py.item(totals, index))))
                count: ast.stmt = py.augment(
                    py.item(py.name("counts"), py.item(table, item)), "+", sign
                )
                if column in self.names.none_columns:  # no colour (-1): counted nowhere
                    count = py.if_(py.binary(py.item(table, item), ">=", py.const(0)), [count])
                body.append(count)
                body.append(py.set_(py.item(totals, index), py.call("tuple", py.name("counts"))))
        return body

    def total_upkeep(self, index: int, kept: m.Expr) -> list[ast.stmt]:
        """A kept Total (analysis.kept_total) updated for the item: what the
        item adds, if it passes, times the sign; per colour, to the item's
        colour when the condition names one (analysis.total_by_colour), else
        for each colour (the colours are known: no loop)."""
        totals = py.name("totals")
        if isinstance(kept, m.Total):
            return self.contribution(kept, Frame(), py.item(totals, index))
        assert isinstance(kept, m.PerColour) and isinstance(kept.body, m.Total)
        counts = py.name("counts")
        body: list[ast.stmt] = [py.assign("counts", py.call("list", py.item(totals, index)))]
        by_colour = analysis.total_by_colour(kept)
        if by_colour is not None:
            frame = Frame().bind(kept.body.variable, "item")
            which, added = self.expr(by_colour[1], frame), self.expr(kept.body.body, frame)
            add = py.augment(
                py.item(counts, py.name("colour")), "+", py.binary(py.name("sign"), "*", added)
            )
            body.append(py.assign("colour", which))
            body.append(py.if_(py.binary(py.name("colour"), "in", py.name("COLOUR_KINDS")), [add]))
            body.append(py.set_(py.item(totals, index), py.call("tuple", counts)))
            return body
        for colour in self.colours():
            frame = Frame().bind(kept.variable, colour)
            body.extend(self.contribution(kept.body, frame, py.item(counts, colour)))
        body.append(py.set_(py.item(totals, index), py.call("tuple", counts)))
        return body

    def contribution(self, total: m.Total, frame: Frame, target: ast.expr) -> list[ast.stmt]:
        """`target += sign * body` for the item, if it passes the condition."""
        frame = frame.bind(total.variable, "item")
        added = py.augment(
            target, "+", py.binary(py.name("sign"), "*", self.expr(total.body, frame))
        )
        if total.condition is None:
            return [added]
        return [py.if_(self.expr(total.condition, frame), [added])]

    def define(self, define: m.Define, name: str) -> py.Function:
        """A definition read for a player. A value computed with a loop is
        memoised on the state; one read off the state's aggregates is
        cheaper to compute again."""
        kind = python_type(define.value.type)
        frame = Frame()
        parameters = [("s", "State"), ("p", "int")]
        for parameter, type_ in define.parameters:
            argument = ident("a_", parameter)
            parameters.append((argument, printer.expression(python_type(type_))))
            frame = frame.bind(parameter, argument)
        prebound, frame = self.prebind(define.value, frame)
        value = self.expr(define.value, frame)
        body: list[ast.stmt] = [self.where(define)]
        if py.has_loop(value) and not define.parameters:
            key = py.name("key")
            memo = py.attr("s", "_memo")
            body.append(py.assign("key", py.tuple_([py.const(define.name), py.name("p")])))
            known = [py.declare("known", kind, py.item(memo, key)), py.return_(py.name("known"))]
            body.append(py.if_(py.binary(key, "in", memo), known))
            body.extend(prebound)
            body.append(py.declare("value", kind, value))
            body.append(py.set_(py.item(memo, key), py.name("value")))
        else:
            body.extend(prebound)
            body.append(py.declare("value", kind, value))
        body.append(py.return_(py.name("value")))
        return py.Function(name, tuple(parameters), kind, body)
