"""The checker: every comparison of the two probe engines, tallied per rule.

From each setup and each position of a random game of a, the views, the
legal moves, the state after each move both engines allow and the options of
the decision it leaves pending are compared; a difference is blamed on the
shared rules that may have written the parts that differ (_WRITERS).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.conformance.correspondence import COPIED, Correspondence
from splendor_rules.compiler.tools.conformance.probes import Probe
from splendor_rules.compiler.tools.conformance.projection import Projection
from splendor_rules.compiler.tools.conformance.results import Case, Report, Tally, Where


def _differences(x: Any, y: Any, path: str = "") -> Iterator[str]:
    """Where two JSON values differ, as paths."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in [*x, *(k for k in y if k not in x)]:
            yield from _differences(x.get(key), y.get(key), f"{path}.{key}" if path else key)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y, strict=True)):
            yield from _differences(u, v, f"{path}[{i}]")
    elif x != y:
        yield f"{path or 'value'}: {json.dumps(x)} != {json.dumps(y)}"


def _fields(x: Json, y: Json) -> set[str]:
    """The parts of two projected states that differ: top-level fields, and
    `tokens`, `zones` and `did` for the seats."""
    found = {k for k in x.keys() | y.keys() if k != "seats" and x.get(k) != y.get(k)}
    for u, v in zip(x.get("seats", ()), y.get("seats", ()), strict=False):
        found |= {k for k in u.keys() | v.keys() if u.get(k) != v.get(k)}
    return found


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _cards(market: Mapping[str, list[int | None]]) -> set[int]:
    return {k for row in market.values() for k in row if k is not None}


# Which rules may write each part of a state, by group (see Checker.groups).
_WRITERS: dict[str, tuple[str, ...]] = {
    "supply": ("action", "steps", "entry", "tokens"),
    "tokens": ("action", "steps", "entry", "tokens"),
    "decks": ("action", "refill"),
    "market": ("action", "refill"),
    "hidden": ("action",),
    "zones": ("action", "entry", "claim"),
    "did": ("action",),
    "pending": ("steps", "entry"),  # a decision step, or a trigger's follow-up
    "current_player": ("turn", "steps"),
    "turn": ("turn", "steps"),
    "last_round": ("end", "define"),
    "over": ("end", "round", "define"),
    "scores": ("score", "define"),
    "winners": ("winners", "define"),
    "tiles": ("claim",),
    "card_values": ("action", "entry", "steps"),
}


class Checker:
    """Runs the comparisons and tallies them per rule id."""

    def __init__(self, corr: Correspondence, a: Probe, b: Probe, report: Report) -> None:
        self.corr, self.report = corr, report
        self.ea, self.eb = a.engine, b.engine
        self.projected = Projection(corr)
        self.index = 0  # of the position being compared
        self.at = Where("", "", (0, 0))
        ids = corr.ids_of
        b_model = b.model
        self.deck_ids = ids(["market", "randomness"])
        self.random_ids = ids(["randomness"])
        self.seat_ids = ids(["turn order"])
        self.supply_ids = ids(["supply"])
        self.reveal_ids = ids(["reveal", "tiles"]) if corr.tiles_shared else []
        self.view_ids = ids(["hidden"])
        self.refill_ids = ids(["refill"])
        self.decision_ids = ids(["decisions"])
        self.token_ids = ids(["token"])
        self.score_ids = ids(["score"])
        self.define_ids = ids(["define"])
        self.winner_ids = ids(["winners"])
        self.end_ids = ids(["step"], [x.name for x in b_model.steps if isinstance(x, m.EndCheck)])
        at_check = [x.name for x in b_model.endings if x.mode in ("once", "at_turn_end")]
        self.end_ids += ids(["end"], at_check)
        self.round_ids = ids(["end"], [x.name for x in b_model.endings if x.mode == "at_round_end"])
        self.claim_ids = ids(["step"], [x.name for x in b_model.steps if isinstance(x, m.Claim)])
        self.limits: dict[str, tuple[int, int]] = {}  # b's token-limit steps: both limits
        for step in a.model.steps:
            name = corr.forward.steps.get(step.name)
            other = next((x for x in b_model.steps if x.name == name), None)
            if isinstance(step, m.TokenLimit) and isinstance(other, m.TokenLimit):
                self.limits[other.name] = (step.limit, other.limit)
        self.entry_ids: dict[str, list[str]] = {}  # a zone -> the rules a card entering it runs
        for trigger in b_model.triggers:  # shared, or declared changed
            own = ids(["trigger"], [trigger.name]) + corr.changed_ids_of("trigger", trigger.name)
            self.entry_ids.setdefault(trigger.zone, []).extend(own)
        for majority in b_model.majorities:
            self.entry_ids.setdefault(majority.event_zone, []).extend(
                ids(["majority"], [majority.name])
            )
        self.compared = self._compared_actions(a.model, b_model)

    def _compared_actions(self, a: m.Edition, b: m.Edition) -> dict[str, list[str]]:
        """b's actions whose legal moves are compared, with their rule ids: the
        shared ones, and those of a that b declares changed whose moves
        correspond (a difference is then the change's, see blame). The
        fallback action is compared when the others are shared or declared
        changed (overridden, added or removed): it is legal exactly when they
        all are not, so a difference there is blamed on the changed ones."""
        names, corr = self.corr.forward.actions, self.corr
        both = {names[x.name] for x in a.actions if x.name in names}
        shared = {x for x in both if ("action", x) in corr.paired_b}
        changed = {
            x.name: corr.changed_ids_of("action", x.name)
            for x in b.actions
            if x.name not in shared and x.body is not None
        }
        alike = {names[x] for x in corr.unset}  # moves that correspond
        removed = [
            corr.removed.get(("action", x.name), ()) for x in a.actions if x.name not in names
        ]
        everything = all(removed) and all(changed.values())
        compared = {
            x.name: self.corr.ids_of(["action"], [x.name])
            for x in b.actions
            if x.name in shared and (x.body is not None or everything)
        }
        for x in b.actions:
            if x.name in compared and x.body is None:
                compared[x.name] += [i for ids in [*changed.values(), *removed] for i in ids]
            elif x.name in changed and x.name in both and x.name in alike:
                compared[x.name] = changed[x.name]
        return compared

    # ------------------------------------------------------------- tallies

    def ok(self, ids: Iterable[str]) -> None:
        for rule_id in ids:
            self.report.tallies.setdefault(rule_id, Tally()).ok.add(self.index)

    def fail(self, case: Case) -> None:
        for rule_id in case.ids:
            self.report.tallies.setdefault(rule_id, Tally()).bad.add(self.index)
        if all(i in self.corr.changed_ids for i in case.ids):
            self.report.changed.append(case)  # a change b declares acted: no divergence
        else:
            self.report.cases.append(case)

    def case(
        self,
        ids: Iterable[str],
        what: str,
        action: str | None,
        result_a: Any,
        result_b: Any,
        differences: Iterable[str] | None = None,
    ) -> Case:
        """A case at the current place; results that are not text are shown
        as JSON, with the paths where they differ."""
        if differences is None:
            differences = _differences(result_a, result_b)
        shown_a, shown_b = (
            r if isinstance(r, str) else _canonical(r) for r in (result_a, result_b)
        )
        return Case(tuple(ids), what, self.at, action, shown_a, shown_b, tuple(differences))

    def blame(self, candidates: Iterable[str]) -> tuple[str, ...]:
        """The rules to blame for a difference that any of `candidates` may
        have made: the ones b declares changed if there are any (the change
        explains it), else the restated ones (an unchanged inherited rule is
        blamed only when neither can explain it)."""
        candidates = tuple(dict.fromkeys(candidates))
        changed = tuple(i for i in candidates if i in self.corr.changed_ids)
        restated = tuple(i for i in candidates if i in self.corr.restated)
        return changed or restated or candidates

    def compare(
        self,
        groups: Mapping[str, list[str]],
        x: Json,
        y: Json,
        what: str,
        action: str | None = None,
    ) -> None:
        """Tally one comparison of two projected states. A difference is
        blamed on the rules that may write the parts that differ."""
        exercised = [i for ids in groups.values() for i in ids]
        if x == y:
            self.ok(exercised)
            return
        fields = _fields(x, y)
        if "pending" in fields:  # a decision pending in one only: the turn waits for it
            fields -= {"current_player", "turn"}
        writers = {g for f in fields for g in _WRITERS.get(f, ())}
        blamed = self.blame(i for g in writers for i in groups.get(g, ())) or self.blame(exercised)
        if blamed:
            self.fail(self.case(blamed, what, action, x, y))

    def setups(self, players: int, seed: int) -> None:
        """Compare the setups of one seed, for every first player."""
        ea, eb = self.ea, self.eb
        for first in range(players):
            self.index += 1
            self.report.setups += 1
            shown = f"setup of {players} players, seed {seed}, first player {first}"
            self.at = Where(shown, shown, (-1, self.index))
            sa = ea.to_json(ea.new_game(players, seed, first))
            sb = eb.to_json(eb.new_game(players, seed, first))
            again = (
                ea.to_json(ea.new_game(players, seed, first)) == sa,
                eb.to_json(eb.new_game(players, seed, first)) == sb,
            )
            self.compare(
                {"random": self.random_ids},
                {"the same both times": list(again)},
                {"the same both times": [True, True]},
                "the setup made twice in each engine",
            )
            pa, pb = self.projected.a(sa), self.projected.b(sb)
            assert pa is not None  # a setup holds nothing
            parts = (
                (self.deck_ids, ("decks", "market", "hidden")),
                (self.seat_ids, (*COPIED[:6], "pending", "seats")),
                (self.supply_ids, ("supply",)),
            )
            for ids, keys in parts:
                x, y = {k: pa[k] for k in keys}, {k: pb[k] for k in keys}
                self.compare({"setup": ids}, x, y, "the setup")
            if self.reveal_ids:
                renaming = self.corr.diff.renaming("tiles")
                tiles_a = {renaming.get(k, k): v for k, v in sa["tiles"].items()}
                self.compare(
                    {"reveal": self.reveal_ids}, tiles_a, sb["tiles"], "the tiles revealed"
                )

    # ----------------------------------------------------------- positions

    def position(self, state_a: Any, extra_supply: Mapping[str, int]) -> None:
        """Compare everything the shared rules decide from one state of a:
        the views, the legal moves, and the state after each of them."""
        ea, eb, corr = self.ea, self.eb, self.corr
        data_a = ea.to_json(state_a)
        if data_a["over"]:
            return
        converted = corr.position(data_a, extra_supply, eb.EDITION)
        if converted is None:
            self.report.skipped += 1
            return
        state_b = eb.from_json(converted, complete=False)  # converted: tokens may differ
        self.index += 1
        self.report.positions += 1
        shown = _canonical(converted)
        self.at = Where(_canonical(data_a), shown, (converted["turn"], len(shown)))
        for player in range(converted["players"]):
            view_a = self.projected.a(ea.view(state_a, player)) or {}
            view_b = self.projected.b(eb.view(state_b, player))
            self.compare({"view": self.view_ids}, view_a, view_b, f"the view of seat {player}")
        legal_a: dict[str, tuple[str, Any]] = {}
        for action in ea.legal_actions(state_a):
            data = corr.forward.action(ea.action_to_json(action))
            if data is not None:
                legal_a[_canonical(data)] = (data["action"], action)
        legal_b: dict[str, tuple[str, Any]] = {}
        for action in eb.legal_actions(state_b):
            data = eb.action_to_json(action)
            legal_b[_canonical(data)] = (data["action"], action)
        pending = converted["pending"]
        groups = self.compared
        if isinstance(pending, str):
            groups = {pending: self.step_ids(pending)}
        elif isinstance(pending, list):  # a shared trigger's follow-up decision
            decision = pending[0]["decision"]
            groups = {decision: corr.ids_of(["trigger"], [decision.partition(".")[0]])}
        for name, ids in groups.items():
            mine_a = {k for k, (n, _) in legal_a.items() if n == name}
            mine_b = {k for k, (n, _) in legal_b.items() if n == name}
            if mine_a == mine_b:
                self.ok(ids)
            for key in sorted(mine_a ^ mine_b):
                self.fail(self.legal_case(ids, key, key in mine_a, state_a, state_b))
            for key in sorted(mine_a & mine_b):
                self.report.actions += 1
                moves = (legal_a[key][1], legal_b[key][1])
                self.apply(ids, data_a, (state_a, state_b), moves, key)

    def step_ids(self, step: str) -> list[str]:
        """The rules a step of b exercises: its own (shared, or declared
        changed) and the decisions'."""
        own = self.corr.ids_of(["step"], [step]) + self.corr.changed_ids_of("step", step)
        return [*own, *self.decision_ids]

    def legal_case(self, ids: list[str], key: str, in_a: bool, state_a: Any, state_b: Any) -> Case:
        """An action legal in one engine only, with the other's refusal."""
        data = json.loads(key)
        engine, state = (self.eb, state_b) if in_a else (self.ea, state_a)
        mine = data if in_a else self.corr.backward.action(data)
        try:
            if mine is None:
                raise ValueError("the edition has no such action")
            engine.apply(state, engine.action_from_json(mine))
            refusal = "yet apply accepts it"
        except ValueError as error:
            refusal = f"apply refuses it: {error}"
        legal, other = "legal", f"not legal ({refusal})"
        ra, rb = (legal, other) if in_a else (other, legal)
        return self.case(self.blame(ids), "the legal actions", key, ra, rb, ())

    def apply(
        self,
        ids: list[str],
        before: Json,
        states: tuple[Any, Any],
        moves: tuple[Any, Any],
        key: str,
    ) -> None:
        """Apply one move in both engines and compare the states after it,
        and the options of a decision it leaves pending."""
        ea, eb = self.ea, self.eb
        try:
            after_a, after_b = ea.apply(states[0], moves[0]), eb.apply(states[1], moves[1])
        except ValueError as error:
            self.fail(
                self.case(
                    self.blame(ids), "applying a legal move", key, "", "", [f"refused: {error}"]
                )
            )
            return
        data_a, data_b = ea.to_json(after_a), eb.to_json(after_b)
        groups = self.groups(ids, before, data_a, data_b)
        acted = self.projected.foreign(data_a, True) or self.projected.foreign(data_b, False)
        pa, pb = self.projected.a(data_a), self.projected.b(data_b)
        if acted is not None or pa is None:
            exercised = dict.fromkeys(i for g in groups.values() for i in g)
            what = "the states after the move"
            self.report.void.append(
                self.case(exercised, what, key, data_a, data_b, [acted or "a part only a has"])
            )
            return
        if self.score_ids or self.define_ids:
            pa["scores"], pb["scores"] = list(ea.scores(after_a)), list(eb.scores(after_b))
        if self.winner_ids and (data_a["over"] or data_b["over"]):
            pa["winners"], pb["winners"] = sorted(ea.winners(after_a)), sorted(eb.winners(after_b))
        self.compare(groups, pa, pb, "the state after the move", key)
        pending = data_b["pending"]
        if isinstance(pending, str) and data_a["pending"] == self.corr.backward.steps.get(pending):
            options_a = [
                _canonical(self.corr.forward.action(ea.action_to_json(x)))
                for x in ea.legal_actions(after_a)
            ]
            options_b = [_canonical(eb.action_to_json(x)) for x in eb.legal_actions(after_b)]
            self.compare(
                {"steps": self.step_ids(pending)},
                {"options": sorted(options_a)},
                {"options": sorted(options_b)},
                "the options of the decision the move leaves pending",
                key,
            )

    def groups(
        self, ids: list[str], before: Json, after_a: Json, after_b: Json
    ) -> dict[str, list[str]]:
        """The rules a move exercised, by what they may write (_WRITERS)."""
        mover = before["current_player"]
        steps: list[str] = []
        for data in (before, after_a, after_b):
            pending = data["pending"]
            if isinstance(pending, str):  # (not follow-up decisions, a list)
                steps += self.step_ids(self.corr.forward.steps.get(pending, pending))
        for name, limits in self.limits.items():  # a token limit that may have acted
            held = [sum(d["seats"][mover]["tokens"].values()) for d in (after_a, after_b)]
            if any(h >= limit for h, limit in zip(held, limits, strict=True)):
                steps += self.step_ids(name)
        found = {
            "action": ids,
            "steps": steps,
            "end": self.end_ids,
            "tokens": self.token_ids,
            "score": self.score_ids,
            "define": self.define_ids,
            "winners": self.winner_ids if after_a["over"] or after_b["over"] else [],
            "refill": [],
            "turn": [],
            "round": [],
            "claim": [],
            "entry": [],
        }
        if _cards(before["market"]) - _cards(after_a["market"]):
            found["refill"] = self.refill_ids
        if after_a["turn"] != before["turn"] or after_b["turn"] != before["turn"]:
            found["turn"] = self.seat_ids
            if after_a["current_player"] == after_a["first_player"]:
                found["round"] = self.round_ids
        if self.corr.tiles_shared and (after_a["tiles"] != before["tiles"]):
            found["claim"] = self.claim_ids
        back = {new: old for old, new in self.corr.zones.items()}
        for zone, entry in self.entry_ids.items():
            zone_a = back.get(zone)
            if zone_a is not None and len(after_a["seats"][mover]["zones"][zone_a]) > len(
                before["seats"][mover]["zones"][zone_a]
            ):
                found["entry"] = found["entry"] + entry
        return found
