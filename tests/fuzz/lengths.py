"""The lengths of the games a run of random editions played, for the
summary line each run prints (tests/test_random_editions.py and the random
editions of tests/test_native.py): a run whose games all end after a few
plies reaches no late-game state, and this line shows it."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field

ENDINGS_SHOWN = 6  # the most frequent endings (or sets of them) named in a summary


@dataclass
class Lengths:
    """The plies of every game played, of those of long editions, and by
    what ended them (where it is known)."""

    plies: list[int] = field(default_factory=list)
    long: list[int] = field(default_factory=list)  # the games of editions drawn long
    endings: defaultdict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def add(self, plies: int, long: bool, ending: str = "") -> None:
        """A game's length; `ending`: the endings that hold at its end."""
        self.plies.append(plies)
        if long:
            self.long.append(plies)
        if ending:
            self.endings[ending].append(plies)

    def summary(self) -> str:
        """`game lengths (plies): min 1, lower quartile 18, median 65.5, upper
        quartile 90, max 147, mean 59.1; 164 of 200 games from long
        editions, median 72`."""
        if not self.plies:
            return "game lengths (plies): no game"
        text = f"game lengths (plies): {distribution(self.plies)}"
        if self.long:
            share = f"{len(self.long)} of {len(self.plies)} games from long editions"
            text += f"; {share}, median {statistics.median(self.long):g}"
        if self.endings:
            ranked = sorted(self.endings.items(), key=lambda item: (-len(item[1]), item[0]))
            text += "\nended by (games, median plies): " + ", ".join(
                f"{name} {len(games)} ({statistics.median(games):g})"
                for name, games in ranked[:ENDINGS_SHOWN]
            )
        return text


def distribution(plies: list[int]) -> str:
    """min, quartiles (the middle one is the median), max and mean of a
    list of game lengths."""
    ordered = sorted(plies)
    low = high = float(ordered[0])
    if len(ordered) > 1:
        low, _, high = statistics.quantiles(ordered, n=4, method="inclusive")
    return (
        f"min {ordered[0]}, lower quartile {low:g}, median {statistics.median(ordered):g}, "
        f"upper quartile {high:g}, max {ordered[-1]}, mean {statistics.mean(ordered):.1f}"
    )
