"""`play` in the terminal: any bot of simulate in a seat, and a human seat
shown the cards by their data (labels, costs) and the moves labelled."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from splendor_rules.compiler.cli import play as play_command
from splendor_rules.compiler.cli import replay as replay_command
from splendor_rules.compiler.runtime.loading import generated_editions
from splendor_rules.compiler.tools.labels import edition_data

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


def test_a_human_sees_the_board_of_cells_and_the_bag() -> None:
    """A move names a cell by its number: the board shows each cell's number
    and token (tests/variants/board_cells.rules, on the interpreter)."""
    rules = str(Path(__file__).parent / "variants" / "board_cells.rules")
    args = [rules, "-p", "2", "--bots", "human,random", "--engine", "interpreted"]
    result = CliRunner().invoke(play_command.command, args, input="1\n")
    shown = result.stderr
    assert "bag:" in shown, shown
    kinds = "white|blue|green|red|black|gold|pearl"
    for cell in range(9):  # a 3 by 3 board, full at setup
        assert re.search(rf"(^|\s){cell} ({kinds})\b", shown), cell
    assert "picked" in shown
