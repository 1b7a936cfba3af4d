"""The JSON forms of states and actions, and a player's view of a state
(docs/engine.md, "JSON form of a state" and "Actions"). A state is written
and viewed by walking the fields of its schema (compiler/frontend/schema.py)
with a writer per kind of field, and read back by state_reader.py the same
way; what a move's values are is read from its signature
(compiler/frontend/identities.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend.schema import Field, Kind
from splendor_rules.compiler.runtime.interpreter.state_reader import StateReader, attribute
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
        self.writers = self.kinds()

    # ------------------------------------------------------------- states

    def to_json(self, state: State) -> Json:
        """The state's JSON form (docs/engine.md): each field of the schema,
        in its order, written by the writer of its kind."""
        return {f.key: self.write(f, state, state) for f in self.schema.fields}

    def seat_json(self, state: State, seat: Seat) -> Json:
        """A seat's JSON form: each seat field of the schema, in its order."""
        return {f.key: self.write(f, state, seat) for f in self.schema.seat_fields}

    def write(self, f: Field, state: State, holder: State | Seat) -> Value:
        """A field's value in the JSON form, from the state or seat holding
        it; KeyError for a kind with no writer (a new kind's is in `kinds`)."""
        name = attribute(f.key)
        value = getattr(holder, name) if name is not None else None
        return self.writers[f.kind](f, state, value)

    def kinds(self) -> dict[Kind, Writer]:
        """The writer of each kind of field: its value in the JSON form."""
        return {
            "edition": lambda f, s, v: f.names[0],
            "players": _as_held,
            "seat": _as_held,
            "count": _as_held,
            "flag": _as_held,
            "pending": lambda f, s, v: self.follow_json(s, None) if s.follow else v,
            "token counts": _counts,
            "deck cards": _by_name,
            "market rows": _by_name,
            "tile sets": _by_name,
            "zones": _by_name,
            "hidden cards": lambda f, s, v: sorted(v),
            "card values": lambda f, s, v: self.card_values(s),
            "seats": lambda f, s, v: [self.seat_json(s, seat) for seat in v],
            "actions done": lambda f, s, v: list(v),
            "board cells": lambda f, s, v: [None if k is None else f.names[k] for k in v],
            "generator": _as_held,
        }

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
        """The JSON form as `player` may see it: each field the schema says
        is not seen by everyone shown as it says (a deck by its size; the
        cards taken from a deck into a place seen by its owner only, as
        their deck, to the others); ValueError for a player who is not a
        seat (a bool is not one)."""
        if type(player) is not int or not 0 <= player < state.players:
            raise ValueError(f"player must be a seat from 0 to {state.players - 1}, not {player!r}")
        data = self.to_json(state)
        owners = {
            card: p
            for p, seat in enumerate(data["seats"])
            for f in self.schema.seat_fields
            for place in f.places
            if place.seen == "owner"
            for card in seat[f.key][place.name]
        }

        def seen(card: Value, owner: int) -> Value:
            if owner != player and card in state.hidden:
                return {DECK: self.tables.tier(card)}
            return card

        for f in self.schema.fields:
            if f.seen == "sizes":
                data[f.key] = {name: len(items) for name, items in data[f.key].items()}
            elif f.seen == "owner":  # the hidden cards: the viewer's own
                data[f.key] = [c for c in data[f.key] if owners.get(c) == player]
            elif f.seen == "nobody":  # a board's generator: what the bag gives next
                data[f.key] = None
        for p, seat in enumerate(data["seats"]):
            for f in self.schema.seat_fields:
                for place in f.places:
                    if place.seen == "owner":
                        seat[f.key][place.name] = [seen(c, p) for c in seat[f.key][place.name]]
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


Writer = Callable[[Field, State, Any], Value]  # a field, the state, the value held


def _as_held(f: Field, state: State, value: Any) -> Value:
    return value


def _counts(f: Field, state: State, value: Any) -> Value:
    """A count per token kind; sparse, only those not 0."""
    return {n: k for n, k in zip(f.names, value, strict=True) if k or not f.sparse}


def _by_name(f: Field, state: State, value: Any) -> Value:
    """An object: each entry's name -> its items, as a list."""
    return {n: list(v) for n, v in zip(f.names, value, strict=True)}


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
