"""simulate (issue 11): statistics with known answers, bots that see only
their seat's view, results independent of the workers, the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from edition_facts import EDITIONS, engine_or_skip, has_facts

from splendor_rules.compiler.backend.native import compile as native_compile
from splendor_rules.compiler.backend.native.compile import native_available
from splendor_rules.compiler.cli import main
from splendor_rules.compiler.runtime.api import Engine, Json
from splendor_rules.compiler.runtime.loading import (
    HOW_TO_BUILD,
    EngineKind,
    EngineUnavailable,
    generated_editions,
    load_engine,
)
from splendor_rules.compiler.tools.simulate import engines as simulate_engines
from splendor_rules.compiler.tools.simulate import stats
from splendor_rules.compiler.tools.simulate.bots import BadBotSpec, GreedyBot, parse_bots
from splendor_rules.compiler.tools.simulate.engines import (
    edition_source,
    engine_named,
    native_built,
)
from splendor_rules.compiler.tools.simulate.games import GameResult, play_game
from splendor_rules.compiler.tools.simulate.hidden import (
    Dealer,
    is_placeholder,
    unseen_cards,
    zone_kinds,
)
from splendor_rules.compiler.tools.simulate.mcts import MctsBot
from splendor_rules.compiler.tools.simulate.report import summary_json
from splendor_rules.compiler.tools.simulate.runner import EditionSource, Run, run_local
from splendor_rules.compiler.tools.simulate.summary import document, summarize

ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------ statistics


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [  # reference values of the 95% Wilson score interval
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (81, 263, 0.255289, 0.366210),
    ],
)
def test_wilson_interval(wins: int, games: int, low: float, high: float) -> None:
    found = stats.wilson(wins, games)
    assert found == pytest.approx((low, high), abs=1e-6)


def test_two_proportion_test_by_hand() -> None:
    # 60/100 against 50/100: pooled p = 0.55, se = sqrt(.55 * .45 * (1/100 + 1/100))
    se = (0.55 * 0.45 * 0.02) ** 0.5
    z, p = stats.two_proportion_test(60, 100, 50, 100)
    assert z == pytest.approx(0.1 / se)
    assert z == pytest.approx(1.421338, abs=1e-6)
    assert p == pytest.approx(0.155218, abs=1e-6)
    assert stats.two_proportion_test(0, 10, 0, 10) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("df", "t"), [(1, 12.706205), (5, 2.570582), (10, 2.228139), (30, 2.042272)]
)
def test_student_t_quantile_matches_tables(df: int, t: float) -> None:
    assert stats.student_t_quantile(0.975, df) == pytest.approx(t, abs=1e-5)


def test_welch_interval_by_hand() -> None:
    # means 3 and 6, variances 2.5 and 10, n 5 each: se^2 = 0.5 + 2 = 2.5,
    # df = 2.5^2 / (0.5^2/4 + 2^2/4) = 5.882...
    difference, low, high = stats.welch_interval([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    df = 2.5**2 / (0.5**2 / 4 + 2**2 / 4)
    half = stats.student_t_quantile(0.975, df) * 2.5**0.5
    assert difference == -3
    assert (low, high) == pytest.approx((-3 - half, -3 + half))
    assert 2.44 < half / 2.5**0.5 < 2.58  # between t(6) and t(5)


def test_quartiles_and_histogram() -> None:
    assert stats.describe([1, 2, 3, 4]) == {
        "mean": 2.5,
        "min": 1,
        "q1": 1.75,
        "median": 2.5,
        "q3": 3.25,
        "max": 4,
    }
    assert stats.histogram([1, 1, 2, 5], bins=5) == [
        [1, 2, 2],
        [2, 3, 1],
        [3, 4, 0],
        [4, 5, 0],
        [5, 6, 1],
    ]


def _game(index: int, scores: tuple[int, ...], winners: tuple[int, ...]) -> GameResult:
    return GameResult(index, index, 10, 5, scores, winners, "last round", {"buy": 2}, ((), ()))


def test_summary_counts_wins_shared_wins_and_no_winner() -> None:
    games = [_game(0, (15, 3), (0,)), _game(1, (15, 15), (0, 1)), _game(2, (0, 0), ())]
    summary = summarize("classic", 2, ("greedy", "random"), 0, games)
    assert [s["wins"] for s in summary["seats"]] == [2, 1]
    assert summary["shared_wins"] == 1 and summary["no_winner"] == 1
    assert summary["scores"]["winners"]["mean"] == 15
    assert summary["actions"] == {"buy": {"count": 6, "share": 1.0}}


# ------------------------------------------------------ hidden information


def _positions(engine: Engine, players: int, games: int) -> list[tuple[object, int]]:
    """Positions of random games, with the seat to move."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(players, seed)
        while not engine.is_over(state):
            found.append((state, engine.current_player(state)))
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    return found


def _placeholders(view: Json) -> int:
    """How many cards the view shows only as a deck's tier."""
    return sum(
        is_placeholder(item)
        for seat in view["seats"]
        for items in seat["zones"].values()
        for item in items
    )


def _hidden_parts(engine: Engine, view: Json, sample: Json) -> list[int]:
    """The cards of a sample where the view shows none: decks and placeholders."""
    cards = [c for deck in sample["decks"].values() for c in deck]
    for seen, dealt in zip(view["seats"], sample["seats"], strict=True):
        for zone, items in seen["zones"].items():
            cards += [
                d for s, d in zip(items, dealt["zones"][zone], strict=True) if is_placeholder(s)
            ]
    return cards


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_deal_shows_what_the_view_shows_and_hides_only_unseen_cards(edition: str) -> None:
    # the interpreter plays an edition a target does not print yet
    kind: EngineKind = "generated" if edition in generated_editions() else "interpreted"
    engine = load_engine(edition, kind)
    rng = random.Random(7)
    players = 3 if 3 in engine.PLAYERS else min(engine.PLAYERS)
    positions = _positions(engine, players, 3)
    assert any(_placeholders(engine.view(s, p)) for s, p in positions[-5:])
    for state, seat in positions[::3]:
        view = engine.view(state, seat)
        dealer = Dealer(engine, view)
        sample = dealer.deal(rng)
        assert engine.view(sample, seat) == view
        unseen = {c for cards in unseen_cards(engine, view).values() for c in cards}
        hidden = _hidden_parts(engine, view, engine.to_json(sample))
        assert len(hidden) == len(set(hidden)) and set(hidden) <= unseen
        if has_facts(edition):  # no card of classic or Marvel leaves the game
            assert set(hidden) == unseen
        assert engine.legal_actions(sample) == engine.legal_actions(state)


def test_zone_kinds_are_asked_of_the_engine() -> None:
    kinds = zone_kinds(load_engine("classic"), 2)
    assert kinds.cards == {"bought", "reserved"} and kinds.hiding == {"reserved"}


class _Recording(MctsBot):
    """An MCTS bot that keeps every state it deals."""

    def __init__(self, seed: str, iterations: int) -> None:
        super().__init__(seed, iterations)
        self.dealt: list[object] = []

    def deal(self, dealer: Dealer) -> object:
        state = super().deal(dealer)
        self.dealt.append(state)
        return state


def test_mcts_samples_never_show_what_its_seat_cannot_see() -> None:
    engine = load_engine("classic")
    positions = [(s, p) for s, p in _positions(engine, 2, 2) if _placeholders(engine.view(s, p))]
    assert positions  # some seat holds a card its opponent cannot see
    for state, seat in positions[:: max(1, len(positions) // 6)]:
        view = engine.view(state, seat)
        bot = _Recording("test", 8)
        bot.choose(engine, seat, engine.legal_actions(state), lambda v=view: v)
        unseen = {c for cards in unseen_cards(engine, view).values() for c in cards}
        assert bot.dealt
        for sample in bot.dealt:
            assert engine.view(sample, seat) == view
            assert set(_hidden_parts(engine, view, engine.to_json(sample))) == unseen


def test_bots_choose_alike_in_states_their_seat_cannot_tell_apart() -> None:
    """Two true states with the same view (other deals of it): the same choice."""
    engine = load_engine("classic")
    state, seat = _positions(engine, 2, 1)[40]
    view = engine.view(state, seat)
    twins = [Dealer(engine, view).deal(random.Random(n)) for n in range(2)]
    assert engine.to_json(twins[0]) != engine.to_json(twins[1])
    for make in (lambda: MctsBot("s", 10), lambda: GreedyBot("s")):
        chosen = {
            make().choose(engine, seat, engine.legal_actions(t), lambda t=t: engine.view(t, seat))
            for t in twins
        }
        assert len(chosen) == 1


# ------------------------------------------------------------- playing


def test_bots_spec() -> None:
    assert parse_bots("greedy,mcts:5", 2) == ("greedy", "mcts:5")
    assert parse_bots("random", 3) == ("random",) * 3
    for wrong, players in (("greedy,random", 3), ("mcts:0", 2), ("mcts:x", 2), ("alpha", 2)):
        with pytest.raises(BadBotSpec):
            parse_bots(wrong, players)


def test_a_game_is_determined_by_the_seed_and_its_index() -> None:
    engine = load_engine("classic")
    bots = ("greedy", "mcts:3")
    assert play_game(engine, bots, 5, 2) == play_game(engine, bots, 5, 2)
    assert play_game(engine, bots, 5, 2).seed == 7


def test_random_bots_play_the_games_bench_plays() -> None:
    """`simulate --bots random` and `bench` play the same games (so their
    speeds compare on the same work): same deals, same moves, same lengths."""
    from splendor_rules.compiler.tools.random_games import play_random_game

    engine = load_engine("classic")
    for players in (2, 3):
        bots = ("random",) * players
        for index in range(4):
            game = play_game(engine, bots, 11, index)
            assert game.plies == play_random_game(engine, players, 11, index)


def test_summary_is_byte_identical_for_any_number_of_workers() -> None:
    runs = [Run(EditionSource("classic"), ("random", "greedy"), 3, 24)]
    outputs = set()
    for jobs in (1, 2, 3):
        outcome = run_local(runs, jobs)
        assert [r.index for r in outcome.results[0]] == list(range(24))
        outputs.add(summary_json(document(["classic"], runs[0].bots, 3, outcome.results)))
    assert len(outputs) == 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupt_keeps_the_games_finished(jobs: int) -> None:
    """Ctrl-C (here raised by the progress callback) ends the run cleanly."""
    runs = [Run(EditionSource("classic"), ("random", "random"), 0, 64)]
    seen: list[int] = []

    def progress(games: int) -> None:
        seen.append(games)
        if len(seen) == 2:
            raise KeyboardInterrupt

    outcome = run_local(runs, jobs, progress)
    assert outcome.interrupted
    finished = outcome.results[0]
    assert len(finished) == sum(seen) < 64
    assert [r.index for r in finished] == sorted(r.index for r in finished)
    complete = run_local(runs, 1).results[0]
    assert all(result == complete[result.index] for result in finished)


def test_ray_backend_gives_the_local_results() -> None:
    ray = pytest.importorskip("ray")
    from splendor_rules.compiler.tools.simulate.runner import run_ray

    runs = [Run(EditionSource("classic"), ("random", "greedy"), 1, 12)]
    if native_built("classic"):  # and the playout bot's games (tests/test_simulate_playout.py)
        runs.append(Run(EditionSource("classic", kind="native"), ("playout", "playout"), 1, 12))
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        assert run_ray(runs, None, 2) == run_local(runs, 1)
    finally:
        ray.shutdown()


# ---------------------------------------------------------- command line


def test_simulate_writes_a_report(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "classic",
            str(ROOT / "tests/variants/house.rules"),
            "--games",
            "6",
            "--bots",
            "greedy,random",
            "--jobs",
            "1",
            "--report",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "house minus classic" in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert [r["edition"] for r in summary["runs"]] == ["classic", "house"]
    assert [r["games"] for r in summary["runs"]] == [6, 6]
    assert len(summary["comparisons"]) == 1
    assert (out / "games.csv").read_text().count("\n") == 13
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 3
    for name in ("win_rate", "length", "scores"):
        assert (out / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in out.iterdir()) == sorted(  # no temporary file left
        ["summary.json", "games.csv", "win_rate.png", "length.png", "scores.png", "report.html"]
    )


def _simulate(*arguments: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *arguments], catch_exceptions=False)


def test_the_summary_is_byte_identical_on_the_generated_and_the_native_engine(
    tmp_path: Path,
) -> None:
    """The engines agree move by move, so the bots play the same games on
    either: the same summary.json and games.csv, byte for byte."""
    engine_or_skip("classic", "native")
    written = {}
    for kind in ("generated", "native"):
        out = tmp_path / kind
        result = _simulate(
            "classic", "--games", "40", "--bots", "random,greedy", "--jobs", "1",
            "--engine", kind, "--report", str(out),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert result.stderr.splitlines()[0] == (
            f"classic on the {kind} engine: 40 games, bots random,greedy, seed 0, 1 job"
            + ("; greedy in native code" if kind == "native" else "")
        )
        written[kind] = [(out / name).read_bytes() for name in ("summary.json", "games.csv")]
    assert written["generated"] == written["native"]


def test_simulate_plays_on_the_native_engine_by_default_where_it_is_built() -> None:
    native = native_built("classic")
    source = edition_source("classic")
    assert source.kind == ("native" if native else "generated")
    # A rule file: its native engine (from the cache) where a C compiler can build it.
    house_kind = "native" if native_available() is None else "generated"
    house = edition_source(str(ROOT / "tests/variants/house.rules"))
    assert house.kind == house_kind and engine_named(house).endswith("of the rule file")
    result = _simulate(
        "classic", str(ROOT / "tests/variants/house.rules"), "--games", "2", "--jobs", "1"
    )
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0].startswith(
        f"classic on the {source.kind} engine, house on the {house_kind} engine of the rule "
        "file: 2 games each,"
    )


def without_native_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate as on a machine where no native engine is built."""

    def not_built(edition: str, kind: str = "generated") -> Engine:
        if kind == "native":
            raise EngineUnavailable(
                f"the native engine of {edition!r} is not built: {HOW_TO_BUILD}"
            )
        return load_engine(edition, kind)  # type: ignore[arg-type]

    monkeypatch.setattr(simulate_engines, "load_engine", not_built)


def test_simulate_engine_native_is_refused_where_there_is_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the loader imports the compile module's check when a rule file needs it
    monkeypatch.setattr(native_compile, "native_available", lambda: "no C compiler found (cc)")
    rule_file = _simulate("tests/variants/house.rules", "--engine", "native", "--games", "1")
    assert rule_file.exit_code == 2
    assert "has no native engine here: no C compiler found (cc)" in rule_file.output

    without_native_engines(monkeypatch)
    refused = _simulate("classic", "--engine", "native", "--games", "1")
    assert refused.exit_code == 2
    assert "Invalid value for --engine: the native engine of 'classic' is not built" in (
        refused.output
    )
    fallback = _simulate("classic", "--games", "1", "--jobs", "1")
    assert fallback.exit_code == 0
    assert fallback.stderr.startswith("classic on the generated engine: 1 game,")


@pytest.mark.parametrize(
    "arguments",
    [
        ["nosuch"],
        ["classic", "--bots", "alpha"],
        ["classic", "--players", "9"],
        ["classic", "--bots", "random,random,random", "--players", "2"],
    ],
)
def test_simulate_refuses_a_wrong_command_line(arguments: list[str]) -> None:
    result = CliRunner().invoke(main, ["simulate", *arguments, "--games", "1"])
    assert result.exit_code == 2, result.output
