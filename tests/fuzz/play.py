"""Playing a drawn edition in both of its engines, move by move.

The comparison is the one the shipped editions are tested with
(tests/test_differential.py: `Differential`, `play`, `probe_with`): after
every action, the legal actions (as sets and in order) and their JSON forms,
the state by JSON, every seat's view, the current player, the end, scores
and winners; and at every step one drawn illegal action, which both engines
must refuse naming the same rules and leaving the state as it was. On top of
that, a game must end within the drawn edition's bound.

A failure is an `EditionDisagreement`: the disagreement, the rule file and
data, and the game (players, seed, first player and the moves), with a
command that replays it.
"""

from __future__ import annotations

import hashlib
import json
import random
import tempfile
import traceback
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import test_differential as differential
from fuzz.engines import Built, Mutation, StrategyBug, build, built
from fuzz.rule_files import DrawnEdition

from splendor_rules.compiler.frontend import identities

# All this module uses of the shipped differential harness, named here so
# that a change there is a change of these lines only: `Differential`,
# `Disagreement`, `Record`, `Side`, `play`, `probe_with`, and `registered`
# (which makes a drawn edition's names known to its illegal-action generator).
Disagreement = differential.Disagreement
Differential = differential.Differential
Record = differential.Record
Side = differential.Side
play = differential.play
probe_with = differential.probe_with


@dataclass(frozen=True)
class Game:
    """How one game is set up and played: a seed for the setup and one for
    the moves (an index into the legal actions, and an illegal probe, at
    every step)."""

    players: int  # an offset into the edition's player counts
    seed: int
    first: int  # an offset into the seats
    moves: int

    def setup(self, low: int, high: int) -> tuple[int, int, int]:
        players = low + self.players % (high - low + 1)
        return players, self.seed, self.first % players

    def following(self, i: int) -> Game:
        """The i-th further game of an edition (another player count and seeds)."""
        return Game(self.players + i, self.seed + i, self.first + i, self.moves + i)


class EditionDisagreement(AssertionError):
    """The engines of a drawn edition disagree (or break, or a game does not
    end): the report holds the rule file and the game."""

    def __init__(
        self, what: str, drawn: DrawnEdition, record: Record | None = None, moves: int = 0
    ) -> None:
        self.what = what
        self.drawn = drawn
        self.record = record
        folder = saved(drawn)
        game = ""
        if record is not None:
            setup = {
                "players": record.players,
                "seed": record.seed,
                "first_player": record.first_player,
                "moves": moves,
                "clock": drawn.clock_supply,
                "steps": drawn.steps,
            }
            game = (
                f"\ngame: {record.players} players, seed {record.seed}, first player "
                f"{record.first_player}, moves and probes from random.Random({moves}); "
                f"{len(record.actions)} action(s) before the disagreement:\n"
                f"{json.dumps(record.actions)}\n"
                f"replay: python tests/test_random_editions.py --replay {folder / drawn.main} "
                f"--game '{json.dumps(setup)}'"
            )
        super().__init__(f"random edition: {what}\n{drawn.show()}{game}")


def saved(drawn: DrawnEdition) -> Path:
    """The drawn edition's files, written under the temporary folder by the
    hash of their text (the same edition, the same folder)."""
    digest = hashlib.sha1(repr(sorted(drawn.files.items())).encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / "random-editions" / digest
    folder.mkdir(parents=True, exist_ok=True)
    drawn.write(folder)
    return folder


def registered(engines: Built) -> AbstractContextManager[None]:
    """The drawn edition's interpreter known to the differential harness
    by the edition's name while the game is played."""
    return differential.registered(engines.model.name, engines.interpreter)


@dataclass
class Played:
    """What one game did, for statistics."""

    plies: int
    probes: int
    ending: str = ""  # the endings whose conditions hold at the end (fuzz.lengths)


def play_game(engines: Built, game: Game) -> Played:
    """One game in both engines (see `play_setup`)."""
    return play_setup(engines, *game.setup(*engines.model.players), game.moves)


def play_setup(engines: Built, players: int, seed: int, first: int, moves: int) -> Played:
    """One game in both engines, its moves and probes drawn from
    random.Random(moves); EditionDisagreement at the first difference, at an
    exception of either engine, or if the game does not end in time."""
    drawn, model = engines.drawn, engines.model
    sides = (Side("generated", engines.generated), Side("interpreter", engines.interpreter))
    rng = random.Random(moves)
    bound = drawn.max_plies(players, len(identities.follow_ups(model)))
    diff: Differential | None = None
    try:
        with registered(engines):
            diff = Differential(model.name, players, seed, first, sides)
            ended = play(diff, rng.randrange, bound + 1, probe_with(rng.randrange))
    except Disagreement as found:
        what = str(found).split("\nreplay:")[0]
        raise EditionDisagreement(what, drawn, found.record, moves) from None
    except Exception as error:  # an engine broke: reported with the game so far
        record = diff.record if diff is not None else Record(model.name, players, seed, first)
        where = "".join(traceback.format_exception(error)[-3:])
        raise EditionDisagreement(
            f"an engine raised {error!r}\n{where}", drawn, record, moves
        ) from error
    if not ended:
        what = f"the game did not end within {bound} actions"
        raise EditionDisagreement(what, drawn, diff.record, moves)
    return Played(diff.plies, diff.probes, ended_by(engines.interpreter, diff.sb))


def ended_by(interpreter: Any, state: Any) -> str:
    """The endings whose conditions hold in a finished game (in the
    interpreter's state): what ended it, for the summary of game lengths."""
    env = interpreter.definitions.env(state)
    held = sorted(e.name for e in interpreter.model.endings if env.holds(e.condition))
    return " and ".join(held) or "none"


def check_edition(
    drawn: DrawnEdition, game: Game, games: int = 1, mutation: Mutation | None = None
) -> list[Played]:
    """Build a drawn edition (with a planted fault, if any) and play `games`
    games in both engines."""
    with tempfile.TemporaryDirectory(prefix="random-edition-") as folder:
        try:
            engines = build(drawn, Path(folder), mutation)
        except StrategyBug:
            raise
        except Exception as error:  # rendering or importing the engine failed
            where = "".join(traceback.format_exception(error)[-4:])
            raise EditionDisagreement(
                f"the generated engine cannot be built: {error!r}\n{where}", drawn, None
            ) from error
        return [play_game(engines, game.following(i)) for i in range(games)]


def replay(rule_file: Path, game: dict[str, Any]) -> str:
    """Replay a reported game of a saved edition (its folder holds the rule
    file and data) in both engines, with the same moves and probes."""
    files = {
        p.name: p.read_text(encoding="utf-8")
        for p in rule_file.parent.iterdir()
        if p.suffix in (".rules", ".csv")
    }
    drawn = DrawnEdition(files, rule_file.name, int(game["clock"]), int(game["steps"]))
    with built(drawn) as engines:
        played = play_setup(
            engines,
            int(game["players"]),
            int(game["seed"]),
            int(game.get("first_player", 0)),
            int(game.get("moves", 0)),
        )
    return f"the engines agree on all {played.plies} action(s) and {played.probes} probe(s)"
