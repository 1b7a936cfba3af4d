"""Golden regression checks (in the manner of OpenSpiel playthroughs and RBG
perft counts): committed files that record how the engines play now.

- tests/goldens/playthroughs/*.txt: whole games, one per edition and player
  count, with the state and every legal action at each of the first 40 steps;
- tests/goldens/perft.json: the number of legal action sequences of length
  1, 2, 3 (and 4 for positions later in a game) from fixed positions.

The files must equal what the generated engines produce now, and the
reference interpreter must produce the same playthroughs and, on the positions
cheap enough for it (PERFT_BUDGET), the same perft counts.

A change meant to change how games play makes these tests fail until the
files are regenerated, with one documented command:

    python tests/goldens/regenerate.py

(`--check` only compares.) Read the diff before committing it. See
docs/testing.md.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from splendor_rules.compiler.runtime.loading import load_engine

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = Path(__file__).resolve().parent / "goldens"


def _regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("goldens_regenerate",
                                                  GOLDENS / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _regenerate()
EDITIONS = regenerate.EDITIONS
GENERATED: dict[str, Any] = {name: load_engine(name, "generated") for name in EDITIONS}
REFERENCE: dict[str, Any] = {name: load_engine(name, "interpreted") for name in EDITIONS}
HINT = "run python tests/goldens/regenerate.py and read the diff"

# The interpreter checks a perft count when it has at most this many
# positions to expand (the count one level up): a few seconds in all.
PERFT_BUDGET = 250


def _first_difference(committed: str, produced: str) -> str:
    for number, (a, b) in enumerate(zip(committed.splitlines(), produced.splitlines(),
                                        strict=False), start=1):
        if a != b:
            return f"line {number}:\n  committed: {a[:160]}\n  produced:  {b[:160]}"
    return (f"the committed file has {len(committed.splitlines())} lines, the produced "
            f"text {len(produced.splitlines())}")


def _spec_id(spec: tuple[str, int, int]) -> str:
    return f"{spec[0]}-{spec[1]}p-seed{spec[2]}"


@pytest.mark.parametrize("spec", regenerate.PLAYTHROUGHS, ids=_spec_id)
def test_playthrough_is_current(spec: tuple[str, int, int]) -> None:
    path = regenerate.playthrough_path(*spec)
    assert path.is_file(), f"{path.name} is missing: {HINT}"
    committed = path.read_text(encoding="utf-8")
    produced = regenerate.playthrough(GENERATED[spec[0]], *spec)
    assert committed == produced, f"{path.name} is out of date ({HINT}); " + _first_difference(
        committed, produced)


@pytest.mark.parametrize("spec", regenerate.PLAYTHROUGHS, ids=_spec_id)
def test_interpreter_plays_the_same_playthrough(spec: tuple[str, int, int]) -> None:
    committed = regenerate.playthrough_path(*spec).read_text(encoding="utf-8")
    produced = regenerate.playthrough(REFERENCE[spec[0]], *spec)
    assert committed == produced, "the interpreter differs: " + _first_difference(
        committed, produced)


def test_no_stray_playthroughs() -> None:
    expected = {regenerate.playthrough_path(*spec).name for spec in regenerate.PLAYTHROUGHS}
    assert {p.name for p in regenerate.PLAYTHROUGH_DIR.glob("*")} == expected, HINT


def test_playthroughs_cover_each_edition_and_player_count() -> None:
    assert {(e, p) for e, p, _ in regenerate.PLAYTHROUGHS} == {
        (e, p) for e in EDITIONS for p in (2, 3, 4)}


# -------------------------------------------------------------------- perft

COMMITTED_PERFT: dict[str, Any] = json.loads(regenerate.PERFT_FILE.read_text(encoding="utf-8"))


def test_perft_is_current() -> None:
    committed = regenerate.PERFT_FILE.read_text(encoding="utf-8")
    produced = regenerate.perft_text(GENERATED)
    assert committed == produced, f"perft.json is out of date ({HINT}); " + _first_difference(
        committed, produced)


def _interpreter_cases() -> list[tuple[int, int]]:
    """(position index, depth) for the counts cheap enough for the interpreter."""
    cases = []
    for index, position in enumerate(COMMITTED_PERFT["positions"]):
        counts = {int(d): n for d, n in position["counts"].items()}
        cases += [(index, depth) for depth in sorted(counts)
                  if depth == 1 or counts[depth - 1] <= PERFT_BUDGET]
    return cases


@pytest.mark.parametrize("index, depth", _interpreter_cases())
def test_interpreter_perft(index: int, depth: int) -> None:
    position = COMMITTED_PERFT["positions"][index]
    engine = REFERENCE[position["edition"]]
    state = regenerate.start(engine, position)
    assert regenerate.perft(engine, state, depth) == position["counts"][str(depth)]


def test_interpreter_checks_each_position() -> None:
    """Every perft position is checked by the interpreter to depth 2 at least."""
    deepest: dict[int, int] = {}
    for index, depth in _interpreter_cases():
        deepest[index] = max(deepest.get(index, 0), depth)
    assert len(deepest) == len(COMMITTED_PERFT["positions"])
    assert min(deepest.values()) >= 2


def test_perft_counts_agree_with_legal_actions() -> None:
    """Depth 1 is the number of legal actions; depth 2 the sum over them."""
    for position in COMMITTED_PERFT["positions"]:
        engine = GENERATED[position["edition"]]
        state = regenerate.start(engine, position)
        legal = engine.legal_actions(state)
        assert position["counts"]["1"] == len(legal)
        assert position["counts"]["2"] == sum(
            len(engine.legal_actions(engine.apply(state, a))) for a in legal)


def test_the_regeneration_command_checks_clean() -> None:
    """The documented command, in check mode, finds nothing to change."""
    done = subprocess.run([sys.executable, "tests/goldens/regenerate.py", "--check"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
