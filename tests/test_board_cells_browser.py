"""A board of cells on the web board, in a real browser (headless Chromium
through Playwright, as tests/test_board_browser.py): tests/variants/board_cells.rules,
a 3 by 3 board filled from a bag. A person takes a line of cells by clicks
(only a set of cells a legal move takes can be confirmed), the board and the
bag are drawn as the view says, and a refill from the bag is shown. Also: a
seat that moves again (an action before the main one) is still offered its
moves.

Skipped where /usr/bin/chromium is absent (docs/testing.md, "The web board
in a browser").
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from board_browser import ARGS, CHROMIUM, serving

from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.tools.board import games
from splendor_rules.compiler.tools.board.games import Edition
from splendor_rules.compiler.tools.labels import data_of

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"
)

ROOT = Path(__file__).resolve().parent.parent
RULES = str(ROOT / "tests" / "variants" / "board_cells.rules")
RECORD = ROOT / "tests" / "variants" / "records" / "board_cells.json"
# An action before the main one (docs/language.md, "Several actions a turn"),
# which the reference interpreter plays.
TURNS = """edition turns "Splendor, an action before the main one" extends classic {
  remove reference "RULES.md"

  [T-1] action draw "draw a gold token": before the main action, once {
    require supply(gold) > 0 else "no gold left"
    gain 1 gold
  }
}
"""


# A follow-up choice of a cell, which a player may decline: the board edition
# with a trigger added.
GIFT = """
  [D-9.1] trigger gift: after card k enters reserved {
    if count(board) > 0 {
      may choose x from y in board where y.token != gold
      take the tokens of x
    }
  }
}
"""


def gift_rules(folder: Path) -> str:
    """tests/variants/board_cells.rules with GIFT added, in `folder`."""
    text = Path(RULES).read_text(encoding="utf-8").rstrip()
    assert text.endswith("}")
    path = folder / "gift.rules"
    path.write_text(text[:-1] + GIFT, encoding="utf-8")
    return str(path)


def turns_edition(folder: Path) -> Edition:
    """The edition of TURNS on the reference interpreter, as the board opens one."""
    path = folder / "turns.rules"
    path.write_text(TURNS, encoding="utf-8")
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    engine = InterpretedEngine(compiled.model)
    return Edition("turns", engine, data_of(engine.DESCRIPTION))


@pytest.fixture(scope="module")
def gift(tmp_path_factory: pytest.TempPathFactory) -> str:
    return gift_rules(tmp_path_factory.mktemp("gift"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, gift: str) -> Iterator[str]:
    edition = turns_edition(tmp_path_factory.mktemp("turns"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(games._EDITIONS, "turns", edition)  # no generated engine prints it yet
        folder = tmp_path_factory.mktemp("games")
        with serving([RULES, "turns", gift], folder, [RECORD]) as url:
            yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def _post(url: str, data: object) -> Any:
    request = urllib.request.Request(url, json.dumps(data).encode(), method="POST")
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def _my_turn(server: str, game: str, token: str) -> Any:
    """The seat's snapshot once it is its turn (the bot has replied)."""
    deadline = time.monotonic() + 60
    while True:
        with urllib.request.urlopen(f"{server}/api/games/{game}?seat={token}") as answer:
            shot = json.loads(answer.read())
        if shot["legal"] or shot["over"]:
            return shot
        if time.monotonic() > deadline:
            raise AssertionError("the bot did not reply")
        time.sleep(0.05)


def _cells_of(move: dict[str, Any]) -> list[int]:
    return list(move["picked"]) if move["action"] == "take_line" else []


def _shown(page: Any) -> tuple[list[str | None], int]:
    """The board's cells (token kind or None) and the bag's total as drawn."""
    kinds = page.eval_on_selector_all("#cells .cell", "cells => cells.map(c => c.dataset.kind)")
    total = page.locator("#cells .bag").get_attribute("data-total")
    return [k or None for k in kinds], int(total)


def _wait_version(page: Any, steps: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {steps}")


def _wait_status(page: Any, status: str) -> None:
    page.wait_for_function(f"() => document.querySelector('#status').textContent === '{status}'")


def test_a_line_of_cells_is_taken_by_clicks_and_the_bag_refills_the_board(
    server: str, browser: Any
) -> None:
    game = _post(
        server + "/api/games",
        {"source": RULES, "players": 2, "seats": ["human", "greedy"], "seed": 1, "delay": 0},
    )
    token = game["seats"]["0"].split("=")[1]
    shot = _my_turn(server, game["id"], token)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + game["seats"]["0"])
    page.wait_for_selector("#panel h3")
    assert _shown(page) == (shot["view"]["board"], sum(shot["view"]["bag"].values()))
    lines = [_cells_of(item["move"]) for item in shot["legal"]]
    line = next(cells for cells in lines if len(cells) == 3)

    # the first cell chosen: only the cells of a legal line through it stay offered
    page.locator(f"#cells .cell[data-cell='{line[0]}']").click()
    offered = {c for cells in lines if line[0] in cells for c in cells}
    clickable = page.eval_on_selector_all(
        "#cells .cell.clickable", "cells => cells.map(c => Number(c.dataset.cell))"
    )
    assert set(clickable) == offered
    aside = next(c for c, kind in enumerate(shot["view"]["board"]) if kind and c not in offered)
    page.locator(f"#cells .cell[data-cell='{aside}']").click()  # not in a line: nothing happens
    assert page.locator("#cells .cell.selected").count() == 1
    for cell in line[1:]:
        page.locator(f"#cells .cell[data-cell='{cell}']").click()
    assert page.locator("#cells .cell.selected").count() == 3
    confirm = page.locator("#panel .chosen button.move")
    assert confirm.count() == 1
    assert all(f"cell {c} " in confirm.text_content() for c in line)
    confirm.click()
    _wait_version(page, 1)
    shot = _my_turn(server, game["id"], token)
    assert shot["log"][0]["move"] == {"action": "take_line", "picked": line}
    assert all(shot["view"]["board"][c] is None for c in line)  # the bag is empty: no refill
    _wait_status(page, "your turn")
    assert _shown(page) == (shot["view"]["board"], sum(shot["view"]["bag"].values()))
    assert all(
        page.locator(f"#cells .cell[data-cell='{c}']").get_attribute("class") == "cell empty"
        for c in line
    )

    # payments go into the bag: moves by the API until the bag holds tokens
    # and the refill is legal; the page follows and shows the bag's counts
    for _ in range(20):
        names = {item["move"]["action"]: item["move"] for item in reversed(shot["legal"])}
        if sum(shot["view"]["bag"].values()) and "replenish" in names:
            break
        move = next(names[n] for n in ("buy", "take_gold", "take_line") if n in names)
        _post(f"{server}/api/games/{game['id']}/moves?seat={token}", move)
        shot = _my_turn(server, game["id"], token)
    bag = shot["view"]["bag"]
    assert sum(bag.values()) > 0
    _wait_version(page, len(shot["log"]))
    _wait_status(page, "your turn")
    assert _shown(page) == (shot["view"]["board"], sum(bag.values()))
    pips = page.locator("#cells .bag .pip")
    assert {p.get_attribute("title") for p in pips.all()} == {
        f"{n} {kind}" for kind, n in bag.items() if n
    }
    # the bot waits: the page shows the board right after the refill
    _post(f"{server}/api/games/{game['id']}/pace", {"delay": 10})
    empty = shot["view"]["board"].count(None)
    page.locator("#panel .direct button.move[data-action='replenish']").click()
    _wait_status(page, "seat 1 to move")
    refilled = min(empty, sum(bag.values()))
    board, total = _shown(page)
    assert board.count(None) == empty - refilled and total == sum(bag.values()) - refilled
    assert page.locator("#log li").last.text_content().startswith("seat 0: refill the board")
    assert errors == []
    page.close()


def test_a_seat_that_moves_again_is_still_offered_its_moves(server: str, browser: Any) -> None:
    """An action before the main one leaves the same seat to move: the page
    says so and offers that seat's moves (now without the action taken)."""
    game = _post(
        server + "/api/games",
        {"source": "turns", "players": 2, "seats": ["human", "greedy"], "seed": 1, "delay": 0},
    )
    page = browser.new_page()
    page.goto(server + game["seats"]["0"])
    page.wait_for_selector("#panel h3")
    draw = page.locator("#panel button.move[data-action='draw']")
    draw.click()
    _wait_version(page, 1)
    page.wait_for_selector("#panel h3")
    assert page.locator("#status").text_content() == "your turn"
    assert page.locator(".seat.to-move").get_attribute("data-seat") == "0"
    assert draw.count() == 0
    assert page.locator("#supply .chip.clickable").count() > 0  # the main action's moves
    page.locator(".deck.clickable").first.click()  # the main action: reserve a deck's top
    page.locator("#panel .chosen button.move").first.click()
    _wait_version(page, 3)  # and the bot's reply
    _wait_status(page, "your turn")
    assert draw.count() == 1  # open again on the next turn
    page.close()


def test_a_follow_up_choice_of_a_cell_is_made_by_a_click(
    server: str, browser: Any, gift: str
) -> None:
    """A follow-up that chooses a cell (after a reservation here) offers the
    cells it may take on the board, and its decline in the panel."""
    game = _post(
        server + "/api/games",
        {"source": gift, "players": 2, "seats": ["human", "greedy"], "seed": 1, "delay": 0},
    )
    token = game["seats"]["0"].split("=")[1]
    page = browser.new_page()
    page.goto(server + game["seats"]["0"])
    page.wait_for_selector("#panel h3")
    page.locator(".deck.clickable").first.click()
    page.locator("#panel .chosen button.move[data-action='reserve']").click()
    _wait_version(page, 1)
    shot = _my_turn(server, game["id"], token)
    offered = [item["move"]["x"] for item in shot["legal"]]
    assert offered[-1] is None and all(item["move"]["action"] == "gift.x" for item in shot["legal"])
    page.wait_for_selector("#panel button.move[data-action='gift.x']")  # the decline
    clickable = page.eval_on_selector_all(
        "#cells .cell.clickable", "cells => cells.map(c => Number(c.dataset.cell))"
    )
    assert sorted(clickable) == sorted(offered[:-1])
    cell = offered[0]
    kind = shot["view"]["board"][cell]
    page.locator(f"#cells .cell[data-cell='{cell}']").click()
    page.locator("#panel .chosen button.move").click()
    _wait_version(page, 2)
    assert shot["log"][-1]["seat"] == 0
    after = _my_turn(server, game["id"], token)
    assert after["log"][1]["move"] == {"action": "gift.x", "x": cell}
    assert after["view"]["seats"][0]["tokens"].get(kind, 0) >= 1
    page.close()


def test_a_record_of_the_board_is_replayed_with_its_cells(server: str, browser: Any) -> None:
    """A record of the rule file's edition (its setup sets the board and the
    bag), stepped through: the board and the bag drawn at each step."""
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    page = browser.new_page()
    page.goto(f"{server}/replay/{RECORD.name}")
    page.wait_for_selector("#status[data-step='0']")
    board = record["setup"]["board"]
    assert _shown(page)[0] == board
    taken = next(i for i, step in enumerate(record["actions"], 1) if "illegal" not in step)
    for step in range(1, taken + 1):
        page.locator("#forward").click()
        page.wait_for_selector(f"#status[data-step='{step}']")
    cells = json.loads(record["actions"][taken - 1]["do"].split(" ", 1)[1])  # take_line [a,b,c]
    after, _ = _shown(page)
    assert [after[c] for c in cells] == [None] * len(cells)
    assert [k for c, k in enumerate(after) if c not in cells] == [
        k for c, k in enumerate(board) if c not in cells
    ]
    page.locator("#last").click()  # the refill: the bag emptied onto the board
    page.wait_for_selector(f"#status[data-step='{len(record['actions'])}']")
    assert _shown(page)[1] == 0 and page.locator("#cells .cell.empty").count() < len(cells)
    page.close()
