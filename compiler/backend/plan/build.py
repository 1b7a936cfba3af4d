"""The checked model -> the engine plan (`ops.py`), walked once.

Each statement kind has its `visit_<Statement>` method in each of the three
walks (the choice part of an enumerator, the reading of a move in an apply,
the effects), and each step kind its method in the walk of the end of a
turn; the facts the printers need (hooked zones, follow-up sites,
which names later statements read, market slots, the early cost test, the
prechecks, which tokens may be none) are computed here, once, from one
`Facts` object handed down.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.plan import ops
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.visitor import Visitor

Choice = m.Choose | m.ChooseDistinct


@frozen
class Facts:
    """What the builder reads of an edition, found once."""

    edition: m.Edition
    hooked: frozenset[str]  # the zones whose entry runs code
    sites: tuple[identities.FollowUp, ...]
    site_of: dict[int, int]  # id of a follow-up's choice -> its index
    none_colours: bool
    none_columns: frozenset[str]
    kept: frozenset[analysis.Aggregate]
    decks: identities.Decks
    tiles: identities.TileNumbering
    by_mode: dict[str, tuple[m.Ending, ...]]  # the endings of each mode, in order
    worth: m.TokenKind | None  # the wild token that may count as more than one in payments

    @staticmethod
    def of(edition: m.Edition) -> Facts:
        sites = identities.follow_ups(edition)
        return Facts(
            edition=edition,
            hooked=frozenset(analysis.hooked_zones(edition)),
            sites=sites,
            site_of={id(site.choice): i for i, site in enumerate(sites)},
            none_colours=analysis.colours_may_be_none(edition),
            none_columns=analysis.none_columns(edition),
            kept=frozenset(analysis.kept_aggregates(edition)),
            decks=identities.decks(edition),
            tiles=identities.tile_numbering(edition),
            by_mode={
                mode: tuple(e for e in edition.endings if e.mode == mode)
                for mode in ("once", "at_round_end", "at_turn_end")
            },
            worth=analysis.worth_token(edition),
        )

    def keeps(self, e: m.Expr) -> bool:
        """Is every zone aggregate the expression reads one an engine may keep?"""
        return all(a in self.kept for a in analysis.aggregates_in(e))

    def may_be_none(self, e: m.Expr) -> bool:
        return self.none_colours and analysis.may_be_none(e, self.none_columns)

    def market_slots(self, st: m.Choose, later: tuple[m.Statement, ...]) -> tuple[int, int] | None:
        """The market's slots a choice need look at: those from the first to
        the last deck with a card that the requirements after the choice, by
        the cards' data alone, do not rule out (None: all of them)."""
        conditions = [s.condition for s in later if isinstance(s, m.Require)]
        decks, rows = self.decks, self.edition.cards.rows
        kept = [
            d
            for d, cards in enumerate(decks.deck_cards)
            if any(
                all(analysis.card_condition(e, st.name, rows[k]) is not False for e in conditions)
                for k in cards
            )
        ]
        starts = [sum(decks.face_up[:d]) for d in range(len(decks.face_up) + 1)]
        if kept == list(range(len(decks.deck_cards))):
            return None
        if not kept:
            return (0, 0)
        return (starts[kept[0]], starts[kept[-1] + 1])


def _place(source: m.Expr, *kinds: str) -> bool:
    return isinstance(source, m.Ref) and source.kind in kinds


def plain(st: m.Choose) -> bool:
    """Is each value of the choice its own value in the move (cards of the
    market or of zones)?"""
    return all(_place(s, "market", "zone") for s in st.sources)


def may_repeat(st: m.Choose) -> bool:
    """Can two sources of a choice hold one value (offered once)? Places a
    card is in (deck tops, the market, zones) hold none alike."""
    if len(st.sources) < 2:
        return False
    return not all(isinstance(s, m.DeckTops) or _place(s, "market", "zone") for s in st.sources)


def own_ids(st: m.Statement, owner: m.Part) -> tuple[str, ...]:
    """The rule ids a statement states beyond its owner's."""
    return tuple(i for i in st.rule_ids if i not in owner.rule_ids)


class _Legal(Visitor):
    """The choice part of an action (`analysis.choice_part`) -> the nested
    operations of its enumerator: each choice, requirement, precheck and
    payment holds the rest of the part as its body."""

    def __init__(self, facts: Facts, action: m.Action) -> None:
        self.facts = facts
        self.action = action
        self.part = tuple(analysis.choice_part(action))
        self.body = action.body or ()
        self.prechecks = analysis.tally_prechecks(action)
        self.early = early_cost(self.part, facts.worth)
        self.bound: list[str] = []  # names bound so far (lets and choices)

    def rest(self, index: int) -> ops.Block:
        if index == len(self.part):
            return (ops.Emit(paid=payment_of(self.part) is not None),)
        st = self.part[index]
        precheck = self.prechecks.get(index)
        found: ops.Block = self.visit(st, index)
        if precheck is not None and self.facts.keeps(precheck):
            return (ops.Precheck(precheck, found),)
        return found

    def later(self, index: int) -> tuple[m.Statement, ...]:
        return self.part[index + 1 :]

    def read_later(self, st: m.Statement, name: str) -> bool:
        at = next(i for i, s in enumerate(self.body) if s is st)
        return analysis.uses(self.body[at + 1 :], name)

    def visit_Let(self, st: m.Let, index: int) -> ops.Block:
        self.bound.append(st.name)
        own = own_ids(st, self.action)
        return (ops.Let(st, own, self.read_later(st, st.name)), *self.rest(index + 1))

    def visit_Choose(self, st: m.Choose, index: int) -> ops.Block:
        self.bound.append(st.name)
        later = self.later(index)
        loop = ops.ChoiceLoop(
            statement=st,
            own=own_ids(st, self.action),
            read_later=analysis.uses(later, st.name),
            plain=plain(st),
            may_repeat=may_repeat(st),
            colours=all(_place(s, "colours") for s in st.sources),
            slots=self.facts.market_slots(st, later),
            cost_test=self.early is not None and self.early.choice == st.name,
            body=self.rest(index + 1),
        )
        return (loop,)

    def visit_ChooseDistinct(self, st: m.ChooseDistinct, index: int) -> ops.Block:
        self.bound.append(st.name)
        read = analysis.uses(self.later(index), st.name)
        own = own_ids(st, self.action)
        return (ops.CombinationLoop(st, own, read, self.rest(index + 1)),)

    def visit_ChooseLine(self, st: m.ChooseLine, index: int) -> ops.Block:
        self.bound.append(st.name)
        read = analysis.uses(self.later(index), st.name)
        own = own_ids(st, self.action)
        return (ops.LineLoop(st, own, read, self.rest(index + 1)),)

    def visit_Require(self, st: m.Require, index: int) -> ops.Block:
        """Requirements one after another share a guard; the rules each
        states (or cites) of its own are noted at its place."""
        requirements = [st]
        end = index + 1
        while end < len(self.part) and isinstance(after := self.part[end], m.Require):
            requirements.append(after)
            end += 1
        own = tuple(own_ids(r, self.action) for r in requirements)
        return (ops.Guard(tuple(requirements), own, self.rest(end)),)

    def visit_Pay(self, st: m.Pay, index: int) -> ops.Block:
        assert index == len(self.part) - 1, "the checker puts a payment last"
        bound = tuple(self.bound)
        varies = any(analysis.uses(st.discount, v) for v in bound)
        wild = st.wild_cards
        cards_vary = wild is not None and any(analysis.uses(wild.cards, v) for v in bound)
        spendable: tuple[str, ...] = ()
        if wild is not None:
            spendable = tuple(n for n in wild.chosen if may_be_spendable(self.part, n, wild.cards))
        own = own_ids(st, self.action)
        body = self.rest(index + 1)
        return (ops.Payment(st, own, varies, cards_vary, spendable, body, self.facts.worth),)


def may_be_spendable(part: tuple[m.Statement, ...], name: str, cards: m.Filter) -> bool:
    """May the card chosen as `name` be one the payment may spend? Not if it
    was chosen only where those cards are not (a card is in one place at a
    time): the market, the deck tops, another zone."""
    zone = cards.source
    if not (isinstance(zone, m.Ref) and zone.kind == "zone"):
        return True
    choice = [st for st in part if isinstance(st, m.Choose) and st.name == name][-1]
    return not all(
        isinstance(source, m.DeckTops)
        or _place(source, "market")
        or (_place(source, "zone") and isinstance(source, m.Ref) and source.name != zone.name)
        for source in choice.sources
    )


def payment_of(part: tuple[m.Statement, ...]) -> m.Pay | None:
    """The payment of an action's choice part, if it has one."""
    return next((st for st in part if isinstance(st, m.Pay)), None)


def early_cost(part: tuple[m.Statement, ...], worth: m.TokenKind | None = None) -> ops.Early | None:
    """The payment, and the choice right after which its cost can be tested
    against the means (before the requirements that follow the choice): the
    cost is a card column of the card chosen, and nothing in the part
    changes the means."""
    pay = payment_of(part)
    if pay is None:
        return None
    cost = pay.cost
    if not (isinstance(cost, m.Attr) and cost.source == "column" and cost.subject.type == m.CARD):
        return None
    subject = cost.subject
    if not (isinstance(subject, m.Ref) and subject.kind == "variable"):
        return None
    if not any(isinstance(st, m.Choose) and st.name == subject.name for st in part):
        return None  # a card chosen, not a let's
    bound = {name for st in part for name in analysis.bound_by(st)}
    read = (pay.discount,) if pay.wild_cards is None else (pay.discount, pay.wild_cards.cards)
    if any(analysis.uses(read, name) for name in bound):
        return None
    return ops.Early(pay, subject.name, worth)


class _Reads(Visitor):
    """An action's statements -> what its apply reads and checks of a move."""

    def __init__(self, action: m.Action, worth: m.TokenKind | None = None) -> None:
        self.action = action
        self.worth = worth
        self.body = action.body or ()
        self.position = 1  # the move's value after the action's name

    def generic_visit(self, node: Any, *args: Any) -> ops.Block:
        return ()  # an effect: nothing to read

    def visit_Let(self, st: m.Let, index: int) -> ops.Block:
        read = analysis.uses(self.body[index + 1 :], st.name)
        return (ops.Let(st, own_ids(st, self.action), read),)

    def visit_Choose(self, st: m.Choose, index: int) -> ops.Block:
        self.position += 1
        return (ops.Pick(st, own_ids(st, self.action), self.position - 1, plain(st)),)

    def visit_ChooseDistinct(self, st: m.ChooseDistinct, index: int) -> ops.Block:
        self.position += 1
        return (ops.PickSet(st, own_ids(st, self.action), self.position - 1),)

    def visit_ChooseLine(self, st: m.ChooseLine, index: int) -> ops.Block:
        self.position += 1
        return (ops.PickLine(st, own_ids(st, self.action), self.position - 1),)

    def visit_Require(self, st: m.Require, index: int) -> ops.Block:
        return (ops.Check(st, own_ids(st, self.action)),)

    def visit_Pay(self, st: m.Pay, index: int) -> ops.Block:
        return (ops.PickPayment(st, self.position, self.worth),)


class _Effects(Visitor):
    """A block of statements -> its effects. `bound`: the names already
    bound (a choice among them was read from the move; any other waits)."""

    def __init__(self, facts: Facts, owner: m.Part, bound: set[str]) -> None:
        self.facts = facts
        self.owner = owner
        self.bound = bound

    def block(self, body: tuple[m.Statement, ...]) -> ops.Block:
        found: list[ops.Op] = []
        for index, st in enumerate(body):
            made: ops.Block = self.visit(st, body[index + 1 :])
            found.extend(made)
            if made and isinstance(made[-1], ops.Wait):
                break  # a follow-up ends the block: the rest is its own
        return tuple(found)

    def note(self, st: m.Statement) -> ops.Block:
        own = own_ids(st, self.owner)
        return (ops.Note(st, own),) if own else ()

    def generic_visit(self, node: Any, *args: Any) -> ops.Block:
        return self.note(node)

    def visit_Gain(self, st: m.Gain, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.Gain(st, own_ids(st, self.owner), self.facts.may_be_none(st.token)),)

    def visit_GainEach(self, st: m.GainEach, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.GainEach(st, own_ids(st, self.owner)),)

    def visit_Transfer(self, st: m.Transfer, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.Transfer(st, own_ids(st, self.owner), self.facts.may_be_none(st.token)),)

    def visit_Pay(self, st: m.Pay, later: tuple[m.Statement, ...]) -> ops.Block:
        if st.wild_cards is None:
            return (ops.GiveBack(st),)
        return (ops.GiveBack(st), ops.SpendCards(st.wild_cards.variable))

    def visit_TakeCells(self, st: m.TakeCells, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.TakeCells(st, own_ids(st, self.owner)),)

    def visit_RefillBoard(self, st: m.RefillBoard, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.RefillBoard(st, own_ids(st, self.owner)),)

    def visit_Move(self, st: m.Move, later: tuple[m.Statement, ...]) -> ops.Block:
        own = own_ids(st, self.owner)
        if st.tile:
            return (ops.TakeTile(st, own),)
        return (ops.MoveCard(st, own, st.zone in self.facts.hooked),)

    def visit_SetValue(self, st: m.SetValue, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.SetValue(st, own_ids(st, self.owner)),)

    def visit_ReturnToBox(self, st: m.ReturnToBox, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.ReturnToBox(st, own_ids(st, self.owner)),)

    def visit_AnotherTurn(self, st: m.AnotherTurn, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.AnotherTurn(st, own_ids(st, self.owner)),)

    def visit_If(self, st: m.If, later: tuple[m.Statement, ...]) -> ops.Block:
        return (ops.When(st, own_ids(st, self.owner), self.block(st.body)),)

    def visit_Require(self, st: m.Require, later: tuple[m.Statement, ...]) -> ops.Block:
        return ()  # checked before the effects, with its comment there

    def visit_Let(self, st: m.Let, later: tuple[m.Statement, ...]) -> ops.Block:
        if st.name in self.bound:
            return self.note(st)
        self.bound.add(st.name)
        return (ops.EffectLet(st, own_ids(st, self.owner), analysis.uses(later, st.name)),)

    def wait(self, st: Choice) -> ops.Block:
        if st.name in self.bound:
            return ()  # read from the move
        index = self.facts.site_of[id(st)]
        carried = tuple(name for name, _ in self.facts.sites[index].bound)
        return (ops.Wait(st, index, carried),)

    def visit_Choose(self, st: m.Choose, later: tuple[m.Statement, ...]) -> ops.Block:
        return self.wait(st)

    def visit_ChooseDistinct(
        self, st: m.ChooseDistinct, later: tuple[m.Statement, ...]
    ) -> ops.Block:
        return self.wait(st)


def before(edition: m.Edition, action: m.Action) -> ops.Before | None:
    """An action's place among those taken before the main action, and the
    stage once it is taken; None for a main action."""
    if action.before is None:
        return None
    optional = [a.name for a in edition.actions if a.before is not None]
    place = optional.index(action.name)
    return ops.Before(place, place if action.before == "any" else place + 1)


def legal(facts: Facts, action: m.Action, index: int) -> ops.Legal:
    walk = _Legal(facts, action)
    body = walk.rest(0)
    defines = tuple(sorted(analysis.defines_in(walk.part)))
    return ops.Legal(action, index, defines, walk.early, body, before(facts.edition, action))


def apply(facts: Facts, action: m.Action, index: int) -> ops.Apply:
    statements = action.body or ()
    reads = _Reads(action, facts.worth)
    read = tuple(op for i, st in enumerate(statements) for op in reads.visit(st, i))
    picks = ops.Pick | ops.PickSet | ops.PickLine
    choices = [op.statement.name for op in read if isinstance(op, picks)]
    pays = [op.statement for op in read if isinstance(op, ops.PickPayment)]
    paid = ["payment"] if pays else []
    paid += [st.wild_cards.variable for st in pays if st.wild_cards is not None]
    bound = {op.statement.name for op in read if isinstance(op, ops.Let | picks)}
    effects = _Effects(facts, action, bound).block(statements)
    taken = before(facts.edition, action)
    return ops.Apply(action, index, (*choices, *paid), read, effects, taken)


def options(facts: Facts, choice: Choice) -> ops.ChoiceLoop | ops.CombinationLoop:
    """A follow-up's loop over its options: each written as a move."""
    body = (ops.Emit(paid=False),)
    if isinstance(choice, m.ChooseDistinct):
        return ops.CombinationLoop(choice, (), False, body)
    return ops.ChoiceLoop(
        statement=choice,
        own=(),
        read_later=False,
        plain=plain(choice),
        may_repeat=may_repeat(choice),
        colours=all(_place(s, "colours") for s in choice.sources),
        slots=facts.market_slots(choice, ()),
        cost_test=False,
        body=body,
    )


def carried(site: identities.FollowUp, reads: object) -> tuple[ops.Carried, ...]:
    return tuple(ops.Carried(n, t, analysis.uses(reads, n)) for n, t in site.bound)


def rest(
    facts: Facts, site: identities.FollowUp, skip: bool
) -> tuple[tuple[ops.Block, ...], tuple[ops.Carried, ...]]:
    """What runs once a follow-up is decided (or skipped, for want of an
    option): the rest of its block (not when skipped), then of each block
    around it, up to the block a later follow-up ends."""
    blocks = site.rest(len(site.path) - (2 if skip else 1))
    names = carried(site, tuple(st for block in blocks for st in block))
    bound = {c.name for c in names if c.read}
    if not skip:
        bound.add(site.choice.name)
    walk = _Effects(facts, site.owner, bound)
    found: list[ops.Block] = []
    for block in blocks:
        found.append(walk.block(block))
        if any(isinstance(st, m.Choose | m.ChooseDistinct) for st in block):
            break  # a follow-up choice ends the block: the rest is its own
    return tuple(found), names


def follow_up(facts: Facts, index: int, site: identities.FollowUp) -> ops.FollowUp:
    take, take_carried = rest(facts, site, skip=False)
    skip, skip_carried = rest(facts, site, skip=True)
    return ops.FollowUp(
        site=site,
        index=index,
        options=options(facts, site.choice),
        options_carried=carried(site, site.choice),
        take=take,
        take_carried=take_carried,
        skip=skip,
        skip_carried=skip_carried,
        declinable=site.declinable,
    )


class _Steps(Visitor):
    """The end-of-turn steps -> their operations, each with its facts."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts

    def visit_TokenLimit(self, st: m.TokenLimit, index: int) -> ops.Step:
        if st.counted is None:
            return ops.ReturnTokens(st, index, None)
        tokens = self.facts.edition.tokens
        counted = tuple(i for i, t in enumerate(tokens) if t.name in st.counted)
        return ops.ReturnTokens(st, index, counted)

    def visit_Claim(self, st: m.Claim, index: int) -> ops.Step:
        faces = None
        if st.source is not None:  # the player's tiles of the set in that zone
            faces = self.facts.tiles.set_faces[st.tiles]
        defines = tuple(sorted(analysis.defines_in(st.condition)))
        shared = identities.shared_claim(self.facts.edition, st)
        return ops.ClaimTile(st, index, faces, defines, shared)

    def visit_EndCheck(self, st: m.EndCheck, index: int) -> ops.Step:
        endings = self.facts.by_mode
        return ops.CheckEnd(st, index, endings["once"], endings["at_turn_end"])


def turn_end(facts: Facts) -> ops.TurnEnd:
    walk = _Steps(facts)
    steps = tuple(walk.visit(st, i) for i, st in enumerate(facts.edition.steps))
    stops = bool(facts.by_mode["at_turn_end"])
    return ops.TurnEnd(steps, stops, ops.RoundEnds(facts.by_mode["at_round_end"]))


def setup(edition: m.Edition) -> ops.Setup:
    """The gifts by seat (a seat some player counts lack is tested) and the
    reveals."""
    gifts = tuple(
        ops.Gift(gift, gift.position - 1, gift.position <= edition.players[0])
        for gift in edition.seat_gifts
    )
    reveals = tuple(ops.Reveal(reveal, i) for i, reveal in enumerate(edition.reveals))
    return ops.Setup(gifts, reveals, len(reveals) > 1)


def build(edition: m.Edition) -> ops.Plan:
    """The plan of an edition (its definitions with parameters already
    inlined where they can be, `analysis.inline_definitions`)."""
    facts = Facts.of(edition)
    actions = edition.actions
    waiting = {id(site.owner) for site in facts.sites}
    triggers = tuple(
        ops.TriggerPlan(t, id(t) in waiting, _Effects(facts, t, {t.card}).block(t.body))
        for t in edition.triggers
    )
    hooks = tuple(
        ops.Hook(
            zone,
            tuple(t for t in triggers if t.trigger.zone == zone),
            tuple(j for j in edition.majorities if j.event_zone == zone),
        )
        for zone in analysis.hooked_zones(edition)
    )
    return ops.Plan(
        legal=tuple(
            legal(facts, a, i) if a.body is not None else None for i, a in enumerate(actions)
        ),
        apply=tuple(apply(facts, a, i) for i, a in enumerate(actions)),
        triggers=triggers,
        hooks=hooks,
        contests=tuple(ops.Contest(majority) for majority in edition.majorities),
        follow_ups=tuple(follow_up(facts, i, site) for i, site in enumerate(facts.sites)),
        turn_end=turn_end(facts),
        scoring=ops.Scoring(ops.Score(edition.score), ops.Ranking(edition.winners)),
        setup=setup(edition),
    )
