"""Values typed by a tile set (docs/language.md, "Values typed by a tile
set"), on tests/variants/trading_posts.rules, in the three engines: the
interpreter, the generated Python engine and the native one.

The variant (its rulebook: tests/variants/POSTS.md): four trading posts in
play, each with its own condition columns (cards of each colour, nobles
won), read by one definition `reached(t: post)` and claimed by one step
into the zone `posts: post tiles of each player` (P-1.2); a post held
gives a bonus (P-1.3) and scores its worth (P-1.4).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from engine_modules import variant_fixtures
from test_differential import Differential, Side, play, registered

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.tools.lsp.analysis import Trees, analyse

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "trading_posts.rules"


model, engines, engine = variant_fixtures(VARIANT)


def post(model: m.Edition, name: str) -> int:
    """A post's tile number: the nobles' first, then the posts in their rows."""
    nobles = len(model.tile_sets[0].rows)
    rows = model.tile_sets[1].rows
    return nobles + next(i for i, row in enumerate(rows) if row["name"] == name)


def cards_of(model: m.Edition, data: dict[str, Any], wanted: dict[str, int]) -> list[int]:
    """Cards from the decks (not face up), `wanted[colour]` of each bonus."""
    found: list[int] = []
    for colour, count in wanted.items():
        deck = [k for d in data["decks"].values() for k in d]
        found += [k for k in deck if model.cards.rows[k]["bonus"] == colour][:count]
    return found


def position(
    engine: Any,
    model: m.Edition,
    bonus: dict[str, int],
    posts: tuple[str, ...] = (),
    nobles: int = 0,
) -> Any:
    """Player 0 to move, holding cards of these bonuses, these posts and
    that many nobles (taken from play)."""
    data = engine.to_json(engine.new_game(2, 3))
    cards = cards_of(model, data, bonus)
    for tier, deck in data["decks"].items():
        data["decks"][tier] = [k for k in deck if k not in cards]
    seat = data["seats"][0]
    seat["zones"]["bought"] = cards
    held = [post(model, name) for name in posts]
    data["tiles"]["post"] = [t for t in data["tiles"]["post"] if t not in held]
    seat["zones"]["posts"] = held
    seat["zones"]["won"] = data["tiles"]["noble"][:nobles]
    data["tiles"]["noble"] = data["tiles"]["noble"][nobles:]
    return engine.from_json(data)


def end_turn(engine: Any, state: Any) -> Any:
    """Player 0 takes two gold-free tokens of a colour, then answers each
    end-of-turn decision with its first option."""
    take = next(a for a in engine.legal_actions(state) if a[0] == "take_two")
    state = engine.apply(state, take)
    while engine.current_player(state) == 0 and not engine.is_over(state):
        state = engine.apply(state, engine.legal_actions(state)[0])
    return state


def test_p_1_2_a_post_reached_is_opened_at_the_end_of_the_turn(engine: Any, model: m.Edition):
    state = end_turn(engine, position(engine, model, {"white": 3, "black": 2}))
    data = engine.to_json(state)
    assert data["seats"][0]["zones"]["posts"] == [post(model, "harbour")]
    assert post(model, "harbour") not in data["tiles"]["post"]


def test_p_1_2_one_step_reads_each_posts_own_condition(engine: Any, model: m.Edition):
    """Fort asks for a noble besides its cards: without one it stays in play."""
    fort = post(model, "fort")
    alone = engine.to_json(end_turn(engine, position(engine, model, {"green": 3, "red": 2})))
    assert alone["seats"][0]["zones"]["posts"] == [] and fort in alone["tiles"]["post"]
    noble = position(engine, model, {"green": 3, "red": 2}, nobles=1)
    with_noble = engine.to_json(end_turn(engine, noble))
    assert with_noble["seats"][0]["zones"]["posts"] == [fort]


def test_p_1_3_a_post_held_counts_as_a_card_of_its_colour(engine: Any, model: m.Edition):
    """Bazaar asks for 3 blue and 2 green: 2 blue cards and the harbour's blue."""
    without = position(engine, model, {"blue": 2, "green": 2})
    assert engine.to_json(end_turn(engine, without))["seats"][0]["zones"]["posts"] == []
    held = position(engine, model, {"blue": 2, "green": 2}, posts=("harbour",))
    data = engine.to_json(end_turn(engine, held))
    assert data["seats"][0]["zones"]["posts"] == [post(model, "harbour"), post(model, "bazaar")]


def test_p_1_4_a_post_scores_its_worth(engine: Any, model: m.Edition):
    state = position(engine, model, {}, posts=("harbour", "fort"))
    assert engine.scores(state)[0] == 1 + 2


def test_random_games_open_posts_alike_in_the_three_engines(engines: dict[str, Any]):
    """Games that favour buying, played by the generated and native engines
    each beside the interpreter: some posts are opened, and all agree."""
    interpreter = engines["interpreter"]
    opened = 0
    with registered("trading_posts", interpreter):
        for label in ("generated", "native"):
            for seed in range(3):
                sides = (Side(label, engines[label]), Side("interpreter", interpreter))
                diff = Differential("trading_posts", 2, seed, 0, sides)
                rng = random.Random(f"trading_posts/{label}/{seed}")

                def choose(n: int, diff: Differential = diff, rng: random.Random = rng) -> int:
                    legal = diff.b.engine.legal_actions(diff.sb)
                    buys = [i for i, a in enumerate(legal) if a[0] == "buy"]
                    return rng.choice(buys) if buys else rng.randrange(n)

                assert play(diff, choose, 3000)
                seats = interpreter.to_json(diff.sb)["seats"]
                opened += sum(len(seat["zones"]["posts"]) for seat in seats)
    assert opened > 0


def test_the_language_server_counts_a_type_as_a_use_of_its_tile_set():
    """References to a tile set (and so a rename of it) include the zone
    and the parameter it types."""
    text = VARIANT.read_text(encoding="utf-8")
    analysis = analyse(VARIANT, text, Trees())
    assert analysis.index is not None
    lines = text.split("\n")
    used = [
        lines[o.span.line - 1][o.span.column - 1 : o.span.end_column - 1]
        for o in analysis.index.of(("global", "post"))
        if not o.definition
    ]
    uses = [o.span.line for o in analysis.index.of(("global", "post")) if not o.definition]
    assert used == ["post"] * len(used)
    assert any("zone posts: post tiles" in lines[n - 1] for n in uses)
    assert any("reached(t: post)" in lines[n - 1] for n in uses)


def test_a_renamed_tile_set_still_types_its_zone_and_parameter(tmp_path: Path):
    child = tmp_path / "renamed.rules"
    child.write_text(
        'edition renamed "Renamed posts" extends trading_posts {\n'
        "  rename tiles post -> outpost\n"
        "}\n",
        encoding="utf-8",
    )
    shutil.copy(VARIANT, tmp_path)
    shutil.copy(VARIANT.parent / "POSTS.md", tmp_path)
    (tmp_path / "data").mkdir()
    shutil.copy(VARIANT.parent / "data" / "posts.csv", tmp_path / "data")
    compiled = compile_file(child)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    model = compiled.model
    assert {z.name: z.tiles for z in model.zones}["posts"] == "outpost"
    reached = next(d for d in model.defines if d.name == "reached")
    assert reached.parameters == (("t", m.tile("outpost")),)


def test_a_typed_zone_holding_a_tile_of_another_set_is_refused(engine: Any, model: m.Edition):
    """A state whose zone of posts holds a noble is no state of the game:
    every engine's from_json refuses it, as it refuses a tile set holding
    another set's tile (a noble has no worth to read)."""
    data = engine.to_json(engine.new_game(2, 3))
    noble = data["tiles"]["noble"].pop()
    data["seats"][0]["zones"]["posts"] = [noble]
    with pytest.raises(ValueError, match="is not one of its tiles"):
        engine.from_json(data)
    data["seats"][0]["zones"]["posts"] = []
    data["seats"][0]["zones"]["won"] = [noble]
    assert engine.to_json(engine.from_json(data))["seats"][0]["zones"]["won"] == [noble]


def test_p_1_5_a_choice_from_a_typed_zone_reads_the_sets_own_columns(engine: Any, model: m.Edition):
    """Trading at a post held: the colours it gives, read from `posts`."""
    harbour, fort = post(model, "harbour"), post(model, "fort")
    state = position(engine, model, {}, posts=("harbour", "fort"))
    trades = [a for a in engine.legal_actions(state) if a[0] == "trade"]
    assert sorted(trades) == sorted([("trade", harbour, "blue"), ("trade", fort, "white")])
    with pytest.raises(ValueError, match=r"P-1\.5: this post gives no red"):
        engine.apply(state, ("trade", harbour, "red"))
    after = engine.to_json(engine.apply(state, ("trade", harbour, "blue")))
    assert after["seats"][0]["tokens"] == {"blue": 1}
