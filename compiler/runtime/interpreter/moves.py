"""Legal moves: the ways of making each action's choices, and the options
of a pending decision, in the order of docs/engine.md ("Legal actions").

An action's choice part is its `let`, `choose`, `require` and `pay`
statements: what a move decides and what it must meet (a payment's ways are
part of the move; it is also an effect). The ways are walked depth first in
statement order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.runtime.interpreter import board
from splendor_rules.compiler.runtime.interpreter.evaluation import Definitions, Env
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.values import DECK, Action, State, Value, same
from splendor_rules.dsl.visitor import Visitor

DECIDED = (
    m.Let,
    m.Choose,
    m.ChooseDistinct,
    m.ChooseLine,
    m.Require,
)  # the choice part but payments
_CHOICE_PART = (*DECIDED, m.Pay)


def choice_part(action: m.Action) -> list[m.Statement]:
    assert action.body is not None
    return [st for st in action.body if isinstance(st, _CHOICE_PART)]


class Moves:
    """The legal moves of a position. Validation and the end of the turn
    ask it for the options too, so one instance answers for the engine."""

    def __init__(self, tables: Tables, definitions: Definitions) -> None:
        self.tables = tables
        self.definitions = definitions

    def legal(self, state: State) -> list[Action]:
        """Every legal move of the player to move, in the order of the spec."""
        if state.over:
            return []
        if state.follow:
            name = self.tables.follow_ups[state.follow[0][0]].name
            return [(name, shown) for shown, _ in self.follow_options(state)]
        if state.pending is not None:
            _, step = self.tables.steps[state.pending]
            return [(step.name, option) for option in self.decision_options(state, step)]
        found = [
            action
            for a in self.tables.model.actions
            if a.body is not None and self.open(a, state)
            for action in self.ways(a, state)
        ]
        fallback = self.tables.fallback
        if not found and fallback is not None:
            return [(fallback.name,)]
        return found

    def any_action(self, state: State) -> bool:
        """Whether an action other than the fallback is legal."""
        return any(
            True
            for a in self.tables.model.actions
            if a.body is not None and self.open(a, state)
            for _ in self.ways(a, state)
        )

    def open(self, action: m.Action, state: State) -> bool:
        """A main action always is; one before the main action is while no
        later one (nor itself, if taken once) has been taken this turn."""
        if action.before is None:
            return True
        return self.tables.optional[action.name] >= state.stage

    def ways(self, action: m.Action, state: State) -> Iterator[Action]:
        """Each way of making the action's choices that meets its
        requirements and can pay, depth first in statement order."""
        part = choice_part(action)

        def extend(branch: _Branch, index: int) -> Iterator[Action]:
            if index == len(part):
                yield branch.move(action.name)
                return
            for following in branch.visit(part[index]):
                yield from extend(following, index + 1)

        start = _Branch(self, self.definitions.env(state, state.current), (), None)
        yield from extend(start, 0)

    def options(self, st: m.Choose | m.ChooseDistinct, env: Env) -> list[tuple[Value, Value]]:
        """A choice's values, in the spec's order: each as the move shows it
        and as the names bind it (a deck top is shown as ("deck", tier) but
        binds the card itself)."""
        if isinstance(st, m.Choose):
            seen: list[Value] = []
            for source in st.sources:
                for element in env.visit(source):
                    if not any(same(element, s) for s in seen):
                        seen.append(element)
            element_type = st.sources[0].type.element
            return [(self.shown(x, element_type, env.state), x) for x in seen]
        count = env.visit(st.count)
        elements = tuple(env.visit(st.source))
        if count < 0 or count > len(elements):
            return []
        element_type = st.source.type.element
        return [
            (tuple(self.shown(x, element_type, env.state) for x in combo), combo)
            for combo in itertools.combinations(elements, count)
        ]

    def line_options(self, st: m.ChooseLine, env: Env) -> list[tuple[int, ...]]:
        """A choice of cells in a line: every line of the source's cells
        (board.py gives the order)."""
        grid = self.tables.model.board
        assert grid is not None
        return board.lines(grid, tuple(env.visit(st.source)), st.low, st.high)

    def shown(self, value: Value, type_: m.Type | None, state: State) -> Value:
        """A chosen element as a move shows it: a card on top of its deck is
        hidden as ("deck", tier)."""
        if type_ is not None and type_.kind == "card":
            deck = state.decks[self.tables.decks.card_deck[value]]
            if deck and deck[-1] == value:
                return (DECK, self.tables.tier(value))
        return value

    def payments(self, st: m.Pay, env: Env) -> list[tuple[int, ...]]:
        """Every split of the price between colour and wild tokens, in
        itertools.product order (per colour, wild counts ascending)."""
        tables = self.tables
        price, wild, ranges = self.token_splits(st, env)
        worth = self.wild_worth(env)
        if worth > 1:  # per colour, the wild tokens: each pays up to `worth` of it
            ranges = [
                range(-(-r.start // worth), -(-p // worth) + 1)
                for r, p in zip(ranges, price, strict=True)
            ]
        payments = []
        for split in itertools.product(*ranges):
            if sum(split) > wild:
                continue
            payment = [0] * len(tables.tokens)
            for p, i, w in zip(price, tables.colour_tokens, split, strict=True):
                payment[i] = max(0, p - worth * w)
            if tables.wild is not None:
                payment[tables.wild] = sum(split)
            payments.append(tuple(payment))
        return payments

    def wild_worth(self, env: Env) -> int:
        """What a wild token pays of one colour for the player paying: its
        `counts as N in payments` where its condition holds, else 1."""
        if self.tables.wild is None:
            return 1
        kind = self.tables.kinds[self.tables.tokens[self.tables.wild]]
        if kind.worth_condition is None or not env.holds(kind.worth_condition):
            return 1
        return kind.worth

    def token_splits(self, st: m.Pay, env: Env) -> tuple[list[int], int, list[range]]:
        """The price per colour, the player's wild tokens, and per colour the
        range of what wild tokens (or cards) may pay of it: at least what the
        colour's tokens leave unpaid, at most the whole price."""
        tables = self.tables
        cost, discount = env.visit(st.cost), env.visit(st.discount)
        price = [max(0, c - d) for c, d in zip(cost, discount, strict=True)]
        held = env.seat().tokens
        wild = held[tables.wild] if tables.wild is not None else 0
        ranges = [
            range(max(0, p - held[i]), p + 1)
            for p, i in zip(price, tables.colour_tokens, strict=True)
        ]
        return price, wild, ranges

    def card_payments(self, st: m.Pay, env: Env) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every way to pay that may spend cards (docs/engine.md): each token
        split of `payments` with fewer wild tokens, the rest paid by the
        fewest cards that cover it (units to spare only when no token pays),
        wild tokens ascending, then the sets of cards by combinations."""
        wild_cards = st.wild_cards
        assert wild_cards is not None
        chosen = {env.names[n] for n in wild_cards.chosen}
        chosen |= {k for n in wild_cards.chosen_sets for k in env.names[n]}
        cards = tuple(k for k in env.visit(wild_cards.cards) if k not in chosen)
        units = wild_cards.units
        tables = self.tables
        price, wild, ranges = self.token_splits(st, env)
        found = []
        for split in itertools.product(*ranges):
            unpaid = sum(split)
            for w in range(min(unpaid, wild) + 1):
                rest = unpaid - w
                count = -(-rest // units)
                no_token = w == 0 and unpaid == sum(price)
                if count > len(cards) or (rest % units and not no_token):
                    continue
                payment = [0] * len(tables.tokens)
                for p, i, s in zip(price, tables.colour_tokens, split, strict=True):
                    payment[i] = p - s
                if tables.wild is not None:
                    payment[tables.wild] = w
                for spent in itertools.combinations(cards, count):
                    found.append((tuple(payment), spent))
        return found

    # -------------------------------------------------------- decisions

    def follow_options(self, state: State) -> list[tuple[Value, Value]]:
        """The options of the first follow-up decision waiting, on the state
        now, with the names it carries."""
        index, values = state.follow[0]
        site = self.tables.follow_ups[index]
        names = {name: v for (name, _), v in zip(site.bound, values, strict=True)}
        env = self.definitions.env(state, state.current)
        for name, value in names.items():
            env = env.bind(name, value)
        options = self.options(site.choice, env)
        if site.declinable:  # the decline last: None, which skips the rest of its block
            options.append((None, None))
        return options

    def decision_options(self, state: State, step: m.Step) -> list[Value]:
        if isinstance(step, m.TokenLimit):
            return list(self.returns(state, step))
        assert isinstance(step, m.Claim)
        return list(self.claimable(state, step))

    def returns(self, state: State, step: m.TokenLimit) -> list[tuple[int, ...]]:
        """The ways to return the tokens above the limit (none when within
        it): the limit counts, and a player returns, the kinds it counts only."""
        counted = step.counted
        held = [
            h if counted is None or k in counted else 0
            for k, h in zip(self.tables.tokens, state.seats[state.current].tokens, strict=True)
        ]
        total = sum(held)
        if total <= step.limit:
            return []
        kinds = self.tables.kinds
        returnable = [
            h if kinds[k].returnable else 0 for k, h in zip(self.tables.tokens, held, strict=True)
        ]
        excess = min(total - step.limit, sum(returnable))
        return [
            r for r in itertools.product(*(range(h + 1) for h in returnable)) if sum(r) == excess
        ]

    def claimable(self, state: State, step: m.Claim) -> list[int]:
        env = self.definitions.env(state, state.current)
        tiles = state.tiles[self.tables.tile_set[step.tiles]]
        if step.source is not None:  # the player's tiles of the set in that zone
            faces = self.tables.tiles.set_faces[step.tiles]
            held = state.seats[state.current].zones[self.tables.zone[step.source]]
            tiles = tuple(t for t in held if t in faces)
        shared = self.tables.shared_claim.get(step.name)
        if shared is not None:  # claimed once per player: not one the player holds
            zones = state.seats[state.current].zones
            tiles = tuple(t for t in tiles if not any(t in zones[z] for z in shared))
        return [t for t in tiles if env.bind(step.variable, t).holds(step.condition)]


class _Branch(Visitor):
    """One partial way of making an action's choices: the names bound, the
    values chosen and the payment so far. Visiting the next statement of the
    choice part gives the branches it leads to (none when it fails)."""

    def __init__(
        self,
        moves: Moves,
        env: Env,
        values: tuple[Value, ...],
        payment: tuple[int, ...] | None,
        spent: tuple[int, ...] | None = None,
    ) -> None:
        self.moves = moves
        self.env = env
        self.values = values
        self.payment = payment
        self.spent = spent  # the cards a payment spends, when it may spend some

    def move(self, name: str) -> Action:
        if self.payment is None:
            return (name, *self.values)
        if self.spent is not None:
            return (name, *self.values, self.payment, self.spent)
        return (name, *self.values, self.payment)

    def visit_Let(self, st: m.Let) -> list[_Branch]:
        env = self.env.bind(st.name, self.env.visit(st.value))
        return [_Branch(self.moves, env, self.values, self.payment)]

    def visit_Choose(self, st: m.Choose | m.ChooseDistinct) -> list[_Branch]:
        return [
            _Branch(self.moves, self.env.bind(st.name, bound), (*self.values, shown), self.payment)
            for shown, bound in self.moves.options(st, self.env)
        ]

    visit_ChooseDistinct = visit_Choose

    def visit_ChooseLine(self, st: m.ChooseLine) -> list[_Branch]:
        return [
            _Branch(self.moves, self.env.bind(st.name, line), (*self.values, line), self.payment)
            for line in self.moves.line_options(st, self.env)
        ]

    def visit_Require(self, st: m.Require) -> list[_Branch]:
        return [self] if self.env.holds(st.condition) else []

    def visit_Pay(self, st: m.Pay) -> list[_Branch]:
        if st.wild_cards is not None:
            return [
                _Branch(self.moves, self.env, self.values, way, spent)
                for way, spent in self.moves.card_payments(st, self.env)
            ]
        return [
            _Branch(self.moves, self.env, self.values, way)
            for way in self.moves.payments(st, self.env)
        ]

    def generic_visit(self, node: object) -> list[_Branch]:
        raise AssertionError(f"not a choice: {node!r}")
