"""The engine plan's operations: what an action's enumerator of legal moves,
its apply, and the effects of actions, triggers and follow-ups do, as a
small set of typed statements that every target prints; the steps at the
end of a turn, the endings, the scoring and the set-up.

Expressions stay model expressions (each target has its expression
emitter); an operation holds the model statement it comes from (its span and
rule ids, for the comments) and the facts a printer needs, computed once by
`build.py`. `own` is the rule ids an operation states beyond its owner's,
where the rule file's place is worth a comment (empty: none).
"""

from __future__ import annotations

from attrs import frozen

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m


@frozen
class Op:
    """An operation of the plan."""


Block = tuple[Op, ...]

# ------------------------------------------------------------ legal moves


@frozen
class Let(Op):
    """`let` among the choices: a local computed from what is bound so far.
    `read_later`: whether a later statement of the action reads it."""

    statement: m.Let
    own: tuple[str, ...]
    read_later: bool


@frozen
class ChoiceLoop(Op):
    """A loop over the values of a `choose x from A, B`, `body` run for each.

    `read_later`: a later statement reads x (else the value is only shown in
    the move); `plain`: every source is the market or a zone, so each value
    is its own value in the move (no pairs); `may_repeat`: two sources may
    hold one value (offered once); `colours`: every value is a colour (never
    none); `slots`: the market's slots to look at (from, to), where the
    requirements rule out decks by the cards' data alone (None: all);
    `cost_test`: the action's payment is tested against the player's means
    right after this choice (`Legal.early`)."""

    statement: m.Choose
    own: tuple[str, ...]
    read_later: bool
    plain: bool
    may_repeat: bool
    colours: bool
    slots: tuple[int, int] | None
    cost_test: bool
    body: Block


@frozen
class CombinationLoop(Op):
    """A loop over the combinations of a `choose x: N distinct from S`."""

    statement: m.ChooseDistinct
    own: tuple[str, ...]
    read_later: bool
    body: Block


@frozen
class LineLoop(Op):
    """A loop over the lines of cells of a `choose x: LOW to HIGH in a line
    from S` (docs/engine.md, "The board", gives their order)."""

    statement: m.ChooseLine
    own: tuple[str, ...]
    read_later: bool
    body: Block


@frozen
class Guard(Op):
    """Consecutive requirements of the choice part, `body` run when all
    hold; `own`: per requirement, the rules it states or cites beyond its
    action's (a comment before the guard names them at its place)."""

    requirements: tuple[m.Require, ...]
    own: tuple[tuple[str, ...], ...]
    body: Block


@frozen
class Precheck(Op):
    """A test that a later requirement implies, read from a kept tally
    before the local it counts is built (`analysis.tally_prechecks`), where
    every aggregate it reads is one an engine may keep up to date
    (`analysis.kept_aggregates`; a target that keeps fewer prints the body
    alone)."""

    test: m.Expr
    body: Block


@frozen
class Payment(Op):
    """The ways to pay a `pay`, each completing the move (a payment comes
    last: the checker puts it after every choice and requirement).

    `discount_varies` / `cards_vary`: a choice or local changes the
    discount / the cards that may be spent (else they are found once, before
    the loops); `spendable_choices`: the cards the action chose that may be
    among those the payment may spend (never spent); `worth`: the wild
    token that counts as more than one in payments for a player meeting its
    condition (`counts as N in payments where COND`), or None."""

    statement: m.Pay
    own: tuple[str, ...]
    discount_varies: bool
    cards_vary: bool
    spendable_choices: tuple[str, ...]
    body: Block
    worth: m.TokenKind | None = None


@frozen
class Emit(Op):
    """Write the move: the action, each choice's value, the payment."""

    paid: bool


@frozen
class Early:
    """The payment whose cost is tested right after the choice of the card
    it reads (a card column), before the requirements that follow: nothing
    in the choice part changes the means. `worth`: as for `Payment`."""

    pay: m.Pay
    choice: str
    worth: m.TokenKind | None = None


@frozen
class Before:
    """An action taken before the main action (docs/language.md, "Several
    actions a turn"): its place among those actions, in declared order (it
    is open while the state's `stage` is at most this), and the stage once
    it is taken (its place again if taken any number of times, the next
    place if once). Taking it does not end the turn."""

    place: int
    after: int


@frozen
class Legal:
    """An action's enumerator of legal moves. `defines`: the definitions
    its choice part reads, read once at its top; `before`: the action is
    taken before the main one (no move while it is closed)."""

    action: m.Action
    index: int
    defines: tuple[str, ...]
    early: Early | None
    body: Block
    before: Before | None = None


# ------------------------------------------------------------------ apply


@frozen
class Pick(Op):
    """Read a choice's value from the move, refusing one not offered."""

    statement: m.Choose
    own: tuple[str, ...]
    position: int
    plain: bool


@frozen
class PickSet(Op):
    """Read a combination of distinct values from the move."""

    statement: m.ChooseDistinct
    own: tuple[str, ...]
    position: int


@frozen
class PickLine(Op):
    """Read a line of cells from the move, refusing one not offered."""

    statement: m.ChooseLine
    own: tuple[str, ...]
    position: int


@frozen
class PickPayment(Op):
    """Read a payment (and, spending cards, the cards) from the move;
    `worth` as for `Payment`."""

    statement: m.Pay
    position: int
    worth: m.TokenKind | None = None


@frozen
class Check(Op):
    """A requirement tested, refused with its message."""

    statement: m.Require
    own: tuple[str, ...]


@frozen
class Apply:
    """An action's apply: read and check the move (`reads`), then make the
    effects on a copy of the state. `values`: the names of the move's values
    (choices, then the payment and the cards spent)."""

    action: m.Action
    index: int
    values: tuple[str, ...]
    reads: Block
    effects: Block
    before: Before | None = None  # refused while closed; the turn goes on after it


# ---------------------------------------------------------------- effects


@frozen
class Note(Op):
    """A statement with nothing to do here that states rules of its own."""

    statement: m.Statement
    own: tuple[str, ...]


@frozen
class Gain(Op):
    """`gain N of T`; `may_be_none`: T may be none (nothing is gained)."""

    statement: m.Gain
    own: tuple[str, ...]
    may_be_none: bool


@frozen
class GainEach(Op):
    statement: m.GainEach
    own: tuple[str, ...]


@frozen
class Transfer(Op):
    """`take`/`give`: up to N tokens of T from a holder to another (a player,
    or None for the supply); `may_be_none`: T may be none (nothing moves)."""

    statement: m.Transfer
    own: tuple[str, ...]
    may_be_none: bool


@frozen
class GiveBack(Op):
    """The tokens of the move's payment go back to the supply."""

    statement: m.Pay


@frozen
class SpendCards(Op):
    """The cards the payment spends go back to the box."""

    variable: str


@frozen
class MoveCard(Op):
    """A card moved to a zone; `hooked`: entering the zone runs code."""

    statement: m.Move
    own: tuple[str, ...]
    hooked: bool


@frozen
class TakeTile(Op):
    statement: m.Move
    own: tuple[str, ...]


@frozen
class SetValue(Op):
    statement: m.SetValue
    own: tuple[str, ...]


@frozen
class ReturnToBox(Op):
    statement: m.ReturnToBox
    own: tuple[str, ...]


@frozen
class TakeCells(Op):
    """The tokens of a chosen cell, or cells, into the player's supply."""

    statement: m.TakeCells
    own: tuple[str, ...]


@frozen
class RefillBoard(Op):
    """The bag drawn onto the board's empty cells, in fill order."""

    statement: m.RefillBoard
    own: tuple[str, ...]


@frozen
class AnotherTurn(Op):
    """`play another turn`: the state's `again` is set; the end of the turn
    gives the same player a whole new turn (unless the game has ended)."""

    statement: m.AnotherTurn
    own: tuple[str, ...]


@frozen
class When(Op):
    """`if C:` among the effects."""

    statement: m.If
    own: tuple[str, ...]
    body: Block


@frozen
class EffectLet(Op):
    """`let` among the effects; `read_later`: the rest of its block reads it."""

    statement: m.Let
    own: tuple[str, ...]
    read_later: bool


@frozen
class Wait(Op):
    """A follow-up decision: queue it with the names its rest reads; it
    ends the block (its rest is its own)."""

    choice: m.Choose | m.ChooseDistinct
    site: int
    carried: tuple[str, ...]


# ------------------------------------------------------------- follow-ups


@frozen
class Carried:
    """A name a follow-up carries; `read`: what the function reads it."""

    name: str
    type: m.Type
    read: bool


@frozen
class FollowUp:
    """A follow-up decision: its options (the choice's loop, over the names
    carried), and what runs once it is decided (`take`) or skipped (`skip`:
    for want of an option, or declined): blocks, innermost first, the last
    the one a later wait ends."""

    site: identities.FollowUp
    index: int
    options: ChoiceLoop | CombinationLoop
    options_carried: tuple[Carried, ...]
    take: tuple[Block, ...]
    take_carried: tuple[Carried, ...]
    skip: tuple[Block, ...]
    skip_carried: tuple[Carried, ...]
    # `may choose`: the options end with the decline, which runs `skip`
    declinable: bool = False


# ------------------------------------------------------------ zone hooks


@frozen
class TriggerPlan:
    """A trigger's effects; `waits`: it makes a follow-up decision, so it
    has a function of its own that the decision returns from."""

    trigger: m.Trigger
    waits: bool
    body: Block


@frozen
class Contest(Op):
    """A majority tile contested as a card enters its zone: a player's
    measure towards it, and the tile taken if the measure reaches the
    threshold and beats the holder's (printed as a target's functions)."""

    statement: m.Majority


@frozen
class Hook:
    """What runs when a card enters a zone: its triggers, in order, then
    the contests of the majorities it decides."""

    zone: str
    triggers: tuple[TriggerPlan, ...]
    majorities: tuple[m.Majority, ...]


# ------------------------------------------------------ the end of a turn
#
# A step is printed as a target's functions (its options, the effect of the
# option decided, and the step run at the turn's end), not as statements.


@frozen
class ReturnTokens(Op):
    """A step: a player above the limit returns tokens down to it.
    `counted`: the kinds (by index) it counts and may return (None: all)."""

    statement: m.TokenLimit
    index: int
    counted: tuple[int, ...] | None


@frozen
class ClaimTile(Op):
    """A step: a tile of the set where the condition holds, claimed.
    `faces`: claimed from the player's tiles in a zone, those of the set
    (None: from the tiles in play); `defines`: the definitions the
    condition reads; `shared`: of a set claimed once per player, the tile
    zones its claims go into (a tile one holds is claimed already; the
    claim leaves it in play), else None."""

    statement: m.Claim
    index: int
    faces: tuple[int, ...] | None
    defines: tuple[str, ...]
    shared: tuple[str, ...] | None


@frozen
class CheckEnd(Op):
    """A step: the endings checked at the turn's end, `last_round` (the
    round is played out) then `game_over` (the game ends at once)."""

    statement: m.EndCheck
    index: int
    last_round: tuple[m.Ending, ...]
    game_over: tuple[m.Ending, ...]


Step = ReturnTokens | ClaimTile | CheckEnd


@frozen
class RoundEnds(Op):
    """The test when a round ends: does one of these endings hold?"""

    endings: tuple[m.Ending, ...]


@frozen
class TurnEnd:
    """The end of a turn: its steps, in order; `stops`: an ending can end the game at a
    turn's end check (no further step runs); then, as a round ends, its test."""

    steps: tuple[Step, ...]
    stops: bool
    round_ends: RoundEnds


# ------------------------------------------------------------- scoring


@frozen
class Score(Op):
    """A player's score, a definition read for a player."""

    statement: m.Define


@frozen
class Ranking(Op):
    """Who may win (`among`, None: everyone) and each player's keys, the
    highest best (a `lowest` key is negated)."""

    statement: m.Winners


@frozen
class Scoring:
    score: Score
    ranking: Ranking


# --------------------------------------------------------------- set-up


@frozen
class Gift(Op):
    """At setup, the player `after` seats after the first gains tokens;
    `every_game`: every player count has that seat (else a test)."""

    statement: m.SeatGift
    after: int
    every_game: bool


@frozen
class Reveal(Op):
    """At setup, tiles of a set revealed (the count read for seat 0), the
    `index`-th reveal."""

    statement: m.Reveal
    index: int


@frozen
class Setup:
    """What setup does beyond the data tables: the gifts, then the reveals."""

    gifts: tuple[Gift, ...]
    reveals: tuple[Reveal, ...]
    counts_first: bool  # several reveals: each count reads the state before any reveal


@frozen
class Plan:
    """An edition's plan: per action (in order) its enumerator (None for
    one legal only when no other is) and apply; per trigger its effects;
    per zone whose entry runs code its hook; per majority its contest; the
    follow-ups; the end of a turn, the scoring and the set-up."""

    legal: tuple[Legal | None, ...]
    apply: tuple[Apply, ...]
    triggers: tuple[TriggerPlan, ...]
    hooks: tuple[Hook, ...]
    contests: tuple[Contest, ...]
    follow_ups: tuple[FollowUp, ...]
    turn_end: TurnEnd
    scoring: Scoring
    setup: Setup
