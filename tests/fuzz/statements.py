"""The statements of drawn actions and triggers: lets, choices, requirements,
payments and effects in the order the checker requires, half of the actions
starting from the shape of a real edition's action."""

from __future__ import annotations

import re
from collections.abc import Callable

from fuzz import board
from fuzz.components import Generator, quote
from fuzz.expressions import AND, ATOM, COND, NOT, OR, E, Expressions, Scope
from fuzz.known import (
    CONDITIONAL_SOURCE,
    DISCOUNT_FROM_LET,
    EMPTY_BLOCK,
    HIDDEN_MOVED_AGAIN,
    PAY_ONE_COLOUR,
    REQUIRE_LOGIC,
    SIBLING_LET,
)

# ------------------------------------------------------------------ actions


class Statements:
    """Draws the statements of actions and triggers for one edition."""

    def __init__(self, gen: Generator, x: Expressions, clock: str) -> None:
        self.gen = gen
        self.x = x
        self.clock = clock
        self.lets: set[str] = set()  # the names an action's lets bind
        self.block_lets: set[str] = set()  # those of the lets in its blocks
        self.fresh_cards: set[str] = set()  # cards chosen from the market or deck tops only
        self.moved: set[str] = set()  # the cards an action has moved
        self.boxed: set[str] = set()  # the cards it returns to the box (never moved)
        self.hid = False  # has it moved a card into a zone that hides it
        self.follow_names: set[str] = set()  # its follow-up choices' (one move name each)
        self.extra_turns = False  # draw `play another turn` now and then

    def start_trigger(self) -> None:
        """Forget what the last action or trigger bound."""
        self.block_lets, self.fresh_cards, self.moved, self.hid = set(), set(), set(), False
        self.follow_names = set()

    def require_condition(self, scope: Scope) -> E:
        top = REQUIRE_LOGIC not in self.gen.known
        condition = self.x.expr("bool", scope, top_logic=top)
        if not top and _colour_quantifier(condition.text):
            condition = E(f"not not {condition.at(ATOM)}", NOT)
        if condition.shape in (COND, OR, AND):
            self.gen.shape(REQUIRE_LOGIC)
        return condition

    def message(self, scope: Scope) -> str:
        parts = [self.gen.pick(["not allowed", "needs more", "no: "])]
        for _ in range(self.gen.index(3)):
            t = self.gen.pick(["int", "colour", "bool", "set:colour", "set:card", "vector"])
            if self.x.makeable(t, scope, 1):
                parts.append("{" + self.x.expr(t, scope, 1).text + "}")
                parts.append(self.gen.pick([" ", " left", ""]))
        return quote("".join(parts))

    def choice(self, scope: Scope, distinct: bool) -> tuple[str, Scope]:
        """`choose x from S, ...` or `choose x: N distinct from S`."""
        g, x = self.gen, self.x
        element_type = g.pick(self.elements(scope))
        name = x.fresh(scope)
        if element_type == "player":
            return self.player_choice(name, scope, distinct)
        if distinct:
            source = x.value(f"set:{element_type}", scope)
            count = g.pick(["1", "2", "min(2, count(SET))", "EXPR", "0", "3"])
            if count == "EXPR":
                count = x.expr("int", scope, 1).text
            count = count.replace("SET", source.text if source.level >= ATOM else "colours")
            if "colours" in count and element_type != "colour":
                count = "1"
            return f"choose {name}: {count} distinct from {source.text}", scope.bind(
                name, f"set:{element_type}"
            )
        sources = [self.source(element_type, scope)]
        for _ in range(g.index(3)):
            more = self.source(element_type, scope)
            if more not in sources:
                sources.append(more)
        if all(source in ("market", "deck tops") for source in sources):
            self.fresh_cards.add(name)
        return f"choose {name} from {', '.join(sources)}", scope.bind(name, element_type)

    def player_choice(self, name: str, scope: Scope, distinct: bool) -> tuple[str, Scope]:
        """`choose p from other players [where …]` (the move holds a seat),
        or `choose ps: N distinct from other players`; transfers read the
        player chosen (docs/language.md, "A move that chooses a player")."""
        g, x = self.gen, self.x
        source = "other players"
        if g.flip(2):
            each, kind = x.fresh(scope.bind(name, "player")), g.pick(x.world.colours)
            test = g.pick([f"tokens({kind}) of {each} > 0", f"{each} != next player"])
            source = f"{each} in other players where {test}"
        if distinct:
            return f"choose {name}: {g.pick(['1', '2'])} distinct from {source}", scope.bind(
                name, "set:player"
            )
        return f"choose {name} from {source}", scope.bind(name, "player")

    def elements(self, scope: Scope) -> list[str]:
        w = self.x.world
        found = ["colour", "card", "player"]
        found += [f"tile:{t}" for t in w.tile_sets]
        if w.any_tile_zones():
            found.append("tile:*")
        return found

    def source(self, element_type: str, scope: Scope) -> str:
        g, x = self.gen, self.x
        if element_type == "card" and g.flip(3):
            return "deck tops"
        if element_type == "card" and g.flip(2):
            return g.pick(["market", *x.world.card_zones])
        top = CONDITIONAL_SOURCE not in g.known
        source = x.value(f"set:{element_type}", scope, top_logic=top)
        if source.shape == COND:
            g.shape(CONDITIONAL_SOURCE)
        return source.text

    def action(self, always_legal: bool) -> list[str]:
        """An action's statements: lets, choices and requirements, then a
        payment, then effects (one of them the clock's gain). Half of them
        start from a template of a real edition's action (taking tokens,
        reserving, buying, collecting a special token), varied at random."""
        g, x = self.gen, self.x
        scope = Scope(player=True)
        self.lets, self.block_lets = set(), set()
        self.fresh_cards, self.moved, self.hid, self.boxed = set(), set(), False, set()
        self.follow_names = set()
        template = None if always_legal else g.pick([None, *TEMPLATES])
        lines, paid, effects, scope = self.template(template, scope)
        returned = None
        if not always_legal and x.world.card_zones and g.flip(4):
            line, returned, scope = self.box_return(scope)
            lines.append(g.tag(6) + line)
        for _ in range(g.index(3 if template else 5)):
            kind = g.pick(["let", "require", "choose", "distinct"])
            if always_legal and kind in ("require", "distinct"):
                continue
            if kind == "let":
                line, scope = self.let(scope)
            elif kind == "require":
                condition = self.require_condition(scope)
                line = f"require {condition.text} else {self.message(scope)}"
                stated = [i for earlier in lines for i in _stated_ids(earlier)]
                if not stated and lines and not lines[0].startswith("[") and g.flip(3):
                    lines[0] = g.tag(1) + lines[0]  # a rule stated there, to cite
                    stated = _stated_ids(lines[0])
                if stated and g.flip(2):  # cite a rule an earlier statement states
                    lines.append(f"[see {g.pick(stated)}] {line}")
                    continue
            elif always_legal:
                line, scope = f"choose {x.fresh(scope)} from colours", scope
                scope = scope.bind(line.split()[1], "colour")
            else:
                line, scope = self.choice(scope, kind == "distinct")
            lines.append(g.tag(6) + line)
        if not always_legal and paid is None and g.flip(3):
            paid, scope = self.payment(scope, lines)
        if paid is not None:
            lines.append(g.tag(6) + paid + self.wild_cards(scope) + board.into_bag(g, x.world))
        effects += self.effects(scope, 2, top=True)
        if returned is not None:
            effects.insert(g.index(len(effects) + 1), returned)
        clock = f"gain 1 {self.clock}"
        if g.flip(4):
            clock = f"gain max(1, min(2, {x.expr('int', scope, 1).text})) {self.clock}"
        effects.insert(g.index(len(effects) + 1), clock)
        return lines + effects

    def before_action(self) -> list[str]:
        """The statements of an action taken before the main one: choices,
        requirements, maybe a payment, then effects that move no card and
        wait for no choice, one of them the clock's gain. It needs the clock
        running, so a turn takes finitely many (docs/testing.md)."""
        g = self.gen
        scope = Scope(player=True)
        self.lets, self.block_lets = set(), set()
        self.fresh_cards, self.moved, self.hid, self.boxed = set(), set(), False, set()
        self.follow_names = set()
        lines = [f'require supply({self.clock}) > 0 else "the clock has stopped"']
        for _ in range(g.index(3)):
            kind = g.pick(["let", "require", "choose", "distinct"])
            if kind == "let":
                line, scope = self.let(scope)
            elif kind == "require":
                condition = self.require_condition(scope)
                line = f"require {condition.text} else {self.message(scope)}"
            else:
                line, scope = self.choice(scope, kind == "distinct")
            lines.append(g.tag(6) + line)
        if g.flip(3):
            paid, scope = self.payment(scope, lines)
            if paid is not None:
                lines.append(g.tag(6) + paid)
        effects = self.effects(scope, 2, top=True, before=True)
        effects.insert(g.index(len(effects) + 1), f"gain 1 {self.clock}")
        return lines + effects

    def template(
        self, name: str | None, scope: Scope
    ) -> tuple[list[str], str | None, list[str], Scope]:
        """A real action's shape: (choices and requirements, payment,
        effects, the scope after them)."""
        g, x, w = self.gen, self.x, self.x.world
        specials = [t for t in w.tokens if t != self.clock]
        vectors = [c for c, kind in w.card_columns.items() if kind == "vector"]
        if name == "take distinct":
            colour, open_, picks = _names(x, scope, 3)
            scope = scope.bind(open_, "set:colour").bind(picks, "set:colour")
            self.lets.add(open_)
            return (
                [
                    f"let {open_} = {colour} in colours where supply({colour}) > 0",
                    f'require count({open_}) > 0 else "no colour left"',
                    f"choose {picks}: min({g.number(1, 3)}, count({open_})) distinct from {open_}",
                ],
                None,
                [f"gain 1 each of {picks}"],
                scope,
            )
        if name == "reserve" or (name == "collect" and not specials):
            zone, card = g.pick(w.card_zones), x.fresh(scope)
            effects = [f"move {card} to {zone}"]
            self.fresh_cards.add(card)
            self.moved.add(card)
            self.hid = zone in w.hiding
            if specials:
                kind = g.pick(specials)
                effects.append(f"if supply({kind}) > 0 {{\n  gain 1 {kind}\n}}")
            return (
                [
                    f'require count({zone}) < {g.number(1, 3)} else "at most {{count({zone})}}"',
                    f"choose {card} from market, deck tops",
                ],
                None,
                effects,
                scope.bind(card, "card"),
            )
        one_colour = len(w.colours) == 1
        if name == "buy" and vectors and not (one_colour and PAY_ONE_COLOUR in g.known):
            if one_colour:
                g.shape(PAY_ONE_COLOUR)
            card = x.fresh(scope)
            zone = w.card_zones[0]
            sources = ", ".join(["market", *w.card_zones[1:2]])
            scope = scope.bind(card, "card")
            discounts = [d for d, t in w.defines.items() if t == "vector"]
            discount = g.pick(discounts) if discounts else f"{card}.{g.pick(vectors)}"
            paid = f"pay {card}.{g.pick(vectors)} less {discount}"
            self.moved.add(card)
            self.hid = zone in w.hiding
            if sources == "market":
                self.fresh_cards.add(card)
            chosen = [f"choose {card} from {sources}"]
            tiers = [c for c in ("tier", "level") if w.card_columns.get(c) == "int"]
            if tiers and g.flip(3):  # decided by the data: some decks ruled out (native slots)
                tier = tiers[0]
                chosen.append(f'require {card}.{tier} >= {g.number(2, 5)} else "a low {tier}"')
            colours = [c for c, kind in w.card_columns.items() if kind in ("colour", "colour?")]
            if colours and g.flip(3):  # a count of a keyed filter (native: read from a tally)
                mine = x.fresh(scope)
                scope = scope.bind(mine, "set:card")
                each, key, wanted = x.fresh(scope), g.pick(colours), g.pick(colours)
                matching = f"{each} in {zone} where {each}.{key} == {card}.{wanted}"
                chosen.append(f"let {mine} = {matching}")
                chosen.append(f'require count({mine}) >= {g.number(0, 2)} else "too few"')
            return chosen, paid, [f"move {card} to {zone}"], scope
        if name == "collect":
            kind = g.pick(specials)
            return (
                [
                    f'require tokens({kind}) < {g.number(1, 3)} else "enough {kind}"',
                ],
                None,
                [f"gain 1 {kind}"],
                scope,
            )
        if name is None:
            return [], None, [], scope
        colour = x.fresh(scope)  # take two
        return (
            [
                f"choose {colour} from colours",
                f'require supply({colour}) >= {g.number(2, 4)} else "only {{supply({colour})}}"',
            ],
            None,
            [f"gain 2 {colour}"],
            scope.bind(colour, "colour"),
        )

    def wild_cards(self, scope: Scope) -> str:
        """Now and then, the cards a payment may spend:
        `, using x in ZONE where COND as N wild each`."""
        g, x = self.gen, self.x
        if not x.world.card_zones or x.world.worth or not g.flip(3):
            return ""
        card = x.fresh(scope)
        condition = x.expr("bool", scope.bind(card, "card"), 1).text
        zone = g.pick(x.world.card_zones)
        return f", using {card} in {zone} where {condition} as {g.pick(['1', '2'])} wild each"

    def box_return(self, scope: Scope) -> tuple[str, str, Scope]:
        """A choice of the player's own cards (a card of a zone, or distinct
        cards of a zone, filtered or not) and `return x to the box`."""
        g, x = self.gen, self.x
        zone = g.pick(x.world.card_zones)
        name = x.fresh(scope)
        self.boxed.add(name)
        returned = f"return {name} to the box"
        if g.flip():
            return f"choose {name} from {zone}", returned, scope.bind(name, "card")
        source = zone
        if g.flip():
            card = x.fresh(scope.bind(name, "set:card"))
            condition = x.expr("bool", scope.bind(card, "card"), 1).text
            source = f"{card} in {zone} where {condition}"
        count = g.pick(["1", "2", f"min(2, count({zone}))"])
        line = f"choose {name}: {count} distinct from {source}"
        return line, returned, scope.bind(name, "set:card")

    def let(self, scope: Scope, reuse: set[str] | None = None) -> tuple[str, Scope]:
        """`let x = VALUE`; `reuse`: names that, if free here, it may take
        again (those of the lets of other blocks)."""
        g, x = self.gen, self.x
        types = ["int", "bool", "colour", "set:colour", "set:card", "vector", "token"]
        types += [t for t in ("card", "list:int") if x.makeable(t, scope)]
        t = g.pick(types)
        name = x.fresh(scope)
        again = sorted((reuse or set()) - scope.bound())
        if again and g.flip():
            name = g.pick(again)
        self.lets.add(name)
        return f"let {name} = {x.value(t, scope).text}", scope.bind(name, t)

    def payment(self, scope: Scope, lines: list[str]) -> tuple[str | None, Scope]:
        """`pay COST less DISCOUNT`, with lets for vectors when none is at
        hand (and the scope after them); no payment when it would be a
        known miscompile. The lets come first, so that the expressions,
        drawn after them, bind no name they bind."""
        g, x = self.gen, self.x
        if len(x.world.colours) == 1:
            if PAY_ONE_COLOUR in g.known:
                return None, scope
            g.shape(PAY_ONE_COLOUR)
        cost = None
        if not x.makeable("vector", scope) or g.flip(4):
            cost, scope = self.vector_let(scope, lines)
        plain = scope
        if DISCOUNT_FROM_LET in g.known:
            plain = scope.hide(self.lets)
        discount = None
        if not x.makeable("vector", plain) or g.flip(4):
            if plain is not scope:
                return None, scope
            discount, scope = self.vector_let(scope, lines)
        cost = cost or x.expr("vector", scope).text
        discount = discount or x.expr("vector", plain).text
        if any(re.search(rf"\b{name}\b", discount) for name in self.lets):
            g.shape(DISCOUNT_FROM_LET)
        return f"pay {cost} less {discount}", scope

    def vector_let(self, scope: Scope, lines: list[str]) -> tuple[str, Scope]:
        name = self.x.fresh(scope)
        lines.append(f"let {name} = {self.x.per_colour(scope, 1).text}")
        self.lets.add(name)
        return name, scope.bind(name, "vector")

    def transfer(self, scope: Scope) -> str:
        """Tokens moved between the players and the supply."""
        g, x = self.gen, self.x
        kind = g.pick([*x.world.colours, *scope.of("colour")])
        return _transfer_text(g.pick, kind, g.pick(["1", "2"]), tuple(scope.of("player")))

    def block(
        self, scope: Scope, depth: int, trigger: bool = False, before: bool = False
    ) -> list[str]:
        """The effects of an `if` or a trigger (never empty while empty
        blocks are a known miscompile)."""
        lines = self.effects(scope, depth, trigger=trigger, before=before)
        if not lines and EMPTY_BLOCK in self.gen.known:
            lines = [f"gain 0 {self.gen.pick(self.x.world.colours)}"]
        elif not lines:
            self.gen.shape(EMPTY_BLOCK)
        return lines

    def effects(
        self,
        scope: Scope,
        depth: int,
        top: bool = False,
        trigger: bool = False,
        before: bool = False,
    ) -> list[str]:
        """Gains, gains of each, moves, ifs and (but at an action's top
        level, where lets and choices come before the effects) lets and
        follow-up choices. A trigger moves only cards chosen from the market
        or deck tops (moves of cards from zones could go round forever). An
        action before the main one (`before`) moves nothing and waits for no
        choice. With extra turns, now and then `play another turn`, while the
        clock runs (each extra turn then takes a clock token: games end)."""
        g, x = self.gen, self.x
        lines: list[str] = []
        if self.extra_turns and g.flip(4):
            lines.append(f"if supply({self.clock}) > 0 {{\n  play another turn\n}}")
        for _ in range(g.index(4)):
            kinds = ["gain", "gain each", "move", "if", "let", "choose", "set", "move tile"]
            kind = g.pick([*kinds, "transfer"])
            if before and kind in ("move", "choose", "move tile"):
                continue
            movable = scope.of("card")
            if trigger:
                movable = [c for c in movable if c in self.fresh_cards]
            tiles = [n for n, type_ in scope.names if type_.startswith("tile:")]
            if kind == "gain":
                others = [t for t in x.world.tokens if t != self.clock or g.flip(8)]
                colours = [*x.world.colours, *scope.of("colour"), *scope.of("token")]
                # (the clock only now and then: it shortens the game)
                tokens = g.pick([others, colours]) if others else colours
                amount = g.pick(["1", "2", "EXPR"])
                if amount == "EXPR":
                    amount = x.expr("int", scope, 1).text
                lines.append(f"gain {amount} {g.pick(tokens)}")
            elif kind == "transfer":
                lines.append(self.transfer(scope))
            elif kind == "gain each":
                amount = x.expr("int", scope, 1).text
                lines.append(f"gain {amount} each of {x.expr('set:colour', scope, 1).text}")
            elif kind == "move" and [c for c in movable if c not in self.boxed]:
                card = g.pick([c for c in movable if c not in self.boxed])
                zones = x.world.card_zones
                # (two choices may be one card: one move into hiding per action)
                again = trigger or card in self.moved or card not in self.fresh_cards
                again = again or self.hid
                if again and HIDDEN_MOVED_AGAIN in g.known:
                    zones = [z for z in zones if z not in x.world.hiding]
                if not zones:
                    continue
                zone = g.pick(zones)
                if again and zone in x.world.hiding:
                    g.shape(HIDDEN_MOVED_AGAIN)
                self.moved.add(card)
                self.hid = self.hid or zone in x.world.hiding
                lines.append(f"move {card} to {zone}")
            elif kind == "choose" and not top:
                line, scope = self.choice(scope.avoid(self.follow_names), g.flip(4))
                self.follow_names.add(line.split()[1].rstrip(":"))
                if ":" not in line.split()[1] and g.flip(3):
                    line = "may " + line  # a follow-up the player may decline
                lines.append(line)
            elif kind == "move tile" and not trigger and tiles and x.world.tile_zones:
                if x.world.shared:  # a tile claimed once per player is never moved
                    continue
                tile = g.pick(tiles)
                # (a zone typed by a set takes that set's tiles only)
                zones = x.world.zones_taking(dict(scope.names)[tile])
                if zones:
                    lines.append(f"move {tile} to {g.pick(zones)}")
            elif kind == "if" and depth > 0:
                condition = x.expr("bool", scope)
                inner = self.block(scope, depth - 1, trigger=trigger, before=before)
                body = "\n".join("  " + line for line in inner)
                lines.append(
                    f"if {condition.text} {{\n{body}\n}}" if inner else f"if {condition.text} {{}}"
                )
            elif kind == "set" and scope.of("card") and x.world.card_values:
                name = g.pick(list(x.world.card_values))
                value = x.expr(x.world.card_values[name], scope, 1).text
                lines.append(f"set {g.pick(scope.of('card'))}.{name} = {value}")
            elif kind == "let" and not top:
                if SIBLING_LET in g.known:
                    scope = scope.avoid(self.block_lets)
                line, scope = self.let(scope, reuse=self.block_lets)
                if line.split()[1] in self.block_lets:
                    g.shape(SIBLING_LET)
                self.block_lets.add(line.split()[1])
                lines.append(line)
        return lines


# The rule ids a line's tags state (a citation, `see R-1`, states none).
_TAGS_AT_START = re.compile(r"\[([^\[\]]*)\] ")


def _stated_ids(line: str) -> list[str]:
    tags = _TAGS_AT_START.match(line)
    parts = (part.strip() for part in tags.group(1).split(",")) if tags else ()
    return [part for part in parts if re.fullmatch(r"[RQ]-[\d.a-z]+", part)]


TEMPLATES = ("take distinct", "take two", "reserve", "buy", "collect")


HOLDERS = ("next player", "previous player", "the supply", "you")


def _transfer_text(
    draw: Callable[[list[str]], str], kind: str, amount: str, chosen: tuple[str, ...] = ()
) -> str:
    """`take`/`give` between two different holders (docs/language.md,
    "Players as values"); `chosen`: the players the move chose (never you)."""
    form = draw(["take", "give", "give from"])
    if form == "take":
        return f"take {amount} {kind} from {draw([*HOLDERS[:3], *chosen])}"
    if form == "give":
        return f"give {amount} {kind} to {draw([*HOLDERS[:3], *chosen])}"
    source = draw([*HOLDERS, *chosen])
    players = [h for h in (*HOLDERS, *chosen) if h != source and "the supply" not in (h, source)]
    target = draw(players or ["you"])
    return f"give {amount} {kind} from {source} to {target}"


def _names(x: Expressions, scope: Scope, n: int) -> list[str]:
    """n fresh local names."""
    names: list[str] = []
    for _ in range(n):
        names.append(x.fresh(scope))
        scope = scope.bind(names[-1], "int")
    return names


def _colour_quantifier(text: str) -> bool:
    """Is the text an all/any over `colours` (emitted as an and/or chain)?"""
    return bool(re.fullmatch(r"(all|any)\(\w+ in colours: .*\)", text, re.S))
