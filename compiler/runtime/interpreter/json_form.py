"""The JSON forms of states and actions, and a player's view of a state
(docs/engine.md, "JSON form of a state" and "Actions"). What a move's values
are is read from its signature (compiler/frontend/identities.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.runtime.interpreter.state_reader import StateReader
from splendor_rules.compiler.runtime.interpreter.tables import Tables
from splendor_rules.compiler.runtime.interpreter.values import (
    DECK,
    Action,
    Json,
    Seat,
    State,
    Value,
)


class JsonForm:
    """States and actions to JSON and back; views."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.edition = tables.model.name
        self.schema = tables.schema
        self.reader = StateReader(tables)

    # ------------------------------------------------------------- states

    def to_json(self, state: State) -> Json:
        """The state's JSON form (docs/engine.md): each field of the schema,
        in its order, written by the writer of its key."""
        write = self.writers(state)
        return {f.key: write[f.key]() for f in self.schema.fields}

    def writers(self, state: State) -> dict[str, Callable[[], Value]]:
        """Each field's writer: its value in the JSON form."""
        tables, model = self.tables, self.tables.model
        return {
            "edition": lambda: self.edition,
            "players": lambda: state.players,
            "first_player": lambda: state.first_player,
            "current_player": lambda: state.current,
            "turn": lambda: state.turn,
            "over": lambda: state.over,
            "last_round": lambda: state.last_round,
            "pending": lambda: self.follow_json(state, None) if state.follow else state.pending,
            "supply": lambda: dict(zip(tables.tokens, state.supply, strict=True)),
            "decks": lambda: {
                str(t): list(d) for t, d in zip(tables.tiers, state.decks, strict=True)
            },
            "market": lambda: {
                str(t): list(r) for t, r in zip(tables.tiers, state.market, strict=True)
            },
            "tiles": lambda: {
                s.name: list(t) for s, t in zip(model.tile_sets, state.tiles, strict=True)
            },
            "hidden": lambda: sorted(state.hidden),
            "card_values": lambda: self.card_values(state),
            "board": lambda: [None if k is None else tables.tokens[k] for k in state.board],
            "bag": lambda: dict(zip(tables.tokens, state.bag, strict=True)),
            "draws": lambda: state.draws,
            "seats": lambda: [self.seat_json(seat) for seat in state.seats],
        }

    def seat_json(self, seat: Seat) -> Json:
        """A seat's JSON form: each seat field of the schema, in its order."""
        zones = self.tables.model.zones
        write: dict[str, Callable[[], Value]] = {
            "tokens": lambda: self.nonzero(seat.tokens),
            "zones": lambda: {z.name: list(c) for z, c in zip(zones, seat.zones, strict=True)},
            "did": lambda: list(seat.did),
        }
        return {f.key: write[f.key]() for f in self.schema.seat_fields}

    def card_values(self, state: State) -> Json:
        """Each card value, for the cards whose value is not the initial one."""
        initial = self.tables.initial_card_values()
        return {
            value.name: {
                str(card): v
                for card, (v, first) in enumerate(zip(values, start, strict=True))
                if v != first
            }
            for value, values, start in zip(
                self.tables.model.card_values, state.card_values, initial, strict=True
            )
        }

    def follow_json(self, state: State, viewer: int | None) -> list[Json]:
        """The follow-up decisions waiting, as `pending` shows them: each its
        move's name and the names it carries; a viewer other than the mover
        sees a hidden card as its deck."""

        def value(v: Value, kind: str) -> Value:
            if kind.startswith("list:"):
                return [value(x, kind[5:]) for x in v]
            if kind == "card" and viewer not in (None, state.current) and v in state.hidden:
                return {DECK: self.tables.tier(v)}
            if kind == "vector":
                return list(v)
            return v

        shown = []
        for index, values in state.follow:
            site = self.tables.follow_ups[index]
            names = {
                name: value(v, identities.value_kind(t))
                for (name, t), v in zip(site.bound, values, strict=True)
            }
            shown.append({"decision": site.name, "names": names})
        return shown

    def from_json(self, data: Json, complete: bool = False) -> State:
        """A state from its JSON form; ValueError, naming what is wrong, if
        it is not a state of this edition (state_reader.py)."""
        return self.reader.state(data, complete)

    def view(self, state: State, player: int) -> Json:
        """The JSON form as `player` may see it: deck sizes only, and the
        hidden cards of the others as the deck they came from; ValueError
        for a player who is not a seat (a bool is not one)."""
        if type(player) is not int or not 0 <= player < state.players:
            raise ValueError(f"player must be a seat from 0 to {state.players - 1}, not {player!r}")
        tables, zones = self.tables, self.tables.model.zones
        data = self.to_json(state)
        data["decks"] = {str(t): len(d) for t, d in zip(tables.tiers, state.decks, strict=True)}

        def seen(card: int, owner: int) -> Value:
            if owner != player and card in state.hidden:
                return {DECK: tables.tier(card)}
            return card

        owners = {
            c: p
            for p, seat in enumerate(state.seats)
            for z, cards in zip(zones, seat.zones, strict=True)
            if z.content == "cards"
            for c in cards
        }
        for p, seat in enumerate(data["seats"]):
            for z in zones:
                if z.content == "cards":
                    seat["zones"][z.name] = [seen(c, p) for c in seat["zones"][z.name]]
        data["hidden"] = [c for c in data["hidden"] if owners.get(c) == player]
        for field in self.schema.fields:
            if field.seen == "nobody":
                data[field.key] = None
        if state.follow:
            data["pending"] = self.follow_json(state, player)
        return data

    # ------------------------------------------------------------ actions

    def action_to_json(self, action: Action) -> Json:
        """An action's JSON form (docs/engine.md, "Actions")."""
        name = action[0]
        signature = self.tables.signatures.get(name)
        if signature is None:
            raise ValueError(f"unknown action '{name}'")
        data: Json = {"action": name}
        if name in self.tables.steps:  # a decision: {"tokens": counts} or {"tile": n}
            ((key, kind),) = signature
            data[key] = self.nonzero(action[1]) if kind == "tokens" else action[1]
            return data
        for (choice, kind), value in zip(signature, action[1:], strict=False):
            if kind == "pay":
                data["pay"] = self.nonzero(value)
            elif kind.startswith("set:"):
                data[choice] = [_element_to_json(v) for v in value]
            else:
                data[choice] = _element_to_json(value)
        return data

    def action_from_json(self, data: Json) -> Action:
        """An action from its JSON form; ValueError if it is not one."""
        try:
            name = data["action"]
            signature = self.tables.signatures.get(name)
            if signature is None:
                raise ValueError(f"unknown action '{name}'")
            if name in self.tables.steps:
                ((key, kind),) = signature
                return (name, self.counts_from(data[key]) if kind == "tokens" else data[key])
            values: list[Value] = []
            for choice, kind in signature:
                if kind == "pay":
                    values.append(self.counts_from(data["pay"]))
                elif kind.startswith("set:"):
                    values.append(tuple(_element_from_json(v) for v in data[choice]))
                else:
                    values.append(_element_from_json(data[choice]))
            return (name, *values)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a {self.edition} action: {error!r}") from error

    # ----------------------------------------------------------- counts

    def nonzero(self, counts: tuple[int, ...]) -> dict[str, int]:
        return {k: n for k, n in zip(self.tables.tokens, counts, strict=True) if n}

    def counts_from(self, counts: Mapping[str, int]) -> tuple[int, ...]:
        tokens = self.tables.tokens
        unknown = set(counts) - set(tokens)
        if unknown:
            raise ValueError(f"unknown token kinds {sorted(unknown)}")
        return tuple(int(counts.get(k, 0)) for k in tokens)


def _element_to_json(value: Value) -> Value:
    if isinstance(value, tuple):  # a deck top: ("deck", tier)
        return {DECK: value[1]}
    return value


def _element_from_json(value: Value) -> Value:
    if isinstance(value, dict):
        deck = value[DECK]
        if isinstance(deck, str) and " " in deck:  # a named market's deck: "NAME TIER"
            return (DECK, deck)
        return (DECK, int(deck))
    return value
