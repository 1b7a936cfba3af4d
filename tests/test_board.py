"""The web board without a browser: games, seats and records
(compiler/tools/board/), the HTTP answers of the application
(compiler/cli/web/) through Starlette's test client, and the labels of
cards and tiles by their data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from splendor_rules.compiler.runtime.loading import generated_editions
from splendor_rules.compiler.tools.board.games import Games, Refused
from splendor_rules.compiler.tools.board.replays import replay_frames
from splendor_rules.compiler.tools.labels import edition_data, move_label
from splendor_rules.compiler.tools.loader import load
from splendor_rules.compiler.tools.records import check_file

starlette = pytest.importorskip("starlette.testclient", reason="starlette is not installed")

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = generated_editions()
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.json"))


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from splendor_rules.compiler.cli.web import make_app

    app = make_app(Games(tmp_path), EDITIONS, SCENARIOS[:1])
    with starlette.TestClient(app) as test_client:
        yield test_client


def _new(client: Any, seats: list[str], seed: int = 5) -> dict[str, Any]:
    answer = client.post(
        "/api/games",
        json={"source": EDITIONS[0], "players": len(seats), "seats": seats, "seed": seed},
    )
    assert answer.status_code == 200, answer.text
    game: dict[str, Any] = answer.json()
    game["tokens"] = {s: link.split("=")[1] for s, link in game["seats"].items()}
    return game


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing(client: Any) -> None:
    game = _new(client, ["human", "human"])
    token = game["tokens"]["0"]
    before = client.get(f"/api/games/{game['id']}?seat={token}").json()
    tokens = list(before["view"]["supply"])
    legal = {json.dumps(item["move"]) for item in before["legal"]}
    illegal = next(
        {"action": "take_two", "c": t}
        for t in tokens
        if json.dumps({"action": "take_two", "c": t}) not in legal
    )
    answer = client.post(f"/api/games/{game['id']}/moves?seat={token}", json=illegal)
    assert answer.status_code == 409
    refusal = answer.json()
    assert refusal["rules"] and refusal["error"].startswith(refusal["rules"][0])
    after = client.get(f"/api/games/{game['id']}?seat={token}").json()
    assert after["view"] == before["view"] and after["version"] == before["version"]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("not json", 400),
        ("[1, 2]", 400),
        ('{"action": 3}', 400),
        ('{"action": "no_such_move"}', 400),
    ],
)
def test_malformed_moves_get_a_clear_400(client: Any, body: str, status: int) -> None:
    game = _new(client, ["human", "greedy"])
    answer = client.post(
        f"/api/games/{game['id']}/moves?seat={game['tokens']['0']}", content=body.encode()
    )
    assert answer.status_code == status
    assert answer.json()["error"]


def test_a_seat_cannot_move_for_another(client: Any) -> None:
    game = _new(client, ["human", "human"])
    state = client.get(f"/api/games/{game['id']}?seat={game['tokens']['0']}").json()
    move = state["legal"][0]["move"]
    for query, status in ((f"?seat={game['tokens']['1']}", 409), ("", 403), ("?seat=guess", 403)):
        answer = client.post(f"/api/games/{game['id']}/moves{query}", json=move)
        assert answer.status_code == status, query
    # a seat's page shows no legal moves on another seat's turn
    other = client.get(f"/api/games/{game['id']}?seat={game['tokens']['1']}").json()
    assert other["legal"] == [] and other["to_move"] == 0
    assert client.post(f"/api/games/{game['id']}/moves?seat={game['tokens']['0']}", json=move)
    assert client.get("/api/games/nothing").status_code == 404


def test_bad_new_games_are_refused(client: Any) -> None:
    for body in (
        {"source": "nowhere", "players": 2, "seats": ["human", "greedy"]},
        {"source": EDITIONS[0], "players": 9, "seats": ["human"] * 9},
        {"source": EDITIONS[0], "players": 2, "seats": ["human"]},
        {"source": EDITIONS[0], "players": 2, "seats": ["human", "clever"]},
        {"source": EDITIONS[0], "players": "2", "seats": ["human", "human"]},
    ):
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 400, body
        assert answer.json()["error"]


def test_a_restart_resumes_games_from_their_records(tmp_path: Path) -> None:
    games = Games(tmp_path)
    game = games.create(EDITIONS[0], 2, ["human", "greedy"], seed=7)
    for _ in range(3):
        legal = game.engine.legal_actions(game.state)
        game.play(0, game.engine.action_to_json(legal[-1]))
        game.bot_move()
        games.save(game)
    again = Games(tmp_path)
    assert again.restore() == []
    resumed = again.get(game.id)
    assert resumed.engine.to_json(resumed.state) == game.engine.to_json(game.state)
    assert resumed.seat_of(game.tokens[0]) == 0 and resumed.seat_of("x") is None
    assert [e["label"] for e in resumed.log] == [e["label"] for e in game.log]
    # the saved record replays with `replay`
    record = tmp_path / "record.json"
    record.write_text(json.dumps(json.loads((tmp_path / f"{game.id}.json").read_text())["record"]))
    _, failure = check_file(record)
    assert failure is None


def test_a_broken_saved_game_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    (tmp_path / "odd.json").write_text('{"board": {}, "record": {}}', encoding="utf-8")
    problems = Games(tmp_path).restore()
    assert [p.split(":")[0] for p in problems] == ["broken.json", "odd.json"]


def test_bots_play_a_watched_game_to_its_end() -> None:
    games = Games(None)
    game = games.create(EDITIONS[0], 2, ["greedy", "random"], seed=3)
    while game.bot_to_move():
        game.bot_move()
    shot = game.snapshot(None)
    assert shot["over"] and shot["legal"] == [] and len(shot["log"]) == len(game.moves)
    assert all(entry["rules"] and entry["label"] for entry in shot["log"])
    with pytest.raises(Refused) as refused:
        game.play(0, {"action": "pass"})
    assert refused.value.status == 403


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_watcher_sees_no_hidden_card(edition: str) -> None:
    game = Games(None).create(edition, 2, ["human", "human"], seed=1)
    eng = game.engine
    reserve = next(
        a
        for a in eng.legal_actions(game.state)
        if any(isinstance(v, tuple) and v[:1] == ("deck",) for v in a[1:])
    )
    game.play(0, eng.action_to_json(reserve))
    own = game.snapshot(0)["view"]
    card = own["hidden"][0]
    assert card in [c for zone in own["seats"][0]["zones"].values() for c in zone]
    for seat in (1, None):
        zones = game.snapshot(seat)["view"]["seats"][0]["zones"].values()
        assert card not in [c for zone in zones for c in zone]
        assert any(isinstance(c, dict) and "deck" in c for zone in zones for c in zone)


@pytest.mark.parametrize("edition", EDITIONS)
def test_cards_and_tiles_are_labelled_by_their_data(edition: str) -> None:
    data = edition_data(edition)
    labels = [card["label"] for card in data.cards]
    assert len(set(labels)) == len(labels)  # each card told apart
    for card in data.cards:
        values = card["values"]
        assert f"card {card['number']}" in card["label"]
        for column, value in values.items():
            if data.columns[column] == "colour" and value is not None:
                assert value in card["label"]
    assert all(tile["label"] for tile in data.tiles)
    assert data.card_label({"deck": 2}) == "top of deck 2"


def test_cells_of_a_board_are_labelled_by_number_and_place() -> None:
    """A cell as a move names it (its number) and as the rules write it
    (row, column), for the web board's log and `play`'s list of moves."""
    rules = ROOT / "tests" / "variants" / "board_cells.rules"
    description = load(rules).DESCRIPTION
    data = edition_data(rules)
    assert data.cell_label(7) == "cell 7 (2, 1)"
    line = {"action": "take_line", "picked": [0, 4, 8]}
    assert move_label(line, description, data) == (
        "take 1 to 3 tokens in a line: cell 0 (0, 0), cell 4 (1, 1), cell 8 (2, 2)"
    )
    gold = {"action": "take_gold", "g": 2, "k": {"deck": 1}}
    assert move_label(gold, description, data) == (
        "take a gold token from the board: cell 2 (0, 2); top of deck 1"
    )
    assert edition_data(EDITIONS[0]).cell_label(3) == "cell 3"  # no board


def test_a_scenario_becomes_frames_with_its_expectations() -> None:
    scenario = next(s for s in SCENARIOS if '"illegal"' in s.read_text())
    shown = replay_frames(json.loads(scenario.read_text()), scenario.name)
    frames = shown["frames"]
    assert len(frames) == len(json.loads(scenario.read_text())["actions"]) + 1
    checked = [check for frame in frames for check in frame["expect"]]
    assert checked and all(check["holds"] for check in checked)
    refused = [f for f in frames[1:] if f["step"]["illegal"]]
    assert refused and all(f["answer"].startswith("refused: ") for f in refused)
    with pytest.raises(Refused):
        replay_frames({"edition": "nowhere"}, "x")


def test_simulate_names_held_cards_and_tiles_by_their_data() -> None:
    from splendor_rules.compiler.tools.simulate.games import GameResult
    from splendor_rules.compiler.tools.simulate.report import tables
    from splendor_rules.compiler.tools.simulate.summary import document

    data = edition_data(EDITIONS[0])
    results = [
        GameResult(
            i, i, 10, 5, (3, 0), (0,), "last round", {"pass": 10}, (("card 7", "tile 0"), ())
        )
        for i in range(6)
    ]
    summary = document([EDITIONS[0]], ["greedy", "random"], 0, [results])
    acquired = summary["runs"][0]["acquired"]
    assert acquired["card 7"]["label"] == data.cards[7]["label"]
    assert acquired["tile 0"]["label"] == data.tiles[0]["label"]
    best = tables(summary)[4][2]
    assert {row[0] for row in best} == {data.cards[7]["label"], data.tiles[0]["label"]}


def test_serve_refuses_what_it_cannot_offer(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from splendor_rules.compiler.cli import serve

    broken = tmp_path / "broken.rules"
    broken.write_text('edition broken "Broken" extends nowhere {}\n', encoding="utf-8")
    for argument in ("nosuch", str(tmp_path / "missing.rules"), str(broken)):
        result = CliRunner().invoke(serve.command, [argument, "--games", str(tmp_path / "g")])
        assert result.exit_code == 2, argument
        assert "Invalid value for EDITION" in result.output
    assert "Traceback" not in result.output


def test_the_server_writes_each_move_and_a_new_server_resumes_the_game(tmp_path: Path) -> None:
    from splendor_rules.compiler.cli.web import make_app

    with starlette.TestClient(make_app(Games(tmp_path), EDITIONS)) as first:
        game = _new(first, ["human", "human"])
        token = game["tokens"]["0"]
        shot = first.get(f"/api/games/{game['id']}?seat={token}").json()
        moved = first.post(
            f"/api/games/{game['id']}/moves?seat={token}", json=shot["legal"][0]["move"]
        )
        assert moved.status_code == 200
    games = Games(tmp_path)
    assert games.restore() == []
    with starlette.TestClient(make_app(games, EDITIONS)) as second:
        again = second.get(f"/api/games/{game['id']}?seat={game['tokens']['1']}").json()
        assert again["version"] == 1 and again["to_move"] == 1 and again["legal"]
        assert again["log"][0]["move"] == shot["legal"][0]["move"]


def test_a_record_of_a_rule_file_is_replayed_when_the_server_offers_that_file(
    tmp_path: Path,
) -> None:
    """A record names its edition, not a file: a server given the rule file
    of that edition replays it against that file (as `replay --rules`)."""
    from splendor_rules.compiler.cli.web import make_app

    rules = str((ROOT / "tests" / "variants" / "board_cells.rules").resolve())
    record = ROOT / "tests" / "variants" / "records" / "board_cells.json"
    for sources in ([rules], EDITIONS[:1]):
        app = make_app(Games(tmp_path), sources, [record])
        with starlette.TestClient(app) as client:
            answer = client.get(f"/api/replays/{record.name}")
        if sources != [rules]:
            assert answer.status_code == 400 and "board_cells" in answer.json()["error"]
            continue
        assert answer.status_code == 200, answer.text
        frames = answer.json()["frames"]
        setup = json.loads(record.read_text())["setup"]["board"]
        assert frames[0]["view"]["board"] == setup
        assert all(f["answer"].startswith("refused: D-3.3: ") for f in frames[1:4])
        assert frames[4]["answer"] == "applied" and frames[4]["view"]["board"][0] is None
        assert all(check["holds"] for f in frames for check in f["expect"])
