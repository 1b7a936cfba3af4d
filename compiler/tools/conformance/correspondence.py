"""Name correspondence: how edition a's names, parts, moves, states and
rules map to edition b's.

A comparison runs a position of a on both probe engines, so the position and
every move must be written in b's names: token kinds and zones through the
renames the diff found, tiles through their numbers (frontend/identities.py),
choices by the kind each move signature gives them. The pairs of shared
declarations say which rules are compared at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from attrs import field, frozen

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.editions import Key, describe_key
from splendor_rules.compiler.frontend.identities import action_signature, tile_numbering
from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.conformance.diff import EditionDiff, Overridden
from splendor_rules.compiler.tools.conformance.editions import CannotCompare


@frozen
class Pair:
    """A declaration both editions state as the same rule: inherited
    unchanged, or restated by an override that states the very rule ids it
    replaces (one that keeps some and states others, such as a rule of b's
    own rulebook, declares a change: see amends and changed_of)."""

    key_a: Key
    key_b: Key
    ids: tuple[str, ...]  # the rule ids both state
    restated: bool


def pairs_of(diff: EditionDiff) -> list[Pair]:
    """The declarations both editions state as the same rule."""
    pairs = [Pair(i.key_a, i.key_b, i.ids, False) for i in diff.inherited]
    for o in diff.overridden:
        common = tuple(i for i in o.ids_b if i in o.ids_a)
        if common and not amends(o):
            pairs.append(Pair(o.key_a, o.key_b, common, True))
    return pairs


def amends(o: Overridden) -> bool:
    """An override that keeps some of the rule ids it replaces but not the
    same ones: `override [S-4.1, X-1.1]` of `[S-4.1]` says that b's own rule
    X-1.1 amends S-4.1, a change that b declares, not a claim that S-4.1 is
    unchanged (and seen from b to a, the same override drops X-1.1)."""
    return any(i in o.ids_a for i in o.ids_b) and set(o.ids_a) != set(o.ids_b)


def changed_of(diff: EditionDiff) -> dict[Key, tuple[str, ...]]:
    """b's declarations that b declares changed (overridden but not restated,
    or added), each with its rule ids (or, stating none, its description)."""
    paired = {p.key_b for p in pairs_of(diff)}
    changed = [(o.key_b, o.ids_b) for o in diff.overridden if o.key_b not in paired]
    changed += [(d.key, d.ids) for d in diff.added]
    return {key: ids or (f"({describe_key(key)})",) for key, ids in changed}


@frozen
class _Naming:
    """One direction of the correspondence between two editions' names."""

    tokens: Mapping[str, str]
    actions: Mapping[str, str]
    steps: Mapping[str, str]
    tiles: Mapping[int, int]
    choices: Mapping[str, Mapping[str, str]]  # action -> choice -> token, card or tile
    triggers: frozenset[str] = frozenset()  # shared triggers, whose follow-ups compare
    # action -> the set choices only the other edition's moves have (added
    # empty), and those only this edition's have (dropped: they must be empty)
    added: Mapping[str, tuple[str, ...]] = field(factory=dict)
    dropped: Mapping[str, tuple[str, ...]] = field(factory=dict)

    def action(self, data: Json) -> Json | None:
        """An action in the other edition's JSON form; None if it has none."""
        name = data["action"]
        if self.follow_up(name):  # a trigger's choice: a colour, a card (a number)
            return {key: self.value(value, "token") for key, value in data.items()}
        if name in self.steps:
            out: Json = {"action": self.steps[name]}
            for key, value in data.items():
                if key == "tokens":
                    out[key] = {self.tokens.get(t, t): n for t, n in value.items()}
                elif key == "tile":
                    out[key] = self.tiles.get(value, -1)
            return out
        if name not in self.actions:
            return None
        out = {"action": self.actions[name]}
        choices, dropped = self.choices.get(name, {}), self.dropped.get(name, ())
        if any(data.get(key) for key in dropped):
            return None  # a move the other edition's action cannot make
        for key, value in data.items():
            if key == "pay":
                out[key] = {self.tokens.get(t, t): n for t, n in value.items()}
            elif key != "action" and key not in dropped:
                out[key] = self.value(value, choices.get(key, "card"))
        out.update((key, []) for key in self.added.get(name, ()))
        return out

    def follow_up(self, decision: str) -> bool:
        """Whether a follow-up decision (`trigger.choice`) is a shared trigger's."""
        trigger, dot, _ = decision.partition(".")
        return bool(dot) and trigger in self.triggers

    def pending(self, queue: list[Json]) -> list[Json] | None:
        """Follow-up decisions in the other edition's form; None if one is not
        a shared trigger's."""
        if not all(self.follow_up(d["decision"]) for d in queue):
            return None
        return [
            {**d, "names": {k: self.value(v, "token") for k, v in d["names"].items()}}
            for d in queue
        ]

    def value(self, value: Any, kind: str) -> Any:
        if isinstance(value, list):
            return [self.value(v, kind) for v in value]
        if kind == "token" and isinstance(value, str):
            return self.tokens.get(value, value)
        if kind == "tile" and isinstance(value, int):
            return self.tiles.get(value, -1)
        return value

    def inverse(self, choices: Mapping[str, Mapping[str, str]]) -> _Naming:
        def flip(names: Mapping[Any, Any]) -> dict[Any, Any]:
            return {new: old for old, new in names.items()}

        return _Naming(
            flip(self.tokens),
            flip(self.actions),
            flip(self.steps),
            flip(self.tiles),
            choices,
            self.triggers,
            {self.actions[name]: keys for name, keys in self.dropped.items()},
            {self.actions[name]: keys for name, keys in self.added.items()},
        )


def _choice_kinds(edition: m.Edition) -> dict[str, dict[str, str]]:
    """For each action, what each choice picks: a token, a card or a tile
    (one or several: a set of tokens is "token" too)."""
    return {
        action.name: {
            choice: kind.removeprefix("set:") for choice, kind in action_signature(action)
        }
        for action in edition.actions
    }


def _unset_choices(
    a: m.Edition, b: m.Edition, actions: Mapping[str, str]
) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """For each action of a whose moves b's action makes too: the set choices
    only b's moves have, and those only a's have (a move of one is a move of
    the other with those empty). An action whose moves differ otherwise is
    left out: its moves do not correspond."""
    signatures_b = {x.name: action_signature(x) for x in b.actions}
    unset: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for action in a.actions:
        if action.name not in actions:
            continue
        mine, theirs = action_signature(action), signatures_b[actions[action.name]]
        only_b = [(choice, kind) for choice, kind in theirs if (choice, kind) not in mine]
        only_a = [(choice, kind) for choice, kind in mine if (choice, kind) not in theirs]
        if all(kind.startswith("set:") for _, kind in (*only_a, *only_b)):
            unset[action.name] = (tuple(c for c, _ in only_b), tuple(c for c, _ in only_a))
    return unset


class Correspondence:
    """How edition a's names, parts and rules map to edition b's."""

    def __init__(self, diff: EditionDiff, a: m.Edition, b: m.Edition) -> None:
        self.diff, self.a, self.b = diff, a, b
        renamed = diff.renaming("colour", "token")
        if tuple(renamed.get(c, c) for c in a.colours) != b.colours:
            raise CannotCompare(
                f"the colours of {a.name} ({', '.join(a.colours)}) are not those of {b.name} "
                f"({', '.join(b.colours)}) under its renames"
            )
        if dict(a.market.deck_sizes) != dict(b.market.deck_sizes):
            raise CannotCompare(f"the decks of {a.name} and {b.name} differ in size")
        if [(k.name, dict(k.deck_sizes)) for k in a.markets] != [
            (k.name, dict(k.deck_sizes)) for k in b.markets
        ]:
            raise CannotCompare(f"the markets of {a.name} and {b.name} differ")
        self.tokens = self._names("colour token", [t.name for t in a.tokens], b.tokens)
        self.zones = self._names("zone", [z.name for z in a.zones], b.zones)
        self.a_only_tokens = [t.name for t in a.tokens if t.name not in self.tokens]
        both = {(v.name, v.type) for v in a.card_values} & {(v.name, v.type) for v in b.card_values}
        self.card_values = [v.name for v in b.card_values if (v.name, v.type) in both]
        self.a_only_values = [v.name for v in a.card_values if v.name not in self.card_values]
        self.b_only_values = [v.name for v in b.card_values if v.name not in self.card_values]
        self.b_only_tokens = [t.name for t in b.tokens if t.name not in self.tokens.values()]
        self.pairs = pairs_of(diff)
        self.paired_b = {p.key_b for p in self.pairs}
        self.restated = {i for p in self.pairs if p.restated for i in p.ids}
        self.changed = changed_of(diff)
        self.removed = {d.key: d.ids or (f"({describe_key(d.key)})",) for d in diff.removed}
        self.changed_ids = {
            i for ids in [*self.changed.values(), *self.removed.values()] for i in ids
        }
        self.tiles_shared = self._tiles_shared()
        actions = self._names("action", [x.name for x in a.actions], b.actions)
        self.unset = _unset_choices(a, b, actions)  # the actions whose moves correspond
        self.forward = _Naming(
            self.tokens,
            actions,
            self._names("step", [x.name for x in a.steps], b.steps),
            self._tile_map(),
            _choice_kinds(a),
            frozenset(name for kind, name in self.paired_b if kind == "trigger" and name),
            {name: only_b for name, (only_b, _) in self.unset.items()},
            {name: only_a for name, (_, only_a) in self.unset.items()},
        )
        self.backward = self.forward.inverse(_choice_kinds(b))
        self.tile_zones = {z.name for z in b.zones if z.content == "tiles"}
        self.tile_zones_a = {z.name for z in a.zones if z.content == "tiles"}

    def _names(self, kinds: str, names: list[str], parts: Iterable[Any]) -> dict[str, str]:
        """a's name -> b's, for the parts both have (after b's renames)."""
        renaming = self.diff.renaming(*kinds.split())
        there = {p.name for p in parts}
        return {n: renaming.get(n, n) for n in names if renaming.get(n, n) in there}

    def _tiles_shared(self) -> bool:
        """Tiles stay in play only when every tile set and majority tile is a
        shared rule, in the same order in both: tile numbers then agree."""
        keys_a = [("tiles", t.name) for t in self.a.tile_sets]
        keys_a += [("majority", x.name) for x in self.a.majorities]
        keys_b = [("tiles", t.name) for t in self.b.tile_sets]
        keys_b += [("majority", x.name) for x in self.b.majorities]
        by_a = {p.key_a: p.key_b for p in self.pairs}
        sizes_a = [len(t.rows) for t in self.a.tile_sets]
        sizes_b = [len(t.rows) for t in self.b.tile_sets]
        return [by_a.get(k) for k in keys_a] == keys_b and sizes_a == sizes_b

    def _tile_map(self) -> dict[int, int]:
        """a's tile numbers -> b's, for the tiles that may be held: all when
        tiles are shared, else the majority tiles both editions have."""
        numbers_a, numbers_b = tile_numbering(self.a), tile_numbering(self.b)
        if self.tiles_shared:
            return {n: n for n in range(numbers_a.count)}
        return {
            numbers_a.majority_tile[x.name]: numbers_b.majority_tile[x.name]
            for x in self.a.majorities
            if ("majority", x.name) in self.paired_b
        }

    def ids_of(self, kinds: Iterable[str], names: Iterable[str] | None = None) -> list[str]:
        """The rule ids of the shared declarations of these kinds (and names,
        in b); an action or step that states none is named instead."""
        wanted = set(names) if names is not None else None
        found: list[str] = []
        for p in self.pairs:
            kind, name = p.key_b
            if kind in kinds and (wanted is None or name in wanted):
                found += p.ids or ([f"({describe_key(p.key_b)})"] if kind in _LABELLED else [])
        return found

    def changed_ids_of(self, kind: str, name: str) -> list[str]:
        """The rule ids (or description) of b's declaration of this kind and
        name if b declares it changed, else none."""
        return list(self.changed.get((kind, name), ()))

    # ------------------------------------------------------------- states

    def position(self, data: Json, extra_supply: Mapping[str, int], edition: str) -> Json | None:
        """A state of a in b's JSON form, b's own token kinds given
        `extra_supply`; None if the state has a part b lacks."""
        pending = data["pending"]
        if isinstance(pending, list):  # follow-up decisions, of shared triggers only
            pending = self.forward.pending(pending)
            if pending is None:
                return None
        elif pending is not None:
            if pending not in self.forward.steps:
                return None
            pending = self.forward.steps[pending]
        seats = self.seats(data)
        values = data.get("card_values", {})
        if seats is None or any(values.get(v) for v in self.a_only_values):
            return None
        supply = {self.tokens[t]: n for t, n in data["supply"].items() if t in self.tokens}
        supply.update(extra_supply)
        tiles: dict[str, list[int]] = {t.name: [] for t in self.b.tile_sets}
        if self.tiles_shared:
            renaming = self.diff.renaming("tiles")
            tiles = {renaming.get(k, k): list(v) for k, v in data["tiles"].items()}
        for seat in seats:
            seat["zones"] = {**{z.name: [] for z in self.b.zones}, **seat["zones"]}
        converted = {
            "edition": edition,
            **{k: data[k] for k in COPIED},
            "pending": pending,
            "supply": supply,
            "tiles": tiles,
            "seats": seats,
        }
        if self.b.card_values:  # the values both editions have; b's own ones unset
            converted["card_values"] = {
                v.name: values.get(v.name, {}) if v.name in self.card_values else {}
                for v in self.b.card_values
            }
        return converted

    def seats(self, data: Json) -> list[Json] | None:
        """a's seats in b's names; None if one holds what b lacks."""
        seats = []
        tokens, zones, actions, tiles = self.tokens, self.zones, self.forward.actions, self.tile_map
        for seat in data["seats"]:
            if any(t not in tokens for t in seat["tokens"]):
                return None
            mine: Json = {}
            for zone, items in seat["zones"].items():
                there = zones.get(zone)
                if there is None:
                    if items:
                        return None
                elif there in self.tile_zones:
                    if any(t not in tiles for t in items):
                        return None
                    mine[there] = [tiles[t] for t in items]
                else:
                    mine[there] = items
            seats.append(
                {
                    "tokens": {tokens[t]: n for t, n in seat["tokens"].items()},
                    "zones": mine,
                    "did": [actions[x] for x in seat["did"] if x in actions],
                }
            )
        return seats

    @property
    def tile_map(self) -> Mapping[int, int]:
        return self.forward.tiles


# The fields of a state copied as they are from one edition's form to the other's.
COPIED = (
    *("players", "first_player", "current_player", "turn", "over", "last_round"),
    *("decks", "market", "hidden"),
)

# Shared declarations named in the report when they state no rule id.
_LABELLED = {"action", "step", "end", "trigger"}
