"""Expression typing: a syntax expression -> a typed model expression.

One `visit_<Node>` method per kind of expression, read in a Scope. An
expression that is wrong gets the type ERROR, which fits everywhere, so that
one mistake is not reported again by what contains it. Definitions are typed
here too, each once, in the order checks/definitions.py finds (the ones a
definition uses first), so that they may use each other in any order.
"""

from __future__ import annotations

from typing import Any

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.board import CELL_ATTRIBUTES
from splendor_rules.compiler.frontend.checks.calls import VALUE_TYPES, CallChecker, fits
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.players import PlayerExpressions
from splendor_rules.compiler.frontend.checks.scopes import Scope, bind
from splendor_rules.compiler.frontend.checks.typed import column_of_some_sets, parameter_type
from splendor_rules.compiler.frontend.checks.unused import warn_unused_locals
from splendor_rules.compiler.frontend.editions import Entry
from splendor_rules.compiler.frontend.model import (
    BOOL,
    CARD,
    CELL,
    COLOUR,
    ERROR,
    INT,
    PLAYER,
    TEXT,
    TOKEN,
    VECTOR,
    Type,
)
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import hints_left

# Global names read for the player in context.
_PLAYER_REFS = {"zone", "define", "score"}
_COMPARABLE = (INT, BOOL, COLOUR, TOKEN, CARD, TEXT, PLAYER)


class ExpressionChecker(CallChecker, PlayerExpressions):
    """Types the expressions of one edition, and its definitions."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.define_types: dict[str, Type] = {}
        self.checked_defines: dict[str, m.Define] = {}
        self.defining: list[str] = []  # the definitions being typed, outermost first

    def check(self, written: s.Expr, scope: Scope) -> m.Expr:
        checked: m.Expr = self.visit(written, scope)
        return checked

    def expect(self, written: s.Expr, scope: Scope, expected: Type) -> m.Expr:
        value = self.check(written, scope)
        if not fits(value.type, expected):
            self.context.report(msgs.expected_type(written.span, expected, value.type))
        return value

    def element_of(self, collection: m.Expr, span: s.Span, sets_only: bool = False) -> Type:
        kinds = ("set",) if sets_only else ("set", "list")
        if collection.type == ERROR:
            return ERROR
        if collection.type.kind not in kinds or collection.type.element is None:
            self.context.report(msgs.expected_collection(span, collection.type, sets_only))
            return ERROR
        return collection.type.element

    def generic_visit(self, node: Any, *args: Any) -> Any:
        raise AssertionError(f"unhandled expression {type(node).__name__}")

    # -------------------------------------------------------- definitions

    def definition_type(self, entry: Entry) -> Type:
        """Check a definition once, on first use, so that definitions may use
        each other in any order; a definition that uses itself is an error."""
        context = self.context
        decl = entry.decl
        assert isinstance(decl, s.Define)
        name = entry.renames.apply(decl.name.text)
        if name in self.define_types:
            return self.define_types[name]
        if name in self.defining:
            cycle = [*self.defining[self.defining.index(name) :], name]
            context.report(msgs.definition_cycle(decl.name.span, name, cycle))
            return ERROR
        saved = (context.renames, context.current_ids)
        context.enter(entry)
        self.defining.append(name)
        scope = Scope(player=True)
        parameters = self.parameters(decl, scope)
        value = self.check(decl.value, scope)
        warn_unused_locals(context, scope)
        self.defining.pop()
        context.renames, context.current_ids = saved
        self.define_types[name] = value.type
        self.checked_defines[name] = m.Define(
            rule_ids=tuple(t.text for t in decl.tags),
            span=decl.span,
            name=name,
            value=value,
            parameters=parameters,
        )
        return value.type

    def parameters(self, decl: s.Define, scope: Scope) -> tuple[tuple[str, Type], ...]:
        """A definition's parameters, bound in its scope: none may hide a
        name of the edition (a name means one thing wherever it is read)."""
        found = []
        for parameter in decl.parameters:
            text = parameter.name.text
            kind = self.context.kind_of(self.context.renames.apply(text))
            if kind:
                self.context.report(msgs.parameter_shadows(parameter.name.span, text, kind))
            type_ = parameter_type(self.context, parameter, VALUE_TYPES)
            bind(self.context, scope, parameter.name, type_)
            found.append((text, type_))
        return tuple(found)

    def arity_of(self, name: str) -> int:
        """How many arguments a definition takes (as written: it may not be typed yet)."""
        decl = self.context.defines[name].decl
        assert isinstance(decl, s.Define)
        return len(decl.parameters)

    # ----------------------------------------------------------- leaves

    def visit_IntLit(self, e: s.IntLit, scope: Scope) -> m.Expr:
        return m.Const(type=INT, span=e.span, value=e.value)

    def visit_BoolLit(self, e: s.BoolLit, scope: Scope) -> m.Expr:
        return m.Const(type=BOOL, span=e.span, value=e.value)

    def visit_TextLit(self, e: s.TextLit, scope: Scope) -> m.Expr:
        return m.Const(type=TEXT, span=e.span, value=e.text.value)

    def visit_DeckTops(self, e: s.DeckTops, scope: Scope) -> m.Expr:
        return m.DeckTops(type=m.set_of(CARD), span=e.span)

    def visit_NameRef(self, e: s.NameRef, scope: Scope) -> m.Expr:
        context = self.context
        local = scope.find(e.name)
        if local is not None:
            local.used.add(e.name)
            return m.Ref(type=local.names[e.name][0], span=e.span, kind="variable", name=e.name)
        name = context.renames.apply(e.name)
        if name == "none" and name not in context.globals:  # the colour of no colour
            return m.Const(type=COLOUR, span=e.span, value=None)
        if name not in context.globals:
            known = [*scope.visible(), *context.globals] if hints_left(len(context.globals)) else []
            context.report(msgs.unknown(e.span, "name", e.name, known))
            return m.Ref(type=ERROR, span=e.span, kind="variable", name=e.name)
        kind, type_ = context.globals[name]
        context.used_globals.add(name)
        if kind in ("majority", "action"):
            function = "holds" if kind == "majority" else "did"
            context.report(msgs.not_a_value(e.span, name, kind, function))
            return m.Ref(type=ERROR, span=e.span, kind=kind, name=name)
        if kind in _PLAYER_REFS and not scope.player:
            context.report(msgs.no_player(e.span, name))
        if kind == "define" and name in context.defines:
            type_ = self.definition_type(context.defines[name])
            wanted = self.arity_of(name)
            if wanted:
                context.report(msgs.definition_arity(e.span, name, wanted, 0))
                return m.Ref(type=ERROR, span=e.span, kind=kind, name=name)
        return m.Ref(type=type_, span=e.span, kind=kind, name=name)

    # ------------------------------------------------------- attributes

    def visit_Attribute(self, e: s.Attribute, scope: Scope) -> m.Expr:
        subject = self.check(e.subject, scope)
        attribute = e.attribute.text
        kind = subject.type
        many = kind.kind in ("set", "list")
        item = kind.element if many and kind.element else kind
        if item == ERROR:
            return m.Attr(type=ERROR, span=e.span, subject=subject, attribute=attribute)
        columns = self.attributes_of(item)
        if columns is None:
            self.context.report(msgs.no_attributes(e.attribute.span, kind))
            return m.Attr(type=ERROR, span=e.span, subject=subject, attribute=attribute)
        if attribute not in columns:
            if not column_of_some_sets(self.context, e.attribute, item):
                self.context.report(msgs.no_attribute(e.attribute.span, item, attribute, columns))
            return m.Attr(type=ERROR, span=e.span, subject=subject, attribute=attribute)
        type_ = columns[attribute]
        value = item == CARD and attribute in self.context.card_values
        return m.Attr(
            type=m.list_of(type_) if many else type_,
            span=e.span,
            subject=subject,
            attribute=attribute,
            source="value" if value else "column",
        )

    def attributes_of(self, item: Type) -> dict[str, Type] | None:
        """A card's or tile's attributes, from the declared columns (so that
        a data file that fails to load does not make every use fail too)."""
        columns = self.context.columns
        if item == CARD:
            values = self.context.card_values.values()
            return {**columns.get("cards", {}), **{v.name: VALUE_TYPES[v.type] for v in values}}
        if item == CELL:
            return dict(CELL_ATTRIBUTES)
        if item.kind != "tile":
            return None
        if item.tiles is not None:
            return columns.get(item.tiles, {})
        # Any tile: what every tile set and every majority tile has.
        common: dict[str, Type] | None = {"points": INT} if self.context.majority_names else None
        for name, types in columns.items():
            if name == "cards":
                continue
            common = (
                types if common is None else {k: v for k, v in common.items() if types.get(k) == v}
            )
        return common or {}

    def visit_Index(self, e: s.Index, scope: Scope) -> m.Expr:
        subject = self.expect(e.subject, scope, VECTOR)
        index = self.expect(e.index, scope, COLOUR)
        return m.Index(type=INT, span=e.span, subject=subject, index=index)

    # -------------------------------------------------------- operators

    def visit_Negate(self, e: s.Negate, scope: Scope) -> m.Expr:
        operand = self.expect(e.operand, scope, INT)
        return m.Unary(type=INT, span=e.span, op="-", operand=operand)

    def visit_Not(self, e: s.Not, scope: Scope) -> m.Expr:
        operand = self.expect(e.operand, scope, BOOL)
        return m.Unary(type=BOOL, span=e.span, op="not", operand=operand)

    def visit_Binary(self, e: s.Binary, scope: Scope) -> m.Expr:
        if e.op in ("+", "-", "*", "/", "%", "<", "<=", ">", ">="):
            left = self.expect(e.left, scope, INT)
            right = self.expect(e.right, scope, INT)
            type_ = INT if e.op in ("+", "-", "*", "/", "%") else BOOL
            return m.Binary(type=type_, span=e.span, op=e.op, left=left, right=right)
        left = self.check(e.left, scope)
        right = self.check(e.right, scope)
        if left.type.kind == "tile" or left.type not in (*_COMPARABLE, ERROR):
            self.context.report(msgs.not_comparable(e.left.span, left.type, e.op))
        elif not (fits(left.type, right.type) or fits(right.type, left.type)):
            self.context.report(msgs.cannot_compare(e.span, left.type, right.type))
        elif left.type == TEXT:
            self.check_text_value(left, right)
            self.check_text_value(right, left)
        return m.Binary(type=BOOL, span=e.span, op=e.op, left=left, right=right)

    def check_text_value(self, column: m.Expr, text: m.Expr) -> None:
        """A column of a closed set of values compared with a text it never holds."""
        if not (isinstance(column, m.Attr) and isinstance(text, m.Const)):
            return
        item = column.subject.type
        table = "cards" if item == CARD else item.tiles
        values = self.context.text_values.get(table or "", {}).get(column.attribute)
        if values and text.value not in values:
            assert isinstance(text.value, str)
            self.context.report(
                msgs.text_not_a_value(text.span, text.value, column.attribute, values)
            )

    def visit_Logic(self, e: s.Logic, scope: Scope) -> m.Expr:
        operands = tuple(self.expect(o, scope, BOOL) for o in e.operands)
        return m.Logic(type=BOOL, span=e.span, op=e.op, operands=operands)

    def visit_Conditional(self, e: s.Conditional, scope: Scope) -> m.Expr:
        condition = self.expect(e.condition, scope, BOOL)
        then = self.check(e.then, scope)
        otherwise = self.check(e.otherwise, scope)
        if not fits(otherwise.type, then.type):
            self.context.report(msgs.branch_types(e.span, then.type, otherwise.type))
        return m.Conditional(
            type=then.type, span=e.span, then=then, condition=condition, otherwise=otherwise
        )

    # ------------------------------------------------ binding expressions

    def visit_Filter(self, e: s.Filter, scope: Scope) -> m.Expr:
        source = self.check(e.source, scope)
        element = self.element_of(source, e.source.span)
        inner = scope.child()
        bind(self.context, inner, e.variable, element)
        condition = self.expect(e.condition, inner, BOOL)
        warn_unused_locals(self.context, inner)
        kind = source.type if source.type != ERROR else m.set_of(ERROR)
        return m.Filter(
            type=kind, span=e.span, variable=e.variable.text, source=source, condition=condition
        )

    def visit_PerColour(self, e: s.PerColour, scope: Scope) -> m.Expr:
        inner = scope.child()
        bind(self.context, inner, e.variable, COLOUR)
        body = self.expect(e.body, inner, INT)
        warn_unused_locals(self.context, inner)
        return m.PerColour(type=VECTOR, span=e.span, variable=e.variable.text, body=body)

    def visit_OverPlayers(self, e: s.OverPlayers, scope: Scope) -> m.Expr:
        return self.quantified_outside_call(e)

    def visit_OverSet(self, e: s.OverSet, scope: Scope) -> m.Expr:
        return self.quantified_outside_call(e)

    def quantified_outside_call(self, e: s.OverPlayers | s.OverSet) -> m.Expr:
        self.context.report(msgs.quantified_outside_call(e.span, e))
        return m.Const(type=ERROR, span=e.span, value=False)
