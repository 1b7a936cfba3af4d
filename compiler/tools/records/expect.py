"""The checks of a record, each value validated against the edition before
any replay: its kind (a list, a seat, a count, ...) and every card, tile,
tier, tile set, zone, seat and step it names.

A check of the wrong shape is the record's mistake, reported as a
RecordError naming the step and the check (`expect after step 3: scores:
...`), never compared: a string where a list belongs would otherwise be
compared as a list of characters and reported as a failing engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from splendor_rules.compiler.frontend.identities import DeckName
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.tools.records.actions import (
    action_data,
    canonical,
    check_card,
    check_counts,
    check_tile,
    to_action,
)
from splendor_rules.compiler.tools.records.catalog import Catalog
from splendor_rules.compiler.tools.records.form import (
    CHECK_KEYS,
    Json,
    RecordError,
    brief,
    is_int,
)
from splendor_rules.compiler.tools.records.setup import by_seat, seat_index


def _kind(value: Json, wanted: type, noun: str, what: str) -> None:
    if not isinstance(value, wanted):
        raise RecordError(f"{what} must be {noun}, not {brief(value)}")


def _count(value: Json, what: str) -> None:
    if not is_int(value) or value < 0:
        raise RecordError(f"{what} must be a count of 0 or more, not {brief(value)}")


def _seat(value: Json, players: int, what: str) -> None:
    if not is_int(value) or not 0 <= value < players:
        raise RecordError(f"{what}: {brief(value)} is not a seat of {players} players")


def _card(value: Json, cat: Catalog, what: str) -> None:
    """A card named by its number (a deck top is no card a state holds)."""
    if isinstance(value, dict):
        raise RecordError(f"{what}: name a card by its number, not {brief(value)}")
    check_card(value, cat, what)


def _items(value: Json, cat: Catalog, content: str, what: str) -> None:
    """The cards or tiles of a zone, by number."""
    _kind(value, list, "a list", what)
    for item in value:
        (_card if content == "cards" else check_tile)(item, cat, what)


def _by_key(value: Json, known: Mapping[str, object], noun: str, what: str) -> dict[str, Json]:
    """An object keyed by tier or by tile set, each key one the edition has."""
    _kind(value, dict, f"an object keyed by {noun}", what)
    for key in value:
        if key not in known:
            names = ", ".join(map(str, known)) or "none"
            raise RecordError(f"{what}: unknown {noun} {brief(key)}; the {noun}s are {names}")
    return dict(value)


def _tiers(cat: Catalog) -> dict[str, DeckName]:
    return {str(tier): tier for tier in cat.tiers}


# ------------------------------------------------------------ the checks

# A validator: (the value, the player count, the catalog, what to call it).
_Validator = Callable[[Json, int, Catalog, str], None]


def _scores(value: Json, players: int, cat: Catalog, what: str) -> None:
    _kind(value, list, f"a list of {players} whole numbers", what)
    if len(value) != players or not all(is_int(score) for score in value):
        raise RecordError(f"{what} must be a list of {players} whole numbers, not {brief(value)}")


def _winners(value: Json, players: int, cat: Catalog, what: str) -> None:
    _kind(value, list, "a list of seats", what)
    for seat in value:
        _seat(seat, players, what)


def _pending(value: Json, players: int, cat: Catalog, what: str) -> None:
    if isinstance(value, list) and value:  # follow-up decisions, as the state's JSON form has them
        for entry in value:
            name = entry.get("decision") if isinstance(entry, dict) else None
            if name not in cat.moves or not isinstance(entry.get("names"), dict):
                raise RecordError(
                    f'{what}: a follow-up decision is {{"decision": move, "names": {{...}}}}, '
                    f"not {brief(entry)}"
                )
        return
    if value is not None and (not isinstance(value, str) or value not in cat.moves):
        raise RecordError(
            f"{what} is null or the name of a step of {cat.name} ({', '.join(cat.moves)}), "
            f"not {brief(value)}"
        )


def _holdings(value: Json, players: int, cat: Catalog, what: str) -> None:
    for seat, part in by_seat(value, players, what).items():
        _kind(part, dict, "an object of tokens and zones", f"{what} of seat {seat}")
        for key, held in part.items():
            if key == "tokens":
                check_counts(held, cat, f"{what} {seat} tokens")
            elif key in cat.zones:
                _items(held, cat, cat.zones[key][0], f"{what} {seat} {key}")
            else:
                known = ", ".join(["tokens", *cat.zones])
                raise RecordError(f"{what} {seat}: no key {brief(key)}; the keys are {known}")


def _market(value: Json, players: int, cat: Catalog, what: str) -> None:
    for tier, row in _by_key(value, _tiers(cat), "tier", what).items():
        _kind(row, list, "a row of cards and nulls", f"{what} {tier}")
        for card in row:
            if card is not None:
                _card(card, cat, f"{what} {tier}")


def _sizes(known: Callable[[Catalog], Mapping[str, object]], noun: str) -> _Validator:
    def sizes(value: Json, players: int, cat: Catalog, what: str) -> None:
        for key, size in _by_key(value, known(cat), noun, what).items():
            _count(size, f"{what} {key}")

    return sizes


def _tiles(value: Json, players: int, cat: Catalog, what: str) -> None:
    for name, tiles in _by_key(value, cat.tile_sets, "tile set", what).items():
        _items(tiles, cat, "tiles", f"{what} {name}")


def _hidden(value: Json, players: int, cat: Catalog, what: str) -> None:
    _items(value, cat, "cards", what)


def _seen_by(value: Json, players: int, cat: Catalog, what: str) -> None:
    """`{viewer: {seat: {zone: [card, tile or deck top, ...]}}}`."""
    _kind(value, dict, "an object keyed by the seat that looks", what)
    for viewer, seats in value.items():
        seen = f"{what} {viewer}"
        seat_index(viewer, players, what)
        _kind(seats, dict, "an object keyed by seat", seen)
        for seat, zones in seats.items():
            seat_index(seat, players, seen)
            zones_of = _by_key(zones, cat.zones, "zone", f"{seen} {seat}")
            for zone, items in zones_of.items():
                _kind(items, list, "a list", f"{seen} {seat} {zone}")
                check = check_card if cat.zones[zone][0] == "cards" else check_tile
                for item in items:
                    check(item, cat, f"{seen} {seat} {zone}")


def _flag(value: Json, players: int, cat: Catalog, what: str) -> None:
    _kind(value, bool, "true or false", what)


def _counted(value: Json, players: int, cat: Catalog, what: str) -> None:
    _count(value, what)


def _board_cells(value: Json, players: int, cat: Catalog, what: str) -> None:
    """`{cell: token kind or null}`, cells by number (`row * columns + column`)."""
    if not cat.cells:
        raise RecordError(f"{what}: {cat.name} has no board")
    _kind(value, dict, "an object keyed by cell number", what)
    for cell, kind in value.items():
        if not (cell.isdigit() and int(cell) < cat.cells):
            raise RecordError(f"{what}: {brief(cell)} is not a cell (0 to {cat.cells - 1})")
        if kind is not None and kind not in cat.tokens:
            raise RecordError(f"{what} {cell}: unknown token kind {brief(kind)}")


def _bag(value: Json, players: int, cat: Catalog, what: str) -> None:
    if not cat.cells:
        raise RecordError(f"{what}: {cat.name} has no bag")
    check_counts(value, cat, what)


_VALIDATORS: dict[str, _Validator] = {
    "scores": _scores,
    "winners": _winners,
    "is_over": _flag,
    "current_player": lambda value, players, cat, what: _seat(value, players, what),
    "pending": _pending,
    "last_round": _flag,
    "turn": _counted,
    "supply": lambda value, players, cat, what: check_counts(value, cat, what),
    "holdings": _holdings,
    "market": _market,
    "market_sizes": _sizes(_tiers, "tier"),
    "deck_sizes": _sizes(_tiers, "tier"),
    "tiles": _tiles,
    "tile_counts": _sizes(lambda cat: cat.tile_sets, "tile set"),
    "hidden": _hidden,
    "legal_count": _counted,
    "seen_by": _seen_by,
    "board": _board_cells,
    "bag": _bag,
}
_ACTION_LISTS = ("legal", "legal_includes", "legal_excludes")
assert set(_VALIDATORS) | set(_ACTION_LISTS) == set(CHECK_KEYS)


def validated_checks(
    checks: Json, k: int, players: int, cat: Catalog, eng: Engine
) -> dict[str, Json]:
    """The checks to make after step k, each validated; lists of actions are
    put in the engine's JSON form. RecordError, naming step and check, if any
    is not of its kind or names what the edition does not have."""
    if not isinstance(checks, dict):
        raise RecordError(f"expect after step {k} must be an object, not {brief(checks)}")
    stray = sorted(set(checks) - set(CHECK_KEYS))
    if stray:
        raise RecordError(
            f"expect after step {k}: no check {', '.join(map(brief, stray))}; "
            f"the checks are {', '.join(CHECK_KEYS)}"
        )
    valid = dict(checks)
    for key, value in checks.items():
        what = f"expect after step {k}: {key}"
        if key in _ACTION_LISTS:
            _kind(value, list, "a list of actions", what)
            try:
                valid[key] = [canonical(to_action(action_data(a, cat), eng), eng) for a in value]
            except RecordError as error:
                raise RecordError(f"{what}: {error.message}") from error
        else:
            _VALIDATORS[key](value, players, cat, what)
    return valid
