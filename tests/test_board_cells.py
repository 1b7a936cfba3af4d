"""A board of cells and its bag (issue 22, construct 4):
tests/variants/board_cells.rules, a 3 by 3 board beside classic Splendor's supply,
each scenario test a scenario of the Splendor Duel rule it states (DUEL.md:
D-1.6 the board and its fill order, D-1.7 the bag, D-2.4 the board filled
at setup, D-3.1 a refill, D-3.3 tokens taken in a line, D-3.4 a gold token
taken, D-3.5 tokens paid into the bag), run on every engine kind: the
reference interpreter, the generated Python engine and the native engine
(both printed from the engine plan). The last tests play the three against
each other and hold the native target to refusing, located, a use of the
bag it does not print.
"""

from __future__ import annotations

import pickle
import random
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from engine_modules import native_engine_module

from splendor_rules.compiler.backend.native.target import NativeTarget
from splendor_rules.compiler.backend.unprinted import NotPrinted
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import board as cells
from splendor_rules.compiler.runtime.interpreter.engine import InterpretedEngine
from splendor_rules.compiler.tools import records
from splendor_rules.compiler.tools.loader import check_rule_file, load, rendered_engine
from splendor_rules.compiler.tools.simulate.bots import GreedyBot
from splendor_rules.compiler.tools.simulate.hidden import determinize
from splendor_rules.compiler.tools.simulate.native import NativeGreedyBot, bot_engine
from splendor_rules.dsl.formatting import format_source

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "tests" / "variants" / "board_cells.rules"
MODEL = check_rule_file(RULES)
ENGINE = InterpretedEngine(MODEL)
IllegalAction = ENGINE.IllegalAction
KINDS = ENGINE.TOKENS


ENGINE_KINDS = ("interpreted", "generated", "native")


@pytest.fixture(scope="module")
def generated() -> Any:
    return rendered_engine(MODEL, ROOT, register=False)


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The native engine of the board's rule file (skipped, with the
    reason, where no C extension can be built)."""
    return native_engine_module(MODEL, tmp_path_factory.mktemp("native"))


@pytest.fixture(params=ENGINE_KINDS)
def engine(request: pytest.FixtureRequest) -> Any:
    """Each engine kind in turn: the scenarios hold on all three."""
    if request.param == "interpreted":
        return ENGINE
    return request.getfixturevalue(request.param)


def cell(row: int, column: int) -> int:
    return row * 3 + column


def position(
    board: dict[tuple[int, int], str], bag: dict[str, int] | None = None, engine: Any = ENGINE
) -> Any:
    """A hand-made position of two players: the board as given (other
    cells empty), the bag as given (else empty), no tokens held."""
    data = engine.to_json(engine.new_game(2, 7))
    data["board"] = [board.get(divmod(n, 3)) for n in range(9)]
    data["bag"] = {k: (bag or {}).get(k, 0) for k in KINDS}
    return engine.from_json(data, complete=False)


def held(state: Any, player: int = 0, engine: Any = ENGINE) -> dict[str, int]:
    tokens: dict[str, int] = engine.to_json(state)["seats"][player]["tokens"]
    return tokens


# ------------------------------------------------------------ D-1.6, D-2.4


def test_d_2_4_setup_draws_the_bag_onto_every_cell_in_fill_order(engine: Any) -> None:
    """D-1.6, D-1.7, D-2.4: the 9 tokens of the bag fill the 9 cells; the
    same seed draws alike, and seeds differ in where tokens land."""
    boards = set()
    for seed in range(20):
        data = engine.to_json(engine.new_game(2, seed))
        assert all(kind is not None for kind in data["board"])
        assert sorted(data["board"]) == sorted(
            ["white", "blue", "green", "red", "black", "gold", "gold", "pearl", "pearl"]
        )
        assert set(data["bag"].values()) == {0}
        assert engine.to_json(engine.new_game(2, seed)) == data
        boards.add(tuple(data["board"]))
    assert len(boards) > 10


def test_d_1_6_fill_order_places_draws_and_skips_occupied_cells(engine: Any) -> None:
    """D-3.1 b: a refill draws onto the empty cells only, in fill order,
    until the bag is empty; the occupied cells keep their tokens."""
    start = position({(0, 0): "red", (1, 1): "blue"}, {"white": 2, "gold": 1}, engine=engine)
    after = engine.apply(start, ("replenish",))
    shown = engine.to_json(after)
    order = MODEL.board.order if MODEL.board else ()
    filled = [n for n in order if n not in (cell(0, 0), cell(1, 1))][:3]
    assert shown["board"][cell(0, 0)] == "red" and shown["board"][cell(1, 1)] == "blue"
    assert sorted(shown["board"][n] for n in filled) == ["gold", "white", "white"]
    assert [n for n, kind in enumerate(shown["board"]) if kind is not None] == sorted(
        [cell(0, 0), cell(1, 1), *filled]
    )
    assert set(shown["bag"].values()) == {0}
    assert shown["draws"] != engine.to_json(start)["draws"]


def test_d_3_1_refill_refused_when_the_bag_is_empty(engine: Any) -> None:
    start = position({(0, 0): "red"}, engine=engine)
    assert ("replenish",) not in engine.legal_actions(start)
    with pytest.raises(engine.IllegalAction, match=r"^D-3\.1: the bag is empty; 0 pearl"):
        engine.apply(start, ("replenish",))


# ------------------------------------------------------------------ D-3.3


def test_d_3_3_a_line_of_three_on_a_diagonal_is_taken(engine: Any) -> None:
    """Three reds on the diagonal (0, 0), (1, 1), (2, 2): taken, the
    cells left empty; three of one colour gain a gold (the rule file's
    reward, standing in for Duel's privilege)."""
    start = position({(0, 0): "red", (1, 1): "red", (2, 2): "red", (0, 2): "blue"}, engine=engine)
    line = (cell(0, 0), cell(1, 1), cell(2, 2))
    assert ("take_line", line) in engine.legal_actions(start)
    after = engine.apply(start, ("take_line", line))
    assert held(after, engine=engine) == {"red": 3, "gold": 1}
    assert engine.to_json(after)["board"] == [None] * 2 + ["blue"] + [None] * 6
    other = (cell(0, 2), cell(1, 1), cell(2, 0))  # the other diagonal: (2, 0) is empty
    assert ("take_line", other) not in engine.legal_actions(start)


def test_d_3_3_a_line_with_a_gap_is_refused(engine: Any) -> None:
    """An empty cell or a gold token between two cells breaks the line."""
    start = position(
        {(0, 0): "red", (0, 2): "red", (2, 0): "blue", (2, 1): "gold", (2, 2): "green"},
        engine=engine,
    )
    legal = engine.legal_actions(start)
    refused = engine.IllegalAction
    for gap in [(cell(0, 0), cell(0, 2)), (cell(0, 0), cell(0, 1), cell(0, 2))]:
        assert ("take_line", gap) not in legal
        with pytest.raises(refused, match=r"^D-3\.3: the cells .* is not a line of 1 to 3"):
            engine.apply(start, ("take_line", gap))
    with pytest.raises(refused, match=r"^D-3\.3: the cells \(2, 0\), \(2, 1\), \(2, 2\)"):
        engine.apply(start, ("take_line", (cell(2, 0), cell(2, 1), cell(2, 2))))
    lines = [a[1] for a in legal if a[0] == "take_line"]
    assert lines == [(cell(0, 0),), (cell(0, 2),), (cell(2, 0),), (cell(2, 2),)]


def test_d_3_3_both_pearls_taken_gain_the_reward(engine: Any) -> None:
    start = position({(1, 0): "pearl", (1, 1): "pearl"}, engine=engine)
    after = engine.apply(start, ("take_line", (cell(1, 0), cell(1, 1))))
    assert held(after, engine=engine) == {"pearl": 2, "gold": 1}


def test_lines_are_listed_by_length_then_first_cell_then_direction() -> None:
    """docs/engine.md, "The board": along a row, down a column, down to the
    right, down to the left; a single cell once."""
    assert MODEL.board is not None
    everything = tuple(range(9))
    found = cells.lines(MODEL.board, everything, 2, 2)
    assert found[:4] == [(0, 1), (0, 3), (0, 4), (1, 2)]
    assert (2, 4) in found and (2, 6) not in found
    assert len(cells.lines(MODEL.board, everything, 1, 1)) == 9
    assert cells.lines(MODEL.board, everything, 3, 3) == [
        (0, 1, 2),
        (0, 3, 6),
        (0, 4, 8),
        (1, 4, 7),
        (2, 5, 8),
        (2, 4, 6),
        (3, 4, 5),
        (6, 7, 8),
    ]


@pytest.mark.parametrize(
    ("rows", "columns"), [(3, 3), (2, 4), (4, 2), (1, 5), (5, 5)], ids=lambda n: str(n)
)
def test_the_python_engine_lists_lines_as_the_interpreter(
    rows: int, columns: int, tmp_path: Path
) -> None:
    """The generated engine finds lines on the cells' mask, a direction at
    once: the same lines in the same order as the interpreter's walk from
    each cell, on boards of several shapes and random sets of cells; a line
    given back is taken, any other sequence of cells refused."""
    order = ", ".join(f"({r}, {c})" for r in range(rows) for c in range(columns))
    text = RULES.read_text(encoding="utf-8").replace(
        "board 3 by 3, filled in order (1, 1), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0),"
        " (0, 1), (0, 2)",
        f"board {rows} by {columns}, filled in order {order}",
    )
    (tmp_path / "shaped.rules").write_text(text, encoding="utf-8")
    compiled = compile_file(tmp_path / "shaped.rules")
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    board = compiled.model.board
    assert board is not None and (board.rows, board.columns) == (rows, columns)
    generated = rendered_engine(compiled.model, ROOT, register=False)
    draw = random.Random(rows * 10 + columns)
    count = rows * columns
    for _ in range(60):
        chosen = tuple(sorted(draw.sample(range(count), draw.randint(0, count))))
        low, high = sorted((draw.randint(0, 3), draw.randint(1, 4)))
        found = generated._lines(chosen, low, high)
        assert found == cells.lines(board, chosen, low, min(high, max(rows, columns)))
        for line in found:
            assert generated._pick_line(chosen, line, low, high, "D-3.3") == line
        wrong = tuple(draw.sample(range(count), min(count, draw.randint(1, 3))))
        if wrong not in found:
            with pytest.raises(generated.IllegalAction, match="is not a line"):
                generated._pick_line(chosen, wrong, low, high, "D-3.3")


# ------------------------------------------------------------- D-3.4, D-3.5


def test_d_3_4_a_gold_token_is_taken_from_any_cell(engine: Any) -> None:
    start = position({(2, 2): "gold", (0, 0): "red"}, engine=engine)
    golds = {a[1] for a in engine.legal_actions(start) if a[0] == "take_gold"}
    assert golds == {cell(2, 2)}
    reserve = next(a for a in engine.legal_actions(start) if a[0] == "take_gold")
    after = engine.apply(start, reserve)
    assert held(after, engine=engine) == {"gold": 1}
    assert engine.to_json(after)["board"][cell(2, 2)] is None


def test_d_3_5_tokens_paid_go_into_the_bag(engine: Any) -> None:
    """A purchase pays into the bag, not the supply; the bag's counts grow."""
    data = engine.to_json(position({}, engine=engine))
    data["seats"][0]["tokens"] = {c: 7 for c in ("white", "blue", "green", "red", "black")}
    start = engine.from_json(data, complete=False)
    buy = next(a for a in engine.legal_actions(start) if a[0] == "buy")
    paid = dict(zip(KINDS, buy[-1], strict=True))
    after = engine.to_json(engine.apply(start, buy))
    assert after["supply"] == data["supply"]
    assert after["bag"] == {k: paid[k] for k in KINDS}


def test_d_5_2_tokens_returned_over_the_limit_go_into_the_bag(engine: Any) -> None:
    data = engine.to_json(position({(0, 0): "red"}, engine=engine))
    data["seats"][0]["tokens"] = {"white": 5, "blue": 5}
    start = engine.from_json(data, complete=False)
    waiting = engine.apply(start, ("take_line", (cell(0, 0),)))
    assert engine.to_json(waiting)["pending"] == "token_limit"
    returned = engine.legal_actions(waiting)[0]
    after = engine.to_json(engine.apply(waiting, returned))
    assert sum(after["bag"].values()) == 1 and after["supply"] == data["supply"]


# ------------------------------------------------------- the state's form


def test_random_games_keep_every_token_in_one_place(engine: Any) -> None:
    """D-1.7: every token is on the board, in the bag, in a player's supply
    or in the common supply, all game long; the JSON form reads back as the
    same state, and a view shows the bag's counts but not its generator."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        state = engine.new_game(players, players)
        for _ in range(60):
            if engine.is_over(state):
                break
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
            data = engine.to_json(state)
            assert engine.to_json(engine.from_json(data)) == data  # complete: all counted
            view = engine.view(state, 1)
            assert view["draws"] is None and view["bag"] == data["bag"]


def test_a_state_with_a_wrong_board_is_refused(engine: Any) -> None:
    data = engine.to_json(engine.new_game(2, 1))
    wrong = {**data, "board": data["board"][:-1]}
    with pytest.raises(ValueError, match="board has 8 cells, not 9"):
        engine.from_json(wrong)
    wrong = {**data, "board": ["ruby", *data["board"][1:]]}
    with pytest.raises(ValueError, match="board cell 0: 'ruby' is not a token kind"):
        engine.from_json(wrong)
    wrong = {**data, "bag": {**data["bag"], "red": 1}}
    with pytest.raises(ValueError, match="in the supply, the seats, the board and the bag"):
        engine.from_json(wrong)
    with pytest.raises(ValueError, match="draws must be a whole number"):
        engine.from_json({**data, "draws": -1})


def test_the_description_shows_the_board() -> None:
    described = ENGINE.DESCRIPTION["board"]
    assert (described["rows"], described["columns"]) == (3, 3)
    assert described["order"] == [4, 5, 8, 7, 6, 3, 0, 1, 2]
    assert described["bag"]["gold"] == {"2": 2, "3": 2, "4": 2}
    moves = {m["name"]: m["choices"] for m in ENGINE.DESCRIPTION["moves"]}
    assert moves["take_line"] == [["picked", "set:cell"]]
    assert "board" not in load("classic", "interpreted").DESCRIPTION


# ------------------------------------------------------------- the targets


# Moves of a line of cells that no position allows: a gap, a list for a
# tuple, a condition for a cell, a cell off the board, no cell, two values.
WRONG_LINES: tuple[Any, ...] = (
    ("take_line", (cell(0, 0), cell(0, 2))),
    ("take_line", [cell(0, 0)]),
    ("take_line", (True,)),
    ("take_line", (9,)),
    ("take_line", ()),
    ("take_line", (cell(0, 0),), (cell(0, 1),)),
)


def test_the_engines_play_as_the_interpreter(generated: Any, native: Any) -> None:
    """The Python and native targets print the board (from the engine
    plan): random games on the three engines, every legal move list,
    state, view, score and winner alike, and a line with a gap (or a move
    of the wrong shape) refused by the same rule."""
    plies = 0
    for game in range(6):
        players, rng = 2 + game % 3, random.Random(game)
        states = [e.new_game(players, game) for e in (generated, native, ENGINE)]
        engines = list(zip((generated, native, ENGINE), states, strict=True))
        while not ENGINE.is_over(states[2]) and plies < 600:
            shown = ENGINE.to_json(states[2])
            legal = ENGINE.legal_actions(states[2])
            for engine, state in engines[:2]:
                assert engine.to_json(state) == shown
                views = [ENGINE.view(states[2], p) for p in range(players)]
                assert [engine.view(state, p) for p in range(players)] == views
                assert engine.legal_actions(state) == legal
            for wrong in WRONG_LINES:
                refusals = set()
                for engine, state in engines:
                    with pytest.raises(engine.IllegalAction) as refused:
                        engine.apply(state, wrong)
                    refusals.add(str(refused.value).split(":")[0])
                assert len(refusals) == 1, wrong
                assert refusals == {"D-3.3"} or shown["pending"] is not None
            move = rng.choice(legal)
            states = [e.apply(s, move) for e, s in engines]
            engines = list(zip((generated, native, ENGINE), states, strict=True))
            plies += 1
        for engine, state in engines[:2]:
            assert engine.is_over(state) == ENGINE.is_over(states[2])
            assert engine.scores(state) == ENGINE.scores(states[2])
            assert engine.winners(state) == ENGINE.winners(states[2])
    assert plies > 300


def test_the_native_engine_deals_and_reads_states_as_the_others(native: Any) -> None:
    """The deal (the bag's generator from the deal's twister), the state's
    parts (board, bag, generator) through JSON and pickling, and hostile
    parts refused rather than read out of bounds."""
    for seed in (0, 1, -5, 2**40, 2**63 - 1):
        for players in (2, 3, 4):
            assert native.to_json(native.new_game(players, seed)) == ENGINE.to_json(
                ENGINE.new_game(players, seed)
            )
    state = native.new_game(2, 9)
    assert pickle.loads(pickle.dumps(state)) == state
    parts = native._c._export(state)
    assert len(parts["board"]) == 9 and 0 <= parts["draws"] < 2**64
    hostile = {
        "board": (parts["board"][:-1], "board: 8 cells, not 9"),
        "board ": ((7, *parts["board"][1:]), "board: 7 is beyond"),
        "bag": ((-1, *parts["bag"][1:]), "bag: -1 tokens of kind 0"),
        "bag ": ((2**31 - 1, *parts["bag"][1:]), "in the supply, the seats, the board and the bag"),
        "draws": (-1, "draws: -1 is not a whole number"),
        "draws ": (2**64, "is not a whole number"),
        "draws  ": (True, "is not a whole number"),
    }
    for key, (value, words) in hostile.items():
        with pytest.raises(ValueError, match=re.escape(words)):
            native._c._import({**parts, key.strip(): value})
    assert native._c._import(parts) == state
    # a bag of many tokens (the interpreter lists them all to read it:
    # hand-made, not huge), the board empty: refills and playouts draw alike
    data = native.to_json(state)
    data["board"] = [None] * 9
    data["bag"] = dict.fromkeys(KINDS, 0) | {"white": 3000, "pearl": 7}
    edge = native.from_json(data, complete=False)
    refill = ("replenish",)
    after = native.apply(edge, refill)
    expected = ENGINE.apply(ENGINE.from_json(data, complete=False), refill)
    assert native.to_json(after) == ENGINE.to_json(expected)
    end, made = native.playout(after, 3, 200)
    assert made > 0 and sum(native.to_json(end)["bag"].values()) > 2000


def test_the_native_engine_reads_the_bag_by_its_counts(tmp_path: Path) -> None:
    """The bag counted with a condition, and looked over by `any` and
    `sum`, in the native engine as in the interpreter; any other use of it
    (a list the native engine would have to build) is refused, located."""
    requirement = "count(bag) > 0 and bag_golds + bag_weight >= 0 and (bag_pearl or true)"
    compiled_model = bag_reads(tmp_path, requirement)
    reads = bag_rules(requirement)
    native = native_engine_module(compiled_model, tmp_path)
    interpreted = InterpretedEngine(compiled_model)
    state = interpreted.new_game(2, 3)
    data = interpreted.to_json(state)
    data["board"] = [None] * 9
    data["bag"] = {k: 1 for k in KINDS}
    both = [native.from_json(data, complete=False), interpreted.from_json(data, complete=False)]
    assert native.legal_actions(both[0]) == interpreted.legal_actions(both[1])
    listed = reads.replace("  define bag_golds", "  define bag_list = bag\n  define bag_golds")
    (tmp_path / "listed").mkdir()  # a folder of its own: an edition is found by its name
    (tmp_path / "listed" / "listed.rules").write_text(listed, encoding="utf-8")
    compiled = compile_file(tmp_path / "listed" / "listed.rules")
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    with pytest.raises(NotPrinted) as refused:
        NativeTarget().render_engine(compiled.model, ROOT)
    (diagnostic,) = refused.value.diagnostics
    assert diagnostic.message.startswith("the native target does not print a use of the bag")


def test_the_native_engine_finds_the_lines_of_a_board_past_a_word_of_bits(tmp_path: Path) -> None:
    """A board of 9 rows by 8 columns: 81 bits with the native target's
    padding column, two 64-bit words, so lines cross from one word to the
    next (docs/native.md, "Lines of cells as bits"). On hand-made boards
    with gaps, the native engine lists the interpreter's moves, in its
    order."""
    order = ", ".join(f"({r}, {c})" for r in range(9) for c in range(8))
    wide = re.sub(
        r"board 3 by 3, filled in order [^\n]*",
        f"board 9 by 8, filled in order {order}",
        RULES.read_text(encoding="utf-8"),
    )
    (tmp_path / "wide.rules").write_text(wide, encoding="utf-8")
    compiled = compile_file(tmp_path / "wide.rules")
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    native = native_engine_module(compiled.model, tmp_path)
    interpreted = InterpretedEngine(compiled.model)
    rng = random.Random(22)
    lines = 0
    for _ in range(12):
        data = interpreted.to_json(interpreted.new_game(2, 5))
        full = rng.choice((0.5, 0.8, 1.0))
        data["board"] = [rng.choice(KINDS) if rng.random() < full else None for _ in range(72)]
        data["bag"] = {k: 0 for k in KINDS}
        both = [native.from_json(data, complete=False), interpreted.from_json(data, complete=False)]
        legal = interpreted.legal_actions(both[1])
        assert native.legal_actions(both[0]) == legal
        lines += sum(1 for a in legal if a[0] == "take_line")
    assert lines > 1000


def bag_rules(requirement: str) -> str:
    """The board's rule file with the bag counted with a condition and
    looked over by `any` and `sum`, in definitions the replenish's
    `requirement` reads."""
    return (
        RULES.read_text(encoding="utf-8")
        .replace(
            "  define pearls_on_board",
            "  define bag_golds = count(t in bag where t == gold)\n"
            "  define bag_pearl = any(t in bag: t == pearl)\n"
            "  define bag_weight = sum(t in bag where t != gold: 2)\n"
            "  define pearls_on_board",
        )
        .replace(
            'require count(bag) > 0 else "the bag is empty;',
            f'require {requirement} else "the bag is empty;',
        )
    )


def bag_reads(tmp_path: Path, requirement: str) -> Any:
    """bag_rules(requirement), checked."""
    (tmp_path / "reads.rules").write_text(bag_rules(requirement), encoding="utf-8")
    compiled = compile_file(tmp_path / "reads.rules")
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


def test_the_python_engine_reads_the_bag_by_its_counts(tmp_path: Path) -> None:
    """`count(bag)`, a count with a condition, `any` and `sum` over the bag
    are read from its counts in the generated Python engine, never the bag
    listed token by token: the same moves as the interpreter on small bags,
    and a hand-made bag holding a kind's most tokens is read at once."""
    model = bag_reads(tmp_path, "count(bag) > 1 and bag_golds < 2 + bag_weight and bag_pearl")
    generated = rendered_engine(model, ROOT, register=False)
    assert not hasattr(generated, "_bag_tokens")  # written only for a use but the counts
    interpreted = InterpretedEngine(model)
    data = interpreted.to_json(interpreted.new_game(2, 3))
    data["board"] = [None] * 9
    draw = random.Random(5)
    for _ in range(40):
        data["bag"] = {k: draw.choice((0, 0, 1, 2)) for k in KINDS}
        both = [e.from_json(data, complete=False) for e in (generated, interpreted)]
        legal = generated.legal_actions(both[0])
        assert legal == interpreted.legal_actions(both[1])
        assert (("replenish",) in legal) == (
            sum(data["bag"].values()) > 1
            and data["bag"]["gold"] < 2 + 2 * (sum(data["bag"].values()) - data["bag"]["gold"])
            and data["bag"]["pearl"] > 0
        )
    most = 2**31 - 1 - data["supply"]["white"]  # a state counts at most 2**31 - 1 of a kind
    data["bag"] = dict.fromkeys(KINDS, 0) | {"white": most, "pearl": 1}
    huge = generated.from_json(data, complete=False)
    assert ("replenish",) in generated.legal_actions(huge)


def test_a_count_of_the_bag_is_bounded_by_a_count_per_token_kind() -> None:
    """The bag may hold a count of a state of each kind (payments add to
    it; a hand-made state may hold that many): a number computed from
    its count is bounded by that, not by the most cards, and reported
    where it may pass 64 bits."""
    text = RULES.read_text(encoding="utf-8").replace(
        "  define pearls_on_board",
        "  define squared = count(bag) * count(t in bag where t != gold)\n"
        "  define weighed = sum(t in bag: 3) * 1000\n"
        "  define pearls_on_board",
    )
    text = text.replace("require count(bag) > 0", "require squared > 0 or weighed > 0")
    compiled = compile_file(RULES, texts={RULES: text})
    beyond = [d for d in compiled.diagnostics if "beyond the whole numbers" in d.message]
    assert len(beyond) == 1, compiled.diagnostics
    line = text.splitlines()[beyond[0].span.line - 1]
    assert "define squared" in line


# ------------------------------------------------------------ records


def test_the_records_of_the_board_replay_on_the_interpreter() -> None:
    """tests/variants/records/board_cells.json: a hand-made board (a
    record's setup patch sets the cells and the bag), lines refused with
    the rule that refuses them."""
    found = [ROOT / "tests" / "variants" / "records" / "board_cells.json"]
    assert found
    for path in found:
        data = records.read_json(path)
        record, engine = records.load_record(data, str(path), "interpreted", str(RULES))
        assert records.replay_record(record, engine) is None, path.name


def test_a_setup_patch_moves_tokens_between_the_board_and_the_bag() -> None:
    cat = records.catalog_of(MODEL)
    state = ENGINE.to_json(ENGINE.new_game(2, 4))
    patched = records.apply_setup(state, {"board": ["gold", *[None] * 8]}, cat)
    assert patched["board"] == ["gold", *[None] * 8]
    assert patched["bag"] == {k: {"gold": 1, "pearl": 2}.get(k, 1) for k in KINDS}
    with pytest.raises(records.RecordError, match="give setup bag red explicitly"):
        records.apply_setup(state, {"board": ["red"] * 9}, cat)
    with pytest.raises(records.RecordError, match="must list its 9 cells"):
        records.apply_setup(state, {"board": ["red"]}, cat)
    classic = load("classic", "interpreted")
    plain = classic.to_json(classic.new_game(2, 1))
    with pytest.raises(records.RecordError, match="classic has no board"):
        records.apply_setup(plain, {"bag": {}}, records.engine_catalog(classic))


def test_the_board_rule_file_is_formatted_and_reads_back_the_same() -> None:
    """fmt's layout (dsl/unparse.py) of every board construct parses back to
    the same tree: the rule file is already in it."""
    text = RULES.read_text(encoding="utf-8")
    assert format_source(text, path=str(RULES)) == text


def test_the_native_bots_play_the_board_as_the_python_bots(native: Any) -> None:
    """Native greedy makes the Python greedy's move and leaves its
    generator where the Python one leaves it (its deal draws the bag's
    generator anew, as hidden.py does); a native deal shows the seat what
    its view shows."""
    bots = bot_engine(native)
    assert bots is not None
    rng, state, checked = random.Random(2), native.new_game(3, 2), 0
    while not native.is_over(state) and checked < 40:
        seat, legal = native.current_player(state), native.legal_actions(state)
        python, fast = GreedyBot(f"g{checked}"), NativeGreedyBot(bots, f"g{checked}")
        view = partial(native.view, state, seat)
        assert fast.choose_in(seat, legal, state) == python.choose(native, seat, legal, view)
        assert fast.rng.getstate() == python.rng.getstate()
        assert native.view(bots.bot_deal(state, seat, checked), seat) == view()
        state = native.apply(state, rng.choice(legal))
        checked += 1
    assert checked == 40


def test_a_bot_deals_the_bags_draws_it_cannot_see() -> None:
    """simulate's bots play from a view, which hides the bag's generator:
    a state dealt from the view has one, and is otherwise the view's."""
    view = ENGINE.view(ENGINE.new_game(2, 3), 0)
    dealt = determinize(ENGINE, view, random.Random(1))
    assert view["draws"] is None and type(dealt["draws"]) is int
    state = ENGINE.from_json(dealt)
    assert ENGINE.view(state, 0) == view


def test_the_research_interface_plays_the_board(native: Any, monkeypatch: Any) -> None:
    """docs/rl.md on the 3 by 3 board: a line of cells is one index among the
    board's 37 lines of 1 to 3 cells; every legal move is one path of indices;
    the batch's C code gives the masks, the tensors (the cells and the bag,
    as `encode` reads them from the view) and the ends that stepping each
    game by the engine API gives, with 2 and 4 players."""
    np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
    from splendor_rules.compiler.tools.rl.actions import ActionSpace
    from splendor_rules.compiler.tools.rl.adapters import batch_env
    from splendor_rules.compiler.tools.rl.game import Game
    from splendor_rules.compiler.tools.rl.observation import encode

    space = ActionSpace(native.DESCRIPTION)
    assert space.heads["take_line"].size == 9 + 20 + 8
    assert space.heads["take_gold"].size == 9
    assert space.atoms(("take_line", (cell(2, 0), cell(1, 1), cell(0, 2)))) == (
        space.atoms(("take_line", (cell(0, 2), cell(1, 1), cell(2, 0)))))
    monkeypatch.setattr(batch_env, "load_engine", lambda edition, kind: native)
    monkeypatch.setattr(batch_env, "native_extension", lambda edition: native._c)
    rng, names = random.Random(4), set()
    for players in (2, 4):
        games, seed = 3, 5
        batch = batch_env.BatchEnv(MODEL.name, games, players, seed=seed)
        alone = [Game(native, players, seed=seed + i) for i in range(games)]
        for _ in range(120):
            for i, game in enumerate(alone):
                paths = {game.choosing.decisions(m) for m in native.legal_actions(game.state)}
                assert len(paths) == len(native.legal_actions(game.state))
                assert batch.masks[i].tolist() == game.mask()
                assert batch.observations[i].tolist() == encode(
                    game.layout, native.view(game.state, game.to_move), game.to_move,
                    game.choosing.prefix)
            actions = [rng.choice(game.legal()) for game in alone]
            batch.step(np.array(actions))
            for i, (game, action) in enumerate(zip(alone, actions, strict=True)):
                made = game.step(action)
                names.add(made[0] if made else "")
                assert bool(batch.dones[i]) == game.over
                if game.over:
                    assert batch.rewards[i].tolist() == game.rewards()
                    game.reset(seed + i + games)
    assert {"take_line", "take_gold", "buy"} <= names
