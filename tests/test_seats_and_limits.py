"""Set-up per seat and a token limit that counts some kinds only, on
tests/variants/favours.rules (rules F-1.1 to F-1.4 of tests/variants/FAVOURS.md):
`setup { player 2 in turn order gains 1 favour … }` (Duel's D-2.3 gives the
second player a privilege so) and `return tokens above 10, not counting
favour` (Duel's D-5.2 says the same of privileges).

The three engines (generated, interpreted, native) are held to the same
decisions from hand-made states.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engine_modules import native_engine_module, variant_engines

from splendor_rules.compiler.frontend.pipeline import compile_file

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "favours.rules"


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    folder = tmp_path_factory.mktemp("favours")
    generated, interpreted = variant_engines(VARIANT, folder)
    found: list[Any] = [generated, interpreted]
    model = compile_file(VARIANT).model
    assert model is not None
    try:
        found.append(native_engine_module(model, folder / "native"))
    except Exception as error:  # no C compiler: the two Python engines still
        pytest.skip(f"no native engine: {error}")
    return found


def _holding(engine: Any, tokens: dict[str, int]) -> Any:
    data = engine.to_json(engine.new_game(2, 5))
    data["seats"][0]["tokens"] = dict(tokens)
    for kind, n in tokens.items():
        data["supply"][kind] -= n
    return engine.from_json(data, complete=False)


def _alike(engines: list[Any], tokens: dict[str, int], move: tuple[Any, ...]) -> list[Any]:
    """The move applied in every engine from the same state: the states after it."""
    after = []
    for engine in engines:
        state = engine.apply(_holding(engine, tokens), move)
        after.append((engine, state))
    shown = [engine.to_json(state) for engine, state in after]
    assert all(s == shown[0] for s in shown), "the engines disagree"
    return [state for _, state in after]


def test_favours_are_not_counted(engines: list[Any]) -> None:
    """F-1.3: 10 gems and 2 favours are within the limit: the turn passes."""
    held = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 1, "favour": 1}
    for engine, state in zip(engines, _alike(engines, held, ("ask",)), strict=True):
        data = engine.to_json(state)
        assert data["pending"] is None and data["current_player"] == 1
        assert data["seats"][0]["tokens"]["favour"] == 2


def test_above_the_limit_only_counted_kinds_are_returned(engines: list[Any]) -> None:
    """F-1.3, S-4.1: 11 gems and 2 favours: one gem goes back, never a favour."""
    held = {"blue": 3, "green": 2, "red": 2, "black": 2, "favour": 2}
    states = _alike(engines, held, ("take_two", "white"))
    options = [engine.legal_actions(state) for engine, state in zip(engines, states, strict=True)]
    assert all(o == options[0] for o in options)
    model = compile_file(VARIANT).model
    assert model is not None
    kinds = [t.name for t in model.tokens]
    favour = kinds.index("favour")
    assert options[0] and all(move[0] == "token_limit" for move in options[0])
    assert all(sum(move[1]) == 1 and move[1][favour] == 0 for move in options[0])
    give_favour = tuple(1 if k == "favour" else 0 for k in kinds)
    for engine, state in zip(engines, states, strict=True):
        with pytest.raises(engine.IllegalAction, match=r"S-4\.1, F-1\.3"):
            engine.apply(state, ("token_limit", give_favour))


@pytest.mark.parametrize(("players", "first", "given"), [(2, 1, [0]), (3, 2, [0]), (4, 3, [0, 2])])
def test_the_second_and_fourth_players_start_with_a_favour(
    engines: list[Any], players: int, first: int, given: list[int]
) -> None:
    """F-1.4: the second player in turn order (and the fourth, in a game of
    four) starts with a favour, taken from the supply of 4."""
    for engine in engines:
        data = engine.to_json(engine.new_game(players, 11, first))
        held = [seat["tokens"].get("favour", 0) for seat in data["seats"]]
        assert held == [1 if seat in given else 0 for seat in range(players)]
        assert data["supply"]["favour"] == 4 - len(given)
    shown = [engine.to_json(engine.new_game(players, 11, first)) for engine in engines]
    assert all(s == shown[0] for s in shown)
