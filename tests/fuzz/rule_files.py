"""A Hypothesis strategy for random editions: valid, checked rule files with
their card and tile data, whose games always end.

`editions()` draws a `DrawnEdition`: the text of one or two rule files and of
the CSV files they read, to be written into a folder of their own (data paths
are relative to the rule file; an edition may extend `classic`, found in the
shipped editions folder, or a generated parent written beside it).

What is drawn (docs/language.md): player counts; colours; a wild token (in
one base in two, and in one child of classic in two, worth 2 or 3 in
payments for a player meeting a condition) and
special ones (never returned, at most N per player); the supply, by player
count or not; cards from CSV with typed columns (int, ranges, bool, text,
colour with a value map, per colour with a column map, `from` sources);
tile sets, single- and double-sided; card and tile zones; the market by a
column with its face-up count, refill, reveals; actions with lets, choices of
every kind (colours, the market, zones, deck tops, tile sets, filters, N
distinct), requirements with messages that show values, payments, gains,
gains of each, moves, `if` and `set` of card values; the fallback action
(`only when no other action is legal`); triggers; majority tiles; steps
(return tokens above N, counting some kinds or not counting some; claim one
tile where, check game end; placed before
or after another); a board of cells now and then (fuzz/board.py: its size,
fill order and bag, lines of cells from a filter, a cell, tokens taken, a
refill, payments and returns into the bag); card values (`card value NAME: TYPE`, read like
columns); definitions that use each other, and definitions with parameters
used as calls; the score; endings of the three modes (after the round once,
after a round that ends with, at the end of the turn once); winners with
several keys and `among`; hidden information; turn order, randomness and
decisions; actions taken before the main action (once or any number of
times) and `play another turn` in actions and triggers; rule ids on
declarations, statements and token properties, and
now and then one or two references that claim them, with their rulebooks
written beside the rule file. A child edition overrides, removes and renames
what its parent (classic, or a drawn base) declares, and removes its
parent's references by their files.

Every game ends: every action but the fallback gains a `clock` token (a
special kind, never returned, with no cap) whose supply only goes down, an
ending fires once the clock's supply is empty, and when a fallback exists a
round in which everyone took it ends the game. So a game lasts at most
(clock supply + 2) rounds (`DrawnEdition.max_plies` bounds its actions).
Four editions in five are drawn to play long games (a clock of 50 to 150,
more tokens and cards, endings that wait for many turns, fewer stalemates),
the others short ones (docs/testing.md, "Game lengths").

KNOWN_MISCOMPILES (tests/fuzz/known.py) names the shapes the strategy leaves
out because an engine is known to get them wrong; the lead removes an entry
when the fix lands (docs/testing.md, "Known miscompiles"). The drawing
helpers and the CSV tables are in components.py, the statements of actions
and triggers in statements.py, children in children.py.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz import board
from fuzz.components import Generator, quote
from fuzz.expressions import AND, ATOM, COND, E, Expressions, Scope, World, atom
from fuzz.known import CONDITIONAL_CLAIM, KNOWN_MISCOMPILES, PARTIAL_TILE_COLOUR
from fuzz.statements import Statements
from hypothesis import strategies as st

COLOURS = ("red", "blue", "green", "white")
CARD_ZONES = ("bought", "kept", "hand")
TILE_ZONES = ("won", "trophies")
TILE_SETS = ("noble", "place")
ACTIONS = ("take", "buy", "grab", "reserve")
FALLBACKS = ("pass", "rest")
BEFORE = ("prep", "tune")  # actions taken before the main action
DEFINES = ("bonus", "wealth", "power", "ready", "depth")
APPLIED = ("worth", "weigh")  # definitions with parameters
CARD_VALUES = ("marked", "taken", "hits")
MAJORITIES = ("crown", "banner")
STEP_NAMES = ("limit", "award", "check", "cleanup")
TRIGGERS = ("on_enter", "reward")
SPECIALS = ("star", "gem")
WILD = "gold"
CLOCK = "clock"
SHORT_CLOCK = (8, 30)  # the clock's supply: at most this many actions a game
LONG_CLOCK = (50, 150)
LATE = (12, 40)  # in long games, the other endings wait for a player's Nth turn


@dataclass
class DrawnEdition:
    """A drawn edition: its files (relative path -> text) and what bounds
    its games."""

    files: dict[str, str]
    main: str  # the rule file to compile
    clock_supply: int  # the most clock tokens at setup, for any player count
    steps: int  # end-of-turn steps with a decision (each may add an action per turn)
    shapes: tuple[str, ...] = ()  # notable shapes drawn (for statistics)
    long: bool = False  # drawn to play long games (for statistics)

    def write(self, folder: Path) -> Path:
        """Each file written whole (a temporary name, then renamed): test
        processes running side by side may write and read one edition's
        folder at once (tests/fuzz/play.py keys it by the files' text)."""
        for name, text in self.files.items():
            temporary = folder / f".{name}.{os.getpid()}.tmp"
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, folder / name)
        return folder / self.main

    @property
    def several(self) -> bool:
        """Does a rule file take actions before the main one, or grant extra turns?"""
        texts = [t for n, t in self.files.items() if n.endswith(".rules")]
        return any("before the main action" in t or "play another turn" in t for t in texts)

    def max_plies(self, players: int, follow_ups: int = 0) -> int:
        """No game can last longer: (clock supply + 2) rounds of turns, each a
        move and at most one decision per step, each of them followed by the
        edition's `follow_ups` follow-up choices (the sites of its model) at
        most once each. With several actions a turn, each action before the
        main one and each extra turn needs the clock to be running and takes
        a clock token, so add as many of each."""
        turns = (self.clock_supply + 2) * players
        extra = self.clock_supply if self.several else 0
        return ((turns + extra) * (1 + self.steps) + extra) * (1 + follow_ups)

    def show(self) -> str:
        """Every file, rule files first, for a failure report."""
        order = sorted(self.files, key=lambda n: (not n.endswith(".rules"), n != self.main, n))
        return "\n".join(f"--- {n} ---\n{self.files[n].rstrip()}" for n in order)

    def __repr__(self) -> str:
        return f"DrawnEdition(main={self.main!r}):\n{self.show()}"


@dataclass
class Decl:
    """One declaration of a drawn rule file, by its key (for overrides)."""

    key: str
    text: str


# ------------------------------------------------------------------ editions


@dataclass
class Edition:
    """A drawn edition as declarations, with what its games' bound and a
    child edition need to know."""

    name: str
    players: tuple[int, int]
    world: World
    decls: list[Decl] = field(default_factory=list)
    clock: str = CLOCK
    clock_supply: int = 0
    fallback: str | None = None
    steps: dict[str, str] = field(default_factory=dict)  # name -> limit, claim or check
    parent: str | None = None
    tokens: list[str] = field(default_factory=list)  # every non-colour kind, clock too
    timeout_once: bool = False  # the clock's ending needs the `check game end` step
    references: list[str] = field(default_factory=list)  # the files of its own references

    @property
    def end_check(self) -> str | None:
        """The first `check game end` step, if any."""
        return next((n for n, kind in self.steps.items() if kind == "check"), None)

    @property
    def decision_steps(self) -> int:
        return sum(kind != "check" for kind in self.steps.values())

    def text(self, title: str = "Fuzz") -> str:
        extends = f" extends {self.parent}" if self.parent else ""
        body = "\n".join("  " + d.text.replace("\n", "\n  ") for d in self.decls)
        return f"edition {self.name} {quote(title)}{extends} {{\n{body}\n}}\n"

    def add(self, key: str, text: str) -> None:
        self.decls.append(Decl(key, text))


class Editions(Generator):
    """Base editions: every declaration drawn."""

    def drawn(self, edition: Edition) -> DrawnEdition:
        """The drawn edition `edition`, written as fuzz.rules beside the
        files drawn for it."""
        self.files["fuzz.rules"] = edition.text()
        return DrawnEdition(
            self.files,
            "fuzz.rules",
            edition.clock_supply,
            edition.decision_steps,
            tuple(self.shapes),
            self.long_games(),
        )

    def base(self, name: str) -> Edition:
        self.long_games()  # drawn first: the rest is drawn knowing it
        low = self.pick([2, 1, 3])
        players = (low, min(4, low + self.index(3)))
        colours = list(COLOURS[: 1 + self.index(len(COLOURS))])
        wild = WILD if self.flip() else None
        specials = self.subset(SPECIALS)
        world = World(
            colours=colours,
            tokens=[*([wild] if wild else []), *specials, CLOCK],
            card_columns={},
            tile_sets={},
            card_zones=list(CARD_ZONES[: 1 + self.index(len(CARD_ZONES))]),
            tile_zones=list(TILE_ZONES[: self.index(len(TILE_ZONES) + 1)]),
        )
        edition = Edition(name, players, world, tokens=list(world.tokens))
        edition.add("players", f"{self.tag()}players {players[0]}..{players[1]}")
        edition.add("colours", f"{self.tag()}colours {', '.join(colours)}")
        self.token_declarations(edition, wild, specials)
        self.supply(edition)
        if self.flip(4):
            self.seat_setup(edition)
        cards, market, extra = self.cards(colours)
        world.card_columns = cards.types
        self.files["cards.csv"] = cards.csv
        edition.add("cards", self.tag() + cards.declaration)
        if extra is not None:  # a second card table, with its own market
            world.card_columns = {**extra[0].types, **cards.types}
            self.files["extra.csv"] = extra[0].csv
            edition.add("cards extra", self.tag() + extra[0].declaration)
            edition.add("market extra", self.tag() + extra[1])
        for name in self.subset(CARD_VALUES):
            kind = world.card_values[name] = self.pick(["bool", "colour", "int"])
            edition.add(f"card value {name}", f"{self.tag()}card value {name}: {kind}")
        tile_sets = self.subset(TILE_SETS)
        colour = len(tile_sets) < 2 or PARTIAL_TILE_COLOUR not in self.known
        for tile_set in tile_sets:
            if self.flip(4):  # claimed once per player: a claim leaves it in play
                world.shared.append(tile_set)
            table, sided = self.tiles(tile_set, colours, colour, tile_set in world.shared)
            world.tile_sets[tile_set] = table.types
            colours_in = {"colour", "colour?"} & set(table.columns.values())
            if colours_in and len(tile_sets) > 1:
                self.shape(PARTIAL_TILE_COLOUR)  # (both may have one: a superset)
            self.files[f"{tile_set}.csv"] = table.csv
            edition.add(f"tiles {tile_set}", self.tag() + table.declaration)
            count = Expressions(self.draw, world).expr("int", Scope(player=False), 1).text
            face = ", one random face each" if sided else ""
            edition.add(f"reveal {tile_set}", f"{self.tag()}reveal {tile_set}: {count}{face}")
        for zone in world.card_zones:
            edition.add(f"zone {zone}", f"{self.tag()}zone {zone}: cards of each player")
        for zone in world.tile_zones:
            typed = ""
            if tile_sets and self.flip(3):  # the tiles of one set, read by its own columns
                self.shape("zone typed by a tile set")
                world.zone_sets[zone] = self.pick(tile_sets)
                typed = f"{world.zone_sets[zone]} "
            edition.add(f"zone {zone}", f"{self.tag()}zone {zone}: {typed}tiles of each player")
        edition.add("market", self.tag() + market)
        self.policies(edition)
        if self.flip(4):  # a board of cells, its bag and the actions on it
            board.declare(self, edition)
        self.rules(edition)
        if world.board:
            board.actions(self, edition)
        self.references(edition)
        return edition

    def references(self, edition: Edition) -> None:
        """Now and then, the rulebooks the edition answers to, written beside
        it: one claiming the prefix R of its rule ids, or two, R and Q (the
        ids with an odd number move to Q), each listing its ids in bold."""
        count = max(0, self.index(4) - 1)  # none (twice as often), one or two
        if not count:
            return
        prefixes = ["R", "Q"][:count]
        if count == 2:
            self.shape("several references")
            for decl in edition.decls:
                decl.text = _TAGS.sub(_odd_ids_to_q, decl.text)
        ids = [i for d in edition.decls for tags in _TAGS.findall(d.text) for i in _ids(tags)]
        for prefix in reversed(prefixes):
            file = f"{edition.name}_{prefix.lower()}.md"
            mine = [i for i in ids if i.startswith(prefix + "-")]
            self.files[file] = f"# Rulebook {prefix}\n\n" + "".join(
                f"- **{i}** a drawn rule.\n" for i in mine
            )
            edition.decls.insert(0, Decl("reference " + file, f'reference "{file}" ids {prefix}'))
            edition.references.insert(0, file)

    def token_declarations(self, edition: Edition, wild: str | None, specials: list[str]) -> None:
        declared = []
        if wild:
            options = ["wild"]
            if self.flip(4):
                options.append(f"{self.tag()}at most {self.number(1, 3)} per player")
            if self.flip():  # worth more than one in payments, for a player meeting COND
                self.shape("token worth")
                edition.world.worth = True
                condition = Expressions(self.draw, edition.world).expr("bool", Scope(), 1).text
                worth = f"counts as {self.number(2, 3)} in payments where {condition}"
                options.append(self.tag() + worth)
            declared.append((wild, f"token {wild}{self.title()}: {', '.join(options)}"))
        for special in specials:
            options = ["special"]
            if self.flip():
                options.append(f"{self.tag()}never returned")
            if self.flip():
                options.append(f"{self.tag()}at most {self.number(1, 2)} per player")
            declared.append((special, f"token {special}{self.title()}: {', '.join(options)}"))
        clock = self.permuted([f"{self.tag()}never returned", "special"])
        declared.append((CLOCK, f"token {CLOCK}{self.title()}: {', '.join(clock)}"))
        for name, text in self.permuted(declared):
            edition.add(f"token {name}", self.tag() + text)

    def seat_setup(self, edition: Edition, override: str = "") -> None:
        """What players start with, by their place in the turn order (a
        place some game of the edition has; games of fewer players skip it)."""
        world = edition.world
        kinds = [*world.colours, *world.tokens]
        lines = [
            f"player {self.number(1, edition.players[1])} in turn order gains "
            f"{self.number(1, 3)} {self.pick(kinds)}"
            for _ in range(1 + self.index(3))
        ]
        body = "\n".join("  " + line for line in lines)
        edition.add("setup", f"{override}{self.tag()}setup {{\n{body}\n}}")

    def supply(self, edition: Edition, key: str = "supply", override: str = "") -> None:
        """The supply: a line per colour (or for each colour) and per token
        kind. Long games need more of each colour (fewer stalemates) and a
        clock of more than a few turns."""
        lines = []
        colours = (3, 9) if self.long_games() else (0, 7)
        if self.flip(4):
            for colour in edition.world.colours:
                lines.append(f"{colour}: {self.amount(edition.players, *colours)[0]}")
        else:
            lines.append(f"each colour: {self.amount(edition.players, *colours)[0]}")
        clock = LONG_CLOCK if self.long_games() else SHORT_CLOCK
        for token in edition.tokens:
            if token == edition.clock:
                shown, edition.clock_supply = self.amount(edition.players, *clock)
                lines.append(f"{token}: {shown}")
            else:
                lines.append(f"{token}: {self.amount(edition.players, 1, 5)[0]}")
        body = "\n".join("  " + line for line in self.permuted(lines))
        edition.add(key, f"{override}{self.tag()}supply {{\n{body}\n}}")

    def policies(self, edition: Edition) -> None:
        if self.flip():
            edition.add("refill", f"{self.tag()}refill from own deck")
        if self.flip(3):
            edition.add("turn order", "turn order: fixed, first player chosen at setup")
        if self.flip(3):
            edition.add("randomness", f"{self.tag()}randomness: seeded at setup")
        parts = []
        if self.flip(3):
            parts.append("deck order")
        if self.flip(3):
            zone = self.pick(edition.world.card_zones)
            parts.append(f"{zone} cards from a deck except to their owner")
            edition.world.hiding.append(zone)
        if parts:
            edition.add("hidden", f"{self.tag()}hidden: {', '.join(self.permuted(parts))}")

    # ------------------------------------------------------------- rules

    def rules(self, edition: Edition) -> None:
        """Definitions, score, actions, triggers, majorities, steps, endings
        and winners."""
        world = edition.world
        names = list(ACTIONS[: 1 + self.index(len(ACTIONS))])
        edition.fallback = None if self.flip(6) else self.pick(FALLBACKS)
        before = list(BEFORE[: 1 + self.index(2)]) if self.flip(3) else []  # several a turn
        world.actions = names + before + ([edition.fallback] if edition.fallback else [])
        world.majorities = self.subset(MAJORITIES) if world.any_tile_zones() else []
        x = Expressions(self.draw, world)
        x.max_depth = self.number(1, 3)
        self.definitions(edition, x)
        stmts = Statements(self, x, edition.clock)
        stmts.extra_turns = self.flip(3)  # `play another turn` in actions and triggers
        # Without a fallback, the first action is always legal; so it is in
        # three in four long games with one (no stalemate after a few turns:
        # the fallback is then never legal, but its legality is still checked).
        steady = edition.fallback is None or (self.long_games() and not self.flip(4))
        actions = [
            self.action(name, stmts, always_legal=steady and i == 0) for i, name in enumerate(names)
        ]
        if edition.fallback:
            fallback = (
                f"action {edition.fallback}{self.title()}: only when no other action is legal"
            )
            actions.insert(self.index(len(actions) + 1), (f"action {edition.fallback}", fallback))
        for name in before:
            actions.insert(self.index(len(actions) + 1), self.before_action(name, stmts))
        for key, text in actions:
            edition.add(key, self.tag() + text)
        for trigger in self.subset(TRIGGERS):
            edition.add(f"trigger {trigger}", self.tag() + self.trigger(trigger, stmts))
        for majority in world.majorities:
            edition.add(f"majority {majority}", self.tag() + self.majority(majority, x))
        self.steps(edition, x)
        if self.flip(3):
            decisions = self.permuted(["pay", "return", "claim"])[: 1 + self.index(3)]
            edition.add("decisions", f"{self.tag()}decisions by the player: {', '.join(decisions)}")
        self.endings(edition, x)
        edition.add("winners", self.tag() + self.winners(x))

    def definitions(self, edition: Edition, x: Expressions) -> None:
        """Definitions that use each other (acyclic, declared in any order),
        and the score somewhere in their order."""
        names = self.subset(DEFINES)
        types = {}
        for name in names:
            t = self.pick(["int", "vector", "bool", "set:colour", "set:card", "list:int"])
            types[name] = t if t == "vector" or x.makeable(t, Scope()) else "int"
        sequence = list(names)
        sequence.insert(self.index(len(names) + 1), "score")
        x.defines, x.score = {}, False
        self.applied_definitions(edition, x)
        texts = {}
        for item in sequence:
            if item == "score":
                texts[item] = f"score = {x.expr('int', Scope()).text}"
                x.score = True
            else:
                value = x.value(types[item], Scope())
                if types[item] == "vector" and self.flip():
                    value = x.aggregate("vector", Scope()) or value
                texts[item] = f"define {item} = {value.text}"
                x.defines[item] = types[item]
        edition.world.defines = dict(types)
        for item in self.permuted(sequence):
            edition.add(item if item == "score" else f"define {item}", self.tag() + texts[item])

    def applied_definitions(self, edition: Edition, x: Expressions) -> None:
        """Definitions with parameters, drawn first: each reads its
        parameters but no definition, so any later one may use it."""
        for name in self.subset(APPLIED):
            scope = Scope()
            parameters = []
            sets = [f"tile:{t}" for t in edition.world.tile_sets]
            # (now and then, first a tile of one set: a claim's condition may read it)
            typed = bool(sets) and self.flip(3)
            for i in range(1 + self.index(2)):
                parameter = x.fresh(scope)
                kinds = sets if typed and i == 0 else ["card", "int", "colour", "bool", *sets]
                kind = self.pick(kinds)
                if kind.startswith("tile:"):  # a tile of one set, read by its own columns
                    self.shape("parameter typed by a tile set")
                parameters.append((parameter, kind))
                scope = scope.bind(parameter, kind)
            value = self.pick(["int", "bool", "colour"])
            body = x.value(value, scope).text
            written = ", ".join(f"{p}: {kind.removeprefix('tile:')}" for p, kind in parameters)
            edition.add(f"define {name}", f"{self.tag()}define {name}({written}) = {body}")
            x.applied[name] = (tuple(parameters), value)
        edition.world.applied = dict(x.applied)

    def action(self, name: str, stmts: Statements, always_legal: bool) -> tuple[str, str]:
        body = stmts.action(always_legal)
        return f"action {name}", block(f"action {name}{self.title()}", body)

    def before_action(self, name: str, stmts: Statements) -> tuple[str, str]:
        """An action taken before the main action, once or any number of times."""
        times = self.pick(["once", "any number of times"])
        header = f"action {name}{self.title()}: before the main action, {times}"
        return f"action {name}", block(header, stmts.before_action())

    def trigger(self, name: str, stmts: Statements) -> str:
        card = stmts.x.fresh(Scope())
        stmts.start_trigger()
        zone = self.pick(stmts.x.world.card_zones)
        body = stmts.block(Scope().bind(card, "card"), 1, trigger=True)
        return block(f"trigger {name}: after card {card} enters {zone}", body)

    def majority(self, name: str, x: Expressions) -> str:
        world = x.world
        lines = [
            f"points {self.number(0, 3)}",
            f"kept in {self.pick(world.any_tile_zones())}",
            f"measure {x.expr('int', Scope()).text}",
            f"threshold {self.number(0, 4)}",
            f"contested after a card enters {self.pick(world.card_zones)}",
        ]
        if self.flip():
            lines.append("ties keep the holder")
        return block(f"majority tile {name}{self.title()}", self.permuted(lines))

    def steps(self, edition: Edition, x: Expressions) -> None:
        taken = set(edition.world.actions)
        for name in STEP_NAMES[: self.index(4)]:
            if name not in taken:
                edition.add(f"step {name}", self.tag() + self.step(edition, x, name))

    def step(self, edition: Edition, x: Expressions, name: str) -> str:
        """A step of a drawn kind, recorded in edition.steps; now and then
        placed before or after a step already there (an override's moves)."""
        world = edition.world
        kinds = ["limit", "check"]
        claims = [(t, world.zones_taking(f"tile:{t}")) for t in world.tile_sets]
        claims = [(t, zones) for t, zones in claims if zones]
        if claims:
            kinds.append("claim")
        kind = self.pick(kinds)
        others = [n for n in edition.steps if n != name]
        if others and self.flip(3):
            name = f"{name} {self.pick(['before', 'after'])} {self.pick(others)}"
        edition.steps[name.split()[0]] = kind
        if kind == "limit":
            limit = f"return tokens above {self.number(1, 10)}{board.into_bag(self, world)}"
            return f"step {name}: {limit}{self.counting(world)}"
        if kind == "check":
            return f"step {name}: check game end"
        tiles, zones = self.pick(claims)
        variable = x.fresh(Scope())
        condition = x.expr(
            "bool",
            Scope().bind(variable, f"tile:{tiles}"),
            top_conditional=CONDITIONAL_CLAIM not in self.known,
        )
        if condition.shape == COND:
            self.shape(CONDITIONAL_CLAIM)
        typed = self.typed_condition(x, tiles, variable)
        if typed is not None and self.flip(2):
            condition = typed
        zone = self.pick(zones)
        others = [z for z in zones if z != zone]
        from_zone = others and tiles not in world.shared  # (a shared set: from play only)
        source = f" from {self.pick(others)}" if from_zone and self.flip(3) else ""
        into = f"{variable}{source} into {zone}"
        return f"step {name}: claim one {tiles} {into} where {condition.text}"

    def typed_condition(self, x: Expressions, tiles: str, variable: str) -> E | None:
        """A claim's condition read by a definition whose parameter is a tile
        of the claimed set: `reached(t)`, the set's own columns read once."""
        scope = Scope().bind(variable, f"tile:{tiles}")
        found = [
            (name, parameters)
            for name, (parameters, value) in x.applied.items()
            if value == "bool"
            and any(p == f"tile:{tiles}" for _, p in parameters)
            and all(x.makeable(p, scope) for _, p in parameters)
        ]
        if not found:
            return None
        name, parameters = self.pick(found)
        arguments = [
            variable if p == f"tile:{tiles}" else x.value(p, scope).text for _, p in parameters
        ]
        return E(f"{name}({', '.join(arguments)})", ATOM)

    def counting(self, world: World) -> str:
        """Now and then, the kinds a token limit counts, or those it does not
        (never all of them: it would count none)."""
        kinds = [*world.colours, *world.tokens]
        if not self.flip(3):
            return ""
        if self.flip(2) and len(kinds) > 1:
            return ", not counting " + ", ".join(self.subset(kinds, len(kinds) - 1) or kinds[:1])
        return ", counting " + ", ".join(self.subset(kinds) or kinds[-1:])

    def endings(self, edition: Edition, x: Expressions) -> None:
        """The clock's ending, the stalemate (with a fallback) and others."""
        endings = [self.timeout(edition, x)]
        if edition.fallback:
            stalemate = self.pick(["all(player: did(F))", "not any(player: not did(F))"])
            endings.append(("stalemate", False, stalemate.replace("F", edition.fallback)))
        for name in ("target", "finish")[: self.index(3)]:
            endings.append((name, self.ending_mode(), self.end_condition(x, edition.clock)))
        for name, once, condition in self.permuted(endings):
            edition.add(f"end {name}", self.tag() + ending(name, once, condition))

    def timeout(self, edition: Edition, x: Expressions) -> tuple[str, bool, str]:
        """The ending that fires once the clock's supply is empty (`once`
        only with a step that checks the end)."""
        clock = self.pick(["supply(C) == 0", "supply(C) < 1", "not supply(C) > 0"])
        clock = clock.replace("C", edition.clock)
        if self.flip(8):
            extra = x.expr("bool", Scope(player=False), 1)
            clock += f" or {self.late(extra, edition.clock, AND)}"
        edition.timeout_once = edition.end_check is not None and self.flip()
        return "timeout", edition.timeout_once, clock

    def ending_mode(self) -> bool | str:
        """After the round once (True), after a round that ends with (False),
        or at the end of the turn once ("turn")."""
        mode: bool | str = self.pick([False, True, "turn"])
        return mode

    def end_condition(self, x: Expressions, clock: str) -> str:
        if self.flip():
            return self.late(x.expr("bool", Scope(player=False)), clock)
        # a score to reach, the way real editions end
        reached = f"{x.expr('int', Scope(), 1).at(ATOM)} >= {self.number(3, 15)}"
        return self.late(atom(f"{self.pick(['any', 'all'])}(player: {reached})"), clock)

    def late(self, condition: E, clock: str, level: int = COND) -> str:
        """An ending's condition; in a long game, holding only once a player
        has taken some turns (each gains a clock token), the way a score
        target is reached only after many turns. The drawn condition comes
        first, so that it is evaluated at every check all the same. `level`:
        the precedence the place of the text needs."""
        if not self.long_games():
            return condition.text if level == COND else condition.at(level)
        turns = f"any(player: tokens({clock}) >= {self.number(*LATE)})"
        return f"{condition.at(AND)} and {turns}"

    def winners(self, x: Expressions) -> str:
        among = f" among {x.expr('bool', Scope()).text}" if self.flip(3) else ""
        keys = []
        for _ in range(1 + self.index(3)):
            order = self.pick(["highest", "lowest"])
            keys.append(f"{order} {x.expr(self.pick(['int', 'bool']), Scope()).text}")
        return f"winners{among}: {', then '.join(keys)}, ties share"


# A group of rule ids in square brackets (an index such as `[c]` matches too:
# it holds no rule id).
_TAGS = re.compile(r"\[([^\[\]]*)\]")


def _ids(tags: str) -> list[str]:
    return [i for i in (part.strip() for part in tags.split(",")) if re.match(r"[RQ]-\d", i)]


def _odd_ids_to_q(found: re.Match[str]) -> str:
    """Tags with their odd-numbered R ids under the prefix Q (R-3.1 -> Q-3.1)."""
    parts = []
    for part in found.group(1).split(","):
        number = re.match(r"\s*(?:see\s+)?R-(\d+)", part)
        parts.append(part.replace("R-", "Q-", 1) if number and int(number.group(1)) % 2 else part)
    return "[" + ",".join(parts) + "]"


def ending(name: str, once: bool | str, condition: str) -> str:
    """`once`: True, False, or "turn" (at the end of the turn once)."""
    if once == "turn":
        return f"end {name}: at the end of the turn once {condition}"
    mode = "after the round once" if once else "after a round that ends with"
    return f"end {name}: {mode} {condition}"


def block(header: str, lines: list[str]) -> str:
    """A declaration with a block of statements or lines."""
    if not lines:
        return header + " {}"
    body = "\n".join("  " + line.replace("\n", "\n  ") for line in lines)
    return f"{header} {{\n{body}\n}}"


@st.composite
def base_editions(
    draw: Any, known: frozenset[str] = KNOWN_MISCOMPILES, shrink_to_short: bool = False
) -> DrawnEdition:
    """A standalone drawn edition; `shrink_to_short`: Hypothesis shrinks it
    to a short one first (whose games, replayed while shrinking, are short),
    at the cost of drawing more short ones (Generator.long_games)."""
    gen = Editions(draw, known)
    gen.short_draw = 0 if shrink_to_short else 1
    edition = gen.base("fuzz")
    return gen.drawn(edition)
