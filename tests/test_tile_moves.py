"""Effects that move tiles: `move TILE to ZONE` (a tile chosen in play or
from a tile zone of the player's) and `step NAME: claim one TILES t from
ZONE into ZONE where COND`, on the variant tests/variants/tile_moves.rules,
in both engines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from engine_modules import play_alike, variant_engines

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "tile_moves.rules"


@pytest.fixture(scope="module")
def engines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return variant_engines(VARIANT, tmp_path_factory.mktemp("tiles"))


def both(engines: tuple[Any, Any], data: dict[str, Any]) -> tuple[Any, Any]:
    generated, interpreted = engines
    return generated.from_json(data, complete=False), interpreted.from_json(data, complete=False)


def with_cards(engine: Any, seed: int, wanted: tuple[int, ...]) -> dict[str, Any]:
    """A new 2-player game where seat 0 has bought, from the decks, cards
    giving at least `wanted` bonus per colour."""
    data = engine.to_json(engine.new_game(2, seed))
    market = {k for row in data["market"].values() for k in row}
    bought: list[int] = []
    for colour, count in enumerate(wanted):
        mine = [k for k in range(90) if engine.CARD_bonus[k] == colour and k not in market]
        bought += mine[:count]
    for tier, deck in data["decks"].items():
        data["decks"][tier] = [k for k in deck if k not in bought]
    data["seats"][0]["zones"]["bought"] = bought
    return data


def test_move_a_tile_from_play_into_a_zone(engines: tuple[Any, Any]) -> None:
    """court: the noble chosen in play leaves play and enters the player's
    shelf; the moves list it by its number."""
    generated, interpreted = engines
    data = generated.to_json(generated.new_game(2, 7))
    noble = data["tiles"]["noble"][1]
    wanted = tuple(max(0, r - 1) for r in generated.TILE_requires[noble])
    g, i = both(engines, with_cards(generated, 7, wanted))
    move = ("court", noble)
    assert move in generated.legal_actions(g)
    assert generated.legal_actions(g) == interpreted.legal_actions(i)
    after = generated.to_json(generated.apply(g, move))
    assert after == interpreted.to_json(interpreted.apply(i, move))
    assert noble not in after["tiles"]["noble"]
    assert after["seats"][0]["zones"]["shelf"] == [noble]


def test_claim_from_a_zone_into_another(engines: tuple[Any, Any]) -> None:
    """promote: at the end of the turn, a noble of the shelf whose
    requirements are met moves into won (the only option: at once)."""
    generated, interpreted = engines
    data = generated.to_json(generated.new_game(2, 7))
    noble = data["tiles"]["noble"][0]
    data = with_cards(generated, 7, generated.TILE_requires[noble])
    data["tiles"]["noble"].remove(noble)
    data["seats"][0]["zones"]["shelf"] = [noble]
    g, i = both(engines, data)
    move = ("take_two", "white")
    after = generated.to_json(generated.apply(g, move))
    assert after == interpreted.to_json(interpreted.apply(i, move))
    assert after["seats"][0]["zones"]["shelf"] == []
    assert noble in after["seats"][0]["zones"]["won"]


def test_move_a_tile_from_a_zone_into_another(engines: tuple[Any, Any]) -> None:
    """dismiss: a noble chosen from the shelf moves into won."""
    generated, interpreted = engines
    data = generated.to_json(generated.new_game(2, 7))
    noble = data["tiles"]["noble"][0]
    data["tiles"]["noble"].remove(noble)
    data["seats"][0]["zones"]["shelf"] = [noble]
    data["seats"][0]["tokens"] = {"gold": 1}
    data["supply"]["gold"] -= 1
    g, i = both(engines, data)
    assert ("dismiss", noble) in generated.legal_actions(g)
    after = generated.to_json(generated.apply(g, ("dismiss", noble)))
    assert after == interpreted.to_json(interpreted.apply(i, ("dismiss", noble)))
    assert after["seats"][0]["zones"] == {**after["seats"][0]["zones"], "shelf": [], "won": [noble]}


def test_random_games_agree(engines: tuple[Any, Any]) -> None:
    generated, interpreted = engines
    play_alike(generated, interpreted, range(4), ("court", "dismiss", "buy"))
