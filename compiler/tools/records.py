"""Game records: a game or a rules scenario as JSON, replayed against an engine.

A record is the portable, engine-independent form of a game: the setup
(edition, players, seed, first player, optionally a patched or a full
starting state), the actions in order and what must hold along the way. The
same record can be replayed on the generated engine and on the interpreter,
which is what makes it useful as a test: docs/records.md is the reference.

The module is generic over editions: everything it knows about an edition
(cards, tiers, tiles, zones, token kinds, the choices of each action) comes
from the edition's checked model and the engine's API, never from names
written here.

Exit codes of the commands: 0 every record holds, 1 a record does not hold
(an action refused, an expectation not met), 2 a record cannot be read (bad
JSON, an unknown edition, action, card or token kind, a wrong player count,
an impossible setup) or the command line is wrong.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder

Json = Any  # a value read from or written to JSON
Engine = Any  # a module (or object) with the engine API of docs/engine.md

# Keys of a step that are the record's, not the action's.
STEP_KEYS = frozenset({"expect", "illegal", "note", "do"})
RECORD_KEYS = frozenset(
    {
        "title",
        "rules",
        "edition",
        "players",
        "seed",
        "first_player",
        "state",
        "setup",
        "actions",
        "expect",
        "description",
        "notes",
        "bots",
    }
)
REQUIRED_KEYS = ("title", "rules", "edition", "players", "seed", "actions")
CHECK_KEYS = (
    "scores",
    "winners",
    "is_over",
    "current_player",
    "pending",
    "last_round",
    "turn",
    "supply",
    "holdings",
    "market",
    "market_sizes",
    "deck_sizes",
    "tiles",
    "tile_counts",
    "hidden",
    "legal",
    "legal_count",
    "legal_includes",
    "legal_excludes",
    "seen_by",
)
_IDS = re.compile(r"^\s*([A-Z]+-\d+(?:\.\d+)*[a-z]?(?:\s*,\s*[A-Z]+-\d+(?:\.\d+)*[a-z]?)*)\s*:")
_SHORT_TOKEN = re.compile(r"\s*(\[|\]|\{|\}|,|:|-?\d+|[A-Za-z_]\w*)")


class RecordError(Exception):
    """A record that cannot be read or set up: the record is wrong, not the
    engine. `step` is the 1-based step it concerns, if any."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.step = step

    def __str__(self) -> str:
        return f"step {self.step}: {self.message}" if self.step is not None else self.message


# ------------------------------------------------------------ the edition


@dataclass(frozen=True)
class Catalog:
    """What a record may name in an edition, read from its checked model:
    setups and actions are validated against it before the engine sees them."""

    name: str
    rule_ids: frozenset[str]
    tokens: tuple[str, ...]
    caps: Mapping[str, int | None]
    card_tiers: tuple[int, ...]  # by card number
    tiers: tuple[int, ...]
    face_up: int
    tile_sets: Mapping[str, tuple[int, ...]]  # the face numbers of each set
    physical: Mapping[int, tuple[str, Json]]  # face -> its physical tile
    tile_count: int
    zones: Mapping[str, tuple[str, bool]]  # name -> (content, hides deck cards)
    actions: Mapping[str, tuple[tuple[str, str], ...]]  # name -> (choice, kind) in order
    decisions: Mapping[str, str]  # decision step -> "tokens" or "tile"

    def signature(self, name: str) -> tuple[tuple[str, str], ...]:
        if name in self.decisions:
            kind = self.decisions[name]
            return ((kind, kind),)
        return self.actions[name]


def _element_kind(t: m.Type) -> str:
    if t.kind in ("set", "list") and t.element is not None:
        return t.element.kind
    return t.kind


def _signature(action: m.Action) -> tuple[tuple[str, str], ...]:
    choices: list[tuple[str, str]] = []
    for statement in action.body or ():
        if isinstance(statement, m.Choose):
            choices.append((statement.name, _element_kind(statement.sources[0].type)))
        elif isinstance(statement, m.ChooseDistinct):
            choices.append((statement.name, "set:" + _element_kind(statement.source.type)))
        elif isinstance(statement, m.Pay):
            choices.append(("pay", "pay"))
    return tuple(choices)


def catalog_of(model: m.Edition) -> Catalog:
    """The catalog of a checked edition, numbered as docs/engine.md numbers it."""
    tile_sets: dict[str, tuple[int, ...]] = {}
    physical: dict[int, tuple[str, Json]] = {}
    number = 0
    for table in model.tile_sets:
        faces = []
        for row in table.rows:
            faces.append(number)
            physical[number] = (table.name, row[table.sides_by] if table.sides_by else number)
            number += 1
        tile_sets[table.name] = tuple(faces)
    for majority in model.majorities:
        physical[number] = (majority.name, number)
        number += 1
    decisions: dict[str, str] = {}
    for step in model.steps:
        if isinstance(step, m.TokenLimit):
            decisions[step.name] = "tokens"
        elif isinstance(step, m.Claim):
            decisions[step.name] = "tile"
    group = model.market.group_by
    return Catalog(
        name=model.name,
        rule_ids=frozenset(model.rule_ids),
        tokens=tuple(t.name for t in model.tokens),
        caps={t.name: t.cap for t in model.tokens},
        card_tiers=tuple(int(row[group]) for row in model.cards.rows),  # type: ignore[arg-type]
        tiers=tuple(sorted(model.market.deck_sizes)),
        face_up=model.market.face_up,
        tile_sets=tile_sets,
        physical=physical,
        tile_count=number,
        zones={z.name: (z.content, z.hidden_from_deck) for z in model.zones},
        actions={a.name: _signature(a) for a in model.actions},
        decisions=decisions,
    )


def editions() -> list[str]:
    """The editions that have a generated engine."""
    generated = importlib.import_module("splendor_rules.generated")
    names: list[str] = generated.editions()
    return names


@functools.cache
def catalog(edition: str) -> Catalog:
    """The catalog of a shipped edition (compiled once per process)."""
    path = editions_folder() / f"{edition}.rules"
    compiled = compile_file(path)
    if not compiled.ok or compiled.model is None or compiled.model.name != edition:
        raise RecordError(f"edition {edition!r} has no rule file that checks ({path.name})")
    return catalog_of(compiled.model)


@functools.cache
def engine(edition: str, kind: str = "generated") -> Engine:
    """The engine of an edition: the generated module, or the interpreter."""
    known = editions()
    if edition not in known:
        raise RecordError(f"unknown edition {edition!r}; the editions are {', '.join(known)}")
    if kind == "generated":
        return importlib.import_module("splendor_rules.generated").load_edition(edition)
    if kind != "interpreted":
        raise RecordError(f"unknown engine kind {kind!r}: generated or interpreted")
    try:
        interpreter = importlib.import_module("splendor_rules.compiler.runtime.interpreter")
        return interpreter.load_interpreted(edition)
    except Exception as error:  # optional and maybe unfinished: report, never crash
        raise RecordError(f"the interpreted engine is not available: {error}") from error


def illegal_action_class(eng: Engine) -> type[Exception]:
    """The engine's IllegalAction: an attribute of a generated module, of the
    interpreter's module otherwise."""
    cls = getattr(eng, "IllegalAction", None)
    if cls is None:
        cls = getattr(sys.modules[type(eng).__module__], "IllegalAction", None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        raise RecordError("the engine has no IllegalAction")
    return cls


# ----------------------------------------------------------------- actions


def _is_int(value: Json) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_short(text: str, cat: Catalog) -> dict[str, Json]:
    """An action in the short form (`buy 59 {blue:3,black:2}`) as its JSON form.

    Values, in the order of the action's choices: a number (card or tile), a
    word (colour or token kind), `deck:N` (the top of tier N), `[a,b]` (a set),
    `{kind:n,...}` (a payment or returned tokens)."""
    tokens: list[str] = []
    position = 0
    while position < len(text.rstrip()):
        match = _SHORT_TOKEN.match(text, position)
        if match is None:
            raise RecordError(f"cannot read {text[position:].strip()!r} in action {text!r}")
        tokens.append(match.group(1))
        position = match.end()
    if not tokens or not re.fullmatch(r"[A-Za-z_]\w*", tokens[0]):
        raise RecordError(f"an action starts with its name: {text!r}")
    name, rest = tokens[0], tokens[1:]

    def value(i: int) -> tuple[Json, int]:
        if i >= len(rest):
            raise RecordError(f"unfinished action {text!r}")
        token = rest[i]
        if token == "[":
            items: list[Json] = []
            i += 1
            while i < len(rest) and rest[i] != "]":
                item, i = value(i)
                items.append(item)
                if i < len(rest) and rest[i] == ",":
                    i += 1
            if i >= len(rest):
                raise RecordError(f"unclosed [ in action {text!r}")
            return items, i + 1
        if token == "{":
            counts: dict[str, int] = {}
            i += 1
            while i < len(rest) and rest[i] != "}":
                if i + 2 >= len(rest) or rest[i + 1] != ":" or not _is_number(rest[i + 2]):
                    raise RecordError(f"write token counts as {{kind:n,...}} in {text!r}")
                counts[rest[i]] = int(rest[i + 2])
                i += 3
                if i < len(rest) and rest[i] == ",":
                    i += 1
            if i >= len(rest):
                raise RecordError(f"unclosed {{ in action {text!r}")
            return counts, i + 1
        if token == "deck" and rest[i + 1 : i + 2] == [":"]:
            if i + 2 >= len(rest) or not _is_number(rest[i + 2]):
                raise RecordError(f"write a deck top as deck:TIER in {text!r}")
            return {"deck": int(rest[i + 2])}, i + 3
        if _is_number(token):
            return int(token), i + 1
        if token in "[]{},:":
            raise RecordError(f"unexpected {token!r} in action {text!r}")
        return token, i + 1

    values: list[Json] = []
    i = 0
    while i < len(rest):
        item, i = value(i)
        values.append(item)
    if name not in cat.actions and name not in cat.decisions:
        raise RecordError(_unknown_action(name, cat))
    signature = cat.signature(name)
    if len(values) != len(signature):
        wanted = ", ".join(choice for choice, _ in signature) or "nothing"
        raise RecordError(
            f"{name} takes {len(signature)} value(s) ({wanted}); {text!r} gives {len(values)}"
        )
    data: dict[str, Json] = {"action": name}
    for (choice, _), item in zip(signature, values, strict=True):
        data[choice] = item
    return data


def _is_number(token: str) -> bool:
    return re.fullmatch(r"-?\d+", token) is not None


def _unknown_action(name: Json, cat: Catalog) -> str:
    known = ", ".join([*cat.actions, *cat.decisions])
    return f"unknown action {name!r}; {cat.name} has {known}"


def short_form(data: Mapping[str, Json]) -> str:
    """An action's JSON form in the short form, for messages and prompts."""

    def show(value: Json) -> str:
        if isinstance(value, dict) and set(value) == {"deck"}:
            return f"deck:{value['deck']}"
        if isinstance(value, dict):
            return "{" + ",".join(f"{k}:{n}" for k, n in value.items()) + "}"
        if isinstance(value, list | tuple):
            return "[" + ",".join(show(v) for v in value) + "]"
        return str(value)

    parts = [str(data.get("action"))]
    parts.extend(show(v) for k, v in data.items() if k != "action" and k not in STEP_KEYS)
    return " ".join(parts)


def _check_counts(counts: Json, cat: Catalog, what: str) -> None:
    if not isinstance(counts, dict):
        raise RecordError(f"{what} must be an object of token counts, not {counts!r}")
    for kind, count in counts.items():
        if kind not in cat.tokens:
            raise RecordError(
                f"unknown token kind {kind!r} in {what}; the kinds are {', '.join(cat.tokens)}"
            )
        if not _is_int(count) or count < 0:
            raise RecordError(f"{what}: {kind} must be a count of 0 or more, not {count!r}")


def _check_card(value: Json, cat: Catalog, what: str) -> None:
    if isinstance(value, dict):
        if set(value) != {"deck"} or value["deck"] not in cat.tiers:
            tiers = ", ".join(str(t) for t in cat.tiers)
            raise RecordError(f"{what}: {value!r} is no deck top; the decks are {tiers}")
        return
    if not _is_int(value) or not 0 <= value < len(cat.card_tiers):
        raise RecordError(
            f"{what}: unknown card {value!r}; cards are numbered 0 to {len(cat.card_tiers) - 1}"
        )


def _check_tile(value: Json, cat: Catalog, what: str) -> None:
    if not _is_int(value) or not 0 <= value < cat.tile_count:
        raise RecordError(
            f"{what}: unknown tile {value!r}; tiles are numbered 0 to {cat.tile_count - 1}"
        )


def _check_value(value: Json, kind: str, cat: Catalog, what: str) -> None:
    if kind.startswith("set:"):
        if not isinstance(value, list):
            raise RecordError(f"{what} must be a list, not {value!r}")
        for item in value:
            _check_value(item, kind[4:], cat, what)
    elif kind in ("pay", "tokens"):
        _check_counts(value, cat, what)
    elif kind == "card":
        _check_card(value, cat, what)
    elif kind == "tile":
        _check_tile(value, cat, what)
    elif kind in ("colour", "token"):
        if value not in cat.tokens:
            raise RecordError(
                f"{what}: unknown token kind {value!r}; the kinds are {', '.join(cat.tokens)}"
            )
    elif kind == "int" and not _is_int(value):
        raise RecordError(f"{what} must be a number, not {value!r}")


def action_data(step: Json, cat: Catalog) -> dict[str, Json]:
    """A step's action in JSON form, validated: known name, every choice
    given with a value of its kind, no stray key. A set of token kinds may be
    written in any order: it is put in the edition's token order, the order
    the engines give it in."""
    if isinstance(step, str):
        step = parse_short(step, cat)
    if not isinstance(step, dict):
        raise RecordError(f"a step is an action object or a short-form string, not {step!r}")
    if "do" in step:
        if "action" in step:
            raise RecordError("a step has either 'action' or 'do', not both")
        return action_data(step["do"], cat)
    name = step.get("action")
    if not isinstance(name, str):
        raise RecordError(f"a step needs an 'action' name: {step!r}")
    if name not in cat.actions and name not in cat.decisions:
        raise RecordError(_unknown_action(name, cat))
    signature = cat.signature(name)
    data = {k: v for k, v in step.items() if k not in STEP_KEYS}
    stray = sorted(set(data) - {"action"} - {choice for choice, _ in signature})
    if stray:
        raise RecordError(f"{name} has no choice {', '.join(map(repr, stray))}")
    for choice, kind in signature:
        if choice not in data:
            raise RecordError(f"{name} needs a value for {choice!r}")
        _check_value(data[choice], kind, cat, f"{name} {choice}")
        if kind in ("set:colour", "set:token"):
            data[choice] = sorted(data[choice], key=cat.tokens.index)
    return data


def to_action(data: Mapping[str, Json], eng: Engine) -> tuple[Any, ...]:
    """The engine's action tuple of a validated JSON action."""
    try:
        action: tuple[Any, ...] = eng.action_from_json(dict(data))
    except (ValueError, KeyError, TypeError) as error:
        raise RecordError(f"the engine cannot read {short_form(data)!r}: {error}") from error
    return action


def canonical(action: tuple[Any, ...], eng: Engine) -> dict[str, Json]:
    """An engine action in the engine's JSON form, with plain lists."""
    data: dict[str, Json] = json.loads(json.dumps(eng.action_to_json(action)))
    return data


# ------------------------------------------------------------------ setup


def _seat_index(key: Json, players: int, what: str) -> int:
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise RecordError(f"{what}: seat {key!r} is not a seat number") from None
    if not 0 <= seat < players or isinstance(key, bool):
        raise RecordError(f"{what}: seat {key!r} is not a seat of {players} players")
    return seat


def _seats(patch: Json, players: int, what: str) -> dict[int, Json]:
    if isinstance(patch, list):
        if len(patch) > players:
            raise RecordError(f"{what}: {len(patch)} seats for {players} players")
        return dict(enumerate(patch))
    if isinstance(patch, dict):
        return {_seat_index(key, players, what): value for key, value in patch.items()}
    raise RecordError(f"{what} must be a list or an object keyed by seat")


def _tier_key(key: Json, cat: Catalog, what: str) -> int:
    try:
        tier = int(key)
    except (TypeError, ValueError):
        tier = -1
    if tier not in cat.tiers:
        tiers = ", ".join(str(t) for t in cat.tiers)
        raise RecordError(f"{what}: unknown tier {key!r}; the tiers are {tiers}")
    return tier


class _Places:
    """Where the patch puts each card and each physical tile: each only once."""

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.cards: dict[int, str] = {}
        self.tiles: dict[tuple[str, Json], tuple[int, str]] = {}

    def card(self, card: Json, where: str) -> int:
        _check_card(card, self.cat, f"setup {where}")
        if isinstance(card, dict):
            raise RecordError(f"setup {where}: name a card by its number, not {card!r}")
        if card in self.cards:
            raise RecordError(
                f"setup: card {card} is in two places: {self.cards[card]} and {where}"
            )
        self.cards[card] = where
        number: int = card
        return number

    def tile(self, tile: Json, where: str) -> int:
        _check_tile(tile, self.cat, f"setup {where}")
        key = self.cat.physical[tile]
        if key in self.tiles:
            other, at = self.tiles[key]
            same = "" if other == tile else f" (tile {other} is its other face)"
            raise RecordError(f"setup: tile {tile} is in two places{same}: {at} and {where}")
        self.tiles[key] = (tile, where)
        number: int = tile
        return number


def apply_setup(state: dict[str, Json], patch: Json, cat: Catalog) -> dict[str, Json]:
    """The state (JSON form, after new_game) with the record's setup patch
    applied: see docs/records.md. Anything impossible is a RecordError."""
    if not isinstance(patch, dict):
        raise RecordError("setup must be an object")
    stray = sorted(set(patch) - {"supply", "seats", "market", "decks", "tiles", "current_player"})
    if stray:
        raise RecordError(f"setup has no key {', '.join(map(repr, stray))}")
    players: int = state["players"]
    state = json.loads(json.dumps(state))
    places = _Places(cat)

    seats = _seats(patch.get("seats", {}), players, "setup seats")
    held: dict[int, dict[str, int]] = {}
    zones: dict[int, dict[str, list[int]]] = {}
    hidden: set[int] = set()
    for seat, part in seats.items():
        if not isinstance(part, dict):
            raise RecordError(f"setup seat {seat} must be an object")
        for key, value in part.items():
            where = f"seat {seat} {key}"
            if key == "tokens":
                _check_counts(value, cat, f"setup {where}")
                for kind, count in value.items():
                    cap = cat.caps[kind]
                    if cap is not None and count > cap:
                        raise RecordError(f"setup {where}: at most {cap} {kind} per player")
                held[seat] = dict(value)
            elif key in cat.zones:
                if not isinstance(value, list):
                    raise RecordError(f"setup {where} must be a list")
                content = cat.zones[key][0]
                place = places.card if content == "cards" else places.tile
                zones.setdefault(seat, {})[key] = [place(v, where) for v in value]
            elif key == "hidden":
                if not isinstance(value, list):
                    raise RecordError(f"setup {where} must be a list of cards")
                hidden.update(value)
            else:
                known = ", ".join(["tokens", "hidden", *cat.zones])
                raise RecordError(f"setup seat {seat}: no key {key!r}; the keys are {known}")
    for seat, part in seats.items():
        for card in part.get("hidden", ()):
            in_hiding = any(
                card in zones.get(seat, {}).get(name, ()) for name, z in cat.zones.items() if z[1]
            )
            if not in_hiding:
                raise RecordError(
                    f"setup seat {seat} hidden: card {card!r} is not in a zone of seat {seat} "
                    "that hides cards taken from a deck"
                )

    rows = _patch_by_tier(patch.get("market", {}), cat, "market")
    decks = _patch_by_tier(patch.get("decks", {}), cat, "decks")
    for tier, row in rows.items():
        if len(row) != cat.face_up:
            raise RecordError(f"setup market {tier}: a row has {cat.face_up} slots, not {len(row)}")
        for card in row:
            if card is not None:
                _in_tier(places.card(card, f"market {tier}"), tier, cat, "market")
    for tier, cards in decks.items():
        for card in cards:
            if card is None:
                raise RecordError(f"setup decks {tier}: a deck holds cards, not null")
            _in_tier(places.card(card, f"deck {tier}"), tier, cat, "decks")

    tiles = patch.get("tiles", {})
    if not isinstance(tiles, dict):
        raise RecordError("setup tiles must be an object keyed by tile set")
    for name, faces in tiles.items():
        if name not in cat.tile_sets:
            known = ", ".join(cat.tile_sets) or "none"
            raise RecordError(f"setup tiles: unknown tile set {name!r}; the sets are {known}")
        if not isinstance(faces, list):
            raise RecordError(f"setup tiles {name} must be a list")
        for face in faces:
            places.tile(face, f"{name} in play")
            if face not in cat.tile_sets[name]:
                raise RecordError(f"setup tiles {name}: tile {face} is not a {name}")

    # Cards: each placed card leaves where the new game put it.
    placed = set(places.cards)
    for tier in cat.tiers:
        key = str(tier)
        old_row: list[int | None] = state["market"][key]
        deck: list[int] = (
            list(decks[tier])
            if tier in decks
            else [k for k in state["decks"][key] if k not in placed]
        )
        if tier in rows:
            row = list(rows[tier])
            if tier not in decks:
                displaced = [k for k in old_row if k is not None and k not in placed]
                deck = displaced + deck  # back under the deck: its top is unchanged
        else:
            row = [None if k is not None and k in placed else k for k in old_row]
            for slot, card in enumerate(old_row):
                if card is not None and row[slot] is None:
                    if tier in decks:
                        raise RecordError(
                            f"setup: card {card} leaves market row {tier} while deck {tier} is "
                            f"given; give market row {tier} too"
                        )
                    row[slot] = deck.pop() if deck else None
        state["market"][key] = row
        state["decks"][key] = deck

    # Tiles: the given sets are exact; a tile placed with a seat leaves play.
    for name in cat.tile_sets:
        if name in tiles:
            state["tiles"][name] = list(tiles[name])
        else:
            state["tiles"][name] = [
                t for t in state["tiles"][name] if cat.physical[t] not in places.tiles
            ]

    # Tokens: what the seats are given comes out of the supply, unless the
    # supply of that kind is given.
    supply = patch.get("supply", {})
    _check_counts(supply, cat, "setup supply")
    for seat, counts in held.items():
        state["seats"][seat]["tokens"] = {k: n for k, n in counts.items() if n}
    for kind in cat.tokens:
        if kind in supply:
            state["supply"][kind] = supply[kind]
            continue
        taken = sum(counts.get(kind, 0) for counts in held.values())
        left = state["supply"][kind] - taken
        if left < 0:
            raise RecordError(
                f"setup: the seats are given {taken} {kind} but the supply has only "
                f"{state['supply'][kind]}; give setup supply {kind} explicitly"
            )
        state["supply"][kind] = left
    for seat, named in zones.items():
        for name, items in named.items():
            state["seats"][seat]["zones"][name] = items
    state["hidden"] = sorted(hidden)

    if "current_player" in patch:
        current = patch["current_player"]
        if not _is_int(current) or not 0 <= current < players:
            raise RecordError(f"setup current_player {current!r} is not a seat of {players}")
        state["current_player"] = current
    return state


def _patch_by_tier(value: Json, cat: Catalog, what: str) -> dict[int, list[Json]]:
    if not isinstance(value, dict):
        raise RecordError(f"setup {what} must be an object keyed by tier")
    out: dict[int, list[Json]] = {}
    for key, items in value.items():
        tier = _tier_key(key, cat, f"setup {what}")
        if not isinstance(items, list):
            raise RecordError(f"setup {what} {key} must be a list of cards")
        out[tier] = items
    return out


def _in_tier(card: int, tier: int, cat: Catalog, what: str) -> None:
    if cat.card_tiers[card] != tier:
        raise RecordError(
            f"setup {what} {tier}: card {card} is of tier {cat.card_tiers[card]}, not {tier}"
        )


# ----------------------------------------------------------------- records


@dataclass
class Step:
    """One step of a record: the action and what must happen to it."""

    index: int  # 1-based
    data: dict[str, Json]  # the action in JSON form
    action: tuple[Any, ...]
    illegal: tuple[str, ...] | None = None  # rule ids that must refuse it


@dataclass
class Record:
    """A record read and validated, ready to replay."""

    source: str
    title: str
    rules: tuple[str, ...]
    edition: str
    players: int
    seed: int
    first_player: int
    start: Any  # the engine's starting state
    steps: list[Step]
    checks: dict[int, dict[str, Json]] = field(default_factory=dict)  # after step k


def read_json(path: Path) -> Json:
    """The JSON text of a file; RecordError if it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read the file: {error}") from error
    except json.JSONDecodeError as error:
        raise RecordError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from error


def load_record(data: Json, source: str, kind: str = "generated") -> tuple[Record, Engine]:
    """A record (parsed JSON) validated and set up on an engine of `kind`."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    stray = sorted(set(data) - RECORD_KEYS)
    if stray:
        raise RecordError(f"a record has no key {', '.join(map(repr, stray))}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise RecordError(f"a record needs {', '.join(map(repr, missing))}")
    edition = data["edition"]
    if not isinstance(edition, str):
        raise RecordError(f"edition must be a name, not {edition!r}")
    eng = engine(edition, kind)
    cat = catalog(edition)
    title, rules = data["title"], data["rules"]
    if not isinstance(title, str) or not title:
        raise RecordError("title must be a non-empty string")
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise RecordError("rules must be a list of rule ids")
    unknown = [r for r in rules if r not in cat.rule_ids]
    if unknown:
        raise RecordError(f"rule id(s) {', '.join(unknown)} are not rules of edition {edition}")
    players, seed = data["players"], data["seed"]
    first = data.get("first_player", 0)
    for name, value in (("players", players), ("seed", seed), ("first_player", first)):
        if not _is_int(value):
            raise RecordError(f"{name} must be a whole number, not {value!r}")
    if players not in eng.PLAYERS:
        raise RecordError(
            f"{edition} is for {eng.PLAYERS.start} to {eng.PLAYERS.stop - 1} players, not {players}"
        )
    if not 0 <= first < players:
        raise RecordError(f"first_player {first} is not a seat of {players} players")
    if "state" in data and "setup" in data:
        raise RecordError("a record has a 'state' or a 'setup', not both")
    start = _start(data, eng, cat, players, seed, first)

    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    record = Record(source, title, tuple(rules), edition, players, seed, first, start, [])
    for index, raw in enumerate(actions, start=1):
        try:
            record.steps.append(_step(index, raw, cat, eng, record))
        except RecordError as error:
            if error.step is None:
                error.step = index
            raise
    expects = data.get("expect", [])
    if not isinstance(expects, list):
        raise RecordError('expect must be a list of {"step": k, ...} entries')
    for entry in expects:
        if not isinstance(entry, dict) or not _is_int(entry.get("step")):
            raise RecordError(f"an expect entry needs a step number: {entry!r}")
        k = entry["step"]
        if not 0 <= k <= len(record.steps):
            raise RecordError(f"expect: there is no step {k} (0 to {len(record.steps)})")
        body = {key: value for key, value in entry.items() if key != "step"}
        if "illegal" in body:
            if k == 0:
                raise RecordError("expect: 'illegal' names a step from 1 on")
            _set_illegal(record.steps[k - 1], body.pop("illegal"))
        _add_checks(record, k, body, cat, eng)
    return record, eng


def _start(
    data: dict[str, Json], eng: Engine, cat: Catalog, players: int, seed: int, first: int
) -> Any:
    if "state" in data:
        given = data["state"]
        if not isinstance(given, dict):
            raise RecordError("state must be a state in the engine's JSON form")
        if given.get("edition") != cat.name or given.get("players") != players:
            raise RecordError(
                f"state is of {given.get('edition')!r} with {given.get('players')!r} players, "
                f"not of {cat.name!r} with {players}"
            )
        try:
            return eng.from_json(given)
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise RecordError(f"state is not a {cat.name} state: {error}") from error
    try:
        state = eng.new_game(players, seed, first)
    except ValueError as error:
        raise RecordError(str(error)) from error
    if "setup" not in data:
        return state
    patched = apply_setup(eng.to_json(state), data["setup"], cat)
    try:
        return eng.from_json(patched)
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise RecordError(f"the setup gives no valid state: {error}") from error


def _step(index: int, raw: Json, cat: Catalog, eng: Engine, record: Record) -> Step:
    action = to_action(action_data(raw, cat), eng)
    step = Step(index, canonical(action, eng), action)
    if isinstance(raw, dict):
        if "illegal" in raw:
            _set_illegal(step, raw["illegal"])
        if "expect" in raw:
            _add_checks(record, index, raw["expect"], cat, eng)
    return step


def _set_illegal(step: Step, ids: Json) -> None:
    if isinstance(ids, str):
        ids = [part.strip() for part in ids.split(",")]
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i for i in ids):
        raise RecordError(f"illegal names the rule id(s) that refuse the step, not {ids!r}")
    step.illegal = tuple(ids)


def _add_checks(record: Record, k: int, checks: Json, cat: Catalog, eng: Engine) -> None:
    if not isinstance(checks, dict):
        raise RecordError(f"expect after step {k} must be an object")
    stray = sorted(set(checks) - set(CHECK_KEYS))
    if stray:
        raise RecordError(
            f"expect after step {k}: no check {', '.join(map(repr, stray))}; "
            f"the checks are {', '.join(CHECK_KEYS)}"
        )
    checks = dict(checks)
    for key in ("legal", "legal_includes", "legal_excludes"):
        if key not in checks:
            continue
        if not isinstance(checks[key], list):
            raise RecordError(f"expect after step {k}: {key} must be a list of actions")
        try:
            checks[key] = [canonical(to_action(action_data(a, cat), eng), eng) for a in checks[key]]
        except RecordError as error:
            raise RecordError(f"expect after step {k}: {key}: {error.message}") from error
    for key in ("supply",):
        if key in checks:
            _check_counts(checks[key], cat, f"expect {key}")
    for seat, part in _seats(checks.get("holdings", {}), record.players, "expect holdings").items():
        if not isinstance(part, dict):
            raise RecordError(f"expect holdings of seat {seat} must be an object")
        for key, value in part.items():
            if key == "tokens":
                _check_counts(value, cat, f"expect holdings {seat} tokens")
            elif key not in cat.zones:
                raise RecordError(f"expect holdings {seat}: no key {key!r}")
    known = record.checks.setdefault(k, {})
    for key, value in checks.items():
        if key in known and known[key] != value:
            raise RecordError(f"expect after step {k}: two different {key} checks")
        known[key] = value


# ------------------------------------------------------------------ replay


@dataclass
class Failure:
    """Where and how a record does not hold."""

    step: int
    action: str | None
    problems: list[tuple[str, Json, Json]]  # (what, expected, actual)


def leading_ids(message: str) -> tuple[str, ...]:
    """The rule ids an IllegalAction message starts with."""
    match = _IDS.match(message)
    if match is None:
        return ()
    return tuple(part.strip() for part in match.group(1).split(","))


def _actual(check: str, spec: Json, state: Any, eng: Engine) -> tuple[Json, Json]:
    """The expected and the actual value of one check, comparable with ==."""
    data = eng.to_json(state)
    if check == "scores":
        return list(spec), list(eng.scores(state))
    if check == "winners":
        return sorted(spec), sorted(eng.winners(state))
    if check == "is_over":
        return spec, bool(eng.is_over(state))
    if check == "current_player":
        return spec, eng.current_player(state)
    if check in ("pending", "last_round", "turn"):
        return spec, data[check]
    if check == "supply":
        return _full(spec, eng), _full(data["supply"], eng)
    if check == "holdings":
        expected: dict[str, Json] = {}
        actual: dict[str, Json] = {}
        for seat, part in _seats(spec, data["players"], "holdings").items():
            for key, value in part.items():
                label = f"seat {seat} {key}"
                if key == "tokens":
                    expected[label] = _full(value, eng)
                    actual[label] = _full(data["seats"][seat]["tokens"], eng)
                else:
                    expected[label] = list(value)
                    actual[label] = data["seats"][seat]["zones"][key]
        return expected, actual
    if check == "market":
        return (
            {str(t): list(r) for t, r in spec.items()},
            {str(t): data["market"].get(str(t)) for t in spec},
        )
    if check == "deck_sizes":
        return (
            {str(t): n for t, n in spec.items()},
            {str(t): len(data["decks"].get(str(t), [])) for t in spec},
        )
    if check == "tiles":
        return dict(spec), {name: data["tiles"].get(name) for name in spec}
    if check == "hidden":
        return sorted(spec), data["hidden"]
    if check == "legal":
        legal = [canonical(a, eng) for a in eng.legal_actions(state)]
        return sorted(map(_key, spec)), sorted(map(_key, legal))
    if check == "legal_count":
        return spec, len(eng.legal_actions(state))
    if check in ("legal_includes", "legal_excludes"):
        offered = {_key(canonical(a, eng)) for a in eng.legal_actions(state)}
        wanted = sorted(map(_key, spec))
        if check == "legal_includes":
            return wanted, [a for a in wanted if a in offered]
        return [], [a for a in wanted if a in offered]
    if check == "market_sizes":
        return (
            {str(t): n for t, n in spec.items()},
            {str(t): sum(k is not None for k in data["market"].get(str(t), [])) for t in spec},
        )
    if check == "tile_counts":
        return dict(spec), {name: len(data["tiles"].get(name, [])) for name in spec}
    if check == "seen_by":
        expected, actual = {}, {}
        for viewer, seats in spec.items():
            view = eng.view(state, int(viewer))
            for seat, zones in seats.items():
                for zone, cards in zones.items():
                    label = f"seat {seat} {zone} as seat {viewer} sees it"
                    expected[label] = cards
                    actual[label] = view["seats"][int(seat)]["zones"][zone]
        return expected, actual
    raise AssertionError(check)


def _full(counts: Mapping[str, int], eng: Engine) -> dict[str, int]:
    return {kind: int(counts.get(kind, 0)) for kind in eng.TOKENS}


def _key(action: Mapping[str, Json]) -> str:
    return short_form(action)


def _check(checks: Mapping[str, Json], state: Any, eng: Engine) -> list[tuple[str, Json, Json]]:
    problems = []
    for check in CHECK_KEYS:
        if check in checks:
            try:
                expected, actual = _actual(check, checks[check], state, eng)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
                raise RecordError(f"expect {check}: cannot be checked: {error!r}") from error
            if expected != actual:
                problems.append((check, expected, actual))
    return problems


def replay_record(record: Record, eng: Engine) -> Failure | None:
    """Replay a record; the first step where it does not hold, if any. A
    check that cannot be read against the state is a RecordError."""
    illegal = illegal_action_class(eng)
    state = record.start
    for step in [None, *record.steps]:
        index = 0 if step is None else step.index
        shown = None if step is None else short_form(step.data)
        if step is not None:
            wanted = "applied" if step.illegal is None else f"refused by {', '.join(step.illegal)}"
            try:
                after = eng.apply(state, step.action)
            except illegal as error:
                message = str(error)
                if step.illegal is None or not set(step.illegal) <= set(leading_ids(message)):
                    return Failure(index, shown, [("the action", wanted, f"refused: {message}")])
                after = state
            except Exception as error:  # an engine crash is a finding, not a traceback
                return Failure(index, shown, [("the action", wanted, f"engine error: {error!r}")])
            else:
                if step.illegal is not None:
                    return Failure(index, shown, [("the action", wanted, "applied")])
            state = after
        try:
            problems = _check(record.checks.get(index, {}), state, eng)
        except RecordError as error:
            error.step = index
            raise
        if problems:
            return Failure(index, shown, problems)
    return None


def check_file(path: Path, kind: str = "generated") -> tuple[Record, Failure | None]:
    """Read, set up and replay one record file (RecordError if it is bad)."""
    record, eng = load_record(read_json(path), str(path), kind)
    return record, replay_record(record, eng)


# -------------------------------------------------------------------- play

Bot = Callable[[Any, list[tuple[Any, ...]]], tuple[Any, ...]]


def random_bot(rng: random.Random) -> Bot:
    """Uniform over the legal actions."""

    def choose(state: Any, legal: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        return rng.choice(legal)

    return choose


def human_bot(eng: Engine, seat: int) -> Bot:
    """Ask in the terminal: a number from the list, or an action in short form."""
    cat = catalog(eng.EDITION)

    def choose(state: Any, legal: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        view = eng.view(state, seat)
        click.echo(f"\nseat {seat} to move; scores {list(eng.scores(state))}")
        click.echo(f"supply: {view['supply']}")
        click.echo(f"market: {view['market']}  tiles: {view['tiles']}")
        for p, part in enumerate(view["seats"]):
            click.echo(f"seat {p}: tokens {part['tokens']}, {part['zones']}")
        shown = [short_form(canonical(a, eng)) for a in legal]
        for number, text in enumerate(shown, start=1):
            click.echo(f"  {number:>3}. {text}")
        while True:
            answer = click.prompt("your move", type=str).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            try:
                wanted = short_form(canonical(to_action(parse_short(answer, cat), eng), eng))
            except RecordError as error:
                click.echo(f"  {error}")
                continue
            if wanted in shown:
                return legal[shown.index(wanted)]
            click.echo("  not a legal move here")

    return choose


def play_game(
    eng: Engine,
    players: int,
    seed: int,
    bots: Sequence[str],
    first_player: int = 0,
    max_plies: int = 100_000,
) -> dict[str, Json]:
    """Play a game with the given bots; its record, ending with the final
    scores and winners as expectations so that a replay checks them. The
    record names the determinism rule (E-6.1) when the edition states it:
    replaying it from the seed must give the same game."""
    rng = random.Random(seed)
    seats: list[Bot] = [
        random_bot(rng) if bot == "random" else human_bot(eng, seat)
        for seat, bot in enumerate(bots)
    ]
    state = eng.new_game(players, seed, first_player)
    actions: list[dict[str, Json]] = []
    while not eng.is_over(state) and len(actions) < max_plies:
        legal = eng.legal_actions(state)
        if not legal:
            break
        action = seats[eng.current_player(state)](state, legal)
        state = eng.apply(state, action)
        actions.append(canonical(action, eng))
    final: dict[str, Json] = {
        "step": len(actions),
        "is_over": bool(eng.is_over(state)),
        "scores": list(eng.scores(state)),
        "winners": sorted(eng.winners(state)),
    }
    return {
        "title": f"{eng.EDITION}, {players} players, seed {seed}: {', '.join(bots)}",
        "rules": [r for r in ("E-6.1",) if r in catalog(eng.EDITION).rule_ids],
        "edition": eng.EDITION,
        "players": players,
        "seed": seed,
        "first_player": first_player,
        "bots": list(bots),
        "actions": actions,
        "expect": [final],
    }


def dump_record(record: Mapping[str, Json]) -> str:
    """A record as JSON text a reader can follow: one line per action and per
    expectation, short containers on one line."""
    return _pretty(record, 0, top=True) + "\n"


def _pretty(value: Json, indent: int, top: bool = False) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    fits = len(flat) + indent <= 96 and not top
    if fits or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + _pretty(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [f"{pad}{json.dumps(k)}: {_pretty(v, indent + 2)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


# ---------------------------------------------------------------- commands

_ENGINE_OPTION = click.option(
    "--engine",
    "kind",
    type=click.Choice(["generated", "interpreted"]),
    default="generated",
    show_default=True,
    help="The engine to run: the generated module or the reference interpreter.",
)


@click.command()
@click.argument("edition")
@click.option("--players", "-p", type=int, required=True, help="Player count.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="The setup seed.")
@click.option(
    "--bots",
    default=None,
    help="One per seat, comma-separated: random or human. Default: random for every seat.",
)
@click.option("--first-player", type=int, default=0, show_default=True, help="The first seat.")
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the record here instead of to stdout.",
)
@_ENGINE_OPTION
def play(
    edition: str,
    players: int,
    seed: int,
    bots: str | None,
    first_player: int,
    out: Path | None,
    kind: str,
) -> None:
    """Play a game with bots and write its record (replayable with `replay`)."""
    try:
        eng = engine(edition, kind)
    except RecordError as error:
        raise click.BadParameter(error.message, param_hint="EDITION") from error
    if players not in eng.PLAYERS:
        raise click.BadParameter(
            f"{edition} is for {eng.PLAYERS.start} to {eng.PLAYERS.stop - 1} players",
            param_hint="--players",
        )
    if not 0 <= first_player < players:
        raise click.BadParameter(f"not a seat of {players} players", param_hint="--first-player")
    names = [b.strip() for b in bots.split(",")] if bots else ["random"] * players
    if len(names) != players or any(b not in ("random", "human") for b in names):
        raise click.BadParameter(
            f"give {players} bots, each random or human: {bots!r}", param_hint="--bots"
        )
    text = dump_record(play_game(eng, players, seed, names, first_player))
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"{out}: {len(json.loads(text)['actions'])} actions", err=True)


def _files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(path.glob("*.json"))
            if not found:
                raise click.BadParameter(f"{path} holds no .json record", param_hint="FILES")
            files.extend(found)
        else:
            files.append(path)
    return files


def _show(value: Json) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Print only what fails.")
@_ENGINE_OPTION
def replay(files: tuple[Path, ...], quiet: bool, kind: str) -> None:
    """Replay game records and check every action and expectation.

    A directory stands for the .json records in it. Exit 0 all hold, 1 some
    record does not hold, 2 some record cannot be read.
    """
    ok = failed = bad = 0
    for path in _files(files):
        try:
            record, failure = check_file(path, kind)
        except RecordError as error:
            bad += 1
            click.echo(f"{path}: error: {error}", err=True)
            continue
        if failure is None:
            ok += 1
            if not quiet:
                steps = len(record.steps)
                click.echo(f"{path}: ok ({steps} step{'s' if steps != 1 else ''}): {record.title}")
            continue
        failed += 1
        where = "the start" if failure.step == 0 else f"step {failure.step}"
        click.echo(f"{path}: FAILED at {where}: {record.title}")
        if failure.action is not None:
            click.echo(f"  action:   {failure.action}")
        for what, expected, actual in failure.problems:
            click.echo(f"  {what}:")
            click.echo(f"    expected: {_show(expected)}")
            click.echo(f"    actual:   {_show(actual)}")
    total = ok + failed + bad
    if not quiet or failed or bad:
        click.echo(
            f"{total} record{'s' if total != 1 else ''}: {ok} ok, {failed} failed, {bad} bad"
        )
    sys.exit(2 if bad else 1 if failed else 0)
