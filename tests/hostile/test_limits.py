"""The limits of the language (compiler/frontend/limits.py, docs/engine.md
"Limits"), each a test of issue 21 (items 2 and 5).

Before, editions past the native data model built without a word and the
native engine played them wrong: seat bits aliased past 32 players, the
"did" bits were lost from the 33rd action, 16-bit card numbers wrapped, and
a turn counter at 2**31 - 1 wrapped on the next move. Now each bound is
either widened (seats: a byte each; actions: a 64-bit word) and played
alike by the three engines, or refused by the checker at the declaration
that passes it; the counts that grow in play are refused alike by every
engine when they would pass 2**31 - 1. The rule files that need no large
data are in tests/hostile/rules/ (limit_*.rules); the ones here are made
in a temporary folder.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from splendor_rules.compiler.frontend import limits
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.dsl.diagnostics import Sources, render
from tests.edition_facts import EDITIONS, KINDS, engine_or_skip
from tests.engine_modules import native_engine_module

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = "classic"
needs_classic = pytest.mark.skipif(
    CLASSIC not in EDITIONS, reason="the rule files here extend classic"
)


def checked(folder: Path, name: str, body: str) -> tuple[Compiled, str]:
    """A child of classic written to `folder` and checked: the result and
    its diagnostics as printed."""
    path = folder / f"{name}.rules"
    path.write_text(f'edition {name} "{name}" extends {CLASSIC} {{\n{body}}}\n', "utf-8")
    sources = Sources()
    compiled = compile_file(path, sources)
    return compiled, "\n".join(render(d, sources) for d in compiled.diagnostics)


def cards_file(folder: Path, rows: int) -> None:
    """`cards.csv`: as many cards of tier 1, all alike (free, no points)."""
    lines = ["tier,bonus,points,white,blue,green,red,black"]
    lines.extend("1,white,0,0,0,0,0,1" for _ in range(rows))
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", "utf-8")


def cards_body(rows: int, players: str = "2..4") -> str:
    return (
        f"  override players {players}\n"
        f'  override cards from "cards.csv" with {rows} rows {{\n'
        "    tier: int 1..3\n    bonus: colour\n    points: int\n    cost: per colour\n  }\n"
        f"  override [S-2.1] market by tier {{1: {rows}}}, 4 face up each\n"
        "  override [C-2.2] supply {\n    each colour: 7\n    gold: 5\n  }\n"
    )


# ------------------------------------------------------------ the checker


def test_the_table_is_in_the_docs() -> None:
    """docs/engine.md lists every limit of the table, with its bound."""
    text = (ROOT / "docs" / "engine.md").read_text("utf-8")
    section = text[text.index("## Limits") :]
    for limit in limits.TABLE:
        assert f"{limit.high:,}" in section or str(limit.high) in section, limit


@needs_classic
def test_past_the_cards_a_state_numbers(tmp_path: Path) -> None:
    cards_file(tmp_path, limits.CARDS.high + 1)
    compiled, shown = checked(tmp_path, "many_cards", cards_body(limits.CARDS.high + 1))
    assert not compiled.ok
    assert re.search(
        r"many_cards\.rules:3:12: error: 32768 cards, more than the 32767 an edition may have",
        shown,
    ), shown
    assert "\n" + " " * 15 + "^" in shown  # a caret under the declaration


@needs_classic
def test_the_most_cards_check(tmp_path: Path) -> None:
    cards_file(tmp_path, limits.CARDS.high)
    compiled, shown = checked(tmp_path, "most_cards", cards_body(limits.CARDS.high))
    assert compiled.ok, shown


@needs_classic
def test_past_the_bytes_of_a_state(tmp_path: Path) -> None:
    """100 seats of three zones of 20,000 cards: 12 MB a state."""
    cards_file(tmp_path, 20_000)
    compiled, shown = checked(tmp_path, "wide_state", cards_body(20_000, "2..100"))
    assert not compiled.ok
    assert "error: a state of a 100-player game would take at least" in shown, shown
    assert f"more than the {limits.STATE_BYTES.high} a state may take" in shown, shown


@needs_classic
def test_past_the_tile_numbers(tmp_path: Path) -> None:
    rows = limits.TILES.high + 1
    lines = ["points,white,blue,green,red,black", *("3,4,4,0,0,0" for _ in range(rows))]
    (tmp_path / "tiles.csv").write_text("\n".join(lines) + "\n", "utf-8")
    body = (
        f'  override tiles noble from "tiles.csv" with {rows} rows {{\n'
        "    points: int\n    requires: per colour\n  }\n"
    )
    compiled, shown = checked(tmp_path, "many_tiles", body)
    assert not compiled.ok
    assert "many_tiles.rules:2:12: error: 32768 tile numbers, more than the 32767" in shown, shown


@needs_classic
@pytest.mark.parametrize(
    ("body", "fine"),
    [
        ("  override [C-5.1] score = 9223372036854775807 - sum(bought.points)\n", True),
        ("  override [C-5.1] score = sum(bought.points) + 9223372036854775808\n", False),
        ("  override [C-2.2] supply {\n    each colour: 2147483647\n    gold: 5\n  }\n", True),
        ("  override [C-2.2] supply {\n    each colour: 4\n    gold: 2147483648\n  }\n", False),
        ("  override [S-4.1] step token_limit: return tokens above 2147483648\n", False),
    ],
)
def test_numbers_and_counts_at_their_bounds(tmp_path: Path, body: str, fine: bool) -> None:
    compiled, shown = checked(tmp_path, "bounds", body)
    assert compiled.ok is fine, shown
    if not fine:
        assert re.search(r"bounds\.rules:\d+:\d+: error: \d+ ", shown), shown


# --------------------------------------------- widened: seats and actions


def random_moves(native: Any, python: Any, players: int, seed: int, plies: int) -> None:
    """One random game on the native engine and the Python engine it wraps:
    the same legal moves, states, scores, end and winners all along."""
    rng = random.Random(seed)
    a, b = python.new_game(players, seed), native.new_game(players, seed)
    for _ in range(plies):
        assert native.to_json(b) == python.to_json(a)
        assert native.is_over(b) == python.is_over(a)
        if python.is_over(a):
            break
        legal = python.legal_actions(a)
        assert native.legal_actions(b) == legal
        action = rng.choice(legal)
        a, b = python.apply(a, action), native.apply(b, action)
    assert native.scores(b) == python.scores(a)
    assert native.winners(b) == python.winners(a)


@needs_classic
@pytest.mark.parametrize("winner", [2, 35])
def test_forty_seats_win_alike(tmp_path: Path, winner: int) -> None:
    """Seat bits aliased seat p to p - 32: a game won by seat 35 was won by
    seats 3 and 35, one won by seat 2 by seats 2 and 34."""
    body = (
        "  override players 2..40\n"
        "  override [C-2.2] supply {\n    each colour: 7\n    gold: 5\n  }\n"
    )
    compiled, shown = checked(tmp_path, "forty_seats", body)
    assert compiled.ok and compiled.model is not None, shown
    native = native_engine_module(compiled.model, tmp_path)
    python = native._py
    data = python.to_json(python.new_game(40, 1))
    top = max(data["decks"], key=lambda tier: int(tier))
    data["seats"][winner]["zones"]["bought"].append(data["decks"][top].pop())
    data["over"] = True
    for engine in (python, native, InterpretedEngine(compiled.model)):
        assert engine.winners(engine.from_json(data, complete=False)) == {winner}
    random_moves(native, python, 36, 1, 100)


@needs_classic
def test_sixty_three_actions_end_alike(tmp_path: Path) -> None:
    """`did` of the 63rd action (bit 62): the round ends the game alike.
    Before, the bits from the 33rd action on were lost."""
    never = "".join(
        f'  action never_{i} "never" {{\n    require supply(gold) > 100 else "never"\n'
        "    gain 1 gold\n  }\n"
        for i in range(57)
    )
    body = (
        never + '  action hoard "hoard" {\n    require supply(gold) > 0 else "no gold"\n'
        "    gain 1 gold\n  }\n"
        "  end hoarded: after a round that ends with any(player: did(hoard))\n"
    )
    compiled, shown = checked(tmp_path, "many_actions", body)
    assert compiled.ok and compiled.model is not None, shown
    assert len(compiled.model.actions) == limits.ACTIONS.high
    native = native_engine_module(compiled.model, tmp_path)
    interpreter = InterpretedEngine(compiled.model)
    ended = 0
    for seed in range(4):
        random_moves(native, native._py, 2 + seed % 3, seed, 400)
        random_moves(native, interpreter, 2 + seed % 3, seed, 400)
        end, _ = native.playout(native.new_game(2, seed), seed, 10_000)
        ended += native.is_over(end)
    assert ended == 4


# ------------------------------------------------ counts that grow in play


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_last_turn_a_state_counts(edition: str, kind: Any) -> None:
    """A turn counter at 2**31 - 1: the move that ends the turn is refused
    with the same OverflowError by every engine, the state unchanged (the
    native engine wrapped it, then refused its own JSON form)."""
    engine = engine_or_skip(edition, kind)
    data = engine.to_json(engine.new_game(engine.PLAYERS.start, 3))
    data["turn"] = limits.COUNT.high
    state = engine.from_json(data)
    action = engine.legal_actions(state)[0]
    with pytest.raises(OverflowError, match=r"^turn 2147483647 is the last a state counts"):
        engine.apply(state, action)
    assert engine.to_json(state) == data
    data["turn"] = limits.COUNT.high - 1
    state = engine.apply(engine.from_json(data), action)
    counted = engine.to_json(state)
    assert counted["turn"] in (limits.COUNT.high - 1, limits.COUNT.high)
    assert engine.to_json(engine.from_json(counted)) == counted


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_tokens_past_the_count_are_refused_alike(edition: str, kind: Any) -> None:
    """The supply and the seats together hold at most 2**31 - 1 of a kind
    (so no gain or payment can pass it); more is refused, in these words."""
    engine = engine_or_skip(edition, kind)
    data = engine.to_json(engine.new_game(engine.PLAYERS.start, 3))
    colour = engine.COLOURS[0]
    data["supply"][colour] = limits.COUNT.high - _elsewhere(data, colour)
    engine.from_json(data, complete=False)
    data["seats"][0]["tokens"][colour] = 1
    places = "the seats, the board and the bag" if "board" in data else "the seats"
    with pytest.raises(ValueError, match=f"^2147483648 {colour} in the supply(,| and) {places}; "):
        engine.from_json(data, complete=False)


def _elsewhere(data: dict[str, Any], colour: str) -> int:
    """The tokens of a kind on a board of cells and in its bag, if any."""
    on_board = sum(1 for held in data.get("board", ()) if held == colour)
    return on_board + data.get("bag", {}).get(colour, 0)


# ------------------------------------------------ what expressions compute


@needs_classic
@pytest.mark.parametrize(
    ("score", "fine"),
    [
        ("sum(bought.points) * 1000000000", True),
        ("sum(bought.points) * 9223372036854775807", False),
        ("(sum(bought.points) + 1) * 100000 * 100000 * 100000 * 100000", False),
        ("tokens(gold) * tokens(gold) * tokens(gold)", False),
        ("tokens(gold) * tokens(gold)", True),
    ],
)
def test_a_value_that_may_pass_64_bits(tmp_path: Path, score: str, fine: bool) -> None:
    """A score of 1e19 was 1e19 in Python and negative natively: each
    number an edition computes is bounded by its parts before it is run."""
    compiled, shown = checked(tmp_path, "product", f"  override [C-5.1] score = {score}\n")
    assert compiled.ok is fine, shown
    if not fine:
        assert re.search(r"product\.rules:2:2[89]: error: this value may be anywhere from", shown)


@needs_classic
@pytest.mark.parametrize(
    ("argument", "fine"),
    [("m + 1", True), ("m * 100000 * 100000", True), ("tokens(gold) * tokens(gold) * m", False)],
)
def test_a_parameter_is_bounded_apart_from_a_local_of_its_name(
    tmp_path: Path, argument: str, fine: bool
) -> None:
    """A random edition's `define worth(m: int)` called as `worth(m + 1)`
    where a local is named `m` too: the parameter's bound comes from its
    arguments, the local's from its `let`; read as one name they made a
    cycle, bounded as every number, and a false report of passing 64 bits."""
    body = (
        "  define worth(m: int) = m * 2\n"
        '  action bump "bump" {\n'
        "    let m = count(bought)\n"
        f'    require worth({argument}) >= 0 else "never"\n'
        "    gain 1 gold\n"
        "  }\n"
    )
    compiled, shown = checked(tmp_path, "worth", body)
    assert compiled.ok is fine, shown
    if not fine:  # the product in the argument, then the parameter's double
        assert re.search(r"worth\.rules:5:19: error: this value may be anywhere from", shown)


CARD_VALUE_BODY = """  card value hits: int
  trigger hit: after card k enters bought {
    set k.hits = k.hits + 1
  }
  override [C-5.1] score = sum(bought.points) + sum(bought.hits)
"""


@needs_classic
def test_a_card_value_past_its_range_is_refused_alike(tmp_path: Path) -> None:
    """A card value of numbers set from itself grows in play: the move that
    would take it past its range raises the same OverflowError in every
    engine; a state holding one past it is refused alike."""
    compiled, shown = checked(tmp_path, "hits", CARD_VALUE_BODY)
    assert compiled.ok and compiled.model is not None, shown
    native = native_engine_module(compiled.model, tmp_path)
    engines = (native, native._py, InterpretedEngine(compiled.model))
    data = native.to_json(native.new_game(2, 5))
    cards = len(compiled.model.cards.rows)
    data["card_values"]["hits"] = {str(k): limits.CARD_VALUE.high for k in range(cards)}
    data["seats"][0]["tokens"] = {colour: 7 for colour in native.COLOURS}
    for engine in engines:
        state = engine.from_json(data, complete=False)
        buy = next(a for a in engine.legal_actions(state) if a[0] == "buy")
        with pytest.raises(OverflowError, match=r"^a card value of numbers would be 2147483648, "):
            engine.apply(state, buy)
    data["card_values"]["hits"]["0"] = limits.CARD_VALUE.high + 1
    refusals = set()
    for engine in engines:
        with pytest.raises(ValueError) as refused:
            engine.from_json(data, complete=False)
        refusals.add(str(refused.value))
    assert len(refusals) == 1 and "2147483648" in refusals.pop()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_tokens_at_the_count_play_and_read_back(edition: str, kind: Any) -> None:
    """The supply and the seats holding 2**31 - 1 of each colour in all, the
    most a state counts: every move keeps the total and gives a state whose
    JSON form reads back. (One past it, which the native engine wrapped on
    the next payment and then refused its own JSON form of, is refused on
    the way in: the test above.)"""
    engine = engine_or_skip(edition, kind)
    data = engine.to_json(engine.new_game(engine.PLAYERS.start, 3))
    for colour in engine.COLOURS:
        held = sum(seat["tokens"].get(colour, 0) for seat in data["seats"])
        data["supply"][colour] = limits.COUNT.high - held - _elsewhere(data, colour) - 3
        data["seats"][0]["tokens"][colour] = data["seats"][0]["tokens"].get(colour, 0) + 3
    state = engine.from_json(data, complete=False)
    rng = random.Random(7)
    for _ in range(12):
        if engine.is_over(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        shown = engine.to_json(state)
        assert engine.to_json(engine.from_json(shown, complete=False)) == shown
        for colour in engine.COLOURS:
            total = shown["supply"][colour]
            total += sum(seat["tokens"].get(colour, 0) for seat in shown["seats"])
            assert total + _elsewhere(shown, colour) == limits.COUNT.high
