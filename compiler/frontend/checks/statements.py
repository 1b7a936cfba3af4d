"""Actions and their statements: choices, requirements and effects.

An action is a block of statements run in order; a trigger's body is one
too. Each statement is checked by its `visit_<Statement>` method, in the
scope its block gives it, and carries its own rule ids and those of the
declaration around it.
"""

from __future__ import annotations

from typing import Any

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import (
    VALUE_TYPES,
    ExpressionChecker,
    fits,
)
from splendor_rules.compiler.frontend.checks.scopes import Scope, bind
from splendor_rules.compiler.frontend.checks.unused import warn_unused_locals
from splendor_rules.compiler.frontend.model import BOOL, CARD, ERROR, INT, TOKEN, VECTOR, Type
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import Visitor

Ids = tuple[str, ...]


class StatementChecker(Visitor):
    """Checks blocks of statements into the model's statements."""

    def __init__(self, context: Context, expressions: ExpressionChecker) -> None:
        self.context = context
        self.expressions = expressions

    def block(
        self, statements: tuple[s.Statement, ...], scope: Scope, allow_choices: bool
    ) -> tuple[m.Statement, ...]:
        """A block's statements; requirements and payments only where
        `allow_choices` (the top level of an action). A choice elsewhere (in
        a trigger or an `if`) is a follow-up (checks/followups.py)."""
        return tuple(
            checked
            for statement in statements
            if (checked := self.statement(statement, scope, allow_choices)) is not None
        )

    def statement(self, st: s.Statement, scope: Scope, allow_choices: bool) -> m.Statement | None:
        ids = tuple(t.text for t in st.tags) + self.context.current_ids
        if not allow_choices and isinstance(st, s.Require | s.Pay):
            self.context.report(msgs.top_level_only(st.span, st))
        checked: m.Statement | None = self.visit(st, scope, ids)
        return checked

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise AssertionError(f"unhandled statement {type(node).__name__}")

    # ----------------------------------------------------------- choices

    def visit_Let(self, st: s.Let, scope: Scope, ids: Ids) -> m.Statement:
        value = self.expressions.check(st.value, scope)
        bind(self.context, scope, st.name, value.type)
        return m.Let(rule_ids=ids, span=st.span, name=st.name.text, value=value)

    def visit_Choose(self, st: s.Choose, scope: Scope, ids: Ids) -> m.Statement:
        sources = tuple(self.expressions.check(source, scope) for source in st.sources)
        element = self.common_element(sources, st)
        bind(self.context, scope, st.name, element)
        return m.Choose(rule_ids=ids, span=st.span, name=st.name.text, sources=sources)

    def common_element(self, sources: tuple[m.Expr, ...], st: s.Choose) -> Type:
        """What a choice among several sources picks: one type for all."""
        element: Type | None = None
        for source, written in zip(sources, st.sources, strict=True):
            this = self.expressions.element_of(source, written.span, sets_only=True)
            if element is None or element == ERROR:
                element = this
            elif this != ERROR and this != element:
                self.context.report(msgs.mixed_choice(written.span, element, this))
        return element or ERROR

    def visit_ChooseDistinct(self, st: s.ChooseDistinct, scope: Scope, ids: Ids) -> m.Statement:
        count = self.expressions.expect(st.count, scope, INT)
        source = self.expressions.check(st.source, scope)
        element = self.expressions.element_of(source, st.source.span, sets_only=True)
        bind(self.context, scope, st.name, m.set_of(element))
        return m.ChooseDistinct(
            rule_ids=ids, span=st.span, name=st.name.text, count=count, source=source
        )

    def visit_Require(self, st: s.Require, scope: Scope, ids: Ids) -> m.Statement:
        condition = self.expressions.expect(st.condition, scope, BOOL)
        message = self.message(st.message, scope)
        return m.Require(rule_ids=ids, span=st.span, condition=condition, message=message)

    def message(self, text: s.Message, scope: Scope) -> tuple[str | m.Expr, ...]:
        """A message's text and {expression} parts, checked."""
        parts: list[str | m.Expr] = []
        for part in text.parts:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, s.BrokenPlaceholder):
                self.context.report(msgs.placeholder(part))
            else:
                parts.append(self.expressions.check(part, scope))
        return tuple(parts)

    # ----------------------------------------------------------- effects

    def visit_Gain(self, st: s.Gain, scope: Scope, ids: Ids) -> m.Statement:
        amount = self.expressions.expect(st.amount, scope, INT)
        written = s.NameRef(span=st.token.span, name=st.token.text)
        token = self.expressions.check(written, scope)
        if not fits(token.type, TOKEN):
            self.context.report(msgs.not_a_token_kind(st.token.span, st.token.text, token.type))
        else:
            self.expressions.not_none(token)
        return m.Gain(rule_ids=ids, span=st.span, amount=amount, token=token)

    def visit_GainEach(self, st: s.GainEach, scope: Scope, ids: Ids) -> m.Statement:
        amount = self.expressions.expect(st.amount, scope, INT)
        tokens = self.expressions.check(st.tokens, scope)
        if not fits(tokens.type, m.set_of(TOKEN)):
            self.context.report(msgs.gain_each_needs_tokens(st.tokens.span, tokens.type))
        return m.GainEach(rule_ids=ids, span=st.span, amount=amount, tokens=tokens)

    def visit_Pay(self, st: s.Pay, scope: Scope, ids: Ids) -> m.Statement:
        cost = self.expressions.expect(st.cost, scope, VECTOR)
        discount = self.expressions.expect(st.discount, scope, VECTOR)
        return m.Pay(rule_ids=ids, span=st.span, cost=cost, discount=discount)

    def visit_Move(self, st: s.Move, scope: Scope, ids: Ids) -> m.Statement:
        written = s.NameRef(span=st.card.span, name=st.card.text)
        card = self.expressions.check(written, scope)
        if card.type != CARD and card.type != ERROR:
            self.context.report(msgs.not_a_card(st.card.span, st.card.text, card.type))
        zone = self.context.use_zone(st.zone, "cards")
        return m.Move(rule_ids=ids, span=st.span, card=st.card.text, zone=zone)

    def visit_SetValue(self, st: s.SetValue, scope: Scope, ids: Ids) -> m.Statement:
        """`set k.name = value`: k a card, name a card value, value of its type."""
        context = self.context
        written = s.NameRef(span=st.card.span, name=st.card.text)
        card = self.expressions.check(written, scope)
        if card.type != CARD and card.type != ERROR:
            context.report(msgs.set_needs_card(st.card.span, st.card.text, card.type))
        name = st.value_name.text
        declared = context.card_values.get(name)
        if declared is None:
            if name in context.columns.get("cards", {}):
                context.report(msgs.set_column(st.value_name.span, name))
            else:
                known = list(context.card_values)
                context.report(msgs.unknown_card_value(st.value_name.span, name, known))
            value = self.expressions.check(st.value, scope)
        else:
            value = self.expressions.expect(st.value, scope, VALUE_TYPES[declared.type])
        return m.SetValue(
            rule_ids=ids, span=st.span, card=st.card.text, value_name=name, value=value
        )

    def visit_If(self, st: s.If, scope: Scope, ids: Ids) -> m.Statement:
        condition = self.expressions.expect(st.condition, scope, BOOL)
        inner = scope.child()
        body = self.block(st.body, inner, allow_choices=False)
        warn_unused_locals(self.context, inner)
        return m.If(rule_ids=ids, span=st.span, condition=condition, body=body)


def check_actions(context: Context, statements: StatementChecker) -> tuple[m.Action, ...]:
    actions = []
    fallbacks = 0
    for entry in context.of(s.Action):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Action)
        name = context.global_name(decl.name)
        body = None
        if decl.body is None:
            fallbacks += 1
            if fallbacks > 1:
                context.report(msgs.second_fallback(decl.span))
        else:
            scope = Scope(player=True)
            body = statements.block(decl.body, scope, allow_choices=True)
            warn_unused_locals(context, scope)
            check_order(context, decl.body)
        actions.append(
            m.Action(
                rule_ids=context.current_ids,
                span=decl.span,
                name=name,
                title=context.title(name, decl.title),
                body=body,
            )
        )
    if not actions:
        context.report(msgs.no_action(context.edition.span, context.edition.name))
    return tuple(actions)


def check_order(context: Context, body: tuple[s.Statement, ...]) -> None:
    """An action states its choices and requirements, then its effects,
    and a payment comes first among the effects: the legal moves are then
    exactly the choices that pass the requirements and can pay."""
    effect: s.Statement | None = None
    paid = False
    for statement in body:
        if isinstance(statement, s.Let | s.Choose | s.ChooseDistinct | s.Require):
            if effect is not None:
                context.report(msgs.choice_after_effect(statement.span, effect.span))
        elif isinstance(statement, s.Pay):
            if paid:
                context.report(msgs.second_payment(statement.span))
            elif effect is not None:
                context.report(msgs.payment_after_effect(statement.span, effect.span))
            paid = True
            effect = effect or statement
        elif effect is None:
            effect = statement
