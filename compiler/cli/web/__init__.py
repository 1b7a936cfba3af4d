"""The web board's application (Starlette): pages, the game API and live updates.

The games themselves live in `compiler/tools/board/` (seats, moves, bots,
records); this module is HTTP around them: a JSON answer for each request,
a 4xx with the reason (and the rule ids of an illegal move) for a wrong one,
server-sent events that push each seat its own snapshot when the game
changes, and one task per game that makes the bots' moves at the game's
pace. The pages are plain HTML, CSS and JavaScript in `static/`, drawn from
the engine's description and the seat's view: no edition is known here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import click
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.board.games import (
    Game,
    Games,
    Refused,
    open_edition,
    record_text,
)
from splendor_rules.compiler.tools.board.replays import replay_frames, rule_files
from splendor_rules.compiler.tools.labels import move_label
from splendor_rules.compiler.tools.records.form import read_json

STATIC = Path(__file__).resolve().parent / "static"
_MAX_BODY = 1 << 20  # a move is a few hundred bytes; a record, at most this


class Board:
    """The server's state: the games, the editions offered, the records
    given to replay, and per game the condition its watchers wait on."""

    def __init__(self, games: Games, sources: Sequence[str], records: Sequence[Path]) -> None:
        self.games = games
        self.sources = list(sources)
        self.records = {path.name: path for path in records}
        self.changed: dict[str, asyncio.Condition] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.unsaved: dict[str, str] = {}  # game id -> its record's text, not yet written
        self.dirty = asyncio.Event()
        self.writing = threading.Lock()  # one flush at a time: the saver's, or the last one
        self._rule_files: dict[str, str] | None = None

    def rule_files(self) -> dict[str, str]:
        """The rule files offered, by the edition each declares (found at
        the first replay): a record of one of them replays against it."""
        if self._rule_files is None:
            self._rule_files = rule_files(self.sources)
        return self._rule_files

    def condition(self, game: Game) -> asyncio.Condition:
        return self.changed.setdefault(game.id, asyncio.Condition())

    def lock(self, game: Game) -> asyncio.Lock:
        return self.locks.setdefault(game.id, asyncio.Lock())

    def save(self, game: Game) -> None:
        """Have the game's record written: its text is taken now, on the
        event loop, and written by the saver task (one write at a time, off
        the loop), so that an answer does not wait for the disk."""
        self.unsaved[game.id] = self.games.saved_text(game)
        self.dirty.set()

    async def saver(self) -> None:
        """Write the records of the games changed, for as long as the server runs."""
        while True:
            await self.dirty.wait()
            self.dirty.clear()
            await anyio.to_thread.run_sync(self.flush)

    def flush(self) -> None:
        """Write every record not yet written (also when the server stops)."""
        with self.writing:
            while self.unsaved:
                game_id, text = self.unsaved.popitem()
                self.games.write(game_id, text)

    async def notify(self, game: Game) -> None:
        condition = self.condition(game)
        async with condition:
            condition.notify_all()

    def drive(self, game: Game) -> None:
        """Start the task that makes the bots' moves, unless it runs."""
        task = self.drivers.get(game.id)
        if task is None or task.done():
            self.drivers[game.id] = asyncio.get_running_loop().create_task(self._bots(game))

    async def _bots(self, game: Game) -> None:
        while game.bot_to_move():
            await asyncio.sleep(game.delay)
            async with self.lock(game):
                if game.bot_to_move():
                    version = game.version
                    try:
                        choice = await anyio.to_thread.run_sync(game.bot_choice)
                    except Exception as error:  # a bot's failure stops its game, said once
                        seat = game.to_move()
                        click.echo(
                            f"game {game.id}: the bot of seat {seat} failed: {error!r}", err=True
                        )
                        return
                    if choice is not None:
                        game.apply_bot(choice, version)
                    self.save(game)
            await self.notify(game)


def _error(refused: Refused) -> JSONResponse:
    return JSONResponse(refused.as_json(), status_code=refused.status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > _MAX_BODY:
        raise Refused(413, f"the request is over {_MAX_BODY} bytes")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise Refused(400, f"the request is not JSON: {error}") from error


_SHOTS: dict[tuple[str, int | None], tuple[int, bytes]] = {}


def _shot_bytes(game: Game, seat: int | None) -> bytes:
    """A seat's snapshot as JSON bytes, made once per version of the game
    (the answer to a move and the event that follows it share it)."""
    key = (game.id, seat)
    cached = _SHOTS.get(key)
    if cached is None or cached[0] != game.version:
        cached = (game.version, json.dumps(_snapshot(game, seat)).encode())
        _SHOTS[key] = cached
    return cached[1]


def _json(data: bytes) -> Response:
    return Response(data, media_type="application/json")


def _snapshot(game: Game, seat: int | None) -> Json:
    shot = game.snapshot(seat)
    eng = game.engine
    shot["legal"] = [
        {"move": move, "label": move_label(move, eng.DESCRIPTION, game.edition.data)}
        for move in shot["legal"]
    ]
    return shot


def _seat(request: Request, game: Game) -> int | None:
    token = request.query_params.get("seat")
    seat = game.seat_of(token)
    if token and seat is None:
        raise Refused(403, "this link opens no seat of the game")
    return seat


def _board(request: Request) -> Board:
    board: Board = request.app.state.board
    return board


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def board_page(request: Request) -> Response:
    return FileResponse(STATIC / "board.html")


async def editions(request: Request) -> Response:
    found: list[Json] = []
    for source in _board(request).sources:
        try:
            edition = open_edition(source)
        except Refused as refused:
            found.append({"source": source, "error": refused.message})
            continue
        players = edition.engine.PLAYERS
        found.append(
            {
                "source": source,
                "title": edition.engine.TITLE,
                "edition": edition.engine.EDITION,
                "players": [players.start, players.stop - 1],
            }
        )
    return JSONResponse(found)


async def create(request: Request) -> Response:
    board = _board(request)
    try:
        data = await _body(request)
        if not isinstance(data, dict):
            raise Refused(400, "a new game is a JSON object {source, players, seats}")
        source = str(data.get("source", ""))
        if source not in board.sources:
            raise Refused(400, f"this server offers {', '.join(board.sources)}, not {source!r}")
        seats = data.get("seats")
        if not isinstance(seats, list):
            raise Refused(400, "seats must be a list: human or a bot per seat")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise Refused(400, "seed must be a whole number")
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise Refused(400, "players must be a whole number")
        game = board.games.create(source, players, seats, seed)
        if isinstance(data.get("delay"), int | float):
            game.delay = min(max(float(data["delay"]), 0.0), 10.0)
    except Refused as refused:
        return _error(refused)
    await board.notify(game)
    board.drive(game)
    links = {str(s): f"/game/{game.id}?seat={t}" for s, t in enumerate(game.tokens) if t}
    return JSONResponse({"id": game.id, "seats": links, "watch": f"/game/{game.id}"})


async def games(request: Request) -> Response:
    shown = [
        {
            "id": g.id,
            "edition": g.engine.EDITION,
            "seats": g.seats,
            "over": g.over(),
            "moves": len(g.moves),
            "watch": f"/game/{g.id}",
        }
        for g in _board(request).games
    ]
    return JSONResponse(shown)


async def game_state(request: Request) -> Response:
    try:
        game = _board(request).games.get(request.path_params["id"])
        return _json(_shot_bytes(game, _seat(request, game)))
    except Refused as refused:
        return _error(refused)


async def game_edition(request: Request) -> Response:
    try:
        game = _board(request).games.get(request.path_params["id"])
    except Refused as refused:
        return _error(refused)
    return JSONResponse(game.edition.as_json())


async def move(request: Request) -> Response:
    board = _board(request)
    try:
        game = board.games.get(request.path_params["id"])
        seat = _seat(request, game)
        data = await _body(request)
        async with board.lock(game):
            game.play(seat, data)
            board.save(game)
    except Refused as refused:
        return _error(refused)
    await board.notify(game)
    board.drive(game)
    return _json(_shot_bytes(game, seat))


async def pace(request: Request) -> Response:
    """A watcher sets the seconds between the bots' moves (0 to 10)."""
    try:
        game = _board(request).games.get(request.path_params["id"])
        data = await _body(request)
        delay = data.get("delay") if isinstance(data, dict) else None
        if not isinstance(delay, int | float) or not 0 <= delay <= 10:
            raise Refused(400, "delay is a number of seconds from 0 to 10")
    except Refused as refused:
        return _error(refused)
    game.delay = float(delay)
    return JSONResponse({"delay": game.delay})


async def events(request: Request) -> Response:
    """Server-sent events: the seat's snapshot now and after each change."""
    board = _board(request)
    try:
        game = board.games.get(request.path_params["id"])
        seat = _seat(request, game)
    except Refused as refused:
        return _error(refused)

    async def stream() -> AsyncIterator[bytes]:
        seen = -1
        condition = board.condition(game)
        while True:
            if game.version != seen:
                seen = game.version
                yield b"data: " + _shot_bytes(game, seat) + b"\n\n"
            async with condition:
                try:
                    await asyncio.wait_for(condition.wait(), timeout=15)
                except TimeoutError:
                    yield b": still here\n\n"

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )


async def record(request: Request) -> Response:
    try:
        game = _board(request).games.get(request.path_params["id"])
    except Refused as refused:
        return _error(refused)
    return PlainTextResponse(record_text(game), media_type="application/json")


async def replays(request: Request) -> Response:
    """GET: the records given on the command line; POST: a record's frames."""
    board = _board(request)
    if request.method == "GET":
        return JSONResponse(sorted(board.records))
    try:
        data = await _body(request)
        return JSONResponse(replay_frames(data, "the record sent", board.rule_files()))
    except Refused as refused:
        return _error(refused)


async def replay_file(request: Request) -> Response:
    board = _board(request)
    name = request.path_params["name"]
    path = board.records.get(name)
    try:
        if path is None:
            raise Refused(404, f"no record {name!r} on this server")
        try:
            data = read_json(path)
        except Exception as error:  # RecordError or an OSError: said, not raised
            raise Refused(400, f"{name}: {error}") from error
        return JSONResponse(replay_frames(data, name, board.rule_files()))
    except Refused as refused:
        return _error(refused)


def make_app(games: Games, sources: Sequence[str], records: Sequence[Path] = ()) -> Starlette:
    """The application over a set of games, offering these editions' names
    or rule files, and these records to replay."""
    board = Board(games, sources, records)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for game in board.games:
            board.drive(game)
        saver = asyncio.get_running_loop().create_task(board.saver())
        yield
        for task in [*board.drivers.values(), saver]:
            task.cancel()
        board.flush()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/game/{id:str}", board_page),
            Route("/replay/{id:str}", board_page),
            Route("/api/editions", editions),
            Route("/api/games", games_route, methods=["GET", "POST"]),
            Route("/api/games/{id:str}", game_state),
            Route("/api/games/{id:str}/edition", game_edition),
            Route("/api/games/{id:str}/moves", move, methods=["POST"]),
            Route("/api/games/{id:str}/pace", pace, methods=["POST"]),
            Route("/api/games/{id:str}/events", events),
            Route("/api/games/{id:str}/record", record),
            Route("/api/replays", replays, methods=["GET", "POST"]),
            Route("/api/replays/{name:str}", replay_file),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.board = board
    return app


async def games_route(request: Request) -> Response:
    return await (create(request) if request.method == "POST" else games(request))
