"""The native target's printer of the engine plan's statements: per action
the enumerator of its legal moves (`legal_<name>`, writing moves into a
`MoveBuf`) and the function that makes a move's effects (`apply_<name>`),
and the effects that actions, triggers and follow-ups share. One
`visit_<Op>` method per operation of `backend/plan/ops.py`; the walk is the
base printer's.

Overrides of the plan's common reading, each for speed (docs/native.md):
an apply checks no requirement (the move must be one the enumerator lists);
a precheck is an `if` on a kept tally; the early cost test runs right after
the choice of the card, for the market all slots at once; a let of an apply
that nothing after it reads is not computed.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import define, field

from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native.base import CONST_STATE, PLAYER, STATE, Means
from splendor_rules.compiler.backend.native.board import BoardPrinting
from splendor_rules.compiler.backend.native.choices import Choices
from splendor_rules.compiler.backend.native.emit import Frame, filled
from splendor_rules.compiler.backend.native.payments import Payments
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.plan.printer import PlanPrinter

Printed = tuple[list[c.Stmt], Frame]


@define
class Context:
    """What one function's operations share: the statements run once at its
    top (`hoisted`), the statements that write the move (`moves`), the means
    already tested at a choice (`means`, with the payment's cost test), the
    function (an apply: `applying`), and what ends it after a wait (`stop`)."""

    hoisted: list[c.Stmt] = field(factory=list)
    moves: list[c.Stmt] = field(factory=list)
    means: Means | None = None
    cost_test: Callable[[str, Frame], Callable[[c.Expr], c.Expr]] | None = None
    applying: bool = False
    stop: list[c.Stmt] = field(factory=list)


class Statements(Payments, Choices, PlanPrinter[c.Stmt, Frame], BoardPrinting):
    """The actions' functions and the effects."""

    def effects(self, body: ops.Block, frame: Frame, stop: list[c.Stmt]) -> Printed:
        """The effects of a block on `g`; `stop` ends the function after a
        follow-up's wait."""
        return self.block(body, frame, Context(stop=stop))

    # -------------------------------------------------------- legal moves

    def legal(self, plan: ops.Legal) -> c.Function:
        """The enumerator of an action's legal moves: a loop per choice, an
        `if` per requirement, the ways to pay, each a move."""
        hoisted: list[c.Stmt] = []  # values no choice changes, found once
        top: list[c.Stmt] = [self.where(plan.action), c.Seq(hoisted)]
        frame = self.prebind(plan.defines, Frame(), hoisted)
        code = c.num(self.move_code("action", plan.index))
        context = Context(hoisted=hoisted, moves=[c.do(c.call("mv_begin", c.name("out"), code))])
        early = plan.early
        if early is not None and self.packed_cost(early.pay.cost) is not None:
            pay = early.pay
            means = self.payment_means(pay, frame, hoisted, hoisted, False, False, early.worth)
            context.means = means
            context.cost_test = lambda name, at: self.cost_test(pay, means, name, at)
        body, _ = self.block(plan.body, frame, context)
        top.extend(body)
        if plan.before is not None:  # no move while it is closed
            top.insert(1, c.if_(self.closed(plan.before), [c.Return()]))
        parameters = (CONST_STATE, PLAYER, ("MoveBuf *", "out"))
        return c.Function("void", c.ident("legal_", plan.action.name), parameters, top)

    def visit_Let(self, op: ops.Let, frame: Frame, context: Context) -> Printed:
        st = op.statement
        if context.applying and not op.read_later:
            return [], frame  # read only by the requirements, which the move met
        var = c.ident("v_", st.name)
        return self.emitter.declare(var, st.value, frame), frame.bind(st.name, var)

    def visit_ChoiceLoop(self, op: ops.ChoiceLoop, frame: Frame, context: Context) -> Printed:
        test = None
        if op.cost_test and context.cost_test is not None:
            test = context.cost_test(op.statement.name, frame)
        out: list[c.Stmt] = []
        inner, within = self.choice_loop(op, frame, out, context.moves, test)
        printed, _ = self.block(op.body, within, context)
        inner.extend(printed)
        return out, frame

    def visit_CombinationLoop(
        self, op: ops.CombinationLoop, frame: Frame, context: Context
    ) -> Printed:
        out: list[c.Stmt] = []
        inner, within = self.combination_loop(op, frame, out, context.moves)
        printed, _ = self.block(op.body, within, context)
        inner.extend(printed)
        return out, frame

    def visit_Guard(self, op: ops.Guard, frame: Frame, context: Context) -> Printed:
        """An `if` per requirement, one inside the other."""
        out: list[c.Stmt] = []
        body = out
        for requirement in op.requirements:
            inner: list[c.Stmt] = []
            body.append(c.if_(self.expr(requirement.condition, frame), inner))
            body = inner
        printed, _ = self.block(op.body, frame, context)
        body.extend(printed)
        return out, frame

    def visit_Precheck(self, op: ops.Precheck, frame: Frame, context: Context) -> Printed:
        """A count required of a local, read from a tally before it is built."""
        test = self.expr(op.test, frame)
        printed, _ = self.block(op.body, frame, context)
        return [c.if_(test, printed)], frame

    def visit_Payment(self, op: ops.Payment, frame: Frame, context: Context) -> Printed:
        out: list[c.Stmt] = []
        inner = self.payment(op, frame, out, context.moves, context.hoisted, context.means)
        printed, _ = self.block(op.body, frame, context)
        inner.extend(printed)
        return out, frame

    def visit_Emit(self, op: ops.Emit, frame: Frame, context: Context) -> Printed:
        """The move's statements; the ways to pay end it, else `mv_end`."""
        if not op.paid:
            fused = fused_move(context.moves)
            if fused is not None:
                return [fused], frame
            context.moves.append(c.do(c.call("mv_end", c.name("out"))))
        return context.moves, frame

    # --------------------------------------------------------------- apply

    def apply(self, plan: ops.Apply) -> c.Function:
        """A legal move's effects on `g`, the copy the move makes."""
        at = c.name("at")
        body: list[c.Stmt] = [self.where(plan.action), c.declare("int32_t", "at", c.num(0))]
        bit = c.Num(1 << plan.index, wide=True)  # the action's bit of `did`: 64 bits
        done = [c.do(c.call("done", c.name("g"), c.name("p"), bit)), c.Return()]
        if plan.before is not None:  # the turn goes on: the main action is to come
            did = c.index(c.arrow("g", "did"), c.name("p"))
            stage = c.assign(c.arrow("g", "stage"), c.num(plan.before.after))
            done = [c.assign(did, bit, "|="), stage, c.Return()]
        read, frame = self.block(plan.reads, Frame(), Context(applying=True))
        body.extend(read)
        body.append(c.do(c.Unary("(void)", at)))
        effects, _ = self.effects(plan.effects, frame, stop=done)
        body.extend(effects)
        body.extend(done)
        parameters = (STATE, PLAYER, ("const int32_t *", "mv"))
        return c.Function("void", c.ident("apply_", plan.action.name), parameters, body)

    @staticmethod
    def closed(before: ops.Before) -> c.Expr:
        """An action before the main one is closed once the turn's stage is
        past its place (a later one, or itself if once, has been taken)."""
        return c.binary(c.arrow("g", "stage"), ">", c.num(before.place))

    def visit_Pick(self, op: ops.Pick, frame: Frame, context: Context) -> Printed:
        var = c.ident("v_", op.statement.name)
        at = c.name("at")
        read = c.binary(c.index(c.name("mv"), at), "&", c.name("VALUE_MASK"))
        out = [c.declare("V", var, read), c.assign(at, c.num(1), "+=")]
        return out, frame.bind(op.statement.name, var)

    def visit_PickSet(self, op: ops.PickSet, frame: Frame, context: Context) -> Printed:
        var = c.ident("v_", op.statement.name)
        out = filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", c.name("at")))
        return out, frame.bind(op.statement.name, var)

    def visit_Check(self, op: ops.Check, frame: Frame, context: Context) -> Printed:
        return [], frame  # the move is one the enumerator lists: it meets them

    def visit_PickPayment(self, op: ops.PickPayment, frame: Frame, context: Context) -> Printed:
        at = c.name("at")
        out = [
            c.declare("const int32_t *", "pay", c.binary(c.name("mv"), "+", at)),
            c.assign(at, c.name("NK"), "+="),
        ]
        wild = op.statement.wild_cards
        if wild is not None:
            var = c.ident("v_", wild.variable)
            out += filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", at))
            frame = frame.bind(wild.variable, var)
        return out, frame

    # ------------------------------------------------------------ effects

    def visit_Note(self, op: ops.Note, frame: Frame, context: Context) -> Printed:
        return [], frame

    def visit_Gain(self, op: ops.Gain, frame: Frame, context: Context) -> Printed:
        st = op.statement
        token = self.expr(st.token, frame)
        amount = self.expr(st.amount, frame)
        gain: c.Stmt = c.do(c.call("gain", c.name("g"), c.name("p"), token, amount))
        if op.may_be_none:
            gain = c.if_(c.binary(token, ">=", c.num(0)), [gain])
        return [gain], frame

    def visit_Transfer(self, op: ops.Transfer, frame: Frame, context: Context) -> Printed:
        """`transfer(g, source, target, kind, amount)`: a holder is a seat, or -1 the supply."""
        st = op.statement
        token = self.expr(st.token, frame)
        holders = [
            self.expr(h, frame) if h is not None else c.num(-1) for h in (st.source, st.target)
        ]
        amount = self.expr(st.amount, frame)
        move: c.Stmt = c.do(c.call("transfer", c.name("g"), *holders, token, amount))
        if op.may_be_none:
            move = c.if_(c.binary(token, ">=", c.num(0)), [move])
        return [move], frame

    def visit_GainEach(self, op: ops.GainEach, frame: Frame, context: Context) -> Printed:
        kinds = self.expr(op.statement.tokens, frame)
        amount = self.expr(op.statement.amount, frame)
        return [c.do(c.call("gain_each", c.name("g"), c.name("p"), kinds, amount))], frame

    def visit_GiveBack(self, op: ops.GiveBack, frame: Frame, context: Context) -> Printed:
        to = "give_to_bag" if op.statement.into_bag else "give_back"
        return [c.do(c.call(to, c.name("g"), c.name("p"), c.name("pay")))], frame

    def visit_SpendCards(self, op: ops.SpendCards, frame: Frame, context: Context) -> Printed:
        spent = c.Unary("&", frame.locals[op.variable])
        return [c.do(c.call("to_box", c.name("g"), c.name("p"), spent))], frame

    def visit_MoveCard(self, op: ops.MoveCard, frame: Frame, context: Context) -> Printed:
        st = op.statement
        g, p, item = c.name("g"), c.name("p"), frame.locals[st.card]
        zone = c.num(self.names.zone_index[st.zone])
        out: list[c.Stmt] = [c.do(c.call("move_card", g, p, item, zone))]
        if op.hooked:
            out.append(c.do(c.call(c.ident("entered_", st.zone), g, p, item)))
        return out, frame

    def visit_TakeTile(self, op: ops.TakeTile, frame: Frame, context: Context) -> Printed:
        st = op.statement
        zone = c.num(self.names.zone_index[st.zone])
        take = c.call("take_tile", c.name("g"), c.name("p"), frame.locals[st.card], zone)
        return [c.do(take)], frame

    def visit_SetValue(self, op: ops.SetValue, frame: Frame, context: Context) -> Printed:
        st = op.statement
        value = c.num(self.names.value_index[st.value_name])
        to = self.expr(st.value, frame)
        return [c.do(c.call("set_value", c.name("g"), value, frame.locals[st.card], to))], frame

    def visit_ReturnToBox(self, op: ops.ReturnToBox, frame: Frame, context: Context) -> Printed:
        st = op.statement
        g, p, cards = c.name("g"), c.name("p"), frame.locals[st.cards]
        if st.many:
            return [c.do(c.call("to_box", g, p, c.Unary("&", cards)))], frame
        return [c.do(c.call("to_box_one", g, p, cards))], frame

    def visit_AnotherTurn(self, op: ops.AnotherTurn, frame: Frame, context: Context) -> Printed:
        return [c.assign(c.arrow("g", "again"), c.num(1))], frame

    def visit_When(self, op: ops.When, frame: Frame, context: Context) -> Printed:
        condition = self.expr(op.statement.condition, frame)
        inner, _ = self.block(op.body, frame, context)
        return [c.if_(condition, inner)], frame

    def visit_EffectLet(self, op: ops.EffectLet, frame: Frame, context: Context) -> Printed:
        if not op.read_later:
            return [], frame
        st = op.statement
        var = frame.temporary(st.name)
        return self.emitter.declare(var, st.value, frame), frame.bind(st.name, var)

    def visit_Wait(self, op: ops.Wait, frame: Frame, context: Context) -> Printed:
        """Queue a follow-up choice with the values of the names it carries,
        and end the function."""
        slot = frame.temporary("bound")
        out: list[c.Stmt] = [c.declare("V *", slot, c.call("wait", c.name("g"), c.num(op.site)))]
        at = 0
        for name, type_ in self.sites[op.site].bound:
            value = frame.locals.get(name)
            if value is not None:
                target = c.binary(c.name(slot), "+", c.num(at))
                if type_.kind == "vector":
                    out.append(c.do(c.call("vec_store", target, value)))
                elif type_.kind in ("set", "list"):
                    out.append(c.do(c.call("set_store", target, c.Unary("&", value))))
                else:
                    out.append(c.assign(c.index(c.name(slot), at), value))
            at += self.width(type_)
        out.append(c.do(c.Unary("(void)", c.name(slot))))
        return [*out, *context.stop], frame


def fused_move(moves: list[c.Stmt]) -> c.Stmt | None:
    """A move begun and given one value or one set, written at once (its
    length known: one reserve, no length found at its end); else None."""
    if len(moves) != 2 or not all(isinstance(m, c.Do) for m in moves):
        return None
    begin, put = (m.value for m in moves if isinstance(m, c.Do))
    if not (isinstance(begin, c.Call) and begin.function == "mv_begin"):
        return None
    if not isinstance(put, c.Call) or put.function not in ("mv_put", "mv_put_set"):
        return None
    writer = "mv_add1" if put.function == "mv_put" else "mv_add_set"
    return c.do(c.call(writer, *begin.arguments, put.arguments[1]))
