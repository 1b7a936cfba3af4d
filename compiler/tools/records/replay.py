"""Replaying a record on an engine and checking its expectations.

Replay is where an engine is judged: every action is applied (or must be
refused by the rules the record names) and every check is compared, and the
first step that does not hold is returned as a Failure, never raised.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from splendor_rules.compiler.frontend.rule_ids import RULE_ID_FORM
from splendor_rules.compiler.runtime.api import Engine, State
from splendor_rules.compiler.tools.records.actions import canonical, short_form
from splendor_rules.compiler.tools.records.form import CHECK_KEYS, Json, RecordError, read_json
from splendor_rules.compiler.tools.records.load import Record, Step, load_record
from splendor_rules.compiler.tools.records.setup import by_seat

_ID = RULE_ID_FORM.pattern
_LEADING_IDS = re.compile(rf"^\s*({_ID}(?:\s*,\s*{_ID})*)\s*:")

Problem = tuple[str, Json, Json]  # (what, expected, actual)


@dataclass
class Failure:
    """Where and how a record does not hold."""

    step: int
    action: str | None
    problems: list[Problem]


def leading_ids(message: str) -> tuple[str, ...]:
    """The rule ids an IllegalAction message starts with."""
    match = _LEADING_IDS.match(message)
    if match is None:
        return ()
    return tuple(part.strip() for part in match.group(1).split(","))


# ---------------------------------------------------------------- checks

# A check: (its spec, the state, its JSON form, the engine) -> (expected, actual).
_Check = Callable[[Json, State, Json, Engine], tuple[Json, Json]]


def _full(counts: Mapping[str, int], eng: Engine) -> dict[str, int]:
    return {kind: int(counts.get(kind, 0)) for kind in eng.TOKENS}


def _offered(state: State, eng: Engine) -> list[str]:
    return [short_form(canonical(a, eng)) for a in eng.legal_actions(state)]


def _holdings(spec: Json, state: State, data: Json, eng: Engine) -> tuple[Json, Json]:
    expected: dict[str, Json] = {}
    actual: dict[str, Json] = {}
    for seat, part in by_seat(spec, data["players"], "holdings").items():
        for key, value in part.items():
            label = f"seat {seat} {key}"
            if key == "tokens":
                expected[label] = _full(value, eng)
                actual[label] = _full(data["seats"][seat]["tokens"], eng)
            else:
                expected[label] = list(value)
                actual[label] = data["seats"][seat]["zones"][key]
    return expected, actual


def _legal_includes(spec: Json, state: State, data: Json, eng: Engine) -> tuple[Json, Json]:
    offered = set(_offered(state, eng))
    wanted = sorted(map(short_form, spec))
    return wanted, [a for a in wanted if a in offered]


def _legal_excludes(spec: Json, state: State, data: Json, eng: Engine) -> tuple[Json, Json]:
    offered = set(_offered(state, eng))
    return [], [a for a in sorted(map(short_form, spec)) if a in offered]


def _seen_by(spec: Json, state: State, data: Json, eng: Engine) -> tuple[Json, Json]:
    expected: dict[str, Json] = {}
    actual: dict[str, Json] = {}
    for viewer, seats in spec.items():
        view = eng.view(state, int(viewer))
        for seat, zones in seats.items():
            for zone, cards in zones.items():
                label = f"seat {seat} {zone} as seat {viewer} sees it"
                expected[label] = cards
                actual[label] = view["seats"][int(seat)]["zones"][zone]
    return expected, actual


def _by_tier(spec: Json) -> dict[str, Json]:
    return {str(t): n for t, n in spec.items()}


_CHECKS: dict[str, _Check] = {
    "scores": lambda spec, state, data, eng: (list(spec), list(eng.scores(state))),
    "winners": lambda spec, state, data, eng: (sorted(spec), sorted(eng.winners(state))),
    "is_over": lambda spec, state, data, eng: (spec, bool(eng.is_over(state))),
    "current_player": lambda spec, state, data, eng: (spec, eng.current_player(state)),
    "pending": lambda spec, state, data, eng: (spec, data["pending"]),
    "last_round": lambda spec, state, data, eng: (spec, data["last_round"]),
    "turn": lambda spec, state, data, eng: (spec, data["turn"]),
    "supply": lambda spec, state, data, eng: (_full(spec, eng), _full(data["supply"], eng)),
    "holdings": _holdings,
    "market": lambda spec, state, data, eng: (
        {str(t): list(r) for t, r in spec.items()},
        {str(t): data["market"].get(str(t)) for t in spec},
    ),
    "market_sizes": lambda spec, state, data, eng: (
        _by_tier(spec),
        {str(t): sum(k is not None for k in data["market"].get(str(t), [])) for t in spec},
    ),
    "deck_sizes": lambda spec, state, data, eng: (
        _by_tier(spec),
        {str(t): len(data["decks"].get(str(t), [])) for t in spec},
    ),
    "tiles": lambda spec, state, data, eng: (
        dict(spec),
        {name: data["tiles"].get(name) for name in spec},
    ),
    "tile_counts": lambda spec, state, data, eng: (
        dict(spec),
        {name: len(data["tiles"].get(name, [])) for name in spec},
    ),
    "hidden": lambda spec, state, data, eng: (sorted(spec), data["hidden"]),
    "legal": lambda spec, state, data, eng: (
        sorted(map(short_form, spec)),
        sorted(_offered(state, eng)),
    ),
    "legal_count": lambda spec, state, data, eng: (spec, len(eng.legal_actions(state))),
    "legal_includes": _legal_includes,
    "legal_excludes": _legal_excludes,
    "seen_by": _seen_by,
    "board": lambda spec, state, data, eng: (
        dict(spec),
        {cell: data["board"][int(cell)] for cell in spec},
    ),
    "bag": lambda spec, state, data, eng: (_full(spec, eng), _full(data["bag"], eng)),
}
assert set(_CHECKS) == set(CHECK_KEYS)


def check_state(checks: Mapping[str, Json], state: State, eng: Engine) -> list[Problem]:
    """The checks that do not hold in a state, in the order of CHECK_KEYS. A
    check that cannot be read against the state is a RecordError."""
    problems = []
    for check in CHECK_KEYS:
        if check in checks:
            try:
                data = eng.to_json(state)
                expected, actual = _CHECKS[check](checks[check], state, data, eng)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
                raise RecordError(f"expect {check}: cannot be checked: {error!r}") from error
            if expected != actual:
                problems.append((check, expected, actual))
    return problems


# ---------------------------------------------------------------- replay


def _apply(step: Step, state: State, eng: Engine) -> tuple[State, Failure | None]:
    """The state after a step, or how the step fails (the state unchanged)."""
    wanted = "applied" if step.illegal is None else f"refused by {', '.join(step.illegal)}"
    try:
        after = eng.apply(state, step.action)
    except eng.IllegalAction as error:
        message = str(error)
        if step.illegal is not None and set(step.illegal) <= set(leading_ids(message)):
            return state, None
        actual = f"refused: {message}"
    except Exception as error:  # an engine crash is a finding, not a traceback
        actual = f"engine error: {error!r}"
    else:
        if step.illegal is None:
            return after, None
        actual = "applied"
    return state, Failure(step.index, short_form(step.data), [("the action", wanted, actual)])


def replay_record(record: Record, eng: Engine) -> Failure | None:
    """Replay a record; the first step where it does not hold, if any. A
    check that cannot be read against the state is a RecordError."""
    state = record.start
    for step in [None, *record.steps]:
        index = 0 if step is None else step.index
        if step is not None:
            state, failure = _apply(step, state, eng)
            if failure is not None:
                return failure
        try:
            problems = check_state(record.checks.get(index, {}), state, eng)
        except RecordError as error:
            error.step = index
            raise
        if problems:
            return Failure(index, None if step is None else short_form(step.data), problems)
    return None


def check_file(
    path: Path, kind: str = "generated", rules: str | None = None
) -> tuple[Record, Failure | None]:
    """Read, set up and replay one record file (RecordError if it is bad),
    against its edition's engine or that of the rule file `rules`."""
    record, eng = load_record(read_json(path), str(path), kind, rules)
    return record, replay_record(record, eng)
