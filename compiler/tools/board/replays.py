"""A record (`play -o`, a scenario) as frames to step through on the board.

Each frame is the position after a step, shown whole (every hidden card,
each deck by its size: a replay is for the designer, who sees everything),
with the step's move in words and its rule ids, what the engine answered (a
step the record expects refused is shown refused, with the refusal), and the
expectations the record checks after that step, each with whether it holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from splendor_rules.compiler.runtime.api import Engine, Json, State
from splendor_rules.compiler.tools.board.games import Refused, open_edition
from splendor_rules.compiler.tools.labels import move_label, move_rules
from splendor_rules.compiler.tools.loader import is_rule_file
from splendor_rules.compiler.tools.records.form import RecordError
from splendor_rules.compiler.tools.records.load import load_record
from splendor_rules.compiler.tools.records.replay import check_state


def full_view(engine: Engine, state: State) -> Json:
    """The whole position in the view's shape: the JSON form, each deck by
    its size."""
    form = engine.to_json(state)
    form["decks"] = {tier: len(cards) for tier, cards in form["decks"].items()}
    form["hidden"] = []
    return form


def _checks(checks: dict[str, Json], state: State, engine: Engine) -> list[Json]:
    """Each expectation of a step, with the problem found, if any."""
    shown = []
    for key, value in checks.items():
        try:
            problems = check_state({key: value}, state, engine)
        except RecordError as error:
            problems = [(key, "readable", str(error))]
        said = "; ".join(f"{what}: expected {want}, got {got}" for what, want, got in problems)
        shown.append({"key": key, "expected": value, "holds": not problems, "problem": said})
    return shown


def _frame(engine: Engine, state: State, step: Any, answer: str, checks: list[Json]) -> Json:
    return {
        "view": full_view(engine, state),
        "scores": list(engine.scores(state)),
        "to_move": None if engine.is_over(state) else engine.current_player(state),
        "step": step,
        "answer": answer,
        "expect": checks,
    }


def rule_files(sources: Iterable[str]) -> dict[str, str]:
    """The rule files among a server's sources by the edition each declares
    (a file whose engine cannot be had is left out: its games say why)."""
    found: dict[str, str] = {}
    for source in sources:
        if is_rule_file(source):
            try:
                found.setdefault(open_edition(source).engine.EDITION, source)
            except Refused:
                continue
    return found


def replay_frames(data: Any, source: str, rules: Mapping[str, str] | None = None) -> Json:
    """A record's frames, from the start; Refused(400), saying why, if the
    record cannot be read. `rules`: rule files by the edition they declare,
    for a record of an edition that is not installed (`replay --rules`)."""
    named = data.get("edition") if isinstance(data, dict) else None
    rule_file = (rules or {}).get(named) if isinstance(named, str) else None
    try:
        record, engine = load_record(data, source, rules=rule_file)
    except RecordError as error:
        raise Refused(400, f"{source}: {error}") from error
    edition = open_edition(rule_file or record.edition)
    description = engine.DESCRIPTION
    state = record.start
    frames = [_frame(engine, state, None, "", _checks(record.checks.get(0, {}), state, engine))]
    for step in record.steps:
        shown = {
            "index": step.index,
            "move": step.data,
            "label": move_label(step.data, description, edition.data),
            "rules": move_rules(str(step.data["action"]), description),
            "illegal": list(step.illegal) if step.illegal is not None else None,
            "seat": engine.current_player(state),
        }
        try:
            state = engine.apply(state, step.action)
            answer = "applied"
        except engine.IllegalAction as error:
            answer = f"refused: {error}"
        checks = _checks(record.checks.get(step.index, {}), state, engine)
        frames.append(_frame(engine, state, shown, answer, checks))
    return {
        "title": record.title,
        "rules": list(record.rules),
        "edition": {"source": edition.source, "description": description, **edition.data.as_json()},
        "players": record.players,
        "frames": frames,
    }
