"""Regenerate the golden files of tests/test_goldens.py from the generated engines.

    python tests/goldens/regenerate.py             # rewrite the files
    python tests/goldens/regenerate.py --check     # exit 1 if any file differs
    python tests/goldens/regenerate.py --add NAME  # cover one more edition too

The editions the goldens cover are read from the golden files themselves
(their playthroughs' names, in the order of their seeds), not from the
editions folder: an edition added to editions/ breaks no golden test, and
joins the goldens when `--add NAME` writes its files.

Run it after a change that is meant to change how games play (a rule file,
the compiler, the engine template), then read the diff: every changed line
is a changed state, legal action or count.

- playthroughs/<edition>-<players>p-seed<seed>.txt: a whole game from
  new_game(players, seed), with the actions drawn by
  random.Random("<edition>-<players>p-seed<seed>").randrange(len(legal)). For
  the first MAX_PLIES actions, at every step: the state (to_json: its plain
  fields on one line, then a line per other key and per seat), every legal
  action in order (action_to_json), then the action taken; after that only
  the actions taken; then the final state, scores and winners.
- perft.json: for fixed positions (new_game(players, seed), played on by
  `prefix`, a list of actions in action_to_json form), the number of legal
  action sequences of each length up to `depth` (a decision step counts as an
  action: docs/engine.md, "Legal actions").
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PLAYTHROUGH_DIR = HERE / "playthroughs"
PERFT_FILE = HERE / "perft.json"
MAX_PLIES = 40  # actions shown in full (state and legal actions)
LAST_PLY = 1000  # a game stops here if it has not ended


_GOLDEN_NAME = re.compile(r"(.+)-[0-9]+p-seed([0-9]+)\.txt")


def _editions() -> tuple[str, ...]:
    """The editions the goldens cover, in the order of their seeds (classic,
    marvel, ...), read from the playthroughs' names."""
    found = sorted(
        (int(match.group(2)), match.group(1))
        for path in PLAYTHROUGH_DIR.glob("*.txt")
        if (match := _GOLDEN_NAME.fullmatch(path.name)) is not None
    )
    return tuple(dict.fromkeys(name for _, name in found))


def playthroughs(editions: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """(edition, players, seed): one game per player count and edition; the
    edition at index i plays seeds 3i + 1 .. 3i + 3."""
    return tuple(
        (edition, players, 3 * i + players - 1)
        for i, edition in enumerate(editions)
        for players in (2, 3, 4)
    )


def perft_positions(editions: tuple[str, ...]) -> tuple[tuple[str, int, int, int, int], ...]:
    """(edition, players, seed, plies played by random.Random(seed) first,
    depth). From the setup, depth 3 (depth 4 takes seconds); later
    positions, where cards can be bought and tokens must be returned, to
    depth 4 and 3 (the last with 3 or 4 players, edition by edition)."""
    return tuple(
        position
        for i, edition in enumerate(editions)
        for position in (
            (edition, 2, 1, 0, 3), (edition, 3, 2, 0, 3), (edition, 4, 3, 0, 3),
            (edition, 2, 7, 30, 4), (edition, 3 + i % 2, 9, 60, 3),
        )
    )


EDITIONS = _editions()
PLAYTHROUGHS = playthroughs(EDITIONS)
PERFT_POSITIONS = perft_positions(EDITIONS)

Json = dict[str, Any]


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def state_lines(data: Json) -> list[str]:
    """A state's JSON form: the plain fields on one line, then a line per
    other key and per seat."""
    plain = {k: v for k, v in data.items() if not isinstance(v, dict | list)}
    lines = [f"  {compact(plain)}"]
    for key, value in data.items():
        if key == "seats":
            lines.append("  seats:")
            lines.extend(f"    {compact(seat)}" for seat in value)
        elif key not in plain:
            lines.append(f"  {key}: {compact(value)}")
    return lines


def playthrough(engine: Any, edition: str, players: int, seed: int) -> str:
    """The text of a golden playthrough, played by `engine`."""
    name = f"{edition}-{players}p-seed{seed}"
    moves = random.Random(name)
    state = engine.new_game(players, seed)
    lines = [
        f"# Golden playthrough: {edition}, {players} players, seed {seed}, first player 0.",
        f"# Actions drawn by random.Random({name!r}).randrange(len(legal)). The first "
        f"{MAX_PLIES} in full,",
        "# then only the actions, then the final state.",
        "# Regenerate: python tests/goldens/regenerate.py",
    ]
    ply = 0
    while not engine.is_over(state) and ply < LAST_PLY:
        legal = engine.legal_actions(state)
        choice = moves.randrange(len(legal))
        played = compact(engine.action_to_json(legal[choice]))
        if ply < MAX_PLIES:
            lines += ["", f"ply {ply}: player {engine.current_player(state)} to move",
                      "state:", *state_lines(engine.to_json(state)), f"legal ({len(legal)}):"]
            lines += [f"  {i} {compact(engine.action_to_json(a))}" for i, a in enumerate(legal)]
            lines.append(f"play {choice} {played}")
        else:
            if ply == MAX_PLIES:
                lines += ["", "then:"]
            lines.append(f"ply {ply}: player {engine.current_player(state)} plays {choice} "
                         f"of {len(legal)} {played}")
        state = engine.apply(state, legal[choice])
        ply += 1
    lines += ["", f"end after {ply} actions:", "state:", *state_lines(engine.to_json(state)),
              f"legal: {compact([engine.action_to_json(a) for a in engine.legal_actions(state)])}",
              f"over {compact(engine.is_over(state))}; scores "
              f"{compact(list(engine.scores(state)))}; winners "
              f"{compact(sorted(engine.winners(state)))}"]
    return "\n".join(lines) + "\n"


def playthrough_path(edition: str, players: int, seed: int) -> Path:
    return PLAYTHROUGH_DIR / f"{edition}-{players}p-seed{seed}.txt"


def perft(engine: Any, state: Any, depth: int) -> int:
    """The number of legal action sequences of length `depth` from `state`
    (the last level counted from the length of legal_actions)."""
    legal = engine.legal_actions(state)
    if depth <= 1:
        return len(legal) if depth == 1 else 1
    return sum(perft(engine, engine.apply(state, a), depth - 1) for a in legal)


def start(engine: Any, position: Json) -> Any:
    """The state of a perft position."""
    state = engine.new_game(position["players"], position["seed"], position["first_player"])
    for wire in position["prefix"]:
        state = engine.apply(state, engine.action_from_json(wire))
    return state


def perft_position(engine: Any, edition: str, players: int, seed: int, plies: int,
                   depth: int) -> Json:
    """A perft position with its counts for depths 1..depth."""
    moves = random.Random(seed)
    state = engine.new_game(players, seed)
    prefix = []
    for _ in range(plies):
        legal = engine.legal_actions(state)
        action = legal[moves.randrange(len(legal))]
        prefix.append(engine.action_to_json(action))
        state = engine.apply(state, action)
    position: Json = {"edition": edition, "players": players, "seed": seed, "first_player": 0,
                      "prefix": prefix}
    position["counts"] = {str(d): perft(engine, state, d) for d in range(1, depth + 1)}
    return position


def perft_table(engines: dict[str, Any], editions: tuple[str, ...] | None = None) -> Json:
    positions = PERFT_POSITIONS if editions is None else perft_positions(editions)
    return {
        "about": "perft: legal action sequences of each length from each position; "
                 "regenerate with python tests/goldens/regenerate.py",
        "positions": [perft_position(engines[p[0]], *p) for p in positions],
    }


def perft_text(engines: dict[str, Any], editions: tuple[str, ...] | None = None) -> str:
    """perft.json: JSON, a line per field of a position (a prefix on one line)."""
    table = perft_table(engines, editions)
    positions = table["positions"]
    lines = ["{", f'  "about": {json.dumps(table["about"])},', '  "positions": [']
    for i, position in enumerate(positions):
        lines.append("    {")
        items = list(position.items())
        lines += [f'      "{key}": {json.dumps(value)}' + ("," if j < len(items) - 1 else "")
                  for j, (key, value) in enumerate(items)]
        lines.append("    }" + ("," if i < len(positions) - 1 else ""))
    return "\n".join([*lines, "  ]", "}"]) + "\n"


def expected_files(engines: dict[str, Any], editions: tuple[str, ...]) -> dict[Path, str]:
    files = {playthrough_path(*spec): playthrough(engines[spec[0]], *spec)
             for spec in playthroughs(editions)}
    files[PERFT_FILE] = perft_text(engines, editions)
    return files


def generated_engines(editions: tuple[str, ...]) -> dict[str, Any]:
    from splendor_rules.compiler.runtime.loading import load_engine

    return {name: load_engine(name, "generated") for name in editions}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    editions = EDITIONS
    if "--add" in argv:
        added = argv[argv.index("--add") + 1 :][:1]
        if not added:
            print("--add needs an edition's name", file=sys.stderr)
            return 2
        editions = tuple(dict.fromkeys([*EDITIONS, *added]))
    files = expected_files(generated_engines(editions), editions)
    stale = sorted(p for p in PLAYTHROUGH_DIR.glob("*.txt") if p not in files)
    differ = [p for p, text in files.items()
              if not p.is_file() or p.read_text(encoding="utf-8") != text]
    if check:
        for path in differ + stale:
            print(f"{path.relative_to(HERE.parent.parent)}: out of date", file=sys.stderr)
        return 1 if differ or stale else 0
    PLAYTHROUGH_DIR.mkdir(parents=True, exist_ok=True)
    for path in stale:
        path.unlink()
    for path in differ:
        path.write_text(files[path], encoding="utf-8")
    print(f"{len(differ)} file(s) written, {len(stale)} removed, "
          f"{len(files) - len(differ)} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
