"""Each declaration of a checked edition as a few English sentences.

A declaration is found by its key in the resolved edition (kind and name,
compiler/frontend/editions.py), and its sentences are spelt out from the
checked model's part with that key: numbers, conditions, choices and
payments as the model holds them, in the edition's own names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import PurePath

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.editions import Key
from splendor_rules.compiler.tools.rulebook.english import (
    English,
    capitalised,
    listed,
    plural,
    words,
)


def by_players(counts: Mapping[int, int]) -> str:
    """`5` when the player count does not matter, else `4 with 2 players, 5
    with 3, 7 with 4`."""
    values = sorted(counts.items())
    if len({n for _, n in values}) == 1:
        return str(values[0][1])
    first, *rest = values
    return ", ".join([f"{first[1]} with {first[0]} players", *(f"{n} with {p}" for p, n in rest)])


class Declarations:
    """The sentences of the declarations of one checked edition."""

    def __init__(self, edition: m.Edition, columns: Mapping[Key, tuple[str, ...]]) -> None:
        """`columns`: each card table's own columns, by its key (the model's
        unnamed table holds every table's columns)."""
        self.edition = edition
        self.columns = columns
        self.english = English(edition)
        self._kinds: dict[str, Callable[[str | None], list[str]]] = {
            "players": lambda _: self.players(),
            "colours": lambda _: self.colours(),
            "supply": lambda _: self.supply(),
            "setup": lambda _: self.seat_gifts(),
            "token": self.token,
            "cards": self.cards,
            "tiles": self.tiles,
            "zone": self.zone,
            "card value": self.card_value,
            "market": self.market,
            "refill": lambda _: self.refill(),
            "reveal": self.reveal,
            "turn order": lambda _: self.policy("turn order"),
            "randomness": lambda _: self.policy("randomness"),
            "hidden": lambda _: self.policy("hidden"),
            "decisions": lambda _: self.policy("decisions"),
            "action": self.action,
            "trigger": self.trigger,
            "majority": self.majority,
            "step": self.step,
            "define": self.define,
            "score": lambda _: self.score(),
            "end": self.ending,
            "winners": lambda _: self.winners(),
            "reference": self.reference,
            "board": lambda _: self.board(),
            "bag": lambda _: self.bag(),
        }

    def sentences(self, key: Key) -> list[str]:
        """What the declaration with this key says; nothing for a kind
        that states no rule of play."""
        kind, name = key
        found = self._kinds.get(kind)
        return found(name) if found is not None else []

    def label(self, key: Key) -> str:
        """A declaration's name as a heading says it: its title if it has one."""
        kind, name = key
        if kind == "action" and name in self.english.actions:
            return f"action {self.english.action(name)}"
        if kind == "majority" and name in self.english.majorities:
            return f"majority tile {self.english.majority(name)}"
        if kind == "token" and name is not None:
            return f"token “{self.english.token(name)}”"
        return f"{kind} {words(name)}" if name is not None else kind

    # ------------------------------------------------------- components

    def players(self) -> list[str]:
        low, high = self.edition.players
        return [f"The game is for {low} to {high} players."]

    def colours(self) -> list[str]:
        names = [self.english.token(c) for c in self.edition.colours]
        return [
            f"The {len(names)} colours are {listed(names)}: each is a kind of token and "
            "a card's bonus."
        ]

    def token(self, name: str | None) -> list[str]:
        kind = next((t for t in self.edition.tokens if t.name == name), None)
        if kind is None:
            return []
        title = f"“{self.english.token(kind.name)}”"
        found = {
            "colour": f"{capitalised(title)} is a colour's token.",
            "wild": f"{capitalised(title)} tokens are wild: each pays 1 of any colour.",
            "special": f"{capitalised(title)} tokens are special: they never pay for anything.",
        }[kind.role]
        out = [found]
        if not kind.returnable:
            out.append(f"A player never returns {title} tokens.")
        if kind.cap is not None:
            out.append(f"A player holds at most {kind.cap} {title} token{'s' * (kind.cap != 1)}.")
        if kind.worth_condition is not None:
            when = self.english.expr(kind.worth_condition)
            out.append(
                f"In a payment, each {title} token pays up to {kind.worth} of one colour "
                f"instead, for a player such that {when}."
            )
        return out

    def supply(self) -> list[str]:
        tokens = self.edition.tokens
        colours = [t for t in tokens if t.role == "colour"]
        parts = []
        if colours and len({tuple(sorted(t.supply.items())) for t in colours}) == 1:
            parts.append(f"tokens of each colour: {by_players(colours[0].supply)}")
            tokens = tuple(t for t in tokens if t.role != "colour")
        parts += [f"{self.english.token(t.name)}: {by_players(t.supply)}" for t in tokens]
        return [f"At setup the supply holds {'; '.join(parts)}."]

    def seat_gifts(self) -> list[str]:
        ordinals = {1: "first", 2: "second", 3: "third", 4: "fourth"}
        out = []
        for gift in self.edition.seat_gifts:
            place = ordinals.get(gift.position)
            who = f"the {place} player" if place else f"player {gift.position}"
            token = self.english.token(gift.token)
            some = "game" if gift.position <= self.edition.players[0] else "game that has one"
            out.append(
                f"At setup, in every {some}, {who} in turn order takes "
                f"{gift.amount} {token} from the supply (what it holds, up to the player's cap)."
            )
        return out

    def _table(self, table: m.Table, rows: int, columns: tuple[str, ...], what: str) -> list[str]:
        shown = [f"{words(c.name)} ({_column_type(c)})" for c in table.columns if c.name in columns]
        file = PurePath(table.file).name
        return [
            f"{capitalised(what)}: {plural(rows, 'row')} of {file}, each with "
            f"{listed(shown)} (tables below)."
        ]

    def cards(self, name: str | None) -> list[str]:
        numbers = identities.table_cards(self.edition)
        if name not in numbers:
            return []
        table = next((t for t in self.edition.card_tables if t.name == name), self.edition.cards)
        what = "the cards" if name is None else f"the {words(name)} cards"
        return self._table(table, len(numbers[name]), self.columns[("cards", name)], what)

    def tiles(self, name: str | None) -> list[str]:
        table = next((t for t in self.edition.tile_sets if t.name == name), None)
        if table is None:
            return []
        columns = tuple(c.name for c in table.columns)
        out = self._table(table, len(table.rows), columns, f"the {words(table.name)} tiles")
        if table.sides_by is not None:
            out.append(
                f"They are double-sided: the rows with the same {words(table.sides_by)} "
                "are the two faces of one tile."
            )
        if table.shared:
            out.append(
                "Each player may claim each of them once: a tile claimed stays in play, "
                "and the other players may claim it too."
            )
        return out

    def zone(self, name: str | None) -> list[str]:
        zone = self.english.zones.get(name or "")
        if zone is None:
            return []
        held = f"{words(zone.tiles)} tiles" if zone.tiles is not None else zone.content
        return [f"Each player has {held} in a zone “{words(zone.name)}”."]

    def card_value(self, name: str | None) -> list[str]:
        value = next((v for v in self.edition.card_values if v.name == name), None)
        if value is None:
            return []
        start = {"colour": "no colour", "int": "0", "bool": "false"}[value.type]
        kind = {"colour": "a colour", "int": "a number", "bool": "true or false"}[value.type]
        return [
            f"Every card has a value “{words(value.name)}”, {kind}: {start} until a rule "
            "sets it during play."
        ]

    def _zone(self, name: str) -> str:
        """A zone after `their`: `bought cards`."""
        zone = self.english.zones.get(name)
        return f"{words(name)} {zone.content if zone is not None else 'cards'}"

    # ------------------------------------------------------------ setup

    def market(self, name: str | None) -> list[str]:
        market = next(x for x in (self.edition.market, *self.edition.markets) if x.name == name)
        tiers = sorted(market.deck_sizes.items())
        decks = ", ".join(f"{plural(n, 'card')} of {words(market.group_by)} {t}" for t, n in tiers)
        cards = "The cards" if market.table is None else f"The {words(market.table)} cards"
        return [
            f"{cards} are split into decks by {words(market.group_by)} ({decks}); each deck "
            f"is shuffled and {market.face_up} of its cards are laid face up."
        ]

    def refill(self) -> list[str]:
        return [
            "A face-up card that is taken is replaced at once from its own deck; when the "
            "deck is empty, the row stays short."
        ]

    def reveal(self, name: str | None) -> list[str]:
        reveal = next((r for r in self.edition.reveals if r.tiles == name), None)
        if reveal is None:
            return []
        face = ", each showing one of its faces at random" if reveal.random_face else ""
        return [
            f"At setup, as many {words(reveal.tiles)} tiles as {self.english.expr(reveal.count)} "
            f"are drawn at random and revealed{face}; the others leave the game."
        ]

    def policy(self, kind: str) -> list[str]:
        policy = next((p for p in self.edition.policies if p.name == kind), None)
        if policy is None:
            return []
        if kind == "turn order":
            return ["Turn order is fixed; the first player is chosen at setup."]
        if kind == "randomness":
            return [
                "Everything random (the shuffles, the tiles revealed, the first player) "
                "comes from the game's seed, chosen at setup."
            ]
        if kind == "hidden":
            return [_hidden(self.english, policy.values)]
        decided = {
            "pay": "how to pay",
            "return": "which tokens to return",
            "claim": "which tile to claim",
        }
        return [
            f"The player decides {listed([decided.get(v, words(v)) for v in policy.values])}: "
            "no decision is taken for them."
        ]

    # ----------------------------------------------------------- turns

    def action(self, name: str | None) -> list[str]:
        action = self.english.actions.get(name or "")
        if action is None:
            return []
        title = self.english.action(action.name)
        if action.body is None:
            return [f"Action {title}: legal only when no other action is."]
        if action.before is not None:
            often = "once" if action.before == "once" else "any number of times"
            head = (
                f"Action {title}, taken before the main action, {often} a turn, and not after"
                " an action before the main one declared after it:"
            )
            return [head, *self.english.statements(action.body)]
        return [f"Action {title}:", *self.english.statements(action.body)]

    def trigger(self, name: str | None) -> list[str]:
        trigger = next((t for t in self.edition.triggers if t.name == name), None)
        if trigger is None:
            return []
        return [
            f"Each time a card, {trigger.card}, enters a player's {self._zone(trigger.zone)} "
            f"(“{words(trigger.name)}”):",
            *self.english.statements(trigger.body, later=True),
        ]

    def majority(self, name: str | None) -> list[str]:
        x = self.english.majorities.get(name or "")
        if x is None:
            return []
        title = self.english.majority(x.name)
        more = "strictly more (ties keep the holder)" if x.ties_keep_holder else "as much or more"
        return [
            f"The tile {title} is worth {plural(x.points, 'point')}. Each time a card enters "
            f"a player's {self._zone(x.event_zone)}, it goes to the first player whose measure "
            f"reaches {x.threshold}, and from its holder to a player with {more}; the "
            f"measure is {self.english.expr(x.measure)}. Its holder keeps it among their "
            f"{self._zone(x.zone)}."
        ]

    def board(self) -> list[str]:
        board = self.edition.board
        assert board is not None
        first = ", ".join(f"({n // board.columns}, {n % board.columns})" for n in board.order[:3])
        return [
            f"The board is a grid of {board.rows} rows and {board.columns} columns of cells, "
            f"each holding at most one token, filled in order {first} and so on."
        ]

    def bag(self) -> list[str]:
        board = self.edition.board
        assert board is not None
        parts = [f"{self.english.token(k)}: {by_players(n)}" for k, n in board.bag.items()]
        return [
            f"At setup the bag holds {'; '.join(parts)}, drawn at random onto the board "
            "in fill order. The bag is hidden and has no order."
        ]

    def step(self, name: str | None) -> list[str]:
        step = next((s for s in self.edition.steps if s.name == name), None)
        if isinstance(step, m.TokenLimit):
            tokens = self.edition.tokens
            counted = [t for t in tokens if step.counted is None or t.name in step.counted]
            kept = [self.english.token(t.name) for t in counted if not t.returnable]
            never = f" ({listed(kept)} excepted)" if kept else ""
            which, such, left = "", "tokens", ""
            if len(counted) < len(tokens):
                names = [self.english.token(t.name) for t in counted]
                which, such = f" of {listed(names)} together", "such tokens"
                others = [self.english.token(t.name) for t in tokens if t not in counted]
                named, verb = listed(others), "is" if len(others) == 1 else "are"
                left = f" {named[:1].upper()}{named[1:]} {verb} not counted."
            return [
                f"At the end of the turn, a player holding more than {step.limit} tokens{which} "
                f"returns {such} of their choice{never} "
                + ("into the bag" if step.into_bag else "to the supply")
                + f" until {step.limit} remain.{left}"
            ]
        if isinstance(step, m.Claim):
            source = (
                f"among their own {words(step.tiles)} tiles in {words(step.source)}"
                if step.source is not None
                else f"among the {words(step.tiles)} tiles in play"
            )
            if any(t.name == step.tiles and t.shared for t in self.edition.tile_sets):
                source += " that they have not claimed yet"
            return [
                f"At the end of the turn, {source}, the tiles {step.variable} such that "
                f"{self.english.expr(step.condition)} may be claimed: if there is any, the "
                f"player claims exactly one, of their choice, into their {self._zone(step.zone)}."
            ]
        if isinstance(step, m.EndCheck):
            return ["Then the end of the game is checked."]
        return []

    # ---------------------------------------------------------- scores

    def define(self, name: str | None) -> list[str]:
        define = next((d for d in self.edition.defines if d.name == name), None)
        if define is None:
            return []
        value = self.english.expr(define.value)
        if define.parameters:
            given = listed([f"{p} (a {t})" for p, t in define.parameters])
            return [f"“{words(define.name)}” of {given}, for a player: {value}."]
        if define.value.type.kind == "bool":
            return [f"“{words(define.name)}” holds for a player when {value}."]
        return [f"A player's {words(define.name)} is{_comma(value)} {value}."]

    def score(self) -> list[str]:
        value = self.english.expr(self.edition.score.value)
        return [f"A player's score is{_comma(value)} {value}."]

    def ending(self, name: str | None) -> list[str]:
        end = next((e for e in self.edition.endings if e.name == name), None)
        if end is None:
            return []
        condition = self.english.expr(end.condition)
        if end.mode == "once":
            said = (
                f"Once this holds at the end of a turn, {condition}, the round is played to "
                "its end and the game ends."
            )
        elif end.mode == "at_round_end":
            said = f"The game ends at the end of a round if this holds then, {condition}."
        else:
            said = f"The game ends at the end of a turn, right there, once this holds, {condition}."
        return [f"Ending “{words(end.name)}”: {said}"]

    def winners(self) -> list[str]:
        winners = self.edition.winners
        keys = []
        for key in winners.keys:
            phrase = self.english.expr(key.value)
            if key.value.type.kind == "bool":
                first = "those for whom it holds" if key.order == "highest" else "the others"
                keys.append(f"by whether {phrase}, {first} first")
            else:
                keys.append(f"by {phrase}, {key.order} first")
        among = (
            f"Only players for whom {self.english.expr(winners.among)} may win. "
            if winners.among is not None
            else ""
        )
        return [
            f"{among}Players are ranked {'; then '.join(keys)}. The players ranked first win: "
            "players tied on all of these share the victory."
        ]

    def reference(self, name: str | None) -> list[str]:
        prefixes = dict(self.edition.references).get(name or "")
        if prefixes is None:
            return []
        return [f"This edition answers to the rulebook {name} ({plural(len(prefixes), 'rule')})."]


def _comma(value: str) -> str:
    """`is, for each colour c, …`: a comma before a phrase that starts with one."""
    return "," if value.startswith("for ") else ""


def _column_type(column: m.Column) -> str:
    if column.type == "vector":
        return "a number per colour"
    if column.type == "colour":
        return "a colour or none" if column.none else "a colour"
    if column.type == "bool":
        return "yes or no"
    if column.type == "int":
        return "a number"
    if column.values:
        return "one of " + listed([f"“{v}”" for v in column.values], "or")
    return "a name"


def _hidden(english: English, values: tuple[str, ...]) -> str:
    said = []
    for value in values:
        kind, _, zone = value.partition(":")
        if kind == "deck_order":
            said.append("nobody sees the order of the decks")
        elif kind == "from_deck":
            said.append(
                f"a card taken from a deck into {english.zone(zone)} is seen by its owner only"
            )
        else:
            said.append(words(value))
    return f"Hidden information: {listed(said)}."
