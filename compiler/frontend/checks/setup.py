"""Setup declarations: the market, the tiles revealed at the start, and the
engine's policies (turn order, randomness, hidden information, decisions).
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.checks.scopes import Scope
from splendor_rules.compiler.frontend.checks.unused import warn_unrevealed_tiles
from splendor_rules.compiler.frontend.editions import Entry
from splendor_rules.compiler.frontend.model import INT
from splendor_rules.dsl import syntax as s

DECISIONS = ("pay", "return", "claim")


def check_market(context: Context) -> m.Market | None:
    """The main market (of the unnamed card table); the named markets go to
    `context.markets` (see check_named_markets)."""
    markets = [e for e in context.of(s.Market) if getattr(e.decl, "name", None) is None]
    entry = markets[0] if markets else None
    if entry is None:
        context.report(
            msgs.missing_declaration(context.edition.span, context.edition.name, s.Market)
        )
        return None
    check_named_markets(context, [e for e in context.of(s.Market) if e is not entry])
    return _market(context, entry, context.main_cards)


def _market(context: Context, entry: Entry, cards: m.Table | None) -> m.Market:
    context.enter(entry)
    decl = entry.decl
    assert isinstance(decl, s.Market)
    sizes = dict(decl.deck_sizes.entries)
    group = decl.group_by.text
    if decl.face_up < 1:
        context.report(msgs.market_face_up(decl.span))
    if cards is not None:
        _check_decks(context, decl, cards, sizes)
    refill = context.of(s.Refill)
    return m.Market(
        rule_ids=context.current_ids,
        span=decl.span,
        group_by=group,
        deck_sizes=sizes,
        face_up=decl.face_up,
        refill=bool(refill),
        refill_ids=tuple(t.text for t in refill[0].decl.tags) if refill else (),
        name=decl.name.text if decl.name else None,
        table=decl.table.text if decl.table else None,
    )


def check_seat_setup(
    context: Context, players: tuple[int, int] | None
) -> tuple[m.SeatGift, ...]:
    """`setup { player N in turn order gains A KIND }`: N a place some game
    of the edition has, A at least 1, KIND a token kind."""
    gifts: list[m.SeatGift] = []
    for entry in context.of(s.SeatSetup):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.SeatSetup)
        kinds = context.names_of("colour", "token")
        most = players[1] if players else None
        for line in decl.lines:
            kind = context.global_name(line.token)
            if kind not in kinds:
                context.report(msgs.unknown(line.token.span, "token kind", kind, kinds))
            if line.position < 1 or (most is not None and line.position > most):
                context.report(msgs.no_such_place(line.span, line.position, most))
            if line.amount < 1:
                context.report(msgs.gift_of_nothing(line.span))
            gifts.append(
                m.SeatGift(
                    rule_ids=context.current_ids,
                    span=decl.span,  # where its ids are stated: the engines cite it
                    position=line.position,
                    token=kind,
                    amount=line.amount,
                )
            )
    return tuple(gifts)


def check_named_markets(context: Context, entries: list[Entry]) -> None:
    """Each named card table's cards are the decks of one named market."""
    tables: dict[str, str] = {}  # a table -> the market taking it
    for entry in entries:
        decl = entry.decl
        assert isinstance(decl, s.Market) and decl.name is not None and decl.table is not None
        table = decl.table.text
        cards = [e.decl for e in context.of(s.Cards) if isinstance(e.decl, s.Cards)]
        known = [d.name.text for d in cards if d.name is not None]
        if table not in known:
            context.report(msgs.unknown(decl.table.span, "card table", table, known))
            continue
        if table in tables:
            context.report(msgs.table_in_two_markets(decl.table.span, table, tables[table]))
            continue
        tables[table] = decl.name.text
        context.markets.append(_market(context, entry, context.card_tables.get(table)))
    for entry in context.of(s.Cards):
        decl = entry.decl
        assert isinstance(decl, s.Cards)
        if decl.name is not None and decl.name.text not in tables:
            context.report(msgs.table_in_no_market(decl.span, decl.name.text))


def _check_decks(context: Context, decl: s.Market, cards: m.Table, sizes: dict[int, int]) -> None:
    """The cards make decks by a whole-number column, of the sizes given."""
    group = decl.group_by.text
    column = next((c for c in cards.columns if c.name == group), None)
    if column is None or column.type != "int":
        names = [c.name for c in cards.columns]
        context.report(msgs.no_deck_column(decl.group_by.span, group, names))
        return
    counts: dict[int, int] = {}
    for row in cards.rows:
        value = row[group]
        assert isinstance(value, int)
        counts[value] = counts.get(value, 0) + 1
    if counts != sizes:
        context.report(msgs.deck_sizes(decl.deck_sizes.span, group, counts))


def check_reveals(context: Context, expressions: ExpressionChecker) -> tuple[m.Reveal, ...]:
    reveals = []
    revealed: set[str] = set()
    for entry in context.of(s.Reveal):
        context.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Reveal)
        name = context.global_name(decl.tiles)
        count = expressions.expect(decl.count, Scope(), INT)
        if name not in context.tile_sets:
            if context.kind_of(name) != "tiles":
                known = context.names_of("tiles")
                context.report(msgs.unknown(decl.tiles.span, "tile set", name, known))
            continue
        revealed.add(name)
        sided = context.tile_sets[name].sides_by is not None
        if sided and not decl.random_face:
            context.report(msgs.face_not_said(decl.span, name))
        if decl.random_face and not sided:
            context.report(msgs.one_face(decl.span, name))
        reveals.append(
            m.Reveal(
                rule_ids=context.current_ids,
                span=decl.span,
                tiles=name,
                count=count,
                random_face=decl.random_face,
            )
        )
    warn_unrevealed_tiles(context, revealed)
    return tuple(reveals)


def check_policies(context: Context) -> tuple[m.Policy, ...]:
    policies = []
    for entry in context.entries:
        decl = entry.decl
        context.enter(entry)
        ids = context.current_ids
        if isinstance(decl, s.TurnOrder):
            policies.append(m.Policy(rule_ids=ids, span=decl.span, name="turn order"))
        elif isinstance(decl, s.Randomness):
            policies.append(m.Policy(rule_ids=ids, span=decl.span, name="randomness"))
        elif isinstance(decl, s.Hidden):
            values = tuple(
                p.kind if p.zone is None else f"{p.kind}:{context.global_name(p.zone)}"
                for p in decl.parts
            )
            policies.append(m.Policy(rule_ids=ids, span=decl.span, name="hidden", values=values))
        elif isinstance(decl, s.Decisions):
            for name in decl.names:
                if name.text not in DECISIONS:
                    context.report(msgs.unknown_decision(name.span, name.text, DECISIONS))
            policies.append(
                m.Policy(
                    rule_ids=ids,
                    span=decl.span,
                    name="decisions",
                    values=tuple(n.text for n in decl.names),
                )
            )
    return tuple(policies)
