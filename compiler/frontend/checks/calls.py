"""The calls of an expression: the built-in functions (any, all, holds,
did, supply, tokens, count, sum, distinct, min, max) and the definitions with
parameters. Part of the expression checker (checks/expressions.py), which
provides the typing of the arguments; kept apart so that each stays short.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks import typed
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.scopes import BUILTINS, Scope, bind
from splendor_rules.compiler.frontend.checks.unused import warn_unused_locals
from splendor_rules.compiler.frontend.editions import Entry
from splendor_rules.compiler.frontend.model import (
    BOOL,
    CARD,
    COLOUR,
    ERROR,
    INT,
    PLAYER,
    TOKEN,
    Type,
)
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import Visitor

# The type of a card value, and of a definition's parameter, by the word written.
VALUE_TYPES = {
    "colour": COLOUR,
    "int": INT,
    "bool": BOOL,
    "card": CARD,
    "tile": m.tile(None),
    "player": PLAYER,
}


def fits(actual: Type, expected: Type) -> bool:
    """May a value of type `actual` stand where `expected` is wanted?"""
    if ERROR in (actual, expected):
        return True
    if actual == expected:
        return True
    if expected == TOKEN and actual == COLOUR:
        return True
    if actual.kind == expected.kind and actual.kind in ("set", "list"):
        assert actual.element is not None and expected.element is not None
        return fits(actual.element, expected.element)
    if actual.kind == expected.kind == "tile":
        return expected.tiles is None
    return False


class CallChecker(Visitor):
    """Types calls; `ExpressionChecker` provides `check`, `expect`,
    `element_of` and `definition_type`."""

    context: Context
    checked_defines: dict[str, m.Define]

    def check(self, written: s.Expr, scope: Scope) -> m.Expr:
        raise NotImplementedError

    def expect(self, written: s.Expr, scope: Scope, expected: Type) -> m.Expr:
        raise NotImplementedError

    def element_of(self, collection: m.Expr, span: s.Span, sets_only: bool = False) -> Type:
        raise NotImplementedError

    def definition_type(self, entry: Entry) -> Type:
        raise NotImplementedError

    # ------------------------------------------------------------ calls

    def visit_Call(self, e: s.Call, scope: Scope) -> m.Expr:
        context = self.context
        function = e.function.text
        args = e.arguments
        if function not in BUILTINS and context.renames.apply(function) in context.defines:
            return self.apply(e, scope)
        if function not in BUILTINS:
            self.context.report(msgs.unknown(e.function.span, "function", function, BUILTINS))
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        several = function in ("min", "max")
        if (several and len(args) < 2) or (not several and len(args) != 1):
            self.context.report(msgs.arity(e.span, function, len(args), several))
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        return self._CALLS[function](self, e, scope)

    def apply(self, e: s.Call, scope: Scope) -> m.Expr:
        """`name(arguments)`: a definition with parameters, read for the
        player in context, each argument of its parameter's type."""
        context = self.context
        name = context.renames.apply(e.function.text)
        context.used_globals.add(name)
        if not scope.player:
            context.report(msgs.no_player(e.span, name))
        type_ = self.definition_type(context.defines[name])
        decl = context.defines[name].decl
        assert isinstance(decl, s.Define)
        if len(e.arguments) != len(decl.parameters):
            context.report(
                msgs.definition_arity(e.span, name, len(decl.parameters), len(e.arguments))
            )
            return m.Apply(type=ERROR, span=e.span, name=name, arguments=())
        checked = self.checked_defines.get(name)
        types = [t for _, t in checked.parameters] if checked is not None else []
        arguments = tuple(
            self.argument(name, argument, parameter, types[i] if types else None, scope)
            for i, (argument, parameter) in enumerate(
                zip(e.arguments, decl.parameters, strict=True)
            )
        )
        return m.Apply(type=type_, span=e.span, name=name, arguments=arguments)

    def argument(
        self, name: str, written: s.Expr, parameter: s.Parameter, type_: Type | None, scope: Scope
    ) -> m.Expr:
        """An argument of a definition, of its parameter's type as checked
        (a tile set's tiles for a parameter typed by that set; while the
        definition is being typed, its parameter's word)."""
        expected = type_ or VALUE_TYPES[parameter.kind]
        value = self.check(written, scope)
        if typed.check_argument(self.context, name, parameter, expected, value) and not fits(
            value.type, expected
        ):
            self.context.report(msgs.expected_type(written.span, expected, value.type))
        return value

    def call_any_all(self, e: s.Call, scope: Scope) -> m.Expr:
        """any/all: over the players, or over the elements of a set."""
        function, arg = e.function.text, e.arguments[0]
        op: Any = function
        if isinstance(arg, s.OverPlayers):
            body = self.expect(arg.body, scope.child(player=True), BOOL)
            return m.Quantifier(
                type=BOOL, span=e.span, op=op, variable=None, source=None, body=body
            )
        if isinstance(arg, s.OverSet):
            source, condition, body = self.over_set(arg, scope, BOOL)
            if condition is not None:  # any/all of the elements that pass
                source = m.Filter(
                    type=source.type if source.type != ERROR else m.set_of(ERROR),
                    span=arg.span,
                    variable=arg.variable.text,
                    source=source,
                    condition=condition,
                )
            return m.Quantifier(
                type=BOOL, span=e.span, op=op, variable=arg.variable.text, source=source, body=body
            )
        self.context.report(msgs.quantifier_argument(arg.span, function))
        return m.Const(type=ERROR, span=e.span, value=False)

    def over_set(
        self, arg: s.OverSet, scope: Scope, wanted: Type
    ) -> tuple[m.Expr, m.Expr | None, m.Expr]:
        """`x in source [where condition]: body`, with x bound in the
        condition and the body, and the body of the type wanted."""
        source = self.check(arg.source, scope)
        element = self.element_of(source, arg.source.span)
        inner = scope.child()
        bind(self.context, inner, arg.variable, element)
        condition = None
        if arg.condition is not None:
            condition = self.expect(arg.condition, inner, BOOL)
        body = self.check(arg.body, inner)
        if not fits(body.type, wanted):
            report = msgs.total_needs_number if wanted == INT else msgs.expected_type
            self.context.report(report(arg.body.span, wanted, body.type))
        warn_unused_locals(self.context, inner)
        return source, condition, body

    def call_holds_did(self, e: s.Call, scope: Scope) -> m.Expr:
        """holds(majority) and did(action): the name of a declaration, read
        for the player in context."""
        context = self.context
        function, arg = e.function.text, e.arguments[0]
        wanted = "majority" if function == "holds" else "action"
        known = sorted(context.majority_names if function == "holds" else context.action_names)
        if not scope.player:
            context.report(msgs.no_player(e.span, function))
        if not isinstance(arg, s.NameRef):
            context.report(msgs.needs_name_of(arg.span, function, wanted))
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        name = context.renames.apply(arg.name)
        if name not in known:
            kind = context.kind_of(name)
            context.report(
                msgs.wrong_named_argument(arg.span, function, wanted, name, arg.name, kind, known)
            )
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        context.used_globals.add(name)
        ref = m.Ref(type=ERROR, span=arg.span, kind=wanted, name=name)  # type: ignore[arg-type]
        return m.Call(type=BOOL, span=e.span, function=function, arguments=(ref,))

    def call_supply_tokens(self, e: s.Call, scope: Scope) -> m.Expr:
        """supply(token) and tokens(token), the latter the player's own."""
        function, written = e.function.text, e.arguments[0]
        if function == "tokens" and not scope.player:
            self.context.report(msgs.no_player(e.span, "tokens"))
        arg = self.check(written, scope)
        if not fits(arg.type, TOKEN):
            self.context.report(msgs.needs_token_kind(written.span, function, arg.type))
        else:
            self.not_none(arg)
        return m.Call(type=INT, span=e.span, function=function, arguments=(arg,))

    def not_none(self, value: m.Expr) -> None:
        """A token kind that may be none (the literal, a `colour or none`
        column) is no token kind: reported."""
        if isinstance(value, m.Conditional):
            self.not_none(value.then)
            self.not_none(value.otherwise)
        elif isinstance(value, m.Const) and value.value is None:
            self.context.report(msgs.none_is_no_token(value.span))
        elif isinstance(value, m.Attr) and value.subject.type.kind in ("card", "tile"):
            table = "cards" if value.subject.type == CARD else value.subject.type.tiles
            if value.attribute in self.context.none_columns.get(table or "", set()):
                self.context.report(msgs.none_is_no_token(value.span))

    def call_count(self, e: s.Call, scope: Scope) -> m.Expr:
        written = e.arguments[0]
        arg = self.check(written, scope)
        self.element_of(arg, written.span)
        return m.Call(type=INT, span=e.span, function="count", arguments=(arg,))

    def call_sum(self, e: s.Call, scope: Scope) -> m.Expr:
        written = e.arguments[0]
        if isinstance(written, s.OverSet):  # sum(x in S where C: E)
            source, condition, body = self.over_set(written, scope, INT)
            return m.Total(
                type=INT,
                span=e.span,
                variable=written.variable.text,
                source=source,
                condition=condition,
                body=body,
            )
        arg = self.check(written, scope)
        if not fits(arg.type, m.list_of(INT)) and not fits(arg.type, m.set_of(INT)):
            self.context.report(msgs.sum_needs_numbers(written.span, arg.type))
        return m.Call(type=INT, span=e.span, function="sum", arguments=(arg,))

    def call_distinct(self, e: s.Call, scope: Scope) -> m.Expr:
        """distinct(list): the number of different numbers, or of different
        colours (none not counted), in a list or set, as sum(list) takes."""
        written = e.arguments[0]
        arg = self.check(written, scope)
        element = arg.type.element if arg.type.kind in ("set", "list") else arg.type
        if ERROR not in (arg.type, element) and (
            arg.type.kind not in ("set", "list") or element not in (INT, COLOUR, TOKEN)
        ):
            wanted = COLOUR if element in (COLOUR, TOKEN) else INT
            self.context.report(msgs.expected_type(written.span, m.list_of(wanted), arg.type))
        return m.Call(type=INT, span=e.span, function="distinct", arguments=(arg,))

    def call_min_max(self, e: s.Call, scope: Scope) -> m.Expr:
        """min and max of two or more numbers."""
        checked = tuple(self.expect(a, scope, INT) for a in e.arguments)
        return m.Call(type=INT, span=e.span, function=e.function.text, arguments=checked)

    _CALLS: ClassVar[dict[str, Callable[[CallChecker, s.Call, Scope], m.Expr]]] = {
        "any": call_any_all,
        "all": call_any_all,
        "holds": call_holds_did,
        "did": call_holds_did,
        "supply": call_supply_tokens,
        "tokens": call_supply_tokens,
        "count": call_count,
        "sum": call_sum,
        "distinct": call_distinct,
        "min": call_min_max,
        "max": call_min_max,
    }
