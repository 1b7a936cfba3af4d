"""The components of an edition: player counts, colours, token kinds and
their supply, the card and tile tables, and the players' zones.

These come first: every later check reads the names they declare (one
namespace for all kinds, see declare_globals) and the columns of the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from attrs import evolve

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.card_tables import check_card_tables
from splendor_rules.compiler.frontend.checks.context import MAX_PLAYERS, Context
from splendor_rules.compiler.frontend.checks.scopes import BUILTINS
from splendor_rules.compiler.frontend.checks.typed import zone_set
from splendor_rules.compiler.frontend.data import COLUMN_TYPES, VALUE_TYPES, TableReader
from splendor_rules.compiler.frontend.editions import Entry
from splendor_rules.compiler.frontend.model import (
    CARD,
    COLOUR,
    ERROR,
    INT,
    TOKEN,
)
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.syntax import Span

# The names every edition has; no declaration may take them.
_PREDECLARED: dict[str, tuple[m.RefKind, m.Type]] = {
    "colours": ("colours", m.set_of(COLOUR)),
    "players": ("players", INT),
    "market": ("market", m.set_of(CARD)),
    "score": ("score", INT),
}


def check_players(context: Context) -> tuple[int, int] | None:
    entry = context.one(s.Players)
    if entry is None:
        return None
    decl = entry.decl
    assert isinstance(decl, s.Players)
    if not 1 <= decl.low <= decl.high:
        context.report(msgs.empty_player_counts(decl.span, decl.low, decl.high))
        return None
    if decl.high > MAX_PLAYERS:
        context.report(msgs.too_many_players(decl.span, decl.low, decl.high, MAX_PLAYERS))
        return None
    return (decl.low, decl.high)


def check_colours(context: Context) -> None:
    entry = context.one(s.Colours)
    if entry is None:
        return
    context.enter(entry)
    assert isinstance(entry.decl, s.Colours)
    names: list[str] = []
    for name in entry.decl.names:
        colour = context.global_name(name)
        if colour in names:
            context.report(msgs.colour_twice(name.span, colour))
        else:
            names.append(colour)
            context.declared_at[colour] = name.span
    context.colours = tuple(names)


def declare_globals(context: Context) -> None:
    """The edition's names, one namespace for all kinds."""

    def add(name: s.Name, kind: m.RefKind, type_: m.Type, entry: Entry) -> None:
        context.enter(entry)
        text = context.global_name(name)
        if text in BUILTINS or text in _PREDECLARED:
            context.report(msgs.builtin_declared(name.span, text))
        elif text in context.globals:
            context.report(msgs.name_twice(name.span, text, context.declared_at.get(text)))
        else:
            context.globals[text] = (kind, type_)
            context.declared_at[text] = name.span

    context.globals = {c: ("colour", COLOUR) for c in context.colours}
    context.globals.update(_PREDECLARED)
    for entry in context.entries:
        decl = entry.decl
        if isinstance(decl, s.Token):
            add(decl.name, "token", TOKEN, entry)
        elif isinstance(decl, s.Zone):
            element = CARD if decl.content == "cards" else m.tile(None)
            add(decl.name, "zone", m.set_of(element), entry)
            context.zones[context.global_name(decl.name)] = decl
        elif isinstance(decl, s.Tiles):
            name = context.global_name(decl.name)
            add(decl.name, "tiles", m.set_of(m.tile(name)), entry)
        elif isinstance(decl, s.Majority):
            add(decl.name, "majority", ERROR, entry)
            context.majority_names.add(context.global_name(decl.name))
        elif isinstance(decl, s.Action):
            add(decl.name, "action", ERROR, entry)
            context.action_names.add(context.global_name(decl.name))
        elif isinstance(decl, s.Define):
            add(decl.name, "define", ERROR, entry)
            context.defines[context.global_name(decl.name)] = entry
    # Steps, endings and triggers are not values, but share the namespace:
    # a rename renames a name whatever it names.
    others: set[str] = set()
    for entry in context.entries:
        decl = entry.decl
        if isinstance(decl, s.Step | s.Ending | s.Trigger):
            context.enter(entry)
            text = context.global_name(decl.name)
            if text in context.globals or text in others:
                first = context.declared_at.get(text)
                context.report(msgs.name_twice(decl.name.span, text, first))
            else:
                context.declared_at[text] = decl.name.span
            others.add(text)


# ---------------------------------------------------------------- tokens


def check_tokens(context: Context) -> tuple[m.TokenKind, ...]:
    """The payable colours' tokens, then the declared token kinds."""
    supplies = check_supply(context)
    kinds = [
        m.TokenKind(
            rule_ids=(),
            span=context.edition.span,
            name=c,
            title=context.title(c, None),
            role="colour",
            returnable=True,
            cap=None,
            supply=supplies.get(c, {}),
        )
        for c in context.colours
    ]
    for entry in context.of(s.Token):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Token)
        kinds.append(_token_kind(context, decl, supplies))
    if sum(k.role == "wild" for k in kinds) > 1:
        context.report(msgs.two_wild_tokens(context.edition.span))
    return tuple(kinds)


def _token_kind(
    context: Context, decl: s.Token, supplies: dict[str, dict[int, int]]
) -> m.TokenKind:
    name = context.global_name(decl.name)
    roles = [p for p in decl.properties if p.kind in ("wild", "special")]
    if len(roles) != 1:
        context.report(msgs.token_role(decl.name.span, name))
    returnable, cap = True, None
    returnable_ids: tuple[str, ...] = ()
    cap_ids: tuple[str, ...] = ()
    for prop in decl.properties:
        ids = tuple(t.text for t in prop.tags)
        if prop.kind == "never_returned":
            returnable, returnable_ids = False, ids + context.current_ids
        elif prop.kind == "at_most":
            if not prop.amount:
                context.report(msgs.limit_below_one(prop.span))
            cap, cap_ids = prop.amount, ids + context.current_ids
    role: Any = roles[0].kind if roles else "special"
    kind = m.TokenKind(
        rule_ids=context.current_ids,
        span=decl.span,
        name=name,
        title=context.title(name, decl.title),
        role=role,
        returnable=returnable,
        cap=cap,
        supply=supplies.get(name, {}),
        returnable_ids=returnable_ids,
        cap_ids=cap_ids,
    )
    if name not in supplies and "supply" in context.found_kinds:
        context.report(msgs.no_supply_for_token(decl.name.span, name))
    return kind


def token_amounts(
    context: Context,
    lines: Sequence[s.SupplyLine],
    twice: Callable[[Span, str], Diagnostic],
) -> dict[str, dict[int, int]]:
    """Lines of `KIND: amount` (`each colour: amount`), as a supply or a
    bag writes them: each kind's amount by player count; `twice` words a
    kind given twice."""
    result: dict[str, dict[int, int]] = {}
    for line in lines:
        amounts = by_players(context, line.amount)
        if line.target is None:
            targets = list(context.colours)
        else:
            name = context.global_name(line.target)
            if context.kind_of(name) not in ("colour", "token"):
                known = context.names_of("colour", "token")
                context.report(msgs.unknown(line.target.span, "token", name, known))
                continue
            targets = [name]
        for target in targets:
            if target in result:
                context.report(twice(line.span, target))
            result[target] = amounts
    return result


def check_supply(context: Context) -> dict[str, dict[int, int]]:
    """How many tokens of each kind the supply holds, by player count."""
    entry = context.one(s.Supply)
    if entry is None:
        return {}
    context.enter(entry)
    decl = entry.decl
    assert isinstance(decl, s.Supply)
    result = token_amounts(context, decl.lines, msgs.supply_twice)
    if all(line.target is not None for line in decl.lines):
        for colour in context.colours:
            if colour not in result:
                context.report(msgs.no_supply_for_colour(decl.span, colour))
    return result


def by_players(context: Context, amount: int | s.IntMap) -> dict[int, int]:
    """An amount for each player count: one for all, or a table."""
    counts = context.player_counts
    if isinstance(amount, int):
        return dict.fromkeys(counts, amount)
    given = dict(amount.entries)
    for count in counts:
        if count not in given:
            context.report(msgs.no_amount_for(amount.span, count, counts))
    for count in given:
        if counts and count not in counts:  # no counts: their error is reported
            context.report(msgs.amount_outside_counts(amount.span, count, counts))
    return {c: given.get(c, 0) for c in counts}


# ---------------------------------------------------------------- tables


def check_tables(context: Context) -> None:
    """Read the cards and each tile set from their data files."""
    tables = [e for e in context.of(s.Cards) if getattr(e.decl, "name", None) is None]
    entry = tables[0] if tables else None
    if entry is None:
        edition = context.edition
        context.report(msgs.missing_declaration(edition.span, edition.name, s.Cards))
    else:
        context.cards = context.main_cards = _read_table(context, entry, "cards")
        named = [e for e in context.of(s.Cards) if e is not entry]
        if named:
            context.card_tables = check_card_tables(context, entry, named)
    for entry in context.of(s.Tiles):
        assert isinstance(entry.decl, s.Tiles)
        context.enter(entry)
        name = context.global_name(entry.decl.name)
        table = _read_table(context, entry, name)
        if table is not None:
            context.tile_sets[name] = evolve(table, shared=entry.decl.shared)


def _read_table(context: Context, entry: Entry, name: str) -> m.Table | None:
    decl = entry.decl
    assert isinstance(decl, s.Cards | s.Tiles)
    context.enter(entry)
    context.columns[name] = {
        c.name.text: VALUE_TYPES[COLUMN_TYPES[c.type.kind]] for c in decl.columns
    }
    context.none_columns[name] = {
        c.name.text for c in decl.columns if c.type.kind == "colour_or_none"
    }
    context.text_values[name] = {
        c.name.text: tuple(v.value for v in c.type.values)
        for c in decl.columns
        if c.type.kind == "one_of"
    }
    reader = TableReader(
        decl,
        context.colours,
        entry.renames.apply,
        entry.renames.original,
        context.sources,
    )
    seen: dict[str, s.Span] = {}
    for column in decl.columns:
        first = seen.setdefault(column.name.text, column.name.span)
        if first is not column.name.span:
            context.report(msgs.column_twice(column.name.span, column.name.text, first))
    table = reader.read(name, context.current_ids)
    context.diagnostics.extend(reader.diagnostics)
    return table


def check_card_values(context: Context) -> tuple[m.CardValue, ...]:
    """The values every card has beside its columns: read like columns, so
    none may have a column's name."""
    columns = context.columns.get("cards", {})
    for entry in context.of(s.CardValue):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.CardValue)
        name = decl.name.text
        if name in columns:  # two of one name: reported as a declaration made twice
            context.report(msgs.card_value_clash(decl.name.span, name))
            continue
        context.card_values[name] = m.CardValue(
            rule_ids=context.current_ids, span=decl.span, name=name, type=decl.kind
        )
    return tuple(context.card_values.values())


# ----------------------------------------------------------------- zones


def check_zones(context: Context) -> tuple[m.Zone, ...]:
    hidden: set[str] = set()
    for entry in context.of(s.Hidden):
        context.enter(entry)
        assert isinstance(entry.decl, s.Hidden)
        for part in entry.decl.parts:
            if part.zone is not None:
                zone = context.global_name(part.zone)
                if context.zone_holding(part.zone, zone, "cards"):
                    hidden.add(zone)
                    context.used_globals.add(zone)
    zones = []
    for entry in context.of(s.Zone):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Zone)
        name = context.global_name(decl.name)
        zones.append(
            m.Zone(
                rule_ids=context.current_ids,
                span=decl.span,
                name=name,
                content=decl.content,
                hidden_from_deck=name in hidden,
                tiles=zone_set(context, name),
            )
        )
    return tuple(zones)
