"""What the checks of one edition share while they run.

The checks run one after another (see checks/__init__.py); each reads what
the earlier ones found (the colours, the names declared, the tables read) and
adds to it. That state, the diagnostics, and the few lookups every check
makes are kept here, in one object passed to all of them, so that no check
needs another check's class to find a name or report a mistake.
"""

from __future__ import annotations

from typing import Any

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.editions import Entry, Renames, ResolvedEdition
from splendor_rules.compiler.frontend.limits import PLAYERS
from splendor_rules.compiler.frontend.model import Type
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources

MAX_PLAYERS = PLAYERS.high  # amounts are tabled per player count, so the counts are bounded


class Context:
    """The edition being checked, what is known of it so far, and what is
    wrong with it."""

    def __init__(self, edition: ResolvedEdition, sources: Sources) -> None:
        self.edition = edition
        self.sources = sources
        self.entries = edition.entries
        self.diagnostics: list[Diagnostic] = []
        # The declaration being checked: the renames its names pass through,
        # and the rule ids it states (its parts inherit them).
        self.renames = Renames()
        self.current_ids: tuple[str, ...] = ()
        # The edition's names, one namespace for all kinds.
        self.globals: dict[str, tuple[m.RefKind, Type]] = {}
        self.declared_at: dict[str, s.Span] = {}  # where each global name is declared
        self.colours: tuple[str, ...] = ()
        self.cards: m.Table | None = None  # every card table's cards (see card_tables)
        self.card_tables: dict[str, m.Table] = {}  # the named card tables
        self.main_cards: m.Table | None = None  # the unnamed card table alone
        self.markets: list[m.Market] = []  # the named markets
        self.rulebooks: list[tuple[str, tuple[str, ...]]] = []  # checks/ids.py
        self.rule_texts: list[m.RuleText] = []  # checks/ids.py
        self.tile_sets: dict[str, m.Table] = {}
        self.columns: dict[str, dict[str, Type]] = {}  # "cards" or a tile set -> columns
        self.card_values: dict[str, m.CardValue] = {}
        self.text_values: dict[str, dict[str, tuple[str, ...]]] = {}  # same keys: one of
        self.none_columns: dict[str, set[str]] = {}  # same keys: colour or none
        self.zones: dict[str, s.Zone] = {}
        self.majority_names: set[str] = set()
        self.action_names: set[str] = set()
        self.defines: dict[str, Entry] = {}
        self.used_globals: set[str] = set()

    # ---------------------------------------------------------- reporting

    def report(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    # ------------------------------------------------------- declarations

    def of(self, kind: type[Any]) -> list[Entry]:
        return [e for e in self.entries if isinstance(e.decl, kind)]

    def one(self, kind: type[Any]) -> Entry | None:
        """The declaration of a kind every edition has; reported if missing."""
        found = self.of(kind)
        if not found:
            self.report(msgs.missing_declaration(self.edition.span, self.edition.name, kind))
            return None
        return found[0]

    def enter(self, entry: Entry) -> None:
        self.renames = entry.renames
        self.current_ids = tuple(t.text for t in entry.decl.tags if not t.cited)

    def global_name(self, name: s.Name) -> str:
        return self.renames.apply(name.text)

    def title(self, name: str, written: s.StringLit | None) -> str:
        if name in self.edition.titles:
            return self.edition.titles[name]
        return written.value if written is not None else name.replace("_", " ")

    @property
    def player_counts(self) -> range:
        entry = next(iter(self.of(s.Players)), None)
        if entry is None or not isinstance(entry.decl, s.Players):
            return range(0)
        if entry.decl.high > MAX_PLAYERS:  # reported by the players check; table nothing
            return range(0)
        return range(entry.decl.low, entry.decl.high + 1)

    @property
    def found_kinds(self) -> set[str]:
        return {e.key[0] for e in self.entries}

    # -------------------------------------------------------------- names

    def names_of(self, *kinds: str) -> list[str]:
        """The global names of some kinds, in declaration order."""
        return [n for n, (k, _) in self.globals.items() if k in kinds]

    def kind_of(self, name: str) -> str:
        """What a global name names ('zone', 'tiles'...), or '' for nothing."""
        return self.globals[name][0] if name in self.globals else ""

    def zone_holding(self, written: s.Name, name: str, content: str) -> bool:
        """Is name a zone holding `content`? Reports it when not."""
        zone = self.zones.get(name)
        if zone is None:
            self.report(msgs.unknown(written.span, "zone", name, list(self.zones)))
            return False
        if zone.content != content:
            self.report(msgs.zone_content(written.span, name, zone.content, content))
            return False
        return True

    def use_zone(self, written: s.Name, content: str) -> str:
        """The zone a declaration names, which must hold `content`: marked
        used if it does, reported if it does not."""
        zone = self.global_name(written)
        if self.zone_holding(written, zone, content):
            self.used_globals.add(zone)
        return zone
