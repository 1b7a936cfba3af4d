"""`splendor-rules bench`: random games timed, or counted in instructions
under valgrind (exit 1, saying so, when valgrind is missing). No assertion
here depends on how fast anything runs."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner, Result

from splendor_rules.compiler.cli import main
from splendor_rules.compiler.runtime.loading import EngineUnavailable, load_engine
from splendor_rules.compiler.tools import bench, random_games


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["bench", *args])


def test_random_games_are_determined_by_their_seeds() -> None:
    engine = load_engine("classic")
    plies = [random_games.play_random_game(engine, 2, 0, index) for index in range(3)]
    assert random_games.play_random_games(engine, 2, 3, 0) == sum(plies)
    timing = bench.time_games(engine, "generated", 2, 3, 0)
    assert timing.plies == sum(plies) and timing.games == 3
    assert timing.plies_per_game == sum(plies) / 3


def test_bench_prints_one_row_per_engine_and_player_count() -> None:
    result = run("classic", "-g", "1", "-p", "2", "-p", "3", "--engine", "generated")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "classic: 1 random games per player count, seeds 0..0"
    rows = [line.split() for line in lines[3:]]
    assert [(row[0], row[1]) for row in rows] == [("generated", "2"), ("generated", "3")]


def test_bench_by_default_times_the_native_engine_too_once_built() -> None:
    """The default is the generated engine, and the native one (with its
    playouts) beside it when it is built."""
    result = run("classic", "-g", "1", "-p", "2")
    assert result.exit_code == 0, result.output
    rows = [line.split()[:2] for line in result.stdout.splitlines()[3:]]
    try:
        load_engine("classic", "native")
    except EngineUnavailable:
        assert rows == [["generated", "2"]]
        return
    assert ["generated", "2"] in rows and ["native", "2"] in rows and ["playouts", "2"] in rows
    assert "native engine is" in result.stdout


def test_bench_of_both_engines_compares_them() -> None:
    result = run("marvel", "-g", "1", "-p", "2", "--engine", "generated", "--engine", "interpreted")
    assert result.exit_code == 0, result.output
    assert re.search(r"generated engine is [\d.]+x the interpreter with 2 players", result.stdout)


def test_bench_refuses_a_bad_command_line() -> None:
    assert run("nosuch").exit_code == 2
    assert "no generated engine for edition 'nosuch'" in run("nosuch").stderr
    assert run("classic", "-p", "7").exit_code == 2
    assert run("classic", "--engine", "nope").exit_code == 2


def test_instructions_without_valgrind_exit_1_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    result = run("classic", "--instructions", "-p", "2")
    assert result.exit_code == 1
    assert "valgrind is not installed" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_per_action_under_valgrind() -> None:
    # the generated engine's row only: each engine kind is two runs under valgrind
    result = run("classic", "--instructions", "--engine", "generated", "-g", "1", "-p", "2")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines()]
    row = next(row for row in rows if row[:1] == ["generated"])
    plies = random_games.play_random_game(load_engine("classic"), 2, 0)
    assert row[:3] == ["generated", "2", str(plies)]
    instructions, per_action = (int(value.replace(",", "")) for value in row[3:5])
    assert instructions > 0 and per_action == round(instructions / plies)
