"""Notes: a diagnostic's related places (dsl/diagnostics.py), shown by
`check` after the diagnostic, each with its own source line and caret, as
gcc's "note: first declared here"."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from splendor_rules.compiler.cli import main
from splendor_rules.dsl.diagnostics import Diagnostic, Note, Sources, render
from splendor_rules.dsl.syntax import Span

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_a_note_is_rendered_after_its_diagnostic_with_its_line_and_caret():
    sources = Sources()
    sources.add("a.rules", "zone spare: cards\nzone spare: tiles\n")
    sources.add("b.rules", "first\n")
    diagnostic = Diagnostic(
        "error",
        "zone 'spare' is declared twice",
        Span("a.rules", 2, 6, 2, 11),
        notes=(
            Note("first declared here", Span("a.rules", 1, 6, 1, 11)),
            Note("in another \x1b file", Span("b.rules", 1, 1, 1, 6)),
            Note("a file not read", Span("c.rules", 3, 1, 3, 2)),
        ),
    )
    assert render(diagnostic, sources).split("\n") == [
        "a.rules:2:6: error: zone 'spare' is declared twice",
        "    zone spare: tiles",
        "         ^~~~~",
        "a.rules:1:6: note: first declared here",
        "    zone spare: cards",
        "         ^~~~~",
        "b.rules:1:1: note: in another \\x1b file",
        "    first",
        "    ^~~~~",
        "c.rules:3:1: note: a file not read",
    ]


def test_check_shows_where_a_name_was_first_declared_even_in_the_parent():
    path = Path("tests") / "broken" / "91_name_declared_twice.rules"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    error = lines.index(f"{path}:4:11: error: the name 'reserve' is declared twice")
    note = lines[error + 3]
    assert note.startswith("editions/classic.rules:")
    assert note.endswith(": note: first declared here")
    assert "action reserve" in lines[error + 4]
