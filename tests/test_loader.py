"""The one loader (compiler/tools/loader.py): an edition's name or a rule
file's path into an engine of each kind it can make."""

from __future__ import annotations

import linecache
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

from splendor_rules.compiler.frontend.pipeline import edition_files
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.runtime.loading import EngineUnavailable, load_engine
from splendor_rules.compiler.tools import loader

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = edition_files()


@pytest.fixture(autouse=True)
def forget_rendered() -> Iterator[None]:
    """Leave no module this test rendered in sys.modules."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("rendered_"):
            del sys.modules[name]


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_a_rule_file_and_its_name_give_engines_that_agree(path: Path) -> None:
    by_file = loader.load(path)
    name = by_file.EDITION
    assert loader.load(name) is load_engine(name)
    installed = load_engine(name)
    interpreted = loader.load(str(path), "interpreted")
    assert isinstance(interpreted, InterpretedEngine)
    for engine in (by_file, interpreted):
        state = engine.new_game(2, 7)
        assert engine.legal_actions(state) == installed.legal_actions(installed.new_game(2, 7))
        assert engine.to_json(state) == installed.to_json(installed.new_game(2, 7))


def test_a_rule_file_engine_comes_from_the_cache_and_shows_in_tracebacks() -> None:
    path = RULE_FILES[0]
    engine = loader.load(path)
    assert engine.__name__.startswith("splendor_rules_cache_python_")
    # an entry of a cache (the session's, or a test's own that built the same key first)
    assert Path(str(engine.__file__)).parent.parent.name == "engines"
    assert loader.load(path) is engine  # the same build: imported once per process
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply(engine.new_game(2, 0), ("no such action",))
    frames = traceback.extract_tb(refused.value.__traceback__)
    assert frames[-1].filename == engine.__file__ and frames[-1].line


def test_a_rendered_engine_has_a_readable_name_and_shows_in_tracebacks() -> None:
    path = RULE_FILES[0]
    model = loader.check_rule_file(path)
    engine = loader.rendered_engine(model, path.parent)
    module = sys.modules[f"rendered_{engine.EDITION}"]
    assert module is engine
    assert module.__file__ == f"<rendered engine rendered_{engine.EDITION}>"
    assert linecache.getline(module.__file__, 1).startswith('"""')
    again = loader.rendered_engine(model, path.parent)  # a second one does not replace the first
    assert again is not engine and again.__name__ == f"rendered_{engine.EDITION}_2"
    state = engine.new_game(2, 0)
    with pytest.raises(engine.IllegalAction) as refused:
        engine.apply(state, ("no such action",))
    frames = traceback.extract_tb(refused.value.__traceback__)
    assert frames[-1].filename == module.__file__
    assert frames[-1].line  # the generated code's own line, shown


def test_a_rendered_module_written_to_a_folder_and_not_registered(tmp_path: Path) -> None:
    module = loader.module_from_source(
        "ANSWER = 42\n", "rendered_probe", folder=tmp_path, register=False
    )
    assert module.ANSWER == 42 and "rendered_probe" not in sys.modules
    assert module.__file__ == str(tmp_path / "rendered_probe.py")
    assert (tmp_path / "rendered_probe.py").read_text("utf-8") == "ANSWER = 42\n"


def test_a_module_that_fails_is_not_left_registered() -> None:
    with pytest.raises(ZeroDivisionError):
        loader.module_from_source("1 / 0\n", "rendered_broken")
    assert "rendered_broken" not in sys.modules


def test_a_rule_file_with_mistakes_is_refused_with_them() -> None:
    broken = ROOT / "tests" / "hostile" / "cli" / "broken_syntax.rules"
    with pytest.raises(loader.RuleFileMistakes) as refused:
        loader.load(broken)
    assert "broken_syntax.rules has mistakes:" in str(refused.value)
    assert "error:" in str(refused.value) and "^" in str(refused.value)
    assert isinstance(refused.value, EngineUnavailable)


def test_what_a_rule_file_cannot_give(tmp_path: Path) -> None:
    with pytest.raises(EngineUnavailable, match="no rule file"):
        loader.load(tmp_path / "missing.rules")
    with pytest.raises(EngineUnavailable, match="unknown engine kind"):
        loader.load(RULE_FILES[0], "compiled")  # type: ignore[arg-type]
    with pytest.raises(EngineUnavailable, match="no generated engine for edition 'nope'"):
        loader.load("nope")
