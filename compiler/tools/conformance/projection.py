"""Projections: the parts of a state the shared rules act on, in b's names.

Two probe states are compared through their projections, which leave out
what only one edition has; `foreign` tells when such a part was touched,
which means an edition-specific rule acted and the move cannot be compared.
"""

from __future__ import annotations

import json

from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.conformance.correspondence import COPIED, Correspondence


class Projection:
    """Projects states (and views) of both editions to what they share."""

    def __init__(self, corr: Correspondence) -> None:
        self.corr = corr
        self.kinds = list(corr.tokens.values())
        self.zones = list(corr.zones.values())
        self.actions = set(corr.forward.actions.values())

    def b(self, data: Json) -> Json:
        """The parts of a state (or a view) of b the shared rules act on."""
        kinds, zones, actions = self.kinds, self.zones, self.actions
        return {
            **{k: data[k] for k in COPIED},
            "pending": data["pending"],
            "supply": {t: data["supply"][t] for t in kinds},
            "seats": [
                {
                    "tokens": {t: seat["tokens"][t] for t in kinds if t in seat["tokens"]},
                    "zones": {z: seat["zones"][z] for z in zones},
                    "did": sorted(x for x in seat["did"] if x in actions),
                }
                for seat in data["seats"]
            ],
            **self.values(data),
        }

    def values(self, data: Json) -> Json:
        """The card values both editions have, if there are any."""
        names = self.corr.card_values
        held = data.get("card_values", {})
        return {"card_values": {n: held.get(n, {}) for n in names}} if names else {}

    def a(self, data: Json) -> Json | None:
        """The same parts of a state (or view) of a, in b's names."""
        seats = self.corr.seats(data)
        if seats is None:
            return None
        tokens, steps = self.corr.tokens, self.corr.forward.steps
        pending = data["pending"]
        if isinstance(pending, str):  # a step's name in b's names
            pending = steps.get(pending, pending)
        elif isinstance(pending, list):  # follow-up decisions, their values in b's names
            pending = self.corr.forward.pending(pending) or pending
        return {
            **{k: data[k] for k in COPIED},
            "pending": pending,
            "supply": {tokens[t]: n for t, n in data["supply"].items() if t in tokens},
            "seats": [{**seat, "did": sorted(seat["did"])} for seat in seats],
            **self.values(data),
        }

    def foreign(self, data: Json, is_a: bool) -> str | None:
        """What a state shows of the parts only its edition has (a token kind,
        a tile held, a card value set), if anything: an edition-specific rule
        acted."""
        corr = self.corr
        kinds = corr.a_only_tokens if is_a else corr.b_only_tokens
        zones = corr.tile_zones_a if is_a else corr.tile_zones
        tiles = set(corr.tile_map) if is_a else set(corr.tile_map.values())
        held = data.get("card_values", {})
        for name in corr.a_only_values if is_a else corr.b_only_values:
            if held.get(name):
                return f"cards hold {json.dumps(held[name])} as their {name}"
        for p, seat in enumerate(data["seats"]):
            for kind in kinds:
                if seat["tokens"].get(kind):
                    return f"seat {p} holds {seat['tokens'][kind]} {kind}"
            for zone in zones:
                if any(t not in tiles for t in seat["zones"][zone]):
                    return f"seat {p} holds tiles {seat['zones'][zone]} in {zone}"
        return None

    # -------------------------------------------------------------- setups
