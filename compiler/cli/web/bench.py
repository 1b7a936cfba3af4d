"""The web board's answer times under load, measured over HTTP.

    python -m splendor_rules.compiler.cli.web.bench [EDITION] [--games 20] [--moves 400]

Starts `splendor-rules serve` in a process of its own on a free port, opens
GAMES games (a person against `greedy`, bots moving at once), and plays each
from a client thread of its own, all at the same time: told of each change
by server-sent events, as a page is, at its turn a client thinks (THINK
seconds on average, from 0 to twice that; --think 0 hammers the server
with no pause), sends a random legal move and times the answer
(the move checked, applied, saved atomically, the new position returned).
It prints the answer times' percentiles once MOVES moves are timed; the
target is a 95th percentile under 50 ms with 20 games in progress.
"""

from __future__ import annotations

import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import click


def _call(url: str, data: object | None = None) -> Any:
    body = None if data is None else json.dumps(data).encode()
    request = urllib.request.Request(url, body, method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_up(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise click.ClickException("the server stopped before answering")
        try:
            _call(url + "/api/editions")
            return
        except OSError:
            time.sleep(0.2)
    raise click.ClickException("the server did not answer in 120 s")


def _next_turn(events: Any) -> Any:
    """Read server-sent events until the position is the person's to move
    (legal moves shown) or the game is over."""
    while True:
        line = events.readline()
        if not line:
            raise click.ClickException("the server closed the stream of events")
        if line.startswith(b"data: "):
            shot = json.loads(line[6:])
            if shot["over"] or shot["legal"]:
                return shot


def _player(
    url: str, edition: str, seed: int, times: list[float], until: int, think: float
) -> None:
    """One game's person, told of each change by server-sent events as a
    page is: random legal moves, each answer timed; a new game when one
    ends, until `until` moves are timed in all."""
    rng = random.Random(seed)
    while len(times) < until:
        game = _call(
            url + "/api/games",
            {
                "source": edition,
                "players": 2,
                "seats": ["human", "greedy"],
                "seed": seed,
                "delay": 0,
            },
        )
        token = game["seats"]["0"].split("=")[1]
        move_url = f"{url}/api/games/{game['id']}/moves?seat={token}"
        events_url = f"{url}/api/games/{game['id']}/events?seat={token}"
        with urllib.request.urlopen(events_url, timeout=120) as events:
            while len(times) < until:
                shot = _next_turn(events)
                if shot["over"]:
                    break
                move = rng.choice(shot["legal"])["move"]
                time.sleep(rng.uniform(0, 2 * think))  # the person thinks
                started = time.perf_counter()
                _call(move_url, move)
                times.append(time.perf_counter() - started)
        seed += 1000


def _cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far (Linux's /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@click.command()
@click.argument("edition", default="classic")
@click.option("--games", default=20, show_default=True, help="Games in progress at once.")
@click.option("--moves", default=400, show_default=True, help="Moves to time in all.")
@click.option(
    "--think",
    default=0.5,
    show_default=True,
    help="Mean seconds a person takes before a move (uniform from 0 to twice it); 0: none.",
)
def main(edition: str, games: int, moves: int, think: float) -> None:
    """Time the board's answers to moves with GAMES games in progress."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-c",
            "from splendor_rules.compiler.cli import main; main()",
            "serve",
            edition,
            "--port",
            str(port),
            "--games",
            str(Path(folder)),
        ]
        server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        try:
            _wait_up(url, server)
            times: list[float] = []
            threads = [
                threading.Thread(target=_player, args=(url, edition, n, times, moves, think))
                for n in range(games)
            ]
            started, cpu = time.perf_counter(), _cpu_seconds(server.pid)
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - started
            after = _cpu_seconds(server.pid)
            used = None if cpu is None or after is None else after - cpu
        finally:
            server.terminate()
            server.wait(timeout=30)
    ordered = sorted(times)
    ms = [1000 * t for t in ordered]
    click.echo(
        f"{edition}: {len(ms)} moves timed over HTTP, {games} games in progress, "
        f"{think} s of thought a move on average, {wall:.1f} s"
    )
    click.echo(
        "answer time (ms): "
        + ", ".join(
            f"p{int(q * 100)} {1000 * _percentile(ordered, q):.1f}" for q in (0.5, 0.9, 0.95, 0.99)
        )
        + f", max {ms[-1]:.1f}, mean {statistics.fmean(ms):.1f}"
    )
    if used is not None:
        click.echo(
            f"server CPU: {used:.2f} s, {1000 * used / len(ms):.2f} ms a move with the "
            f"bot's reply; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    p95 = 1000 * _percentile(ordered, 0.95)
    click.echo(f"p95 {'under' if p95 < 50 else 'OVER'} the 50 ms target")


if __name__ == "__main__":
    main()
