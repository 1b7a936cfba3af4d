"""Lowering an edition's actions: for each, the enumerator of its legal moves
(`_legal_<name>`) and the function that applies one (`_apply_<name>`)."""

from __future__ import annotations

import ast

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.base import LoweringPart
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.backend.python.payments import LegalPayments
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

Choice = m.Choose | m.ChooseDistinct


def illegal(message: ast.expr) -> ast.Raise:
    return py.raise_(py.call("IllegalAction", message))


class Actions(LoweringPart):
    """The functions of an edition's actions."""

    def functions(self) -> list[py.Function]:
        found = []
        for action in self.edition.actions:
            if action.body is not None:
                found.append(self.legal(action))
            found.append(self.apply(action))
        return found

    # ------------------------------------------------------------ choices

    def statement_comment(self, st: m.Statement, action: m.Action) -> list[ast.stmt]:
        """A statement that states rules of its own gets its own comment."""
        own = tuple(i for i in st.rule_ids if i not in action.rule_ids)
        return [self.where(st, own)] if own else []

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
        if disjoint or len(parts) == 1:
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

    def pairs(self, st: Choice, frame: Frame) -> ast.expr:
        if isinstance(st, m.Choose):
            return self.choice_pairs(st.sources, frame)
        return self.distinct_pairs(st, frame)

    def plain_values(self, st: Choice, frame: Frame) -> ast.expr | None:
        """A choice's values when each is its own action value (cards from
        the market or a zone), so no pairs need building."""
        if not isinstance(st, m.Choose):
            return None
        parts: list[ast.expr] = []
        for source in st.sources:
            if isinstance(source, m.Ref) and source.kind == "market":
                parts.append(py.call("_market", py.name(frame.state)))
            elif isinstance(source, m.Ref) and source.kind == "zone":
                parts.append(self.expr(source, frame))
            else:
                return None
        return py.chain("+", parts)

    # ---------------------------------------------------------- legal moves

    def legal(self, action: m.Action) -> py.Function:
        """The enumerator of an action's legal moves: a loop per choice, an
        `if` per requirement. Values that no choice changes are computed once,
        before the loops, and a card the player cannot afford is rejected by
        an unrolled shortfall test before any payment is enumerated."""
        part = analysis.choice_part(action)
        hoisted, frame = self.prebind(tuple(part), Frame())
        body: list[ast.stmt] = []
        top = body
        loop_vars: set[str] = set()  # names bound inside the body: nothing using them is hoisted
        shown: list[ast.expr] = []
        guard: ast.If | None = None  # the `if` of the last requirement
        outer = body  # the block that holds `guard`
        for index, st in enumerate(part):
            later = tuple(part[index + 1 :])
            comment = self.statement_comment(st, action)
            if isinstance(st, m.Require) and guard is not None and guard.body is body and not body:
                # merged into the `if` before (below): its comment goes before that `if`
                at = next(i for i, x in enumerate(outer) if x is guard)
                outer[at:at] = comment
            else:
                body.extend(comment)
            if isinstance(st, m.Let):
                var = ident("v_", st.name)
                body.append(py.assign(var, self.expr(st.value, frame)))
                frame = frame.bind(st.name, var)
                loop_vars.add(st.name)
            elif isinstance(st, m.Choose | m.ChooseDistinct):
                var, public = self.loop_names(st.name, later)
                plain = self.plain_values(st, frame)
                inner: list[ast.stmt] = []
                if plain is not None:
                    var = public = ident("v_", st.name)
                    body.append(py.for_(var, plain, inner))
                else:
                    body.append(py.for_((var, public), self.pairs(st, frame), inner))
                body = inner
                frame = frame.bind(st.name, var)
                loop_vars.add(st.name)
                shown.append(py.name(public))
            elif isinstance(st, m.Require):
                condition = self.expr(st.condition, frame)
                if guard is not None and guard.body is body and not body:
                    # a requirement right after another: one `if` of both
                    earlier = guard.test
                    if isinstance(earlier, ast.BoolOp) and isinstance(earlier.op, ast.And):
                        guard.test = py.logic("and", [*earlier.values, condition])
                    else:
                        guard.test = py.logic("and", [earlier, condition])
                    continue
                inner = []
                guard = py.if_(condition, inner)
                body.append(guard)
                outer, body = body, inner
            elif isinstance(st, m.Pay):
                payments = LegalPayments(self, st, frame, loop_vars)
                hoisted.extend(payments.hoisted())
                body = payments.loops(body)
                shown.append(py.name("v_pay"))
                if st.wild_cards is not None:
                    shown.append(py.name(ident("v_", st.wild_cards.variable)))
        move = py.tuple_([py.const(action.name), *shown])
        body.append(py.do(py.call(py.attr("out", "append"), move)))
        return py.Function(
            ident("_legal_", action.name),
            (("s", "State"), ("p", "int"), ("out", "list[Action]")),
            "None",
            [self.where(action), *hoisted, *top],
        )

    @staticmethod
    def loop_names(name: str, later: tuple[m.Statement, ...]) -> tuple[str, str]:
        """The engine-value and action-value names of a choice's loop; the
        engine value is marked unused when no later statement reads it."""
        var = ident("v_", name)
        return (var if analysis.uses(later, name) else "_" + var), ident("a_", name)

    # -------------------------------------------------------------- apply

    def apply(self, action: m.Action) -> py.Function:
        fn = ident("_apply_", action.name)
        body: list[ast.stmt] = [self.where(action)]
        if action.body is None:
            body.extend(self.apply_fallback(action))
        else:
            body.extend(self.apply_body(action, action.body))
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

    def apply_body(self, action: m.Action, statements: tuple[m.Statement, ...]) -> list[ast.stmt]:
        """Check the move's values and requirements, then make its effects on
        a copy of the state."""
        choices = [st for st in statements if isinstance(st, m.Choose | m.ChooseDistinct)]
        pays = [st for st in statements if isinstance(st, m.Pay)]
        paid = ["payment"] if pays else []
        paid += [st.wild_cards.variable for st in pays if st.wild_cards is not None]
        arity = 1 + len(choices) + len(paid)
        names = ", ".join([st.name for st in choices] + paid)
        values = "value" if arity == 2 else "values"
        message = f"{self.ids(action)}: {action.name} takes {arity - 1} {values} ({names})"
        body: list[ast.stmt] = [py.if_(self.arity_differs(arity), [illegal(py.const(message))])]
        frame = Frame()
        position = 1
        for st in statements:
            effect = m.Gain | m.GainEach | m.Pay | m.Move | m.ReturnToBox | m.If | m.SetValue
            if not isinstance(st, effect):
                body.extend(self.statement_comment(st, action))
            if isinstance(st, m.Let):
                var = ident("v_", st.name)
                body.append(py.assign(var, self.expr(st.value, frame)))
                frame = frame.bind(st.name, var)
            elif isinstance(st, m.Choose | m.ChooseDistinct):
                var = ident("v_", st.name)
                body.extend(self.pick(st, var, position, frame))
                frame = frame.bind(st.name, var)
                position += 1
            elif isinstance(st, m.Require):
                refuse = illegal(self.message(st, frame))
                body.append(py.if_(py.not_(self.expr(st.condition, frame)), [refuse]))
            elif isinstance(st, m.Pay) and st.wild_cards is not None:
                body.append(self.pick_card_payment(st, position, frame))
            elif isinstance(st, m.Pay):
                pick = py.call(
                    "_pick_payment",
                    py.item(py.attr("s", "held"), "p"),
                    self.price(st, frame),
                    py.item(py.name("action"), position),
                    py.const(self.ids(st)),
                )
                body.append(py.assign("v_pay", pick))
        body.append(py.assign("s2", py.call(py.attr("s", "_draft"))))
        done = py.return_(py.call("_done", py.name("s2"), py.name("p"), self.bit(action)))
        at = frame.at("s2")
        effects, _ = self.effects(statements, at, hooks=True, stop=[done], owner=action)
        body.extend(effects)
        body.append(done)
        return body

    def wait(self, st: Choice, frame: Frame) -> ast.stmt:
        """Queue a follow-up choice with the values of the names it carries."""
        sites = identities.follow_ups(self.edition)
        index = next(i for i, site in enumerate(sites) if site.choice is st)
        bound = [py.value(frame.locals[name]) for name, _ in sites[index].bound]
        state = py.name(frame.state)
        return py.do(py.call("_wait", state, py.const(index), py.tuple_(bound)))

    def pick(self, st: Choice, var: str, position: int, frame: Frame) -> list[ast.stmt]:
        """Read the value of a choice from the move, refusing one not offered."""
        given = py.item(py.name("action"), position)
        refuse = py.call("_not_a_choice", py.name(var), py.const(self.ids(st)), py.const(st.name))
        plain = self.plain_values(st, frame)
        if plain is not None:
            wrong = py.logic(
                "or",
                [
                    py.binary(py.call("type", py.name(var)), "is not", py.name("int")),
                    py.binary(py.name(var), "not in", plain),
                ],
            )
            return [py.assign(var, given), py.if_(wrong, [py.do(refuse)])]
        pairs = self.pairs(st, frame)
        pick = py.call("_pick", pairs, given, py.const(self.ids(st)), py.const(st.name))
        return [py.assign(var, pick)]

    def pick_card_payment(self, st: m.Pay, position: int, frame: Frame) -> ast.stmt:
        """Read a payment that may spend cards (and the cards) from the move,
        refusing one that is not a way to pay."""
        assert st.wild_cards is not None
        payments = LegalPayments(self, st, frame, set())
        cards = py.call("tuple", self.expr(st.wild_cards.cards, frame))
        spending = [payments.usable(cards), py.const(st.wild_cards.units)]
        given = [py.item(py.name("action"), position + i) for i in (0, 1)]
        held = py.item(py.attr("s", "held"), "p")
        rule = py.const(self.ids(st))
        pick = py.call("_pick_card_payment", held, self.price(st, frame), *spending, *given, rule)
        return py.assign(["v_pay", ident("v_", st.wild_cards.variable)], pick)

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

    def effects(
        self,
        body: tuple[m.Statement, ...],
        frame: Frame,
        hooks: bool,
        stop: list[ast.stmt] | None = None,
        owner: m.Action | m.Trigger | None = None,
    ) -> tuple[list[ast.stmt], Frame]:
        """The effects of an action (on the copy `s2`) or of a trigger (on
        the state being built, `s`). A follow-up choice queues itself
        (`_wait`) and ends the block with `stop`: the rest is its own. An
        effect that states rules of its own beyond its `owner`'s gets a
        comment."""
        hooked = analysis.hooked_zones(self.edition) if hooks else []
        state = py.name(frame.state)
        player = py.name("p")
        out: list[ast.stmt] = []
        for st in body:
            own = tuple(i for i in st.rule_ids if owner and i not in owner.rule_ids)
            if own and not isinstance(st, m.Pay | m.Choose | m.ChooseDistinct | m.Require):
                out.append(self.where(st, own))
            if isinstance(st, m.Gain):
                token = self.expr(st.token, frame)
                amount = self.expr(st.amount, frame)
                gain: ast.stmt = py.do(py.call("_gain", state, player, token, amount))
                if self.names.may_be_none(st.token):
                    gain = py.if_(py.binary(token, ">=", py.const(0)), [gain])  # none: nothing
                out.append(gain)
            elif isinstance(st, m.GainEach):
                tokens = self.expr(st.tokens, frame)
                amount = self.expr(st.amount, frame)
                out.append(py.do(py.call("_gain_each", state, player, tokens, amount)))
            elif isinstance(st, m.Pay):
                out.append(py.do(py.call("_give_back", state, player, py.name("v_pay"))))
                if st.wild_cards is not None:
                    spent = py.name(ident("v_", st.wild_cards.variable))
                    out.append(py.do(py.call("_to_box", state, player, spent)))
            elif isinstance(st, m.Move) and st.tile:
                tile = py.value(frame.locals[st.card])
                move = py.call("_take_tile", state, player, tile, self.names.zone(st.zone))
                out.append(py.do(move))
            elif isinstance(st, m.Move):
                card = py.value(frame.locals[st.card])
                move = py.call("_move", state, player, card, self.names.zone(st.zone))
                out.append(py.do(move))
                if st.zone in hooked:
                    entered = py.call(ident("_entered_", st.zone), state, player, card)
                    out.append(py.do(entered))
            elif isinstance(st, m.SetValue):
                card = py.value(frame.locals[st.card])
                to = self.expr(st.value, frame)
                value = self.names.card_value(st.value_name)
                out.append(py.do(py.call("_set_value", state, value, card, to)))
            elif isinstance(st, m.ReturnToBox):
                cards = py.value(frame.locals[st.cards])
                cards = cards if st.many else py.tuple_([cards])
                out.append(py.do(py.call("_to_box", state, player, cards)))
            elif isinstance(st, m.If):
                condition = self.expr(st.condition, frame)
                inner, frame = self.effects(st.body, frame, hooks, stop, owner)
                out.append(py.if_(condition, inner))
            elif isinstance(st, m.Choose | m.ChooseDistinct) and st.name not in frame.locals:
                assert stop is not None, "a follow-up choice where nothing can wait"
                out.append(self.wait(st, frame))
                out.extend(stop)
                break
            elif isinstance(st, m.Let) and st.name not in frame.locals:
                var = ident("v_", st.name)
                out.append(py.assign(var, self.expr(st.value, frame)))
                frame = frame.bind(st.name, var)
        return out, frame
