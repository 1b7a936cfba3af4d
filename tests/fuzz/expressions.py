"""Typed random expressions of the rule language, as rule-file text.

The rule-file generator (tests/fuzz/rule_files.py) asks for an expression of
a type in a scope (the local names bound there, and whether a player is in
context) and gets text that the checker accepts with that type. Every
construct of docs/language.md "Expressions" can be drawn, at every nesting
depth: literals, names, arithmetic (with `/` and `%` by a divisor the
checker proves at least 1), comparisons, `and`/`or`/`not`, `A if C
else B`, attributes, indexes, the built-in functions, quantifiers over sets
(with or without `where`) and over the players, sums over sets (`sum(x in S
where C: N)`), filters and `per colour` at value positions. A product's
right side is a small literal, so that no drawn number may pass 64 bits (the
checker refuses one that may: docs/engine.md, "Limits").

Text is built with the fewest parentheses the grammar needs (plus, now and
then, some it does not), so that a drawn requirement can be `A and B` or `X if
C else Y` at its top level: the shapes a back end has to parenthesise itself.
Draws are ordered simplest first, so Hypothesis shrinks an expression towards
a literal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fuzz.components import ONE_OF, quote

# Precedence levels of the grammar (dsl/grammar.lark), loosest first. An
# expression at level L may stand where level L or looser is allowed.
COND, OR, AND, NOT, CMP, SUM, PRODUCT, UNARY, ATOM = range(9)
VALUE = -1  # a filter or `per colour`: only at value positions

Draw = Callable[..., Any]


@dataclass(frozen=True)
class E:
    """Expression text and its precedence level."""

    text: str
    level: int
    core: int | None = None  # the level inside parentheses the grammar does not need

    @property
    def shape(self) -> int:
        """The level of the expression itself, extra parentheses aside."""
        return self.level if self.core is None else self.core

    def at(self, level: int) -> str:
        """The text, parenthesised if it is looser than `level`."""
        if self.level == VALUE:
            raise AssertionError(f"a value cannot be parenthesised: {self.text}")
        return self.text if self.level >= level else f"({self.text})"


def atom(text: str) -> E:
    return E(text, ATOM)


_STRING_OR_COMMENT = re.compile(r'"([^"\\\n]|\\.)*"|#[^\n]*')


def divides(files: dict[str, str]) -> bool:
    """Does a rule file of a drawn edition divide (`/` or `%`, written with
    a space each side as `arithmetic` draws them; strings and comments aside)?"""
    codes = [_STRING_OR_COMMENT.sub("", t) for n, t in files.items() if n.endswith(".rules")]
    return any(" / " in code or " % " in code for code in codes)


# ---------------------------------------------------------------- types
# Types are strings: int, bool, text, colour, token, card, vector,
# tile:SET (a tile of one set), tile:* (any tile), set:ELEMENT, list:ELEMENT.


def element(t: str) -> str:
    return t.split(":", 1)[1]


def is_collection(t: str) -> bool:
    return t.startswith(("set:", "list:"))


@dataclass
class World:
    """The names an edition declares, with their types: what an expression
    may refer to."""

    colours: list[str]
    tokens: list[str]  # the token kinds that are not colours
    card_columns: dict[str, str]  # column -> int, bool, text, colour, vector
    tile_sets: dict[str, dict[str, str]]
    card_zones: list[str]
    tile_zones: list[str]
    defines: dict[str, str] = field(default_factory=dict)  # name -> type
    actions: list[str] = field(default_factory=list)
    majorities: list[str] = field(default_factory=list)
    hiding: list[str] = field(default_factory=list)  # zones that hide cards from a deck
    card_values: dict[str, str] = field(default_factory=dict)  # name -> colour, int, bool
    # definitions with parameters: name -> ((parameter, type), ...), the value's type
    applied: dict[str, tuple[tuple[tuple[str, str], ...], str]] = field(default_factory=dict)
    # the tile sets claimed once per player: claimed from play only, never moved
    shared: list[str] = field(default_factory=list)
    # tile zones typed by a tile set (`zone z: SET tiles of each player`): zone -> SET
    zone_sets: dict[str, str] = field(default_factory=dict)

    def zone_item(self, zone: str) -> str:
        """The type of a zone's elements: card, tile:SET (typed) or tile:*."""
        if zone in self.card_zones:
            return "card"
        return f"tile:{self.zone_sets[zone]}" if zone in self.zone_sets else "tile:*"

    def any_tile_zones(self) -> list[str]:
        """The tile zones of any tiles (typed by no set)."""
        return [z for z in self.tile_zones if z not in self.zone_sets]

    def zones_taking(self, item: str) -> list[str]:
        """The tile zones a tile of type `item` may be moved or claimed into."""
        return [z for z in self.tile_zones if self.zone_sets.get(z, element(item)) == element(item)]
    board: bool = False  # a board of cells (fuzz/board.py): tokens may go into its bag
    # the wild token counts as more than one in payments where a condition
    # holds: no payment may spend cards (`using`)
    worth: bool = False
    bag_kinds: list[str] = field(default_factory=list)  # the kinds its bag may hold

    def columns(self, item: str) -> dict[str, str]:
        """The attributes of a card or tile type (as the checker computes them
        for any tile: the columns every tile set has, with points if there
        are majority tiles)."""
        if item == "card":
            return {**self.card_columns, **self.card_values}
        if item.startswith("tile:") and item != "tile:*":
            return self.tile_sets[element(item)]
        common: dict[str, str] | None = {"points": "int"} if self.majorities else None
        for columns in self.tile_sets.values():
            common = (
                dict(columns)
                if common is None
                else {k: v for k, v in common.items() if columns.get(k) == v}
            )
        return common or {}


@dataclass(frozen=True)
class Scope:
    """Local names (name -> type) and whether a player is in context."""

    names: tuple[tuple[str, str], ...] = ()
    player: bool = True
    hidden: frozenset[str] = frozenset()  # bound, but not to be read here

    def bind(self, name: str, type_: str) -> Scope:
        return Scope((*self.names, (name, type_)), self.player, self.hidden)

    def with_player(self) -> Scope:
        return Scope(self.names, True, self.hidden)

    def hide(self, names: set[str]) -> Scope:
        """The scope with these names still bound but not readable."""
        kept = tuple(n for n in self.names if n[0] not in names)
        return Scope(kept, self.player, self.hidden | (self.bound() & names))

    def avoid(self, names: set[str]) -> Scope:
        """The scope, with these names not to be bound again."""
        return Scope(self.names, self.player, self.hidden | names)

    def of(self, type_: str) -> list[str]:
        return [n for n, t in self.names if t == type_]

    def bound(self) -> set[str]:
        return {n for n, _ in self.names} | self.hidden


LOCAL_NAMES = ("x", "y", "z", "k", "j", "c", "d", "t", "u", "v", "w", "n", "m", "q")
# Players named from the one in context, drawn in reads for another player.
PLAYERS = ("next player", "previous player", "you")


class Unmakeable(Exception):
    """No expression of the type can be made in the scope (a generator bug
    if it escapes: callers check `makeable` first)."""


class Expressions:
    """Draws typed expressions for one edition.

    `defines` and `score` say which definitions (and whether the score) an
    expression may read here: the generator keeps definitions acyclic.
    `top_logic` is False where the known miscompile guard forbids a top-level
    `and`/`or`/`if-else` (see rule_files.KNOWN_MISCOMPILES).
    """

    def __init__(self, draw: Draw, world: World) -> None:
        self.draw = draw
        self.world = world
        self.defines: dict[str, str] = dict(world.defines)
        self.applied = dict(world.applied)  # those already declared, for a new one
        self.score = False
        self.max_depth = 3

    # ------------------------------------------------------------ helpers

    def pick(self, options: list[Any]) -> Any:
        """One of the options; shrinks towards the first."""
        return options[self.draw(_index(len(options)))]

    def flip(self) -> bool:
        return bool(self.draw(_booleans()))

    def small(self, low: int = 0, high: int = 4) -> int:
        return int(self.draw(_integers(low, high)))

    def fresh(self, scope: Scope) -> str:
        taken = scope.bound()
        free = [n for n in LOCAL_NAMES if n not in taken]
        return self.pick(free)

    def maybe_paren(self, e: E) -> E:
        """Now and then, parentheses the grammar does not need (not around
        names and literals: a draw each would make editions slow to shrink)."""
        if e.level not in (VALUE, ATOM) and self.draw(_index(6)) == 5:
            return E(f"({e.text})", ATOM, e.level)
        return e

    # -------------------------------------------------------- entry points

    def expr(
        self,
        t: str,
        scope: Scope,
        depth: int | None = None,
        top_logic: bool = True,
        top_conditional: bool = True,
    ) -> E:
        """An expression of type t (never a filter or `per colour`); raises
        Unmakeable when there is none here (check with `makeable`).
        `top_logic` False: no and/or/if-else at the top; `top_conditional`
        False: no if-else there."""
        depth = self.max_depth if depth is None else depth
        options: list[Callable[[], E | None]] = [lambda: self.leaf(t, scope)]
        if depth > 0:
            conditional = top_logic and top_conditional
            options.extend(self.composites(t, scope, depth - 1, top_logic, conditional))
        while options:
            index = self.draw(_index(len(options)))
            made = options.pop(index)()
            if made is not None:
                return self.maybe_paren(made)
        raise Unmakeable(t)

    def value(self, t: str, scope: Scope, depth: int | None = None, top_logic: bool = True) -> E:
        """An expression or, at this value position, a filter or `per colour`."""
        depth = self.max_depth if depth is None else depth
        kind = self.draw(_index(4))
        if kind == 1 and is_collection(t) and self.makeable(t, scope, depth - 1):
            return self.filter(t, scope, depth - 1)
        if kind == 2 and t == "vector" and depth > 0:
            return self.per_colour(scope, depth - 1)
        if kind == 3 and t in ("vector", "int"):
            made = self.aggregate(t, scope)
            if made is not None:
                return made
        if not self.makeable(t, scope, depth) and t == "vector":
            return self.per_colour(scope, max(0, depth - 1))
        return self.expr(t, scope, depth, top_logic)

    def makeable(self, t: str, scope: Scope, depth: int | None = None) -> bool:
        """Can an expression of type t be made here, within the depth?"""
        depth = self.max_depth if depth is None else depth
        if self.leaves(t, scope):
            return True
        if depth <= 0:
            return False
        if t.startswith("list:"):
            return t in self._lists(scope)
        if t in ("text", "vector", "colour", "colour?", "int", "bool"):
            return any(t in self.world.columns(i).values() for i in self._items(scope))
        return False

    # -------------------------------------------------------------- leaves

    def leaf(self, t: str, scope: Scope) -> E | None:
        found = self.leaves(t, scope)
        return atom(self.pick(found)) if found else None

    def leaves(self, t: str, scope: Scope) -> list[str]:
        w = self.world
        found = list(scope.of(t))
        if t == "int":
            found = ["0", "1", "2", "3", "players", *found]
            found += [f"supply({k})" for k in [*w.colours, *w.tokens]]
            if scope.player:
                found += [f"tokens({k})" for k in [*w.colours, *w.tokens]]
                found += [f"count({z})" for z in w.card_zones + w.tile_zones]
                # read for another player (docs/language.md, "Players as values")
                found += [f"tokens({k}) of {p}" for k in w.colours[:1] for p in PLAYERS]
                found += [f"count({z}) of {p}" for z in w.card_zones[:1] for p in PLAYERS]
            found += ["count(colours)", "count(market)"]
        elif t == "bool":
            found = ["true", "false", *found]
            if scope.player:
                found += [f"did({a})" for a in w.actions]
                found += [f"holds({m})" for m in w.majorities]
                found += ["(next player != previous player)", "(you == next player)"]
                found += [
                    f"any(someone in other players: tokens({k}) of someone > 0)"
                    for k in w.colours[:1]
                ]
        elif t == "colour":
            found = [*w.colours, *found]
        elif t == "colour?":  # a colour or none (`colour or none` columns)
            found = ["none", *found]
        elif t == "token":
            found = [*w.tokens, *w.colours, *found, *scope.of("colour")]
        elif t == "set:colour":
            found = ["colours", *found]
        elif t == "set:card":
            found = ["market", *found, *(w.card_zones if scope.player else [])]
        elif t.startswith("set:tile:") and t != "set:tile:*":
            typed = [z for z, s in w.zone_sets.items() if s == element(t)[5:]]
            found = [element(t)[5:], *found, *(typed if scope.player else [])]
        elif t == "set:tile:*":
            found = [*found, *(w.any_tile_zones() if scope.player else [])]
        if scope.player:
            found += [d for d, dt in self.defines.items() if dt == t]
            if t == "int" and self.score:
                found.append("score")
        return found

    # ---------------------------------------------------------- composites

    def composites(
        self, t: str, scope: Scope, depth: int, logic: bool, conditional: bool
    ) -> list[Callable[[], E | None]]:
        """The ways to build a t from smaller expressions (`logic`: and/or
        allowed; `conditional`: if-else allowed)."""
        ways: list[Callable[[], E | None]] = [
            lambda: self.attribute(t, scope, depth),
            lambda: self.conditional(t, scope, depth) if conditional else None,
        ]
        if self.applied:
            ways.append(lambda: self.apply(t, scope, depth))
        if t == "int":
            ways += [
                lambda: self.arithmetic(scope, depth),
                lambda: self.call_int(scope, depth),
                lambda: self.index(scope, depth),
                lambda: E("-" + self.expr("int", scope, depth).at(UNARY), UNARY),
            ]
        elif t == "bool":
            ways += [
                lambda: self.comparison(scope, depth),
                lambda: self.logic(scope, depth) if logic else None,
                lambda: E("not " + self.expr("bool", scope, depth).at(NOT), NOT),
                lambda: self.equality(scope, depth),
                lambda: self.quantifier(scope, depth),
                lambda: self.over_players(scope, depth),
            ]
        elif t == "token":
            ways.append(lambda: self.expr("colour", scope, depth))
        return ways

    def arithmetic(self, scope: Scope, depth: int) -> E:
        op = self.pick(["+", "-", "*", "/", "%"])
        left = self.expr("int", scope, depth)
        if op == "*":
            # A product by a small literal: a product of two numbers the
            # checker bounds only by a count of a state (2**31 - 1) could pass
            # 64 bits, and the checker refuses it (docs/engine.md, Limits).
            factor = atom(str(self.pick(range(10))))
            return E(f"{left.at(PRODUCT)} * {factor.at(UNARY)}", PRODUCT)
        if op in ("/", "%"):
            # A divisor the checker proves at least 1 (it refuses any other):
            # a small positive literal, or `max(1, N)` of any number, so that
            # dividends and divisors of either sign are drawn.
            if self.flip():
                divisor = atom(f"max(1, {self.value('int', scope, depth).text})")
            else:
                divisor = atom(str(self.pick(range(1, 10))))
            return E(f"{left.at(PRODUCT)} {op} {divisor.at(UNARY)}", PRODUCT)
        right = self.expr("int", scope, depth)
        return E(f"{left.at(SUM)} {op} {right.at(PRODUCT)}", SUM)

    def comparison(self, scope: Scope, depth: int) -> E:
        op = self.pick(["<", ">=", "==", "!=", "<=", ">"])
        left = self.expr("int", scope, depth)
        right = self.expr("int", scope, depth)
        return E(f"{left.at(SUM)} {op} {right.at(SUM)}", CMP)

    def equality(self, scope: Scope, depth: int) -> E | None:
        kinds = ("colour", "token", "bool", "card", "text", "colour?")
        kind = self.pick([k for k in kinds if self.makeable(k, scope, depth)])
        op = self.pick(["==", "!="])
        left = self.expr(kind, scope, depth)
        if kind == "text" and self.flip():  # a text as written, only on the right
            return E(f"{left.at(SUM)} {op} {quote(self.pick(ONE_OF))}", CMP)
        if kind == "colour?" and self.flip():  # none, compared with a colour
            kind = "colour"
        right = self.expr(kind, scope, depth)
        return E(f"{left.at(SUM)} {op} {right.at(SUM)}", CMP)

    def logic(self, scope: Scope, depth: int) -> E:
        op = self.pick(["and", "or"])
        count = 2 + self.draw(_index(2))
        level = AND if op == "and" else OR
        operand_level = NOT if op == "and" else AND
        parts = [self.expr("bool", scope, depth).at(operand_level) for _ in range(count)]
        return E(f" {op} ".join(parts), level)

    def conditional(self, t: str, scope: Scope, depth: int) -> E | None:
        """`A if C else B`; its type is A's, and B must fit it."""
        if t.startswith("tile") or not self.makeable(t, scope, depth):
            return None
        condition = self.expr("bool", scope, depth)
        if t == "token" and self.world.tokens and self.flip():
            then = atom(self.pick(self.world.tokens))  # a token kind: B may be a colour
        else:
            t = "colour" if t == "token" else t  # a colour: B must be one too
            then = self.expr(t, scope, depth)
        otherwise = self.expr(t, scope, depth)
        return E(f"{then.at(OR)} if {condition.at(OR)} else {otherwise.at(COND)}", COND)

    def apply(self, t: str, scope: Scope, depth: int) -> E | None:
        """`name(arguments)`: a definition with parameters whose value is a t."""
        names = [
            name
            for name, (parameters, value) in self.applied.items()
            if value == t and all(self.makeable(p, scope, depth) for _, p in parameters)
        ]
        if not scope.player or not names:
            return None
        name = self.pick(names)
        arguments = [self.value(p, scope, depth).text for _, p in self.applied[name][0]]
        return atom(f"{name}({', '.join(arguments)})")

    def _items(self, scope: Scope) -> list[str]:
        """The card and tile types of the local names in scope."""
        return sorted({t for _, t in scope.names if t == "card" or t.startswith("tile:")})

    def attribute(self, t: str, scope: Scope, depth: int) -> E | None:
        """`x.column` of a card or tile; `S.column` of a set (a list)."""
        if is_collection(t):
            if not t.startswith("list:"):
                return None
            wanted = element(t)
            subjects = [
                (s, element(st))
                for st in self._collection_types(scope)
                for s in [st]
                if any(v == wanted for v in self.world.columns(element(st)).values())
            ]
            if not subjects:
                return None
            set_type, item = self.pick(subjects)
            subject = self.expr(set_type, scope, depth)
            column = self.pick([c for c, v in self.world.columns(item).items() if v == wanted])
            return atom(f"{subject.at(ATOM)}.{column}")
        items = [i for i in self._items(scope) if t in self.world.columns(i).values()]
        if not items:
            return None
        item = self.pick(items)
        subject = atom(self.pick(scope.of(item)))
        column = self.pick([c for c, v in self.world.columns(item).items() if v == t])
        return atom(f"{subject.at(ATOM)}.{column}")

    def _collection_types(self, scope: Scope) -> list[str]:
        """The set types of cards and tiles that can be made here."""
        found = ["set:card"]
        found += [f"set:tile:{name}" for name in self.world.tile_sets]
        if scope.player and self.world.any_tile_zones():
            found.append("set:tile:*")
        return found

    def index(self, scope: Scope, depth: int) -> E | None:
        """`v[c]`: a colour's entry of a vector."""
        if not self.makeable("vector", scope, depth):
            return None
        subject = self.expr("vector", scope, depth)
        colour = self.expr(self.pick(["colour", "colour?"]), scope, depth)  # at none: 0
        return atom(f"{subject.at(ATOM)}[{colour.text}]")

    def call_int(self, scope: Scope, depth: int) -> E | None:
        kind = self.pick(["count", "sum", "distinct", "min", "max", "supply", "tokens"])
        if kind == "count":
            t = self.pick(self.sources(scope, depth))
            return atom(f"count({self.value(t, scope, depth).text})")
        if kind == "sum":
            if self.flip():
                return self.total(scope, depth)
            if not self.makeable("list:int", scope, depth):
                return None
            return atom(f"sum({self.value('list:int', scope, depth).text})")
        if kind == "distinct":  # the different numbers or colours of a list
            lists = ["list:int", "list:colour", "list:colour?", "list:token", "set:colour"]
            makeable = [t for t in lists if self.makeable(t, scope, depth)]
            if not makeable:
                return None
            return atom(f"distinct({self.value(self.pick(makeable), scope, depth).text})")
        if kind in ("min", "max"):
            n = 2 + self.draw(_index(2))
            parts = [self.value("int", scope, depth).text for _ in range(n)]
            return atom(f"{kind}({', '.join(parts)})")
        if kind == "tokens" and not scope.player:
            return None
        return atom(f"{kind}({self.expr('token', scope, depth).text})")

    def sources(self, scope: Scope, depth: int) -> list[str]:
        """The set and list types that can be made here."""
        found = ["set:colour", *self._collection_types(scope), *self._lists(scope)]
        found += [t for _, t in scope.names if is_collection(t)]
        found += [t for t in self.defines.values() if is_collection(t) and scope.player]
        return [t for t in dict.fromkeys(found) if self.makeable(t, scope, depth)]

    def _lists(self, scope: Scope) -> list[str]:
        """The list types that attributes of sets make here."""
        found = []
        for set_type in self._collection_types(scope):
            for kind in self.world.columns(element(set_type)).values():
                found.append(f"list:{kind}")
        return sorted(set(found))

    def quantifier(self, scope: Scope, depth: int) -> E:
        """any/all(x in S: C) over a set or list."""
        return self.over_elements(self.pick(["any", "all"]), "bool", scope, depth)

    def total(self, scope: Scope, depth: int) -> E:
        """sum(x in S: N) or sum(x in S where C: N): a number per element of
        a set or list, added up over the elements (that pass C)."""
        return self.over_elements("sum", "int", scope, depth)

    def over_elements(self, function: str, body_type: str, scope: Scope, depth: int) -> E:
        """function(x in S [where C]: BODY), BODY of `body_type`."""
        t = self.pick(self.sources(scope, depth))
        source = self.expr(t, scope, depth)
        name = self.fresh(scope)
        inner = scope.bind(name, element(t))
        where = f" where {self.expr('bool', inner, depth).text}" if self.flip() else ""
        body = self.expr(body_type, inner, depth)
        return atom(f"{function}({name} in {source.text}{where}: {body.text})")

    def over_players(self, scope: Scope, depth: int) -> E:
        op = self.pick(["any", "all"])
        body = self.expr("bool", scope.with_player(), depth)
        return atom(f"{op}(player: {body.text})")

    def filter(self, t: str, scope: Scope, depth: int) -> E | None:
        """`x in S where C` (a set or list of the same type as S)."""
        source = self.expr(t, scope, depth)
        name = self.fresh(scope)
        texts = [c for c, kind in self.world.columns(element(t)).items() if kind == "text"]
        if element(t) == "card" and texts and self.flip():  # cards of one kind
            op = self.pick(["==", "!="])
            test = f"{name}.{self.pick(texts)} {op} {quote(self.pick(ONE_OF))}"
            return E(f"{name} in {source.text} where {test}", VALUE)
        condition = self.expr("bool", scope.bind(name, element(t)), depth)
        return E(f"{name} in {source.text} where {condition.text}", VALUE)

    def aggregate(self, t: str, scope: Scope) -> E | None:
        """The shapes an engine may keep up to date instead of computing:
        `sum(Z.column)` of a zone, and the tally `per colour c: count(k in S
        where k.column == c)`."""
        w = self.world
        zones = [*w.card_zones, *w.tile_zones] if scope.player else []
        if t == "int":
            found = [
                (z, c)
                for z in zones
                for c, kind in w.columns(w.zone_item(z)).items()
                if kind == "int"
            ]
            if not found:
                return None
            zone, column = self.pick(found)
            if self.flip():  # a total of a zone's elements that pass, which it may keep
                item = w.zone_item(zone)
                name = "k_" + self.fresh(scope)
                # (the outer names stay bound: none may be bound again inside)
                inner = Scope(((name, item),), player=False, hidden=frozenset(scope.bound()))
                test = self.expr("bool", inner, 1)
                added = self.expr("int", inner, 1)
                return atom(f"sum({name} in {zone} where {test.text}: {added.text})")
            return atom(f"sum({zone}.{column})")
        columns = [c for c, kind in w.card_columns.items() if kind in ("colour", "colour?")]
        if not columns:
            return None
        source = self.pick([*[z for z in zones if z in w.card_zones], "market"])
        colour, card = self.fresh(scope), "k_" + self.fresh(scope)
        test = [f"{card}.{self.pick(columns)}", colour]
        if self.flip():  # a colour the card's data decides, not one column
            of_card = Scope(((card, "card"),), player=False)
            test[0] = self.expr(self.pick(["colour", "colour?"]), of_card, 2).at(SUM)
        if self.flip():
            test.reverse()
        numbers = [c for c, kind in w.card_columns.items() if kind == "int"]
        if numbers and self.flip():  # a total per colour, which a zone may keep
            added = f"{card}.{self.pick(numbers)}"
            return E(
                f"per colour {colour}: sum({card} in {source} where {test[0]} == {test[1]}:"
                f" {added})",
                VALUE,
            )
        return E(
            f"per colour {colour}: count({card} in {source} where {test[0]} == {test[1]})", VALUE
        )

    def per_colour(self, scope: Scope, depth: int) -> E:
        name = self.fresh(scope)
        body = self.expr("int", scope.bind(name, "colour"), depth)
        return E(f"per colour {name}: {body.text}", VALUE)


# Strategies, built once (Hypothesis caches nothing across calls of st.integers).


def _integers(low: int, high: int) -> Any:
    from hypothesis import strategies as st

    key = (low, high)
    if key not in _CACHE:
        _CACHE[key] = st.integers(low, high)
    return _CACHE[key]


def _index(n: int) -> Any:
    return _integers(0, n - 1)


def _booleans() -> Any:
    return _integers(0, 1)


_CACHE: dict[tuple[int, int], Any] = {}
