"""A token's worth in payments: `counts as N in payments where COND` on a
wild token (for a player meeting COND, each token of it pays up to N units
of one colour), checked once the definitions it may read are typed.
"""

from __future__ import annotations

from attrs import evolve

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.checks.scopes import Scope
from splendor_rules.compiler.frontend.model import BOOL
from splendor_rules.dsl import syntax as s


def check_token_worths(
    context: Context, expressions: ExpressionChecker, tokens: tuple[m.TokenKind, ...]
) -> tuple[m.TokenKind, ...]:
    """`counts as N in payments where COND` on a wild token: N at least 2,
    COND a condition read for the player paying (checked once the
    definitions are typed, which it may read)."""
    found = {t.name: t for t in tokens}
    for entry in context.of(s.Token):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Token)
        name = context.global_name(decl.name)
        worths = [p for p in decl.properties if p.kind == "counts_as"]
        for extra in worths[1:]:
            context.report(msgs.worth_twice(extra.span, name))
        prop = worths[0] if worths else None
        if prop is None or prop.condition is None or name not in found:
            continue
        if found[name].role != "wild":
            context.report(msgs.worth_not_wild(prop.span, name))
        if (prop.amount or 0) < 2:
            context.report(msgs.worth_below_two(prop.span, prop.amount or 0))
        condition = expressions.expect(prop.condition, Scope(player=True), BOOL)  # the payer
        found[name] = evolve(
            found[name],
            worth=prop.amount or 0,
            worth_condition=condition,
            worth_ids=tuple(t.text for t in prop.tags) + context.current_ids,
        )
    return tuple(found.values())


def check_worth_payments(context: Context, model: m.Edition) -> None:
    """A wild token that counts as more than one pays a single colour per
    token: a payment that also spends cards (which pay any colours) may not
    take it."""
    wild = next((t for t in model.tokens if t.worth > 1), None)
    if wild is None:
        return
    bodies = [a.body for a in model.actions if a.body]
    for body in bodies:
        for st in body:
            if isinstance(st, m.Pay) and st.wild_cards is not None:
                context.report(msgs.worth_with_cards(st.span, wild.name, wild.worth))
