"""Source text -> Lark parse tree -> typed syntax tree (dsl.syntax).

`parse_edition` never raises for bad input: a syntax error comes back as a
located Diagnostic, with the tokens that would have been accepted and, for
the common slips, a hint.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import attrs
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.tree import Meta

from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, did_you_mean

_OPENING = {"LPAR", "LSQB"}
_CLOSING = {"RPAR", "RSQB"}


class _JoinBracketedLines:
    """Postlexer: a line break inside ( ) or [ ] does not end a statement."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        for token in stream:
            if token.type in _OPENING:
                depth += 1
            elif token.type in _CLOSING:
                depth = max(0, depth - 1)
            elif token.type == "_NL" and depth > 0:
                continue
            yield token


@cache
def _lark() -> Lark:
    grammar_file = resources.files("splendor_rules.dsl").joinpath("grammar.lark")
    grammar = grammar_file.read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=_JoinBracketedLines(),
    )


def _span(file: str, meta: Meta | Token) -> s.Span:
    # An empty Meta (a rule that matched no token) has no position at all.
    line = getattr(meta, "line", None) or 1
    column = getattr(meta, "column", None) or 1
    return s.Span(
        file,
        line,
        column,
        getattr(meta, "end_line", None) or line,
        getattr(meta, "end_column", None) or column,
    )


# Beyond these, a tree is refused with a located error rather than passed on:
# every later stage walks the tree recursively, and Python's int() refuses
# numbers of more than 4300 digits.
MAX_DEPTH = 100  # levels of the parse tree; the shipped editions use under 20
MAX_DIGITS = 100
_CHAINS = {"sum_expr", "product"}


def _limits(tree: Tree[Token], file: str) -> Diagnostic | None:
    """The first place where the tree nests too deeply or a number is too long."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return Diagnostic(
                "error",
                f"this nests too deeply (over {MAX_DEPTH} levels)",
                _span(file, node.meta),
                "name a part of it with 'define'",
            )
        # `a + b + c` is one flat node here, but nests to the left once built.
        step = len(node.children) // 2 + 1 if node.data in _CHAINS else 1
        for child in reversed(node.children):
            if isinstance(child, Tree):
                stack.append((child, depth + step))
            elif isinstance(child, Token) and child.type == "INT" and len(child) > MAX_DIGITS:
                return Diagnostic(
                    "error",
                    f"a number of {len(child)} digits is too long",
                    _span(file, child),
                    f"at most {MAX_DIGITS} digits",
                )
    return None


def _string(token: Token) -> str:
    """Decode a STRING token's escapes the way Python would, safely."""
    try:
        value = ast.literal_eval(str(token))
    except (ValueError, SyntaxError):
        return str(token)[1:-1]
    return value if isinstance(value, str) else str(token)[1:-1]


class _Builder(Transformer[Token, Any]):
    """Turns Lark's parse tree into dsl.syntax nodes, each with its span."""

    def __init__(self, file: str, line_offset: int = 0, column_offset: int = 0) -> None:
        super().__init__()
        self.file = file
        self.line_offset = line_offset
        self.column_offset = column_offset

    def at(self, meta: Meta | Token) -> s.Span:
        span = _span(self.file, meta)
        if not (self.line_offset or self.column_offset):
            return span
        # An expression embedded in a string: shift onto the string's place.
        column_shift = self.column_offset if span.line == 1 else 0
        end_shift = self.column_offset if span.end_line == 1 else 0
        return s.Span(
            self.file,
            span.line + self.line_offset,
            span.column + column_shift,
            span.end_line + self.line_offset,
            span.end_column + end_shift,
        )

    def ident(self, token: Token) -> s.Name:
        return s.Name(span=self.at(token), text=str(token))

    def text(self, token: Token) -> s.StringLit:
        return s.StringLit(span=self.at(token), value=_string(token))

    # ------------------------------------------------------------- items

    @v_args(meta=True)
    def start(self, meta: Meta, children: list[Any]) -> s.Edition:
        edition: s.Edition = children[0]
        return edition

    @v_args(meta=True)
    def edition(self, meta: Meta, children: list[Any]) -> s.Edition:
        name, title, parent, *items = children
        return s.Edition(
            span=self.at(meta),
            name=self.ident(name),
            title=self.text(title),
            parent=parent,
            items=tuple(items),
        )

    def extends(self, children: list[Token]) -> s.Name:
        return self.ident(children[0])

    @v_args(meta=True)
    def declaration(self, meta: Meta, children: list[Any]) -> s.Decl:
        tags, decl = children
        tagged: s.Decl = attrs.evolve(decl, tags=tags or (), span=self.at(meta))
        return tagged

    def tags(self, children: list[Token]) -> tuple[s.RuleId, ...]:
        return tuple(s.RuleId(span=self.at(t), text=str(t)) for t in children)

    @v_args(meta=True)
    def override(self, meta: Meta, children: list[Any]) -> s.Override:
        return s.Override(span=self.at(meta), decl=children[0])

    @v_args(meta=True)
    def remove(self, meta: Meta, children: list[Any]) -> s.Remove:
        kind, name = children[0]
        return s.Remove(span=self.at(meta), kind=kind, name=name)

    def key(self, children: list[Token | None]) -> tuple[s.Name, s.Name | None]:
        kind, name = children
        assert kind is not None
        return self.ident(kind), self.ident(name) if name is not None else None

    @v_args(meta=True)
    def rename(self, meta: Meta, children: list[Any]) -> s.Rename:
        kind, *renamings = children
        return s.Rename(span=self.at(meta), kind=kind, renamings=tuple(renamings))

    def rename_kind(self, children: list[Token]) -> str:
        return str(children[0])

    @v_args(meta=True)
    def renaming(self, meta: Meta, children: list[Any]) -> s.Renaming:
        old, new, title = children
        return s.Renaming(
            span=self.at(meta),
            old=self.ident(old),
            new=self.ident(new),
            title=self.text(title) if title is not None else None,
        )

    # -------------------------------------------------------- components

    @v_args(meta=True)
    def reference(self, meta: Meta, children: list[Token]) -> s.Reference:
        path, *prefixes = children
        return s.Reference(
            span=self.at(meta), path=self.text(path), prefixes=tuple(str(p) for p in prefixes)
        )

    @v_args(meta=True)
    def players(self, meta: Meta, children: list[Token]) -> s.Players:
        low, high = children
        return s.Players(span=self.at(meta), low=int(low), high=int(high))

    @v_args(meta=True)
    def colours(self, meta: Meta, children: list[Token]) -> s.Colours:
        return s.Colours(span=self.at(meta), names=tuple(self.ident(t) for t in children))

    @v_args(meta=True)
    def token(self, meta: Meta, children: list[Any]) -> s.Token:
        name, title, *properties = children
        return s.Token(
            span=self.at(meta),
            name=self.ident(name),
            title=self.text(title) if title is not None else None,
            properties=tuple(properties),
        )

    @v_args(meta=True)
    def token_property(self, meta: Meta, children: list[Any]) -> s.TokenProperty:
        tags, (kind, amount) = children
        return s.TokenProperty(span=self.at(meta), tags=tags or (), kind=kind, amount=amount)

    def wild(self, _: list[Any]) -> tuple[str, None]:
        return ("wild", None)

    def special(self, _: list[Any]) -> tuple[str, None]:
        return ("special", None)

    def never_returned(self, _: list[Any]) -> tuple[str, None]:
        return ("never_returned", None)

    def at_most(self, children: list[Token]) -> tuple[str, int]:
        return ("at_most", int(children[0]))

    @v_args(meta=True)
    def supply(self, meta: Meta, children: list[s.SupplyLine]) -> s.Supply:
        return s.Supply(span=self.at(meta), lines=tuple(children))

    @v_args(meta=True)
    def supply_line(self, meta: Meta, children: list[Any]) -> s.SupplyLine:
        target, amount = children
        return s.SupplyLine(
            span=self.at(meta),
            target=None if target == "each colour" else self.ident(target),
            amount=int(amount) if isinstance(amount, Token) else amount,
        )

    def each_colour(self, _: list[Any]) -> str:
        return "each colour"

    def by_players(self, children: list[s.IntMap]) -> s.IntMap:
        return children[0]

    @v_args(meta=True)
    def int_map(self, meta: Meta, children: list[Token]) -> s.IntMap:
        numbers = [int(t) for t in children]
        return s.IntMap(
            span=self.at(meta), entries=tuple(zip(numbers[::2], numbers[1::2], strict=True))
        )

    @v_args(meta=True)
    def cards(self, meta: Meta, children: list[Any]) -> s.Cards:
        path, rows, *columns = children
        return s.Cards(span=self.at(meta), path=self.text(path), rows=rows, columns=tuple(columns))

    @v_args(meta=True)
    def tiles(self, meta: Meta, children: list[Any]) -> s.Tiles:
        name, path, rows, sides, *columns = children
        return s.Tiles(
            span=self.at(meta),
            name=self.ident(name),
            path=self.text(path),
            rows=rows,
            sides_by=sides,
            columns=tuple(columns),
        )

    def row_count(self, children: list[Token]) -> int:
        return int(children[0])

    def sides(self, children: list[Token]) -> s.Name:
        return self.ident(children[0])

    @v_args(meta=True)
    def column(self, meta: Meta, children: list[Any]) -> s.Column:
        name, column_type, source = children
        return s.Column(span=self.at(meta), name=self.ident(name), type=column_type, source=source)

    def column_source(self, children: list[Token]) -> s.StringLit:
        return self.text(children[0])

    @v_args(meta=True)
    def int_type(self, meta: Meta, _: list[Any]) -> s.ColumnType:
        return s.ColumnType(span=self.at(meta), kind="int")

    @v_args(meta=True)
    def int_range_type(self, meta: Meta, children: list[Token]) -> s.ColumnType:
        low, high = children
        return s.ColumnType(span=self.at(meta), kind="int_range", low=int(low), high=int(high))

    @v_args(meta=True)
    def bool_type(self, meta: Meta, _: list[Any]) -> s.ColumnType:
        return s.ColumnType(span=self.at(meta), kind="bool")

    @v_args(meta=True)
    def text_type(self, meta: Meta, _: list[Any]) -> s.ColumnType:
        return s.ColumnType(span=self.at(meta), kind="text")

    @v_args(meta=True)
    def colour_type(self, meta: Meta, children: list[Any]) -> s.ColumnType:
        return s.ColumnType(span=self.at(meta), kind="colour", mapping=children[0] or ())

    @v_args(meta=True)
    def per_colour_type(self, meta: Meta, children: list[Any]) -> s.ColumnType:
        return s.ColumnType(span=self.at(meta), kind="per_colour", mapping=children[0] or ())

    def value_map(self, children: list[Token]) -> tuple[tuple[s.Name, s.Name], ...]:
        names = [self.ident(t) for t in children]
        return tuple(zip(names[::2], names[1::2], strict=True))

    def column_map(self, children: list[Token]) -> tuple[tuple[s.Name, s.StringLit], ...]:
        return tuple(
            (self.ident(children[i]), self.text(children[i + 1]))
            for i in range(0, len(children), 2)
        )

    @v_args(meta=True)
    def zone(self, meta: Meta, children: list[Token]) -> s.Zone:
        name, content = children
        kind: Any = str(content)
        return s.Zone(span=self.at(meta), name=self.ident(name), content=kind)

    # ------------------------------------------------------------- setup

    @v_args(meta=True)
    def market(self, meta: Meta, children: list[Any]) -> s.Market:
        group_by, sizes, face_up = children
        return s.Market(
            span=self.at(meta),
            group_by=self.ident(group_by),
            deck_sizes=sizes,
            face_up=int(face_up),
        )

    @v_args(meta=True)
    def refill(self, meta: Meta, _: list[Any]) -> s.Refill:
        return s.Refill(span=self.at(meta))

    @v_args(meta=True)
    def reveal(self, meta: Meta, children: list[Any]) -> s.Reveal:
        tiles, count, random_face = children
        return s.Reveal(
            span=self.at(meta),
            tiles=self.ident(tiles),
            count=count,
            random_face=random_face is not None,
        )

    def random_face(self, _: list[Any]) -> bool:
        return True

    @v_args(meta=True)
    def turn_order(self, meta: Meta, _: list[Any]) -> s.TurnOrder:
        return s.TurnOrder(span=self.at(meta))

    @v_args(meta=True)
    def randomness(self, meta: Meta, _: list[Any]) -> s.Randomness:
        return s.Randomness(span=self.at(meta))

    @v_args(meta=True)
    def hidden(self, meta: Meta, children: list[s.HiddenPart]) -> s.Hidden:
        return s.Hidden(span=self.at(meta), parts=tuple(children))

    @v_args(meta=True)
    def hidden_deck_order(self, meta: Meta, _: list[Any]) -> s.HiddenPart:
        return s.HiddenPart(span=self.at(meta), kind="deck_order")

    @v_args(meta=True)
    def hidden_from_deck(self, meta: Meta, children: list[Token]) -> s.HiddenPart:
        return s.HiddenPart(span=self.at(meta), kind="from_deck", zone=self.ident(children[0]))

    # ----------------------------------------------------------- actions

    @v_args(meta=True)
    def action(self, meta: Meta, children: list[Any]) -> s.Action:
        name, title, body = children
        return s.Action(
            span=self.at(meta),
            name=self.ident(name),
            title=self.text(title) if title is not None else None,
            body=body,
        )

    @v_args(meta=True)
    def fallback_action(self, meta: Meta, children: list[Any]) -> s.Action:
        name, title = children
        return s.Action(
            span=self.at(meta),
            name=self.ident(name),
            title=self.text(title) if title is not None else None,
            body=None,
        )

    def block(self, children: list[s.Statement]) -> tuple[s.Statement, ...]:
        return tuple(children)

    @v_args(meta=True)
    def statement(self, meta: Meta, children: list[Any]) -> s.Statement:
        tags, statement = children
        tagged: s.Statement = attrs.evolve(statement, tags=tags or (), span=self.at(meta))
        return tagged

    @v_args(meta=True)
    def let(self, meta: Meta, children: list[Any]) -> s.Let:
        name, value = children
        return s.Let(span=self.at(meta), tags=(), name=self.ident(name), value=value)

    @v_args(meta=True)
    def choose(self, meta: Meta, children: list[Any]) -> s.Choose:
        name, *sources = children
        return s.Choose(span=self.at(meta), tags=(), name=self.ident(name), sources=tuple(sources))

    @v_args(meta=True)
    def choose_distinct(self, meta: Meta, children: list[Any]) -> s.ChooseDistinct:
        name, count, source = children
        return s.ChooseDistinct(
            span=self.at(meta), tags=(), name=self.ident(name), count=count, source=source
        )

    @v_args(meta=True)
    def require(self, meta: Meta, children: list[Any]) -> s.Require:
        condition, message = children
        return s.Require(
            span=self.at(meta), tags=(), condition=condition, message=self.text(message)
        )

    @v_args(meta=True)
    def gain(self, meta: Meta, children: list[Any]) -> s.Gain:
        amount, token = children
        return s.Gain(span=self.at(meta), tags=(), amount=amount, token=self.ident(token))

    @v_args(meta=True)
    def gain_each(self, meta: Meta, children: list[Any]) -> s.GainEach:
        amount, tokens = children
        return s.GainEach(span=self.at(meta), tags=(), amount=amount, tokens=tokens)

    @v_args(meta=True)
    def pay(self, meta: Meta, children: list[Any]) -> s.Pay:
        cost, discount = children
        return s.Pay(span=self.at(meta), tags=(), cost=cost, discount=discount)

    @v_args(meta=True)
    def move(self, meta: Meta, children: list[Token]) -> s.Move:
        card, zone = children
        return s.Move(span=self.at(meta), tags=(), card=self.ident(card), zone=self.ident(zone))

    @v_args(meta=True)
    def if_(self, meta: Meta, children: list[Any]) -> s.If:
        condition, body = children
        return s.If(span=self.at(meta), tags=(), condition=condition, body=body)

    @v_args(meta=True)
    def deck_tops(self, meta: Meta, _: list[Any]) -> s.DeckTops:
        return s.DeckTops(span=self.at(meta))

    @v_args(meta=True)
    def trigger(self, meta: Meta, children: list[Any]) -> s.Trigger:
        name, card, zone, body = children
        return s.Trigger(
            span=self.at(meta),
            name=self.ident(name),
            card=self.ident(card),
            zone=self.ident(zone),
            body=body,
        )

    @v_args(meta=True)
    def majority(self, meta: Meta, children: list[Any]) -> s.Majority:
        name, title, *lines = children
        fields: dict[str, Any] = dict(lines)
        return s.Majority(
            span=self.at(meta),
            name=self.ident(name),
            title=self.text(title) if title is not None else None,
            points=fields.get("points"),
            measure=fields.get("measure"),
            threshold=fields.get("threshold"),
            event_zone=fields.get("event_zone"),
            zone=fields.get("zone"),
            ties_keep_holder="ties_keep_holder" in fields,
        )

    def majority_points(self, children: list[Token]) -> tuple[str, int]:
        return ("points", int(children[0]))

    def majority_measure(self, children: list[s.Expr]) -> tuple[str, s.Expr]:
        return ("measure", children[0])

    def majority_threshold(self, children: list[Token]) -> tuple[str, int]:
        return ("threshold", int(children[0]))

    def majority_event(self, children: list[Token]) -> tuple[str, s.Name]:
        return ("event_zone", self.ident(children[0]))

    def majority_ties_keep(self, _: list[Any]) -> tuple[str, bool]:
        return ("ties_keep_holder", True)

    def majority_zone(self, children: list[Token]) -> tuple[str, s.Name]:
        return ("zone", self.ident(children[0]))

    # --------------------------------------------------- end of the turn

    @v_args(meta=True)
    def step(self, meta: Meta, children: list[Any]) -> s.Step:
        name, body = children
        return s.Step(span=self.at(meta), name=self.ident(name), body=body)

    @v_args(meta=True)
    def step_limit(self, meta: Meta, children: list[Token]) -> s.StepLimit:
        return s.StepLimit(span=self.at(meta), limit=int(children[0]))

    @v_args(meta=True)
    def step_claim(self, meta: Meta, children: list[Any]) -> s.StepClaim:
        tiles, variable, zone, condition = children
        return s.StepClaim(
            span=self.at(meta),
            tiles=self.ident(tiles),
            variable=self.ident(variable),
            zone=self.ident(zone),
            condition=condition,
        )

    @v_args(meta=True)
    def step_end_check(self, meta: Meta, _: list[Any]) -> s.StepEndCheck:
        return s.StepEndCheck(span=self.at(meta))

    @v_args(meta=True)
    def decisions(self, meta: Meta, children: list[Token]) -> s.Decisions:
        return s.Decisions(span=self.at(meta), names=tuple(self.ident(t) for t in children))

    # ------------------------------------------------- end of the game

    @v_args(meta=True)
    def define(self, meta: Meta, children: list[Any]) -> s.Define:
        name, value = children
        return s.Define(span=self.at(meta), name=self.ident(name), value=value)

    @v_args(meta=True)
    def score(self, meta: Meta, children: list[s.Expr]) -> s.Score:
        return s.Score(span=self.at(meta), value=children[0])

    @v_args(meta=True)
    def end_once(self, meta: Meta, children: list[Any]) -> s.Ending:
        name, condition = children
        return s.Ending(span=self.at(meta), name=self.ident(name), mode="once", condition=condition)

    @v_args(meta=True)
    def end_at_round_end(self, meta: Meta, children: list[Any]) -> s.Ending:
        name, condition = children
        return s.Ending(
            span=self.at(meta), name=self.ident(name), mode="at_round_end", condition=condition
        )

    @v_args(meta=True)
    def winners(self, meta: Meta, children: list[Any]) -> s.Winners:
        among, *keys = children
        return s.Winners(span=self.at(meta), among=among, keys=tuple(keys))

    def among(self, children: list[s.Expr]) -> s.Expr:
        return children[0]

    @v_args(meta=True)
    def rank_key(self, meta: Meta, children: list[Any]) -> s.RankKey:
        order, value = children
        return s.RankKey(span=self.at(meta), order=str(order), value=value)  # type: ignore[arg-type]

    # ------------------------------------------------------ expressions

    @v_args(meta=True)
    def filter(self, meta: Meta, children: list[Any]) -> s.Filter:
        variable, source, condition = children
        return s.Filter(
            span=self.at(meta), variable=self.ident(variable), source=source, condition=condition
        )

    @v_args(meta=True)
    def per_colour(self, meta: Meta, children: list[Any]) -> s.PerColour:
        variable, body = children
        return s.PerColour(span=self.at(meta), variable=self.ident(variable), body=body)

    @v_args(meta=True)
    def conditional(self, meta: Meta, children: list[s.Expr]) -> s.Conditional:
        then, condition, otherwise = children
        return s.Conditional(
            span=self.at(meta), then=then, condition=condition, otherwise=otherwise
        )

    @v_args(meta=True)
    def or_(self, meta: Meta, children: list[s.Expr]) -> s.Expr:
        if len(children) == 1:
            return children[0]
        return s.Logic(span=self.at(meta), op="or", operands=tuple(children))

    @v_args(meta=True)
    def and_(self, meta: Meta, children: list[s.Expr]) -> s.Expr:
        if len(children) == 1:
            return children[0]
        return s.Logic(span=self.at(meta), op="and", operands=tuple(children))

    @v_args(meta=True)
    def not_(self, meta: Meta, children: list[s.Expr]) -> s.Not:
        return s.Not(span=self.at(meta), operand=children[0])

    @v_args(meta=True)
    def negate(self, meta: Meta, children: list[s.Expr]) -> s.Negate:
        return s.Negate(span=self.at(meta), operand=children[0])

    @v_args(meta=True)
    def comparison(self, meta: Meta, children: list[Any]) -> s.Binary:
        left, op, right = children
        return s.Binary(span=self.at(meta), op=str(op), left=left, right=right)

    def _chain(self, meta: Meta, children: list[Any]) -> s.Expr:
        result: s.Expr = children[0]
        for i in range(1, len(children), 2):
            right: s.Expr = children[i + 1]
            span = s.Span(
                self.file,
                result.span.line,
                result.span.column,
                right.span.end_line,
                right.span.end_column,
            )
            result = s.Binary(span=span, op=str(children[i]), left=result, right=right)
        return result

    @v_args(meta=True)
    def sum_expr(self, meta: Meta, children: list[Any]) -> s.Expr:
        return self._chain(meta, children)

    @v_args(meta=True)
    def product(self, meta: Meta, children: list[Any]) -> s.Expr:
        return self._chain(meta, children)

    @v_args(meta=True)
    def attribute(self, meta: Meta, children: list[Any]) -> s.Attribute:
        subject, attribute = children
        return s.Attribute(span=self.at(meta), subject=subject, attribute=self.ident(attribute))

    @v_args(meta=True)
    def index(self, meta: Meta, children: list[Any]) -> s.Index:
        subject, index = children
        return s.Index(span=self.at(meta), subject=subject, index=index)

    @v_args(meta=True)
    def call(self, meta: Meta, children: list[Any]) -> s.Call:
        function, *arguments = children
        return s.Call(
            span=self.at(meta),
            function=self.ident(function),
            arguments=tuple(a for a in arguments if a is not None),
        )

    @v_args(meta=True)
    def over_players(self, meta: Meta, children: list[s.Expr]) -> s.OverPlayers:
        return s.OverPlayers(span=self.at(meta), body=children[0])

    @v_args(meta=True)
    def over_set(self, meta: Meta, children: list[Any]) -> s.OverSet:
        variable, source, body = children
        return s.OverSet(
            span=self.at(meta), variable=self.ident(variable), source=source, body=body
        )

    @v_args(meta=True)
    def int_literal(self, meta: Meta, children: list[Token]) -> s.IntLit:
        return s.IntLit(span=self.at(meta), value=int(children[0]))

    @v_args(meta=True)
    def true_literal(self, meta: Meta, _: list[Any]) -> s.BoolLit:
        return s.BoolLit(span=self.at(meta), value=True)

    @v_args(meta=True)
    def false_literal(self, meta: Meta, _: list[Any]) -> s.BoolLit:
        return s.BoolLit(span=self.at(meta), value=False)

    @v_args(meta=True)
    def name(self, meta: Meta, children: list[Token]) -> s.NameRef:
        return s.NameRef(span=self.at(meta), name=str(children[0]))


# ------------------------------------------------------------------ entry points

_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "RULE_ID": "a rule id",
    "_NL": "a line break",
    "COMPARE": "a comparison",
    "ADD": "'+' or '-'",
    "MUL": "'*'",
    "KEY_KIND": "a kind of declaration",
    "ZONE_CONTENT": "'cards' or 'tiles'",
    "RANK_ORDER": "'highest' or 'lowest'",
    "RULE_PREFIX": "a capital letter",
    "$END": "the end of the file",
}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    for definition in _lark().terminals:
        if definition.name == terminal and definition.pattern.type == "str":
            return f"'{definition.pattern.value}'"
    return terminal.lower()


def _keywords(terminal: str) -> list[str]:
    """The literal words of a keyword terminal, for 'did you mean' hints: its
    word, or each word of a list of words such as 'highest' | 'lowest'."""
    for definition in _lark().terminals:
        if definition.name != terminal:
            continue
        value = str(definition.pattern.value)
        if definition.pattern.type == "str":
            words = [value]
        else:
            listed = re.fullmatch(r"\(\?:([a-z|\\ -]+)\)", value)
            words = listed.group(1).replace("\\", "").split("|") if listed else []
        return [w for w in words if re.fullmatch(r"[a-z][a-z -]*", w)]
    return []


def _syntax_error(error: UnexpectedInput, file: str, text: str) -> Diagnostic:
    lines = text.splitlines() or [""]
    line = error.line if error.line and error.line > 0 else len(lines)
    column = error.column if error.column and error.column > 0 else len(lines[line - 1]) + 1
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position] if position < len(text) else ""
        span = s.Span(file, line, column, line, column + 1)
        quote_hint = "strings are written in double quotes" if char == "'" else None
        return Diagnostic("error", f"unexpected character {char!r}", span, quote_hint)

    expected: set[str] = set()
    found = "end of file"
    end_column = column + 1
    hint: str | None = None
    if isinstance(error, UnexpectedToken):
        expected = set(error.expected)
        token = error.token
        if token.type == "$END":
            found = "end of file"
        elif token.type == "_NL":
            found = "end of line"
        else:
            found = repr(str(token))
            end_column = (token.end_column or column + 1) if token.end_line == line else column + 1
        keywords = [k for terminal in expected for k in _keywords(terminal)]
        # A misspelt keyword lexes as whatever word-like token fits (a name,
        # a rule id), so go by its text rather than its type.
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", str(token)) and keywords:
            hint = did_you_mean(str(token), keywords)
        elif str(token) == "=" and "COMPARE" in expected:
            hint = "use '==' to compare"
        elif token.type == "$END" and "RBRACE" in expected:
            hint = "a '{' is never closed"
        elif token.type == "_NL" and "RBRACE" not in expected:
            hint = "the line ends before the statement is complete"
    elif isinstance(error, UnexpectedEOF):
        expected = set(error.expected)
        if "RBRACE" in expected:
            hint = "a '{' is never closed"
    words = sorted({_describe(t) for t in expected})
    if len(words) > 8:
        words = [*words[:8], "..."]
    message = f"unexpected {found}"
    if words:
        message += f"; expected {', '.join(words)}"
    return Diagnostic("error", message, s.Span(file, line, column, line, end_column), hint)


def parse_edition(text: str, file: str) -> tuple[s.Edition | None, list[Diagnostic]]:
    """Parse one rule file. Returns the tree, or None and the syntax error."""
    try:
        tree = _lark().parse(text, start="start")
    except UnexpectedInput as error:
        return None, [_syntax_error(error, file, text)]
    too_far = _limits(tree, file)
    if too_far is not None:
        return None, [too_far]
    edition: s.Edition = _Builder(file).transform(tree)
    return edition, []


def parse_expression(
    text: str, file: str, line: int, column: int
) -> tuple[s.Expr | None, list[Diagnostic]]:
    """Parse an expression embedded at (line, column) of a file, such as the
    `{supply(c)}` placeholders of a requirement's message."""
    try:
        tree = _lark().parse(text, start="expr")
        diagnostic = _limits(tree, file)
    except UnexpectedInput as error:
        diagnostic = _syntax_error(error, file, text)
    if diagnostic is not None:
        at = diagnostic.span
        shifted = s.Span(
            file,
            line + at.line - 1,
            at.column + (column - 1 if at.line == 1 else 0),
            line + at.end_line - 1,
            at.end_column + (column - 1 if at.end_line == 1 else 0),
        )
        return None, [Diagnostic("error", diagnostic.message, shifted, diagnostic.hint)]
    expr: s.Expr = _Builder(file, line - 1, column - 1).transform(tree)
    return expr, []


__all__ = ["VisitError", "parse_edition", "parse_expression"]
