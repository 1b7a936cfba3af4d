"""Lowering: the checked model -> the engine's tables and rule functions.

The template (templates/engine.py.j2) holds what every engine shares: the
state, setup, payments, turns and JSON. This stage supplies what an edition
decides: its constants and data tables, and a Python function for each rule,
each headed by a comment naming its place in the rule file and its rule ids.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from splendor_rules.compiler.backend.python.emit import (
    ExprEmitter,
    Names,
    Writer,
    bare,
    comment_text,
    defines_in,
    ident,
    uses,
)
from splendor_rules.compiler.frontend import model as m

_MISSING: dict[str, Any] = {"int": 0, "bool": False, "text": "", "colour": -1}


@frozen
class NamedValues:
    name: str
    values: tuple[Any, ...]


def _python_type(t: m.Type) -> str:
    if t.kind in ("int", "colour", "token", "card", "tile"):
        return "int"
    if t.kind == "bool":
        return "bool"
    if t.kind == "text":
        return "str"
    if t.kind == "vector":
        return "tuple[int, ...]"
    if t.kind == "list":
        element = _python_type(t.element) if t.element else "Any"
        return f"list[{element}]"
    if t.kind == "set":
        element = _python_type(t.element) if t.element else "Any"
        return f"tuple[{element}, ...]"
    return "Any"


def _choice_kind(t: m.Type) -> str:
    element = t.element if t.kind == "set" and t.element else t
    kind = {"colour": "token", "token": "token", "card": "card", "tile": "tile"}[element.kind]
    return kind + "s" if t.kind == "set" else kind


class Lowering:
    def __init__(self, edition: m.Edition, root: Path) -> None:
        self.edition = edition
        self.root = root
        self.names = Names(edition)
        self.writer = Writer()
        self.emitter = ExprEmitter(self.names, self.writer)

    # ------------------------------------------------------------ helpers

    def where(self, part: m.Part | m.Statement, own: tuple[str, ...] | None = None) -> str:
        """`# file:line ids` for a generated rule (or only the ids `own`)."""
        ids = " ".join(part.rule_ids if own is None else own)
        return f"# {self.shown(part.span.file)}:{part.span.line}" + (f" {ids}" if ids else "")

    def statement_comment(self, st: m.Statement, action: m.Action) -> None:
        """A statement that states rules of its own gets its own comment."""
        own = tuple(i for i in st.rule_ids if i not in action.rule_ids)
        if own:
            self.writer.line(self.where(st, own))

    def expr(self, e: m.Expr, player: str, locals_: dict[str, str], state: str = "s") -> str:
        self.emitter.state = state
        return bare(self.emitter.emit(e, player, locals_))

    def ids(self, part: m.Part | m.Statement) -> str:
        return ", ".join(part.rule_ids) or self.edition.name

    def lines(self, header: str, comment: str | None, *lines: str) -> None:
        """A function whose body is the given lines."""

        def body() -> None:
            for line in lines:
                self.writer.line(line)

        self.function(header, comment, body)

    def function(self, header: str, comment: str | None, body: Callable[[], None]) -> None:
        w = self.writer
        w.line()
        w.line()
        with w.block(header):
            if comment:
                w.line(comment)
            body()

    # ------------------------------------------------------------- tables

    def context(self) -> dict[str, Any]:
        e = self.edition
        tokens = e.tokens
        wild = next((i for i, t in enumerate(tokens) if t.role == "wild"), -1)
        counts = range(e.players[0], e.players[1] + 1)
        market = e.market
        decks = sorted(market.deck_sizes)
        group = market.group_by
        card_deck = tuple(decks.index(int(row[group])) for row in e.cards.rows)  # type: ignore[arg-type]
        return {
            "edition_name": e.name,
            "title": e.title,
            "source_file": self.shown(e.file),
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
            "cards_file": self.shown(e.cards.file),
            "card_columns": [
                NamedValues(c.name, tuple(self.cell(row[c.name], c.type) for row in e.cards.rows))
                for c in e.cards.columns
            ],
            "deck_names": tuple(decks),
            "deck_cards": tuple(
                tuple(i for i, d in enumerate(card_deck) if d == index)
                for index in range(len(decks))
            ),
            "card_deck": card_deck,
            "face_up": market.face_up,
            "exact_payment": self.payment_code(tokens, wild, lambda c: f"price[{c}]", "0"),
            "split_payment": self.payment_code(
                tokens,
                wild,
                lambda c: f"price[{c}] - w{c}",
                " + ".join(f"w{c}" for c in range(len(e.colours))),
            ),
            "refill": market.refill,
            **self.tile_context(),
            "zone_names": tuple(z.name for z in e.zones),
            "zone_hides": tuple(z.hidden_from_deck for z in e.zones),
            "zone_cards": tuple(z.content == "cards" for z in e.zones),
            "aggregate_zero": tuple(
                0 if kind == "sum" else (0,) * len(e.colours)
                for kind, _, _ in self.names.aggregates
            ),
            "action_names": tuple(a.name for a in e.actions),
            "ending_rules": ", ".join(i for ending in e.endings for i in ending.rule_ids),
        }

    @staticmethod
    def payment_code(
        tokens: tuple[m.TokenKind, ...], wild: int, colour: Callable[[int], str], wild_sum: str
    ) -> str:
        """A payment tuple: each colour's part, the wild part, 0 for the rest."""
        parts = []
        for index, token in enumerate(tokens):
            if token.role == "colour":
                parts.append(colour(index))
            elif index == wild:
                parts.append(wild_sum)
            else:
                parts.append("0")
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def shown(self, file: str) -> str:
        """A source file as the generated code names it: relative to the
        project, and made safe for a comment or docstring."""
        try:
            shown = Path(file).resolve().relative_to(self.root).as_posix()
        except ValueError:
            shown = Path(file).name
        return comment_text(shown)

    def missing(self, kind: str) -> Any:
        """The value of a column that a tile set does not have (never read:
        the checker allows only the columns every tile of a zone has)."""
        if kind == "vector":
            return (0,) * len(self.edition.colours)
        return _MISSING[kind]

    def cell(self, value: Any, kind: str) -> Any:
        if kind == "colour":
            return self.names.token_index[value]
        return value

    def tile_context(self) -> dict[str, Any]:
        e = self.edition
        columns: dict[str, str] = {}
        for table in e.tile_sets:
            for column in table.columns:
                columns.setdefault(column.name, column.type)
        if e.majorities:
            columns.setdefault("points", "int")
        values: dict[str, list[Any]] = {name: [] for name in columns}
        faces = []
        number = 0
        for table in e.tile_sets:
            physical: dict[Any, list[int]] = {}
            for row in table.rows:
                key = row[table.sides_by] if table.sides_by else number
                physical.setdefault(key, []).append(number)
                for name, kind in columns.items():
                    values[name].append(self.cell(row.get(name, self.missing(kind)), kind))
                number += 1
            faces.append(tuple(tuple(f) for f in physical.values()))
        for majority in e.majorities:
            for name, kind in columns.items():
                values[name].append(majority.points if name == "points" else self.missing(kind))
        return {
            "tile_columns": [NamedValues(n, tuple(v)) for n, v in values.items()],
            "tile_set_names": tuple(t.name for t in e.tile_sets),
            "tile_set_faces": tuple(faces),
            "majority_tiles": [
                (maj.name, self.names.majority_tile[maj.name]) for maj in e.majorities
            ],
        }

    # --------------------------------------------------------------- setup

    def reveals(self) -> str:
        w = Writer(indent=1)
        self.emitter.writer = w
        for reveal in self.edition.reveals:
            w.line(self.where(reveal))
            count = self.expr(reveal.count, "0", {}, state="s")
            index = self.names.tile_set(reveal.tiles)
            w.line(
                f"tiles[{index}] = _reveal(rng, _TILE_SET_FACES[{index}], {count}, "
                f"{reveal.random_face!r})"
            )
        self.emitter.writer = self.writer
        return w.text()

    # --------------------------------------------------------------- rules

    def rules(self) -> str:
        self.count_in()
        for define in self.edition.defines:
            self.define(define, self.names.define(define.name))
        self.define(self.edition.score, "_score")
        for action in self.edition.actions:
            if action.body is not None:
                self.legal(action)
            self.apply(action)
        self.main_actions()
        self.zone_hooks()
        self.steps()
        self.endings()
        self.ranking()
        return self.writer.text()

    def count_in(self) -> None:
        """The upkeep of the zone aggregates as an item enters or leaves."""

        def body() -> None:
            w = self.writer
            by_zone: dict[str, list[tuple[int, str, str]]] = {}
            for (kind, zone, column), index in self.names.aggregates.items():
                by_zone.setdefault(zone, []).append((index, kind, column))
            if not by_zone:
                w.line("return")
                return
            w.line("totals = list(s.agg[p])")
            keyword = "if"
            for zone, aggregates in by_zone.items():
                cards = self.zone_content(zone) == "cards"
                with w.block(f"{keyword} zone == {self.names.zone(zone)}:"):
                    for index, kind, column in aggregates:
                        table = (
                            self.names.card_column(column)
                            if cards
                            else self.names.tile_column(column)
                        )
                        if kind == "sum":
                            w.line(f"totals[{index}] += sign * {table}[item]")
                        else:
                            w.line(f"counts = list(totals[{index}])")
                            w.line(f"counts[{table}[item]] += sign")
                            w.line(f"totals[{index}] = tuple(counts)")
                keyword = "elif"
            w.line("else:")
            w.line("    return")
            w.line("s.agg = _replace(s.agg, p, tuple(totals))")

        self.function(
            "def _count_in(s: State, p: int, zone: int, item: int, sign: int) -> None:",
            None,
            body,
        )

    def zone_content(self, name: str) -> str:
        return next(z.content for z in self.edition.zones if z.name == name)

    def define(self, define: m.Define, name: str) -> None:
        kind = _python_type(define.value.type)

        def body() -> None:
            # A value computed with a loop is memoised on the state; one read
            # off the state's aggregates is cheaper to compute again.
            w = self.writer
            prebound = self.prebind(define.value)
            value = self.expr(define.value, "p", {})
            self.emitter.prebound = {}
            if " for " not in value:
                for line in prebound:
                    w.line(line)
                w.line(f"value: {kind} = {value}")
                w.line("return value")
                return
            w.line(f"key = ({define.name!r}, p)")
            w.line("if key in s.memo:")
            w.line(f"    known: {kind} = s.memo[key]")
            w.line("    return known")
            for line in prebound:
                w.line(line)
            w.line(f"value: {kind} = {value}")
            w.line("s.memo[key] = value")
            w.line("return value")

        self.function(f"def {name}(s: State, p: int) -> {kind}:", self.where(define), body)

    def choice_pairs(self, sources: tuple[m.Expr, ...], locals_: dict[str, str]) -> str:
        """Code for the (engine value, action value) pairs of a choice."""
        parts = []
        locations = True
        for source in sources:
            if isinstance(source, m.DeckTops):
                parts.append("_deck_tops(s)")
                continue
            if isinstance(source, m.Ref) and source.kind == "market":
                parts.append("[(k, k) for k in _market(s)]")
                continue
            if not (isinstance(source, m.Ref) and source.kind == "zone"):
                locations = False
            if isinstance(source, m.Ref) and source.kind == "colours":
                parts.append("list(_COLOUR_PAIRS)")
                continue
            code = self.expr(source, "p", locals_)
            element = source.type.element or m.ERROR
            shown = "TOKENS[x]" if element.kind in ("colour", "token") else "x"
            parts.append(f"[(x, {shown}) for x in {code}]")
        joined = " + ".join(parts)
        return joined if locations or len(parts) == 1 else f"_unique({joined})"

    def distinct_pairs(self, st: m.ChooseDistinct, locals_: dict[str, str]) -> str:
        """Code for the (engine value, action value) pairs of each combination
        of a `choose x: N distinct from S`, cached on the values of S."""
        count = self.expr(st.count, "p", locals_)
        source = self.expr(st.source, "p", locals_)
        element = st.source.type.element or m.ERROR
        shown = "token" if element.kind in ("colour", "token") else "plain"
        return f"_{shown}_combinations(tuple({source}), {count})"

    def plain_values(self, st: m.Choose | m.ChooseDistinct) -> str | None:
        """Code for a choice's values when each is its own action value
        (cards from the market or a zone), so no pairs need building."""
        if not isinstance(st, m.Choose):
            return None
        parts = []
        for source in st.sources:
            if isinstance(source, m.Ref) and source.kind == "market":
                parts.append("_market(s)")
            elif isinstance(source, m.Ref) and source.kind == "zone":
                parts.append(self.expr(source, "p", {}))
            else:
                return None
        return " + ".join(parts)

    def choice_part(self, action: m.Action) -> list[m.Statement]:
        assert action.body is not None
        return [
            st
            for st in action.body
            if isinstance(st, m.Let | m.Choose | m.ChooseDistinct | m.Require | m.Pay)
        ]

    def legal(self, action: m.Action) -> None:
        """The enumerator of an action's legal moves: a loop per choice, an
        `if` per requirement. Values that no choice changes are computed once,
        before the loops, and a card the player cannot afford is rejected by
        an unrolled shortfall test before any payment is enumerated."""
        fn = ident("_legal_", action.name)

        def body() -> None:
            w = self.writer
            top = len(w.lines)
            hoisted: list[str] = []
            locals_: dict[str, str] = {}
            loop_vars: set[str] = set()
            shown: list[str] = []
            opened = 0
            part = self.choice_part(action)
            hoisted.extend(self.prebind(tuple(part)))
            for index, st in enumerate(part):
                later = tuple(part[index + 1 :])
                self.statement_comment(st, action)
                if isinstance(st, m.Let):
                    locals_[st.name] = ident("v_", st.name)
                    w.line(f"{locals_[st.name]} = {self.expr(st.value, 'p', locals_)}")
                elif isinstance(st, m.Choose | m.ChooseDistinct):
                    plain = self.plain_values(st)
                    if isinstance(st, m.Choose):
                        pairs = self.choice_pairs(st.sources, locals_)
                    else:
                        pairs = self.distinct_pairs(st, locals_)
                    var, public = self.loop_names(st.name, later)
                    if plain is not None:
                        var = public = ident("v_", st.name)
                        w.line(f"for {var} in {plain}:")
                    else:
                        w.line(f"for {var}, {public} in {pairs}:")
                    locals_[st.name] = var
                    loop_vars.add(st.name)
                    shown.append(public)
                    w.level += 1
                    opened += 1
                elif isinstance(st, m.Require):
                    w.line(f"if {self.expr(st.condition, 'p', locals_)}:")
                    w.level += 1
                    opened += 1
                elif isinstance(st, m.Pay):
                    opened += self.legal_payments(st, locals_, loop_vars, hoisted)
                    shown.append("v_pay")
            w.line(f"out.append({self.tuple_code([repr(action.name), *shown])})")
            w.level -= opened
            w.lines[top:top] = ["    " * w.level + line for line in hoisted]
            self.emitter.prebound = {}

        self.function(
            f"def {fn}(s: State, p: int, out: list[Action]) -> None:", self.where(action), body
        )

    def prebind(self, node: object) -> list[str]:
        """Read the definitions a function uses into locals, once, at its top
        (they are memoised on the state, but a local is faster still)."""
        lines = []
        for name in sorted(defines_in(node)):
            local = ident("d_", name)
            lines.append(f"{local} = {self.names.define(name)}(s, p)")
            self.emitter.prebound[name] = local
        return lines

    def legal_payments(
        self, st: m.Pay, locals_: dict[str, str], loop_vars: set[str], hoisted: list[str]
    ) -> int:
        """The loop over the ways to pay; returns how many blocks it opened.

        What the player can pay with in each colour (tokens plus discount) is
        computed once when no choice changes it, and a cost beyond it plus the
        wild tokens is rejected before any payment is enumerated. The vectors
        are unpacked into locals: the colours are known here."""
        w = self.writer
        colours = range(len(self.edition.colours))
        wild = next((i for i, t in enumerate(self.edition.tokens) if t.role == "wild"), -1)
        hoisted.append("held = s.held[p]")
        hoisted.append(f"wild = held[{wild}]" if wild >= 0 else "wild = 0")
        means = [f"means{i} = held[{i}] + discount[{i}]" for i in colours]
        discount = self.expr(st.discount, "p", locals_)
        if any(uses(st.discount, v) for v in loop_vars):
            w.line(f"discount = {discount}")
            for line in means:
                w.line(line)
        else:
            hoisted.append(f"discount = {discount}")
            hoisted.extend(means)
        w.line(f"cost = {self.expr(st.cost, 'p', locals_)}")
        w.line(", ".join(f"cost{i}" for i in colours) + " = cost")
        shortfall = " + ".join(
            f"(cost{i} - means{i} if cost{i} > means{i} else 0)" for i in colours
        )
        within = " and ".join(f"cost{i} <= means{i}" for i in colours)
        # Within the means colour by colour is a quick yes; without wild
        # tokens nothing else is; only then is the shortfall summed.
        w.line(f"if ({within}) or (wild and {shortfall} <= wild):")
        # Without wild tokens there is one way to pay: the price itself.
        exact = self.payment_code(
            self.edition.tokens,
            wild,
            lambda c: f"cost{c} - discount[{c}] if cost{c} > discount[{c}] else 0",
            "0",
        )
        w.line(f"    for v_pay in _payments(held, _price(cost, discount)) if wild else ({exact},):")
        w.level += 2
        return 2

    @staticmethod
    def tuple_code(items: list[str]) -> str:
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"

    def loop_names(self, name: str, later: tuple[m.Statement, ...]) -> tuple[str, str]:
        """The engine-value and action-value names of a choice's loop; the
        engine value is marked unused when no later statement reads it."""
        var = ident("v_", name)
        return (var if uses(later, name) else "_" + var), ident("a_", name)

    def price(self, st: m.Pay, locals_: dict[str, str], state: str) -> str:
        cost = self.expr(st.cost, "p", locals_, state)
        discount = self.expr(st.discount, "p", locals_, state)
        return f"_price({cost}, {discount})"

    def apply(self, action: m.Action) -> None:
        fn = ident("_apply_", action.name)
        bit = self.names.action_bit(action.name)

        def body() -> None:
            w = self.writer
            if action.body is None:
                w.line("if len(action) != 1:")
                no_values = f"{self.ids(action)}: {action.name} takes no values"
                w.line(f"    raise IllegalAction({no_values!r})")
                w.line("if _main_actions(s, p):")
                message = f"{self.ids(action)}: {action.name} is legal only when no other action is"
                w.line(f"    raise IllegalAction({message!r})")
                w.line(f"return _done(s.copy(), p, {bit})")
                return
            choices = [st for st in action.body if isinstance(st, m.Choose | m.ChooseDistinct)]
            pays = any(isinstance(st, m.Pay) for st in action.body)
            arity = 1 + len(choices) + pays
            names = ", ".join([st.name for st in choices] + (["payment"] if pays else []))
            w.line(f"if len(action) != {arity}:")
            values = "value" if arity == 2 else "values"
            message = f"{self.ids(action)}: {action.name} takes {arity - 1} {values} ({names})"
            w.line(f"    raise IllegalAction({message!r})")
            locals_: dict[str, str] = {}
            position = 1
            for st in action.body:
                if not isinstance(st, m.Gain | m.GainEach | m.Pay | m.Move | m.If):
                    self.statement_comment(st, action)
                if isinstance(st, m.Let):
                    locals_[st.name] = ident("v_", st.name)
                    w.line(f"{locals_[st.name]} = {self.expr(st.value, 'p', locals_)}")
                elif isinstance(st, m.Choose | m.ChooseDistinct):
                    if isinstance(st, m.Choose):
                        pairs = self.choice_pairs(st.sources, locals_)
                    else:
                        pairs = self.distinct_pairs(st, locals_)
                    var = ident("v_", st.name)
                    plain = self.plain_values(st)
                    if plain is not None:
                        w.line(f"{var} = action[{position}]")
                        w.line(f"if type({var}) is not int or {var} not in {plain}:")
                        w.line(f"    _not_a_choice({var}, {self.ids(st)!r}, {st.name!r})")
                    else:
                        pick = f"_pick({pairs}, action[{position}], {self.ids(st)!r}, {st.name!r})"
                        w.line(f"{var} = {pick}")
                    locals_[st.name] = var
                    position += 1
                elif isinstance(st, m.Require):
                    w.line(f"if not {self.expr(st.condition, 'p', locals_)}:")
                    w.line(f"    raise IllegalAction({self.message(st, locals_)})")
                elif isinstance(st, m.Pay):
                    price = self.price(st, locals_, "s")
                    w.line(
                        f"v_pay = _pick_payment(s.held[p], {price}, action[{position}], "
                        f"{self.ids(st)!r})"
                    )
            w.line("s2 = s.copy()")
            self.effects(action.body, locals_)
            w.line(f"return _done(s2, p, {bit})")

        self.function(
            f"def {fn}(s: State, p: int, action: Action) -> State:", self.where(action), body
        )

    def message(self, st: m.Require, locals_: dict[str, str]) -> str:
        parts = [repr(self.ids(st) + ": ")]
        for part in st.message:
            if isinstance(part, str):
                parts.append(repr(part))
            else:
                value = self.expr(part, "p", locals_)
                parts.append(f"_show({value}, {part.type.kind!r})")
        return " + ".join(parts)

    def effects(
        self,
        body: tuple[m.Statement, ...],
        locals_: dict[str, str],
        state: str = "s2",
        hooks: bool = True,
    ) -> None:
        """The effects of an action (on the copy `s2`) or of a trigger (on
        the state being built, `s`; its moves run no further triggers)."""
        w = self.writer
        hooked = self.hooked_zones() if hooks else []
        for st in body:
            if isinstance(st, m.Gain):
                token = self.expr(st.token, "p", locals_, state)
                amount = self.expr(st.amount, "p", locals_, state)
                w.line(f"_gain({state}, p, {token}, {amount})")
            elif isinstance(st, m.GainEach):
                tokens = self.expr(st.tokens, "p", locals_, state)
                amount = self.expr(st.amount, "p", locals_, state)
                w.line(f"_gain_each({state}, p, {tokens}, {amount})")
            elif isinstance(st, m.Pay):
                w.line(f"_give_back({state}, p, v_pay)")
            elif isinstance(st, m.Move):
                zone = self.names.zone(st.zone)
                w.line(f"_move({state}, p, {locals_[st.card]}, {zone})")
                if st.zone in hooked:
                    w.line(f"{ident('_entered_', st.zone)}({state}, p, {locals_[st.card]})")
            elif isinstance(st, m.If):
                with w.block(f"if {self.expr(st.condition, 'p', locals_, state)}:"):
                    self.effects(st.body, locals_, state, hooks)
            elif isinstance(st, m.Let) and st.name not in locals_:
                locals_[st.name] = ident("v_", st.name)
                w.line(f"{locals_[st.name]} = {self.expr(st.value, 'p', locals_, state)}")

    def main_actions(self) -> None:
        def body() -> None:
            w = self.writer
            w.line("out: list[Action] = []")
            for action in self.edition.actions:
                if action.body is not None:
                    w.line(f"{ident('_legal_', action.name)}(s, p, out)")
            w.line("return out")

        self.function("def _main_actions(s: State, p: int) -> list[Action]:", None, body)
        w = self.writer
        w.line()
        w.line()
        w.line("_APPLY: Final = {")
        for action in self.edition.actions:
            w.line(f"    {action.name!r}: {ident('_apply_', action.name)},")
        w.line("}")
        fallback = next((a.name for a in self.edition.actions if a.body is None), None)
        w.line(f"_FALLBACK: Final[str | None] = {fallback!r}")
        w.line("_SIGNATURES: Final[dict[str, tuple[tuple[str, str], ...]]] = {")
        for action in self.edition.actions:
            signature = [
                (
                    st.name,
                    _choice_kind(
                        m.set_of(self.chosen_type(st))
                        if isinstance(st, m.ChooseDistinct)
                        else self.chosen_type(st)
                    ),
                )
                for st in action.body or ()
                if isinstance(st, m.Choose | m.ChooseDistinct)
            ]
            if any(isinstance(st, m.Pay) for st in action.body or ()):
                signature.append(("pay", "pay"))
            w.line(f"    {action.name!r}: {tuple(signature)!r},")
        w.line("}")

    def chosen_type(self, st: m.Choose | m.ChooseDistinct) -> m.Type:
        sources = st.sources if isinstance(st, m.Choose) else (st.source,)
        for source in sources:
            if source.type.element is not None and source.type.element != m.ERROR:
                return source.type.element
        return m.CARD

    # ------------------------------------------------- triggers, majorities

    def hooked_zones(self) -> list[str]:
        zones = [t.zone for t in self.edition.triggers]
        zones += [maj.event_zone for maj in self.edition.majorities]
        return list(dict.fromkeys(zones))

    def zone_hooks(self) -> None:
        for majority in self.edition.majorities:
            self.majority(majority)
        for zone in self.hooked_zones():
            self.zone_hook(zone)

    def majority(self, majority: m.Majority) -> None:
        measure = ident("_measure_", majority.name)
        self.lines(
            f"def {measure}(s: State, p: int) -> int:",
            self.where(majority),
            f"measure: int = {self.expr(majority.measure, 'p', {})}",
            "return measure",
        )

        def contest() -> None:
            w = self.writer
            tile = self.names.majority(majority.name)
            zone = self.names.zone(majority.zone)
            beats = ">" if majority.ties_keep_holder else ">="
            w.line(f"mine = {measure}(s, p)")
            w.line(f"if mine < {majority.threshold}:")
            w.line("    return")
            w.line(f"holder = _holder(s, {tile}, {zone})")
            w.line(f"if holder < 0 or (holder != p and mine {beats} {measure}(s, holder)):")
            w.line(f"    _take_tile(s, p, {tile}, {zone})")

        self.function(
            f"def {ident('_contest_', majority.name)}(s: State, p: int) -> None:",
            self.where(majority),
            contest,
        )

    def zone_hook(self, zone: str) -> None:
        def body() -> None:
            w = self.writer
            for trigger in self.edition.triggers:
                if trigger.zone == zone:
                    w.line(self.where(trigger))
                    locals_ = {trigger.card: "card"}
                    self.effects(trigger.body, locals_, state="s", hooks=False)
            for majority in self.edition.majorities:
                if majority.event_zone == zone:
                    w.line(f"{ident('_contest_', majority.name)}(s, p)")

        self.function(
            f"def {ident('_entered_', zone)}(s: State, p: int, card: int) -> None:", None, body
        )

    # ----------------------------------------------------------------- steps

    def steps(self) -> None:
        w = self.writer
        entries = []
        for step in self.edition.steps:
            name = step.name
            step_fn, options_fn, decide_fn = (
                ident("_step_", name),
                ident("_options_", name),
                ident("_decide_", name),
            )
            if isinstance(step, m.TokenLimit):
                kind = "tokens"
                options = f"return list(_returns(s.held[p], {step.limit}))"
                decide = "_give_back(s, p, option)"
            elif isinstance(step, m.Claim):
                kind = "tile"
                var = ident("v_", step.variable)
                prebind = self.prebind(step.condition)
                condition = self.expr(step.condition, "p", {step.variable: var})
                self.emitter.prebound = {}
                tiles = self.names.tile_set(step.tiles)
                options = f"return [{var} for {var} in s.tiles[{tiles}] if {condition}]"
                decide = f"_take_tile(s, p, option, {self.names.zone(step.zone)})"
            else:
                kind, options, decide = "none", "return []", "return None"
            self.lines(
                f"def {options_fn}(s: State, p: int) -> list[Any]:",
                self.where(step),
                *(prebind if isinstance(step, m.Claim) else []),
                options,
            )
            self.lines(f"def {decide_fn}(s: State, p: int, option: Any) -> None:", None, decide)
            self.step(step, step_fn, options_fn, decide_fn)
            entries.append((name, step_fn, options_fn, decide_fn, kind, self.ids(step)))
        w.line()
        w.line()
        w.line(f"_STEPS: Final = ({''.join(e[1] + ', ' for e in entries)})")
        w.line(f"_STEP_NAMES: Final = {tuple(e[0] for e in entries)!r}")
        w.line(f"_STEP_OPTIONS: Final = ({''.join(e[2] + ', ' for e in entries)})")
        w.line(f"_STEP_DECIDE: Final = ({''.join(e[3] + ', ' for e in entries)})")
        w.line(f"_STEP_KINDS: Final = {tuple(e[4] for e in entries)!r}")
        w.line(f"_STEP_RULES: Final = {tuple(e[5] for e in entries)!r}")

    def step(self, step: m.Step, step_fn: str, options_fn: str, decide_fn: str) -> None:
        def body() -> None:
            w = self.writer
            if isinstance(step, m.EndCheck):
                once = [e for e in self.edition.endings if e.mode == "once"]
                for ending in once:
                    w.line(self.where(ending))
                    w.line(f"if {self.expr(ending.condition, 'p', {})}:")
                    w.line("    s.last = True")
                w.line("return None")
                return
            if isinstance(step, m.TokenLimit):
                w.line(f"if sum(s.held[p]) <= {step.limit}:")
                w.line("    return None")
            w.line(f"options = {options_fn}(s, p)")
            w.line("if len(options) > 1:")
            w.line("    return options")
            w.line("if options:")
            w.line(f"    {decide_fn}(s, p, options[0])")
            w.line("return None")

        self.function(
            f"def {step_fn}(s: State, p: int) -> list[Any] | None:", self.where(step), body
        )

    # -------------------------------------------------------- the end

    def endings(self) -> None:
        def body() -> None:
            w = self.writer
            conditions = []
            for ending in self.edition.endings:
                if ending.mode == "at_round_end":
                    w.line(self.where(ending))
                    conditions.append(self.expr(ending.condition, "p", {}))
            w.line("return " + (" or ".join(f"({c})" for c in conditions) or "False"))

        self.function("def _round_ends(s: State) -> bool:", None, body)

    def ranking(self) -> None:
        winners = self.edition.winners
        among = winners.among
        eligible = f"return bool({self.expr(among, 'p', {})})" if among else "return True"
        self.lines("def _eligible(s: State, p: int) -> bool:", self.where(winners), eligible)
        keys = []
        for key in winners.keys:
            value = self.expr(key.value, "p", {})
            value = f"int({value})" if key.value.type == m.BOOL else f"({value})"
            keys.append(value if key.order == "highest" else "-" + value)
        self.lines(
            "def _rank(s: State, p: int) -> tuple[int, ...]:",
            self.where(winners),
            f"return {self.tuple_code(keys)}",
        )
