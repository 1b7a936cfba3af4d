"""Players as values (issue 22, construct 1): `you`, `opponent`, `next
player`, `previous player`, `other players`, `VALUE of PLAYER`, parameters
of type player, and transfers of tokens (`take N kind from HOLDER`, `give N
kind [from HOLDER] to HOLDER`), on the reference interpreter.

The scenarios name the rules of Splendor Duel they stand for (D-3.6: the
opponent takes a privilege, from the supply if one is left, otherwise from
the player; D-4.4: a steal), played on a small test edition written to a
temporary folder, whose generated engine is held to the interpreter too.
"""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
import test_differential as differential
from engine_modules import engine_module

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.dsl.parser import parse_edition
from splendor_rules.dsl.unparse import unparse_edition

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "editions" / "data" / "classic_cards.csv"

# A two-player edition with Duel's privileges (D-1.3, D-3.6), a use of them
# (D-3.1), a steal (D-4.4) and definitions read for the opponent.
DUEL_LIKE = """\
edition players_duel "Players as values" {
  players 2..2
  colours white, blue, green, red, black
  token gold "gold": wild
  [D-1.3] token privilege "privilege": special, never returned, at most 3 per player
  cards from "data/classic_cards.csv" with 90 rows {
    tier: int 1..3
    bonus: colour
    points: int
    cost: per colour
  }
  zone bought: cards of each player
  zone reserved: cards of each player
  define bonus = per colour c: count(k in bought where k.bonus == c)
  define lead(p: player) = score - score of p
  define behind = lead(opponent) < 0
  market by tier {1: 40, 2: 30, 3: 20}, 4 face up each
  supply {
    each colour: 4
    gold: 3
    privilege: 3
  }
  turn order: fixed, first player chosen at setup
  [D-3.3] action take_three "take 3 tokens of one colour" {
    choose c from colours
    let left = supply(privilege)
    require supply(c) >= 3 else "taking three needs 3 {c} in the supply; there are {supply(c)}"
    gain 3 c
    [D-3.6] if left > 0 {
      give 1 privilege from the supply to opponent
    }
    [D-3.6a] if left == 0 {
      give 1 privilege to opponent
    }
  }
  [D-3.1] action use_privilege "spend a privilege for a token" {
    choose c from colours
    require tokens(privilege) > 0 else "you hold no privilege"
    require supply(c) > 0 else "the supply holds no {c}"
    give 1 privilege to the supply
    gain 1 c
  }
  [D-4.4] action steal "take a token from the opponent" {
    choose c from colours
    require behind else "only a player behind may steal; you lead {opponent} by {lead(opponent)}"
    require tokens(c) of opponent > 0 else "the opponent holds no {c}"
    take 1 c from opponent
  }
  [D-3.4] action reserve "reserve a card" {
    require count(reserved) < 3 and count(reserved) of opponent < 3 else "no more reserves"
    choose k from market, deck tops
    move k to reserved
  }
  [D-3.5] action buy "buy a card" {
    choose k from market, reserved
    pay k.cost less bonus
    move k to bought
  }
  refill from own deck
  action pass "pass": only when no other action is legal
  step token_limit: return tokens above 10
  step end_check: check game end
  score = sum(bought.points)
  end target: at the end of the turn once any(player: score >= 10)
  winners: highest lead(opponent), ties share
  randomness: seeded at setup
  hidden: deck order, reserved cards from a deck except to their owner
}
"""

# Three and more players: gifts to the next player, reads of the others.
ROUND_TABLE = """\
edition round_table "Gifts round the table" extends classic {
  define poorest = all(p in other players: count(bought) <= count(bought) of p)
  action gift "give a token to the next player" {
    choose c from colours
    require tokens(c) > 0 else "you hold no {c}"
    give 1 c to next player
  }
  action tithe "the previous player gives you a token" {
    choose c from colours
    require poorest and tokens(c) of previous player > 0 else "no {c} to take"
    give 1 c from previous player to you
  }
}
"""


def write(folder: Path, text: str, name: str) -> Path:
    (folder / "data").mkdir(exist_ok=True)
    shutil.copy(CARDS, folder / "data" / CARDS.name)
    path = folder / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return path


def checked(path: Path) -> m.Edition:
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


Engine = Any  # the interpreter, or a generated engine module


def engines(request: pytest.FixtureRequest, folder: Path, text: str, name: str) -> Engine:
    """The edition's engine of the kind the test is parametrized with."""
    model = checked(write(folder, text, name))
    if request.param == "interpreted":
        return InterpretedEngine(model)
    return engine_module(model, folder)


@pytest.fixture(scope="module", params=["interpreted", "generated"])
def duel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return engines(request, tmp_path_factory.mktemp("players"), DUEL_LIKE, "players_duel")


@pytest.fixture(scope="module", params=["interpreted", "generated"])
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Engine:
    return engines(request, tmp_path_factory.mktemp("round_table"), ROUND_TABLE, "round_table")


@pytest.fixture(scope="module")
def card_points(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, ...]:
    folder = tmp_path_factory.mktemp("points")
    rows = checked(write(folder, DUEL_LIKE, "players_duel")).cards.rows
    return tuple(int(row["points"]) for row in rows)  # type: ignore[arg-type]


def position(
    engine: Engine, players: int, supply: dict[str, int], seats: list[dict[str, int]]
) -> Any:
    """A hand-made position: seat 0 to move, the supply and each seat's tokens."""
    data = engine.to_json(engine.new_game(players=players, seed=3))
    data["current_player"] = 0
    data["supply"].update(supply)
    for seat, tokens in zip(data["seats"], seats, strict=True):
        seat["tokens"] = dict(tokens)
    return engine.from_json(data, complete=False)


def tokens(engine: Engine, state: Any) -> tuple[dict[str, int], list[dict[str, int]]]:
    data = engine.to_json(state)
    return data["supply"], [seat["tokens"] for seat in data["seats"]]


def play(engine: Engine, state: Any, *action: Any) -> Any:
    return engine.apply(state, tuple(action))


# -------------------------------------------------- D-3.6: taking a privilege


def test_d_3_6_the_opponent_takes_a_privilege_from_the_supply(duel: Engine) -> None:
    """D-3.3, D-3.6: taking 3 of one colour gives the opponent a privilege,
    from the supply while one is left there."""
    state = position(duel, 2, {"red": 4, "privilege": 3}, [{}, {}])
    supply, seats = tokens(duel, play(duel, state, "take_three", "red"))
    assert (supply["privilege"], supply["red"]) == (2, 1)
    assert seats[0] == {"red": 3} and seats[1] == {"privilege": 1}


def test_d_3_6_with_the_supply_empty_the_privilege_comes_from_the_player(
    duel: Engine,
) -> None:
    """D-3.6: none left in the supply: the opponent takes it from the player."""
    state = position(duel, 2, {"red": 4, "privilege": 0}, [{"privilege": 2}, {"privilege": 1}])
    supply, seats = tokens(duel, play(duel, state, "take_three", "red"))
    assert supply["privilege"] == 0
    assert seats[0] == {"red": 3, "privilege": 1} and seats[1] == {"privilege": 2}


def test_d_3_6_an_opponent_holding_all_three_takes_nothing(duel: Engine) -> None:
    """D-3.6: the opponent already holds all 3: nothing happens (the cap of
    3 per player stops the transfer; the player has none to give either)."""
    state = position(duel, 2, {"red": 4, "privilege": 0}, [{}, {"privilege": 3}])
    supply, seats = tokens(duel, play(duel, state, "take_three", "red"))
    assert supply["privilege"] == 0
    assert seats[0] == {"red": 3} and seats[1] == {"privilege": 3}


def test_a_transfer_stops_at_the_cap_of_its_target(duel: Engine) -> None:
    """A transfer moves no more than the target's cap leaves room for, even
    with tokens left at the source (a hand-made position, for the rule alone)."""
    state = position(duel, 2, {"red": 4, "privilege": 1}, [{}, {"privilege": 3}])
    supply, seats = tokens(duel, play(duel, state, "take_three", "red"))
    assert supply["privilege"] == 1 and seats[1] == {"privilege": 3}


def test_d_3_1_a_privilege_goes_back_to_the_supply(duel: Engine) -> None:
    """D-3.1: a privilege spent goes to the supply; the player takes a token."""
    state = position(duel, 2, {"blue": 2, "privilege": 1}, [{"privilege": 2}, {}])
    supply, seats = tokens(duel, play(duel, state, "use_privilege", "blue"))
    assert (supply["privilege"], supply["blue"]) == (2, 1)
    assert seats[0] == {"privilege": 1, "blue": 1}


# --------------------------------------------------------------- D-4.4: steal


def behind(duel: Engine, points: tuple[int, ...], seats: list[dict[str, int]]) -> tuple[Any, int]:
    """Seat 0 to move, behind seat 1, who bought a face-up card with points:
    the position, and those points."""
    data = duel.to_json(position(duel, 2, {}, seats))
    slots = [(row, i) for row in data["market"].values() for i, card in enumerate(row)]
    row, i = next((row, i) for row, i in slots if row[i] is not None and points[row[i]])
    card, row[i] = row[i], None
    data["seats"][1]["zones"]["bought"] = [card]
    return duel.from_json(data, complete=False), points[card]


def test_d_4_4_a_steal_moves_a_token_from_the_opponent(
    duel: Engine, card_points: tuple[int, ...]
) -> None:
    """D-4.4: a gem of the player's choice from the opponent's supply."""
    state, _ = behind(duel, card_points, [{"white": 1}, {"red": 2, "gold": 1}])
    assert ("steal", "red") in duel.legal_actions(state)
    supply_before, _ = tokens(duel, state)
    supply, seats = tokens(duel, play(duel, state, "steal", "red"))
    assert seats[0] == {"white": 1, "red": 1} and seats[1] == {"red": 1, "gold": 1}
    assert supply == supply_before


def test_d_4_4_a_steal_of_a_colour_the_opponent_lacks_is_refused(
    duel: Engine, card_points: tuple[int, ...]
) -> None:
    """D-4.4: the refusal names the rule; no steal of blue is legal."""
    state, _ = behind(duel, card_points, [{}, {"red": 2}])
    assert [a for a in duel.legal_actions(state) if a[0] == "steal"] == [("steal", "red")]
    with pytest.raises(duel.IllegalAction, match=r"^D-4\.4: the opponent holds no blue$"):
        play(duel, state, "steal", "blue")


def test_a_definition_read_for_the_opponent(duel: Engine, card_points: tuple[int, ...]) -> None:
    """`lead(opponent)` is the player's score less the opponent's: a player
    ahead may not steal, and the message shows the opponent's seat and the lead."""
    state = position(duel, 2, {}, [{}, {"red": 2}])
    data = duel.to_json(state)
    data["current_player"] = 1
    state = duel.from_json(data, complete=False)
    with pytest.raises(duel.IllegalAction, match=r"you lead 0 by 0$"):
        play(duel, state, "steal", "red")
    ahead, points = behind(duel, card_points, [{}, {"red": 1}])
    data = duel.to_json(ahead)
    data["current_player"] = 1
    refusal = rf"^D-4\.4: only a player behind.*lead 0 by {points}$"
    with pytest.raises(duel.IllegalAction, match=refusal):
        play(duel, duel.from_json(data, complete=False), "steal", "red")


def test_random_games_keep_every_token(duel: Engine) -> None:
    """Transfers create and destroy nothing: every kind's total stays."""
    for seed in range(3):
        rng = random.Random(seed)
        state = duel.new_game(players=2, seed=seed)
        for _ in range(120):
            if duel.is_over(state):
                break
            state = duel.apply(state, rng.choice(duel.legal_actions(state)))
            supply, seats = tokens(duel, state)
            for kind, start in (("red", 4), ("gold", 3), ("privilege", 3)):
                assert supply[kind] + sum(s.get(kind, 0) for s in seats) == start


# --------------------------------------------- more players: turn order names


def test_next_player_receives_a_gift(table: Engine) -> None:
    """`give 1 c to next player`: with 3 players, seat 0 gives to seat 1,
    and seat 2 (the last) to seat 0."""
    state = position(table, 3, {}, [{"red": 1}, {}, {"blue": 1}])
    _, seats = tokens(table, play(table, state, "gift", "red"))
    assert seats == [{}, {"red": 1}, {"blue": 1}]
    data = table.to_json(state)
    data["current_player"] = 2
    _, seats = tokens(table, play(table, table.from_json(data, complete=False), "gift", "blue"))
    assert seats == [{"red": 1, "blue": 1}, {}, {}]


def test_previous_player_gives_and_other_players_are_read(table: Engine) -> None:
    """`give 1 c from previous player to you`, allowed while no other player
    (`other players`) has fewer cards: with 4 players, seat 0 takes from seat 3."""
    state = position(table, 4, {}, [{}, {"red": 1}, {}, {"green": 2}])
    assert [a for a in table.legal_actions(state) if a[0] == "tithe"] == [("tithe", "green")]
    _, seats = tokens(table, play(table, state, "tithe", "green"))
    assert seats == [{"green": 1}, {"red": 1}, {}, {"green": 1}]


# ---------------------------------------------------------- the rule text


def test_the_rule_text_parses_back() -> None:
    for text in (DUEL_LIKE, ROUND_TABLE):
        edition, diagnostics = parse_edition(text, "x.rules")
        assert not diagnostics and edition is not None
        again, _ = parse_edition(unparse_edition(edition), "x.rules")
        assert again == edition


@pytest.mark.parametrize(
    "written",
    [
        "score of opponent of next player",
        "score of (opponent if true else you)",
        "lead(previous player) of next player",
        "count(x in other players where score of x > 0)",
        "tokens(red) of holder(k)",
    ],
)
def test_of_prints_with_the_parentheses_it_needs(written: str) -> None:
    from splendor_rules.dsl.parser import parse_expression
    from splendor_rules.dsl.unparse import unparse_expression

    tree, diagnostics = parse_expression(written, "x.rules", 0, 0)
    assert not diagnostics and tree is not None
    assert unparse_expression(tree) == written


# ---------------------------------------------------------- the targets


@pytest.mark.parametrize("seed", range(2))
def test_the_generated_engine_agrees(tmp_path: Path, seed: int) -> None:
    """Whole games of the Duel-like edition (privileges given and taken,
    steals): the generated engine and the interpreter agree after every
    action, illegal probes included. The native engine is held to both by
    tests/test_native.py on the variant tests/variants/players.rules."""
    model = checked(write(tmp_path, DUEL_LIKE, "players_duel"))
    interpreter = InterpretedEngine(model)
    sides = (
        differential.Side("generated", engine_module(model, tmp_path)),
        differential.Side("interpreter", interpreter),
    )
    with differential.registered(model.name, interpreter):
        rng = random.Random(seed)
        diff = differential.Differential(model.name, 2, seed, seed % 2, sides)
        ended = differential.play(diff, rng.randrange, 600, differential.probe_with(rng.randrange))
    assert diff.plies > 20, "the game should go on a while"
    assert ended or diff.plies == 600


@pytest.mark.parametrize("seat", [-1, 4, 10**6])
def test_a_player_carried_past_the_seats_is_refused_alike(seat: int) -> None:
    """A state whose pending decision carries a player that is no seat
    (hand-edited or hostile JSON) is a ValueError in every engine, never an
    index past the seats (in C, a write outside the state)."""
    from splendor_rules.compiler.runtime.loading import EngineUnavailable
    from splendor_rules.compiler.tools import loader

    path = ROOT / "tests" / "variants" / "players.rules"
    engines = [loader.load(path, "interpreted"), loader.load(path, "generated")]
    with contextlib.suppress(EngineUnavailable):  # no C compiler: the other two still
        engines.append(loader.load(path, "native"))
    engine, rng = engines[1], random.Random(0)
    state = engine.new_game(2, 0)
    while engine.to_json(state)["pending"] in (None, "token_limit"):
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    hostile = engine.to_json(state)
    (names,) = [decision["names"] for decision in hostile["pending"]]
    assert "victim" in names
    names["victim"] = seat
    for each in engines:
        with pytest.raises(ValueError, match="is not a player"):
            each.from_json(hostile)


# ------------------------------------------------ a move that chooses a player

VARIANT = ROOT / "tests" / "variants" / "players.rules"


@pytest.fixture(scope="module")
def robbers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The variant's three engines: the interpreter, the generated and the
    native one (`rob`: `choose p from q in other players where …`)."""
    from engine_modules import checked_model, three_engines

    return three_engines(checked_model(VARIANT), tmp_path_factory.mktemp("rob"))


@pytest.fixture(params=["interpreter", "generated", "native"])
def robber(request: pytest.FixtureRequest, robbers: dict[str, Any]) -> Engine:
    return robbers[request.param]


def test_a_move_chooses_the_player_it_robs(robber: Engine) -> None:
    """`choose p from q in other players where tokens(favour) of q > 0`: with
    4 players, seat 0 may rob seats 1 and 3 (who hold a favour), of a token
    each holds, not seat 2; the move holds the seat, in turn order from the
    next player, and the tokens move from the seat chosen."""
    seats = [{}, {"red": 1, "favour": 1}, {"red": 2}, {"green": 2, "favour": 1}]
    state = position(robber, 4, {}, seats)
    robs = [a for a in robber.legal_actions(state) if a[0] == "rob"]
    assert robs == [("rob", 1, "red"), ("rob", 3, "green")]
    assert robber.action_to_json(("rob", 3, "green")) == {"action": "rob", "p": 3, "c": "green"}
    _, after = tokens(robber, play(robber, state, "rob", 3, "green"))
    assert after == [{"green": 1, "favour": 1}, seats[1], seats[2], {"green": 1}]


@pytest.mark.parametrize(
    ("move", "refusal"),
    [
        (("rob", 2, "red"), r"2 is not "),  # holds no favour
        (("rob", 0, "red"), r"0 is not "),  # yourself: not among the other players
        (("rob", 4, "red"), r"4 is not "),  # no such seat
        (("rob", 1, "blue"), r"seat 1 holds no blue$"),
    ],
)
def test_a_player_the_move_may_not_choose_is_refused(
    robber: Engine, move: tuple[Any, ...], refusal: str
) -> None:
    """A seat outside the choice's set, or a requirement failed for the seat
    chosen: refused, the state unchanged."""
    seats = [{"blue": 1}, {"red": 1, "favour": 1}, {"red": 2}, {}]
    state = position(robber, 4, {}, seats)
    before = robber.to_json(state)
    with pytest.raises(robber.IllegalAction, match=refusal):
        robber.apply(state, move)
    assert robber.to_json(state) == before


def test_the_move_shape_holds_a_player(robbers: dict[str, Any]) -> None:
    """The description names the choice's kind `player` (a seat number), the
    same in every engine."""
    shapes = [
        next(s for s in e.DESCRIPTION["moves"] if s["name"] == "rob") for e in robbers.values()
    ]
    assert shapes[0]["choices"] == [["p", "player"], ["c", "token"]]
    assert all(shape == shapes[0] for shape in shapes)
