"""The Python target's printer of what happens around the actions: the
code run when something enters a zone (triggers and majorities), and, from
the engine plan, the steps at the end of each turn, the end of the game
(endings, score and ranking) and what setup does beyond the data tables
(gifts by seat, reveals). One `visit_<Op>` method per operation."""

from __future__ import annotations

import ast
from collections.abc import Sequence

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.actions import Actions, Printed
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.backend.python.values import Values
from splendor_rules.compiler.frontend import model as m

STATE_AND_PLAYER = (("s", "State"), ("p", "int"))
RUN = "list[Any] | None"  # a step: its options if the player must decide


class Turns(Actions):
    """The functions of an edition's zone hooks, steps, ending and
    scoring, and its setup's statements; a trigger's effects are those of
    an action."""

    def hooks(self) -> list[py.Function]:
        plan = self.plan
        found = [self.trigger(t) for t in plan.triggers if t.waits]
        for contest in plan.contests:
            found.extend(self.visit(contest))
        found.extend(self.zone_hook(hook) for hook in plan.hooks)
        return found

    def zone_hook(self, hook: ops.Hook) -> py.Function:
        """What runs when a card enters the zone: the triggers' effects on
        the state being built, then the contests of the majorities."""
        body: list[ast.stmt] = []
        for trigger in hook.triggers:
            if trigger.waits:
                name = ident("_trigger_", trigger.trigger.name)
                body.append(py.do(py.call(name, py.name("s"), py.name("p"), py.name("card"))))
            else:
                body.append(self.where(trigger.trigger))
                frame = Frame().bind(trigger.trigger.card, "card")
                effects, _ = self.effects(trigger.body, frame, [])
                body.extend(effects)
        for majority in hook.majorities:
            contest = py.call(ident("_contest_", majority.name), py.name("s"), py.name("p"))
            body.append(py.do(contest))
        return py.Function(
            ident("_entered_", hook.zone), (*STATE_AND_PLAYER, ("card", "int")), "None", body
        )

    def trigger(self, trigger: ops.TriggerPlan) -> py.Function:
        """A trigger with a follow-up choice, in a function of its own: the
        choice returns from it, and the rest waits for the decision."""
        frame = Frame().bind(trigger.trigger.card, "card")
        stop: list[ast.stmt] = [py.return_()]
        effects, _ = self.effects(trigger.body, frame, stop)
        return py.Function(
            ident("_trigger_", trigger.trigger.name),
            (*STATE_AND_PLAYER, ("card", "int")),
            "None",
            [self.where(trigger.trigger), *effects],
        )

    def visit_Contest(self, op: ops.Contest) -> list[py.Function]:
        return [self.measure(op.statement), self.contest(op.statement)]

    def measure(self, majority: m.Majority) -> py.Function:
        """What a player has towards a majority tile."""
        measure = self.expr(majority.measure, Frame())
        return py.Function(
            ident("_measure_", majority.name),
            (("s", "State"), ("p", "int")),
            "int",
            [
                self.where(majority),
                py.declare("measure", py.name("int"), measure),
                py.return_(py.name("measure")),
            ],
        )

    def contest(self, majority: m.Majority) -> py.Function:
        """Give the majority tile to the player if their measure reaches the
        threshold and beats the holder's."""
        measure = ident("_measure_", majority.name)
        tile = self.names.majority(majority.name)
        zone = self.names.zone(majority.zone)
        s, p = py.name("s"), py.name("p")
        mine, holder = py.name("mine"), py.name("holder")
        beats = ">" if majority.ties_keep_holder else ">="
        takes = py.logic(
            "or",
            [
                py.binary(holder, "<", py.const(0)),
                py.logic(
                    "and",
                    [
                        py.binary(holder, "!=", p),
                        py.binary(mine, beats, py.call(measure, s, holder)),
                    ],
                ),
            ],
        )
        body: list[ast.stmt] = [
            self.where(majority),
            py.assign("mine", py.call(measure, s, p)),
            py.if_(py.binary(mine, "<", py.const(majority.threshold)), [py.return_()]),
            py.assign("holder", py.call("_holder", s, tile, zone)),
            py.if_(takes, [py.do(py.call("_take_tile", s, p, tile, zone))]),
        ]
        return py.Function(
            ident("_contest_", majority.name), (("s", "State"), ("p", "int")), "None", body
        )

    # ----------------------------------------------------------------- steps

    def steps(self) -> list[py.Function]:
        """Per step: its options, the effect of the option decided, and the
        step itself."""
        return [f for step in self.plan.turn_end.steps for f in self.visit(step)]

    def visit_ReturnTokens(self, op: ops.ReturnTokens) -> list[py.Function]:
        step = op.statement
        s, p = py.name("s"), py.name("p")
        limit = [py.item(py.attr(s, "held"), p), py.const(step.limit)]
        held: ast.expr = py.call("sum", py.item(py.attr(s, "held"), p))
        if op.counted is not None:  # the kinds it counts and may return, added up
            kinds = range(len(self.edition.tokens))
            limit.append(py.const(tuple(i in op.counted for i in kinds)))
            held = py.chain("+", [py.item(py.attr(s, "held"), p, i) for i in op.counted])
        options = [py.return_(py.call("list", py.call("_returns", *limit)))]
        back = "_give_to_bag" if step.into_bag else "_give_back"
        few = py.if_(py.binary(held, "<=", py.const(step.limit)), [py.return_(py.const(None))])
        return [
            self.step_options(step, options),
            self.step_decide(step, [py.do(py.call(back, s, p, py.name("option")))]),
            self.step_run(step, [few]),
        ]

    def visit_ClaimTile(self, op: ops.ClaimTile) -> list[py.Function]:
        step = op.statement
        s, p = py.name("s"), py.name("p")
        var = ident("v_", step.variable)
        prebound, frame = self.prebind_names(op.defines, Frame())
        condition = self.expr(step.condition, frame.bind(step.variable, var))
        tiles = py.item(py.attr(s, "tiles"), self.names.tile_set(step.tiles))
        if op.faces is not None and step.source is not None:  # the player's, of the set
            of_set = py.binary(py.name(var), "in", py.const(op.faces))
            condition = py.logic("and", [of_set, condition])
            tiles = py.item(py.attr(s, "zones"), self.names.zone(step.source), p)
        condition = self.not_claimed(op, var, condition)
        options = [*prebound, py.return_(py.list_of(py.name(var), var, tiles, condition))]
        zone = self.names.zone(step.zone)
        take = [py.do(py.call("_take_tile", s, p, py.name("option"), zone))]
        return [
            self.step_options(step, options),
            self.step_decide(step, take if op.shared is None else self.claim_shared(step)),
            self.step_run(step, []),
        ]

    def not_claimed(self, op: ops.ClaimTile, var: str, condition: ast.expr) -> ast.expr:
        """A claim of a set claimed once per player: the condition, and
        that none of the player's zones its claims go into holds the tile."""
        s, p = py.name("s"), py.name("p")
        held = [py.item(py.attr(s, "zones"), self.names.zone(z), p) for z in op.shared or ()]
        fresh = [py.binary(py.name(var), "not in", h) for h in held]
        return py.logic("and", [*fresh, condition]) if fresh else condition

    def claim_shared(self, step: m.Claim) -> list[ast.stmt]:
        """A tile claimed once per player: into the player's zone, and left
        in play (and in the other players' zones) as it is."""
        s, p, option = py.name("s"), py.name("p"), py.name("option")
        zone, rows = self.names.zone(step.zone), py.name("rows")
        mine = py.binary(py.item(rows, p), "+", py.tuple_([option]))
        put = py.call("_replace", py.attr(s, "zones"), zone, py.call("_replace", rows, p, mine))
        return [
            py.assign("rows", py.item(py.attr(s, "zones"), zone)),
            py.set_(py.attr(s, "zones"), put),
            py.do(py.call("_count_in", s, p, zone, option, py.const(1))),
            py.set_(py.attr(s, "_memo"), ast.Dict(keys=[], values=[])),
        ]

    def visit_CheckEnd(self, op: ops.CheckEnd) -> list[py.Function]:
        """The endings checked at the end of the turn: the last round, then
        the end at once (`_end_turn` stops)."""
        s = py.name("s")
        body: list[ast.stmt] = [self.where(op.statement)]
        for endings, flag in ((op.last_round, "last"), (op.game_over, "over")):
            for ending in endings:
                body.append(self.where(ending))
                now = py.set_(py.attr(s, flag), py.const(True))
                body.append(py.if_(self.expr(ending.condition, Frame()), [now]))
        body.append(py.return_(py.const(None)))
        return [
            self.step_options(op.statement, [py.return_(py.list_([]))]),
            self.step_decide(op.statement, [py.return_(py.const(None))]),
            py.Function(ident("_step_", op.statement.name), STATE_AND_PLAYER, RUN, body),
        ]

    def step_options(self, step: m.Step, body: Sequence[ast.stmt]) -> py.Function:
        """The options of a step's decision."""
        name = ident("_options_", step.name)
        return py.Function(name, STATE_AND_PLAYER, "list[Any]", [self.where(step), *body])

    def step_decide(self, step: m.Step, decided: Sequence[ast.stmt]) -> py.Function:
        """The effect of the option a player decided."""
        parameters = (*STATE_AND_PLAYER, ("option", "Any"))
        return py.Function(ident("_decide_", step.name), parameters, "None", list(decided))

    def step_run(self, step: m.Step, before: list[ast.stmt]) -> py.Function:
        """A step with a decision at the end of a turn (after `before`, which
        may end it): its options if the player must decide, else None
        (having decided the only option, if there is one)."""
        s, p = py.name("s"), py.name("p")
        options = py.name("options")
        decide = py.call(ident("_decide_", step.name), s, p, py.item(options, 0))
        body = [
            self.where(step),
            *before,
            py.assign("options", py.call(ident("_options_", step.name), s, p)),
            py.if_(py.binary(py.call("len", options), ">", py.const(1)), [py.return_(options)]),
            py.if_(options, [py.do(decide)]),
            py.return_(py.const(None)),
        ]
        return py.Function(ident("_step_", step.name), STATE_AND_PLAYER, RUN, body)

    # -------------------------------------------------------------- the end

    def endings(self) -> list[py.Function]:
        """When a round's end ends the game, who may win, and the ranking."""
        return [self.visit(self.plan.turn_end.round_ends), *self.visit(self.plan.scoring.ranking)]

    def visit_RoundEnds(self, op: ops.RoundEnds) -> py.Function:
        body: list[ast.stmt] = []
        conditions: list[ast.expr] = []
        for ending in op.endings:
            body.append(self.where(ending))
            conditions.append(self.expr(ending.condition, Frame()))
        ends = py.logic("or", conditions) if conditions else py.const(False)
        body.append(py.return_(ends))
        return py.Function("_round_ends", (("s", "State"),), "bool", body)

    def visit_Ranking(self, op: ops.Ranking) -> list[py.Function]:
        winners = op.statement
        among = winners.among
        eligible = py.call("bool", self.expr(among, Frame())) if among else py.const(True)
        keys: list[ast.expr] = []
        for key in winners.keys:
            value = self.expr(key.value, Frame())
            value = py.call("int", value) if key.value.type == m.BOOL else value
            keys.append(value if key.order == "highest" else py.negative(value))
        return [
            py.Function(
                "_eligible",
                STATE_AND_PLAYER,
                "bool",
                [self.where(winners), py.return_(eligible)],
            ),
            py.Function(
                "_rank",
                STATE_AND_PLAYER,
                "tuple[int, ...]",
                [self.where(winners), py.return_(py.tuple_(keys))],
            ),
        ]

    def visit_Score(self, op: ops.Score) -> py.Function:
        """The score, printed as every definition is."""
        return Values(self.edition, self.source, self.emitter).define(op.statement, "_score")

    # ---------------------------------------------------------------- setup

    def setup(self) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """The statements of setup (inside new_game): the gifts, then the
        reveals."""
        gifts, _ = self.block(self.plan.setup.gifts, Frame())
        reveals, _ = self.block(self.plan.setup.reveals, Frame(player=0))
        return gifts, reveals

    def visit_Gift(self, op: ops.Gift, frame: Frame) -> Printed:
        """A gift a `_gain`, if the game has a player at that place."""
        gift = op.statement
        players, first = py.name("players"), py.name("first_player")
        seat: ast.expr = first
        if op.after:
            seat = py.binary(py.binary(first, "+", py.const(op.after)), "%", players)
        amount = py.const(gift.amount)
        kind = self.names.token(gift.token)
        gain: ast.stmt = py.do(py.call("_gain", py.name("s"), seat, kind, amount))
        if not op.every_game:
            gain = py.if_(py.binary(players, ">=", py.const(gift.position)), [gain])
        return [self.where(gift), gain], frame

    def visit_Reveal(self, op: ops.Reveal, frame: Frame) -> Printed:
        reveal = op.statement
        index = self.names.tile_set(reveal.tiles)
        faces = py.item(py.name("_TILE_SET_FACES"), index)
        count = self.expr(reveal.count, frame)
        revealed = py.call("_reveal", py.name("rng"), faces, count, py.const(reveal.random_face))
        return [self.where(reveal), py.set_(py.item(py.name("tiles"), index), revealed)], frame
