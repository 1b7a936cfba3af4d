"""Lark's parse tree -> the typed syntax tree (dsl.syntax), by one table.

Each rule of the grammar has one line in RULES, in the grammar's order, saying
which class of dsl/syntax.py it builds and which field each of its children
fills (as lark's ast_utils maps rules to classes). A child that is a token is
made into the value its field's declared type asks for: a Name, a RuleId, a
StringLit or Message with its escapes decoded, a number or a word. Every
node gets the span of the text its rule matched. So the grammar, this table
and the syntax classes say the same thing three ways, and no rule needs code
of its own beyond the few shapes below (tags, chains, and/or, messages).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from functools import cache
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import attrs
from lark import Token, Transformer
from lark.tree import Meta

from splendor_rules.dsl import messages as msgs
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic

# Parses the text of a `{...}` placeholder embedded at (line, column) of a file.
PlaceholderParser = Callable[[str, str, int, int], tuple[s.Expr | None, list[Diagnostic]]]
RuleBuilder = Callable[["TreeBuilder", Meta, list[Any]], Any]
Convert = Callable[["TreeBuilder", Any], Any]

_BRACE = re.compile(r"[{}]")
# A message shows at most this many values: engines build it by joining its
# parts, and a code generator may nest the joins.
MAX_MESSAGE_VALUES = 50
# One character of a string as written: an escape sequence, or any other character.
_ESCAPE_UNIT = re.compile(
    r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|[0-7]{1,3}|.)|.", re.S
)


def span_of(file: str, meta: Meta | Token) -> s.Span:
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


def decode_string(token: Token) -> str:
    """Decode a STRING token's escapes the way Python would, safely."""
    try:
        value = ast.literal_eval(str(token))
    except (ValueError, SyntaxError):
        return str(token)[1:-1]
    return value if isinstance(value, str) else str(token)[1:-1]


def written_offsets(written: str, value: str) -> list[int] | None:
    """Where each character of a string's value is written, from just after
    its opening quote (escapes such as \\" make the two differ); None when
    they are the same, or when the escapes cannot be followed."""
    if written == value:
        return None
    offsets: list[int] = []
    for unit in _ESCAPE_UNIT.finditer(written):
        try:
            decoded = ast.literal_eval(f'"{unit.group()}"') if len(unit.group()) > 1 else "."
        except (ValueError, SyntaxError):
            return None
        offsets.extend([unit.start()] * len(decoded))
    return offsets if len(offsets) == len(value) else None


class TreeBuilder(Transformer[Token, Any]):
    """Builds the syntax tree of one file, or of an expression embedded in a
    string at (line_offset + 1, column_offset + 1) of it."""

    def __init__(
        self,
        file: str,
        placeholders: PlaceholderParser | None = None,
        line_offset: int = 0,
        column_offset: int = 0,
    ) -> None:
        super().__init__()
        self.file = file
        self.placeholders = placeholders
        self.line_offset = line_offset
        self.column_offset = column_offset

    def __default__(self, data: str, children: list[Any], meta: Meta) -> Any:
        return RULES[data](self, meta, children)

    def span_at(self, meta: Meta | Token) -> s.Span:
        span = span_of(self.file, meta)
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

    def name_node(self, token: Token) -> s.Name:
        return s.Name(span=self.span_at(token), text=str(token))

    def string_node(self, token: Token) -> s.StringLit:
        return s.StringLit(span=self.span_at(token), value=decode_string(token))

    def message_node(self, token: Token) -> s.Message:
        """A message split into its text and its `{expression}` parts, each
        expression parsed with its place in the file; `{{` and `}}` are
        literal braces."""
        span = self.span_at(token)
        value = decode_string(token)
        parts = _MessageScanner(self, span, str(token)[1:-1], value).parts()
        return s.Message(span=span, value=value, parts=tuple(parts))


class _MessageScanner:
    """Splits a message's text at its `{...}` parts: `{{` and `}}` stand for
    one brace each, as in a Python f-string; a brace that pairs with none (a
    '}' before any '{', a '{' with another '{' before its '}') is text too."""

    def __init__(self, builder: TreeBuilder, span: s.Span, written: str, value: str) -> None:
        self.builder = builder
        self.span = span
        self.value = value
        # Where each character of the value is written (escapes make the two
        # differ), computed once for the whole message.
        self.offsets = written_offsets(written, value)
        self.out: list[str | s.Expr | s.BrokenPlaceholder] = []
        self.text: list[str] = []
        self.values = 0  # the {...} parts met so far

    def column(self, index: int) -> int:
        """The column of the file where character `index` of the value is written."""
        if self.offsets is None or index >= len(self.offsets):
            return self.span.column + 1 + index
        return self.span.column + 1 + self.offsets[index]

    def at(self, index: int, length: int = 1) -> s.Span:
        line, column = self.span.line, self.column(index)
        return s.Span(self.span.file, line, column, line, column + length)

    def flush(self) -> None:
        if self.text:
            self.out.append("".join(self.text))
            self.text = []

    def broken(self, diagnostic: Diagnostic) -> None:
        self.flush()
        self.out.append(_broken(diagnostic))

    def parts(self) -> list[str | s.Expr | s.BrokenPlaceholder]:
        value, i = self.value, 0
        while i < len(value):
            char = value[i]
            if char in "{}" and value.startswith(char * 2, i):
                self.text.append(char)
                i += 2
            elif char == "{":
                i = self.placeholder(i)
            else:
                brace = _BRACE.search(value, i + 1)
                end = brace.start() if brace else len(value)
                self.text.append(value[i:end])
                i = end
        self.flush()
        return self.out

    def placeholder(self, start: int) -> int:
        """The `{...}` part opening at `start`; where the text goes on after it."""
        value = self.value
        brace = _BRACE.search(value, start + 1)
        if brace is None or brace.group() == "{":
            self.text.append("{")
            return start + 1
        close = brace.start()
        inner = value[start + 1 : close]
        self.values += 1
        if self.values > MAX_MESSAGE_VALUES:
            if self.values == MAX_MESSAGE_VALUES + 1:  # reported at the first one too many
                self.broken(msgs.too_many_values(self.at(start), MAX_MESSAGE_VALUES))
        elif "\n" in inner:  # an escaped line break: it has no place in the file
            self.broken(msgs.line_break_in_placeholder(self.span))
        elif not inner.strip():
            self.broken(msgs.empty_placeholder(self.at(start, close - start + 1)))
        else:
            self.flush()
            parse = self.builder.placeholders
            assert parse is not None, "a message outside a rule file"
            expr, errors = parse(inner, self.builder.file, self.span.line, self.column(start + 1))
            self.out.extend(_broken(error) for error in errors)
            if expr is not None:
                self.out.append(expr)
        return close + 1


def _broken(diagnostic: Diagnostic) -> s.BrokenPlaceholder:
    return s.BrokenPlaceholder(
        span=diagnostic.span, problem=diagnostic.message, hint=diagnostic.hint
    )


# ------------------------------------------------------ tokens to values


@attrs.frozen
class _Part:
    """Some fields of the node the enclosing rule builds: a line of a
    majority, the kind of a token property, the key of a remove."""

    values: Mapping[str, Any]


def _token_maker(options: tuple[Any, ...]) -> Convert:
    """How a token becomes a value of a field that may hold `options`."""

    def make(builder: TreeBuilder, token: Token) -> Any:
        if token.type == "STRING" and s.Message in options:
            return builder.message_node(token)
        if token.type == "STRING" and s.StringLit in options:
            return builder.string_node(token)
        if s.Name in options:
            return builder.name_node(token)
        if s.RuleId in options:
            return s.RuleId(span=builder.span_at(token), text=str(token))
        if int in options:
            return int(token)
        return str(token)  # a word: str or a Literal of words

    return make


def _converter(kind: Any) -> Convert:
    """How a child (a token, a built node, a tuple, or None for an absent
    optional part) becomes the value of a field of type `kind`."""
    if kind is bool:
        return lambda builder, value: bool(value)
    if get_origin(kind) is tuple:
        return _tuple_converter(kind)
    options = get_args(kind) if get_origin(kind) in (Union, UnionType) else (kind,)
    sequence = next((_tuple_converter(o) for o in options if get_origin(o) is tuple), None)
    make = _token_maker(options)

    def convert(builder: TreeBuilder, value: Any) -> Any:
        if isinstance(value, Token):
            return make(builder, value)
        if sequence is not None and isinstance(value, tuple | list):
            return sequence(builder, value)
        return value

    return convert


def _tuple_converter(kind: Any) -> Convert:
    """tuple[X, ...] (absent: empty), or a fixed tuple such as tuple[int, int].
    Pairs and the like are written flat, {2: 4, 3: 5}, and grouped here."""
    arguments = get_args(kind)
    if len(arguments) == 2 and arguments[1] is Ellipsis:
        element = _converter(arguments[0])
        width = len(get_args(arguments[0])) if get_origin(arguments[0]) is tuple else 0

        def elements(builder: TreeBuilder, value: Any) -> tuple[Any, ...]:
            if value is None:
                return ()
            items = list(value)
            if width:
                items = [tuple(items[i : i + width]) for i in range(0, len(items), width)]
            return tuple(element(builder, item) for item in items)

        return elements
    parts = [_converter(argument) for argument in arguments]
    return lambda builder, value: tuple(
        convert(builder, item) for convert, item in zip(parts, value, strict=True)
    )


@cache
def _field_converters(kind: type) -> dict[str, Convert]:
    hints = get_type_hints(kind)
    return {field.name: _converter(hints[field.name]) for field in attrs.fields(kind)}


# ------------------------------------------------------ shapes of rules


def node(node_class: type, /, *names: str, **constants: Any) -> RuleBuilder:
    """A rule that builds `node_class`: its children fill the named fields in order
    (a last name with * takes the rest of them, absent ones dropped), a _Part
    child fills the fields it carries, and `constants` fill the others."""
    rest = names[-1][1:] if names and names[-1].startswith("*") else None
    fixed = names[:-1] if rest else names

    def build(builder: TreeBuilder, meta: Meta, children: list[Any]) -> Any:
        values = dict(constants)
        plain = []
        for child in children:
            if isinstance(child, _Part):
                values.update(child.values)
            else:
                plain.append(child)
        if rest is None:
            values.update(zip(fixed, plain, strict=True))
        else:
            values.update(zip(fixed, plain[: len(fixed)], strict=True))
            values[rest] = [child for child in plain[len(fixed) :] if child is not None]
        converters = _field_converters(node_class)
        converted = {name: converters[name](builder, value) for name, value in values.items()}
        return node_class(span=builder.span_at(meta), **converted)

    return build


def part(*names: str, **constants: Any) -> RuleBuilder:
    """A rule that gives some fields of the node its parent builds."""
    return lambda builder, meta, children: _Part(
        {**constants, **dict(zip(names, children, strict=True))}
    )


def tagged(kind: type) -> RuleBuilder:
    """`[ids] declaration` or `[ids] statement`: the inner node, tagged, and
    spanning its tags."""
    convert = _field_converters(kind)["tags"]

    def build(builder: TreeBuilder, meta: Meta, children: list[Any]) -> Any:
        tags, inner = children
        return attrs.evolve(inner, tags=convert(builder, tags), span=builder.span_at(meta))

    return build


def cited_rule_id(builder: TreeBuilder, meta: Meta, children: list[Any]) -> s.RuleId:
    """`see ID`: a rule id cited, spanning the id alone (as a stated one does)."""
    (token,) = children
    return s.RuleId(span=builder.span_at(token), text=str(token), cited=True)


def limit_kinds(not_counting: bool) -> RuleBuilder:
    """`counting KIND, …` (or `not counting …`) of a token limit: fields of its StepLimit."""
    return lambda builder, meta, children: _Part(
        {"kinds": tuple(children), "not_counting": not_counting}
    )


def logic(op: Literal["and", "or"]) -> RuleBuilder:
    """`a and b and c` as one flat node; a single operand is itself."""

    def build(builder: TreeBuilder, meta: Meta, children: list[Any]) -> Any:
        if len(children) == 1:
            return children[0]
        return s.Logic(span=builder.span_at(meta), op=op, operands=tuple(children))

    return build


# A chain of operators, `a + b - c + ...`, is built as nested binary nodes
# that associate to the left, in groups of this many operands; a longer chain
# is a chain of such groups, so that its depth grows with the logarithm of
# its length (every later stage walks the tree recursively). The operators
# regrouped (`+`, `-` and `*` on whole numbers) are exact, so regrouping
# keeps the value: `l - (a - b)` is `l - a + b`. Division and remainder
# (`/`, `%`) are not: a chain holding one is nested to the left as written,
# one level per operator.
CHAIN_GROUP = 8
_FLIPPED = {"+": "-", "-": "+"}
UNGROUPED = frozenset(("/", "%"))


def chain_depth(operands: int, grouped: bool = True) -> int:
    """How many binary nodes deep `chain` builds a chain of `operands`
    (`grouped`: none of its operators is in UNGROUPED)."""
    if not grouped:
        return operands - 1
    depth = 0
    while operands > 1:
        depth += min(operands, CHAIN_GROUP) - 1
        operands = -(-operands // CHAIN_GROUP)
    return depth


def chain(builder: TreeBuilder, meta: Meta, children: list[Any]) -> s.Expr:
    """`a + b - c`, written flat, as nested binary nodes (see CHAIN_GROUP)."""
    items: list[tuple[str, s.Expr]] = [("+", children[0])]
    items += [(str(children[i]), children[i + 1]) for i in range(1, len(children), 2)]
    if any(op in UNGROUPED for op, _ in items):
        return _left_nested(builder.file, items)[1]
    while len(items) > 1:
        items = [
            _left_nested(builder.file, items[i : i + CHAIN_GROUP])
            for i in range(0, len(items), CHAIN_GROUP)
        ]
    return items[0][1]


def _left_nested(file: str, group: list[tuple[str, s.Expr]]) -> tuple[str, s.Expr]:
    """A group of a chain, `op a op b op c`, as `op (a op b op c)`: after a
    '-', the operators inside are flipped."""
    sign, result = group[0]
    for op, right in group[1:]:
        span = s.Span(
            file, result.span.line, result.span.column, right.span.end_line, right.span.end_column
        )
        written = _FLIPPED[op] if sign == "-" else op
        result = s.Binary(span=span, op=written, left=result, right=right)
    return sign, result


def first(builder: TreeBuilder, meta: Meta, children: list[Any]) -> Any:
    return children[0]


def collect(builder: TreeBuilder, meta: Meta, children: list[Any]) -> tuple[Any, ...]:
    return tuple(children)


# The words of a player's name (grammar rule player_name) -> its PlayerWord.
_PLAYER_WORDS: dict[str, s.PlayerWord] = {
    "you": "you",
    "opponent": "opponent",
    "next": "next",
    "previous": "previous",
    "other": "others",
}


def player_name(builder: TreeBuilder, meta: Meta, children: list[Any]) -> s.PlayerName:
    return s.PlayerName(span=builder.span_at(meta), which=_PLAYER_WORDS[str(children[0])])


def constant(value: Any) -> RuleBuilder:
    return lambda builder, meta, children: value


# The grammar's rules (dsl/grammar.lark), section by section.
RULES: dict[str, RuleBuilder] = {
    # items
    "start": first,
    "edition": node(s.Edition, "name", "title", "parent", "*items"),
    "extends": first,
    "declaration": tagged(s.Decl),
    "tags": collect,
    "cited_rule_id": cited_rule_id,
    "override": node(s.Override, "decl"),
    "remove": node(s.Remove),
    "key": part("kind", "name"),
    "file_key": part("kind", "file"),
    "rename": node(s.Rename, "kind", "*renamings"),
    "rename_kind": first,
    "renaming": node(s.Renaming, "old", "new", "title"),
    # components
    "reference": node(s.Reference, "path", "*prefixes"),
    "players": node(s.Players, "low", "high"),
    "colours": node(s.Colours, "*names"),
    "token": node(s.Token, "name", "title", "*properties"),
    "token_property": node(s.TokenProperty, "tags"),
    "wild": part(kind="wild"),
    "special": part(kind="special"),
    "never_returned": part(kind="never_returned"),
    "at_most": part("amount", kind="at_most"),
    "counts_as": part("amount", "condition", kind="counts_as"),
    "supply": node(s.Supply, "*lines"),
    "supply_line": node(s.SupplyLine, "target", "amount"),
    "seat_setup": node(s.SeatSetup, "*lines"),
    "seat_gift": node(s.SeatGift, "position", "amount", "token"),
    "each_colour": constant(None),
    "by_players": first,
    "int_map": node(s.IntMap, "*entries"),
    "cards": node(s.Cards, "name", "path", "row_count", "*columns"),
    "tiles": node(s.Tiles, "name", "path", "row_count", "sides_by", "shared", "*columns"),
    "row_count": node(s.RowCount, "count"),
    "sides": first,
    "claimed_once": constant(True),
    "column": node(s.Column, "name", "type", "source", "default"),
    "column_source": first,
    "column_default": first,
    "int_type": node(s.ColumnType, kind="int"),
    "int_range_type": node(s.ColumnType, "low", "high", kind="int_range"),
    "bool_type": node(s.ColumnType, kind="bool"),
    "text_type": node(s.ColumnType, kind="text"),
    "colour_type": node(s.ColumnType, "mapping", kind="colour"),
    "colour_or_none_type": node(s.ColumnType, "mapping", kind="colour_or_none"),
    "one_of_type": node(s.ColumnType, "*values", kind="one_of"),
    "per_colour_type": node(s.ColumnType, "mapping", kind="per_colour"),
    "value_map": collect,
    "column_map": collect,
    "zone": node(s.Zone, "name", "content"),
    "set_zone": node(s.Zone, "name", "typed_by", "content"),
    "card_value": node(s.CardValue, "name", "kind"),
    "card_value_kind": first,
    "board": node(s.Board, "rows", "columns", "*order"),
    "cell": node(s.Cell, "row", "column"),
    "bag": node(s.Bag, "*lines"),
    # setup
    "market": node(s.Market, "name", "table", "group_by", "deck_sizes", "face_up"),
    "refill": node(s.Refill),
    "reveal": node(s.Reveal, "tiles", "count", "random_face"),
    "random_face": constant(True),
    "turn_order": node(s.TurnOrder),
    "randomness": node(s.Randomness),
    "hidden": node(s.Hidden, "*parts"),
    "hidden_deck_order": node(s.HiddenPart, kind="deck_order"),
    "hidden_from_deck": node(s.HiddenPart, "zone", kind="from_deck"),
    # actions
    "action": node(s.Action, "name", "title", "before", "body"),
    "before_main": first,
    "before_repeat": first,
    "fallback_action": node(s.Action, "name", "title", body=None),
    "block": collect,
    "statement": tagged(s.Statement),
    "let": node(s.Let, "name", "value"),
    "choose": node(s.Choose, "name", "*sources"),
    "choose_distinct": node(s.ChooseDistinct, "name", "count", "source"),
    "may_choose": node(s.MayChoose, "name", "*sources"),
    "require": node(s.Require, "condition", "message"),
    "gain": node(s.Gain, "amount", "token"),
    "gain_each": node(s.GainEach, "amount", "tokens"),
    "pay": node(s.Pay, "cost", "discount", "into_bag"),
    "pay_using": node(s.Pay, "cost", "discount", "wild_cards", "into_bag"),
    "into_bag": constant(True),
    "choose_line": node(s.ChooseLine, "name", "low", "high", "source"),
    "take_cells": node(s.TakeCells, "cells"),
    "refill_board": node(s.RefillBoard),
    "move": node(s.Move, "card", "zone"),
    "return_to_box": node(s.ReturnToBox, "cards"),
    "if_": node(s.If, "condition", "body"),
    "set_value": node(s.SetValue, "card", "value_name", "value"),
    "another_turn": node(s.AnotherTurn),
    "take": node(s.Transfer, "amount", "token", "source", verb="take"),
    "give": node(s.Transfer, "amount", "token", "source", "target", verb="give"),
    "the_supply": node(s.TheSupply),
    "wild_cards": node(s.WildCards, "variable", "source", "condition", "units"),
    "deck_tops": node(s.DeckTops),
    "trigger": node(s.Trigger, "name", "card", "zone", "body"),
    "majority": node(s.Majority, "name", "title"),
    "majority_points": part("points"),
    "majority_measure": part("measure"),
    "majority_threshold": part("threshold"),
    "majority_event": part("event_zone"),
    "majority_ties_keep": part(ties_keep_holder=True),
    "majority_zone": part("zone"),
    # end of the turn
    "step": node(s.Step, "name", "place", "body"),
    "step_place": node(s.StepPlace, "side", "other"),
    "step_limit": node(s.StepLimit, "limit", "into_bag"),
    "limit_counting": limit_kinds(False),
    "limit_not_counting": limit_kinds(True),
    "step_claim": node(s.StepClaim, "tiles", "variable", "zone", "condition"),
    "step_claim_from": node(s.StepClaim, "tiles", "variable", "source", "zone", "condition"),
    "step_end_check": node(s.StepEndCheck),
    "decisions": node(s.Decisions, "*names"),
    # end of the game
    "define": node(s.Define, "name", "parameters", "value"),
    "parameters": collect,
    "parameter": node(s.Parameter, "name", "kind"),
    "set_parameter": node(s.Parameter, "name", "typed_by", kind="tile"),
    "parameter_type": first,
    "score": node(s.Score, "value"),
    "end_once": node(s.Ending, "name", "condition", mode="once"),
    "end_at_round_end": node(s.Ending, "name", "condition", mode="at_round_end"),
    "end_at_turn_end": node(s.Ending, "name", "condition", mode="at_turn_end"),
    "winners": node(s.Winners, "among", "*keys"),
    "among": first,
    "rank_key": node(s.RankKey, "order", "value"),
    # expressions
    "filter": node(s.Filter, "variable", "source", "condition"),
    "per_colour": node(s.PerColour, "variable", "body"),
    "conditional": node(s.Conditional, "then", "condition", "otherwise"),
    "or_": logic("or"),
    "and_": logic("and"),
    "not_": node(s.Not, "operand"),
    "comparison": node(s.Binary, "left", "op", "right"),
    "sum_expr": chain,
    "product": chain,
    "negate": node(s.Negate, "operand"),
    "attribute": node(s.Attribute, "subject", "attribute"),
    "index": node(s.Index, "subject", "index"),
    "call": node(s.Call, "function", "*arguments"),
    "over_players": node(s.OverPlayers, "body"),
    "over_set": node(s.OverSet, "variable", "source", "body"),
    "over_filtered_set": node(s.OverSet, "variable", "source", "condition", "body"),
    "int_literal": node(s.IntLit, "value"),
    "true_literal": node(s.BoolLit, value=True),
    "false_literal": node(s.BoolLit, value=False),
    "string_literal": node(s.TextLit, "text"),
    "name": node(s.NameRef, "name"),
    "of_player": node(s.OfPlayer, "value", "player"),
    "player_name": player_name,
}
