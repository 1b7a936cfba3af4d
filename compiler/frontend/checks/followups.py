"""Follow-up choices and moves inside triggers: what keeps them answerable
and finite.

A follow-up choice (a `choose` in a trigger or in an `if` among an action's
effects) is answered by a move named "OWNER.CHOICE", so two of them may not
share that name. A trigger may move a card, and that move runs the triggers
of the zone it enters: a card taken from the market or a deck top is used up,
but a card that may already be in a zone could go round forever, so a cycle
of such moves between the zones of triggers is refused.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.dsl.visitor import walk


def check_follow_ups(
    context: Context, actions: tuple[m.Action, ...], triggers: tuple[m.Trigger, ...]
) -> None:
    seen: dict[str, m.Statement] = {}
    for site in identities.sites_of(actions, triggers):
        first = seen.setdefault(site.name, site.choice)
        if first is not site.choice:
            context.report(msgs.follow_up_name_taken(site.choice.span, site.name, first.span))
    _check_cycles(context, triggers)


def _from_supply(source: m.Expr) -> bool:
    """Does a choice source hold only cards of the market or deck tops?"""
    if isinstance(source, m.DeckTops):
        return True
    if isinstance(source, m.Ref):
        return source.kind == "market"
    if isinstance(source, m.Filter):
        return _from_supply(source.source)
    return False


def _zone_moves(trigger: m.Trigger) -> list[m.Move]:
    """The moves of a trigger whose card may already be in a zone (not
    taken from the market or a deck top)."""
    supply: set[str] = set()
    found: list[m.Move] = []
    for node in (n for st in trigger.body for n in walk(st)):
        if isinstance(node, m.Choose) and all(_from_supply(x) for x in node.sources):
            supply.add(node.name)
        elif isinstance(node, m.Let) and isinstance(node.value, m.Ref):
            if node.value.name in supply:
                supply.add(node.name)
        elif isinstance(node, m.Move) and node.card not in supply:
            found.append(node)
    return found


def _check_cycles(context: Context, triggers: tuple[m.Trigger, ...]) -> None:
    edges: dict[str, set[str]] = {}
    moves: list[tuple[str, m.Move]] = []
    for trigger in triggers:
        for move in _zone_moves(trigger):
            edges.setdefault(trigger.zone, set()).add(move.zone)
            moves.append((trigger.zone, move))
    for start, move in moves:
        path = _path(edges, move.zone, start)
        if path is not None:
            context.report(msgs.trigger_move_cycle(move.span, [start, *path]))


def _path(edges: dict[str, set[str]], source: str, target: str) -> list[str] | None:
    """The zones from source to target along the edges (breadth first)."""
    paths: dict[str, list[str]] = {source: [source]}
    queue = [source]
    while queue:
        zone = queue.pop(0)
        if zone == target:
            return paths[zone]
        for after in sorted(edges.get(zone, ())):
            if after not in paths:
                paths[after] = [*paths[zone], after]
                queue.append(after)
    return None
