"""The catalogue of broken rule files: each one's diagnostics, word for word.

Every `tests/broken/NN_name.rules` holds one deliberate mistake (a few hold two
or three, to show that one run reports them all), named in its first-line
comment. Beside it, `NN_name.expected` holds exactly what the checker prints
for it: every diagnostic, errors and warnings, rendered with `dsl.diagnostics.
render` (the form `splendor-rules check` prints), paths relative to the project
root, one after the other.

A change to a message, a hint or a location shows up here as a diff against the
golden text. When the change is intended, regenerate the goldens and read the
diff before committing it:

    UPDATE_GOLDENS=1 python -m pytest tests/test_broken_catalogue.py

Files whose name contains `warning` must produce warnings and no error (the
edition is otherwise valid); every other file must produce at least one error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.dsl.diagnostics import Sources, render

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path("tests") / "broken"  # relative, so that diagnostics name it so
FILES = sorted((ROOT / BROKEN).glob("*.rules"))
UPDATE = os.environ.get("UPDATE_GOLDENS") == "1"


def _compile(name: str) -> tuple[Compiled, str]:
    sources = Sources()
    compiled = compile_file(BROKEN / name, sources)
    text = "".join(render(d, sources) + "\n" for d in compiled.diagnostics)
    return compiled, text


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_catalogue_is_large():
    assert len(FILES) >= 30
    assert all((f.with_suffix(".expected")).is_file() or UPDATE for f in FILES)


def test_every_golden_has_its_rule_file():
    orphans = [g.name for g in (ROOT / BROKEN).glob("*.expected")
               if not g.with_suffix(".rules").is_file()]
    assert orphans == []


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_first_line_says_what_is_wrong(path: Path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# ") and len(first) > 10


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_diagnostics_match_golden(path: Path):
    _, text = _compile(path.name)
    golden = path.with_suffix(".expected")
    if UPDATE:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_severity_and_locations(path: Path):
    compiled, _ = _compile(path.name)
    severities = [d.severity for d in compiled.diagnostics]
    if "warning" in path.name:
        assert "warning" in severities
        assert "error" not in severities
        assert compiled.ok
    else:
        assert "error" in severities
        assert not compiled.ok
    for diagnostic in compiled.diagnostics:
        assert diagnostic.span.line >= 1, diagnostic
        assert diagnostic.span.column >= 1, diagnostic
