"""A move applied: validated, its effects run, then the end of the turn.

The end of the turn runs the steps in order (docs/engine.md, "End of the
turn"): a step with one option is taken at once, one with several waits for
the player's decision; then the turn passes and, at the end of a round, the
endings are checked.
"""

from __future__ import annotations

from attrs import evolve

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.limits import COUNT
from splendor_rules.compiler.runtime.interpreter.effects import Effects
from splendor_rules.compiler.runtime.interpreter.moves import DECIDED, Moves
from splendor_rules.compiler.runtime.interpreter.validation import Validation
from splendor_rules.compiler.runtime.interpreter.values import (
    Action,
    IllegalAction,
    State,
    rule_ids,
    same,
    with_seat,
)


class Turns:
    """`apply` of the engine API, and the end of each turn."""

    def __init__(self, moves: Moves, effects: Effects) -> None:
        self.moves = moves
        self.effects = effects
        self.tables = moves.tables
        self.definitions = moves.definitions
        self.check = Validation(moves)

    def apply(self, state: State, action: Action) -> State:
        """The state after the move; IllegalAction, naming the rules that
        forbid it, for a move that is not legal."""
        name = self.check.the_move(state, action)[0]
        if state.follow:
            return self.follow_up(state, action)
        if state.pending is not None:
            index, step = self.tables.steps[state.pending]
            if name != step.name:
                raise IllegalAction(
                    f"{rule_ids(step)}: the decision '{step.name}' is pending; '{name}' must wait"
                )
            return self.decide(state, index, step, action)
        definition = self.check.action(name)
        if not self.moves.open(definition, state):
            raise IllegalAction(
                # an action stating no rule is cited by the edition's name, as the targets do
                f"{rule_ids(definition) or self.tables.model.name}: '{name}' is no longer open"
                " this turn: the actions before the main action are taken in their declared order"
            )
        if definition.body is None:
            self.check.fallback(state, definition, action)
            after = state
        else:
            env, payment = self.check.choices(definition, state, action)
            effects = [st for st in definition.body if not isinstance(st, DECIDED)]
            after = self.effects.run_body(effects, env, payment)
        q = after.current
        seat = after.seats[q]
        if name not in seat.did:  # `did` lists the actions in declaration order
            did = tuple(a for a in self.tables.actions if a in seat.did or a == name)
            after = with_seat(after, q, evolve(seat, did=did))
        if definition.before is not None:  # the turn goes on: the main action is to come
            place = self.tables.optional[name]
            return evolve(after, stage=place if definition.before == "any" else place + 1)
        return self.follow_ups(after)

    def follow_up(self, state: State, action: Action) -> State:
        """Apply the pending follow-up decision, then what it leads to."""
        index, values = state.follow[0]
        site = self.tables.follow_ups[index]
        ids = rule_ids(site.choice)
        if action[0] != site.name:
            raise IllegalAction(
                f"{ids}: the decision '{site.name}' is pending; '{action[0]}' must wait"
            )
        if len(action) != 2:
            raise IllegalAction(f"{ids}: '{site.name}' takes one value after its name")
        options = self.moves.follow_options(state)
        match = [bound for shown, bound in options if same(shown, action[1])]
        if not match:
            described = self.check.describe(site.choice, action[1])
            raise IllegalAction(f"{ids}: {described} is not one you may choose here")
        state = evolve(state, follow=state.follow[1:])
        return self.follow_ups(self.effects.resume(state, site, values, match[0]))

    def follow_ups(self, state: State) -> State:
        """Take the follow-up decisions waiting, in the order they arose: one
        with several options stays pending; one with a single option is
        taken at once; one with none is skipped with the rest of its block.
        Then the end of the turn."""
        while state.follow:
            options = self.moves.follow_options(state)
            if len(options) > 1:
                return state
            index, values = state.follow[0]
            site = self.tables.follow_ups[index]
            state = evolve(state, follow=state.follow[1:])
            chosen = options[0][1] if options else None
            state = self.effects.resume(state, site, values, chosen)
        return self.end_turn(state, 0)

    def decide(self, state: State, index: int, step: m.Step, action: Action) -> State:
        """Apply the pending decision, then the steps after it."""
        value = self.check.decision(state, step, action)
        state = self.take_option(state, step, value)
        return self.end_turn(evolve(state, pending=None), index + 1)

    def take_option(self, state: State, step: m.Step, option: object) -> State:
        if isinstance(step, m.TokenLimit):
            assert isinstance(option, tuple)
            return self.effects.pay(state, state.current, option, step.into_bag)
        assert isinstance(step, m.Claim) and isinstance(option, int)
        return self.effects.claim(state, step, option)

    def end_turn(self, state: State, start: int) -> State:
        """Run the steps from `start`, stopping at a decision with several
        options; then pass the turn and, at a round's end, check the end."""
        q = state.current
        for step in self.tables.model.steps[start:]:
            if isinstance(step, m.TokenLimit | m.Claim):
                options = self.moves.decision_options(state, step)
                if len(options) > 1:
                    return evolve(state, pending=step.name)
                if options:
                    state = self.take_option(state, step, options[0])
            else:
                if self.ending_holds(state, "once"):
                    state = evolve(state, last_round=True)
                if self.ending_holds(state, "at_turn_end"):
                    state = evolve(state, over=True)  # right there: no further step
                    break
        if state.turn == COUNT.high:
            raise OverflowError(
                f"turn {COUNT.high} is the last a state counts: the game cannot go on"
            )
        if state.again and not state.over:  # an extra turn: the same player, the round goes on
            return evolve(state, turn=state.turn + 1, pending=None, stage=0, again=False)
        after = (q + 1) % state.players
        state = evolve(
            state, current=after, turn=state.turn + 1, pending=None, stage=0, again=False
        )
        if after != state.first_player or state.over:
            return state
        if state.last_round or self.ending_holds(state, "at_round_end"):
            return evolve(state, over=True)
        return evolve(state, seats=tuple(evolve(s, did=()) for s in state.seats))

    def ending_holds(self, state: State, mode: str) -> bool:
        env = self.definitions.env(state)
        return any(e.mode == mode and env.holds(e.condition) for e in self.tables.model.endings)
