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

from splendor_rules.compiler.backend.plan import ops
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
        for plan in self.actions.plan.follow_ups:
            found.append(self.options(plan))
            found.append(self.rest(plan, skip=False))
            found.append(self.rest(plan, skip=True))
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

    def unpack(
        self, site: identities.FollowUp, carried: tuple[ops.Carried, ...]
    ) -> tuple[list[ast.stmt], Frame]:
        """The names carried that the function reads, from `bound`."""
        own = tuple(i for i in site.choice.rule_ids if i not in site.owner.rule_ids)
        body: list[ast.stmt] = [self.where(site.choice, own)]
        frame = Frame()
        for position, name in enumerate(carried):
            if name.read:
                var = ident("v_", name.name)
                body.append(py.assign(var, py.item(py.name("bound"), position)))
                frame = frame.bind(name.name, var)
        return body, frame

    def options(self, plan: ops.FollowUp) -> py.Function:
        """The (engine value, action value) pairs of the follow-up's options."""
        body, frame = self.unpack(plan.site, plan.options_carried)
        options = self.actions.options(plan.options, frame)
        if plan.declinable:  # the decline last: None, which runs the skip
            declined = py.list_([py.tuple_([py.const(None), py.const(None)])])
            options = py.binary(options, "+", declined)
        body.append(py.return_(options))
        name = function("_options", plan.index, plan.site)
        return py.Function(name, BOUND, "list[tuple[Any, Any]]", body)

    def rest(self, plan: ops.FollowUp, skip: bool) -> py.Function:
        """What runs once the follow-up is decided (or skipped, for want of
        an option): the rest of its block (not when skipped), then of each
        block around it."""
        site = plan.site
        carried = plan.skip_carried if skip else plan.take_carried
        body, frame = self.unpack(site, carried)
        parameters: tuple[tuple[str, str], ...] = BOUND
        if not skip:
            chosen = ident("v_", site.choice.name)
            frame = frame.bind(site.choice.name, chosen)
            parameters = (*BOUND, (chosen, "Any"))
            if plan.declinable:  # declined: what runs without an option
                arguments = (py.name(n) for n, _ in BOUND)
                skipped = py.call(function("_skip", plan.index, site), *arguments)
                declined: list[ast.stmt] = [py.do(skipped), py.return_()]
                body.append(py.if_(py.binary(py.name(chosen), "is", py.const(None)), declined))
        for block in plan.skip if skip else plan.take:
            effects, frame = self.actions.effects(block, frame, [py.return_()])
            body.extend(effects)
        name = function("_skip" if skip else "_follow", plan.index, site)
        return py.Function(name, parameters, "None", body)
