"""Game records (docs/records.md): `play` then `replay` round trips, the
reports of a record that does not hold (exit 1) and of a bad record (exit 2,
the file named, never a traceback), the short action form and setup patches."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from edition_facts import EDITIONS, KINDS, engine_or_skip

from splendor_rules.compiler.cli import play as play_command
from splendor_rules.compiler.cli import replay as replay_command
from splendor_rules.compiler.runtime.loading import (
    HOW_TO_BUILD,
    NATIVE_PACKAGE,
    EngineKind,
    generated_editions,
    load_engine,
)
from splendor_rules.compiler.tools import records
from splendor_rules.compiler.tools.records import (
    RecordError,
    apply_setup,
    catalog,
    engine,
    leading_ids,
)

play = play_command.command
replay = replay_command.command
# the module (its name in the package is the function `catalog`)
catalog_module = importlib.import_module("splendor_rules.compiler.tools.records.catalog")

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"


def first_kind(edition: str) -> EngineKind:
    """The generated engine, or the interpreter for an edition a target
    does not print yet (compiler/backend/unprinted.py): it has no module."""
    return "generated" if edition in generated_editions() else "interpreted"


def run(command: Any, args: list[str], **kwargs: Any) -> Result:
    return CliRunner().invoke(command, args, catch_exceptions=False, **kwargs)


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def base(edition: str = "classic", **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": "a small record",
        "rules": ["S-3.3"],
        "edition": edition,
        "players": 2,
        "seed": 1,
        "actions": ["take_two red" if edition == "classic" else "take_two mind"],
    }
    data.update(changes)
    return data


# ------------------------------------------------------------ play, replay


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_then_replay_reproduces_the_game(tmp_path: Path, edition: str, players: int) -> None:
    if players not in load_engine(edition, "interpreted").PLAYERS:
        pytest.skip(f"{edition} is not for {players} players")
    kind = first_kind(edition)
    played = run(
        play, [edition, "--players", str(players), "--seed", str(40 + players), "--engine", kind]
    )
    assert played.exit_code == 0, played.output
    record = json.loads(played.stdout)
    assert record["edition"] == edition and record["players"] == players
    assert len(record["bots"]) == players and record["actions"]
    final = record["expect"][-1]
    assert final["step"] == len(record["actions"]) and final["is_over"] is True
    assert set(final) == {"step", "is_over", "scores", "winners"}
    path = write(tmp_path, "game.json", played.stdout)
    replayed = run(replay, ["--engine", kind, str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert f"{path}: ok ({len(record['actions'])} steps)" in replayed.stdout


@pytest.mark.parametrize("edition", EDITIONS)
def test_play_and_replay_on_the_native_engine(tmp_path: Path, edition: str) -> None:
    """`--engine native`: the native engine plays the game the generated one
    plays (the same record, byte for byte), and replays it."""
    native = engine_or_skip(edition, "native")
    assert engine(edition, "native") is native
    players = 3 if 3 in native.PLAYERS else min(native.PLAYERS)
    args = [edition, "-p", str(players), "-s", "11"]
    played = run(play, [*args, "--engine", "native"])
    assert played.exit_code == 0, played.output
    assert played.stdout == run(play, args).stdout
    path = write(tmp_path, "game.json", played.stdout)
    for kind in KINDS:
        replayed = run(replay, ["--engine", kind, str(path)])
        assert replayed.exit_code == 0, (kind, replayed.output)


@pytest.mark.parametrize("kind", KINDS)
def test_each_engine_kind_gets_its_own_engine(kind: EngineKind) -> None:
    expected = engine_or_skip("classic", kind)
    assert engine("classic", kind) is expected


def test_a_native_engine_not_built_says_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the extension module is missing (no C compiler at install),
    play and replay --engine native exit 2 naming the command that builds it."""
    find_spec = importlib.util.find_spec

    def no_extension(name: str, *args: Any) -> Any:
        return None if name.startswith(f"{NATIVE_PACKAGE}._") else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", no_extension)
    monkeypatch.setattr(catalog_module, "load_engine", load_engine.__wrapped__)  # uncached
    refused = run(play, ["classic", "-p", "2", "--engine", "native"])
    assert refused.exit_code == 2
    assert "Invalid value for --engine: the native engine of 'classic' is not built" in (
        refused.output
    )
    assert HOW_TO_BUILD in refused.output
    path = write(tmp_path, "game.json", run(play, ["classic", "-p", "2"]).stdout)
    result = run(replay, ["--engine", "native", str(path)])
    assert result.exit_code == 2
    assert f"{path}: error: the native engine of 'classic' is not built" in result.output
    assert HOW_TO_BUILD in result.output and "1 record: 0 ok, 0 failed, 1 bad" in result.output


def test_an_engine_module_that_does_not_load_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A native module there but not loadable (built from another source):
    exit 2 with the import error, no traceback."""

    def broken(edition: str, kind: str) -> Any:
        raise ImportError(
            f"dynamic module does not define module export function (PyInit__{edition})"
        )

    monkeypatch.setattr(catalog_module, "load_engine", broken)
    refused = run(play, ["classic", "-p", "2", "--engine", "native"])
    assert refused.exit_code == 2
    assert "the native engine of 'classic' does not load (dynamic module" in refused.output


def test_play_is_determined_by_the_seed_and_writes_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    first = run(play, ["classic", "-p", "3", "-s", "7", "--out", str(out)])
    assert first.exit_code == 0
    again = run(play, ["classic", "-p", "3", "-s", "7"])
    other = run(play, ["classic", "-p", "3", "-s", "8"])
    assert out.read_text(encoding="utf-8") == again.stdout != other.stdout


def test_a_played_record_with_a_changed_outcome_fails(tmp_path: Path) -> None:
    record = json.loads(run(play, ["marvel", "-p", "2", "-s", "3"]).stdout)
    record["expect"][-1]["scores"] = [99, 99]
    path = write(tmp_path, "game.json", record)
    result = run(replay, [str(path)])
    assert result.exit_code == 1
    assert f"{path}: FAILED at step {len(record['actions'])}" in result.stdout
    assert "expected: [99, 99]" in result.stdout


def test_play_refuses_a_bad_command_line() -> None:
    assert run(play, ["nosuch", "-p", "2"]).exit_code == 2
    assert run(play, ["classic", "-p", "5"]).exit_code == 2
    assert run(play, ["classic", "-p", "2", "--bots", "random"]).exit_code == 2
    assert run(play, ["classic", "-p", "2", "--bots", "random,clever"]).exit_code == 2
    assert run(play, ["classic", "-p", "2", "--first-player", "2"]).exit_code == 2


def test_a_human_seat_answers_by_number_or_in_the_short_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    eng = engine("classic")
    answers = iter(["0", "take_two gold", "take_two red"])
    monkeypatch.setattr(play_command.click, "prompt", lambda *a, **k: next(answers))
    choose = play_command.human_bot(eng, 0)
    state = eng.new_game(2, 1)
    assert choose(state, eng.legal_actions(state)) == ("take_two", "red")


# ------------------------------------------------------- replay: failures


def test_replay_prints_one_line_per_record_and_exits_1_on_a_failure(tmp_path: Path) -> None:
    good = write(
        tmp_path,
        "good.json",
        base(
            expect=[
                {
                    "step": 1,
                    "supply": {"white": 4, "blue": 4, "green": 4, "red": 2, "black": 4, "gold": 5},
                }
            ]
        ),
    )
    bad_score = write(tmp_path, "wrong.json", base(expect=[{"step": 1, "scores": [1, 0]}]))
    result = run(replay, [str(good), str(bad_score)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{good}: ok (1 step): a small record"
    assert lines[1] == f"{bad_score}: FAILED at step 1: a small record"
    assert "  action:   take_two red" in lines
    assert "    expected: [1, 0]" in lines and "    actual:   [0, 0]" in lines
    assert lines[-1] == "2 records: 1 ok, 1 failed, 0 bad"


def test_an_action_refused_where_it_should_apply_fails(tmp_path: Path) -> None:
    path = write(tmp_path, "r.json", base(setup={"supply": {"red": 3}}))
    result = run(replay, [str(path)])
    assert result.exit_code == 1
    assert "expected: applied" in result.stdout
    assert "refused: S-3.3: take two needs at least 4 red" in result.stdout


def test_an_expected_refusal_must_happen_and_name_the_rule(tmp_path: Path) -> None:
    applied = write(tmp_path, "a.json", base(actions=[{"do": "take_two red", "illegal": "S-3.3"}]))
    result = run(replay, [str(applied)])
    assert result.exit_code == 1
    assert "expected: refused by S-3.3" in result.stdout and "actual:   applied" in result.stdout
    other_rule = write(
        tmp_path,
        "b.json",
        base(setup={"supply": {"red": 3}}, actions=[{"do": "take_two red", "illegal": "S-3.4"}]),
    )
    result = run(replay, [str(other_rule)])
    assert result.exit_code == 1
    assert "expected: refused by S-3.4" in result.stdout


def test_after_a_refusal_the_state_is_unchanged_and_play_goes_on(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "r.json",
        base(
            setup={"supply": {"red": 3}},
            actions=[
                {"do": "take_two red", "illegal": "S-3.3"},
                {"do": "take_two blue", "expect": {"current_player": 1, "turn": 1}},
            ],
            expect=[{"step": 1, "current_player": 0, "turn": 0, "holdings": {"0": {"tokens": {}}}}],
        ),
    )
    assert run(replay, [str(path)]).exit_code == 0


def test_every_check_can_fail(tmp_path: Path) -> None:
    """Each kind of check reports a difference (a check that never fails
    would make the scenarios prove nothing)."""
    wrong: dict[str, Any] = {
        "scores": [5, 0],
        "winners": [0],
        "is_over": True,
        "current_player": 0,
        "pending": "token_limit",
        "last_round": True,
        "turn": 3,
        "supply": {"red": 4},
        "holdings": {"0": {"tokens": {"red": 1}}},
        "market": {"1": [0, 1, 2, 3]},
        "market_sizes": {"1": 3},
        "deck_sizes": {"1": 30},
        "tiles": {"noble": [0]},
        "tile_counts": {"noble": 2},
        "hidden": [5],
        "legal": ["pass"],
        "legal_count": 1,
        "legal_includes": ["take_two red"],
        "legal_excludes": ["take_two blue"],
        "seen_by": {"1": {"0": {"reserved": [3]}}},
    }
    # an edition with a board: its 9 cells are full and its bag empty after step 1
    on_board: dict[str, Any] = {"board": {"0": None}, "bag": {"red": 4}}
    assert set(wrong) | set(on_board) == set(records.CHECK_KEYS)
    for check, value in wrong.items():
        path = write(tmp_path, f"{check}.json", base(expect=[{"step": 1, check: value}]))
        result = run(replay, [str(path)])
        assert result.exit_code == 1, (check, result.output)
        assert f"  {check}:" in result.stdout
    rules = str(ROOT / "tests" / "variants" / "board_cells.rules")
    for check, value in on_board.items():
        data = base("board_cells", expect=[{"step": 1, check: value}], actions=["take_two red"])
        path = write(tmp_path, f"{check}.json", data)
        result = run(replay, ["--rules", rules, "--engine", "interpreted", str(path)])
        assert result.exit_code == 1, (check, result.output)
        assert f"  {check}:" in result.stdout


# ----------------------------------------------------------- bad records

BAD: dict[str, tuple[Any, str]] = {
    "not_json": ('{"title": "x",', "not JSON"),
    "not_an_object": ("[1, 2]", "a record is a JSON object"),
    "missing_key": ({k: v for k, v in base().items() if k != "seed"}, "needs 'seed'"),
    "unknown_key": (base(sede=3), "no key 'sede'"),
    "unknown_edition": (base(edition="splendor_duel"), "unknown edition 'splendor_duel'"),
    "wrong_player_count": (base(players=5), "classic is for 2 to 4 players, not 5"),
    "first_player_out_of_range": (base(first_player=2), "first_player 2 is not a seat"),
    "rule_of_another_edition": (base(rules=["M-3.9"]), "M-3.9 are not rules of edition classic"),
    "unknown_action": (base(actions=["take_three red"]), "step 1: unknown action 'take_three'"),
    "unknown_card": (base(actions=["take_two red", "buy 90 {}"]), "step 2: buy k: unknown card 90"),
    "unknown_deck": (
        base(actions=["reserve deck:4"]),
        "step 1: reserve k: {'deck': 4} is no deck top",
    ),
    "unknown_token_kind": (base(actions=["take_two purple"]), "unknown token kind 'purple'"),
    "negative_payment": (base(actions=["buy 3 {blue:-2}"]), "blue must be a count of 0 or more"),
    "missing_choice": (base(actions=[{"action": "buy", "k": 3}]), "buy needs a value for 'pay'"),
    "stray_choice": (
        base(actions=[{"action": "take_two", "c": "red", "k": 3}]),
        "take_two has no choice 'k'",
    ),
    "too_many_values": (base(actions=["take_two red blue"]), "take_two takes 1 value(s) (c)"),
    "unreadable_short_form": (base(actions=["buy 3 {blue 2}"]), "write token counts as"),
    "unknown_check": (base(expect=[{"step": 1, "score": [0, 0]}]), "no check 'score'"),
    "step_out_of_range": (base(expect=[{"step": 2, "is_over": False}]), "there is no step 2"),
    "setup_negative_tokens": (
        base(setup={"seats": {"0": {"tokens": {"red": -1}}}}),
        "count of 0 or more",
    ),
    "setup_unknown_token_kind": (
        base(setup={"supply": {"rubies": 3}}),
        "unknown token kind 'rubies'",
    ),
    "setup_unknown_card": (base(setup={"seats": {"0": {"bought": [120]}}}), "unknown card 120"),
    "setup_card_in_two_places": (
        base(setup={"seats": {"0": {"bought": [5]}, "1": {"reserved": [5]}}}),
        "card 5 is in two places: seat 0 bought and seat 1 reserved",
    ),
    "setup_card_of_another_tier": (
        base(setup={"market": {"1": [0, 1, 2, 70]}}),
        "card 70 is of tier 3",
    ),
    "setup_short_row": (base(setup={"market": {"1": [0, 1]}}), "a row has 4 slots, not 2"),
    "setup_tile_in_two_places": (
        base(setup={"tiles": {"noble": [2, 3]}, "seats": {"0": {"won": [3]}}}),
        "tile 3 is in two places",
    ),
    "setup_both_faces": (
        base("marvel", setup={"tiles": {"location": [0, 1]}}),
        "tile 1 is in two places (tile 0 is its other face)",
    ),
    "setup_supply_overdrawn": (
        base(setup={"seats": {"0": {"tokens": {"red": 3}}, "1": {"tokens": {"red": 2}}}}),
        "the seats are given 5 red but the supply has only 4",
    ),
    "setup_over_the_cap": (
        base("marvel", setup={"seats": {"0": {"tokens": {"time_stone": 2}}}}),
        "at most 1 time_stone per player",
    ),
    "setup_unknown_zone": (base(setup={"seats": {"0": {"hand": [3]}}}), "no key 'hand'"),
    "setup_unknown_seat": (
        base(setup={"seats": {"2": {"bought": [3]}}}),
        "seat '2' is not a seat of 2",
    ),
    "setup_unknown_tier": (base(setup={"decks": {"4": []}}), "unknown tier '4'"),
    "setup_hidden_not_reserved": (
        base(setup={"seats": {"0": {"bought": [3], "hidden": [3]}}}),
        "card 3 is not in a zone of seat 0 that hides",
    ),
    "setup_and_state": (base(setup={}, state={}), "a 'state' or a 'setup', not both"),
    "bad_state": (
        base(state={"edition": "classic", "players": 2, "seats": []}),
        "state is not a classic state",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_record_exits_2_naming_the_file(tmp_path: Path, kind: str) -> None:
    data, message = BAD[kind]
    path = write(tmp_path, f"{kind}.json", data)
    result = run(replay, [str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{path}: error: " in result.stderr
    assert message in result.stderr, result.stderr


def test_bad_good_and_failing_records_together_exit_2(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.json", "{")
    good = write(tmp_path, "good.json", base())
    failing = write(tmp_path, "failing.json", base(expect=[{"step": 1, "is_over": True}]))
    result = run(replay, [str(bad), str(good), str(failing)])
    assert result.exit_code == 2
    assert f"{good}: ok" in result.stdout and f"{failing}: FAILED" in result.stdout
    assert "3 records: 1 ok, 1 failed, 1 bad" in result.stdout


def test_replay_takes_a_directory_and_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    write(tmp_path, "a.json", base())
    write(tmp_path, "b.json", base("marvel"))
    result = run(replay, [str(tmp_path)])
    assert result.exit_code == 0 and "2 records: 2 ok" in result.stdout
    assert run(replay, [str(tmp_path / "none.json")]).exit_code == 2
    assert run(replay, []).exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run(replay, [str(empty)]).exit_code == 2


# -------------------------------------------------------- forms and setup


def test_short_form_and_json_form_are_the_same_action() -> None:
    cat = catalog("classic")
    parse = records.action_data
    assert parse("buy 59 {blue:3,black:2}", cat) == {
        "action": "buy",
        "k": 59,
        "pay": {"blue": 3, "black": 2},
    }
    assert parse("reserve deck:2", cat) == {"action": "reserve", "k": {"deck": 2}}
    assert parse("take_distinct [red, white, blue]", cat) == {
        "action": "take_distinct",
        "picks": ["white", "blue", "red"],
    }
    assert parse("token_limit {}", cat) == {"action": "token_limit", "tokens": {}}
    assert parse("claim_tile 3", cat) == {"action": "claim_tile", "tile": 3}
    assert parse({"do": "pass", "note": "x"}, cat) == {"action": "pass"}
    assert records.short_form({"action": "reserve", "k": {"deck": 1}}) == "reserve deck:1"


def test_leading_rule_ids_of_a_message() -> None:
    assert leading_ids("S-3.2, S-3.1: ('a',) is not a choice") == ("S-3.2", "S-3.1")
    assert leading_ids("M-4.1a: no") == ("M-4.1a",)
    assert leading_ids("the game is over") == ()


def test_a_setup_moves_cards_and_refills_rows_from_their_deck() -> None:
    eng = engine("classic")
    cat = catalog("classic")
    start = eng.to_json(eng.new_game(2, 9))
    row, deck = start["market"]["1"], start["decks"]["1"]
    patched = apply_setup(copy.deepcopy(start), {"seats": {"0": {"bought": [row[1]]}}}, cat)
    assert patched["market"]["1"] == [row[0], deck[-1], row[2], row[3]]
    assert patched["decks"]["1"] == deck[:-1]
    assert patched["seats"][0]["zones"]["bought"] == [row[1]]
    given = apply_setup(
        copy.deepcopy(start), {"market": {"1": [deck[0], None, row[2], row[3]]}}, cat
    )
    assert given["market"]["1"] == [deck[0], None, row[2], row[3]]
    assert given["decks"]["1"] == [row[0], row[1], *deck[1:]]  # displaced under the deck
    with pytest.raises(RecordError, match="give market row 1 too"):
        apply_setup(copy.deepcopy(start), {"decks": {"1": [row[0]]}}, cat)


def test_a_record_may_start_from_a_whole_state(tmp_path: Path) -> None:
    eng = engine("marvel")
    state = eng.to_json(eng.new_game(3, 5, first_player=2))
    path = write(
        tmp_path,
        "s.json",
        base(
            "marvel",
            players=3,
            actions=["take_two mind"],
            state=state,
            expect=[{"step": 0, "current_player": 2}, {"step": 1, "current_player": 0}],
        ),
    )
    assert run(replay, [str(path)]).exit_code == 0


def test_the_shipped_scenarios_replay_from_the_command_line() -> None:
    by_kind: dict[str, list[str]] = {}
    for path in sorted(SCENARIOS.glob("*.json")):
        edition = json.loads(path.read_text(encoding="utf-8"))["edition"]
        by_kind.setdefault(first_kind(edition), []).append(str(path))
    for kind, paths in by_kind.items():
        result = run(replay, ["--quiet", "--engine", kind, *paths])
        assert result.exit_code in (0, 1), result.output
        assert ": error:" not in result.output  # no scenario is a bad record


def test_the_example_of_the_documentation_holds(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(\{.*?\n\})\n```", text, re.S)
    assert example is not None
    path = write(tmp_path, "example.json", example.group(1))
    result = run(replay, [str(path)])
    assert result.exit_code == 0, result.output


def test_the_record_module_names_no_edition_noun() -> None:
    """compiler/tools/records/ is generic: every edition noun comes from the model."""
    folder = ROOT / "compiler" / "tools" / "records"
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))).lower()
    nouns = ("noble", "gold", "shield", "gauntlet", "avenger", "marvel", "time stone", "time_stone")
    for word in nouns:
        assert word not in source, word
