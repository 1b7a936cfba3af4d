"""`play` in the terminal: any bot of simulate in a seat, and a human seat
shown the cards by their data (labels, costs) and the moves labelled."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from splendor_rules.compiler.cli import play as play_command
from splendor_rules.compiler.cli import replay as replay_command
from splendor_rules.compiler.runtime.loading import generated_editions
from splendor_rules.compiler.tools.labels import edition_data
from splendor_rules.compiler.tools.loader import load

EDITION = generated_editions()[0]


def test_play_takes_the_bots_of_simulate_and_the_record_replays(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = [EDITION, "-p", "2", "--bots", "greedy,mcts:3", "-s", "3", "-o", str(out)]
    result = CliRunner().invoke(play_command.command, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text("utf-8"))
    assert record["bots"] == ["greedy", "mcts:3"] and record["expect"][-1]["is_over"]
    again = CliRunner().invoke(play_command.command, args, catch_exceptions=False)
    assert again.exit_code == 0 and json.loads(out.read_text("utf-8")) == record  # seeded
    assert CliRunner().invoke(replay_command.command, [str(out)]).exit_code == 0


def test_an_unknown_bot_is_refused_saying_what_there_is() -> None:
    result = CliRunner().invoke(play_command.command, [EDITION, "-p", "2", "--bots", "human,x"])
    assert result.exit_code == 2
    assert "unknown bot 'x': random, greedy, mcts, mcts:N" in result.output


def test_a_human_sees_cards_by_their_data_and_labelled_moves() -> None:
    result = CliRunner().invoke(
        play_command.command, [EDITION, "-p", "2", "--bots", "human,greedy"], input="1\n"
    )
    shown = result.stderr
    data = edition_data(EDITION)
    market = [card for card in data.cards if card["label"].split(" (")[0] in shown]
    assert market, shown
    assert "cost:" in shown and "  1. " in shown
    assert "top of deck" in shown


BOARD = Path(__file__).resolve().parent / "variants" / "board_cells.rules"


def test_a_human_plays_a_line_of_cells_on_a_board(tmp_path: Path) -> None:
    """An edition with a board of cells (tests/variants/board_cells.rules): the grid
    with each cell's number and token, the bag's counts, the lines among the
    moves; a line typed in the records' short form is played."""
    eng = load(BOARD)
    state = eng.new_game(2, 1)
    line = next(a for a in eng.legal_actions(state) if a[0] == "take_line" and len(a[1]) == 3)
    cells = list(line[1])
    board = eng.view(state, 0)["board"]
    out = tmp_path / "game.json"
    typed = f"take_line [{','.join(map(str, cells))}]\n"
    args = [str(BOARD), "-p", "2", "--bots", "human,greedy", "-s", "1", "-o", str(out)]
    result = CliRunner().invoke(play_command.command, args, input=typed)
    assert result.exit_code == 1  # the input ended after the line
    shown = result.stderr
    assert "board" in shown and "bag: 0 tokens" in shown, shown
    for number, kind in enumerate(board):
        assert f"{number:>2} {kind}" in shown
    data = edition_data(BOARD)
    said = ", ".join(data.cell_label(c) for c in cells)
    assert f"take 1 to 3 tokens in a line: {said}" in shown
    record = json.loads(out.read_text("utf-8"))
    assert record["actions"][0] == {"action": "take_line", "picked": cells}
    # the position shown after the opponent's reply: those cells empty
    after = shown.split("your move")[1]
    for number in cells:
        assert f"{number:>2} ·" in after


TURNS = """edition turns "Splendor, an action before the main one" extends classic {
  remove reference "RULES.md"

  [T-1] action draw "draw a gold token": before the main action, once {
    require supply(gold) > 0 else "no gold left"
    gain 1 gold
  }
}
"""


def test_a_human_moves_again_after_an_action_before_the_main_one(tmp_path: Path) -> None:
    """The terminal asks whoever the engine says is to move: after an action
    before the main one, the same seat, without that action (the reference
    interpreter plays it; no target prints it yet)."""
    rules = tmp_path / "turns.rules"
    rules.write_text(TURNS, encoding="utf-8")
    out = tmp_path / "game.json"
    args = [str(rules), "-p", "2", "--bots", "human,greedy", "-o", str(out)]
    args += ["--engine", "interpreted"]
    result = CliRunner().invoke(play_command.command, args, input="draw\ntake_two red\n")
    assert result.exit_code == 1, result.output  # the input ended
    asked = result.stderr.split("your move")
    assert [part.count("seat 0 to move") for part in asked[:3]] == [1, 1, 1]
    assert ". draw a gold token" in asked[0] and ". draw a gold token" not in asked[1]
    assert ". draw a gold token" in asked[2]  # open again on the next turn
    actions = json.loads(out.read_text("utf-8"))["actions"]
    assert actions[:2] == [{"action": "draw"}, {"action": "take_two", "c": "red"}]
