"""Effects: what a legal move changes, statement by statement.

Each effect sees the state the previous one left (docs/engine.md, "Applying
an action"). Moving a card into a zone also runs the triggers of that zone
and contests its majority tiles. Every change builds a new state.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import evolve

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.limits import CARD_VALUE
from splendor_rules.compiler.runtime.interpreter import board
from splendor_rules.compiler.runtime.interpreter.evaluation import Definitions, Env
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.validation import require
from splendor_rules.compiler.runtime.interpreter.values import (
    State,
    Value,
    replace,
    with_seat,
)
from splendor_rules.dsl.visitor import Visitor


class FollowUpWaits(Exception):
    """A follow-up choice was reached: it now waits in the state's queue, and
    the rest of its trigger or action runs when it is decided."""

    def __init__(self, state: State) -> None:
        super().__init__()
        self.state = state


class Effects:
    """The changes the rules make to a state."""

    def __init__(self, tables: Tables, definitions: Definitions) -> None:
        self.tables = tables
        self.definitions = definitions

    def run(
        self, statements: Sequence[m.Statement], env: Env, payment: tuple[int, ...] | None
    ) -> Env:
        """Run effects in order; the place they leave (names and state)."""
        run = _Run(self, env, payment)
        for st in statements:
            run.visit(st)
        return run.env

    def run_body(
        self, statements: Sequence[m.Statement], env: Env, payment: tuple[int, ...] | None
    ) -> State:
        """Run the effects of an action or a trigger: up to a follow-up
        choice, if one is reached (the rest waits for it)."""
        try:
            return self.run(statements, env, payment).state
        except FollowUpWaits as waiting:
            return waiting.state

    def resume(
        self,
        state: State,
        site: identities.FollowUp,
        values: tuple[Value, ...],
        chosen: Value | None,
    ) -> State:
        """Run what follows a follow-up choice once it is decided (`chosen`),
        or, when it had no option (None), what follows its block."""
        names = {name: v for (name, _), v in zip(site.bound, values, strict=True)}
        depth = len(site.path) - 1
        if chosen is None:
            depth -= 1
        else:
            names[site.choice.name] = chosen
        env = Env(self.definitions, state, state.current, names)
        try:
            for block in site.rest(depth):
                env = self.run(block, env, None)
        except FollowUpWaits as waiting:
            return waiting.state
        return env.state

    def wait(self, env: Env, st: m.Choose | m.ChooseDistinct) -> State:
        """Queue a follow-up choice with the names its rest reads."""
        index = self.tables.follow_site[id(st)]
        site = self.tables.follow_ups[index]
        values = tuple(env.names[name] for name, _ in site.bound)
        return evolve(env.state, follow=(*env.state.follow, (index, values)))

    def gain(self, env: Env, kind: str, amount: int) -> State:
        """Take min(amount, supply, cap - held) tokens (never fewer than 0)."""
        state, q = env.state, env.whose()
        i = self.tables.token[kind]
        held = state.seats[q].tokens[i]
        cap = self.tables.kinds[kind].cap
        taken = min(amount, state.supply[i], cap - held if cap is not None else amount)
        return self.transfer(state, q, i, max(0, taken))

    def move_tokens(
        self, state: State, kind: str, amount: int, source: int | None, target: int | None
    ) -> State:
        """Move up to `amount` tokens of a kind from `source` to `target`
        (seats; None is the supply): as many as the source holds and the
        target's cap leaves room for, never fewer than none."""
        i = self.tables.token[kind]
        held = state.supply[i] if source is None else state.seats[source].tokens[i]
        moved = min(amount, held)
        cap = self.tables.kinds[kind].cap
        if target is not None and cap is not None:
            moved = min(moved, cap - state.seats[target].tokens[i])
        if moved <= 0 or source == target:
            return state
        if source is not None:
            state = self.transfer(state, source, i, -moved)
        if target is not None:
            state = self.transfer(state, target, i, moved)
        return state

    def pay(
        self, state: State, player: int, payment: tuple[int, ...], into_bag: bool = False
    ) -> State:
        """Give tokens back to the supply, or into the bag: a payment, or a return."""
        if into_bag:
            return board.into_bag(state, player, payment)
        for i, n in enumerate(payment):
            state = self.transfer(state, player, i, -n)
        return state

    def transfer(self, state: State, player: int, kind: int, n: int) -> State:
        """Move n tokens of one kind from the supply to a player (n < 0: back)."""
        seat = state.seats[player]
        tokens = list(seat.tokens)
        supply = list(state.supply)
        tokens[kind] += n
        supply[kind] -= n
        state = with_seat(state, player, evolve(seat, tokens=tuple(tokens)))
        return evolve(state, supply=tuple(supply))

    def move(self, env: Env, card: int, zone: str) -> State:
        """Move a card into the player's zone, then run the triggers and
        contest the majority tiles of that zone."""
        state, q = env.state, env.whose()
        state, from_deck = self.take(state, q, card)
        seat = state.seats[q]
        zones = list(seat.zones)
        zones[self.tables.zone[zone]] += (card,)
        # A card from a deck top is marked seen by its owner only; the mark
        # stays while it moves between zones that hide such cards.
        was_hidden = card in state.hidden
        hidden = tuple(c for c in state.hidden if c != card)
        if (from_deck or was_hidden) and self.tables.zones[zone].hidden_from_deck:
            hidden = tuple(sorted((*hidden, card)))  # kept in ascending order
        state = evolve(with_seat(state, q, evolve(seat, zones=tuple(zones))), hidden=hidden)
        for trigger in self.tables.model.triggers:
            if trigger.zone == zone:
                trigger_env = Env(self.definitions, state, q, {trigger.card: card})
                state = self.run_body(trigger.body, trigger_env, None)
        for majority in self.tables.model.majorities:
            if majority.event_zone == zone:
                state = self.contest(state, majority, q)
        return state

    def take(self, state: State, q: int, card: int) -> tuple[State, bool]:
        """Remove a card from where it is: a market slot (refilled when the
        edition refills), a deck top, or one of the player's zones. Also
        tells whether it came from a deck top."""
        for t, row in enumerate(state.market):
            if card in row:
                deck = state.decks[t]
                refill: int | None = None
                if self.tables.model.market.refill and deck:
                    refill, deck = deck[-1], deck[:-1]
                slots = tuple(refill if c == card else c for c in row)
                market = replace(state.market, t, slots)
                return evolve(state, market=market, decks=replace(state.decks, t, deck)), False
        for t, deck in enumerate(state.decks):
            if deck and deck[-1] == card:
                return evolve(state, decks=replace(state.decks, t, deck[:-1])), True
        seat = state.seats[q]
        for z, cards in enumerate(seat.zones):
            if self.tables.model.zones[z].content == "cards" and card in cards:
                zones = replace(seat.zones, z, tuple(c for c in cards if c != card))
                return with_seat(state, q, evolve(seat, zones=zones)), False
        return state, False  # in the box: a card returned earlier in the action

    def to_box(self, state: State, q: int, cards: tuple[int, ...]) -> State:
        """Return cards of player q to the box: they leave the game."""
        seat = state.seats[q]
        zones = tuple(
            tuple(c for c in zone if c not in cards)
            if self.tables.model.zones[z].content == "cards"
            else zone
            for z, zone in enumerate(seat.zones)
        )
        hidden = tuple(c for c in state.hidden if c not in cards)
        return evolve(with_seat(state, q, evolve(seat, zones=zones)), hidden=hidden)

    def contest(self, state: State, majority: m.Majority, q: int) -> State:
        """Player q contests a majority tile (docs/engine.md, "Contest")."""
        tile = self.tables.tiles.majority_tile[majority.name]
        z = self.tables.zone[majority.zone]
        holder = next((p for p in range(state.players) if tile in state.seats[p].zones[z]), None)
        mine = self.definitions.env(state, q).visit(majority.measure)
        if holder == q or mine < majority.threshold:
            return state
        if holder is not None:
            theirs = self.definitions.env(state, holder).visit(majority.measure)
            if mine < theirs or (mine == theirs and majority.ties_keep_holder):
                return state
        return self.move_tile(state, q, tile, majority.zone)  # from wherever it is

    def claim(self, state: State, step: m.Claim, tile: int) -> State:
        if step.source is not None:  # from a zone of the player's
            return self.move_tile(state, state.current, tile, step.zone)
        if self.tables.shared_claim.get(step.name) is not None:
            # claimed once per player: it stays in play for the others
            return self.add_tile(state, state.current, self.tables.zone[step.zone], tile)
        index = self.tables.tile_set[step.tiles]
        in_play = tuple(t for t in state.tiles[index] if t != tile)
        state = evolve(state, tiles=replace(state.tiles, index, in_play))
        return self.add_tile(state, state.current, self.tables.zone[step.zone], tile)

    def move_tile(self, state: State, q: int, tile: int, zone: str) -> State:
        """Move a tile to player q's zone from wherever it is: play, or a
        tile zone of any player."""
        tiles = tuple(tuple(t for t in row if t != tile) for row in state.tiles)
        state = evolve(state, tiles=tiles)
        for p in range(state.players):
            seat = state.seats[p]
            for z in self.tables.tile_zones:
                if tile in seat.zones[z]:
                    zones = replace(seat.zones, z, tuple(t for t in seat.zones[z] if t != tile))
                    seat = evolve(seat, zones=zones)
            state = with_seat(state, p, seat)
        return self.add_tile(state, q, self.tables.zone[zone], tile)

    def add_tile(self, state: State, player: int, zone: int, tile: int) -> State:
        seat = state.seats[player]
        zones = replace(seat.zones, zone, (*seat.zones[zone], tile))
        return with_seat(state, player, evolve(seat, zones=zones))


class _Run(Visitor):
    """Effects run in order: each statement leaves the place (names and
    state) the next one sees."""

    def __init__(self, effects: Effects, env: Env, payment: tuple[int, ...] | None) -> None:
        self.effects = effects
        self.env = env
        self.payment = payment

    def visit_Let(self, st: m.Let) -> None:
        self.env = self.env.bind(st.name, self.env.visit(st.value))

    def visit_Require(self, st: m.Require) -> None:  # inside an `if` (the checker allows it)
        require(st, self.env)

    def visit_Gain(self, st: m.Gain) -> None:
        env = self.env
        kind = env.visit(st.token)
        if kind is None:  # none, a colour card value never set: nothing to gain
            return
        self.env = env.at(self.effects.gain(env, kind, env.visit(st.amount)))

    def visit_Transfer(self, st: m.Transfer) -> None:
        env = self.env
        kind = env.visit(st.token)
        if kind is None:  # none, a colour card value never set: nothing moves
            return
        source = env.visit(st.source) if st.source is not None else None
        target = env.visit(st.target) if st.target is not None else None
        moved = self.effects.move_tokens(env.state, kind, env.visit(st.amount), source, target)
        self.env = env.at(moved)

    def visit_GainEach(self, st: m.GainEach) -> None:
        amount = self.env.visit(st.amount)
        for kind in self.env.visit(st.tokens):
            self.env = self.env.at(self.effects.gain(self.env, kind, amount))

    def visit_Pay(self, st: m.Pay) -> None:
        if self.payment is None:  # the move carries the payment of the top level only
            raise NotImplementedError("a payment inside 'if' or a trigger")
        env = self.env
        self.env = env.at(self.effects.pay(env.state, env.whose(), self.payment, st.into_bag))
        if st.wild_cards is not None:  # the cards spent, bound when the move was checked
            spent = tuple(self.env.names[st.wild_cards.variable])
            self.env = self.env.at(self.effects.to_box(self.env.state, env.whose(), spent))

    def visit_Move(self, st: m.Move) -> None:
        env = self.env
        if st.tile:
            tile = env.names[st.card]
            self.env = env.at(self.effects.move_tile(env.state, env.whose(), tile, st.zone))
            return
        self.env = env.at(self.effects.move(env, env.names[st.card], st.zone))

    def visit_SetValue(self, st: m.SetValue) -> None:
        env = self.env
        index = self.effects.tables.card_value[st.value_name]
        values = env.state.card_values
        to = env.visit(st.value)
        number = isinstance(to, int) and not isinstance(to, bool)
        if number and not CARD_VALUE.low <= to <= CARD_VALUE.high:
            raise OverflowError(
                f"a card value of numbers would be {to}, "
                f"outside {CARD_VALUE.low}..{CARD_VALUE.high}"
            )
        changed = replace(values[index], env.names[st.card], to)
        self.env = env.at(evolve(env.state, card_values=replace(values, index, changed)))

    def visit_ReturnToBox(self, st: m.ReturnToBox) -> None:
        env = self.env
        cards = env.names[st.cards] if st.many else (env.names[st.cards],)
        self.env = env.at(self.effects.to_box(env.state, env.whose(), tuple(cards)))

    def visit_TakeCells(self, st: m.TakeCells) -> None:
        env = self.env
        cells = env.names[st.cells] if st.many else (env.names[st.cells],)
        caps = tuple(t.cap for t in self.effects.tables.model.tokens)
        self.env = env.at(board.take(env.state, env.whose(), tuple(cells), caps))

    def visit_RefillBoard(self, st: m.RefillBoard) -> None:
        grid = self.effects.tables.model.board
        assert grid is not None
        self.env = self.env.at(board.refill(grid, self.env.state))
    def visit_AnotherTurn(self, st: m.AnotherTurn) -> None:
        self.env = self.env.at(evolve(self.env.state, again=True))

    def visit_If(self, st: m.If) -> None:
        if self.env.holds(st.condition):
            self.env = self.env.at(self.effects.run(st.body, self.env, None).state)

    def visit_Choose(self, st: m.Choose | m.ChooseDistinct) -> None:
        raise FollowUpWaits(self.effects.wait(self.env, st))

    visit_ChooseDistinct = visit_Choose

    def generic_visit(self, node: object) -> None:
        raise AssertionError(f"not an effect: {node!r}")
