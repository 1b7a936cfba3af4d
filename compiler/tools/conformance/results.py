"""What a conformance check found: the comparisons that diverged, tallied
per rule id, with the counts of what was compared.

The checker fills a Report; report.py turns it into words.
"""

from __future__ import annotations

from attrs import define, field, frozen

from splendor_rules.compiler.tools.conformance.correspondence import Pair
from splendor_rules.compiler.tools.conformance.diff import EditionDiff


@frozen
class Where:
    """Where comparisons are made: a setup, or a state in both JSON forms."""

    a: str
    b: str
    size: tuple[int, int]  # to find the smallest case: turn, then JSON length


@frozen
class Case:
    """One diverging comparison, with what a reader needs to replay it."""

    ids: tuple[str, ...]  # the rules blamed
    what: str  # what was compared
    at: Where
    action: str | None  # in b's JSON form
    result_a: str
    result_b: str
    differences: tuple[str, ...]


@define
class Tally:
    """The positions where a rule behaved identically, and where it did not."""

    ok: set[int] = field(factory=set)
    bad: set[int] = field(factory=set)


@define
class Report:
    """A conformance check's findings (see format_report)."""

    diff: EditionDiff
    ids_a: tuple[str, ...]
    ids_b: tuple[str, ...]
    pairs: list[Pair]
    tallies: dict[str, Tally] = field(factory=dict)
    cases: list[Case] = field(factory=list)
    void: list[Case] = field(factory=list)  # moves where an edition-specific rule acted
    changed: list[Case] = field(factory=list)  # differences a change b declares explains
    games: int = 0
    setups: int = 0
    positions: int = 0
    skipped: int = 0
    actions: int = 0
    seconds: float = 0.0

    @property
    def diverged(self) -> bool:
        return bool(self.cases or self.void)

    def smallest(self) -> Case | None:
        return min(self.cases, key=lambda c: c.at.size, default=None)
