"""What the targets do not print yet.

A construct of the language can reach the checked model and the reference
interpreter before the targets print it (the players as values, issue 22:
the targets' statements are being rewritten as one engine plan). An edition
that uses one is refused by every target with a located diagnostic for each
use, rather than given an engine that would silently play other rules.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.syntax import Span
from splendor_rules.dsl.visitor import children


class Unprintable(Exception):
    """The edition uses what a target does not print: `diagnostics` say where."""

    def __init__(self, edition: str, target: str, diagnostics: list[Diagnostic]) -> None:
        super().__init__(
            f"the {target} target does not print all of edition {edition!r} yet: "
            + "; ".join(f"{d.span}: {d.message}" for d in diagnostics)
        )
        self.diagnostics = diagnostics


def _construct(node: object) -> tuple[str, Span] | None:
    """The name of an unprinted construct a model node is, and its place."""
    if isinstance(node, m.Transfer):
        return "a transfer of tokens ('take ... from', 'give ... to')", node.span
    return None


def unprinted(model: m.Edition, target: str) -> list[Diagnostic]:
    """Each use of a construct the targets do not print yet, located: the
    outermost, so that `tokens(c) of opponent` is one use."""
    parts: list[object] = [
        *model.actions,
        *model.triggers,
        *model.majorities,
        *model.steps,
        *model.defines,
        model.score,
        *model.endings,
        model.winners,
        *model.reveals,
    ]
    found = []
    stack = list(reversed(parts))
    while stack:  # the outermost use is reported, not the parts inside it
        node = stack.pop()
        construct = _construct(node)
        if construct is not None:
            found.append(msgs.not_printed(construct[1], construct[0], target))
            if not isinstance(node, m.Define):
                continue
        stack.extend(reversed(list(children(node))))
    return found


def refuse_unprinted(model: m.Edition, target: str) -> None:
    """Raise Unprintable if the edition uses what the targets do not print yet."""
    found = unprinted(model, target)
    if found:
        raise Unprintable(model.name, target, found)
