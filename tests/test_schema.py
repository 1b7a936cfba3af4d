"""The state's schema (compiler/frontend/schema.py) is the shape of every
engine's state: the three engines of every shipped edition and variant
(discovered) write the fields it names, in its order, with the entries it
names; and a state with a field outside the schema's bounds is refused by
the three alike, in the same words. The cases are drawn from the schema, so
a new field is tested here without a test edit (a kind with no case fails).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from test_native import TARGETS, Engines, engines_of, native_root  # noqa: F401 (a fixture)

from splendor_rules.compiler.frontend.schema import Field, Kind, Schema, schema
from splendor_rules.compiler.runtime.interpreter import load_interpreted
from splendor_rules.compiler.runtime.loading import generated_editions, load_engine

Json = dict[str, Any]


@pytest.fixture(params=TARGETS)
def trio(request: pytest.FixtureRequest, native_root: Path) -> Engines:  # noqa: F811
    return engines_of(request.param, native_root)


def _states(engines: Engines, plies: int = 40) -> Iterator[Json]:
    """JSON forms along a seeded random game, read in each engine."""
    generated = engines.generated
    rng = random.Random(f"schema/{engines.name}")
    state = generated.new_game(generated.PLAYERS.start, 5)
    for _ in range(plies):
        yield generated.to_json(state)
        if generated.is_over(state):
            return
        state = generated.apply(state, rng.choice(generated.legal_actions(state)))


def _shape(data: Json, the: Schema) -> None:
    """The form names the schema's fields, in order, and their entries."""
    assert tuple(data) == the.keys
    for f in the.fields:
        if f.names and isinstance(data[f.key], dict):
            assert tuple(data[f.key]) == f.names, f.key
    for seat in data["seats"]:
        assert tuple(seat) == the.seat_keys
        zones = the.field("zones")
        assert tuple(seat["zones"]) == zones.names
        assert set(seat["tokens"]) <= set(the.field("tokens").names)
        assert set(seat["did"]) <= set(the.field("did").names)


def test_the_three_engines_write_the_fields_of_the_schema(trio: Engines) -> None:
    the = schema(trio.model)
    for data in _states(trio):
        views = [trio.generated.view(trio.generated.from_json(data), 0)]
        for _, engine in trio.all():
            written = engine.to_json(engine.from_json(data))
            assert written == data
            _shape(written, the)
            views.append(engine.view(engine.from_json(data), 0))
        assert all(v == views[0] for v in views)
        assert tuple(views[0]) == the.keys


def test_the_parts_are_the_python_engines_state_and_the_native_export(trio: Engines) -> None:
    """The Python engine's State has a slot for each part of the schema (and
    its memo and aggregates); the native engine exports them by name."""
    the = schema(trio.model)
    state = trio.generated.new_game(trio.generated.PLAYERS.start, 1)
    assert set(type(state).__slots__) == {*(p.name for p in the.held), "agg", "_memo"}
    assert tuple(p.name for p in the.held) == trio.generated._PARTS
    exported = trio.native._c._export(trio.native.new_game(trio.native.PLAYERS.start, 1))
    # an edition with a board, or several actions a turn, has their parts (and only such a one)
    board = tuple(p for p in ("board", "bag", "draws") if p in the.part_names)
    several = tuple(p for p in ("stage", "again") if p in the.part_names)
    assert tuple(exported) == (
        "players",
        "first",
        "current",
        "turn",
        "over",
        "last",
        "pending",
        "supply",
        "held",
        "zones",
        "decks",
        "market",
        "tiles",
        "hidden",
        "did",
        "values",
        *board,
        *several,
        "follow",
    )
    assert set(the.part_names) <= set(exported)


# ----------------------------------------------------- beyond the bounds

Case = Callable[[Json, Field], bool]  # sets a value beyond the field; False: no case here


def _scalar(data: Json, f: Field) -> bool:
    data[f.key] = f.high + 1
    return True


def _first_entry(data: Json, f: Field) -> bool:
    if not f.names:
        return False
    data[f.key][f.names[0]] = f.high + 1
    return True


def _first_list(data: Json, f: Field) -> bool:
    if not f.names:
        return False
    data[f.key][f.names[0]] = [f.high + 1]
    return True


def _market(data: Json, f: Field) -> bool:
    row = data[f.key][f.names[0]]
    row[0] = f.high + 1
    return True


def _hidden(data: Json, f: Field) -> bool:
    data[f.key] = [f.high + 1]
    return True


def _card_value(data: Json, f: Field) -> bool:
    data[f.key] = {name: {"0": f.high + 1} for name in f.names}
    return True


def _not_flag(data: Json, f: Field) -> bool:
    data[f.key] = 2
    return True


def _other_edition(data: Json, f: Field) -> bool:
    data[f.key] = f"not {f.names[0]}"
    return True


def _pending(data: Json, f: Field) -> bool:
    data[f.key] = f.high + 1  # a number: no step's name
    return True


def _seat_tokens(data: Json, f: Field) -> bool:
    data["seats"][0][f.key] = {f.names[0]: f.high + 1}
    return True


def _seat_zones(data: Json, f: Field) -> bool:
    if not f.names:
        return False
    data["seats"][0][f.key] = {**data["seats"][0][f.key], f.names[0]: [f.high + 1]}
    return True


def _seat_did(data: Json, f: Field) -> bool:
    data["seats"][0][f.key] = [f"not {name}" for name in f.names[:1]] or [1]
    return True


def _seats(data: Json, f: Field) -> bool:
    data[f.key] = data[f.key] * (f.high + 1)
    return True


def _cell(data: Json, f: Field) -> bool:
    data[f.key][0] = f"not {f.names[0]}"  # no kind's name
    return True


STATE_CASES: dict[str, Case] = {
    "edition": _other_edition,
    "players": _scalar,
    "seat": _scalar,
    "count": _scalar,
    "flag": _not_flag,
    "pending": _pending,
    "token counts": _first_entry,
    "deck cards": _first_list,
    "market rows": _market,
    "tile sets": _first_list,
    "hidden cards": _hidden,
    "card values": _card_value,
    "seats": _seats,
    "board cells": _cell,
    "generator": _scalar,
}
SEAT_CASES: dict[str, Case] = {
    "token counts": _seat_tokens,
    "zones": _seat_zones,
    "actions done": _seat_did,
}


def _refusals(engines: Engines, data: Json) -> list[str]:
    messages = []
    for name, engine in engines.all():
        with pytest.raises(ValueError) as refused:
            engine.from_json(data)
        messages.append(str(refused.value))
        assert messages[-1], name
    return messages


def test_a_field_beyond_its_bounds_is_refused_alike(trio: Engines) -> None:
    the = schema(trio.model)
    good = trio.generated.to_json(trio.generated.new_game(trio.generated.PLAYERS.start, 2))
    tried = 0
    for fields, cases in ((the.fields, STATE_CASES), (the.seat_fields, SEAT_CASES)):
        for f in fields:
            data = copy.deepcopy(good)
            if not cases[f.kind](data, f):
                continue
            messages = _refusals(trio, data)
            assert len(set(messages)) == 1, (f.key, messages)
            tried += 1
    assert tried >= len(the.fields)


def test_the_interpreter_reads_and_writes_every_kind_of_field() -> None:
    """The interpreter's reader and writer go by kind, not by field: each
    kind of the schema has its reader and its writer, so a new field of a
    known kind is read and written with no edit there."""
    json_form = load_interpreted(generated_editions()[0]).json
    kinds = set(get_args(Kind))
    assert set(json_form.writers) == kinds
    read = {step[0] for step in json_form.reader.order if isinstance(step, tuple)}
    # a field of places of cards or tiles is read by the one loop over the
    # schema's places (the step "places"), whatever its kind
    the = json_form.schema
    places = {f.kind for f in the.item_fields}
    assert places == {"deck cards", "market rows", "tile sets", "zones"}
    assert "places" in read and (read - {"places"}) | places == kinds


def test_the_python_engine_checks_the_places_of_the_schema() -> None:
    """The Python engine's table of places (`_PLACES`, which its reader of a
    state loops over) is printed from the schema's places: the fields of
    places of cards or tiles, each entry with its deck or tile set, slots
    and whether a seat counts its claimed tiles on its own."""
    for edition in generated_editions():
        engine: Any = load_engine(edition, "generated")
        the = schema(load_interpreted(edition).model)
        assert [row[0] for row in engine._PLACES] == [f.key for f in the.item_fields]
        for (_, per_seat, noun, keys, entries), f in zip(
            engine._PLACES, the.item_fields, strict=True
        ):
            seat = any(p.per_seat for p in f.places)
            assert (per_seat, noun, keys) == (seat, f.noun, f.names)
            expected = [
                (e.key, p.cards, e.of, e.slots, p.claims) for p in f.places for e in p.entries
            ]
            assert [(k, c, o, s, m) for k, c, _, o, s, m in entries] == expected
