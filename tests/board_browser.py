"""Helpers of the browser tests of the web board (tests/test_board_browser.py):
a server in a thread, Debian's Chromium through Playwright, and a person who
plays by clicks alone."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def serving(sources: Sequence[str], folder: Path, records: Sequence[Path] = ()) -> Iterator[str]:
    """A board server on a free port of 127.0.0.1 for the block; its URL."""
    import uvicorn

    from splendor_rules.compiler.cli.web import make_app
    from splendor_rules.compiler.tools.board.games import Games

    games = Games(folder)
    games.restore()
    app = make_app(games, sources, records)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the board server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


# The page says whose turn it is in #status; a person's turn shows "your turn".
_READY = """() => {
  const s = document.querySelector('#status');
  if (!s) return false;
  if (s.dataset.over === 'true') return true;
  return s.textContent === 'your turn' && document.querySelector('#panel h3') !== null;
}"""


def _click_first_move(page: object, prefer_paying: bool) -> bool:
    buttons = page.locator("#panel .chosen button.move")  # type: ignore[attr-defined]
    if buttons.count() == 0:
        return False
    paying = page.locator("#panel .chosen button.move:has(.pips)")  # type: ignore[attr-defined]
    (paying.first if prefer_paying and paying.count() else buttons.first).click()
    return True


def take_turn(page: object) -> None:
    """One turn by clicks: a card with a paying move (buy it), else tokens
    of the supply until a move takes them, else cells of a board until a
    move takes them, else a card's first move, else the first decision or
    other move of the panel."""
    p = page
    version = p.evaluate("() => document.querySelector('#log').children.length")  # type: ignore[attr-defined]
    cards = p.locator("[data-pays='true'].clickable")  # type: ignore[attr-defined]
    if cards.count():
        cards.first.click()
        if _click_first_move(p, True):
            return _wait_moved(p, version)
    tokens = p.locator("#supply .chip.clickable")  # type: ignore[attr-defined]
    for index in range(tokens.count()):
        tokens.nth(index).click()
        if _click_first_move(p, False):
            return _wait_moved(p, version)
    clear = p.locator("#panel button.clear")  # type: ignore[attr-defined]
    if clear.count():
        clear.first.click()
    for _ in range(3):  # cells of a board: clicked until a move takes those chosen
        cells = p.locator("#cells .cell.clickable:not(.selected)")  # type: ignore[attr-defined]
        if not cells.count():
            break
        cells.first.click()
        if _click_first_move(p, False):
            return _wait_moved(p, version)
    if clear.count():
        clear.first.click()
    others = p.locator("#table .clickable:not(.chip), #players .clickable")  # type: ignore[attr-defined]
    if others.count():
        others.first.click()
        if _click_first_move(p, False):
            return _wait_moved(p, version)
    p.locator("#panel .direct button.move").first.click()  # type: ignore[attr-defined]
    return _wait_moved(p, version)


def _wait_moved(page: object, before: int) -> None:
    page.wait_for_function(  # type: ignore[attr-defined]
        f"() => document.querySelector('#log').children.length > {before} || "
        "document.querySelector('#refusal').textContent !== ''"
    )
    refusal = page.locator("#refusal").text_content()  # type: ignore[attr-defined]
    assert not refusal, refusal


def play_to_the_end(page: object, limit: int = 400) -> int:
    """Take turns while the game goes on; the turns taken."""
    for turn in range(limit):
        page.wait_for_function(_READY, timeout=60_000)  # type: ignore[attr-defined]
        if page.locator("#status").get_attribute("data-over") == "true":  # type: ignore[attr-defined]
            return turn
        take_turn(page)
    raise AssertionError(f"the game did not end in {limit} turns")
