"""The Python engine's state, laid out from the state's schema.

The State class's slots and annotations, the copy a move starts from, the
draft's constructor and the JSON form's writer are made here, as trees, from
`frontend/schema.py`: a field or a part of the state is written once, in the
schema, with its writer below, and the template places what this returns.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python import printer
from splendor_rules.compiler.frontend.schema import Part, Place, Schema

Writer = Callable[[], ast.expr]

_DERIVED = ("agg", "_memo")  # slots of a State that no JSON field holds


def _s(attribute: str) -> ast.expr:
    return py.attr("s", attribute)


def _where(place: Place, entry: str) -> str:
    """An entry's name in a refusal, the entry's own name written in: for a
    place each seat has, a format of the seat (the name's braces doubled, so
    that only `{seat}` is filled)."""
    if place.per_seat:
        entry = entry.replace("{", "{{").replace("}", "}}")
    return place.where.replace("{entry}", entry)


def _enumerated(names: str, body: Callable[[str], ast.expr], key: str = "name") -> ast.expr:
    """{name: body(i) for i, name in enumerate(names)}"""
    return py.dict_of(py.name(key), body("i"), ("i", key), py.call("enumerate", py.name(names)))


class StateLayout:
    """The parts of the engine template that follow the state's schema."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    def context(self) -> dict[str, Any]:
        held = self.schema.held
        return {
            "state_slots": self.slots(held),
            "state_annotations": "\n".join(py.render(self.annotations(held), level=1)),
            "state_draft": "\n".join(py.render(self.draft(held), level=2)),
            "draft_init": self.draft_init(held),
            "to_json": self.to_json(),
            "state_keys": self.schema.keys,
            "seat_keys": self.schema.seat_keys,
            "state_parts": tuple(p.name for p in held),
            "places": self.places(),
        }

    # ----------------------------------------------------------- the places

    def places(self) -> str:
        """The places of cards and tiles, as the table `_PLACES` the reader
        of a state loops over (one row a field, its entries in it): data
        from the schema, so the reader knows no kind of place."""
        rows = tuple(
            (
                f.key,
                any(place.per_seat for place in f.places),
                f.noun,
                f.names,
                tuple(
                    (
                        entry.key,
                        place.cards,
                        _where(place, entry.key),
                        entry.of,
                        entry.slots,
                        place.claims,
                    )
                    for place in f.places
                    for entry in place.entries
                ),
            )
            for f in self.schema.item_fields
        )
        return printer.laid_out(py.const(rows), lead=len("_PLACES: Final[tuple[_Place, ...]] = "))

    # ------------------------------------------------------------ the class

    @staticmethod
    def slots(held: tuple[Part, ...]) -> str:
        names = sorted([*_DERIVED, *(p.name for p in held)])
        tuple_ = py.tuple_([py.const(n) for n in names])
        return "__slots__ = " + printer.laid_out(tuple_, indent=4, lead=len("__slots__ = "))

    @staticmethod
    def annotations(held: tuple[Part, ...]) -> list[ast.stmt]:
        lines: list[ast.stmt] = []
        for part in held:
            if part.note:
                lines.append(py.Comment(part.note))
            lines.append(_annotated(part.name, part.annotation))
        lines.append(py.Comment("per player, the zone aggregates, kept up to date"))
        lines.append(_annotated("agg", "tuple[tuple[Any, ...], ...]"))
        lines.append(py.Comment("values derived from this state, never changed by a caller"))
        lines.append(_annotated("_memo", "dict[Any, Any]"))
        return lines

    @staticmethod
    def draft(held: tuple[Part, ...]) -> list[ast.stmt]:
        """d.part = self.part for each part: a draft shares the parts."""
        names = [*(p.name for p in held), "agg"]
        return [py.set_(py.attr("d", n), py.attr("self", n)) for n in names]

    @staticmethod
    def draft_init(held: tuple[Part, ...]) -> str:
        """A draft from every part the constructor takes (the parts every
        edition has, and the aggregates); the others start empty."""
        # set after the draft is made
        later = ("values", "follow", "board", "bag", "draws", "stage", "again")
        taken = [p for p in held if p.name not in later]
        parameters = (
            ("self", ""),
            *((p.name, p.annotation) for p in taken),
            ("agg", "tuple[tuple[Any, ...], ...]"),
        )
        body: list[ast.stmt] = [
            py.set_(py.attr("self", n), py.name(n)) for n in [*(p.name for p in taken), "agg"]
        ]
        if any(p.name == "follow" for p in held):
            body.append(py.set_(py.attr("self", "follow"), py.tuple_([])))
        starts = {"stage": py.const(0), "again": py.const(False)}  # a turn's start
        body += [py.set_(py.attr("self", p.name), starts[p.name]) for p in held if p.name in starts]
        body.append(py.set_(py.attr("self", "_memo"), ast.Dict(keys=[], values=[])))
        function = py.Function("__init__", parameters, "None", body)
        return "\n".join(py.render([function.tree()], level=1, width=99))

    # ---------------------------------------------------------- the JSON form

    def to_json(self) -> str:
        """to_json and the seat's writer: each field of the schema, in order."""
        state = ast.Dict(
            keys=[py.const(f.key) for f in self.schema.fields],
            values=[self.writer(f.key)() for f in self.schema.fields],
        )
        seat = ast.Dict(
            keys=[py.const(f.key) for f in self.schema.seat_fields],
            values=[self.seat_writer(f.key)() for f in self.schema.seat_fields],
        )
        main = py.Function(
            "to_json",
            (("s", "State"),),
            "dict[str, Any]",
            [py.Docstring("The state's JSON form (docs/engine.md)."), py.return_(state)],
        )
        per_seat = py.Function(
            "_seat_json",
            (("s", "State"), ("p", "int")),
            "dict[str, Any]",
            [py.Docstring("Seat p's JSON form."), py.return_(seat)],
        )
        return "\n\n\n".join(f.text(width=99) for f in (main, per_seat))

    def writer(self, key: str) -> Writer:
        """The expression of a state field's value; KeyError for a field
        with no writer (a new field is written here, once)."""
        follow = any(p.name == "follow" for p in self.schema.held)
        step = py.if_expression(
            py.binary(_s("pending"), ">=", py.const(0)),
            py.item(py.name("_STEP_NAMES"), _s("pending")),
            py.const(None),
        )
        waiting = py.call("_follow_json", py.name("s"), py.const(-1))
        writers: dict[str, Writer] = {
            "edition": lambda: py.name("EDITION"),
            "players": lambda: _s("players"),
            "first_player": lambda: _s("first"),
            "current_player": lambda: _s("current"),
            "turn": lambda: _s("turn"),
            "over": lambda: _s("over"),
            "last_round": lambda: _s("last"),
            "pending": lambda: py.if_expression(_s("follow"), waiting, step) if follow else step,
            "supply": lambda: _enumerated("TOKENS", lambda i: py.item(_s("supply"), py.name(i))),
            "decks": lambda: _enumerated(
                "_DECK_KEYS", lambda i: py.call("list", py.item(_s("decks"), py.name(i)))
            ),
            "market": lambda: _enumerated("_DECK_KEYS", _market_row),
            "tiles": lambda: _enumerated(
                "_TILE_SETS", lambda i: py.call("list", py.item(_s("tiles"), py.name(i)))
            ),
            "hidden": lambda: py.call("sorted", _s("hidden")),
            "card_values": lambda: py.call("_card_values_json", py.name("s")),
            "board": lambda: py.list_of(
                py.if_expression(
                    py.binary(py.name("k"), ">=", py.const(0)),
                    py.item(py.name("TOKENS"), py.name("k")),
                    py.const(None),
                ),
                "k",
                _s("board"),
            ),
            "bag": lambda: _enumerated("TOKENS", lambda i: py.item(_s("bag"), py.name(i))),
            "draws": lambda: _s("draws"),
            "stage": lambda: _s("stage"),
            "again": lambda: _s("again"),
            "seats": lambda: py.list_of(
                py.call("_seat_json", py.name("s"), py.name("p")),
                "p",
                py.call("range", _s("players")),
            ),
        }
        return writers[key]

    @staticmethod
    def seat_writer(key: str) -> Writer:
        """The expression of seat p's field; KeyError for one with none."""
        p = py.name("p")
        writers: dict[str, Writer] = {
            "tokens": lambda: py.call("_token_counts", py.item(_s("held"), p)),
            "zones": lambda: _enumerated(
                "_ZONES", lambda z: py.call("list", py.item(_s("zones"), py.name(z), p))
            ),
            "did": lambda: py.list_of(
                py.name("a"),
                ("i", "a"),
                py.call("enumerate", py.name("_ACTIONS")),
                py.binary(py.item(_s("did"), p), "&", py.binary(py.const(1), "<<", py.name("i"))),
            ),
        }
        return writers[key]


def _market_row(d: str) -> ast.expr:
    """[k if k >= 0 else None for k in s.market[d]]: -1 is an empty slot."""
    k = py.name("k")
    shown = py.if_expression(py.binary(k, ">=", py.const(0)), k, py.const(None))
    return py.list_of(shown, "k", py.item(_s("market"), py.name(d)))


def _annotated(name: str, annotation: str) -> ast.AnnAssign:
    return ast.AnnAssign(
        target=py.store(name), annotation=py.annotation(annotation), value=None, simple=1
    )
