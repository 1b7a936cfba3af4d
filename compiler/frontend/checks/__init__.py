"""Checks: a resolved edition -> the checked model (compiler.frontend.model).

Resolves every name (through the renames of the editions that inherit it),
types every expression, reads the data files and checks the rule ids. Every
mistake becomes a Diagnostic and checking goes on, so one run reports all of
them; an expression that is wrong gets the type ERROR, which is accepted
everywhere, so that one mistake is not reported again by what contains it.

Each concern has its module: components (players, colours, tokens, tables,
zones), card_tables (the named card tables, merged with the unnamed), setup
(markets, reveals, policies), expressions, statements (actions), turns
(triggers, majorities, steps), scoring (score, endings, winners), ids
(rule ids), unused (warnings), definitions (the order definitions are typed
in, and how deep their chains nest); scopes and context are what they share. This
module runs them in order, each reading what the earlier ones found, and
builds the model when nothing is wrong; limits (with ranges) then checks the
model against the bounds of compiler/frontend/limits.py.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks import (
    components,
    followups,
    scoring,
    setup,
    turns,
    worth,
)
from splendor_rules.compiler.frontend.checks.board import check_board
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.definitions import type_definitions
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.checks.ids import check_ids
from splendor_rules.compiler.frontend.checks.limits import check_limits
from splendor_rules.compiler.frontend.checks.players import check_hidden_reads
from splendor_rules.compiler.frontend.checks.statements import StatementChecker, check_actions
from splendor_rules.compiler.frontend.checks.typed import check_tile_columns, type_zones
from splendor_rules.compiler.frontend.checks.unused import warn_unused_globals
from splendor_rules.compiler.frontend.editions import ResolvedEdition
from splendor_rules.dsl.diagnostics import Diagnostic, Sources


def check_edition(
    edition: ResolvedEdition, sources: Sources
) -> tuple[m.Edition | None, list[Diagnostic]]:
    """The checked model of an edition (None if anything is wrong), and
    every diagnostic found on the way, in the order found."""
    context = Context(edition, sources)
    expressions = ExpressionChecker(context)
    statements = StatementChecker(context, expressions)
    players = components.check_players(context)
    components.check_colours(context)
    components.declare_globals(context)
    type_zones(context)
    tokens = components.check_tokens(context)
    board = check_board(context)
    components.check_tables(context)
    check_tile_columns(context)
    card_values = components.check_card_values(context)
    zones = components.check_zones(context)
    market = setup.check_market(context)
    reveals = setup.check_reveals(context, expressions)
    seat_gifts = setup.check_seat_setup(context, players)
    type_definitions(context, expressions)
    tokens = worth.check_token_worths(context, expressions, tokens)
    score = scoring.check_score(context, expressions)
    actions = check_actions(context, statements)
    triggers = turns.check_triggers(context, statements)
    followups.check_follow_ups(context, actions, triggers)
    majorities = turns.check_majorities(context, expressions)
    steps = turns.check_steps(context, expressions)
    endings = scoring.check_endings(context, expressions)
    winners = scoring.check_winners(context, expressions)
    policies = setup.check_policies(context)
    rule_ids = check_ids(context)
    warn_unused_globals(context)
    if context.has_errors():
        return None, context.diagnostics
    assert players and context.cards and market and score and winners
    defines = expressions.checked_defines
    model = m.Edition(
        name=edition.name,
        title=edition.title,
        file=edition.file,
        parent=edition.parent.name if edition.parent else None,
        players=players,
        colours=context.colours,
        tokens=tokens,
        cards=context.cards,
        tile_sets=tuple(context.tile_sets.values()),
        zones=zones,
        market=market,
        reveals=reveals,
        actions=actions,
        triggers=triggers,
        majorities=majorities,
        steps=steps,
        defines=tuple(defines[n] for n in context.defines if n in defines),
        score=score,
        endings=endings,
        winners=winners,
        policies=policies,
        rule_ids=rule_ids,
        card_values=card_values,
        card_tables=tuple(context.card_tables.values()),
        markets=tuple(context.markets),
        references=tuple(context.rulebooks),
        rule_texts=tuple(context.rule_texts),
        seat_gifts=seat_gifts,
        board=board,
    )
    check_hidden_reads(context, model)
    turns.check_shared_moves(context, model)
    worth.check_worth_payments(context, model)
    check_limits(context, model)
    if context.has_errors():
        return None, context.diagnostics
    return model, context.diagnostics
