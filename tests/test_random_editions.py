"""Random editions: the compiler fuzzed by differential testing.

The differential tests (tests/test_differential.py) compile only the shipped
editions, so a construct they do not use can be miscompiled unseen. Here
Hypothesis draws whole editions (tests/fuzz/rule_files.py and children.py: a
rule file and its CSV data, standalone or extending classic or a drawn base),
each is checked, rendered into an engine module that is imported from a
temporary folder, and played in that engine and in the reference interpreter
at once with the comparison of test_differential.py: legal actions (as sets
and in order), states by JSON, views, scores, winners and refusals of drawn
illegal actions, after every action. Every game must end within the bound
the edition's clock gives it.

A failure is reported with the rule file and data (shrunk by Hypothesis) and
the game: players, seed, first player and the seed of the moves, with the
actions played and a command that replays it.

Default (CI): RANDOM_EDITIONS_DEFAULT editions, derandomized, GAMES_PER_EDITION
games each. Long mode, with fresh random editions:

    RANDOM_EDITIONS=10000 python -m pytest tests/test_random_editions.py -k agree -s
    python tests/test_random_editions.py --editions 10000 --games 5

Planted faults in the generated engine's text (tests/fuzz/faults.py) must be
found, and the report must hold the rule file. KNOWN_MISCOMPILES (in
tests/fuzz/known.py) lists the shapes left out of the strategy while the back end
gets them wrong; `--all-shapes` draws them too. See docs/testing.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fuzz.children import editions
from fuzz.engines import Mutation
from fuzz.expressions import divides
from fuzz.faults import FAULTS
from fuzz.known import ALL_SHAPES, KNOWN_MISCOMPILES
from fuzz.lengths import Lengths
from fuzz.play import EditionDisagreement, Game, check_edition, replay
from fuzz.rule_files import DrawnEdition, base_editions
from hypothesis import HealthCheck, Phase, event, find, given, settings
from hypothesis import strategies as st

RANDOM_EDITIONS_DEFAULT = 200
EDITIONS = int(os.environ.get("RANDOM_EDITIONS") or 0)
# One game an edition: its games are long enough (tests/fuzz/lengths.py)
# that a second would cost more than it finds; the editions are the variety.
GAMES_PER_EDITION = int(os.environ.get("RANDOM_EDITION_GAMES") or 1)
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

GAMES = st.builds(
    Game,
    players=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
    first=st.integers(0, 3),
    moves=st.integers(0, 2**32 - 1),
)


def settings_for(examples: int, derandomize: bool, shrink: bool = True) -> settings:
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if shrink else [])
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        report_multiple_bugs=False,
        phases=phases,
        suppress_health_check=HEALTH,
    )


@dataclass
class Tally:
    """What a run played: for the long mode's summary."""

    editions: int = 0
    games: int = 0
    plies: int = 0
    probes: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    lengths: Lengths = field(default_factory=Lengths)
    several: int = 0  # editions with actions before the main one or extra turns
    worth: int = 0  # editions with a wild token worth more than one in payments
    divides: int = 0  # editions that divide (`/` or `%`)

    def add(self, drawn: DrawnEdition, played: list[Any]) -> None:
        self.editions += 1
        self.games += len(played)
        self.plies += sum(p.plies for p in played)
        self.probes += sum(p.probes for p in played)
        kind = kind_of(drawn)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.several += drawn.several
        self.worth += "token worth" in drawn.shapes
        self.divides += divides(drawn.files)
        for game in played:
            self.lengths.add(game.plies, drawn.long, game.ending)

    def summary(self, seconds: float) -> str:
        """The run's summary line: what it played, and how long its games were."""
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.kinds.items()))
        return (
            f"{self.editions} editions ({kinds}; {self.several} with several actions a turn, "
            f"{self.worth} with a token worth more than one in payments, "
            f"{self.divides} dividing with / or %), "
            f"{self.games} games, {self.plies} actions, "
            f"{self.probes} illegal actions refused alike: all agreed and ended; {seconds:.0f} s\n"
            f"{self.lengths.summary()}"
        )


def kind_of(drawn: DrawnEdition) -> str:
    text = drawn.files[drawn.main]
    if "extends classic" in text:
        return "child of classic"
    return "child of a drawn base" if "extends" in text else "standalone"


def run(
    examples: int,
    games: int,
    derandomize: bool,
    known: frozenset[str] = KNOWN_MISCOMPILES,
    mutation: Mutation | None = None,
    tally: Tally | None = None,
    progress: Callable[[Tally], None] | None = None,
    strategy: Callable[[frozenset[str]], st.SearchStrategy[DrawnEdition]] = editions,
    shrink: bool = True,
) -> None:
    """Draw editions and play them; raises EditionDisagreement (shrunk, if
    `shrink`)."""

    @settings_for(examples, derandomize, shrink)
    @given(drawn=strategy(known), game=GAMES)
    def property_(drawn: DrawnEdition, game: Game) -> None:
        assert not set(drawn.shapes) & known, f"a guarded shape was drawn: {drawn.shapes}"
        played = check_edition(drawn, game, games, mutation)
        event(kind_of(drawn))
        for shape in drawn.shapes:
            event(f"shape: {shape}")
        if tally is not None:
            tally.add(drawn, played)
            if progress is not None:
                progress(tally)

    property_()


# ---------------------------------------------------------------- tests


def test_random_editions_agree(capsys: pytest.CaptureFixture[str]) -> None:
    """Drawn editions, each played GAMES_PER_EDITION times in both engines:
    they agree on everything, and every game ends in time
    (RANDOM_EDITIONS=N for a longer run with fresh editions). The summary
    line, with the distribution of game lengths, is printed."""
    tally = Tally()
    start = time.perf_counter()
    examples = EDITIONS or RANDOM_EDITIONS_DEFAULT
    run(examples, GAMES_PER_EDITION, derandomize=not EDITIONS, tally=tally)
    with capsys.disabled():
        print(f"\nrandom editions: {tally.summary(time.perf_counter() - start)}")
    median = statistics.median(tally.lengths.plies)
    assert EDITIONS or median >= LONG_MEDIAN, f"games too short: {tally.lengths.summary()}"


# The median game of a CI run is at least half as long as classic's (82 plies
# with 2 players, README.md): late-game states are reached (docs/testing.md,
# "Game lengths").
LONG_MEDIAN = 41


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_planted_fault_is_found(fault: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A fault planted in every generated engine's text is found among
    standalone drawn editions (whose rules are all drawn): the report holds
    the rule file and the game that shows the fault, both shrunk when
    FAULT_SHRINK=1 (shrinking is most of the time: CI finds, the long mode
    also shrinks; docs/testing.md)."""
    with pytest.raises(EditionDisagreement) as caught:
        run(
            FAULT_EDITIONS,
            1,
            True,
            mutation=FAULTS[fault],
            strategy=shrinking_to_short,
            shrink=FAULT_SHRINK,
        )
    report = str(caught.value)
    with capsys.disabled():
        print(f"\n[planted fault: {fault}]\n{report}\n")
    assert "--- fuzz.rules ---" in report
    assert "edition fuzz" in caught.value.drawn.files["fuzz.rules"]
    assert caught.value.record is not None and "game:" in report


FAULT_EDITIONS = 200  # each planted fault must be found among this many editions
FAULT_SHRINK = os.environ.get("FAULT_SHRINK") == "1"


def shrinking_to_short(known: frozenset[str]) -> st.SearchStrategy[DrawnEdition]:
    """Standalone editions that shrink to short ones: a shrink replays the
    game hundreds of times, each to its end when the fault does not show."""
    return base_editions(known, shrink_to_short=True)


@pytest.mark.parametrize("shape", sorted(KNOWN_MISCOMPILES))
def test_a_guarded_shape_is_drawn_when_its_switch_is_off(shape: str) -> None:
    """Each shape KNOWN_MISCOMPILES leaves out is one the strategy draws
    without its switch (so removing the switch tests the fix), and only
    then (the property asserts it never draws a guarded shape)."""
    strategy = base_editions(KNOWN_MISCOMPILES - {shape})
    found = find(
        strategy,
        lambda drawn: shape in drawn.shapes,
        settings=settings(
            max_examples=2000,
            database=None,
            derandomize=True,
            phases=[Phase.generate],
            suppress_health_check=HEALTH,
        ),
    )
    assert shape in found.shapes


# ------------------------------------------------------------ command line


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--editions", type=int, default=0, help="long mode: draw N editions")
    parser.add_argument("--games", type=int, default=GAMES_PER_EDITION, help="games per edition")
    parser.add_argument(
        "--all-shapes", action="store_true", help="draw the KNOWN_MISCOMPILES shapes too"
    )
    parser.add_argument("--fault", choices=sorted(FAULTS), help="plant a fault in every engine")
    parser.add_argument("--replay", type=Path, metavar="RULE_FILE", help="a saved edition")
    parser.add_argument("--game", metavar="JSON", help="the game to replay (from a report)")
    args = parser.parse_args(argv)
    if args.replay:
        try:
            print(replay(args.replay, json.loads(args.game)))
        except EditionDisagreement as found:
            print(found, file=sys.stderr)
            return 1
        return 0
    tally = Tally()
    start = time.perf_counter()

    def progress(t: Tally) -> None:
        if t.editions % 100 == 0:
            print(
                f"{t.editions} editions, {t.games} games, {t.plies} actions, "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )

    known = ALL_SHAPES if args.all_shapes else KNOWN_MISCOMPILES
    mutation = FAULTS[args.fault] if args.fault else None
    try:
        run(
            args.editions or RANDOM_EDITIONS_DEFAULT,
            args.games,
            False,
            known,
            mutation,
            tally,
            progress,
        )
    except EditionDisagreement as found:
        print(found, file=sys.stderr)
        print(
            f"after {tally.editions} editions that agreed, {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
        )
        return 1
    print(tally.summary(time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
