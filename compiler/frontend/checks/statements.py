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
from splendor_rules.compiler.frontend.checks.calls import VALUE_TYPES, fits
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.checks.players import (
    check_transfer,
    not_of_another,
)
from splendor_rules.compiler.frontend.checks.scopes import Scope, bind
from splendor_rules.compiler.frontend.checks.typed import check_tile_move
from splendor_rules.compiler.frontend.checks.unused import warn_unused_locals
from splendor_rules.compiler.frontend.model import BOOL, CARD, CELL, ERROR, INT, TOKEN, VECTOR, Type
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import Visitor

Ids = tuple[str, ...]


class StatementChecker(Visitor):
    """Checks blocks of statements into the model's statements."""

    def __init__(self, context: Context, expressions: ExpressionChecker) -> None:
        self.context = context
        self.expressions = expressions
        # Per top-level block: which locals hold only the player's own cards,
        # the card choices made so far, and the names returned to the box.
        self.held: dict[str, bool] = {}
        self.card_choices: list[str] = []
        self.card_set_choices: list[str] = []
        self.boxed: dict[str, s.Span] = {}

    def block(
        self, statements: tuple[s.Statement, ...], scope: Scope, allow_choices: bool
    ) -> tuple[m.Statement, ...]:
        """A block's statements; requirements and payments only where
        `allow_choices` (the top level of an action). A choice elsewhere (in
        a trigger or an `if`) is a follow-up (checks/followups.py)."""
        if scope.parent is None:  # a trigger's card has entered the player's zone
            self.held, self.boxed = dict.fromkeys(scope.names, True), {}
            self.card_choices, self.card_set_choices = [], []
        return tuple(
            checked
            for statement in statements
            if (checked := self.statement(statement, scope, allow_choices)) is not None
        )

    def statement(self, st: s.Statement, scope: Scope, allow_choices: bool) -> m.Statement | None:
        # A requirement's own ids (stated or cited) and its action's or trigger's.
        ids = tuple(dict.fromkeys([*(t.text for t in st.tags), *self.context.current_ids]))
        if not allow_choices and isinstance(st, s.Require | s.Pay):
            self.context.report(msgs.top_level_only(st.span, st))
        if not allow_choices and isinstance(st, s.ChooseLine):
            self.context.report(msgs.line_choice_here(st.span))
        checked: m.Statement | None = self.visit(st, scope, ids)
        return checked

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise AssertionError(f"unhandled statement {type(node).__name__}")

    # ----------------------------------------------------------- choices

    def visit_Let(self, st: s.Let, scope: Scope, ids: Ids) -> m.Statement:
        value = self.expressions.check(st.value, scope)
        not_of_another(self.context, value, st.value.span)
        bind(self.context, scope, st.name, value.type)
        self.held[st.name.text] = self.held_by_player(value)
        return m.Let(rule_ids=ids, span=st.span, name=st.name.text, value=value)

    def visit_Choose(self, st: s.Choose, scope: Scope, ids: Ids) -> m.Statement:
        sources = tuple(self.expressions.check(source, scope) for source in st.sources)
        element = self.common_element(sources, st)
        for source, written in zip(sources, st.sources, strict=True):
            not_of_another(self.context, source, written.span)
        bind(self.context, scope, st.name, element)
        self.held[st.name.text] = all(self.held_by_player(source) for source in sources)
        if element == CARD:
            self.card_choices.append(st.name.text)
        kind = m.MayChoose if isinstance(st, s.MayChoose) else m.Choose
        return kind(rule_ids=ids, span=st.span, name=st.name.text, sources=sources)

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
        not_of_another(self.context, source, st.source.span)
        bind(self.context, scope, st.name, m.set_of(element))
        self.held[st.name.text] = self.held_by_player(source)
        if element == CARD:
            self.card_set_choices.append(st.name.text)
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
        wild = self.wild_cards(st.wild_cards, scope) if st.wild_cards is not None else None
        if st.into_bag:
            self.uses_bag(st.span, "a payment into the bag")
        return m.Pay(
            rule_ids=ids,
            span=st.span,
            cost=cost,
            discount=discount,
            wild_cards=wild,
            into_bag=st.into_bag,
        )

    def uses_bag(self, span: s.Span, what: str) -> None:
        if self.context.board is None:
            self.context.report(msgs.no_bag(span, what))

    # ------------------------------------------------------------ board

    def visit_ChooseLine(self, st: s.ChooseLine, scope: Scope, ids: Ids) -> m.Statement:
        """`choose x: LOW to HIGH in a line from CELLS`: bound as a set of cells."""
        source = self.expressions.check(st.source, scope)
        if not fits(source.type, m.set_of(CELL)):
            self.context.report(msgs.line_needs_cells(st.source.span, source.type))
        if not 1 <= st.low <= st.high:
            self.context.report(msgs.line_lengths(st.span, st.low, st.high))
        bind(self.context, scope, st.name, m.set_of(CELL))
        return m.ChooseLine(
            rule_ids=ids, span=st.span, name=st.name.text, low=st.low, high=st.high, source=source
        )

    def visit_TakeCells(self, st: s.TakeCells, scope: Scope, ids: Ids) -> m.Statement:
        """`take the tokens of x`: x a cell, or a set of cells, the action chose."""
        written = s.NameRef(span=st.cells.span, name=st.cells.text)
        cells = self.expressions.check(written, scope)
        local = isinstance(cells, m.Ref) and cells.kind == "variable"
        if cells.type != ERROR and (not local or cells.type not in (CELL, m.set_of(CELL))):
            self.context.report(msgs.not_cells(st.cells.span, st.cells.text, cells.type))
        many = cells.type.kind == "set"
        return m.TakeCells(rule_ids=ids, span=st.span, cells=st.cells.text, many=many)

    def visit_RefillBoard(self, st: s.RefillBoard, scope: Scope, ids: Ids) -> m.Statement:
        self.uses_bag(st.span, "a refill of the board")
        return m.RefillBoard(rule_ids=ids, span=st.span)

    def wild_cards(self, written: s.WildCards, scope: Scope) -> m.WildCards:
        """`using x in SET where COND as N wild each`: the player's own cards,
        each worth at least one unit."""
        filtered = s.Filter(
            span=written.span,
            variable=written.variable,
            source=written.source,
            condition=written.condition,
        )
        cards = self.expressions.check(filtered, scope)
        assert isinstance(cards, m.Filter)
        if not fits(cards.source.type, m.set_of(CARD)):
            self.context.report(msgs.wild_cards_not_cards(written.source.span, cards.source.type))
        elif cards.source.type != ERROR and not self.held_by_player(cards.source):
            self.context.report(msgs.not_held(written.source.span, "spent in a payment"))
        if written.units < 1:
            self.context.report(msgs.wild_units_below_one(written.span, written.units))
        return m.WildCards(
            span=written.span,
            variable=written.variable.text,
            cards=cards,
            units=written.units,
            chosen=tuple(self.card_choices),
            chosen_sets=tuple(self.card_set_choices),
        )

    def held_by_player(self, e: m.Expr) -> bool:
        """Does a value hold only cards in the player's own zones: a zone, a
        filter of one, or a local chosen or named from one?"""
        if isinstance(e, m.Filter):
            return self.held_by_player(e.source)
        if isinstance(e, m.Ref):
            return e.kind == "zone" or (e.kind == "variable" and self.held.get(e.name, False))
        return False

    def visit_Move(self, st: s.Move, scope: Scope, ids: Ids) -> m.Statement:
        written = s.NameRef(span=st.card.span, name=st.card.text)
        card = self.expressions.check(written, scope)
        if card.type.kind == "tile":  # from play, or from one of the player's tile zones
            zone = self.context.use_zone(st.zone, "tiles")
            check_tile_move(self.context, st.card, card.type, zone)
            return m.Move(rule_ids=ids, span=st.span, card=st.card.text, zone=zone, tile=True)
        if card.type != CARD and card.type != ERROR:
            self.context.report(msgs.not_a_card(st.card.span, st.card.text, card.type))
        zone = self.context.use_zone(st.zone, "cards")
        self.not_boxed(st.card)
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

    def visit_ReturnToBox(self, st: s.ReturnToBox, scope: Scope, ids: Ids) -> m.Statement:
        """A card or set of cards the action chose from the player's zones
        leaves the game."""
        written = s.NameRef(span=st.cards.span, name=st.cards.text)
        cards = self.expressions.check(written, scope)
        local = isinstance(cards, m.Ref) and cards.kind == "variable"
        if cards.type != ERROR and (not local or cards.type not in (CARD, m.set_of(CARD))):
            self.context.report(msgs.not_cards_to_return(st.cards.span, st.cards.text, cards.type))
        elif cards.type != ERROR and not self.held.get(st.cards.text, False):
            self.context.report(msgs.not_held(st.cards.span, "returned to the box"))
        self.not_boxed(st.cards)
        self.boxed.setdefault(st.cards.text, st.span)
        many = cards.type.kind == "set"
        return m.ReturnToBox(rule_ids=ids, span=st.span, cards=st.cards.text, many=many)

    def not_boxed(self, name: s.Name) -> None:
        """A name returned to the box earlier names cards out of the game."""
        if name.text in self.boxed:
            self.context.report(msgs.already_boxed(name.span, name.text, self.boxed[name.text]))

    def visit_AnotherTurn(self, st: s.AnotherTurn, scope: Scope, ids: Ids) -> m.Statement:
        return m.AnotherTurn(rule_ids=ids, span=st.span)

    def visit_Transfer(self, st: s.Transfer, scope: Scope, ids: Ids) -> m.Statement:
        return check_transfer(self.context, self.expressions, st, scope, ids)

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
            if decl.before is not None:
                check_before_main(context, decl.body)
        actions.append(
            m.Action(
                rule_ids=context.current_ids,
                span=decl.span,
                name=name,
                title=context.title(name, decl.title),
                body=body,
                before=decl.before if decl.body is not None else None,
            )
        )
    if not actions:
        context.report(msgs.no_action(context.edition.span, context.edition.name))
    elif all(a.before is not None for a in actions):
        context.report(msgs.no_main_action(actions[-1].span))
    return tuple(actions)


def check_before_main(context: Context, body: tuple[s.Statement, ...]) -> None:
    """An action before the main one ends with its effects: the turn goes
    on with the same player, so it may not wait for a follow-up choice nor
    move a card (a card entering a zone runs its triggers and contests)."""
    for statement in body:
        if isinstance(statement, s.Move):
            context.report(msgs.move_before_main(statement.span))
        elif isinstance(statement, s.If):
            for inner in _nested(statement.body):
                if isinstance(inner, s.Choose | s.ChooseDistinct):
                    context.report(msgs.follow_up_before_main(inner.span))
                elif isinstance(inner, s.Move):
                    context.report(msgs.move_before_main(inner.span))


def _nested(body: tuple[s.Statement, ...]) -> list[s.Statement]:
    """The statements of a block and of the blocks inside it."""
    found: list[s.Statement] = []
    for statement in body:
        found.append(statement)
        if isinstance(statement, s.If):
            found += _nested(statement.body)
    return found


def check_order(context: Context, body: tuple[s.Statement, ...]) -> None:
    """An action states its choices and requirements, then its effects,
    and a payment comes first among the effects: the legal moves are then
    exactly the choices that pass the requirements and can pay."""
    effect: s.Statement | None = None
    paid = False
    for statement in body:
        if isinstance(statement, s.MayChoose):  # part of the move: not declined apart
            context.report(msgs.declined_in_move(statement.span))
        if isinstance(statement, s.Let | s.Choose | s.ChooseDistinct | s.ChooseLine | s.Require):
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
