"""Lowering for the native target: the checked model -> what engine.c.j2 reads.

The same plan as the Python target's lowering, function for function (the
differential tests hold the two to the same moves in the same order): per
action an enumerator of its legal moves and the function that makes a move's
effects; the zone hooks, steps, follow-ups, endings and ranking; the upkeep
of the zone aggregates and the definitions. Each is a `cnodes.Function`.

A move is a run of `int32_t` slots in a `MoveBuf` (docs/architecture.md,
"The native target"): its kind, then its values in signature order: one slot
per card, tile, colour or number; a payment's count per token kind; a set's
size and elements. An element of a choice that is a deck's top card carries
`DECK_TOP` beside the card's number, so the move shows `("deck", tier)`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from splendor_rules.compiler.backend import analysis, tables
from splendor_rules.compiler.backend.native import cnodes as c
from splendor_rules.compiler.backend.native import data
from splendor_rules.compiler.backend.native.emit import Emitter, Frame, Names, c_type, filled
from splendor_rules.compiler.backend.native.emit import Source as Collection
from splendor_rules.compiler.backend.source import Source
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m

Choice = m.Choose | m.ChooseDistinct
STATE = ("G *", "g")
CONST_STATE = ("const G *", "g")
PLAYER = ("int32_t", "p")

# How a move's value is shown to Python: the codes of engine.c.j2's move_object.
SHOWN = {"int": 0, "bool": 1, "token": 2, "card": 3, "tile": 0, "text": 4, "pay": 5}
SET_OF = 8  # added to an element's code: a set of such elements


def shown_code(kind: str) -> int:
    if kind.startswith("set:"):
        return SET_OF + SHOWN.get(kind[4:], 0)
    return SHOWN.get(kind, 0)


@frozen
class Means:
    """The locals of what a player can pay with: per colour (tokens and
    discount), beyond it (wild tokens and the cards that may be spent), and,
    for a cost with a packed twin (its C name), the means packed."""

    means: str
    reach: str
    spendable: str | None
    packed: str | None
    word: str | None


class Base:
    """What every part of the lowering shares: the model, names and emitter."""

    def __init__(self, edition: m.Edition, root: Path) -> None:
        self.edition = analysis.inline_definitions(edition)
        self.source = Source(root)
        self.names = Names(self.edition)
        self.emitter = Emitter(self.names)
        self.sites = identities.follow_ups(self.edition)
        self.hooked = analysis.hooked_zones(self.edition)
        self.steps = self.edition.steps
        self.actions = self.edition.actions
        self.packed: set[str] = set()  # the card columns read packed

    # ------------------------------------------------------------- basics

    def where(self, part: m.Part | m.Statement) -> c.Comment:
        return c.comment(self.source.place(part))

    def expr(self, e: m.Expr, frame: Frame) -> c.Expr:
        return self.emitter.emit(e, frame)

    def move_code(self, kind: str, index: int) -> int:
        """A move's kind: actions, then step decisions, then follow-ups."""
        base = {
            "action": 0,
            "step": len(self.actions),
            "follow": len(self.actions) + len(self.steps),
        }
        return base[kind] + index

    def effects(
        self, body: tuple[m.Statement, ...], frame: Frame, stop: list[c.Stmt]
    ) -> tuple[list[c.Stmt], Frame]:
        raise NotImplementedError

    def choice_loop(
        self, st: Choice, frame: Frame, body: list[c.Stmt], shown: list[c.Stmt]
    ) -> tuple[list[c.Stmt], Frame]:
        raise NotImplementedError


class Turns(Base):
    """Around the actions: the zone aggregates and definitions, the zone
    hooks (triggers, majorities), the end-of-turn steps, the endings, the
    ranking and the reveals of setup."""

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
        found.append(self.define(self.edition.score, "score"))
        return found

    def define(self, define: m.Define, name: str) -> c.Function:
        """A definition read for a player."""
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
        return c.Function(c_type(define.value.type), name, tuple(parameters), body)

    # --------------------------------------------------------- zone hooks

    def waits(self, trigger: m.Trigger) -> bool:
        return any(site.owner is trigger for site in self.sites)

    def hooks(self) -> list[c.Function]:
        """Triggers that wait for a decision, majorities, and per hooked zone
        what runs when a card enters it."""
        found = []
        card = ("int32_t", "card")
        g, p = c.name("g"), c.name("p")
        for trigger in self.edition.triggers:
            if self.waits(trigger):
                frame = Frame().bind(trigger.card, "card")
                effects, _ = self.effects(trigger.body, frame, [c.Return()])
                name = c.ident("trigger_", trigger.name)
                found.append(
                    c.Function("void", name, (STATE, PLAYER, card), [self.where(trigger), *effects])
                )
        for majority in self.edition.majorities:
            found.append(self.measure(majority))
            found.append(self.contest(majority))
        for zone in self.hooked:
            body: list[c.Stmt] = [c.do(c.Unary("(void)", c.name("card")))]
            for trigger in self.edition.triggers:
                if trigger.zone == zone and self.waits(trigger):
                    body.append(
                        c.do(c.call(c.ident("trigger_", trigger.name), g, p, c.name("card")))
                    )
                elif trigger.zone == zone:
                    body.append(self.where(trigger))
                    frame = Frame().bind(trigger.card, "card")
                    effects, _ = self.effects(trigger.body, frame, [c.Return()])
                    body.append(c.if_(c.num(1), effects))
            for majority in self.edition.majorities:
                if majority.event_zone == zone:
                    body.append(c.do(c.call(c.ident("contest_", majority.name), g, p)))
            found.append(c.Function("void", c.ident("entered_", zone), (STATE, PLAYER, card), body))
        return found

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
        found = []
        for index, step in enumerate(self.steps):
            found.append(self.step_options(index, step))
            found.append(self.step_decide(index, step))
            found.append(self.step_run(index, step))
        return found

    def step_options(self, index: int, step: m.Step) -> c.Function:
        g, p, out = c.name("g"), c.name("p"), c.name("out")
        code = c.num(self.move_code("step", index))
        body: list[c.Stmt] = [self.where(step)]
        body += [c.do(c.Unary("(void)", n)) for n in (g, p, out)]
        if isinstance(step, m.TokenLimit):
            counted = c.index(c.name("STEP_COUNTED"), index)
            body.append(c.do(c.call("return_ways", g, p, c.num(step.limit), counted, code, out)))
        elif isinstance(step, m.Claim):
            var = c.ident("v_", step.variable)
            condition = self.expr(step.condition, Frame().bind(step.variable, var))
            if step.source is not None:  # the player's tiles of the set in that zone
                faces = identities.tile_numbering(self.edition).set_faces[step.tiles]
                zone = c.num(self.names.zone_index[step.source])
                source = filled("src", "zone_fill", g, zone, p)
                of_set = c.logic("||", [c.binary(c.name(var), "==", c.num(f)) for f in faces])
                condition = c.logic("&&", [of_set, condition])
            else:
                source = filled(
                    "src", "tiles_fill", g, c.num(self.names.tile_set_index[step.tiles])
                )
            emit = [
                c.do(c.call("mv_begin", out, code)),
                c.do(c.call("mv_put", out, c.name(var))),
                c.do(c.call("mv_end", out)),
            ]
            element = c.index(c.dot(c.name("src"), "v"), c.name("i"))
            loop = [c.declare("V", var, element), c.if_(condition, emit)]
            body.extend(source)
            body.append(c.for_("i", 0, c.dot(c.name("src"), "n"), loop))
        parameters = (CONST_STATE, PLAYER, ("MoveBuf *", "out"))
        return c.Function("void", f"step_options{index}", parameters, body)

    def step_decide(self, index: int, step: m.Step) -> c.Function:
        g, p, mv = c.name("g"), c.name("p"), c.name("mv")
        if isinstance(step, m.TokenLimit):
            decided: list[c.Stmt] = [c.do(c.call("give_back", g, p, mv))]
        elif isinstance(step, m.Claim):
            zone = c.num(self.names.zone_index[step.zone])
            decided = [c.do(c.call("take_tile", g, p, c.index(mv, 0), zone))]
        else:
            decided = [c.do(c.Unary("(void)", n)) for n in (g, p, mv)]
        parameters = (STATE, PLAYER, ("const int32_t *", "mv"))
        return c.Function("void", f"step_decide{index}", parameters, decided)

    def step_run(self, index: int, step: m.Step) -> c.Function:
        g, p = c.name("g"), c.name("p")
        body: list[c.Stmt] = [self.where(step), c.do(c.Unary("(void)", p))]
        if isinstance(step, m.EndCheck):
            for mode, flag in (("once", "last"), ("at_turn_end", "over")):
                for ending in self.edition.endings:
                    if ending.mode == mode:
                        body.append(self.where(ending))
                        condition = self.expr(ending.condition, Frame())
                        body.append(c.if_(condition, [c.assign(c.arrow("g", flag), c.num(1))]))
            body.append(c.Return(c.num(0)))
        else:
            if isinstance(step, m.TokenLimit):
                held: c.Expr = c.call("held_total", g, p)
                if step.counted is not None:  # the kinds it counts, added up
                    kinds = [i for i, t in enumerate(self.edition.tokens) if t.name in step.counted]
                    cells = [c.index(c.arrow("g", "held"), p, i) for i in kinds]
                    held = functools.reduce(lambda a, b: c.binary(a, "+", b), cells)
                few = c.binary(held, "<=", c.num(step.limit))
                body.append(c.if_(few, [c.Return(c.num(0))]))
            body.append(c.Return(c.call("run_step", g, p, c.num(index))))
        return c.Function("int32_t", f"step_run{index}", (STATE, PLAYER), body)

    # -------------------------------------------------------------- the end

    def endings(self) -> list[c.Function]:
        """When a round's end ends the game, who may win, and the ranking."""
        conditions = [
            self.expr(e.condition, Frame())
            for e in self.edition.endings
            if e.mode == "at_round_end"
        ]
        ends = c.logic("||", conditions) if conditions else c.num(0)
        round_ends = c.Function("int32_t", "round_ends", (CONST_STATE,), [c.Return(ends)])
        winners = self.edition.winners
        among = self.expr(winners.among, Frame()) if winners.among else c.num(1)
        eligible = [c.do(c.Unary("(void)", c.name("p"))), c.Return(c.binary(among, "!=", c.num(0)))]
        body: list[c.Stmt] = [self.where(winners), c.do(c.Unary("(void)", c.name("p")))]
        for position, key in enumerate(winners.keys):
            value = self.expr(key.value, Frame())
            if key.order == "lowest":
                value = c.Unary("-", value)
            body.append(c.assign(c.index(c.name("keys"), position), value))
        return [
            round_ends,
            c.Function("int32_t", "eligible", (CONST_STATE, PLAYER), eligible),
            c.Function("void", "rank", (CONST_STATE, PLAYER, ("V *", "keys")), body),
        ]

    def seat_gifts(self) -> list[c.Stmt]:
        """What players start with, by their place in the turn order (in
        new_game, before the reveals): each gift a `gain`, if the game has a
        player at that place."""
        body: list[c.Stmt] = []
        players, first = c.name("players"), c.name("first")
        for gift in self.edition.seat_gifts:
            kind = c.num(self.names.token_index[gift.token])
            seat: c.Expr = first
            if gift.position > 1:
                after = c.binary(first, "+", c.num(gift.position - 1))
                seat = c.binary(after, "%", players)
            gain: c.Stmt = c.do(c.call("gain", c.name("g"), seat, kind, c.num(gift.amount)))
            if gift.position > self.edition.players[0]:  # not in every game
                gain = c.if_(c.binary(players, ">=", c.num(gift.position)), [gain])
            body += [self.where(gift), gain]
        return body

    def reveals(self) -> list[c.Stmt]:
        """The statements of setup that reveal tiles."""
        body: list[c.Stmt] = []
        frame = Frame(player=c.num(0))
        for reveal in self.edition.reveals:
            index = c.num(self.names.tile_set_index[reveal.tiles])
            count = self.expr(reveal.count, frame)
            face = c.num(reveal.random_face)
            body.append(self.where(reveal))
            body.append(c.do(c.call("reveal", c.name("g"), c.name("rng"), index, count, face)))
        return body


class FollowUps(Turns):
    """The follow-up choices: the queue of what waits, each one's options,
    and what runs once it is decided or skipped."""

    # --------------------------------------------------------- follow-ups

    def wait(self, st: Choice, frame: Frame) -> list[c.Stmt]:
        """Queue a follow-up choice with the values of the names it carries."""
        index = next(i for i, site in enumerate(self.sites) if site.choice is st)
        slot = frame.temporary("bound")
        out: list[c.Stmt] = [c.declare("V *", slot, c.call("wait", c.name("g"), c.num(index)))]
        at = 0
        for name, type_ in self.sites[index].bound:
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
        return out

    def width(self, type_: m.Type) -> int:
        """The slots a name carried by a follow-up takes in its row."""
        if type_.kind == "vector":
            return len(self.edition.colours)
        if type_.kind in ("set", "list"):
            return 1 + self.set_capacity()
        return 1

    def set_capacity(self) -> int:
        count = identities.tile_numbering(self.edition).count
        return max(len(self.edition.cards.rows), count, len(self.edition.tokens), 4)

    def bound_width(self) -> int:
        return max([sum(self.width(t) for _, t in site.bound) for site in self.sites] + [1])

    def unpack(
        self, site: identities.FollowUp, reads: object, frame: Frame
    ) -> tuple[list[c.Stmt], Frame]:
        """The names carried that `reads` reads, from `bound`."""
        body: list[c.Stmt] = [self.where(site.choice), c.do(c.Unary("(void)", c.name("bound")))]
        at = 0
        for name, type_ in site.bound:
            if analysis.uses(reads, name):
                var = c.ident("v_", name)
                where = c.binary(c.name("bound"), "+", c.num(at))
                if type_.kind == "vector":
                    value: c.Expr = c.call("vec_at", where)
                elif type_.kind in ("set", "list"):
                    value = c.call("set_load", where)
                else:
                    value = c.index(c.name("bound"), at)
                body.append(c.declare(c_type(type_), var, value))
                frame = frame.bind(name, var)
            at += self.width(type_)
        return body, frame

    def follow_ups(self) -> list[c.Function]:
        """Per follow-up: its options, what runs once it is decided, and
        what runs when it has no option."""
        found = []
        bound = ("const V *", "bound")
        for index, site in enumerate(self.sites):
            body, frame = self.unpack(site, site.choice, Frame())
            code = c.num(self.move_code("follow", index))
            moves: list[c.Stmt] = [c.do(c.call("mv_begin", c.name("out"), code))]
            inner, _ = self.choice_loop(site.choice, frame, body, moves)
            moves.append(c.do(c.call("mv_end", c.name("out"))))
            inner.extend(moves)
            parameters = (CONST_STATE, PLAYER, bound, ("MoveBuf *", "out"))
            found.append(c.Function("void", f"follow_options{index}", parameters, body))
            for skip in (False, True):
                found.append(self.rest(index, site, skip))
        return found

    def rest(self, index: int, site: identities.FollowUp, skip: bool) -> c.Function:
        depth = len(site.path) - (2 if skip else 1)
        blocks = site.rest(depth)
        body, frame = self.unpack(site, tuple(st for block in blocks for st in block), Frame())
        parameters: tuple[tuple[str, str], ...] = (STATE, PLAYER, ("const V *", "bound"))
        if not skip:
            var = c.ident("v_", site.choice.name)
            parameters = (*parameters, ("const int32_t *", "mv"))
            if isinstance(site.choice, m.Choose):
                read: c.Expr = c.binary(c.index(c.name("mv"), 0), "&", c.name("VALUE_MASK"))
                body.append(c.declare("V", var, read))
            else:
                body.append(c.declare("int32_t", "at", c.num(0)))
                body += filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", c.name("at")))
            body.append(c.do(c.Unary("(void)", c.name(var))))
            frame = frame.bind(site.choice.name, var)
        for block in blocks:
            effects, frame = self.effects(block, frame, [c.Return()])
            body.extend(effects)
            if any(isinstance(st, m.Choose | m.ChooseDistinct) for st in block):
                break  # a follow-up choice ends the block: the rest is its own
        name = f"follow_skip{index}" if skip else f"follow_take{index}"
        return c.Function("void", name, parameters, body)


class Payments(FollowUps):
    """The payments of the legal moves: what the player can pay with, the
    test that passes over what they cannot afford, the ways written as moves."""

    def payment(
        self,
        st: m.Pay,
        frame: Frame,
        body: list[c.Stmt],
        moves: list[c.Stmt],
        hoisted: list[c.Stmt],
        loop_vars: set[str],
        checked: Means | None = None,
        part: tuple[m.Statement, ...] = (),
    ) -> list[c.Stmt]:
        """Append the test of the means and the price; the body where the
        move is written. To `moves`, the call that writes every way to pay,
        each completing the move begun (the checker puts a payment after
        every choice and requirement, so nothing follows it in a move).
        `checked`: the means, when a choice has already passed over what it
        cannot afford. `part`: the action's choices, requirements and
        payment (which cards it chose where)."""
        price = frame.temporary("price")
        found = checked or self.payment_means(st, frame, body, hoisted, loop_vars)
        value = self.expr(st.cost, frame)
        if checked is None:
            # a card's cost is read where it is (a column's cell), else computed once
            if not isinstance(value, c.Index | c.Name):
                cost = frame.temporary("cost")
                body.extend(self.emitter.declare(cost, st.cost, frame))
                value = c.name(cost)
            inner_body: list[c.Stmt] = []
            body.append(c.if_(self.affordable(found, value), inner_body))
            body = inner_body
        discount = self.expr(st.discount, frame)
        body.append(c.declare("Vec", price, c.call("price_of", value, discount)))
        priced = c.Unary("&", c.name(price))
        wild = st.wild_cards
        paid: tuple[c.Expr, ...]
        if wild is None or found.spendable is None:
            kind, paid = "pay", (priced,)
        else:
            cards: c.Expr = c.Unary("&", c.name(found.spendable))
            chosen = [n for n in wild.chosen if self.may_be_spendable(part, n, wild.cards)]
            if chosen or wild.chosen_sets:  # the cards the action chose are not spent
                gone, copy = frame.temporary("gone"), frame.temporary("copy")
                body.append(c.declare("Set", gone))
                body.append(c.assign(c.dot(c.name(gone), "n"), c.num(0)))
                for name in chosen:
                    body.append(
                        c.do(c.call("set_add", c.Unary("&", c.name(gone)), frame.locals[name]))
                    )
                for name in wild.chosen_sets:
                    chosen_set = c.Unary("&", frame.locals[name])
                    body.append(c.do(c.call("set_add_all", c.Unary("&", c.name(gone)), chosen_set)))
                body.append(c.declare("Set", copy))
                cards = c.call(
                    "without", cards, c.Unary("&", c.name(copy)), c.Unary("&", c.name(gone))
                )
            kind, paid = "card_pay", (priced, cards, c.num(wild.units))
        moves.append(c.do(c.call(f"{kind}_moves", c.name("g"), c.name("p"), *paid, c.name("out"))))
        return body

    @staticmethod
    def may_be_spendable(part: tuple[m.Statement, ...], name: str, cards: m.Filter) -> bool:
        """May the card chosen as `name` be one the payment may spend? Not
        if it was chosen only where those cards are not (a card is in one
        place at a time): the market, the deck tops, another zone."""
        zone = cards.source
        if not (isinstance(zone, m.Ref) and zone.kind == "zone"):
            return True
        choice = [st for st in part if isinstance(st, m.Choose) and st.name == name][-1]
        return not all(
            isinstance(source, m.DeckTops)
            or (isinstance(source, m.Ref) and source.kind == "market")
            or (isinstance(source, m.Ref) and source.kind == "zone" and source.name != zone.name)
            for source in choice.sources
        )

    def payment_means(
        self,
        st: m.Pay,
        frame: Frame,
        body: list[c.Stmt],
        hoisted: list[c.Stmt],
        loop_vars: set[str],
    ) -> Means:
        """Declare what the player can pay with per colour (tokens and
        discount), and beyond it (wild tokens, cards): in `hoisted`, found
        once, unless a name in `loop_vars` changes it (then in `body`)."""
        means, reach = frame.temporary("means"), frame.temporary("reach")
        varies = any(analysis.uses(st.discount, v) for v in loop_vars)
        (body if varies else hoisted).extend(self.emitter.declare(means, st.discount, frame))
        (body if varies else hoisted).append(
            c.do(c.call("add_held", c.Unary("&", c.name(means)), c.name("g"), c.name("p")))
        )
        wild = st.wild_cards
        room: c.Expr = c.call("wild_held", c.name("g"), c.name("p"))
        room_varies = False
        spendable = None
        if wild is not None:
            spendable = frame.temporary("spendable")
            room_varies = any(analysis.uses(wild.cards, v) for v in loop_vars)
            (body if room_varies else hoisted).extend(
                self.emitter.declare(spendable, wild.cards, frame)
            )
            count = c.dot(c.name(spendable), "n")
            room = c.binary(room, "+", c.binary(c.num(wild.units), "*", count))
        (body if room_varies else hoisted).append(c.declare("V", reach, room))
        packed = self.packed_cost(st.cost)
        word = None
        if packed is not None:
            word = frame.temporary("packed")
            read = c.call("means_packed", c.Unary("&", c.name(means)))
            (body if varies else hoisted).append(c.declare("uint64_t", word, read))
        return Means(means, reach, spendable, packed, word)

    @staticmethod
    def affordable(found: Means, cost: c.Expr) -> c.Expr:
        """A cost beyond the means is no move: no payment is enumerated."""
        if found.packed is not None and found.word is not None and isinstance(cost, c.Index):
            lack = c.call(
                "shortfall_packed", c.index(c.name(found.packed), cost.index), c.name(found.word)
            )
        else:
            lack = c.call("shortfall", c.Unary("&", cost), c.Unary("&", c.name(found.means)))
        return c.binary(lack, "<=", c.name(found.reach))

    def cost_test(
        self, pay: m.Pay, found: Means, name: str, frame: Frame
    ) -> Callable[[c.Expr], c.Expr]:
        """The test that the card bound to `name` is not beyond the means."""
        return lambda card: self.affordable(found, self.expr(pay.cost, frame.bind(name, card)))

    def checked_early(self, part: list[m.Statement]) -> tuple[m.Pay, str] | None:
        """The payment, and the choice right after which its cost can be
        tested against the means (before the requirements that follow the
        choice): a card's packed cost, means that nothing in `part` changes."""
        pay = next((st for st in part if isinstance(st, m.Pay)), None)
        if pay is None or self.packed_cost(pay.cost) is None:
            return None
        assert isinstance(pay.cost, m.Attr)
        subject = pay.cost.subject
        chosen = {st.name for st in part if isinstance(st, m.Choose)}
        if not (
            isinstance(subject, m.Ref) and subject.kind == "variable" and subject.name in chosen
        ):
            return None
        bound = {st.name for st in part if isinstance(st, m.Let | m.Choose | m.ChooseDistinct)}
        read = (pay.discount,) if pay.wild_cards is None else (pay.discount, pay.wild_cards.cards)
        if any(analysis.uses(read, name) for name in bound):
            return None
        return pay, subject.name

    def packed_cost(self, cost: m.Expr) -> str | None:
        """The packed twin of the card column a cost reads, if it has one."""
        if not (isinstance(cost, m.Attr) and cost.source == "column"):
            return None
        if cost.subject.type != m.CARD:
            return None
        packed = data.packed_column(self.edition, cost.attribute)
        if packed is not None:
            self.packed.add(cost.attribute)
        return packed


class Lowering(Payments):
    """The actions, their effects and follow-ups, and the template's context."""

    # ------------------------------------------------------------ choices

    def choice_loop(
        self,
        st: Choice,
        frame: Frame,
        body: list[c.Stmt],
        shown: list[c.Stmt],
        later: tuple[m.Statement, ...] = (),
        test: Callable[[c.Expr], c.Expr] | None = None,
    ) -> tuple[list[c.Stmt], Frame]:
        """Append to `body` the loops over a choice's values: the inner body
        (where the value is bound, if `later` reads it) and its frame. `shown`
        receives the statement that writes the value into the move. `test`:
        a test of the card chosen, applied first (to the market's cards all
        at once)."""
        var = c.ident("v_", st.name)
        if isinstance(st, m.ChooseDistinct):
            comb, more = frame.temporary("comb"), frame.temporary("more")
            combination = c.Unary("&", c.name(comb))
            count = self.expr(st.count, frame)
            src = self.emitter.source(st.source, frame, as_set=True)
            first = c.call("comb_first", combination, src.count, count)
            body.extend(src.declared)
            body.append(c.declare("Comb", comb))
            body.append(c.declare("int32_t", more, first))
            inner: list[c.Stmt] = filled(
                var, "comb_fill", combination, c.Unary("&", c.name(src.name))
            )
            next_ = c.assign(more, c.call("comb_next", combination))
            body.append(c.While(c.name(more), [c.Seq(inner), next_]))
            shown.append(c.do(c.call("mv_put_set", c.name("out"), c.Unary("&", c.name(var)))))
            return inner, frame.bind(st.name, var)
        # one element at a time, from each source in turn, into one shared body
        seen = frame.temporary("seen") if self.may_repeat(st) else None
        x = frame.temporary("x")
        inner = []
        if seen is not None:
            body.append(c.declare("Set", seen))
            body.append(c.assign(c.dot(c.name(seen), "n"), c.num(0)))
        card = c.binary(c.name(x), "&", c.name("VALUE_MASK"))
        bound: list[c.Stmt] = []
        if seen is not None:
            known = c.call("set_has", c.Unary("&", c.name(seen)), c.name(x))
            bound.append(c.if_(known, [c.Raw("continue;")]))
            bound.append(c.do(c.call("set_add", c.Unary("&", c.name(seen)), c.name(x))))
        if analysis.uses(later, st.name):
            bound.append(c.declare("V", var, card))
        kept = [c.Seq(inner)] if test is None else [c.if_(test(card), [c.Seq(inner)])]
        slots = self.market_slots(st, later)
        for source in st.sources:
            i = frame.temporary("i")
            src = self.emitter.source(source, frame, slots=slots)
            body.extend(src.declared)
            if test is not None and src.gaps and self.market_size() <= 64:
                body.extend(self.market_sweep(src, i, x, test, [*bound, c.Seq(inner)], frame))
                continue
            body.append(c.for_(i, src.low, src.count, [*src.head(x, c.name(i)), *bound, *kept]))
        shown.append(c.do(c.call("mv_put", c.name("out"), c.name(x))))
        colour = all(isinstance(s, m.Ref) and s.kind == "colours" for s in st.sources)
        return inner, frame.bind(st.name, var, colour=colour)

    def market_sweep(
        self,
        src: Collection,
        i: str,
        x: str,
        test: Callable[[c.Expr], c.Expr],
        each: list[c.Stmt],
        frame: Frame,
    ) -> list[c.Stmt]:
        """The market's slots whose card passes `test` found first, all at
        once, as the bits of a mask (a test per slot, no branch on its
        outcome: which cards pass is what a processor cannot predict); then
        `each` run for each such slot, in order, `x` the card there."""
        assert src.items is not None
        mask, at, card = (frame.temporary(n) for n in ("slots", "at", "card"))
        present = c.binary(c.name(at), ">=", c.num(0))
        empty = c.binary(c.name(at), "<", c.num(0))
        number = c.Conditional(empty, c.num(0), c.binary(c.name(at), "&", c.name("VALUE_MASK")))
        passes = c.Unary("(uint64_t)", c.logic("&&", [present, test(c.name(card))]))
        sweep = [
            c.declare("V", at, src.at_slot(c.name(i))),
            c.declare("V", card, number),
            c.assign(mask, c.binary(passes, "<<", c.name(i)), "|="),
        ]
        first = c.call("__builtin_ctzll", c.name(mask))
        visit = [
            c.declare("int32_t", i, first),
            c.assign(mask, c.binary(c.name(mask), "-", c.num(1)), "&="),
            c.declare("V", x, src.at_slot(c.name(i))),
            *each,
        ]
        return [
            c.declare("uint64_t", mask, c.num(0)),
            c.for_(i, src.low, src.count, sweep),
            c.While(c.name(mask), visit),
        ]

    def market_size(self) -> int:
        """The market's slots, all decks together."""
        return sum(identities.decks(self.edition).face_up)

    def market_slots(self, st: m.Choose, later: tuple[m.Statement, ...]) -> tuple[int, int] | None:
        """The market's slots a choice need look at: those from the first to
        the last deck with a card that the requirements after the choice, by
        the cards' data alone, do not rule out (None: all of them)."""
        conditions = [s.condition for s in later if isinstance(s, m.Require)]
        decks = identities.decks(self.edition)
        rows = self.edition.cards.rows
        kept = [
            d
            for d, cards in enumerate(decks.deck_cards)
            if any(
                all(analysis.card_condition(e, st.name, rows[k]) is not False for e in conditions)
                for k in cards
            )
        ]
        starts = [sum(decks.face_up[:d]) for d in range(len(decks.face_up) + 1)]
        if kept == list(range(len(decks.deck_cards))):
            return None
        if not kept:
            return (0, 0)
        return (starts[kept[0]], starts[kept[-1] + 1])

    @staticmethod
    def may_repeat(st: m.Choose) -> bool:
        """Can two sources of a choice hold one value (offered once)? Places
        a card is in (deck tops, the market, zones) hold none alike."""
        if len(st.sources) < 2:
            return False
        return not all(
            isinstance(s, m.DeckTops) or (isinstance(s, m.Ref) and s.kind in ("market", "zone"))
            for s in st.sources
        )

    # -------------------------------------------------------- legal moves

    def legal(self, action: m.Action, index: int) -> c.Function:
        """The enumerator of an action's legal moves: a loop per choice, an
        `if` per requirement, the ways to pay, each a move."""
        part = analysis.choice_part(action)
        hoisted: list[c.Stmt] = []  # values no choice changes, found once
        top: list[c.Stmt] = [self.where(action), c.Seq(hoisted)]
        frame = self.prebind(tuple(part), Frame(), hoisted)
        body = top
        code = c.num(self.move_code("action", index))
        moves: list[c.Stmt] = [c.do(c.call("mv_begin", c.name("out"), code))]
        loop_vars: set[str] = set()  # names bound by the function: what reads them stays inside
        early = self.checked_early(part)
        means = self.payment_means(early[0], frame, hoisted, hoisted, set()) if early else None
        prechecks = analysis.tally_prechecks(action)
        for index, st in enumerate(part):
            precheck = prechecks.get(index)
            if precheck is not None and all(
                a in self.names.aggregates for a in analysis.aggregates_in(precheck)
            ):  # a count required of the local, read from a tally before it is built
                inner: list[c.Stmt] = []
                body.append(c.if_(self.expr(precheck, frame), inner))
                body = inner
            if isinstance(st, m.Let):
                var = c.ident("v_", st.name)
                body.extend(self.emitter.declare(var, st.value, frame))
                frame = frame.bind(st.name, var)
                loop_vars.add(st.name)
            elif isinstance(st, m.Choose | m.ChooseDistinct):
                later = tuple(part[index + 1 :])
                test = None
                if early is not None and means is not None and early[1] == st.name:
                    test = self.cost_test(early[0], means, st.name, frame)
                body, frame = self.choice_loop(st, frame, body, moves, later, test)
                loop_vars.add(st.name)
            elif isinstance(st, m.Require):
                inner = []
                body.append(c.if_(self.expr(st.condition, frame), inner))
                body = inner
            elif isinstance(st, m.Pay):
                assert st is part[-1], "the checker puts a payment last"
                body = self.payment(st, frame, body, moves, hoisted, loop_vars, means, tuple(part))
        if not (part and isinstance(part[-1], m.Pay)):  # else the ways end the moves
            moves.append(c.do(c.call("mv_end", c.name("out"))))
        body.extend(moves)
        parameters = (CONST_STATE, PLAYER, ("MoveBuf *", "out"))
        return c.Function("void", c.ident("legal_", action.name), parameters, top)

    def prebind(self, tree: object, frame: Frame, body: list[c.Stmt]) -> Frame:
        """Read the definitions (of the player in context) that `tree` reads
        into locals at the top of the function: once, not once per choice
        (the C compiler cannot tell that writing a move leaves them alone)."""
        types = {d.name: d.value.type for d in self.edition.defines}
        for name in sorted(analysis.defines_in(tree)):
            local = c.ident("d_", name + "_value")
            read = c.call(self.names.define(name), c.name(frame.state), frame.player)
            body.append(c.declare(c_type(types[name]), local, read))
            frame = frame.prebind(name, local)
        return frame

    # --------------------------------------------------------------- apply

    def apply(self, action: m.Action, index: int) -> c.Function:
        """A legal move's effects on `g`, the copy the move makes."""
        frame = Frame()
        at = c.name("at")
        body: list[c.Stmt] = [self.where(action), c.declare("int32_t", "at", c.num(0))]
        bit = c.Num(1 << index, wide=True)  # the action's bit of `did`: 64 bits
        done = [c.do(c.call("done", c.name("g"), c.name("p"), bit)), c.Return()]
        statements = action.body or ()
        for index, st in enumerate(statements):
            if isinstance(st, m.Let):
                if not analysis.uses(statements[index + 1 :], st.name):
                    continue  # read only by the requirements, which the move met
                var = c.ident("v_", st.name)
                body.extend(self.emitter.declare(var, st.value, frame))
                frame = frame.bind(st.name, var)
            elif isinstance(st, m.Choose):
                var = c.ident("v_", st.name)
                read: c.Expr = c.binary(c.index(c.name("mv"), at), "&", c.name("VALUE_MASK"))
                body.append(c.declare("V", var, read))
                body.append(c.assign(at, c.num(1), "+="))
                frame = frame.bind(st.name, var)
            elif isinstance(st, m.ChooseDistinct):
                var = c.ident("v_", st.name)
                body += filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", at))
                frame = frame.bind(st.name, var)
            elif isinstance(st, m.Pay):
                body.append(c.declare("const int32_t *", "pay", c.binary(c.name("mv"), "+", at)))
                body.append(c.assign(at, c.name("NK"), "+="))
                if st.wild_cards is not None:
                    var = c.ident("v_", st.wild_cards.variable)
                    body += filled(var, "mv_read_fill", c.name("mv"), c.Unary("&", at))
                    frame = frame.bind(st.wild_cards.variable, var)
        body.append(c.do(c.Unary("(void)", at)))
        effects, _ = self.effects(statements, frame, stop=done)
        body.extend(effects)
        body.extend(done)
        parameters = (STATE, PLAYER, ("const int32_t *", "mv"))
        return c.Function("void", c.ident("apply_", action.name), parameters, body)

    def effects(
        self, body: tuple[m.Statement, ...], frame: Frame, stop: list[c.Stmt]
    ) -> tuple[list[c.Stmt], Frame]:
        """The effects of an action, a trigger or a follow-up's rest on `g`.
        A follow-up choice queues itself and ends the block with `stop`."""
        g, p = c.name("g"), c.name("p")
        out: list[c.Stmt] = []
        for index, st in enumerate(body):
            if isinstance(st, m.Gain):
                token = self.expr(st.token, frame)
                gain: c.Stmt = c.do(c.call("gain", g, p, token, self.expr(st.amount, frame)))
                if self.names.may_be_none(st.token, frame):
                    gain = c.if_(c.binary(token, ">=", c.num(0)), [gain])
                out.append(gain)
            elif isinstance(st, m.GainEach):
                kinds = self.expr(st.tokens, frame)
                out.append(c.do(c.call("gain_each", g, p, kinds, self.expr(st.amount, frame))))
            elif isinstance(st, m.Pay):
                out.append(c.do(c.call("give_back", g, p, c.name("pay"))))
                if st.wild_cards is not None:
                    spent = frame.locals[st.wild_cards.variable]
                    out.append(c.do(c.call("to_box", g, p, c.Unary("&", spent))))
            elif isinstance(st, m.Move):
                item = frame.locals[st.card]
                zone = c.num(self.names.zone_index[st.zone])
                out.append(c.do(c.call("take_tile" if st.tile else "move_card", g, p, item, zone)))
                if not st.tile and st.zone in self.hooked:
                    out.append(c.do(c.call(c.ident("entered_", st.zone), g, p, item)))
            elif isinstance(st, m.SetValue):
                value = c.num(self.names.value_index[st.value_name])
                to = self.expr(st.value, frame)
                out.append(c.do(c.call("set_value", g, value, frame.locals[st.card], to)))
            elif isinstance(st, m.ReturnToBox):
                cards = frame.locals[st.cards]
                if st.many:
                    out.append(c.do(c.call("to_box", g, p, c.Unary("&", cards))))
                else:
                    out.append(c.do(c.call("to_box_one", g, p, cards)))
            elif isinstance(st, m.If):
                condition = self.expr(st.condition, frame)
                inner, _ = self.effects(st.body, frame, stop)
                out.append(c.if_(condition, inner))
            elif isinstance(st, m.Choose | m.ChooseDistinct) and st.name not in frame.locals:
                out.extend(self.wait(st, frame))
                out.extend(stop)
                break
            elif (
                isinstance(st, m.Let)
                and st.name not in frame.locals
                and analysis.uses(body[index + 1 :], st.name)
            ):
                var = frame.temporary(st.name)
                out.extend(self.emitter.declare(var, st.value, frame))
                frame = frame.bind(st.name, var)
        return out, frame

    # ---------------------------------------------------------------- all

    def context(self) -> dict[str, Any]:
        """The template's context."""
        e = self.edition
        functions = [
            self.count_in(),
            *self.defines(),
            *[self.legal(a, i) for i, a in enumerate(self.actions) if a.body is not None],
            *[self.apply(a, i) for i, a in enumerate(self.actions) if a.body is not None],
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
            "reveals": c.body_text(self.reveals()),
            "seat_gifts": c.body_text(self.seat_gifts()),
            "actions": [
                {
                    "legal": c.ident("legal_", a.name) if a.body is not None else None,
                    "apply": c.ident("apply_", a.name) if a.body is not None else None,
                }
                for a in self.actions
            ],
            "fallback_index": next((i for i, a in enumerate(self.actions) if a.body is None), -1),
            "step_count": len(self.steps),
            "step_counted": [  # the kinds each step's token limit counts, 1 each
                tuple(
                    int(not isinstance(s, m.TokenLimit) or s.counted is None or t.name in s.counted)
                    for t in e.tokens
                )
                for s in self.steps
            ],
            "follow_count": len(self.sites),
            "function_tables": self.function_tables(),
            "bound_width": self.bound_width(),
            "set_capacity": self.set_capacity(),
            "aggregate_slots": max(self.names.aggregate_slots, 1),
            "rank_keys": max(len(e.winners.keys), 1),
            "rank_count": len(e.winners.keys),
            "shown": self.shown_codes(),
        }

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
