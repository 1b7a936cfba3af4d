"""Actions in records: the short form, the JSON form, and their validation.

A record names each move in the JSON form of docs/engine.md or in a short
form (`buy 59 {blue:3,black:2}`). Both are checked here against the
edition's catalog, so that a wrong record is reported as the record's fault
before an engine sees the move.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from splendor_rules.compiler.runtime.api import Action, Engine
from splendor_rules.compiler.tools.records.catalog import Catalog
from splendor_rules.compiler.tools.records.form import (
    MAX_DEPTH,
    MAX_DIGITS,
    STEP_KEYS,
    Json,
    RecordError,
    brief,
    is_int,
)

# A move's name may be a follow-up's, "OWNER.CHOICE" (docs/engine.md).
_SHORT_TOKEN = re.compile(r"\s*(\[|\]|\{|\}|,|:|-?\d+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)")
_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?")
_NUMBER = re.compile(r"-?\d+")


def _is_number(token: str) -> bool:
    return _NUMBER.fullmatch(token) is not None


def _short_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    position, end = 0, len(text.rstrip())
    while position < end:
        match = _SHORT_TOKEN.match(text, position)
        if match is None:
            raise RecordError(
                f"cannot read {brief(text[position:].strip())} in action {brief(text)}"
            )
        token = match.group(1)
        if _is_number(token) and len(token.lstrip("-")) > MAX_DIGITS:
            raise RecordError(f"a number of more than {MAX_DIGITS} digits in {brief(text)}")
        tokens.append(token)
        position = match.end()
    return tokens


class _ShortValues:
    """Reads the values of a short-form action, after its name."""

    def __init__(self, text: str, tokens: list[str]) -> None:
        self.text = text
        self.rest = tokens

    def all(self) -> list[Json]:
        values: list[Json] = []
        i = 0
        while i < len(self.rest):
            item, i = self.value(i)
            values.append(item)
        return values

    def value(self, i: int, depth: int = 0) -> tuple[Json, int]:
        """The value starting at token i, within `depth` sets, and the index after it."""
        rest, text = self.rest, self.text
        if i >= len(rest):
            raise RecordError(f"unfinished action {brief(text)}")
        token = rest[i]
        if token == "[":
            if depth >= MAX_DEPTH:
                raise RecordError(f"sets nested more than {MAX_DEPTH} deep in {brief(text)}")
            return self.items(i + 1, depth + 1)
        if token == "{":
            return self.counts(i + 1)
        if token == "deck" and rest[i + 1 : i + 2] == [":"]:
            # A named market's deck: deck:MARKET:TIER.
            market, colon, tier = [*rest[i + 2 : i + 5], "", "", ""][:3]
            if _NAME.fullmatch(market) and colon == ":" and _is_number(tier):
                return {"deck": f"{market} {int(tier)}"}, i + 5
            if i + 2 >= len(rest) or not _is_number(rest[i + 2]):
                raise RecordError(f"write a deck top as deck:TIER in {brief(text)}")
            return {"deck": int(rest[i + 2])}, i + 3
        if _is_number(token):
            return int(token), i + 1
        if token in "[]{},:":
            raise RecordError(f"unexpected {brief(token)} in action {brief(text)}")
        return token, i + 1

    def items(self, i: int, depth: int) -> tuple[list[Json], int]:
        """`[a,b,...]` from after its `[`, the set `depth` sets deep."""
        rest = self.rest
        items: list[Json] = []
        while i < len(rest) and rest[i] != "]":
            item, i = self.value(i, depth)
            items.append(item)
            if i < len(rest) and rest[i] == ",":
                i += 1
        if i >= len(rest):
            raise RecordError(f"unclosed [ in action {brief(self.text)}")
        return items, i + 1

    def counts(self, i: int) -> tuple[dict[str, int], int]:
        """`{kind:n,...}` from after its `{`."""
        rest = self.rest
        counts: dict[str, int] = {}
        while i < len(rest) and rest[i] != "}":
            if i + 2 >= len(rest) or rest[i + 1] != ":" or not _is_number(rest[i + 2]):
                raise RecordError(f"write token counts as {{kind:n,...}} in {brief(self.text)}")
            counts[rest[i]] = int(rest[i + 2])
            i += 3
            if i < len(rest) and rest[i] == ",":
                i += 1
        if i >= len(rest):
            raise RecordError(f"unclosed {{ in action {brief(self.text)}")
        return counts, i + 1


def parse_short(text: str, cat: Catalog) -> dict[str, Json]:
    """An action in the short form (`buy 59 {blue:3,black:2}`) as its JSON form.

    Values, in the order of the action's choices: a number (card or tile), a
    word (colour or token kind), `deck:N` (the top of tier N; `deck:NAME:N`, of
    a named market's), `[a,b]` (a set),
    `{kind:n,...}` (a payment or returned tokens)."""
    tokens = _short_tokens(text)
    if not tokens or not _NAME.fullmatch(tokens[0]):
        raise RecordError(f"an action starts with its name: {brief(text)}")
    name = tokens[0]
    values = _ShortValues(text, tokens[1:]).all()
    if name not in cat.moves:
        raise RecordError(cat.unknown_move(name))
    signature = cat.signature(name)
    if len(values) != len(signature):
        wanted = ", ".join(choice for choice, _ in signature) or "nothing"
        raise RecordError(
            f"{name} takes {len(signature)} value(s) ({wanted}); {brief(text)} gives {len(values)}"
        )
    data: dict[str, Json] = {"action": name}
    for (choice, _), item in zip(signature, values, strict=True):
        data[choice] = None if item == "none" and name in cat.declinable else item
    return data


def short_form(data: Mapping[str, Json]) -> str:
    """An action's JSON form in the short form, for messages and prompts."""

    def show(value: Json) -> str:
        if isinstance(value, dict) and set(value) == {"deck"}:
            return f"deck:{str(value['deck']).replace(' ', ':')}"  # deck:1, deck:extra:1
        if isinstance(value, dict):
            return "{" + ",".join(f"{k}:{n}" for k, n in value.items()) + "}"
        if isinstance(value, list | tuple):
            return "[" + ",".join(show(v) for v in value) + "]"
        return "none" if value is None else str(value)  # a declined follow-up

    parts = [str(data.get("action"))]
    parts.extend(show(v) for k, v in data.items() if k != "action" and k not in STEP_KEYS)
    return " ".join(parts)


# ------------------------------------------------------------ validation


def check_counts(counts: Json, cat: Catalog, what: str) -> None:
    """Token counts: known kinds, counts of 0 or more."""
    if not isinstance(counts, dict):
        raise RecordError(f"{what} must be an object of token counts, not {brief(counts)}")
    for kind, count in counts.items():
        if kind not in cat.tokens:
            raise RecordError(
                f"unknown token kind {brief(kind)} in {what}; the kinds are {', '.join(cat.tokens)}"
            )
        if not is_int(count) or count < 0:
            raise RecordError(f"{what}: {kind} must be a count of 0 or more, not {brief(count)}")


def check_card(value: Json, cat: Catalog, what: str) -> None:
    """A card number or the top of a deck, `{"deck": TIER}`."""
    if isinstance(value, dict):
        if set(value) != {"deck"} or value["deck"] not in cat.tiers:
            tiers = ", ".join(str(t) for t in cat.tiers)
            raise RecordError(f"{what}: {brief(value)} is no deck top; the decks are {tiers}")
        return
    if not is_int(value) or not 0 <= value < len(cat.card_tiers):
        last = len(cat.card_tiers) - 1
        raise RecordError(f"{what}: unknown card {brief(value)}; cards are numbered 0 to {last}")


def check_tile(value: Json, cat: Catalog, what: str) -> None:
    """A tile number."""
    if not is_int(value) or not 0 <= value < cat.tile_count:
        raise RecordError(
            f"{what}: unknown tile {brief(value)}; tiles are numbered 0 to {cat.tile_count - 1}"
        )


def _check_value(value: Json, kind: str, cat: Catalog, what: str) -> None:
    if kind.startswith("set:"):
        if not isinstance(value, list):
            raise RecordError(f"{what} must be a list, not {brief(value)}")
        for item in value:
            _check_value(item, kind[4:], cat, what)
    elif kind in ("pay", "tokens"):
        check_counts(value, cat, what)
    elif kind == "card":
        check_card(value, cat, what)
    elif kind == "tile":
        check_tile(value, cat, what)
    elif kind == "token":
        if value not in cat.tokens:
            raise RecordError(
                f"{what}: unknown token kind {brief(value)}; the kinds are {', '.join(cat.tokens)}"
            )
    elif kind == "int" and not is_int(value):
        raise RecordError(f"{what} must be a number, not {brief(value)}")


def action_data(step: Json, cat: Catalog) -> dict[str, Json]:
    """A step's action in JSON form, validated: known name, every choice
    given with a value of its kind, no stray key. A set of token kinds may be
    written in any order: it is put in the edition's token order, the order
    the engines give it in."""
    if isinstance(step, str):
        step = parse_short(step, cat)
    if not isinstance(step, dict):
        raise RecordError(f"a step is an action object or a short-form string, not {brief(step)}")
    if "do" in step:
        if "action" in step:
            raise RecordError("a step has either 'action' or 'do', not both")
        return action_data(step["do"], cat)
    name = step.get("action")
    if not isinstance(name, str):
        raise RecordError(f"a step needs an 'action' name: {brief(step)}")
    if name not in cat.moves:
        raise RecordError(cat.unknown_move(name))
    signature = cat.signature(name)
    data = {k: v for k, v in step.items() if k not in STEP_KEYS}
    stray = sorted(set(data) - {"action"} - {choice for choice, _ in signature})
    if stray:
        raise RecordError(f"{name} has no choice {', '.join(map(brief, stray))}")
    for choice, kind in signature:
        if choice not in data:
            raise RecordError(f"{name} needs a value for {brief(choice)}")
        if data[choice] is None and name in cat.declinable:
            continue  # declined (`may choose`): null
        _check_value(data[choice], kind, cat, f"{name} {choice}")
        if kind == "set:token":
            data[choice] = sorted(data[choice], key=cat.tokens.index)
    return data


def to_action(data: Mapping[str, Json], eng: Engine) -> Action:
    """The engine's action tuple of a validated JSON action."""
    try:
        action: Action = eng.action_from_json(dict(data))
    except (ValueError, KeyError, TypeError) as error:
        raise RecordError(
            f"the engine cannot read {brief(short_form(data))}: {brief(error)}"
        ) from error
    return action


def canonical(action: tuple[Any, ...], eng: Engine) -> dict[str, Json]:
    """An engine action in the engine's JSON form, with plain lists."""
    data: dict[str, Json] = json.loads(json.dumps(eng.action_to_json(action)))
    return data
