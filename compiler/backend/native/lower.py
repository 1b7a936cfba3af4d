"""Lowering for the native target: the checked model -> what engine.c.j2 reads.

The same plan as the Python target's lowering, function for function (the
differential tests hold the two to the same moves in the same order): per
action an enumerator of its legal moves and the function that makes a move's
effects (printed from the engine plan by `statements.py`); the zone hooks,
follow-ups, the upkeep of the zone aggregates and the definitions; and,
printed from the plan with one `visit_<Op>` method each, the steps at the
end of a turn, the endings, score and ranking, and the set-up's gifts and
reveals. Each function is a `cnodes.Function`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from splendor_rules.compiler.backend import analysis, tables
from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native import data
from splendor_rules.compiler.backend.native.base import (
    CONST_STATE,
    PLAYER,
    SHOWN,
    STATE,
    shown_code,
)
from splendor_rules.compiler.backend.native.board import board_context
from splendor_rules.compiler.backend.native.emit import Frame, c_type, filled
from splendor_rules.compiler.backend.native.statements import Context, Printed, Statements
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.frontend import description, identities
from splendor_rules.compiler.frontend import model as m


class Turns(Statements):
    """Around the actions: the zone aggregates and definitions, the zone
    hooks (triggers, majorities), and the plan's end of a turn, scoring and
    set-up."""

    # ------------------------------------------------- values and upkeep

    def count_in(self) -> c.Function:
        """The upkeep of the zone aggregates as an item enters or leaves."""
        by_zone: dict[str, list[tuple[analysis.Aggregate, int]]] = {}
        for aggregate, (offset, _) in self.names.aggregates.items():
            by_zone.setdefault(aggregate[1], []).append((aggregate, offset))
        body: list[c.Stmt] = [
            c.do(c.Unary("(void)", c.name(n))) for n in ("g", "p", "item", "sign")
        ]
        row = c.index(c.arrow("g", "agg"), c.name("p"))
        for zone, aggregates in by_zone.items():
            cards = analysis.zone_content(self.edition, zone) == "cards"
            upkeep: list[c.Stmt] = []
            for (kind, _, column), offset in aggregates:
                if not isinstance(column, str):
                    upkeep.extend(self.total_upkeep(column, offset))
                    continue
                value = c.index(
                    c.name(c.ident("CARD_" if cards else "TILE_", column)), c.name("item")
                )
                if kind == "sum":
                    added = c.binary(c.name("sign"), "*", value)
                    upkeep.append(c.assign(c.index(row, offset), added, "+="))
                    continue
                place = c.index(row, c.binary(c.num(offset), "+", value))
                add: c.Stmt = c.assign(place, c.name("sign"), "+=")
                if column in self.names.none_columns:
                    add = c.if_(c.binary(value, ">=", c.num(0)), [add])
                upkeep.append(add)
            zone_is = c.binary(c.name("zone"), "==", c.num(self.names.zone_index[zone]))
            body.append(c.if_(zone_is, upkeep))
        parameters = (STATE, PLAYER, ("int32_t", "zone"), ("int32_t", "item"), ("int32_t", "sign"))
        return c.Function("void", "count_in", parameters, body)

    def total_upkeep(self, kept: m.Expr, offset: int) -> list[c.Stmt]:
        """A kept Total (or one per colour) updated for the item."""
        row = c.index(c.arrow("g", "agg"), c.name("p"))
        if isinstance(kept, m.Total):
            return self.contribution(kept, Frame(), c.index(row, offset))
        assert isinstance(kept, m.PerColour) and isinstance(kept.body, m.Total)
        keyed = self.keyed_upkeep(kept, offset)
        if keyed is not None:
            return keyed
        body: list[c.Stmt] = []
        for colour in range(len(self.edition.colours)):
            frame = Frame().bind(kept.variable, c.num(colour))
            body.extend(self.contribution(kept.body, frame, c.index(row, offset + colour)))
        return body

    def keyed_upkeep(self, kept: m.PerColour, offset: int) -> list[c.Stmt] | None:
        """`per colour c: sum(x in Z where A == c: N)` (analysis.total_by_colour):
        the item adds to the total of its colour A alone, found once (not a
        test per colour). None for any other shape."""
        by_colour = analysis.total_by_colour(kept)
        if by_colour is None:
            return None
        total, colour_of = by_colour
        frame = Frame().bind(total.variable, "item")
        key = c.name(f"key{offset}")
        row = c.index(c.arrow("g", "agg"), c.name("p"))
        added = c.binary(c.name("sign"), "*", self.expr(total.body, frame))
        colours = c.num(len(self.edition.colours))
        in_range = c.logic("&&", [c.binary(key, ">=", c.num(0)), c.binary(key, "<", colours)])
        step = c.assign(c.index(row, c.binary(c.num(offset), "+", key)), added, "+=")
        return [c.declare("V", key.name, self.expr(colour_of, frame)), c.if_(in_range, [step])]

    def contribution(self, total: m.Total, frame: Frame, target: c.Expr) -> list[c.Stmt]:
        """`target += sign * body` for the item, if it passes the condition."""
        frame = frame.bind(total.variable, "item")
        added = c.binary(c.name("sign"), "*", self.expr(total.body, frame))
        step = c.assign(target, added, "+=")
        if total.condition is None:
            return [step]
        return [c.if_(self.expr(total.condition, frame), [step])]

    def defines(self) -> list[c.Function]:
        applied = {n.name for n in analysis.nodes(self.edition) if isinstance(n, m.Apply)}
        found = [
            self.define(define, self.names.define(define.name))
            for define in self.edition.defines
            if not define.parameters or define.name in applied
        ]
        found.append(self.visit(self.plan.scoring.score))
        return found

    def define(self, define: m.Define, name: str) -> c.Function:
        """A definition read for a player (one without parameters is printed
        whether the engine reads it or not)."""
        frame = Frame()
        parameters: list[tuple[str, str]] = [CONST_STATE, PLAYER]
        for parameter, type_ in define.parameters:
            argument = c.ident("a_", parameter)
            parameters.append((c_type(type_), argument))
            frame = frame.bind(parameter, argument)
        body = [
            self.where(define),
            c.do(c.Unary("(void)", c.name("p"))),
            c.Return(self.expr(define.value, frame)),
        ]
        return c.Function(c_type(define.value.type), name, tuple(parameters), body,
                          maybe_unused=not define.parameters)

    # --------------------------------------------------------- zone hooks

    def hooks(self) -> list[c.Function]:
        """Triggers that wait for a decision, majorities, and per hooked zone
        what runs when a card enters it."""
        found = []
        card = ("int32_t", "card")
        g, p = c.name("g"), c.name("p")
        for trigger in self.plan.triggers:
            if trigger.waits:
                frame = Frame().bind(trigger.trigger.card, "card")
                effects, _ = self.effects(trigger.body, frame, [c.Return()])
                name = c.ident("trigger_", trigger.trigger.name)
                own = [self.where(trigger.trigger), *effects]
                found.append(c.Function("void", name, (STATE, PLAYER, card), own))
        for contest in self.plan.contests:
            found.extend(self.visit(contest))
        for hook in self.plan.hooks:
            body: list[c.Stmt] = [c.do(c.Unary("(void)", c.name("card")))]
            for trigger in hook.triggers:
                if trigger.waits:
                    run = c.call(c.ident("trigger_", trigger.trigger.name), g, p, c.name("card"))
                    body.append(c.do(run))
                else:
                    body.append(self.where(trigger.trigger))
                    frame = Frame().bind(trigger.trigger.card, "card")
                    effects, _ = self.effects(trigger.body, frame, [c.Return()])
                    body.append(c.if_(c.num(1), effects))
            for majority in hook.majorities:
                body.append(c.do(c.call(c.ident("contest_", majority.name), g, p)))
            entered = c.ident("entered_", hook.zone)
            found.append(c.Function("void", entered, (STATE, PLAYER, card), body))
        return found

    def visit_Contest(self, op: ops.Contest) -> list[c.Function]:
        return [self.measure(op.statement), self.contest(op.statement)]

    def measure(self, majority: m.Majority) -> c.Function:
        value = self.expr(majority.measure, Frame())
        body = [self.where(majority), c.Return(value)]
        return c.Function("V", c.ident("measure_", majority.name), (CONST_STATE, PLAYER), body)

    def contest(self, majority: m.Majority) -> c.Function:
        """Give the majority tile to the player if their measure reaches the
        threshold and beats the holder's."""
        measure = c.ident("measure_", majority.name)
        tile = c.num(self.names.majority_tile[majority.name])
        zone = c.num(self.names.zone_index[majority.zone])
        g, p, mine, holder = c.name("g"), c.name("p"), c.name("mine"), c.name("holder")
        beats = ">" if majority.ties_keep_holder else ">="
        other = c.logic(
            "&&", [c.binary(holder, "!=", p), c.binary(mine, beats, c.call(measure, g, holder))]
        )
        takes = c.logic("||", [c.binary(holder, "<", c.num(0)), other])
        body = [
            self.where(majority),
            c.declare("V", "mine", c.call(measure, g, p)),
            c.if_(c.binary(mine, "<", c.num(majority.threshold)), [c.Return()]),
            c.declare("int32_t", "holder", c.call("holder_of", g, tile, zone)),
            c.if_(takes, [c.do(c.call("take_tile", g, p, tile, zone))]),
        ]
        return c.Function("void", c.ident("contest_", majority.name), (STATE, PLAYER), body)

    # -------------------------------------------------------------- steps

    def step_functions(self) -> list[c.Function]:
        """Per step: its options, the effect of the option decided, and the
        step itself (1 if the player must decide)."""
        return [f for step in self.plan.turn_end.steps for f in self.visit(step)]

    def visit_ReturnTokens(self, op: ops.ReturnTokens) -> list[c.Function]:
        step, index = op.statement, op.index
        g, p = c.name("g"), c.name("p")
        code = c.num(self.move_code("step", index))
        counted = c.index(c.name("STEP_COUNTED"), index)
        ways = c.call("return_ways", g, p, c.num(step.limit), counted, code, c.name("out"))
        held: c.Expr = c.call("held_total", g, p)
        if op.counted is not None:  # the kinds it counts, added up
            cells = [c.index(c.arrow("g", "held"), p, i) for i in op.counted]
            held = functools.reduce(lambda a, b: c.binary(a, "+", b), cells)
        few = c.if_(c.binary(held, "<=", c.num(step.limit)), [c.Return(c.num(0))])
        back = "give_to_bag" if step.into_bag else "give_back"
        return [
            self.step_options(op, [c.do(ways)]),
            self.step_decide(index, [c.do(c.call(back, g, p, c.name("mv")))]),
            self.step_run(op, [few]),
        ]

    def visit_ClaimTile(self, op: ops.ClaimTile) -> list[c.Function]:
        step, index = op.statement, op.index
        g, p, out = c.name("g"), c.name("p"), c.name("out")
        var = c.ident("v_", step.variable)
        condition = self.expr(step.condition, Frame().bind(step.variable, var))
        if op.faces is not None and step.source is not None:  # the player's, of the set
            zone = c.num(self.names.zone_index[step.source])
            source = filled("src", "zone_fill", g, zone, p)
            of_set = c.logic("||", [c.binary(c.name(var), "==", c.num(f)) for f in op.faces])
            condition = c.logic("&&", [of_set, condition])
        else:
            tiles = c.num(self.names.tile_set_index[step.tiles])
            source = filled("src", "tiles_fill", g, tiles)
        condition = self.not_claimed(op, var, condition)
        code = c.num(self.move_code("step", index))
        emit = [c.do(c.call("mv_add1", out, code, c.name(var)))]
        element = c.index(c.dot(c.name("src"), "v"), c.name("i"))
        loop = [c.declare("V", var, element), c.if_(condition, emit)]
        options = [*source, c.for_("i", 0, c.dot(c.name("src"), "n"), loop)]
        zone = c.num(self.names.zone_index[step.zone])
        mv = c.index(c.name("mv"), 0)
        take = [c.do(c.call("take_tile", g, p, mv, zone))]
        if op.shared is not None:  # claimed once per player: into the zone, left in play
            take = [
                c.do(c.call("zone_add", g, zone, p, mv)),
                c.do(c.call("count_in", g, p, zone, mv, c.num(1))),
            ]
        return [
            self.step_options(op, options),
            self.step_decide(index, take),
            self.step_run(op, []),
        ]

    def not_claimed(self, op: ops.ClaimTile, var: str, condition: c.Expr) -> c.Expr:
        """A claim of a set claimed once per player: the condition, and
        that none of the player's zones its claims go into holds the tile."""
        g, p = c.name("g"), c.name("p")
        numbers = [c.num(self.names.zone_index[z]) for z in op.shared or ()]
        fresh = [c.not_(c.call("zone_has", g, z, p, c.name(var))) for z in numbers]
        return c.logic("&&", [*fresh, condition]) if fresh else condition

    def visit_CheckEnd(self, op: ops.CheckEnd) -> list[c.Function]:
        """The endings checked at the end of the turn: the last round, then
        the end at once (end_turn stops)."""
        body: list[c.Stmt] = [self.where(op.statement), c.do(c.Unary("(void)", c.name("p")))]
        for endings, flag in ((op.last_round, "last"), (op.game_over, "over")):
            for ending in endings:
                body.append(self.where(ending))
                condition = self.expr(ending.condition, Frame())
                body.append(c.if_(condition, [c.assign(c.arrow("g", flag), c.num(1))]))
        body.append(c.Return(c.num(0)))
        unused = [c.do(c.Unary("(void)", c.name(n))) for n in ("g", "p", "mv")]
        return [
            self.step_options(op, []),
            self.step_decide(op.index, unused),
            c.Function("int32_t", f"step_run{op.index}", (STATE, PLAYER), body),
        ]

    def step_options(self, op: ops.Step, body: list[c.Stmt]) -> c.Function:
        """The options of a step's decision, each a move into `out`."""
        unused = [c.do(c.Unary("(void)", c.name(n))) for n in ("g", "p", "out")]
        parameters = (CONST_STATE, PLAYER, ("MoveBuf *", "out"))
        own = [self.where(op.statement), *unused, *body]
        return c.Function("void", f"step_options{op.index}", parameters, own)

    def step_decide(self, index: int, decided: Sequence[c.Stmt]) -> c.Function:
        """The effect of the option decided (the move `mv`)."""
        parameters = (STATE, PLAYER, ("const int32_t *", "mv"))
        return c.Function("void", f"step_decide{index}", parameters, decided)

    def step_run(self, op: ops.ReturnTokens | ops.ClaimTile, before: list[c.Stmt]) -> c.Function:
        """A step with a decision (after `before`, which may end it): 1 if
        the player must decide (run_step)."""
        g, p = c.name("g"), c.name("p")
        body: list[c.Stmt] = [self.where(op.statement), c.do(c.Unary("(void)", p)), *before]
        body.append(c.Return(c.call("run_step", g, p, c.num(op.index))))
        return c.Function("int32_t", f"step_run{op.index}", (STATE, PLAYER), body)

    # -------------------------------------------------------------- the end

    def endings(self) -> list[c.Function]:
        """When a round's end ends the game, who may win, and the ranking."""
        return [self.visit(self.plan.turn_end.round_ends), *self.visit(self.plan.scoring.ranking)]

    def visit_RoundEnds(self, op: ops.RoundEnds) -> c.Function:
        conditions = [self.expr(e.condition, Frame()) for e in op.endings]
        ends = c.logic("||", conditions) if conditions else c.num(0)
        return c.Function("int32_t", "round_ends", (CONST_STATE,), [c.Return(ends)])

    def visit_Ranking(self, op: ops.Ranking) -> list[c.Function]:
        winners = op.statement
        among = self.expr(winners.among, Frame()) if winners.among else c.num(1)
        eligible = [c.do(c.Unary("(void)", c.name("p"))), c.Return(c.binary(among, "!=", c.num(0)))]
        body: list[c.Stmt] = [self.where(winners), c.do(c.Unary("(void)", c.name("p")))]
        for position, key in enumerate(winners.keys):
            value = self.expr(key.value, Frame())
            if key.order == "lowest":
                value = c.Unary("-", value)
            body.append(c.assign(c.index(c.name("keys"), position), value))
        return [
            c.Function("int32_t", "eligible", (CONST_STATE, PLAYER), eligible),
            c.Function("void", "rank", (CONST_STATE, PLAYER, ("V *", "keys")), body),
        ]

    def visit_Score(self, op: ops.Score) -> c.Function:
        """The score, printed as every definition is."""
        return self.define(op.statement, "score")

    # -------------------------------------------------------------- setup

    def visit_Gift(self, op: ops.Gift, frame: Frame) -> Printed:
        """A gift a `gain`, if the game has a player at that place."""
        gift = op.statement
        players, first = c.name("players"), c.name("first")
        kind = c.num(self.names.token_index[gift.token])
        seat: c.Expr = first
        if op.after:
            seat = c.binary(c.binary(first, "+", c.num(op.after)), "%", players)
        gain: c.Stmt = c.do(c.call("gain", c.name("g"), seat, kind, c.num(gift.amount)))
        if not op.every_game:
            gain = c.if_(c.binary(players, ">=", c.num(gift.position)), [gain])
        return [self.where(gift), gain], frame

    def setup_reveals(self) -> list[c.Stmt]:
        """The reveals of setup. A reveal here writes the state the next
        count reads: with several, every count is read first, as the
        interpreter and the Python engine read them."""
        frame = Frame(player=c.num(0))
        reveals = self.plan.setup.reveals
        counts = [
            c.declare("V", f"reveal_count{r.index}", self.expr(r.statement.count, frame))
            for r in reveals
            if self.plan.setup.counts_first
        ]
        return [*counts, *self.block(reveals, frame)[0]]

    def visit_Reveal(self, op: ops.Reveal, frame: Frame) -> Printed:
        reveal = op.statement
        index = c.num(self.names.tile_set_index[reveal.tiles])
        count = self.expr(reveal.count, frame)
        if self.plan.setup.counts_first:  # read before any reveal (reveal_counts)
            count = c.name(f"reveal_count{op.index}")
        reveal_ = c.call(
            "reveal", c.name("g"), c.name("rng"), index, count, c.num(reveal.random_face)
        )
        return [self.where(reveal), c.do(reveal_)], frame


class FollowUps(Turns):
    """The follow-up choices: the queue of what waits, each one's options,
    and what runs once it is decided or skipped."""

    # --------------------------------------------------------- follow-ups

    def bound_width(self) -> int:
        return max([sum(self.width(t) for _, t in site.bound) for site in self.sites] + [1])

    def unpack(
        self, site: identities.FollowUp, carried: tuple[ops.Carried, ...], frame: Frame
    ) -> tuple[list[c.Stmt], Frame]:
        """The names carried that the function reads, from `bound`."""
        body: list[c.Stmt] = [self.where(site.choice), c.do(c.Unary("(void)", c.name("bound")))]
        at = 0
        for name in carried:
            if name.read:
                var = c.ident("v_", name.name)
                where = c.binary(c.name("bound"), "+", c.num(at))
                if name.type.kind == "vector":
                    value: c.Expr = c.call("vec_at", where)
                elif name.type.kind in ("set", "list"):
                    value = c.call("set_load", where)
                else:
                    value = c.index(c.name("bound"), at)
                body.append(c.declare(c_type(name.type), var, value))
                frame = frame.bind(name.name, var)
            at += self.width(name.type)
        return body, frame

    def follow_ups(self) -> list[c.Function]:
        """Per follow-up: its options, what runs once it is decided, and
        what runs when it has no option."""
        found = []
        bound = ("const V *", "bound")
        for plan in self.plan.follow_ups:
            body, frame = self.unpack(plan.site, plan.options_carried, Frame())
            code = c.num(self.move_code("follow", plan.index))
            context = Context(moves=[c.do(c.call("mv_begin", c.name("out"), code))])
            options, _ = self.block((plan.options,), frame, context)
            body.extend(options)
            if plan.declinable:  # the decline last, DECLINED, which runs the skip
                body.append(c.do(c.call("mv_begin", c.name("out"), code)))
                body.append(c.do(c.call("mv_put", c.name("out"), c.name("DECLINED"))))
                body.append(c.do(c.call("mv_end", c.name("out"))))
            parameters = (CONST_STATE, PLAYER, bound, ("MoveBuf *", "out"))
            found.append(c.Function("void", f"follow_options{plan.index}", parameters, body))
            for skip in (False, True):
                found.append(self.rest(plan, skip))
        return found

    def rest(self, plan: ops.FollowUp, skip: bool) -> c.Function:
        site = plan.site
        carried = plan.skip_carried if skip else plan.take_carried
        body, frame = self.unpack(site, carried, Frame())
        parameters: tuple[tuple[str, str], ...] = (STATE, PLAYER, ("const V *", "bound"))
        if not skip:
            var = c.ident("v_", site.choice.name)
            parameters = (*parameters, ("const int32_t *", "mv"))
            if plan.declinable:  # declined: what runs without an option
                arguments = (c.name("g"), c.name("p"), c.name("bound"))
                skipped = c.call(f"follow_skip{plan.index}", *arguments)
                declined = c.binary(c.index(c.name("mv"), 0), "==", c.name("DECLINED"))
                body.append(c.if_(declined, [c.do(skipped), c.Return()]))
            if isinstance(plan.options, ops.ChoiceLoop):
                read: c.Expr = c.binary(c.index(c.name("mv"), 0), "&", c.name("VALUE_MASK"))
                body.append(c.declare("V", var, read))
            else:
                body.append(c.declare("int32_t", "at", c.num(0)))
                body += filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", c.name("at")))
            body.append(c.do(c.Unary("(void)", c.name(var))))
            frame = frame.bind(site.choice.name, var)
        effects, _ = self.blocks(
            plan.skip if skip else plan.take, frame, Context(stop=[c.Return()])
        )
        body.extend(effects)
        name = f"follow_skip{plan.index}" if skip else f"follow_take{plan.index}"
        return c.Function("void", name, parameters, body)


class Lowering(FollowUps):
    """The actions, their effects and follow-ups, and the template's context."""

    # ---------------------------------------------------------------- all

    def context(self) -> dict[str, Any]:
        """The template's context."""
        e = self.edition
        functions = [
            self.count_in(),
            *self.defines(),
            *[self.legal(legal) for legal in self.plan.legal if legal is not None],
            *[self.apply(apply) for apply in self.plan.apply if apply.action.body is not None],
            *self.hooks(),
            *self.step_functions(),
            *self.endings(),
            *self.follow_ups(),
        ]
        python = tables.Tables(e, self.source).context()
        return {
            **python,
            **data.data(e, self.names, python, self.packed),
            "prototypes": [f.prototype() + ";" for f in functions],
            "functions": [f.text() for f in functions],
            "reveals": c.body_text(self.setup_reveals()),
            "seat_gifts": c.body_text(self.block(self.plan.setup.gifts, Frame())[0]),
            "turn_endings": self.plan.turn_end.stops,
            "actions": [
                {
                    "legal": c.ident("legal_", a.name) if a.body is not None else None,
                    "apply": c.ident("apply_", a.name) if a.body is not None else None,
                }
                for a in self.actions
            ],
            "fallback_index": next((i for i, a in enumerate(self.actions) if a.body is None), -1),
            "step_count": len(self.steps),
            "step_counted": [self.counted(step) for step in self.plan.turn_end.steps],
            "follow_count": len(self.sites),
            "declines": any(site.declinable for site in self.sites),
            "picks": self.picks(),
            "function_tables": self.function_tables(),
            "bound_width": self.bound_width(),
            "set_capacity": self.set_capacity(),
            "aggregate_slots": max(self.names.aggregate_slots, 1),
            "rank_keys": max(len(e.winners.keys), 1),
            "rank_count": len(e.winners.keys),
            "shown": self.shown_codes(),
            "board": board_context(e),
            "worth": analysis.worth_token(e) is not None,
        }

    def picks(self) -> bool:
        """Does a move hold a value the batch's table tells apart by move
        (batch.c.j2, BT_PICKS): a player, a set of players, or a set of cells
        chosen distinct (not in a line: docs/rl.md, "The action space")."""
        shapes = description.move_shapes(description.describe(self.edition))
        picked = ("player", "set:player", description.DISTINCT_CELLS)
        return any(kind in picked for shape in shapes.values() for _, kind in shape)

    def counted(self, step: ops.Step) -> tuple[int, ...]:
        """The kinds a step's token limit counts and may return, 1 each
        (every kind for another step)."""
        kinds = range(len(self.edition.tokens))
        if isinstance(step, ops.ReturnTokens) and step.counted is not None:
            return tuple(int(i in step.counted) for i in kinds)
        return tuple(1 for _ in kinds)

    def function_tables(self) -> dict[str, list[str]]:
        """The names of the actions', steps' and follow-ups' functions, by
        the table that lists them (engine.c.j2 dispatches through these; NULL in a
        table with none)."""
        steps, follows = range(len(self.steps)), range(len(self.sites))
        tables = {
            "APPLY": [
                c.ident("apply_", a.name) if a.body is not None else "NULL" for a in self.actions
            ],
            "STEP_OPTIONS": [f"step_options{i}" for i in steps],
            "STEP_DECIDE": [f"step_decide{i}" for i in steps],
            "STEP_RUN": [f"step_run{i}" for i in steps],
            "FOLLOW_OPTIONS": [f"follow_options{i}" for i in follows],
            "FOLLOW_TAKE": [f"follow_take{i}" for i in follows],
            "FOLLOW_SKIP": [f"follow_skip{i}" for i in follows],
        }
        return {table: names or ["NULL"] for table, names in tables.items()}

    def shown_codes(self) -> list[list[int]]:
        """Per move kind, how each of its values is shown (SHOWN codes)."""
        found = [
            [shown_code(kind) for _, kind in identities.action_signature(a)] for a in self.actions
        ]
        for step in self.steps:
            found.append([SHOWN["pay"] if identities.decision_kind(step) == "tokens" else 0])
        for site in self.sites:
            found.append([shown_code(identities.follow_up_kind(site))])
        return found
