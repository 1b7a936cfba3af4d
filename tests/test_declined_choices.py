"""Follow-up choices a player may decline (`may choose`, docs/language.md),
on tests/variants/declined_choices.rules, in the three engines: the
interpreter, the generated Python engine and the native one.

The variant (its rulebook: tests/variants/DECLINE.md): a bought card of tier
2 or 3 with points lets the player take a face-up tier-1 card, or none
(Y-1.1); a bought tier-1 card with points lets the player take a token of a
colour, or none, while the supply has gold, and then gives a gold token,
taken or declined (Y-1.2: the rest of the blocks around a declined choice
runs).
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any

import pytest
from engine_modules import variant_fixtures

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.tools.labels import data_of, move_label
from splendor_rules.compiler.tools.records import load_record, read_json, replay_record
from splendor_rules.compiler.tools.records.actions import action_data, parse_short, short_form
from splendor_rules.compiler.tools.records.catalog import catalog_of
from splendor_rules.compiler.tools.rl.actions import ActionSpace, Choosing
from splendor_rules.compiler.tools.rulebook import make_rulebook, render_rulebook

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "declined_choices.rules"

# Cards of classic's data: tier-1 cards without points (0-3), one with a
# point (7), and a tier-2 card with a point (40, costing 2 white, 3 blue, 3 red).
PLAIN, POINTED, TIER_TWO = (0, 1, 2), 7, 40


model, engines, engine = variant_fixtures(VARIANT)


def position(engine: Any, tier_one: list[int | None], complete: bool = True) -> Any:
    """Player 0 to move, holding card 40's price (2 white, 3 blue, 3 red),
    with these tier-1 cards face up and card 40 face up in tier 2."""
    data = engine.to_json(engine.new_game(2, 1))
    placed = {k for k in tier_one if k is not None} | {TIER_TWO}
    decks, market = data["decks"], data["market"]
    decks["1"] = [k for k in (*decks["1"], *market["1"]) if k not in placed]
    decks["2"] = [k for k in (*decks["2"], *market["2"]) if k not in placed]
    if not complete:
        decks["1"] = []
    market["1"] = list(tier_one)
    market["2"] = [TIER_TWO, *decks["2"][:3]]
    decks["2"] = decks["2"][3:]
    for colour, n in (("white", 2), ("blue", 3), ("red", 3)):
        data["supply"][colour] -= n
        data["seats"][0]["tokens"][colour] = n
    return engine.from_json(data, complete=complete)


def buy_tier_two(engine: Any, state: Any) -> Any:
    (buy,) = [a for a in engine.legal_actions(state) if a[:2] == ("buy", TIER_TWO)]
    return engine.apply(state, buy)


def test_y_1_1_the_decline_is_the_last_option(engine: Any):
    state = buy_tier_two(engine, position(engine, [*PLAIN, POINTED]))
    assert engine.to_json(state)["pending"] == [{"decision": "free_card.f", "names": {}}]
    options = [("free_card.f", k) for k in (*PLAIN, POINTED)]
    assert engine.legal_actions(state) == [*options, ("free_card.f", None)]


def test_y_1_1_declining_takes_nothing_and_ends_the_turn(engine: Any):
    before = position(engine, [*PLAIN, POINTED])
    state = engine.apply(buy_tier_two(engine, before), ("free_card.f", None))
    data = engine.to_json(state)
    assert data["seats"][0]["zones"]["bought"] == [TIER_TWO]
    assert data["market"]["1"] == [*PLAIN, POINTED]
    assert data["pending"] is None and engine.current_player(state) == 1


def test_y_1_1_a_single_option_is_still_a_decision(engine: Any):
    state = buy_tier_two(engine, position(engine, [None, 2, None, None], complete=False))
    assert engine.legal_actions(state) == [("free_card.f", 2), ("free_card.f", None)]
    taken = engine.to_json(engine.apply(state, ("free_card.f", 2)))
    assert taken["seats"][0]["zones"]["bought"] == [TIER_TWO, 2]


def test_y_1_1_no_option_at_all_asks_nothing(engine: Any):
    state = buy_tier_two(engine, position(engine, [None] * 4, complete=False))
    data = engine.to_json(state)
    assert data["pending"] is None and data["current_player"] == 1
    assert data["seats"][0]["zones"]["bought"] == [TIER_TWO]


def test_y_1_2_a_declined_choice_skips_its_block_not_the_blocks_around_it(engine: Any):
    state = engine.apply(
        buy_tier_two(engine, position(engine, [*PLAIN, POINTED])), ("free_card.f", POINTED)
    )
    data = engine.to_json(state)
    assert data["pending"] == [{"decision": "lucky.c", "names": {}}]
    assert engine.legal_actions(state)[-1] == ("lucky.c", None)
    tokens = data["seats"][0]["tokens"]
    after = engine.to_json(engine.apply(state, ("lucky.c", None)))
    held = after["seats"][0]["tokens"]
    assert {c: held.get(c, 0) for c in engine.COLOURS} == {
        c: tokens.get(c, 0) for c in engine.COLOURS
    }
    assert held.get("gold", 0) == tokens.get("gold", 0) + 1  # the rest around it ran
    taken = engine.to_json(engine.apply(state, ("lucky.c", "red")))["seats"][0]["tokens"]
    assert taken["red"] == tokens.get("red", 0) + 1 and taken["gold"] == held["gold"]


def test_y_1_1_a_decline_elsewhere_is_refused_and_changes_nothing(engine: Any):
    state = buy_tier_two(engine, position(engine, [*PLAIN, POINTED]))
    before = engine.to_json(state)
    for action in (("lucky.c", None), ("free_card.f", False), ("free_card.f", TIER_TWO)):
        with pytest.raises(ValueError, match=r"^Y-1\.1"):
            engine.apply(state, action)
        assert engine.to_json(state) == before
    fresh = position(engine, [*PLAIN, POINTED])
    with pytest.raises(ValueError, match=r"^Y-1\.1: no 'free_card\.f' decision is pending"):
        engine.apply(fresh, ("free_card.f", None))


def test_a_decline_in_json_and_in_records(engine: Any, model: m.Edition):
    declined = {"action": "free_card.f", "f": None}
    assert engine.action_to_json(("free_card.f", None)) == declined
    assert engine.action_from_json(declined) == ("free_card.f", None)
    cat = catalog_of(model)
    assert parse_short("free_card.f none", cat) == declined
    assert short_form(declined) == "free_card.f none"
    assert action_data(declined, cat) == declined


@pytest.mark.parametrize("seed", range(3))
def test_whole_games_agree_in_the_three_engines(engines: dict[str, Any], seed: int):
    """Random games, declines among the moves: the same legal moves and
    states in the three engines after every move."""
    rng = random.Random(seed)
    kinds = ("interpreter", "generated", "native")
    states = {k: engines[k].new_game(2, seed) for k in kinds}
    declines = 0
    while not engines["generated"].is_over(states["generated"]):
        legal = engines["generated"].legal_actions(states["generated"])
        for k in kinds:
            assert engines[k].legal_actions(states[k]) == legal, k
        offered = [a for a in legal if "." in a[0]]
        action = rng.choice(offered if offered and rng.random() < 0.9 else legal)
        declines += len(action) == 2 and action[1] is None
        states = {k: engines[k].apply(states[k], action) for k in kinds}
        data = engines["interpreter"].to_json(states["interpreter"])
        for k in kinds:
            assert engines[k].to_json(states[k]) == data, k
    assert declines > 0


def test_the_rl_action_space_has_the_decline_last_of_its_head(engines: dict[str, Any]):
    generated = engines["generated"]
    space = ActionSpace(generated.DESCRIPTION)
    head = space.heads["free_card.f"]
    assert space.label(head.start + head.size - 1) == "free_card.f: free_card.f none"
    state = buy_tier_two(generated, position(generated, [*PLAIN, POINTED]))
    legal = generated.legal_actions(state)
    choosing = Choosing(space, legal)
    atoms = [space.atoms(move) for move in legal]
    assert len(set(atoms)) == len(legal) and atoms[-1] == (head.start + head.size - 1,)
    assert [choosing.decisions(move) for move in legal] == atoms


def test_a_decline_is_labelled_in_words(engines: dict[str, Any]):
    description = engines["generated"].DESCRIPTION
    data = data_of(description)
    declined = {"action": "free_card.f", "f": None}
    assert move_label(declined, description, data) == "free card.f: decline"


def test_the_rulebook_says_the_player_may_decline():
    markdown = render_rulebook(make_rulebook(VARIANT), "md")
    assert "The player then may choose one, f, from the face-up cards" in markdown
    assert "or decline; declined, or with nothing to choose from" in markdown


def test_the_native_batch_steps_through_declines_as_the_engine_does(
    engines: dict[str, Any], monkeypatch: pytest.MonkeyPatch
):
    """The batched environment (docs/rl.md) on the variant's native engine:
    its masks hold the decline's index, and random games through declines
    stay the engine API's games."""
    np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
    from splendor_rules.compiler.tools.rl.adapters import batch_env
    from splendor_rules.compiler.tools.rl.game import Game

    native = engines["native"]
    extension = importlib.import_module(native.__name__.rpartition(".")[0] + "._" + native.EDITION)
    monkeypatch.setattr(batch_env, "load_engine", lambda name, kind: native)
    monkeypatch.setattr(batch_env, "native_extension", lambda name: extension)
    games, seed = 4, 3
    batch = batch_env.BatchEnv(native.EDITION, games, 2, seed=seed)
    alone = [Game(native, 2, seed=seed + i) for i in range(games)]
    space = ActionSpace(native.DESCRIPTION)
    declines = {space.heads[n].start + space.heads[n].size - 1 for n in space.declinable}
    rng, declined, deals = random.Random(5), 0, [0] * games
    for step in range(400):
        for i, game in enumerate(alone):
            assert batch.masks[i].tolist() == game.mask(), (step, i, game.legal())
        actions = [rng.choice(game.legal()) for game in alone]
        declined += sum(a in declines for a in actions)
        batch.step(np.asarray(actions))
        for i, (game, action) in enumerate(zip(alone, actions, strict=True)):
            game.step(action)
            if game.over:
                deals[i] += 1
                game.reset(seed + i + deals[i] * games)
    assert declined > 0


@pytest.mark.parametrize("kind", ["generated", "interpreted"])
def test_the_variant_s_record_holds(kind: str):
    """A record of the variant (tests/variants/records/), its steps in the
    short form with declines (`lucky.c none`), replayed on the rule file."""
    path = VARIANT.parent / "records" / "declined_choices.json"
    record, eng = load_record(read_json(path), str(path), kind, rules=str(VARIANT))
    failure = replay_record(record, eng)
    assert failure is None, f"step {failure.step}: {failure.problems}"
