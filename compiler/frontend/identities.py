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


DeckName = int | str


@frozen
class Decks:
    """The markets' decks: the main market's first, one per value of its
    grouping column, ascending (deck index 0 is its lowest tier), each named
    by that value (1); then each named market's, in declaration order, named
    by the market and the value ("extra 1"), as docs/engine.md states."""

    tiers: tuple[DeckName, ...]  # deck index -> its name
    card_tier: tuple[DeckName, ...]  # card number -> the name of its deck
    card_deck: tuple[int, ...]  # card number -> its deck index
    deck_cards: tuple[tuple[int, ...], ...]  # deck index -> its cards, by number
    face_up: tuple[int, ...] = ()  # deck index -> the cards its market shows

    @property
    def same_face_up(self) -> bool:
        """Do all decks show as many cards (one market, or markets alike)?"""
        return len(set(self.face_up)) <= 1


def table_cards(edition: m.Edition) -> dict[str | None, range]:
    """Each card table's card numbers: the unnamed table's (None) first,
    then each named table's in declaration order."""
    main = len(edition.cards.rows) - sum(len(t.rows) for t in edition.card_tables)
    found: dict[str | None, range] = {None: range(main)}
    start = main
    for table in edition.card_tables:
        found[table.name] = range(start, start + len(table.rows))
        start += len(table.rows)
    return found


def decks(edition: m.Edition) -> Decks:
    ranges = table_cards(edition)
    names: list[DeckName] = []
    face_up: list[int] = []
    card_deck = [0] * len(edition.cards.rows)
    deck_cards: list[tuple[int, ...]] = []
    for market in (edition.market, *edition.markets):
        tiers = tuple(sorted(market.deck_sizes))
        cards = ranges[market.table]
        group = [int(edition.cards.rows[n][market.group_by]) for n in cards]  # type: ignore[arg-type]
        for tier in tiers:
            for n, value in zip(cards, group, strict=True):
                if value == tier:
                    card_deck[n] = len(names)
            deck_cards.append(tuple(n for n, v in zip(cards, group, strict=True) if v == tier))
            names.append(tier if market.name is None else f"{market.name} {tier}")
            face_up.append(market.face_up)
    card_tier = tuple(names[d] for d in card_deck)
    return Decks(tuple(names), card_tier, tuple(card_deck), tuple(deck_cards), tuple(face_up))


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
        elif isinstance(statement, m.ChooseLine):
            choices.append((statement.name, "set:cell"))
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
    for site in follow_ups(edition):
        found[site.name] = ((site.choice.name, follow_up_kind(site)),)
    return found


# ------------------------------------------------------------- follow-ups

Owner = m.Action | m.Trigger
Choice = m.Choose | m.ChooseDistinct
Level = tuple[tuple[m.Statement, ...], int]  # a block, and a statement's index in it


@frozen
class FollowUp:
    """A follow-up choice: a `choose` inside a trigger or inside an `if`
    among an action's effects (docs/engine.md, "Follow-up decisions"). It is
    no part of a move: when the effects reach it, it waits in the turn's
    queue with the names its rest reads (`bound`), and the move that answers
    it is named `name` ("OWNER.CHOICE")."""

    name: str
    owner: Owner
    choice: Choice
    path: tuple[Level, ...]  # from the owner's body to the choice's own block
    bound: tuple[tuple[str, m.Type], ...]  # the names carried, in scope order

    @property
    def declinable(self) -> bool:
        """May the player decline it (`may choose`)? Then its options end
        with the decline, None, which skips the rest of its block."""
        return isinstance(self.choice, m.MayChoose)

    def rest(self, depth: int) -> tuple[tuple[m.Statement, ...], ...]:
        """The statements after the choice at each level from `depth` out,
        innermost first: its continuation (depth = last level) or what runs
        when it is skipped (the level above)."""
        return tuple(block[index + 1 :] for block, index in reversed(self.path[: depth + 1]))


def choice_type(choice: Choice) -> m.Type:
    """The type of the name a choice binds."""
    if isinstance(choice, m.Choose):
        source = choice.sources[0].type
        element = source.element if source.kind in ("set", "list") else source
        return element or m.ERROR
    source = choice.source.type
    return m.set_of(source.element if source.element is not None else m.ERROR)


def _names_before(block: tuple[m.Statement, ...], index: int) -> list[tuple[str, m.Type]]:
    found: list[tuple[str, m.Type]] = []
    for st in block[:index]:
        if isinstance(st, m.Let):
            found.append((st.name, st.value.type))
        elif isinstance(st, m.Choose | m.ChooseDistinct):
            found.append((st.name, choice_type(st)))
        elif isinstance(st, m.ChooseLine):
            found.append((st.name, m.set_of(m.CELL)))
    return found


def reads_local(tree: object, name: str) -> bool:
    """Does a model expression or statement (or a tuple of them) read the
    local `name`: in an expression, or as the card a statement names?"""
    roots = tree if isinstance(tree, tuple | list) else (tree,)
    for root in roots:
        for node in walk(root):
            if isinstance(node, m.Ref) and node.kind == "variable" and node.name == name:
                return True
            if isinstance(node, m.Move | m.SetValue) and node.card == name:
                return True
            if isinstance(node, m.ReturnToBox) and node.cards == name:
                return True
            if isinstance(node, m.TakeCells) and node.cells == name:
                return True
            if isinstance(node, m.WildCards) and name in (*node.chosen, *node.chosen_sets):
                return True
    return False


def _sites(
    owner: Owner, block: tuple[m.Statement, ...], path: tuple[Level, ...], top: bool
) -> list[FollowUp]:
    """The follow-up choices of a block, in statement order (depth first)."""
    found: list[FollowUp] = []
    for index, st in enumerate(block):
        here = (*path, (block, index))
        if isinstance(st, m.If):
            found += _sites(owner, st.body, here, top=False)
        elif isinstance(st, m.Choose | m.ChooseDistinct) and not top:
            found.append(_follow_up(owner, st, here))
    return found


def _follow_up(owner: Owner, choice: Choice, path: tuple[Level, ...]) -> FollowUp:
    scope: list[tuple[str, m.Type]] = []
    if isinstance(owner, m.Trigger):
        scope.append((owner.card, m.CARD))
    for block, index in path:
        scope += _names_before(block, index)
    rest = tuple(st for block, index in path for st in block[index + 1 :])
    bound = tuple((n, t) for n, t in scope if reads_local((choice, *rest), n))
    return FollowUp(f"{owner.name}.{choice.name}", owner, choice, path, bound)


def follow_ups(edition: m.Edition) -> tuple[FollowUp, ...]:
    """Every follow-up choice: the actions' in declaration order, then the
    triggers'; each owner's in statement order."""
    return sites_of(edition.actions, edition.triggers)


def sites_of(
    actions: tuple[m.Action, ...], triggers: tuple[m.Trigger, ...]
) -> tuple[FollowUp, ...]:
    found: list[FollowUp] = []
    for action in actions:
        found += _sites(action, action.body or (), (), top=True)
    for trigger in triggers:
        found += _sites(trigger, trigger.body, (), top=False)
    return tuple(found)


def value_kind(t: m.Type) -> str:
    """How a value of a model type is written in JSON: "int", "bool", "text",
    "colour", "token", "card", "tile", "vector", or "list:KIND" for a set or
    a list (a colour or token kind by name, the others as they are)."""
    if t.kind in ("set", "list"):
        return "list:" + value_kind(t.element or m.ERROR)
    return t.kind


def follow_up_kind(site: FollowUp) -> str:
    """What a follow-up's move carries, as a move signature names it."""
    if isinstance(site.choice, m.Choose):
        return element_kind(site.choice.sources[0].type)
    return "set:" + element_kind(site.choice.source.type)


def boxes_cards(edition: m.Edition) -> bool:
    """Can a card leave the game: be returned to the box, or spent in a
    payment? Then a card in no deck, market row or zone is in the box."""
    return any(
        isinstance(node, m.ReturnToBox) or (isinstance(node, m.Pay) and node.wild_cards)
        for action in edition.actions
        for node in walk(action)
    )



def extra_turns(edition: m.Edition) -> tuple[m.AnotherTurn, ...]:
    """Every `play another turn` of the actions and triggers, in order."""
    bodies = [a.body or () for a in edition.actions] + [t.body for t in edition.triggers]
    return tuple(st for body in bodies for st in _grants(body))


def _grants(body: tuple[m.Statement, ...]) -> list[m.AnotherTurn]:
    found: list[m.AnotherTurn] = []
    for st in body:
        if isinstance(st, m.AnotherTurn):
            found.append(st)
        elif isinstance(st, m.If):
            found += _grants(st.body)
    return found


# ------------------------------------------------------ tiles claimed once


def shared_claim(edition: m.Edition, step: m.Claim) -> tuple[str, ...] | None:
    """For a claim from play of a tile set claimed once per player, the
    tile zones its claims go into (every step's of that set, in declaration
    order): a tile one of them holds is claimed already, and the claim
    leaves it in play. None for any other step."""
    shared = {t.name for t in edition.tile_sets if t.shared}
    if step.tiles not in shared or step.source is not None:
        return None
    into = {
        c.zone
        for c in edition.steps
        if isinstance(c, m.Claim) and c.tiles == step.tiles and c.source is None
    }
    return tuple(z.name for z in edition.zones if z.name in into)


def shared_tiles(edition: m.Edition) -> frozenset[int]:
    """The tile numbers of the sets claimed once per player: a player's
    zone may hold one while it is in play, and every player's may."""
    numbering = tile_numbering(edition)
    return frozenset(
        face for t in edition.tile_sets if t.shared for face in numbering.set_faces[t.name]
    )
