"""The native engine never crashes (issue 21): hostile states on every way
into a native state, near-miss move types, and its memory.

A native state enters from outside through `_import` (its parts, named as
compiler/frontend/schema.py names them): `from_json` and unpickling both go
through it, so it checks what `from_json` checks. Each case below once crashed the process (a wild
function pointer, a heap overflow, out-of-bounds reads and writes): it runs
in a child process, so that a crash fails the test and not pytest.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
import sanitize
from edition_facts import EDITIONS, KINDS, engine_or_skip
from fuzz.children import editions as drawn_editions
from fuzz.engines import check as check_drawn
from fuzz.known import KNOWN_MISCOMPILES
from fuzz.rule_files import DrawnEdition
from hypothesis import HealthCheck, Phase, given, settings
from sanitize import PRELUDE

from splendor_rules.compiler.backend.native.compile import native_available
from splendor_rules.compiler.backend.native.target import render_files
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file

# Each case: an edit of a valid state's parts (`parts`, a dict; `native` the
# engine module), and a fragment of the refusal it gets.
PART_CASES: dict[str, tuple[str, str]] = {
    "pending step 10**6": ("parts['pending'] = 10**6", "is not a decision step"),
    "pending step -2": ("parts['pending'] = -2", "is not a decision step"),
    "follow-ups past the engine's": (
        "parts['follow'] = ((0, (0,) * native._WIDTH),) * (33 if native._BOUND else 3)",
        "more than the native engine holds",
    ),
    "follow-up site 10**6": ("parts['follow'] = ((10**6, (0,) * native._WIDTH),)", "follow"),
    "follow-up carrying 10**6": (
        "parts['follow'] = ((0, (10**6,) + (0,) * (native._WIDTH - 1)),)",
        "follow",
    ),
    "seat 1000 to move": ("parts['current'] = 1000", "must be seats"),
    "first player -1": ("parts['first'] = -1", "must be seats"),
    "hidden card 10**6": ("parts['hidden'] = [10**6]", "hidden: 1000000 is not a card"),
    "hidden card in no zone": ("parts['hidden'] = [parts['decks'][0][0]]", "hidden"),
    "card 10**6 in a deck": (
        "parts['decks'] = ((10**6,) + tuple(parts['decks'][0]),) + tuple(parts['decks'][1:])",
        "is not a card",
    ),
    "a card in two places": (
        "parts['decks'] = ((parts['decks'][0][0],) + tuple(parts['decks'][0]),)"
        " + tuple(parts['decks'][1:])",
        "in two places",
    ),
    "a market row too short": (
        "parts['market'] = (tuple(parts['market'][0])[:-1],) + tuple(parts['market'][1:])",
        "slots, not",
    ),
    "tile 10**6 in play": (
        "parts['tiles'] = tuple((10**6,) + tuple(t) for t in parts['tiles'])",
        "is not a tile",
    ),
    "negative supply": ("parts['supply'] = (-1,) + tuple(parts['supply'][1:])", "supply"),
    "held row too short": (
        "parts['held'] = (parts['held'][0][:-1],) + tuple(parts['held'][1:])",
        "held",
    ),
    "zones not a tuple": ("parts['zones'] = None", "zones"),
    "did bits past the actions": ("parts['did'] = (2**30,) + tuple(parts['did'][1:])", "did"),
}

CHILD = (
    PRELUDE
    + """
import pickle
from splendor_rules.generated.native import {module} as native
state = native.new_game(2, 5)
parts = native._c._export(state)
{edit}
class Hostile:
    def __reduce__(self):
        return (native._from_export, (parts,))
for way, bring in (
    ("unpickled", lambda: pickle.loads(pickle.dumps(Hostile()))),
    ("imported", lambda: native._c._import(parts)),
):
    try:
        s = bring()
    except ValueError as error:
        print(way, "refused:", error, flush=True)
        continue
    print(way, "accepted", flush=True)
    moves = native.legal_actions(s)
    if moves:
        native.apply(s, moves[0])
    native.playout(s, 1, 200)
    native.to_json(s)
"""
)


def run_child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("case", sorted(PART_CASES))
def test_hostile_parts_are_refused(edition: str, case: str) -> None:
    """Unpickled or imported, a state that breaks the engine's invariants is
    refused with a ValueError naming what is wrong; the process lives."""
    native: Any = engine_or_skip(edition, "native")
    edit, fragment = PART_CASES[case]
    if "tiles" in edit and not native.DESCRIPTION["tiles"]["count"]:
        pytest.skip(f"{edition} has no tiles")
    done = run_child(CHILD.format(module=native.__name__.rpartition(".")[2], edit=edit))
    assert done.returncode == 0, f"the process died ({done.returncode}): {done.stderr[-3000:]}"
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["unpickled refused", "imported refused"], (
        done.stdout
    )
    assert all(fragment in line for line in lines), done.stdout


@pytest.mark.parametrize("edition", EDITIONS)
def test_valid_parts_still_come_back(edition: str) -> None:
    """The checks refuse nothing play reaches: states along a game, pickled."""
    import pickle
    import random

    native: Any = engine_or_skip(edition, "native")
    rng = random.Random(7)
    s = native.new_game(2, 11)
    for _ in range(60):
        again = pickle.loads(pickle.dumps(s))
        assert native.to_json(again) == native.to_json(s)
        assert native.from_json(native.to_json(s)) == s
        moves = native.legal_actions(s)
        if not moves:
            break
        s = native.apply(s, rng.choice(moves))


def test_playouts_refuse_seeds_past_64_bits() -> None:
    native: Any = engine_or_skip(EDITIONS[0], "native")
    players = native.PLAYERS.start
    with pytest.raises(ValueError, match="seeds"):
        native.playouts(players, 3, 1, 2**63 - 2)
    assert native.playouts(players, 1, 1, 2**63 - 1)[1] == 1


# ------------------------------------------------------ near-miss moves


class Subtuple(tuple[Any, ...]):
    pass


class Substr(str):
    pass


def _near_misses(move: tuple[Any, ...]) -> dict[str, tuple[Any, ...]]:
    pair = collections.namedtuple("pair", [f"f{i}" for i in range(len(move))])  # type: ignore[misc]
    return {
        "namedtuple": pair(*move),
        "tuple subclass": Subtuple(move),
        "str subclass name": (Substr(move[0]), *move[1:]),
    }


@pytest.mark.parametrize("edition", EDITIONS)
def test_near_miss_moves_behave_alike(edition: str) -> None:
    """A namedtuple or tuple subclass as a move, or a str subclass as its
    name, is taken as the move by every engine (the generated one always
    did), to the same state."""
    engines = [engine_or_skip(edition, kind) for kind in KINDS]
    states = [e.new_game(2, 3) for e in engines]
    for move in engines[0].legal_actions(states[0]):
        for name, near in _near_misses(move).items():
            after = [e.to_json(e.apply(s, near)) for e, s in zip(engines, states, strict=True)]
            expected = engines[0].to_json(engines[0].apply(states[0], move))
            assert all(a == expected for a in after), f"{edition}: {name} {near!r}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_numpy_values_are_illegal_actions(edition: str) -> None:
    """A numpy integer where a card (or any value) belongs: IllegalAction in
    every engine, never numpy's "truth value is ambiguous"."""
    np = pytest.importorskip("numpy")
    for kind in KINDS:
        engine: Any = engine_or_skip(edition, kind)
        s = engine.new_game(2, 3)
        for move in engine.legal_actions(s):
            for i, value in enumerate(move[1:], start=1):
                if type(value) is not int:
                    continue
                given = (*move[:i], np.int64(value), *move[i + 1 :])
                with pytest.raises(engine.IllegalAction):
                    engine.apply(s, given)


# ---------------------------------------------------------------- memory

MEMORY = (
    PRELUDE
    + """
import random
from splendor_rules.generated.native import {module} as native

def rss():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) // 1024

rng = random.Random(0)
before = rss()
for i in range(1000):
    data = native.to_json(native.new_game(2, i))
    seat = data["seats"][data["current_player"]]
    for kind in native.TOKENS:
        seat["tokens"][kind] = rng.randrange(4, 9)
    data["pending"] = {pending!r}
    native.legal_actions(native.from_json(data, complete=False))
print(before, rss())
"""
)


@pytest.mark.skipif(sanitize.SANITIZE, reason="ASan keeps freed memory in quarantine")
def test_the_move_cache_is_bounded() -> None:
    """1,000 hand-made positions with thousands of ways to return tokens
    each: the move cache is emptied past its bound, so memory stays flat
    (it grew by 78 MB before, and without bound with more positions)."""
    for edition in EDITIONS:
        native: Any = engine_or_skip(edition, "native")
        steps = [
            n
            for n, k in zip(native._py._STEP_NAMES, native._py._STEP_KINDS, strict=True)
            if k == "tokens"
        ]
        if steps:
            break
    else:
        pytest.skip("no edition returns tokens")
    code = MEMORY.format(module=native.__name__.rpartition(".")[2], pending=steps[0])
    done = run_child(textwrap.dedent(code))
    assert done.returncode == 0, done.stderr[-3000:]
    before, after = map(int, done.stdout.split())
    assert after - before < 40, f"RSS grew from {before} MB to {after} MB"


# -------------------------------------------------------------- warnings

WARNINGS = ("-Wall", "-Wextra", "-Werror")


def _warnings(model: m.Edition, folder: Path) -> str:
    """What the C compiler says of the model's engine with every warning
    an error: empty when it compiles clean."""
    files = render_files(model, folder)
    source = folder / next(name for name in files if name.endswith(".c"))
    source.write_text(files[source.name], "utf-8")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(
        [*compiler, "-fsyntax-only", *WARNINGS, f"-I{include}", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stderr[-4000:] if done.returncode else ""


@settings(
    max_examples=12,
    deadline=None,
    database=None,
    derandomize=True,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(drawn=drawn_editions(KNOWN_MISCOMPILES))
def test_random_editions_compile_without_warnings(drawn: DrawnEdition) -> None:
    """The C of random editions (unused values, comparisons of a value with
    itself, mixed operators) compiles with -Wall -Wextra -Werror: not a
    warning (issue 21: 237 of 300 had some)."""
    reason = native_available()
    if reason is not None:
        pytest.skip(reason)
    with tempfile.TemporaryDirectory(prefix="native-warnings-") as folder:
        model, _ = check_drawn(drawn, Path(folder))
        said = _warnings(model, Path(folder))
    assert not said, f"{said}\n{drawn.show()}"


def test_a_loop_value_unread_beside_one_read_of_the_same_name_is_voided(tmp_path: Path) -> None:
    """Two ranking keys are built from two frames, whose temporaries are
    named alike: one key reads its loop's element, the other does not (sums
    an engine cannot keep up to date, as they read the supply). The
    unread one is still cast to void (each block is looked at apart), so
    the C compiles without a warning (found by the random editions)."""
    reason = native_available()
    if reason is not None:
        pytest.skip(reason)
    rules = tmp_path / "keys.rules"
    rules.write_text(
        'edition keys "Two keys" extends classic {\n'
        "  override [C-5.3] winners: highest sum(k in bought where supply(red) > 0: k.points), "
        "then highest sum(k in bought where supply(red) > 0: 1), ties share\n"
        "}\n",
        "utf-8",
    )
    compiled = compile_file(rules)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    assert _warnings(compiled.model, tmp_path) == ""


@pytest.mark.skipif(not sanitize.SANITIZE, reason="the sanitizer mode is off (NATIVE_SANITIZE)")
def test_the_sanitizer_mode_loads_sanitized_engines() -> None:
    """In the sanitizer mode, the shipped engines the tests load are the
    sanitized builds, not the modules in generated/native."""
    for edition in EDITIONS:
        native: Any = engine_or_skip(edition, "native")
        folder = os.environ[sanitize.FOLDER_VARIABLE]
        assert native._c.__file__.startswith(folder), native._c.__file__
