"""The Python target's printer of the engine plan's statements: for each
action the enumerator of its legal moves (`_legal_<name>`) and the function
that applies one (`_apply_<name>`), and the effects that actions, triggers
and follow-ups share. One `visit_<Op>` method per operation of
`backend/plan/ops.py`; the walk is the base printer's."""

from __future__ import annotations

import ast

from attrs import define, field

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.printer import PlanPrinter
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.base import LoweringPart, Source
from splendor_rules.compiler.backend.python.board import BoardPrinting
from splendor_rules.compiler.backend.python.emit import ExprEmitter
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.backend.python.payments import LegalPayments, token_pick
from splendor_rules.compiler.backend.python.several import SeveralPrinting
from splendor_rules.compiler.frontend import model as m

Printed = tuple[list[ast.stmt], Frame]
# The kinds of value a move shows as the engine's number itself.
SHOWN_AS_THEMSELVES = ("card", "cell", "tile")


def apart(sources: tuple[m.Expr, ...], edition: m.Edition) -> bool:
    """Can no two of the sources hold one value (analysis.apart)?"""
    return analysis.apart(sources, {d.name: d for d in edition.defines})


def plain(op: ops.ChoiceLoop | ops.Pick, edition: m.Edition) -> bool:
    """Is each value of the choice its own value in the move, with none
    offered twice? Cards of the market or of zones (the plan's `plain`),
    and numbers shown as themselves (cards, cells, tiles) from one source
    or from sources apart from one another (a filter of the market beside
    a zone): no pairs to build, none to make unique."""
    st = op.statement
    if op.plain:
        return True
    itself = all((s.type.element or m.ERROR).kind in SHOWN_AS_THEMSELVES for s in st.sources)
    no_tops = not any(isinstance(s, m.DeckTops) for s in st.sources)
    one = len(st.sources) == 1 or apart(st.sources, edition)
    return itself and no_tops and one


def illegal(message: ast.expr) -> ast.Raise:
    return py.raise_(py.call("IllegalAction", message))


@define
class Context:
    """What one function's operations share: the statements run once at its
    top (`hoisted`), the values of the move written (`shown`), and what
    ends the function after a wait (`stop`)."""

    action: str = ""
    hoisted: list[ast.stmt] = field(factory=list)
    shown: list[ast.expr] = field(factory=list)
    stop: list[ast.stmt] = field(factory=list)


class Actions(LoweringPart, PlanPrinter[ast.stmt, Frame], BoardPrinting, SeveralPrinting):
    """The functions of an edition's actions, and the effects of its
    triggers and follow-ups."""

    def __init__(
        self, edition: m.Edition, source: Source, emitter: ExprEmitter, plan: ops.Plan
    ) -> None:
        super().__init__(edition, source, emitter)
        self.plan = plan

    def functions(self) -> list[py.Function]:
        found = []
        for legal, apply in zip(self.plan.legal, self.plan.apply, strict=True):
            if legal is not None:
                found.append(self.legal(legal))
            found.append(self.apply(apply))
        return found

    def comment(self, st: m.Statement, own: tuple[str, ...]) -> list[ast.stmt]:
        """A statement that states rules of its own gets its own comment."""
        return [self.where(st, own)] if own else []

    def effects(self, body: ops.Block, frame: Frame, stop: list[ast.stmt]) -> Printed:
        """The effects of a block (on the state `frame` reads); `stop` ends
        the function after a follow-up's wait."""
        return self.block(body, frame, Context(stop=stop))

    # ------------------------------------------------------------ choices

    def choice_pairs(self, sources: tuple[m.Expr, ...], frame: Frame) -> ast.expr:
        """The (engine value, action value) pairs of a choice. Sources that are
        places a card is in (deck tops, the market, zones) share no value;
        any other union is made unique."""
        parts: list[ast.expr] = []
        disjoint = True
        state = py.name(frame.state)
        for source in sources:
            if isinstance(source, m.DeckTops):
                parts.append(py.call("_deck_tops", state))
                continue
            if isinstance(source, m.Ref) and source.kind == "market":
                pair = py.tuple_([py.name("k"), py.name("k")])
                parts.append(py.list_of(pair, "k", py.call("_market", state)))
                continue
            if not (isinstance(source, m.Ref) and source.kind == "zone"):
                disjoint = False
            if isinstance(source, m.Ref) and source.kind == "colours":
                parts.append(py.call("list", py.name("_COLOUR_PAIRS")))
                continue
            code = self.expr(source, frame)
            element = source.type.element or m.ERROR
            x = py.name("x")
            shown = py.item(py.name("TOKENS"), x) if element.kind in ("colour", "token") else x
            parts.append(py.list_of(py.tuple_([x, shown]), "x", code))
        joined = py.chain("+", parts)
        if disjoint or len(parts) == 1 or apart(sources, self.edition):
            return joined
        return py.call(self.emitter.helper("_unique"), joined)

    def distinct_pairs(self, st: m.ChooseDistinct, frame: Frame) -> ast.expr:
        """The (engine value, action value) pairs of each combination of a
        `choose x: N distinct from S`, cached on the values of S."""
        count = self.expr(st.count, frame)
        source = py.call("tuple", self.expr(st.source, frame))
        element = st.source.type.element or m.ERROR
        if element.kind in ("colour", "token"):
            return py.call("_token_combinations", source, count)
        return py.call(self.emitter.helper("_plain_combinations"), source, count)

    def plain_values(self, st: m.Choose, frame: Frame) -> ast.expr:
        """A choice's values when each is its own action value (cards from
        the market or a zone), so no pairs need building."""
        parts: list[ast.expr] = []
        for source in st.sources:
            if isinstance(source, m.Ref) and source.kind == "market":
                parts.append(py.call("_market", py.name(frame.state)))
            else:
                parts.append(self.expr(source, frame))
        return py.chain("+", parts)

    def options(self, loop: ops.ChoiceLoop | ops.CombinationLoop, frame: Frame) -> ast.expr:
        """The (engine value, action value) pairs of a follow-up's options."""
        if isinstance(loop, ops.ChoiceLoop):
            return self.choice_pairs(loop.statement.sources, frame)
        return self.distinct_pairs(loop.statement, frame)

    # ---------------------------------------------------------- legal moves

    def legal(self, plan: ops.Legal) -> py.Function:
        """The enumerator of an action's legal moves: a loop per choice, an
        `if` per requirement. Values that no choice changes are computed once,
        before the loops, and a card the player cannot afford is rejected by
        an unrolled shortfall test before any payment is enumerated."""
        hoisted, frame = self.prebind_names(plan.defines, Frame())
        context = Context(action=plan.action.name, hoisted=hoisted)
        body, _ = self.block(plan.body, frame, context)
        closed = self.open_moves(plan.before)
        return py.Function(
            ident("_legal_", plan.action.name),
            (("s", "State"), ("p", "int"), ("out", "list[Action]")),
            "None",
            [self.where(plan.action), *closed, *hoisted, *body],
        )

    def visit_Let(self, op: ops.Let, frame: Frame, context: Context) -> Printed:
        st = op.statement
        var = ident("v_", st.name)
        assign = py.assign(var, self.expr(st.value, frame))
        return [*self.comment(st, op.own), assign], frame.bind(st.name, var)

    def visit_ChoiceLoop(self, op: ops.ChoiceLoop, frame: Frame, context: Context) -> Printed:
        st = op.statement
        target: str | tuple[str, str]
        if plain(op, self.edition):
            var = public = ident("v_", st.name)
            values, target = self.plain_values(st, frame), var
        else:
            var = ident("v_", st.name) if op.read_later else ident("_v_", st.name)
            public = ident("a_", st.name)
            values, target = self.choice_pairs(st.sources, frame), (var, public)
        context.shown.append(py.name(public))
        inner, _ = self.block(op.body, frame.bind(st.name, var), context)
        return [*self.comment(st, op.own), py.for_(target, values, inner)], frame

    def visit_CombinationLoop(
        self, op: ops.CombinationLoop, frame: Frame, context: Context
    ) -> Printed:
        st = op.statement
        var = ident("v_", st.name) if op.read_later else ident("_v_", st.name)
        public = ident("a_", st.name)
        values = self.distinct_pairs(st, frame)
        context.shown.append(py.name(public))
        inner, _ = self.block(op.body, frame.bind(st.name, var), context)
        return [*self.comment(st, op.own), py.for_((var, public), values, inner)], frame

    def visit_Guard(self, op: ops.Guard, frame: Frame, context: Context) -> Printed:
        """One `if` of the requirements, joined by `and`."""
        test = self.expr(op.requirements[0].condition, frame)
        for requirement in op.requirements[1:]:
            condition = self.expr(requirement.condition, frame)
            if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
                test = py.logic("and", [*test.values, condition])
            else:
                test = py.logic("and", [test, condition])
        inner, _ = self.block(op.body, frame, context)
        notes = [
            n for r, own in zip(op.requirements, op.own, strict=True) for n in self.comment(r, own)
        ]
        return [*notes, py.if_(test, inner)], frame

    def visit_Precheck(self, op: ops.Precheck, frame: Frame, context: Context) -> Printed:
        """The Python engine keeps no precheck's tally: the body alone."""
        return self.block(op.body, frame, context)

    def visit_Payment(self, op: ops.Payment, frame: Frame, context: Context) -> Printed:
        st = op.statement
        payments = LegalPayments(self, st, frame, op.discount_varies, op.cards_vary, op.worth)
        context.hoisted.extend(payments.hoisted())
        body = self.comment(st, op.own)
        loop = payments.loops(body)
        context.shown.append(py.name("v_pay"))
        if st.wild_cards is not None:
            context.shown.append(py.name(ident("v_", st.wild_cards.variable)))
        inner, _ = self.block(op.body, frame, context)
        loop.extend(inner)
        return body, frame

    def visit_Emit(self, op: ops.Emit, frame: Frame, context: Context) -> Printed:
        move = py.tuple_([py.const(context.action), *context.shown])
        return [py.do(py.call(py.attr("out", "append"), move))], frame

    # -------------------------------------------------------------- apply

    def apply(self, plan: ops.Apply) -> py.Function:
        action = plan.action
        fn = ident("_apply_", action.name)
        body: list[ast.stmt] = [self.where(action)]
        if action.body is None:
            body.extend(self.apply_fallback(action))
        else:
            body.extend(self.apply_body(plan))
        return py.Function(fn, (("s", "State"), ("p", "int"), ("action", "Action")), "State", body)

    def apply_fallback(self, action: m.Action) -> list[ast.stmt]:
        """An action legal only when no other is: it takes no values."""
        ids = self.ids(action)
        no_values = f"{ids}: {action.name} takes no values"
        only = f"{ids}: {action.name} is legal only when no other action is"
        done = py.call("_done", py.call(py.attr("s", "_draft")), py.name("p"), self.bit(action))
        return [
            py.if_(self.arity_differs(1), [illegal(py.const(no_values))]),
            py.if_(py.call("_main_actions", py.name("s"), py.name("p")), [illegal(py.const(only))]),
            py.return_(done),
        ]

    def apply_body(self, plan: ops.Apply) -> list[ast.stmt]:
        """Check the move's values and requirements, then make its effects on
        a copy of the state."""
        action = plan.action
        arity = 1 + len(plan.values)
        names = ", ".join(plan.values)
        values = "value" if arity == 2 else "values"
        message = f"{self.ids(action)}: {action.name} takes {arity - 1} {values} ({names})"
        body = self.open_apply(plan)
        body.append(py.if_(self.arity_differs(arity), [illegal(py.const(message))]))
        read, frame = self.block(plan.reads, Frame(), Context(action=action.name))
        body.extend(read)
        body.append(py.assign("s2", py.call(py.attr("s", "_draft"))))
        done = py.return_(self.ended(plan))
        effects, _ = self.effects(plan.effects, frame.at("s2"), [done])
        body.extend(effects)
        body.append(done)
        return body

    def visit_Pick(self, op: ops.Pick, frame: Frame, context: Context) -> Printed:
        """Read the value of a choice from the move, refusing one not offered."""
        st = op.statement
        var = ident("v_", st.name)
        given = py.item(py.name("action"), op.position)
        out = self.comment(st, op.own)
        if plain(op, self.edition):
            refuse = py.call(
                "_not_a_choice", py.name(var), py.const(self.ids(st)), py.const(st.name)
            )
            wrong = py.logic(
                "or",
                [
                    py.binary(py.call("type", py.name(var)), "is not", py.name("int")),
                    py.binary(py.name(var), "not in", self.plain_values(st, frame)),
                ],
            )
            out += [py.assign(var, given), py.if_(wrong, [py.do(refuse)])]
        else:
            pairs = self.choice_pairs(st.sources, frame)
            out.append(py.assign(var, self.pick(pairs, given, st)))
        return out, frame.bind(st.name, var)

    def visit_PickSet(self, op: ops.PickSet, frame: Frame, context: Context) -> Printed:
        st = op.statement
        var = ident("v_", st.name)
        given = py.item(py.name("action"), op.position)
        pick = self.pick(self.distinct_pairs(st, frame), given, st)
        return [*self.comment(st, op.own), py.assign(var, pick)], frame.bind(st.name, var)

    def pick(self, pairs: ast.expr, given: ast.expr, st: m.Choose | m.ChooseDistinct) -> ast.expr:
        return py.call("_pick", pairs, given, py.const(self.ids(st)), py.const(st.name))

    def visit_Check(self, op: ops.Check, frame: Frame, context: Context) -> Printed:
        st = op.statement
        refuse = illegal(self.message(st, frame))
        check = py.if_(py.not_(self.expr(st.condition, frame)), [refuse])
        return [*self.comment(st, op.own), check], frame

    def visit_PickPayment(self, op: ops.PickPayment, frame: Frame, context: Context) -> Printed:
        """Read a payment from the move, refusing one that is not a way to pay."""
        st = op.statement
        held = py.item(py.attr("s", "held"), "p")
        rule = py.const(self.ids(st))
        if st.wild_cards is None:
            given = py.item(py.name("action"), op.position)
            pick = token_pick(self, op.worth, frame, [held, self.price(st, frame)], given, rule)
            return [py.assign("v_pay", pick)], frame
        # a payment that may spend cards, and the cards
        payments = LegalPayments(self, st, frame, False, False)
        cards = py.call("tuple", self.expr(st.wild_cards.cards, frame))
        spending = [payments.usable(cards), py.const(st.wild_cards.units)]
        given_both = [py.item(py.name("action"), op.position + i) for i in (0, 1)]
        pick = py.call(
            "_pick_card_payment", held, self.price(st, frame), *spending, *given_both, rule
        )
        return [py.assign(["v_pay", ident("v_", st.wild_cards.variable)], pick)], frame

    def arity_differs(self, arity: int) -> ast.expr:
        return py.binary(py.call("len", py.name("action")), "!=", py.const(arity))

    def bit(self, action: m.Action) -> ast.expr:
        return self.names.action_bit(action.name)

    def price(self, st: m.Pay, frame: Frame) -> ast.expr:
        cost = self.expr(st.cost, frame)
        discount = self.expr(st.discount, frame)
        return py.call("_price", cost, discount)

    def message(self, st: m.Require, frame: Frame) -> ast.expr:
        """A refused requirement's message: its rule ids, its text, and the
        values it shows."""
        parts: list[ast.expr] = [py.const(self.ids(st) + ": ")]
        for part in st.message:
            if isinstance(part, str):
                parts.append(py.const(part))
            else:
                value = self.expr(part, frame)
                kind: str = part.type.kind  # a collection's: "set:colour", "list:int"
                if part.type.element is not None:
                    kind = f"{kind}:{part.type.element.kind}"
                shown: ast.expr = py.call("_show", value, py.const(kind))
                if self.names.may_be_none(part):
                    is_colour = py.binary(value, ">=", py.const(0))
                    shown = py.if_expression(is_colour, shown, py.const("none"))
                parts.append(shown)
        return py.chain("+", parts)

    # ------------------------------------------------------------ effects

    def visit_Note(self, op: ops.Note, frame: Frame, context: Context) -> Printed:
        return self.comment(op.statement, op.own), frame

    def visit_Gain(self, op: ops.Gain, frame: Frame, context: Context) -> Printed:
        st = op.statement
        token = self.expr(st.token, frame)
        amount = self.expr(st.amount, frame)
        gain: ast.stmt = py.do(py.call("_gain", py.name(frame.state), py.name("p"), token, amount))
        if op.may_be_none:
            gain = py.if_(py.binary(token, ">=", py.const(0)), [gain])  # none: nothing
        return [*self.comment(st, op.own), gain], frame

    def visit_Transfer(self, op: ops.Transfer, frame: Frame, context: Context) -> Printed:
        """`_transfer(s, source, target, kind, amount)`: a holder is a seat, or -1 the supply."""
        st = op.statement
        token = self.expr(st.token, frame)
        holders = [
            self.expr(h, frame) if h is not None else py.const(-1) for h in (st.source, st.target)
        ]
        amount = self.expr(st.amount, frame)
        helper = self.emitter.helper("_transfer")
        move = py.call(helper, py.name(frame.state), *holders, token, amount)
        done: ast.stmt = py.do(move)
        if op.may_be_none:
            done = py.if_(py.binary(token, ">=", py.const(0)), [done])  # none: nothing moves
        return [*self.comment(st, op.own), done], frame

    def visit_GainEach(self, op: ops.GainEach, frame: Frame, context: Context) -> Printed:
        st = op.statement
        tokens = self.expr(st.tokens, frame)
        amount = self.expr(st.amount, frame)
        gain = py.call("_gain_each", py.name(frame.state), py.name("p"), tokens, amount)
        return [*self.comment(st, op.own), py.do(gain)], frame

    def visit_GiveBack(self, op: ops.GiveBack, frame: Frame, context: Context) -> Printed:
        to = "_give_to_bag" if op.statement.into_bag else "_give_back"
        back = py.call(to, py.name(frame.state), py.name("p"), py.name("v_pay"))
        return [py.do(back)], frame

    def visit_SpendCards(self, op: ops.SpendCards, frame: Frame, context: Context) -> Printed:
        spent = py.name(ident("v_", op.variable))
        return [py.do(py.call("_to_box", py.name(frame.state), py.name("p"), spent))], frame

    def visit_MoveCard(self, op: ops.MoveCard, frame: Frame, context: Context) -> Printed:
        st = op.statement
        state, player = py.name(frame.state), py.name("p")
        card = py.value(frame.locals[st.card])
        out = [
            *self.comment(st, op.own),
            py.do(py.call("_move", state, player, card, self.names.zone(st.zone))),
        ]
        if op.hooked:
            out.append(py.do(py.call(ident("_entered_", st.zone), state, player, card)))
        return out, frame

    def visit_TakeTile(self, op: ops.TakeTile, frame: Frame, context: Context) -> Printed:
        st = op.statement
        tile = py.value(frame.locals[st.card])
        zone = self.names.zone(st.zone)
        move = py.call("_take_tile", py.name(frame.state), py.name("p"), tile, zone)
        return [*self.comment(st, op.own), py.do(move)], frame

    def visit_SetValue(self, op: ops.SetValue, frame: Frame, context: Context) -> Printed:
        st = op.statement
        card = py.value(frame.locals[st.card])
        to = self.expr(st.value, frame)
        value = self.names.card_value(st.value_name)
        set_value = py.call("_set_value", py.name(frame.state), value, card, to)
        return [*self.comment(st, op.own), py.do(set_value)], frame

    def visit_ReturnToBox(self, op: ops.ReturnToBox, frame: Frame, context: Context) -> Printed:
        st = op.statement
        cards = py.value(frame.locals[st.cards])
        cards = cards if st.many else py.tuple_([cards])
        to_box = py.call("_to_box", py.name(frame.state), py.name("p"), cards)
        return [*self.comment(st, op.own), py.do(to_box)], frame

    def visit_When(self, op: ops.When, frame: Frame, context: Context) -> Printed:
        condition = self.expr(op.statement.condition, frame)
        inner, frame = self.block(op.body, frame, context)
        return [*self.comment(op.statement, op.own), py.if_(condition, inner)], frame

    def visit_EffectLet(self, op: ops.EffectLet, frame: Frame, context: Context) -> Printed:
        st = op.statement
        var = ident("v_", st.name)
        assign = py.assign(var, self.expr(st.value, frame))
        return [*self.comment(st, op.own), assign], frame.bind(st.name, var)

    def visit_Wait(self, op: ops.Wait, frame: Frame, context: Context) -> Printed:
        """Queue a follow-up choice with the values of the names it carries,
        and end the function."""
        assert context.stop, "a follow-up choice where nothing can wait"
        bound = [py.value(frame.locals[name]) for name in op.carried]
        state = py.name(frame.state)
        wait = py.call("_wait", state, py.const(op.site), py.tuple_(bound))
        return [py.do(wait), *context.stop], frame
