"""Screenshots of the web board for the docs: each edition's board after a
few turns of a person (by clicks) against greedy, a board of cells
(tests/variants/board_cells.rules) with a line chosen, and a replayed scenario.

    python tests/board_screenshots.py [FOLDER]   # default: docs/images
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from board_browser import ARGS, CHROMIUM, serving, take_turn
from playwright.sync_api import sync_playwright

from splendor_rules.compiler.runtime.loading import generated_editions

ROOT = Path(__file__).resolve().parent.parent
BOARD = str(ROOT / "tests" / "variants" / "board_cells.rules")
READY = "() => document.querySelector('#status').textContent === 'your turn'"


def main(folder: Path) -> None:
    editions = generated_editions()
    scenario = sorted((ROOT / "tests" / "scenarios").glob("*noble_choice*.json"))
    with (
        tempfile.TemporaryDirectory() as games,
        serving([*editions, BOARD], Path(games), scenario) as url,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        for edition in editions:
            page.goto(url + "/")
            page.wait_for_selector(".seat-kind")
            page.locator("#edition").select_option(edition)
            page.locator(".seat-kind").nth(1).fill("greedy")
            page.locator("#delay").fill("0")
            page.locator("#seed").fill("3")
            page.locator("#start").click()
            page.wait_for_url("**/game/**")
            for _ in range(8):
                page.wait_for_function(READY)
                take_turn(page)
            page.wait_for_function(READY)
            page.locator(".card.clickable").first.click()  # a card's moves in the panel
            page.screenshot(path=str(folder / f"board_{edition}.png"), full_page=True)
            print(folder / f"board_{edition}.png")
        # a board of cells (tests/variants/board_cells.rules): a line of three chosen
        page.goto(url + "/")
        page.wait_for_selector(".seat-kind")
        page.locator("#edition").select_option(BOARD)
        page.locator(".seat-kind").nth(1).fill("greedy")
        page.locator("#delay").fill("0")
        page.locator("#seed").fill("3")
        page.locator("#start").click()
        page.wait_for_url("**/game/**")
        for _ in range(4):
            page.wait_for_function(READY)
            take_turn(page)
        page.wait_for_function(READY)
        moves = page.evaluate("() => snapshot.legal.map((item) => item.move)")
        line = max((m["picked"] for m in moves if m["action"] == "take_line"), key=len)
        for cell in line:
            page.locator(f"#cells .cell[data-cell='{cell}']").click()
        page.screenshot(path=str(folder / "board_cells.png"), full_page=True)
        print(folder / "board_cells.png")
        if scenario:
            page.goto(f"{url}/replay/{scenario[0].name}")
            page.wait_for_selector("#status[data-step='0']")
            page.locator("#forward").click()
            page.wait_for_selector(".expectation")
            page.screenshot(path=str(folder / "board_replay.png"), full_page=True)
            print(folder / "board_replay.png")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images")
