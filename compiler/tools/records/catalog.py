"""What a record may name in an edition, and the engine that replays it.

Records are generic over editions: everything they know about one (cards,
tiers, tiles, zones, token kinds, the choices of each move) is read here
from the description its engine carries (docs/engine.md, "Description"),
numbered as docs/engine.md numbers it, never from names written in this
package; the front end is not run again.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.description import describe
from splendor_rules.compiler.frontend.lookup import UnknownEdition, find_edition
from splendor_rules.compiler.runtime.api import Engine, Json
from splendor_rules.compiler.runtime.loading import (
    ALL_ENGINE_KINDS,
    EngineKind,
    EngineUnavailable,
    generated_editions,
    load_engine,
)
from splendor_rules.compiler.tools import loader
from splendor_rules.compiler.tools.records.form import RecordError, brief


class EngineNotAvailable(RecordError):
    """The edition is known, but the engine of the kind asked for is not
    there (a native engine not built): the message says why and how to
    build it."""


@frozen
class Catalog:
    """What a record may name in an edition, read from its engine's
    description: setups and actions are validated against it before the
    engine sees them."""

    name: str
    rule_ids: frozenset[str]
    tokens: tuple[str, ...]
    caps: Mapping[str, int | None]
    card_tiers: tuple[identities.DeckName, ...]  # by card number: its deck's name
    tiers: tuple[identities.DeckName, ...]  # the decks' names (docs/engine.md)
    face_up: Mapping[identities.DeckName, int]  # by deck: the cards its market shows
    tile_sets: Mapping[str, tuple[int, ...]]  # the face numbers of each set
    physical: Mapping[int, tuple[str, object]]  # face -> its physical tile
    tile_count: int
    zones: Mapping[str, tuple[str, bool]]  # name -> (content, hides deck cards)
    moves: Mapping[str, identities.Signature]  # actions, then decisions
    cells: int = 0  # the board's cells (none without a board)
    declinable: frozenset[str] = frozenset()  # the follow-ups whose value may be null

    def signature(self, name: str) -> identities.Signature:
        return self.moves[name]

    def unknown_move(self, name: object) -> str:
        """The message for a move the edition does not have."""
        return f"unknown action {brief(name)}; {self.name} has {', '.join(self.moves)}"


def catalog_of(model: m.Edition) -> Catalog:
    """The catalog of a checked edition (through its description)."""
    return catalog_of_description(describe(model))


def catalog_of_description(description: Json) -> Catalog:
    """The catalog an engine's description gives (docs/engine.md, "Description")."""
    decks = description["decks"]
    card_tiers: list[identities.DeckName] = [0] * description["cards"]["count"]
    for deck in decks:
        for card in deck["cards"]:
            card_tiers[card] = deck["name"]
    tiles = description["tiles"]
    physical: dict[int, tuple[str, object]] = {}
    for tile_set in tiles["sets"]:
        for index, faces in enumerate(tile_set["tiles"]):
            physical.update((face, (tile_set["name"], index)) for face in faces)
    for majority in tiles["majorities"]:
        physical[majority["tile"]] = (majority["name"], majority["tile"])
    return Catalog(
        name=description["edition"],
        rule_ids=frozenset(rule["id"] for rule in description["rules"]),
        tokens=tuple(t["name"] for t in description["tokens"]),
        caps={t["name"]: t["cap"] for t in description["tokens"]},
        card_tiers=tuple(card_tiers),
        tiers=tuple(deck["name"] for deck in decks),
        face_up={deck["name"]: deck["face_up"] for deck in decks},
        tile_sets={s["name"]: tuple(s["faces"]) for s in tiles["sets"]},
        physical=dict(sorted(physical.items())),
        tile_count=tiles["count"],
        zones={
            z["name"]: (z["holds"], z["deck_cards_seen_by"] == "owner")
            for z in description["zones"]
            if z["owner"] == "player"
        },
        moves={
            move["name"]: tuple((name, kind) for name, kind in move["choices"])
            for move in description["moves"]
        },
        cells=_cells(description),
        declinable=frozenset(m["name"] for m in description["moves"] if m.get("declinable")),
    )


def _cells(description: Json) -> int:
    board = description.get("board")
    return int(board["rows"] * board["columns"]) if board else 0


def editions() -> list[str]:
    """The editions that have a generated engine."""
    return generated_editions()


_BY_RULES: dict[tuple[str, str], Catalog] = {}


def engine_catalog(eng: Engine) -> Catalog:
    """The catalog of an engine, from its description (once per edition and
    fingerprint: an engine of a rule file has no name the editions folder knows)."""
    description = eng.DESCRIPTION
    key = (str(description["edition"]), str(description.get("fingerprint")))
    found = _BY_RULES.get(key)
    if found is None:
        found = _BY_RULES[key] = catalog_of_description(description)
    return found


@functools.cache
def catalog(edition: str) -> Catalog:
    """The catalog of an edition of the editions folder, read from its
    generated engine's description (once per process). RecordError, saying
    why, if the edition has no engine."""
    return catalog_of_description(engine(edition).DESCRIPTION)


def engine(edition: str, kind: str = "generated") -> Engine:
    """The engine of an edition named on a command line: a rule file's
    (`tools.loader`, through the cache), or an installed one by name
    (`named_engine`). RecordError, saying why, if there is none."""
    if loader.is_rule_file(edition):
        return _rule_file_engine(edition, kind)
    return named_engine(edition, kind)


def named_engine(edition: str, kind: str = "generated") -> Engine:
    """The engine of an edition of the editions folder (the generated module,
    the interpreter or the native engine: each kind its own), once its rule
    file is found by the name it declares (one file only): what a record's
    `edition` names, never a path. RecordError, saying why, if there is
    none (a native engine that is not built says how to build it)."""
    try:
        find_edition(edition)
    except UnknownEdition as error:
        raise RecordError(
            f"{error} (the edition of a rule file is named by the file: --rules FILE)"
        ) from error
    # the interpreter reads the rule file itself: it needs no generated module
    if kind != "interpreted" and edition not in editions():
        raise RecordError(f"edition {brief(edition)} has no engine yet: run splendor-rules build")
    known: dict[str, EngineKind] = {k: k for k in ALL_ENGINE_KINDS}
    if kind not in known:
        raise RecordError(f"unknown engine kind {kind!r}: {' or '.join(ALL_ENGINE_KINDS)}")
    try:
        return load_engine(edition, known[kind])
    except EngineUnavailable as error:
        # the native loader's message names the kind and how to build it
        said = str(error) if kind == "native" else f"the {kind} engine is not available: {error}"
        raise EngineNotAvailable(said) from error
    except ImportError as error:  # a module there that does not load (built for another source)
        raise EngineNotAvailable(
            f"the {kind} engine of {brief(edition)} does not load ({error}): "
            "run splendor-rules build"
        ) from error


def _rule_file_engine(path: str, kind: str) -> Engine:
    """The engine of a rule file of the kind asked for; RecordError (with the
    file's mistakes, or why there is no engine of that kind) otherwise."""
    known: dict[str, EngineKind] = {k: k for k in ALL_ENGINE_KINDS}
    if kind not in known:
        raise RecordError(f"unknown engine kind {kind!r}: {' or '.join(ALL_ENGINE_KINDS)}")
    try:
        return loader.load(path, known[kind])
    except loader.RuleFileMistakes as error:
        raise RecordError(str(error)) from error
    except EngineUnavailable as error:
        if kind == "native" and Path(path).is_file():
            raise EngineNotAvailable(str(error)) from error
        raise RecordError(str(error)) from error
