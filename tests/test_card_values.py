"""Card values (`card value NAME: TYPE`, `set k.NAME = v`) and definitions
with parameters (`define NAME(p: TYPE) = ...`): both engines, the checker's
diagnostics, the JSON form with card values and its refusals.

The variant tests/variants/card_values.rules uses both in a way that plays:
it is compiled here, its generated engine written to a temporary folder, and
whole games are compared with the reference interpreter by the shipped
differential harness (tests/test_differential.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import test_differential as differential
from engine_modules import engine_module

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "card_values.rules"


def checked(path: Path) -> m.Edition:
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


Engines = tuple[ModuleType, InterpretedEngine]


def engines_of(path: Path, folder: Path) -> Engines:
    model = checked(path)
    return engine_module(model, folder), InterpretedEngine(model)


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Engines:
    return engines_of(VARIANT, tmp_path_factory.mktemp("card_values"))


# ------------------------------------------------------------ the variant


@pytest.mark.parametrize("seed", range(4))
def test_variant_games_agree(variant: Engines, seed: int) -> None:
    """Whole games of the variant: the generated engine and the interpreter
    agree after every action (states, views, legal actions, scores)."""
    diff = games_agree(variant, "card_values", seed)
    marked = list(diff.a.engine.to_json(diff.sa)["card_values"]["marked"].values())
    assert diff.plies > 20 and marked, "the game should mark some cards"


def games_agree(engines: Engines, name: str, seed: int) -> differential.Differential:
    """A whole game played in both engines, compared after every action."""
    generated, interpreter = engines
    sides = (
        differential.Side("generated", generated),  # type: ignore[arg-type]
        differential.Side("interpreter", interpreter),
    )
    differential.REFERENCE[name] = interpreter
    try:
        rng = random.Random(seed)
        diff = differential.Differential(name, 2 + seed % 3, seed, 0, sides)
        differential.play(diff, rng.randrange, 400, differential.probe_with(rng.randrange))
    finally:
        differential.REFERENCE.pop(name, None)
    return diff


# ------------------------------------------------------------ the probe

# Card values of each type, a tally and a sum over them, a definition with
# parameters in a requirement and in the score, a message showing a colour
# that may be none, and a vector read at such a colour.
PROBE = """
edition probe_values "Card values probed" extends classic {
  card value taken: colour
  card value hits: int
  card value seen: bool

  define tally_taken = per colour c: count(k in bought where k.taken == c)
  define taken_or(k: card, c: colour) = k.taken if k.seen else c
  define at_taken(k: card) = bonus[k.taken]

  action mark "mark a card" {
    choose k from bought
    choose c from colours
    let was = k.taken
    require taken_or(k, blue) != green else "card {k} was taken {k.taken}, not green"
    require supply(was) < 99 else "{was} is never that plentiful"
    set k.taken = c
    gain 1 was
    set k.hits = k.hits + 1
    set k.seen = true
  }

  # kept by the generated engine as cards move, and as values are set
  define taken_points = per colour c: sum(k in bought where k.taken == c: k.points + 1)

  override [C-5.1] score = sum(bought.points) + 10 * tally_taken[red] \
    + 100 * sum(bought.hits) + 1000 * count(k in bought where taken_or(k, white) == white) \
    + 10000 * count(k in bought where at_taken(k) > 0) + 100000 * taken_points[green]
  define heavy(t: tile) = t.points >= 0
  override [C-4.2] step claim_tile: claim one noble n into won \
    where all(c in colours: bonus[c] >= n.requires[c]) and heavy(n)
  # (the score is a probe: the game ends on cards bought instead)
  override [C-5.2] end target: after the round once any(player: count(bought) >= 5)
}
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Engines:
    folder = tmp_path_factory.mktemp("probe_values")
    path = folder / "probe_values.rules"
    path.write_text(PROBE, encoding="utf-8")
    return engines_of(path, folder)


def with_bought(engine: Any, cards: list[int]) -> Any:
    """A hand-made position: seat 0 holds `cards` in bought, taken from
    wherever they were."""
    data = engine.to_json(engine.new_game(2, 7))
    for tier, deck in data["decks"].items():
        data["decks"][tier] = [k for k in deck if k not in cards]
    for tier, row in data["market"].items():
        data["market"][tier] = [None if k in cards else k for k in row]
    data["seats"][0]["zones"]["bought"] = cards
    return engine.from_json(data, complete=False)


def mark(engine: Any, state: Any, card: int, colour: str) -> Any:
    """Seat 0 marks a card of theirs (made the player to move first)."""
    data = engine.to_json(state)
    data["current_player"] = 0
    state = engine.from_json(data, complete=False)
    return engine.apply(state, engine.action_from_json({"action": "mark", "k": card, "c": colour}))


def card_rows(probe: Engines) -> Any:
    return probe[1].tables.model.cards.rows


def points(probe: Engines, cards: list[int]) -> int:
    return sum(int(card_rows(probe)[k]["points"]) for k in cards)


def held_bonus(probe: Engines, cards: list[int], colour: str) -> bool:
    return any(card_rows(probe)[k]["bonus"] == colour for k in cards)


@pytest.mark.parametrize("seed", range(3))
def test_probe_games_agree(probe: Engines, seed: int) -> None:
    """Whole games of the probe (marks of every colour, none read as a
    vector's entry, a supply, a token gained and a message) agree too."""
    diff = games_agree(probe, "probe_values", seed)
    assert diff.a.engine.to_json(diff.sa)["card_values"]["hits"], "some card should be marked"


def test_card_values_start_as_none_zero_and_false(probe: Engines) -> None:
    """Before any `set`: no colour equals a value never set, a vector read
    at it is 0, and the JSON form lists no card (every value is initial)."""
    for engine in probe:
        state = with_bought(engine, [0, 1])
        data = engine.to_json(state)
        assert data["card_values"] == {"taken": {}, "hits": {}, "seen": {}}
        # taken_or(k, white) is white for both unseen cards; nothing tallied.
        assert engine.scores(state)[0] == points(probe, [0, 1]) + 2000


def test_set_then_read_and_tally(probe: Engines) -> None:
    """`set` changes one card's values; reads, the tally per colour and the
    sum over the zone see the change at once (neither is a static column
    aggregate kept from the data)."""
    bought = [0, 1]
    for engine in probe:
        state = mark(engine, with_bought(engine, bought), 1, "red")
        data = engine.to_json(state)
        assert data["card_values"] == {"taken": {"1": "red"}, "hits": {"1": 1}, "seen": {"1": True}}
        # card 1: tallied red (10), one hit (100); card 0 still unseen (1000);
        # bonus[red] counts the red bonuses held (10000 if any).
        at_red = 10000 if held_bonus(probe, bought, "red") else 0
        assert engine.scores(state)[0] == points(probe, bought) + 10 + 100 + 1000 + at_red
        held = engine.to_json(state)["seats"][0]["tokens"]
        assert held == {}  # `gain 1 was`: none the first time, so nothing
        state = mark(engine, state, 1, "white")
        assert engine.to_json(state)["card_values"]["hits"] == {"1": 2}
        assert engine.to_json(state)["seats"][0]["tokens"] == {"red": 1}  # red the second
        at_white = 10000 if held_bonus(probe, bought, "white") else 0
        assert engine.scores(state)[0] == points(probe, bought) + 200 + 2000 + at_white


def test_card_value_reads_are_not_zone_aggregates(probe: Engines) -> None:
    """The generated engine keeps `sum(Z.column)` and tallies of a colour
    column up to date as cards move; a card value changes without a move,
    so neither is ever made such an aggregate. A sum over a filtered zone
    that reads card values is kept: setting a value takes the card out of
    its zone's aggregates and puts it back (`_set_value`)."""
    model = probe[1].tables.model
    kept = analysis.aggregates_in(model)
    columns = {column for _, _, column in kept}
    assert "points" in columns
    assert not columns & {"taken", "hits", "seen"}
    assert any(kind == "totals" for kind, _, _ in kept)


def test_a_kept_sum_follows_the_values_set(probe: Engines) -> None:
    """After marks, the kept per-colour sum over card values (in the score)
    is what the interpreter computes from scratch."""
    generated, interpreter = probe
    cards = [0, 8, 16]
    a, b = with_bought(generated, cards), with_bought(interpreter, cards)
    for card, colour in ((0, "red"), (8, "green"), (0, "green"), (16, "green")):
        a, b = mark(generated, a, card, colour), mark(interpreter, b, card, colour)
        assert generated.scores(a) == interpreter.scores(b)
    expected = sum(int(card_rows(probe)[k]["points"]) + 1 for k in (0, 8, 16))
    assert generated.scores(a)[0] // 100000 == expected


def test_parametrised_definition_in_a_requirement(probe: Engines) -> None:
    """`require taken_or(k, blue) != green`: refused once k was taken
    green, with the message showing the colour; a value never set shows
    as none."""
    for engine in probe:
        state = mark(engine, with_bought(engine, [0, 1]), 0, "green")
        with pytest.raises(ValueError, match="card 0 was taken green, not green"):
            mark(engine, state, 0, "red")
        assert mark(engine, state, 1, "red") is not None


def test_json_round_trip_and_view(probe: Engines) -> None:
    for engine in probe:
        state = mark(engine, with_bought(engine, [0, 1]), 1, "black")
        data = engine.to_json(state)
        again = engine.from_json(data, complete=False)
        assert engine.to_json(again) == data
        assert engine.view(state, 1)["card_values"] == data["card_values"]


HOSTILE = [
    ("unknown value", lambda d: d["card_values"].update(stray={}), "unknown card value 'stray'"),
    ("missing value", lambda d: d["card_values"].pop("hits"), "missing card value 'hits'"),
    ("not an object", lambda d: d["card_values"].update(hits=[]), "must be an object"),
    ("card -1", lambda d: d["card_values"]["hits"].update({"-1": 1}), "is not a card"),
    ("card 90", lambda d: d["card_values"]["hits"].update({"90": 1}), "is not a card"),
    ("card 01", lambda d: d["card_values"]["hits"].update({"01": 1}), "is not a card"),
    ("int key", lambda d: d["card_values"]["hits"].update({3: 1}), "is not a card"),
    ("bool for int", lambda d: d["card_values"]["hits"].update({"3": True}), "whole number"),
    ("int for bool", lambda d: d["card_values"]["seen"].update({"3": 1}), "true or false"),
    ("unknown colour", lambda d: d["card_values"]["taken"].update({"3": "gold"}), "a colour"),
    ("number colour", lambda d: d["card_values"]["taken"].update({"3": 2}), "a colour"),
]


@pytest.mark.parametrize(("case", "edit", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_card_values_are_refused_alike(
    probe: Engines, case: str, edit: Any, words: str
) -> None:
    """A bad `card_values` part: both engines refuse it, in the same words."""
    refusals = []
    for engine in probe:
        data = engine.to_json(mark(engine, with_bought(engine, [0, 1]), 1, "red"))
        edit(data)
        with pytest.raises(ValueError) as refused:
            engine.from_json(data, complete=False)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1]
    assert words in refusals[0]


def test_card_values_may_be_left_out_of_a_hand_made_position(probe: Engines) -> None:
    """A hand-made position (`complete=False`) may leave `card_values` out:
    every card value is then initial; a complete state must have it."""
    refusals = []
    for engine in probe:
        data = engine.to_json(engine.new_game(2, 3))
        del data["card_values"]
        state = engine.from_json(data, complete=False)
        assert engine.to_json(state)["card_values"] == {"taken": {}, "hits": {}, "seen": {}}
        with pytest.raises(ValueError) as refused:
            engine.from_json(data, complete=True)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1] == "missing key 'card_values' in the state"


def test_an_edition_without_card_values_has_no_such_part(variant: Engines) -> None:
    """Classic's JSON form is unchanged; the variant's has the part."""
    from splendor_rules.compiler.runtime.loading import EngineUnavailable, load_engine

    for kind in ("generated", "interpreted", "native"):
        try:
            classic = load_engine("classic", kind)  # type: ignore[arg-type]
        except EngineUnavailable:  # a native engine not built
            continue
        assert "card_values" not in classic.to_json(classic.new_game(2, 1))
    for engine in variant:
        assert set(engine.to_json(engine.new_game(2, 1))["card_values"]) == {
            "marked",
            "kept",
            "buys",
        }


# ------------------------------------------------------------ the checker


def messages_of(tmp_path: Path, body: str, name: str = "snippet") -> list[str]:
    path = tmp_path / f"{name}.rules"
    path.write_text(f'edition {name} "Snippet" extends classic {{\n{body}\n}}\n', "utf-8")
    return [d.message for d in compile_file(path).diagnostics if d.severity == "error"]


CHECKED = [
    (  # an effect comes after the choices and requirements
        "card value seen: bool\naction look {\n choose k from market\n set k.seen = true\n"
        ' require k.seen else "no"\n}',
        "come before the effects",
    ),
    ("card value seen: bool\ndefine odd(k: card) = k.seen\ndefine x = odd(1)", "expected a card"),
    ("define odd(k: card, k: int) = 1", "'k' is already bound"),
    ("define odd(bonus: int) = bonus", "names a definition of the edition"),
    ("define odd(players: int) = 1", "names the number of players"),
    ("define odd(c: colour) = c\ndefine x = odd(red, blue)", "takes 1 argument, not 2"),
]


@pytest.mark.parametrize(("body", "words"), CHECKED, ids=[w for _, w in CHECKED])
def test_misuse_is_reported(tmp_path: Path, body: str, words: str) -> None:
    assert any(words in message for message in messages_of(tmp_path, body)), words


def test_override_and_remove_name_card_values(tmp_path: Path) -> None:
    """`card value NAME` is the key of override, remove and the diff."""
    (tmp_path / "card_values.rules").write_text(VARIANT.read_text("utf-8"), "utf-8")
    child = tmp_path / "child.rules"
    child.write_text(
        'edition child "Child" extends card_values {\n  override card value buys: bool\n}\n',
        "utf-8",
    )
    errors = [d.message for d in compile_file(child).diagnostics if d.severity == "error"]
    assert errors == ["expected a condition, found a number"]  # set k.buys = count(bought)
    child.write_text(
        'edition child "Child" extends card_values {\n  remove card value buys\n}\n', "utf-8"
    )
    errors = [d.message for d in compile_file(child).diagnostics if d.severity == "error"]
    assert errors == ["unknown card value 'buys'"]


def test_a_chain_of_parametrised_definitions_is_bounded(tmp_path: Path) -> None:
    """The depth limit counts a call as a use: 102 definitions, each calling
    the one before, nest too deep; the first past the limit is reported."""
    lines = ["define d0(n: int) = n"]
    lines += [f"define d{i}(n: int) = d{i - 1}(n)" for i in range(1, 102)]
    lines.append("override [C-5.1] score = d101(1)")
    errors = messages_of(tmp_path, "\n".join(lines))
    assert len(errors) == 1 and errors[0].startswith("definition 'd100' nests over 100 levels")
