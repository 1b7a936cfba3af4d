"""Players as values: the names of players (`you`, `opponent`, `next
player`, `previous player`, `other players`), values read for another
player (`VALUE of PLAYER`), and transfers of tokens between the players and
the supply (`take`, `give`).

`PlayerExpressions` is part of the expression checker (mixed into it, as
`CallChecker` is); `check_transfer` and `not_of_another` are called by the
statement checker; `check_hidden_reads` runs over the finished model, since
a definition read for another player is typed once, for any player.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.calls import fits
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.scopes import Scope
from splendor_rules.compiler.frontend.model import INT, PLAYER, TOKEN, Type
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import Visitor, children

# How each player's name is written (dsl/unparse.py prints the same words).
WORDS = {
    "you": "you",
    "opponent": "opponent",
    "next": "next player",
    "previous": "previous player",
    "others": "other players",
}


class PlayerExpressions(Visitor):
    """Types players' names and `of`; `ExpressionChecker` provides `check`
    and `expect`, and `CallChecker` `not_none`."""

    context: Context

    def check(self, written: s.Expr, scope: Scope) -> m.Expr:
        raise NotImplementedError

    def expect(self, written: s.Expr, scope: Scope, expected: Type) -> m.Expr:
        raise NotImplementedError

    def not_none(self, value: m.Expr) -> None:
        raise NotImplementedError

    def visit_PlayerName(self, e: s.PlayerName, scope: Scope) -> m.Expr:
        """A player named from the one in context: there must be one, and
        `opponent` needs a game of exactly two."""
        context = self.context
        if not scope.player:
            context.report(msgs.player_without_player(e.span, WORDS[e.which]))
        counts = context.player_counts
        if e.which == "opponent" and counts and (counts.start, counts.stop) != (2, 3):
            context.report(msgs.opponent_needs_two(e.span, counts.start, counts.stop - 1))
        type_ = m.set_of(PLAYER) if e.which == "others" else PLAYER
        return m.PlayerRef(type=type_, span=e.span, which=e.which)

    def visit_OfPlayer(self, e: s.OfPlayer, scope: Scope) -> m.Expr:
        """`value of player`: value read with that player in context."""
        player = self.expect(e.player, scope, PLAYER)
        value = self.check(e.value, scope.child(player=True))
        return m.OfPlayer(type=value.type, span=e.span, value=value, player=player)


def check_transfer(
    context: Context, checker: PlayerExpressions, st: s.Transfer, scope: Scope, ids: tuple[str, ...]
) -> m.Transfer:
    """`take N kind from HOLDER` and `give N kind [from HOLDER] to HOLDER`:
    a number, a token kind, and two holders that are not the same."""
    amount = checker.expect(st.amount, scope, INT)
    token = checker.check(s.NameRef(span=st.token.span, name=st.token.text), scope)
    if not fits(token.type, TOKEN):
        context.report(msgs.not_a_token_kind(st.token.span, st.token.text, token.type))
    else:
        checker.not_none(token)
    you = m.PlayerRef(type=PLAYER, span=st.span, which="you")
    if not scope.player:
        context.report(msgs.player_without_player(st.span, "you"))
    source = _holder(checker, st.source, scope)
    target = _holder(checker, st.target, scope)
    if st.verb == "take":
        target = you
    elif st.source is None:
        source = you
    if source is None and target is None:
        context.report(msgs.transfer_supply_to_supply(st.span))
    elif source is not None and source == target:
        context.report(msgs.transfer_to_itself(st.span))
    return m.Transfer(
        rule_ids=ids, span=st.span, amount=amount, token=token, source=source, target=target
    )


def _holder(
    checker: PlayerExpressions, written: s.Expr | s.TheSupply | None, scope: Scope
) -> m.Expr | None:
    if written is None or isinstance(written, s.TheSupply):
        return None
    return checker.expect(written, scope, PLAYER)


def not_of_another(context: Context, value: m.Expr, span: s.Span) -> None:
    """A choice or a let of cards or tiles read from another player's zones
    is refused: moves and returns name the player's own."""
    element = value.type.element if value.type.kind in ("set", "list") else value.type
    if element is not None and element.kind in ("card", "tile") and _from_another(value):
        context.report(msgs.cards_of_other_named(span, f"{element.kind}s"))


def _from_another(value: m.Expr) -> bool:
    """Are the elements of a value read from another player's zones (a
    condition that reads another player, `x in market where count(bought)
    of opponent > 0`, is not)?"""
    if isinstance(value, m.OfPlayer):
        return not _is_you(value.player)
    if isinstance(value, m.Filter):
        return _from_another(value.source)
    if isinstance(value, m.Conditional):
        return _from_another(value.then) or _from_another(value.otherwise)
    return False


# ------------------------------------------------------------ hidden cards


def check_hidden_reads(context: Context, model: m.Edition) -> None:
    """Another player's cards in a zone that hides cards from a deck may be
    counted, not read: `count(reserved) of opponent`, not
    `sum(reserved.points) of opponent`, nor a definition that reads them."""
    hidden = {z.name for z in model.zones if z.hidden_from_deck}
    if not hidden:
        return
    reads = _HiddenReads(model, hidden)
    stack = list(reversed(_model_parts(model)))
    while stack:  # the outermost `of` that reads them is reported, not those inside it
        node = stack.pop()
        if isinstance(node, m.OfPlayer) and not _is_you(node.player):
            found = reads.first(node.value)
            if found is not None:
                zone, via = found
                context.report(msgs.hidden_of_other(node.span, zone, via))
                continue
        stack.extend(reversed(list(children(node))))


def _is_you(player: m.Expr) -> bool:
    return isinstance(player, m.PlayerRef) and player.which == "you"


def _model_parts(model: m.Edition) -> list[object]:
    return [
        *model.actions,
        *model.triggers,
        *model.majorities,
        *model.steps,
        *model.defines,
        model.score,
        *model.endings,
        model.winners,
        *model.reveals,
    ]


class _HiddenReads:
    """Which expressions read the cards of a hidden zone (a count of the
    zone itself reads its size only), through the definitions they use."""

    def __init__(self, model: m.Edition, hidden: set[str]) -> None:
        self.hidden = hidden
        self.defines = {("define", d.name): d for d in model.defines}
        self.defines["score", "score"] = model.score
        self.known: dict[tuple[str, str], tuple[str, str | None] | None] = {}

    def first(self, expr: object) -> tuple[str, str | None] | None:
        """The first hidden zone an expression reads the cards of, and the
        definition it reads it through (None: directly)."""
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, m.Call) and node.function == "count":
                (argument,) = node.arguments
                if isinstance(argument, m.Ref) and argument.kind == "zone":
                    continue  # the size of a zone is seen by all
            if isinstance(node, m.Ref) and node.kind == "zone" and node.name in self.hidden:
                return node.name, None
            key = self._definition(node)
            if key is not None:
                found = self.through(key)
                if found is not None:
                    return found[0], found[1] or key[1]
            stack.extend(reversed(list(children(node))))
        return None

    @staticmethod
    def _definition(node: object) -> tuple[str, str] | None:
        """The definition (or the score) a node reads, if it reads one."""
        if isinstance(node, m.Ref) and node.kind in ("define", "score"):
            return node.kind, node.name
        if isinstance(node, m.Apply):
            return "define", node.name
        return None

    def through(self, key: tuple[str, str]) -> tuple[str, str | None] | None:
        if key not in self.known:
            self.known[key] = None  # definitions use no cycle; this would end one
            define = self.defines.get(key)
            self.known[key] = self.first(define.value) if define is not None else None
        return self.known[key]
