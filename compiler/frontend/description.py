"""The description of an engine: what its edition is, as plain JSON data.

As OpenSpiel's `Game::GetType()`, every engine carries its description
(`DESCRIPTION`, compiler/runtime/api.py), so that a tool asks the engine
what it plays (token kinds, card and tile tables with their rows, decks,
zones and who sees them, the shape of every move, the rules and their
text) instead of running the front end again or probing the engine. It is
computed here, once, from the checked model, the identities every engine
shares and the state's schema (its places are the zones); every engine of a
model gives the same value but for `capabilities`. docs/engine.md,
"Description", gives the format.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.fingerprint import fingerprint
from splendor_rules.compiler.frontend.schema import Seen, schema

SCHEMA = 1

Json = dict[str, Any]


def describe(edition: m.Edition, *, playouts: bool = False) -> Json:
    """The description of a checked edition's engine; `playouts`: whether
    the engine plays whole games itself (`PlayoutEngine`)."""
    return {
        "schema": SCHEMA,
        "edition": edition.name,
        "title": edition.title,
        "extends": edition.parent,
        "fingerprint": fingerprint(edition),
        "players": {"min": edition.players[0], "max": edition.players[1]},
        "colours": list(edition.colours),
        "tokens": [_token(t) for t in edition.tokens],
        "setup": [
            {"player": g.position, "token": g.token, "amount": g.amount, "rules": list(g.rule_ids)}
            for g in edition.seat_gifts
        ],
        "cards": _cards(edition),
        "decks": _decks(edition),
        "markets": [_market(x) for x in (edition.market, *edition.markets)],
        "tiles": _tiles(edition),
        "zones": _zones(edition),
        "actions": [_action(edition, a) for a in edition.actions],
        "steps": [_step(s) for s in edition.steps],
        "follow_ups": [_follow_up(site) for site in identities.follow_ups(edition)],
        "moves": _moves(edition),
        "endings": [
            {"name": e.name, "mode": e.mode, "rules": list(e.rule_ids)} for e in edition.endings
        ],
        "policies": [{"name": p.name, "values": list(p.values)} for p in edition.policies],
        "rules": _rules(edition),
        "capabilities": {"playouts": playouts},
        **_board(edition),
    }


def _board(edition: m.Edition) -> Json:
    """An edition with a board: its grid, fill order (cell numbers, row *
    columns + column) and the bag at setup; nothing for the others."""
    board = edition.board
    if board is None:
        return {}
    bag = {kind: {str(n): a for n, a in amounts.items()} for kind, amounts in board.bag.items()}
    # the lengths a choice of cells in a line may take, over every such choice,
    # and the moves that make one (a set of cells may also be chosen distinct)
    chosen = [(a.name, st) for a in edition.actions for st in a.body or ()
              if isinstance(st, m.ChooseLine)]
    lines = [(st.low, st.high) for _, st in chosen]
    return {
        "board": {
            "rows": board.rows,
            "columns": board.columns,
            "order": list(board.order),
            "bag": bag,
            "lines": {"min": min(lo for lo, _ in lines), "max": max(hi for _, hi in lines),
                      "moves": [name for name, _ in chosen]}
            if lines else None,
            "rules": list(board.rule_ids),
        }
    }


def _token(token: m.TokenKind) -> Json:
    return {
        "name": token.name,
        "title": token.title,
        "colour": token.role == "colour",
        "wild": token.role == "wild",
        "cap": token.cap,
        "returnable": token.returnable,
        "supply": {str(players): n for players, n in sorted(token.supply.items())},
    }


def _column(column: m.Column, rows: tuple[Any, ...], colours: tuple[str, ...]) -> Json:
    """A column: its name and type, and the values its cells take: a range
    for a number or a number per colour, the values seen otherwise."""
    cells = [row[column.name] for row in rows if row.get(column.name) is not None]
    found: Json = {"name": column.name, "type": column.type}
    if column.type in ("int", "vector"):
        numbers = [int(n) for cell in cells for n in (cell if isinstance(cell, tuple) else (cell,))]
        found["min"], found["max"] = (min(numbers), max(numbers)) if numbers else (0, 0)
    elif column.type == "colour":
        found["values"] = [c for c in colours if c in cells]
        found["none"] = column.none
    elif column.type == "bool":
        found["values"] = sorted({bool(cell) for cell in cells})
    else:
        found["values"] = list(column.values) or sorted({str(cell) for cell in cells})
    return found


def _rows(table: m.Table) -> list[list[Any]]:
    """Each row its cells, in the columns' order (a number per colour as a
    list in colour order, a colour none as null): compact, and what a tool
    needs to show a card or a tile by its data."""
    return [
        [
            list(cell) if isinstance(cell, tuple) else cell
            for cell in (row.get(c.name) for c in table.columns)
        ]
        for row in table.rows
    ]


def _cards(edition: m.Edition) -> Json:
    """The cards: one numbered sequence (docs/engine.md, "Identities") of
    every table's, each card with every column, and the card values."""
    tables = []
    files = {None: edition.cards.file} | {t.name: t.file for t in edition.card_tables}
    for name, numbers in identities.table_cards(edition).items():
        tables.append(
            {
                "name": name,
                "file": PurePath(files[name]).name,
                "first": numbers.start,
                "count": len(numbers),
            }
        )
    rows = edition.cards.rows
    return {
        "count": len(rows),
        "columns": [_column(c, rows, edition.colours) for c in edition.cards.columns],
        "tables": tables,
        "rows": _rows(edition.cards),
        "values": [
            {
                "name": v.name,
                "type": v.type,
                "initial": {"colour": None, "int": 0}.get(v.type, False),
            }
            for v in edition.card_values
        ],
    }


def _decks(edition: m.Edition) -> list[Json]:
    """The decks in deck-index order, each with its cards by number."""
    decks = identities.decks(edition)
    markets = [x for x in (edition.market, *edition.markets) for _ in sorted(x.deck_sizes)]
    tiers = [t for x in (edition.market, *edition.markets) for t in sorted(x.deck_sizes)]
    return [
        {
            "name": name,
            "market": market.name,
            "tier": tier,
            "face_up": face_up,
            "cards": list(cards),
        }
        for name, market, tier, face_up, cards in zip(
            decks.tiers, markets, tiers, decks.face_up, decks.deck_cards, strict=True
        )
    ]


def _market(market: m.Market) -> Json:
    return {
        "name": market.name,
        "table": market.table,
        "group_by": market.group_by,
        "face_up": market.face_up,
        "refill": market.refill,
        "tiers": sorted(market.deck_sizes),
    }


def _tiles(edition: m.Edition) -> Json:
    """The tiles: every face numbered (docs/engine.md), by set, each set's
    physical tiles as their faces, then the majority tiles."""
    numbering = identities.tile_numbering(edition)
    sets = [
        {
            "name": table.name,
            "file": PurePath(table.file).name,
            "double_sided": table.sides_by is not None,
            "faces": list(numbering.set_faces[table.name]),
            "tiles": [list(faces) for faces in numbering.set_tiles[table.name]],
            "columns": [_column(c, table.rows, edition.colours) for c in table.columns],
            "rows": _rows(table),
            # claimed once per player: a claim leaves the tile in play (only
            # where so, so that other editions' descriptions are as they were)
            **({"claimed_once_per_player": True} if table.shared else {}),
        }
        for table in edition.tile_sets
    ]
    majorities = [
        {
            "name": x.name,
            "title": x.title,
            "tile": numbering.majority_tile[x.name],
            "points": x.points,
            "zone": x.zone,
        }
        for x in edition.majorities
    ]
    reveals = [{"tiles": r.tiles, "random_face": r.random_face} for r in edition.reveals]
    return {"count": numbering.count, "sets": sets, "majorities": majorities, "reveals": reveals}


# Who sees a place's contents, and the cards taken from a deck into it, by
# who the schema says sees it.
_SEEN_BY: dict[Seen, tuple[str, str]] = {
    "everyone": ("everyone", "everyone"),
    "owner": ("everyone", "owner"),
    "sizes": ("nobody", "nobody"),
    "nobody": ("nobody", "nobody"),
}


def _zones(edition: m.Edition) -> list[Json]:
    """Where things are and who sees them, from the state's schema (E-6.3 in
    the reference): each player's zones (a card taken from a deck into a
    zone that hides it is seen by its owner only), then the shared places in
    the order of the JSON form (a view shows the decks' sizes, not their
    cards)."""
    the = schema(edition)
    owned = [(place, "player") for place in the.seat_places]
    return [
        {
            "name": place.name,
            "holds": place.holds,
            "owner": owner,
            "seen_by": _SEEN_BY[place.seen][0],
            "deck_cards_seen_by": _SEEN_BY[place.seen][1],
        }
        for place, owner in [*owned, *((place, "shared") for place in the.shared_places)]
    ]


def _choices(signature: identities.Signature) -> list[list[str]]:
    return [[name, kind] for name, kind in signature]


def _action(edition: m.Edition, action: m.Action) -> Json:
    sites = [s.name for s in identities.follow_ups(edition) if s.owner is action]
    described: Json = {
        "name": action.name,
        "title": action.title,
        "rules": list(action.rule_ids),
        "fallback": action.body is None,  # legal only when no other action is
        "choices": _choices(identities.action_signature(action)),
        "follow_ups": sites,
    }
    if action.before is not None:  # only then, so that other editions' engines stay as they are
        described["before_main"] = action.before  # "once" or "any" number of times
    return described


_STEP_KINDS = {m.TokenLimit: "token limit", m.Claim: "claim", m.EndCheck: "end check"}


def _step(step: m.Step) -> Json:
    kind = identities.decision_kind(step)
    return {
        "name": step.name,
        "kind": _STEP_KINDS[type(step)],
        "rules": list(step.rule_ids),
        "decision": kind,
        "choices": [[kind, kind]] if kind is not None else [],
    }


def _follow_up(site: identities.FollowUp) -> Json:
    return {
        "name": site.name,
        "owner": site.owner.name,
        "rules": list(site.choice.rule_ids),
        "choices": [[site.choice.name, identities.follow_up_kind(site)]],
        "declinable": site.declinable,  # its options end with the decline, null
    }


def _moves(edition: m.Edition) -> list[Json]:
    """Every move's shape, as `identities.signatures` orders them: actions,
    decisions of steps, then follow-ups."""
    kinds = {a.name: "action" for a in edition.actions}
    sites = identities.follow_ups(edition)
    kinds |= {s.name: "follow-up" for s in sites}
    declinable = {s.name for s in sites if s.declinable}
    return [
        {"name": name, "kind": kinds.get(name, "decision"), "choices": _choices(signature)}
        | ({"declinable": True} if name in declinable else {})
        for name, signature in identities.signatures(edition).items()
    ]


# A set of cells chosen `distinct`, told apart from a line of cells (both
# are "set:cell" in a move's choices; the board's `lines.moves` names the lines).
DISTINCT_CELLS = "set:cell distinct"


def move_shapes(description: Mapping[str, Any]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each move's values by name and kind, read from a description: a set
    of cells the board does not name as a line is DISTINCT_CELLS. Tools
    that encode moves (the research interface) and the native batch's
    template read moves through it, so both tell the two apart alike."""
    board = description.get("board")
    lines = board.get("lines") if board else None
    in_lines = set(lines["moves"]) if lines else set()
    return {
        move["name"]: tuple(
            (name, DISTINCT_CELLS if kind == "set:cell" and move["name"] not in in_lines else kind)
            for name, kind in move["choices"]
        )
        for move in description["moves"]
    }


def _rules(edition: m.Edition) -> list[Json]:
    """Every rule id the edition states: those its references define, in
    their order with their text, then the others in the rule file's order."""
    found: list[Json] = [
        {"id": t.rule_id, "reference": t.reference, "title": t.title, "text": t.text}
        for t in edition.rule_texts
    ]
    known = {t.rule_id for t in edition.rule_texts}
    found += [
        {"id": rule_id, "reference": None, "title": "", "text": None}
        for rule_id in edition.rule_ids
        if rule_id not in known
    ]
    return found
