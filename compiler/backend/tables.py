"""An edition's constants and data tables, as the engine templates read them.

Target-neutral: the Python target's template reads them as they are, the
native target writes the same cells as C initialisers (native/data.py).
Tile numbers, decks and move signatures come from `frontend.identities`, so
the engines number and name things exactly as every other stage does.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.source import Source
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

# The value of a tile column that a tile set does not have (never read: the
# checker allows only the columns every tile of a zone has).
_MISSING: dict[str, Any] = {"int": 0, "bool": False, "text": "", "colour": -1}
_INITIAL: dict[str, Any] = {"int": 0, "bool": False, "colour": -1}  # a card value never set


@frozen
class NamedValues:
    """A column of a data table: its name and a value per card or tile."""

    name: str
    values: tuple[Any, ...]


class Tables:
    """An edition's constants and data tables, as every target's templates
    read them (the native target writes the same cells in C)."""

    def __init__(self, edition: m.Edition, source: Source) -> None:
        self.edition = edition
        self.source = source
        self.token_index = {t.name: i for i, t in enumerate(edition.tokens)}

    def context(self) -> dict[str, Any]:
        e = self.edition
        tokens = e.tokens
        wild = analysis.wild_token(e)
        counts = range(e.players[0], e.players[1] + 1)
        decks = identities.decks(e)
        return {
            "edition_name": e.name,
            "title": e.title,
            "source_file": self.source.shown(e.file),
            "players": e.players,
            "token_names": tuple(t.name for t in tokens),
            "colour_count": len(e.colours),
            "wild": wild,
            "returnable": tuple(t.returnable for t in tokens),
            "caps": tuple(t.cap if t.cap is not None else 1_000_000 for t in tokens),
            "never_pays": tuple(
                ", ".join(t.rule_ids) if t.role == "special" else "" for t in tokens
            ),
            "never_returned": tuple(
                "" if t.returnable else ", ".join(t.returnable_ids) for t in tokens
            ),
            "supply": [(n, tuple(t.supply.get(n, 0) for t in tokens)) for n in counts],
            "cards_file": self.source.shown(e.cards.file),
            "card_columns": [
                NamedValues(c.name, tuple(self.cell(row[c.name], c.type) for row in e.cards.rows))
                for c in e.cards.columns
            ],
            "deck_names": decks.tiers,
            "deck_cards": decks.deck_cards,
            "card_deck": decks.card_deck,
            # One count for every deck, or (several markets unlike) one per deck.
            "face_up": decks.face_up[0] if decks.same_face_up else decks.face_up,
            "refill": e.market.refill,
            "card_values": tuple(v.name for v in e.card_values),
            "card_value_kinds": tuple(v.type for v in e.card_values),
            "card_value_initial": tuple(_INITIAL[v.type] for v in e.card_values),
            "box": identities.boxes_cards(e),
            **self.tiles(),
            "zone_names": tuple(z.name for z in e.zones),
            "zone_hides": tuple(z.hidden_from_deck for z in e.zones),
            "zone_cards": tuple(z.content == "cards" for z in e.zones),
            "aggregate_zero": tuple(
                0 if kind in ("sum", "total") else (0,) * len(e.colours)
                for kind, _, _ in analysis.aggregates_in(e)
            ),
            "action_names": tuple(a.name for a in e.actions),
            "legal_actions": tuple(a.name for a in e.actions if a.body is not None),
            "fallback": next((a.name for a in e.actions if a.body is None), None),
            # Several actions a turn: how many come before the main one, and
            # whether a turn may grant another (docs/language.md).
            "stages": sum(1 for a in e.actions if a.before is not None),
            "again": bool(identities.extra_turns(e)),
            "signatures": [(a.name, identities.action_signature(a)) for a in e.actions]
            + [
                (site.name, ((site.choice.name, identities.follow_up_kind(site)),))
                for site in identities.follow_ups(e)
            ],
            "step_names": tuple(step.name for step in e.steps),
            "step_kinds": tuple(identities.decision_kind(step) or "none" for step in e.steps),
            "step_rules": tuple(self.ids(step) for step in e.steps),
            "ending_rules": ", ".join(i for ending in e.endings for i in ending.rule_ids),
        }

    def ids(self, part: m.Part) -> str:
        """The rule ids a message cites (the edition's name if none)."""
        return ", ".join(part.rule_ids) or self.edition.name

    def missing(self, kind: str) -> Any:
        if kind == "vector":
            return (0,) * len(self.edition.colours)
        return _MISSING[kind]

    def cell(self, value: Any, kind: str) -> Any:
        if kind == "colour" and value is None:  # none: no colour
            return -1
        if kind == "colour":
            return self.token_index[value]
        return value

    def tiles(self) -> dict[str, Any]:
        """The tile columns, a value per tile number (identities.tile_numbering)."""
        e = self.edition
        numbering = identities.tile_numbering(e)
        columns: dict[str, str] = {}
        for table in e.tile_sets:
            for column in table.columns:
                columns.setdefault(column.name, column.type)
        if e.majorities:
            columns.setdefault("points", "int")
        return {
            "tile_columns": [
                NamedValues(
                    name,
                    tuple(
                        self.cell(row[name], kind) if name in row else self.missing(kind)
                        for row in numbering.rows
                    ),
                )
                for name, kind in columns.items()
            ],
            "tile_count": numbering.count,
            "tile_physical": self.physical_tiles(numbering),
            "tile_set_names": tuple(t.name for t in e.tile_sets),
            "tile_set_faces": tuple(numbering.set_tiles[t.name] for t in e.tile_sets),
            "majority_tiles": list(numbering.majority_tile.items()),
            # claimed once per player: in play and in each seat's zones once
            "shared_tiles": tuple(sorted(identities.shared_tiles(e))),
        }

    def physical_tiles(self, numbering: identities.TileNumbering) -> tuple[int, ...]:
        """Each tile number's physical tile, named by its first face."""
        first: dict[tuple[str, object], int] = {}
        for number in range(numbering.count):
            first.setdefault(numbering.physical[number], number)
        return tuple(first[numbering.physical[number]] for number in range(numbering.count))
