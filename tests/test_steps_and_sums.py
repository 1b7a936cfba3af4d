"""Sums over filtered sets, an ending at the end of the turn, and steps
placed before or after another (issue 10, "language reach").

- `sum(x in S where C: E)`: the number E added up over the elements of S
  that pass C, in both engines, kept up to date by the generated engine's
  zone aggregates when E and C read only the element (and a colour);
- `end NAME: at the end of the turn once C`: the game ends at the turn's
  end-of-game check, no round played out;
- `step NAME before/after OTHER: ...`: the step runs where it is placed.

Each edition here extends classic; both engines play it, and the variant
tests/variants/steps_and_sums.rules is played by both, compared after every
action.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import test_differential as differential

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "steps_and_sums.rules"


def compiled(folder: Path, body: str, name: str = "variant") -> Compiled:
    path = folder / f"{name}.rules"
    path.write_text(f'edition {name} "A variant" extends classic {{\n{body}\n}}\n', "utf-8")
    return compile_file(path)


def engines(result: Compiled) -> tuple[Any, InterpretedEngine]:
    """The generated engine (loaded in memory) and the interpreter of a model."""
    assert result.ok and result.model is not None, result.diagnostics
    model = result.model
    source = render_engine(model, ROOT)
    return differential.load_module(source, model.name), InterpretedEngine(model)


def errors(result: Compiled) -> list[str]:
    return [d.message for d in result.diagnostics if d.severity == "error"]


def with_bought(engine: Any, cards: list[int]) -> Any:
    """A two-player game where seat 0 has bought these cards (taken from
    wherever they were)."""
    data = engine.to_json(engine.new_game(2, 7))
    for tier, deck in data["decks"].items():
        data["decks"][tier] = [c for c in deck if c not in cards]
    for tier, row in data["market"].items():
        data["market"][tier] = [None if c in cards else c for c in row]
    data["seats"][0]["zones"]["bought"] = list(cards)
    return engine.from_json(data, complete=False)


# ------------------------------------------------------ sum over a set


SUMS = """
  define tier_two = sum(k in bought where k.tier == 2: k.points)
  define by_colour = per colour c: sum(k in bought where k.bonus == c: k.points + 1)
  define cheap = sum(k in market where k.points == 0: 1)
  define on_show = per colour c: sum(k in market where c == k.bonus: k.points * 2)
  override [C-5.1] score = tier_two * 100 + by_colour[green] * 10 + count(bought)
  define dear = per colour c: sum(k in bought where k.cost[c] > 2: k.cost[c] - 2)
  override [C-5.3] winners: highest score + cheap + on_show[red] + dear[blue], ties share
"""


def test_sum_over_a_filtered_zone_adds_up_what_passes(tmp_path: Path) -> None:
    """sum(k in bought where k.tier == 2: k.points), and the same per colour:
    both engines, from a position with known cards bought."""
    result = compiled(tmp_path, SUMS)
    model = result.model
    assert model is not None
    rows = model.cards.rows
    cards = [i for i, row in enumerate(rows) if row["tier"] == 2][:3]
    cards += [i for i, row in enumerate(rows) if row["tier"] == 1 and row["bonus"] == "green"][:2]
    tier_two = sum(int(rows[i]["points"]) for i in cards if rows[i]["tier"] == 2)  # type: ignore[call-overload]
    green = sum(int(rows[i]["points"]) + 1 for i in cards if rows[i]["bonus"] == "green")  # type: ignore[call-overload]
    for engine in engines(result):
        state = with_bought(engine, cards)
        assert engine.scores(state)[0] == tier_two * 100 + green * 10 + len(cards)
        assert engine.scores(state)[1] == 0


def test_sum_over_a_zone_is_kept_by_the_generated_engine(tmp_path: Path) -> None:
    """The shapes the Orient's bonus needs are zone aggregates, kept as
    cards move, not loops over the zone; the one over the market is not."""
    model = compiled(tmp_path, SUMS).model
    assert model is not None
    kept = {(kind, zone) for kind, zone, _ in analysis.aggregates_in(model)}
    kept_totals = [e for kind, _, e in analysis.aggregates_in(model) if kind == "totals"]
    assert {("total", "bought"), ("totals", "bought")} <= kept and len(kept_totals) == 2
    source = render_engine(model, ROOT)
    by_colour = source.split("def _define_by_colour", 1)[1].split("\ndef ", 1)[0]
    assert " for " not in by_colour and "s.agg[p]" in by_colour
    on_show = source.split("def _define_on_show", 1)[1].split("\ndef ", 1)[0]
    assert on_show.count(" for ") == 1 and "_totals(" in on_show  # one pass, all colours


def test_kept_sums_agree_over_whole_games(tmp_path: Path) -> None:
    result = compiled(tmp_path, SUMS)
    generated, interpreted = engines(result)
    sides = (
        differential.Side("generated", generated),
        differential.Side("interpreter", interpreted),
    )
    for seed in range(4):
        diff = differential.Differential("variant", 2 + seed % 3, seed, 0, sides)
        differential.play(diff, random.Random(seed).randrange, 300)


def test_sum_over_colours_and_any_where(tmp_path: Path) -> None:
    """Over the colours (no zone), and `where` in any/all."""
    body = """
  define spread = sum(c in colours where bonus[c] > 0: 1)
  define rich = any(k in bought where k.tier == 2: k.points >= 1)
  override [C-5.1] score = spread * 10 + (1 if rich else 0)
"""
    result = compiled(tmp_path, body)
    rows = result.model.cards.rows if result.model else ()
    cards = [i for i, row in enumerate(rows) if row["tier"] == 2 and row["points"] == 1][:1]
    cards += [i for i, row in enumerate(rows) if row["tier"] == 1 and row["bonus"] == "red"][:2]
    colours = len({rows[i]["bonus"] for i in cards})
    for engine in engines(result):
        assert engine.scores(with_bought(engine, cards))[0] == colours * 10 + 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("define d = sum(k in bought: k.bonus)", "sum adds up a number per element, not a colour"),
        ("define d = sum(k in bought where k.points: 1)", "expected a condition, found a number"),
        ("define d = count(k in bought where k.tier == 1: 1)", "argument of any, all or sum"),
        ("define d = sum(k in 3: 1)", "expected a set or list"),
    ],
)
def test_sum_over_a_set_misused(tmp_path: Path, body: str, message: str) -> None:
    found = errors(compiled(tmp_path, body))
    assert any(message in e for e in found), found


def test_the_variant_is_played_alike_by_both_engines() -> None:
    result = compile_file(VARIANT)
    generated, interpreted = engines(result)
    sides = (
        differential.Side("generated", generated),
        differential.Side("interpreter", interpreted),
    )
    ended = 0
    for seed in range(6):
        diff = differential.Differential("steps_and_sums", 2 + seed % 3, seed, seed % 2, sides)
        ended += differential.play(diff, random.Random(seed).randrange, 3000)
    assert ended == 6


def _model(result: Compiled) -> m.Edition:
    assert result.model is not None, result.diagnostics
    return result.model


# ------------------------------------------------- ending at the turn's end

RESERVE_ENDS = (
    "override [C-5.2] end target: at the end of the turn once any(player: count(reserved) >= 1)"
)


def test_ending_at_the_end_of_the_turn_fires_right_there(tmp_path: Path) -> None:
    """Once a player has reserved a card, the game ends at that turn's
    end-of-game check: the other player does not play (with `after the round
    once` they would)."""
    for engine in engines(compiled(tmp_path, RESERVE_ENDS)):
        state = engine.new_game(2, 3, 0)
        reserve = next(a for a in engine.legal_actions(state) if a[0] == "reserve")
        after = engine.apply(state, reserve)
        data = engine.to_json(after)
        assert engine.is_over(after) and engine.legal_actions(after) == []
        assert (data["turn"], data["current_player"], data["last_round"]) == (1, 1, False)
        assert data["seats"][0]["did"] == ["reserve"]
        assert engine.winners(after) == frozenset({0, 1})  # no points, no cards: a tie
        with pytest.raises(engine.IllegalAction, match=r"C-5\.2"):
            engine.apply(after, reserve)


def test_ending_at_the_end_of_the_turn_waits_for_its_condition(tmp_path: Path) -> None:
    """Until the condition holds, turns pass as usual."""
    for engine in engines(compiled(tmp_path, RESERVE_ENDS)):
        state = engine.new_game(3, 3, 0)
        for _ in range(4):
            take = next(a for a in engine.legal_actions(state) if a[0] == "take_distinct")
            state = engine.apply(state, take)
            assert not engine.is_over(state)
        assert engine.to_json(state)["turn"] == 4


# --------------------------------------------------- steps placed by name

RUSH = "end rush: at the end of the turn once any(player: count(bought) >= 0)"


def with_tokens(engine: Any, held: dict[str, int]) -> Any:
    data = engine.to_json(engine.new_game(2, 5, 0))
    data["seats"][0]["tokens"] = held
    return engine.from_json(data, complete=False)


@pytest.mark.parametrize(("side", "over"), [("before", True), ("after", False)])
def test_a_step_inserted_before_an_inherited_one_runs_before_it(
    tmp_path: Path, side: str, over: bool
) -> None:
    """A check of the end placed before the token limit ends the game with
    12 tokens held; placed after it, the limit's decision comes first."""
    body = f"step rush_check {side} token_limit: check game end\n{RUSH}"
    result = compiled(tmp_path, body)
    names = [step.name for step in _model(result).steps]
    expected = ["token_limit", "claim_tile", "end_check"]
    expected.insert(expected.index("token_limit") + (side == "after"), "rush_check")
    assert names == expected
    for engine in engines(result):
        state = with_tokens(engine, {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 1})
        take = next(a for a in engine.legal_actions(state) if a[0] == "take_distinct")
        after = engine.to_json(engine.apply(state, take))
        assert after["over"] is over
        assert after["pending"] == (None if over else "token_limit")
        assert sum(after["seats"][0]["tokens"].values()) == 12


def test_an_override_keeps_its_place_or_moves(tmp_path: Path) -> None:
    body = """
  override [S-4.4] step end_check before token_limit: check game end
  override [S-4.1] step token_limit: return tokens above 8
  step tidy after end_check: return tokens above 9
  step last_check: check game end
"""
    result = compiled(tmp_path, body)
    names = [step.name for step in _model(result).steps]
    assert names == ["end_check", "tidy", "token_limit", "claim_tile", "last_check"]


def test_diff_lists_where_a_step_was_placed(tmp_path: Path) -> None:
    from splendor_rules.compiler.tools.conformance.diff import diff_editions
    from splendor_rules.compiler.tools.conformance.report import format_diff

    body = """
  override [S-4.4] step end_check after token_limit: check game end
  step tidy before claim_tile: return tokens above 9
"""
    result = compiled(tmp_path, body)
    classic = compile_file(ROOT / "editions" / "classic.rules").resolved
    assert classic is not None and result.resolved is not None
    text = format_diff(diff_editions(classic, result.resolved))
    assert "  step tidy inserted before claim_tile: no rule id" in text
    assert "  step end_check moved after token_limit: S-4.4 -> S-4.4" in text
    changes = {c.key: c.placed for c in result.resolved.changes}
    assert changes[("step", "tidy")] == "before claim_tile"


@pytest.mark.parametrize(
    ("body", "message", "hint"),
    [
        (
            "step tidy after token_limt: return tokens above 9",
            "no step 'token_limt' to put step 'tidy' after",
            "did you mean 'token_limit'?",
        ),
        (
            "step tidy after later: return tokens above 9\nstep later: check game end",
            "no step 'later' to put step 'tidy' after",
            "step 'later' is declared further on in this file: declare it first",
        ),
        (
            "remove step claim_tile\nstep tidy after claim_tile: return tokens above 9",
            "no step 'claim_tile' to put step 'tidy' after",
            "the steps before this one are 'token_limit', 'end_check'",
        ),
        (
            "override [S-4.1] step token_limit before token_limit: return tokens above 9",
            "step 'token_limit' cannot go before itself",
            None,
        ),
    ],
)
def test_steps_placed_beside_no_step(
    tmp_path: Path, body: str, message: str, hint: str | None
) -> None:
    found = [d for d in compiled(tmp_path, body).diagnostics if d.severity == "error"]
    assert [d.message for d in found] == [message]
    if hint is not None:
        assert found[0].hint == hint
