"""Splendor Duel (editions/duel.rules against editions/DUEL.md), played by
the reference interpreter: random games to the end, each position checked
against the rules with values read straight from the CSV data, not through
the compiler. The rule-by-rule cases are the scenarios
(tests/scenarios/duel_*.json)."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path
from typing import Any

import pytest
from edition_facts import engine_or_skip

from splendor_rules.compiler.runtime.interpreter import InterpretedEngine, load_interpreted
from splendor_rules.compiler.runtime.loading import EngineKind

DATA = Path(__file__).resolve().parent.parent / "editions" / "data"
FILES = ("duel_cards_1.csv", "duel_cards_2.csv", "duel_cards_3.csv", "duel_royals.csv")
# D-1.2, D-1.3: the 25 tokens and the 3 privileges.
TOTALS = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}
PRIVILEGES = 3
COLOURS = ("white", "blue", "green", "red", "black")
BEFORE_MAIN = ("use_privilege", "replenish")


def _cards() -> list[dict[str, str]]:
    """Every card in the edition's numbering: the levels, then the royal cards."""
    rows: list[dict[str, str]] = []
    for name in FILES:
        with (DATA / name).open(encoding="utf-8", newline="") as file:
            rows += list(csv.DictReader(file))
    return rows


CARDS = _cards()


@pytest.fixture(scope="module")
def duel() -> InterpretedEngine:
    return load_interpreted("duel")


def _colour(card: int, taken: dict[str, str]) -> str | None:
    """D-4.5, D-4.7: a card's colour; a joker's, the one it took."""
    kind = CARDS[card]["kind"]
    if kind == "joker":
        return taken.get(str(card))
    return kind if kind in COLOURS else None


def _goal(bought: list[int], taken: dict[str, str]) -> bool:
    """D-6.1: 20 points, 10 crowns, or 10 points on cards of one colour."""
    points = sum(int(CARDS[k]["points"]) for k in bought)
    crowns = sum(int(CARDS[k]["crowns"]) for k in bought)
    by_colour = {c: 0 for c in COLOURS}
    for k in bought:
        colour = _colour(k, taken)
        if colour is not None:
            by_colour[colour] += int(CARDS[k]["points"])
    return points >= 20 or crowns >= 10 or max(by_colour.values()) >= 10


def _check(data: dict[str, Any], turn_ended: bool) -> None:
    """The rules that hold in every position, and at the end of a turn (no
    decision pending after a main action) those of the end of the turn."""
    seats = data["seats"]
    for kind, total in TOTALS.items():  # D-1.7: every token in one place
        held = sum(s["tokens"].get(kind, 0) for s in seats)
        on_board = data["board"].count(kind)
        assert data["supply"][kind] + held + on_board + data["bag"][kind] == total, kind
        assert data["supply"][kind] == 0  # gems and gold are never in the supply
    privileges = data["supply"]["privilege"] + sum(s["tokens"].get("privilege", 0) for s in seats)
    assert privileges == PRIVILEGES  # D-1.3
    cards = [c for deck in data["decks"].values() for c in deck]
    cards += [c for row in data["market"].values() for c in row if c is not None]
    cards += [c for s in seats for zone in s["zones"].values() for c in zone]
    assert sorted(cards) == list(range(len(CARDS)))  # D-1.4, D-1.5: each card once
    taken = data["card_values"]["taken"]
    for seat in seats:
        bought = seat["zones"]["bought"]
        royals = [k for k in bought if CARDS[k]["kind"] == "royal"]
        assert len(royals) <= 2 and len(seat["zones"]["reserved"]) <= 3  # D-5.1, D-3.4
        if turn_ended:
            tokens = sum(n for kind, n in seat["tokens"].items() if kind != "privilege")
            assert tokens <= 10  # D-5.2: privileges not counted
            crowns = sum(int(CARDS[k]["crowns"]) for k in bought)
            assert len(royals) == min(2, crowns // 3)  # D-5.1: one at 3 crowns, one at 6
            if not data["over"]:
                assert not _goal(bought, taken)  # D-6.1: the game ends at once
        for k in bought:  # D-4.5: a joker bought has taken a colour
            if CARDS[k]["kind"] == "joker" and turn_ended:
                assert taken.get(str(k)) in COLOURS


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_rules_to_the_end(duel: InterpretedEngine, seed: int) -> None:
    state = duel.new_game(2, seed, seed % 2)
    moves = random.Random(seed)
    for _ in range(2000):
        if duel.is_over(state):
            break
        legal = duel.legal_actions(state)
        assert legal, "a game that is not over has a legal move"
        action = legal[moves.randrange(len(legal))]
        state = duel.apply(state, action)
        data = json.loads(json.dumps(duel.to_json(state)))
        # D-3.1: the actions before the main one do not end the turn
        _check(data, data["pending"] is None and action[0] not in BEFORE_MAIN)
    assert duel.is_over(state)
    data = duel.to_json(state)
    winners = duel.winners(state)
    taken = data["card_values"]["taken"]
    met = {p for p, s in enumerate(data["seats"]) if _goal(s["zones"]["bought"], taken)}
    assert winners == met and len(winners) <= 1  # D-6.1, D-6.2: a winner met a goal


def test_the_card_data_are_duels(duel: InterpretedEngine) -> None:
    """D-1.4, D-1.5: 30, 24 and 13 jewel cards by level, 4 royal cards."""
    levels = [row["level"] for row in CARDS]
    assert [levels.count(str(n)) for n in (1, 2, 3, 0)] == [30, 24, 13, 4]
    data = duel.to_json(duel.new_game(2, 0, 0))
    faces = {deck: len([c for c in row if c is not None]) for deck, row in data["market"].items()}
    assert sorted(faces.values()) == [3, 4, 4, 5]  # D-2.1, D-2.2
    assert data["board"].count(None) == 0 and sum(data["bag"].values()) == 0  # D-2.4


@pytest.mark.parametrize("kind", ["generated", "native"])
def test_a_second_replenish_is_refused_alike(duel: InterpretedEngine, kind: EngineKind) -> None:
    """D-3.1: one replenish a turn; the replenish states no rule of its own,
    so every engine cites the edition by its name."""
    other = engine_or_skip("duel", kind)
    messages = []
    for engine in (duel, other):
        data = engine.to_json(engine.new_game(2, 1, 0))
        data["bag"][data["board"][0]] = 1  # one token back in the bag
        data["board"][0] = None
        state = engine.apply(engine.from_json(data), ("replenish",))
        with pytest.raises(ValueError) as refused:
            engine.apply(state, ("replenish",))
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("duel: 'replenish' is no longer open this turn")
