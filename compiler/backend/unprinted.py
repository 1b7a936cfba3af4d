"""Constructs of the language a target does not print yet.

The interpreter plays them; a target asked for an edition that uses one
refuses it, located at each use, rather than generate an engine that plays
another game (docs/language.md names them). A board of cells (issue 22) is
printed by the Python target from the engine plan, not yet by the native
one.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.diagnostics import Diagnostic


class NotPrinted(ValueError):
    """An edition uses a construct the target does not print yet."""

    def __init__(self, target: str, diagnostics: list[Diagnostic]) -> None:
        lines = "; ".join(d.headline() for d in diagnostics)
        super().__init__(f"the {target} target cannot build this edition: {lines}")
        self.target = target
        self.diagnostics = diagnostics


def refuse_unprinted(edition: m.Edition, target: str) -> None:
    """Raise NotPrinted, naming each use, if the edition uses a construct
    the target does not print."""
    found = unprinted(edition, target)
    if found:
        raise NotPrinted(target, found)


def unprinted(edition: m.Edition, target: str) -> list[Diagnostic]:
    """A located error at each use of a construct the target does not print."""
    found: list[Diagnostic] = []
    if edition.board is not None and target != "python":
        found.append(msgs.not_printed(edition.board.span, target, "a board of cells"))
    return found
