"""Identities: the numbers and signatures a checked edition gives its parts.

Every later stage (the code generator, the interpreter, records, conformance
and the command line) numbers tiles and decks and reads an action's choices
the same way, as docs/engine.md states them. They are computed here, once, from
the checked model; no other module derives them again.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import walk

# The kinds of declaration an edition may rename (`rename KIND old -> new`).
RENAMABLE_KINDS = frozenset({"colour", "token", "tiles", "zone", "action", "define", "step", "end"})


@frozen
class TileNumbering:
    """Tile numbers: every face of every tile set in declaration order, then
    one number per majority tile. A double-sided tile is one physical tile
    with several numbered faces."""

    set_faces: Mapping[str, tuple[int, ...]]  # tile set -> its face numbers
    set_tiles: Mapping[str, tuple[tuple[int, ...], ...]]  # tile set -> faces per physical tile
    majority_tile: Mapping[str, int]  # majority -> its tile number
    physical: Mapping[int, tuple[str, object]]  # face -> (set or majority, physical key)
    rows: tuple[Mapping[str, object], ...]  # face -> its data row (a majority: its points)
    count: int

    @property
    def physical_count(self) -> int:
        return sum(len(tiles) for tiles in self.set_tiles.values())


def tile_numbering(edition: m.Edition) -> TileNumbering:
    set_faces: dict[str, tuple[int, ...]] = {}
    set_tiles: dict[str, tuple[tuple[int, ...], ...]] = {}
    physical: dict[int, tuple[str, object]] = {}
    rows: list[Mapping[str, object]] = []
    for table in edition.tile_sets:
        faces: list[int] = []
        by_tile: dict[object, list[int]] = {}
        for row in table.rows:
            number = len(rows)
            key: object = row[table.sides_by] if table.sides_by else number
            faces.append(number)
            by_tile.setdefault(key, []).append(number)
            physical[number] = (table.name, key)
            rows.append(row)
        set_faces[table.name] = tuple(faces)
        set_tiles[table.name] = tuple(tuple(f) for f in by_tile.values())
    majority_tile: dict[str, int] = {}
    for majority in edition.majorities:
        number = len(rows)
        majority_tile[majority.name] = number
        physical[number] = (majority.name, number)
        rows.append({"points": majority.points})
    return TileNumbering(set_faces, set_tiles, majority_tile, physical, tuple(rows), len(rows))


@frozen
class Decks:
    """The market's decks: one per value of the grouping column, ascending
    (deck index 0 is the lowest tier)."""

    tiers: tuple[int, ...]
    card_tier: tuple[int, ...]  # card number -> its tier
    card_deck: tuple[int, ...]  # card number -> its deck index
    deck_cards: tuple[tuple[int, ...], ...]  # deck index -> its cards, by number


def decks(edition: m.Edition) -> Decks:
    group = edition.market.group_by
    tiers = tuple(sorted(edition.market.deck_sizes))
    card_tier = tuple(int(row[group]) for row in edition.cards.rows)  # type: ignore[arg-type]
    card_deck = tuple(tiers.index(t) for t in card_tier)
    deck_cards = tuple(
        tuple(n for n, d in enumerate(card_deck) if d == index) for index in range(len(tiers))
    )
    return Decks(tiers, card_tier, card_deck, deck_cards)


# A choice's kind in a move: "token", "card", "tile" (one element), "set:KIND"
# (several distinct elements), "pay" (a payment), as docs/engine.md lists them.
Signature = tuple[tuple[str, str], ...]


def element_kind(t: m.Type) -> str:
    """What a choice from a collection of type t picks, as a move names it."""
    element = t.element if t.kind in ("set", "list") and t.element is not None else t
    return "token" if element.kind in ("colour", "token") else element.kind


def action_signature(action: m.Action) -> Signature:
    """The values of a move of this action after its name, in order."""
    choices: list[tuple[str, str]] = []
    for statement in action.body or ():
        if isinstance(statement, m.Choose):
            choices.append((statement.name, element_kind(statement.sources[0].type)))
        elif isinstance(statement, m.ChooseDistinct):
            choices.append((statement.name, "set:" + element_kind(statement.source.type)))
        elif isinstance(statement, m.Pay):
            choices.append(("pay", "pay"))
            if statement.wild_cards is not None:  # the cards spent, named by its variable
                choices.append((statement.wild_cards.variable, "set:card"))
    return tuple(choices)


def decision_kind(step: m.Step) -> str | None:
    """What an end-of-turn step's decision chooses: "tokens", "tile", or None
    for a step that asks the player nothing."""
    if isinstance(step, m.TokenLimit):
        return "tokens"
    if isinstance(step, m.Claim):
        return "tile"
    return None


def signatures(edition: m.Edition) -> dict[str, Signature]:
    """Every move's signature by name: actions, then decisions."""
    found = {a.name: action_signature(a) for a in edition.actions}
    for step in edition.steps:
        kind = decision_kind(step)
        if kind is not None:
            found[step.name] = ((kind, kind),)
    return found


def boxes_cards(edition: m.Edition) -> bool:
    """Can a card leave the game: be returned to the box, or spent in a
    payment? Then a card in no deck, market row or zone is in the box."""
    return any(
        isinstance(node, m.ReturnToBox) or (isinstance(node, m.Pay) and node.wild_cards)
        for action in edition.actions
        for node in walk(action)
    )
