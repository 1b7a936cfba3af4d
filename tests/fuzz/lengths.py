"""The lengths of the games a run of random editions played, for the
summary line each run prints (tests/test_random_editions.py and the random
editions of tests/test_native.py): a run whose games all end after a few
plies reaches no late-game state, and this line shows it."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class Lengths:
    """The plies of every game played, and of those of long editions."""

    plies: list[int] = field(default_factory=list)
    long: list[int] = field(default_factory=list)  # the games of editions drawn long

    def add(self, plies: int, long: bool) -> None:
        self.plies.append(plies)
        if long:
            self.long.append(plies)

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
