"""Differential tests of the native engines (issue 12).

The native target compiles an edition's rules into a C extension module,
behind an engine module with the API of docs/engine.md
(compiler/backend/native/). Here each shipped edition and each variant of
tests/variants/ is built into a native engine (tests/engine_modules.py:
`native_engine_module`, a package of its own in a temporary folder,
compiled quickly) and played move by move against the generated Python
engine and the reference interpreter:

- random games (Hypothesis draws the player count, the seed, the first
  player and the seed of the moves, a choice among the legal actions at
  every step): the legal actions (same order, equal and of the same types),
  the state by `to_json`, every seat's `view`, `current_player`, `is_over`,
  `scores` and `winners`, after every action; every few actions, illegal
  actions (a legal action of another position, a mangled one, a list where
  a tuple is, True or 1.0 where a number is): refused by all three with
  `IllegalAction`, by native and generated in the same words and by the
  interpreter naming the same rule ids, leaving the states as they were;
- the deals of `new_game` for many seeds (negative, 0, up to 2**63 - 1,
  beyond, and seeds that are not ints, which the Python engine deals);
- round trips: `from_json(to_json(s))`, pickle and copies;
- `playout` and `playouts`, the moves the native engine plays by itself:
  legal games (each step one of `legal_actions`, replayed in the Python
  engine), deterministic, ending;
- random editions drawn by the fuzzer of tests/test_random_editions.py,
  built native and played against their generated engine.

Long mode: NATIVE_GAMES=N (games per edition and variant) and
NATIVE_RANDOM_EDITIONS=N (fresh random editions), not derandomized:

    NATIVE_GAMES=50 NATIVE_RANDOM_EDITIONS=500 python -m pytest tests/test_native.py -s

Every test skips, with the reason, where no C extension can be built.
See docs/testing.md, "Native engines".
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import pytest
from edition_facts import EDITIONS
from engine_modules import native_engine_module
from fuzz.children import editions as drawn_editions
from fuzz.engines import StrategyBug
from fuzz.engines import check as check_drawn
from fuzz.expressions import divides
from fuzz.known import KNOWN_MISCOMPILES
from fuzz.lengths import Lengths
from fuzz.play import Game
from fuzz.rule_files import DrawnEdition
from hypothesis import HealthCheck, Phase, example, given, note, settings
from hypothesis import strategies as st
from test_differential import (
    REFERENCE,
    Differential,
    Disagreement,
    Record,
    Side,
    first_difference,
    illegal_candidate,
    play,
    registered,
    rule_prefix,
)

from splendor_rules import generated
from splendor_rules.compiler.backend.native.compile import QUICK, native_available
from splendor_rules.compiler.backend.native.target import render_files
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.runtime.loading import load_engine

Action = Any
Json = dict[str, Any]

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((Path(__file__).resolve().parent / "variants").glob("*.rules"))
# What is built and played: every shipped edition and every variant, discovered.
TARGETS: tuple[str, ...] = (
    *(f"edition:{name}" for name in EDITIONS),
    *(f"variant:{path.stem}" for path in VARIANTS),
)
MAX_PLIES = 3000  # a random game ends well before this
PROBE_EVERY = 5  # illegal actions are tried at the start, every 5 actions and at the end

NATIVE_GAMES = int(os.environ.get("NATIVE_GAMES") or 0)
NATIVE_RANDOM_EDITIONS = int(os.environ.get("NATIVE_RANDOM_EDITIONS") or 0)
GAMES_DEFAULT = 3  # drawn games per edition and variant in CI, after 3 explicit ones
RANDOM_EDITIONS_DEFAULT = 14  # random editions in CI (each is compiled: 3 s)
RANDOM_EDITION_GAMES = 2


def settings_for(examples: int, derandomize: bool) -> settings:
    """Derandomized in CI (the same games every run); fresh in long mode."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        report_multiple_bugs=False,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.function_scoped_fixture,  # the engines: built once per session
        ],
    )


# ---------------------------------------------------------------- engines


@dataclass
class Engines:
    """One model's three engines: native, generated Python, interpreter."""

    name: str
    model: m.Edition
    native: ModuleType
    generated: Any
    interpreter: InterpretedEngine

    def all(self) -> tuple[tuple[str, Any], ...]:
        return (
            ("native", self.native),
            ("generated", self.generated),
            ("interpreter", self.interpreter),
        )


@pytest.fixture(scope="session")
def native_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the native engines of this session are built."""
    return tmp_path_factory.mktemp("native")


_ENGINES: dict[str, Engines] = {}


def engines_of(target: str, root: Path) -> Engines:
    """A shipped edition's engines (its committed generated engine and the
    interpreter of test_differential) or a variant's (the Python engine the
    native one wraps, and an interpreter of the same model); built once."""
    if target not in _ENGINES:
        kind, name = target.split(":")
        if kind == "edition":
            model = REFERENCE[name].model
            native = native_engine_module(model, root)
            _ENGINES[target] = Engines(
                name, model, native, load_engine(name, "generated"), REFERENCE[name]
            )
        else:
            compiled = compile_file(next(p for p in VARIANTS if p.stem == name))
            assert compiled.ok and compiled.model is not None, compiled.diagnostics
            model = compiled.model
            native = native_engine_module(model, root)
            _ENGINES[target] = Engines(
                model.name, model, native, native._py, InterpretedEngine(model)
            )
    return _ENGINES[target]


@pytest.fixture(params=TARGETS)
def engines(request: pytest.FixtureRequest, native_root: Path) -> Iterator[Engines]:
    """The engines of each shipped edition and variant, known by name to the
    illegal-action generator of test_differential while the test runs."""
    found = engines_of(request.param, native_root)
    with registered(found.name, found.interpreter):
        yield found


# ------------------------------------------------------ three engines at once


def shown(value: Any) -> str:
    """A value with its types (True is not 1, a list is not a tuple)."""
    return repr(value)


class Trio:
    """One game in the three engines, compared after every action."""

    def __init__(self, engines: Engines, players: int, seed: int, first: int) -> None:
        self.engines = engines
        self.sides = engines.all()
        self.record = Record(engines.name, players, seed, first)
        self.states = [engine.new_game(players, seed, first) for _, engine in self.sides]
        self.pool: dict[Action, None] = {}  # every legal action seen
        self.probes = 0
        self.compare_positions()

    @property
    def plies(self) -> int:
        return len(self.record.actions)

    def fail(self, what: str, detail: str) -> NoReturn:
        raise AssertionError(
            f"the engines disagree on {what} after {self.plies} action(s): {detail}\n"
            f"game: {self.record.dumps()}"
        )

    def same(self, what: str, values: list[Any]) -> None:
        """All three values equal, and of the same types."""
        first = values[0]
        for (label, _), value in zip(self.sides[1:], values[1:], strict=True):
            if value != first or type(value) is not type(first):
                detail = (
                    first_difference(first, value)
                    if isinstance(first, dict)
                    else f"native {shown(first)}, {label} {shown(value)}"
                )
                self.fail(what, f"(native against {label}) {detail}")

    def compare_positions(self) -> None:
        for query in ("to_json", "current_player", "is_over", "scores", "winners"):
            self.same(
                query,
                [getattr(e, query)(s) for (_, e), s in zip(self.sides, self.states, strict=True)],
            )
        for seat in range(self.record.players):
            self.same(
                f"view(state, {seat})",
                [e.view(s, seat) for (_, e), s in zip(self.sides, self.states, strict=True)],
            )

    def legal(self) -> list[Action]:
        lists = [e.legal_actions(s) for (_, e), s in zip(self.sides, self.states, strict=True)]
        mine = [shown(a) for a in lists[0]]
        for (label, _), actions in zip(self.sides[1:], lists[1:], strict=True):
            if type(actions) is not list:
                self.fail("the legal actions", f"{label} gives a {type(actions).__name__}")
            theirs = [shown(a) for a in actions]
            if mine != theirs or lists[0] != actions:
                only_mine = [a for a in mine if a not in theirs][:5]
                only_theirs = [a for a in theirs if a not in mine][:5]
                self.fail("the legal actions",
                          f"only native: {only_mine}; only {label}: {only_theirs}"
                          + ("" if only_mine or only_theirs else "; the same, in another order"))
        native, state = self.sides[0][1], self.states[0]
        lists[0].append(("changed by the caller",))
        if native.legal_actions(state) != lists[1]:
            self.fail("the legal actions", "changing the returned list changed the next answer")
        for action in lists[1]:
            self.pool.setdefault(action, None)
        return lists[1]

    def step(self, action: Action) -> None:
        native = self.engines.native
        before = native._c._export(self.states[0])
        after = []
        for (label, engine), state in zip(self.sides, self.states, strict=True):
            try:
                after.append(engine.apply(state, action))
            except Exception as error:  # any exception fails: a legal action
                self.fail(f"applying the legal action {action!r}", f"{label} raises {error!r}")
        if native._c._export(self.states[0]) != before:
            self.fail("the immutability of states", "the native apply changed its state")
        self.record.actions.append(self.engines.generated.action_to_json(action))
        self.states = after
        self.compare_positions()

    def refuse(self, kind: str, action: Any) -> None:
        """An illegal action: IllegalAction from all three, native and
        generated in the same words, the interpreter naming the same rule
        ids; no state changed."""
        self.probes += 1
        before = [e.to_json(s) for (_, e), s in zip(self.sides, self.states, strict=True)]
        errors: list[BaseException] = []
        what = f"the illegal action {action!r} ({kind})"
        for (label, engine), state in zip(self.sides, self.states, strict=True):
            try:
                engine.apply(state, action)
            except Exception as error:  # compared below
                errors.append(error)
            else:
                self.fail(what, f"{label} accepts it")
        native, generated, interpreted = errors
        if type(native) is not self.engines.native.IllegalAction:
            self.fail(what, f"native raises {native!r}, not its IllegalAction")
        if type(generated) is not self.engines.generated.IllegalAction:
            self.fail(what, f"generated raises {generated!r}, not its IllegalAction")
        if not (isinstance(interpreted, ValueError)
                and type(interpreted).__name__ == "IllegalAction"):
            self.fail(what, f"the interpreter raises {interpreted!r}, not IllegalAction")
        if str(native) != str(generated):
            self.fail(what, f"the messages differ: native {str(native)!r}, "
                            f"generated {str(generated)!r}")
        if rule_prefix(str(native)) != rule_prefix(str(interpreted)):
            self.fail(what, f"the rule ids differ: native {str(native)!r}, "
                            f"interpreter {str(interpreted)!r}")
        after = [e.to_json(s) for (_, e), s in zip(self.sides, self.states, strict=True)]
        if after != before:
            self.fail(what, "a refused action changed a state")


def loosened(action: Action) -> Iterator[tuple[str, Any]]:
    """The action with one value loosened: as a list, one of its tuples as a
    list, a number as a bool (0, 1) or a float; none of them is legal."""
    yield "a list for the action", list(action)
    for i, value in enumerate(action[1:], 1):
        if isinstance(value, tuple):
            yield "a list for a value", (*action[:i], list(value), *action[i + 1:])
            for j, inner in enumerate(value):
                if type(inner) is int:
                    loose = (*value[:j], _loose_number(inner), *value[j + 1:])
                    yield "a loose number in a value", (*action[:i], loose, *action[i + 1:])
                    break
        elif type(value) is int:
            yield "a loose number", (*action[:i], _loose_number(value), *action[i + 1:])


def _loose_number(n: int) -> bool | float:
    return bool(n) if n in (0, 1) else float(n)


def probe(trio: Trio, legal: list[Action], rng: random.Random) -> None:
    """Illegal actions of every kind at this position."""
    name = trio.engines.name
    others = [a for a in trio.pool if a not in legal]
    if others:
        trio.refuse("a legal action of another position", rng.choice(others))
    if not legal:
        return
    for _ in range(2):
        candidate = illegal_candidate(
            name, trio.engines.generated, legal, list(trio.pool), rng.randrange
        )
        if candidate is not None:
            trio.refuse(*candidate)
    for kind, action in loosened(rng.choice(legal)):
        trio.refuse(kind, action)


def play_trio(trio: Trio, rng: random.Random) -> bool:
    """Random moves to the end (True) or MAX_PLIES, probing illegal actions."""
    while trio.plies < MAX_PLIES:
        legal = trio.legal()
        if trio.plies % PROBE_EVERY == 0 or not legal:
            probe(trio, legal, rng)
        if not legal:
            return bool(trio.engines.native.is_over(trio.states[0]))
        trio.step(rng.choice(legal))
    return False


# ------------------------------------------------------------- random games


# Every player count of an edition (up to 3 counts) in CI, whatever Hypothesis
# draws, with seeds past 32 bits and below 0.
@example(players=0, seed=-(2**40) - 3, first=1, moves=1)
@example(players=1, seed=2**62 - 1, first=2, moves=2)
@example(players=2, seed=123456789, first=3, moves=3)
@settings_for(NATIVE_GAMES or GAMES_DEFAULT, derandomize=not NATIVE_GAMES)
@given(
    players=st.integers(0, 3),
    seed=st.integers(-(2**62), 2**62),
    first=st.integers(0, 3),
    moves=st.integers(0, 2**32 - 1),
)
def test_games_agree(engines: Engines, players: int, seed: int, first: int, moves: int) -> None:
    """A random game in the three engines: the same legal actions, states,
    views, scores and winners after every action, and illegal actions
    refused alike every few actions."""
    counts = engines.native.PLAYERS
    players = counts[players % len(counts)]
    trio = Trio(engines, players, seed, first % players)
    try:
        ended = play_trio(trio, random.Random(moves))
    except BaseException:
        note(f"moves from random.Random({moves}); game: {trio.record.dumps()}")
        raise
    assert ended, f"the game did not end in {MAX_PLIES} actions: {trio.record.dumps()}"
    assert trio.probes > 0


def test_games_are_drawn_for_every_edition_and_variant() -> None:
    """The targets are discovered: every rule file of the editions folder and
    of tests/variants (none hard-coded)."""
    assert {t.split(":")[1] for t in TARGETS if t.startswith("edition:")} == {
        p.stem for p in editions_folder().glob("*.rules")
    }
    assert len(VARIANTS) >= 1 and all(f"variant:{p.stem}" in TARGETS for p in VARIANTS)


def take_two_on_three(source: str) -> str:
    """A planted fault in classic's C source only: take two needs 3 tokens
    in the supply instead of 4 (S-3.3)."""
    rule = "if (g->supply[v_c] >= 4LL) {"
    assert source.count(rule) == 1, "classic's C source has changed: find take_two's rule"
    return source.replace(rule, "if (g->supply[v_c] >= 3LL) {")


def test_a_planted_fault_in_the_native_engine_is_caught(native_root: Path) -> None:
    """Only the C source changed (take two on a supply of 3): the comparison
    reports the legal actions within the first game; the same seeds agree in
    the engine built without the fault."""
    if "classic" not in EDITIONS:
        pytest.skip("the planted fault is in classic's rules")
    model = REFERENCE["classic"].model
    fine = engines_of("edition:classic", native_root)
    faulty = Engines("classic", model, native_engine_module(model, native_root, take_two_on_three),
                     fine.generated, fine.interpreter)
    with pytest.raises(AssertionError) as caught:
        play_trio(Trio(faulty, 2, 5, 0), random.Random(5))
    assert "disagree on the legal actions" in str(caught.value)
    assert "'take_two'" in str(caught.value)
    assert play_trio(Trio(fine, 2, 5, 0), random.Random(5))


# ------------------------------------------------------------------ deals

SEEDS: tuple[Any, ...] = (
    0, 1, -1, 2, -2, 42, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, 2**32, -(2**32), 2**32 + 1,
    2**53 + 1, 2**62, -(2**62), 2**63 - 1, -(2**63) + 1,
    # beyond the native deal's range, and seeds that are not ints: the Python engine deals
    2**63, -(2**63), 2**64 + 5, 10**30, "", "seed", "classic/1", 1.5,
)


def deal_seeds(name: str) -> tuple[Any, ...]:
    rng = random.Random(f"deals/{name}")
    drawn = [rng.randrange(-(2**62), 2**62 + 1) for _ in range(30)]
    small = [rng.randrange(-1000, 1000) for _ in range(10)]
    return (*SEEDS, *drawn, *small)


def test_deals_agree(engines: Engines) -> None:
    """new_game: the native deal is the Python engine's, seed for seed, for
    every player count (the first player varying with the seed)."""
    native, generated = engines.native, engines.generated
    for seed in deal_seeds(engines.name):
        for players in native.PLAYERS:
            first = len(repr(seed)) % players
            got = native.to_json(native.new_game(players, seed, first))
            want = generated.to_json(generated.new_game(players, seed, first))
            assert got == want, f"seed {seed!r}, {players} players: {first_difference(got, want)}"


def test_bad_setups_are_refused_alike(engines: Engines) -> None:
    native, generated = engines.native, engines.generated
    low, high = native.PLAYERS.start, native.PLAYERS.stop
    for players, first in ((low - 1, 0), (high, 0), (low, low), (low, -1), (True, 0),
                           (float(low), 0), (low, False)):
        messages = []
        for engine in (native, generated):
            with pytest.raises(ValueError) as refused:
                engine.new_game(players, 1, first)
            messages.append(str(refused.value))
        assert messages[0] == messages[1], (players, first)


# ------------------------------------------------------------- round trips


def positions(engines: Engines, games: int = 2) -> Iterator[Any]:
    """Native states along seeded random games, from the deal to the end."""
    native = engines.native
    for i in range(games):
        counts = native.PLAYERS
        rng = random.Random(f"positions/{engines.name}/{i}")
        state = native.new_game(counts[i % len(counts)], rng.randrange(2**32), i % counts[0])
        yield state
        while not native.is_over(state):
            state = native.apply(state, rng.choice(native.legal_actions(state)))
            yield state


def test_round_trips(engines: Engines) -> None:
    """from_json(to_json(s)) == s, through JSON text too; pickle and copies
    give an equal state with the same legal actions."""
    native = engines.native
    for state in positions(engines):
        data = native.to_json(state)
        back = native.from_json(json.loads(json.dumps(data)))
        assert back == state
        assert not back != state  # noqa: SIM202 (__ne__ too)
        assert native.to_json(back) == data
        assert native.from_json(data, complete=False) == state
        unpickled = pickle.loads(pickle.dumps(state))
        assert unpickled == state and type(unpickled) is type(state)
        assert native.legal_actions(unpickled) == native.legal_actions(state)
        assert copy.copy(state) == state and copy.deepcopy(state) == state


def test_states_are_values(engines: Engines) -> None:
    """Native states of equal positions are equal, of others not; a state is
    no Python engine's, and other values are refused with a TypeError."""
    native = engines.native
    a, b = native.new_game(native.PLAYERS.start, 7), native.new_game(native.PLAYERS.start, 7)
    assert a == b and a is not b
    assert a != native.apply(a, native.legal_actions(a)[0])
    assert a != engines.generated.new_game(native.PLAYERS.start, 7)
    for query in (native.legal_actions, native.is_over, native.scores, native.winners,
                  native.current_player):
        with pytest.raises(TypeError):
            query(engines.generated.new_game(native.PLAYERS.start, 7))


def test_refused_states_alike(engines: Engines) -> None:
    """from_json refuses what the Python engine refuses, in its words."""
    native, generated = engines.native, engines.generated
    good = native.to_json(native.new_game(native.PLAYERS.start, 3))
    bad: list[Any] = [{}, [], {**good, "players": 99}, {**good, "current": -1},
                      {**good, "supply": {}}]
    for data in bad:
        messages = []
        for engine in (native, generated):
            with pytest.raises(ValueError) as refused:
                engine.from_json(data)
            messages.append(str(refused.value))
        assert messages[0] == messages[1], data


# A state entering from outside with a count beyond 32 bits: every engine
# refuses it alike (docs/engine.md, "Limits": a state counts at most 2**31 - 1).
BIG_COUNTS = {
    "supply 2**31": (("supply", "{colour}"), 2**31),
    "supply 2**32 + 2": (("supply", "{colour}"), 2**32 + 2),
    "turn 2**31": (("turn",), 2**31),
}


@pytest.mark.parametrize("case", sorted(BIG_COUNTS))
def test_a_count_beyond_32_bits_is_refused_alike(case: str, native_root: Path) -> None:
    engines = engines_of(f"edition:{EDITIONS[0]}", native_root)
    data = engines.generated.to_json(engines.generated.new_game(engines.generated.PLAYERS.start, 1))
    path, value = BIG_COUNTS[case]
    keys = [engines.native.COLOURS[0] if key == "{colour}" else key for key in path]
    parent = data
    for key in keys[:-1]:
        parent = parent[key]
    parent[keys[-1]] = value
    refusals = []
    for _, engine in engines.all():
        with pytest.raises(ValueError) as refused:
            engine.from_json(data, complete=False)
        refusals.append(str(refused.value))
    assert len(set(refusals)) == 1 and "2147483647" in refusals[0], refusals


# Rule files whose numbers do not fit in 32 bits: the checker accepts them,
# and the Python engines compute with Python's ints.
BIG_NUMBERS = {
    "a literal": "override [C-5.1] score = sum(bought.points) + 3000000000",
    "a product": "override [C-5.1] score = (sum(bought.points) + 1) * 100000 * 100000",
}


@pytest.mark.parametrize("case", sorted(BIG_NUMBERS))
def test_numbers_beyond_32_bits(case: str, native_root: Path, tmp_path: Path) -> None:
    """The same scores, end and winners along random games as the Python
    engine, for a child of classic whose score is beyond 2**31."""
    if "classic" not in EDITIONS:
        pytest.skip("the rule file extends classic")
    name = "big_" + case.split()[1]
    path = tmp_path / f"{name}.rules"
    path.write_text(
        f'edition {name} "Big numbers" extends classic {{\n  {BIG_NUMBERS[case]}\n}}\n', "utf-8"
    )
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    native = native_engine_module(compiled.model, native_root)
    python = native._py
    for seed in range(3):
        a, b = python.new_game(2, seed), native.new_game(2, seed)
        rng = random.Random(seed)
        while not python.is_over(a):
            assert native.scores(b) == python.scores(a), f"seed {seed}"
            action = rng.choice(python.legal_actions(a))
            a, b = python.apply(a, action), native.apply(b, action)
        assert native.is_over(b) and native.winners(b) == python.winners(a), f"seed {seed}"


# ---------------------------------------------------------------- playouts


def playout_moves(native: ModuleType, state: Any, seed: int) -> Iterator[tuple[Any, Any]]:
    """The moves of playout(state, seed), one by one: playout with a limit of
    k + 1 moves is one move after that with a limit of k (the same random
    numbers); each is found among the legal actions. (position, action)."""
    here, k = state, 0
    while not native.is_over(here):
        k += 1
        there, made = native.playout(state, seed, k)
        assert made == k
        actions = [a for a in native.legal_actions(here) if native.apply(here, a) == there]
        assert actions, f"move {k} of playout(..., {seed}) is no legal action"
        yield here, actions[0]
        here = there


def test_playout_plays_a_legal_game(engines: Engines) -> None:
    """playout(s, seed): a finished state after > 0 moves, s unchanged; the
    same for the same seed; each move one of legal_actions, and the game
    replayed in the Python engine ends in the same state; a finished state
    plays no move; a limit stops it."""
    native, generated = engines.native, engines.generated
    for players in native.PLAYERS:
        for seed in (0, 1, 2**40 + 3):
            state = native.new_game(players, seed)
            before = native.to_json(state)
            end, made = native.playout(state, seed)
            assert native.is_over(end) and made > 0 and native.legal_actions(end) == []
            assert native.to_json(state) == before
            again = native.playout(state, seed)
            assert again[0] == end and again[1] == made
            still, none = native.playout(end, seed)
            assert still == end and none == 0
            if made > 3:
                stopped, three = native.playout(state, seed, 3)
                assert three == 3 and not native.is_over(stopped)
            if seed == 0:  # replayed move by move (as many moves as the game has)
                python = generated.new_game(players, seed)
                count = 0
                for _, action in playout_moves(native, state, seed):
                    python = generated.apply(python, action)
                    count += 1
                assert count == made
                assert generated.to_json(python) == native.to_json(end)
                assert generated.winners(python) == native.winners(end)
                assert generated.scores(python) == native.scores(end)


def test_playouts(engines: Engines) -> None:
    """playouts(players, n, seed, first_seed) -> (moves, ended, wins): n games
    ended, a win count per seat (a win may be shared, or no one win), and the
    same for the same arguments; its first game is playout(new_game(players,
    first_seed), seed)."""
    native = engines.native
    n = 20
    for players in native.PLAYERS:
        for seed, first_seed in ((1, 0), (2**63 + 5, -(2**40)), (7, 2**62)):
            moves, ended, wins = native.playouts(players, n, seed, first_seed)
            assert ended == n and moves >= n
            assert type(wins) is tuple and len(wins) == players
            assert all(0 <= w <= n for w in wins) and sum(wins) <= n * players
            assert native.playouts(players, n, seed, first_seed) == (moves, ended, wins)
            end, made = native.playout(native.new_game(players, first_seed), seed)
            bits = native.winners(end)
            one = (made, 1, tuple(int(p in bits) for p in range(players)))
            assert native.playouts(players, 1, seed, first_seed) == one
        assert native.playouts(players, 0, 1, 0) == (0, 0, (0,) * players)


# Run in a child process: the bugs below crash the process or race.
CHILD = """
import sys
sys.path.insert(0, {root!r})
from {package} import {module} as native
"""


def run_child(native: ModuleType, code: str) -> subprocess.CompletedProcess[str]:
    package, _, module = native.__name__.rpartition(".")
    root = str(Path(native.__file__ or "").parent.parent)
    text = CHILD.format(root=root, package=package, module=module) + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", text], capture_output=True, text=True, timeout=120, check=False
    )


def test_playouts_refuses_a_player_count_the_edition_does_not_allow(native_root: Path) -> None:
    """As new_game does: a ValueError for a player count outside PLAYERS."""
    native = engines_of(f"edition:{EDITIONS[0]}", native_root).native
    bad = (0, -1, native.PLAYERS.stop, 40)
    done = run_child(native, f"""
        for players in {bad!r}:
            try:
                native.playouts(players, 3, 1, 0)
            except ValueError:
                print(players, "refused", flush=True)
            else:
                print(players, "accepted", flush=True)
    """)
    assert done.returncode == 0, f"the process died ({done.returncode}): {done.stdout}"
    assert done.stdout.split() == [w for p in bad for w in (str(p), "refused")], done.stdout


def test_playouts_in_threads_give_what_they_give_alone(native_root: Path) -> None:
    native = engines_of(f"edition:{EDITIONS[0]}", native_root).native
    done = run_child(native, """
        import threading
        runs = [(native.PLAYERS[i % len(native.PLAYERS)], 300, i, 1000 * i) for i in range(4)]
        alone = [native.playouts(*run) for run in runs]
        for trial in range(10):
            together = [None] * len(runs)
            def play(i):
                together[i] = native.playouts(*runs[i])
            threads = [threading.Thread(target=play, args=(i,)) for i in range(len(runs))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            if together != alone:
                print("trial", trial, "differs:", together, alone)
                break
        else:
            print("the same")
    """)
    assert done.returncode == 0, f"the process died ({done.returncode}): {done.stderr[-2000:]}"
    assert done.stdout.strip() == "the same", done.stdout


# ----------------------------------------------------------- random editions


@dataclass
class Drawn:
    """Statistics of the random editions played (printed with -s)."""

    editions: int = 0
    games: int = 0
    plies: int = 0
    probes: int = 0
    seconds: float = 0.0
    build: list[float] = field(default_factory=list)
    lengths: Lengths = field(default_factory=Lengths)
    several: int = 0  # editions with actions before the main one or extra turns
    worth: int = 0  # editions with a wild token worth more than one in payments
    divides: int = 0  # editions that divide (`/` or `%`)
    batched: int = 0  # editions whose research batch was stepped against the engine API
    later: int = 0  # their decisions that did not end a move (a payment's or a return's atoms)


DRAWN = Drawn()

GAMES = st.builds(
    Game,
    players=st.integers(0, 3),
    seed=st.integers(-(2**62), 2**62),
    first=st.integers(0, 3),
    moves=st.integers(0, 2**32 - 1),
)


def refused_in_the_same_words(rng: random.Random) -> Callable[[Differential, list[Action]], None]:
    """A prober for the shared harness: its illegal action (refused with the
    same rule ids, the state unchanged), and the same message word for word."""
    def prober(diff: Differential, legal: list[Action]) -> None:
        candidate = illegal_candidate(diff.edition, diff.a.engine, legal, list(diff.pool),
                                      rng.randrange)
        if candidate is None:
            return
        diff.check_refused(*candidate)
        words = []
        for engine, state in ((diff.a.engine, diff.sa), (diff.b.engine, diff.sb)):
            try:
                engine.apply(state, candidate[1])
            except ValueError as error:
                words.append(str(error))
        if words[0] != words[1]:
            diff.fail(f"the illegal action {candidate[1]!r}",
                      f"native says {words[0]!r}, generated {words[1]!r}")
    return prober


def play_drawn(drawn: DrawnEdition, model: m.Edition, native: ModuleType, game: Game) -> None:
    interpreter = InterpretedEngine(model)  # names for the illegal-action generator
    sides = (Side("native", native), Side("generated", native._py))
    with registered(model.name, interpreter):
        for i in range(RANDOM_EDITION_GAMES):
            setup = game.following(i)
            players, seed, first = setup.setup(*model.players)
            bound = drawn.max_plies(players, len(identities.follow_ups(model)))
            rng = random.Random(setup.moves)
            diff = Differential(model.name, players, seed, first, sides)
            try:
                ended = play(diff, rng.randrange, bound + 1, refused_in_the_same_words(rng))
            except Disagreement as found:
                raise AssertionError(
                    f"random edition: {str(found).split(chr(10) + 'replay:')[0]}\n"
                    f"{drawn.show()}\ngame: {found.record.dumps()}, moves from "
                    f"random.Random({setup.moves})"
                ) from None
            assert ended, f"not ended in {bound} actions\n{drawn.show()}\n{diff.record.dumps()}"
            DRAWN.games += 1
            DRAWN.plies += diff.plies
            DRAWN.probes += diff.probes
            DRAWN.lengths.add(diff.plies, drawn.long)
        check_playout(drawn, native, *game.setup(*model.players))


def check_batch(drawn: DrawnEdition, model: m.Edition, native: ModuleType, players: int,
                seed: int, moves: int) -> None:
    """A drawn edition's research batch (docs/rl.md): its masks, observations,
    rewards and dones after each of its random decisions, game by game, as
    stepping each game through the engine API gives. The batch finds a new
    state's heads without their ways to pay or to return tokens, and the
    ways of a head chosen only (rl.md, "Speed"): a drawn edition's payments
    (wild tokens worth more than one, cards spent) and returns go through
    it. An edition whose choices the action space has no encoding for is
    left out; so is a run without numpy (the rl extra)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return
    from unittest import mock

    from splendor_rules.compiler.tools.rl.adapters import batch_env
    from splendor_rules.compiler.tools.rl.game import Game as RlGame

    games = 3
    with mock.patch.object(batch_env, "load_engine", lambda edition, kind: native), \
            mock.patch.object(batch_env, "native_extension", lambda edition: native._c):
        try:
            batch = batch_env.BatchEnv(model.name, games, players, seed=seed)
        except ValueError:
            return
    alone = [RlGame(native, players, seed=seed + i) for i in range(games)]
    rng = random.Random(moves)
    deals = [0] * games
    for _ in range(120):
        for i, game in enumerate(alone):
            where = f"batch game {i}, seed {seed + i}, moves random.Random({moves})\n{drawn.show()}"
            assert batch.masks[i].tolist() == game.mask(), where
            assert batch.observations[i].tolist() == game.observe(game.to_move), where
        actions = [rng.choice(game.legal()) for game in alone]
        batch.step(actions)
        for i, (game, action) in enumerate(zip(alone, actions, strict=True)):
            DRAWN.later += game.step(action) is None
            assert bool(batch.dones[i]) == game.over, drawn.show()
            if game.over:
                assert batch.rewards[i].tolist() == game.rewards(), drawn.show()
                deals[i] += 1
                game.reset(seed + i + deals[i] * games)
            else:
                assert not batch.rewards[i].any(), drawn.show()
    DRAWN.batched += 1


def check_playout(drawn: DrawnEdition, native: ModuleType, players: int, seed: int,
                  first: int) -> None:
    """A drawn edition's native playout: a legal game (replayed move by move
    in the Python engine, to the same end), and playouts that end."""
    start = native.new_game(players, seed, first)
    end, made = native.playout(start, seed)
    python = native._py.new_game(players, seed, first)
    for _, action in playout_moves(native, start, seed):
        python = native._py.apply(python, action)
    where = f"playout(new_game({players}, {seed}, {first}), {seed})\n{drawn.show()}"
    assert native.is_over(end) and made > 0, where
    assert native._py.to_json(python) == native.to_json(end), where
    assert native._py.winners(python) == native.winners(end), where
    assert native._py.scores(python) == native.scores(end), where
    moves, ended, wins = native.playouts(players, 3, seed, seed)
    assert ended == 3 and moves >= 3 and len(wins) == players, where


@settings_for(NATIVE_RANDOM_EDITIONS or RANDOM_EDITIONS_DEFAULT,
              derandomize=not NATIVE_RANDOM_EDITIONS)
@given(drawn=drawn_editions(KNOWN_MISCOMPILES), game=GAMES)
def test_random_editions_agree(native_root: Path, drawn: DrawnEdition, game: Game) -> None:
    """Editions drawn by the fuzzer of test_random_editions.py, built native:
    each plays RANDOM_EDITION_GAMES games in the native and the generated
    engine, compared by the shared harness (legal actions, JSON, views,
    scores, winners and refusals) after every action."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="native-edition-") as folder:
        try:
            model, _ = check_drawn(drawn, Path(folder))
        except StrategyBug:
            raise
        try:
            native = native_engine_module(model, native_root)
        except Exception as error:
            raise AssertionError(
                f"random edition: the native engine cannot be built: {error}\n{drawn.show()}"
            ) from error
    DRAWN.build.append(time.perf_counter() - start)
    play_drawn(drawn, model, native, game)
    check_batch(drawn, model, native, *game.setup(*model.players)[:2], game.moves)
    DRAWN.editions += 1
    DRAWN.several += drawn.several
    DRAWN.worth += "token worth" in drawn.shapes
    DRAWN.divides += divides(drawn.files)
    DRAWN.seconds += time.perf_counter() - start


def test_random_editions_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """What the random editions played (after test_random_editions_agree)."""
    if not DRAWN.editions:
        pytest.skip("no random edition was played in this session")
    build = sum(DRAWN.build) / len(DRAWN.build)
    with capsys.disabled():
        print(f"\nnative random editions: {DRAWN.editions} editions ({DRAWN.several} with "
              f"several actions a turn, {DRAWN.worth} with a token worth more than one "
              f"in payments, {DRAWN.divides} dividing with / or %), {DRAWN.games} games, "
              f"{DRAWN.plies} actions, {DRAWN.probes} illegal actions refused alike; "
              f"{DRAWN.batched} batches stepped as the engine API, {DRAWN.later} of their "
              f"decisions within a move; "
              f"{DRAWN.seconds:.1f} s ({build:.2f} s per edition to build)\n"
              f"{DRAWN.lengths.summary()}")
    assert DRAWN.games == DRAWN.editions * RANDOM_EDITION_GAMES


REVEALS = """\
edition reveals "Two reveals" {
  players 2..2
  colours red
  supply {
    each colour: 3
  }
  cards from "cards.csv" {
    tier: int
    points: int
  }
  tiles noble from "noble.csv" {
    points: int
  }
  reveal noble: 2
  tiles place from "place.csv" {
    points: int
  }
  reveal place: count(noble) + 1
  zone bought: cards of each player
  market by tier {1: 3}, 2 face up each
  score = count(bought)
  action take {
    gain 1 red
  }
  end full: after a round that ends with any(player: tokens(red) >= 1)
  winners: highest score, ties share
}
"""


def test_every_reveal_count_reads_the_state_before_any_reveal(tmp_path: Path) -> None:
    """A random edition found it: with two reveals, the native engine read
    the second's count after the first reveal; every engine reads them all
    before (the interpreter's order), so one place is revealed here, not three."""
    (tmp_path / "cards.csv").write_text("tier,points\n1,1\n1,2\n1,0\n", "utf-8")
    (tmp_path / "noble.csv").write_text("points\n3\n2\n1\n", "utf-8")
    (tmp_path / "place.csv").write_text("points\n1\n0\n2\n4\n", "utf-8")
    (tmp_path / "reveals.rules").write_text(REVEALS, "utf-8")
    compiled = compile_file(tmp_path / "reveals.rules")
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    native = native_engine_module(compiled.model, tmp_path / "native")
    interpreter = InterpretedEngine(compiled.model)
    for seed in range(3):
        tiles = native.to_json(native.new_game(2, seed))["tiles"]
        assert tiles == interpreter.to_json(interpreter.new_game(2, seed))["tiles"]
        assert len(tiles["noble"]) == 2 and len(tiles["place"]) == 1


def test_the_native_sources_compile_without_warnings(tmp_path: Path) -> None:
    """Generated C is a product too: the committed engines, and the
    variants' (what a construct only they use prints), compile with gcc's
    (or clang's) -Wall -Wextra and no warning at all. The committed ones
    are compiled whole, as the tests' quick builds are (a function unused
    and a value the optimizer doubts are told only then); the variants'
    are checked for syntax and types alone, a second each saved."""
    reason = native_available()
    if reason is not None:
        pytest.skip(reason)
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    include = sysconfig.get_paths()["include"]
    flags = ["-Wall", "-Wextra", "-Werror"]
    for path in VARIANTS:
        compiled = compile_file(path)
        assert compiled.ok and compiled.model is not None, compiled.diagnostics
        for name, text in render_files(compiled.model, ROOT).items():
            if name.endswith(".c"):
                (tmp_path / f"{path.stem}.c").write_text(text, encoding="utf-8")
    committed = sorted((Path(generated.__file__).parent / "native").glob("*.c"))
    whole = [*QUICK, "-c", "-o", os.devnull]
    for source in [*committed, *sorted(tmp_path.glob("*.c"))]:
        done = subprocess.run(
            [*compiler, *flags, *(whole if source in committed else ["-fsyntax-only"]),
             f"-I{include}", str(source)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, f"{source.name}:\n{done.stderr}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_type_stub_declares_every_function_the_module_exports(edition: str) -> None:
    """`_<edition>.pyi` (engine.pyi.j2) names each function of the built module,
    the research interface's `_batch_*` and `_observe` included, and no other."""
    import ast
    import types

    from splendor_rules.compiler.runtime.loading import EngineUnavailable, native_extension

    try:
        module = native_extension(edition)
    except EngineUnavailable as error:
        pytest.skip(str(error))
    exported = {name for name in dir(module)
                if isinstance(getattr(module, name), types.BuiltinFunctionType)}
    stub = Path(module.__file__ or "").with_name(f"_{edition}.pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    declared = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert exported == declared
