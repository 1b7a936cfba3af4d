"""From the games of a run to the summary a report shows (JSON-ready).

Everything here is computed from `GameResult`s in game order, with floats
rounded, so the summary of the same games is the same bytes whatever
worker played which game. A seat wins a game when it is among the winners
(a shared win counts for each seat sharing it, and is counted apart too).
Games played by native playouts record no moves: their summary's `actions`
is null (the action mix is not known).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.runtime.loading import EngineUnavailable
from splendor_rules.compiler.tools.labels import EditionData, edition_data, item_label
from splendor_rules.compiler.tools.simulate.bots import plays_out
from splendor_rules.compiler.tools.simulate.games import GameResult
from splendor_rules.compiler.tools.simulate.stats import (
    describe,
    histogram,
    two_proportion_test,
    welch_interval,
    wilson,
)


def _round(value: float) -> float:
    return round(value, 4)


def _seats(results: Sequence[GameResult], bots: Sequence[str]) -> list[Json]:
    games = len(results)
    seats = []
    for seat, bot in enumerate(bots):
        wins = sum(1 for r in results if seat in r.winners)
        low, high = wilson(wins, games)
        seats.append(
            {
                "seat": seat,
                "bot": bot,
                "wins": wins,
                "win_rate": _round(wins / games) if games else 0.0,
                "interval": [_round(low), _round(high)],
                "mean_score": _round(sum(r.scores[seat] for r in results) / games)
                if games
                else 0.0,
            }
        )
    return seats


def _data(edition: str) -> EditionData | None:
    """The cards' and tiles' data of an edition of the editions folder (none
    for an edition known only by a rule file elsewhere: its items keep
    their numbers)."""
    try:
        return edition_data(edition)
    except EngineUnavailable:
        return None


def _acquired(results: Sequence[GameResult], data: EditionData | None) -> dict[str, Json]:
    """Per card and tile: in how many games a seat held it at the end, and
    how often that seat was among the winners; its label by its data."""
    held: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for result in results:
        for seat, items in enumerate(result.acquired):
            for item in set(items):
                held[item] += 1
                won[item] += seat in result.winners

    def order(item: str) -> tuple[str, int]:
        kind, _, number = item.partition(" ")
        return (kind, int(number) if number.isdigit() else 0)

    return {
        item: {
            "label": item_label(data, item),
            "acquired": held[item],
            "acquirers_won": won[item],
            "acquirer_win_rate": _round(won[item] / held[item]),
        }
        for item in sorted(held, key=order)
    }


def summarize(
    edition: str, players: int, bots: Sequence[str], seed: int, results: Sequence[GameResult]
) -> Json:
    """The summary of one edition's games (see the module)."""
    winner_scores = [r.scores[s] for r in results for s in r.winners]
    loser_scores = [r.scores[s] for r in results for s in range(players) if s not in r.winners]
    actions: Counter[str] = Counter()
    for result in results:
        actions.update(result.actions or {})
    moves = sum(actions.values())
    recorded = not plays_out(bots)  # a playout's moves are not returned
    plies = [r.plies for r in results]
    rounds = [r.rounds for r in results]
    return {
        "edition": edition,
        "players": players,
        "bots": list(bots),
        "seed": seed,
        "games": len(results),
        "seats": _seats(results, bots),
        "shared_wins": sum(1 for r in results if len(r.winners) > 1),
        "no_winner": sum(1 for r in results if not r.winners),
        "plies": {**describe(plies), "histogram": histogram(plies)},
        "rounds": {**describe(rounds), "histogram": histogram(rounds)},
        "scores": {"winners": describe(winner_scores), "losers": describe(loser_scores)},
        "endings": dict(sorted(Counter(r.ending for r in results).items())),
        "actions": {
            name: {"count": count, "share": _round(count / moves)}
            for name, count in sorted(actions.items())
        }
        if recorded
        else None,
        "acquired": _acquired(results, _data(edition)),
    }


def compare(
    first: Json, first_games: Sequence[GameResult], other: Json, other_games: Sequence[GameResult]
) -> Json:
    """The differences between two editions' summaries, with their tests:
    per seat the two-proportion z-test of the win rates; Welch's 95%
    interval for the difference in mean plies and in mean rounds."""
    seats = []
    for a, b in zip(first["seats"], other["seats"], strict=True):
        z, p = two_proportion_test(a["wins"], first["games"], b["wins"], other["games"])
        seats.append(
            {
                "seat": a["seat"],
                "difference": _round(b["win_rate"] - a["win_rate"]),
                "z": _round(-z),
                "p_value": _round(p),
                "significant": p < 0.05,
            }
        )
    lengths = {}
    for measure in ("plies", "rounds"):
        difference, low, high = welch_interval(
            [getattr(r, measure) for r in other_games], [getattr(r, measure) for r in first_games]
        )
        lengths[measure] = {
            "difference": _round(difference),
            "interval": [_round(low), _round(high)],
            "significant": low > 0 or high < 0,
        }
    return {"editions": [first["edition"], other["edition"]], "seats": seats, "length": lengths}


def document(
    names: Sequence[str],
    bots: Sequence[str],
    seed: int,
    results: Sequence[Sequence[GameResult]],
    interrupted: bool = False,
) -> Json:
    """summary.json: each edition's summary in the order named, then each
    later edition compared with the first."""
    runs = [
        summarize(name, len(bots), bots, seed, games)
        for name, games in zip(names, results, strict=True)
    ]
    comparisons = [
        compare(runs[0], results[0], runs[n], results[n])
        for n in range(1, len(runs))
        if runs[0]["games"] > 0 and runs[n]["games"] > 0
    ]
    return {"runs": runs, "comparisons": comparisons, "interrupted": interrupted}
