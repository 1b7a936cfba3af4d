"""Lowering: the checked model -> what the engine template reads.

The template (templates/engine.py.j2) holds what every engine shares: the
state, setup, payments, turns and JSON. The lowering supplies what an
edition decides: its constants and data tables (`backend.tables.Tables`), and a Python
function for each rule (`Values`, and `Turns`, the printer of the engine
plan), each headed by a
comment naming its place in the rule file and its rule ids, plus the names
of the optional helper functions that code calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.plan.build import build as build_plan
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python import printer
from splendor_rules.compiler.backend.python.base import Source
from splendor_rules.compiler.backend.python.emit import ExprEmitter
from splendor_rules.compiler.backend.python.followups import FollowUps
from splendor_rules.compiler.backend.python.names import Names
from splendor_rules.compiler.backend.python.state import StateLayout
from splendor_rules.compiler.backend.python.turns import Turns
from splendor_rules.compiler.backend.python.unrolled import Unrolled
from splendor_rules.compiler.backend.python.values import Values
from splendor_rules.compiler.backend.tables import Tables
from splendor_rules.compiler.backend.unprinted import refuse_unprinted
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.description import describe
from splendor_rules.compiler.frontend.limits import CARD_VALUE, COUNT
from splendor_rules.compiler.frontend.schema import schema


def lower(edition: m.Edition, root: Path) -> dict[str, Any]:
    """The template's context for one edition; `root` is the folder that
    the comments name rule files relative to."""
    refuse_unprinted(edition, "python")
    # The engine's description, a literal built as a tree (docs/engine.md).
    lead = len("DESCRIPTION: Final[dict[str, Any]] = ")
    description = printer.laid_out(py.data(describe(edition)), lead=lead)
    edition = analysis.inline_definitions(edition)
    source = Source(root)
    emitter = ExprEmitter(Names(edition))
    plan = build_plan(edition)
    turns = Turns(edition, source, emitter, plan)
    follow_ups = FollowUps(edition, source, turns)
    functions = [
        *Values(edition, source, emitter).functions(),
        turns.visit(plan.scoring.score),
        *turns.functions(),
        *turns.hooks(),
        *turns.steps(),
        *turns.endings(),
        *follow_ups.functions(),
    ]
    gifts, reveals = turns.setup()
    context = Tables(edition, source).context()
    context["functions"] = [function.text() for function in functions]
    context["unrolled"] = Unrolled(edition, source, emitter).context()
    context["reveals"] = "\n".join(py.render(reveals, level=1))
    context["seat_gifts"] = "\n".join(py.render(gifts, level=1))
    context["turn_endings"] = plan.turn_end.stops
    context.update(follow_ups.table())
    context.update(StateLayout(schema(edition)).context())
    # Read last: every function above has been emitted.
    context["helpers"] = sorted(emitter.helpers)
    context["description"] = description
    context["count_max"] = COUNT.high
    context["card_value_low"] = CARD_VALUE.low
    context["card_value_high"] = CARD_VALUE.high
    context["board"] = _board(edition)
    return context


def _board(edition: m.Edition) -> dict[str, Any] | None:
    """A board's constants: its size, fill order and the bag at setup (a
    count per token kind, by player count); None without a board."""
    board = edition.board
    if board is None:
        return None
    low, high = edition.players
    kinds = [t.name for t in edition.tokens]
    bag = [
        (count, tuple(board.bag.get(k, {}).get(count, 0) for k in kinds))
        for count in range(low, high + 1)
    ]
    return {"rows": board.rows, "columns": board.columns, "order": board.order, "bag": bag}
