"""Several actions a turn, on the interpreter: actions before the main
action (DUEL.md D-3.1: any number of times, or once, in their declared
order) and an extra turn (D-4.1: the same player plays a whole new turn once
this one has ended). The edition is classic with a swap of tokens (any
number of times), a draw of gold (once) and a card of 4 or more points that
grants an extra turn. Each scenario runs on the three engines: the
interpreter, the generated Python engine and the native one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from engine_modules import engine_module, native_engine_module, play_alike

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend.plan.build import build as build_plan
from splendor_rules.compiler.backend.plan.show import show
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.description import describe
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.tools import cache
from splendor_rules.compiler.tools.rulebook import make_rulebook, render_rulebook
from splendor_rules.dsl.formatting import format_source

RULES = """\
# Classic Splendor with a turn of several actions: before the main action a
# player may swap tokens with the supply any number of times, then draw one
# gold once; a card of 4 or more points grants an extra turn.

edition turns "Splendor, several actions a turn" extends classic {
  reference "TURNS.md" ids D
  define unit(c: colour, n: int) = per colour x: n if x == c else 0

  [D-3.1] action swap "swap a token": before the main action, any number of times {
    choose c from colours
    choose d from colours
    require c != d else "a swap gives a token for one of another colour"
    require supply(d) > 0 else "no {d} left in the supply"
    pay unit(c, 1) less unit(c, 0)
    gain 1 d
  }

  [D-3.1b] action draw "draw a gold token": before the main action, once {
    require supply(gold) > 0 else "no gold left"
    gain 1 gold
  }

  [D-4.1] trigger feat: after card k enters bought {
    if k.points >= 4 {
      play another turn
    }
  }
}
"""

RULEBOOK = """\
# Several actions a turn

- **D-3.1** Before the main action a player may swap tokens, any number of times.
- **D-3.1b** Then, once, draw a gold token.
- **D-4.1** A card of 4 or more points grants an extra turn.
"""


@pytest.fixture(scope="module")
def rule_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("turns")
    (folder / "TURNS.md").write_text(RULEBOOK, encoding="utf-8")
    path = folder / "turns.rules"
    path.write_text(RULES, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def model(rule_file: Path) -> m.Edition:
    compiled = compile_file(rule_file)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


ENGINES = ("interpreter", "generated", "native")


def engine_of(kind: str, model: m.Edition, folder: Path) -> Any:
    """One of the three engines of a model, built into `folder`."""
    if kind == "generated":
        return engine_module(model, folder)
    if kind == "native":
        return native_engine_module(model, folder)
    return InterpretedEngine(model)


@pytest.fixture(scope="module", params=ENGINES)
def engine(
    request: pytest.FixtureRequest, model: m.Edition, tmp_path_factory: pytest.TempPathFactory
) -> Any:
    return engine_of(request.param, model, tmp_path_factory.mktemp(request.param))


def with_tokens(engine: Any, tokens: dict[str, int], seed: int = 3) -> Any:
    """A new 2-player game where seat 0 (to move) holds `tokens`."""
    data = engine.to_json(engine.new_game(2, seed))
    data["first_player"] = data["current_player"] = 0
    data["seats"][0]["tokens"] = tokens
    for kind, n in tokens.items():
        data["supply"][kind] -= n
    return engine.from_json(data)


def names(engine: Any, state: Any) -> set[str]:
    return {a[0] for a in engine.legal_actions(state)}


def test_before_the_main_action_any_number_of_times(engine: Any) -> None:
    """D-3.1: a swap, then another, then the main action; the player stays
    to move until the main action, which ends the turn."""
    state = with_tokens(engine, {"red": 2})
    assert {"swap", "draw", "take_two"} <= names(engine, state)
    swap = next(a for a in engine.legal_actions(state) if a[:3] == ("swap", "red", "blue"))
    state = engine.apply(state, swap)
    data = engine.to_json(state)
    assert data["current_player"] == 0 and data["turn"] == 0
    assert data["seats"][0]["tokens"] == {"red": 1, "blue": 1}
    assert data["stage"] == 0  # the swap is still open
    swap = next(a for a in engine.legal_actions(state) if a[:3] == ("swap", "red", "white"))
    state = engine.apply(state, swap)
    assert engine.to_json(state)["seats"][0]["tokens"] == {"white": 1, "blue": 1}
    state = engine.apply(state, ("take_two", "green"))
    data = engine.to_json(state)
    assert data["current_player"] == 1 and data["turn"] == 1 and data["stage"] == 0
    assert "draw" in names(engine, state)  # open again on the next turn (seat 1 holds no token)


def test_before_the_main_action_in_declared_order(engine: Any) -> None:
    """D-3.1: the draw (once) closes itself and the swap declared before it;
    a refusal names the rule."""
    state = with_tokens(engine, {"red": 1})
    state = engine.apply(state, ("draw",))
    data = engine.to_json(state)
    assert data["current_player"] == 0 and data["stage"] == 2
    assert data["seats"][0]["tokens"] == {"red": 1, "gold": 1}
    assert not {"swap", "draw"} & names(engine, state)
    with pytest.raises(engine.IllegalAction, match=r"^D-3\.1b: 'draw' is no longer open"):
        engine.apply(state, ("draw",))
    swaps = [a for a in engine.legal_actions(with_tokens(engine, {"red": 1})) if a[0] == "swap"]
    with pytest.raises(engine.IllegalAction, match=r"^D-3\.1: 'swap' is no longer open"):
        engine.apply(state, swaps[0])


def test_requirement_of_an_action_before_the_main_one(engine: Any) -> None:
    """A player with no token to swap has no swap; the refusal names D-3.1."""
    state = with_tokens(engine, {})
    assert "swap" not in names(engine, state)
    with pytest.raises(engine.IllegalAction, match=r"D-3\.1"):
        engine.apply(state, ("swap", "red", "red"))


def affording(engine: Any, model: m.Edition) -> tuple[Any, int]:
    """A 2-player game with seat 0 to move, holding the price of a face-up
    card of 4 or more points: the state and the card."""
    data = engine.to_json(engine.new_game(2, 5))
    data["first_player"] = data["current_player"] = 0
    row = data["market"]["3"]
    rows: list[Any] = list(model.cards.rows)
    card = next(k for k in range(90) if rows[k]["points"] >= 4 and k in row)
    cost = rows[card]["cost"]
    held = {c: n for c, n in zip(engine.COLOURS, cost, strict=True) if n}
    data["seats"][0]["tokens"] = held
    data["supply"] = {k: (v if k == "gold" else 4) for k, v in data["supply"].items()}
    return engine.from_json(data, complete=False), card


def test_an_extra_turn(engine: Any, model: m.Edition) -> None:
    """D-4.1: buying a card of 4 points, the player plays a whole new turn
    (actions before the main one open again); the round goes on after it."""
    state, card = affording(engine, model)
    state = engine.apply(state, ("draw",))
    buy = next(a for a in engine.legal_actions(state) if a[:2] == ("buy", card))
    state = engine.apply(state, buy)
    data = engine.to_json(state)
    assert card in data["seats"][0]["zones"]["bought"]
    assert data["current_player"] == 0 and data["turn"] == 1  # an extra turn
    assert data["again"] is False and data["stage"] == 0
    assert "draw" in names(engine, state)  # a whole new turn
    state = engine.apply(state, ("take_two", "white"))
    data = engine.to_json(state)
    assert data["current_player"] == 1 and data["turn"] == 2


def test_the_pass_waits_for_every_action(engine: Any) -> None:
    """The action legal only when no other is counts the actions before the
    main one too (D-3.2: replenish first when no main action is possible)."""
    data = engine.to_json(engine.new_game(2, 4))
    data["first_player"] = data["current_player"] = 0
    market_and_decks = [k for row in data["market"].values() for k in row if k is not None]
    data["seats"][1]["zones"]["bought"] = market_and_decks + [
        k for deck in data["decks"].values() for k in deck
    ]
    data["market"] = {t: [None] * len(row) for t, row in data["market"].items()}
    data["decks"] = {t: [] for t in data["decks"]}
    data["seats"][1]["tokens"] = {c: n for c, n in data["supply"].items() if c != "gold"}
    data["supply"] = {c: (n if c == "gold" else 0) for c, n in data["supply"].items()}
    state = engine.from_json(data, complete=False)
    assert engine.legal_actions(state) == [("draw",)]
    state = engine.apply(state, ("draw",))
    assert engine.legal_actions(state) == [("pass",)]


def test_the_rule_text_reads_back(model: m.Edition) -> None:
    """fmt keeps the new lines as they are written."""
    assert format_source(RULES) == RULES


def test_the_description_says_which_come_before(model: m.Edition) -> None:
    actions = {a["name"]: a for a in describe(model)["actions"]}
    assert actions["swap"]["before_main"] == "any"
    assert actions["draw"]["before_main"] == "once"
    assert "before_main" not in actions["buy"]


def test_the_plan_says_which_come_before(model: m.Edition) -> None:
    """The plan gives each action before the main one its place and the
    stage once it is taken, and `play another turn` its operation."""
    text = show(build_plan(model))
    assert "legal swap before main: place 0, then 0" in text
    assert "apply draw values=() before main: place 1, then 2" in text
    assert "AnotherTurn" in text
    assert "before main" not in text.split("legal buy")[1].split("\n")[0]


def test_the_rulebook_says_them(rule_file: Path) -> None:
    """`doc` writes each in English."""
    text = render_rulebook(make_rulebook(rule_file), "md")
    assert "taken before the main action, any number of times a turn" in text
    assert "taken before the main action, once a turn" in text
    assert "the player plays another turn, a whole one, once this turn has ended" in text


def test_random_games_end_and_read_back(model: m.Edition) -> None:
    """Random games (main actions favoured) reach their end; every state's
    JSON form reads back as itself, and extra turns happen (D-4.1)."""
    engine = InterpretedEngine(model)
    extra = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = engine.new_game(2 + seed, seed)
        for _ in range(3000):
            if engine.is_over(state):
                break
            legal = engine.legal_actions(state)
            main = [a for a in legal if a[0] not in ("swap", "draw")]
            before = engine.to_json(state)
            state = engine.apply(state, rng.choice(main if main and rng.random() < 0.7 else legal))
            data = engine.to_json(state)
            assert engine.to_json(engine.from_json(data)) == data
            assert 0 <= data["stage"] <= 2
            turned = data["turn"] == before["turn"] + 1
            extra += turned and data["current_player"] == before["current_player"]
        assert engine.is_over(state)
    assert extra > 0


def test_the_three_engines_play_alike(
    model: m.Edition, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Random games, the actions before the main one favoured: the generated
    and native engines list the interpreter's moves and reach its states."""
    interpreter = InterpretedEngine(model)
    for kind in ("generated", "native"):
        built = engine_of(kind, model, tmp_path_factory.mktemp(f"alike_{kind}"))
        play_alike(built, interpreter, range(3), ("swap", "draw"), plies=250)


def test_build_prints_it(rule_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`build FILE` prints the edition for the Python target (exit 0)."""
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(tmp_path / "cache"))
    result = CliRunner().invoke(cli.main, ["build", str(rule_file), "--target", "python"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("kind", ENGINES)
def test_the_game_ends_before_an_extra_turn(rule_file: Path, kind: str, tmp_path: Path) -> None:
    """D-4.1 with D-6.1: an ending at the end of the turn stops the game
    before the extra turn is played."""
    (tmp_path / "TURNS.md").write_text(RULEBOOK, encoding="utf-8")
    path = tmp_path / "rush.rules"
    rush = "  end rush: at the end of the turn once any(player: count(bought) >= 1)\n}\n"
    text = RULES.replace("edition turns ", "edition rush ").rsplit("}", 1)[0] + rush
    path.write_text(text, encoding="utf-8")
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    engine = engine_of(kind, compiled.model, tmp_path)
    state, card = affording(engine, compiled.model)
    buy = next(a for a in engine.legal_actions(state) if a[:2] == ("buy", card))
    state = engine.apply(state, buy)
    assert engine.is_over(state) and engine.legal_actions(state) == []
    assert engine.to_json(state)["turn"] == 1
