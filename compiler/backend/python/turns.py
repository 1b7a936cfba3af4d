"""Lowering what happens around the actions: the tiles revealed at setup, the
code run when something enters a zone (triggers and majorities), the steps
at the end of each turn, and the end of the game (endings and ranking)."""

from __future__ import annotations

import ast

from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.actions import Actions
from splendor_rules.compiler.backend.python.base import LoweringPart, Source
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

STATE_AND_PLAYER = (("s", "State"), ("p", "int"))


class Turns(LoweringPart):
    """The functions of an edition's zone hooks, steps and ending, and its
    setup's reveals. A trigger's effects are those of an action (`actions`)."""

    def __init__(self, edition: m.Edition, source: Source, actions: Actions) -> None:
        super().__init__(edition, source, actions.emitter)
        self.actions = actions

    def seat_gifts(self) -> list[ast.stmt]:
        """What players start with, by their place in the turn order (inside
        new_game, before the reveals): each gift a `_gain`, if the game has
        a player at that place."""
        body: list[ast.stmt] = []
        players, first = py.name("players"), py.name("first_player")
        for gift in self.edition.seat_gifts:
            kind = self.names.token(gift.token)
            seat: ast.expr = first
            if gift.position > 1:
                after = py.binary(first, "+", py.const(gift.position - 1))
                seat = py.binary(after, "%", players)
            amount = py.const(gift.amount)
            gain: ast.stmt = py.do(py.call("_gain", py.name("s"), seat, kind, amount))
            if gift.position > self.edition.players[0]:  # not in every game
                gain = py.if_(py.binary(players, ">=", py.const(gift.position)), [gain])
            body += [self.where(gift), gain]
        return body

    def reveals(self) -> list[ast.stmt]:
        """The statements of setup that reveal tiles (inside new_game)."""
        body: list[ast.stmt] = []
        frame = Frame(player=0)
        for reveal in self.edition.reveals:
            index = self.names.tile_set(reveal.tiles)
            faces = py.item(py.name("_TILE_SET_FACES"), index)
            count = self.expr(reveal.count, frame)
            revealed = py.call(
                "_reveal", py.name("rng"), faces, count, py.const(reveal.random_face)
            )
            body.append(self.where(reveal))
            body.append(py.set_(py.item(py.name("tiles"), index), revealed))
        return body

    def hooks(self) -> list[py.Function]:
        plan = self.actions.plan
        found = [self.trigger(t) for t in plan.triggers if t.waits]
        for majority in self.edition.majorities:
            found.append(self.measure(majority))
            found.append(self.contest(majority))
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
                effects, _ = self.actions.effects(trigger.body, frame, [])
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
        effects, _ = self.actions.effects(trigger.body, frame, stop)
        return py.Function(
            ident("_trigger_", trigger.trigger.name),
            (*STATE_AND_PLAYER, ("card", "int")),
            "None",
            [self.where(trigger.trigger), *effects],
        )

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
        found = []
        for step in self.edition.steps:
            found.append(self.options(step))
            found.append(self.decide(step))
            found.append(self.step(step))
        return found

    def options(self, step: m.Step) -> py.Function:
        """The options of a step's decision."""
        s, p = py.name("s"), py.name("p")
        body: list[ast.stmt] = [self.where(step)]
        if isinstance(step, m.TokenLimit):
            limit = [py.item(py.attr(s, "held"), p), py.const(step.limit)]
            if step.counted is not None:  # the kinds it counts, and may return
                limit.append(py.const(tuple(t.name in step.counted for t in self.edition.tokens)))
            body.append(py.return_(py.call("list", py.call("_returns", *limit))))
        elif isinstance(step, m.Claim):
            var = ident("v_", step.variable)
            prebound, frame = self.prebind(step.condition, Frame())
            condition = self.expr(step.condition, frame.bind(step.variable, var))
            tiles = py.item(py.attr(s, "tiles"), self.names.tile_set(step.tiles))
            if step.source is not None:  # the player's tiles of the set in that zone
                faces = identities.tile_numbering(self.edition).set_faces[step.tiles]
                of_set = py.binary(py.name(var), "in", py.const(tuple(faces)))
                condition = py.logic("and", [of_set, condition])
                tiles = py.item(py.attr(s, "zones"), self.names.zone(step.source), p)
            condition = self.not_claimed(step, var, condition)
            body.extend(prebound)
            body.append(py.return_(py.list_of(py.name(var), var, tiles, condition)))
        else:
            body.append(py.return_(py.list_([])))
        return py.Function(ident("_options_", step.name), STATE_AND_PLAYER, "list[Any]", body)

    def decide(self, step: m.Step) -> py.Function:
        """The effect of the option a player decided."""
        s, p, option = py.name("s"), py.name("p"), py.name("option")
        if isinstance(step, m.TokenLimit):
            back = "_give_to_bag" if step.into_bag else "_give_back"
            decided: list[ast.stmt] = [py.do(py.call(back, s, p, option))]
        elif isinstance(step, m.Claim) and identities.shared_claim(self.edition, step):
            decided = self.claim_shared(step)
        elif isinstance(step, m.Claim):
            zone = self.names.zone(step.zone)
            decided = [py.do(py.call("_take_tile", s, p, option, zone))]
        else:
            decided = [py.return_(py.const(None))]
        return py.Function(
            ident("_decide_", step.name), (*STATE_AND_PLAYER, ("option", "Any")), "None", decided
        )

    def not_claimed(self, step: m.Claim, var: str, condition: ast.expr) -> ast.expr:
        """A claim of a set claimed once per player: the condition, and
        that none of the player's zones its claims go into holds the tile."""
        zones = identities.shared_claim(self.edition, step) or ()
        s, p = py.name("s"), py.name("p")
        held = [py.item(py.attr(s, "zones"), self.names.zone(z), p) for z in zones]
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

    def step(self, step: m.Step) -> py.Function:
        """A step at the end of a turn: its options if the player must decide,
        else None (having decided the only option, if there is one)."""
        s, p = py.name("s"), py.name("p")
        body: list[ast.stmt] = [self.where(step)]
        if isinstance(step, m.EndCheck):
            for ending in self.edition.endings:
                if ending.mode == "once":
                    body.append(self.where(ending))
                    last = py.set_(py.attr(s, "last"), py.const(True))
                    body.append(py.if_(self.expr(ending.condition, Frame()), [last]))
            for ending in self.edition.endings:
                if ending.mode == "at_turn_end":  # _end_turn stops at once
                    body.append(self.where(ending))
                    over = py.set_(py.attr(s, "over"), py.const(True))
                    body.append(py.if_(self.expr(ending.condition, Frame()), [over]))
            body.append(py.return_(py.const(None)))
        else:
            if isinstance(step, m.TokenLimit):
                held: ast.expr = py.call("sum", py.item(py.attr(s, "held"), p))
                if step.counted is not None:  # the kinds it counts, added up
                    kinds = [i for i, t in enumerate(self.edition.tokens) if t.name in step.counted]
                    held = py.chain("+", [py.item(py.attr(s, "held"), p, i) for i in kinds])
                few = py.binary(held, "<=", py.const(step.limit))
                body.append(py.if_(few, [py.return_(py.const(None))]))
            options = py.name("options")
            decide = py.call(ident("_decide_", step.name), s, p, py.item(options, 0))
            body += [
                py.assign("options", py.call(ident("_options_", step.name), s, p)),
                py.if_(py.binary(py.call("len", options), ">", py.const(1)), [py.return_(options)]),
                py.if_(options, [py.do(decide)]),
                py.return_(py.const(None)),
            ]
        return py.Function(ident("_step_", step.name), STATE_AND_PLAYER, "list[Any] | None", body)

    # -------------------------------------------------------------- the end

    def endings(self) -> list[py.Function]:
        winners = self.edition.winners
        body: list[ast.stmt] = []
        conditions: list[ast.expr] = []
        for ending in self.edition.endings:
            if ending.mode == "at_round_end":
                body.append(self.where(ending))
                conditions.append(self.expr(ending.condition, Frame()))
        ends = py.logic("or", conditions) if conditions else py.const(False)
        body.append(py.return_(ends))
        round_ends = py.Function("_round_ends", (("s", "State"),), "bool", body)
        among = winners.among
        eligible = py.call("bool", self.expr(among, Frame())) if among else py.const(True)
        keys: list[ast.expr] = []
        for key in winners.keys:
            value = self.expr(key.value, Frame())
            value = py.call("int", value) if key.value.type == m.BOOL else value
            keys.append(value if key.order == "highest" else py.negative(value))
        return [
            round_ends,
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
