"""The reference interpreter: runs an edition's checked model directly.

It is the oracle that generated engines are compared with, move by move, so
it follows docs/engine.md to the letter and favours being obviously faithful
to the model over speed: a tree-walking evaluator over the model's
expressions and statements, and states that are immutable values (frozen
attrs classes of tuples; every change builds a new state).

Values while evaluating: numbers and conditions are `int` and `bool`; a colour
or token kind is its name; a card or tile is its number (docs/engine.md,
"Identities"); a number per colour is a tuple in colour order; a set or list
is a tuple in its defined order.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from attrs import evolve, field, frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder
from splendor_rules.dsl.diagnostics import Sources, render

Value = Any  # int | bool | str | tuple[Value, ...]: see the module docstring
Action = tuple[Any, ...]
Json = dict[str, Any]

# The choice part of an action: what a move decides and what it must meet. A
# payment belongs to it too (its ways are part of the move) and is also an effect.
_DECIDED = (m.Let, m.Choose, m.ChooseDistinct, m.Require)
_CHOICES = (*_DECIDED, m.Pay)
_DECK = "deck"


class IllegalAction(ValueError):
    """A move the rules forbid; the message starts with the ids of the rules
    that forbid it, so a failing move names the rule to read."""


@frozen
class Seat:
    """What one player has. Zones are in declaration order, each in the
    order its cards or tiles entered it."""

    tokens: tuple[int, ...]  # per token kind, in token order
    zones: tuple[tuple[int, ...], ...]
    did: tuple[str, ...]  # the actions done this round, for did()


@frozen
class State:
    """A whole game position, hidden parts included (view() hides them)."""

    players: int
    first_player: int
    current: int
    turn: int  # turns completed
    over: bool
    last_round: bool  # marked by an ending of mode "once"
    pending: str | None  # the step whose decision is pending
    supply: tuple[int, ...]  # per token kind
    decks: tuple[tuple[int, ...], ...]  # per tier ascending, bottom to top
    market: tuple[tuple[int | None, ...], ...]  # per tier ascending, slot order
    tiles: tuple[tuple[int, ...], ...]  # per tile set: the tiles in play, in play order
    hidden: tuple[int, ...]  # cards taken from a deck into a zone that hides them
    seats: tuple[Seat, ...]


@frozen
class Env:
    """Where an expression is read: the state, the player in context (whose
    zones, tokens and definitions bare names mean) and the local names."""

    state: State
    player: int | None
    names: Mapping[str, Value] = field(factory=dict)

    def bind(self, name: str, value: Value) -> Env:
        return Env(self.state, self.player, {**self.names, name: value})

    def at(self, state: State) -> Env:
        return Env(state, self.player, self.names)

    def of(self, player: int) -> Env:
        return Env(self.state, player, self.names)


def _same(a: Value, b: Value) -> bool:
    """Equality that does not confuse True with 1 or a list with a tuple: an
    action value must be exactly one the engine offers."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _show(value: Value) -> str:
    """A value inside a requirement's message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(_show(v) for v in value)
    return str(value)


def _ids(part: m.Statement | m.Part) -> str:
    return ", ".join(part.rule_ids)


class InterpretedEngine:
    """The engine API of docs/engine.md over one edition's checked model."""

    IllegalAction = IllegalAction

    def __init__(self, edition: m.Edition) -> None:
        self.model = edition
        self.EDITION = edition.name
        self.TITLE = edition.title
        self.PLAYERS = range(edition.players[0], edition.players[1] + 1)
        self.TOKENS: tuple[str, ...] = tuple(t.name for t in edition.tokens)
        self.COLOURS: tuple[str, ...] = edition.colours
        self._kinds = {t.name: t for t in edition.tokens}
        self._token = {name: i for i, name in enumerate(self.TOKENS)}
        self._wild = next((i for i, t in enumerate(edition.tokens) if t.role == "wild"), None)
        self._tiers: tuple[int, ...] = tuple(sorted(edition.market.deck_sizes))
        self._zone = {z.name: i for i, z in enumerate(edition.zones)}
        self._zones = {z.name: z for z in edition.zones}
        self._tile_zones = tuple(i for i, z in enumerate(edition.zones) if z.content == "tiles")
        # Tile numbers: every face of every tile set in order, then the majority tiles.
        self._tile_rows: list[Mapping[str, Value]] = []
        self._set_tiles: dict[str, tuple[int, ...]] = {}
        self._set_index = {t.name: i for i, t in enumerate(edition.tile_sets)}
        for table in edition.tile_sets:
            start = len(self._tile_rows)
            self._tile_rows.extend(table.rows)
            self._set_tiles[table.name] = tuple(range(start, len(self._tile_rows)))
        self._majority_tile: dict[str, int] = {}
        for majority in edition.majorities:
            self._majority_tile[majority.name] = len(self._tile_rows)
            self._tile_rows.append({"points": majority.points})
        self._actions = {a.name: a for a in edition.actions}
        self._fallback = next((a for a in edition.actions if a.body is None), None)
        self._steps = {s.name: (i, s) for i, s in enumerate(edition.steps)}
        self._defines = {d.name: d for d in edition.defines}
        self._memo_state: State | None = None
        self._memo: dict[tuple[str, int], Value] = {}

    # ------------------------------------------------------------ setup

    def new_game(self, players: int, seed: int, first_player: int = 0) -> State:
        """The setup of docs/engine.md, with the random calls in its order."""
        if players not in self.PLAYERS:
            raise ValueError(
                f"{self.EDITION} is for {self.PLAYERS.start} to "
                f"{self.PLAYERS.stop - 1} players, not {players}"
            )
        if not 0 <= first_player < players:
            raise ValueError(f"first player {first_player} is not a seat of {players} players")
        rng = random.Random(seed)
        decks: list[tuple[int, ...]] = []
        market: list[tuple[int | None, ...]] = []
        for tier in self._tiers:
            deck = [n for n in range(len(self.model.cards.rows)) if self._tier(n) == tier]
            rng.shuffle(deck)
            slots = [deck.pop() if deck else None for _ in range(self.model.market.face_up)]
            decks.append(tuple(deck))
            market.append(tuple(slots))
        state = State(
            players=players,
            first_player=first_player,
            current=first_player,
            turn=0,
            over=False,
            last_round=False,
            pending=None,
            supply=tuple(t.supply[players] for t in self.model.tokens),
            decks=tuple(decks),
            market=tuple(market),
            tiles=tuple(() for _ in self.model.tile_sets),
            hidden=(),
            seats=tuple(
                Seat(
                    tokens=(0,) * len(self.TOKENS),
                    zones=tuple(() for _ in self.model.zones),
                    did=(),
                )
                for _ in range(players)
            ),
        )
        tiles = list(state.tiles)
        for reveal in self.model.reveals:
            table = self._table(reveal.tiles)
            numbers = self._set_tiles[reveal.tiles]
            wanted = self.evaluate(reveal.count, Env(state, None))
            if table.sides_by is None:
                order = list(numbers)
                rng.shuffle(order)
                kept = order[: max(0, min(wanted, len(order)))]
            else:
                physical: dict[Value, list[int]] = {}
                for number, row in zip(numbers, table.rows, strict=True):
                    physical.setdefault(row[table.sides_by], []).append(number)
                shuffled = list(physical.values())
                rng.shuffle(shuffled)
                chosen = shuffled[: max(0, min(wanted, len(shuffled)))]
                kept = [faces[rng.randrange(len(faces))] for faces in chosen]
            tiles[self._set_index[reveal.tiles]] = tuple(kept)
        return evolve(state, tiles=tuple(tiles))

    # --------------------------------------------------------- queries

    def current_player(self, state: State) -> int:
        return state.current

    def is_over(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(
            int(self._definition(self.model.score, state, p)) for p in range(state.players)
        )

    def winners(self, state: State) -> frozenset[int]:
        """Players for whom `among` holds, best on every key in order."""
        if not state.over:
            return frozenset()
        rule = self.model.winners
        among = [
            p
            for p in range(state.players)
            if rule.among is None or self._holds(rule.among, Env(state, p))
        ]
        if not among:
            return frozenset()

        def rank(player: int) -> tuple[int, ...]:
            values = (int(self.evaluate(k.value, Env(state, player))) for k in rule.keys)
            return tuple(
                v if k.order == "highest" else -v for k, v in zip(rule.keys, values, strict=True)
            )

        best = max(rank(p) for p in among)
        return frozenset(p for p in among if rank(p) == best)

    # --------------------------------------------------- legal actions

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal move of the player to move, in the order of the spec."""
        if state.over:
            return []
        if state.pending is not None:
            _, step = self._steps[state.pending]
            return [(step.name, option) for option in self._decision_options(state, step)]
        found = [
            action
            for a in self.model.actions
            if a.body is not None
            for action in self._ways(a, state)
        ]
        if not found and self._fallback is not None:
            return [(self._fallback.name,)]
        return found

    def _ways(self, action: m.Action, state: State) -> Iterator[Action]:
        """Each way of making the action's choices that meets its
        requirements and can pay, depth first in statement order."""
        assert action.body is not None
        part = [st for st in action.body if isinstance(st, _CHOICES)]

        def walk(
            index: int, env: Env, values: tuple[Value, ...], payment: tuple[int, ...] | None
        ) -> Iterator[Action]:
            if index == len(part):
                yield (action.name, *values) if payment is None else (action.name, *values, payment)
                return
            st = part[index]
            if isinstance(st, m.Let):
                yield from walk(
                    index + 1, env.bind(st.name, self.evaluate(st.value, env)), values, payment
                )
            elif isinstance(st, m.Choose | m.ChooseDistinct):
                for shown, value in self._options(st, env):
                    yield from walk(index + 1, env.bind(st.name, value), (*values, shown), payment)
            elif isinstance(st, m.Require):
                if self._holds(st.condition, env):
                    yield from walk(index + 1, env, values, payment)
            else:
                assert isinstance(st, m.Pay)
                for way in self._payments(st, env):
                    yield from walk(index + 1, env, values, way)

        yield from walk(0, Env(state, state.current), (), None)

    def _options(self, st: m.Choose | m.ChooseDistinct, env: Env) -> list[tuple[Value, Value]]:
        """A choice's values, in the spec's order: each as the move shows it
        and as the names bind it (a deck top is shown as ("deck", tier) but
        binds the card itself)."""
        if isinstance(st, m.Choose):
            seen: list[Value] = []
            for source in st.sources:
                for element in self.evaluate(source, env):
                    if not any(_same(element, s) for s in seen):
                        seen.append(element)
            element_type = st.sources[0].type.element
            return [(self._shown(x, element_type, env.state), x) for x in seen]
        count = self.evaluate(st.count, env)
        elements = tuple(self.evaluate(st.source, env))
        if count < 0 or count > len(elements):
            return []
        element_type = st.source.type.element
        return [
            (tuple(self._shown(x, element_type, env.state) for x in combo), combo)
            for combo in itertools.combinations(elements, count)
        ]

    def _shown(self, value: Value, type_: m.Type | None, state: State) -> Value:
        """A chosen element as a move shows it: a card on top of its deck is
        hidden as ("deck", tier)."""
        if type_ is not None and type_.kind == "card":
            tier = self._tier(value)
            deck = state.decks[self._tiers.index(tier)]
            if deck and deck[-1] == value:
                return (_DECK, tier)
        return value

    def _payments(self, st: m.Pay, env: Env) -> list[tuple[int, ...]]:
        """Every split of the price between colour and wild tokens, in
        itertools.product order (per colour, wild counts ascending)."""
        cost = self.evaluate(st.cost, env)
        discount = self.evaluate(st.discount, env)
        price = [max(0, c - d) for c, d in zip(cost, discount, strict=True)]
        held = self._seat(env).tokens
        colour_index = [self._token[c] for c in self.COLOURS]
        wild = held[self._wild] if self._wild is not None else 0
        ranges = [
            range(max(0, p - held[i]), p + 1) for p, i in zip(price, colour_index, strict=True)
        ]
        payments = []
        for split in itertools.product(*ranges):
            if sum(split) > wild:
                continue
            payment = [0] * len(self.TOKENS)
            for p, i, w in zip(price, colour_index, split, strict=True):
                payment[i] = p - w
            if self._wild is not None:
                payment[self._wild] = sum(split)
            payments.append(tuple(payment))
        return payments

    def _decision_options(self, state: State, step: m.Step) -> list[Value]:
        if isinstance(step, m.TokenLimit):
            return list(self._returns(state, step))
        assert isinstance(step, m.Claim)
        return list(self._claimable(state, step))

    def _returns(self, state: State, step: m.TokenLimit) -> list[tuple[int, ...]]:
        """The ways to return the tokens above the limit (none when within it)."""
        held = state.seats[state.current].tokens
        total = sum(held)
        if total <= step.limit:
            return []
        returnable = [
            h if self._kinds[k].returnable else 0 for k, h in zip(self.TOKENS, held, strict=True)
        ]
        excess = min(total - step.limit, sum(returnable))
        return [
            r for r in itertools.product(*(range(h + 1) for h in returnable)) if sum(r) == excess
        ]

    def _claimable(self, state: State, step: m.Claim) -> list[int]:
        env = Env(state, state.current)
        return [
            t
            for t in state.tiles[self._set_index[step.tiles]]
            if self._holds(step.condition, env.bind(step.variable, t))
        ]

    # ------------------------------------------------------------ apply

    def apply(self, state: State, action: Action) -> State:
        """The state after the move; raises IllegalAction for a move that is
        not legal, naming the rules that forbid it."""
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            raise IllegalAction(f"an action is a tuple (name, values...), not {action!r}")
        name = action[0]
        if state.over:
            ids = ", ".join(dict.fromkeys(i for e in self.model.endings for i in e.rule_ids))
            raise IllegalAction(f"{ids}: the game is over")
        if state.pending is not None:
            index, step = self._steps[state.pending]
            if name != step.name:
                raise IllegalAction(
                    f"{_ids(step)}: the decision '{step.name}' is pending; '{name}' must wait"
                )
            return self._decide(state, index, step, action)
        if name in self._steps:
            _, step = self._steps[name]
            raise IllegalAction(f"{_ids(step)}: no '{name}' decision is pending")
        definition = self._actions.get(name)
        if definition is None:
            raise IllegalAction(f"unknown action '{name}'")
        if definition.body is None:
            if len(action) != 1:
                raise IllegalAction(f"{_ids(definition)}: '{name}' takes no values")
            if any(
                True for a in self.model.actions if a.body is not None for _ in self._ways(a, state)
            ):
                raise IllegalAction(
                    f"{_ids(definition)}: '{name}' is legal only when no other action is"
                )
            after = state
        else:
            env, payment = self._check(definition, state, action)
            effects = tuple(st for st in definition.body if not isinstance(st, _DECIDED))
            after = self._run(effects, env, payment).state
        q = after.current
        seat = after.seats[q]
        if name not in seat.did:
            after = self._with_seat(after, q, evolve(seat, did=(*seat.did, name)))
        return self._end_turn(after, 0)

    def _check(
        self, action: m.Action, state: State, given: Action
    ) -> tuple[Env, tuple[int, ...] | None]:
        """Walk the choice part with the move's values, in statement order,
        refusing the first value, requirement or payment that fails."""
        assert action.body is not None
        part = [st for st in action.body if isinstance(st, _CHOICES)]
        choices = [st for st in part if isinstance(st, m.Choose | m.ChooseDistinct)]
        pays = any(isinstance(st, m.Pay) for st in part)
        wanted = len(choices) + int(pays)
        if len(given) - 1 != wanted:
            raise IllegalAction(
                f"{_ids(action)}: '{action.name}' takes {wanted} value(s) "
                f"after its name, not {len(given) - 1}"
            )
        values = iter(given[1 : len(choices) + 1])
        payment = given[-1] if pays else None
        env = Env(state, state.current)
        for st in part:
            if isinstance(st, m.Let):
                env = env.bind(st.name, self.evaluate(st.value, env))
            elif isinstance(st, m.Choose | m.ChooseDistinct):
                value = next(values)
                match = [bound for shown, bound in self._options(st, env) if _same(shown, value)]
                if not match:
                    raise IllegalAction(
                        f"{_ids(st)}: {self._describe(st, value)} is not one you may choose here"
                    )
                env = env.bind(st.name, match[0])
            elif isinstance(st, m.Require):
                self._require(st, env)
            else:
                assert isinstance(st, m.Pay)
                if not any(_same(payment, way) for way in self._payments(st, env)):
                    self._refuse_kind(payment, "special", _ids(st), "never pays")
                    raise IllegalAction(
                        f"{_ids(st)}: paying {self._counts(payment)} is not a valid payment here"
                    )
        return env, payment

    def _require(self, st: m.Require, env: Env) -> None:
        if not self._holds(st.condition, env):
            message = "".join(
                part if isinstance(part, str) else _show(self.evaluate(part, env))
                for part in st.message
            )
            raise IllegalAction(f"{_ids(st)}: {message}")

    def _describe(self, st: m.Choose | m.ChooseDistinct, value: Value) -> str:
        """A refused choice value, for the message."""
        source = st.sources[0] if isinstance(st, m.Choose) else st.source
        kind = source.type.element.kind if source.type.element is not None else ""

        def one(v: Value) -> str:
            if isinstance(v, tuple) and len(v) == 2 and v[0] == _DECK:
                return f"the top of deck {v[1]}"
            if kind in ("card", "tile") and isinstance(v, int) and not isinstance(v, bool):
                return f"{kind} {v}"
            return str(v)

        if not isinstance(st, m.ChooseDistinct):
            return one(value)
        if not isinstance(value, tuple):
            return repr(value)
        return "(" + ", ".join(one(v) for v in value) + ")"

    def _counts(self, counts: Value) -> str:
        if not (isinstance(counts, tuple) and len(counts) == len(self.TOKENS)):
            return repr(counts)
        shown = [f"{n} {k}" for k, n in zip(self.TOKENS, counts, strict=True) if n]
        return ", ".join(shown) or "nothing"

    def _refuse_kind(self, counts: object, what: str, ids: str, reason: str) -> None:
        """Refuse counts that use a token kind the rules keep out (one that
        never pays, or is never returned), citing that kind's own rule."""
        if not isinstance(counts, tuple) or len(counts) != len(self.TOKENS):
            return
        for kind, n in zip(self.model.tokens, counts, strict=True):
            if not (isinstance(n, int) and n > 0):
                continue
            if what == "special" and kind.role == "special" and kind.rule_ids:
                raise IllegalAction(f"{', '.join(kind.rule_ids)}, {ids}: {kind.name} {reason}")
            if what == "returned" and not kind.returnable and kind.returnable_ids:
                raise IllegalAction(
                    f"{', '.join(kind.returnable_ids)}, {ids}: {kind.name} {reason}"
                )

    def _decide(self, state: State, index: int, step: m.Step, action: Action) -> State:
        """Apply the pending decision, then the steps after it."""
        if len(action) != 2:
            raise IllegalAction(f"{_ids(step)}: '{step.name}' takes one value after its name")
        value = action[1]
        if isinstance(step, m.TokenLimit):
            options = self._returns(state, step)
            if not any(_same(value, o) for o in options):
                self._refuse_kind(value, "returned", _ids(step), "is never returned")
                raise IllegalAction(
                    f"{_ids(step)}: returning {self._counts(value)} is not an "
                    f"option; return {sum(options[0])} token(s) in all"
                )
            state = self._give_back(state, value)
        else:
            assert isinstance(step, m.Claim)
            if not any(_same(value, t) for t in self._claimable(state, step)):
                raise IllegalAction(f"{_ids(step)}: tile {value!r} is not one you may claim here")
            state = self._claim(state, step, value)
        return self._end_turn(evolve(state, pending=None), index + 1)

    # ---------------------------------------------------------- effects

    def _run(
        self, statements: Sequence[m.Statement], env: Env, payment: tuple[int, ...] | None
    ) -> Env:
        """Run effects in order; each sees the state the previous left."""
        for st in statements:
            if isinstance(st, m.Let):
                env = env.bind(st.name, self.evaluate(st.value, env))
            elif isinstance(st, m.Require):  # inside an `if` (the checker allows it)
                self._require(st, env)
            elif isinstance(st, m.Gain):
                env = env.at(
                    self._gain(env, self.evaluate(st.token, env), self.evaluate(st.amount, env))
                )
            elif isinstance(st, m.GainEach):
                amount = self.evaluate(st.amount, env)
                for kind in self.evaluate(st.tokens, env):
                    env = env.at(self._gain(env, kind, amount))
            elif isinstance(st, m.Pay):
                if payment is None:  # the move carries the payment of the top level only
                    raise NotImplementedError("a payment inside 'if' or a trigger")
                env = env.at(self._pay(env, payment))
            elif isinstance(st, m.Move):
                env = env.at(self._move(env, env.names[st.card], st.zone))
            elif isinstance(st, m.If):
                if self._holds(st.condition, env):
                    env = env.at(self._run(st.body, env, None).state)
            else:
                raise AssertionError(f"a choice among the effects: {st!r}")
        return env

    def _gain(self, env: Env, kind: str, amount: int) -> State:
        """Take min(amount, supply, cap - held) tokens (never fewer than 0)."""
        state, q = env.state, self._player(env)
        i = self._token[kind]
        held = state.seats[q].tokens[i]
        cap = self._kinds[kind].cap
        taken = min(amount, state.supply[i], cap - held if cap is not None else amount)
        return self._transfer(state, q, i, max(0, taken))

    def _pay(self, env: Env, payment: tuple[int, ...]) -> State:
        state, q = env.state, self._player(env)
        for i, n in enumerate(payment):
            state = self._transfer(state, q, i, -n)
        return state

    def _give_back(self, state: State, counts: tuple[int, ...]) -> State:
        for i, n in enumerate(counts):
            state = self._transfer(state, state.current, i, -n)
        return state

    def _transfer(self, state: State, player: int, kind: int, n: int) -> State:
        """Move n tokens of one kind from the supply to a player (n < 0: back)."""
        seat = state.seats[player]
        tokens = list(seat.tokens)
        supply = list(state.supply)
        tokens[kind] += n
        supply[kind] -= n
        return evolve(
            self._with_seat(state, player, evolve(seat, tokens=tuple(tokens))), supply=tuple(supply)
        )

    def _move(self, env: Env, card: int, zone: str) -> State:
        """Move a card into the player's zone, then run the triggers and
        contest the majority tiles of that zone."""
        state, q = env.state, self._player(env)
        state, from_deck = self._take(state, q, card)
        seat = state.seats[q]
        zones = list(seat.zones)
        zones[self._zone[zone]] += (card,)
        hidden = tuple(c for c in state.hidden if c != card)
        if from_deck and self._zones[zone].hidden_from_deck:
            hidden = tuple(sorted((*hidden, card)))  # kept in ascending order
        state = evolve(self._with_seat(state, q, evolve(seat, zones=tuple(zones))), hidden=hidden)
        for trigger in self.model.triggers:
            if trigger.zone == zone:
                state = self._run(trigger.body, Env(state, q, {trigger.card: card}), None).state
        for majority in self.model.majorities:
            if majority.event_zone == zone:
                state = self._contest(state, majority, q)
        return state

    def _take(self, state: State, q: int, card: int) -> tuple[State, bool]:
        """Remove a card from where it is: a market slot (refilled when the
        edition refills), a deck top, or one of the player's zones. Also
        tells whether it came from a deck top."""
        for t, row in enumerate(state.market):
            if card in row:
                deck = state.decks[t]
                refill: int | None = None
                if self.model.market.refill and deck:
                    refill, deck = deck[-1], deck[:-1]
                slots = tuple(refill if c == card else c for c in row)
                return evolve(
                    state,
                    market=self._replace(state.market, t, slots),
                    decks=self._replace(state.decks, t, deck),
                ), False
        for t, deck in enumerate(state.decks):
            if deck and deck[-1] == card:
                return evolve(state, decks=self._replace(state.decks, t, deck[:-1])), True
        seat = state.seats[q]
        for z, cards in enumerate(seat.zones):
            if self.model.zones[z].content == "cards" and card in cards:
                zones = self._replace(seat.zones, z, tuple(c for c in cards if c != card))
                return self._with_seat(state, q, evolve(seat, zones=zones)), False
        raise AssertionError(f"card {card} is nowhere player {q} can take it from")

    def _contest(self, state: State, majority: m.Majority, q: int) -> State:
        """Player q contests a majority tile (docs/engine.md, "Contest")."""
        tile = self._majority_tile[majority.name]
        z = self._zone[majority.zone]
        holder = next((p for p in range(state.players) if tile in state.seats[p].zones[z]), None)
        mine = self.evaluate(majority.measure, Env(state, q))
        if holder == q or mine < majority.threshold:
            return state
        if holder is not None:
            theirs = self.evaluate(majority.measure, Env(state, holder))
            if mine < theirs or (mine == theirs and majority.ties_keep_holder):
                return state
            seat = state.seats[holder]
            zones = self._replace(seat.zones, z, tuple(t for t in seat.zones[z] if t != tile))
            state = self._with_seat(state, holder, evolve(seat, zones=zones))
        return self._add_tile(state, q, z, tile)

    def _claim(self, state: State, step: m.Claim, tile: int) -> State:
        index = self._set_index[step.tiles]
        in_play = tuple(t for t in state.tiles[index] if t != tile)
        state = evolve(state, tiles=self._replace(state.tiles, index, in_play))
        return self._add_tile(state, state.current, self._zone[step.zone], tile)

    def _add_tile(self, state: State, player: int, zone: int, tile: int) -> State:
        seat = state.seats[player]
        zones = self._replace(seat.zones, zone, (*seat.zones[zone], tile))
        return self._with_seat(state, player, evolve(seat, zones=zones))

    # ------------------------------------------------- end of the turn

    def _end_turn(self, state: State, start: int) -> State:
        """Run the steps from `start`, stopping at a decision with several
        options; then pass the turn and, at a round's end, check the end."""
        q = state.current
        for step in self.model.steps[start:]:
            if isinstance(step, m.TokenLimit | m.Claim):
                options = self._decision_options(state, step)
                if len(options) > 1:
                    return evolve(state, pending=step.name)
                if options and isinstance(step, m.TokenLimit):
                    state = self._give_back(state, options[0])
                elif options:
                    assert isinstance(step, m.Claim)
                    state = self._claim(state, step, options[0])
            elif any(
                e.mode == "once" and self._holds(e.condition, Env(state, None))
                for e in self.model.endings
            ):
                state = evolve(state, last_round=True)
        after = (q + 1) % state.players
        state = evolve(state, current=after, turn=state.turn + 1, pending=None)
        if after != state.first_player:
            return state
        if state.last_round or any(
            e.mode == "at_round_end" and self._holds(e.condition, Env(state, None))
            for e in self.model.endings
        ):
            return evolve(state, over=True)
        return evolve(state, seats=tuple(evolve(s, did=()) for s in state.seats))

    # ------------------------------------------------------- evaluation

    def evaluate(self, expr: m.Expr, env: Env) -> Value:
        """The value of a model expression in an environment."""
        if isinstance(expr, m.Const):
            return expr.value
        if isinstance(expr, m.Ref):
            return self._ref(expr, env)
        if isinstance(expr, m.DeckTops):
            return tuple(deck[-1] for deck in env.state.decks if deck)
        if isinstance(expr, m.Attr):
            subject = self.evaluate(expr.subject, env)
            type_ = expr.subject.type
            if type_.kind in ("set", "list"):
                assert type_.element is not None
                element = type_.element
                return tuple(self._attribute(element, x, expr.attribute) for x in subject)
            return self._attribute(type_, subject, expr.attribute)
        if isinstance(expr, m.Index):
            vector = self.evaluate(expr.subject, env)
            return vector[self.COLOURS.index(self.evaluate(expr.index, env))]
        if isinstance(expr, m.Call):
            return self._call(expr, env)
        if isinstance(expr, m.Unary):
            operand = self.evaluate(expr.operand, env)
            return -operand if expr.op == "-" else not operand
        if isinstance(expr, m.Binary):
            return self._binary(
                expr.op, self.evaluate(expr.left, env), self.evaluate(expr.right, env)
            )
        if isinstance(expr, m.Logic):
            if expr.op == "and":
                return all(self._holds(o, env) for o in expr.operands)
            return any(self._holds(o, env) for o in expr.operands)
        if isinstance(expr, m.Conditional):
            chosen = expr.then if self._holds(expr.condition, env) else expr.otherwise
            return self.evaluate(chosen, env)
        if isinstance(expr, m.Filter):
            return tuple(
                x
                for x in self.evaluate(expr.source, env)
                if self._holds(expr.condition, env.bind(expr.variable, x))
            )
        if isinstance(expr, m.PerColour):
            return tuple(self.evaluate(expr.body, env.bind(expr.variable, c)) for c in self.COLOURS)
        if isinstance(expr, m.Quantifier):
            if expr.variable is None:  # over the players: each in turn is in context
                envs = [env.of(p) for p in range(env.state.players)]
            else:
                assert expr.source is not None
                envs = [env.bind(expr.variable, x) for x in self.evaluate(expr.source, env)]
            if expr.op == "any":
                return any(self._holds(expr.body, e) for e in envs)
            return all(self._holds(expr.body, e) for e in envs)
        raise AssertionError(f"unknown expression {type(expr).__name__}")

    def _definition(self, define: m.Define, state: State, player: int) -> Value:
        """A definition read for a player. It depends on nothing else, and
        states never change, so the values for the last state read are kept
        (a claim's condition reads the same definition once per colour and tile)."""
        if self._memo_state is not state:
            self._memo_state, self._memo = state, {}
        key = (define.name, player)
        if key not in self._memo:
            self._memo[key] = self.evaluate(define.value, Env(state, player))
        return self._memo[key]

    def _holds(self, expr: m.Expr, env: Env) -> bool:
        return bool(self.evaluate(expr, env))

    def _ref(self, expr: m.Ref, env: Env) -> Value:
        state = env.state
        kind = expr.kind
        if kind == "variable":
            return env.names[expr.name]
        if kind in ("colour", "token"):
            return expr.name
        if kind == "colours":
            return self.COLOURS
        if kind == "players":
            return state.players
        if kind == "zone":
            return self._seat(env).zones[self._zone[expr.name]]
        if kind == "market":
            return tuple(c for row in state.market for c in row if c is not None)
        if kind == "tiles":
            return state.tiles[self._set_index[expr.name]]
        if kind == "define":
            return self._definition(self._defines[expr.name], state, self._player(env))
        if kind == "score":
            return self._definition(self.model.score, state, self._player(env))
        raise AssertionError(f"'{expr.name}' ({kind}) is not a value")

    def _call(self, expr: m.Call, env: Env) -> Value:
        function = expr.function
        if function in ("holds", "did"):
            (argument,) = expr.arguments
            assert isinstance(argument, m.Ref)
            seat = self._seat(env)
            if function == "did":
                return argument.name in seat.did
            tile = self._majority_tile[argument.name]
            return any(tile in seat.zones[z] for z in self._tile_zones)
        values = [self.evaluate(a, env) for a in expr.arguments]
        if function == "supply":
            return env.state.supply[self._token[values[0]]]
        if function == "tokens":
            return self._seat(env).tokens[self._token[values[0]]]
        if function == "count":
            return len(values[0])
        if function == "sum":
            return sum(values[0])
        if function == "min":
            return min(values)
        if function == "max":
            return max(values)
        raise AssertionError(f"unknown function {function}")

    @staticmethod
    def _binary(op: str, left: Value, right: Value) -> Value:
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op == "<":
            return left < right
        if op == "<=":
            return left <= right
        if op == ">":
            return left > right
        if op == ">=":
            return left >= right
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        raise AssertionError(f"unknown operator {op}")

    def _attribute(self, type_: m.Type, item: int, attribute: str) -> Value:
        if type_.kind == "card":
            return self.model.cards.rows[item][attribute]
        assert type_.kind == "tile", type_
        return self._tile_rows[item][attribute]

    # ---------------------------------------------------------- helpers

    def _player(self, env: Env) -> int:
        if env.player is None:
            raise AssertionError("a player's value read with no player in context")
        return env.player

    def _seat(self, env: Env) -> Seat:
        return env.state.seats[self._player(env)]

    def _tier(self, card: int) -> int:
        tier = self.model.cards.rows[card][self.model.market.group_by]
        assert isinstance(tier, int)
        return tier

    def _table(self, name: str) -> m.Table:
        return self.model.tile_sets[self._set_index[name]]

    @staticmethod
    def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
        return (*items[:index], value, *items[index + 1 :])

    def _with_seat(self, state: State, player: int, seat: Seat) -> State:
        return evolve(state, seats=self._replace(state.seats, player, seat))

    # ------------------------------------------------------------- JSON

    def to_json(self, state: State) -> Json:
        """The state's JSON form (docs/engine.md)."""
        return {
            "edition": self.EDITION,
            "players": state.players,
            "first_player": state.first_player,
            "current_player": state.current,
            "turn": state.turn,
            "over": state.over,
            "last_round": state.last_round,
            "pending": state.pending,
            "supply": dict(zip(self.TOKENS, state.supply, strict=True)),
            "decks": {str(t): list(d) for t, d in zip(self._tiers, state.decks, strict=True)},
            "market": {str(t): list(r) for t, r in zip(self._tiers, state.market, strict=True)},
            "tiles": {
                s.name: list(t) for s, t in zip(self.model.tile_sets, state.tiles, strict=True)
            },
            "hidden": sorted(state.hidden),
            "seats": [
                {
                    "tokens": self._nonzero(seat.tokens),
                    "zones": {
                        z.name: list(c) for z, c in zip(self.model.zones, seat.zones, strict=True)
                    },
                    "did": list(seat.did),
                }
                for seat in state.seats
            ],
        }

    def from_json(self, data: Json) -> State:
        """A state from its JSON form; ValueError if it is not one."""
        try:
            if data["edition"] != self.EDITION:
                raise ValueError(f"a state of edition '{data['edition']}', not '{self.EDITION}'")
            if len(data["seats"]) != data["players"]:
                raise ValueError(f"{data['players']} players but {len(data['seats'])} seats")
            if data["pending"] is not None and data["pending"] not in self._steps:
                raise ValueError(f"no step named '{data['pending']}'")
            return State(
                players=int(data["players"]),
                first_player=int(data["first_player"]),
                current=int(data["current_player"]),
                turn=int(data["turn"]),
                over=bool(data["over"]),
                last_round=bool(data["last_round"]),
                pending=data["pending"],
                supply=tuple(int(data["supply"][k]) for k in self.TOKENS),
                decks=tuple(tuple(int(c) for c in data["decks"][str(t)]) for t in self._tiers),
                market=tuple(
                    tuple(None if c is None else int(c) for c in data["market"][str(t)])
                    for t in self._tiers
                ),
                tiles=tuple(
                    tuple(int(t) for t in data["tiles"][s.name]) for s in self.model.tile_sets
                ),
                hidden=tuple(int(c) for c in data["hidden"]),
                seats=tuple(
                    Seat(
                        tokens=self._counts_from(seat["tokens"]),
                        zones=tuple(
                            tuple(int(c) for c in seat["zones"][z.name]) for z in self.model.zones
                        ),
                        did=tuple(str(a) for a in seat["did"]),
                    )
                    for seat in data["seats"]
                ),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a {self.EDITION} state: {error!r}") from error

    def view(self, state: State, player: int) -> Json:
        """The JSON form as `player` may see it: deck sizes only, and the
        hidden cards of the others as the deck they came from."""
        data = self.to_json(state)
        data["decks"] = {str(t): len(d) for t, d in zip(self._tiers, state.decks, strict=True)}

        def seen(card: int, owner: int) -> Value:
            if owner != player and card in state.hidden:
                return {_DECK: self._tier(card)}
            return card

        owners = {
            c: p
            for p, seat in enumerate(state.seats)
            for z, cards in zip(self.model.zones, seat.zones, strict=True)
            if z.content == "cards"
            for c in cards
        }
        for p, seat in enumerate(data["seats"]):
            for z in self.model.zones:
                if z.content == "cards":
                    seat["zones"][z.name] = [seen(c, p) for c in seat["zones"][z.name]]
        data["hidden"] = [c for c in data["hidden"] if owners.get(c) == player]
        return data

    def action_to_json(self, action: Action) -> Json:
        """An action's JSON form (docs/engine.md, "Actions")."""
        name = action[0]
        if name in self._steps:
            _, step = self._steps[name]
            if isinstance(step, m.TokenLimit):
                return {"action": name, "tokens": self._nonzero(action[1])}
            return {"action": name, "tile": action[1]}
        definition = self._actions.get(name)
        if definition is None:
            raise ValueError(f"unknown action '{name}'")
        data: Json = {"action": name}
        statements = definition.body or ()
        choices = [st for st in statements if isinstance(st, m.Choose | m.ChooseDistinct)]
        for st, value in zip(choices, action[1:], strict=False):
            if isinstance(st, m.ChooseDistinct):
                data[st.name] = [self._element_to_json(v) for v in value]
            else:
                data[st.name] = self._element_to_json(value)
        if any(isinstance(st, m.Pay) for st in statements):
            data["pay"] = self._nonzero(action[-1])
        return data

    def action_from_json(self, data: Json) -> Action:
        """An action from its JSON form; ValueError if it is not one."""
        try:
            name = data["action"]
            if name in self._steps:
                _, step = self._steps[name]
                if isinstance(step, m.TokenLimit):
                    return (name, self._counts_from(data["tokens"]))
                return (name, data["tile"])
            definition = self._actions.get(name)
            if definition is None:
                raise ValueError(f"unknown action '{name}'")
            statements = definition.body or ()
            values: list[Value] = []
            for st in statements:
                if isinstance(st, m.ChooseDistinct):
                    values.append(tuple(self._element_from_json(v) for v in data[st.name]))
                elif isinstance(st, m.Choose):
                    values.append(self._element_from_json(data[st.name]))
            if any(isinstance(st, m.Pay) for st in statements):
                values.append(self._counts_from(data["pay"]))
            return (name, *values)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a {self.EDITION} action: {error!r}") from error

    @staticmethod
    def _element_to_json(value: Value) -> Value:
        if isinstance(value, tuple):  # a deck top: ("deck", tier)
            return {_DECK: value[1]}
        return value

    @staticmethod
    def _element_from_json(value: Value) -> Value:
        if isinstance(value, dict):
            return (_DECK, int(value[_DECK]))
        return value

    def _nonzero(self, counts: tuple[int, ...]) -> dict[str, int]:
        return {k: n for k, n in zip(self.TOKENS, counts, strict=True) if n}

    def _counts_from(self, counts: Mapping[str, int]) -> tuple[int, ...]:
        unknown = set(counts) - set(self.TOKENS)
        if unknown:
            raise ValueError(f"unknown token kinds {sorted(unknown)}")
        return tuple(int(counts.get(k, 0)) for k in self.TOKENS)


def load_interpreted(name: str) -> InterpretedEngine:
    """The interpreter for editions/<name>.rules; ValueError, with the
    diagnostics, if the edition does not check."""
    path = editions_folder() / f"{name}.rules"
    if not path.is_file():
        raise ValueError(f"no edition '{name}': {path} does not exist")
    sources = Sources()
    compiled = compile_file(path, sources)
    if not compiled.ok or compiled.model is None:
        errors = [render(d, sources) for d in compiled.diagnostics if d.severity == "error"]
        raise ValueError(f"edition '{name}' does not check:\n" + "\n".join(errors))
    return InterpretedEngine(compiled.model)
