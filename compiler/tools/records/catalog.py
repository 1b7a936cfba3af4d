"""What a record may name in an edition, and the engine that replays it.

Records are generic over editions: everything they know about one (cards,
tiers, tiles, zones, token kinds, the choices of each move) is read here
from the edition's checked model, numbered by frontend/identities.py as
docs/engine.md numbers it, never from names written in this package.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from attrs import frozen

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.lookup import UnknownEdition, find_edition
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.loading import (
    ALL_ENGINE_KINDS,
    EngineKind,
    EngineUnavailable,
    generated_editions,
    load_engine,
)
from splendor_rules.compiler.tools.records.form import RecordError, brief


class EngineNotAvailable(RecordError):
    """The edition is known, but the engine of the kind asked for is not
    there (a native engine not built): the message says why and how to
    build it."""


@frozen
class Catalog:
    """What a record may name in an edition, read from its checked model:
    setups and actions are validated against it before the engine sees them."""

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

    def signature(self, name: str) -> identities.Signature:
        return self.moves[name]

    def unknown_move(self, name: object) -> str:
        """The message for a move the edition does not have."""
        return f"unknown action {brief(name)}; {self.name} has {', '.join(self.moves)}"


def catalog_of(model: m.Edition) -> Catalog:
    """The catalog of a checked edition."""
    tiles = identities.tile_numbering(model)
    decks = identities.decks(model)
    return Catalog(
        name=model.name,
        rule_ids=frozenset(model.rule_ids),
        tokens=tuple(t.name for t in model.tokens),
        caps={t.name: t.cap for t in model.tokens},
        card_tiers=decks.card_tier,
        tiers=decks.tiers,
        face_up=dict(zip(decks.tiers, decks.face_up, strict=True)),
        tile_sets=tiles.set_faces,
        physical=tiles.physical,
        tile_count=tiles.count,
        zones={z.name: (z.content, z.hidden_from_deck) for z in model.zones},
        moves=identities.signatures(model),
    )


def editions() -> list[str]:
    """The editions that have a generated engine."""
    return generated_editions()


@functools.cache
def catalog(edition: str) -> Catalog:
    """The catalog of an edition of the editions folder, found by the name
    its rule file declares (compiled once per process)."""
    try:
        path = find_edition(edition)
    except UnknownEdition as error:
        raise RecordError(str(error)) from error
    compiled = compile_file(path)
    if not compiled.ok or compiled.model is None:
        raise RecordError(f"edition {brief(edition)} does not check: run splendor-rules check")
    return catalog_of(compiled.model)


def engine(edition: str, kind: str = "generated") -> Engine:
    """The engine of an edition of the editions folder (the generated module,
    the interpreter or the native engine: each kind its own), once its rule
    file is found and checks. RecordError, saying why, if there is none (a
    native engine that is not built says how to build it)."""
    if edition not in editions():
        try:
            find_edition(edition)
        except UnknownEdition as error:
            raise RecordError(str(error)) from error
        raise RecordError(f"edition {brief(edition)} has no engine yet: run splendor-rules build")
    known: dict[str, EngineKind] = {k: k for k in ALL_ENGINE_KINDS}
    if kind not in known:
        raise RecordError(f"unknown engine kind {kind!r}: {' or '.join(ALL_ENGINE_KINDS)}")
    catalog(edition)
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
