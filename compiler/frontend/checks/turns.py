"""The structure of a turn beyond its action: triggers that follow a card
into a zone, majority tiles contested after a card enters one, and the
end-of-turn steps (a token limit, a tile claim, the end-of-game check).
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.checks.scopes import Scope, bind
from splendor_rules.compiler.frontend.checks.statements import StatementChecker
from splendor_rules.compiler.frontend.checks.typed import check_claim_zones, check_majority_zone
from splendor_rules.compiler.frontend.checks.unused import warn_unused_locals
from splendor_rules.compiler.frontend.model import BOOL, CARD, INT
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import walk


def check_triggers(context: Context, statements: StatementChecker) -> tuple[m.Trigger, ...]:
    triggers = []
    for entry in context.of(s.Trigger):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Trigger)
        zone = context.use_zone(decl.zone, "cards")
        scope = Scope(player=True)
        bind(context, scope, decl.card, CARD)
        # A trigger names the card that entered whether it reads it or not
        # (or writes `_`): not a leftover, so never warned as unused.
        scope.used.add(decl.card.text)
        # Its choices are follow-ups, its moves run triggers (checks/followups.py).
        body = statements.block(decl.body, scope, allow_choices=False)
        returns = (n for st in decl.body for n in walk(st) if isinstance(n, s.ReturnToBox))
        for returned in returns:
            context.report(msgs.return_in_trigger(returned.span))
        warn_unused_locals(context, scope)
        triggers.append(
            m.Trigger(
                rule_ids=context.current_ids,
                span=decl.span,
                name=context.global_name(decl.name),
                card=decl.card.text,
                zone=zone,
                body=body,
            )
        )
    return tuple(triggers)


def check_majorities(context: Context, expressions: ExpressionChecker) -> tuple[m.Majority, ...]:
    majorities = []
    for entry in context.of(s.Majority):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Majority)
        name = context.global_name(decl.name)
        missing = [line for line in msgs.MAJORITY_LINES if getattr(decl, line) is None]
        if missing:
            line = msgs.MAJORITY_LINES[missing[0]]
            context.report(msgs.majority_needs(decl.name.span, name, line))
            continue
        assert decl.measure and decl.event_zone and decl.zone
        assert decl.points is not None and decl.threshold is not None
        measure = expressions.expect(decl.measure, Scope(player=True), INT)
        event_zone = context.use_zone(decl.event_zone, "cards")
        zone = context.use_zone(decl.zone, "tiles")
        check_majority_zone(context, decl.zone)
        majorities.append(
            m.Majority(
                rule_ids=context.current_ids,
                span=decl.span,
                name=name,
                title=context.title(name, decl.title),
                points=decl.points,
                measure=measure,
                threshold=decl.threshold,
                event_zone=event_zone,
                ties_keep_holder=decl.ties_keep_holder,
                zone=zone,
            )
        )
    return tuple(majorities)


def check_steps(context: Context, expressions: ExpressionChecker) -> tuple[m.Step, ...]:
    steps: list[m.Step] = []
    for entry in context.of(s.Step):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Step)
        name = context.global_name(decl.name)
        body = decl.body
        ids = context.current_ids
        if name in context.action_names:
            # A decision is a move named after its step.
            context.report(msgs.step_named_like_action(decl.name.span, name))
        if isinstance(body, s.StepLimit):
            if body.limit < 1:
                context.report(msgs.token_limit_below_one(body.span))
            counted = _counted(context, body)
            if body.into_bag and context.board is None:
                context.report(msgs.no_bag(body.span, "a return into the bag"))
            steps.append(
                m.TokenLimit(
                    rule_ids=ids,
                    span=decl.span,
                    name=name,
                    limit=body.limit,
                    counted=counted,
                    into_bag=body.into_bag,
                )
            )
        elif isinstance(body, s.StepClaim):
            steps.append(_claim(context, expressions, decl, body))
        else:
            steps.append(m.EndCheck(rule_ids=ids, span=decl.span, name=name))
    return tuple(steps)


def _counted(context: Context, body: s.StepLimit) -> tuple[str, ...] | None:
    """The kinds a token limit counts, in token order (None: every kind)."""
    if not body.kinds:
        return None
    kinds = context.names_of("colour", "token")
    named: list[str] = []
    known = True
    for written in body.kinds:
        kind = context.global_name(written)
        if kind not in kinds:
            context.report(msgs.unknown(written.span, "token kind", kind, kinds))
            known = False
        elif kind in named:
            context.report(msgs.kind_counted_twice(written.span, kind))
        else:
            named.append(kind)
    counted = tuple(k for k in kinds if (k in named) != body.not_counting)
    if not counted and known:
        context.report(msgs.limit_counts_nothing(body.span))
    return counted


def _claim(
    context: Context, expressions: ExpressionChecker, decl: s.Step, body: s.StepClaim
) -> m.Claim:
    """`claim one TILES t into ZONE where condition`, at the end of a turn."""
    tiles = context.global_name(body.tiles)
    if context.kind_of(tiles) != "tiles":
        known = context.names_of("tiles")
        context.report(msgs.unknown(body.tiles.span, "tile set", tiles, known))
    zone = context.use_zone(body.zone, "tiles")
    source = context.use_zone(body.source, "tiles") if body.source is not None else None
    if body.source is not None and source == zone:
        context.report(msgs.claim_into_its_source(body.source.span, zone))
    table = context.tile_sets.get(tiles)
    if body.source is not None and table is not None and table.shared:
        context.report(msgs.shared_claim_from(body.source.span, tiles))
    check_claim_zones(context, body, tiles)
    scope = Scope(player=True)
    bind(context, scope, body.variable, m.tile(tiles))
    condition = expressions.expect(body.condition, scope, BOOL)
    return m.Claim(
        rule_ids=context.current_ids,
        span=decl.span,
        name=context.global_name(decl.name),
        tiles=tiles,
        variable=body.variable.text,
        zone=zone,
        condition=condition,
        source=source,
    )


def check_shared_moves(context: Context, model: m.Edition) -> None:
    """A tile claimed once per player stays in the zone it was claimed into
    (the set's other players may hold it too, and a move would take theirs):
    no move takes a tile chosen from such a set in play, or from a zone its
    claims go into."""
    shared = {t.name for t in model.tile_sets if t.shared}
    if not shared:
        return
    into = {c.zone: c.tiles for c in model.steps if isinstance(c, m.Claim) and c.tiles in shared}
    bodies = [a.body for a in model.actions if a.body] + [t.body for t in model.triggers]
    for body in bodies:
        nodes = [n for st in body for n in walk(st)]
        choices = {n.name: n.sources for n in nodes if isinstance(n, m.Choose)}
        for move in (n for n in nodes if isinstance(n, m.Move) and n.tile):
            found = [_shared_source(source, shared, into) for source in choices.get(move.card, ())]
            tiles = next((t for t in found if t is not None), None)
            if tiles is not None:
                context.report(msgs.shared_tile_moved(move.span, move.card, tiles))


def _shared_source(source: m.Expr, shared: set[str], into: dict[str, str]) -> str | None:
    """The set claimed once per player whose tiles a choice's source may
    hold: the set in play, or a zone its claims go into (through filters)."""
    while isinstance(source, m.Filter):
        source = source.source
    if isinstance(source, m.Ref) and source.kind == "tiles" and source.name in shared:
        return source.name
    if isinstance(source, m.Ref) and source.kind == "zone":
        return into.get(source.name)
    return None
