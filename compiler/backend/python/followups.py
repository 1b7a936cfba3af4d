"""Lowering the follow-up choices: a choice inside a trigger or an `if`
among an action's effects (docs/engine.md, "Follow-up decisions").

When the effects reach one, the engine queues it (`_wait`) with the values of
the names its rest reads, and stops the trigger or action there. Each
follow-up gets three functions, read through tables in the template:
`_options<i>_…` (its options on a state), `_follow<i>_…` (the rest of its
block and of the blocks around it, once decided) and `_skip<i>_…` (the rest
of the blocks around it, when it has no option).
"""

from __future__ import annotations

import ast

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.actions import Actions
from splendor_rules.compiler.backend.python.base import LoweringPart, Source
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

BOUND = (("s", "State"), ("p", "int"), ("bound", "tuple[Any, ...]"))


def function(kind: str, index: int, site: identities.FollowUp) -> str:
    """A follow-up's function: `_follow3_free_card_f` (its number keeps two
    apart whose names would join alike)."""
    return ident(f"{kind}{index}_", f"{site.owner.name}_{site.choice.name}")


class FollowUps(LoweringPart):
    """The functions of an edition's follow-up choices, and the template's
    table of them."""

    def __init__(self, edition: m.Edition, source: Source, actions: Actions) -> None:
        super().__init__(edition, source, actions.emitter)
        self.actions = actions
        self.sites = identities.follow_ups(edition)

    def functions(self) -> list[py.Function]:
        found = []
        for index, site in enumerate(self.sites):
            found.append(self.options(index, site))
            found.append(self.rest(index, site, skip=False))
            found.append(self.rest(index, site, skip=True))
        return found

    def table(self) -> dict[str, object]:
        """The template's tables: per follow-up, its move's name, rule ids,
        names carried, and functions."""
        sites = list(enumerate(self.sites))
        return {
            "follow_ups": [
                {
                    "options": function("_options", index, site),
                    "follow": function("_follow", index, site),
                    "skip": function("_skip", index, site),
                }
                for index, site in sites
            ],
            "follow_names": tuple(site.name for site in self.sites),
            "follow_rules": tuple(self.ids(site.choice) for site in self.sites),
            "follow_bound": tuple(
                tuple((n, identities.value_kind(t)) for n, t in site.bound) for site in self.sites
            ),
        }

    def unpack(self, site: identities.FollowUp, reads: object) -> tuple[list[ast.stmt], Frame]:
        """The names carried that `reads` reads, from `bound`."""
        own = tuple(i for i in site.choice.rule_ids if i not in site.owner.rule_ids)
        body: list[ast.stmt] = [self.where(site.choice, own)]
        frame = Frame()
        for position, (name, _) in enumerate(site.bound):
            if analysis.uses(reads, name):
                var = ident("v_", name)
                body.append(py.assign(var, py.item(py.name("bound"), position)))
                frame = frame.bind(name, var)
        return body, frame

    def options(self, index: int, site: identities.FollowUp) -> py.Function:
        """The (engine value, action value) pairs of the follow-up's options."""
        body, frame = self.unpack(site, site.choice)
        body.append(py.return_(self.actions.pairs(site.choice, frame)))
        name = function("_options", index, site)
        return py.Function(name, BOUND, "list[tuple[Any, Any]]", body)

    def rest(self, index: int, site: identities.FollowUp, skip: bool) -> py.Function:
        """What runs once the follow-up is decided (or skipped, for want of
        an option): the rest of its block (not when skipped), then of each
        block around it."""
        depth = len(site.path) - (2 if skip else 1)
        blocks = site.rest(depth)
        body, frame = self.unpack(site, tuple(st for block in blocks for st in block))
        parameters: tuple[tuple[str, str], ...] = BOUND
        if not skip:
            chosen = ident("v_", site.choice.name)
            frame = frame.bind(site.choice.name, chosen)
            parameters = (*BOUND, (chosen, "Any"))
        for block in blocks:
            stop: list[ast.stmt] = [py.return_()]
            effects, frame = self.actions.effects(block, frame, True, stop, site.owner)
            body.extend(effects)
            if any(isinstance(st, m.Choose | m.ChooseDistinct) for st in block):
                break  # a follow-up choice ends the block: the rest is its own
        name = function("_skip" if skip else "_follow", index, site)
        return py.Function(name, parameters, "None", body)
