"""The observation tensor's element type (issue 23, docs/rl.md): the smallest of
int8, int16 and int32 that holds every entry's bounds, and a value at its bound
written exactly, by the C code and from the view alike."""

from __future__ import annotations

import contextlib
import copy
import random
import re
from array import array
from pathlib import Path
from typing import Any

import pytest
from edition_facts import rl_editions

from splendor_rules.compiler.frontend.description import describe
from splendor_rules.compiler.frontend.limits import COUNT
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import (
    EngineUnavailable,
    generated_editions,
    load_engine,
    native_editions,
    native_extension,
)
from splendor_rules.compiler.tools.rl.actions import refusal
from splendor_rules.compiler.tools.rl.batch import HEADER, table
from splendor_rules.compiler.tools.rl.game import Game
from splendor_rules.compiler.tools.rl.observation import TYPES, Layout, encode

VARIANTS = sorted((Path(__file__).resolve().parent / "variants").glob("*.rules"))
RULE_FILES = [*edition_files(), *VARIANTS]


def _range(itemsize: int) -> tuple[int, int]:
    bits = 8 * itemsize - 1
    return -(1 << bits), (1 << bits) - 1


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_every_entry_s_bounds_fit_the_smallest_type_that_holds_them(path: Path) -> None:
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    d = describe(compiled.model)
    refused = refusal(d)  # a move value with no encoding: refused, saying so
    if refused is not None:
        with pytest.raises(ValueError, match=re.escape(refused)):
            Layout(d, d["players"]["min"])
        with pytest.raises(ValueError, match=re.escape(refused)):
            table(d, d["players"]["min"])
        return
    for players in range(d["players"]["min"], d["players"]["max"] + 1):
        for full in (False, True):
            layout = Layout(d, players, full=full)
            low, high = _range(layout.itemsize)
            assert (layout.dtype, layout.typecode, layout.itemsize) in TYPES
            for s in layout.sections:
                assert low <= s.low <= s.high <= high, (s.name, s.low, s.high, layout.dtype)
                if s.wide:  # a count no rule bounds: its digits hold the counts' range
                    assert layout.bits * s.size >= COUNT.high.bit_length()
            narrow = [s for s in layout.sections if not s.wide]
            if layout.itemsize > 1:  # the next smaller type would not hold them all
                low, high = _range(layout.itemsize // 2)
                assert any(s.low < low or s.high > high for s in narrow)
            if not full:
                assert table(d, players)[HEADER.index("itemsize")] == layout.itemsize
    # where a section holds a number no rule bounds but the language's, int32
    if d["cards"]["values"] and any(v["type"] == "int" for v in d["cards"]["values"]):
        assert Layout(d, d["players"]["min"]).dtype == "int32"


def _engines(edition: str) -> list[Engine]:
    found = [load_engine(edition, "generated")]
    with contextlib.suppress(EngineUnavailable):  # a native engine not built
        found.append(load_engine(edition, "native"))
    return found


def _digits(layout: Layout, tensor: list[int], name: str) -> int:
    s = layout.at[name]
    return sum(tensor[s.start + i] << (i * layout.bits) for i in range(s.size))


@pytest.mark.parametrize("edition", rl_editions(generated_editions()))
def test_a_value_at_its_bound_is_written_exactly(edition: str) -> None:
    """The most turns a state counts, and every token of the kind the supply
    holds most of in one seat: the C code's tensor, the view's and the full
    tensor read them back exactly."""
    for engine in _engines(edition):
        d = engine.DESCRIPTION
        bag = d.get("board", {}).get("bag", {})

        def total(t: dict[str, Any], p: int, bag: dict[str, Any] = bag) -> int:
            """A kind's tokens: its supply and its bag."""
            return int(t["supply"][str(p)] + bag.get(t["name"], {}).get(str(p), 0))

        players = max(range(d["players"]["min"], d["players"]["max"] + 1),
                      key=lambda p: max(total(t, p) for t in d["tokens"]))
        token = max(d["tokens"], key=lambda t: total(t, players))
        form = engine.to_json(engine.new_game(players, 1))
        form["turn"] = COUNT.high
        most = form["supply"][token["name"]] + form["seats"][0]["tokens"].get(token["name"], 0)
        form["supply"][token["name"]] = 0
        if "board" in form:  # every token of the kind from the bag and the cells too
            most += form["bag"][token["name"]] + form["board"].count(token["name"])
            form["bag"][token["name"]] = 0
            form["board"] = [None if c == token["name"] else c for c in form["board"]]
        form["seats"][0]["tokens"][token["name"]] = most
        game = Game(engine, players)
        game.load(engine.from_json(form))
        layout = game.layout
        assert most == layout.at["seat_tokens"].high
        view = encode(layout, engine.view(game.state, 0), 0)
        full = game.observe_all(0)
        for tensor, at in ((game.observe(0), layout), (view, layout), (full, game._full)):
            assert at is not None
            assert _digits(at, tensor, "turn") == COUNT.high
            k = at.tokens.index(token["name"])
            assert tensor[at.at["seat_tokens"].start + k] == most
        assert game.observe(0) == view
        raw = game.observe_raw(0)
        assert raw.typecode == layout.typecode and raw.itemsize == layout.itemsize


@pytest.mark.parametrize("edition", rl_editions(native_editions()))
@pytest.mark.parametrize(("most", "dtype"), [(200, "int16"), (40000, "int32")])
def test_the_c_code_writes_every_type(edition: str, most: int, dtype: str) -> None:
    """The shipped editions are int8; a supply table past int8's (or int16's)
    range makes the same engine's tensor int16 (int32): the C code's tensor,
    given that layout's table, is the view's, in that type."""
    try:
        engine = load_engine(edition, "native")
    except EngineUnavailable as error:
        pytest.skip(str(error))
    d = copy.deepcopy(engine.DESCRIPTION)
    players = d["players"]["min"]
    d["tokens"][0]["supply"][str(players)] = most
    layout = Layout(d, players)
    assert layout.dtype == dtype
    observe = native_extension(edition)._observe
    state = engine.new_game(players, 3)
    rng = random.Random(3)
    for _ in range(40):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    form = engine.to_json(state)
    form["turn"] = COUNT.high
    state = engine.from_json(form)
    for seat in range(players):
        out = array(layout.typecode, bytes(layout.itemsize * layout.size))
        observe(state, array("i", table(d, players)), array("i"), seat, out)
        assert list(out) == encode(layout, engine.view(state, seat), seat)
        assert _digits(layout, list(out), "turn") == COUNT.high
