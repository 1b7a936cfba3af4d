"""Whole games, every edition, 2 to 4 players: invariants after EVERY action.

Hypothesis draws the seed, the first player and, at every step, an index into
`legal_actions`. After each action the state's JSON form is checked against
the rules (editions/RULES.md) with values computed independently from the
JSON and the CSV data: tokens and cards conserved, no negative count, scores,
the token limit, reserved cards, tiles, decisions, the end of the game and
the winners.

Every game must end within PLY_CAP plies. The rules do not force progress
(a player may take a token and return it forever), so the first DRAWN_PLIES
choices are Hypothesis's and any further ones are uniformly random (from a
seeded generator): that checks the ending for arbitrary positions reached
by arbitrary play, not for adversarial play.

The games are played by the generated engines (the interpreter plays them too
slowly to be checked here; the differential tests hold it to the same moves).
The editions are discovered; the checks need an edition's facts
(tests/edition_facts.py) and its end-of-game rules (`Edition`), so an edition
without them is skipped.

Default: a fixed (derandomised) set of examples, a few seconds per case.
Set ENGINE_EXAMPLES=<n> for n examples per case, explored afresh each run,
and ENGINE_SHRINK=1 to shrink a failing game (slow).
"""

from __future__ import annotations

import itertools
import json
import os
import random
from typing import Any

import pytest
from edition_facts import (
    CARD_FILES,
    COLOUR_WORDS,
    EDITIONS,
    REQUIRE_COLUMNS,
    TILE_FILES,
    has_facts,
    read_csv,
)
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import load_engine

PLY_CAP = 2000
DRAWN_PLIES = 300
DEFAULT_EXAMPLES = 20
EXAMPLES = int(os.environ.get("ENGINE_EXAMPLES", "0") or 0)

SHRINK = bool(os.environ.get("ENGINE_SHRINK"))

SETTINGS = settings(
    max_examples=EXAMPLES or DEFAULT_EXAMPLES,
    deadline=None,
    derandomize=not EXAMPLES,
    database=None if not EXAMPLES else settings.default.database,
    # Shrinking whole games takes minutes; the failing game's seed and actions
    # are printed anyway. ENGINE_SHRINK=1 turns it on.
    phases=[Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if SHRINK else []),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)

Json = dict[str, Any]

# ------------------------------------------------------------------- data

# The editions whose end-of-game rules `Edition` states (C-5 and M-5).
END_RULES = ("classic", "marvel")


class Edition:
    """What the checks need of an edition, from the CSV data (and, for the
    majority tiles' points, the compiled model)."""

    def __init__(self, name: str) -> None:
        assert name in END_RULES, name
        self.name = name
        self.engine: Engine = load_engine(name, "generated")
        words = COLOUR_WORDS[name]
        self.colours = tuple(words.values())
        rows = read_csv(CARD_FILES[name])
        assert len(rows) == 90
        self.card_points = [int(r["points"]) for r in rows]
        self.card_bonus = [words[r["bonus"]] for r in rows]
        self.card_tier = [int(r["tier"]) for r in rows]
        self.card_icons = [int(r.get("avengers", 0)) for r in rows]
        self.card_time = [r.get("time_stone", "0") == "1" for r in rows]
        faces = read_csv(TILE_FILES[name])
        self.tile_points = [int(r["points"]) for r in faces]
        self.tile_requires = [tuple(int(r[c]) for c in REQUIRE_COLUMNS[name]) for r in faces]
        self.set_tiles = set(range(len(faces)))
        # docs/engine.md: tiles numbered across tile sets, then majority tiles
        model = compile_file(editions_folder() / f"{name}.rules").model
        assert model is not None
        assert sum(len(t.rows) for t in model.tile_sets) == len(faces)
        self.majority = {}
        for majority in model.majorities:
            self.majority[len(self.tile_points)] = majority
            self.tile_points.append(majority.points)
        # M-3.10: Avengers Assemble is worth 3 points
        assert [m.points for m in self.majority.values()] == ([3] if name == "marvel" else [])

    # values of a seat, from the JSON form
    def bonus(self, seat: Json) -> dict[str, int]:
        counts = dict.fromkeys(self.colours, 0)
        for k in seat["zones"]["bought"]:
            counts[self.card_bonus[k]] += 1
        return counts

    def score(self, seat: Json) -> int:
        """C-5.1 / M-5.1: bought cards' points plus the tiles held."""
        return sum(self.card_points[k] for k in seat["zones"]["bought"]) + sum(
            self.tile_points[t] for t in seat["zones"]["won"]
        )

    def qualifies(self, seat: Json) -> bool:
        """M-5.2: 16 points, a bonus of each colour, a time stone."""
        return (
            self.score(seat) >= 16
            and all(n >= 1 for n in self.bonus(seat).values())
            and seat["tokens"].get("time_stone", 0) >= 1
        )

    def icons(self, seat: Json) -> int:
        return sum(self.card_icons[k] for k in seat["zones"]["bought"])

    def meets(self, seat: Json, tile: int) -> bool:
        bonus = self.bonus(seat)
        return all(
            bonus[c] >= n for c, n in zip(self.colours, self.tile_requires[tile], strict=True)
        )

    def expected_winners(self, data: Json) -> frozenset[int]:
        """C-5.3: highest score, then fewest bought cards; M-5.4: among those
        who qualify, highest score, then Avengers Assemble, then fewest bought."""
        seats = data["seats"]
        if self.name == "classic":
            keys = {p: (self.score(s), -len(s["zones"]["bought"])) for p, s in enumerate(seats)}
        else:
            avengers = next(iter(self.majority))
            keys = {
                p: (self.score(s), avengers in s["zones"]["won"], -len(s["zones"]["bought"]))
                for p, s in enumerate(seats)
                if self.qualifies(s)
            }
        if not keys:
            return frozenset()
        best = max(keys.values())
        return frozenset(p for p, k in keys.items() if k == best)


EDITION_DATA = {name: Edition(name) for name in EDITIONS if name in END_RULES and has_facts(name)}


def edition_data(name: str) -> Edition:
    """The checks' data of an edition; a test of an edition without them is skipped."""
    if name not in EDITION_DATA:
        pytest.skip(f"no facts or end-of-game rules of edition {name!r} to check games with")
    return EDITION_DATA[name]


# ----------------------------------------------------------------- checks


class Game:
    """The checks, with what they remember between plies."""

    def __init__(self, edition: Edition, state: Any) -> None:
        self.e = edition
        self.engine = edition.engine
        data = self.engine.to_json(state)
        self.players = data["players"]
        self.first = data["first_player"]
        assert all(seat["tokens"] == {} for seat in data["seats"])
        self.totals = dict(data["supply"])
        self.tile_pool = self.tiles_in_game(data)
        self.turn_start = data
        self.check_state(state, data)

    def tiles_in_game(self, data: Json) -> list[int]:
        pool = [t for tiles in data["tiles"].values() for t in tiles]
        pool += [t for seat in data["seats"] for t in seat["zones"]["won"]]
        return pool

    def check_state(self, state: Any, data: Json) -> None:
        e, engine, players = self.e, self.engine, self.players
        seats = data["seats"]
        assert len(seats) == players
        assert engine.is_over(state) is data["over"]
        assert engine.current_player(state) == data["current_player"]
        assert 0 <= data["current_player"] < players

        # tokens: conserved kind by kind, never negative (C-2.2, M-2.2)
        for kind, total in self.totals.items():
            assert data["supply"][kind] >= 0, (kind, data["supply"])
            held = [seat["tokens"].get(kind, 0) for seat in seats]
            assert data["supply"][kind] + sum(held) == total, (kind, data["supply"], held)
        for seat in seats:
            assert set(seat["tokens"]) <= set(self.totals)
            assert all(n > 0 for n in seat["tokens"].values()), seat["tokens"]
            # S-3.4: at most 3 reserved cards
            assert len(seat["zones"]["reserved"]) <= 3, seat["zones"]
            # M-3.9: at most one time stone
            assert seat["tokens"].get("time_stone", 0) <= 1
        # S-4.1: at most 10 tokens once no decision is pending
        if data["pending"] is None:
            for p, seat in enumerate(seats):
                assert sum(seat["tokens"].values()) <= 10, (p, seat["tokens"])

        # cards: each of the 90 exactly once (S-2.1, S-3.6)
        everywhere: list[int] = []
        for tier, deck in data["decks"].items():
            assert all(e.card_tier[k] == int(tier) for k in deck), (tier, deck)
            everywhere += deck
        for tier, row in data["market"].items():
            assert len(row) == 4
            assert all(k is None or e.card_tier[k] == int(tier) for k in row), (tier, row)
            # S-3.6: a slot is empty only when its deck is
            if None in row:
                assert data["decks"][tier] == [], (tier, row)
            everywhere += [k for k in row if k is not None]
        for seat in seats:
            everywhere += seat["zones"]["bought"] + seat["zones"]["reserved"]
        assert sorted(everywhere) == list(range(90)), "cards lost or duplicated"
        reserved = {k for seat in seats for k in seat["zones"]["reserved"]}
        assert set(data["hidden"]) <= reserved
        assert data["hidden"] == sorted(data["hidden"])

        # tiles: once in play, a tile stays in the game (in play or held)
        pool = self.tiles_in_game(data)
        assert len(pool) == len(set(pool)), pool
        assert set(self.tile_pool) <= set(pool), ("tile lost", self.tile_pool, pool)
        assert set(pool) - set(self.tile_pool) <= set(e.majority), pool
        self.tile_pool = pool
        assert all(t in e.set_tiles for tiles in data["tiles"].values() for t in tiles)

        # scores, computed from the JSON and the data (C-5.1, M-5.1)
        expected = tuple(e.score(seat) for seat in seats)
        assert engine.scores(state) == expected, (engine.scores(state), expected)

        if e.name == "marvel":
            self.check_marvel(data)
        if not data["over"]:
            assert engine.winners(state) == frozenset()

    def check_marvel(self, data: Json) -> None:
        e, seats = self.e, data["seats"]
        # M-3.9: a time stone comes only from buying a card with the icon; who
        # bought one and holds none found the supply empty, and it stays empty
        for seat in seats:
            bought_icon = any(e.card_time[k] for k in seat["zones"]["bought"])
            holds = seat["tokens"].get("time_stone", 0)
            if holds:
                assert bought_icon, seat
            elif bought_icon:
                assert data["supply"]["time_stone"] == 0, seat
        # M-3.10: Avengers Assemble goes to 3 icons, then only to strictly more
        avengers = next(iter(e.majority))
        icons = [e.icons(seat) for seat in seats]
        holders = [p for p, seat in enumerate(seats) if avengers in seat["zones"]["won"]]
        assert len(holders) <= 1
        if holders:
            assert icons[holders[0]] >= 3 and icons[holders[0]] == max(icons), (holders, icons)
        else:
            assert max(icons) < 3, icons

    def check_move(self, before: Json, action: tuple[Any, ...], state: Any) -> Json:
        """Checks of one applied action; returns the new JSON form."""
        engine, e, players = self.engine, self.e, self.players
        data = engine.to_json(state)
        self.check_state(state, data)
        mover = before["current_player"]

        # the action's JSON form round-trips (docs/engine.md, Actions)
        form = engine.action_to_json(action)
        assert engine.action_from_json(json.loads(json.dumps(form))) == action

        if data["pending"] is not None:
            # S-4.3: a pending decision has several options, all of that step
            options = engine.legal_actions(state)
            assert len(options) >= 2, options
            assert all(a[0] == data["pending"] and len(a) == 2 for a in options)
            assert data["current_player"] == mover and data["turn"] == before["turn"]
            return data

        # a turn has ended
        self.check_views(state, data)
        assert data["turn"] == before["turn"] + 1
        assert data["current_player"] == (mover + 1) % players
        self.check_claims(self.turn_start, data, mover)
        round_end = data["current_player"] == self.first
        assert round_end == (data["turn"] % players == 0)
        scores = engine.scores(state)
        if e.name == "classic":
            # C-5.2: 15 points at the end of a turn marks the last round
            assert data["last_round"] == any(s >= 15 for s in scores), (scores, data)
        if data["over"]:
            assert round_end, "the game ends only at the end of a round"
            assert engine.legal_actions(state) == []
            everyone_passed = all("pass" in seat["did"] for seat in data["seats"])
            if e.name == "classic":
                assert data["last_round"] or everyone_passed  # C-5.2, E-6.2
            else:  # M-5.3, M-5.5, E-6.2
                assert everyone_passed or any(e.qualifies(s) for s in data["seats"])
        elif round_end:
            assert all(seat["did"] == [] for seat in data["seats"])
            if e.name == "classic":
                assert not data["last_round"]
            else:  # M-5.5: nobody qualifies at the end of a round that goes on
                assert not any(e.qualifies(s) for s in data["seats"])
        self.turn_start = data
        return data

    def check_views(self, state: Any, data: Json) -> None:
        """E-6.3, docs/engine.md: a view is the JSON form with deck sizes, the
        others' hidden cards as {"deck": tier}, and only the viewer's own
        hidden cards in `hidden`."""
        hidden = set(data["hidden"])
        for viewer in range(self.players):
            view = self.engine.view(state, viewer)
            assert view["decks"] == {t: len(cards) for t, cards in data["decks"].items()}
            for key in data:
                if key not in ("decks", "seats", "hidden"):
                    assert view[key] == data[key], key
            own = set()
            for p, (seen, seat) in enumerate(zip(view["seats"], data["seats"], strict=True)):
                assert seen["tokens"] == seat["tokens"] and seen["did"] == seat["did"]
                assert seen["zones"]["won"] == seat["zones"]["won"], "tiles are public"
                for zone in ("bought", "reserved"):
                    if p == viewer:
                        own |= set(seat["zones"][zone]) & hidden
                        assert seen["zones"][zone] == seat["zones"][zone]
                    else:
                        assert seen["zones"][zone] == [
                            {"deck": self.e.card_tier[k]} if k in hidden else k
                            for k in seat["zones"][zone]
                        ]
            listed = set(view["hidden"])
            assert listed == own, (viewer, view["hidden"], data["hidden"])
            assert view["hidden"] == sorted(view["hidden"])

    def check_claims(self, start: Json, end: Json, mover: int) -> None:
        """C-4.2 / M-4.2: a met tile must be claimed, one per turn at most."""
        e = self.e
        seat = end["seats"][mover]
        held_before = set(start["seats"][mover]["zones"]["won"]) & e.set_tiles
        held_now = set(seat["zones"]["won"]) & e.set_tiles
        claimed = held_now - held_before
        assert held_before <= held_now
        assert len(claimed) <= 1, claimed
        for tile in claimed:
            assert e.meets(seat, tile), (tile, seat)
        if not claimed:
            in_play = [t for tiles in end["tiles"].values() for t in tiles]
            assert not [t for t in in_play if e.meets(seat, t)], (in_play, seat)

    def check_end(self, state: Any) -> None:
        engine, e = self.engine, self.e
        data = engine.to_json(state)
        assert data["over"] and data["pending"] is None
        winners = engine.winners(state)
        assert isinstance(winners, frozenset)
        assert winners <= set(range(self.players))
        if e.name == "classic":
            assert winners, "classic always has a winner"
        else:
            for p in winners:
                assert e.qualifies(data["seats"][p]), (p, data["seats"][p])
        assert winners == e.expected_winners(data), (winners, engine.scores(state))
        with pytest.raises(engine.IllegalAction):
            engine.apply(state, ("pass",))


# ------------------------------------------------------------------ games


def play(edition: str, players: int, seed: int, first: int, draw: Any) -> tuple[int, Any]:
    """Play one game, checking every action; `draw(n)` picks an index < n."""
    e = edition_data(edition)
    engine = e.engine
    state = engine.new_game(players, seed, first)
    game = Game(e, state)
    finish = random.Random(seed)
    history: list[Any] = []
    before = engine.to_json(state)
    try:
        while not engine.is_over(state):
            assert len(history) < PLY_CAP, f"no end after {PLY_CAP} plies (E-6.2, C-5.2, M-5.3)"
            legal = engine.legal_actions(state)
            assert legal, "a game that is not over has a legal action (E-3.8)"
            n = len(history)
            index = draw(len(legal)) if n < DRAWN_PLIES else finish.randrange(len(legal))
            action = legal[index]
            history.append(action)
            after = engine.apply(state, action)
            assert engine.to_json(state) == before, "apply changed the given state"
            before = game.check_move(before, action, after)
            state = after
        game.check_end(state)
    except AssertionError as error:
        where = f"{edition}, {players} players, seed {seed}, first player {first}"
        try:
            note(where)
            note(f"actions ({len(history)}): {history}")
        except Exception:  # not inside a Hypothesis test
            error.add_note(f"{where}; actions ({len(history)}): {history}")
        raise
    return len(history), state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", EDITIONS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), first=st.integers(0, 3), data=st.data())
def test_whole_games_keep_the_rules_after_every_action(
    edition: str, players: int, seed: int, first: int, data: st.DataObject
):
    """Invariants after every action (C-2.2, M-2.2, S-2.1, S-3.4, S-3.6,
    S-4.1, S-4.3, C-4.2, M-4.2, C-5.1, M-5.1, M-3.9, M-3.10; views after
    every turn, E-6.3), and the end of the game (C-5.2, C-5.3, M-5.3, M-5.4,
    M-5.5, E-6.2) within PLY_CAP plies."""

    def draw(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    play(edition, players, seed, first % players, draw)


@pytest.mark.parametrize("edition", EDITIONS)
def test_always_the_first_or_last_legal_action(edition: str):
    """Extreme but deterministic play: the first legal action every time (it
    may loop forever by the rules, so random play finishes it after
    DRAWN_PLIES), and the last one every time."""
    for players in (2, 3, 4):
        play(edition, players, 7, 0, lambda n: 0)
        play(edition, players, 7, players - 1, lambda n: n - 1)


def test_an_endless_loop_is_legal_so_the_cap_is_for_random_play():
    """Why the finishing plies are random: in Marvel with 2 players and seed
    0, always taking the first legal action loops (take a token, return it)
    and never ends; the rules allow it."""
    engine = EDITION_DATA["marvel"].engine
    state = engine.new_game(2, 0)
    for _ in range(DRAWN_PLIES):
        state = engine.apply(state, engine.legal_actions(state)[0])
    seen = set()
    for _ in range(40):
        state = engine.apply(state, engine.legal_actions(state)[0])
        seen.add(json.dumps({k: v for k, v in engine.to_json(state).items() if k != "turn"}))
    assert not engine.is_over(state)
    assert len(seen) <= 8, "a short cycle of positions"


def test_winners_tie_logic_independently():
    """The independent ranking used above, on hand-made seats (C-5.3, M-5.4)."""
    classic = EDITION_DATA["classic"]
    top = [k for k in range(90) if classic.card_tier[k] == 3]
    five = [k for k in top if classic.card_points[k] == 5]
    four = [k for k in top if classic.card_points[k] == 4]
    three = [k for k in top if classic.card_points[k] == 3]
    seat = lambda bought: {"tokens": {}, "zones": {"bought": bought, "reserved": [], "won": []}}  # noqa: E731
    data = {"seats": [seat(five[:3]), seat(four[:3] + three[:1]), seat(five[3:4])]}
    assert classic.expected_winners(data) == frozenset({0})
    data = {"seats": [seat(five[:3]), seat(five[3:4] + four[:2] + three[1:3])]}
    assert [classic.score(s) for s in data["seats"]] == [15, 19]
    assert classic.expected_winners(data) == frozenset({1})
    data = {"seats": [seat(five[:2]), seat(five[2:4])]}
    assert classic.expected_winners(data) == frozenset({0, 1})


def test_data_agrees_with_the_compiled_model():
    """The CSV reading here agrees with the compiler's view of the data."""
    for name, e in EDITION_DATA.items():
        model = compile_file(editions_folder() / f"{name}.rules").model
        assert model is not None
        assert [r["points"] for r in model.cards.rows] == e.card_points
        assert [r["bonus"] for r in model.cards.rows] == e.card_bonus
        assert tuple(model.colours) == e.colours == tuple(e.engine.COLOURS)
        faces = [r for t in model.tile_sets for r in t.rows]
        assert [r["points"] for r in faces] == e.tile_points[: len(faces)]
        assert [tuple(r["requires"]) for r in faces] == e.tile_requires
        assert list(itertools.chain(e.set_tiles, e.majority)) == list(range(len(e.tile_points)))


def test_marvel_winners_logic_independently():
    """M-5.2, M-5.4: only qualifying players win; then score, then Avengers
    Assemble, then fewest bought cards."""
    marvel = EDITION_DATA["marvel"]
    avengers = next(iter(marvel.majority))
    best = {
        c: max(
            (k for k in range(90) if marvel.card_bonus[k] == c),
            key=lambda k: marvel.card_points[k],
        )
        for c in marvel.colours
    }
    rainbow = list(best.values())
    assert sum(marvel.card_points[k] for k in rainbow) >= 16

    def seat(bought: list[int], stone: bool, won: list[int]) -> Json:
        tokens = {"time_stone": 1} if stone else {}
        return {"tokens": tokens, "zones": {"bought": bought, "reserved": [], "won": won}}

    everything = [k for k in range(90) if k not in rainbow]
    rich = seat(everything, False, [])  # many points, no time stone: cannot win
    assert marvel.expected_winners({"seats": [seat(rainbow, True, []), rich]}) == {0}
    assert marvel.expected_winners({"seats": [seat(rainbow, False, []), rich]}) == frozenset()
    both = {"seats": [seat(rainbow, True, []), seat(rainbow, True, [avengers])]}
    assert marvel.expected_winners(both) == {1}
    tied = {"seats": [seat(rainbow, True, []), seat(rainbow, True, [])]}
    assert marvel.expected_winners(tied) == {0, 1}
