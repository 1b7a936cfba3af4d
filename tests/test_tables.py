"""Card tables: column kinds (`one of`, `colour or none`, `default`), several
card tables, several markets (docs/language.md, "Cards and tiles").

Each construct is checked in the model, at its misuses (the diagnostic and
where it points), and in both engines, which must agree on random games.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
import test_differential as differential
from engine_modules import variant_engines
from fuzz.engines import import_engine

from splendor_rules.compiler.backend.python import codegen
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.tools import records
from splendor_rules.compiler.tools.simulate.hidden import determinize
from splendor_rules.dsl.diagnostics import Sources
from splendor_rules.dsl.diagnostics import render as render_diagnostic

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "variants" / "data" / "two_markets_cards.csv"
COST = (
    'per colour {white: "cost_white", blue: "cost_blue", green: "cost_green", '
    'red: "cost_red", black: "cost_black"}'
)
KINDS = '"plain", "white", "blue", "green", "red", "black", "joker"'
# The small table of tests/variants/data as the only card table of a classic child.
MAIN_TABLE = f"""
  override cards from "cards.csv" with 12 rows {{
    tier: int 1..3
    kind: one of {KINDS}
    bonus: colour or none {{joker: none, plain: none}} from "kind"
    points: int
    cost: {COST}
    sacrifice_colour: colour or none
    sacrifice_count: int 0..2
  }}
  override [S-2.1] market by tier {{1: 4, 2: 4, 3: 4}}, 2 face up each
"""


def compiled(folder: Path, body: str, csv: str | None = None) -> tuple[Compiled, list[str]]:
    """A child of classic with `body`, written to `folder` beside the CSV."""
    (folder / "cards.csv").write_text(csv or DATA.read_text(encoding="utf-8"), encoding="utf-8")
    path = folder / "child.rules"
    path.write_text(f'edition child "child" extends classic {{\n{body}\n}}\n', encoding="utf-8")
    sources = Sources()
    result = compile_file(path, sources)
    shown = [render_diagnostic(d, sources) for d in result.diagnostics if d.severity == "error"]
    return result, shown


def model_of(folder: Path, body: str, csv: str | None = None) -> m.Edition:
    result, errors = compiled(folder, body, csv)
    assert result.model is not None and not errors, "\n".join(errors)
    return result.model


def errors_of(folder: Path, body: str, csv: str | None = None) -> str:
    _, errors = compiled(folder, body, csv)
    assert errors, "expected errors"
    return "\n".join(errors)


def engines(model: m.Edition, folder: Path) -> tuple[Any, InterpretedEngine]:
    """The generated engine (rendered and imported) and the interpreter."""
    generated = import_engine(codegen.render_engine(model, ROOT), folder)
    return generated, InterpretedEngine(model)


def agree(model: m.Edition, folder: Path, games: int = 6, plies: int = 400) -> int:
    """Random games, 2 to 4 players, in both engines, compared after every
    action (tests/test_differential.py); the number of games that ended."""
    generated, interpreter = engines(model, folder)
    differential.REFERENCE[model.name] = interpreter
    ended = 0
    try:
        for i in range(games):
            sides = (
                differential.Side("generated", generated),
                differential.Side("interpreter", interpreter),
            )
            diff = differential.Differential(model.name, 2 + i % 3, i, i % 2, sides)
            rng = random.Random(i)
            ended += differential.play(
                diff, rng.randrange, plies, differential.probe_with(rng.randrange)
            )
    finally:
        del differential.REFERENCE[model.name]
    return ended


# ------------------------------------------------------- column kinds


def test_one_of_column_holds_its_texts(tmp_path: Path) -> None:
    model = model_of(tmp_path, MAIN_TABLE)
    kind = next(c for c in model.cards.columns if c.name == "kind")
    assert kind.type == "text"
    assert kind.values == ("plain", "white", "blue", "green", "red", "black", "joker")
    assert [row["kind"] for row in model.cards.rows][:4] == ["joker", "white", "blue", "plain"]


def test_one_of_cell_outside_its_set_is_reported_at_the_cell(tmp_path: Path) -> None:
    csv = DATA.read_text(encoding="utf-8").replace("2,joker,1", "2,jocker,1")
    shown = errors_of(tmp_path, MAIN_TABLE, csv)
    assert "cards.csv:7:3: error: 'jocker' is not one of the values of column 'kind'" in shown
    assert "did you mean 'joker'?" in shown


def test_string_literal_outside_the_set_has_a_hint(tmp_path: Path) -> None:
    body = (
        MAIN_TABLE
        + """
  override [S-3.5] action buy "buy a card" {
    choose k from market, reserved
    require k.kind != "jokr" else "no jokers"
    pay k.cost less bonus
    move k to bought
  }"""
    )
    shown = errors_of(tmp_path, body)
    assert "error: \"jokr\" is never a value of column 'kind' (did you mean 'joker'?)" in shown


def test_texts_compare_only_for_equality(tmp_path: Path) -> None:
    body = (
        MAIN_TABLE
        + """
  define jokers = count(k in bought where k.kind < "joker")"""
    )
    assert "error:" in errors_of(tmp_path, body)


def test_colour_or_none_reads_empty_cells_and_mapped_values_as_none(tmp_path: Path) -> None:
    model = model_of(tmp_path, MAIN_TABLE)
    rows = model.cards.rows
    assert [row["bonus"] for row in rows][:4] == [None, "white", "blue", None]
    assert [row["sacrifice_colour"] for row in rows][:4] == [None, None, None, "red"]
    bonus = next(c for c in model.cards.columns if c.name == "bonus")
    assert bonus.type == "colour" and bonus.none


def test_none_is_a_colour_equal_to_no_colour(tmp_path: Path) -> None:
    """`k.bonus == c` is false for a card with no bonus; `none` names it."""
    body = (
        MAIN_TABLE
        + """
  define colourless = count(k in bought where k.bonus == none)
  override [C-5.1] score = sum(bought.points) + colourless"""
    )
    model = model_of(tmp_path, body)
    generated, interpreter = engines(model, tmp_path)
    for engine in (generated, interpreter):
        state = with_bought(engine, engine.new_game(2, 1, 0), [0, 1, 3])
        # Cards 0 (joker) and 3 (plain) have no bonus; card 1 is white.
        assert engine.scores(state)[0] == 2


def with_bought(engine: Any, state: Any, cards: list[int]) -> Any:
    """The position with these cards moved to the first player's bought zone."""
    data = engine.to_json(state)
    for where in ("decks", "market"):
        for key, row in data[where].items():
            data[where][key] = [k if k not in cards else None for k in row]
            if where == "decks":
                data[where][key] = [k for k in data[where][key] if k is not None]
    data["seats"][0]["zones"]["bought"] = cards
    return engine.from_json(data, complete=False)


def test_column_kinds_agree_in_both_engines(tmp_path: Path) -> None:
    body = (
        MAIN_TABLE
        + """
  override [S-3.5] action buy "buy a card" {
    choose k from market, reserved
    require k.kind != "joker" or any(c in colours: bonus[c] > 0) else "a joker needs a bonus"
    let given = bonus[k.sacrifice_colour]
    require k.sacrifice_colour == none or given >= k.sacrifice_count else "too few"
    pay k.cost less bonus
    move k to bought
  }"""
    )
    assert agree(model_of(tmp_path, body), tmp_path) >= 1


def test_none_is_no_token_kind(tmp_path: Path) -> None:
    body = (
        MAIN_TABLE
        + """
  define spare = count(k in bought where supply(k.bonus) > 0)"""
    )
    assert "error: this may be none (no colour), which is no token kind" in errors_of(
        tmp_path, body
    )
    body = (
        MAIN_TABLE
        + """
  define spare = supply(none)"""
    )
    assert "error: this may be none (no colour), which is no token kind" in errors_of(
        tmp_path, body
    )


def test_default_must_fit_its_column(tmp_path: Path) -> None:
    body = MAIN_TABLE.replace("sacrifice_count: int 0..2", "sacrifice_count: int 0..2 default 5")
    assert "5 is outside 0..2 (column 'sacrifice_count')" in errors_of(tmp_path, body)
    body = MAIN_TABLE.replace(f"one of {KINDS}", f'one of {KINDS} default "jokr"')
    assert "'jokr' is not one of the values of column 'kind'" in errors_of(tmp_path, body)
    body = MAIN_TABLE.replace("points: int", "points: int default true")
    assert "the default of column 'points' is not a whole number" in errors_of(tmp_path, body)


# ------------------------------------------------ several card tables

VARIANT = ROOT / "tests" / "variants" / "two_markets.rules"
ORIENT_CSV = ROOT / "editions" / "data" / "orient_cards.csv"
ORIENT_TABLE = f"""
  cards orient from "orient_cards.csv" with 30 rows {{
    tier: int 1..3
    kind: one of "plain", "white", "blue", "green", "red", "black", "joker", "gold" default "plain"
    bonus: colour or none {{joker: none, gold: none}} from "kind"
    bonuses: int 0..2 default 1
    points: int
    cost: {COST}
    free_tier: int 0..2 default 0
    sacrifice_colour: colour or none default none
    sacrifice_count: int 0..2 default 0
  }}
  market orient from orient by tier {{1: 10, 2: 10, 3: 10}}, 2 face up each
"""


def variant() -> m.Edition:
    result = compile_file(VARIANT)
    assert result.model is not None, result.diagnostics
    return result.model


def test_orient_cards_read_as_the_plan_declares_them(tmp_path: Path) -> None:
    """editions/data/orient_cards.csv, read by a named table declared as in
    ORIENT_PLAN.md: numbered after classic's 90 cards, with defaults for
    the classic cards."""
    (tmp_path / "orient_cards.csv").write_bytes(ORIENT_CSV.read_bytes())
    model = model_of(tmp_path, ORIENT_TABLE)
    rows = model.cards.rows
    assert len(rows) == 120 and [t.name for t in model.card_tables] == ["orient"]
    classic, orient = rows[:90], rows[90:]
    assert all(r["kind"] == "plain" and r["bonuses"] == 1 for r in classic)
    assert all(r["sacrifice_colour"] is None and r["free_tier"] == 0 for r in classic)
    assert {r["kind"] for r in orient} == {
        "joker",
        "gold",
        "white",
        "blue",
        "green",
        "red",
        "black",
    }
    assert all(r["bonus"] is None for r in orient if r["kind"] in ("joker", "gold"))
    assert all(r["bonus"] == r["kind"] for r in orient if r["kind"] not in ("joker", "gold"))
    assert sum(r["sacrifice_colour"] is not None for r in orient) == 5
    decks = identities.decks(model)
    assert decks.tiers == (1, 2, 3, "orient 1", "orient 2", "orient 3")
    assert decks.face_up == (4, 4, 4, 2, 2, 2)
    assert decks.deck_cards[3] == tuple(range(90, 100))


def test_classic_cards_keep_their_numbers() -> None:
    classic = compile_file(ROOT / "editions" / "classic.rules").model
    model = variant()
    assert classic is not None
    assert identities.table_cards(model) == {None: range(90), "extra": range(90, 102)}
    assert [r["points"] for r in model.cards.rows[:90]] == [r["points"] for r in classic.cards.rows]
    assert identities.decks(model).deck_cards[:3] == identities.decks(classic).deck_cards


def test_a_column_has_one_type_in_every_table(tmp_path: Path) -> None:
    (tmp_path / "orient_cards.csv").write_bytes(ORIENT_CSV.read_bytes())
    body = ORIENT_TABLE.replace("    points: int\n", "    points: bool\n")
    shown = errors_of(tmp_path, body)
    assert (
        "column 'points' of card table 'orient' is bool, but the unnamed card table declares it int"
        in shown
    )


def test_a_column_a_table_lacks_needs_a_default(tmp_path: Path) -> None:
    (tmp_path / "orient_cards.csv").write_bytes(ORIENT_CSV.read_bytes())
    body = ORIENT_TABLE.replace("free_tier: int 0..2 default 0", "free_tier: int 0..2")
    shown = errors_of(tmp_path, body)
    assert (
        "column 'free_tier' has no default, and the unnamed card table lacks it (add one:" in shown
    )


def test_a_table_needs_a_market_and_a_market_a_table(tmp_path: Path) -> None:
    (tmp_path / "orient_cards.csv").write_bytes(ORIENT_CSV.read_bytes())
    lines = ORIENT_TABLE.splitlines()
    no_market = "\n".join(line for line in lines if not line.strip().startswith("market"))
    assert "the cards of card table 'orient' are in no market" in errors_of(tmp_path, no_market)
    wrong = ORIENT_TABLE.replace("market orient from orient", "market orient from orientt")
    assert "unknown card table 'orientt' (did you mean 'orient'?)" in errors_of(tmp_path, wrong)
    sizes = ORIENT_TABLE.replace("{1: 10, 2: 10, 3: 10}", "{1: 10, 2: 10, 3: 9}")
    assert "error:" in errors_of(tmp_path, sizes)


def test_tables_and_markets_are_overridden_and_removed_by_name(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "two_markets_cards.csv").write_bytes(DATA.read_bytes())
    (tmp_path / "two_markets.rules").write_bytes(VARIANT.read_bytes())
    child = tmp_path / "child.rules"
    child.write_text(
        'edition child "child" extends two_markets {\n'
        "  override market extra from extra by tier {1: 4, 2: 4, 3: 4}, 1 face up each\n}\n",
        encoding="utf-8",
    )
    result = compile_file(child)
    assert result.model is not None, result.diagnostics
    assert identities.decks(result.model).face_up == (4, 4, 4, 1, 1, 1)
    child.write_text(
        'edition child "child" extends two_markets {\n'
        "  remove market extra\n  remove cards extra\n"
        '  override [S-3.5] action buy "buy a card" {\n'
        "    choose k from market, reserved\n    pay k.cost less bonus\n    move k to bought\n"
        "  }\n}\n",
        encoding="utf-8",
    )
    result = compile_file(child)
    assert result.model is not None, result.diagnostics
    assert len(result.model.cards.rows) == 90 and not result.model.markets


# ------------------------------------------------------ several markets


def test_every_market_shows_its_own_face_up_cards() -> None:
    model = variant()
    generated, interpreter = engines(model, Path(tempfile.mkdtemp()))
    for engine in (generated, interpreter):
        data = engine.to_json(engine.new_game(3, 7, 0))
        assert list(data["market"]) == ["1", "2", "3", "extra 1", "extra 2", "extra 3"]
        assert [len(row) for row in data["market"].values()] == [4, 4, 4, 2, 2, 2]
        assert [len(deck) for deck in data["decks"].values()] == [36, 26, 16, 2, 2, 2]
        extra = [k for key, row in data["market"].items() if key.startswith("extra") for k in row]
        assert all(90 <= k < 102 for k in extra)


def test_a_named_market_refills_from_its_own_deck_and_shows_its_deck_tops() -> None:
    model = variant()
    generated, interpreter = engines(model, Path(tempfile.mkdtemp()))
    for engine in (generated, interpreter):
        state = engine.new_game(2, 3, 0)
        data = engine.to_json(state)
        top = data["decks"]["extra 1"][-1]
        reserves = [a for a in engine.legal_actions(state) if a[0] == "reserve"]
        assert ("reserve", ("deck", "extra 1")) in reserves
        taken = data["market"]["extra 1"][0]
        after = engine.to_json(engine.apply(state, ("reserve", taken)))
        assert after["market"]["extra 1"] == [top, data["market"]["extra 1"][1]]
        assert after["seats"][0]["zones"]["reserved"] == [taken]
        assert engine.action_to_json(("reserve", ("deck", "extra 2")))["k"] == {"deck": "extra 2"}


def test_hidden_cards_are_dealt_back_to_every_deck() -> None:
    model = variant()
    generated, _ = engines(model, Path(tempfile.mkdtemp()))
    state = generated.apply(generated.new_game(2, 5, 0), ("reserve", ("deck", "extra 1")))
    view = generated.view(state, 1)
    assert view["seats"][0]["zones"]["reserved"] == [{"deck": "extra 1"}]
    dealt = determinize(generated, view, random.Random(1))
    assert {key: len(cards) for key, cards in dealt["decks"].items()} == view["decks"]
    assert all(
        identities.decks(model).card_tier[k] == (int(key) if key.isdigit() else key)
        for key, cards in dealt["decks"].items()
        for k in cards
    )
    reserved = dealt["seats"][0]["zones"]["reserved"]
    assert identities.decks(model).card_tier[reserved[0]] == "extra 1"
    generated.from_json(dealt)


def test_two_markets_variant_agrees_in_both_engines() -> None:
    """tests/variants/two_markets.rules: random games of 2 to 4 players,
    generated engine against the interpreter after every action."""
    assert agree(variant(), Path(tempfile.mkdtemp()), games=6, plies=600) >= 3


def test_records_name_a_named_market_s_decks() -> None:
    """Records (docs/records.md): `deck:extra:1` in the short form, the JSON
    `{"deck": "extra 1"}`, and a setup patch keyed by the deck's name."""
    model = variant()
    cat = records.catalog_of(model)
    data = records.parse_short("reserve deck:extra:1", cat)
    assert data == {"action": "reserve", "k": {"deck": "extra 1"}}
    assert records.short_form(data) == "reserve deck:extra:1"
    assert records.parse_short("reserve deck:2", cat)["k"] == {"deck": 2}
    checked = records.action_data({"do": "reserve deck:extra:3"}, cat)
    assert checked == {"action": "reserve", "k": {"deck": "extra 3"}}
    with pytest.raises(records.RecordError, match="no deck top"):
        records.action_data({"do": "reserve deck:extra:4"}, cat)
    generated, _ = engines(model, Path(tempfile.mkdtemp()))
    state = generated.to_json(generated.new_game(2, 1, 0))
    row = state["market"]["extra 2"]
    patched = records.apply_setup(state, {"market": {"extra 2": [row[1], row[0]]}}, cat)
    assert patched["market"]["extra 2"] == [row[1], row[0]]
    generated.from_json(patched)
    with pytest.raises(records.RecordError, match="a row has 2 slots, not 3"):
        records.apply_setup(state, {"market": {"extra 2": [row[0], row[1], None]}}, cat)


# A colour that may be none, reaching `gain` through a local: the generated
# engine took -1 for the last token kind (found in review; the checker refuses
# only a column written in the gain itself).
NONE_THROUGH_A_LOCAL = """\
edition nonegain "None gained" {
  players 2..2
  colours white, blue, green, red, black
  token gold: wild
  cards from "data/cards.csv" with 4 rows {
    tier: int 1..1
    bonus: colour or none
    points: int
    cost: per colour
  }
  zone bought: cards of each player
  market by tier {1: 4}, 2 face up each
  supply {
    each colour: 4
    gold: 5
  }
  action grab "grab a card" {
    choose k from market
    let c = k.bonus
    move k to bought
    gain 1 c
  }
  action pass: only when no other action is legal
  score = sum(bought.points)
  end done: after the round once any(player: count(bought) >= 2)
  end stalemate: after a round that ends with all(player: did(pass))
  winners: highest score, ties share
}
"""
NONE_CARDS = """\
tier,bonus,points,white,blue,green,red,black
1,,0,0,0,0,0,0
1,white,0,0,0,0,0,0
1,,1,0,0,0,0,0
1,red,0,0,0,0,0,0
"""


def test_a_none_colour_through_a_local_gains_nothing_in_both_engines(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cards.csv").write_text(NONE_CARDS, encoding="utf-8")
    rules = tmp_path / "nonegain.rules"
    rules.write_text(NONE_THROUGH_A_LOCAL, encoding="utf-8")
    generated, interpreter = variant_engines(rules, tmp_path)
    for seed in range(12):
        a, b = generated.new_game(2, seed), interpreter.new_game(2, seed)
        rng = random.Random(seed)
        while not generated.is_over(a):
            legal = generated.legal_actions(a)
            assert legal == interpreter.legal_actions(b)
            move = rng.choice(legal)
            a, b = generated.apply(a, move), interpreter.apply(b, move)
            assert generated.to_json(a) == interpreter.to_json(b), (seed, move)
