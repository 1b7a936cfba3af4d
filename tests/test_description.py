"""Engines that describe themselves (docs/engine.md, "Description").

Every engine of a model (generated, interpreted, native) carries the same
description but for `capabilities`; it is plain JSON data, deterministic,
and agrees with what the engine does: every legal move has the shape its
description declares, and a zone whose deck cards only their owner sees
shows them to nobody else. Editions and variants are discovered.
"""

from __future__ import annotations

import ast
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from engine_modules import engine_module, native_engine_module

from splendor_rules.compiler.backend.native.compile import native_available
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python import printer
from splendor_rules.compiler.frontend import identities, pipeline
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.description import SCHEMA, describe
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.compiler.frontend.rule_ids import rule_texts
from splendor_rules.compiler.frontend.schema import schema
from splendor_rules.compiler.runtime.api import playout_engine
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.runtime.loading import EngineUnavailable, load_engine
from splendor_rules.compiler.tools import records
from splendor_rules.compiler.tools.records.catalog import catalog_of_description
from splendor_rules.compiler.tools.simulate.hidden import zone_kinds

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = edition_files()
VARIANTS = sorted((Path(__file__).resolve().parent / "variants").glob("*.rules"))
RULE_FILES = [*EDITIONS, *VARIANTS]
GAMES = 3  # random games per rule file for the behaviour checks
MAX_PLIES = 3000

Json = dict[str, Any]


def _model(path: Path) -> m.Edition:
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


_ENGINES: dict[Path, list[tuple[str, Any]]] = {}


def engines_of(path: Path, root: Path) -> list[tuple[str, Any]]:
    """The engines of a rule file by kind: a shipped edition's committed
    generated engine, its interpreter and its native engine (where built);
    a variant's, rendered and built from its model (tests/engine_modules.py)."""
    if path not in _ENGINES:
        model = _model(path)
        found: list[tuple[str, Any]] = [("interpreted", InterpretedEngine(model))]
        if path in EDITIONS:
            found.append(("generated", load_engine(model.name, "generated")))
            with contextlib.suppress(EngineUnavailable):  # a native engine not built
                found.append(("native", load_engine(model.name, "native")))
        elif native_available() is None:
            native = native_engine_module(model, root)
            found += [("generated", native._py), ("native", native)]
        else:
            folder = root / f"py_{path.stem}"
            folder.mkdir()
            found.append(("generated", engine_module(model, folder)))
        _ENGINES[path] = found
    return _ENGINES[path]


@pytest.fixture(scope="session")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("described")


def _ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.stem}" for p in paths]


def test_every_edition_and_variant_is_described() -> None:
    assert len(EDITIONS) >= 3 and len(VARIANTS) >= 1


# ------------------------------------------------------ the same everywhere


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_every_engine_of_a_model_gives_its_description(path: Path, root: Path) -> None:
    """The generated, interpreted and native engines give the description
    the front end makes of the model, but for capabilities: only the
    native engine plays out games, and `playout_engine` says so."""
    expected = describe(_model(path))
    kinds = {kind: engine for kind, engine in engines_of(path, root)}
    assert {"generated", "interpreted"} <= set(kinds)
    for kind, engine in kinds.items():
        description = engine.DESCRIPTION
        playouts = kind == "native"
        assert description["capabilities"] == {"playouts": playouts}, kind
        assert {**description, "capabilities": expected["capabilities"]} == expected, kind
        assert (playout_engine(engine) is engine) is playouts, kind


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_a_description_is_json_and_deterministic(path: Path, root: Path) -> None:
    for kind, engine in engines_of(path, root):
        description = engine.DESCRIPTION
        text = json.dumps(description, sort_keys=False)
        assert json.loads(text) == description, kind  # str keys, lists, no tuples
        assert description["schema"] == SCHEMA
    first, second = describe(_model(path)), describe(_model(path))
    assert json.dumps(first) == json.dumps(second)  # the same order too


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_the_description_carries_the_identities(path: Path) -> None:
    """Decks, tiles and move shapes as frontend/identities.py numbers them,
    read back through the records catalog."""
    model = _model(path)
    description = describe(model)
    catalog = catalog_of_description(description)
    decks = identities.decks(model)
    tiles = identities.tile_numbering(model)
    assert catalog.tiers == decks.tiers and catalog.card_tiers == decks.card_tier
    assert [d["face_up"] for d in description["decks"]] == list(decks.face_up)
    assert catalog.tile_sets == tiles.set_faces and catalog.tile_count == tiles.count
    assert dict(catalog.moves) == identities.signatures(model)
    assert catalog.rule_ids == frozenset(model.rule_ids)
    assert catalog.tokens == tuple(t.name for t in model.tokens)
    assert catalog.zones == {z.name: (z.content, z.hidden_from_deck) for z in model.zones}
    for faces in tiles.set_tiles.values():  # faces of one tile share their physical tile
        for tile in faces:
            assert len({catalog.physical[face] for face in tile}) == 1
    assert len(set(catalog.physical.values())) == tiles.physical_count + len(model.majorities)


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_every_rule_has_the_text_of_its_reference(path: Path) -> None:
    """Each id a reference defines comes with that reference's words; an id
    that no reference defines, with none."""
    model = _model(path)
    rules = describe(model)["rules"]
    assert [r["id"] for r in rules if r["reference"]] == [t.rule_id for t in model.rule_texts]
    assert {r["id"] for r in rules} == set(model.rule_ids)
    for rule in rules:
        if rule["reference"] is None:
            assert rule["text"] is None
            continue
        reference = _reference_words(path, rule["reference"])
        assert rule["text"] and rule["text"] in reference, rule["id"]
        assert f"{rule['id']} {rule['title']}".strip() in reference, rule["id"]


def _reference_words(rule_file: Path, name: str) -> str:
    """A reference's text as one line of words, bold marks removed: it is
    beside the rule file or beside an edition it extends."""
    for folder in (rule_file.parent, EDITIONS[0].parent):
        if (folder / name).is_file():
            text = (folder / name).read_text(encoding="utf-8").replace("**", "")
            return " ".join(text.split())
    raise AssertionError(f"no reference {name}")


def test_the_rule_texts_of_classic_read_as_the_rulebook() -> None:
    """One rule read in full: the words after the id, up to the next id."""
    path = next(p for p in EDITIONS if p.stem == "classic")
    rules = {r["id"]: r for r in describe(_model(path))["rules"]}
    assert rules["S-3.1"]["title"] == "take distinct"
    assert rules["S-3.1"]["text"].startswith("Take 1 token of each of 3 different payable")
    assert rules["S-3.1"]["text"].endswith("can never be taken this way.")
    assert rules["S-3.1"]["reference"] == "RULES.md"


# ---------------------------------------------- what the engines do agrees


def _fits(kind: str, value: Any, description: Json) -> bool:
    """Whether a move's value has the kind its shape declares."""
    tokens = [t["name"] for t in description["tokens"]]
    if kind.startswith("set:"):
        return isinstance(value, tuple) and all(_fits(kind[4:], v, description) for v in value)
    if kind == "token":
        return value in tokens
    if kind == "card":
        if isinstance(value, tuple):  # a deck's top card
            return value[0] == "deck" and value[1] in [d["name"] for d in description["decks"]]
        return type(value) is int and 0 <= value < description["cards"]["count"]
    if kind == "tile":
        return type(value) is int and 0 <= value < description["tiles"]["count"]
    if kind in ("pay", "tokens"):  # an amount per token kind
        return isinstance(value, tuple) and len(value) == len(tokens)
    if kind == "player":  # a seat chosen by a move (docs/engine.md, "Actions")
        return type(value) is int and 0 <= value < description["players"]["max"]
    if kind == "cell":  # a cell of the board, by number (docs/engine.md, "The board")
        board = description["board"]
        return type(value) is int and 0 <= value < board["rows"] * board["columns"]
    return False


def _games(engine: Any, seed: int) -> Any:
    """The states of a random game, the first included."""
    rng = random.Random(seed)
    state = engine.new_game(engine.PLAYERS.start + seed % len(engine.PLAYERS), seed)
    for _ in range(MAX_PLIES):
        yield state
        if engine.is_over(state):
            return
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_every_legal_move_has_a_declared_shape(path: Path, root: Path) -> None:
    engine = dict(engines_of(path, root))["generated"]
    description = engine.DESCRIPTION
    shapes = {move["name"]: move["choices"] for move in description["moves"]}
    declinable = {move["name"] for move in description["moves"] if move.get("declinable")}
    seen: set[str] = set()
    for seed in range(GAMES):
        for state in _games(engine, seed):
            for action in engine.legal_actions(state):
                assert action[0] in shapes, action
                choices = shapes[action[0]]
                assert len(action) == 1 + len(choices), (action, choices)
                if action[0] in declinable and action[1:] == (None,):
                    continue  # a declined follow-up (`may choose`): null
                for (_, kind), value in zip(choices, action[1:], strict=True):
                    assert _fits(kind, value, description), (action, kind, value)
                seen.add(action[0])
    assert seen & {a["name"] for a in description["actions"]}


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_what_a_zone_hides_no_other_seat_sees(path: Path, root: Path) -> None:
    """A card taken from a deck into a zone whose deck cards only the owner
    sees is in the owner's view and in no other seat's; every other zone is
    shown alike to every seat; a view shows the decks' sizes alone."""
    engine = dict(engines_of(path, root))["generated"]
    zones = [z for z in engine.DESCRIPTION["zones"] if z["owner"] == "player"]
    hiding = {z["name"] for z in zones if z["deck_cards_seen_by"] == "owner"}
    hidden = 0
    for seed in range(GAMES):
        for state in _games(engine, seed):
            full = engine.to_json(state)
            for viewer in range(full["players"]):
                view = engine.view(state, viewer)
                assert all(type(size) is int for size in view["decks"].values())
                hidden += _compare_seats(full, view, viewer, [z["name"] for z in zones], hiding)
    assert hidden or not hiding  # the games did hide some card from a seat


def _compare_seats(full: Json, view: Json, viewer: int, zones: list[str], hiding: set[str]) -> int:
    """Each seat's zones in a viewer's view against the state: the hidden
    cards of a hiding zone of another seat are not shown; all else is.
    The number of cards hidden from the viewer."""
    secret = set(full["hidden"])
    hidden = 0
    for seat, (held_zones, seen_zones) in enumerate(zip(full["seats"], view["seats"], strict=True)):
        for name in zones:
            held, seen = held_zones["zones"][name], seen_zones["zones"][name]
            if seat == viewer or name not in hiding:
                assert seen == held, (name, seat, viewer)
                continue
            leaked = secret & {c for c in seen if isinstance(c, int)}
            assert not leaked, (name, seat, viewer, leaked)
            hidden += len([c for c in held if c in secret])
    return hidden


# ------------------------------------------------- the parts, one by one


def test_rule_texts_run_from_an_id_to_the_next_or_the_end_of_its_item() -> None:
    text = (
        "# Rules\n\n"
        "- **A-1.1 take one.** Take a token\n"
        "  of any colour. **A-1.1a** Never two.\n"
        "- **A-1.2** Pay **all** of it.\n\n"
        "A paragraph: **A-2.1** Ends here.\n"
        "And goes on here.\n\n"
        "**B-1.1** Another prefix.\n"
    )
    texts = rule_texts(text, "BOOK.md", {"A-1.1", "A-1.1a", "A-1.2", "A-2.1"})
    assert [(t.rule_id, t.title, t.text) for t in texts] == [
        ("A-1.1", "take one", "Take a token of any colour."),
        ("A-1.1a", "", "Never two."),
        ("A-1.2", "", "Pay all of it."),
        ("A-2.1", "", "Ends here. And goes on here."),
    ]
    assert {t.reference for t in texts} == {"BOOK.md"}


def test_a_laid_out_literal_reads_back_and_fits_its_width() -> None:
    """The generated DESCRIPTION is a literal: printed from a tree, over
    lines of at most 99 characters but for a text longer than that."""
    value = {
        "short": [1, 2, 3],
        "numbers": list(range(60)),
        "nested": [{"name": f"n{i}", "text": "word " * 5, "none": None} for i in range(4)],
        "long": "x" * 150,
        "empty": {},
        "flag": True,
    }
    text = printer.laid_out(py.data(value), lead=len("DESCRIPTION: Final[dict[str, Any]] = "))
    assert ast.literal_eval(text) == value
    assert all(len(line) <= 99 for line in text.splitlines() if "x" * 100 not in line)
    assert printer.laid_out(py.data({"a": [1]})) == "{'a': [1]}"  # one line when it fits
    with pytest.raises(TypeError):
        py.data({1: "a number is no key"})


def test_the_records_catalog_runs_no_front_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalog of an edition is read from its engine's description."""

    def no_compile(*args: object) -> None:
        raise AssertionError("the front end ran")

    monkeypatch.setattr(pipeline, "_compile", no_compile)
    records.catalog.cache_clear()
    try:
        cat = records.catalog("classic")
    finally:
        records.catalog.cache_clear()
    assert cat == catalog_of_description(load_engine("classic").DESCRIPTION)
    assert cat.zones["reserved"] == ("cards", True)


class _NoFromJson:
    """An engine whose from_json refuses everything: what the description
    says must be enough."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        if name == "from_json":
            raise AssertionError("from_json was asked")
        return getattr(self.engine, name)


@pytest.mark.parametrize("path", EDITIONS, ids=_ids(EDITIONS))
def test_simulate_reads_the_zones_from_the_description(path: Path) -> None:
    engine = load_engine(_model(path).name)
    kinds = zone_kinds(_NoFromJson(engine), 2)  # type: ignore[arg-type]
    zones = [z for z in engine.DESCRIPTION["zones"] if z["owner"] == "player"]
    assert kinds.cards == {z["name"] for z in zones if z["holds"] == "cards"}
    assert kinds.hiding == {z["name"] for z in zones if z["deck_cards_seen_by"] == "owner"}


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_the_card_and_tile_rows_are_the_data(path: Path) -> None:
    """Each card and each tile face is a row of its cells, in its table's
    columns' order (a number per colour as a list), numbered as the engine
    numbers them."""
    model = _model(path)
    description = describe(model)

    def cells(table: m.Table, row: Any) -> list[Any]:
        found = (row.get(c.name) for c in table.columns)
        return [list(v) if isinstance(v, tuple) else v for v in found]

    cards = description["cards"]
    assert [c["name"] for c in cards["columns"]] == [c.name for c in model.cards.columns]
    assert cards["rows"] == [cells(model.cards, row) for row in model.cards.rows]
    assert len(cards["rows"]) == cards["count"]
    numbering = identities.tile_numbering(model)
    for described, table in zip(description["tiles"]["sets"], model.tile_sets, strict=True):
        assert described["rows"] == [cells(table, row) for row in table.rows]
        for face, row in zip(described["faces"], table.rows, strict=True):
            assert numbering.rows[face] == row


def test_the_labels_run_no_front_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards and tiles are named from the engine's description."""
    from splendor_rules.compiler.tools import labels

    def no_compile(*args: object) -> None:
        raise AssertionError("the front end ran")

    monkeypatch.setattr(pipeline, "_compile", no_compile)
    monkeypatch.setattr(labels, "_DATA", {})
    data = labels.edition_data("classic")
    assert len(data.cards) == load_engine("classic").DESCRIPTION["cards"]["count"]
    assert data.card_label(0).startswith("card 0 (")
    assert data == labels.data_of(load_engine("classic").DESCRIPTION)


@pytest.mark.parametrize("path", RULE_FILES, ids=_ids(RULE_FILES))
def test_the_zones_are_the_places_of_the_state_schema(path: Path) -> None:
    """One source: each place of the schema (a seat's zones, then the
    shared fields of the JSON form) is a zone, seen as the schema says."""
    model = _model(path)
    the = schema(model)
    zones = describe(model)["zones"]
    places = [*the.seat_places, *the.shared_places]
    assert [(z["name"], z["holds"]) for z in zones] == [(p.name, p.holds) for p in places]
    seat_zones = the.field("zones").names
    assert [z["name"] for z in zones if z["owner"] == "player"] == list(seat_zones)
    shared = [z["name"] for z in zones if z["owner"] == "shared"]
    assert shared == [f.key for f in the.fields if f.places]
    hiding = {z.name for z in model.zones if z.hidden_from_deck}
    assert {z["name"] for z in zones if z["deck_cards_seen_by"] == "owner"} == hiding
    assert [z["name"] for z in zones if z["seen_by"] == "nobody"] == [
        f.key for f in the.fields if f.seen == "sizes"
    ]
