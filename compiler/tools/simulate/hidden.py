"""Determinization: a full state consistent with what one seat sees.

A bot plays from `view(state, seat)`, which hides the order of the decks and
the cards other seats took from a deck into a zone that hides them (each
shown as a `{"deck": tier}` placeholder). To look ahead, a bot needs a state
the engine can run, so this module deals the cards the seat has not seen at
random: into the decks, by tier, keeping each deck's size, and into the
placeholders, by the tier each names. `from_json` of the result is a state
that agrees with the view in everything the seat can see.

The cards of a game and their tiers are read from the JSON form of a new game
(every card starts in a deck or the market), never from the true state of the
game being played. Which zones hold cards (and which tiles), and which hide a
card taken from a deck from the other seats, the engine's description says.
"""

from __future__ import annotations

import random
from typing import Any

from attrs import frozen

from splendor_rules.compiler.runtime.api import Engine, Json

_TIERS: dict[tuple[int, str, int], dict[int, str]] = {}


def card_tiers(engine: Engine, players: int) -> dict[int, str]:
    """Every card of the game and its tier (the key of its deck), as a new
    game of that many players deals them."""
    key = (id(engine), engine.EDITION, players)
    found = _TIERS.get(key)
    if found is None:
        setup = engine.to_json(engine.new_game(players, 0))
        found = {}
        for part in ("decks", "market"):
            for tier, cards in setup[part].items():
                found.update({card: tier for card in cards if card is not None})
        _TIERS[key] = found
    return found


@frozen
class ZoneKinds:
    """What the zones of a seat hold: the zones of cards (the others hold
    tiles), and among them those that hide a card taken from a deck."""

    cards: frozenset[str]
    hiding: frozenset[str]


def zone_kinds(engine: Engine, players: int) -> ZoneKinds:
    """The kinds of a seat's zones, as the engine's description states them
    (docs/engine.md, "Description"); the same at every player count."""
    zones = [z for z in engine.DESCRIPTION["zones"] if z["owner"] == "player"]
    cards = frozenset(z["name"] for z in zones if z["holds"] == "cards")
    hiding = frozenset(z["name"] for z in zones if z["deck_cards_seen_by"] == "owner")
    return ZoneKinds(cards, hiding & cards)


def is_placeholder(item: Any) -> bool:
    """A card another seat holds hidden: `{"deck": tier}`."""
    return isinstance(item, dict) and "deck" in item


def seen_cards(engine: Engine, view: Json) -> set[int]:
    """The cards a view shows: the market and every card in a seat's zones."""
    seen = {card for cards in view["market"].values() for card in cards if card is not None}
    zones = zone_kinds(engine, view["players"]).cards
    for seat in view["seats"]:
        for zone, items in seat["zones"].items():
            if zone in zones:
                seen.update(item for item in items if isinstance(item, int))
    return seen


def unseen_cards(engine: Engine, view: Json) -> dict[str, list[int]]:
    """The cards the view does not show, by tier, in ascending order."""
    seen = seen_cards(engine, view)
    unseen: dict[str, list[int]] = {}
    for card, tier in sorted(card_tiers(engine, view["players"]).items()):
        if card not in seen:
            unseen.setdefault(tier, []).append(card)
    return unseen


class Dealer:
    """Deals states consistent with one view: what is unseen, and where it
    goes, is worked out once; each deal shuffles it anew."""

    def __init__(self, engine: Engine, view: Json) -> None:
        self.engine = engine
        self.view = view
        self.unseen = unseen_cards(engine, view)
        wanted: dict[str, int] = {tier: size for tier, size in view["decks"].items()}
        for seat in view["seats"]:
            for items in seat["zones"].values():
                for item in items:
                    if is_placeholder(item):
                        tier = str(item["deck"])
                        wanted[tier] = wanted.get(tier, 0) + 1
        # More unseen cards than places: the rest have left the game (returned
        # to the box), which a view does not list; a deal leaves some out.
        for tier in sorted(set(wanted) | set(self.unseen)):
            have, want = len(self.unseen.get(tier, [])), wanted.get(tier, 0)
            if have < want:
                raise ValueError(
                    f"tier {tier}: {have} unseen cards for {want} places (deck and hidden)"
                )

    def deal_json(self, rng: random.Random) -> Json:
        """The JSON form of one deal: the unseen cards of each tier shuffled,
        dealt to the placeholders in seat and zone order, then to that tier's
        deck (as many as it holds; any left over are out of the game)."""
        view = self.view
        shuffled = {tier: rng.sample(cards, len(cards)) for tier, cards in self.unseen.items()}
        state = {key: value for key, value in view.items() if key not in ("decks", "seats")}
        dealt: list[int] = []
        seats = []
        for seat in view["seats"]:
            zones = {}
            for zone, items in seat["zones"].items():
                if any(is_placeholder(item) for item in items):
                    items = [
                        shuffled[str(item["deck"])].pop() if is_placeholder(item) else item
                        for item in items
                    ]
                    dealt.extend(
                        c
                        for c, o in zip(items, seat["zones"][zone], strict=True)
                        if is_placeholder(o)
                    )
                zones[zone] = list(items)
            seats.append({**seat, "zones": zones})
        state["decks"] = {
            tier: shuffled.get(tier, [])[:size] for tier, size in view["decks"].items()
        }
        state["seats"] = seats
        state["hidden"] = sorted([*view["hidden"], *dealt])
        if "draws" in view and view["draws"] is None:  # a board's bag: what comes out is unseen
            state["draws"] = rng.getrandbits(64)
        return state

    def deal(self, rng: random.Random) -> Any:
        """An engine state consistent with the view."""
        return self.engine.from_json(self.deal_json(rng))


def determinize(engine: Engine, view: Json, rng: random.Random) -> Json:
    """The JSON form of a state consistent with `view` (`Dealer.deal_json`);
    ValueError if the view cannot be one of the game's (the counts of a tier
    do not add up)."""
    return Dealer(engine, view).deal_json(rng)


def sample_state(engine: Engine, view: Json, rng: random.Random) -> Any:
    """An engine state consistent with `view` (see `determinize`)."""
    return Dealer(engine, view).deal(rng)
