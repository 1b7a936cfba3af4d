"""A simulation's report folder: summary.json, games.csv, plots, report.html.

`summary.json` is the summaries (and comparisons) as JSON with sorted-free,
fixed key order and rounded floats: the same seed gives the same bytes
whatever the backend or number of workers. `games.csv` has one row per game.
The plots (PNG, by matplotlib's Agg backend, which needs no display) are the
win rate per seat with its 95% interval, the histogram of game lengths, and
the scores of winners and losers; each edition side by side. `report.html`
holds the tables and the plots inline (base64), so it opens in a browser from
anywhere.

The folder is written whole or not at all: the files go into a new folder
beside it (`.NAME.XXXXXXXX.partial`), which is renamed into place once all
are written; a folder a report was written to before is set aside first
and removed after. A write that fails removes the new folder and names the
file that failed: the old report, if any, is left as it was, never mixed
with a part of the new one. A folder that holds files a report does not
write is refused before the games (check_report_folder), not replaced.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import os
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from splendor_rules.compiler.runtime.api import Json
from splendor_rules.compiler.tools.simulate.games import GameResult
from splendor_rules.dsl.diagnostics import display_path

PLOTS = ("win_rate", "length", "scores")
FILES = ("summary.json", "games.csv", *(f"{name}.png" for name in PLOTS), "report.html")
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
    best = [
        [v.get("label", k), v["acquired"], f"{v['acquirer_win_rate']:.1%}"] for k, v in items[:10]
    ]
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


class ReportError(Exception):
    """A report folder that cannot be written; the message names the file
    or folder that failed and why."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


def check_report_folder(folder: Path) -> None:
    """ReportError if `folder` cannot take a report, said before the games
    are played: it is a file, it holds files a report does not write, or no
    folder can be made where it would go."""
    shown = display_path(folder)
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"{shown} is not a folder")
    if folder.is_dir():
        others = sorted(p.name for p in folder.iterdir() if p.name not in FILES)
        if others:
            listed = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
            raise ReportError(
                f"{shown} holds files that are not a report's ({listed}): give a new folder, "
                "or one a report was written to"
            )
    parent = (Path(os.path.realpath(folder)) if folder.is_symlink() else folder.absolute()).parent
    while not parent.is_dir():  # the folders a report makes on its way
        if parent.exists():
            raise ReportError(f"{display_path(parent)} is not a folder")
        parent = parent.parent
    try:
        _new_folder(parent, folder.name).rmdir()
    except OSError as error:
        raise ReportError(f"cannot write in {display_path(parent)}: {_reason(error)}") from error


def _new_folder(parent: Path, name: str, suffix: str = "partial") -> Path:
    """A new, hidden folder in `parent`, made as any folder is (not 0o700)."""
    while True:
        path = parent / f".{name}.{secrets.token_hex(4)}.{suffix}"
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path


def report_files(document: Json, results: Sequence[Sequence[GameResult]]) -> dict[str, bytes]:
    """The report's files by name, in the order of FILES."""
    summaries = document["runs"]
    plots = {
        "win_rate": plot_win_rates(summaries),
        "length": plot_lengths(summaries, results),
        "scores": plot_scores(summaries, results),
    }
    return {
        "summary.json": summary_json(document).encode(),
        "games.csv": games_csv(summaries, results).encode(),
        **{f"{name}.png": png for name, png in plots.items()},
        "report.html": report_html(document, plots).encode(),
    }


def write_report(
    folder: Path, document: Json, results: Sequence[Sequence[GameResult]]
) -> list[Path]:
    """Write the report folder whole (see the module); the files written.
    ReportError, the folder left as it was, if a file cannot be written."""
    files = report_files(document, results)
    target = Path(os.path.realpath(folder))  # a link to a folder: the folder it names
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = _new_folder(target.parent, target.name)
    except OSError as error:
        where = display_path(folder.parent)
        raise ReportError(f"cannot write in {where}: {_reason(error)}") from error
    try:
        for name, data in files.items():
            try:
                (staging / name).write_bytes(data)
            except OSError as error:
                where = display_path(folder / name)
                raise ReportError(
                    f"cannot write {where}: {_reason(error)}; {display_path(folder)} was left "
                    "as it was"
                ) from error
        _replace(staging, target, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [folder / name for name in files]


def _replace(staging: Path, target: Path, folder: Path) -> None:
    """Rename the written folder into place; an old report is set aside
    first, and put back if the rename fails or is interrupted."""
    old = None
    try:
        if target.exists():
            old = _new_folder(target.parent, target.name, "old")
            os.replace(target, old)  # an empty folder is replaced by a folder
        os.rename(staging, target)
    except BaseException as error:
        if old is not None:
            if not target.exists():
                os.rename(old, target)
            shutil.rmtree(old, ignore_errors=True)
        if not isinstance(error, OSError):
            raise
        shown = display_path(folder)
        raise ReportError(
            f"cannot replace {shown}: {_reason(error)}; it was left as it was"
        ) from error
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
