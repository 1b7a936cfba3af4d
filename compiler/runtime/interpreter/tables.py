"""What the interpreter looks up in a checked edition, computed once.

Names to indices (token kinds, zones, tile sets), the declarations by name
(actions, steps, definitions), and the identities every engine shares: tile
numbers and faces, decks and move signatures come from
compiler/frontend/identities.py, never derived here again. Facts only: how
the rules run is the interpreter's own (it shares no code path with the
generated engines it is compared with).
"""

from __future__ import annotations

from collections.abc import Mapping

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.schema import schema
from splendor_rules.compiler.runtime.interpreter.values import Value


class Tables:
    """One edition's model, indexed for the interpreter."""

    def __init__(self, edition: m.Edition) -> None:
        self.model = edition
        self.tokens: tuple[str, ...] = tuple(t.name for t in edition.tokens)
        self.colours: tuple[str, ...] = edition.colours
        self.kinds: Mapping[str, m.TokenKind] = {t.name: t for t in edition.tokens}
        self.token: Mapping[str, int] = {name: i for i, name in enumerate(self.tokens)}
        self.colour_tokens = tuple(self.token[c] for c in self.colours)
        self.wild = next((i for i, t in enumerate(edition.tokens) if t.role == "wild"), None)
        self.schema = schema(edition)  # the state's fields, as every engine has them
        self.decks = identities.decks(edition)
        self.tiles = identities.tile_numbering(edition)
        self.signatures = identities.signatures(edition)
        self.follow_ups = identities.follow_ups(edition)
        self.follow_up: Mapping[str, int] = {f.name: i for i, f in enumerate(self.follow_ups)}
        # A follow-up's index by its choice statement (by identity: two may be alike).
        self.follow_site: Mapping[int, int] = {
            id(f.choice): i for i, f in enumerate(self.follow_ups)
        }
        self.boxes = identities.boxes_cards(edition)  # a card in no place is in the box
        self.zone: Mapping[str, int] = {z.name: i for i, z in enumerate(edition.zones)}
        self.zones: Mapping[str, m.Zone] = {z.name: z for z in edition.zones}
        self.tile_zones = tuple(i for i, z in enumerate(edition.zones) if z.content == "tiles")
        self.shared_tiles = identities.shared_tiles(edition)  # claimed once per player
        # A claim of such a set from play: the zones whose tiles it may not claim again.
        self.shared_claim: Mapping[str, tuple[int, ...]] = {
            s.name: tuple(self.zone[z] for z in zones)
            for s in edition.steps
            if isinstance(s, m.Claim) and (zones := identities.shared_claim(edition, s))
        }
        self.tile_set: Mapping[str, int] = {t.name: i for i, t in enumerate(edition.tile_sets)}
        self.actions: Mapping[str, m.Action] = {a.name: a for a in edition.actions}
        self.fallback = next((a for a in edition.actions if a.body is None), None)
        # Each action taken before the main one: its place among them.
        before = [a.name for a in edition.actions if a.before is not None]
        self.optional: Mapping[str, int] = {name: i for i, name in enumerate(before)}
        self.steps: Mapping[str, tuple[int, m.Step]] = {
            s.name: (i, s) for i, s in enumerate(edition.steps)
        }
        self.defines: Mapping[str, m.Define] = {d.name: d for d in edition.defines}
        self.card_value: Mapping[str, int] = {v.name: i for i, v in enumerate(edition.card_values)}
        self.ending_ids = ", ".join(dict.fromkeys(i for e in edition.endings for i in e.rule_ids))

    def initial_card_values(self) -> tuple[tuple[Value, ...], ...]:
        """Every card value of every card before any is set: none, 0 or false."""
        cards = len(self.model.cards.rows)
        initial: dict[str, Value] = {"colour": None, "int": 0, "bool": False}
        return tuple((initial[v.type],) * cards for v in self.model.card_values)

    @property
    def tiers(self) -> tuple[identities.DeckName, ...]:
        """The decks' names (a tier, or a named market's "NAME TIER")."""
        return self.decks.tiers

    def tier(self, card: int) -> identities.DeckName:
        """The name of a card's deck."""
        return self.decks.card_tier[card]

    def table(self, tile_set: str) -> m.Table:
        return self.model.tile_sets[self.tile_set[tile_set]]

    def attribute(self, kind: str, item: int, attribute: str) -> Value:
        """An attribute of a card or a tile (a majority tile has its points)."""
        if kind == "card":
            return self.model.cards.rows[item][attribute]
        assert kind == "tile", kind
        return self.tiles.rows[item][attribute]
