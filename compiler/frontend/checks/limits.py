"""The limits of the language (compiler/frontend/limits.py), checked.

Each limit is reported at the declaration that passes it: a number written
in the rule file past 64 bits, a count (a supply amount, a cap, a token's
worth in payments, a token limit) past 32, the action past the last that
has a bit, the card table or tile set past the last 16-bit number, the zone
or card value past the bytes a state may take. Runs on the model once everything else checks, so the
counts it reads (cards, tiles, actions, after inheritance) are final.
"""

from __future__ import annotations

import attrs

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import limits as lim
from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.ranges import check_ranges
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.syntax import Span
from splendor_rules.dsl.visitor import walk


def check_limits(context: Context, model: m.Edition) -> None:
    """Report every limit the edition passes."""
    _numbers(context)
    _counts(context)
    _actions(context, model)
    _cards(context, model)
    _tiles(context, model)
    _state(context, model)
    if not context.has_errors():
        for diagnostic in check_ranges(model):
            context.report(diagnostic)


def _ints(value: object) -> list[int]:
    """The whole numbers of a field: alone, or in (nested) tuples."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, tuple):
        return [n for element in value for n in _ints(element)]
    return []


def _numbers(context: Context) -> None:
    """Every number written in the rule files, within 64 bits."""
    for entry in context.entries:
        for node in walk(entry.decl):
            for field in attrs.fields(type(node)):
                if not field.eq:
                    continue
                for value in _ints(getattr(node, field.name)):
                    if not lim.NUMBER.low <= value <= lim.NUMBER.high:
                        context.report(msgs.number_beyond(node.span, value, lim.NUMBER))
                        break


def _counts(context: Context) -> None:
    """Supply amounts, caps and token limits are counts of a state: 32 bits."""
    for entry in context.entries:
        for node in walk(entry.decl):
            found: list[tuple[str, int]] = []
            if isinstance(node, s.SupplyLine):
                amount = node.amount
                amounts = (
                    [n for _, n in amount.entries] if isinstance(amount, s.IntMap) else [amount]
                )
                found.extend(("tokens in the supply", n) for n in amounts)
            elif isinstance(node, s.TokenProperty) and node.amount is not None:
                # a cap, or what a wild token pays of a colour (the native
                # engine multiplies it by the tokens held, in 64 bits)
                counted = node.kind == "counts_as"
                what = "units a token counts as in payments" if counted else "tokens per player"
                found.append((what, node.amount))
            elif isinstance(node, s.StepLimit):
                found.append(("tokens a player may keep", node.limit))
            for what, value in found:
                if lim.COUNT.high < value <= lim.NUMBER.high:
                    context.report(msgs.count_beyond(node.span, what, value, lim.COUNT))
                    break


def _actions(context: Context, model: m.Edition) -> None:
    if len(model.actions) > lim.ACTIONS.high:
        action = model.actions[lim.ACTIONS.high]
        context.report(msgs.too_many(action.span, "actions", len(model.actions), lim.ACTIONS))


def _passing(parts: list[tuple[Span, int]], limit: lim.Limit) -> tuple[Span, int] | None:
    """The part at which the running total passes the limit, and the total."""
    total = 0
    for span, count in parts:
        total += count
        if total > limit.high:
            return span, sum(count for _, count in parts)
    return None


def _cards(context: Context, model: m.Edition) -> None:
    main = context.main_cards
    parts = [(main.span, len(main.rows))] if main is not None else []
    parts.extend((table.span, len(table.rows)) for table in model.card_tables)
    passing = _passing(parts, lim.CARDS)
    if passing is not None:
        context.report(msgs.too_many(passing[0], "cards", passing[1], lim.CARDS))


def _tiles(context: Context, model: m.Edition) -> None:
    parts = [(table.span, len(table.rows)) for table in model.tile_sets]
    parts.extend((majority.span, 1) for majority in model.majorities)
    passing = _passing(parts, lim.TILES)
    if passing is not None:
        context.report(msgs.too_many(passing[0], "tile numbers", passing[1], lim.TILES))


def state_parts(model: m.Edition) -> list[tuple[Span, int]]:
    """The bytes of a state of the most players the edition allows, by the
    declaration each part comes from, at least as the native engine lays
    them out (its 16-bit card and tile numbers, its card values)."""
    cards = len(model.cards.rows)
    tiles = max(identities.tile_numbering(model).count, 1)
    seats = model.players[1]
    face_up = sum(identities.decks(model).face_up)
    tokens = len(model.tokens)
    fixed = 2 * (cards + 1 + face_up + 1 + tiles + 1) + cards // 8 + 16 * seats * (tokens + 2)
    parts = [(model.cards.span, fixed)]
    for zone in model.zones:
        parts.append((zone.span, 2 * seats * (cards if zone.content == "cards" else tiles)))
    width = 8 if any(v.type == "int" for v in model.card_values) else 2
    parts.extend((value.span, width * cards) for value in model.card_values)
    return parts


def _state(context: Context, model: m.Edition) -> None:
    parts = state_parts(model)
    passing = _passing(parts, lim.STATE_BYTES)
    if passing is not None:
        context.report(
            msgs.state_too_large(passing[0], model.players[1], passing[1], lim.STATE_BYTES)
        )
