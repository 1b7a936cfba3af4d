"""Child editions: drawn editions that extend `classic` or a drawn base.

A child renames some of its parent's colours, tokens, zones, actions,
definitions, steps and endings; overrides some actions (with fresh bodies, or
for classic with the parent's own text plus a gain of the clock), steps,
definitions, the score, the winners and the supply; removes some actions,
triggers, steps and endings that nothing else names; and adds actions,
definitions, triggers, majority tiles, steps and endings of its own; it
removes each reference of its parent (`remove reference "FILE"`). Its
games end for the reasons a base's do (tests/fuzz/rule_files.py): every
action but the fallback gains the clock, whose emptiness ends the game.
"""

from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from fuzz import board
from fuzz.expressions import Expressions, Scope, World
from fuzz.known import KNOWN_MISCOMPILES
from fuzz.rule_files import (
    ACTIONS,
    CLOCK,
    DEFINES,
    MAJORITIES,
    STEP_NAMES,
    TRIGGERS,
    DrawnEdition,
    Edition,
    Editions,
    base_editions,
    ending,
)
from fuzz.statements import Statements
from hypothesis import strategies as st

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder


@dataclass
class Parent:
    """What a child needs to know of its parent edition."""

    name: str
    text: str  # the parent's rule file, to tell which names are referred to
    world: World
    players: tuple[int, int]
    tokens: list[str]  # the non-colour token kinds
    clock: str | None
    clock_supply: int
    fallback: str | None
    actions: dict[str, str | None]  # name -> its declaration (classic: to keep it with a clock)
    steps: dict[str, str]  # name -> limit, claim or check
    endings: list[str]
    timeout_once: bool = False  # the parent's clock ending needs a `check game end` step
    triggers: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)  # the files of its references

    def referred(self, name: str) -> bool:
        """Does the parent name this anywhere but where it declares it?"""
        return len(re.findall(rf"\b{re.escape(name)}\b", self.text)) > 1


def type_name(t: m.Type) -> str:
    """A model type as the expression generator names types."""
    if t.kind in ("set", "list"):
        assert t.element is not None
        return f"{t.kind}:{type_name(t.element)}"
    if t.kind == "tile":
        return f"tile:{t.tiles or '*'}"
    return t.kind


def _action_blocks(text: str) -> dict[str, str]:
    """Each action with a block in a rule file's text: its whole declaration."""
    found = {}
    for match in re.finditer(r"^[ \t]*((?:\[[^\]]*\]\s*)?action (\w+)[^\n{:]*\{)", text, re.M):
        depth, end = 0, match.end(1) - 1
        for end in range(match.end(1) - 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        found[match.group(2)] = text[match.start(1) : end + 1]
    return found


@functools.cache
def classic() -> Parent:
    """The shipped classic edition, as a parent."""
    path = editions_folder() / "classic.rules"
    text = path.read_text(encoding="utf-8")
    model = compile_file(path).model
    assert model is not None
    blocks = _action_blocks(text)
    world = World(
        colours=list(model.colours),
        tokens=[t.name for t in model.tokens if t.role != "colour"],
        card_columns={c.name: "colour?" if c.none else c.type for c in model.cards.columns},
        tile_sets={t.name: {c.name: c.type for c in t.columns} for t in model.tile_sets},
        card_zones=[z.name for z in model.zones if z.content == "cards"],
        tile_zones=[z.name for z in model.zones if z.content == "tiles"],
        zone_sets={z.name: z.tiles for z in model.zones if z.tiles is not None},
        defines={d.name: type_name(d.value.type) for d in model.defines},
        actions=[a.name for a in model.actions],
        majorities=[maj.name for maj in model.majorities],
        hiding=[z.name for z in model.zones if z.hidden_from_deck],
    )
    steps = {
        s.name: "limit"
        if isinstance(s, m.TokenLimit)
        else "claim"
        if isinstance(s, m.Claim)
        else "check"
        for s in model.steps
    }
    fallback = next((a.name for a in model.actions if a.body is None), None)
    return Parent(
        name="classic",
        text=text,
        world=world,
        players=model.players,
        tokens=list(world.tokens),
        clock=None,
        clock_supply=0,
        fallback=fallback,
        actions={a.name: blocks.get(a.name) for a in model.actions if a.body is not None},
        steps=steps,
        endings=[e.name for e in model.endings],
        triggers=[t.name for t in model.triggers],
        references=re.findall(r'^\s*(?:\[[^\]]*\]\s*)?reference "([^"]*)"', text, re.M),
    )


def base_parent(edition: Edition, text: str, timeout_once: bool) -> Parent:
    """A drawn base edition, as a parent."""
    actions = {d.key.split()[1]: d.text for d in edition.decls if d.key.startswith("action ")}
    if edition.fallback:
        actions.pop(edition.fallback, None)
    return Parent(
        name=edition.name,
        text=text,
        world=copy.deepcopy(edition.world),
        players=edition.players,
        tokens=list(edition.tokens),
        clock=edition.clock,
        clock_supply=edition.clock_supply,
        fallback=edition.fallback,
        actions=actions,
        steps=dict(edition.steps),
        endings=[d.key.split()[1] for d in edition.decls if d.key.startswith("end ")],
        timeout_once=timeout_once,
        triggers=[d.key.split()[1] for d in edition.decls if d.key.startswith("trigger ")],
        references=list(edition.references),
    )


MORE_ACTIONS = ("trade", "draft")
MORE_DEFINES = ("shine", "spread")


class Children(Editions):
    """Draws a child of a parent edition."""

    def child(self, parent: Parent, name: str) -> Edition:
        self.long_games()  # (a drawn base has drawn it already)
        renames = self.renames(parent)

        def r(n: str) -> str:
            return renames.get(n, n)

        world = renamed(parent.world, r)
        edition = Edition(name, parent.players, world, parent=parent.name)
        edition.tokens = [r(t) for t in parent.tokens]
        edition.clock = r(parent.clock) if parent.clock else CLOCK
        edition.clock_supply = parent.clock_supply
        edition.fallback = r(parent.fallback) if parent.fallback else None
        edition.steps = {r(n): kind for n, kind in parent.steps.items()}
        for kind, pairs in renames_by_kind(parent, renames):
            shown = ", ".join(f"{old} -> {new}{self.title()}" for old, new in pairs)
            edition.add(f"rename {kind}", f"rename {kind} {shown}")
        for file in parent.references:  # (its rule ids change: none is checked)
            edition.add(f"reference {file}", f'remove reference "{file}"')
        self.components(edition, parent)
        x = Expressions(self.draw, world)
        x.max_depth = self.number(1, 3)
        actions = self.plan_actions(edition, parent, r)
        majorities: list[str] = []  # named before any expression is drawn
        tiles = world.columns("tile:*")
        if world.any_tile_zones() and world.card_zones and tiles == {"points": "int"}:
            # (a majority tile leaves any tile only its points: the parent's
            # expressions may read more)
            majorities = [n for n in MAJORITIES if n not in world.majorities][: self.index(2)]
            world.majorities += majorities
        if parent.name == "classic" and self.flip():  # its gold worth more in payments
            self.token_worth(edition, r("gold"), x)
        self.child_definitions(edition, x)
        stmts = Statements(self, x, edition.clock)
        stmts.extra_turns = self.flip(3)  # `play another turn` in its actions and triggers
        for key, text in actions(stmts):
            edition.add(key, text)
        for majority in majorities:
            edition.add(f"majority {majority}", self.tag() + self.majority(majority, x))
        self.child_rules(edition, parent, x, stmts, r)
        return edition

    def renames(self, parent: Parent) -> dict[str, str]:
        renames = {}
        for _, names in renamable(parent):
            if self.flip(5):
                for old in self.subset(names):
                    renames[old] = f"{old}_r"
        return renames

    def components(self, edition: Edition, parent: Parent) -> None:
        """Player counts, the clock (and another token), the supply."""
        supply = parent.clock is None
        if self.flip(5):
            low = self.pick([2, 1, 3])
            edition.players = (low, min(4, low + self.index(3)))
            edition.add("players", f"override {self.tag()}players {low}..{edition.players[1]}")
            supply = True
        if parent.clock is None:
            edition.add(f"token {CLOCK}", f"{self.tag()}token {CLOCK}: special, never returned")
            edition.tokens.append(CLOCK)
            edition.world.tokens.append(CLOCK)
        if self.flip(3) and "bead" not in edition.tokens:
            edition.add("token bead", f"{self.tag()}token bead: special, at most 2 per player")
            edition.tokens.append("bead")
            edition.world.tokens.append("bead")
            supply = True
        if supply or self.flip(5):
            self.supply(edition, override="override ")
            if parent.world.board:  # its amounts by player count follow the supply's
                board.bag(self, edition, override="override ")
        inherited = "setup {" in parent.text  # its places may pass a new player count
        if (inherited and edition.players != parent.players) or self.flip(6):
            self.seat_setup(edition, override="override " if inherited else "")

    def token_worth(self, edition: Edition, wild: str, x: Expressions) -> None:
        """Classic's wild token overridden to count as 2 or 3 in payments
        where a drawn condition holds (classic spends no card in a payment,
        and no action of the child will)."""
        self.shape("token worth")
        edition.world.worth = True
        condition = x.expr("bool", Scope(), 1).text
        worth = f"counts as {self.number(2, 3)} in payments where {condition}"
        text = f'override {self.tag()}token {wild} "gold": wild, {self.tag()}{worth}'
        edition.add(f"token {wild}", text)

    def plan_actions(self, edition: Edition, parent: Parent, r: Any) -> Any:
        """Decide which actions are kept, overridden, removed and added (the
        world must know every action's name before any expression is drawn);
        returns what draws their declarations."""
        world = edition.world
        plans: list[tuple[str, str]] = []  # (action, how)
        if parent.fallback is not None:  # else the first action is the one always legal
            for old in parent.actions:
                how = self.pick(["keep", "override", "remove"])
                if how == "remove" and parent.referred(old):
                    how = "keep"
                plans.append((r(old), how))
        taken = set(world.actions) | set(world.defines)
        new = [a for a in (*ACTIONS, *MORE_ACTIONS) if a not in taken][: self.index(3)]
        plans += [(a, "add") for a in new]
        removed = {a for a, how in plans if how == "remove"}
        world.actions = [a for a in world.actions if a not in removed] + new

        def draw(stmts: Statements) -> list[tuple[str, str]]:
            out = []
            for action, how in plans:
                key = f"action {action}"
                if how == "remove":
                    out.append((key, f"remove action {action}"))
                elif how == "add" and self.flip(4):  # taken before the main action
                    out.append((key, self.tag() + self.before_action(action, stmts)[1]))
                elif how in ("override", "add"):
                    _, text = self.action(action, stmts, always_legal=False)
                    prefix = "override " if how == "override" else ""
                    out.append((key, prefix + self.tag() + text))
                elif parent.clock is None:  # classic's own action, gaining the clock
                    text = kept_with_clock(parent.actions[_old(action, r, parent)] or "", r)
                    out.append((key, "override " + text))
            return out

        return draw

    def child_definitions(self, edition: Edition, x: Expressions) -> None:
        """Overridden definitions (same type, reading no definition, so no
        cycle can form), new ones (reading any), an overridden score."""
        world = edition.world
        x.defines, x.score = {}, False
        for name, t in list(world.defines.items()):
            if self.flip(4):
                value = x.value(t, Scope()).text
                edition.add(f"define {name}", f"override {self.tag()}define {name} = {value}")
        if self.flip(4):
            edition.add("score", f"override {self.tag()}score = {x.expr('int', Scope()).text}")
        x.defines, x.score = dict(world.defines), True
        taken = set(world.defines) | set(world.actions)
        for name in [d for d in (*DEFINES, *MORE_DEFINES) if d not in taken][: self.index(3)]:
            t = self.pick(["int", "vector", "bool", "set:colour"])
            value = x.value(t, Scope()).text
            edition.add(f"define {name}", f"{self.tag()}define {name} = {value}")
            x.defines[name] = t
            world.defines[name] = t

    def child_rules(
        self, edition: Edition, parent: Parent, x: Expressions, stmts: Statements, r: Any
    ) -> None:
        for trigger in parent.triggers:
            if self.flip(4):
                edition.add(f"trigger {trigger}", f"remove trigger {trigger}")
        taken = set(parent.triggers)
        for trigger in [t for t in TRIGGERS if t not in taken][: self.index(2)]:
            edition.add(f"trigger {trigger}", self.tag() + self.trigger(trigger, stmts))
        self.child_steps(edition, parent, x, r)
        self.child_endings(edition, parent, x, r)
        if self.flip(4):
            edition.add("winners", f"override {self.tag()}{self.winners(x)}")

    def child_steps(self, edition: Edition, parent: Parent, x: Expressions, r: Any) -> None:
        for old, kind in parent.steps.items():
            name = r(old)
            checks = [n for n, k in edition.steps.items() if k == "check"]
            essential = parent.timeout_once and kind == "check" and checks == [name]
            how = self.pick(["keep", "override", "remove"])
            if how == "remove" and not essential:
                del edition.steps[name]
                edition.add(f"step {name}", f"remove step {name}")
            elif how == "override" and not essential:
                edition.add(f"step {name}", f"override {self.tag()}{self.step(edition, x, name)}")
        taken = {r(n) for n in parent.steps} | set(edition.world.actions)
        for name in [s for s in (*STEP_NAMES, "tidy") if s not in taken][: self.index(2)]:
            edition.add(f"step {name}", self.tag() + self.step(edition, x, name))

    def child_endings(self, edition: Edition, parent: Parent, x: Expressions, r: Any) -> None:
        for old in parent.endings:
            if essential_ending(parent, old):
                continue
            how = self.pick(["keep", "override", "remove"])
            name = r(old)
            if how == "remove":
                edition.add(f"end {name}", f"remove end {name}")
            elif how == "override":
                text = ending(name, self.ending_mode(), self.end_condition(x, edition.clock))
                edition.add(f"end {name}", f"override {self.tag()}{text}")
        if parent.clock is None:
            _, once, condition = self.timeout(edition, x)
            edition.add("end timeout", self.tag() + ending("timeout", once, condition))


def renamable(parent: Parent) -> list[tuple[str, list[str]]]:
    w = parent.world
    return [
        ("colour", list(w.colours)),
        ("token", list(parent.tokens)),
        ("tiles", list(w.tile_sets)),
        ("zone", [*w.card_zones, *w.tile_zones]),
        ("action", [*parent.actions, *([parent.fallback] if parent.fallback else [])]),
        ("define", list(w.defines)),
        ("step", list(parent.steps)),
        ("end", list(parent.endings)),
    ]


def renames_by_kind(
    parent: Parent, renames: dict[str, str]
) -> list[tuple[str, list[tuple[str, str]]]]:
    found = []
    for kind, names in renamable(parent):
        pairs = [(n, renames[n]) for n in names if n in renames]
        if pairs:
            found.append((kind, pairs))
    return found


def renamed(world: World, r: Any) -> World:
    def t(type_: str) -> str:
        return re.sub(r"tile:(\w+)", lambda found: "tile:" + r(found.group(1)), type_)

    return World(
        colours=[r(c) for c in world.colours],
        tokens=[r(k) for k in world.tokens],
        card_columns=dict(world.card_columns),
        tile_sets={r(k): dict(v) for k, v in world.tile_sets.items()},
        card_zones=[r(z) for z in world.card_zones],
        tile_zones=[r(z) for z in world.tile_zones],
        zone_sets={r(z): r(t) for z, t in world.zone_sets.items()},
        defines={r(k): t(v) for k, v in world.defines.items()},
        actions=[r(a) for a in world.actions],
        majorities=list(world.majorities),
        hiding=[r(z) for z in world.hiding],
        card_values=dict(world.card_values),
        applied={
            r(k): (tuple((p, t(pt)) for p, pt in parameters), value)
            for k, (parameters, value) in world.applied.items()
        },
        shared=[r(k) for k in world.shared],
        worth=world.worth,
    )


def _old(new: str, r: Any, parent: Parent) -> str:
    return next(old for old in parent.actions if r(old) == new)


def kept_with_clock(declaration: str, r: Any) -> str:
    """A parent's action, its names renamed, gaining the clock last."""
    text = re.sub(r"\b\w+\b", lambda found: r(found.group()), declaration)
    head, _, _ = text.rpartition("}")
    return f"{head.rstrip()}\n  gain 1 {CLOCK}\n}}"


def essential_ending(parent: Parent, name: str) -> bool:
    """The endings a parent's games need to end: the clock's, and the one
    that ends a round in which everyone took the fallback."""
    found = re.search(rf"end {re.escape(name)}:([^\n]*)", parent.text)
    line = found.group(1) if found else ""
    return bool(
        (parent.clock and f"supply({parent.clock})" in line)
        or (parent.fallback and f"did({parent.fallback})" in line)
    )


@st.composite
def classic_children(draw: Any, known: frozenset[str] = KNOWN_MISCOMPILES) -> DrawnEdition:
    """A drawn child of the shipped classic edition."""
    gen = Children(draw, known)
    edition = gen.child(classic(), "fuzz")
    return gen.drawn(edition)


@st.composite
def base_children(draw: Any, known: frozenset[str] = KNOWN_MISCOMPILES) -> DrawnEdition:
    """A drawn child of a drawn base edition (written beside it)."""
    gen = Children(draw, known)
    base = gen.base("base")
    text = base.text("Base")
    gen.files["base.rules"] = text
    edition = gen.child(base_parent(base, text, base.timeout_once), "fuzz")
    return gen.drawn(edition)


def editions(known: frozenset[str] = KNOWN_MISCOMPILES) -> st.SearchStrategy[DrawnEdition]:
    """A drawn edition: standalone, a child of a drawn base, or a child of
    classic (shrinking towards a standalone one)."""
    return st.one_of(base_editions(known), base_children(known), classic_children(known))
