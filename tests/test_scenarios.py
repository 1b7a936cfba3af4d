"""The rule-by-rule scenarios of tests/scenarios/, replayed on the engines
(generated, interpreted, and native where the native engine is built).

Each scenario is a game record (docs/records.md) naming the rule ids of
editions/RULES.md it checks. Every id must have a scenario in each edition it
concerns; the scenarios listed in KNOWN_FAILURES.md are expected failures on
the engine named there (strict: a fix makes them fail until the row goes).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from splendor_rules.compiler.runtime.loading import (
    EngineUnavailable,
    generated_editions,
    load_engine,
)
from splendor_rules.compiler.tools.records import (
    RecordError,
    check_file,
    engine,
    load_record,
    read_json,
    replay_record,
)

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
FILES = sorted(SCENARIOS.glob("*.json"))
RULEBOOKS = sorted((ROOT / "editions").glob("*.md"))  # RULES.md, ORIENT.md, DUEL.md
KNOWN = SCENARIOS / "KNOWN_FAILURES.md"

# Rule ids by prefix: the editions each concerns.
CONCERNS = {
    "S": ("classic", "marvel"),
    "E": ("classic", "marvel"),
    "C": ("classic",),
    "M": ("marvel",),
    "O": ("orient",),
    "D": ("duel",),
}

# Rules that forbid something: their scenarios show a refused and an accepted move.
FORBIDDING = {
    "classic": ("S-3.1", "S-3.2", "S-3.3", "S-3.4", "S-3.5", "S-4.1", "C-4.2", "E-3.8"),
    "marvel": (
        "S-3.1",
        "S-3.2",
        "S-3.3",
        "S-3.4",
        "S-3.5",
        "S-4.1",
        "M-4.2",
        "E-3.8",
        "M-3.7",
        "M-4.1a",
    ),
    "orient": ("O-3.1", "O-3.3", "O-3.4", "O-3.5", "O-3.6"),
    "duel": ("D-3.1", "D-3.2", "D-3.3", "D-3.4", "D-3.5", "D-4.5", "D-5.2"),
}


def known_failures(kind: str) -> dict[str, str]:
    """The scenarios KNOWN_FAILURES.md lists for an engine, with the reason."""
    rows = re.findall(
        r"^\|\s*`([^`]+\.json)`\s*\|\s*(\w+)\s*\|\s*([^|]+)\|\s*(.+?)\s*\|\s*$",
        KNOWN.read_text(encoding="utf-8"),
        re.M,
    )
    return {
        name: f"{rule.strip()}: {why}"
        for name, engine_kind, rule, why in rows
        if engine_kind == kind
    }


def _params(kind: str) -> list[object]:
    known = known_failures(kind)
    return [
        pytest.param(
            path,
            id=path.stem,
            marks=[pytest.mark.xfail(strict=True, reason=known[path.name])]
            if path.name in known
            else [],
        )
        for path in FILES
    ]


def _data(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", _params("generated"))
def test_scenario_holds_on_the_generated_engine(path: Path) -> None:
    edition = str(_data(path)["edition"])
    if edition not in generated_editions():
        # a target that does not print a construct yet refuses the edition
        # (compiler/backend/unprinted.py): no module, nothing to replay on
        pytest.skip(f"no generated engine of {edition!r}: the Python target refuses it")
    record, failure = check_file(path)
    assert failure is None, (
        f"{path.name} ({record.title}) fails at step {failure.step}: {failure.action}: "
        + "; ".join(
            f"{what}: expected {exp!r}, actual {act!r}" for what, exp, act in failure.problems
        )
    )


def _interpreter_available() -> bool:
    try:
        engine("classic", "interpreted")
        engine("marvel", "interpreted")
    except (RecordError, Exception):  # optional: another engineer's work in progress
        return False
    return True


@pytest.mark.parametrize("path", _params("interpreted"))
def test_scenario_holds_on_the_interpreter(path: Path) -> None:
    if not _interpreter_available():
        pytest.skip("the reference interpreter is not available")
    record, eng = load_record(read_json(path), str(path), "interpreted")
    failure = replay_record(record, eng)
    assert failure is None, f"{path.name} fails at step {failure.step}: {failure.problems}"


@pytest.mark.parametrize("path", _params("native"))
def test_scenario_holds_on_the_native_engine(path: Path) -> None:
    edition = str(_data(path)["edition"])
    try:
        load_engine(edition, "native")
    except EngineUnavailable as error:
        pytest.skip(f"no native engine: {error}")
    _, failure = check_file(path, "native")
    assert failure is None, f"{path.name} fails at step {failure.step}: {failure.problems}"


def test_there_are_scenarios_and_a_known_failures_list() -> None:
    assert len(FILES) >= 40
    listed = {
        name for kind in ("generated", "interpreted", "native") for name in known_failures(kind)
    }
    assert listed <= {p.name for p in FILES}, (
        "KNOWN_FAILURES.md names a scenario that does not exist"
    )


def rule_ids() -> list[str]:
    """Every rule id of the editions' rulebooks, as written in bold there."""
    return [
        rule
        for doc in RULEBOOKS
        for rule in re.findall(
            r"\*\*([A-Z]-\d+(?:\.\d+)*[a-z]?)\b", doc.read_text(encoding="utf-8")
        )
    ]


def test_every_rule_id_has_a_scenario_in_each_edition_it_concerns() -> None:
    covered: dict[str, set[str]] = {e: set() for es in CONCERNS.values() for e in es}
    for path in FILES:
        data = _data(path)
        covered[str(data["edition"])].update(data["rules"])  # type: ignore[arg-type]
    ids = rule_ids()
    assert len(ids) >= 30
    missing = [
        f"{rule} ({edition})"
        for rule in ids
        for edition in CONCERNS[rule[0]]
        if rule not in covered[edition]
    ]
    assert not missing, "rule ids without a scenario: " + ", ".join(missing)


def test_every_scenario_names_a_title_and_rules_of_its_edition() -> None:
    ids = set(rule_ids())
    for path in FILES:
        data = _data(path)
        assert data["title"], path.name
        rules = data["rules"]
        assert isinstance(rules, list) and rules, f"{path.name} names no rule"
        for rule in rules:
            assert rule in ids, f"{path.name}: {rule} is in no rulebook of editions/"
            assert str(data["edition"]) in CONCERNS[rule[0]], (
                f"{path.name}: {rule} is not a rule of its edition"
            )


@pytest.mark.parametrize("edition", sorted(FORBIDDING))
def test_forbidding_rules_have_a_refused_and_an_accepted_move(edition: str) -> None:
    lacking = []
    for rule in FORBIDDING[edition]:
        refused = accepted = False
        for path in FILES:
            data = _data(path)
            if data["edition"] != edition or rule not in data["rules"]:  # type: ignore[operator]
                continue
            steps = data["actions"]
            assert isinstance(steps, list)
            refused |= any(isinstance(s, dict) and "illegal" in s for s in steps)
            accepted |= any(not (isinstance(s, dict) and "illegal" in s) for s in steps)
        if not (refused and accepted):
            lacking.append(rule)
    assert not lacking, f"{edition}: no refused and accepted case for " + ", ".join(lacking)
