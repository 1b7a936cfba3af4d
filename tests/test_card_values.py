"""Card values (`card value NAME: TYPE`, `set k.NAME = v`) and definitions
with parameters (`define NAME(p: TYPE) = ...`): both engines, the checker's
diagnostics, the JSON form with card values and its refusals.

The variant tests/variants/card_values.rules uses both in a way that plays:
it is compiled here, its generated engine written to a temporary folder, and
whole games are compared with the reference interpreter by the shipped
differential harness (tests/test_differential.py).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
import test_differential as differential

from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "tests" / "variants" / "card_values.rules"


def checked(path: Path) -> m.Edition:
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


def engine_module(model: m.Edition, folder: Path) -> ModuleType:
    """The generated engine of a model, written to a file and imported."""
    name = f"{model.name}_engine"
    path = folder / f"{name}.py"
    path.write_text(render_engine(model, ROOT), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


Engines = tuple[ModuleType, InterpretedEngine]


def engines_of(path: Path, folder: Path) -> Engines:
    model = checked(path)
    return engine_module(model, folder), InterpretedEngine(model)


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Engines:
    return engines_of(VARIANT, tmp_path_factory.mktemp("card_values"))


# ------------------------------------------------------------ the variant


@pytest.mark.parametrize("seed", range(4))
def test_variant_games_agree(variant: Engines, seed: int) -> None:
    """Whole games of the variant: the generated engine and the interpreter
    agree after every action (states, views, legal actions, scores)."""
    generated, interpreter = variant
    sides = (
        differential.Side("generated", generated),  # type: ignore[arg-type]
        differential.Side("interpreter", interpreter),
    )
    name = "card_values"
    differential.REFERENCE[name] = interpreter
    try:
        rng = random.Random(seed)
        diff = differential.Differential("card_values", 2 + seed % 3, seed, 0, sides)
        differential.play(diff, rng.randrange, 400, differential.probe_with(rng.randrange))
    finally:
        differential.REFERENCE.pop(name, None)
    marked = [v for v in diff.a.engine.to_json(diff.sa)["card_values"]["marked"].values()]
    assert diff.plies > 20 and marked, "the game should mark some cards"
