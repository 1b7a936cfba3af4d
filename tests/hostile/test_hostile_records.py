"""Hostile records and command lines (issue 9, section 4): each input that
once gave a traceback, a wrong exit code, a lost game or a file touched that
was not named, as a case that must now end cleanly.

- tests/hostile/records/: record files, each listed in cases.toml with its
  exit code and a fragment of its message, replayed on every engine (the
  native one where it is built);
- tests/hostile/cli/: rule files for the command-line cases below (an
  editions folder where names and files disagree, editions that do not build).

Every case: no traceback, the documented exit code (0 ok, 1 the input is
wrong, 2 the command line is wrong or a record cannot be read), nothing
touched but the named output, and no raw control character printed.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from edition_facts import KINDS, engine_or_skip

import splendor_rules.compiler.cli as cli
from splendor_rules import generated
from splendor_rules.compiler.backend import build
from splendor_rules.compiler.cli import play as play_command
from splendor_rules.compiler.frontend import pipeline
from splendor_rules.compiler.runtime.loading import EngineKind
from splendor_rules.compiler.tools.records import catalog

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "hostile" / "records"
RULES = ROOT / "tests" / "hostile" / "cli"
CASES: dict[str, dict[str, Any]] = tomllib.loads((RECORDS / "cases.toml").read_text("utf-8"))


def run(*args: str, **kwargs: Any) -> Result:
    """The whole command line, in this process: an exception is a failure."""
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False, **kwargs)


def assert_clean(result: Result | subprocess.CompletedProcess[str]) -> None:
    """No traceback, no raw control character, no flood of output."""
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert all(c.isprintable() or c == "\n" for c in output), repr(output[:300])
    assert all(len(line) <= 400 for line in output.splitlines())


def unpacked(case: dict[str, Any], folder: Path) -> Path:
    """The case's record file in `folder` (a .gz file unpacked)."""
    source = RECORDS / case["file"]
    if source.suffix != ".gz":
        return Path(shutil.copy(source, folder / source.name))
    target = folder / source.stem
    target.write_bytes(gzip.decompress(source.read_bytes()))
    return target


# ---------------------------------------------------------------- records


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_record_ends_cleanly_with_its_exit_code(
    tmp_path: Path, name: str, kind: EngineKind
) -> None:
    engine_or_skip("classic", kind)  # a native engine not built: skipped
    case = CASES[name]
    path = unpacked(case, tmp_path)
    result = run("replay", "--engine", kind, str(path))
    assert result.exit_code == case["exit"], (case["finding"], result.output)
    assert case["message"] in result.output, result.output
    assert_clean(result)
    assert len(result.output.splitlines()) <= 3
    assert sorted(tmp_path.iterdir()) == [path]  # replay writes nothing


def test_every_file_of_the_corpus_is_a_case_and_every_case_a_file() -> None:
    files = {p.name for p in RECORDS.iterdir()} - {"cases.toml"}
    assert files == {case["file"] for case in CASES.values()}
    for name, case in CASES.items():
        assert {"file", "exit", "message", "finding"} <= set(case), name
        assert case["file"].split(".")[0] == name


def test_a_bad_record_among_good_ones_is_named_and_the_others_replayed(tmp_path: Path) -> None:
    bad = unpacked(CASES["deep_nesting_100000"], tmp_path)
    good = tmp_path / "good.json"
    good.write_text(run("play", "classic", "-p", "2", "-s", "5").stdout, "utf-8")
    result = run("replay", str(bad), str(good))
    assert result.exit_code == 2
    assert f"{good}: ok" in result.stdout and f"{bad}: error: nested" in result.stderr
    assert "2 records: 1 ok, 0 failed, 1 bad" in result.stdout


def test_a_file_that_is_no_record_is_refused_without_its_content(tmp_path: Path) -> None:
    """Naming any file as a record shows where it fails, never what it holds."""
    secret = tmp_path / "secret.txt"
    secret.write_text("password = hunter2\n", "utf-8")
    result = run("replay", str(secret))
    assert result.exit_code == 2
    assert "not JSON: Expecting value at line 1, column 1" in result.stderr
    assert "hunter2" not in result.output


@pytest.mark.parametrize("command", ["bench", "play"])
def test_an_edition_name_is_never_a_path(command: str) -> None:
    """The interpreter reads editions/<name>.rules: a name with `..` must be
    refused before it becomes a path outside the editions folder."""
    args = ["-p", "2"] + (["-g", "1"] if command == "bench" else [])
    result = run(command, "../../../tmp/evil", *args, "--engine", "interpreted")
    assert result.exit_code == 2
    assert "unknown edition '../../../tmp/evil'" in result.stderr


# ------------------------------------------------------------ play --out


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing is a failure: the command line must be refused before."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the game was played before --out was checked")

    monkeypatch.setattr(play_command, "play_game", refuse)


@pytest.mark.usefixtures("no_game")
def test_play_to_a_missing_folder_is_refused_before_playing(tmp_path: Path) -> None:
    """Found: the whole game was played, then FileNotFoundError (exit 1)."""
    result = run("play", "classic", "-p", "2", "-o", str(tmp_path / "none" / "game.json"))
    assert result.exit_code == 2
    assert "Invalid value for --out: there is no folder" in result.stderr
    assert_clean(result)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("no_game")
@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, where no file is made")
def test_play_to_a_folder_nothing_can_be_written_in_is_refused_before_playing() -> None:
    """Found: a read-only destination failed only after the game. /proc
    refuses new files to every user, root included (a chmod would not)."""
    result = run("play", "classic", "-p", "2", "-o", "/proc/self/game.json")
    assert result.exit_code == 2
    assert "Invalid value for --out: cannot write in /proc/self" in result.stderr
    assert_clean(result)


@pytest.mark.usefixtures("no_game")
def test_play_to_something_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    """Replacing /dev/null (as root may) by a record would break the system."""
    result = run("play", "classic", "-p", "2", "-o", os.devnull)
    assert result.exit_code == 2
    assert f"{os.devnull} is not a regular file" in result.stderr


def test_play_to_a_full_disk_keeps_the_old_record_and_prints_the_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found: a full disk lost the game; now the old file is intact, no
    temporary file is left, and the record goes to stdout (exit 2)."""
    out = tmp_path / "game.json"
    out.write_text("the old record\n", "utf-8")
    opened = Path.open

    def full(path: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "x":  # the temporary file the record is written to
            file = opened(path, mode, *args, **kwargs)
            file.write = _no_space  # type: ignore[method-assign]
            return file
        return opened(path, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", full)
    result = run("play", "classic", "-p", "2", "-s", "3", "-o", str(out))
    assert result.exit_code == 2
    assert f"cannot write {out}: No space left on device" in result.stderr
    assert "the record follows on stdout instead" in result.stderr
    assert json.loads(result.stdout)["edition"] == "classic"
    assert out.read_text("utf-8") == "the old record\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert_clean(result)


def _no_space(text: str) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_play_writes_only_the_record_it_names(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = run("play", "classic", "-p", "2", "-o", str(out))
    assert result.exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no probe, no temporary
    assert run("replay", str(out)).exit_code == 0


# ----------------------------------------------------- end of human input


def test_the_end_of_input_at_a_human_prompt_keeps_the_moves_so_far(tmp_path: Path) -> None:
    """Found: Ctrl-D or a closed stdin at the prompt printed `Aborted!` and
    lost the game. Now exit 1, saying so, and the record of the moves made
    is written; it replays, the game not over."""
    out = tmp_path / "game.json"
    result = run(
        "play", "classic", "-p", "2", "--bots", "random,human", "-o", str(out), input="1\n1\n"
    )
    assert result.exit_code == 1
    assert "stopped before the end: seat 1 gave no move at step 6 (the input ended)" in (
        result.stderr
    )
    assert f"5 actions written to {out}" in result.stderr
    record = json.loads(out.read_text("utf-8"))
    assert len(record["actions"]) == 5 and record["expect"][-1]["is_over"] is False
    assert record["notes"].startswith("stopped before the end")
    assert run("replay", str(out)).exit_code == 0
    assert_clean(result)


def test_a_human_seat_asks_on_stderr_so_stdout_is_the_record() -> None:
    result = run("play", "classic", "-p", "2", "--bots", "human,random", input="")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["actions"] == []
    assert "your move" in result.stderr and "0 actions written to stdout" in result.stderr


def _command(*args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own (real stdin and stdout)."""
    program = [sys.executable, "-c", "from splendor_rules.compiler.cli import main; main()"]
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [*program, *args], stderr=subprocess.PIPE, text=True, timeout=120, check=False, **kwargs
    )


def test_a_closed_stdin_at_a_human_prompt_in_a_real_process(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = ("play", "classic", "-p", "2", "--bots", "human,random", "-o", str(out))
    result = _command(*args, stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result.stderr
    assert "0 actions written to" in result.stderr
    assert json.loads(out.read_text("utf-8"))["actions"] == []
    assert_clean(result)


# ------------------------------------------------------ stdout unwritable


def test_a_closed_pipe_ends_the_run_quietly() -> None:
    """Found: `splendor-rules check | head -0` could end in BrokenPipeError.
    Exit 2 (the output was not all written), nothing on stderr. The pipe's
    reader is gone before the command starts, so its first write fails."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = _command("check", stdout=writer)
    finally:
        os.close(writer)
    assert result.returncode == 2
    assert result.stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_said_in_one_line() -> None:
    """Found: `splendor-rules check > /dev/full` ended in an OSError traceback."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        result = _command("check", stdout=full)
    assert result.returncode == 2
    assert result.stderr == "splendor-rules: cannot write the output: No space left on device\n"


def test_play_with_stdout_closed_is_refused_before_playing() -> None:
    """With fd 1 closed the record would be dropped without a word."""
    program = f"{sys.executable} -c 'from splendor_rules.compiler.cli import main; main()'"
    result = subprocess.run(
        ["sh", "-c", f"exec {program} play classic -p 2 >&-"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert "stdout is closed: give --out FILE for the record" in result.stderr


# ------------------------------------------------- editions by their name


@pytest.fixture
def editions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the editions folder that every command reads instead."""
    folder = tmp_path / "editions"
    shutil.copytree(pipeline.editions_folder(), folder, ignore=shutil.ignore_patterns("__*"))
    monkeypatch.setattr(pipeline, "editions_folder", lambda: folder)
    monkeypatch.chdir(tmp_path)
    catalog.cache_clear()
    yield folder
    catalog.cache_clear()


def test_an_edition_is_found_by_the_name_its_file_declares(editions: Path, tmp_path: Path) -> None:
    """Found: a rule file whose edition line differs from its file name
    broke play (FileNotFoundError traceback) and diff. Here classic is
    declared in splendor.rules: play and replay find it by its name."""
    (editions / "classic.rules").rename(editions / "splendor.rules")
    out = tmp_path / "game.json"
    assert run("play", "classic", "-p", "2", "-o", str(out)).exit_code == 0
    assert run("replay", str(out)).exit_code == 0
    interpreted = run("replay", "--engine", "interpreted", str(out))
    assert interpreted.exit_code == 0, interpreted.output  # the interpreter finds it by name too


def test_a_file_named_after_no_edition_says_which_edition_it_declares(editions: Path) -> None:
    shutil.copy(RULES / "house.rules", editions)
    for command in (("play", "house", "-p", "2"), ("diff", "classic", "house")):
        result = run(*command)
        assert result.exit_code == 2, command
        assert "house.rules declares edition 'cottage', not 'house'" in result.stderr
        assert_clean(result)
    not_built = run("play", "cottage", "-p", "2")
    assert not_built.exit_code == 2
    assert "edition 'cottage' has no engine yet: run splendor-rules build" in not_built.stderr
    diff = run("diff", "classic", "cottage")
    assert diff.exit_code == 0 and "inherited unchanged" in diff.stdout


def test_two_files_that_declare_one_edition_are_refused_by_name(editions: Path) -> None:
    shutil.copy(RULES / "second_classic.rules", editions)
    result = run("play", "classic", "-p", "2")
    assert result.exit_code == 2
    assert "classic.rules and editions/second_classic.rules all declare edition 'classic'" in (
        result.stderr
    )


# ------------------------------------------------------------------ build


@pytest.fixture
def generated_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "generated"
    source = Path(generated.__file__).parent
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    monkeypatch.setattr(cli, "_generated_folder", lambda: copy)
    return copy


def _contents(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (generated/native/ too) by its relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_build_reports_every_edition_that_does_not_build_in_one_run(
    editions: Path, generated_copy: Path
) -> None:
    """Found: build stopped at the first edition that does not check. Now
    each is reported, nothing is written, and --check still compares the
    engines of the others."""
    for name in ("broken_parent", "broken_syntax", "second_classic", "named_init"):
        shutil.copy(RULES / f"{name}.rules", editions)
    stale = generated_copy / "marvel.py"
    stale.write_text(stale.read_text("utf-8") + "# stale\n", "utf-8")
    before = _contents(generated_copy)
    result = run("build")
    assert result.exit_code == 1
    for fragment in (
        "editions/broken_parent.rules:2:33: error: unknown edition 'nothing'",
        "editions/broken_parent.rules does not check",
        "editions/broken_syntax.rules does not check",
        # The checker refuses a second edition of one name, and a name no module may have.
        "editions/second_classic.rules:3:9: error: edition 'classic' is declared by",
        "editions/named_init.rules:2:9: error: '__init__' cannot name an edition",
        "nothing was written",
    ):
        assert fragment in result.stderr, result.stderr
    assert _contents(generated_copy) == before
    checked = run("build", "--check")
    assert checked.exit_code == 1
    assert "generated/marvel.py is not current: run splendor-rules build" in checked.stderr
    assert "editions/broken_syntax.rules does not check" in checked.stderr
    assert _contents(generated_copy) == before
    assert_clean(result)


def test_build_touches_only_the_engines_it_names(editions: Path, generated_copy: Path) -> None:
    (generated_copy / "notes.txt").write_text("mine\n", "utf-8")
    stale = generated_copy / "marvel.py"
    stale.write_text("# stale\n", "utf-8")
    before = _contents(generated_copy)
    result = run("build")
    assert result.exit_code == 0
    after = _contents(generated_copy)
    assert {name for name in after if after[name] != before.get(name)} == {"marvel.py"}
    assert "generated/marvel.py: " in result.stdout and "written" in result.stdout


def test_build_into_a_folder_it_cannot_write_says_so(
    editions: Path, generated_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found: an installed, read-only generated/ ended the build in a traceback."""
    (generated_copy / "marvel.py").write_text("# stale\n", "utf-8")

    def refused(path: Path, text: str) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr("splendor_rules.compiler.backend.build.write_atomically", refused)
    result = run("build")
    assert result.exit_code == 2
    assert "cannot write generated/marvel.py: Permission denied" in result.stderr
    assert_clean(result)


def test_the_build_module_still_stops_at_the_first_broken_edition(editions: Path) -> None:
    """build_all's contract is unchanged: it raises; the command line reads
    `render`, which reports every edition that does not build."""
    shutil.copy(RULES / "broken_parent.rules", editions)
    with pytest.raises(build.BuildError):
        build.build_all(editions, editions.parent / "out")
