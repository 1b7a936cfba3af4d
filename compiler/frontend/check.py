"""Checks: a resolved edition -> the checked model (compiler.model).

Resolves every name (through the renames of the editions that inherit it),
types every expression, reads the data files and checks the rule ids. Every
mistake becomes a Diagnostic and checking goes on, so one run reports all of
them; an expression that is wrong gets the type ERROR, which is accepted
everywhere, so that one mistake is not reported again by what contains it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.data import COLUMN_TYPES, TableReader
from splendor_rules.compiler.frontend.editions import (
    Entry,
    Renames,
    ResolvedEdition,
    declared_name,
    describe_key,
)
from splendor_rules.compiler.frontend.model import (
    BOOL,
    CARD,
    COLOUR,
    ERROR,
    INT,
    TEXT,
    TOKEN,
    VECTOR,
    Type,
)
from splendor_rules.compiler.frontend.rule_ids import (
    check_coverage,
    check_rule_ids,
    ids_in_reference,
    meant_ids,
    rule_ids_in,
)
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, did_you_mean

BUILTINS = ("supply", "tokens", "count", "sum", "min", "max", "any", "all", "holds", "did")
DECISIONS = ("pay", "return", "claim")
RESERVED_LOCALS = ("action", "pay", "tokens", "tile")
# One character of a string as written: an escape sequence, or any other character.
_ESCAPE_UNIT = re.compile(
    r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|[0-7]{1,3}|.)|.", re.S
)
MAX_PLAYERS = 100  # amounts are tabled per player count, so the counts are bounded
_PLAYER_REFS = {"zone", "define", "score"}
_KIND_WORDS = {
    "colour": "a colour",
    "token": "a token",
    "zone": "a zone",
    "tiles": "a set of tiles",
    "action": "an action",
    "define": "a definition",
    "majority": "a majority tile",
    "colours": "the set of colours",
    "players": "the number of players",
    "market": "the market",
    "score": "a player's score",
}
# The type of a value read from a column, by the model's column type.
_VALUE_TYPES = {"int": INT, "bool": BOOL, "text": TEXT, "colour": COLOUR, "vector": VECTOR}


class Scope:
    """Local names and whether a player is in context (whose zones, tokens
    and definitions a bare name means)."""

    def __init__(self, parent: Scope | None = None, player: bool | None = None) -> None:
        self.parent = parent
        self.player: bool = player if player is not None else bool(parent and parent.player)
        self.names: dict[str, tuple[Type, s.Span]] = {}
        self.used: set[str] = set()

    def child(self, player: bool | None = None) -> Scope:
        return Scope(self, player)

    def find(self, name: str) -> Scope | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None

    def visible(self) -> Iterator[str]:
        scope: Scope | None = self
        while scope is not None:
            yield from scope.names
            scope = scope.parent


class Checker:
    def __init__(self, edition: ResolvedEdition, sources: Sources) -> None:
        self.edition = edition
        self.sources = sources
        self.diagnostics: list[Diagnostic] = []
        self.renames = Renames()
        self.entries = edition.entries
        self.globals: dict[str, tuple[m.RefKind, Type]] = {}
        self.colours: tuple[str, ...] = ()
        self.cards: m.Table | None = None
        self.tile_sets: dict[str, m.Table] = {}
        self.columns: dict[str, dict[str, Type]] = {}  # "cards" or a tile set -> columns
        self.zones: dict[str, s.Zone] = {}
        self.majority_names: set[str] = set()
        self.action_names: set[str] = set()
        self.defines: dict[str, Entry] = {}
        self.define_types: dict[str, Type] = {}
        self.checked_defines: dict[str, m.Define] = {}
        self.defining: list[str] = []
        self.used_globals: set[str] = set()
        self.current_ids: tuple[str, ...] = ()

    # ------------------------------------------------------------ helpers

    def error(self, message: str, span: s.Span, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic("error", message, span, hint))

    def warn(self, message: str, span: s.Span, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic("warning", message, span, hint))

    def of(self, kind: type[Any]) -> list[Entry]:
        return [e for e in self.entries if isinstance(e.decl, kind)]

    def one(self, kind: type[Any], what: str) -> Entry | None:
        found = self.of(kind)
        if not found:
            self.error(f"edition '{self.edition.name}' declares no {what}", self.edition.span)
            return None
        return found[0]

    def enter(self, entry: Entry) -> None:
        self.renames = entry.renames
        self.current_ids = tuple(t.text for t in entry.decl.tags)

    def global_name(self, name: s.Name) -> str:
        return self.renames.apply(name.text)

    def folder(self, entry: Entry) -> Path:
        return Path(entry.decl.span.file).parent

    def title(self, name: str, written: s.StringLit | None) -> str:
        if name in self.edition.titles:
            return self.edition.titles[name]
        return written.value if written is not None else name.replace("_", " ")

    # -------------------------------------------------------------- run

    def run(self) -> m.Edition | None:
        players = self.check_players()
        self.check_colours()
        self.declare_globals()
        tokens = self.check_tokens()
        self.check_tables()
        zones = self.check_zones()
        market = self.check_market()
        reveals = self.check_reveals()
        for entry in self.of(s.Define):
            self.define_type(entry)
        score = self.check_score()
        actions = self.check_actions()
        triggers = self.check_triggers()
        majorities = self.check_majorities()
        steps = self.check_steps()
        endings = self.check_endings()
        winners = self.check_winners()
        policies = self.check_policies()
        rule_ids = self.check_ids()
        self.warn_unused()
        if any(d.severity == "error" for d in self.diagnostics):
            return None
        assert players and self.cards and market and score and winners
        return m.Edition(
            name=self.edition.name,
            title=self.edition.title,
            file=self.edition.file,
            parent=self.edition.parent.name if self.edition.parent else None,
            players=players,
            colours=self.colours,
            tokens=tokens,
            cards=self.cards,
            tile_sets=tuple(self.tile_sets.values()),
            zones=zones,
            market=market,
            reveals=reveals,
            actions=actions,
            triggers=triggers,
            majorities=majorities,
            steps=steps,
            defines=tuple(
                self.checked_defines[n] for n in self.defines if n in self.checked_defines
            ),
            score=score,
            endings=endings,
            winners=winners,
            policies=policies,
            rule_ids=rule_ids,
        )

    # -------------------------------------------------------- components

    def check_players(self) -> tuple[int, int] | None:
        entry = self.one(s.Players, "player counts ('players 2..4')")
        if entry is None:
            return None
        decl = entry.decl
        assert isinstance(decl, s.Players)
        if not 1 <= decl.low <= decl.high:
            self.error(f"player counts {decl.low}..{decl.high} are empty or below 1", decl.span)
            return None
        if decl.high > MAX_PLAYERS:
            self.error(f"player counts {decl.low}..{decl.high} go above {MAX_PLAYERS}", decl.span)
            return None
        return (decl.low, decl.high)

    @property
    def player_counts(self) -> range:
        entry = next(iter(self.of(s.Players)), None)
        if entry is None or not isinstance(entry.decl, s.Players):
            return range(0)
        if entry.decl.high > MAX_PLAYERS:  # reported by check_players; table nothing
            return range(0)
        return range(entry.decl.low, entry.decl.high + 1)

    def check_colours(self) -> None:
        entry = self.one(s.Colours, "payable colours ('colours a, b, c')")
        if entry is None:
            return
        self.enter(entry)
        assert isinstance(entry.decl, s.Colours)
        names: list[str] = []
        for name in entry.decl.names:
            colour = self.global_name(name)
            if colour in names:
                self.error(f"colour '{colour}' is listed twice", name.span)
            else:
                names.append(colour)
        self.colours = tuple(names)

    def declare_globals(self) -> None:
        """The edition's names, one namespace for all kinds."""

        def add(name: s.Name, kind: m.RefKind, type_: Type, entry: Entry) -> None:
            self.enter(entry)
            text = self.global_name(name)
            if text in BUILTINS or text in ("colours", "players", "market", "score"):
                self.error(f"'{text}' is a built-in name and cannot be declared", name.span)
            elif text in self.globals:
                self.error(f"the name '{text}' is declared twice", name.span)
            else:
                self.globals[text] = (kind, type_)

        self.globals = {c: ("colour", COLOUR) for c in self.colours}
        self.globals.update(
            {
                "colours": ("colours", m.set_of(COLOUR)),
                "players": ("players", INT),
                "market": ("market", m.set_of(CARD)),
                "score": ("score", INT),
            }
        )
        for entry in self.entries:
            decl = entry.decl
            if isinstance(decl, s.Token):
                add(decl.name, "token", TOKEN, entry)
            elif isinstance(decl, s.Zone):
                element = CARD if decl.content == "cards" else m.tile(None)
                add(decl.name, "zone", m.set_of(element), entry)
                self.zones[self.global_name(decl.name)] = decl
            elif isinstance(decl, s.Tiles):
                name = self.global_name(decl.name)
                add(decl.name, "tiles", m.set_of(m.tile(name)), entry)
            elif isinstance(decl, s.Majority):
                add(decl.name, "majority", ERROR, entry)
                self.majority_names.add(self.global_name(decl.name))
            elif isinstance(decl, s.Action):
                add(decl.name, "action", ERROR, entry)
                self.action_names.add(self.global_name(decl.name))
            elif isinstance(decl, s.Define):
                add(decl.name, "define", ERROR, entry)
                self.defines[self.global_name(decl.name)] = entry
        # Steps, endings and triggers are not values, but share the namespace:
        # a rename renames a name whatever it names.
        others: set[str] = set()
        for entry in self.entries:
            decl = entry.decl
            if isinstance(decl, s.Step | s.Ending | s.Trigger):
                self.enter(entry)
                text = self.global_name(decl.name)
                if text in self.globals or text in others:
                    self.error(f"the name '{text}' is declared twice", decl.name.span)
                others.add(text)

    def check_tokens(self) -> tuple[m.TokenKind, ...]:
        supplies = self.check_supply()
        kinds = [
            m.TokenKind(
                rule_ids=(),
                span=self.edition.span,
                name=c,
                title=self.title(c, None),
                role="colour",
                returnable=True,
                cap=None,
                supply=supplies.get(c, {}),
            )
            for c in self.colours
        ]
        for entry in self.of(s.Token):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Token)
            name = self.global_name(decl.name)
            roles = [p for p in decl.properties if p.kind in ("wild", "special")]
            if len(roles) != 1:
                self.error(
                    f"token '{name}' must be exactly one of 'wild' or 'special'", decl.name.span
                )
            returnable, cap = True, None
            returnable_ids: tuple[str, ...] = ()
            cap_ids: tuple[str, ...] = ()
            for prop in decl.properties:
                ids = tuple(t.text for t in prop.tags)
                if prop.kind == "never_returned":
                    returnable, returnable_ids = False, ids + self.current_ids
                elif prop.kind == "at_most":
                    if not prop.amount:
                        self.error("a limit per player must be at least 1", prop.span)
                    cap, cap_ids = prop.amount, ids + self.current_ids
            role: Any = roles[0].kind if roles else "special"
            kinds.append(
                m.TokenKind(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    name=name,
                    title=self.title(name, decl.title),
                    role=role,
                    returnable=returnable,
                    cap=cap,
                    supply=supplies.get(name, {}),
                    returnable_ids=returnable_ids,
                    cap_ids=cap_ids,
                )
            )
            if name not in supplies and "supply" in self.found_kinds:
                self.error(f"the supply has no line for token '{name}'", decl.name.span)
        if sum(k.role == "wild" for k in kinds) > 1:
            self.error("an edition has at most one wild token kind", self.edition.span)
        return tuple(kinds)

    @property
    def found_kinds(self) -> set[str]:
        return {e.key[0] for e in self.entries}

    def check_supply(self) -> dict[str, dict[int, int]]:
        entry = self.one(s.Supply, "supply")
        if entry is None:
            return {}
        self.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Supply)
        result: dict[str, dict[int, int]] = {}
        for line in decl.lines:
            amounts = self.by_players(line.amount)
            if line.target is None:
                targets = list(self.colours)
            else:
                name = self.global_name(line.target)
                kind = self.globals.get(name, ("", ERROR))[0]
                if kind not in ("colour", "token"):
                    self.unknown(line.target, name, "token", self.token_names())
                    continue
                targets = [name]
            for target in targets:
                if target in result:
                    self.error(f"the supply of '{target}' is given twice", line.span)
                result[target] = amounts
        if "each colour" not in [None if ln.target else "each colour" for ln in decl.lines]:
            for colour in self.colours:
                if colour not in result:
                    self.error(f"the supply has no line for colour '{colour}'", decl.span)
        return result

    def token_names(self) -> list[str]:
        return [n for n, (k, _) in self.globals.items() if k in ("colour", "token")]

    def by_players(self, amount: int | s.IntMap) -> dict[int, int]:
        counts = self.player_counts
        if isinstance(amount, int):
            return dict.fromkeys(counts, amount)
        given = dict(amount.entries)
        for count in counts:
            if count not in given:
                self.error(
                    f"no amount for {count} players",
                    amount.span,
                    f"the game is for {counts.start}..{counts.stop - 1} players",
                )
        for count in given:
            if counts and count not in counts:  # no counts: their error is reported
                self.error(
                    f"an amount for {count} players, outside the player counts "
                    f"{counts.start}..{counts.stop - 1}",
                    amount.span,
                )
        return {c: given.get(c, 0) for c in counts}

    def check_tables(self) -> None:
        entry = self.one(s.Cards, "cards ('cards from \"file.csv\" { ... }')")
        if entry is not None:
            self.cards = self.read_table(entry, "cards")
        for entry in self.of(s.Tiles):
            assert isinstance(entry.decl, s.Tiles)
            self.enter(entry)
            name = self.global_name(entry.decl.name)
            table = self.read_table(entry, name)
            if table is not None:
                self.tile_sets[name] = table

    def read_table(self, entry: Entry, name: str) -> m.Table | None:
        decl = entry.decl
        assert isinstance(decl, s.Cards | s.Tiles)
        self.enter(entry)
        self.columns[name] = {
            c.name.text: _VALUE_TYPES[COLUMN_TYPES[c.type.kind]] for c in decl.columns
        }
        reader = TableReader(
            decl,
            self.folder(entry),
            self.colours,
            entry.renames.apply,
            entry.renames.original,
            self.sources,
        )
        seen: set[str] = set()
        for column in decl.columns:
            if column.name.text in seen:
                self.error(f"column '{column.name.text}' is declared twice", column.name.span)
            seen.add(column.name.text)
        table = reader.read(name, self.current_ids)
        self.diagnostics.extend(reader.diagnostics)
        return table

    def check_zones(self) -> tuple[m.Zone, ...]:
        hidden: set[str] = set()
        for entry in self.of(s.Hidden):
            self.enter(entry)
            assert isinstance(entry.decl, s.Hidden)
            for part in entry.decl.parts:
                if part.zone is not None:
                    zone = self.global_name(part.zone)
                    if self.zone_kind(part.zone, zone, "cards"):
                        hidden.add(zone)
                        self.used_globals.add(zone)
        zones = []
        for entry in self.of(s.Zone):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Zone)
            name = self.global_name(decl.name)
            zones.append(
                m.Zone(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    name=name,
                    content=decl.content,
                    hidden_from_deck=name in hidden,
                )
            )
        return tuple(zones)

    def zone_kind(self, written: s.Name, name: str, content: str) -> bool:
        """Is name a zone holding `content`? Reports it when not."""
        zone = self.zones.get(name)
        if zone is None:
            self.unknown(written, name, "zone", list(self.zones))
            return False
        if zone.content != content:
            self.error(f"zone '{name}' holds {zone.content}, not {content}", written.span)
            return False
        return True

    # ------------------------------------------------------------- setup

    def check_market(self) -> m.Market | None:
        entry = self.one(s.Market, "market ('market by tier {1: 40, ...}, 4 face up each')")
        if entry is None:
            return None
        self.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Market)
        sizes = dict(decl.deck_sizes.entries)
        group = decl.group_by.text
        if decl.face_up < 1:
            self.error("the market shows at least 1 card per deck", decl.span)
        if self.cards is not None:
            column = next((c for c in self.cards.columns if c.name == group), None)
            if column is None or column.type != "int":
                self.error(
                    f"the cards have no whole-number column '{group}' to make decks by",
                    decl.group_by.span,
                    did_you_mean(group, [c.name for c in self.cards.columns]),
                )
            else:
                counts: dict[int, int] = {}
                for row in self.cards.rows:
                    value = row[group]
                    assert isinstance(value, int)
                    counts[value] = counts.get(value, 0) + 1
                if counts != sizes:
                    found = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
                    self.error(
                        f"the decks by {group} hold {{{found}}}, not the sizes given",
                        decl.deck_sizes.span,
                    )
        refill = self.of(s.Refill)
        return m.Market(
            rule_ids=self.current_ids,
            span=decl.span,
            group_by=group,
            deck_sizes=sizes,
            face_up=decl.face_up,
            refill=bool(refill),
            refill_ids=tuple(t.text for t in refill[0].decl.tags) if refill else (),
        )

    def check_reveals(self) -> tuple[m.Reveal, ...]:
        reveals = []
        revealed: set[str] = set()
        for entry in self.of(s.Reveal):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Reveal)
            name = self.global_name(decl.tiles)
            count = self.expect(decl.count, Scope(), INT)
            if name not in self.tile_sets:
                if self.globals.get(name, ("",))[0] != "tiles":
                    self.unknown(decl.tiles, name, "tile set", self.tile_names())
                continue
            revealed.add(name)
            sided = self.tile_sets[name].sides_by is not None
            if sided and not decl.random_face:
                self.error(
                    f"tiles '{name}' are double-sided: say which face shows",
                    decl.span,
                    "add ', one random face each'",
                )
            if decl.random_face and not sided:
                self.error(f"tiles '{name}' have one face", decl.span)
            reveals.append(
                m.Reveal(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    tiles=name,
                    count=count,
                    random_face=decl.random_face,
                )
            )
        for name, table in self.tile_sets.items():
            if name not in revealed:
                self.warn(f"tiles '{name}' are never revealed", table.span)
        return tuple(reveals)

    def tile_names(self) -> list[str]:
        return [n for n, (k, _) in self.globals.items() if k == "tiles"]

    # ----------------------------------------------------------- actions

    def check_actions(self) -> tuple[m.Action, ...]:
        actions = []
        fallbacks = 0
        for entry in self.of(s.Action):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Action)
            name = self.global_name(decl.name)
            body = None
            if decl.body is None:
                fallbacks += 1
                if fallbacks > 1:
                    self.error("only one action can be legal only when no other is", decl.span)
            else:
                scope = Scope(player=True)
                body = self.block(decl.body, scope, allow_choices=True)
                self.warn_unused_locals(scope)
                self.check_order(decl.body)
            actions.append(
                m.Action(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    name=name,
                    title=self.title(name, decl.title),
                    body=body,
                )
            )
        if not actions:
            self.error(f"edition '{self.edition.name}' declares no action", self.edition.span)
        return tuple(actions)

    def check_order(self, body: tuple[s.Statement, ...]) -> None:
        """An action states its choices and requirements, then its effects,
        and a payment comes first among the effects: the legal moves are then
        exactly the choices that pass the requirements and can pay."""
        effect: s.Statement | None = None
        paid = False
        for statement in body:
            if isinstance(statement, s.Let | s.Choose | s.ChooseDistinct | s.Require):
                if effect is not None:
                    self.error(
                        "choices and requirements come before the effects",
                        statement.span,
                        f"move it above line {effect.span.line}",
                    )
            elif isinstance(statement, s.Pay):
                if paid:
                    self.error("an action pays at most once", statement.span)
                elif effect is not None:
                    self.error(
                        "the payment comes before the other effects",
                        statement.span,
                        f"move it above line {effect.span.line}",
                    )
                paid = True
                effect = effect or statement
            elif effect is None:
                effect = statement

    def block(
        self, statements: tuple[s.Statement, ...], scope: Scope, allow_choices: bool
    ) -> tuple[m.Statement, ...]:
        return tuple(
            checked
            for statement in statements
            if (checked := self.statement(statement, scope, allow_choices)) is not None
        )

    def statement(self, st: s.Statement, scope: Scope, allow_choices: bool) -> m.Statement | None:
        ids = tuple(t.text for t in st.tags) + self.current_ids
        span = st.span
        if isinstance(st, s.Choose | s.ChooseDistinct) and not allow_choices:
            # Checked as usual after this, so that the name it binds is
            # known and its uses are not reported too.
            self.error(
                "a choice cannot be made here",
                span,
                "choices belong at the top level of an action, not in a trigger or 'if'",
            )
        if isinstance(st, s.Require | s.Pay) and not allow_choices:
            what = "a requirement" if isinstance(st, s.Require) else "a payment"
            self.error(
                f"{what} cannot be made here",
                span,
                f"{what} belongs at the top level of an action, not in a trigger or 'if'",
            )
        if isinstance(st, s.Let):
            value = self.expr(st.value, scope)
            self.bind(scope, st.name, value.type)
            return m.Let(rule_ids=ids, span=span, name=st.name.text, value=value)
        if isinstance(st, s.Choose):
            sources = tuple(self.expr(source, scope) for source in st.sources)
            element = self.common_element(sources, st)
            self.bind(scope, st.name, element)
            return m.Choose(rule_ids=ids, span=span, name=st.name.text, sources=sources)
        if isinstance(st, s.ChooseDistinct):
            count = self.expect(st.count, scope, INT)
            source = self.expr(st.source, scope)
            element = self.element_of(source, st.source.span, sets_only=True)
            self.bind(scope, st.name, m.set_of(element))
            return m.ChooseDistinct(
                rule_ids=ids, span=span, name=st.name.text, count=count, source=source
            )
        if isinstance(st, s.Require):
            condition = self.expect(st.condition, scope, BOOL)
            message = self.message(st.message, scope)
            return m.Require(rule_ids=ids, span=span, condition=condition, message=message)
        if isinstance(st, s.Gain):
            amount = self.expect(st.amount, scope, INT)
            token = self.expr(s.NameRef(span=st.token.span, name=st.token.text), scope)
            if not self.fits(token.type, TOKEN):
                self.error(f"'{st.token.text}' is a {token.type}, not a token kind", st.token.span)
            return m.Gain(rule_ids=ids, span=span, amount=amount, token=token)
        if isinstance(st, s.GainEach):
            amount = self.expect(st.amount, scope, INT)
            tokens = self.expr(st.tokens, scope)
            if not self.fits(tokens.type, m.set_of(TOKEN)):
                self.error(
                    f"gain each needs a set of token kinds, not a {tokens.type}", st.tokens.span
                )
            return m.GainEach(rule_ids=ids, span=span, amount=amount, tokens=tokens)
        if isinstance(st, s.Pay):
            cost = self.expect(st.cost, scope, VECTOR)
            discount = self.expect(st.discount, scope, VECTOR)
            return m.Pay(rule_ids=ids, span=span, cost=cost, discount=discount)
        if isinstance(st, s.Move):
            card = self.expr(s.NameRef(span=st.card.span, name=st.card.text), scope)
            if card.type != CARD and card.type != ERROR:
                self.error(f"'{st.card.text}' is a {card.type}, not a card", st.card.span)
            zone = self.global_name(st.zone)
            if self.zone_kind(st.zone, zone, "cards"):
                self.used_globals.add(zone)
            return m.Move(rule_ids=ids, span=span, card=st.card.text, zone=zone)
        if isinstance(st, s.If):
            condition = self.expect(st.condition, scope, BOOL)
            inner = scope.child()
            body = self.block(st.body, inner, allow_choices=False)
            self.warn_unused_locals(inner)
            return m.If(rule_ids=ids, span=span, condition=condition, body=body)
        raise AssertionError(f"unhandled statement {type(st).__name__}")

    def common_element(self, sources: tuple[m.Expr, ...], st: s.Choose) -> Type:
        element: Type | None = None
        for source, written in zip(sources, st.sources, strict=True):
            this = self.element_of(source, written.span, sets_only=True)
            if element is None or element == ERROR:
                element = this
            elif this != ERROR and this != element:
                self.error(f"cannot choose among both {element} and {this}", written.span)
        return element or ERROR

    def element_of(self, collection: m.Expr, span: s.Span, sets_only: bool = False) -> Type:
        kinds = ("set",) if sets_only else ("set", "list")
        if collection.type == ERROR:
            return ERROR
        if collection.type.kind not in kinds or collection.type.element is None:
            what = "a set" if sets_only else "a set or list"
            self.error(f"expected {what}, found a {collection.type}", span)
            return ERROR
        return collection.type.element

    def message(self, text: s.Message, scope: Scope) -> tuple[str | m.Expr, ...]:
        """A message's text and {expression} parts, checked."""
        parts: list[str | m.Expr] = []
        for part in text.parts:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, s.BrokenPlaceholder):
                self.error(part.problem, part.span, part.hint)
            else:
                parts.append(self.expr(part, scope))
        return tuple(parts)

    def bind(self, scope: Scope, name: s.Name, type_: Type) -> None:
        bound = scope.find(name.text)
        if bound is not None:
            first = bound.names[name.text][1]
            self.error(
                f"'{name.text}' is already bound here",
                name.span,
                f"it is bound at line {first.line}, column {first.column}; choose another name",
            )
            return
        if name.text in BUILTINS:
            self.error(f"'{name.text}' is a built-in name", name.span)
        elif name.text in RESERVED_LOCALS:
            # The JSON form of a move names its choices beside these keys.
            self.error(
                f"'{name.text}' is reserved in the JSON form of moves",
                name.span,
                "choose another name",
            )
        scope.names[name.text] = (type_, name.span)

    def warn_unused_locals(self, scope: Scope) -> None:
        for name, (_, span) in scope.names.items():
            if name not in scope.used:
                self.warn(f"'{name}' is never used", span)

    # ---------------------------------------------------------- triggers

    def check_triggers(self) -> tuple[m.Trigger, ...]:
        triggers = []
        for entry in self.of(s.Trigger):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Trigger)
            zone = self.global_name(decl.zone)
            if self.zone_kind(decl.zone, zone, "cards"):
                self.used_globals.add(zone)
            scope = Scope(player=True)
            self.bind(scope, decl.card, CARD)
            body = self.block(decl.body, scope, allow_choices=False)
            self.warn_unused_locals(scope)
            triggers.append(
                m.Trigger(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    name=self.global_name(decl.name),
                    card=decl.card.text,
                    zone=zone,
                    body=body,
                )
            )
        return tuple(triggers)

    def check_majorities(self) -> tuple[m.Majority, ...]:
        majorities = []
        for entry in self.of(s.Majority):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Majority)
            name = self.global_name(decl.name)
            missing = [
                word
                for word, value in (
                    ("points", decl.points),
                    ("measure", decl.measure),
                    ("threshold", decl.threshold),
                    ("contested after a card enters", decl.event_zone),
                    ("kept in", decl.zone),
                )
                if value is None
            ]
            if missing:
                self.error(f"majority tile '{name}' needs '{missing[0]}'", decl.name.span)
                continue
            assert decl.measure and decl.event_zone and decl.zone
            assert decl.points is not None and decl.threshold is not None
            measure = self.expect(decl.measure, Scope(player=True), INT)
            event_zone = self.global_name(decl.event_zone)
            zone = self.global_name(decl.zone)
            if self.zone_kind(decl.event_zone, event_zone, "cards"):
                self.used_globals.add(event_zone)
            if self.zone_kind(decl.zone, zone, "tiles"):
                self.used_globals.add(zone)
            majorities.append(
                m.Majority(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    name=name,
                    title=self.title(name, decl.title),
                    points=decl.points,
                    measure=measure,
                    threshold=decl.threshold,
                    event_zone=event_zone,
                    ties_keep_holder=decl.ties_keep_holder,
                    zone=zone,
                )
            )
        return tuple(majorities)

    # ------------------------------------------------------------- steps

    def check_steps(self) -> tuple[m.Step, ...]:
        steps: list[m.Step] = []
        for entry in self.of(s.Step):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Step)
            name = self.global_name(decl.name)
            body = decl.body
            ids = self.current_ids
            if name in self.action_names:
                # A decision is a move named after its step.
                self.error(
                    f"step '{name}' has the name of an action",
                    decl.name.span,
                    "a step's decision is a move named after the step",
                )
            if isinstance(body, s.StepLimit):
                if body.limit < 1:
                    self.error("a token limit must be at least 1", body.span)
                steps.append(
                    m.TokenLimit(rule_ids=ids, span=decl.span, name=name, limit=body.limit)
                )
            elif isinstance(body, s.StepClaim):
                tiles = self.global_name(body.tiles)
                if self.globals.get(tiles, ("",))[0] != "tiles":
                    self.unknown(body.tiles, tiles, "tile set", self.tile_names())
                zone = self.global_name(body.zone)
                if self.zone_kind(body.zone, zone, "tiles"):
                    self.used_globals.add(zone)
                scope = Scope(player=True)
                self.bind(scope, body.variable, m.tile(tiles))
                condition = self.expect(body.condition, scope, BOOL)
                steps.append(
                    m.Claim(
                        rule_ids=ids,
                        span=decl.span,
                        name=name,
                        tiles=tiles,
                        variable=body.variable.text,
                        zone=zone,
                        condition=condition,
                    )
                )
            else:
                steps.append(m.EndCheck(rule_ids=ids, span=decl.span, name=name))
        return tuple(steps)

    # --------------------------------------------------------- the end

    def define_type(self, entry: Entry) -> Type:
        """Check a definition once, on first use, so that definitions may use
        each other in any order; a definition that uses itself is an error."""
        decl = entry.decl
        assert isinstance(decl, s.Define)
        name = entry.renames.apply(decl.name.text)
        if name in self.define_types:
            return self.define_types[name]
        if name in self.defining:
            cycle = " -> ".join([*self.defining[self.defining.index(name) :], name])
            self.error(f"definition '{name}' depends on itself ({cycle})", decl.name.span)
            return ERROR
        saved = (self.renames, self.current_ids)
        self.enter(entry)
        self.defining.append(name)
        value = self.expr(decl.value, Scope(player=True))
        self.defining.pop()
        self.renames, self.current_ids = saved
        self.define_types[name] = value.type
        self.checked_defines[name] = m.Define(
            rule_ids=tuple(t.text for t in decl.tags), span=decl.span, name=name, value=value
        )
        return value.type

    def check_score(self) -> m.Define | None:
        entry = self.one(s.Score, "score ('score = ...')")
        if entry is None:
            return None
        self.enter(entry)
        assert isinstance(entry.decl, s.Score)
        value = self.expect(entry.decl.value, Scope(player=True), INT)
        return m.Define(rule_ids=self.current_ids, span=entry.decl.span, name="score", value=value)

    def check_endings(self) -> tuple[m.Ending, ...]:
        endings = []
        for entry in self.of(s.Ending):
            self.enter(entry)
            decl = entry.decl
            assert isinstance(decl, s.Ending)
            condition = self.expect(decl.condition, Scope(), BOOL)
            endings.append(
                m.Ending(
                    rule_ids=self.current_ids,
                    span=decl.span,
                    name=self.global_name(decl.name),
                    mode=decl.mode,
                    condition=condition,
                )
            )
        if not endings:
            self.error(
                f"edition '{self.edition.name}' declares no way for the game to end",
                self.edition.span,
                "add 'end NAME: after the round once ...'",
            )
        return tuple(endings)

    def check_winners(self) -> m.Winners | None:
        entry = self.one(s.Winners, "winners ('winners: highest score, ties share')")
        if entry is None:
            return None
        self.enter(entry)
        decl = entry.decl
        assert isinstance(decl, s.Winners)
        among = self.expect(decl.among, Scope(player=True), BOOL) if decl.among else None
        keys = []
        for key in decl.keys:
            value = self.expr(key.value, Scope(player=True))
            if value.type not in (INT, BOOL, ERROR):
                self.error(
                    f"players are ranked by numbers or conditions, not a {value.type}",
                    key.value.span,
                )
            keys.append(m.RankKey(order=key.order, value=value))
        return m.Winners(rule_ids=self.current_ids, span=decl.span, among=among, keys=tuple(keys))

    def check_policies(self) -> tuple[m.Policy, ...]:
        policies = []
        for entry in self.entries:
            decl = entry.decl
            self.enter(entry)
            ids = self.current_ids
            if isinstance(decl, s.TurnOrder):
                policies.append(m.Policy(rule_ids=ids, span=decl.span, name="turn order"))
            elif isinstance(decl, s.Randomness):
                policies.append(m.Policy(rule_ids=ids, span=decl.span, name="randomness"))
            elif isinstance(decl, s.Hidden):
                values = tuple(
                    p.kind if p.zone is None else f"{p.kind}:{self.global_name(p.zone)}"
                    for p in decl.parts
                )
                policies.append(
                    m.Policy(rule_ids=ids, span=decl.span, name="hidden", values=values)
                )
            elif isinstance(decl, s.Decisions):
                for name in decl.names:
                    if name.text not in DECISIONS:
                        self.error(
                            f"unknown decision '{name.text}'",
                            name.span,
                            did_you_mean(name.text, DECISIONS)
                            or f"the decisions are {', '.join(DECISIONS)}",
                        )
                policies.append(
                    m.Policy(
                        rule_ids=ids,
                        span=decl.span,
                        name="decisions",
                        values=tuple(n.text for n in decl.names),
                    )
                )
        return tuple(policies)

    def check_ids(self) -> dict[str, s.Span]:
        ids = [rule_id for entry in self.entries for rule_id in rule_ids_in(entry.decl)]
        stated, diagnostics = check_rule_ids(ids)
        self.diagnostics.extend(diagnostics)
        reference = self.of(s.Reference)
        if reference:
            decl = reference[0].decl
            assert isinstance(decl, s.Reference)
            path = self.folder(reference[0]) / decl.path.value
            try:
                known = ids_in_reference(path)
            except (OSError, ValueError):  # ValueError: not UTF-8, or a NUL in the path
                self.error(f"cannot read the reference '{decl.path.value}'", decl.path.span)
            else:
                self.diagnostics.extend(
                    check_coverage(
                        stated,
                        known,
                        decl.prefixes,
                        decl.span,
                        lambda rule_id: self.where_dropped(rule_id, decl),
                        meant_ids(ids),
                    )
                )
        return stated

    def where_dropped(self, rule_id: str, reference: s.Reference) -> tuple[s.Span, str | None]:
        """Where to report a rule id of the reference that no declaration
        states: at the remove or override of this edition that dropped it, else
        at this edition's name when the reference is inherited."""
        for change in self.edition.changes:
            if rule_id in change.old_ids and rule_id not in change.new_ids:
                what = describe_key(change.key)
                parent = self.edition.parent.name if self.edition.parent else "the parent"
                if change.kind == "remove":
                    return change.span, f"it was stated by the {what} of edition '{parent}'"
                entry = next((e for e in self.entries if e.key == change.key), None)
                name = declared_name(entry.decl) if entry is not None else None
                return (name.span if name is not None else change.span), (
                    f"the {what} of edition '{parent}' stated it; tag this one [{rule_id}]"
                )
        if reference.span.file != self.edition.file:
            return self.edition.span, f"the reference is declared at {reference.span}"
        return reference.span, None

    def warn_unused(self) -> None:
        for name, entry in self.defines.items():
            if name not in self.used_globals:
                decl = entry.decl
                assert isinstance(decl, s.Define)
                self.warn(f"definition '{name}' is never used", decl.name.span)
        for name, zone in self.zones.items():
            if name not in self.used_globals:
                self.warn(f"zone '{name}' is never used", zone.name.span)

    # ------------------------------------------------------- expressions

    def fits(self, actual: Type, expected: Type) -> bool:
        """May a value of type `actual` stand where `expected` is wanted?"""
        if ERROR in (actual, expected):
            return True
        if actual == expected:
            return True
        if expected == TOKEN and actual == COLOUR:
            return True
        if actual.kind == expected.kind and actual.kind in ("set", "list"):
            assert actual.element is not None and expected.element is not None
            return self.fits(actual.element, expected.element)
        if actual.kind == expected.kind == "tile":
            return expected.tiles is None
        return False

    def expect(self, written: s.Expr, scope: Scope, expected: Type) -> m.Expr:
        value = self.expr(written, scope)
        if not self.fits(value.type, expected):
            self.error(f"expected a {expected}, found a {value.type}", written.span)
        return value

    def unknown(self, written: s.Name | s.Node, name: str, what: str, known: list[str]) -> None:
        self.error(f"unknown {what} '{name}'", written.span, did_you_mean(name, known))

    def expr(self, e: s.Expr, scope: Scope) -> m.Expr:
        handler: Callable[[Any, Scope], m.Expr] = getattr(self, f"expr_{type(e).__name__}")
        return handler(e, scope)

    def expr_IntLit(self, e: s.IntLit, scope: Scope) -> m.Expr:
        return m.Const(type=INT, span=e.span, value=e.value)

    def expr_BoolLit(self, e: s.BoolLit, scope: Scope) -> m.Expr:
        return m.Const(type=BOOL, span=e.span, value=e.value)

    def expr_DeckTops(self, e: s.DeckTops, scope: Scope) -> m.Expr:
        return m.DeckTops(type=m.set_of(CARD), span=e.span)

    def expr_NameRef(self, e: s.NameRef, scope: Scope) -> m.Expr:
        local = scope.find(e.name)
        if local is not None:
            local.used.add(e.name)
            return m.Ref(type=local.names[e.name][0], span=e.span, kind="variable", name=e.name)
        name = self.renames.apply(e.name)
        if name not in self.globals:
            known = [*scope.visible(), *self.globals]
            self.error(f"unknown name '{e.name}'", e.span, did_you_mean(e.name, known))
            return m.Ref(type=ERROR, span=e.span, kind="variable", name=e.name)
        kind, type_ = self.globals[name]
        self.used_globals.add(name)
        if kind in ("majority", "action"):
            function = "holds" if kind == "majority" else "did"
            self.error(f"'{name}' is a {kind}, not a value", e.span, f"write {function}({name})")
            return m.Ref(type=ERROR, span=e.span, kind=kind, name=name)
        if kind in _PLAYER_REFS and not scope.player:
            self.no_player(name, e.span)
        if kind == "define" and name in self.defines:
            type_ = self.define_type(self.defines[name])
        return m.Ref(type=type_, span=e.span, kind=kind, name=name)

    def no_player(self, what: str, span: s.Span) -> None:
        self.error(
            f"'{what}' belongs to a player, and no player is meant here",
            span,
            "read it for each player with any(player: ...) or all(player: ...)",
        )

    def expr_Attribute(self, e: s.Attribute, scope: Scope) -> m.Expr:
        subject = self.expr(e.subject, scope)
        attribute = e.attribute.text
        kind = subject.type
        many = kind.kind in ("set", "list")
        item = kind.element if many and kind.element else kind
        if item == ERROR:
            return m.Attr(type=ERROR, span=e.span, subject=subject, attribute=attribute)
        columns = self.attributes_of(item)
        if columns is None:
            self.error(f"a {kind} has no attributes", e.attribute.span)
            return m.Attr(type=ERROR, span=e.span, subject=subject, attribute=attribute)
        if attribute not in columns:
            self.error(
                f"a {item} has no attribute '{attribute}'",
                e.attribute.span,
                did_you_mean(attribute, columns),
            )
            return m.Attr(type=ERROR, span=e.span, subject=subject, attribute=attribute)
        type_ = columns[attribute]
        return m.Attr(
            type=m.list_of(type_) if many else type_,
            span=e.span,
            subject=subject,
            attribute=attribute,
        )

    def attributes_of(self, item: Type) -> dict[str, Type] | None:
        """A card's or tile's attributes, from the declared columns (so that
        a data file that fails to load does not make every use fail too)."""
        if item == CARD:
            return self.columns.get("cards", {})
        if item.kind != "tile":
            return None
        if item.tiles is not None:
            return self.columns.get(item.tiles, {})
        # Any tile: what every tile set and every majority tile has.
        common: dict[str, Type] | None = {"points": INT} if self.majority_names else None
        for name, types in self.columns.items():
            if name == "cards":
                continue
            common = (
                types if common is None else {k: v for k, v in common.items() if types.get(k) == v}
            )
        return common or {}

    def expr_Index(self, e: s.Index, scope: Scope) -> m.Expr:
        subject = self.expect(e.subject, scope, VECTOR)
        index = self.expect(e.index, scope, COLOUR)
        return m.Index(type=INT, span=e.span, subject=subject, index=index)

    def expr_Negate(self, e: s.Negate, scope: Scope) -> m.Expr:
        operand = self.expect(e.operand, scope, INT)
        return m.Unary(type=INT, span=e.span, op="-", operand=operand)

    def expr_Not(self, e: s.Not, scope: Scope) -> m.Expr:
        operand = self.expect(e.operand, scope, BOOL)
        return m.Unary(type=BOOL, span=e.span, op="not", operand=operand)

    def expr_Binary(self, e: s.Binary, scope: Scope) -> m.Expr:
        if e.op in ("+", "-", "*", "<", "<=", ">", ">="):
            left = self.expect(e.left, scope, INT)
            right = self.expect(e.right, scope, INT)
            type_ = INT if e.op in ("+", "-", "*") else BOOL
            return m.Binary(type=type_, span=e.span, op=e.op, left=left, right=right)
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        comparable = (INT, BOOL, COLOUR, TOKEN, CARD, TEXT)
        if left.type.kind == "tile" or left.type not in (*comparable, ERROR):
            self.error(f"a {left.type} cannot be compared with '{e.op}'", e.left.span)
        elif not (self.fits(left.type, right.type) or self.fits(right.type, left.type)):
            self.error(f"cannot compare a {left.type} with a {right.type}", e.span)
        return m.Binary(type=BOOL, span=e.span, op=e.op, left=left, right=right)

    def expr_Logic(self, e: s.Logic, scope: Scope) -> m.Expr:
        operands = tuple(self.expect(o, scope, BOOL) for o in e.operands)
        return m.Logic(type=BOOL, span=e.span, op=e.op, operands=operands)

    def expr_Conditional(self, e: s.Conditional, scope: Scope) -> m.Expr:
        condition = self.expect(e.condition, scope, BOOL)
        then = self.expr(e.then, scope)
        otherwise = self.expr(e.otherwise, scope)
        if not self.fits(otherwise.type, then.type):
            self.error(
                f"both branches must have one type: {then.type} and {otherwise.type}", e.span
            )
        return m.Conditional(
            type=then.type, span=e.span, then=then, condition=condition, otherwise=otherwise
        )

    def expr_Filter(self, e: s.Filter, scope: Scope) -> m.Expr:
        source = self.expr(e.source, scope)
        element = self.element_of(source, e.source.span)
        inner = scope.child()
        self.bind(inner, e.variable, element)
        condition = self.expect(e.condition, inner, BOOL)
        self.warn_unused_locals(inner)
        kind = source.type if source.type != ERROR else m.set_of(ERROR)
        return m.Filter(
            type=kind, span=e.span, variable=e.variable.text, source=source, condition=condition
        )

    def expr_PerColour(self, e: s.PerColour, scope: Scope) -> m.Expr:
        inner = scope.child()
        self.bind(inner, e.variable, COLOUR)
        body = self.expect(e.body, inner, INT)
        self.warn_unused_locals(inner)
        return m.PerColour(type=VECTOR, span=e.span, variable=e.variable.text, body=body)

    def expr_OverPlayers(self, e: s.OverPlayers, scope: Scope) -> m.Expr:
        self.error("'player: ...' can only be an argument of any or all", e.span)
        return m.Const(type=ERROR, span=e.span, value=False)

    def expr_OverSet(self, e: s.OverSet, scope: Scope) -> m.Expr:
        self.error("'x in ...: ...' can only be an argument of any or all", e.span)
        return m.Const(type=ERROR, span=e.span, value=False)

    def expr_Call(self, e: s.Call, scope: Scope) -> m.Expr:
        function = e.function.text
        args = e.arguments
        if function not in BUILTINS:
            self.error(
                f"unknown function '{function}'", e.function.span, did_you_mean(function, BUILTINS)
            )
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        arity = {"min": None, "max": None}.get(function, 1)
        if arity is not None and len(args) != arity:
            self.error(f"{function} takes 1 argument; {len(args)} given", e.span)
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        if arity is None and len(args) < 2:
            self.error(f"{function} takes 2 or more arguments; {len(args)} given", e.span)
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        if function in ("any", "all"):
            return self.quantifier(function, args[0], scope, e)
        if function in ("holds", "did"):
            return self.named_call(function, args[0], scope, e)
        if function in ("supply", "tokens"):
            if function == "tokens" and not scope.player:
                self.no_player("tokens", e.span)
            arg = self.expr(args[0], scope)
            if not self.fits(arg.type, TOKEN):
                self.error(f"{function} needs a token kind, not a {arg.type}", args[0].span)
            return m.Call(type=INT, span=e.span, function=function, arguments=(arg,))
        if function == "count":
            arg = self.expr(args[0], scope)
            self.element_of(arg, args[0].span)
            return m.Call(type=INT, span=e.span, function=function, arguments=(arg,))
        if function == "sum":
            arg = self.expr(args[0], scope)
            if not self.fits(arg.type, m.list_of(INT)) and not self.fits(arg.type, m.set_of(INT)):
                self.error(
                    f"sum needs numbers, not a {arg.type}",
                    args[0].span,
                    "sum the values of an attribute, like sum(bought.points)",
                )
            return m.Call(type=INT, span=e.span, function=function, arguments=(arg,))
        checked = tuple(self.expect(a, scope, INT) for a in args)
        return m.Call(type=INT, span=e.span, function=function, arguments=checked)

    def quantifier(self, function: str, arg: s.Expr, scope: Scope, e: s.Call) -> m.Expr:
        op: Any = function
        if isinstance(arg, s.OverPlayers):
            body = self.expect(arg.body, scope.child(player=True), BOOL)
            return m.Quantifier(
                type=BOOL, span=e.span, op=op, variable=None, source=None, body=body
            )
        if isinstance(arg, s.OverSet):
            source = self.expr(arg.source, scope)
            element = self.element_of(source, arg.source.span)
            inner = scope.child()
            self.bind(inner, arg.variable, element)
            body = self.expect(arg.body, inner, BOOL)
            self.warn_unused_locals(inner)
            return m.Quantifier(
                type=BOOL, span=e.span, op=op, variable=arg.variable.text, source=source, body=body
            )
        self.error(f"{function} needs 'x in set: condition' or 'player: condition'", arg.span)
        return m.Const(type=ERROR, span=e.span, value=False)

    def named_call(self, function: str, arg: s.Expr, scope: Scope, e: s.Call) -> m.Expr:
        wanted = "majority" if function == "holds" else "action"
        known = sorted(self.majority_names if function == "holds" else self.action_names)
        if not scope.player:
            self.no_player(function, e.span)
        if not isinstance(arg, s.NameRef):
            self.error(f"{function} needs the name of a {wanted}", arg.span)
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        name = self.renames.apply(arg.name)
        if name not in known:
            what = "majority tile" if wanted == "majority" else wanted
            kind = self.globals.get(name, ("", ERROR))[0]
            hint = did_you_mean(name, known) or (
                f"the {what}s are: {', '.join(known)}"
                if known
                else f"this edition declares no {what}"
            )
            if kind:
                self.error(
                    f"{function} needs the name of a {what}; '{name}' is "
                    f"{_KIND_WORDS.get(kind, 'a ' + kind)}",
                    arg.span,
                    hint,
                )
            else:
                self.error(f"unknown {what} '{arg.name}'", arg.span, hint)
            return m.Call(type=ERROR, span=e.span, function=function, arguments=())
        self.used_globals.add(name)
        ref = m.Ref(type=ERROR, span=arg.span, kind=wanted, name=name)  # type: ignore[arg-type]
        return m.Call(type=BOOL, span=e.span, function=function, arguments=(ref,))
