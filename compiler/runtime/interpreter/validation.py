"""Validation: whether a move is legal here, and if not, why.

A move is checked the way the spec makes it, statement by statement: its
values against the options of its choices, its requirements, its payment
against the ways to pay. The first that fails refuses the move with an
`IllegalAction` whose message starts with the ids of the rules that forbid
it (docs/engine.md, `apply`), so a failing move names the rule to read.
"""

from __future__ import annotations

from collections.abc import Iterator

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.runtime.interpreter.evaluation import Env
from splendor_rules.compiler.runtime.interpreter.moves import Moves, choice_part
from splendor_rules.compiler.runtime.interpreter.values import (
    DECK,
    Action,
    IllegalAction,
    State,
    Value,
    rule_ids,
    same,
    show,
)
from splendor_rules.dsl.visitor import Visitor


def require(st: m.Require, env: Env) -> None:
    """Refuse the move, with the requirement's message, unless it holds."""
    if not env.holds(st.condition):
        message = "".join(
            part if isinstance(part, str) else show(env.visit(part)) for part in st.message
        )
        raise IllegalAction(f"{rule_ids(st)}: {message}")


class Validation:
    """The checks of `apply`, before anything changes."""

    def __init__(self, moves: Moves) -> None:
        self.moves = moves
        self.tables = moves.tables

    def the_move(self, state: State, action: Action) -> Action:
        """A move of the right shape, on a game that is not over."""
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            raise IllegalAction(f"an action is a tuple (name, values...), not {action!r}")
        if state.over:
            raise IllegalAction(f"{self.tables.ending_ids}: the game is over")
        return action

    def action(self, name: str) -> m.Action:
        """The action a move names, when no decision is pending."""
        if name in self.tables.steps:
            _, step = self.tables.steps[name]
            raise IllegalAction(f"{rule_ids(step)}: no '{name}' decision is pending")
        if name in self.tables.follow_up:
            site = self.tables.follow_ups[self.tables.follow_up[name]]
            raise IllegalAction(f"{rule_ids(site.choice)}: no '{name}' decision is pending")
        definition = self.tables.actions.get(name)
        if definition is None:
            raise IllegalAction(f"unknown action '{name}'")
        return definition

    def fallback(self, state: State, definition: m.Action, given: Action) -> None:
        """The action without a body is legal only when no other action is."""
        if len(given) != 1:
            raise IllegalAction(f"{rule_ids(definition)}: '{definition.name}' takes no values")
        if self.moves.any_action(state):
            raise IllegalAction(
                f"{rule_ids(definition)}: '{definition.name}' is legal only when no other action is"
            )

    def choices(
        self, action: m.Action, state: State, given: Action
    ) -> tuple[Env, tuple[int, ...] | None]:
        """Walk the choice part with the move's values, in statement order,
        refusing the first value, requirement or payment that fails; the
        names bound and the payment, for the effects."""
        wanted = len(self.tables.signatures[action.name])
        if len(given) - 1 != wanted:
            raise IllegalAction(
                f"{rule_ids(action)}: '{action.name}' takes {wanted} value(s) "
                f"after its name, not {len(given) - 1}"
            )
        signature = [kind for _, kind in self.tables.signatures[action.name]]
        paid = len(signature) - signature.index("pay") if "pay" in signature else 0
        payment = given[len(given) - paid] if paid else None
        values = iter(given[1 : len(given) - paid])
        walk = _Check(self, self.moves.definitions.env(state, state.current), values, payment)
        walk.spent = given[-1] if paid == 2 else None
        for st in choice_part(action):
            walk.visit(st)
        return walk.env, payment

    def decision(self, state: State, step: m.Step, action: Action) -> Value:
        """The value of a move deciding the pending step, if it is an option."""
        if len(action) != 2:
            raise IllegalAction(f"{rule_ids(step)}: '{step.name}' takes one value after its name")
        value = action[1]
        if isinstance(step, m.TokenLimit):
            options = self.moves.returns(state, step)
            if not any(same(value, o) for o in options):
                self.refuse_kind(value, "returned", rule_ids(step), "is never returned")
                raise IllegalAction(
                    f"{rule_ids(step)}: returning {self.counts(value)} is not an "
                    f"option; return {sum(options[0])} token(s) in all"
                )
        else:
            assert isinstance(step, m.Claim)
            if not any(same(value, t) for t in self.moves.claimable(state, step)):
                raise IllegalAction(
                    f"{rule_ids(step)}: tile {value!r} is not one you may claim here"
                )
        return value

    # ---------------------------------------------------------- messages

    def describe(self, st: m.Choose | m.ChooseDistinct, value: Value) -> str:
        """A refused choice value, for the message."""
        source = st.sources[0] if isinstance(st, m.Choose) else st.source
        kind = source.type.element.kind if source.type.element is not None else ""

        def one(v: Value) -> str:
            if isinstance(v, tuple) and len(v) == 2 and v[0] == DECK:
                return f"the top of deck {v[1]}"
            if kind in ("card", "tile") and isinstance(v, int) and not isinstance(v, bool):
                return f"{kind} {v}"
            return str(v)

        if not isinstance(st, m.ChooseDistinct):
            return one(value)
        if not isinstance(value, tuple):
            return repr(value)
        return "(" + ", ".join(one(v) for v in value) + ")"

    def describe_cells(self, value: Value) -> str:
        """Refused cells, for the message: each as (row, column)."""
        grid = self.tables.model.board
        assert grid is not None
        cells = grid.rows * grid.columns
        if not isinstance(value, tuple) or not all(
            type(v) is int and 0 <= v < cells for v in value
        ):
            return repr(value)
        shown = ", ".join(f"({v // grid.columns}, {v % grid.columns})" for v in value)
        return f"the cells {shown}" if len(value) != 1 else f"the cell {shown}"

    def counts(self, counts: Value) -> str:
        tokens = self.tables.tokens
        if not (isinstance(counts, tuple) and len(counts) == len(tokens)):
            return repr(counts)
        shown = [f"{n} {k}" for k, n in zip(tokens, counts, strict=True) if n]
        return ", ".join(shown) or "nothing"

    def refuse_kind(self, counts: object, what: str, ids: str, reason: str) -> None:
        """Refuse counts that use a token kind the rules keep out (one that
        never pays, or is never returned), citing that kind's own rule."""
        kinds = self.tables.model.tokens
        if not isinstance(counts, tuple) or len(counts) != len(kinds):
            return
        for kind, n in zip(kinds, counts, strict=True):
            if not (isinstance(n, int) and n > 0):
                continue
            if what == "special" and kind.role == "special" and kind.rule_ids:
                raise IllegalAction(f"{', '.join(kind.rule_ids)}, {ids}: {kind.name} {reason}")
            if what == "returned" and not kind.returnable and kind.returnable_ids:
                raise IllegalAction(
                    f"{', '.join(kind.returnable_ids)}, {ids}: {kind.name} {reason}"
                )


class _Check(Visitor):
    """The choice part walked with a move's values: each statement binds its
    name or refuses the move."""

    def __init__(
        self,
        validation: Validation,
        env: Env,
        values: Iterator[Value],
        payment: Value,
    ) -> None:
        self.validation = validation
        self.env = env
        self.values = values
        self.payment = payment
        self.spent: Value = None  # the cards a payment spends, when it may spend some

    def visit_Let(self, st: m.Let) -> None:
        self.env = self.env.bind(st.name, self.env.visit(st.value))

    def visit_Choose(self, st: m.Choose | m.ChooseDistinct) -> None:
        value = next(self.values)
        options = self.validation.moves.options(st, self.env)
        match = [bound for shown, bound in options if same(shown, value)]
        if not match:
            described = self.validation.describe(st, value)
            raise IllegalAction(f"{rule_ids(st)}: {described} is not one you may choose here")
        self.env = self.env.bind(st.name, match[0])

    visit_ChooseDistinct = visit_Choose

    def visit_ChooseLine(self, st: m.ChooseLine) -> None:
        value = next(self.values)
        if not any(same(value, line) for line in self.validation.moves.line_options(st, self.env)):
            described = self.validation.describe_cells(value)
            raise IllegalAction(
                f"{rule_ids(st)}: {described} is not a line of {st.low} to {st.high} "
                "cells you may choose here"
            )
        self.env = self.env.bind(st.name, value)

    def visit_Require(self, st: m.Require) -> None:
        require(st, self.env)

    def visit_Pay(self, st: m.Pay) -> None:
        payment, check = self.payment, self.validation
        if st.wild_cards is not None:
            self.card_payment(st)
            return
        if not any(same(payment, way) for way in check.moves.payments(st, self.env)):
            check.refuse_kind(payment, "special", rule_ids(st), "never pays")
            raise IllegalAction(
                f"{rule_ids(st)}: paying {check.counts(payment)} is not a valid payment here"
            )

    def card_payment(self, st: m.Pay) -> None:
        """A payment that may spend cards: the tokens and the cards must be
        one of the ways; the cards are bound to the `using` name, for the
        payment's effect."""
        assert st.wild_cards is not None
        payment, spent, check = self.payment, self.spent, self.validation
        ways = check.moves.card_payments(st, self.env)
        if not any(same((payment, spent), way) for way in ways):
            check.refuse_kind(payment, "special", rule_ids(st), "never pays")
            raise IllegalAction(
                f"{rule_ids(st)}: paying {check.counts(payment)} and the cards {spent!r} "
                "is not a valid payment here"
            )
        self.env = self.env.bind(st.wild_cards.variable, spent)

    def generic_visit(self, node: object) -> None:
        raise AssertionError(f"not a choice: {node!r}")
