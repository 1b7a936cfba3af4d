"""simulate's playout bot (issue 12): whole games played by the native
engine's own playouts. The rule (playout in every seat or none, on a native
engine only), results that do not depend on the workers, figures consistent
with the games, and each game the engine's own `playout` of the deal."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from edition_facts import engine_or_skip
from test_simulate import without_native_engines

from splendor_rules.compiler.cli import main
from splendor_rules.compiler.runtime.loading import HOW_TO_BUILD, load_engine
from splendor_rules.compiler.tools.simulate.bots import BadBotSpec, parse_bots, plays_out
from splendor_rules.compiler.tools.simulate.games import (
    GameResult,
    NoPlayouts,
    play_game,
    playout_seed,
)
from splendor_rules.compiler.tools.simulate.report import tables, write_report
from splendor_rules.compiler.tools.simulate.runner import EditionSource, Run, run_local
from splendor_rules.compiler.tools.simulate.summary import document

ROOT = Path(__file__).resolve().parent.parent
PLAYOUTS = ("playout", "playout")


def _simulate(*arguments: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *arguments], catch_exceptions=False)


# ----------------------------------------------------------------- the rule


def test_playout_plays_every_seat_or_none() -> None:
    assert parse_bots("playout", 3) == ("playout",) * 3
    assert parse_bots("playout,playout", 2) == PLAYOUTS
    assert plays_out(PLAYOUTS) and not plays_out(("random", "random")) and not plays_out(())
    for wrong in ("playout,random", "greedy,playout", "playout:3", "playout,playout:3"):
        with pytest.raises(BadBotSpec):
            parse_bots(wrong, 2)
    with pytest.raises(BadBotSpec, match="playout plays every seat or none"):
        parse_bots("playout,random", 2)


def test_a_mix_of_playout_and_other_bots_is_refused() -> None:
    result = _simulate("classic", "--bots", "playout,random", "--games", "1")
    assert result.exit_code == 2
    assert "Invalid value for --bots: playout plays every seat or none" in result.output
    assert "use --bots playout for all seats, or random" in result.output


def test_playouts_are_refused_off_the_native_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    generated = _simulate("classic", "--bots", "playout", "--engine", "generated", "--games", "1")
    assert generated.exit_code == 2
    assert "--engine generated: the playout bot plays only on a native engine" in (generated.output)
    assert "use --engine native (or leave --engine out), or --bots random" in generated.output
    rule_file = _simulate(
        "tests/variants/house.rules", "--bots", "playout", "--engine", "generated", "--games", "1"
    )
    assert rule_file.exit_code == 2
    assert "tests/variants/house.rules is a rule file, played by the generated engine" in (
        rule_file.output
    )

    without_native_engines(monkeypatch)
    unbuilt = _simulate("classic", "--bots", "playout", "--games", "1")
    assert unbuilt.exit_code == 2
    assert "the native engine of 'classic' is not built: the playout bot plays only" in (
        unbuilt.output
    )
    assert HOW_TO_BUILD in unbuilt.output


def test_an_engine_without_playouts_cannot_play_them() -> None:
    with pytest.raises(NoPlayouts, match="no native playouts"):
        play_game(load_engine("classic"), PLAYOUTS, 0, 0)


# ------------------------------------------------------------ the games


def test_the_playout_seed_is_the_documented_one() -> None:
    digest = hashlib.sha256(b"7/3/playout").digest()
    assert playout_seed(7, 3) == int.from_bytes(digest[:8], "big")
    seeds = {playout_seed(0, index) for index in range(100)}
    assert len(seeds) == 100 and all(0 <= s < 2**64 for s in seeds)


@pytest.mark.parametrize("players", [2, 3])
def test_each_game_is_the_engines_playout_of_its_deal(players: int) -> None:
    """Game i of a run is `engine.playout(new_game(players, seed + i),
    playout_seed(seed, i))`: same length, scores, winners and final turn."""
    engine = engine_or_skip("classic", "native")
    bots = ("playout",) * players
    results = run_local([Run(EditionSource("classic", kind="native"), bots, 5, 12)], 1)
    for game in results.results[0]:
        state = engine.new_game(players, 5 + game.index)
        final, moves = engine.playout(state, playout_seed(5, game.index))  # type: ignore[attr-defined]
        assert engine.is_over(final)
        assert game.seed == 5 + game.index
        assert game.plies == moves
        assert game.scores == tuple(engine.scores(final))
        assert game.winners == tuple(sorted(engine.winners(final)))
        assert game.rounds == -(-engine.to_json(final)["turn"] // players)
        assert game.actions is None
        assert play_game(engine, bots, 5, game.index) == game


def test_a_run_of_playouts_has_consistent_figures() -> None:
    engine_or_skip("classic", "native")
    games = run_local([Run(EditionSource("classic", kind="native"), PLAYOUTS, 0, 80)], 1)
    results = games.results[0]
    assert [g.index for g in results] == list(range(80))
    for game in results:
        assert game.winners, "a game of classic always has a winner"
        assert all(game.scores[w] == max(game.scores) for w in game.winners)
        assert game.plies > 0 and game.rounds > 0
        assert game.plies >= game.rounds  # every round is a move per seat at least
        assert sum(map(len, game.acquired)) > 0
        assert GameResult.from_json(game.to_json()) == game
    summary = document(["classic"], PLAYOUTS, 0, games.results)["runs"][0]
    assert summary["games"] == 80 and summary["no_winner"] == 0
    assert sum(s["wins"] for s in summary["seats"]) == 80 + summary["shared_wins"]
    assert summary["plies"]["min"] > 0
    assert summary["actions"] is None
    assert len({g.plies for g in results}) > 1, "the games differ"


def test_the_summary_is_byte_identical_for_one_or_two_jobs(tmp_path: Path) -> None:
    engine_or_skip("classic", "native")
    written = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        result = _simulate(
            "classic", "--games", "60", "--bots", "playout,playout", "--jobs", jobs,
            "--report", str(out),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert result.stderr.splitlines()[0] == (
            f"classic on the native engine: 60 games, bots playout,playout, seed 0, "
            f"{jobs} job{'s' if jobs == '2' else ''}; the games played by native playouts "
            "(every move drawn and made in native code)"
        )
        written[jobs] = [(out / name).read_bytes() for name in ("summary.json", "games.csv")]
    assert written["1"] == written["2"]


def test_the_report_says_the_action_mix_is_not_recorded(tmp_path: Path) -> None:
    engine_or_skip("classic", "native")
    runs = [
        Run(EditionSource(name, kind="native"), PLAYOUTS, 0, 10) for name in ("classic", "marvel")
    ]
    outcome = run_local(runs, 1)
    summary = document(["classic", "marvel"], PLAYOUTS, 0, outcome.results)
    titled = {title: (header, rows) for title, header, rows in tables(summary)}
    assert titled["classic: actions"] == (("action mix",), [["not recorded by playouts"]])
    assert "marvel minus classic" in titled
    written = write_report(tmp_path, summary, outcome.results)
    assert sorted(p.name for p in written) == sorted(
        ["summary.json", "games.csv", "win_rate.png", "length.png", "scores.png", "report.html"]
    )
    page = (tmp_path / "report.html").read_text()
    assert "<th>action mix</th></tr></thead><tbody><tr><td>not recorded by playouts" in page
    assert page.count("data:image/png;base64,") == 3
    assert [r["actions"] for r in json.loads((tmp_path / "summary.json").read_text())["runs"]] == [
        None,
        None,
    ]
    rows = (tmp_path / "games.csv").read_text().splitlines()
    assert len(rows) == 21 and rows[1].startswith("classic,0,0,")
