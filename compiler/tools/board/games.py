"""Games in progress on the web board: seats, moves, bots and records.

A game is an engine, a seed and the moves made, so its record (the form
`play -o` writes, docs/records.md) is all that is saved: each move is written
at once, atomically, and a restarted server replays the records of its
folder to the same states. Each human seat has an unguessable token
(`secrets`); a request names its seat by the token alone, so a seat can
neither see another's hidden cards nor move for it. Bots are the bots of
`simulate`, made by its public factory, and see only their seat's view.
This module does no I/O but the records and holds no clock: the web layer
decides when a bot moves.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import define, field

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.runtime.api import Action, Engine, Json, State
from splendor_rules.compiler.runtime.loading import EngineUnavailable
from splendor_rules.compiler.tools.labels import (
    EditionData,
    data_of,
    move_label,
    move_rules,
)
from splendor_rules.compiler.tools.loader import is_rule_file, load
from splendor_rules.compiler.tools.records.form import dump_record
from splendor_rules.compiler.tools.records.replay import leading_ids
from splendor_rules.compiler.tools.simulate.bots import BadBotSpec, Bot, bot_factory

HUMAN = "human"


class Refused(Exception):
    """A request the game does not take: `status` is the HTTP status it
    deserves (400 malformed, 403 not this seat's, 404 no such game, 409 not
    legal now), `rules` the rule ids of an illegal move's refusal."""

    def __init__(self, status: int, message: str, rules: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rules = list(rules)

    def as_json(self) -> Json:
        return {"error": self.message, "rules": self.rules}


@define
class Edition:
    """An engine and what the board shows of its edition."""

    source: str  # an edition's name, or a rule file's absolute path
    engine: Engine
    data: EditionData

    def as_json(self) -> Json:
        return {
            "source": self.source,
            "description": self.engine.DESCRIPTION,
            **self.data.as_json(),
        }


_EDITIONS: dict[str, Edition] = {}


def _engine(source: str) -> Engine:
    """The native engine of an edition where it is built (the bots think
    faster), else the generated one; a rule file's rendered engine."""
    if not is_rule_file(source):
        try:
            return load(source, "native")
        except (EngineUnavailable, ImportError):
            pass
    return load(source)


def open_edition(source: str | Path) -> Edition:
    """The engine and data of an edition's name or a rule file (once per
    process); Refused(400), saying why, if there is none."""
    key = str(Path(source).resolve()) if is_rule_file(source) else str(source)
    found = _EDITIONS.get(key)
    if found is None:
        try:
            engine = _engine(key)
            found = Edition(key, engine, data_of(engine.DESCRIPTION))
        except EngineUnavailable as error:
            raise Refused(400, str(error)) from error
        _EDITIONS[key] = found
    return found


@define
class Game:
    """One game: its seats (human or a bot's spec), the moves made and the
    state they lead to."""

    id: str
    edition: Edition
    players: int
    seed: int
    seats: list[str]  # per seat: "human" or a bot spec (random, greedy, mcts:N)
    tokens: list[str | None]  # per seat: a human seat's token
    first_player: int = 0
    state: State = None
    moves: list[Json] = field(factory=list)  # in the engine's JSON form
    log: list[Json] = field(factory=list)
    bots: dict[int, Bot] = field(factory=dict)
    version: int = 0
    delay: float = 0.5  # seconds between bots' moves, which the web layer honours
    _legal: tuple[int, list[Action]] | None = None

    @property
    def engine(self) -> Engine:
        return self.edition.engine

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (compared in constant time), or None."""
        if not token:
            return None
        for seat, own in enumerate(self.tokens):
            if own is not None and secrets.compare_digest(own, token):
                return seat
        return None

    def legal(self) -> list[Action]:
        """The legal moves of the state (computed once per version)."""
        cached = self._legal
        if cached is None or cached[0] != self.version:
            cached = (self.version, self.engine.legal_actions(self.state))
            self._legal = cached
        return cached[1]

    def over(self) -> bool:
        return bool(self.engine.is_over(self.state)) or not self.legal()

    def to_move(self) -> int | None:
        return None if self.over() else self.engine.current_player(self.state)

    def bot_to_move(self) -> bool:
        seat = self.to_move()
        return seat is not None and seat in self.bots

    def _apply(self, seat: int, action: Action) -> None:
        eng = self.engine
        after = eng.apply(self.state, action)
        data = eng.action_to_json(action)
        self.log.append(
            {
                "step": len(self.moves) + 1,
                "seat": seat,
                "move": data,
                "label": move_label(data, eng.DESCRIPTION, self.edition.data),
                "rules": move_rules(str(data["action"]), eng.DESCRIPTION),
            }
        )
        self.moves.append(data)
        self.state = after
        self.version += 1

    def play(self, seat: int | None, data: Any) -> None:
        """A human seat's move in the JSON form; Refused, the game unchanged,
        if it is malformed, not this seat's turn, or illegal (with the rule
        ids of the engine's refusal)."""
        if seat is None:
            raise Refused(403, "this link opens no seat of the game: only a seat's link moves")
        if seat in self.bots:
            raise Refused(403, f"seat {seat} is played by a bot")
        if self.over():
            raise Refused(409, "the game is over")
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            raise Refused(400, 'a move is a JSON object {"action": NAME, ...}')
        current = self.engine.current_player(self.state)
        if current != seat:
            raise Refused(409, f"it is seat {current}'s turn, not seat {seat}'s")
        try:
            action = self.engine.action_from_json(data)
        except Exception as error:  # whatever the engine says of a malformed move
            raise Refused(400, f"not a move of {self.engine.EDITION}: {error}") from error
        try:
            self._apply(seat, action)
        except self.engine.IllegalAction as error:
            raise Refused(409, str(error), leading_ids(str(error))) from error

    def bot_choice(self) -> tuple[int, Action] | None:
        """The seat whose bot is to move and the move it chooses (the game
        unchanged: the web layer computes it off its event loop), or None."""
        seat = self.to_move()
        if seat is None or seat not in self.bots:
            return None
        state = self.state
        legal = list(self.legal())
        view = lambda: self.engine.view(state, seat)  # noqa: E731 (computed if the bot asks)
        return seat, self.bots[seat].choose(self.engine, seat, legal, view)

    def apply_bot(self, choice: tuple[int, Action], version: int) -> None:
        """Make a bot's chosen move, if the game is still where it was chosen."""
        if self.version == version:
            self._apply(*choice)

    def bot_move(self) -> None:
        """The move of the bot whose turn it is (nothing if it is no bot's)."""
        choice = self.bot_choice()
        if choice is not None:
            self.apply_bot(choice, self.version)

    def public_view(self, seat: int | None) -> Json:
        """What a seat sees (`view`); for a watcher (no seat), what every
        seat sees: seat 0's view with its hidden cards shown as their deck."""
        if seat is not None:
            return self.engine.view(self.state, seat)
        view = self.engine.view(self.state, 0)
        hidden = set(view.get("hidden", []))
        if hidden:
            tiers = {c: d["name"] for d in self.engine.DESCRIPTION["decks"] for c in d["cards"]}
            for part in view["seats"]:
                for zone, items in part["zones"].items():
                    part["zones"][zone] = [
                        {"deck": tiers[c]} if isinstance(c, int) and c in hidden else c
                        for c in items
                    ]
            view["hidden"] = []
        return view

    def snapshot(self, seat: int | None, since: int = 0) -> Json:
        """What a page shows a seat (or a watcher): the view, the scores,
        whose turn, the legal moves if they are this seat's to make, and the
        log from entry `since`."""
        eng = self.engine
        to_move = self.to_move()
        legal = (
            [eng.action_to_json(a) for a in self.legal()]
            if seat is not None and to_move == seat and seat not in self.bots
            else []
        )
        over = self.over()
        return {
            "game": self.id,
            "version": self.version,
            "seat": seat,
            "seats": self.seats,
            "to_move": to_move,
            "over": over,
            "scores": list(eng.scores(self.state)),
            "winners": sorted(eng.winners(self.state)) if over else [],
            "view": self.public_view(seat),
            "legal": legal,
            "log": self.log[since:],
            "delay": self.delay,
        }

    def record(self) -> Json:
        """The game's record, as `play -o` writes it (replayable)."""
        eng = self.engine
        final: Json = {
            "step": len(self.moves),
            "is_over": bool(eng.is_over(self.state)),
            "scores": list(eng.scores(self.state)),
        }
        if final["is_over"]:
            final["winners"] = sorted(eng.winners(self.state))
        return {
            "title": f"{eng.EDITION}, {self.players} players, seed {self.seed}: "
            + ", ".join(self.seats),
            "rules": [],
            "edition": eng.EDITION,
            "players": self.players,
            "seed": self.seed,
            "first_player": self.first_player,
            "bots": list(self.seats),
            "actions": list(self.moves),
            "expect": [final],
        }


def _bots(seats: Sequence[str], seed: int) -> dict[int, Bot]:
    bots = {}
    for seat, spec in enumerate(seats):
        if spec != HUMAN:
            try:
                bots[seat] = bot_factory(spec)(f"{seed}:{seat}")
            except BadBotSpec as error:
                raise Refused(400, f"seat {seat}: {error}") from error
    return bots


class Games:
    """The games of a server, each saved in `folder` (if given) after each
    move as `<id>.json`: the record and what the board adds (the rule
    file, the seats' tokens); `restore` reads them back after a restart."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.games: dict[str, Game] = {}

    def __iter__(self) -> Iterator[Game]:
        return iter(self.games.values())

    def create(
        self, source: str, players: int, seats: Sequence[str], seed: int | None = None
    ) -> Game:
        """A new game; Refused(400) if the edition, the count or a seat is wrong."""
        edition = open_edition(source)
        eng = edition.engine
        if not isinstance(players, int) or players not in eng.PLAYERS:
            raise Refused(
                400,
                f"{eng.EDITION} is for {eng.PLAYERS.start} to "
                f"{eng.PLAYERS.stop - 1} players, not {players!r}",
            )
        seats = [str(s).strip() for s in seats]
        if len(seats) != players:
            raise Refused(400, f"give one seat per player: {len(seats)} for {players}")
        seed = secrets.randbelow(10**6) if seed is None else seed
        game = Game(
            id=secrets.token_urlsafe(9),
            edition=edition,
            players=players,
            seed=seed,
            seats=seats,
            tokens=[secrets.token_urlsafe(16) if s == HUMAN else None for s in seats],
            bots=_bots(seats, seed),
        )
        game.state = eng.new_game(players, seed)
        self.games[game.id] = game
        self.save(game)
        return game

    def get(self, game_id: str) -> Game:
        game = self.games.get(game_id)
        if game is None:
            raise Refused(404, f"no game {game_id!r} on this server")
        return game

    def saved_text(self, game: Game) -> str:
        """What the game's file holds: the record and what the board adds."""
        saved = {
            "board": {"source": game.edition.source, "tokens": game.tokens, "id": game.id},
            "record": game.record(),
        }
        return json.dumps(saved) + "\n"

    def write(self, game_id: str, text: str) -> None:
        """Write a game's file at once (a temporary file, then a rename)."""
        if self.folder is not None:
            write_atomically(self.folder / f"{game_id}.json", text)

    def save(self, game: Game) -> None:
        self.write(game.id, self.saved_text(game))

    def restore(self) -> list[str]:
        """Read back every game of the folder; what could not be, said."""
        problems = []
        for path in sorted(self.folder.glob("*.json")) if self.folder else []:
            try:
                self._restore(json.loads(path.read_text(encoding="utf-8")))
            except (Refused, ValueError, KeyError, TypeError) as error:
                problems.append(f"{path.name}: {error}")
        return problems

    def _restore(self, saved: Json) -> None:
        board, record = saved["board"], saved["record"]
        edition = open_edition(board["source"])
        seats = list(record["bots"])
        game = Game(
            id=str(board["id"]),
            edition=edition,
            players=int(record["players"]),
            seed=int(record["seed"]),
            seats=seats,
            tokens=list(board["tokens"]),
            first_player=int(record["first_player"]),
            bots=_bots(seats, int(record["seed"])),
        )
        eng = edition.engine
        game.state = eng.new_game(game.players, game.seed, game.first_player)
        for data in record["actions"]:
            game._apply(eng.current_player(game.state), eng.action_from_json(data))
        self.games[game.id] = game


def record_text(game: Game) -> str:
    """The game's record as `play -o` writes it."""
    return dump_record(game.record())
