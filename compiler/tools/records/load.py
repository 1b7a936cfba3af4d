"""Reading a record: its header, its start, its steps and its expectations,
validated against the edition and set up on an engine, ready to replay.

Everything wrong with a record is found here, as a RecordError naming the
step it concerns, so that replaying it can only find the engine at fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from splendor_rules.compiler.runtime.api import Action, Engine, State
from splendor_rules.compiler.tools.records.actions import action_data, canonical, to_action
from splendor_rules.compiler.tools.records.catalog import (
    Catalog,
    engine,
    engine_catalog,
    named_engine,
)
from splendor_rules.compiler.tools.records.expect import validated_checks
from splendor_rules.compiler.tools.records.form import (
    RECORD_KEYS,
    REQUIRED_KEYS,
    Json,
    RecordError,
    brief,
    is_int,
)
from splendor_rules.compiler.tools.records.setup import apply_setup


@dataclass
class Step:
    """One step of a record: the action and what must happen to it."""

    index: int  # 1-based
    data: dict[str, Json]  # the action in JSON form
    action: Action
    illegal: tuple[str, ...] | None = None  # rule ids that must refuse it


@dataclass
class Record:
    """A record read and validated, ready to replay."""

    source: str
    title: str
    rules: tuple[str, ...]
    edition: str
    players: int
    seed: int
    first_player: int
    start: Any  # the engine's starting state
    steps: list[Step]
    checks: dict[int, dict[str, Json]] = field(default_factory=dict)  # after step k
    # The fingerprint of the rules the record was played under (None: it
    # names none) and of the rules it is replayed against.
    fingerprint: str | None = None
    rules_fingerprint: str | None = None

    @property
    def other_rules(self) -> bool:
        """Was the record made under other rules than the engine's? (A record
        without a fingerprint is taken to match.)"""
        return self.fingerprint is not None and self.fingerprint != self.rules_fingerprint


def load_record(
    data: Json, source: str, kind: str = "generated", rules: str | None = None
) -> tuple[Record, Engine]:
    """A record (parsed JSON) validated and set up on an engine of `kind`:
    of the edition it names, or of the rule file `rules` (which must
    declare that edition)."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    stray = sorted(set(data) - RECORD_KEYS)
    if stray:
        raise RecordError(f"a record has no key {', '.join(map(brief, stray))}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise RecordError(f"a record needs {', '.join(map(repr, missing))}")
    edition = data["edition"]
    if not isinstance(edition, str):
        raise RecordError(f"edition must be a name, not {brief(edition)}")
    eng = named_engine(edition, kind) if rules is None else engine(rules, kind)
    if rules is not None and edition != eng.EDITION:
        raise RecordError(
            f"the record is of edition {brief(edition)}; {rules} declares {eng.EDITION!r}"
        )
    cat = engine_catalog(eng)  # from the engine itself: an interpreted edition may have no module
    record = _header(data, source, eng, cat)
    fingerprint = data.get("fingerprint")
    if fingerprint is not None and not isinstance(fingerprint, str):
        raise RecordError(f"fingerprint must be a string, not {brief(fingerprint)}")
    record.fingerprint = fingerprint
    record.rules_fingerprint = eng.DESCRIPTION.get("fingerprint")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    for index, raw in enumerate(actions, start=1):
        try:
            record.steps.append(_step(index, raw, cat, eng, record))
        except RecordError as error:
            if error.step is None:
                error.step = index
            raise
    _expectations(data.get("expect", []), record, cat, eng)
    return record, eng


def _header(data: dict[str, Json], source: str, eng: Engine, cat: Catalog) -> Record:
    """The record with its title, rules, players and start, and no step yet."""
    edition = cat.name
    title, rules = data["title"], data["rules"]
    if not isinstance(title, str) or not title:
        raise RecordError("title must be a non-empty string")
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise RecordError("rules must be a list of rule ids")
    _check_informative(data)
    unknown = [r for r in rules if r not in cat.rule_ids]
    if unknown:
        named = [r if r.isprintable() and len(r) <= 20 else brief(r) for r in unknown[:5]]
        shown = ", ".join(named) + (", ..." if len(unknown) > 5 else "")
        raise RecordError(f"rule id(s) {shown} are not rules of edition {edition}")
    players, seed = data["players"], data["seed"]
    first = data.get("first_player", 0)
    for name, value in (("players", players), ("seed", seed), ("first_player", first)):
        if not is_int(value):
            raise RecordError(f"{name} must be a whole number, not {brief(value)}")
    if players not in eng.PLAYERS:
        raise RecordError(
            f"{edition} is for {eng.PLAYERS.start} to {eng.PLAYERS.stop - 1} players, not {players}"
        )
    if not 0 <= first < players:
        raise RecordError(f"first_player {first} is not a seat of {players} players")
    if "state" in data and "setup" in data:
        raise RecordError("a record has a 'state' or a 'setup', not both")
    start = _start(data, eng, cat, players, seed, first)
    return Record(source, title, tuple(rules), edition, players, seed, first, start, [])


def _check_informative(data: dict[str, Json]) -> None:
    """The keys nothing replays are still of their kind: free text, bot names."""
    for key in ("description", "notes"):
        if key in data and not isinstance(data[key], str):
            raise RecordError(f"{key} must be free text, a string, not {brief(data[key])}")
    bots = data.get("bots", [])
    if not isinstance(bots, list) or not all(isinstance(bot, str) for bot in bots):
        raise RecordError(f"bots must be a list of bot names, not {brief(bots)}")


def _start(
    data: dict[str, Json], eng: Engine, cat: Catalog, players: int, seed: int, first: int
) -> State:
    """The starting state: the record's whole state, or a new game, patched
    by the record's setup if it has one."""
    if "state" in data:
        given = data["state"]
        if not isinstance(given, dict):
            raise RecordError("state must be a state in the engine's JSON form")
        if given.get("edition") != cat.name or given.get("players") != players:
            raise RecordError(
                f"state is of {brief(given.get('edition'))} with {brief(given.get('players'))}"
                f" players, not of {cat.name!r} with {players}"
            )
        try:
            return eng.from_json(given, complete=False)  # a hand-made position
        except Exception as error:  # whatever the engine makes of a wrong state
            raise RecordError(f"state is not a {cat.name} state: {brief(error)}") from error
    try:
        state = eng.new_game(players, seed, first)
    except ValueError as error:
        raise RecordError(str(error)) from error
    if "setup" not in data:
        return state
    patched = apply_setup(eng.to_json(state), data["setup"], cat)
    try:
        return eng.from_json(patched, complete=False)  # a hand-made position
    except Exception as error:  # whatever the engine makes of a wrong state
        raise RecordError(f"the setup gives no valid state: {brief(error)}") from error


def _step(index: int, raw: Json, cat: Catalog, eng: Engine, record: Record) -> Step:
    action = to_action(action_data(raw, cat), eng)
    step = Step(index, canonical(action, eng), action)
    if isinstance(raw, dict):
        if not isinstance(raw.get("note", ""), str):
            raise RecordError(f"a note is free text, a string, not {brief(raw['note'])}")
        if "illegal" in raw:
            _set_illegal(step, raw["illegal"])
        if "expect" in raw:
            _add_checks(record, index, raw["expect"], cat, eng)
    return step


def _expectations(expects: Json, record: Record, cat: Catalog, eng: Engine) -> None:
    """The record's `expect` list, added to its steps."""
    if not isinstance(expects, list):
        raise RecordError('expect must be a list of {"step": k, ...} entries')
    for entry in expects:
        if not isinstance(entry, dict) or not is_int(entry.get("step")):
            raise RecordError(f"an expect entry needs a step number: {brief(entry)}")
        k = entry["step"]
        if not 0 <= k <= len(record.steps):
            raise RecordError(f"expect: there is no step {k} (0 to {len(record.steps)})")
        body = {key: value for key, value in entry.items() if key != "step"}
        if "illegal" in body:
            if k == 0:
                raise RecordError("expect: 'illegal' names a step from 1 on")
            _set_illegal(record.steps[k - 1], body.pop("illegal"))
        _add_checks(record, k, body, cat, eng)


def _set_illegal(step: Step, ids: Json) -> None:
    if isinstance(ids, str):
        ids = [part.strip() for part in ids.split(",")]
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i for i in ids):
        raise RecordError(f"illegal names the rule id(s) that refuse the step, not {brief(ids)}")
    step.illegal = tuple(ids)


def _add_checks(record: Record, k: int, checks: Json, cat: Catalog, eng: Engine) -> None:
    """The checks to make after step k, validated and added to the record."""
    known = record.checks.setdefault(k, {})
    for key, value in validated_checks(checks, k, record.players, cat, eng).items():
        if key in known and known[key] != value:
            raise RecordError(f"expect after step {k}: two different {key} checks")
        known[key] = value
