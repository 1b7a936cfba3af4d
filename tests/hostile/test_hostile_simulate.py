"""Hostile and unlucky simulate command lines (issue 21, item 7 and the
simulate part of item 4): each once gave a traceback, the wrong exit code,
silence, the machine's memory, or a report folder mixing two runs.

- an absurd --games is refused before anything is loaded, and the games are
  cut into chunks as they are handed out, never all at once;
- Ctrl-C at any moment (the command line loading, the chunks cut and the
  workers started, the games played; sent to the process alone or, as a
  terminal does, to its whole group) exits 130, says what finished and
  writes the report of it, without a traceback or a process left behind;
- --address: empty, malformed, without --backend ray, pointing nowhere, or
  at a port that is no Ray cluster: a clear error naming the address, exit
  2, within a bounded time (never the "cannot write the output" of an
  OSError taken for an output failure);
- a report write that fails halfway leaves the folder as it was and names
  the file that failed; a folder holding other files is refused before the
  games.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import splendor_rules.compiler.cli.simulate as simulate_command
from splendor_rules.compiler.cli import main
from splendor_rules.compiler.tools.simulate import cluster, report, runner
from splendor_rules.compiler.tools.simulate.runner import (
    MAX_GAMES,
    EditionSource,
    Outcome,
    Run,
    chunks,
)
from splendor_rules.compiler.tools.simulate.summary import document

PROGRAM = (
    "import sys; sys.stderr.write('python started\\n'); sys.stderr.flush(); "
    "from splendor_rules.compiler.cli import main; main()"
)
HEADER = "classic on the "  # the first line simulate writes, once the editions are loaded


def simulate(*arguments: str) -> Result:
    """The command in this process: an exception is a failure."""
    return CliRunner().invoke(main, ["simulate", *arguments], catch_exceptions=False)


def assert_clean(output: str) -> None:
    assert "Traceback" not in output, output
    assert "Aborted!" not in output, output
    assert all(c.isprintable() or c == "\n" for c in output), repr(output[:300])


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing is a failure: the command line must be refused before."""

    def refuse(*args: Any, **kwargs: Any) -> Outcome:
        raise AssertionError("the games were played before the command line was checked")

    monkeypatch.setattr(simulate_command, "run_local", refuse)
    monkeypatch.setattr(simulate_command, "run_ray", refuse)


# ------------------------------------------------------------------ --games


def _limited(limit: int) -> None:
    """In the child, before it runs: at most `limit` bytes of memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_an_absurd_number_of_games_is_refused_at_once() -> None:
    """Found: --games 1000000000000 cut all its chunks up front and ate the
    machine's memory before a game was played. Here in a process held to
    2 GB and two minutes, where that would fail either way."""
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM, "simulate", "classic", "--games", "1000000000000"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: _limited(2 << 30),
    )
    assert result.returncode == 2, result.stderr
    assert (
        "Invalid value for --games: 1000000000000 is more than 1,000,000 games: "
        "each game's result is kept in memory"
    ) in result.stderr
    assert HEADER not in result.stderr  # refused before the editions were loaded
    assert_clean(result.stderr)


@pytest.mark.usefixtures("no_game")
def test_the_bound_on_games_is_one_past_max_games() -> None:
    refused = simulate("classic", "--games", str(MAX_GAMES + 1))
    assert refused.exit_code == 2
    assert f"{MAX_GAMES + 1} is more than {MAX_GAMES:,} games" in refused.stderr


def test_the_chunks_are_cut_as_they_are_handed_out() -> None:
    """A generator: the first chunks of a long run come at once, and the
    chunks together are every game once, in order."""
    many = Run(EditionSource("classic"), ("random", "random"), 0, 2_000_000)
    cut = chunks([many], 2)
    assert isinstance(cut, Iterator)
    first = list(itertools.islice(cut, 3))
    assert [c[2][0] for c in first] == [0, 50, 100] and len(first[0][2]) == 50
    runs = [Run(EditionSource("classic"), ("random",) * 2, 0, n) for n in (7, 130)]
    for jobs in (1, 2, 5):
        played = [(number, i) for number, _, games in chunks(runs, jobs) for i in games]
        assert played == [(0, i) for i in range(7)] + [(1, i) for i in range(130)]


# --------------------------------------------------------------- --address


@pytest.mark.usefixtures("no_game")
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--backend", "ray", "--address", ""],
            "Invalid value for --address: the address is empty",
        ),
        (["--backend", "ray", "--address", "  "], "the address is empty"),
        (["--backend", "ray", "--address", "ray://"], "ray:// is not a Ray address"),
        (["--backend", "ray", "--address", "ray://:10001"], "is not a Ray address"),
        (["--backend", "ray", "--address", "http://head:8265"], "is not a Ray address"),
        (["--backend", "ray", "--address", "head"], "head is not a Ray address"),
        (["--backend", "ray", "--address", "head:99999"], "is not a Ray address"),
        (["--address", "head:6379"], "an address is for the Ray backend: add --backend ray"),
        (["--backend", "local", "--address", "auto"], "an address is for the Ray backend"),
    ],
)
def test_an_address_that_names_no_cluster_is_refused(arguments: list[str], message: str) -> None:
    """Found: an empty or ray:// address was a traceback, --address without
    --backend ray was ignored. No ray needed: refused before it is imported."""
    result = simulate("classic", "--games", "1", *arguments)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert_clean(result.output)


@pytest.mark.parametrize(
    ("address", "where"),
    [
        ("head:6379", ("head", 6379)),
        ("ray://10.0.0.1:10001", ("10.0.0.1", 10001)),
        ("[::1]:6379", ("::1", 6379)),
        ("auto", None),
        ("local", None),
    ],
)
def test_the_accepted_forms_of_an_address(address: str, where: tuple[str, int] | None) -> None:
    assert cluster.check_address(address) == where


def _closed_port() -> int:
    """A port of this machine nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _FakeRay(types.ModuleType):
    """A stand-in for ray: init fails as Ray's does, with an OSError whose
    message is empty; tasks run here, and how many wait at once is noted."""

    def __init__(self, failure: BaseException | None = None) -> None:
        super().__init__("ray")
        self.failure = failure
        self.most_pending = 0
        self.submitted = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs: Any) -> None:
        if self.failure is not None:
            raise self.failure

    def remote(self, function: Any) -> Any:
        ray = self

        class Remote:
            @staticmethod
            def remote(task: Any) -> Any:
                ray.submitted += 1
                return task

        self.function = function
        return Remote

    def wait(self, pending: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        self.most_pending = max(self.most_pending, len(pending))
        return pending[:num_returns], pending[num_returns:]

    def get(self, reference: Any) -> Any:
        return self.function(reference)


@pytest.fixture
def listening() -> Iterator[str]:
    """The address of a port that accepts connections and says nothing."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield f"127.0.0.1:{server.getsockname()[1]}"


def test_a_cluster_that_fails_to_join_is_not_an_output_error(
    monkeypatch: pytest.MonkeyPatch, listening: str
) -> None:
    """Found: Ray's ConnectionError with an empty message (an OSError) came
    out as "cannot write the output: " and exit 2, after minutes."""
    monkeypatch.setitem(sys.modules, "ray", _FakeRay(ConnectionError()))
    result = simulate("classic", "--games", "1", "--backend", "ray", "--address", listening)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --address: cannot join the Ray cluster at {listening}: " in (
        result.stderr
    )
    assert "cannot write the output" not in result.output
    assert_clean(result.output)


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_address_where_nothing_listens_is_said_at_once(
    monkeypatch: pytest.MonkeyPatch, scheme: str
) -> None:
    """Nothing listens: refused by the connection test, Ray never asked."""
    monkeypatch.setitem(sys.modules, "ray", _FakeRay(AssertionError("ray.init was called")))
    address = f"{scheme}127.0.0.1:{_closed_port()}"
    result = simulate("classic", "--games", "1", "--backend", "ray", "--address", address)
    assert result.exit_code == 2, result.output
    assert f"no Ray cluster answers at {address}: Connection refused" in result.stderr
    assert_clean(result.output)


def test_ray_gets_a_bounded_number_of_chunks_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunks go to Ray as results come back, not all at once; the
    results are the local ones."""
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    runs = [Run(EditionSource("classic"), ("random", "random"), 4, 40)]
    outcome = runner.run_ray(runs, None, 1)
    assert fake.submitted == len(list(chunks(runs, 1))) > runner.IN_FLIGHT_PER_JOB
    assert fake.most_pending == runner.IN_FLIGHT_PER_JOB
    assert outcome == runner.run_local(runs, 1)


def test_a_port_that_is_no_ray_cluster_is_given_up_in_bounded_time(listening: str) -> None:
    """With the real ray: Ray retries a silent port for minutes (400 s and
    still trying, measured); join gives up after its timeout, here 3 s. In a
    process of its own, which the abandoned attempt cannot disturb; the
    subprocess's timeout fails the test where the attempt is not bounded."""
    pytest.importorskip("ray")
    code = (
        "import ray, sys\n"
        "from splendor_rules.compiler.tools.simulate.cluster import BadAddress, join\n"
        "try:\n"
        f"    join(ray, {listening!r}, timeout=3)\n"
        "except BadAddress as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=240, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == (
        f"no Ray cluster answers at {listening}: its port is open, but Ray did not join "
        "within 3 s\n"
    )


def test_a_real_ray_refused_by_a_closed_port_in_a_real_process() -> None:
    """Found: about 150 s of silence, then "cannot write the output: "."""
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_closed_port()}"
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM, "simulate", "classic", "--games", "2",
         "--backend", "ray", "--address", address],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert f"no Ray cluster answers at {address}: Connection refused" in result.stderr
    assert_clean(result.stderr)


# ------------------------------------------------------------------ report


def _report_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_report_that_fails_halfway_leaves_the_old_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found: a full disk at the third file left summary.json and games.csv
    of the new run beside the plots of the old one, unmarked, and the error
    did not say which file failed."""
    out = tmp_path / "report"
    first = simulate("classic", "--games", "3", "--jobs", "1", "--report", str(out))
    assert first.exit_code == 0, first.output
    before = _report_of(out)
    assert sorted(before) == sorted(report.FILES)
    written = Path.write_bytes

    def full(path: Path, data: bytes) -> int:
        if path.name == "win_rate.png":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return written(path, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    second = simulate("classic", "--games", "4", "--seed", "9", "--jobs", "1", "--report", str(out))
    assert second.exit_code == 2, second.output
    assert f"cannot write {out / 'win_rate.png'}: No space left on device" in second.stderr
    assert f"{out} was left as it was" in second.stderr
    assert _report_of(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["report"]  # no half-written folder left
    assert_clean(second.output)


def test_a_first_report_that_fails_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = Path.write_bytes

    def full(path: Path, data: bytes) -> int:
        if path.name == "report.html":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return written(path, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    out = tmp_path / "new" / "report"
    result = simulate("classic", "--games", "2", "--jobs", "1", "--report", str(out))
    assert result.exit_code == 2
    assert f"cannot write {out / 'report.html'}: No space left on device" in result.stderr
    assert not out.exists() and list((tmp_path / "new").iterdir()) == []


def test_a_report_replaces_the_report_before_it_whole(tmp_path: Path) -> None:
    out = tmp_path / "report"
    for seed in ("1", "2"):
        result = simulate(
            "classic", "--games", "2", "--seed", seed, "--jobs", "1", "--report", str(out)
        )
        assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["runs"][0]["seed"] == 2
    assert sorted(p.name for p in out.iterdir()) == sorted(report.FILES)
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


@pytest.mark.parametrize(
    "failure", [OSError(errno.EXDEV, "Invalid cross-device link"), KeyboardInterrupt()]
)
def test_a_report_whose_last_rename_fails_puts_the_old_one_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    """The old report is set aside, then the new one renamed into place: if
    that rename fails, or Ctrl-C comes between the two, the old one is back."""
    out = tmp_path / "report"
    runs = [Run(EditionSource("classic"), ("random", "random"), 0, 2)]
    outcome = runner.run_local(runs, 1)
    summary = document(["classic"], runs[0].bots, 0, outcome.results)
    report.write_report(out, summary, outcome.results)
    before = _report_of(out)
    renamed = os.rename

    def failing(source: Any, target: Any) -> None:
        if str(source).endswith(".partial"):
            raise failure
        renamed(source, target)

    monkeypatch.setattr(report.os, "rename", failing)
    with pytest.raises(
        type(failure) if isinstance(failure, KeyboardInterrupt) else report.ReportError
    ) as raised:
        report.write_report(out, summary, outcome.results)
    if isinstance(failure, OSError):
        assert str(raised.value) == (
            f"cannot replace {out}: Invalid cross-device link; it was left as it was"
        )
    assert _report_of(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


@pytest.mark.usefixtures("no_game")
def test_a_report_folder_holding_other_files_is_refused_before_the_games(tmp_path: Path) -> None:
    """Replacing the folder would lose them; writing beside them would mix."""
    (tmp_path / "notes.txt").write_text("mine\n", "utf-8")
    result = simulate("classic", "--games", "2", "--report", str(tmp_path))
    assert result.exit_code == 2
    assert "holds files that are not a report's (notes.txt)" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.usefixtures("no_game")
@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, where no file is made")
def test_a_report_where_nothing_can_be_written_is_refused_before_the_games() -> None:
    result = simulate("classic", "--games", "2", "--report", "/proc/self/report")
    assert result.exit_code == 2
    assert "Invalid value for --report: cannot write in /proc/self" in result.stderr


# ------------------------------------------------------------------ Ctrl-C


def _as_from_a_terminal() -> None:
    """SIGINT back to its default in the child, as a shell starts a command:
    a pytest-xdist worker runs with SIGINT ignored, and an ignored signal
    stays ignored across exec (Python then installs no handler for it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lines(stream: Any, into: queue.Queue[str]) -> None:
    for line in stream:
        into.put(line)


def _interrupted_run(
    tmp_path: Path, after: str, delay: float, group: bool, jobs: str
) -> tuple[int, str, str, Path]:
    """Run a long simulation, send SIGINT `delay` seconds after the stderr
    line starting with `after`, to the process or its whole group (as a
    terminal's Ctrl-C); its exit code, stdout, stderr and report folder.
    Every process of the group must be gone once it has exited."""
    out = tmp_path / "report"
    process = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, "simulate", "classic", "--games", "100000",
         "--jobs", jobs, "--report", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_as_from_a_terminal,
    )  # fmt: skip
    seen: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_lines, args=(process.stderr, seen), daemon=True)
    reader.start()
    stderr = []
    try:
        while not (stderr and stderr[-1].startswith(after)):
            stderr.append(seen.get(timeout=120))
        time.sleep(delay)
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        stdout = process.stdout.read() if process.stdout else ""
        process.wait(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    reader.join(timeout=10)
    while not seen.empty():
        stderr.append(seen.get())
    _assert_group_gone(process.pid)
    return process.returncode, stdout, "".join(stderr), out


def _assert_group_gone(group: int) -> None:
    for _ in range(100):
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError("a process of the run is still there after it exited")


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX signals")
@pytest.mark.parametrize(
    ("after", "delay", "group", "jobs"),
    [
        ("python started", 0.2, False, "2"),  # the command line loading
        ("python started", 0.5, True, "2"),
        (HEADER, 0.0, True, "2"),  # the chunks cut, the workers starting
        (HEADER, 0.0, False, "1"),
        (HEADER, 0.05, True, "2"),
        (HEADER, 1.5, True, "2"),  # games played
        (HEADER, 1.5, False, "1"),
    ],
)
def test_ctrl_c_at_any_moment_exits_130_with_what_finished(
    tmp_path: Path, after: str, delay: float, group: bool, jobs: str
) -> None:
    """Found: a traceback while the command line loaded (the first half
    second), "Aborted!" and exit 1 while the chunks were cut or the pool
    started, with no report. Now exit 130 at every moment; once the games
    are under way, the games finished are shown and written (none, if
    none had ended), marked as interrupted."""
    code, stdout, stderr, out = _interrupted_run(tmp_path, after, delay, group, jobs)
    assert code == 130, stderr
    assert_clean(stdout + stderr)
    last = stderr.splitlines()[-1]
    if HEADER not in stderr:  # stopped before the games: nothing to report
        assert last == "splendor-rules: interrupted"
        assert not out.exists()
        return
    assert last.startswith("interrupted: ") and last.endswith(" of 100000 games finished")
    finished = int(last.split()[1])
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["interrupted"] is True
    assert summary["runs"][0]["games"] == finished
    assert (out / "games.csv").read_text("utf-8").count("\n") == finished + 1
    assert "report written: " in stdout
