"""`splendor-rules check`: summaries, located errors and exit codes
(0 all is well, 1 a rule file is wrong, 2 the command line is wrong)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from splendor_rules.compiler.cli import main
from splendor_rules.compiler.frontend.pipeline import edition_files

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path("tests") / "broken"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_check_without_files_checks_every_shipped_edition():
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(edition_files()), lines  # one line per edition, discovered
    classic = next(line for line in lines if line.startswith("classic "))
    marvel = next(line for line in lines if line.startswith("marvel "))
    assert "rule ids 21/21" in classic
    assert "rule ids 27/27" in marvel
    assert "extends classic" in marvel
    assert "error" not in result.output


def test_check_a_broken_file_exits_1_with_a_located_error():
    path = BROKEN / "08_unknown_colour_name.rules"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: error: ", result.stderr, re.M)
    assert "unknown name 'whte' (did you mean 'white'?)" in result.stderr
    assert f"{path}: 1 error" in result.stderr
    assert result.stdout == ""


def test_check_reports_every_error_of_a_file():
    path = BROKEN / "25_no_parent_override_remove_rename.rules"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert len(re.findall(r": error: ", result.stderr)) == 3
    assert f"{path}: 3 errors" in result.stderr


def test_check_a_good_and_a_broken_file_exits_1_but_summarises_the_good_one():
    broken = BROKEN / "46_unknown_decision.rules"
    result = CliRunner().invoke(main, ["check", "editions/classic.rules", str(broken)])
    assert result.exit_code == 1
    assert result.stdout.startswith("classic (editions/classic.rules): ")
    assert f"{broken}:3:50: error: unknown decision 'retrun'" in result.stderr


def test_check_warning_only_exits_0_and_quiet_hides_the_warning():
    path = BROKEN / "48_unused_definition_warning.rules"
    loud = CliRunner().invoke(main, ["check", str(path)])
    assert loud.exit_code == 0
    assert "warning: definition 'held' is never used" in loud.stderr
    assert loud.stdout.startswith("unused (")
    quiet = CliRunner().invoke(main, ["check", "-q", str(path)])
    assert quiet.exit_code == 0
    assert quiet.output == ""


def test_check_a_missing_file_is_a_usage_error():
    result = CliRunner().invoke(main, ["check", "tests/broken/no_such_file.rules"])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


def test_check_help():
    result = CliRunner().invoke(main, ["check", "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output
    assert "--quiet" in result.output
