"""The end of the game: the score, the endings and how winners are ranked.

(Definitions, which the score and the rankings read, are typed on first use
by the expression checker; see ExpressionChecker.definition_type.)
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.checks.scopes import Scope
from splendor_rules.compiler.frontend.model import BOOL, ERROR, INT
from splendor_rules.dsl import syntax as s


def check_score(context: Context, expressions: ExpressionChecker) -> m.Define | None:
    entry = context.one(s.Score)
    if entry is None:
        return None
    context.enter(entry)
    assert isinstance(entry.decl, s.Score)
    value = expressions.expect(entry.decl.value, Scope(player=True), INT)
    return m.Define(rule_ids=context.current_ids, span=entry.decl.span, name="score", value=value)


def check_endings(context: Context, expressions: ExpressionChecker) -> tuple[m.Ending, ...]:
    endings = []
    checked = any(
        isinstance(e.decl, s.Step) and isinstance(e.decl.body, s.StepEndCheck)
        for e in context.of(s.Step)
    )
    for entry in context.of(s.Ending):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Ending)
        condition = expressions.expect(decl.condition, Scope(), BOOL)
        if decl.mode == "at_turn_end" and not checked:
            name = context.global_name(decl.name)
            context.report(msgs.turn_ending_never_checked(decl.name.span, name))
        endings.append(
            m.Ending(
                rule_ids=context.current_ids,
                span=decl.span,
                name=context.global_name(decl.name),
                mode=decl.mode,
                condition=condition,
            )
        )
    if not endings:
        context.report(msgs.no_ending(context.edition.span, context.edition.name))
    return tuple(endings)


def check_winners(context: Context, expressions: ExpressionChecker) -> m.Winners | None:
    entry = context.one(s.Winners)
    if entry is None:
        return None
    context.enter(entry)
    decl = entry.decl
    assert isinstance(decl, s.Winners)
    among = expressions.expect(decl.among, Scope(player=True), BOOL) if decl.among else None
    keys = []
    for key in decl.keys:
        value = expressions.check(key.value, Scope(player=True))
        if value.type not in (INT, BOOL, ERROR):
            context.report(msgs.rank_key_type(key.value.span, value.type))
        keys.append(m.RankKey(order=key.order, value=value))
    return m.Winners(rule_ids=context.current_ids, span=decl.span, among=among, keys=tuple(keys))
