"""A simulation's report folder: summary.json, games.csv, plots, report.html.

`summary.json` is the summaries (and comparisons) as JSON with sorted-free,
fixed key order and rounded floats: the same seed gives the same bytes
whatever the backend or number of workers. `games.csv` has one row per game.
The plots (PNG, by matplotlib's Agg backend, which needs no display) are the
win rate per seat with its 95% interval, the histogram of game lengths, and
the scores of winners and losers; each edition side by side. `report.html`
holds the tables and the plots inline (base64), so it opens in a browser from
anywhere. Every file is written to a temporary file and renamed into place.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.simulate.games import GameResult

PLOTS = ("win_rate", "length", "scores")
NOT_RECORDED = "not recorded by playouts"  # the action mix of games played by native playouts


def summary_json(document: Json) -> str:
    """The bytes of summary.json."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def games_csv(summaries: Sequence[Json], results: Sequence[Sequence[GameResult]]) -> str:
    """One row per game: edition, index, seed, plies, rounds, ending,
    winners (space-separated seats), then each seat's bot and score."""
    players = max((s["players"] for s in summaries), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["edition", "game", "seed", "plies", "rounds", "ending", "winners"]
    header += [f"bot_{s}" for s in range(players)] + [f"score_{s}" for s in range(players)]
    writer.writerow(header)
    for summary, games in zip(summaries, results, strict=True):
        bots = summary["bots"] + [""] * (players - summary["players"])
        for game in games:
            scores = [str(x) for x in game.scores] + [""] * (players - len(game.scores))
            winners = " ".join(str(w) for w in game.winners)
            row = [summary["edition"], game.index, game.seed, game.plies, game.rounds]
            writer.writerow([*row, game.ending, winners, *bots, *scores])
    return out.getvalue()


def _figure() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(7, 4), dpi=100, layout="constrained")


def _png(figure: Any) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def plot_win_rates(summaries: Sequence[Json]) -> bytes:
    """Win rate per seat with its 95% Wilson interval, editions side by side."""
    figure = _figure()
    axes = figure.add_subplot()
    width = 0.8 / max(1, len(summaries))
    for number, summary in enumerate(summaries):
        seats = summary["seats"]
        xs = [s["seat"] + (number - (len(summaries) - 1) / 2) * width for s in seats]
        rates = [s["win_rate"] for s in seats]
        errors = [
            [r - s["interval"][0] for r, s in zip(rates, seats, strict=True)],
            [s["interval"][1] - r for r, s in zip(rates, seats, strict=True)],
        ]
        axes.bar(xs, rates, width, yerr=errors, capsize=4, label=summary["edition"])
    first = summaries[0]["seats"] if summaries else []
    axes.set_xticks([s["seat"] for s in first], [f"seat {s['seat']}\n{s['bot']}" for s in first])
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.legend()
    return _png(figure)


def plot_lengths(summaries: Sequence[Json], results: Sequence[Sequence[GameResult]]) -> bytes:
    """The histogram of game lengths in plies, editions overlaid."""
    figure = _figure()
    axes = figure.add_subplot()
    for summary, games in zip(summaries, results, strict=True):
        axes.hist([g.plies for g in games], bins=30, alpha=0.6, label=summary["edition"])
    axes.set_xlabel("plies per game")
    axes.set_ylabel("games")
    axes.legend()
    return _png(figure)


def plot_scores(summaries: Sequence[Json], results: Sequence[Sequence[GameResult]]) -> bytes:
    """The distributions of winners' and losers' scores, per edition."""
    figure = _figure()
    axes = figure.add_subplot()
    data, labels = [], []
    for summary, games in zip(summaries, results, strict=True):
        players = range(summary["players"])
        data.append([g.scores[s] for g in games for s in g.winners] or [0])
        data.append([g.scores[s] for g in games for s in players if s not in g.winners] or [0])
        labels += [f"{summary['edition']}\nwinners", f"{summary['edition']}\nlosers"]
    axes.boxplot(data, tick_labels=labels)
    axes.set_ylabel("score at the end")
    return _png(figure)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


Table = tuple[str, Sequence[str], list[list[Any]]]  # title, header, rows


def _run_tables(summary: Json) -> list[Table]:
    """One edition's tables: seats, game lengths and scores, outcomes,
    actions, and the cards and tiles whose holders won most."""
    name = summary["edition"]
    seats = [
        [
            s["seat"],
            s["bot"],
            s["wins"],
            f"{s['win_rate']:.1%}",
            f"{s['interval'][0]:.1%} to {s['interval'][1]:.1%}",
            s["mean_score"],
        ]
        for s in summary["seats"]
    ]
    measures = (
        ("plies", summary["plies"]),
        ("rounds", summary["rounds"]),
        ("winners' scores", summary["scores"]["winners"]),
        ("losers' scores", summary["scores"]["losers"]),
    )
    lengths = [
        [label, d["mean"], d["q1"], d["median"], d["q3"], d["min"], d["max"]]
        for label, d in measures
    ]
    endings = ", ".join(f"{k}: {v}" for k, v in summary["endings"].items())
    if summary["actions"] is None:
        actions: Table = (f"{name}: actions", ("action mix",), [[NOT_RECORDED]])
    else:
        mix = [[k, v["count"], f"{v['share']:.1%}"] for k, v in summary["actions"].items()]
        actions = (f"{name}: actions", ("action", "count", "share"), mix)
    common = max(5, summary["games"] // 20)  # held in enough games to say something
    items = [(k, v) for k, v in summary["acquired"].items() if v["acquired"] >= common]
    items.sort(key=lambda kv: (-kv[1]["acquirer_win_rate"], -kv[1]["acquired"]))
    best = [[k, v["acquired"], f"{v['acquirer_win_rate']:.1%}"] for k, v in items[:10]]
    return [
        (
            f"{name}: {summary['games']} games, seats",
            ("seat", "bot", "wins", "win rate", "95% interval", "mean score"),
            seats,
        ),
        (f"{name}: games", ("measure", "mean", "q1", "median", "q3", "min", "max"), lengths),
        (
            f"{name}: outcomes",
            ("shared wins", "no winner", "endings"),
            [[summary["shared_wins"], summary["no_winner"], endings]],
        ),
        actions,
        (
            f"{name}: cards and tiles held at the end, best 10 by the holder's win rate "
            f"(held in {common} games or more)",
            ("item", "games held", "holder won"),
            best,
        ),
    ]


def _comparison_table(comparison: Json) -> Table:
    first, other = comparison["editions"]
    rows = [
        [
            f"seat {s['seat']} win rate",
            f"{s['difference']:+.1%}",
            f"z {s['z']}, p {s['p_value']}",
            "yes" if s["significant"] else "no",
        ]
        for s in comparison["seats"]
    ]
    for measure, d in comparison["length"].items():
        rows.append(
            [
                f"mean {measure}",
                f"{d['difference']:+}",
                f"95% {d['interval'][0]} to {d['interval'][1]}",
                "yes" if d["significant"] else "no",
            ]
        )
    header = ("measure", "difference", "test (two-proportion z / Welch)", "significant")
    return (f"{other} minus {first}", header, rows)


def tables(document: Json) -> list[Table]:
    """The report's tables, for the terminal and the HTML page alike."""
    found = [table for summary in document["runs"] for table in _run_tables(summary)]
    return found + [_comparison_table(c) for c in document["comparisons"]]


def report_html(document: Json, plots: dict[str, bytes]) -> str:
    """One self-contained page: the tables, then the plots inline."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>simulation</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
        "margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:.2em .6em}</style>",
        "</head><body><h1>Simulation</h1>",
    ]
    if document.get("interrupted"):
        parts.append("<p><strong>Interrupted</strong>: the figures are of the games finished.</p>")
    for title, header, rows in tables(document):
        parts.append(f"<h2>{html.escape(title)}</h2>{_table(header, rows)}")
    for name, png in plots.items():
        encoded = base64.b64encode(png).decode("ascii")
        parts.append(f"<h2>{name}</h2><img alt='{name}' src='data:image/png;base64,{encoded}'>")
    parts.append("</body></html>\n")
    return "".join(parts)


def write_report(
    folder: Path, document: Json, results: Sequence[Sequence[GameResult]]
) -> list[Path]:
    """Write the report folder (see the module); the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    summaries = document["runs"]
    plots = {
        "win_rate": plot_win_rates(summaries),
        "length": plot_lengths(summaries, results),
        "scores": plot_scores(summaries, results),
    }
    files = {
        "summary.json": summary_json(document).encode(),
        "games.csv": games_csv(summaries, results).encode(),
        **{f"{name}.png": png for name, png in plots.items()},
        "report.html": report_html(document, plots).encode(),
    }
    for name, data in files.items():
        write_atomically(folder / name, data)
    return [folder / name for name in files]
