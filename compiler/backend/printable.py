"""What the targets print: an edition using a construct a target does not
print yet is refused, with a located message, rather than built into an
engine that would play other rules.

A board of cells (issue 22) is run by the reference interpreter and
printed by the Python target from the engine plan; the native target does
not print it yet, and `refuse_unprinted` names the board's declaration.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.diagnostics import Diagnostic


class NotPrinted(ValueError):
    """An edition uses a construct this target does not print yet."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.headline())
        self.diagnostic = diagnostic


def refuse_unprinted(edition: m.Edition, target: str) -> None:
    """Raise NotPrinted if the edition uses a construct `target` does not print."""
    if edition.board is not None and target != "python":
        raise NotPrinted(msgs.not_printed(edition.board.span, target, "a board of cells"))
