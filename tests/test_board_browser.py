"""The web board in a real browser (headless Chromium, Debian's package,
driven by Playwright): a person plays whole games against `greedy` by clicks
alone, in a shipped edition and in an edition from a rule file outside the
project; a refused move is shown with its rule id and changes nothing; two
seats in two browser contexts each see only their own hidden cards; a record
is replayed forward and back.

The tests are skipped where /usr/bin/chromium is absent (docs/testing.md,
"The web board in a browser").
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from board_browser import ARGS, CHROMIUM, play_to_the_end, serving

from splendor_rules.compiler.runtime.loading import generated_editions

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"
)

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = generated_editions()
SCENARIO = sorted((ROOT / "tests" / "scenarios").glob("*.json"))[0]
RULE_ID = re.compile(r"^[A-Z]+-[0-9]+(\.[0-9]+)*$")
# An edition of a user's own: a rule file in a folder of its own, ending at 6 points.
QUICK = """edition quick "Splendor to 6 points" extends {base} {{
  override [C-5.2] end target: after the round once any(player: score >= 6)
}}
"""


@pytest.fixture(scope="module")
def rule_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("house") / "quick.rules"
    path.write_text(QUICK.format(base=EDITIONS[0]), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, rule_file: Path) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("games")
    with serving([*EDITIONS, str(rule_file)], folder, [SCENARIO]) as url:
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


def _start_from_lobby(page: Any, server: str, source: str) -> None:
    """A game against greedy, started by clicks on the lobby page."""
    page.goto(server + "/")
    page.wait_for_selector(".seat-kind")
    page.locator("#edition").select_option(source)
    page.locator("#players").select_option("2")
    page.locator(".seat-kind").nth(0).fill("human")
    page.locator(".seat-kind").nth(1).fill("greedy")
    page.locator("#delay").fill("0")
    page.locator("#seed").fill("1")
    page.locator("#start").click()
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#panel h3")


def _finish(page: Any) -> None:
    turns = play_to_the_end(page)
    assert turns > 0
    status = page.locator("#status").text_content()
    assert status.startswith("game over")
    assert page.locator("#panel").text_content().strip() == "The game is over."


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_person_plays_a_whole_game_by_clicks(server: str, browser: Any, edition: str) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _start_from_lobby(page, server, edition)
    _finish(page)
    assert errors == []
    page.close()


def test_an_edition_from_a_rule_file_is_played_to_the_end(
    server: str, browser: Any, rule_file: Path
) -> None:
    page = browser.new_page()
    _start_from_lobby(page, server, str(rule_file.resolve()))
    assert "Splendor to 6 points" in page.locator("#title").text_content()
    _finish(page)
    page.close()


def test_a_refused_move_is_shown_with_its_rule_id_and_changes_nothing(
    server: str, browser: Any
) -> None:
    page = browser.new_page()
    _start_from_lobby(page, server, EDITIONS[0])
    before = page.locator("#table").inner_html()
    # a token of the supply that no legal move takes, asked for all the same
    page.locator("#supply .chip.selectable:not(.clickable)").first.click()
    page.locator("#panel button.try").first.click()
    page.wait_for_selector("#refusal .rule-id")
    rule = page.locator("#refusal .rule-id").first.text_content()
    assert RULE_ID.match(rule), rule
    assert rule in page.locator("#refusal").text_content().replace("refused:", "", 1)
    page.locator("#panel button.clear").click()
    assert page.locator("#table").inner_html().replace(" selected", "") == before.replace(
        " selected", ""
    )
    assert page.locator("#log li").count() == 0
    assert page.locator("#status").text_content() == "your turn"
    page.close()


def test_two_seats_in_two_contexts_see_only_their_own_hidden_cards(
    server: str, browser: Any
) -> None:
    game = _post(
        server + "/api/games",
        {"source": EDITIONS[0], "players": 2, "seats": ["human", "human"], "seed": 4},
    )
    pages = []
    for seat in ("0", "1"):
        context = browser.new_context()
        page = context.new_page()
        page.goto(server + game["seats"][seat])
        page.wait_for_selector("#status:not(:empty)")
        pages.append(page)
    first, second = pages
    assert first.locator("#status").text_content() == "your turn"
    assert second.locator("#panel").text_content() == "Waiting for seat 0."
    # seat 0 reserves the top card of a deck: a card only its owner sees
    first.locator(".deck.clickable").first.click()
    first.locator("#panel .chosen button.move").first.click()
    own = first.locator(".seat[data-seat='0'] [data-card]")
    own.first.wait_for()
    card = own.first.get_attribute("data-card")
    second.locator(".seat[data-seat='0'] .hidden-card").first.wait_for()
    assert second.locator(f".seat[data-seat='0'] [data-card='{card}']").count() == 0
    assert second.locator(f"[data-card='{card}']").count() == 0
    assert second.locator("#status").text_content() == "your turn"
    # seat 1 cannot move for seat 0, nor a page without a seat for anyone
    for query in (f"?seat={game['seats']['0'].split('=')[1]}", ""):
        request = urllib.request.Request(
            f"{server}/api/games/{game['id']}/moves{query}",
            json.dumps({"action": "take_two", "c": "nothing"}).encode(),
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code in (403, 409)
    for page in pages:
        page.context.close()


def test_a_record_is_replayed_forward_and_back(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    page.locator(f"#records a:text('{SCENARIO.name}')").click()
    page.wait_for_selector("#status[data-step='0']")
    start = page.locator("#table").inner_html()
    steps = len(json.loads(SCENARIO.read_text())["actions"])
    for step in range(1, steps + 1):
        page.locator("#forward").click()
        page.wait_for_selector(f"#status[data-step='{step}']")
        if page.locator(".expectation").count():
            assert page.locator(".expectation.fails").count() == 0
    page.locator("#forward").click()  # past the end: stays at the last step
    assert page.locator("#status").get_attribute("data-step") == str(steps)
    assert page.locator("#log li.current").count() == 1
    for step in range(steps - 1, -1, -1):
        page.locator("#back").click()
        page.wait_for_selector(f"#status[data-step='{step}']")
    assert page.locator("#table").inner_html() == start
    page.close()


def test_a_played_game_record_is_uploaded_and_replayed(
    server: str, browser: Any, tmp_path: Path
) -> None:
    game = _post(
        server + "/api/games",
        {"source": EDITIONS[0], "players": 2, "seats": ["human", "greedy"], "seed": 2},
    )
    token = game["seats"]["0"].split("=")[1]
    with urllib.request.urlopen(f"{server}/api/games/{game['id']}?seat={token}") as answer:
        first = json.loads(answer.read())["legal"][0]["move"]
    _post(f"{server}/api/games/{game['id']}/moves?seat={token}", first)
    with urllib.request.urlopen(f"{server}/api/games/{game['id']}/record") as answer:
        record = answer.read()
    path = tmp_path / "game.json"
    path.write_bytes(record)
    page = browser.new_page()
    page.goto(server + "/")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#status[data-step='0']")
    page.locator("#last").click()
    steps = len(json.loads(record)["actions"])
    page.wait_for_selector(f"#status[data-step='{steps}']")
    page.locator("#first").click()
    page.wait_for_selector("#status[data-step='0']")
    page.close()


def test_bots_games_are_watched_move_by_move_at_a_chosen_pace(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector(".seat-kind")
    page.locator("#edition").select_option(EDITIONS[0])
    page.locator(".seat-kind").nth(0).fill("greedy")
    page.locator(".seat-kind").nth(1).fill("random")
    page.locator("#delay").fill("0.3")
    page.locator("#start").click()
    page.locator("a.watch-link").click()
    page.wait_for_function("() => document.querySelectorAll('#log li').length >= 2")
    assert page.locator("#status").get_attribute("data-over") == "false"
    assert page.locator("#panel").text_content() == "Watching."
    page.locator("#pace").fill("0")
    page.locator("#pace").dispatch_event("change")
    page.wait_for_selector("#status[data-over='true']", timeout=120_000)
    assert page.locator("#log li").count() > 2
    page.close()
