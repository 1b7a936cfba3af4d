"""check_conformance: probes built, games played, comparisons tallied.

Positions are drawn from seeded random games of edition a, played from
setups where the edition-specific parts are inert, and once more from an
empty supply so that the fallback action and the endings it leads to are
reached. Each position is compared by the Checker.
"""

from __future__ import annotations

import random
import tempfile
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from splendor_rules.compiler.tools.conformance.checker import Checker
from splendor_rules.compiler.tools.conformance.correspondence import Correspondence
from splendor_rules.compiler.tools.conformance.diff import diff_editions
from splendor_rules.compiler.tools.conformance.editions import CannotCompare, compile_edition
from splendor_rules.compiler.tools.conformance.probes import build_probes
from splendor_rules.compiler.tools.conformance.results import Report


def _random_game(engine: types.ModuleType, start: Any, seed: int, plies: int) -> Iterator[Any]:
    """The states of a game played at random from `start`, up to `plies` moves."""
    rng = random.Random(seed)
    state = start
    yield state
    for _ in range(plies):
        if engine.is_over(state):
            return
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        yield state


def _start(engine: types.ModuleType, players: int, seed: int, tiles: bool, starved: bool) -> Any:
    """A setup of a where the edition-specific parts are inert: no tiles
    (unless both editions have the same ones); for a starved game, an empty
    supply too, so that the moves run out and the fallback action and the
    endings that follow from it are reached."""
    data = engine.to_json(engine.new_game(players, seed))
    if not tiles:
        data["tiles"] = {name: [] for name in data["tiles"]}
    if starved:
        data["supply"] = {name: 0 for name in data["supply"]}
    return engine.from_json(data, complete=False)  # a hand-made position


def check_conformance(
    a: Path,
    b: Path,
    games: int = 20,
    seed: int = 0,
    plies: int = 100,
    players: tuple[int, ...] = (),
) -> Report:
    """Compare every rule edition b shares with edition a, in probe engines,
    from the setups and positions of `games` seeded random games of a."""
    started = time.perf_counter()
    real_a, real_b = compile_edition(a), compile_edition(b)
    assert real_a.resolved is not None and real_b.resolved is not None
    assert real_a.model is not None and real_b.model is not None
    diff = diff_editions(real_a.resolved, real_b.resolved)
    with tempfile.TemporaryDirectory(prefix="conform-") as folder:
        probe_a, probe_b = build_probes(real_a, real_b, diff, Path(folder))
    corr = Correspondence(diff, probe_a.model, probe_b.model)
    report = Report(diff, tuple(real_a.model.rule_ids), tuple(real_b.model.rule_ids), corr.pairs)
    checker = Checker(corr, probe_a, probe_b, report)
    ea, eb = probe_a.engine, probe_b.engine
    counts = [n for n in ea.PLAYERS if n in eb.PLAYERS and (not players or n in players)]
    if not counts:
        raise CannotCompare("no player count is allowed by both editions (and asked for)")
    for game in range(games):
        game_seed, count = seed + game, counts[game % len(counts)]
        report.games += 1
        checker.setups(count, game_seed)
        supply_b = eb.to_json(eb.new_game(count, game_seed))["supply"]
        for starved in (False, True):
            extra = {t: 0 if starved else supply_b[t] for t in corr.b_only_tokens}
            start = _start(ea, count, game_seed, corr.tiles_shared, starved)
            for state in _random_game(ea, start, game_seed, plies):
                checker.position(state, extra)
    report.seconds = time.perf_counter() - started
    return report
